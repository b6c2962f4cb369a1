// Times the simulation step compiled to wasm, in headless Debian chromium: opens the built
// page (dist/, paused), loads each of the two builds (the relaxed-SIMD one, boids_bg.wasm
// patched by boids_relaxed_bg.wasm.patch, which the page runs where the browser has relaxed
// SIMD, and boids_bg.wasm, which it runs elsewhere) and
// calls their exported `benchmarkStep(count, warmup, steps)`, which returns the median ms per
// step measured inside wasm on the standard benchmark scenario. Run via `bash scripts/bench.sh`
// (builds dist/ first).
//
// Then the settled scenarios (shared/bench-scenario.md): the standard scenario and every
// preset after 1,200 steps, the median of 50, through `benchmarkScenario`. With
// BENCH_ROUNDS above 1, every scenario is settled and timed once a round, the rounds one
// after another, and the table gives the lowest median with every round's beside it: on a
// shared machine the same step read up to 1.7× apart a minute apart, and other work only
// ever adds time.
//
// Env: BENCH_COUNTS (default 1000,10000,100000), BENCH_WARMUP (100), BENCH_STEPS (100),
// BENCH_SETTLED_COUNTS (1500,10000,100000; empty skips them), BENCH_ROUNDS (1); then the
// shared step (bench-threads.mjs: BENCH_THREAD_COUNTS, BENCH_WORKERS; BENCH_THREADS=0 skips it).
import { readFileSync } from 'node:fs';
import { launchBrowser, serve } from '../tests/browser/helpers.mjs';
import { benchThreads } from './bench-threads.mjs';

const counts = (process.env.BENCH_COUNTS ?? '1000,10000,100000').split(',').map(Number);
const warmup = Number(process.env.BENCH_WARMUP ?? 100);
const steps = Number(process.env.BENCH_STEPS ?? 100);
const settledCounts = (process.env.BENCH_SETTLED_COUNTS ?? '1500,10000,100000')
  .split(',')
  .filter((c) => c.trim() !== '')
  .map(Number);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));

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

/** The two builds (scripts/build-relaxed.sh); the page loads the first where the browser can. */
const BUILDS = [
  { name: 'relaxed SIMD', file: 'boids_relaxed_bg.wasm.patch' },
  { name: 'SIMD128', file: 'boids_bg.wasm' },
];

const server = await serve();
const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  page.on('pageerror', (err) => console.error('page error:', err));
  await page.goto(`${server.url}?paused=1&count=50`);
  await page.waitForFunction(() => ['running', 'no-webgl', 'error'].includes(document.documentElement.dataset.boids));
  const pageBuild = await page.evaluate(() => customElements.get('boids-flock').build);
  // Each build through its own instance of the bindings (one per query string).
  const loaded = await page.evaluate(async (builds) => {
    window.__bench = [];
    const names = [];
    for (const { name, file } of builds) {
      const bindings = await import(`/boids.js?${file}`);
      try {
        // The relaxed build is boids_bg.wasm patched, as the page makes it.
        const { patchedModule } = await import('/www/core/wasm-patch.js');
        const module = file.endsWith('.patch') ? await patchedModule('/boids_bg.wasm', `/${file}`) : `/${file}`;
        await bindings.default({ module_or_path: module });
      } catch (error) {
        console.error(`${file}: ${error}`);
        continue;
      }
      if (typeof bindings.benchmarkStep !== 'function') throw new Error('boids.js exports no benchmarkStep');
      window.__bench.push(bindings);
      names.push(name);
    }
    return names;
  }, BUILDS);

  // V8 first runs wasm through its baseline compiler and swaps in optimised code a little
  // later: a throwaway run first, so that the smallest flock is not timed on baseline code.
  await page.evaluate(() => window.__bench.forEach((bindings) => bindings.benchmarkStep(10000, 50, 10)));

  console.log(`wasm step (${browser.version()}), standard scenario, one thread — ${cpuModel()}`);
  console.log(`the page runs the ${pageBuild} build here`);
  const header = loaded.map((name) => `${`${name} ms/step`.padStart(22)} | ${'ns/boid-step'.padStart(13)}`);
  console.log(`${'boids'.padStart(9)} | ${header.join(' | ')}`);
  for (const count of counts) {
    const cells = [];
    for (let k = 0; k < loaded.length; k++) {
      const ms = await page.evaluate(
        ([k, count, warmup, steps]) => window.__bench[k].benchmarkStep(count, warmup, steps),
        [k, count, warmup, steps],
      );
      cells.push(`${ms.toFixed(3).padStart(22)} | ${((ms * 1e6) / count).toFixed(1).padStart(13)}`);
    }
    console.log(`${String(count).padStart(9)} | ${cells.join(' | ')}`);
  }

  if (settledCounts.length > 0) {
    const scenarios = await page.evaluate(() => [
      'standard',
      ...window.__bench[0].Flock.presets().map((preset) => preset.name),
    ]);
    const lowest = rounds > 1 ? `, the lowest of ${rounds} rounds (every round's after it)` : '';
    console.log(`\nsettled (1,200 steps, then the median of 50${lowest}): ms/step (× the standard scenario), neighbours`);
    const header = loaded.map((name) => `${name.padStart(24)}`);
    console.log(`${'boids'.padStart(9)} | ${'scenario'.padEnd(12)} | ${header.join(' | ')} | neighbours`);
    for (const count of settledCounts) {
      // readings[s][k]: the medians of scenario s in build k, one a round.
      const readings = scenarios.map(() => loaded.map(() => []));
      const neighbours = [];
      for (let round = 0; round < rounds; round++) {
        for (let s = 0; s < scenarios.length; s++) {
          for (let k = 0; k < loaded.length; k++) {
            const [ms, heeded] = await page.evaluate(
              ([k, s, count]) => Array.from(window.__bench[k].benchmarkScenario(s, count, 1200, 50)),
              [k, s, count],
            );
            readings[s][k].push(ms);
            neighbours[s] = heeded;
          }
        }
      }
      const best = readings.map((builds) => builds.map((ms) => Math.min(...ms)));
      for (let s = 0; s < scenarios.length; s++) {
        const cells = loaded.map((_, k) => {
          const rest = rounds > 1 ? ` [${readings[s][k].map((ms) => ms.toFixed(2)).join(' ')}]` : '';
          return `${best[s][k].toFixed(3)} ms (${(best[s][k] / best[0][k]).toFixed(2)}×)${rest}`.padStart(24);
        });
        console.log(
          `${String(count).padStart(9)} | ${scenarios[s].padEnd(12)} | ${cells.join(' | ')} | ${neighbours[s].toFixed(1)}`,
        );
      }
    }
  }
  // The step shared among workers (scripts/bench-threads.mjs), unless BENCH_THREADS=0.
  if (process.env.BENCH_THREADS !== '0') await benchThreads(browser, server);
} finally {
  await browser.close();
  await server.close();
}
