// The algorithm lab's searches in the browser build (issue 42): SearchLab, in the experiment
// worker's module (boids_worker_bg.wasm, the `lab` feature), steps the standard scenario with
// its neighbours found by every pair (naive), the grid or a Morton sort. Checked here by their
// counts, never their times (a timed curve is scripts/bench-search.mjs): the distance checks a
// step grow as N^2 for the naive search and as N for the grid and Morton's over 1,000-16,000
// boids (log-log slopes 1.9-2.1 and 0.9-1.2); the three keep the same neighbours; a bad
// argument is a TypeError or RangeError, never a trap. BugSandbox (the classic bugs' sandbox):
// each bug's symptom through the binding, nothing non-finite out, its arguments checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDistAndBrowser, watchProblems } from './helpers.mjs';

const env = useDistAndBrowser({ pages: { '/test/blank.html': '<!doctype html><title>blank</title>' } });

/**
 * The blank page with the worker's module loaded as `window.lab`, and `window.caught(f)`: the
 * error `f` throws as { name, message, trap } (trap: a WebAssembly.RuntimeError), or null.
 */
async function openLab(page) {
  await page.goto(`${env.server.url}test/blank.html`);
  await page.evaluate(async () => {
    const bindings = await import('/boids_worker.js');
    await bindings.default({ module_or_path: '/boids_worker_bg.wasm' });
    window.lab = bindings;
    window.caught = (f) => {
      try {
        f();
        return null;
      } catch (error) {
        return { name: error.name, message: error.message, trap: error instanceof WebAssembly.RuntimeError };
      }
    };
  });
}

/** Least-squares slope of ln y against ln x. */
function slope(points) {
  const xs = points.map(([x]) => Math.log(x));
  const ys = points.map(([, y]) => Math.log(y));
  const mx = xs.reduce((a, b) => a + b) / xs.length;
  const my = ys.reduce((a, b) => a + b) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * (ys[i] - my);
    den += (x - mx) ** 2;
  });
  return num / den;
}

test('the checks a step grow as N^2 naive and as N by the grid and Morton; the neighbours agree', { timeout: 180_000 }, async () => {
  const page = await env.browser.newPage();
  const { pageErrors } = watchProblems(page);
  await openLab(page);
  const counts = [1000, 2000, 4000, 8000, 16000];
  const out = await page.evaluate(async (counts) => {
    const { SearchLab } = window.lab;
    const rows = [];
    for (const count of counts) {
      const row = { count };
      for (const method of SearchLab.methods().split(' ')) {
        const lab = new SearchLab(count, method);
        lab.step(1);
        const [checks, neighbours] = lab.stats();
        row[method] = { checks, neighbours };
        lab.free();
      }
      rows.push(row);
    }
    return { methods: SearchLab.methods(), rows };
  }, counts);
  assert.equal(out.methods, 'grid naive morton');
  for (const row of out.rows) {
    assert.equal(row.naive.checks, row.count * (row.count - 1), `naive at ${row.count}: N(N-1) checks`);
    assert.ok(row.grid.neighbours > row.count, `some neighbours at ${row.count}`);
    assert.equal(row.morton.neighbours, row.grid.neighbours, `morton keeps the grid's neighbours at ${row.count}`);
    assert.equal(row.naive.neighbours, row.grid.neighbours, `naive keeps the grid's neighbours at ${row.count}`);
  }
  const slopes = Object.fromEntries(
    ['naive', 'grid', 'morton'].map((method) => [method, slope(out.rows.map((row) => [row.count, row[method].checks]))]),
  );
  console.log(`# log-log slopes of checks against N: ${JSON.stringify(slopes)}`);
  assert.ok(slopes.naive >= 1.9 && slopes.naive <= 2.1, `naive ${slopes.naive}`);
  assert.ok(slopes.grid >= 0.9 && slopes.grid <= 1.2, `grid ${slopes.grid}`);
  assert.ok(slopes.morton >= 0.9 && slopes.morton <= 1.2, `morton ${slopes.morton}`);
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('SearchLab refuses bad arguments with a TypeError or RangeError, never a trap', async () => {
  const page = await env.browser.newPage();
  await openLab(page);
  const out = await page.evaluate(async () => {
    const { SearchLab } = window.lab;
    const lab = new SearchLab(100, 'grid');
    const result = {
      method: caught(() => new SearchLab(100, 'octree')),
      methodType: caught(() => new SearchLab(100, 3)),
      methodLong: caught(() => new SearchLab(100, 'n'.repeat(1e6))),
      few: caught(() => new SearchLab(10, 'grid')),
      many: caught(() => new SearchLab(1e9, 'naive')),
      half: caught(() => new SearchLab(100.5, 'grid')),
      nan: caught(() => new SearchLab(NaN, 'grid')),
      count: caught(() => new SearchLab('100', 'grid')),
      steps: caught(() => lab.step(1e6)),
      stepsNone: caught(() => lab.step()),
      set: caught(() => lab.setMethod('Grid')),
    };
    lab.setMethod('naive');
    lab.step(1);
    result.after = Array.from(lab.stats());
    return result;
  });
  const expect = {
    method: ['RangeError', /^new SearchLab: method must be one of grid, naive, morton, got "octree"$/],
    methodType: ['TypeError', /^new SearchLab: method must be a string, got a number$/],
    methodLong: ['RangeError', /^new SearchLab: method is 1000000 characters long/],
    few: ['RangeError', /^new SearchLab: count must be a whole number from 50 to 100000, got 10$/],
    many: ['RangeError', /count must be a whole number from 50 to 100000, got 1000000000$/],
    half: ['RangeError', /got 100.5$/],
    nan: ['RangeError', /got NaN$/],
    count: ['TypeError', /^new SearchLab: count must be a number, got a string$/],
    steps: ['RangeError', /^SearchLab.step: steps must be a whole number from 1 to 600, got 1000000$/],
    stepsNone: ['TypeError', /^SearchLab.step: steps must be a number, got undefined/],
    set: ['RangeError', /^SearchLab.setMethod: method must be one of grid, naive, morton, got "Grid"$/],
  };
  for (const [name, [error, message]] of Object.entries(expect)) {
    assert.equal(out[name]?.name, error, `${name}: ${JSON.stringify(out[name])}`);
    assert.match(out[name].message, message, name);
    assert.equal(out[name].trap, false, `${name} trapped`);
  }
  assert.deepEqual(out.after, [100 * 99, out.after[1]], 'the lab still works: 100 boids, 9,900 checks naive');
  await page.close();
});

test('BugSandbox: each bug gives its symptom, no NaN leaves it, bad arguments are refused', { timeout: 120_000 }, async () => {
  const page = await env.browser.newPage();
  const { pageErrors } = watchProblems(page);
  await openLab(page);
  const out = await page.evaluate(async () => {
    const { BugSandbox } = window.lab;
    const finite = (s) => [...s.positions(), ...s.velocities()].every(Number.isFinite);
    /** 200 boids by seed 7 with `bug` on, after `seconds`: the symptoms, and whether all is finite. */
    const run = (bug, seconds) => {
      const s = new BugSandbox(200, 7);
      if (bug) s.setBug(bug, true);
      for (let t = 0; t < seconds * 4; t++) s.step(0.25);
      const out = { symptoms: Array.from(s.symptoms()), finite: finite(s), lost: Array.from(s.lost()).reduce((a, b) => a + b, 0) };
      s.free();
      return out;
    };
    const sandbox = new BugSandbox(50, 1);
    const result = {
      bugs: BugSandbox.bugs(),
      world: Array.from(BugSandbox.world()),
      correct: run(null, 10),
      self: run('self', 1),
      speed: run('speed', 10),
      reversed: run('reversed', 10),
      order: run('order', 10),
      radius: run('radius', 1),
      errors: {
        name: caught(() => sandbox.setBug('nan', true)),
        nameType: caught(() => sandbox.setBug(3, true)),
        on: caught(() => sandbox.setBug('self', 2)),
        onType: caught(() => sandbox.setBug('self', 'yes')),
        dt: caught(() => sandbox.step(NaN)),
        dtLong: caught(() => sandbox.step(5)),
        few: caught(() => new BugSandbox(1, 1)),
        seed: caught(() => new BugSandbox(50, -1)),
      },
    };
    sandbox.setBug('self', 1);
    sandbox.step(0.1);
    result.bugOn = sandbox.bug('self');
    result.lostThenFinite = [sandbox.symptoms()[0], finite(sandbox)];
    sandbox.setBug('self', 0);
    sandbox.step(0.1);
    result.back = [sandbox.symptoms()[0], finite(sandbox)];
    return result;
  });
  assert.equal(out.bugs, 'self speed reversed order radius');
  assert.deepEqual(out.world, [100, 10, 10, 4]);
  // [lost, speed ÷ cruise, median nearest ÷ separation radius, polarization, checks, neighbours]
  const [, speed, nearest, polarization, checks, neighbours] = out.correct.symptoms;
  assert.ok(speed >= 0.75 && nearest > 0.5 && polarization > 0.5, `the correct step flocks: ${out.correct.symptoms}`);
  assert.ok(checks === 200 * 199 && neighbours < checks / 5, `${out.correct.symptoms}`);
  assert.equal(out.self.symptoms[0], 200, 'itself as a neighbour: every boid lost to NaN');
  assert.equal(out.self.lost, 200);
  assert.ok(out.speed.symptoms[1] < 0.5, `no speed limit: the speed leaves cruise (${out.speed.symptoms})`);
  assert.ok(out.reversed.symptoms[2] < 0.2, `separation reversed: piled in points (${out.reversed.symptoms})`);
  assert.ok(out.order.symptoms[3] < 0.2, `forces zeroed first: no order (${out.order.symptoms})`);
  assert.equal(out.radius.symptoms[5], 200 * 199, 'a huge radius: everyone heeds everyone');
  for (const [name, run] of Object.entries(out).filter(([, v]) => v?.symptoms)) {
    assert.ok(run.finite && run.symptoms.every(Number.isFinite), `${name}: nothing non-finite leaves the sandbox`);
  }
  const expect = {
    name: ['RangeError', /^BugSandbox.setBug: name must be one of self, speed, reversed, order, radius, got "nan"$/],
    nameType: ['TypeError', /^BugSandbox.setBug: name must be a string, got a number$/],
    on: ['RangeError', /^BugSandbox.setBug: on must be true, false, 1 or 0, got 2$/],
    onType: ['TypeError', /^BugSandbox.setBug: on must be true, false, 1 or 0/],
    dt: ['RangeError', /^BugSandbox.step: dt must be above 0 and at most 1 seconds, got NaN$/],
    dtLong: ['RangeError', /got 5$/],
    few: ['RangeError', /^new BugSandbox: count must be a whole number from 2 to 2000, got 1$/],
    seed: ['RangeError', /^new BugSandbox: seed must be a whole number from 0 to 4294967295, got -1$/],
  };
  for (const [name, [error, message]] of Object.entries(expect)) {
    assert.equal(out.errors[name]?.name, error, `${name}: ${JSON.stringify(out.errors[name])}`);
    assert.match(out.errors[name].message, message, name);
    assert.equal(out.errors[name].trap, false, `${name} trapped`);
  }
  assert.equal(out.bugOn, true);
  assert.deepEqual(out.lostThenFinite, [50, true]);
  assert.deepEqual(out.back, [0, true], 'turned off, the lost fly again');
  assert.deepEqual(pageErrors, []);
  await page.close();
});
