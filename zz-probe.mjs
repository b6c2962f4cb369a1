const { launchBrowser, serve } = await import('./tests/browser/helpers.mjs');
const server = await serve(); const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  await page.goto(`${server.url}?paused=1&count=50`);
  await page.waitForFunction(() => ['running', 'no-webgl', 'error'].includes(document.documentElement.dataset.boids));
  const out = await page.evaluate(async ({ count, workers, settle, scenario }) => {
    document.querySelector('boids-flock')?.remove();
    const { Flock } = await import('/www/wasm-load.js');
    const { SharePool } = await import('/www/threads.js');
    const pool = new SharePool(workers); await pool.start();
    const flock = new Flock(count, 42);
    if (scenario === 'standard') {
      const side = Math.cbrt((count * (4 / 3) * Math.PI * 125) / 8);
      flock.setSky(0);
      for (const [setter, value] of [['setSpeed', 10], ['setSeparation', 1.5], ['setAlignment', 1], ['setCohesion', 1], ['setPerception', 5], ['setSeparationRadius', 2], ['setFieldOfView', 360], ['setWorldSize', side]]) flock[setter](value);
      flock.setWrap(true); flock.rebuild();
    }
    for (let i = 0; i < settle; i++) flock.step(1/60);
    const other = Flock.fromSnapshot(flock.snapshot());
    for (let i = 0; i < 3; i++) other.step(1/60);
    const lines = [];
    for (let i = 0; i < 14; i++) {
      const s1 = performance.now(); other.step(1/60); const one = performance.now() - s1;
      const t0 = performance.now();
      const got = [];
      const ready = new Promise((resolve) => (pool.onReady = resolve));
      const orig = pool.answered.bind(pool);
      pool.answered = (d) => { got.push([performance.now() - t0, d]); orig(d); };
      pool.begin(flock, 1/60);
      const t1 = performance.now();
      await ready;
      const t2 = performance.now();
      pool.finish(flock);
      const t3 = performance.now();
      lines.push(`one ${one.toFixed(1)} | begin ${(t1-t0).toFixed(1)} ${got.map(([a, d]) => `ans ${a.toFixed(1)} [${d.phases.map(x=>x.toFixed(1))}] ${d.boids}`).join(' ')} finish ${(t3-t2).toFixed(1)} total ${(t3-t0).toFixed(1)}`);
    }
    pool.stop();
    return lines;
  }, { count: Number(process.env.N ?? 100000), workers: Number(process.env.W ?? 1), settle: Number(process.env.SETTLE ?? 100), scenario: process.env.SC ?? 'standard' });
  console.log(out.join('\n'));
} finally { await browser.close(); await server.close(); }
