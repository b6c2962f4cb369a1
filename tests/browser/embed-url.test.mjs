// Shareable settings: the page keeps every setting and the seed in its URL; "Copy link" gives a
// link that opens the same flock (same values, same positions after N steps). And the iframe
// form, embed.html, takes its settings from the URL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDistAndBrowser, sameArrays, waitFrames, watchProblems, slide } from './helpers.mjs';
import { STRICT_CSP, TEST_CSS, flockValues, testPage, waitFlocks } from './embed-helpers.mjs';

/** Steps both pages take before their positions are compared. */
const N = 40;

const env = useDistAndBrowser({
  csp: STRICT_CSP,
  pages: {
    '/test/test.css': TEST_CSS,
    '/test/sync.html': testPage('<boids-flock url="sync" preset="fishBall" controls="presets" seed="5"></boids-flock>'),
    '/test/read.html': testPage('<boids-flock url="read" cohesion="2" seed="5"></boids-flock>'),
  },
});


async function stepAndRead(page, n) {
  return page.evaluate((n) => {
    const el = document.querySelector('boids-flock');
    for (let i = 0; i < n; i++) el.step();
    return Array.from(el.flock.positions());
  }, n);
}

test('settings → Copy link → the link opens the same values and the same flock', { timeout: 180_000 }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']).catch(() => {});
  const a = await context.newPage();
  const { pageErrors } = watchProblems(a);
  await a.goto(`${env.server.url}?paused=1`);
  await waitFlocks(a, 'boids-flock[page]');

  // Change settings as a student would: sliders (including the log-scaled count).
  const specs = await a.evaluate(() => customElements.get('boids-flock').params);
  const has = (name) => specs.some((s) => s.name === name);
  await slide(a, 'cohesion', 2.35);
  await slide(a, 'separation', 0.65);
  await slide(a, 'alignment', 1.8);
  await slide(a, 'perception', 6.3);
  await slide(a, 'count', 300); // log slider position → some count below the default
  assert.ok(has('predators') && has('windStrength'), 'the panel has the behaviours');
  await slide(a, 'predators', 2);
  await slide(a, 'windStrength', 3.5);
  await a.locator('#rebuild').click(); // the start "scattered from the seed with these settings"
  const values = await flockValues(a, 'boids-flock');
  assert.equal(values.cohesion.toFixed(2), '2.35');
  assert.notEqual(values.count, specs.find((s) => s.name === 'count').default, 'the count changed');

  // The address bar follows.
  // (Written after each change settles: wait for the last of them, the count, too.)
  await a.waitForFunction(
    (count) => {
      const query = new URLSearchParams(location.search);
      return query.get('cohesion') === '2.35' && query.get('count') === String(count);
    },
    values.count,
    { timeout: 15_000 },
  );
  const query = await a.evaluate(() => Object.fromEntries(new URLSearchParams(location.search)));
  assert.equal(Number(query.seed), values.seed, 'the seed is in the URL');
  assert.equal(Number(query.count), values.count, 'the count is in the URL');
  assert.equal(query.separation, '0.65');

  await a.locator('#copy-link').click();
  const link = await a.locator('#copy-link').getAttribute('data-link');
  assert.ok(link?.startsWith(env.server.url), `a link to this page: ${link}`);
  assert.equal(await a.locator('#share-link').inputValue(), link, 'the link is shown in a field');
  assert.equal(await a.locator('#share-link').isVisible(), true);
  const clip = await a.evaluate(() => navigator.clipboard.readText()).catch(() => null);
  assert.equal(clip, link, 'the link is on the clipboard');

  // Open the link afresh.
  const b = await context.newPage();
  const watchB = watchProblems(b);
  await b.goto(link);
  await waitFlocks(b, 'boids-flock[page]');
  assert.deepEqual(await flockValues(b, 'boids-flock'), values, 'every parameter has the same value');
  for (const name of ['cohesion', 'separation', 'count']) {
    assert.equal(
      await b.locator(`#value-${name}`).textContent(),
      await a.locator(`#value-${name}`).textContent(),
      `#value-${name} shows the same`,
    );
  }
  const startA = await a.evaluate(() => Array.from(window.flock.positions()));
  const startB = await b.evaluate(() => Array.from(window.flock.positions()));
  assert.ok(sameArrays(startA, startB), 'the same start');
  const endA = await stepAndRead(a, N);
  const endB = await stepAndRead(b, N);
  assert.ok(!sameArrays(startA, endA), 'the flock moved');
  assert.ok(sameArrays(endA, endB), `the same positions after ${N} steps`);
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(watchB.pageErrors, []);
  await context.close();
});

test('a link without some settings gives a different flock (the round trip can fail)', { timeout: 120_000 }, async () => {
  const page = await env.browser.newPage();
  await page.goto(`${env.server.url}?paused=1&seed=5&cohesion=2.5`);
  await waitFlocks(page, 'boids-flock[page]');
  const full = await stepAndRead(page, N);
  await page.goto(`${env.server.url}?paused=1&seed=5`);
  await waitFlocks(page, 'boids-flock[page]');
  assert.ok(!sameArrays(full, await stepAndRead(page, N)), 'cohesion matters to the positions');
  await page.goto(`${env.server.url}?paused=1&seed=6&cohesion=2.5`);
  await waitFlocks(page, 'boids-flock[page]');
  assert.ok(!sameArrays(full, await stepAndRead(page, N)), 'the seed matters to the positions');
  await page.close();
});

test('embed.html takes its settings from the URL', { timeout: 120_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 640, height: 400 } });
  const { problems } = watchProblems(page);
  await page.goto(`${env.server.url}embed.html?count=800&controls=0&cohesion=2.5&seed=7&lang=uk`);
  await waitFlocks(page, 'boids-flock');
  const state = await page.evaluate(() => {
    const el = document.querySelector('boids-flock');
    return {
      count: el.flock.count(),
      cohesion: el.flock.cohesion(),
      seed: el.flock.seed(),
      sliders: el.querySelectorAll('input[type=range]').length,
      lang: el.language,
      pause: el.querySelector('.bf-pause').textContent,
      box: el.getBoundingClientRect().toJSON(),
    };
  });
  assert.equal(state.count, 800);
  assert.equal(state.cohesion, 2.5);
  assert.equal(state.seed, 7);
  assert.equal(state.sliders, 0, 'controls=0 shows no sliders');
  assert.equal(state.lang, 'uk');
  assert.equal(state.pause, 'Пауза', 'the buttons speak Ukrainian');
  assert.ok(state.box.width >= 620 && state.box.height >= 380, `the flock fills the iframe: ${JSON.stringify(state.box)}`);

  await page.goto(`${env.server.url}embed.html?controls=cohesion,speed&count=lots`);
  await waitFlocks(page, 'boids-flock');
  const sliders = await page.evaluate(() => [...document.querySelectorAll('input[type=range]')].map((i) => i.dataset.param));
  assert.deepEqual(sliders, ['speed', 'cohesion'], 'controls=cohesion,speed shows those sliders (in table order)');
  await waitFrames(page, 5);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a preset by name: ?preset= and the preset attribute, the values beside it win, junk is refused', { timeout: 120_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 640, height: 400 } });
  const warnings = [];
  page.on('console', (msg) => msg.type() === 'warning' && warnings.push(msg.text()));
  const { problems } = watchProblems(page);
  await page.goto(`${env.server.url}embed.html?preset=FISHBALL&speed=9&seed=3&paused=1`);
  await waitFlocks(page, 'boids-flock');
  const presets = await page.evaluate(() => customElements.get('boids-flock').presets);
  const fishBall = presets.find((p) => p.name === 'fishBall').values;
  const values = await flockValues(page, 'boids-flock');
  for (const [name, value] of Object.entries(fishBall)) {
    if (name !== 'speed') assert.equal(values[name], Math.fround(value), `${name}: the fish ball's (stored as f32)`);
  }
  assert.notEqual(fishBall.speed, 9);
  assert.equal(values.speed, 9, 'speed=9 beside the preset wins');
  // Started from the seed with these values, as Rebuild would.
  const start = await page.evaluate(() => Array.from(document.querySelector('boids-flock').flock.positions()));
  await page.evaluate(() => document.querySelector('boids-flock').rebuild());
  assert.ok(sameArrays(start, await page.evaluate(() => Array.from(document.querySelector('boids-flock').flock.positions()))));
  // The shared link carries the values, not the name (they may have moved since).
  const link = new URL(await page.evaluate(() => document.querySelector('boids-flock').shareUrl()));
  assert.equal(link.searchParams.has('preset'), false, link.href);
  assert.equal(Number(link.searchParams.get('cohesion')), fishBall.cohesion, link.href);

  // The attribute, later: applies like the button; junk changes nothing and says so.
  const later = await page.evaluate(() => {
    const el = document.querySelector('boids-flock');
    el.setAttribute('preset', 'murmuration');
    const murmuration = el.flock.alignment();
    el.setAttribute('preset', 'starlings');
    return { murmuration, after: el.flock.alignment() };
  });
  const murmuration = presets.find((p) => p.name === 'murmuration').values;
  assert.equal(later.murmuration, murmuration.alignment);
  assert.equal(later.after, murmuration.alignment, 'an unknown preset changes nothing');
  assert.ok(
    warnings.some((w) => w.includes('preset="starlings" is not a preset') && w.includes('fishBall')),
    JSON.stringify(warnings),
  );
  assert.deepEqual(problems, []);
  await page.close();
});

test('url="sync" with a preset attribute: a reload shows what the address bar says, defaults too; the URL wins over attributes', { timeout: 120_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 900, height: 600 } });
  const { problems } = watchProblems(page);
  await page.goto(`${env.server.url}test/sync.html`);
  await waitFlocks(page, 'boids-flock');
  const presets = await page.evaluate(() => customElements.get('boids-flock').presets);
  const [fishBall, defaults] = ['fishBall', 'defaults'].map((name) => presets.find((p) => p.name === name).values);
  assert.equal((await flockValues(page, 'boids-flock')).cohesion, fishBall.cohesion, 'the attribute applies');
  // Back to the defaults from the panel: the address bar must say so, or the attribute's
  // fish ball would come back on reload.
  await page.locator('.bf-preset[data-preset="defaults"]').click();
  await page.waitForFunction((c) => new URLSearchParams(location.search).get('cohesion') === String(c), defaults.cohesion, { timeout: 15_000 });
  await page.reload();
  await waitFlocks(page, 'boids-flock');
  const values = await flockValues(page, 'boids-flock');
  for (const [name, value] of Object.entries(defaults)) assert.equal(values[name], Math.fround(value), `${name} after the reload`);
  // The URL wins over the attributes: its preset over a cohesion attribute, and its own
  // settings over its preset.
  const murmuration = presets.find((p) => p.name === 'murmuration').values;
  await page.goto(`${env.server.url}test/read.html?preset=murmuration&speed=9`);
  await waitFlocks(page, 'boids-flock');
  const read = await flockValues(page, 'boids-flock');
  // (The flock keeps 32-bit floats.)
  assert.equal(read.cohesion, Math.fround(murmuration.cohesion), "the URL's preset over cohesion=\"2\"");
  assert.equal(read.alignment, Math.fround(murmuration.alignment));
  assert.equal(read.speed, 9, "the URL's speed over its preset's");
  await page.goto(`${env.server.url}test/read.html`);
  await waitFlocks(page, 'boids-flock');
  assert.equal((await flockValues(page, 'boids-flock')).cohesion, 2, 'without it, the attribute');
  assert.deepEqual(problems, []);
  await page.close();
});
