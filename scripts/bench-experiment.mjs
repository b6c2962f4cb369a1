// Times an experiment in headless Debian chromium (issue 26): the noise sweep the README
// reports, 11 values × 3 seeds × (20 s settle + 10 s measure) of 1,500 boids, run through
// www/experiment.js (its Web Worker) on the built page (dist/) while the page's own flock of
// 1,500 flies; prints the sweep's wall time and the page's frame times during it (from
// requestAnimationFrame). A benchmark, not a test: `bash scripts/bench.sh` does not run it;
// `trunk build --release --offline && node scripts/bench-experiment.mjs` does.
//
// Env: BENCH_EXPERIMENT_COUNT (1500), BENCH_EXPERIMENT_SEEDS (3), BENCH_EXPERIMENT_VALUES (11).
import { launchBrowser, serve } from '../tests/browser/helpers.mjs';

const count = Number(process.env.BENCH_EXPERIMENT_COUNT ?? 1500);
const seedCount = Number(process.env.BENCH_EXPERIMENT_SEEDS ?? 3);
const valueCount = Number(process.env.BENCH_EXPERIMENT_VALUES ?? 11);

const spec = {
  settings: { wrap: 1, alignment: 2.5 },
  param: 'noise',
  values: Array.from({ length: valueCount }, (_, k) => (4 * k) / Math.max(1, valueCount - 1)),
  direction: 'up',
  seeds: Array.from({ length: seedCount }, (_, k) => k + 1),
  count,
  settle: 20,
  measure: 10,
  sampleEvery: 0.5,
};

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

const server = await serve();
const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  page.on('pageerror', (err) => console.error('page error:', err));
  await page.goto(`${server.url}?count=1500`);
  await page.waitForFunction(() => ['running', 'no-webgl', 'error'].includes(document.documentElement.dataset.boids));
  const result = await page.evaluate(async (spec) => {
    const { runExperiment } = await import('/www/experiment.js');
    // The page's frames before and during the run.
    const frames = [];
    let last = performance.now();
    let running = true;
    const tick = (now) => {
      frames.push(now - last);
      last = now;
      if (running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const before = frames.splice(0);
    const start = performance.now();
    const run = await runExperiment(spec);
    const seconds = (performance.now() - start) / 1000;
    running = false;
    const steps = spec.values.length * spec.seeds.length * (spec.settle + spec.measure) * 60;
    const top = run.rows.filter((row) => row.value === spec.values.at(-1));
    const calm = run.rows.filter((row) => row.value === 0);
    const mean = (rows) => rows.reduce((sum, row) => sum + row.polarization.mean, 0) / rows.length;
    return { seconds, steps, before, during: frames, calm: mean(calm), top: mean(top), flock: window.flock?.simMs?.() };
  }, spec);
  const describe = (list) => {
    const sorted = [...list].sort((a, b) => a - b);
    return `${list.length} frames, median ${quantile(sorted, 0.5).toFixed(1)} ms, 95th percentile ${quantile(sorted, 0.95).toFixed(1)} ms, longest ${sorted.at(-1).toFixed(1)} ms`;
  };
  console.log(
    `sweep: ${spec.values.length} values × ${spec.seeds.length} seeds × ${spec.settle + spec.measure} s of ${count} boids ` +
      `(${result.steps} steps): ${result.seconds.toFixed(1)} s, ${((1000 * result.seconds) / result.steps).toFixed(3)} ms a step`,
  );
  console.log(`polarization at no noise ${result.calm.toFixed(3)}, at the top ${result.top.toFixed(3)}`);
  console.log(`the page's frames before the run: ${describe(result.before)}`);
  console.log(`the page's frames during the run: ${describe(result.during)}`);
} finally {
  await browser.close();
  await server.close();
}
