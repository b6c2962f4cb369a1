// The neighbour searches' cost curve in the browser build (issue 42): in headless Debian
// chromium, the experiment worker's module (boids_worker_bg.wasm, SIMD128, the `lab` feature)
// steps the standard scenario (shared/bench-scenario.md) settled BENCH_WARMUP steps by the
// grid, then with its neighbours found by each method (SearchLab), over counts on a log scale
// (250 to 16,000, √2 apart; a method stops past a step of BENCH_STOP_MS). Prints per count the
// median ms a step (timed around the call: the step is wholly in wasm), the distance checks
// and neighbours a step; each method's log-log slopes of checks and time over 1,000-16,000;
// and the texts' table, steps a second (the step alone, no drawing) at 500, 2,000 and 10,000,
// naive against grid. A benchmark, not a test (tests/browser/search-lab.test.mjs checks the
// counts). Needs dist/ built: `trunk build --release --offline` first.
//
// Env: BENCH_WARMUP (60), BENCH_STEPS (9, the median's), BENCH_STOP_MS (250).
import { launchBrowser, serve } from '../tests/browser/helpers.mjs';

const warmup = Number(process.env.BENCH_WARMUP ?? 60);
const steps = Number(process.env.BENCH_STEPS ?? 9);
const stopMs = Number(process.env.BENCH_STOP_MS ?? 250);
const counts = Array.from({ length: 13 }, (_, k) => Math.round(250 * 2 ** (k / 2)));

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

const server = await serve({ pages: { '/bench/blank.html': '<!doctype html><title>bench</title>' } });
const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  page.on('pageerror', (err) => console.error('page error:', err));
  await page.goto(`${server.url}bench/blank.html`);
  await page.evaluate(async () => {
    const bindings = await import('/boids_worker.js');
    await bindings.default({ module_or_path: '/boids_worker_bg.wasm' });
    window.SearchLab = bindings.SearchLab;
  });
  /** One method at one count: { count, ms, checks, neighbours }. */
  const measure = (count, method) =>
    page.evaluate(
      ({ count, method, warmup, steps }) => {
        const lab = new window.SearchLab(count, 'grid');
        if (warmup > 0) lab.step(warmup);
        lab.setMethod(method);
        const times = [];
        for (let s = 0; s < steps; s++) {
          const start = performance.now();
          lab.step(1);
          times.push(performance.now() - start);
        }
        const [checks, neighbours] = lab.stats();
        lab.free();
        times.sort((a, b) => a - b);
        return { count, ms: times[times.length >> 1], checks, neighbours };
      },
      { count, method, warmup, steps },
    );
  console.log(`neighbour search cost in ${await browser.version()}, standard scenario settled ${warmup} steps, median of ${steps}`);
  console.log(`${'method'.padStart(8)} ${'N'.padStart(7)} ${'ms/step'.padStart(10)} ${'checks/step'.padStart(14)} ${'neighbours'.padStart(12)}`);
  const curves = {};
  for (const method of ['naive', 'grid', 'morton']) {
    curves[method] = [];
    for (const count of counts) {
      const point = await measure(count, method);
      console.log(
        `${method.padStart(8)} ${String(count).padStart(7)} ${point.ms.toFixed(3).padStart(10)} ${String(point.checks).padStart(14)} ${String(point.neighbours).padStart(12)}`,
      );
      curves[method].push(point);
      if (point.ms > stopMs) break;
    }
  }
  console.log('\nlog-log slopes over 1,000-16,000 boids (checks; time)');
  for (const [method, curve] of Object.entries(curves)) {
    const within = curve.filter((p) => p.count >= 1000 && p.count <= 16000);
    if (within.length < 2) {
      console.log(`${method.padStart(8)}: too few points`);
      continue;
    }
    const checks = slope(within.map((p) => [p.count, p.checks]));
    const time = slope(within.map((p) => [p.count, p.ms]));
    console.log(`${method.padStart(8)}: checks ${checks.toFixed(2)}, time ${time.toFixed(2)}`);
  }
  console.log('\nsteps a second (the step alone), as the texts\' table has it');
  for (const count of [500, 2000, 10000]) {
    const row = [];
    for (const method of ['naive', 'grid']) {
      const point = await measure(count, method);
      row.push(`${method} ${(1000 / point.ms).toFixed(0)} (${point.ms.toFixed(2)} ms)`);
    }
    console.log(`${String(count).padStart(7)}: ${row.join(', ')}`);
  }
} finally {
  await browser.close();
  await server.close();
}
