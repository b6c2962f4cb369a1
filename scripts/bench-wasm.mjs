// Times the simulation step compiled to wasm, in headless Debian chromium: opens the built
// page (dist/, paused), imports the wasm-bindgen module again and calls its exported
// `benchmarkStep(count, warmup, steps)`, which returns the median ms per step measured inside
// wasm on the standard benchmark scenario. Run via `bash scripts/bench.sh` (builds dist/ first).
//
// Env: BENCH_COUNTS (default 1000,10000,100000), BENCH_WARMUP (100), BENCH_STEPS (100).
import { readFileSync } from 'node:fs';
import { launchBrowser, serveDist } from '../tests/browser/helpers.mjs';

const counts = (process.env.BENCH_COUNTS ?? '1000,10000,100000').split(',').map(Number);
const warmup = Number(process.env.BENCH_WARMUP ?? 100);
const steps = Number(process.env.BENCH_STEPS ?? 100);

function cpuModel() {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    return line ? line.split(':')[1].trim() : 'unknown CPU';
  } catch {
    return 'unknown CPU';
  }
}

const server = await serveDist();
const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  page.on('pageerror', (err) => console.error('page error:', err));
  await page.goto(`${server.url}?paused=1&count=50`);
  await page.waitForFunction(() => ['running', 'no-webgl', 'error'].includes(document.documentElement.dataset.boids));
  await page.evaluate(async () => {
    const m = await import('/boids.js');
    await m.default();
    if (typeof m.benchmarkStep !== 'function') throw new Error('boids.js exports no benchmarkStep');
    window.__bench = m;
  });

  // V8 first runs wasm through its baseline compiler and swaps in optimised code a little
  // later: a throwaway run first, so that the smallest flock is not timed on baseline code.
  await page.evaluate(() => window.__bench.benchmarkStep(10000, 50, 10));

  console.log(`wasm step (${browser.version()}), standard scenario, one thread — ${cpuModel()}`);
  console.log(`${'boids'.padStart(9)} | ${'ms/step'.padStart(9)} | ${'ns/boid-step'.padStart(13)}`);
  for (const count of counts) {
    const ms = await page.evaluate(
      ([count, warmup, steps]) => window.__bench.benchmarkStep(count, warmup, steps),
      [count, warmup, steps],
    );
    const ns = (ms * 1e6) / count;
    console.log(`${String(count).padStart(9)} | ${ms.toFixed(3).padStart(9)} | ${ns.toFixed(1).padStart(13)}`);
  }
} finally {
  await browser.close();
  await server.close();
}
