// The iframe form driven by postMessage (issue 14, www/embed-bridge.js): a parent page on
// another origin, listed in ?origins=, sets cohesion, pauses, steps, rebuilds, selects a boid
// and asks for metrics; the flock inside follows. A parent on an origin not listed, or an
// iframe without ?origins=, is ignored; junk values are refused like attributes and change
// nothing. The learning-platform recipe of docs/embedding.md runs as written.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, distDir, sameArrays, serve } from './helpers.mjs';
import { PLACEHOLDERS, cargoVersion, recipe } from './package-helpers.mjs';

const env = {};

/** The parent's script: keeps every message it gets, and sends to the iframe's origin. */
const PARENT_JS = `
window.got = [];
addEventListener('message', (event) => window.got.push({ origin: event.origin, data: event.data, at: performance.now() }));
window.send = (message) => {
  const frame = document.querySelector('iframe');
  frame.contentWindow.postMessage(message, new URL(frame.src).origin);
};`;

const parentPage = (src) => `<!doctype html>
<html><head><meta charset="utf-8"><title>platform</title><script src="/parent.js"></script></head>
<body><iframe src="${src}" title="Boids" width="640" height="400"></iframe></body></html>`;

before(async () => {
  env.boids = await serve({ root: distDir });
  const query = (origins) => `${env.boids.url}embed.html?count=300&seed=5${origins ? `&origins=${encodeURIComponent(origins)}` : ''}`;
  // The platform: allowed. The stranger: another origin, not listed. The deaf: no ?origins= at all.
  // (The pages name the servers' origins, so they are filled in once the servers listen.)
  env.platformPages = { '/parent.js': PARENT_JS };
  env.strangerPages = { '/parent.js': PARENT_JS };
  env.platform = await serve({ pages: env.platformPages });
  env.stranger = await serve({ pages: env.strangerPages });
  env.platformPages['/platform.html'] = parentPage(query(`https://not-this.example, ${env.platform.origin}, junk`));
  env.platformPages['/deaf.html'] = parentPage(query(null));
  env.strangerPages['/stranger.html'] = parentPage(query(env.platform.origin));
  env.browser = await launchBrowser();
});

after(async () => {
  await env.browser?.close();
  for (const server of [env.boids, env.platform, env.stranger]) await server?.close();
});

/** Opens the parent page `which` on `server` and waits for the flock in its iframe. */
async function openParent(server, which) {
  const page = await env.browser.newPage({ viewport: { width: 800, height: 600 } });
  const frameLog = [];
  page.on('console', (msg) => frameLog.push(`${msg.type()}: ${msg.text()}`));
  await page.goto(`${server.url}${which}.html`);
  const frame = () => page.frames().find((f) => f.url().startsWith(env.boids.url));
  await page.waitForFunction(() => document.querySelector('iframe').contentWindow, null);
  for (let i = 0; i < 600 && !frame(); i++) await page.waitForTimeout(100);
  await frame().waitForFunction(() => document.querySelector('boids-flock')?.flock, null, { timeout: 90_000 });
  return { page, frame: frame(), frameLog };
}

/** Sends `message` from the parent and waits for the reply that carries its `ref`. */
let refs = 0;
async function ask(page, message, timeout = 10_000) {
  const ref = `r${++refs}`;
  await page.evaluate((m) => window.send(m), { ...message, ref });
  const handle = await page.waitForFunction((ref) => window.got.find((g) => g.data?.ref === ref), ref, { timeout });
  return handle.jsonValue();
}

const inFrame = (frame, fn, arg) => frame.evaluate(fn, arg);
const cohesion = (frame) => inFrame(frame, () => document.querySelector('boids-flock').flock.cohesion());
const steps = (frame) => inFrame(frame, () => document.querySelector('boids-flock').steps);
const positions = (frame) => inFrame(frame, () => Array.from(document.querySelector('boids-flock').flock.positions()));

test('a parent on an allowed origin drives the flock: ready, set, pause, step, play, rebuild', { timeout: 180_000 }, async () => {
  const { page, frame, frameLog } = await openParent(env.platform, 'platform');
  const ready = await page.waitForFunction(() => window.got.find((g) => g.data?.type === 'boids:ready'), null, { timeout: 30_000 });
  const { origin, data } = await ready.jsonValue();
  assert.equal(origin, env.boids.origin, 'ready comes from the iframe\'s origin');
  assert.equal(data.version, cargoVersion());
  assert.equal(data.values.count, 300);
  assert.equal(data.values.cohesion, 1);
  assert.ok(frameLog.some((line) => /origins: "junk" is not an origin/.test(line)), 'a junk origin is warned about');

  const set = await ask(page, { type: 'boids:set', values: { cohesion: 2.5, 'separation-radius': '3', predator: true } });
  assert.equal(set.origin, env.boids.origin);
  assert.equal(set.data.type, 'boids:state');
  assert.equal(set.data.values.cohesion, 2.5);
  assert.equal(set.data.values.separationRadius, 3);
  assert.equal(set.data.values.predators, 1);
  assert.equal(await cohesion(frame), 2.5, 'the flock inside has the new cohesion');
  assert.equal(await inFrame(frame, () => document.querySelector('boids-flock').getAttribute('cohesion')), '2.5');

  const paused = await ask(page, { type: 'boids:pause' });
  assert.equal(paused.data.paused, true);
  const before = await positions(frame);
  const stepsBefore = await steps(frame);
  await page.waitForTimeout(400);
  assert.equal(await steps(frame), stepsBefore, 'paused: no steps');
  assert.ok(sameArrays(before, await positions(frame)), 'paused: the boids stand still');
  const stepped = await ask(page, { type: 'boids:step' });
  assert.equal(stepped.data.steps, stepsBefore + 1, 'step: one step');

  // Still paused: only the rebuild moves the boids now, and it starts the count again.
  const afterStep = await positions(frame);
  assert.ok(!sameArrays(before, afterStep), 'step: the boids moved');
  await ask(page, { type: 'boids:rebuild' });
  assert.ok(!sameArrays(afterStep, await positions(frame)), 'rebuild: scattered afresh');
  assert.equal(await steps(frame), 0, 'rebuild: a new flock, no steps yet');

  await ask(page, { type: 'boids:play' });
  const playing = await steps(frame);
  await page.waitForTimeout(400);
  assert.ok((await steps(frame)) > playing, 'play: steps again');
  await page.close();
});

test('junk is refused like a junk attribute, and changes nothing', { timeout: 120_000 }, async () => {
  const { page, frame } = await openParent(env.platform, 'platform');
  await ask(page, { type: 'boids:set', values: { cohesion: 2 } });
  const junk = [
    [{ type: 'boids:set', values: { cohesion: 'lots' } }, /cohesion: "lots" is not a valid cohesion \(a number from 0 to 3\)/],
    [{ type: 'boids:set', values: { cohesion: Number.NaN } }, /NaN is not a valid cohesion/],
    [{ type: 'boids:set', values: { cohesion: Infinity } }, /Infinity is not a valid cohesion/],
    [{ type: 'boids:set', values: { cohesion: '1e999' } }, /not a valid cohesion/],
    [{ type: 'boids:set', values: { cohesion: { valueOf: 2 } } }, /an object is not a valid cohesion/],
    [{ type: 'boids:set', values: { cohesion: [2] } }, /an array is not a valid cohesion/],
    [{ type: 'boids:set', values: { cohesion: '2'.repeat(100) } }, /not a valid cohesion/],
    [{ type: 'boids:set', values: { wrap: 'maybe' } }, /not a valid wrap \(on\/off/],
    [{ type: 'boids:set', values: { cohesion: 0.5, separation: 'x' } }, /nothing changed: separation: "x"/],
    [{ type: 'boids:set', values: { onclick: 'alert(1)' } }, /"onclick" is not a parameter/],
    [{ type: 'boids:set', values: { controls: 'all' } }, /"controls" is not a parameter/],
    [{ type: 'boids:set', values: {} }, /values is empty/],
    [{ type: 'boids:set', values: 'cohesion=3' }, /values must be an object/],
    [{ type: 'boids:set' }, /values must be an object/],
    [{ type: 'boids:launch' }, /unknown command "boids:launch"/],
    [{ type: 'boids:step' }, /pause first/],
    [{ type: 'boids:select', id: -1 }, /id must be a whole number/],
    [{ type: 'boids:select', id: 1.5 }, /id must be a whole number/],
    [{ type: 'boids:select', id: '3' }, /id must be a whole number/],
    [{ type: 'boids:select', id: 4_000_000_000 }, /no boid with id 4000000000/],
    [{ type: 'boids:metrics', every: 0.01 }, /every must be 0 \(stop\) or seconds from 0.25 to 60/],
    [{ type: 'boids:metrics', every: '1' }, /every must be/],
  ];
  const stepsBefore = await steps(frame);
  for (const [message, expected] of junk) {
    const reply = await ask(page, message);
    assert.equal(reply.data.type, 'boids:error', `${JSON.stringify(message)} is refused`);
    assert.equal(reply.data.command, message.type);
    assert.match(reply.data.message, expected, JSON.stringify(message));
  }
  assert.equal(await cohesion(frame), 2, 'cohesion kept (the half-valid message set nothing)');
  assert.equal(await inFrame(frame, () => document.querySelector('boids-flock').flock.separation()), 1.5);
  assert.equal(await inFrame(frame, () => document.querySelector('boids-flock').hasAttribute('onclick')), false);
  assert.ok((await steps(frame)) > stepsBefore, 'still running');
  // Messages that are not ours pass without a word: nothing comes back (what the iframe tells
  // of itself, boids:event and its height, may come meanwhile: not replies).
  const replies = () => page.evaluate(() => window.got.filter((g) => g.data?.type !== 'boids:event' && typeof g.data !== 'string').length);
  const count = await replies();
  await page.evaluate(() => {
    for (const m of [null, 'boids:set', 42, { type: 'resize', height: 300 }, { type: 7 }, ['boids:pause']]) window.send(m);
  });
  await page.waitForTimeout(500);
  assert.equal(await replies(), count, 'no reply to messages of other kinds');
  await page.close();
});

test('select a boid by id, and metrics every second until told to stop', { timeout: 120_000 }, async () => {
  const { page, frame } = await openParent(env.platform, 'platform');
  const id = await inFrame(frame, () => document.querySelector('boids-flock').flock.ids()[7]);
  // Paused, so that what comes back can be held against the flock inside.
  await ask(page, { type: 'boids:pause' });
  const selected = await ask(page, { type: 'boids:select', id });
  assert.equal(selected.data.type, 'boids:select');
  assert.equal(selected.data.id, id);
  const inside = await inFrame(frame, (id) => {
    const el = document.querySelector('boids-flock');
    return { boid: el.flock.inspect(id), shown: el.selectedId };
  }, id);
  assert.equal(inside.shown, id, 'the iframe shows the selection');
  assert.equal(selected.data.boid.id, id, 'the boid\'s inspection comes back');
  assert.ok(selected.data.boid.speed > 0, `a flying boid's speed: ${selected.data.boid.speed}`);
  assert.deepEqual(
    [selected.data.boid.speed, ...selected.data.boid.position],
    [inside.boid.speed, ...inside.boid.position],
    'what the parent gets is what the flock says of that boid',
  );
  assert.equal((await ask(page, { type: 'boids:select', id: null })).data.id, null);
  await ask(page, { type: 'boids:play' });

  const start = await page.evaluate(() => performance.now());
  const on = await ask(page, { type: 'boids:metrics', every: 1 });
  assert.equal(on.data.type, 'boids:metrics-on');
  await page.waitForTimeout(3200);
  const events = await page.evaluate((start) => window.got.filter((g) => g.data?.type === 'boids:metrics' && g.at >= start), start);
  // One at once and one a second: 4 in 3.2 s, 3 when a busy machine delays a timer.
  assert.ok(events.length >= 3 && events.length <= 5, `an event at once and one a second: ${events.length} in 3.2 s`);
  const gaps = events.slice(1).map((e, i) => e.at - events[i].at);
  assert.ok(gaps.every((gap) => gap > 600 && gap < 1800), `about a second apart: ${gaps.map(Math.round)}`);
  const last = events.at(-1).data;
  assert.equal(last.count, 300);
  assert.ok(last.metrics.polarization >= 0 && last.metrics.polarization <= 1, 'polarization');
  const groups = last.metrics.groups;
  assert.ok(Number.isInteger(groups) && groups >= 1 && groups <= 300, `groups: ${groups} for 300 boids`);
  assert.equal(last.metrics.count, 300);
  assert.ok(events.every((e) => e.origin === env.boids.origin));

  await ask(page, { type: 'boids:metrics', every: 0 });
  const stopped = await page.evaluate(() => performance.now());
  await page.waitForTimeout(1500);
  const later = await page.evaluate((t) => window.got.filter((g) => g.data?.type === 'boids:metrics' && g.at > t + 50), stopped);
  assert.deepEqual(later, [], 'no metrics after every: 0');
  await page.close();
});

test('a boid the student picks inside the iframe is told to the parent', { timeout: 120_000 }, async () => {
  const { page, frame } = await openParent(env.platform, 'platform');
  const selections = () => page.evaluate(() => window.got.filter((g) => g.data?.type === 'boids:selected').map((g) => g.data.id));
  assert.deepEqual(await selections(), [], 'nothing selected yet');
  // As a keyboard user does: focus the scene, N for the next boid, Esc to let it go.
  await frame.focus('boids-flock canvas');
  await page.keyboard.press('n');
  await page.waitForFunction(() => window.got.some((g) => g.data?.type === 'boids:selected'), null, { timeout: 10_000 });
  const shown = await inFrame(frame, () => document.querySelector('boids-flock').selectedId);
  assert.equal(typeof shown, 'number', 'N selected a boid in the iframe');
  assert.deepEqual(await selections(), [shown], 'the parent hears the id the iframe shows');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => window.got.filter((g) => g.data?.type === 'boids:selected').length === 2, null, { timeout: 10_000 });
  assert.deepEqual(await selections(), [shown, null], 'and hears the release');
  const origins = await page.evaluate(() => window.got.filter((g) => g.data?.type === 'boids:selected').map((g) => g.origin));
  assert.ok(origins.every((origin) => origin === env.boids.origin));
  await page.close();
});

test('a parent on an origin not in ?origins=, or an iframe without it, is ignored', { timeout: 120_000 }, async () => {
  for (const [server, which] of [[env.stranger, 'stranger'], [env.platform, 'deaf']]) {
    const { page, frame, frameLog } = await openParent(server, which);
    await frame.waitForFunction(() => document.querySelector('boids-flock').dataset.state === 'running', null, { timeout: 60_000 });
    await page.evaluate(() => {
      window.send({ type: 'boids:set', values: { cohesion: 2.9 }, ref: 'x' });
      window.send({ type: 'boids:pause', ref: 'y' });
      window.send({ type: 'boids:hello', ref: 'z' });
    });
    await page.waitForTimeout(1000);
    assert.equal(await cohesion(frame), 1, `${which}: cohesion unchanged`);
    assert.equal(await inFrame(frame, () => document.querySelector('boids-flock').paused), false, `${which}: not paused`);
    // Only the iframe's height reaches it (lti.frameResize goes to any parent: docs/embedding.md).
    const got = await page.evaluate(() => window.got.map((g) => g.data));
    assert.deepEqual(got.filter((data) => !(typeof data === 'string' && JSON.parse(data).subject === 'lti.frameResize')), [], `${which}: not even ready reaches it`);
    if (which === 'stranger') {
      assert.ok(frameLog.some((line) => /was ignored: it is not the parent page or not in \?origins=/.test(line)), 'the iframe says why');
    }
    await page.close();
  }
});

test('the learning-platform recipe of docs/embedding.md works as written', { timeout: 120_000 }, async () => {
  const html = recipe('learning-platform')
    .replace(PLACEHOLDERS.site, env.boids.url)
    .replace(PLACEHOLDERS.platform, env.platform.origin);
  env.platformPages['/recipe.html'] = `<!doctype html><meta charset="utf-8"><title>recipe</title>${html}`;
  const page = await env.browser.newPage();
  await page.goto(`${env.platform.url}recipe.html`);
  await page.waitForFunction(() => /^\d+ %$/.test(document.getElementById('aligned').value), null, { timeout: 90_000 });
  const frame = page.frames().find((f) => f.url().startsWith(env.boids.url));
  assert.equal(await cohesion(frame), 2.5, 'the recipe set cohesion');
  await page.close();
});
