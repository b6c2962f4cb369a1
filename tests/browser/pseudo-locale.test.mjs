// A pseudo-locale (issue 29): every string of the interface twice as long, so that a fifth
// language (German's compounds, Finnish's cases) can be added without a control spilling out
// of its box. Nothing is shipped for it: the test serves www/i18n/texts.js with its `texts()`
// wrapped, so that every letter of every string it hands out (the tables' `ui`, the
// parameters' and presets' labels and descriptions, units, the explanation, the Experiment
// group's words) is written twice ("Pause" -> "PPaauussee"; `{n}` placeholders kept). Then the
// page (every group open, the explanation and the Keys help shown), the iframe form and a
// compact embed with every control are laid out at 1280 px and on a 390x844 phone, in
// English and Ukrainian, and nothing may overflow: no text wider than its box, no control
// outside its panel, stage or dialog, nothing past the window's edge, no sideways scroll.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { saveArtifact, useDistAndBrowser, watchProblems } from './helpers.mjs';
import { TEST_CSS, testPage, waitFlocks } from './embed-helpers.mjs';

const OPEN = 'hawks+scene+leaders+wind+species+sight+world+look+experiment+how';
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

const env = useDistAndBrowser({
  pages: {
    '/test/test.css': TEST_CSS,
    '/test/compact.html': testPage('<boids-flock count="300" controls="all" explain share readout></boids-flock>'),
  },
});

/** Appended to i18n.js as served: `texts()` hands out every string with its letters doubled. */
const PSEUDO = `
function pseudoLocale(value) {
  if (typeof value === 'string') {
    return value
      .split(/(\\{[^}]*\\})/)
      .map((part, i) => (i % 2 ? part : part.replace(/\\p{L}/gu, (c) => c + c)))
      .join('');
  }
  if (Array.isArray(value)) return value.map(pseudoLocale);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, pseudoLocale(v)]));
  return value;
}
export function texts(lang) {
  const plain = plainTexts(lang);
  return {
    ...plain,
    ui: (key) => pseudoLocale(plain.ui(key)),
    param: (spec) => pseudoLocale(plain.param(spec)),
    preset: (preset) => pseudoLocale(plain.preset(preset)),
    unit: (unit) => pseudoLocale(plain.unit(unit)),
    explain: () => plain.explain().then(pseudoLocale),
  };
}
globalThis.__pseudoLocale = true;
`;

async function open(path, viewport) {
  const context = await env.browser.newContext({ viewport });
  await context.route('**/www/i18n/texts.js', async (route) => {
    const response = await route.fetch();
    const source = await response.text();
    const wrapped = source.replace(/export function texts\(lang\)\s*\{/, 'function plainTexts(lang) {');
    if (wrapped === source) throw new Error('i18n.js has no `export function texts(lang)` to wrap');
    await route.fulfill({ response, body: wrapped + PSEUDO });
  });
  const page = await context.newPage();
  const watch = watchProblems(page);
  await page.goto(env.server.url + path);
  await waitFlocks(page, 'boids-flock');
  assert.equal(await page.evaluate(() => globalThis.__pseudoLocale), true, 'the pseudo-locale is in');
  return { page, context, ...watch };
}

/** In the page: every overflow, as short strings. */
function overflows(within) {
  const out = [];
  const root = document.querySelector(within);
  const name = (el) => {
    const text = (el.value || el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 30);
    return `${el.tagName.toLowerCase()}${[...el.classList].map((c) => `.${c}`).join('')} "${text}"`;
  };
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility === 'visible' && !el.closest('[hidden]');
  const width = document.documentElement.clientWidth;
  const selector = [
    'button', 'label', 'summary', 'legend', 'output', 'select', 'input', 'kbd', 'dt', 'dd', 'h1', 'h2', 'h3', 'p', 'li',
    '.bf-segment span', '.bf-legend', '.bf-readout > div', '.bf-tools-heading', '.bf-param-head', '.bf-badge', '.bf-toolbar',
    '.bf-panel', '.bf-explain', '.bf-keys-help',
  ].join(', ');
  for (const el of root.querySelectorAll(selector)) {
    // Not shown, or visually hidden (a 1 px box for screen readers).
    if (!shown(el) || el.getBoundingClientRect().width <= 1) continue;
    const style = getComputedStyle(el);
    const field = el.matches('input:not([type="range"], [type="checkbox"], [type="radio"])');
    // Text wider than its box (a text field scrolls its value: only its box counts).
    if (!field && style.display !== 'inline' && el.scrollWidth > el.clientWidth + 1) {
      out.push(`${name(el)} is wider than its box (${el.scrollWidth} > ${el.clientWidth})`);
    }
    const rect = el.getBoundingClientRect();
    if (rect.left < -1 || rect.right > width + 1) out.push(`${name(el)} runs past the window (${Math.round(rect.left)}..${Math.round(rect.right)} of ${width})`);
    // Inside what holds it: the stage (which clips) on all sides, a panel or dialog across.
    const holder = el.parentElement?.closest('.bf-stage, .bf-panel, .bf-explain, dialog, .masthead');
    if (!holder) continue;
    const box = holder.getBoundingClientRect();
    const outside = rect.left < box.left - 1 || rect.right > box.right + 1 || (holder.matches('.bf-stage') && (rect.top < box.top - 1 || rect.bottom > box.bottom + 1));
    if (outside) out.push(`${name(el)} sticks out of ${name(holder).slice(0, 24)}`);
  }
  // The stage's labels and buttons must not lie over one another.
  for (const stage of root.querySelectorAll('.bf-stage')) {
    const items = [...stage.querySelectorAll('.bf-readout > div, .bf-legend, .bf-badge, .bf-toolbar, .bf-hint')].filter(shown);
    for (let i = 0; i < items.length; i++) {
      for (let j = i + 1; j < items.length; j++) {
        const [a, b] = [items[i].getBoundingClientRect(), items[j].getBoundingClientRect()];
        if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push(`${name(items[i])} overlaps ${name(items[j])}`);
      }
    }
  }
  if (document.documentElement.scrollWidth > width) out.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`);
  return out;
}

for (const viewport of VIEWPORTS) {
  test(`pseudo-locale at ${viewport.width}x${viewport.height}: nothing overflows on the page, the iframe form or a compact embed`, { timeout: 240_000 }, async () => {
    const found = [];
    for (const [path, lang] of [
      [`?count=300&open=${OPEN}`, 'en'],
      [`?count=300&open=${OPEN}&lang=uk`, 'uk'],
      ['embed.html?count=300&controls=all&share=on', 'en'],
      ['test/compact.html', 'en'],
    ]) {
      const { page, context, pageErrors } = await open(path, viewport);
      if (path.includes('experiment')) {
        await page.waitForFunction(() => document.querySelector('[data-group="experiment"] > .bf-group-body')?.dataset.filled === 'yes');
      }
      if (path.includes('how')) await page.waitForFunction(() => document.querySelector('.bf-explain')?.dataset.filled === 'yes');
      assert.equal(await page.evaluate(() => document.documentElement.lang || document.querySelector('boids-flock').language), lang);
      const rebuild = await page.locator('.bf-rebuild').first().textContent();
      if (lang === 'en') assert.equal(rebuild.trim(), 'RReebbuuiilldd', 'every letter twice');
      const tag = `${path.split('?')[0] || 'page'}${lang === 'en' ? '' : `-${lang}`}`.replace(/[^a-z0-9-]+/gi, '_');
      found.push(...(await page.evaluate(overflows, 'body')).map((f) => `${path} ${viewport.width}px: ${f}`));
      saveArtifact(`pseudo-${tag}-${viewport.width}.png`, await page.screenshot({ fullPage: viewport.width < 800 }));
      // With the Keys help open (the page and the compact embed's "?" button).
      await page.locator('.bf-keys').first().click();
      await page.locator('dialog.bf-keys-help[open]').waitFor();
      found.push(...(await page.evaluate(overflows, 'dialog.bf-keys-help')).map((f) => `${path} ${viewport.width}px, Keys help: ${f}`));
      assert.deepEqual(pageErrors, []);
      await context.close();
    }
    assert.deepEqual(found, []);
  });
}
