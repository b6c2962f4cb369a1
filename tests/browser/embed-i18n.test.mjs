// Languages: every piece of interface text in English, Ukrainian, Polish and Russian, chosen by
// the lang attribute, ?lang=, or the page's (or browser's) language; English otherwise.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, watchProblems } from './helpers.mjs';
import { TEST_CSS, collectConsole, serveEmbed, testPage, waitFlocks } from './embed-helpers.mjs';

const LANGS = ['uk', 'pl', 'ru'];

/** An English and a translated element side by side, with every control showing. */
const pair = (lang) =>
  testPage(`
  <div class="row">
    <boids-flock id="en" lang="en" layout="full" controls="ALL_PARAMS" readout share explain count="100"></boids-flock>
    <boids-flock id="xx" lang="${lang}" layout="full" controls="ALL_PARAMS" readout share explain count="100"></boids-flock>
  </div>`);

let server;
let browser;
let allParams;

before(async () => {
  // Every parameter with a name a slider can take (all but the seed), from the built table.
  server = await serveEmbed({ pages: { '/test/test.css': TEST_CSS, '/test/empty.html': testPage('') } });
  browser = await launchBrowser();
  const page = await browser.newPage();
  await page.goto(`${server.url}test/empty.html`);
  allParams = await page.evaluate(async () => {
    await customElements.whenDefined('boids-flock');
    return customElements.get('boids-flock').params.map((s) => s.name);
  });
  await page.close();
  await server.close();
  const pages = { '/test/test.css': TEST_CSS, '/test/empty.html': testPage('') };
  for (const lang of [...LANGS, 'de']) {
    pages[`/test/pair-${lang}.html`] = pair(lang).replaceAll('ALL_PARAMS', allParams.filter((n) => n !== 'seed').join(' '));
  }
  server = await serveEmbed({ pages });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** The texts of one element that must be translated, keyed so two elements compare. */
function texts(page, selector) {
  return page.evaluate((s) => {
    const el = document.querySelector(s);
    const out = {};
    const put = (key, node) => {
      if (node) out[key] = (node.getAttribute('aria-label') ?? '') + '|' + node.textContent.trim();
    };
    for (const row of el.querySelectorAll('.bf-param')) {
      out[`label:${row.dataset.param}`] = row.querySelector('label').textContent.trim();
      out[`hint:${row.dataset.param}`] = row.querySelector('.bf-param-hint').textContent.trim();
    }
    for (const cls of ['bf-pause', 'bf-step', 'bf-rebuild', 'bf-copy', 'bf-play', 'bf-hint', 'bf-badge', 'bf-resume']) {
      put(cls, el.querySelector(`.${cls}`));
    }
    put('canvas', el.querySelector('canvas'));
    put('controls', el.querySelector('form'));
    el.querySelectorAll('.bf-readout dt').forEach((dt, i) => put(`readout${i}`, dt));
    el.querySelectorAll('.bf-explain h2, .bf-explain p, .bf-explain li').forEach((n, i) => put(`explain${i}`, n));
    put('panel', el.querySelector('.bf-panel'));
    return out;
  }, selector);
}

for (const lang of LANGS) {
  test(`lang="${lang}": every label, button, message and the explanation are translated`, { timeout: 120_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const { pageErrors } = watchProblems(page);
    await page.goto(`${server.url}test/pair-${lang}.html`);
    await waitFlocks(page, 'boids-flock', { min: 2 });
    // The explanations, whose words load the first time each opens.
    await page.evaluate(() => Promise.all([...document.querySelectorAll('boids-flock')].map((el) => el.panel.showExplanation(true, { remember: false }))));
    const en = await texts(page, '#en');
    const xx = await texts(page, '#xx');
    const sliderParams = Object.keys(en).filter((k) => k.startsWith('label:')).map((k) => k.slice(6));
    assert.deepEqual(sliderParams.sort(), allParams.filter((n) => n !== 'seed').sort(), 'every parameter has a slider here');
    assert.deepEqual(Object.keys(xx).sort(), Object.keys(en).sort(), 'the same pieces of text');
    const same = Object.keys(en).filter((key) => en[key] === xx[key] || !xx[key]);
    assert.deepEqual(same, [], `left in English in ${lang}: ${same.map((k) => `${k}=${JSON.stringify(en[k])}`).join(', ')}`);

    // The table too, including parameters without a slider (the seed).
    const untranslated = await page.evaluate(async (lang) => {
      const { texts } = await import('/www/i18n/texts.js');
      const t = texts(lang);
      return customElements
        .get('boids-flock')
        .params.filter((spec) => {
          const [label, description] = t.param(spec);
          return label === spec.label || description === spec.description;
        })
        .map((spec) => spec.name);
    }, lang);
    assert.deepEqual(untranslated, [], `parameters without a ${lang} label or description`);

    // Messages: the no-WebGL message in this language too.
    const messages = await page.evaluate(async (lang) => {
      const { texts, STRINGS, loadLang } = await import('/www/i18n/texts.js');
      const { loadExperimentTexts } = await import('/www/i18n/experiment.js');
      // The Experiment group's words (loaded with the group) count too.
      await loadLang(lang);
      await loadExperimentTexts(lang);
      const keys = Object.keys(STRINGS.en.ui);
      if (!keys.includes('expStart')) return ['(the experiment texts did not load)'];
      // Unit symbols may be the same in a language: ms, and s for seconds (Polish).
      return keys.filter((k) => texts(lang).ui(k) === texts('en').ui(k) && !['ms', 'seconds'].includes(k));
    }, lang);
    assert.deepEqual(messages, [], `interface strings the ${lang} table lacks`);

    // Switching the language later rebuilds the texts.
    await page.evaluate(async () => {
      const xx = document.getElementById('xx');
      xx.setAttribute('lang', 'en');
      await xx.panel.showExplanation(true, { remember: false }); // the rebuilt panel's, closed
    });
    assert.deepEqual(await texts(page, '#xx'), en, 'lang="en" later gives the English texts back');
    assert.deepEqual(pageErrors, []);
    await page.close();
  });
}

test('unknown lang falls back to English with a warning', { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const warnings = collectConsole(page, 'warning');
  await page.goto(`${server.url}test/pair-de.html`);
  await waitFlocks(page, 'boids-flock', { min: 2 });
  assert.deepEqual(await texts(page, '#xx'), await texts(page, '#en'));
  assert.ok(warnings.some((w) => /lang/.test(w) && /de/.test(w)), `warned: ${warnings}`);
  await page.close();
});

test('?lang= and the browser language choose the full page language', { timeout: 120_000 }, async () => {
  const page = await browser.newPage();
  const tables = [];
  page.on('request', (request) => {
    const name = /\/www\/i18n\/([a-z]{2})\.js$/.exec(request.url())?.[1];
    if (name) tables.push(name);
  });
  await page.goto(`${server.url}?lang=ru`);
  await waitFlocks(page, 'boids-flock[page]');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ru');
  // Only the tables this page shows: English (every language's fallback) and Russian.
  assert.deepEqual(tables.sort(), ['en', 'ru'], 'the language tables fetched');
  assert.equal(await page.locator('#pause').textContent(), 'Пауза');
  assert.equal(await page.locator('h1').textContent(), 'Боиды', 'the page around the flock too');
  assert.equal(await page.locator('label[for="param-cohesion"]').textContent(), 'Сплочённость');
  // The picker switches language and keeps it in the URL.
  // The Polish table is fetched first (only the reader's language loads with the page).
  await page.locator('#lang').selectOption('pl');
  await page.waitForFunction(() => document.getElementById('rebuild').textContent === 'Od nowa', null, { timeout: 5000 });
  assert.equal(await page.locator('h1').textContent(), 'Boidy', 'the page around the flock too');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('lang') === 'pl', null, { timeout: 5000 });
  await page.close();

  const context = await browser.newContext({ locale: 'uk-UA' });
  const uk = await context.newPage();
  await uk.goto(server.url);
  await waitFlocks(uk, 'boids-flock[page]');
  assert.equal(await uk.evaluate(() => document.documentElement.lang), 'uk', 'navigator.language uk-UA gives Ukrainian');
  assert.equal(await uk.locator('#step').textContent(), 'Крок');
  await context.close();

  // An embed follows the language of the page it sits in.
  const lesson = await browser.newPage();
  await lesson.goto(`${server.url}test/empty.html`);
  await lesson.evaluate(async () => {
    await customElements.whenDefined('boids-flock');
    document.documentElement.lang = 'pl';
    document.body.append(document.createElement('boids-flock'));
  });
  await waitFlocks(lesson, 'boids-flock');
  // Polish was not on the page when it loaded: its table arrives a moment later.
  await lesson.waitForFunction(() => document.querySelector('.bf-pause').textContent === 'Pauza', null, { timeout: 5000 });
  await lesson.close();
});
