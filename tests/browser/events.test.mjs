// Events for the page and the platform (issue 28, www/lesson/events.js and www/embed-bridge.js):
// `boids-change` with its source ("user" for a key on a slider, a click on a checkbox, a
// preset's button; "api" for an attribute, `el.flock`'s setters, the preset attribute),
// `boids-preset`, `boids-select` (a click on a cone, Esc) and `boids-experiment` (a short
// sweep), each bubbling and composed (heard outside a shadow root). In the iframe form the
// same reach an allowed parent as `boids:event` (a dragged slider once, where it stopped) and
// never a parent on another origin; `lti.frameResize` tells the parent the height the content
// wants, again when it changes, and not again once the parent has set it (no loop).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { distDir, launchBrowser, serve, waitRunning, watchProblems } from './helpers.mjs';
import { TEST_CSS, serveEmbed, testPage, waitFlocks } from './embed-helpers.mjs';
import { PLACEHOLDERS, recipe } from './package-helpers.mjs';

const env = {};

/** Every event of ours that reaches the document, with its flags and target. */
const RECORD = () => {
  window.heard = [];
  for (const type of ['boids-change', 'boids-preset', 'boids-select', 'boids-experiment']) {
    document.addEventListener(type, (event) =>
      window.heard.push({ type, detail: event.detail, bubbles: event.bubbles, composed: event.composed, target: event.target.id || event.target.localName }),
    );
  }
};

before(async () => {
  env.server = await serveEmbed({
    pages: {
      '/test/test.css': TEST_CSS,
      '/test/events.html': testPage('<boids-flock id="e" count="300" seed="4" paused controls="cohesion flat presets"></boids-flock>'),
    },
  });
  env.browser = await launchBrowser();
});

after(async () => {
  await env.browser?.close();
  await env.server?.close();
});

async function open() {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const watched = watchProblems(page);
  await page.goto(`${env.server.url}test/events.html`);
  await waitFlocks(page, '#e');
  await page.evaluate(RECORD);
  return { page, ...watched };
}

/** What was heard since the last call (and forgets it). */
const heard = (page) => page.evaluate(() => window.heard.splice(0));
const changesOf = (list) => list.filter((e) => e.type === 'boids-change').map((e) => e.detail);

test('boids-change: a key, a click and a preset are the user\'s; attributes and el.flock are the api\'s', { timeout: 120_000 }, async () => {
  const { page, problems } = await open();
  // A key on the slider, as a student does.
  await page.locator('#e [data-param="cohesion"] input').focus();
  await page.keyboard.press('ArrowRight');
  const cohesion = await page.evaluate(() => document.querySelector('#e').flock.cohesion());
  assert.ok(cohesion > 1, 'the key moved cohesion');
  const events = await heard(page);
  assert.equal(events.length, 1, JSON.stringify(events));
  const { detail, ...flags } = events[0];
  assert.deepEqual(flags, { type: 'boids-change', bubbles: true, composed: true, target: 'e' });
  assert.deepEqual([detail.name, detail.source], ['cohesion', 'user']);
  // The value the flock holds (a 32-bit float), written as short as it reads back.
  assert.equal(Math.fround(detail.value), cohesion);
  assert.ok(String(detail.value).length <= 5, `short: ${detail.value}`);
  // A click on a checkbox; 2D also moves the world's size: each is told, both the user's.
  await page.locator('#e [data-param="flat"] input').click();
  const flat = changesOf(await heard(page));
  assert.deepEqual(flat.find((c) => c.name === 'flat'), { name: 'flat', value: 1, source: 'user' });
  assert.ok(flat.every((c) => c.source === 'user' && ['flat', 'worldSize'].includes(c.name)), JSON.stringify(flat));

  // The teacher's script: an attribute, a setter of the flock, an attribute that moves another value.
  await page.evaluate(() => document.querySelector('#e').setAttribute('cohesion', '2'));
  await page.evaluate(() => document.querySelector('#e').flock.setAlignment(0.3));
  await page.waitForFunction(() => window.heard.length >= 2);
  assert.deepEqual(changesOf(await heard(page)), [
    { name: 'cohesion', value: 2, source: 'api' },
    { name: 'alignment', value: 0.3, source: 'api' }, // as the flock holds it (f32), written short
  ]);
  // Several in one go are told once each, after the script is done.
  await page.evaluate(() => {
    const el = document.querySelector('#e');
    el.flock.setSeparation(2);
    el.flock.setSeparation(2.5);
    el.setAttribute('speed', '12');
  });
  await page.waitForFunction(() => window.heard.length >= 2);
  // (in the parameter table's order: speed before separation)
  assert.deepEqual(changesOf(await heard(page)), [
    { name: 'speed', value: 12, source: 'api' },
    { name: 'separation', value: 2.5, source: 'api' },
  ]);
  await page.close();
  assert.deepEqual(problems, []);
});

test('boids-preset and its changes: the button is the user\'s, the attribute the api\'s', { timeout: 120_000 }, async () => {
  const { page, problems } = await open();
  await page.locator('#e .bf-preset[data-preset="fishBall"]').click();
  let events = await heard(page);
  assert.deepEqual(events[0], { type: 'boids-preset', detail: { name: 'fishBall', source: 'user' }, bubbles: true, composed: true, target: 'e' });
  const fish = Object.fromEntries(changesOf(events.slice(1)).map((c) => [c.name, c]));
  assert.deepEqual(fish.cohesion, { name: 'cohesion', value: 2.5, source: 'user' });
  assert.deepEqual(fish.speed, { name: 'speed', value: 6, source: 'user' });
  assert.ok(events.slice(1).every((e) => e.type === 'boids-change' && e.detail.source === 'user'));
  assert.ok(!('alignment' in fish), 'alignment is 1 before and after: no change told');

  await page.evaluate(() => document.querySelector('#e').setAttribute('preset', 'murmuration'));
  await page.waitForFunction(() => window.heard.length > 1);
  events = await heard(page);
  assert.deepEqual(events[0].detail, { name: 'murmuration', source: 'api' });
  assert.deepEqual(changesOf(events).find((c) => c.name === 'alignment'), { name: 'alignment', value: 3, source: 'api' });
  assert.ok(changesOf(events).every((c) => c.source === 'api'));
  await page.close();
  assert.deepEqual(problems, []);
});

test('boids-select: a click on a cone says its id, Esc says null; composed out of a shadow root', { timeout: 120_000 }, async () => {
  const { page, problems } = await open();
  const target = await page.evaluate(() => {
    const el = document.querySelector('#e');
    const { flock, view } = el;
    const canvas = el.querySelector('canvas').getBoundingClientRect();
    const play = el.querySelector('.bf-play').getBoundingClientRect(); // paused: Play in the middle
    for (const id of flock.idsByDistanceFromCentre()) {
      const seen = flock.inspect(id);
      const at = view.cssPointOf(flock, seen.position[0], seen.position[1], seen.position[2]);
      if (!at || view.pick(flock, at[0], at[1]) !== id) continue;
      const [x, y] = [canvas.left + at[0], canvas.top + at[1]];
      if (x > play.left - 10 && x < play.right + 10 && y > play.top - 10 && y < play.bottom + 10) continue;
      return { id, x, y };
    }
    return null;
  });
  assert.ok(target, 'a boid on screen');
  await page.mouse.click(target.x, target.y);
  await page.waitForFunction(() => window.heard.length > 0);
  assert.deepEqual(await heard(page), [{ type: 'boids-select', detail: { id: target.id }, bubbles: true, composed: true, target: 'e' }]);
  await page.keyboard.press('Escape'); // the click focused the scene
  await page.waitForFunction(() => window.heard.length > 0);
  assert.deepEqual((await heard(page)).map((e) => e.detail), [{ id: null }]);

  // An element inside a web component's shadow root: the page still hears it (composed).
  const outside = await page.evaluate(async () => {
    const host = document.createElement('div');
    host.id = 'host';
    document.body.append(host);
    const inner = document.createElement('boids-flock');
    inner.setAttribute('count', '100');
    host.attachShadow({ mode: 'open' }).append(inner);
    window.heard.length = 0;
    inner.setAttribute('cohesion', '0.5');
    await new Promise((resolve) => setTimeout(resolve, 50));
    return window.heard.splice(0);
  });
  assert.deepEqual(outside, [
    { type: 'boids-change', detail: { name: 'cohesion', value: 0.5, source: 'api' }, bubbles: true, composed: true, target: 'host' },
  ]);
  await page.close();
  assert.deepEqual(problems, []);
});

test('boids-experiment when a sweep finishes: what was swept and the curves', { timeout: 180_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const { problems } = watchProblems(page);
  await page.goto(`${env.server.url}?count=100&open=experiment`);
  await waitRunning(page);
  await page.evaluate(RECORD);
  await page.waitForSelector('#exp-run', { timeout: 30_000 });
  for (const [name, value] of Object.entries({ count: '50', settle: '0.5', measure: '0.5', points: '3', seeds: '1 2', from: '0', to: '1' })) {
    await page.fill(`#exp-${name}`, value);
    await page.locator(`#exp-${name}`).dispatchEvent('change');
  }
  const param = await page.locator('#exp-param').inputValue();
  assert.equal((await heard(page)).filter((e) => e.type === 'boids-experiment').length, 0, 'nothing before the run');
  await page.locator('#exp-run').click();
  await page.waitForFunction(() => window.heard.some((e) => e.type === 'boids-experiment'), null, { timeout: 120_000 });
  const [event] = (await heard(page)).filter((e) => e.type === 'boids-experiment');
  assert.equal(event.bubbles && event.composed, true);
  const { detail } = event;
  assert.equal(detail.param, param);
  assert.deepEqual(detail.values, [0, 0.5, 1]);
  assert.deepEqual(detail.seeds, [1, 2]);
  assert.equal(detail.count, 50);
  assert.equal(detail.rows, 6, 'three values, two seeds');
  assert.match(detail.fingerprint, /^[0-9a-f]{16}$/);
  const curve = detail.summary.polarization.up;
  assert.deepEqual(curve.map((p) => p.value), [0, 0.5, 1]);
  assert.ok(curve.every((p) => p.seeds === 2 && p.mean >= 0 && p.mean <= 1), JSON.stringify(curve));
  assert.deepEqual(Object.keys(detail.summary).sort(), ['anisotropy', 'collisions', 'correlationShare', 'groupCorrelation', 'groups', 'largestGroup', 'meanNeighbours', 'medianNearest', 'milling', 'outside', 'polarization', 'velocityCorrelation']);
  await page.close();
  assert.deepEqual(problems, []);
});

// ---- the iframe form ------------------------------------------------------------------------

/** A platform page: keeps every message it gets; sends to the iframe's origin; sizes the iframe. */
const PARENT_JS = `
window.got = [];
addEventListener('message', (event) => window.got.push({ origin: event.origin, data: event.data, at: performance.now() }));
window.send = (message) => {
  const frame = document.querySelector('iframe');
  frame.contentWindow.postMessage(message, new URL(frame.src).origin);
};
window.heights = () => window.got.filter((g) => typeof g.data === 'string' && g.data.includes('lti.frameResize')).map((g) => JSON.parse(g.data));
window.events = () => window.got.filter((g) => g.data?.type === 'boids:event').map((g) => g.data);`;

async function platform(servers, which, src, size = 'width="640" height="300"') {
  servers.pages[`/${which}.html`] = `<!doctype html><meta charset="utf-8"><title>platform</title><script src="/parent.js"></script>
<iframe src="${src}" title="Boids" ${size} style="border:0"></iframe>`;
  const page = await env.browser.newPage({ viewport: { width: 900, height: 900 } });
  const watched = watchProblems(page);
  await page.goto(`${servers.parent.url}${which}.html`);
  await page.waitForFunction(() => document.querySelector('iframe').contentWindow);
  let frame = null;
  for (let i = 0; i < 600 && !frame; i++) {
    frame = page.frames().find((f) => f.url().startsWith(servers.boids.url));
    if (!frame) await page.waitForTimeout(100);
  }
  await frame.waitForFunction(() => document.querySelector('boids-flock')?.dataset.state === 'running', null, { timeout: 90_000 });
  return { page, frame, ...watched };
}

test('the iframe posts boids:event to an allowed parent, and to no other origin', { timeout: 240_000 }, async () => {
  const boids = await serve({ root: distDir });
  const allowedPages = { '/parent.js': PARENT_JS };
  const strangerPages = { '/parent.js': PARENT_JS };
  const allowed = await serve({ pages: allowedPages });
  const stranger = await serve({ pages: strangerPages });
  const src = `${boids.url}embed.html?count=300&seed=2&paused=1&controls=cohesion,presets&timeline=1&origins=${encodeURIComponent(allowed.origin)}`;
  try {
    const open = [];
    for (const [server, pages, which] of [[allowed, allowedPages, 'allowed'], [stranger, strangerPages, 'stranger']]) {
      const { page, frame, problems } = await platform({ boids, parent: server, pages }, which, src);
      open.push({ page, frame, problems, which });
      // A student holds the arrow key down: eight changes, one event (where it stopped).
      await frame.focus('#param-cohesion');
      for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowRight');
      await frame.click('.bf-preset[data-preset="ribbons"]');
      await frame.focus('canvas');
      await page.keyboard.press('n');
      // The rewind's bar: back to the start, then three frames on (one event, where it stopped).
      await frame.evaluate(() => {
        const el = document.querySelector('boids-flock');
        for (let i = 0; i < 130; i++) el.step();
        el.showTimeline();
      });
      await frame.focus('.bf-timeline-range');
      await page.keyboard.press('Home');
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
      await page.waitForTimeout(1200); // past the half second a change waits to be still
    }
    const [mine, theirs] = open;
    const events = await mine.page.evaluate(() => window.events());
    const cohesion = await mine.frame.evaluate(() => Number(document.querySelector('boids-flock').flock.cohesion()));
    const selected = await mine.frame.evaluate(() => document.querySelector('boids-flock').selectedId);
    const pick = (verb, id) => events.filter((e) => e.verb === verb && (id === undefined || e.object.id === id));
    const keyed = pick('changed', 'cohesion').filter((e) => e.source === 'user');
    // The key's eight steps, then the preset's 0.5: the last is the preset's.
    assert.ok(keyed.length >= 1 && keyed.length <= 2, `one event for the held key (and one for the preset): ${JSON.stringify(keyed)}`);
    assert.equal(Math.fround(keyed.at(-1).result.value), cohesion);
    assert.deepEqual(pick('applied').map((e) => [e.object, e.source]), [[{ type: 'preset', id: 'ribbons' }, 'user']]);
    assert.deepEqual(pick('selected').map((e) => e.object), [{ type: 'boid', id: selected }]);
    assert.deepEqual(
      pick('seeked').map((e) => [e.object, e.source, Math.round(e.result.time * 60)]),
      [[{ type: 'moment', id: 'timeline' }, 'user', 3]],
    );
    assert.ok(events.every((e) => typeof e.time === 'string' && !Number.isNaN(Date.parse(e.time))), 'each with its time');
    const origins = await mine.page.evaluate(() => window.got.filter((g) => g.data?.type === 'boids:event').map((g) => g.origin));
    assert.ok(origins.every((o) => o === boids.origin));

    // The parent's own boids:set is told back as the api's.
    await mine.page.evaluate(() => window.send({ type: 'boids:set', values: { separation: 2.5 } }));
    await mine.page.waitForFunction(() => window.events().some((e) => e.object.id === 'separation'), null, { timeout: 10_000 });
    const set = await mine.page.evaluate(() => window.events().find((e) => e.object.id === 'separation'));
    assert.deepEqual([set.verb, set.result, set.source], ['changed', { value: 2.5 }, 'api']);

    // The stranger had the same done in its iframe, and heard none of it.
    assert.deepEqual(await theirs.page.evaluate(() => window.events()), [], 'a parent not in ?origins= gets no boids:event');
    assert.deepEqual(await theirs.page.evaluate(() => window.got.filter((g) => typeof g.data !== 'string').map((g) => g.data)), [], 'nor anything else but its height');
    for (const { page, problems, which } of open) {
      assert.deepEqual(problems, [], which);
      await page.close();
    }
  } finally {
    for (const server of [boids, allowed, stranger]) await server.close();
  }
});

test('lti.frameResize: the height the content wants, when it changes, and no loop once set', { timeout: 180_000 }, async () => {
  const boids = await serve({ root: distDir });
  const pages = { '/parent.js': PARENT_JS };
  const parent = await serve({ pages });
  // No ?origins=: the height goes to the parent all the same (it carries nothing else).
  const src = `${boids.url}embed.html?count=300&controls=cohesion,alignment,separation,presets`;
  try {
    const { page, frame, problems } = await platform({ boids, parent, pages }, 'canvas', src);
    await page.waitForFunction(() => window.heights().length > 0, null, { timeout: 10_000 });
    const [first] = await page.evaluate(() => window.heights());
    assert.equal(first.subject, 'lti.frameResize');
    assert.ok(first.height > 300, `more than the 300 px it has (the stage at 16:10 is 400 px): ${first.height}`);
    const raw = await page.evaluate(() => window.got.find((g) => typeof g.data === 'string').data);
    assert.equal(typeof raw, 'string', 'a JSON string, as older handlers JSON.parse it');

    // The platform does what Canvas does: the iframe gets that height. Nothing scrolls, and
    // the same height is not posted again.
    await page.evaluate((h) => (document.querySelector('iframe').height = String(h)), first.height);
    await page.waitForTimeout(800);
    const fit = await frame.evaluate(() => {
      const el = document.querySelector('boids-flock');
      const panel = el.querySelector('.bf-panel');
      return { hidden: panel.scrollHeight - panel.clientHeight, stage: el.ui.stage.offsetHeight, width: el.clientWidth };
    });
    assert.ok(fit.hidden <= 1, `the panel shows everything: ${fit.hidden} px hidden`);
    assert.ok(Math.abs(fit.stage - (fit.width * 10) / 16) <= 3, `the stage at 16:10: ${fit.stage} px for ${fit.width}`);
    assert.equal((await page.evaluate(() => window.heights())).length, 1, 'set to its height, it asks for nothing more');

    // Narrower: a shorter stage, a new height.
    await page.evaluate(() => (document.querySelector('iframe').width = '480'));
    await page.waitForFunction(() => window.heights().length > 1, null, { timeout: 10_000 });
    const second = (await page.evaluate(() => window.heights())).at(-1);
    assert.ok(second.height < first.height - 50, `480 px wide wants less: ${first.height} -> ${second.height}`);
    assert.deepEqual(problems, []);
    await page.close();
  } finally {
    await boids.close();
    await parent.close();
  }
});

test('the recipes of docs/embedding.md work as written: a worksheet that notes, a platform that forwards to an LRS', { timeout: 240_000 }, async () => {
  const boids = await serve({ root: distDir, cors: true }); // the worksheet loads the element from there
  const pages = {};
  const platform = await serve({ pages }); // no CSP: a platform's page runs its own inline script
  const wrap = (body) => `<!doctype html><meta charset="utf-8"><title>recipe</title>${body}`;
  pages['/listen.html'] = wrap(recipe('listen-in-a-page').replace(PLACEHOLDERS.site, boids.url));
  pages['/lrs.html'] = wrap(recipe('forward-to-an-lrs').replace(PLACEHOLDERS.site, boids.url).replace(PLACEHOLDERS.platform, platform.origin));
  try {
    // The worksheet: a preset and a key on a slider are noted; the locked slider is not moved.
    const page = await env.browser.newPage({ viewport: { width: 1000, height: 900 } });
    const { problems } = watchProblems(page);
    await page.goto(`${platform.url}listen.html`);
    await waitFlocks(page, '#flock');
    await page.locator('#flock .bf-preset[data-preset="murmuration"]').click();
    await page.locator('#flock [data-param="alignment"] input').focus();
    await page.keyboard.press('ArrowLeft');
    const tried = await page.locator('#tried li').allTextContents();
    assert.equal(tried[0], 'preset murmuration');
    assert.ok(tried.includes('cohesion → 0.4'), JSON.stringify(tried));
    assert.ok(tried.at(-1).startsWith('alignment → 2.9'), JSON.stringify(tried));
    assert.ok(!tried.some((line) => line.startsWith('separation →')), `separation is locked: the preset leaves it (${JSON.stringify(tried)})`);
    assert.deepEqual(problems, []);
    await page.close();

    // The LRS recipe: the platform's endpoint gets a statement for each thing the student did.
    const lrs = await env.browser.newPage({ viewport: { width: 1000, height: 900 } });
    const statements = [];
    await lrs.route('**/lrs/statements', async (route) => {
      statements.push(JSON.parse(route.request().postData()));
      await route.fulfill({ status: 200, body: '[]', contentType: 'application/json' });
    });
    await lrs.goto(`${platform.url}lrs.html`);
    let frame = null;
    for (let i = 0; i < 600 && !frame; i++) {
      frame = lrs.frames().find((f) => f.url().startsWith(boids.url));
      if (!frame) await lrs.waitForTimeout(100);
    }
    await frame.waitForFunction(() => document.querySelector('boids-flock')?.dataset.state === 'running', null, { timeout: 90_000 });
    await frame.click('.bf-preset[data-preset="murmuration"]');
    for (let i = 0; i < 100 && !statements.some((s) => s.object.id.endsWith('#parameter/cohesion')); i++) await lrs.waitForTimeout(100);
    const preset = statements.find((s) => s.object.id.endsWith('#preset/murmuration'));
    assert.ok(preset, JSON.stringify(statements));
    assert.equal(preset.verb.id, 'http://id.tincanapi.com/verb/selected');
    const cohesion = statements.find((s) => s.object.id.endsWith('#parameter/cohesion'));
    assert.equal(cohesion.verb.id, 'http://adlnet.gov/expapi/verbs/interacted');
    assert.equal(cohesion.object.id, `${boids.url}embed.html#parameter/cohesion`);
    assert.deepEqual(cohesion.result.extensions['https://your.site/boids/result'], { value: 0.4 });
    assert.ok(!statements.some((s) => s.object.id.endsWith('#parameter/alignment')), 'alignment is locked: the preset (3) leaves it');
    assert.ok(!Number.isNaN(Date.parse(cohesion.timestamp)));
    await lrs.close();
  } finally {
    await boids.close();
    await platform.close();
  }
});
