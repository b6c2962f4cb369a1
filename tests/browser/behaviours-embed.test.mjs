// The behaviour tools in embeds: `controls` names them (presets, obstacles, pointer; "all"
// has them), none show by default, and every piece of their text is translated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clearSpot, useDistAndBrowser, waitFrames, watchProblems } from './helpers.mjs';
import { STRICT_CSP, TEST_CSS, collectConsole, testPage, waitFlocks } from './embed-helpers.mjs';

const LANGS = ['uk', 'pl', 'ru'];

const pages = {
  '/test/test.css': TEST_CSS,
  '/test/tools.html': testPage(`
  <div class="row">
    <boids-flock id="plain" count="200" seed="5"></boids-flock>
    <boids-flock id="tools" count="200" seed="5" controls="presets obstacles pointer cohesion"></boids-flock>
    <boids-flock id="hawk" count="200" seed="5" controls="predator"></boids-flock>
  </div>`),
};
for (const lang of ['en', ...LANGS]) {
  pages[`/test/full-${lang}.html`] = testPage(
    `<boids-flock id="f" lang="${lang}" layout="full" controls="all" explain count="100" paused></boids-flock>`,
  );
}

const env = useDistAndBrowser({ pages, csp: STRICT_CSP });

test('controls="presets obstacles pointer" shows those tools, and only where asked', { timeout: 120_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 1500, height: 900 } });
  const { pageErrors } = watchProblems(page);
  const warnings = collectConsole(page, 'warning');
  await page.goto(`${env.server.url}test/tools.html`);
  await waitFlocks(page, 'boids-flock', { min: 3 });
  const tools = (selector) =>
    page.evaluate((s) => {
      const el = document.querySelector(s);
      return {
        presets: el.querySelectorAll('.bf-preset').length,
        predator: el.querySelectorAll('.bf-tool-predator input[type=checkbox]').length,
        pointer: el.querySelectorAll('.bf-tool-pointer input[type=radio]').length,
        clear: el.querySelectorAll('.bf-clear-obstacles').length,
        sliders: [...el.querySelectorAll('input[type=range]')].map((i) => i.dataset.param),
      };
    }, selector);
  assert.deepEqual(await tools('#plain'), { presets: 0, predator: 0, pointer: 0, clear: 0, sliders: [] }, 'none by default');
  assert.deepEqual(
    await tools('#tools'),
    { presets: 6, predator: 0, pointer: 3, clear: 1, sliders: ['cohesion'] },
    'the named tools and the cohesion slider',
  );
  assert.deepEqual(
    await tools('#hawk'),
    { presets: 0, predator: 1, pointer: 0, clear: 0, sliders: ['predators'] },
    'controls="predator": the Hawks slider and the Predator checkbox',
  );
  assert.deepEqual(warnings.filter((w) => /controls/.test(w)), [], 'the tool names are not unknown words');

  // A click on a flock without the obstacles tool adds nothing; with it, an obstacle. Paused:
  // a flying cone could drift under the spot chosen clear of cones (a click on one selects it).
  await page.evaluate(() => ['plain', 'tools'].forEach((id) => (document.getElementById(id).paused = true)));
  await waitFrames(page, 2);
  for (const [id, expected] of [['plain', 0], ['tools', 4]]) {
    // Where no cone is: a click on a cone selects its boid instead.
    await page.locator(`#${id} canvas`).click({ position: await clearSpot(page, 200, 140, { element: `#${id}` }) });
    await waitFrames(page, 2);
    assert.equal(await page.evaluate((id) => document.getElementById(id).flock.obstacles().length, id), expected, `#${id}`);
  }
  await page.evaluate(() => ['plain', 'tools'].forEach((id) => (document.getElementById(id).paused = false)));
  // Each instance has its own tools: a preset applies to its flock only.
  await page.locator('#tools .bf-preset[data-preset="fishBall"]').click();
  const fishBall = await page.evaluate(
    () => customElements.get('boids-flock').presets.find((preset) => preset.name === 'fishBall').values.cohesion,
  );
  assert.notEqual(fishBall, 1, 'the fish ball changes the cohesion');
  const cohesion = await page.evaluate(() => [...document.querySelectorAll('boids-flock')].map((el) => el.flock.cohesion()));
  assert.deepEqual(cohesion, [1, fishBall, 1], 'fish ball set #tools only');
  assert.equal(await page.locator('#tools output').textContent(), fishBall.toFixed(2), 'its cohesion slider shows the preset');

  // The controls attribute can change later. Paused (nothing moves under the pointer), away
  // from the Play button a paused flock shows in its middle, and where no cone is (a click
  // on a cone selects it and adds nothing anyway): first a click there adds an obstacle,
  // then, the tool gone, none.
  await page.evaluate(() => (document.getElementById('tools').paused = true));
  await waitFrames(page, 2);
  // obstacles(): four floats each (centre and radius).
  const obstacles = () => page.evaluate(() => document.getElementById('tools').flock.obstacles().length / 4);
  assert.equal(await obstacles(), 1, 'the one added above');
  await page.locator('#tools canvas').click({ position: await clearSpot(page, 90, 210, { element: '#tools' }) });
  await waitFrames(page, 2);
  assert.equal(await obstacles(), 2, 'with the tool, a click there adds one');
  await page.evaluate(() => document.getElementById('tools').setAttribute('controls', 'cohesion'));
  assert.deepEqual(await tools('#tools'), { presets: 0, predator: 0, pointer: 0, clear: 0, sliders: ['cohesion'] });
  await waitFrames(page, 2);
  await page.locator('#tools canvas').click({ position: await clearSpot(page, 90, 210, { element: '#tools' }) });
  await waitFrames(page, 2);
  assert.equal(await obstacles(), 2, 'no more obstacles by clicking');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

/** Every text of the presets, the scene's tools and the explanation's behaviours. */
function toolTexts(page) {
  return page.evaluate(async () => {
    const el = document.getElementById('f');
    await el.panel.showExplanation(true, { remember: false }); // its words load when it first opens
    const out = {};
    const nodes = el.querySelectorAll(
      [
        '.bf-presets h2, .bf-presets button, .bf-presets p',
        '.bf-scene h2, .bf-scene label, .bf-scene legend, .bf-scene p:not(.bf-tools-status), .bf-scene button',
        '.bf-explain h3, .bf-more li, .bf-hint',
      ].join(', '),
    );
    nodes.forEach((node, i) => {
      out[`${i}:${node.className || node.tagName}`] = node.textContent.trim();
    });
    out.presetTitles = [...el.querySelectorAll('.bf-preset')].map((b) => b.title).join(' | ');
    out.canvas = el.querySelector('canvas').getAttribute('aria-label');
    return out;
  });
}

test('the tools and the behaviours explained are translated in every language', { timeout: 180_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 1400, height: 900 } });
  const { pageErrors } = watchProblems(page);
  await page.goto(`${env.server.url}test/full-en.html`);
  await waitFlocks(page, '#f');
  const en = await toolTexts(page);
  assert.ok(Object.keys(en).length > 20, `texts found: ${Object.keys(en).length}`);
  assert.equal(Object.values(en).filter((t) => !t).length, 0, `no empty text: ${JSON.stringify(en)}`);
  for (const lang of LANGS) {
    await page.goto(`${env.server.url}test/full-${lang}.html`);
    await waitFlocks(page, '#f');
    const xx = await toolTexts(page);
    assert.deepEqual(Object.keys(xx), Object.keys(en), `${lang}: the same pieces of text`);
    const same = Object.keys(en).filter((k) => en[k] === xx[k] || !xx[k]);
    assert.deepEqual(same, [], `${lang}: left in English: ${same.map((k) => `${k}=${JSON.stringify(en[k])}`).join(', ')}`);
  }
  // Every preset has a label and description in every language.
  const missing = await page.evaluate(async (langs) => {
    const { STRINGS, loadLang } = await import('/www/i18n/texts.js');
    for (const l of langs) await loadLang(l); // one table per language, loaded on demand
    const names = customElements.get('boids-flock').presets.map((p) => p.name);
    return langs.flatMap((l) => names.filter((n) => !(STRINGS[l].presets?.[n]?.length === 2)).map((n) => `${l}:${n}`));
  }, LANGS);
  assert.deepEqual(missing, []);
  assert.deepEqual(pageErrors, []);
  await page.close();
});
