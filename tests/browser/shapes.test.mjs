// The boids' shapes (issue 42): cone, bird, fish and chick, each still one instanced draw
// with one instance upload a frame; the chick yellow with an orange beak; the element's
// `shape` option, its URL parameter, the panel's select and the shared link agree; a bad
// shape is a clear error from the View and a warning (the shape kept) from the element.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  GL_COUNTER_SCRIPT,
  decodePng,
  difference,
  saveArtifact,
  recordFrames,
  waitFrames,
  watchProblems,
  useDistAndBrowser,
} from './helpers.mjs';

const env = useDistAndBrowser();
const SHAPES = ['cone', 'bird', 'fish', 'chick'];

/** The page, paused, GL calls counted, what lies over the canvas hidden. */
async function open(query = '', viewport = { width: 1000, height: 760 }) {
  const page = await env.browser.newPage({ viewport });
  const watch = watchProblems(page);
  const warnings = [];
  page.on('console', (msg) => {
    if (msg.type() === 'warning') warnings.push(msg.text());
  });
  await page.addInitScript(GL_COUNTER_SCRIPT);
  await page.goto(`${env.server.url}?paused=1&count=400&seed=7&sky=0${query}`);
  await page.waitForFunction(() => window.flock && typeof window.view?.draw === 'function', null, {
    timeout: 60_000,
  });
  await page.evaluate(() => {
    for (let i = 0; i < 30; i++) window.flock.step(1 / 60);
    for (const el of document.querySelectorAll('#stage > :not(#view)')) el.style.visibility = 'hidden';
  });
  await waitFrames(page, 5);
  return { page, warnings, ...watch };
}

/** Pixels near `rgb` in hue and bright: the chick's yellow and its beak's orange. */
function countHue(png, lo, hi) {
  let n = 0;
  for (let i = 0; i < png.width * png.height; i++) {
    const [r, g, b] = [png.data[4 * i], png.data[4 * i + 1], png.data[4 * i + 2]];
    const [max, min] = [Math.max(r, g, b), Math.min(r, g, b)];
    if (max < 120 || (max - min) / max < 0.5 || max !== r) continue;
    const hue = (60 * (g - b)) / (max - min);
    if (hue >= lo && hue < hi) n++;
  }
  return n;
}

test('every shape draws in one instanced draw and one upload; each looks its own; the chick is yellow with an orange beak', { timeout: 180_000 }, async () => {
  const { page, pageErrors } = await open();
  const count = await page.evaluate(() => window.flock.count());
  assert.equal(await page.evaluate(() => window.view.shape()), 'cone');
  const shots = {};
  for (const shape of SHAPES) {
    await page.evaluate((shape) => window.view.setShape(shape), shape);
    assert.equal(await page.evaluate(() => window.view.shape()), shape);
    await waitFrames(page, 3);
    const frames = await recordFrames(page, 6);
    assert.ok(frames.length >= 5, `${shape}: ${frames.length} frames`);
    for (const f of frames) {
      assert.deepEqual(f.instanced, [count], `${shape}: one instanced draw of ${count} boids (${JSON.stringify(f)})`);
      assert.equal(f.bufferSubData, 1, `${shape}: one instance upload a frame`);
    }
    const buffer = await page.locator('#view').screenshot();
    saveArtifact(`shape-${shape}.png`, buffer);
    shots[shape] = decodePng(buffer);
  }
  for (const a of SHAPES) {
    for (const b of SHAPES) {
      if (a >= b) continue;
      const changed = difference(shots[a], shots[b], 30);
      assert.ok(changed > 0.003, `${a} and ${b} differ in ${(100 * changed).toFixed(3)}% of the canvas`);
    }
  }
  // Hue 42–65°: the down's yellow; 12–32°: the beak's orange. Cones by heading have little
  // of either next to a flock of chicks.
  const yellow = countHue(shots.chick, 42, 65);
  const orange = countHue(shots.chick, 12, 32);
  const coneYellow = countHue(shots.cone, 42, 65);
  assert.ok(yellow > 3 * Math.max(50, coneYellow), `chicks: ${yellow} yellow px, cones ${coneYellow}`);
  assert.ok(orange > 40, `chicks: ${orange} orange px (the beaks)`);
  assert.ok(yellow > 3 * orange, `more down (${yellow}) than beak (${orange})`);
  // A bad shape: a clear error, and the shape kept.
  const errors = await page.evaluate(() =>
    [() => window.view.setShape('duck'), () => window.view.setShape(2), () => window.view.setShape('x'.repeat(40))].map((f) => {
      try {
        f();
        return 'no error';
      } catch (e) {
        return `${e.name}: ${e.message}`;
      }
    }),
  );
  assert.deepEqual(errors.map((e) => e.split(':')[0]), ['RangeError', 'TypeError', 'RangeError'], errors.join('\n'));
  assert.match(errors[0], /shape must be "cone", "bird", "fish" or "chick", got "duck"/);
  assert.equal(await page.evaluate(() => window.view.shape()), 'chick');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('?shape=fish picks the shape; the panel\'s select changes it and the link keeps it; a bad one warns and keeps cones', { timeout: 120_000 }, async () => {
  const { page, pageErrors } = await open('&shape=fish&open=look');
  assert.equal(await page.evaluate(() => window.view.shape()), 'fish');
  const select = page.locator('select[id$="shape"]');
  assert.equal(await select.inputValue(), 'fish');
  await select.selectOption('chick');
  assert.equal(await page.evaluate(() => window.view.shape()), 'chick');
  const link = await page.evaluate(() => document.querySelector('boids-flock').shareUrl());
  assert.equal(new URL(link).searchParams.get('shape'), 'chick', link);
  await select.selectOption('cone');
  const plain = await page.evaluate(() => document.querySelector('boids-flock').shareUrl());
  assert.equal(new URL(plain).searchParams.has('shape'), false, `the default is left out: ${plain}`);
  assert.deepEqual(pageErrors, []);
  await page.close();

  const bad = await open('&shape=duck');
  assert.equal(await bad.page.evaluate(() => window.view.shape()), 'cone');
  assert.ok(bad.warnings.some((w) => /shape="duck" is not a shape/.test(w)), bad.warnings.join('\n'));
  assert.deepEqual(bad.pageErrors, []);
  await bad.page.close();
});
