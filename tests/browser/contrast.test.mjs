// The projector look (issue 29): `contrast="more"` (the panel's toggle, `?contrast=more`, or
// the reader's `prefers-contrast: more`). Measured, not eyeballed: every piece of text on the
// page, the iframe form and the Keys help against what it sits on (computed styles, the WCAG
// 2 relative-luminance formula, translucent layers and gradients composited, the worst stop
// counted): at least 4.5:1 in the usual look (AA), at least 7:1 in the projector look (AAA).
// And the cones: the same paused frame drawn in both looks, each cone pixel against the sky
// behind it, stand out more in the projector look (most of them 3:1, WCAG's bar for
// graphics). An embed's look stays its own: the host page's styles do not change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePng, saveArtifact, serve, launchBrowser, waitFrames, watchProblems } from './helpers.mjs';
import { TEST_CSS, testPage, waitFlocks } from './embed-helpers.mjs';
import { before, after } from 'node:test';

/** Every group open and the explanation shown, so that all their text is measured. */
const OPEN = 'hawks+scene+leaders+wind+species+sight+world+look+experiment+how';
const NORMAL_MIN = 4.5;
const MORE_MIN = 7;

const env = {};
before(async () => {
  env.server = await serve({
    pages: {
      '/test/test.css': TEST_CSS,
      '/test/guest.html': testPage('<p class="host">A teacher’s page.</p><boids-flock count="200" controls="cohesion" contrast="more"></boids-flock>'),
    },
  });
  env.browser = await launchBrowser();
});
after(async () => {
  await env.browser?.close();
  await env.server?.close();
});

async function open(path, { viewport = { width: 1280, height: 800 }, contrast = null } = {}) {
  const context = await env.browser.newContext({ viewport, contrast });
  const page = await context.newPage();
  const watch = watchProblems(page);
  await page.goto(env.server.url + path);
  await waitFlocks(page, 'boids-flock');
  return { page, context, ...watch };
}

/**
 * In the page: each shown piece of text (an element with text of its own, a select, a text
 * field) with the lowest contrast ratio it has against any of the backgrounds it may sit on.
 */
function measureText() {
  const parse = (text) => {
    const m = /rgba?\(([^)]+)\)/.exec(text);
    if (!m) return null;
    const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const colours = (text) => [...text.matchAll(/rgba?\([^)]+\)/g)].map((m) => parse(m[0]));
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const channel = (c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  // What may lie behind `el`: its and its ancestors' backgrounds, from the nearest opaque one
  // up; a gradient counts as each of its stops (translucent ones over what is below).
  const backgrounds = (el) => {
    const layers = [];
    for (let node = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      const layer = {
        colour: parse(style.backgroundColor),
        stops: style.backgroundImage.includes('gradient') ? colours(style.backgroundImage) : [],
      };
      layers.push(layer);
      if (layer.colour?.[3] >= 1 || layer.stops.some((s) => s[3] >= 1)) break;
    }
    let under = [[255, 255, 255, 1]]; // the canvas: white, where nothing paints
    for (const { colour, stops } of layers.reverse()) {
      if (colour && colour[3] > 0) under = under.map((c) => over(colour, c));
      if (stops.length > 0) {
        const opaque = stops.filter((s) => s[3] >= 1);
        if (opaque.length > 0) under = opaque;
        const clear = stops.filter((s) => s[3] < 1 && s[3] > 0);
        under = under.flatMap((c) => [c, ...clear.map((s) => over(s, c))]);
      }
    }
    return under;
  };
  const opacity = (el) => {
    let o = 1;
    for (let node = el; node; node = node.parentElement) o *= Number(getComputedStyle(node).opacity);
    return o;
  };
  const shown = (el) => {
    const rect = el.getBoundingClientRect();
    if (rect.width <= 1 || rect.height <= 1) return false; // not laid out, or visually hidden
    const style = getComputedStyle(el);
    if (style.visibility !== 'visible') return false;
    if (el.closest('[hidden], noscript, script, style, option, :disabled')) return false;
    return opacity(el) > 0.05;
  };
  const elements = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    if (walker.currentNode.data.trim()) elements.add(walker.currentNode.parentElement);
  }
  for (const el of document.querySelectorAll('select, input:not([type]), input[type="text"], input[type="url"]')) elements.add(el);
  const out = [];
  for (const el of elements) {
    if (!shown(el)) continue;
    const fg = parse(getComputedStyle(el).color);
    fg[3] *= opacity(el);
    let worst = Infinity;
    let against = null;
    for (const bg of backgrounds(el)) {
      const r = ratio(over(fg, bg), bg);
      if (r < worst) [worst, against] = [r, bg];
    }
    const name = `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
    const text = (el.value || el.textContent).trim().slice(0, 40);
    out.push({ name, text, ratio: Math.round(worst * 100) / 100, colour: fg.map((v) => Math.round(v * 100) / 100), against: against.map(Math.round) });
  }
  return out;
}

/** The texts of `page` below `min`, and the lowest ratio found (with how many were measured). */
async function lowContrast(page, min) {
  const measured = await page.evaluate(measureText);
  assert.ok(measured.length > 30, `measured ${measured.length} pieces of text`);
  const low = measured.filter((m) => m.ratio < min).map((m) => `${m.name} "${m.text}" ${m.ratio}:1 (${m.colour} on ${m.against})`);
  const lowest = Math.min(...measured.map((m) => m.ratio));
  return { low, lowest, count: measured.length };
}

for (const [look, min, query, media] of [
  ['usual', NORMAL_MIN, '', null],
  ['projector (?contrast=more)', MORE_MIN, '&contrast=more', null],
  ['projector (prefers-contrast: more)', MORE_MIN, '', 'more'],
]) {
  test(`text contrast in the ${look} look: every text at least ${min}:1 (page, Keys help, iframe form)`, { timeout: 180_000 }, async (t) => {
    for (const path of [`?count=300&open=${OPEN}`, 'embed.html?count=300&controls=all&share=on']) {
      const { page, context, pageErrors } = await open(path + query, { contrast: media });
      if (path.includes('experiment')) {
        await page.waitForFunction(() => document.querySelector('#group-experiment > .bf-group-body')?.dataset.filled === 'yes');
      }
      const more = min === MORE_MIN;
      assert.equal(await page.evaluate(() => document.querySelector('boids-flock').classList.contains('bf-contrast')), more, 'the look');
      assert.equal(await page.evaluate(() => document.documentElement.dataset.contrast), more ? 'more' : 'normal');
      assert.equal(await page.evaluate(() => window.view.contrast()), more, 'the View draws the same look');
      const found = await lowContrast(page, min);
      t.diagnostic(`${path}: ${found.count} texts, lowest ${found.lowest.toFixed(2)}:1`);
      assert.deepEqual(found.low, [], `${path}: below ${min}:1`);
      if (!path.startsWith('embed')) {
        await page.keyboard.press('?');
        assert.equal(await page.locator('dialog.bf-keys-help').isVisible(), true, 'the Keys help is open');
        const help = await lowContrast(page, min);
        t.diagnostic(`${path} with the Keys help: lowest ${help.lowest.toFixed(2)}:1`);
        assert.deepEqual(help.low, [], `${path} with the Keys help: below ${min}:1`);
      }
      assert.deepEqual(pageErrors, []);
      await context.close();
    }
  });
}

test('the toggle switches the look, the address bar keeps it, and contrast=normal wins over the system', { timeout: 120_000 }, async () => {
  const { page, context, pageErrors } = await open('?count=300', { contrast: 'more' });
  const state = () =>
    page.evaluate(() => ({
      on: document.querySelector('boids-flock').classList.contains('bf-contrast'),
      pressed: document.getElementById('contrast').getAttribute('aria-pressed'),
      view: window.view.contrast(),
      url: new URLSearchParams(location.search).get('contrast'),
    }));
  assert.deepEqual(await state(), { on: true, pressed: 'true', view: true, url: null }, 'the system asks for more');
  await page.locator('#contrast').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('contrast') === 'normal');
  assert.deepEqual(await state(), { on: false, pressed: 'false', view: false, url: 'normal' }, 'turned off by the keyboard');
  await page.reload();
  await waitFlocks(page, 'boids-flock');
  assert.deepEqual(await state(), { on: false, pressed: 'false', view: false, url: 'normal' }, 'kept over a reload');
  await page.locator('#contrast').click();
  await page.waitForFunction(() => new URLSearchParams(location.search).get('contrast') === 'more');
  assert.deepEqual(await state(), { on: true, pressed: 'true', view: true, url: 'more' });
  assert.match(await page.evaluate(() => document.querySelector('boids-flock').shareUrl()), /[?&]contrast=more/, 'a shared link carries it');
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test('an embed with contrast="more" changes its own look only, never its host page', { timeout: 60_000 }, async () => {
  const { page, context, pageErrors } = await open('test/guest.html');
  const host = () =>
    page.evaluate(() => {
      const style = (el) => {
        const s = getComputedStyle(el);
        return [s.color, s.backgroundColor, s.fontSize, s.outlineWidth].join(' ');
      };
      return { html: style(document.documentElement), body: style(document.body), p: style(document.querySelector('.host')), mark: document.documentElement.dataset.contrast ?? null };
    });
  const flock = page.locator('boids-flock');
  assert.equal(await flock.evaluate((el) => el.classList.contains('bf-contrast')), true);
  const withMore = await host();
  await flock.evaluate((el) => el.setAttribute('contrast', 'normal'));
  assert.equal(await flock.evaluate((el) => el.classList.contains('bf-contrast')), false, 'contrast="normal" set later');
  assert.deepEqual(await host(), withMore, 'the host page is the same in both looks');
  assert.equal(withMore.mark, null, '<html> is not marked by a guest');
  assert.deepEqual(pageErrors, []);
  await context.close();
});

/** Each pixel of `a` that differs from `b` (the sky alone) by more than `tolerance`: its ratio. */
function conePixels(shot, sky, tolerance = 40) {
  const lin = (c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const lum = (d, i) => 0.2126 * lin(d[i]) + 0.7152 * lin(d[i + 1]) + 0.0722 * lin(d[i + 2]);
  const ratios = [];
  for (let i = 0; i < shot.data.length; i += 4) {
    const diff = Math.abs(shot.data[i] - sky.data[i]) + Math.abs(shot.data[i + 1] - sky.data[i + 1]) + Math.abs(shot.data[i + 2] - sky.data[i + 2]);
    if (diff <= tolerance) continue;
    const [hi, lo] = [lum(shot.data, i), lum(sky.data, i)].sort((x, y) => y - x);
    ratios.push((hi + 0.05) / (lo + 0.05));
  }
  ratios.sort((x, y) => x - y);
  const share3 = ratios.filter((r) => r >= 3).length / Math.max(1, ratios.length);
  return { count: ratios.length, median: ratios[ratios.length >> 1] ?? 0, share3 };
}

test('the cones stand out more against the sky in the projector look (the same frame, both looks)', { timeout: 120_000 }, async (t) => {
  const { page, context, pageErrors } = await open('?count=600&seed=11&flat=0', { viewport: { width: 1280, height: 800 } });
  const flock = page.locator('boids-flock');
  // A settled flock, then paused: both looks draw the very same frame.
  await waitFrames(page, 90);
  await flock.evaluate((el) => {
    el.paused = true;
  });
  await waitFrames(page, 5);
  const stage = page.locator('.bf-stage');
  const shots = {};
  for (const look of ['normal', 'more']) {
    await flock.evaluate((el, look) => el.setAttribute('contrast', look), look);
    await waitFrames(page, 5);
    const drawn = decodePng(await stage.screenshot());
    await page.evaluate(() => {
      document.querySelector('.bf-canvas').style.visibility = 'hidden';
    });
    await waitFrames(page, 2);
    const sky = decodePng(await stage.screenshot());
    await page.evaluate(() => {
      document.querySelector('.bf-canvas').style.visibility = '';
    });
    shots[look] = conePixels(drawn, sky);
    saveArtifact(`contrast-cones-${look}.png`, await stage.screenshot());
    t.diagnostic(`${look}: ${shots[look].count} cone pixels, median ${shots[look].median.toFixed(2)}:1, ${(100 * shots[look].share3).toFixed(0)} % at 3:1 or more`);
  }
  const { normal, more } = shots;
  assert.ok(normal.count > 2000 && more.count > 2000, `cones drawn: ${normal.count}, ${more.count} pixels`);
  assert.ok(more.count >= 0.9 * normal.count, 'no cone lost in the projector look');
  assert.ok(more.median >= 1.5 * normal.median, `median cone contrast ${normal.median.toFixed(2)} -> ${more.median.toFixed(2)}`);
  assert.ok(more.share3 >= 0.8, `${(100 * more.share3).toFixed(0)} % of cone pixels at 3:1 or more in the projector look`);
  assert.deepEqual(pageErrors, []);
  await context.close();
});
