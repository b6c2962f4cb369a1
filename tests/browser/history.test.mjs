// The snapshots kept for rewinding (www/lesson/history.js), in node: when one is due, what a change
// (a branch) drops, the span and the memory budget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { History, CHECKPOINT_EVERY, SPAN, MEMORY_BUDGET } from '../../www/lesson/history.js';

const bytes = (n, fill = 1) => new Uint8Array(n).fill(fill);

test('a snapshot is due every CHECKPOINT_EVERY steps; at() finds the last at or before a step', () => {
  const h = new History();
  assert.equal(h.due(0), true, 'an empty history wants one');
  h.record(0, bytes(10), false);
  assert.equal(h.due(CHECKPOINT_EVERY - 1), false);
  assert.equal(h.due(CHECKPOINT_EVERY), true);
  h.record(CHECKPOINT_EVERY, bytes(10, 2), false);
  assert.equal(h.at(CHECKPOINT_EVERY - 1).step, 0);
  assert.equal(h.at(CHECKPOINT_EVERY).step, CHECKPOINT_EVERY);
  assert.equal(h.at(-1), null);
  assert.deepEqual(h.range(CHECKPOINT_EVERY + 5), { start: 0, end: CHECKPOINT_EVERY + 5 });
});

test('after a seek back, the kept future stays; a change there drops it (a new branch)', () => {
  const h = new History({ every: 10 });
  for (let step = 0; step <= 100; step += 10) h.record(step, bytes(4, step), false);
  assert.equal(h.range(40).end, 100, 'seeking back keeps the furthest step reached');
  // Played on from 40 without a change: the snapshot due at 50 is the one kept, not a copy.
  assert.equal(h.due(45), false);
  h.record(45, bytes(4, 99), true); // a slider moved at step 45
  assert.deepEqual(
    h.points.map((p) => p.step),
    [0, 10, 20, 30, 40, 45],
  );
  assert.equal(h.range(45).end, 45, 'the old future is gone');
  assert.equal(h.bytes, 6 * 4);
  // The same step again without a change replaces it.
  h.record(45, bytes(4, 7), false);
  assert.equal(h.points.length, 6);
  assert.equal(h.at(45).bytes[0], 7);
});

test('the span: snapshots older than SPAN before the end go, the oldest still covering it', () => {
  const h = new History();
  for (let step = 0; step <= 2 * SPAN; step += CHECKPOINT_EVERY) h.record(step, bytes(100), false);
  const { start, end } = h.range(2 * SPAN);
  assert.equal(end, 2 * SPAN);
  assert.ok(end - start >= SPAN && end - start < SPAN + CHECKPOINT_EVERY, `kept ${start}..${end}`);
  assert.equal(h.limited, false);
});

test('the memory budget: a large flock keeps fewer seconds, and says so', () => {
  const h = new History();
  const size = 2_900_029; // a snapshot of 100,000 boids
  for (let step = 0; step <= SPAN; step += CHECKPOINT_EVERY) h.record(step, bytes(size), false);
  assert.ok(h.bytes <= MEMORY_BUDGET, `${h.bytes} bytes kept`);
  assert.equal(h.points.length, Math.floor(MEMORY_BUDGET / size));
  assert.equal(h.limited, true);
  const { start, end } = h.range(SPAN);
  assert.ok(end - start < SPAN / 2, `only ${(end - start) / 60} s kept`);
  // 10,000 boids (290 KB a snapshot) keep the whole minute.
  const small = new History();
  for (let step = 0; step <= 2 * SPAN; step += CHECKPOINT_EVERY) small.record(step, bytes(290_029), false);
  assert.equal(small.limited, false);
  assert.ok(small.range(2 * SPAN).end - small.range(2 * SPAN).start >= SPAN);
});
