// The lesson studio (issue 28, studio.html): a lesson built in its form, then each of its three
// outputs (the <script> + <boids-flock> snippet, the iframe, the link) pasted into a blank page
// served here, and compared with the preview: every parameter's value, the seed (the same
// positions at the start and after the same steps), the controls shown, locked and narrowed,
// the prompts, the language, the instruments, the camera, and the pixels of the paused flocks.
// Also: one lesson made with the keyboard alone (and copied), the teacher's text kept as text,
// axe-core on the studio, and the four languages at 1280x800 and 390x844 with nothing spilling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { decodePng, difference, sameArrays, saveArtifact, useDistAndBrowser, watchProblems, waitFrames } from './helpers.mjs';
import { CSP_WATCH_SCRIPT, STRICT_CSP, waitFlocks } from './embed-helpers.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const LANGS = ['en', 'uk', 'pl', 'ru'];
/** Steps both flocks take, paused, after the start is compared. */
const STEPS = 20;
/** Pixels of the two paused pictures that may differ (by more than 24 of 255 in a channel). */
const PIXELS_APART = 0.01;

/** The blank pages the outputs are pasted into, filled in as the outputs are read. */
const pages = {};
const env = useDistAndBrowser({ pages, csp: STRICT_CSP });

/** A blank page holding `body`, its only style a box as wide as the preview (a file: the CSP). */
function blankPage(body, width) {
  pages[`/test/box-${width}.css`] = `body { margin: 0; padding: 8px; } .box { width: ${width}px; }`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>A lesson</title>
  <link rel="stylesheet" href="/test/box-${width}.css">
</head>
<body>
<div class="box">
${body}
</div>
</body>
</html>`;
}

async function openStudio(path = 'studio.html', { viewport = { width: 1280, height: 800 }, ...options } = {}) {
  const context = await env.browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  await page.addInitScript(CSP_WATCH_SCRIPT);
  const watch = watchProblems(page);
  await page.goto(env.server.url + path);
  await page.waitForFunction(() => document.documentElement.dataset.studio === 'ready', null, { timeout: 60_000 });
  await waitFlocks(page, '#preview');
  return { page, context, ...watch };
}

/** The three outputs as the studio shows them, once they have caught up with the form (and the preview's size). */
async function outputs(page) {
  const read = () => page.evaluate(() => ['snippet', 'iframe', 'link'].map((name) => document.getElementById(`studio-out-${name}`).value));
  let last = await read();
  for (let i = 0; i < 40; i++) {
    await page.waitForTimeout(150);
    const now = await read();
    if (now.every((text, k) => text === last[k])) break;
    last = now;
  }
  const [snippet, iframe, link] = last;
  return { snippet, iframe, link };
}

/**
 * What one <boids-flock> holds and shows: every parameter (through its getter), the controls
 * and tools shown, which are locked, the sliders' ranges, the prompts, the language, the
 * instruments' options, pause, the selection, the camera, the positions. `frame`: a Page or Frame.
 */
function stateOf(frame, selector) {
  return frame.evaluate((selector) => {
    const el = document.querySelector(selector);
    const values = {};
    for (const spec of el.constructor.params) values[spec.name] = Number(el.flock[spec.getter]());
    const inputs = [...el.querySelectorAll('input[data-param]')];
    const query = new URL(el.shareUrl()).searchParams;
    const options = ['lang', 'colour-by', 'shape', 'trails', 'cells', 'time-scale', 'inspect', 'contrast'];
    const prompts = el.querySelector('.bf-prompts');
    return {
      values,
      controls: inputs.map((input) => input.dataset.param),
      tools: ['presets', 'obstacles', 'pointer'].filter((tool) => el.features.has(tool)),
      locked: inputs.filter((input) => input.disabled).map((input) => input.dataset.param),
      ranges: inputs.map((input) => [input.dataset.param, input.type, input.min, input.max, input.step]),
      prompts: prompts
        ? {
            title: prompts.querySelector('.bf-prompts-title')?.textContent ?? null,
            items: [...prompts.querySelectorAll('.bf-prompt')].map((item) => [item.querySelector('dt').textContent, item.querySelector('dd').textContent]),
          }
        : null,
      language: el.language,
      options: Object.fromEntries(options.filter((key) => query.has(key)).map((key) => [key, query.get(key)])),
      paused: el.paused,
      selected: el.selectedId,
      camera: el.view ? Array.from(el.view.camera()) : null,
      steps: el.steps,
      positions: Array.from(el.flock.positions()),
      box: [el.getBoundingClientRect().width, el.getBoundingClientRect().height],
    };
  }, selector);
}

/** Pauses the element (if it is not) and steps it `n` times with its own Step. */
function stepFlock(frame, selector, n) {
  return frame.evaluate(
    ([selector, n]) => {
      const el = document.querySelector(selector);
      el.paused = true;
      for (let i = 0; i < n; i++) el.step();
      return el.steps;
    },
    [selector, n],
  );
}

/**
 * The canvas of a paused flock, with what lies over it (legend, buttons, readouts) hidden and
 * the camera's point looked at set to `target` (the preview's: under the open sky it glides
 * after the flock from wherever it was), after `frames` frames for the glide to settle.
 */
async function canvasPicture(page, frame, selector, target, name) {
  await frame.evaluate(
    ([selector, target]) => {
      const el = document.querySelector(selector);
      for (const node of el.querySelectorAll('.bf-stage > :not(canvas)')) node.style.visibility = 'hidden';
      if (target) el.view.setCamera([...Array.from(el.view.camera()).slice(0, 3), ...target]);
    },
    [selector, target],
  );
  await waitFrames(page, 90);
  const buffer = await frame.locator(`${selector} canvas.bf-canvas`).screenshot();
  saveArtifact(name, buffer);
  return decodePng(buffer);
}

/** The same picture size, cropping the larger by at most a pixel (an iframe rounds its height up). */
function sameSize(a, b) {
  assert.ok(Math.abs(a.width - b.width) <= 1 && Math.abs(a.height - b.height) <= 1, `pictures ${a.width}x${a.height} and ${b.width}x${b.height}`);
  const crop = (png, width, height) => {
    if (png.width === width && png.height === height) return png;
    const data = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y++) png.data.copy(data, y * width * 4, y * png.width * 4, (y * png.width + width) * 4);
    return { width, height, data };
  };
  const width = Math.min(a.width, b.width);
  const height = Math.min(a.height, b.height);
  return [crop(a, width, height), crop(b, width, height)];
}

/** Fills field `id` and tells the studio (a change event, as leaving the field does). */
async function fill(page, id, value) {
  await page.locator(`#${id}`).fill(String(value));
  await page.locator(`#${id}`).dispatchEvent('change');
}

/** Every group of the form open, so its every field is reachable, audited and measured. */
const openGroups = (page) => page.evaluate(() => document.querySelectorAll('details.studio-group').forEach((d) => (d.open = true)));

const TITLE = 'Who leads? "No one" & <nobody>';
const PREDICT = 'What will one hawk do to the flock?\nDraw it first.';
const NOTICE = 'Watch the boid with the spheres <b>not bold</b>.';
const TRY = 'Move cohesion between 0.5 and 2.5.';

test('a lesson built in the studio: its snippet, iframe and link reproduce the preview in a blank page', { timeout: 300_000 }, async () => {
  const { page, context, pageErrors } = await openStudio();
  await openGroups(page);
  // The start: a preset, then settings of our own and a seed.
  await page.locator('#studio-preset-murmuration').click();
  await fill(page, 'studio-value-count', 600);
  await fill(page, 'studio-value-cohesion', 2.25);
  await fill(page, 'studio-value-predators', 1);
  await fill(page, 'studio-seed', 4242);
  // Controls: three sliders and the preset buttons; alignment locked, cohesion narrowed.
  for (const name of ['count', 'alignment', 'cohesion', 'presets']) await page.locator(`#studio-show-${name}`).check();
  await page.locator('#studio-lock-alignment').check();
  await fill(page, 'studio-from-cohesion', 0.5);
  await fill(page, 'studio-to-cohesion', 2.5);
  // The view: the camera turned by a drag on the preview, a boid inspected, colours, trails, plot.
  const canvas = await page.locator('#preview canvas.bf-canvas').boundingBox();
  await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
  await page.mouse.down();
  await page.mouse.move(canvas.x + canvas.width / 2 + 90, canvas.y + canvas.height / 2 + 40, { steps: 6 });
  await page.mouse.up();
  await page.locator('#studio-camera').check();
  await page.locator('#studio-colour').selectOption('speed');
  await page.locator('#studio-shape').selectOption('chick');
  await page.locator('#studio-plot').check();
  await fill(page, 'studio-time-scale', 0.5);
  await page.locator('#studio-paused').check();
  await page.locator('#studio-lesson-lang').selectOption('uk');
  await page.locator('#studio-lesson-title').fill(TITLE);
  await page.locator('#studio-predict').fill(PREDICT);
  await page.locator('#studio-notice').fill(NOTICE);
  await page.locator('#studio-try').fill(TRY);
  await page.locator('#studio-inspect').check();
  await page.locator('#studio-trails').check();
  await page.locator('#studio-cells').check();
  // The students' start, in the preview: made afresh from the outputs' attributes (paused, as
  // the lesson starts).
  await page.locator('#studio-restart').click();
  await waitFlocks(page, '#preview');
  const out = await outputs(page);
  const preview = await stateOf(page, '#preview');

  // The lesson is what was asked for (else the comparisons below compare two empty lessons).
  assert.equal(preview.values.seed, 4242);
  assert.equal(preview.values.count, 600);
  assert.equal(preview.values.cohesion, 2.25);
  assert.equal(preview.values.predators, 1);
  assert.deepEqual(preview.controls, ['count', 'alignment', 'cohesion']);
  assert.deepEqual(preview.tools, ['presets']);
  assert.deepEqual(preview.locked, ['alignment']);
  assert.equal(preview.language, 'uk');
  assert.equal(preview.steps, 0);
  assert.notEqual(preview.selected, null, 'a boid is inspected');
  assert.deepEqual(preview.options, { lang: 'uk', 'colour-by': 'speed', shape: 'chick', trails: '1', cells: '1', 'time-scale': '0.5', inspect: String(preview.selected) });
  assert.deepEqual(preview.prompts, {
    title: TITLE,
    items: [['Передбачте', PREDICT], ['Помітьте', NOTICE], ['Спробуйте', TRY]],
  });
  // The camera as the snippet writes it (degrees), turned by the drag from the default view
  // (yaw 0.65, pitch 0.32 radians: src/render/camera.rs), and the preview's after Restart.
  const [, yaw, pitch, zoom] = out.snippet.match(/ camera="(\S+) (\S+) (\S+)"/).map(Number);
  const camera = [(yaw * Math.PI) / 180, (pitch * Math.PI) / 180, zoom];
  assert.ok(Math.abs(camera[0] - 0.65) > 0.05 || Math.abs(camera[1] - 0.32) > 0.05, `the drag turned the camera (${camera})`);
  assert.match(out.snippet, /^<script type="module" src="http:\/\/127\.0\.0\.1:\d+\/www\/boids-embed\.js"><\/script>\n<boids-flock\n/);
  assert.match(out.snippet, /lesson-title="Who leads\? &quot;No one&quot; &amp; &lt;nobody&gt;"/);
  assert.match(out.iframe, /^<iframe title="Who leads\? &quot;No one&quot; &amp; &lt;nobody&gt;" width="560" height="\d+"\n {8}src="http:\/\/127\.0\.0\.1:\d+\/embed\.html\?/);
  assert.match(out.link, /^http:\/\/127\.0\.0\.1:\d+\/\?seed=4242&/);
  const box = await page.locator('#preview').boundingBox();
  assert.match(out.iframe, new RegExp(` width="${Math.round(box.width)}" height="${Math.ceil(box.height)}"`), "the iframe is the preview's size");
  for (const [name, text] of Object.entries(out)) saveArtifact(`studio-output-${name}.txt`, text);

  const width = Math.round(box.width);
  pages['/test/snippet.html'] = blankPage(out.snippet, width);
  pages['/test/iframe.html'] = blankPage(out.iframe, width);
  const previewPicture = await canvasPicture(page, page, '#preview', null, 'studio-preview-canvas.png');
  const target = (await stateOf(page, '#preview')).camera.slice(3);

  const students = [
    ['snippet', `${env.server.url}test/snippet.html`, (p) => p, 'boids-flock'],
    ['iframe', `${env.server.url}test/iframe.html`, (p) => p.frame({ url: /embed\.html/ }), 'boids-flock'],
    ['link', out.link, (p) => p, 'boids-flock[page]'],
  ];
  for (const [name, url, frameOf, selector] of students) {
    const student = await context.newPage();
    await student.addInitScript(CSP_WATCH_SCRIPT);
    const watched = watchProblems(student);
    await student.goto(url);
    const frame = frameOf(student);
    await waitFlocks(frame, selector);
    // The plot writes its figures under it 4 s into a page's life (instruments.js), the
    // studio's long since: the element's height is the preview's from then on.
    await frame.waitForFunction(() => performance.now() > 4500);
    await waitFrames(student, 20);
    const got = await stateOf(frame, selector);
    const what = `${name}: `;
    assert.deepEqual(got.values, preview.values, `${what}every parameter as in the preview`);
    assert.deepEqual(got.controls, preview.controls, `${what}the same controls`);
    assert.deepEqual(got.tools, preview.tools, `${what}the same tools`);
    assert.deepEqual(got.locked, preview.locked, `${what}the same locks`);
    assert.deepEqual(got.ranges, preview.ranges, `${what}the same ranges`);
    assert.deepEqual(got.prompts, preview.prompts, `${what}the same prompts`);
    assert.equal(got.language, 'uk', `${what}the lesson's language`);
    assert.deepEqual(got.options, preview.options, `${what}the same instruments`);
    assert.equal(got.paused, true, `${what}starts paused`);
    assert.equal(got.selected, preview.selected, `${what}the same boid inspected`);
    assert.equal(got.steps, 0, `${what}not a step taken`);
    for (let i = 0; i < 3; i++) {
      assert.ok(Math.abs(got.camera[i] - camera[i]) < 1e-5, `${what}camera ${got.camera} as the lesson's ${camera}`);
      assert.ok(Math.abs(preview.camera[i] - camera[i]) < 1e-5, `the preview's camera ${preview.camera} as the lesson's ${camera}`);
    }
    assert.ok(sameArrays(got.positions, preview.positions), `${what}the same start, boid for boid`);
    if (name === 'snippet') assert.deepEqual(got.box, preview.box, `${what}the element's box is the preview's`);
    if (name !== 'link') {
      // The link opens the full page (its own size); the snippet and the iframe are the preview's.
      const picture = await canvasPicture(student, frame, selector, target, `studio-${name}-canvas.png`);
      const [a, b] = sameSize(previewPicture, picture);
      const apart = difference(a, b);
      console.log(`# ${name}: ${(apart * 100).toFixed(3)} % of the pixels apart from the preview`);
      assert.ok(apart <= PIXELS_APART, `${what}${(apart * 100).toFixed(2)} % of the pixels differ from the preview's`);
    }
    // The same steps, the same flock: both stepped with their own Step, from the same start.
    assert.equal(await stepFlock(frame, selector, STEPS), STEPS);
    assert.equal(await stepFlock(page, '#preview', STEPS), STEPS);
    const [after, previewAfter] = [await stateOf(frame, selector), await stateOf(page, '#preview')];
    assert.ok(!sameArrays(after.positions, preview.positions), `${what}the steps moved the flock`);
    assert.ok(sameArrays(after.positions, previewAfter.positions), `${what}the same positions after ${STEPS} steps`);
    // The preview back at the students' start for the next output: the studio's Restart.
    await page.locator('#studio-restart').click();
    await waitFlocks(page, '#preview');
    assert.ok(sameArrays((await stateOf(page, '#preview')).positions, preview.positions), 'Restart: the start again');
    assert.deepEqual(await (name === 'iframe' ? frame : student).evaluate(() => window.__csp), [], `${what}nothing broke the CSP`);
    assert.deepEqual(watched.pageErrors, [], `${what}no page errors`);
    await student.close();
  }
  assert.deepEqual(await page.evaluate(() => window.__csp), [], 'the studio runs under the strict CSP');
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test("this exact moment: the outputs carry the preview's snapshot, and a blank page goes on from it bit for bit", { timeout: 240_000 }, async (t) => {
  const { page, context, pageErrors } = await openStudio();
  if (await page.locator('#studio-moment-take').isDisabled()) {
    // The element takes `state` and the flock gives snapshots (issue 28, timeline.js) or not.
    t.skip('this build has no flock.snapshot() or no state attribute');
    await context.close();
    return;
  }
  await openGroups(page);
  await fill(page, 'studio-value-count', 300);
  await fill(page, 'studio-seed', 77);
  await waitFlocks(page, '#preview');
  await page.locator('#studio-show-cohesion').check();
  await page.locator('#studio-paused').check();
  await page.evaluate(() => {
    document.getElementById('preview').paused = false;
  });
  // The flock flies a while; then this very moment is kept (the preview holds still there).
  await page.waitForFunction(() => document.getElementById('preview').steps > 90, null, { timeout: 60_000 });
  await page.locator('#studio-moment-take').click();
  await page.waitForFunction(() => !document.getElementById('studio-moment-clear').hidden);
  const out = await outputs(page);
  const preview = await stateOf(page, '#preview');
  assert.equal(preview.paused, true);
  assert.ok(preview.steps > 90, `the moment is ${preview.steps} steps in`);
  assert.match(out.snippet, /\n {2}state="[A-Za-z0-9_-]{100,}"\n/);
  assert.match(out.iframe, /embed\.html\?[^"#]*#state=[A-Za-z0-9_-]{100,}"/);
  assert.match(out.link, /#state=[A-Za-z0-9_-]{100,}$/);
  const width = Math.round((await page.locator('#preview').boundingBox()).width);
  pages['/test/moment-snippet.html'] = blankPage(out.snippet, width);
  pages['/test/moment-iframe.html'] = blankPage(out.iframe, width);
  for (const [name, path, frameOf] of [
    ['snippet', 'test/moment-snippet.html', (p) => p],
    ['iframe', 'test/moment-iframe.html', (p) => p.frame({ url: /embed\.html/ })],
  ]) {
    const student = await context.newPage();
    await student.goto(env.server.url + path);
    const frame = frameOf(student);
    await waitFlocks(frame, 'boids-flock');
    await frame.evaluate(() => document.querySelector('boids-flock').momentLoaded);
    const got = await stateOf(frame, 'boids-flock');
    assert.deepEqual(got.values, preview.values, `${name}: the moment's settings`);
    assert.equal(got.steps, preview.steps, `${name}: as many steps in`);
    assert.ok(sameArrays(got.positions, preview.positions), `${name}: the moment, boid for boid`);
    await stepFlock(frame, 'boids-flock', STEPS);
    await stepFlock(page, '#preview', STEPS);
    const [after, previewAfter] = [await stateOf(frame, 'boids-flock'), await stateOf(page, '#preview')];
    assert.ok(!sameArrays(after.positions, preview.positions), `${name}: the steps moved the flock`);
    assert.ok(sameArrays(after.positions, previewAfter.positions), `${name}: the same after ${STEPS} steps`);
    await page.locator('#studio-restart').click(); // back to the moment for the next one
    await waitFlocks(page, '#preview');
    await page.evaluate(() => document.getElementById('preview').momentLoaded);
    assert.ok(sameArrays((await stateOf(page, '#preview')).positions, preview.positions), 'Restart: the preview at the moment again');
    await student.close();
  }
  // A setting changed afterwards: the moment is let go (a student would get its settings).
  await fill(page, 'studio-value-cohesion', 2);
  await page.waitForFunction(() => document.getElementById('studio-moment-clear').hidden);
  assert.match(await page.locator('#studio-moment-status').textContent(), /let go/);
  assert.doesNotMatch((await outputs(page)).snippet, /state=/);
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test('keyboard only: a lesson made and copied with Tab, typing, Space and Enter', { timeout: 180_000 }, async () => {
  const { page, context, pageErrors } = await openStudio('studio.html?lang=pl');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  /** Tab until the element `id` has the focus (the way a keyboard user gets there). */
  const tabTo = async (id) => {
    for (let i = 0; i < 400; i++) {
      if ((await page.evaluate(() => document.activeElement?.id)) === id) return;
      await page.keyboard.press('Tab');
    }
    assert.fail(`Tab never reached #${id}`);
  };
  await tabTo('studio-lesson-title');
  await page.keyboard.type('Ptaki');
  await tabTo('studio-predict');
  await page.keyboard.type('Co zrobi stado?');
  await tabTo('studio-show-separation');
  await page.keyboard.press('Space');
  await tabTo('studio-lock-separation');
  await page.keyboard.press('Space');
  await tabTo('studio-value-cohesion');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('1.75');
  await page.keyboard.press('Tab'); // leaving the field applies it
  await tabTo('studio-copy-snippet');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('studio-status-snippet').textContent !== '');
  const status = page.locator('#studio-status-snippet');
  assert.equal(await status.getAttribute('aria-live'), 'polite');
  assert.equal(await status.textContent(), 'Skopiowano.');
  const { snippet } = await outputs(page);
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), snippet, 'the snippet is on the clipboard');
  assert.match(snippet, / controls="separation"/);
  assert.match(snippet, / locked="separation"/);
  assert.match(snippet, / cohesion="1.75"/);
  assert.match(snippet, / lesson-title="Ptaki"/);
  assert.match(snippet, / predict="Co zrobi stado\?"/);
  const preview = await stateOf(page, '#preview');
  assert.equal(preview.values.cohesion, 1.75);
  assert.deepEqual(preview.locked, ['separation']);
  assert.equal(preview.prompts.items[0][0], 'Przewidź');
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test('without a clipboard, Copy selects the text and says how to copy it', { timeout: 120_000 }, async () => {
  const { page, context } = await openStudio();
  await page.evaluate(() => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } });
  });
  await page.locator('#studio-copy-iframe').click();
  await page.waitForFunction(() => document.getElementById('studio-status-iframe').textContent !== '');
  assert.match(await page.locator('#studio-status-iframe').textContent(), /Ctrl\+C/);
  const selection = await page.evaluate(() => {
    const area = document.getElementById('studio-out-iframe');
    return { focused: document.activeElement === area, start: area.selectionStart, end: area.selectionEnd, length: area.value.length };
  });
  assert.deepEqual(selection, { focused: true, start: 0, end: selection.length, length: selection.length });
  assert.ok(selection.length > 40);
  await context.close();
});

test("a teacher's text is text: markup in a prompt shows as written, in the element and the iframe form", { timeout: 120_000 }, async () => {
  const { page, context } = await openStudio();
  const trap = '<img src="/x.png" onerror="window.__owned = 1"><b>bold?</b>';
  await page.locator('#studio-notice').fill(trap);
  await page.locator('#studio-lesson-title').fill('<script>window.__owned = 2</script>');
  const { iframe } = await outputs(page);
  const shown = await page.evaluate(() => {
    const box = document.querySelector('#preview .bf-prompts');
    return { html: box.querySelectorAll('img, b, script').length, text: box.querySelector('.bf-prompt-notice dd').textContent, title: box.querySelector('.bf-prompts-title').textContent };
  });
  assert.deepEqual(shown, { html: 0, text: trap, title: '<script>window.__owned = 2</script>' });
  pages['/test/trap.html'] = blankPage(iframe, 560);
  const student = await context.newPage();
  await student.goto(`${env.server.url}test/trap.html`);
  const frame = student.frame({ url: /embed\.html/ });
  await waitFlocks(frame, 'boids-flock');
  assert.equal(await frame.locator('.bf-prompt-notice dd').textContent(), trap);
  assert.equal(await frame.locator('.bf-prompts img').count(), 0);
  assert.equal(await frame.evaluate(() => window.__owned ?? null), null);
  assert.equal(await page.evaluate(() => window.__owned ?? null), null);
  await context.close();
});

test('axe-core: no serious or critical violations in the studio (en, and ru with a lesson filled in)', { timeout: 180_000 }, async () => {
  for (const lang of ['en', 'ru']) {
    const { page, context, pageErrors } = await openStudio(`studio.html?lang=${lang}`, { bypassCSP: true });
    if (lang === 'ru') {
      for (const name of ['cohesion', 'separation', 'presets']) await page.locator(`#studio-show-${name}`).check();
      await page.locator('#studio-lock-separation').check();
      await fill(page, 'studio-from-cohesion', 3); // out of order: the error shows
      await page.locator('#studio-lesson-title').fill('Урок');
      await page.locator('#studio-predict').fill('Что будет?');
      await outputs(page);
      assert.equal(await page.locator('#studio-range-error-cohesion').isVisible(), true, 'the range error shows');
    }
    await openGroups(page);
    await page.addScriptTag({ path: AXE });
    const violations = await page.evaluate(async () => {
      const result = await window.axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
    });
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(bad, [], `${lang}: ${JSON.stringify(bad, null, 1)}`);
    assert.deepEqual(pageErrors, []);
    await context.close();
  }
});

/** In the page: text wider than its box, anything past the window's edge, sideways scroll. */
function overflows() {
  const out = [];
  const width = document.documentElement.clientWidth;
  const name = (el) => `${el.tagName.toLowerCase()}#${el.id}.${[...el.classList].join('.')} "${(el.value || el.textContent || '').trim().slice(0, 30)}"`;
  for (const el of document.querySelectorAll('button, label, legend, summary, p, h1, h2, dt, dd, a, select, input, textarea, .studio-field, .studio-param')) {
    // Not shown, or visually hidden (a 1 px box for screen readers).
    if (!el.getClientRects().length || el.closest('[hidden]') || el.getBoundingClientRect().width <= 1) continue;
    const field = el.matches('input, textarea');
    if (!field && getComputedStyle(el).display !== 'inline' && el.scrollWidth > el.clientWidth + 1) out.push(`${name(el)} is wider than its box (${el.scrollWidth} > ${el.clientWidth})`);
    const rect = el.getBoundingClientRect();
    if (rect.left < -1 || rect.right > width + 1) out.push(`${name(el)} runs past the window (${Math.round(rect.left)}..${Math.round(rect.right)} of ${width})`);
    const section = el.parentElement?.closest('.studio-section, .studio-output, .studio-preview');
    if (section) {
      const box = section.getBoundingClientRect();
      if (rect.left < box.left - 1 || rect.right > box.right + 1) out.push(`${name(el)} sticks out of its section`);
    }
  }
  if (document.documentElement.scrollWidth > width) out.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`);
  return out;
}

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`the studio in four languages at ${viewport.width}x${viewport.height}: its words, nothing spilling`, { timeout: 240_000 }, async () => {
    const found = [];
    for (const lang of LANGS) {
      const { page, context, pageErrors } = await openStudio(`studio.html?lang=${lang}`, { viewport });
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
      const heading = await page.locator('h1').textContent();
      const english = 'Lesson studio';
      if (lang === 'en') assert.equal(heading, english);
      else assert.notEqual(heading, english, `${lang}: the heading is translated`);
      // A lesson with prompts and a few controls, so the preview shows its panel too.
      for (const name of ['cohesion', 'separation', 'alignment', 'presets']) await page.locator(`#studio-show-${name}`).check();
      await page.locator('#studio-lesson-title').fill('Three rules, one flock');
      await page.locator('#studio-predict').fill('What happens with no cohesion at all, when every boid only keeps its distance?');
      await openGroups(page);
      await outputs(page);
      found.push(...(await page.evaluate(overflows)).map((f) => `${lang} ${viewport.width}px: ${f}`));
      if (lang === 'en' || lang === 'uk') {
        saveArtifact(`studio-${lang}-${viewport.width}.png`, await page.screenshot({ fullPage: viewport.width < 800 }));
      }
      assert.deepEqual(pageErrors, []);
      await context.close();
    }
    assert.deepEqual(found, []);
  });
}

test('the page links to the studio, in its language', { timeout: 120_000 }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  for (const [lang, words] of [['en', 'Make a lesson (studio)'], ['uk', 'Створити урок (студія)']]) {
    await page.goto(`${env.server.url}?lang=${lang}&count=300`);
    await page.waitForFunction(() => document.documentElement.dataset.boids === 'running', null, { timeout: 60_000 });
    const link = page.locator('#studio-link');
    await link.scrollIntoViewIfNeeded();
    assert.equal(await link.isVisible(), true);
    assert.equal(await link.textContent(), words);
    assert.equal(await link.getAttribute('href'), `studio.html?lang=${lang}`);
  }
  await page.locator('#studio-link').click();
  await page.waitForFunction(() => document.documentElement.dataset.studio === 'ready', null, { timeout: 60_000 });
  assert.equal(await page.locator('h1').textContent(), 'Студія уроку');
  await context.close();
});
