// The two builds of the simulation (scripts/build-relaxed.sh): a browser with relaxed SIMD
// loads boids_bg.wasm and boids_relaxed_bg.wasm.patch and runs the patched module, any other
// boids_bg.wasm alone; a missing or damaged patch falls back to boids_bg.wasm with a warning;
// and both builds move a flock the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canvasShot, foreground, useDistAndBrowser, waitFrames, waitRunning, watchProblems } from './helpers.mjs';

const env = useDistAndBrowser({ pages: { '/test/blank.html': '<!doctype html><title>builds</title>' } });

/** Opens the page (after `setup`, an init script) and returns which build ran and which wasm was fetched. */
async function openPage(setup) {
  const page = await env.browser.newPage();
  const watched = watchProblems(page);
  const wasm = [];
  page.on('request', (request) => {
    if (/\.wasm(\.patch)?$/.test(request.url())) wasm.push(new URL(request.url()).pathname);
  });
  if (setup) await setup(page);
  await page.goto(`${env.server.url}?count=400`);
  await waitRunning(page);
  await waitFrames(page, 10);
  const build = await page.evaluate(() => customElements.get('boids-flock').build);
  // Before the screenshot, whose overlay-hiding style the page's CSP refuses (a console error).
  const problems = [...watched.problems];
  const drawn = foreground(await canvasShot(page, `build-${build}.png`));
  return { page, build, wasm, drawn, problems, pageErrors: watched.pageErrors };
}

test('Chromium has relaxed SIMD: the page patches boids_bg.wasm into the relaxed build, and draws', { timeout: 120_000 }, async () => {
  const { page, build, wasm, drawn, problems } = await openPage();
  assert.equal(build, 'relaxed-simd');
  assert.deepEqual(wasm.sort(), ['/boids_bg.wasm', '/boids_relaxed_bg.wasm.patch']);
  assert.ok(drawn > 0.003, `cones drawn (${(drawn * 100).toFixed(2)} % of the canvas)`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a browser without relaxed SIMD (as Safari) loads boids_bg.wasm, and draws', { timeout: 120_000 }, async () => {
  const { page, build, wasm, drawn, problems } = await openPage((page) =>
    page.addInitScript(() => {
      // The probe module is the only thing validated before the page loads its build.
      WebAssembly.validate = () => false;
    }),
  );
  assert.equal(build, 'simd128');
  assert.deepEqual(wasm, ['/boids_bg.wasm']);
  assert.ok(drawn > 0.003, `cones drawn (${(drawn * 100).toFixed(2)} % of the canvas)`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('window.boidsBuild = "simd128" chooses the portable build where relaxed SIMD exists', { timeout: 120_000 }, async () => {
  const { page, build, wasm } = await openPage((page) =>
    page.addInitScript(() => {
      window.boidsBuild = 'simd128';
    }),
  );
  assert.equal(build, 'simd128');
  assert.deepEqual(wasm, ['/boids_bg.wasm']);
  await page.close();
});

for (const [what, fulfil, says] of [
  ['missing', (route) => route.fulfill({ status: 404, body: 'not found' }), /HTTP 404/],
  [
    'damaged (one byte changed)',
    async (route) => {
      const body = Buffer.from(await (await route.fetch()).body());
      body[body.length - 1] ^= 0x40; // a new byte near the end: the result's checksum fails
      await route.fulfill({ status: 200, body });
    },
    /wasm patch: /,
  ],
  [
    'made for another base',
    async (route) => {
      const body = Buffer.from(await (await route.fetch()).body());
      body[4] ^= 1; // the base length it names
      await route.fulfill({ status: 200, body });
    },
    /wasm patch: made for another base module/,
  ],
]) {
  test(`when the relaxed build's patch is ${what} the page says why and runs boids_bg.wasm`, { timeout: 120_000 }, async () => {
    const warnings = [];
    const { page, build, wasm, drawn, pageErrors } = await openPage(async (page) => {
      page.on('console', (message) => {
        if (message.type() === 'warning') warnings.push(message.text());
      });
      await page.route('**/boids_relaxed_bg.wasm.patch', fulfil);
    });
    assert.equal(build, 'simd128');
    assert.ok(wasm.includes('/boids_relaxed_bg.wasm.patch') && wasm.includes('/boids_bg.wasm'), JSON.stringify(wasm));
    assert.ok(drawn > 0.003, `cones drawn (${(drawn * 100).toFixed(2)} % of the canvas)`);
    assert.ok(
      warnings.some((text) => text.includes('the relaxed-SIMD build did not load') && says.test(text)),
      `a warning says why: ${JSON.stringify(warnings)}`,
    );
    assert.deepEqual(pageErrors, []);
    await page.close();
  });
}

test('both builds move the same seeded flock alike', { timeout: 120_000 }, async () => {
  const page = await env.browser.newPage();
  await page.goto(`${env.server.url}test/blank.html`);
  const runs = await page.evaluate(async () => {
    // Two instances of the bindings (one per query string), each with its own module.
    const { patchedModule } = await import('/www/core/wasm-patch.js');
    const load = async (name, module) => {
      const bindings = await import(`/boids.js?${name}`);
      await bindings.default({ module_or_path: module });
      return bindings;
    };
    const relaxed = await patchedModule('/boids_bg.wasm', '/boids_relaxed_bg.wasm.patch');
    if (!WebAssembly.validate(relaxed)) throw new Error('the patched module is not valid here');
    const builds = [await load('simd128', '/boids_bg.wasm'), await load('relaxed', relaxed)];
    const run = (steps) => {
      // In a box: from the open sky's dense first ball, two flocks a rounding apart drift
      // further apart (mean neighbours 26.0 against 24.0 after 300 steps).
      const flocks = builds.map((bindings) => new bindings.Flock(2000, 7));
      for (const flock of flocks) flock.setSky(0);
      for (const flock of flocks) for (let k = 0; k < steps; k++) flock.step(1 / 60);
      const [a, b] = flocks.map((flock) => flock.positions());
      let farthest = 0;
      for (let i = 0; i < a.length; i += 3) {
        farthest = Math.max(farthest, Math.hypot(a[i] - b[i], a[i + 1] - b[i + 1], a[i + 2] - b[i + 2]));
      }
      const world = flocks[0].worldSize();
      const stats = flocks.map((flock) => [flock.polarization(), flock.meanNeighbours()]);
      const inside = [a, b].every((p) => p.every((v) => v >= 0 && v <= world));
      return { steps, farthest, world, inside, stats, finite: [a, b].every((p) => p.every(Number.isFinite)) };
    };
    return [run(10), run(300)];
  });
  const [short, long] = runs;
  // A fused multiply-add rounds differently in the last bit: after ten steps no boid may be
  // more than a thousandth of a unit from its twin (a wrong fused operation moves boids at
  // once, by whole units).
  assert.ok(short.finite && long.finite, 'every position finite');
  assert.ok(short.world > 0 && short.inside && long.inside, `every boid inside the world of ${long.world}`);
  assert.ok(short.farthest < 1e-3, `after 10 steps the builds differ by at most ${short.farthest}`);
  // After five seconds chaos has parted the twins (so these are two builds, not one twice:
  // a relaxed module that was a copy of the other would keep them together to the bit),
  // but not the flock's make-up.
  assert.ok(long.farthest > 0, 'after 300 steps the two builds have parted');
  const [[polarizationA, neighboursA], [polarizationB, neighboursB]] = long.stats;
  assert.ok(Math.abs(polarizationA - polarizationB) < 0.05, `polarization ${polarizationA} vs ${polarizationB}`);
  assert.ok(
    Math.abs(neighboursA - neighboursB) < 0.05 * neighboursA,
    `mean neighbours ${neighboursA} vs ${neighboursB}`,
  );
  await page.close();
});
