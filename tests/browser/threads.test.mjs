// Steps shared among Web Workers (issue 30; www/core/threads.js, www/core/share-worker.js) in Chromium,
// served cross-origin isolated as scripts/serve.sh serves:
// - the pool's step is the step of one thread, bit for bit (the snapshot's bytes), with 1, 2
//   and 3 workers, in every mode, in the build the page runs;
// - the workers take every chunk of a step once between them, and a worker slowed down
//   takes fewer;
// - <boids-flock> shares its steps with threads="on" (threads() says how many), not below
//   THREADS_FROM without it, not with threads="1", and not on a page that isn't isolated
//   (no error, and the flock that shared steps make);
// - a worker that fails to start leaves a working flock on one thread;
// - a flock removed from the page ends its workers: 50 flocks added and removed leave none.
// (The flocks are small and their canvases tiny: software WebGL draws 20,000 cones in
// about 0.7 s a frame here.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { distDir, serve, useDistAndBrowser, watchProblems } from './helpers.mjs';

const BLANK = '<!doctype html><title>threads</title>';
const HOST = (body) =>
  `<!doctype html><title>threads</title><script type="module" src="/www/boids-embed.js"></script>${body}`;
const BIG_PAUSED = HOST('<boids-flock count="6000" seed="5" threads="on" paused style="display:block;width:160px;height:120px"></boids-flock>');
const env = useDistAndBrowser({
  pages: {
    '/test/blank.html': BLANK,
    '/test/big-paused.html': BIG_PAUSED,
    '/test/big.html': HOST('<boids-flock count="6000" seed="5" threads="on" style="display:block;width:160px;height:120px"></boids-flock>'),
    '/test/mid.html': HOST('<boids-flock count="6000" seed="5" style="display:block;width:160px;height:120px"></boids-flock>'),
    '/test/one.html': HOST('<boids-flock count="6000" seed="5" threads="1" style="display:block;width:160px;height:120px"></boids-flock>'),
    '/test/small.html': HOST('<boids-flock count="1500" seed="5" style="display:block;width:160px;height:120px"></boids-flock>'),
    '/test/many.html': HOST('<div id="room"></div>'),
  },
});

/** Steps a flock of each mode `steps` times with a pool of `workers` and once on this thread; the snapshots' bytes compared in the page. */
async function compareInPage(page, workers, steps) {
  return page.evaluate(
    async ({ workers, steps }) => {
      const { Flock } = await import('/www/core/wasm-load.js');
      const { SharePool } = await import('/www/core/threads.js');
      const pool = new SharePool(workers);
      await pool.start();
      const modes = {
        'defaults (open sky, 3D)': () => {},
        'walls 3D': (f) => f.setSky(0),
        'wrap 3D': (f) => f.setWrap(true),
        '2D walls': (f) => (f.setSky(0), f.setFlat(1)),
        '2D sky, noise': (f) => (f.setFlat(1), f.setNoise(1)),
        'nearest-k 3D': (f) => (f.setSky(0), f.setTopological(1), f.setNearestK(7)),
        'nearest-k 2D wrap': (f) => (f.setFlat(1), f.setWrap(true), f.setTopological(1)),
        'species, alignment zone': (f) => (f.setSpeciesCount(3), f.setAlignmentRadius(2)),
        'hawks, leaders, obstacle, pointer, wind': (f) => {
          f.setSky(0);
          f.setPredators(2);
          f.setLeaders(1);
          f.setWindStrength(2);
          f.addObstacle(10, 10, 10, 3);
          f.setPointer(5, 5, 5, true);
        },
      };
      const differences = [];
      let shared = 0;
      for (const [name, setup] of Object.entries(modes)) {
        const alone = new Flock(3000, 9);
        const together = new Flock(3000, 9);
        setup(alone);
        setup(together);
        for (let step = 0; step < steps; step++) {
          alone.step(1 / 60);
          const ready = new Promise((resolve) => (pool.onReady = resolve));
          pool.begin(together, 1 / 60);
          await ready;
          if (pool.finish(together)) shared += 1;
        }
        const [a, b] = [alone.snapshot(), together.snapshot()];
        const same = a.length === b.length && a.every((byte, i) => byte === b[i]);
        if (!same) differences.push(name);
        if (alone.meanNeighbours() < 1) differences.push(`${name}: nobody saw anybody`);
        alone.free();
        together.free();
      }
      pool.stop();
      return { differences, shared, modes: Object.keys(modes).length };
    },
    { workers, steps },
  );
}

test('a step shared among 1, 2 or 3 workers is the step of one thread, in every mode', async () => {
  const page = await env.browser.newPage();
  const { problems, pageErrors } = watchProblems(page);
  await page.goto(`${env.server.url}test/blank.html`);
  assert.equal(await page.evaluate(() => crossOriginIsolated), true, 'the tests serve as scripts/serve.sh does');
  for (const workers of [1, 2, 3]) {
    const result = await compareInPage(page, workers, 12);
    assert.deepEqual(result.differences, [], `${workers} workers`);
    assert.equal(result.shared, 12 * result.modes, `${workers} workers: every step was shared and taken in`);
  }
  assert.deepEqual([...problems, ...pageErrors], []);
  await page.close();
});

/** The element on `page` once it runs: how many threads, steps taken, its snapshot after `steps` more. */
async function runElement(page, { steps = 12, shared = 0 } = {}) {
  await page.waitForFunction(() => document.querySelector('boids-flock')?.dataset.state === 'running', null, { timeout: 60_000 });
  return page.evaluate(async ({ steps, shared }) => {
    const el = document.querySelector('boids-flock');
    // The pool starts on the first frames; steps are shared once its workers have answered.
    const deadline = performance.now() + 60_000;
    const done = () => el.steps >= steps && (el.sharing.pool?.taken ?? 0) >= shared;
    while (!done() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return { threads: el.threads(), steps: el.steps, isolated: crossOriginIsolated, workers: el.sharing.pool?.workers.length ?? 0, taken: el.sharing.pool?.taken ?? 0 };
  }, { steps, shared });
}

/** Steps a 3D flock `steps` times with a pool of 2 and once on this thread: how many chunks each worker took a step, and whether the flocks agree. */
async function claimInPage(page, steps) {
  return page.evaluate(async (steps) => {
    const { Flock } = await import('/www/core/wasm-load.js');
    const { SharePool } = await import('/www/core/threads.js');
    const pool = new SharePool(2);
    await pool.start();
    const [alone, together] = [new Flock(6000, 3), new Flock(6000, 3)];
    const taken = [];
    for (let i = 0; i < steps; i++) {
      alone.step(1 / 60);
      const ready = new Promise((resolve) => (pool.onReady = () => resolve([...pool.inFlight.chunks])));
      pool.begin(together, 1 / 60);
      taken.push(await ready);
      if (!pool.finish(together)) throw new Error('a shared step was not taken in');
    }
    const [a, b] = [alone.snapshot(), together.snapshot()];
    pool.stop();
    return { taken, same: a.length === b.length && a.every((byte, i) => byte === b[i]) };
  }, steps);
}

// Flock::chunks: 16 a worker in 3D (tests/parts.rs checks that they hold every boid once).
const CHUNKS_OF_TWO = 32;

/** Six steps shared by two workers on `server`'s blank page: the same flock as one thread's, every chunk taken once a step; how many each worker took, step by step. */
async function claimedChunks(server) {
  const page = await env.browser.newPage();
  const { problems, pageErrors } = watchProblems(page);
  await page.goto(`${server.url}test/blank.html`);
  const run = await claimInPage(page, 6);
  assert.ok(run.same, 'the step of one thread');
  for (const chunks of run.taken) assert.equal(chunks[0] + chunks[1], CHUNKS_OF_TWO, `every chunk once: ${JSON.stringify(run.taken)}`);
  assert.deepEqual([...problems, ...pageErrors], []);
  await page.close();
  return run.taken;
}

test('the workers take chunks one at a time: every chunk once, fewer for a worker the host slows', async () => {
  await claimedChunks(env.server);
  // The first worker waits 60 ms before each step (the host's other work, as it were):
  // the second takes most of the chunks, and the flock is the same.
  const real = readFileSync(path.join(distDir, 'www/core/share-worker.js'), 'utf8');
  const slowed = await serve({
    pages: {
      '/test/blank.html': BLANK,
      '/www/share-worker-real.js': real,
      '/www/core/share-worker.js': `import '/www/share-worker-real.js';
const answer = self.onmessage;
self.onmessage = (event) => {
  if (event.data.step && self.name.startsWith('boids step 1/')) for (const until = performance.now() + 60; performance.now() < until; );
  answer(event);
};`,
    },
  });
  try {
    const taken = await claimedChunks(slowed);
    const [slow, fast] = [0, 1].map((k) => taken.reduce((sum, chunks) => sum + chunks[k], 0));
    // An even split would be 1:1. Measured 1:2 to 1:4; under a loaded CI machine 65:127, so
    // the bound is 1:1.5 (a scheduler that ignores the slowed worker still fails it).
    assert.ok(slow * 1.5 < fast, `the slowed worker took ${slow} chunks, the other ${fast}`);
  } finally {
    await slowed.close();
  }
});

// A worker's FlockShare answers a claim that is not a chunk's number with a TypeError, a
// claim that throws with its error, and a dt the step would split with a RangeError; a
// claim that never runs out ends; and it steps again afterwards.
test("a worker's FlockShare refuses what cannot be a step, and steps on", async () => {
  const page = await env.browser.newPage();
  const { problems, pageErrors } = watchProblems(page);
  await page.goto(`${env.server.url}test/blank.html`);
  const result = await page.evaluate(async () => {
    const { Flock } = await import('/www/core/wasm-load.js');
    const { FlockShare } = await import('/boids.js');
    const flock = new Flock(2000, 4);
    const head = flock.shareBegin();
    const [positions, velocities, species] = flock.shareViews().map((view) => view.slice());
    const share = new FlockShare();
    const load = () => {
      share.load(head, 2000);
      const [p, v, s] = share.views();
      p.set(positions);
      v.set(velocities);
      s.set(species);
    };
    const attempt = (dt, claim) => {
      load();
      try {
        share.advance(dt, claim);
        return `ran: ${share.runs().length / 2} runs`;
      } catch (error) {
        return `${error.name}: ${error.message}`;
      }
    };
    let next = 0;
    let forever = 0;
    return {
      word: attempt(1 / 60, () => 'seven'),
      negative: attempt(1 / 60, () => -1),
      throws: attempt(1 / 60, () => {
        throw new RangeError('no chunks today');
      }),
      long: attempt(1, () => next++),
      forever: attempt(1 / 60, () => (forever++, 0)),
      claims: forever,
      after: attempt(1 / 60, ((k) => () => k++)(0)),
    };
  });
  assert.match(result.word, /^TypeError: FlockShare.advance: claim\(\) must be a chunk's number, got a string/);
  assert.match(result.negative, /^TypeError: FlockShare.advance: claim\(\) must be a chunk's number/);
  assert.equal(result.throws, 'RangeError: no chunks today');
  assert.match(result.long, /^RangeError: FlockShare.advance: dt must be one substep/);
  assert.match(result.forever, /^ran: \d+ runs$/, 'the same chunk claimed again and again is stepped, and it ends');
  assert.equal(result.claims, 33, 'a claim that never runs out is asked once a chunk (Flock::chunks: 32 in 3D) and once more');
  assert.match(result.after, /^ran: \d+ runs$/);
  assert.deepEqual([...problems, ...pageErrors], []);
  await page.close();
});

test('<boids-flock threads="on"> shares its steps; below THREADS_FROM or with threads="1" it does not', async () => {
  const cores = await (async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.server.url}test/blank.html`);
    const n = await page.evaluate(() => navigator.hardwareConcurrency);
    await page.close();
    return n;
  })();
  const expected = Math.min(8, cores);
  for (const [name, threads] of [
    ['big', expected > 1 ? expected : 1],
    ['one', 1],
    ['mid', 1],
    ['small', 1],
  ]) {
    const page = await env.browser.newPage();
    const { problems, pageErrors } = watchProblems(page);
    await page.goto(`${env.server.url}test/${name}.html`);
    const run = await runElement(page, { shared: threads > 1 ? 5 : 0 });
    assert.equal(run.isolated, true);
    if (name === 'mid') assert.ok(6000 < (await page.evaluate(async () => (await import('/www/core/threads.js')).THREADS_FROM)), 'below the threshold');
    assert.equal(run.threads, threads, `${name}: threads()`);
    assert.ok(run.steps >= 12, `${name}: the flock flew (${run.steps} steps)`);
    assert.equal(page.workers().length, threads > 1 ? threads : 0, `${name}: workers alive`);
    if (threads > 1) assert.ok(run.taken >= 5, `${name}: shared steps taken in (${run.taken})`);
    assert.deepEqual([...problems, ...pageErrors], [], name);
    await page.close();
  }
});

// threads() only says: asked of a paused flock that should share its steps, it starts no
// workers (it used to start the pool); the frame that steps the flock does.
test('threads() asks, and starts no workers', async () => {
  const page = await env.browser.newPage();
  const { problems, pageErrors } = watchProblems(page);
  await page.goto(`${env.server.url}test/big-paused.html`);
  await page.waitForFunction(() => document.querySelector('boids-flock')?.flock);
  const asked = await page.evaluate(async () => {
    const el = document.querySelector('boids-flock');
    const threads = [el.threads(), el.threads()];
    await new Promise((r) => setTimeout(r, 500));
    return { threads, pool: Boolean(el.sharing.pool), wanted: el.sharing.wanted(), isolated: crossOriginIsolated };
  });
  assert.deepEqual(asked, { threads: [1, 1], pool: false, wanted: true, isolated: true });
  assert.equal(page.workers().length, 0, 'no workers for a question');
  // Unpaused, its frames start the pool and share its steps.
  const run = await page.evaluate(async () => {
    const el = document.querySelector('boids-flock');
    el.paused = false;
    const deadline = performance.now() + 60_000;
    while (!(el.sharing.pool?.taken > 2) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return { threads: el.threads(), taken: el.sharing.pool?.taken ?? 0 };
  });
  assert.ok(run.threads > 1 && run.taken > 2, `shared once it flies: ${JSON.stringify(run)}`);
  assert.deepEqual([...problems, ...pageErrors], []);
  await page.close();
});

// The isolated side takes its 20 steps through its element's own pool, the plain side on its
// one thread: the same flock either way. (Both pages paused: a running page would add the
// steps of however many frames it drew before the test read it. An earlier form of this
// test ran the isolated page unpaused and failed under load for that reason.)
test('a page that is not cross-origin isolated steps on one thread, silently, the same flock', async () => {
  const plain = await serve({ isolated: false, pages: { '/test/big-paused.html': BIG_PAUSED } });
  try {
    const snapshots = [];
    for (const url of [`${plain.url}test/big-paused.html`, `${env.server.url}test/big-paused.html`]) {
      const page = await env.browser.newPage();
      const { problems, pageErrors } = watchProblems(page);
      await page.goto(url);
      await page.waitForFunction(() => document.querySelector('boids-flock')?.flock);
      const result = await page.evaluate(async () => {
        const el = document.querySelector('boids-flock');
        const isolated = crossOriginIsolated;
        let shared = 0;
        if (isolated) {
          // sharesSteps() starts the pool, as a frame does; then each step handed out and taken in.
          const deadline = performance.now() + 30_000;
          while (!el.sharing.sharesSteps() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
          const { pool } = el.sharing;
          const onReady = pool.onReady;
          for (let i = 0; i < 20; i++) {
            const ready = new Promise((resolve) => (pool.onReady = resolve));
            pool.begin(el.flock, 1 / 60);
            await ready;
            if (pool.finish(el.flock)) shared += 1;
          }
          pool.onReady = onReady;
        } else {
          for (let i = 0; i < 20; i++) el.step();
        }
        return { isolated, shared, threads: el.threads(), snapshot: Array.from(el.flock.snapshot()) };
      });
      assert.deepEqual([...problems, ...pageErrors], [], url);
      snapshots.push(result);
      await page.close();
    }
    assert.equal(snapshots[0].isolated, false);
    assert.equal(snapshots[0].threads, 1, 'not isolated: one thread');
    assert.equal(snapshots[1].isolated, true);
    assert.ok(snapshots[1].threads > 1, 'isolated: shared');
    assert.equal(snapshots[1].shared, 20, 'isolated: every step shared');
    assert.deepEqual(snapshots[0].snapshot, snapshots[1].snapshot, 'the same flock');
  } finally {
    await plain.close();
  }
});

test('a worker that fails to start leaves a working flock on one thread', async () => {
  const broken = await serve({
    pages: {
      '/test/big.html': HOST('<boids-flock count="6000" seed="5" threads="on" style="display:block;width:160px;height:120px"></boids-flock>'),
      '/www/core/share-worker.js': 'throw new Error("this worker does not start");',
    },
  });
  try {
    const page = await env.browser.newPage();
    const { pageErrors } = watchProblems(page);
    const warnings = [];
    page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
    await page.goto(`${broken.url}test/big.html`);
    const run = await runElement(page, { steps: 12 });
    assert.equal(run.threads, 1);
    assert.ok(run.steps >= 12, `it flew on one thread (${run.steps} steps)`);
    assert.equal(run.workers, 0);
    assert.deepEqual(pageErrors, []);
    assert.ok(warnings.some((w) => /one thread/.test(w)), `it says why: ${warnings}`);
    assert.equal(await page.evaluate(() => document.querySelector('boids-flock').dataset.state), 'running');
    await page.close();
  } finally {
    await broken.close();
  }
});

// Workers are counted in the page (its Worker wrapped by the test, before any flock): Playwright
// reports a worker only once it has attached to it, and under load missed most of those that
// ended within moments (12 of about 100 in a clean clone's run). That none is left is
// Playwright's word: its list of the page's live workers ends empty.
test('50 flocks added and removed leave no worker behind', async () => {
  const page = await env.browser.newPage();
  const { problems, pageErrors } = watchProblems(page);
  await page.goto(`${env.server.url}test/many.html`);
  // In the page, one cycle after another: a flock of 5,000 sharing its steps (threads="on")
  // on a canvas of 64 × 48 (software WebGL draws fast there), removed once its
  // workers are made (every tenth once they step it, the last at once, while they start).
  const counted = await page.evaluate(async () => {
    const counts = { made: 0, ended: 0 };
    const Native = Worker;
    window.Worker = class extends Native {
      constructor(...args) {
        super(...args);
        counts.made += 1;
      }
      terminate() {
        counts.ended += 1;
        super.terminate();
      }
    };
    await customElements.whenDefined('boids-flock');
    const room = document.getElementById('room');
    let pools = 0;
    for (let cycle = 0; cycle < 50; cycle++) {
      const el = document.createElement('boids-flock');
      el.setAttribute('count', '5000');
      el.setAttribute('threads', 'on');
      el.style.cssText = 'display:block;width:64px;height:48px';
      room.append(el);
      // sharesSteps() starts the pool where a frame would (this page may give no frames meanwhile).
      const started = cycle % 10 === 0 ? () => el.sharing.sharesSteps() : () => (el.sharing.sharesSteps(), el.sharing.pool?.workers.length > 0);
      const deadline = performance.now() + (cycle === 49 ? 0 : 20_000);
      while (!started() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      if (el.sharing.pool?.workers.length) pools += 1;
      el.remove();
    }
    // A pool still starting when its flock left stops once its module arrives.
    await new Promise((r) => setTimeout(r, 500));
    window.Worker = Native;
    return { ...counts, pools, cores: Math.min(8, navigator.hardwareConcurrency) };
  });
  // Terminated workers leave Playwright's list when their close event arrives.
  const deadline = Date.now() + 20_000;
  while (page.workers().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.ok(counted.pools >= 49, `the flocks made their workers (${counted.pools} of 50)`);
  assert.ok(counted.made >= counted.cores * counted.pools, `a worker a core each (${counted.made} in all)`);
  assert.equal(counted.ended, counted.made, 'every worker made was ended');
  assert.equal(page.workers().length, 0, 'no worker left');
  assert.deepEqual([...problems, ...pageErrors], []);
  await page.close();
});
