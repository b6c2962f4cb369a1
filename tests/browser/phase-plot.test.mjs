// The experiment's phase plot (issue 26), without a browser: the rows → series function and
// the axes' ticks of www/experiment/phase-plot.js (a plain module: it touches the DOM only when it draws).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LEGS, MEASURES, seriesFromRows, statesFromRows, ticks } from '../../www/experiment/phase-plot.js';

const stat = (mean, sd = 0) => ({ mean, sd });
/** A row as runExperiment gives it, with `polarization` and `milling` set, the rest 0. */
function row(seed, direction, value, polarization, milling = stat(0)) {
  const zero = stat(0);
  return { param: 'noise', direction, seed, value, samples: 20, polarization, milling, groups: zero, largestGroup: zero, medianNearest: zero, meanNeighbours: zero };
}

const close = (a, b, message) => assert.ok(Math.abs(a - b) < 1e-12, `${message}: ${a} vs ${b}`);

test('several seeds: the mean of the rows’ means, the band their sample sd over the seeds', () => {
  const rows = [
    row(1, 'up', 0, stat(0.9, 0.01)),
    row(1, 'up', 1, stat(0.5, 0.2)),
    row(2, 'up', 0, stat(0.8, 0.05)),
    row(2, 'up', 1, stat(0.3, 0.2)),
    row(3, 'up', 0, stat(1.0, 0.02)),
    row(3, 'up', 1, stat(0.4, 0.1)),
  ];
  const { up, down } = seriesFromRows(rows, 'polarization');
  assert.deepEqual(down, [], 'no way down in an "up" sweep');
  assert.deepEqual(up.map((p) => [p.value, p.seeds]), [[0, 3], [1, 3]]);
  close(up[0].mean, 0.9, 'mean at 0');
  close(up[0].sd, 0.1, 'sd over seeds at 0 (not the windows’ sds)');
  close(up[0].lo, 0.8, 'band low');
  close(up[0].hi, 1.0, 'band high');
  close(up[1].mean, 0.4, 'mean at 1');
  close(up[1].sd, 0.1, 'sd at 1');
});

test('one seed: the band is the row’s own sd over its measuring window', () => {
  const { up } = seriesFromRows([row(7, 'up', 2, stat(0.6, 0.15))], 'polarization');
  assert.equal(up.length, 1);
  assert.equal(up[0].mean, 0.6);
  assert.equal(up[0].sd, 0.15);
  close(up[0].lo, 0.45, 'low');
  close(up[0].hi, 0.75, 'high');
});

test('up-down: two legs, each sorted by value whatever the order run; the measure chosen', () => {
  // An up-down chain runs up then back down: the down rows come in decreasing value.
  const rows = [
    row(1, 'up', 0, stat(0.1), stat(0.8)),
    row(1, 'up', 5, stat(0.9), stat(0.1)),
    row(1, 'up', 10, stat(0.95), stat(0.05)),
    row(1, 'down', 10, stat(0.96), stat(0.04)),
    row(1, 'down', 5, stat(0.92), stat(0.07)),
    row(1, 'down', 0, stat(0.7), stat(0.2)),
  ];
  const pol = seriesFromRows(rows, 'polarization');
  assert.deepEqual(pol.up.map((p) => p.value), [0, 5, 10]);
  assert.deepEqual(pol.down.map((p) => p.value), [0, 5, 10], 'the way down sorted too');
  assert.deepEqual(pol.down.map((p) => p.mean), [0.7, 0.92, 0.96]);
  const mill = seriesFromRows(rows, 'milling');
  assert.deepEqual(mill.up.map((p) => p.mean), [0.8, 0.1, 0.05], 'milling, not polarization');
  assert.deepEqual(mill.down.map((p) => p.mean), [0.2, 0.07, 0.04]);
});

test('rows with nothing measured (NaN or null means) are left out of their point; an empty point is dropped', () => {
  const rows = [
    row(1, 'up', 0, stat(NaN, NaN)),
    row(2, 'up', 0, stat(0.5, 0.1)),
    row(1, 'up', 1, stat(null, null)),
    row(2, 'up', 1, stat(NaN, 0)),
  ];
  const { up } = seriesFromRows(rows, 'polarization');
  assert.equal(up.length, 1, 'value 1 had no number');
  assert.deepEqual([up[0].value, up[0].mean, up[0].sd, up[0].seeds], [0, 0.5, 0.1, 1], 'one seed left: its own sd');
});

test('no rows, unknown measures and unknown directions give empty series', () => {
  assert.deepEqual(seriesFromRows([], 'polarization'), { up: [], down: [] });
  assert.deepEqual(seriesFromRows(undefined, 'polarization'), { up: [], down: [] });
  assert.deepEqual(seriesFromRows([row(1, 'up', 0, stat(1))], 'nothing'), { up: [], down: [] });
  assert.deepEqual(seriesFromRows([row(1, 'sideways', 0, stat(1))], 'polarization'), { up: [], down: [] });
});

test('every measure a row has can be plotted; the legs differ in dash, not colour alone', () => {
  const keys = MEASURES.map(([key]) => key);
  assert.deepEqual(keys, ['polarization', 'milling', 'groups', 'largestGroup', 'medianNearest', 'meanNeighbours', 'correlationShare', 'anisotropy', 'velocityCorrelation', 'groupCorrelation', 'outside', 'collisions']);
  const [up, down] = LEGS;
  assert.notEqual(up[2], down[2], 'colours');
  assert.notDeepEqual(up[3], down[3], 'dashes');
});

test('ticks: round steps across the range', () => {
  assert.deepEqual(ticks(0, 1, 4), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(ticks(0, 1, 2), [0, 0.5, 1]);
  assert.deepEqual(ticks(0, 4, 4), [0, 1, 2, 3, 4]);
  assert.deepEqual(ticks(0.1, 12, 5), [2, 4, 6, 8, 10, 12]);
  assert.deepEqual(ticks(50, 1500, 3), [500, 1000, 1500]);
  assert.deepEqual(ticks(3, 3), [3], 'one value');
});

test('the state at each value is most seeds’ state; a tie is transitional; rows without one are left out', () => {
  const at = (seed, direction, value, state) => ({ ...row(seed, direction, value, stat(0)), state });
  const rows = [
    at(1, 'up', 2, 'milling'),
    at(2, 'up', 2, 'milling'),
    at(3, 'up', 2, 'swarm'),
    at(1, 'up', 0.5, 'swarm'),
    at(2, 'up', 0.5, 'polarized'),
    at(1, 'down', 2, 'milling'),
    at(2, 'down', 2, null),
    at(1, 'sideways', 2, 'swarm'),
  ];
  assert.deepEqual(statesFromRows(rows), {
    up: [
      { value: 0.5, state: 'transitional' },
      { value: 2, state: 'milling' },
    ],
    down: [{ value: 2, state: 'milling' }],
  });
  assert.deepEqual(statesFromRows(undefined), { up: [], down: [] });
});
