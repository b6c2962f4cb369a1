// The neighbour searches' cost curve in the browser build (issue 42), measured by the lesson's
// own instrument: in headless Debian chromium, www/lab/cost-curve.js's measureCostCurve runs
// its worker (www/lab/lab-worker.js: SearchLab in the experiment worker's module,
// boids_worker_bg.wasm, SIMD128, the `lab` feature), which steps the standard scenario
// (shared/bench-scenario.md) settled BENCH_WARMUP steps by the grid, then with its neighbours
// found by each method, over counts on a log scale (250 to 16,000, √2 apart; a method stops
// past a step of BENCH_STOP_MS but still measures the texts' table's counts). Prints per count
// the median ms a step (of batches of steps at least 10 ms long), the distance checks and
// neighbours of the first step by the method; each method's log-log slopes of checks and time
// over 1,000-16,000; and the texts' table, steps a second (the step alone, no drawing) at
// 500, 2,000 and 10,000, naive against grid. A benchmark, not a test
// (tests/browser/search-lab.test.mjs and algorithm-lesson.test.mjs check the counts). Needs
// dist/ built: `trunk build --release --offline` first.
//
// Env: BENCH_WARMUP (60; 1200 for the settled flock, 20 s), BENCH_STEPS (9, the median's),
// BENCH_STOP_MS (250).
import { launchBrowser, serve } from '../tests/browser/helpers.mjs';

const warmup = Number(process.env.BENCH_WARMUP ?? 60);
const steps = Number(process.env.BENCH_STEPS ?? 9);
const stopMs = Number(process.env.BENCH_STOP_MS ?? 250);
const counts = [...new Set([...Array.from({ length: 13 }, (_, k) => Math.round(250 * 2 ** (k / 2))), 10000])].sort((a, b) => a - b);

const server = await serve({ pages: { '/bench/blank.html': '<!doctype html><title>bench</title>' } });
const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  page.on('pageerror', (err) => console.error('page error:', err));
  await page.goto(`${server.url}bench/blank.html`);
  const { points, slopes, table } = await page.evaluate(
    async ({ counts, warmup, steps, stopMs }) => {
      const lab = await import('/www/lab/cost-curve.js');
      const points = await lab.measureCostCurve({ counts, warmup, steps, stopMs });
      const methods = ['naive', 'grid', 'morton'];
      const slopes = methods.map((m) => [m, lab.fitSlope(points, m, 'checks'), lab.fitSlope(points, m, 'ms')]);
      const table = [500, 2000, 10000].map((n) => [n, lab.stepsPerSecond(points, 'naive', n), lab.stepsPerSecond(points, 'grid', n)]);
      return { points, slopes, table };
    },
    { counts, warmup, steps, stopMs },
  );
  console.log(`neighbour search cost in ${await browser.version()}, standard scenario settled ${warmup} steps, median of ${steps}`);
  console.log(`${'method'.padStart(8)} ${'N'.padStart(7)} ${'ms/step'.padStart(10)} ${'checks/step'.padStart(14)} ${'neighbours'.padStart(12)}`);
  for (const p of points) {
    console.log(
      `${p.method.padStart(8)} ${String(p.count).padStart(7)} ${p.ms.toFixed(3).padStart(10)} ${String(p.checks).padStart(14)} ${String(p.neighbours).padStart(12)}`,
    );
  }
  console.log('\nlog-log slopes over 1,000-16,000 boids (checks; time)');
  for (const [method, checks, time] of slopes) {
    console.log(`${method.padStart(8)}: checks ${checks.toFixed(2)}, time ${time.toFixed(2)}`);
  }
  console.log("\nsteps a second (the step alone), as the texts' table has it");
  const rate = (r) => (r == null ? '–' : r.toFixed(0));
  for (const [count, naive, grid] of table) {
    const neighbours = points.find((p) => p.method === 'grid' && p.count === count)?.neighbours;
    console.log(`${String(count).padStart(7)}: naive ${rate(naive)}, grid ${rate(grid)} (neighbours a boid: ${(neighbours / count).toFixed(1)})`);
  }
} finally {
  await browser.close();
  await server.close();
}
