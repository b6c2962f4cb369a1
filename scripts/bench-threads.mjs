// The step shared among workers (issue 30), timed in the page as it runs (the build it picks,
// its own www/core/threads.js pool), served cross-origin isolated: for each count, a flock is
// settled (1,200 steps, shared among the most workers: the same flock bit for bit as on one
// thread), then 50 steps are timed on one thread and with each number of workers, step by
// step in turn, each from the same settled snapshot. A shared step is timed from
// handing it out to taking it in: the copies, the messages and the workers' wait are in it.
// In the same turns, two workers each step a whole copy of the flock at once ("2 × whole"):
// what this machine gives two threads doing this very work at that moment. A step cut in
// halves could reach at best that time ÷ twice one worker's ("ceiling"): 0.5 where the two
// cores don't slow each other, more where they do (the host's other tenants, shared caches
// and memory). Nothing is drawn meanwhile. Then the page itself at 100,000 boids: its
// frames, with and without threads.
//
// Run alone: `node scripts/bench-threads.mjs` (dist/ built), or from bench-wasm.mjs.
// Env: BENCH_THREAD_COUNTS (1500,5000,10000,100000), BENCH_WORKERS (1,2), BENCH_ROUNDS (1),
// BENCH_PAGE=0 (leaves the page's frames out).
// The ceiling needs 1 among BENCH_WORKERS.

const STEPS = 50;
const SETTLE = 1200;

/** Runs in the page: median ms a step for `scenario` at `count`, one thread and each of `workers`. */
async function timeInPage({ count, scenario, workers, rounds, settle, steps }) {
  const { Flock } = await import('/www/core/wasm-load.js');
  const { SharePool } = await import('/www/core/threads.js');
  const make = () => {
    const flock = new Flock(count, 42);
    if (scenario === 'standard') {
      // shared/bench-scenario.md's standard scenario, through the setters.
      const side = Math.cbrt((count * (4 / 3) * Math.PI * 125) / 8);
      flock.setSky(0);
      for (const [setter, value] of [['setSpeed', 10], ['setSeparation', 1.5], ['setAlignment', 1], ['setCohesion', 1], ['setPerception', 5], ['setSeparationRadius', 2], ['setFieldOfView', 360], ['setWorldSize', side]]) flock[setter](value);
      flock.setWrap(true);
      flock.rebuild();
    }
    return flock;
  };
  const pools = new Map();
  for (const n of new Set([...workers, Math.max(...workers)])) {
    const pool = new SharePool(n);
    await pool.start();
    pools.set(n, pool);
  }
  // A second one-worker pool, for two whole flocks stepped at once (the ceiling).
  const pair = workers.includes(1) ? [pools.get(1), new SharePool(1)] : null;
  await pair?.[1].start();
  const shared = async (pool, flock) => {
    const ready = new Promise((resolve) => (pool.onReady = resolve));
    pool.begin(flock, 1 / 60);
    await ready;
    if (!pool.finish(flock)) throw new Error('a shared step was not taken in');
  };
  // Settled with the most workers: the same flock as on one thread, sooner.
  const settled = make();
  const most = pools.get(Math.max(...workers));
  for (let i = 0; i < settle; i++) await shared(most, settled);
  const snapshot = settled.snapshot();
  const neighbours = settled.meanNeighbours();
  settled.free();
  const median = (times) => times.sort((a, b) => a - b)[times.length >> 1];
  // Step by step in turn (one thread, then each number of workers, each on its own copy of
  // the settled flock): a machine whose speed drifts from second to second (this shared one
  // does, by 1.5×) slows each way alike.
  const keys = ['1', ...workers.map((n) => `w${n}`), ...(pair ? ['pair'] : [])];
  const readings = Object.fromEntries(keys.map((key) => [key, []]));
  for (let round = 0; round < rounds; round++) {
    const flocks = keys.map(() => Flock.fromSnapshot(snapshot));
    const second = pair && Flock.fromSnapshot(snapshot); // the pair's other flock
    const times = keys.map(() => []);
    for (let i = 0; i < steps; i++) {
      for (const [k, key] of keys.entries()) {
        const start = performance.now();
        if (key === '1') flocks[k].step(1 / 60);
        else if (key === 'pair') await Promise.all([shared(pair[0], flocks[k]), shared(pair[1], second)]);
        else await shared(pools.get(Number(key.slice(1))), flocks[k]);
        times[k].push(performance.now() - start);
      }
    }
    for (const [k, key] of keys.entries()) {
      readings[key].push(median(times[k]));
      flocks[k].free();
    }
    second?.free();
  }
  for (const pool of pools.values()) pool.stop();
  pair?.[1].stop();
  // The ceiling from the same round as each other reading it is set against: the round
  // whose one-worker step was lowest.
  const round = pair ? readings.w1.indexOf(Math.min(...readings.w1)) : -1;
  const together = pair ? readings.pair[round] : null;
  const ceiling = pair ? together / (2 * readings.w1[round]) : null;
  return { neighbours, best: Object.fromEntries(Object.entries(readings).map(([k, v]) => [k, Math.min(...v)])), together, ceiling, readings };
}

/** Runs in the page: the frames of index.html's flock over `ms` (median frame, Sim readout, steps a second), then the draw's CPU time. */
async function pageFrames(ms) {
  const el = document.querySelector('boids-flock');
  const times = [];
  let last = performance.now();
  const steps0 = el.steps;
  const start = last;
  await new Promise((resolve) => {
    const frame = (now) => {
      times.push(now - last);
      last = now;
      if (now - start < ms) requestAnimationFrame(frame);
      else resolve();
    };
    requestAnimationFrame(frame);
  });
  const seconds = (performance.now() - start) / 1000;
  times.sort((a, b) => a - b);
  const sim = el.ui?.sim?.textContent ?? '';
  // The frame's work besides the step: the instance staging, the one upload and the draw
  // call, as JavaScript waits for them (median of 5 draws of the same flock). Timed after
  // the frames: each queues a frame for the GPU, and software WebGL's frames of 100,000
  // cones take seconds here.
  el.paused = true;
  const draws = [];
  for (let i = 0; i < 5; i++) {
    const begin = performance.now();
    el.view.draw(el.flock);
    draws.push(performance.now() - begin);
  }
  draws.sort((a, b) => a - b);
  return { draw: draws[2], frame: times[times.length >> 1], stepsPerSecond: (el.steps - steps0) / seconds, threads: el.threads(), sim };
}

export async function benchThreads(browser, server, { log = console.log } = {}) {
  const counts = (process.env.BENCH_THREAD_COUNTS ?? '1500,5000,10000,100000').split(',').map(Number);
  const workers = (process.env.BENCH_WORKERS ?? '1,2').split(',').map(Number);
  const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
  const page = await browser.newPage();
  page.on('pageerror', (err) => console.error('page error:', err));
  await page.goto(`${server.url}?paused=1&count=50`);
  await page.waitForFunction(() => ['running', 'no-webgl', 'error'].includes(document.documentElement.dataset.boids));
  // The steps are timed with nothing drawn: the flock's element is taken off the page (its
  // loop and workers stop), as software WebGL's frames here would take the cores the
  // workers need; the page's own frames are timed after.
  const { isolated, cores, build } = await page.evaluate(() => {
    const build = customElements.get('boids-flock').build;
    document.querySelector('boids-flock')?.remove();
    return { isolated: crossOriginIsolated, cores: navigator.hardwareConcurrency, build };
  });
  if (!isolated) throw new Error('the page is not cross-origin isolated: no threads to time');
  log(`\nshared among workers (${build}, ${cores} cores; settled ${SETTLE} steps, then the median of ${STEPS}${rounds > 1 ? `, lowest of ${rounds} rounds` : ''}): ms/step (× one thread)`);
  const ceilingHead = workers.includes(1) ? ` | ${'2 × whole'.padStart(9)} | ceiling` : '';
  log(`${'boids'.padStart(9)} | ${'scenario'.padEnd(9)} | ${'one thread'.padStart(10)} | ${workers.map((n) => `${n} worker${n > 1 ? 's' : ''}`.padStart(17)).join(' | ')} | neighbours${ceilingHead}`);
  for (const count of counts) {
    for (const scenario of ['standard', 'defaults']) {
      const settle = scenario === 'standard' ? 100 : SETTLE; // the standard scenario: 100 steps of warm-up
      const result = await page.evaluate(timeInPage, { count, scenario, workers, rounds, settle, steps: STEPS });
      const one = result.best[1];
      const cells = workers.map((n) => `${result.best[`w${n}`].toFixed(2)} (${(result.best[`w${n}`] / one).toFixed(2)}×)`.padStart(17));
      const ceiling = result.ceiling === null ? '' : ` | ${result.together.toFixed(2).padStart(9)} | ${result.ceiling.toFixed(2)}×`;
      log(`${String(count).padStart(9)} | ${scenario.padEnd(9)} | ${one.toFixed(2).padStart(10)} | ${cells.join(' | ')} | ${result.neighbours.toFixed(1).padStart(10)}${ceiling}`);
    }
  }
  await page.close();
  if (process.env.BENCH_PAGE === '0') return;
  // The page itself at 100,000 boids (index.html, the defaults), with and without threads.
  log(`\nthe page at 100,000 boids (index.html, 1280×800, software WebGL here), 10 s after 20 s:`);
  for (const query of ['count=100000', 'count=100000&threads=1']) {
    const view = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    view.on('console', (message) => message.type() === 'warning' && log(`  (${query}: ${message.text()})`));
    await view.goto(`${server.url}?${query}&readout=1`);
    await view.waitForFunction(() => document.documentElement.dataset.boids === 'running', null, { timeout: 120_000 });
    await new Promise((r) => setTimeout(r, 20_000));
    const frames = await view.evaluate(pageFrames, 10_000);
    log(`  ${query.padEnd(24)} threads ${frames.threads}, draw ${frames.draw.toFixed(2)} ms of the page's thread, median frame ${frames.frame.toFixed(0)} ms, ${frames.stepsPerSecond.toFixed(1)} steps/s (${(frames.stepsPerSecond / 60).toFixed(2)}× real time), Sim readout "${frames.sim}"`);
    await view.close();
  }
}

// Alone: node scripts/bench-threads.mjs
if (import.meta.url === `file://${process.argv[1]}`) {
  const { launchBrowser, serve } = await import('../tests/browser/helpers.mjs');
  const server = await serve();
  const browser = await launchBrowser();
  try {
    await benchThreads(browser, server);
  } finally {
    await browser.close();
    await server.close();
  }
}
