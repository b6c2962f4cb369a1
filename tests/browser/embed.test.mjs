// <boids-flock>: several independent instances on one page, attributes that change the flock
// (and junk that changes nothing), good manners off screen, the WebGL context pool, reduced
// motion and the keyboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  GL_COUNTER_SCRIPT,
  foreground,
  decodePng,
  useDistAndBrowser,
  recordFrames,
  sameArrays,
  saveArtifact,
  waitFrames,
  watchProblems,
} from './helpers.mjs';
import {
  STRICT_CSP,
  TEST_CSS,
  collectConsole,
  flockPositions,
  flockSteps,
  testPage,
  waitFlocks,
} from './embed-helpers.mjs';

const pages = {
  '/test/test.css': TEST_CSS,
  '/test/two.html': testPage(`
    <div class="row">
      <boids-flock id="a" count="300" seed="11"></boids-flock>
      <boids-flock id="b" count="700" seed="22"></boids-flock>
    </div>`),
  '/test/junk.html': testPage(`
    <boids-flock id="c" class="small" count="lots" cohesion="<img src=x onerror=alert(1)>" separation="2.25"></boids-flock>`),
  '/test/scroll.html': testPage(`
    <boids-flock id="top" class="small" count="200"></boids-flock>
    <div class="tall"></div>
    <boids-flock id="bottom" class="small" count="250"></boids-flock>`),
  '/test/empty.html': testPage(''),
  '/test/touch.html': testPage(`
    <boids-flock id="a" class="small" count="200" controls="cohesion"></boids-flock>
    <boids-flock id="b" class="small" count="200" controls="none"></boids-flock>
    <div class="tall"></div>
    <boids-flock id="c" class="small" count="200"></boids-flock>`),
};

const env = useDistAndBrowser({ pages, csp: STRICT_CSP });

async function open(path, options = {}) {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 }, ...options });
  const watch = watchProblems(page);
  const warnings = collectConsole(page, 'warning');
  await page.addInitScript(GL_COUNTER_SCRIPT);
  await page.goto(env.server.url + path.replace(/^\//, ''));
  return { page, warnings, ...watch };
}

/** Screenshot of an element's canvas with its buttons hidden (through CSSOM: CSP-safe). */
async function canvasForeground(page, selector, name) {
  await page.evaluate((s) => {
    for (const node of document.querySelectorAll(`${s} .bf-stage > :not(canvas)`)) node.style.visibility = 'hidden';
  }, selector);
  const buffer = await page.locator(`${selector} canvas`).screenshot();
  saveArtifact(name, buffer);
  await page.evaluate((s) => {
    for (const node of document.querySelectorAll(`${s} .bf-stage > :not(canvas)`)) node.style.visibility = '';
  }, selector);
  return foreground(decodePng(buffer));
}

test('two flocks on one page: both draw their own count, and pausing one leaves the other moving', { timeout: 180_000 }, async () => {
  const { page, pageErrors } = await open('/test/two.html');
  await waitFlocks(page, 'boids-flock', { min: 2 });
  await waitFrames(page, 10);

  const setup = await page.evaluate(() => {
    const [a, b] = ['a', 'b'].map((id) => document.getElementById(id));
    return {
      counts: [a.flock.count(), b.flock.count()],
      seeds: [a.flock.seed(), b.flock.seed()],
      ownFlock: a.flock !== b.flock,
      ownView: a.view !== b.view,
      ownCanvas: a.querySelector('canvas') !== b.querySelector('canvas'),
      ids: [...document.querySelectorAll('[id]')].map((n) => n.id),
    };
  });
  assert.deepEqual(setup.counts, [300, 700], 'each element has its own count');
  assert.deepEqual(setup.seeds, [11, 22], 'each element has its own seed');
  assert.ok(setup.ownFlock && setup.ownView && setup.ownCanvas, 'own Flock, View and canvas');
  assert.equal(new Set(setup.ids).size, setup.ids.length, `element ids are unique: ${setup.ids}`);

  // Every frame draws both: one instanced draw and one upload per flock.
  const frames = await recordFrames(page, 20);
  assert.ok(frames.length >= 5, `only ${frames.length} frames recorded`);
  for (const f of frames) {
    assert.deepEqual([...f.instanced].sort((x, y) => x - y), [300, 700], `both flocks drawn once per frame: ${JSON.stringify(f)}`);
    assert.equal(f.bufferSubData, 2, `one instance upload per flock per frame: ${JSON.stringify(f)}`);
  }
  for (const id of ['a', 'b']) {
    const fg = await canvasForeground(page, `#${id}`, `two-${id}.png`);
    assert.ok(fg > 0.002, `#${id}: only ${(100 * fg).toFixed(3)}% of its canvas stands out from the background`);
  }

  // Separate cameras: orbiting one leaves the other's camera alone.
  const cameras = await page.evaluate(() => {
    const [a, b] = ['a', 'b'].map((id) => document.getElementById(id));
    const before = Array.from(b.view.camera());
    a.view.orbit(200, 50);
    return { a: Array.from(a.view.camera()), b: Array.from(b.view.camera()), before };
  });
  assert.deepEqual(cameras.b, cameras.before, "orbiting #a does not move #b's camera");
  assert.notDeepEqual(cameras.a, cameras.b, '#a has its own camera');

  // Pause #a with its own button.
  await page.locator('#a .bf-pause').click();
  assert.match(await page.locator('#a .bf-pause').textContent(), /play/i, "#a's button reads Play");
  assert.match(await page.locator('#b .bf-pause').textContent(), /pause/i, "#b's button still reads Pause");
  await waitFrames(page, 2);
  const a1 = await flockPositions(page, '#a');
  const b1 = await flockPositions(page, '#b');
  await page.waitForTimeout(400);
  assert.ok(sameArrays(a1, await flockPositions(page, '#a')), 'paused #a stays put');
  assert.ok(!sameArrays(b1, await flockPositions(page, '#b')), '#b keeps moving');

  // And the other way round, through the property.
  await page.evaluate(() => {
    document.getElementById('a').paused = false;
    document.getElementById('b').paused = true;
  });
  await waitFrames(page, 2);
  const a2 = await flockPositions(page, '#a');
  const b2 = await flockPositions(page, '#b');
  await page.waitForTimeout(400);
  assert.ok(!sameArrays(a2, await flockPositions(page, '#a')), '#a moves again after play');
  assert.ok(sameArrays(b2, await flockPositions(page, '#b')), 'paused #b stays put');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('attributes set the flock, later changes apply, junk changes nothing and injects nothing', { timeout: 120_000 }, async () => {
  const { page, warnings, pageErrors } = await open('/test/junk.html');
  let dialogs = 0;
  page.on('dialog', (dialog) => {
    dialogs += 1;
    dialog.dismiss();
  });
  await waitFlocks(page, '#c');
  const defaults = await page.evaluate(() =>
    Object.fromEntries(customElements.get('boids-flock').params.map((s) => [s.name, s.default])),
  );
  const read = () =>
    page.evaluate(() => {
      const f = document.getElementById('c').flock;
      return { count: f.count(), cohesion: f.cohesion(), separation: f.separation(), speed: f.speed() };
    });
  let now = await read();
  assert.equal(now.count, defaults.count, 'count="lots" leaves the default count');
  assert.equal(now.cohesion, defaults.cohesion, 'cohesion="<img …>" leaves the default cohesion');
  assert.equal(now.separation, 2.25, 'a valid attribute next to the junk still applies');
  assert.ok(warnings.some((w) => /count/.test(w) && /lots/.test(w)), `a warning names count="lots": ${warnings.join(' | ')}`);
  assert.ok(warnings.some((w) => /cohesion/.test(w)), `a warning names cohesion: ${warnings.join(' | ')}`);
  const injected = await page.evaluate(() => ({
    images: document.querySelectorAll('img').length,
    text: document.body.innerHTML.includes('<img'),
  }));
  assert.deepEqual(injected, { images: 0, text: false }, 'no <img> element was created from the attribute');

  // Later changes reach the flock, through the table's clamping.
  await page.evaluate(() => {
    const c = document.getElementById('c');
    c.setAttribute('cohesion', '2.5');
    c.setAttribute('count', '400');
    c.setAttribute('speed', 'fast');
  });
  now = await read();
  assert.equal(now.cohesion, 2.5, 'setAttribute("cohesion", "2.5") sets cohesion');
  assert.equal(now.count, 400, 'setAttribute("count", "400") sets the count');
  assert.equal(now.speed, defaults.speed, 'speed="fast" changes nothing');
  assert.ok(warnings.some((w) => /speed/.test(w) && /fast/.test(w)), 'speed="fast" is warned about');
  await waitFrames(page, 3);
  for (const f of await recordFrames(page, 5)) {
    assert.deepEqual(f.instanced, [400], `the draw covers the new count: ${JSON.stringify(f)}`);
  }

  await page.evaluate(() => document.getElementById('c').setAttribute('cohesion', '99'));
  const max = await page.evaluate(() => customElements.get('boids-flock').params.find((s) => s.name === 'cohesion').max);
  assert.equal((await read()).cohesion, max, 'cohesion="99" is clamped to the top of its range');
  await page.evaluate(() => document.getElementById('c').setAttribute('cohesion', '<b onmouseover=alert(2)>x</b>'));
  assert.equal((await read()).cohesion, max, 'junk after a valid value keeps the valid value');
  await page.evaluate(() => document.getElementById('c').removeAttribute('cohesion'));
  assert.equal((await read()).cohesion, defaults.cohesion, 'removing the attribute restores the default');

  // Kebab-case and lower-case names, aliases.
  const more = await page.evaluate(() => {
    const c = document.getElementById('c');
    const has = (name) => customElements.get('boids-flock').params.some((s) => s.name === name);
    c.setAttribute('separation-radius', '3');
    const kebab = c.flock.separationRadius();
    c.setAttribute('fieldofview', '180');
    const lower = c.flock.fieldOfView();
    let predators = null;
    if (has('predators')) {
      c.setAttribute('predator', '');
      predators = c.flock.predators();
    }
    let flat = null;
    if (has('flat')) {
      c.setAttribute('mode', '2d');
      flat = c.flock.isFlat();
    }
    return { kebab, lower, predators, flat, hasPredators: has('predators'), hasFlat: has('flat') };
  });
  assert.equal(more.kebab, 3, 'separation-radius="3" sets separationRadius');
  assert.equal(more.lower, 180, 'fieldofview="180" sets fieldOfView');
  assert.deepEqual([more.hasPredators, more.hasFlat], [true, true], 'hawks and the flat world are in the table');
  assert.equal(more.predators, 1, 'the boolean attribute predator sets one hawk');
  assert.equal(more.flat, true, 'mode="2d" makes the world flat');

  // `controls` picks the sliders; none by default.
  assert.equal(await page.locator('#c input[type=range]').count(), 0, 'no sliders by default in an embed');
  await page.evaluate(() => document.getElementById('c').setAttribute('controls', 'cohesion separation'));
  const sliders = await page.evaluate(() =>
    [...document.querySelectorAll('#c input[type=range]')].map((input) => ({
      param: input.dataset.param,
      label: input.labels[0]?.textContent,
    })),
  );
  assert.deepEqual(sliders.map((s) => s.param).sort(), ['cohesion', 'separation'], 'controls="cohesion separation" shows those two');
  assert.ok(sliders.every((s) => s.label), 'each slider has a label');
  assert.equal(dialogs, 0, 'no dialog opened');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('a flock scrolled out of view stops stepping and drawing, and resumes when scrolled back', { timeout: 120_000 }, async () => {
  const { page, pageErrors } = await open('/test/scroll.html');
  await waitFlocks(page, '#top');
  await waitFrames(page, 10);
  assert.equal(await flockSteps(page, '#bottom'), 0, 'the flock below the fold has not stepped');
  assert.notEqual(await page.evaluate(() => document.getElementById('bottom').dataset.context), 'live', 'nor taken a WebGL context');
  let frames = await recordFrames(page, 10);
  assert.ok(frames.every((f) => f.instanced.length === 1 && f.instanced[0] === 200), 'only #top draws');

  await page.evaluate(() => document.getElementById('bottom').scrollIntoView());
  await waitFlocks(page, '#bottom');
  await waitFrames(page, 5);
  const topSteps = await flockSteps(page, '#top');
  const topPositions = await flockPositions(page, '#top');
  const bottomSteps = await flockSteps(page, '#bottom');
  await page.waitForTimeout(500);
  assert.equal(await flockSteps(page, '#top'), topSteps, 'scrolled out of view, #top takes no steps');
  assert.ok(sameArrays(topPositions, await flockPositions(page, '#top')), '#top stays put out of view');
  assert.ok((await flockSteps(page, '#bottom')) > bottomSteps, '#bottom steps now that it is in view');
  frames = await recordFrames(page, 10);
  assert.ok(frames.length > 0 && frames.every((f) => f.instanced.length === 1 && f.instanced[0] === 250), `only #bottom draws: ${JSON.stringify(frames[0])}`);

  await page.evaluate(() => window.scrollTo(0, 0));
  await waitFrames(page, 5);
  await page.waitForTimeout(300);
  assert.ok((await flockSteps(page, '#top')) > topSteps, '#top resumes stepping when scrolled back');
  assert.ok(!sameArrays(topPositions, await flockPositions(page, '#top')), '#top moves again');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('context pool: at most maxContexts live WebGL contexts; off-screen flocks give theirs up and get them back', { timeout: 180_000 }, async () => {
  const { page, pageErrors } = await open('/test/empty.html');
  await page.evaluate(async () => {
    await customElements.whenDefined('boids-flock');
    customElements.get('boids-flock').maxContexts = 2;
    for (const id of ['p1', 'p2', 'p3']) {
      const el = document.createElement('boids-flock');
      el.id = id;
      el.className = 'small';
      el.setAttribute('count', '100');
      // In a box: under the open sky the camera follows the flock, so its target moves.
      el.setAttribute('sky', '0');
      const spacer = document.createElement('div');
      spacer.className = 'tall';
      document.body.append(el, spacer);
    }
  });
  const live = () =>
    page.evaluate(() => ['p1', 'p2', 'p3'].filter((id) => document.getElementById(id).view));
  const show = async (id) => {
    await page.evaluate((id) => document.getElementById(id).scrollIntoView(), id);
    await waitFlocks(page, `#${id}`);
    await waitFrames(page, 5);
  };

  await show('p1');
  await page.evaluate(() => document.getElementById('p1').view.orbit(120, 30));
  const camera = await page.evaluate(() => Array.from(document.getElementById('p1').view.camera()));
  await show('p2');
  assert.deepEqual(await live(), ['p1', 'p2']);
  await show('p3');
  assert.deepEqual(await live(), ['p2', 'p3'], 'p3 takes the context of p1, off screen longest');
  assert.equal(await page.evaluate(() => document.getElementById('p1').dataset.context), 'released');

  // Back to p1: it takes p2's context, draws again and has kept its camera.
  await page.evaluate(() => document.getElementById('p1').scrollIntoView());
  await page.waitForFunction(() => document.getElementById('p1').dataset.context === 'live', null, { timeout: 20_000 });
  await waitFrames(page, 5);
  assert.deepEqual(await live(), ['p1', 'p3']);
  const frames = await recordFrames(page, 5);
  assert.ok(frames.length > 0 && frames.every((f) => f.instanced.join() === '100'), `p1 draws again: ${JSON.stringify(frames)}`);
  const after = await page.evaluate(() => Array.from(document.getElementById('p1').view.camera()));
  assert.deepEqual(after, camera, 'the camera survives giving the context up');
  const steps = await flockSteps(page, '#p1');
  await page.waitForTimeout(300);
  assert.ok((await flockSteps(page, '#p1')) > steps, 'p1 steps again');

  // All three on screen with room for two: the third waits behind a cover with a button.
  await page.evaluate(() => {
    document.querySelectorAll('.tall').forEach((n) => n.remove());
    window.scrollTo(0, 0);
  });
  await page.waitForFunction(() => document.querySelectorAll('.bf-cover:not([hidden])').length === 1, null, { timeout: 20_000 });
  const waiting = await page.evaluate(() => ['p1', 'p2', 'p3'].find((id) => !document.getElementById(id).view));
  const cover = page.locator(`#${waiting} .bf-cover`);
  assert.match(await cover.textContent(), /too many/i, 'the cover says why');
  await cover.locator('button').click();
  await page.waitForFunction((id) => document.getElementById(id).dataset.context === 'live', waiting, { timeout: 20_000 });
  assert.equal((await live()).length, 2, 'still two live contexts after the click');
  assert.ok((await live()).includes(waiting), 'the clicked flock draws');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('prefers-reduced-motion: starts paused with a visible Play button', { timeout: 120_000 }, async () => {
  const { page, pageErrors } = await open('/', { reducedMotion: 'reduce' });
  await waitFlocks(page, 'boids-flock[page]');
  const play = page.locator('boids-flock .bf-play');
  assert.equal(await play.isVisible(), true, 'a Play button shows over the stage');
  assert.match(await page.locator('#pause').textContent(), /play/i, '#pause reads Play');
  const a = await page.evaluate(() => Array.from(window.flock.positions()));
  await page.waitForTimeout(400);
  assert.ok(sameArrays(a, await page.evaluate(() => Array.from(window.flock.positions()))), 'nothing moves');
  await play.click();
  assert.equal(await play.isVisible(), false, 'the Play button goes once playing');
  await page.waitForTimeout(400);
  assert.ok(!sameArrays(a, await page.evaluate(() => Array.from(window.flock.positions()))), 'it moves after Play');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('a compact embed on a touch screen shows its gestures once, until the first touch or for 8 s of being seen; not with a mouse', { timeout: 120_000 }, async () => {
  const phone = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 };
  const context = await env.browser.newContext(phone);
  const page = await context.newPage();
  const watch = watchProblems(page);
  await page.goto(`${env.server.url}test/touch.html`);
  await waitFlocks(page, '#a, #b', { min: 2 });
  const hint = page.locator('#a .bf-hint');
  assert.equal(await hint.isVisible(), true, 'the gestures show over the compact stage');
  assert.match(await hint.textContent(), /double-tap/, 'in touch words');
  const box = await hint.boundingBox();
  const stage = await page.locator('#a .bf-stage').boundingBox();
  assert.ok(box.y >= stage.y && box.y + box.height <= stage.y + stage.height + 1, 'inside the stage');
  assert.ok(box.width <= stage.width, `and fits its width (${box.width} of ${stage.width} px)`);
  const toolbar = await page.locator('#a .bf-toolbar').boundingBox();
  assert.ok(box.y + box.height <= toolbar.y || box.y >= toolbar.y + toolbar.height, 'clear of the Pause/Rebuild toolbar');
  saveArtifact('embed-touch-hint.png', await page.screenshot());

  // A tap on the scene: gone, for that flock only.
  const canvas = await page.locator('#a canvas').boundingBox();
  await page.touchscreen.tap(canvas.x + canvas.width / 2, canvas.y + canvas.height / 3);
  await page.waitForFunction(() => document.querySelector('#a .bf-hint').hidden, null, { timeout: 5_000 });
  assert.equal(await page.locator('#b .bf-hint').isVisible(), true, 'the other flock keeps its own until touched');
  // Untouched, it goes by itself after 8 s.
  const shown = Date.now();
  await page.waitForFunction(() => document.querySelector('#b .bf-hint').hidden, null, { timeout: 15_000 });
  assert.ok(Date.now() - shown < 9_000, 'within 8 s of the first frame');
  // A flock further down, reached after those 8 s, shows its hint when it is first seen.
  assert.equal(await page.locator('#c').getAttribute('data-state'), 'loading', '#c has drawn nothing yet');
  await page.locator('#c').scrollIntoViewIfNeeded();
  await waitFlocks(page, '#c');
  assert.equal(await page.locator('#c .bf-hint').isVisible(), true, 'the flock scrolled to shows its gestures');
  assert.deepEqual(watch.pageErrors, []);
  await context.close();

  const { page: desk } = await open('/test/touch.html');
  await waitFlocks(desk, '#a, #b', { min: 2 });
  assert.equal(await desk.locator('#a .bf-hint').count(), 0, 'with a mouse a compact embed keeps its stage clear');
  await desk.close();
});

test('keyboard: Space pauses and R rebuilds when the flock has focus, not while typing; every control is labelled', { timeout: 120_000 }, async () => {
  const { page, pageErrors } = await open('/');
  await waitFlocks(page, 'boids-flock[page]');
  await page.locator('#view').focus();
  await page.keyboard.press('Space');
  assert.match(await page.locator('#pause').textContent(), /play/i, 'Space on the canvas pauses');
  await waitFrames(page, 2);
  const a = await page.evaluate(() => Array.from(window.flock.positions()));
  await page.keyboard.press('r');
  await waitFrames(page, 2);
  const b = await page.evaluate(() => Array.from(window.flock.positions()));
  assert.ok(!sameArrays(a, b), 'R rebuilds');

  // With focus on a slider, Space still pauses/plays (nothing to type there) and arrows move it.
  await page.locator('#param-cohesion').focus();
  const before = await page.evaluate(() => window.flock.cohesion());
  await page.keyboard.press('ArrowRight');
  assert.ok((await page.evaluate(() => window.flock.cohesion())) > before, 'ArrowRight on the slider raises cohesion');
  await page.keyboard.press('Space');
  assert.match(await page.locator('#pause').textContent(), /pause/i, 'Space plays again');

  // Typing in a text field is not a shortcut.
  await page.locator('#copy-link').click();
  await page.locator('#share-link').focus();
  const steps = () => page.evaluate(() => document.querySelector('boids-flock').steps);
  const stepsBefore = await steps();
  assert.ok(stepsBefore > 10, `the flock has flown a while (${stepsBefore} steps)`);
  await page.keyboard.press('Space');
  await page.keyboard.press('r');
  assert.match(await page.locator('#pause').textContent(), /pause/i, 'Space in the link field does not pause');
  // A rebuild starts the count of steps again.
  assert.ok((await steps()) >= stepsBefore, 'R in the link field does not rebuild');

  // The canvas, every button, slider and field has an accessible name.
  const unnamed = await page.evaluate(() => {
    const missing = [];
    for (const el of document.querySelectorAll('boids-flock button, boids-flock input, boids-flock canvas, select')) {
      if (el.hidden || el.closest('[hidden]')) continue;
      const name =
        el.getAttribute('aria-label') ||
        (el.labels && [...el.labels].map((l) => l.textContent).join(' ').trim()) ||
        el.textContent.trim();
      if (!name) missing.push(el.outerHTML.slice(0, 80));
    }
    return missing;
  });
  assert.deepEqual(unnamed, [], 'every control has a name a screen reader reads');
  assert.equal(await page.locator('#view').getAttribute('tabindex'), '0', 'the canvas can take focus');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('moving an element keeps its flock; removing it frees flock and context; adding it back starts afresh', { timeout: 120_000 }, async () => {
  const { page, pageErrors } = await open('/test/two.html');
  await waitFlocks(page, 'boids-flock', { min: 2 });
  const moved = await page.evaluate(() => {
    const a = document.getElementById('a');
    const flock = a.flock;
    document.body.append(a); // move: disconnected and connected again at once
    return a.flock === flock && a.view != null;
  });
  assert.ok(moved, 'a moved element keeps its Flock and View');
  await page.evaluate(() => {
    window.__removed = document.getElementById('b');
    window.__removed.remove();
  });
  await page.waitForFunction(() => window.__removed.flock === null, null, { timeout: 5000 });
  const lost = await page.evaluate(() => window.__removed.querySelector('canvas').getContext('webgl2').isContextLost());
  assert.equal(lost, true, 'a removed element gives its WebGL context back');
  for (const f of await recordFrames(page, 5)) assert.deepEqual(f.instanced, [300], 'only #a draws now');
  await page.evaluate(() => document.body.append(window.__removed));
  await waitFlocks(page, '#b');
  assert.equal(await page.evaluate(() => document.getElementById('b').flock.count()), 700, 'added back: a new flock from its attributes');
  await waitFrames(page, 3);
  for (const f of await recordFrames(page, 5)) {
    assert.deepEqual([...f.instanced].sort((x, y) => x - y), [300, 700], 'both draw again');
  }
  assert.deepEqual(pageErrors, []);
  await page.close();
});
