// Locks and ranges (issue 28, www/lesson/locks.js): what a teacher fixes for a lesson. A locked
// control shows, disabled, with a padlock and "(locked)" in its accessible name (en, uk); no
// real mouse drag or click, no key on it (arrows, Page Up, End, Enter and Space on a
// checkbox) and no boids:set from the iframe's parent moves it, while an unlocked control
// beside it does move the same way (so the test would see a lock that does nothing). The
// teacher's own script still may (attributes, `el.flock`). `ranges` narrows sliders and
// brings values in; junk is warned about and ignored; both attributes are live; a preset
// keeps the locked values. A screenshot of a locked panel, and Ukrainian at 390x844 without
// overflow.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { distDir, launchBrowser, saveArtifact, serve, watchProblems } from './helpers.mjs';
import { TEST_CSS, collectConsole, serveEmbed, testPage, waitFlocks } from './embed-helpers.mjs';

const LESSON =
  '<boids-flock id="lesson" count="5000" seed="3" alignment="2.8" paused ' +
  'controls="cohesion alignment separation count wrap flat predators presets" ' +
  'locked="cohesion wrap predators" ranges="alignment:0.5:2 count:100:3000" open="world hawks"></boids-flock>';

const env = {};

before(async () => {
  env.server = await serveEmbed({
    pages: {
      '/test/test.css': TEST_CSS,
      '/test/lesson.html': testPage(LESSON),
      '/test/lesson-uk.html': testPage(LESSON, { lang: 'uk' }),
      '/test/junk.html': testPage(
        '<boids-flock id="lesson" count="300" controls="cohesion alignment speed count separation" ' +
          'locked="cohesion, bogus;x" ' +
          'ranges="alignment:2:1 cohesion:0:9 wrap:0:1 speed:x:5 count:100.5:200 foo:1:2 separation:1:2:3 perception:2:4"></boids-flock>',
      ),
    },
  });
  env.browser = await launchBrowser();
});

after(async () => {
  await env.browser?.close();
  await env.server?.close();
});

async function open(path, viewport = { width: 1280, height: 900 }) {
  const page = await env.browser.newPage({ viewport });
  const watched = watchProblems(page);
  const warnings = collectConsole(page, 'warning');
  await page.goto(`${env.server.url}${path}`);
  await waitFlocks(page, '#lesson');
  // Every boids-change, as the page around it hears it.
  await page.evaluate(() => {
    window.changes = [];
    document.addEventListener('boids-change', (event) => window.changes.push(event.detail));
  });
  return { page, warnings, ...watched };
}

const value = (page, getter) => page.evaluate((g) => Number(document.querySelector('#lesson').flock[g]()), getter);
const input = (page, name) => page.locator(`#lesson [data-param="${name}"] input`).first();
const changes = (page) => page.evaluate(() => window.changes);

/** A real drag with the mouse along a slider, from 10 % of its width to `to` (past its end by default). */
async function drag(page, name, to = 1.1) {
  await input(page, name).scrollIntoViewIfNeeded();
  const box = await input(page, name).boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.3, y, { steps: 5 });
  await page.mouse.move(box.x + box.width * to, y, { steps: 5 });
  await page.mouse.up();
}

/** A real click in the middle of a control. */
async function click(page, name) {
  await input(page, name).scrollIntoViewIfNeeded();
  const box = await input(page, name).boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

test('a locked control shows a padlock, says "locked", and no mouse or key moves it', { timeout: 120_000 }, async () => {
  const { page, problems } = await open('test/lesson.html');

  // Seen and named: disabled, a padlock beside its name, "(locked)" in the accessible name.
  const cohesion = page.getByRole('slider', { name: 'Cohesion (locked)', exact: true });
  assert.equal(await cohesion.count(), 1, 'the cohesion slider is named "Cohesion (locked)"');
  assert.equal(await cohesion.isDisabled(), true);
  assert.equal(await page.getByRole('checkbox', { name: 'Wrap edges (locked)', exact: true }).isDisabled(), true);
  assert.equal(await page.getByRole('checkbox', { name: 'Predator (locked)', exact: true }).isDisabled(), true, 'the Predator box of a locked Hawks');
  assert.equal(await page.getByRole('slider', { name: 'Alignment', exact: true }).isDisabled(), false, 'alignment is not locked');
  const lock = page.locator('#lesson [data-param="cohesion"] .bf-lock');
  assert.equal(await lock.getAttribute('title'), 'Locked for this lesson');
  const lockBox = await lock.boundingBox();
  assert.ok(lockBox && lockBox.width >= 8 && lockBox.height >= 8, `the padlock is drawn: ${JSON.stringify(lockBox)}`);
  assert.equal(await page.locator('#lesson .bf-lock').count(), 3, 'a padlock on cohesion, wrap and hawks, none elsewhere');

  // The mouse: a drag and a click move the unlocked slider, and not the locked one.
  await drag(page, 'alignment', 0.5);
  assert.notEqual(await value(page, 'alignment'), 2, 'the drag moves an unlocked slider');
  await drag(page, 'cohesion');
  await click(page, 'cohesion');
  assert.equal(await value(page, 'cohesion'), 1, 'a drag and a click leave cohesion as it was');
  await click(page, 'wrap');
  assert.equal(await value(page, 'wrap'), 0, 'a click does not tick a locked checkbox');
  await page.locator('#lesson label[for$="predator"]').click({ force: true });
  const predator = page.locator('#lesson [data-param="predators"] input[type="checkbox"]');
  const box = await predator.boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  assert.equal(await value(page, 'predators'), 0, 'nor the Predator box, nor its label');

  // The keyboard: focus and arrows move alignment; the locked slider takes no focus, so no key
  // reaches it (arrows, Page Up for bigger steps, End).
  await input(page, 'alignment').focus();
  const alignment = await value(page, 'alignment');
  await page.keyboard.press('ArrowLeft');
  assert.notEqual(await value(page, 'alignment'), alignment, 'an arrow moves the focused unlocked slider');
  await page.evaluate(() => document.activeElement.blur());
  await input(page, 'cohesion').focus();
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.param ?? null), null, 'the locked slider does not take the focus');
  for (const key of ['ArrowRight', 'ArrowUp', 'PageUp', 'End']) await page.keyboard.press(key);
  assert.equal(await value(page, 'cohesion'), 1, 'no key moves cohesion');

  // Keys on a checkbox (Space ticks it; Enter too, keys.js): the unlocked 2D box, then wrap.
  await input(page, 'flat').focus();
  await page.keyboard.press('Enter');
  assert.equal(await value(page, 'flat'), 1, 'Enter ticks an unlocked checkbox');
  await input(page, 'wrap').focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Space');
  assert.equal(await value(page, 'wrap'), 0, 'neither Enter nor Space ticks the locked one');

  const moved = new Set((await changes(page)).map((c) => c.name));
  for (const name of ['cohesion', 'wrap', 'predators']) assert.ok(!moved.has(name), `no change of ${name} was told`);
  assert.ok(moved.has('alignment') && moved.has('flat'), 'the unlocked ones were');
  saveArtifact('locks-panel.png', await page.locator('#lesson').screenshot());

  // The teacher's script is not bound by the locks.
  await page.evaluate(() => document.querySelector('#lesson').flock.setCohesion(2.5));
  assert.equal(await value(page, 'cohesion'), 2.5, 'el.flock.setCohesion works');
  await page.evaluate(() => document.querySelector('#lesson').setAttribute('wrap', 'on'));
  assert.equal(await value(page, 'wrap'), 1, 'an attribute works');
  await page.waitForFunction(() => document.querySelector('#lesson [data-param="cohesion"] output').value === '2.50');
  assert.deepEqual(problems, []);
  await page.close();
});

test('ranges narrow the sliders and bring the values into them; the script may go outside', { timeout: 120_000 }, async () => {
  const { page, problems } = await open('test/lesson.html');
  const slider = await input(page, 'alignment').evaluate((el) => [el.min, el.max]);
  assert.deepEqual(slider, ['0.5', '2'], 'the alignment slider runs 0.5 to 2');
  assert.equal(await value(page, 'alignment'), 2, 'alignment="2.8" is brought to 2');
  assert.equal(await value(page, 'count'), 3000, 'count="5000" is brought to 3000');
  // The far ends with the mouse and the keyboard.
  await input(page, 'alignment').focus();
  await page.keyboard.press('Home');
  assert.equal(await value(page, 'alignment'), 0.5, 'Home: the range\'s low end');
  await drag(page, 'alignment');
  assert.equal(await value(page, 'alignment'), 2, 'dragged to the right: 2, not the 2.85 of the whole range');
  await input(page, 'count').focus();
  await page.keyboard.press('PageUp');
  assert.equal(await value(page, 'count'), 3000, 'Page Up stops at the range');
  await page.keyboard.press('Home');
  assert.equal(await value(page, 'count'), 100, 'Home is the range\'s low end');
  await page.keyboard.press('ArrowDown');
  assert.equal(await value(page, 'count'), 100);
  await page.keyboard.press('ArrowUp');
  assert.ok((await value(page, 'count')) > 100, 'an arrow steps up from there');
  // The lesson's script is not bound: the slider stays at its end, its figure says the value.
  await page.evaluate(() => document.querySelector('#lesson').setAttribute('alignment', '2.75'));
  assert.equal(await value(page, 'alignment'), 2.75);
  assert.equal(await page.locator('#lesson [data-param="alignment"] output').textContent(), '2.75');
  const api = await page.evaluate(() => {
    const el = document.querySelector('#lesson');
    return { locked: el.isLocked('Cohesion'), free: el.isLocked('alignment'), range: el.rangeOf('count'), whole: el.rangeOf('speed') };
  });
  assert.deepEqual(api, { locked: true, free: false, range: { min: 100, max: 3000 }, whole: { min: 1, max: 30 } });
  assert.deepEqual(problems, []);
  await page.close();
});

test('a preset keeps the locked values and stays within the ranges; its hint says so', { timeout: 120_000 }, async () => {
  const { page, problems } = await open('test/lesson.html');
  const hint = await page.locator('#lesson .bf-presets .bf-tools-hint').textContent();
  assert.match(hint, /Locked settings keep their values\.$/);
  await page.evaluate(() => document.querySelector('#lesson').flock.setCohesion(1.75)); // the teacher's value
  await page.locator('#lesson .bf-preset[data-preset="murmuration"]').click();
  assert.equal(await value(page, 'cohesion'), 1.75, 'cohesion is locked: the preset leaves it');
  assert.equal(await value(page, 'alignment'), 2, 'murmuration\'s alignment 3, within 0.5–2');
  assert.equal(await value(page, 'separation'), 2, 'the rest is the preset\'s');
  assert.equal(await value(page, 'speed'), 14);
  const told = await changes(page);
  assert.ok(!told.some((c) => c.name === 'cohesion' && c.source === 'user'), 'no change of cohesion told as the user\'s');
  assert.deepEqual(problems, []);
  await page.close();
});

test('junk in locked and ranges is warned about and ignored', { timeout: 120_000 }, async () => {
  const { page, warnings, problems } = await open('test/junk.html');
  const expected = [
    /locked: "bogus;x" is not a parameter; ignored/,
    /ranges: "alignment:2:1" is not name:min:max, min below max, within the parameter's own range \(alignment: 0 to 3\); ignored/,
    /ranges: "cohesion:0:9" .*\(cohesion: 0 to 3\); ignored/,
    /ranges: "wrap:0:1" .*\(wrap: on\/off, no range\); ignored/,
    /ranges: "speed:x:5" .*; ignored/,
    /ranges: "count:100.5:200" .*; ignored/,
    /ranges: "foo:1:2" is not name:min:max.*; ignored/,
    /ranges: "separation:1:2:3" .*; ignored/,
  ];
  for (const pattern of expected) assert.ok(warnings.some((w) => pattern.test(w)), `warned: ${pattern} in ${JSON.stringify(warnings)}`);
  // What was right still holds: cohesion locked, perception narrowed (not a slider here).
  assert.equal(await input(page, 'cohesion').isDisabled(), true);
  for (const name of ['alignment', 'speed', 'count', 'separation']) assert.equal(await input(page, name).isDisabled(), false, name);
  const ranges = await page.evaluate(() => {
    const el = document.querySelector('#lesson');
    return Object.fromEntries(['alignment', 'speed', 'count', 'separation', 'perception'].map((n) => [n, el.rangeOf(n)]));
  });
  assert.deepEqual(ranges, {
    alignment: { min: 0, max: 3 },
    speed: { min: 1, max: 30 },
    count: { min: 2, max: 100000 },
    separation: { min: 0, max: 3 },
    perception: { min: 2, max: 4 },
  });
  assert.deepEqual(problems, []);
  await page.close();
});

test('locked and ranges are live: changed, the controls follow', { timeout: 120_000 }, async () => {
  const { page, problems } = await open('test/lesson.html');
  await page.evaluate(() => document.querySelector('#lesson').setAttribute('locked', 'alignment'));
  assert.equal(await input(page, 'cohesion').isDisabled(), false, 'cohesion free again');
  assert.equal(await input(page, 'alignment').isDisabled(), true, 'alignment locked');
  assert.equal(await page.locator('#lesson .bf-lock').count(), 1);
  await page.evaluate(() => document.querySelector('#lesson').setAttribute('ranges', 'cohesion:0.5:0.8'));
  assert.deepEqual(await input(page, 'cohesion').evaluate((el) => [el.min, el.max]), ['0.5', '0.8']);
  assert.equal(await value(page, 'cohesion'), Math.fround(0.8), 'cohesion brought into its new range');
  assert.deepEqual(await input(page, 'alignment').evaluate((el) => [el.min, el.max]), ['0', '3'], 'alignment\'s range is gone');
  await page.waitForFunction(() => window.changes.some((c) => c.name === 'cohesion' && c.source === 'api'));
  await page.evaluate(() => {
    document.querySelector('#lesson').removeAttribute('locked');
    document.querySelector('#lesson').removeAttribute('ranges');
  });
  assert.equal(await page.locator('#lesson .bf-lock').count(), 0, 'no padlock left');
  assert.equal(await input(page, 'alignment').isDisabled(), false);
  assert.deepEqual(problems, []);
  await page.close();
});

test('in Ukrainian: the name says "заблоковано"; at 390x844 the locked panel fits', { timeout: 120_000 }, async () => {
  const { page, problems } = await open('test/lesson-uk.html', { width: 390, height: 844 });
  const label = await page.locator('#lesson [data-param="cohesion"] label').textContent();
  assert.notEqual(label, 'Cohesion', 'the label is Ukrainian');
  assert.equal(await page.getByRole('slider', { name: `${label} (заблоковано)`, exact: true }).count(), 1);
  assert.equal(await page.locator('#lesson [data-param="cohesion"] .bf-lock').getAttribute('title'), 'Заблоковано для цього уроку');
  const overflow = await page.evaluate(() => {
    const out = [];
    if (document.documentElement.scrollWidth > innerWidth) out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth}`);
    for (const el of document.querySelectorAll('#lesson .bf-panel *')) {
      const box = el.getBoundingClientRect();
      if (box.width <= 1) continue; // nothing drawn, or a text for screen readers only
      if (box.right > innerWidth + 0.5 || box.left < -0.5) out.push(`${el.className || el.tagName} past the window: ${box.left}–${box.right}`);
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') out.push(`${el.className || el.tagName} cut`);
    }
    return out;
  });
  assert.deepEqual(overflow, []);
  saveArtifact('locks-panel-uk-390.png', await page.screenshot({ fullPage: true }));
  assert.deepEqual(problems, []);
  await page.close();
});

test('the iframe form: ?locked= and ?ranges= bind the controls and boids:set', { timeout: 180_000 }, async () => {
  const boids = await serve({ root: distDir });
  const pages = {};
  const platform = await serve({ pages });
  const src =
    `${boids.url}embed.html?count=300&controls=cohesion,alignment,separation&locked=cohesion,alignment` +
    `&ranges=separation:0.5:2,cohesion:0.5:2&origins=${encodeURIComponent(platform.origin)}`;
  pages['/parent.html'] = `<!doctype html><meta charset="utf-8"><title>platform</title><script src="/parent.js"></script>
<iframe src="${src}" title="Boids" width="640" height="480"></iframe>`;
  pages['/parent.js'] = `window.got = [];
addEventListener('message', (event) => window.got.push(event.data));
window.send = (m) => document.querySelector('iframe').contentWindow.postMessage(m, ${JSON.stringify(boids.origin)});`;
  const page = await env.browser.newPage();
  const { problems } = watchProblems(page);
  try {
    await page.goto(`${platform.url}parent.html`);
    await page.waitForFunction(() => window.got.some((m) => m?.type === 'boids:ready'), null, { timeout: 90_000 });
    const frame = page.frames().find((f) => f.url().startsWith(boids.url));
    const inside = (getter) => frame.evaluate((g) => Number(document.querySelector('boids-flock').flock[g]()), getter);
    assert.equal(await frame.locator('#param-cohesion').isDisabled(), true);
    assert.equal(await frame.locator('#param-alignment').getAttribute('aria-label'), 'Alignment (locked)');
    assert.deepEqual(await frame.locator('#param-separation').evaluate((el) => [el.min, el.max]), ['0.5', '2']);
    let ref = 0;
    const ask = async (message) => {
      const id = `r${++ref}`;
      await page.evaluate((m) => window.send(m), { ...message, ref: id });
      return (await page.waitForFunction((id) => window.got.find((m) => m?.ref === id), id, { timeout: 10_000 })).jsonValue();
    };
    const refused = await ask({ type: 'boids:set', values: { separation: 1.8, cohesion: 2 } });
    assert.equal(refused.type, 'boids:error');
    assert.match(refused.message, /nothing changed: cohesion is locked in this lesson/);
    assert.equal(await inside('cohesion'), 1, 'cohesion as it was');
    assert.equal(await inside('separation'), 1.5, 'and separation too: one refusal refuses the message');
    const set = await ask({ type: 'boids:set', values: { separation: 2.9 } });
    assert.equal(set.type, 'boids:state');
    assert.equal(set.values.separation, 2, 'a value past the lesson\'s range comes in to it, as on the slider');
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
    await boids.close();
    await platform.close();
  }
});
