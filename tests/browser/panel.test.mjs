// The panel a student can use (issue 15): simple first, every control by keyboard, the flock
// in view on a phone, and the Keys help.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { saveArtifact, waitFrames, waitRunning, watchProblems, useDistAndBrowser } from './helpers.mjs';

const env = useDistAndBrowser();

async function open(query = '', options = { viewport: { width: 1280, height: 800 } }) {
  const context = await env.browser.newContext(options);
  const page = await context.newPage();
  const watch = watchProblems(page);
  await page.goto(env.server.url + query);
  await waitRunning(page);
  return { page, context, ...watch };
}

/** Presses Tab (at most 120 times) until the focused element matches `selector`. */
async function tabTo(page, selector) {
  for (let i = 0; i < 120; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  const at = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120));
  throw new Error(`Tab never reached ${selector} (focus is on ${at})`);
}

const pausedText = (page) => page.locator('#pause').getAttribute('aria-pressed');

test('simple first: the rules, perception, Count, presets and "How it works" on the first screen; the rest in closed groups', { timeout: 120_000 }, async () => {
  const { page, context, pageErrors } = await open('?count=300');
  const inView = await page.evaluate(() => {
    const seen = (el) => {
      if (!el) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;
    };
    const out = {};
    for (const id of ['param-separation', 'param-alignment', 'param-cohesion', 'param-perception', 'param-count', 'presets', 'how', 'keys', 'view']) {
      out[id] = seen(document.getElementById(id));
    }
    return out;
  });
  for (const [id, seen] of Object.entries(inView)) assert.ok(seen, `#${id} is on the first 1280x800 screen`);
  const groups = await page.evaluate(() =>
    [...document.querySelectorAll('details.bf-group:not([hidden])')].map((d) => [d.dataset.group, d.open, d.querySelector('summary').textContent]),
  );
  assert.deepEqual(
    groups.map(([name]) => name),
    ['hawks', 'scene', 'leaders', 'wind', 'species', 'swarm', 'sight', 'world', 'look', 'experiment'],
    'the groups, in order (then the instruments and the experiment)',
  );
  assert.ok(groups.every(([, open, title]) => !open && title), 'every group is closed and titled');
  // Predator and Hawks are one control: the checkbox sits in the Hawks slider's row.
  const row = await page.evaluate(() => document.getElementById('predator')?.closest('.bf-param')?.dataset.param);
  assert.equal(row, 'predators', 'the Predator checkbox is in the Hawks row');
  assert.equal(await page.locator('#stage .bf-legend').isVisible(), true, 'a colour legend shows');
  assert.match(await page.locator('#stage .bf-legend').textContent(), /direction/i, 'coloured by heading');
  await page.evaluate(() => window.flock.setSpeciesCount(3));
  await waitFrames(page, 2);
  await page.waitForFunction(() => document.querySelector('#stage .bf-legend').dataset.mode === 'species', null, { timeout: 3000 });
  assert.equal(await page.locator('#stage .bf-legend .bf-swatch').count(), 3, 'three species: three swatches');

  // "How it works" opens the explanation beside the sliders; the URL remembers it and groups.
  await page.locator('#how').click();
  assert.equal(await page.locator('#explain').isVisible(), true);
  // Its script and words load the first time it opens.
  await page.waitForFunction(() => document.getElementById('explain').dataset.filled === 'yes');
  assert.match(await page.locator('#explain h2').textContent(), /decides where to fly/);
  const beside = await page.evaluate(() => {
    const a = document.getElementById('explain').getBoundingClientRect();
    const b = document.getElementById('param-cohesion').getBoundingClientRect();
    return a.right <= b.left && a.top < window.innerHeight && b.bottom <= window.innerHeight;
  });
  assert.ok(beside, 'the explanation is beside the sliders, both on screen');
  await page.locator('#group-wind > summary').click();
  await page.waitForFunction(() => /open=[^&]*wind/.test(location.search) && /open=[^&]*how/.test(location.search), null, { timeout: 3000 });
  const url = page.url();
  const again = await context.newPage();
  await again.goto(url);
  await waitRunning(again);
  assert.equal(await again.locator('#group-wind').getAttribute('open'), '', 'the wind group opens from the link');
  assert.equal(await again.locator('#explain').isVisible(), true, 'and the explanation');
  await again.waitForFunction(() => document.getElementById('explain').dataset.filled === 'yes');
  assert.equal(await again.locator('#group-hawks').getAttribute('open'), null, 'the others stay closed');
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test('keyboard only: Space and Enter tick Predator, 2D and Nearest-k; keys add obstacles and attract; Count steps; ? opens the Keys help', { timeout: 180_000 }, async () => {
  // In a box: the attract/repel checks measure from the middle of the view, which under the
  // open sky moves as the camera follows the flock.
  const { page, context, pageErrors } = await open('?count=300&seed=3&sky=0');
  const paused = await pausedText(page);

  // Hawks: open the group with Space on its title, tick Predator with Space, Enter unticks.
  await tabTo(page, '#group-hawks > summary');
  await page.keyboard.press('Space');
  assert.equal(await page.locator('#group-hawks').getAttribute('open'), '', 'Space opens the group');
  await tabTo(page, '#predator');
  await page.keyboard.press('Space');
  assert.equal(await page.evaluate(() => window.flock.predators()), 1, 'Space ticks Predator: one hawk');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => window.flock.predators()), 0, 'Enter unticks it');
  await page.keyboard.press('Space');
  assert.equal(await page.evaluate(() => window.flock.predators()), 1);
  assert.equal(await pausedText(page), paused, 'Space on the checkbox did not pause the flock');

  // The pointer radios: arrows choose, Space does not pause.
  await page.keyboard.press('Shift+Tab'); // back out of the form to find the next group in order
  await tabTo(page, '#group-scene > summary');
  await page.keyboard.press('Enter');
  await tabTo(page, 'input[type="radio"][value="off"]');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.locator('#pointer-attract').isChecked(), true, 'ArrowRight chooses Attract');
  await page.keyboard.press('Space');
  assert.equal(await pausedText(page), paused, 'Space on a radio did not pause');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.locator('#pointer-off').isChecked(), true);

  // Nearest k only (species group) and 2D (world group).
  await tabTo(page, '#group-species > summary');
  await page.keyboard.press('Enter');
  await tabTo(page, '#param-topological');
  const topological = await page.evaluate(() => Number(window.flock.topological()));
  await page.keyboard.press('Space');
  assert.equal(await page.evaluate(() => Number(window.flock.topological())), 1 - topological, 'Space ticks Nearest k only');
  await tabTo(page, '#group-world > summary');
  await page.keyboard.press('Space');
  await tabTo(page, '#param-flat');
  await page.keyboard.press('Space');
  assert.equal(await page.evaluate(() => window.flock.isFlat()), true, 'Space ticks 2D');
  assert.equal(await pausedText(page), paused, 'still not paused');

  // Count in useful steps: 300 → 400 → 300; Page Up doubles (three nice steps).
  await page.keyboard.press('Shift+Tab');
  await page.locator('#param-count').focus(); // (the Tab walk above already passed it)
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => window.flock.count()), 400, 'ArrowRight: 300 → 400');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => window.flock.count()), 300, 'ArrowLeft: back to 300');
  await page.keyboard.press('PageUp');
  assert.equal(await page.evaluate(() => window.flock.count()), 600, 'PageUp: 300 → 600');
  await page.keyboard.press('PageDown');
  assert.equal(await page.evaluate(() => window.flock.count()), 300, 'PageDown: back to 300');
  assert.match(await page.locator('#value-count').textContent(), /300/);

  // The scene's keys: O adds an obstacle in the middle of the view, X takes it away.
  await page.evaluate(() => window.flock.setFlat(0));
  await tabTo(page, '#view');
  await page.keyboard.press('o');
  const one = await page.evaluate(() => Array.from(window.flock.obstacles()));
  assert.equal(one.length, 4, 'O adds an obstacle');
  const where = await page.evaluate((o) => {
    const c = document.getElementById('view');
    const p = window.view.cssPointOf(window.flock, o[0], o[1], o[2]);
    return [p[0] - c.clientWidth / 2, p[1] - c.clientHeight / 2];
  }, one);
  assert.ok(Math.hypot(...where) < 3, `it shows in the middle of the view (off by ${where})`);
  await page.keyboard.press('o');
  assert.equal(await page.evaluate(() => window.flock.obstacles().length), 8, 'O again: a second one');
  await page.keyboard.press('x');
  assert.equal(await page.evaluate(() => window.flock.obstacles().length), 4, 'X takes the last away');

  // A attracts the flock toward the middle of the view: it gathers closer than without.
  await page.keyboard.press('Space'); // pause (the canvas has the focus): steps are ours now
  assert.equal(await pausedText(page), 'true', 'Space on the scene pauses');
  const distanceAfter = () =>
    page.evaluate(() => {
      const el = document.querySelector('boids-flock[page]');
      const c = el.canvas;
      const point = window.view.worldPointAt(window.flock, c.clientWidth / 2, c.clientHeight / 2);
      el.rebuild();
      for (let i = 0; i < 90; i++) el.step();
      const a = window.flock.positions();
      let sum = 0;
      for (let i = 0; i < a.length; i += 3) sum += Math.hypot(a[i] - point[0], a[i + 1] - point[1], a[i + 2] - point[2]);
      return sum / (a.length / 3);
    });
  const alone = await distanceAfter();
  await page.keyboard.press('a');
  assert.equal(await page.locator('.bf-pointer-mark').isVisible(), true, 'the mark shows the point');
  const pulled = await distanceAfter();
  assert.ok(pulled < 0.8 * alone, `A: the boids end ${pulled.toFixed(2)} from the middle, ${alone.toFixed(2)} without`);
  await page.keyboard.press('d');
  const pushed = await distanceAfter();
  assert.ok(pushed > alone, `D: ${pushed.toFixed(2)} from the middle, ${alone.toFixed(2)} without`);
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('.bf-pointer-mark').isVisible(), false, 'Escape lets go');
  assert.equal(await distanceAfter(), alone, 'and the flock flies as with no pointer');

  // ? opens the Keys help (a modal dialog that lists O, A and ?); Escape closes it.
  await page.keyboard.press('?');
  const dialog = page.locator('#keys-help');
  assert.equal(await dialog.isVisible(), true, '? opens the Keys help');
  const keys = await dialog.locator('kbd').allTextContents();
  for (const key of ['O', 'X', 'A', 'D', '?', 'R']) assert.ok(keys.includes(key), `the help lists ${key}: ${keys}`);
  assert.equal(await page.evaluate(() => document.activeElement.closest('dialog')?.id), 'keys-help', 'focus moves into it');
  await page.keyboard.press('Escape');
  assert.equal(await dialog.isVisible(), false, 'Escape closes it');
  saveArtifact('panel-keyboard.png', await page.screenshot());
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test('on a 390x844 touch screen the flock stays in view while a slider moves; the edges scroll the page', { timeout: 120_000 }, async () => {
  const { page, context, pageErrors } = await open('?count=300&open=world', {
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    deviceScaleFactor: 1,
  });
  const visible = () =>
    page.evaluate(() => {
      const r = document.getElementById('view').getBoundingClientRect();
      const h = Math.max(0, Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0));
      const w = Math.max(0, Math.min(r.right, window.innerWidth) - Math.max(r.left, 0));
      return { fraction: (w * h) / (r.width * r.height), share: h / window.innerHeight, scrollY: window.scrollY };
    });
  for (const name of ['cohesion', 'perception', 'speed', 'maxForce']) {
    const slider = page.locator(`#param-${name}`);
    await slider.scrollIntoViewIfNeeded();
    const box = await slider.boundingBox();
    const before = await slider.inputValue();
    await page.touchscreen.tap(box.x + box.width * 0.8, box.y + box.height / 2);
    assert.notEqual(await slider.inputValue(), before, `the tap moved ${name}`);
    const seen = await visible();
    assert.ok(seen.fraction >= 0.4, `moving ${name} (scrolled to ${seen.scrollY}): ${(100 * seen.fraction).toFixed(0)} % of the canvas in view`);
    assert.ok(seen.share >= 0.35, `the canvas takes ${(100 * seen.share).toFixed(0)} % of the screen's height`);
  }
  assert.ok((await visible()).scrollY > 300, 'the page did scroll to reach the sliders');
  saveArtifact('panel-phone-slider.png', await page.screenshot());

  // Touch words and compact hints.
  assert.match(await page.locator('#stage .bf-hint').textContent(), /double-tap/, 'the gesture hint speaks of taps');
  assert.equal(await page.locator('#stage .bf-hint').isVisible(), true, 'and shows on a phone');
  assert.match(await page.locator('#obstacles-hint').textContent(), /^Tap/, 'the obstacles hint says tap');

  // A vertical swipe on the stage's edge strip scrolls the page; in its middle it orbits.
  const cdp = await context.newCDPSession(page);
  const stage = await page.locator('#stage').boundingBox();
  const swipe = async (x) => {
    const before = await page.evaluate(() => window.scrollY);
    const camera = await page.evaluate(() => Array.from(window.view.camera()));
    // A finger pressed, moved 200 px up in ten steps and lifted (real touch events: the
    // browser decides from touch-action whether it scrolls).
    const y = Math.round(stage.y + stage.height * 0.7);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: Math.round(x), y }] });
    for (let k = 1; k <= 10; k++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: Math.round(x), y: y - 20 * k }] });
      await page.waitForTimeout(16);
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.waitForTimeout(300);
    await waitFrames(page, 2);
    return {
      scrolled: (await page.evaluate(() => window.scrollY)) - before,
      orbited: JSON.stringify(camera) !== JSON.stringify(await page.evaluate(() => Array.from(window.view.camera()))),
    };
  };
  await page.evaluate(() => window.scrollTo(0, 0));
  const edge = await swipe(stage.x + 8);
  assert.ok(edge.scrolled > 50, `a swipe on the edge scrolls the page (${edge.scrolled} px)`);
  await page.evaluate(() => window.scrollTo(0, 0));
  const middle = await swipe(stage.x + stage.width / 2);
  assert.ok(middle.scrolled < 5 && middle.orbited, `a swipe in the middle orbits (${JSON.stringify(middle)})`);
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test('"How it works" loads its words when first opened; a failed load says so and the next opening tries again', { timeout: 120_000 }, async () => {
  const { page, context, pageErrors } = await open('?count=300');
  const requested = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  assert.deepEqual(requested.filter((p) => /explain/.test(p)), [], 'nothing of the explanation with the page');
  await context.route('**/www/i18n/explain-*.js', (route) => route.abort());
  await page.locator('#how').click();
  await page.waitForSelector('#explain .bf-explain-error');
  assert.match(await page.locator('#explain').textContent(), /could not load/);
  await context.unroute('**/www/i18n/explain-*.js');
  await page.locator('#how').click(); // closes it
  await page.locator('#how').click(); // opens it again: it loads now
  await page.waitForFunction(() => document.getElementById('explain').dataset.filled === 'yes');
  assert.match(await page.locator('#explain h2').textContent(), /decides where to fly/);
  assert.equal(await page.locator('#explain .bf-explain-error').count(), 0);
  assert.deepEqual(pageErrors, []);
  await context.close();
});
