// The open sky (issue 27) on the page: the camera frames the view around home, not the sky
// three views wide, and follows the flock as it roams, so that the flock stays in the picture;
// the cones stay one instanced draw, with no box; "fit the flock" frames it; the panel's
// Open sky and Wrap edges exclude each other and show it; `?sky=1` and `<boids-flock sky>`
// turn it on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  GL_COUNTER_SCRIPT,
  clearSpot,
  decodePng,
  foreground,
  recordFrames,
  saveArtifact,
  waitFrames,
  waitRunning,
  watchProblems,
  useDistAndBrowser,
} from './helpers.mjs';
import { TEST_CSS, testPage, waitFlocks } from './embed-helpers.mjs';

const env = useDistAndBrowser({
  pages: {
    '/test/test.css': TEST_CSS,
    // Side by side: an element off screen draws nothing, and never reaches "running".
    '/test/sky.html': testPage(
      '<div class="row"><boids-flock class="small" id="bare" sky count="200"></boids-flock>' +
        '<boids-flock class="small" id="one" sky="1" count="200"></boids-flock>' +
        '<boids-flock class="small" id="off" sky="0" wrap count="200"></boids-flock></div>',
    ),
  },
});

/** The page, paused (the test steps the flock itself), with GL calls counted. */
async function open(query) {
  const page = await env.browser.newPage({ viewport: { width: 1000, height: 760 } });
  const watch = watchProblems(page);
  await page.addInitScript(GL_COUNTER_SCRIPT);
  await page.goto(`${env.server.url}?paused=1${query}`);
  // Not just `window.view`: until the View exists, that names the canvas (id="view").
  await page.waitForFunction(() => window.flock && typeof window.view?.draw === 'function', null, {
    timeout: 60_000,
  });
  return { page, ...watch };
}

/**
 * Flies the page's flock for `seconds` of flock time as the page would at 15 frames a second
 * (four steps of 1/60 s, then a drawn frame, which moves the camera), and every half second
 * projects the flock's centre of mass (the mean position: there is no wrap under the sky)
 * through the camera: `at` as drawn, `fixed` through the same camera left looking at home.
 * Returns those samples as fractions of the canvas, and how far the centre got from home
 * (in views).
 */
function fly(page, seconds) {
  return page.evaluate((seconds) => {
    const { flock, view } = window;
    const canvas = document.getElementById('view');
    const [w, h] = [canvas.clientWidth, canvas.clientHeight];
    const samples = [];
    let farthest = 0;
    const frames = Math.round((seconds * 60) / 4);
    for (let frame = 1; frame <= frames; frame++) {
      for (let k = 0; k < 4; k++) flock.step(1 / 60);
      view.draw(flock);
      if (frame % 8 !== 0) continue;
      const p = flock.positions();
      const n = p.length / 3;
      const c = [0, 0, 0];
      for (let i = 0; i < p.length; i++) c[i % 3] += p[i] / n;
      if (flock.flat()) c[2] = 0;
      const at = view.cssPointOf(flock, c[0], c[1], c[2]);
      const camera = Array.from(view.camera());
      view.setCamera([...camera.slice(0, 3), 0.5, 0.5, flock.flat() ? 0 : 0.5]);
      const fixed = view.cssPointOf(flock, c[0], c[1], c[2]);
      view.setCamera(camera);
      // Home is the middle of the sky, three views wide.
      const side = flock.worldSize();
      const home = [1.5 * side, 1.5 * side, flock.flat() ? 0 : 1.5 * side];
      farthest = Math.max(farthest, Math.hypot(c[0] - home[0], c[1] - home[1], c[2] - home[2]) / side);
      const fraction = (point) => point && [point[0] / w, point[1] / h];
      samples.push({ t: (frame * 4) / 60, at: fraction(at), fixed: fraction(fixed) });
    }
    return { samples, farthest };
  }, seconds);
}

const inside = (point, margin = 0) =>
  point != null && point.every((v) => Number.isFinite(v) && v >= margin && v <= 1 - margin);

// The widest home range (in 3D with strong alignment: the defaults' first ball, dense, spreads
// about home for a while before it sets off); closer than the view by `zoom` (turns of the
// wheel), where a camera that stayed at home loses the flock as it roams.
for (const [name, query, zoom] of [
  ['3D', '&sky=1&seed=3&count=600&homeRange=0.5&alignment=3', 6],
  ['2D', '&sky=1&flat=1&seed=3&count=600&homeRange=0.5', 4],
]) {
  test(`open sky (${name}): the camera follows the flock for 20 s of flight`, { timeout: 180_000 }, async () => {
    const { page, pageErrors } = await open(query);
    assert.deepEqual(
      await page.evaluate(() => [window.flock.sky(), window.flock.wrap()]),
      [1, false],
      '?sky=1: the sky, without wrap',
    );
    await page.evaluate((zoom) => window.view.zoomToward(window.flock, zoom), zoom);
    const { samples, farthest } = await fly(page, 20);
    assert.ok(samples.length >= 35, `${samples.length} samples`);
    const lost = samples.filter((s) => !inside(s.at, 0.15));
    assert.deepEqual(lost, [], "the flock's centre left the middle of the picture");
    // The check has teeth: the flock roams, and the same camera at home would lose it.
    assert.ok(farthest > 0.15, `the flock stayed within ${farthest.toFixed(2)} views of home`);
    const away = samples.filter((s) => !inside(s.fixed));
    assert.ok(away.length > 0, `a camera left at home would have kept the flock in the picture anyway (it roamed ${farthest.toFixed(2)} views; ${JSON.stringify(samples.map((s) => s.fixed?.map((v) => +v.toFixed(2))))})`);
    assert.deepEqual(pageErrors, []);
    await page.close();
  });
}

test('open sky: one instanced draw for the cones, no box; the cones show; fit the flock frames it', { timeout: 180_000 }, async () => {
  const { page, pageErrors } = await open('&sky=1&seed=5&count=800');
  // What lies over the canvas hidden through the CSSOM, which the page's CSP allows.
  await page.evaluate(() => {
    for (const el of document.querySelectorAll('#stage > :not(#view)')) el.style.visibility = 'hidden';
  });
  await fly(page, 5);
  // The page's own frames, playing.
  await page.evaluate(() => {
    document.querySelector('boids-flock[page]').paused = false;
  });
  const frames = await recordFrames(page, 10);
  for (const f of frames) {
    assert.deepEqual(f.instanced, [800], 'one instanced draw of every cone');
    assert.equal(f.drawArrays, 0, 'no box under the sky');
    assert.equal(f.bufferSubData, 1, 'one instance upload');
  }
  await page.evaluate(() => {
    document.querySelector('boids-flock[page]').paused = true;
  });
  await waitFrames(page, 3);
  const shot = await page.locator('#view').screenshot();
  saveArtifact('sky.png', shot);
  const fg = foreground(decodePng(shot));
  assert.ok(fg > 0.01, `only ${(100 * fg).toFixed(3)}% of #view stands out from the background`);

  // Fit the flock: its centre in the middle, nearly all of it in the picture, and not a speck.
  const fit = await page.evaluate(() => {
    const { flock, view } = window;
    view.fitFlock(flock);
    view.draw(flock);
    const canvas = document.getElementById('view');
    const [w, h] = [canvas.clientWidth, canvas.clientHeight];
    const p = flock.positions();
    const n = p.length / 3;
    const c = [0, 0, 0];
    for (let i = 0; i < p.length; i++) c[i % 3] += p[i] / n;
    const centre = view.cssPointOf(flock, c[0], c[1], c[2]);
    let shown = 0;
    let [left, right, top, bottom] = [w, 0, h, 0];
    for (let i = 0; i < n; i++) {
      const at = view.cssPointOf(flock, p[3 * i], p[3 * i + 1], p[3 * i + 2]);
      if (!at || at[0] < 0 || at[0] > w || at[1] < 0 || at[1] > h) continue;
      shown++;
      [left, right, top, bottom] = [Math.min(left, at[0]), Math.max(right, at[0]), Math.min(top, at[1]), Math.max(bottom, at[1])];
    }
    return { centre: [centre[0] / w, centre[1] / h], shown: shown / n, span: Math.max(right - left, bottom - top) / Math.min(w, h) };
  });
  assert.ok(inside(fit.centre, 0.4), `the flock's centre at ${fit.centre}`);
  assert.ok(fit.shown > 0.9, `${(100 * fit.shown).toFixed(1)}% of the boids in the picture`);
  assert.ok(fit.span > 0.4, `the flock spans ${(100 * fit.span).toFixed(0)}% of the picture`);
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('the open sky is the default, and a click on the scene puts an obstacle under the pointer', { timeout: 120_000 }, async () => {
  const { page, pageErrors } = await open('&seed=5&count=300&open=scene');
  assert.equal(await page.evaluate(() => window.flock.sky()), 1, 'the default world is the open sky');
  // Flown a while, so that the camera has followed the flock away from home.
  const { farthest } = await fly(page, 6);
  assert.ok(farthest > 0.05, `the flock roamed ${farthest} views from home`);
  await waitFrames(page, 3);
  const box = await page.locator('#view').boundingBox();
  const spot = await clearSpot(page, Math.round(box.width * 0.42), Math.round(box.height * 0.55));
  await page.locator('#view').click({ position: spot });
  await waitFrames(page, 3);
  const one = await page.evaluate(() => Array.from(window.flock.obstacles()));
  assert.equal(one.length, 4, `one obstacle (4 floats): ${one}`);
  const view = await page.evaluate(() => window.flock.worldSize());
  for (const v of one.slice(0, 3)) assert.ok(v >= 0 && v <= 3 * view, `centre ${one} inside the sky (three views of ${view})`);
  const shown = await page.evaluate((o) => Array.from(window.view.cssPointOf(window.flock, o[0], o[1], o[2])), one);
  assert.ok(Math.hypot(shown[0] - spot.x, shown[1] - spot.y) < 3, `the obstacle shows at ${shown}, the click was at ${spot.x},${spot.y}`);
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('the panel: Open sky and Wrap edges in the world group, each turning the other off', { timeout: 120_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
  const { pageErrors } = watchProblems(page);
  await page.goto(`${env.server.url}?wrap=1&open=world`);
  await waitRunning(page);
  const state = () =>
    page.evaluate(() => ({
      sky: document.getElementById('param-sky').checked,
      wrap: document.getElementById('param-wrap').checked,
      model: [window.flock.sky(), window.flock.wrap()],
    }));
  const group = await page.evaluate(() =>
    ['sky', 'homeRange'].map((name) => document.getElementById(`param-${name}`)?.closest('[data-group]')?.dataset.group),
  );
  assert.deepEqual(group, ['world', 'world']);
  assert.deepEqual(await state(), { sky: false, wrap: true, model: [0, true] });
  await page.locator('#param-sky').check();
  assert.deepEqual(await state(), { sky: true, wrap: false, model: [1, false] }, 'the sky turns wrap off, and shows it');
  await page.locator('#param-wrap').check();
  assert.deepEqual(await state(), { sky: false, wrap: true, model: [0, true] }, 'wrap turns the sky off, and shows it');
  await page.locator('#param-sky').check();
  // The link carries the sky (and wrap's off) into a new page.
  await page.waitForFunction(() => new URLSearchParams(location.search).get('sky') === '1');
  await page.goto(page.url());
  await waitRunning(page);
  assert.deepEqual(await state(), { sky: true, wrap: false, model: [1, false] }, 'reloaded from the address bar');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('<boids-flock sky> and sky="1" open the sky; sky="0" leaves it closed', { timeout: 120_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
  const { pageErrors } = watchProblems(page);
  await page.goto(`${env.server.url}test/sky.html`);
  await waitFlocks(page, 'boids-flock', { min: 3 });
  const skies = await page.evaluate(() =>
    ['bare', 'one', 'off'].map((id) => {
      const { flock } = document.getElementById(id);
      return [flock.sky(), flock.wrap()];
    }),
  );
  assert.deepEqual(skies, [
    [1, false],
    [1, false],
    [0, true],
  ]);
  // Set later, the attribute turns it on as the checkbox does.
  await page.evaluate(() => document.getElementById('off').setAttribute('sky', ''));
  assert.deepEqual(await page.evaluate(() => [document.getElementById('off').flock.sky(), document.getElementById('off').flock.wrap()]), [1, false]);
  assert.deepEqual(pageErrors, []);
  await page.close();
});
