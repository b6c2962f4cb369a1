// Accessibility and fit (issue 15): axe-core finds no serious or critical violation on the
// page, the iframe form and the lessons; in every language at 320, 1280 and 1920 px no text
// overflows its button or label; each lesson shows its flocks and controls on a 1280x800
// screen; the embed keeps a usable stage in a 640x400 frame.
//
// axe-core (npm devDependency, 4.14.1: 3.4 MB unpacked, axe.min.js 560 KB, 150 KB gzipped;
// never part of dist/) is injected into the page with the page's CSP bypassed for the test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { saveArtifact, watchProblems, useDistAndBrowser } from './helpers.mjs';
import { waitFlocks } from './embed-helpers.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const LANGS = ['en', 'uk', 'pl', 'ru'];
const WIDTHS = [320, 1280, 1920];
/** Every group open and the explanation shown, so that all their text is measured. */
const OPEN = 'hawks+scene+leaders+wind+species+sight+world+look+experiment+how';

const env = useDistAndBrowser();

async function open(path, viewport = { width: 1280, height: 800 }) {
  const context = await env.browser.newContext({ viewport, bypassCSP: true });
  const page = await context.newPage();
  const watch = watchProblems(page);
  await page.goto(env.server.url + path);
  // A flock below the fold starts only once seen: bring each into view (a long lesson).
  for (const flock of await page.locator('boids-flock').all()) await flock.scrollIntoViewIfNeeded();
  await waitFlocks(page, 'boids-flock');
  // The explanation's words load when it first opens (open=how): audit them too.
  if (/open=[^&]*how/.test(path)) await page.waitForFunction(() => document.querySelector('.bf-explain')?.dataset.filled === 'yes');
  // Real flocks: the recording's bar, the measures' table and the leadership graph, once built.
  if (path.includes('nature.html')) await page.waitForFunction(() => window.leadership && document.querySelector('.nature-table td')?.textContent);
  return { page, context, ...watch };
}

/** axe-core's serious and critical violations on the page, as short strings. */
async function audit(page) {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

for (const path of ['?count=300', `?count=300&open=${OPEN}`, 'embed.html?count=300&controls=all', 'examples/lesson.html', 'examples/hawk.html', 'examples/why.html', 'examples/why.html?lang=ru', 'examples/order.html', 'examples/order.html?lang=uk', 'examples/algorithm.html', 'examples/algorithm.html?lang=pl', 'examples/nature.html', 'examples/nature.html?lang=ru', 'examples/swarm.html', 'examples/swarm.html?lang=pl']) {
  test(`axe-core: no serious or critical violations on /${path}`, { timeout: 120_000 }, async () => {
    const { page, context, pageErrors } = await open(path);
    const bad = await audit(page);
    assert.deepEqual(bad, [], JSON.stringify(bad, null, 1));
    // With the Keys help open too (a modal dialog).
    if (path.startsWith('?')) {
      await page.keyboard.press('?');
      assert.equal(await page.locator('dialog.bf-keys-help').isVisible(), true, 'the Keys help is open');
      const withHelp = await audit(page);
      assert.deepEqual(withHelp, [], JSON.stringify(withHelp, null, 1));
    }
    assert.deepEqual(pageErrors, []);
    await context.close();
  });
}

test('every language at 320, 1280 and 1920 px: no text overflows its button or label', { timeout: 300_000 }, async () => {
  const overflowing = [];
  for (const width of WIDTHS) {
    const { page, context, pageErrors } = await open(`?count=300&open=${OPEN}`, { width, height: 900 });
    for (const lang of LANGS) {
      await page.evaluate((lang) => document.querySelector('boids-flock[page]').setAttribute('lang', lang), lang);
      await page.waitForFunction((lang) => document.documentElement.lang === lang, lang);
      // The Experiment group is filled by a module of its own, once the panel is rebuilt.
      await page.waitForFunction(() => document.querySelector('#group-experiment > .bf-group-body')?.dataset.filled === 'yes');
      await page.waitForFunction(() => document.querySelector('.bf-explain')?.dataset.filled === 'yes'); // its words load on demand
      const found = await page.evaluate(() => {
        const out = [];
        const selector = 'button, label, summary, legend, output, .bf-segment span, .bf-legend, .bf-readout > div, .bf-tools-heading, dt';
        for (const el of document.querySelectorAll(selector)) {
          if (!el.getClientRects().length) continue; // not shown
          if (el.scrollWidth > el.clientWidth + 1) out.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 40)}" ${el.scrollWidth}>${el.clientWidth}`);
        }
        // A word broken inside a pointer mode or preset name (one line each).
        for (const node of document.querySelectorAll('.bf-segment span, .bf-preset, .bf-buttons button, .bf-helpbar button')) {
          const range = document.createRange();
          range.selectNodeContents(node);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
          if (lines > 1 && !/\s/.test(node.textContent.trim())) out.push(`"${node.textContent}" breaks inside its word`);
        }
        if (document.documentElement.scrollWidth > window.innerWidth) out.push(`the page scrolls sideways (${document.documentElement.scrollWidth})`);
        return out;
      });
      overflowing.push(...found.map((f) => `${lang} ${width}px: ${f}`));
      saveArtifact(`fit-${lang}-${width}.png`, await page.screenshot({ fullPage: width === 320 }));
    }
    assert.deepEqual(pageErrors, []);
    await context.close();
  }
  assert.deepEqual(overflowing, []);
});

test('the lessons fit one 1280x800 screen; the embed keeps a usable stage in a 640x400 frame', { timeout: 120_000 }, async () => {
  for (const lesson of ['lesson', 'hawk']) {
    const { page, context } = await open(`examples/${lesson}.html`);
    const seen = await page.evaluate(() => {
      const onScreen = (el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.width > 0;
      };
      return {
        flocks: [...document.querySelectorAll('boids-flock .bf-stage')].map(onScreen),
        controls: [...document.querySelectorAll('boids-flock input[type="range"], boids-flock .bf-preset')].slice(0, 3).map(onScreen),
        firstStep: onScreen(document.querySelector('.steps li')),
      };
    });
    saveArtifact(`lesson-${lesson}-1280.png`, await page.screenshot());
    assert.ok(seen.flocks.length > 0 && seen.flocks.every(Boolean), `${lesson}: every flock on screen ${JSON.stringify(seen)}`);
    assert.ok(seen.controls.length > 0 && seen.controls.every(Boolean), `${lesson}: its first controls on screen ${JSON.stringify(seen)}`);
    assert.ok(seen.firstStep, `${lesson}: its first step on screen ${JSON.stringify(seen)}`);
    // Scrolled to the last step, the flocks are still on screen beside it.
    await page.locator('.steps li').last().scrollIntoViewIfNeeded();
    const after = await page.evaluate(() =>
      [...document.querySelectorAll('boids-flock .bf-stage')].map((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight;
      }),
    );
    assert.ok(after.every(Boolean), `${lesson}: the flocks stay beside the last step`);
    await context.close();
  }
  const { page, context } = await open('embed.html?count=300&controls=all', { width: 640, height: 400 });
  const stage = await page.locator('.bf-stage').boundingBox();
  saveArtifact('embed-640x400-all.png', await page.screenshot());
  assert.ok(stage.height >= 0.55 * 400, `the stage is ${stage.height} px tall in a 400 px frame`);
  await context.close();
});
