// A QR code for the links the page and the studio copy (issue 45): the "QR code" button
// beside Copy link on the full page and beside the studio's link output opens a modal dialog
// whose code, photographed as a phone's camera would (an element screenshot) and decoded with
// jsQR, says exactly the link that Copy copies. Also: its module and encoder load only on the
// first press (never with the page); the keyboard alone opens and closes it, focus coming
// back to the button; on a 390×844 phone the dialog and its whole code fit the screen; the
// code is dark on white with a quiet zone in the page's dark theme and its projector look;
// the button speaks uk, pl and ru; the studio's dialog under its strict CSP; a link too long
// for a code is said so, not drawn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import jsQR from 'jsqr';
import { decodePng, saveArtifact, useDistAndBrowser, waitRunning, watchProblems } from './helpers.mjs';
import { CSP_WATCH_SCRIPT, STRICT_CSP, waitFlocks } from './embed-helpers.mjs';

const env = useDistAndBrowser({ csp: STRICT_CSP });
/** What the first press fetches, and the page must not fetch before it. */
const LAZY = ['/www/core/qr-dialog.js', '/www/vendor/uqr.js'];
/** The button's and the dialog title's words (www/i18n/*.js: qrButton, qrTitle). */
const WORDS = {
  en: ['QR code', 'Open this on a phone'],
  uk: ['QR-код', 'Відкрийте це на телефоні'],
  pl: ['Kod QR', 'Otwórz to w telefonie'],
  ru: ['QR-код', 'Откройте это на телефоне'],
};

async function openPage(query = '?count=200', options = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  await page.addInitScript(CSP_WATCH_SCRIPT);
  const watch = watchProblems(page);
  await page.goto(env.server.url + query);
  await waitRunning(page);
  return { context, page, ...watch };
}

/**
 * The open dialog's code, read back: its screenshot (saved as `name`) decoded by jsQR, and
 * what the screenshot's edge and corner are (the quiet zone must be white).
 */
async function readCode(page, name) {
  const code = page.locator('dialog[open] svg');
  await code.waitFor({ state: 'visible' });
  const buffer = await code.screenshot();
  saveArtifact(name, buffer);
  const png = decodePng(buffer);
  const found = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  const at = (x, y) => [...png.data.subarray(4 * (y * png.width + x), 4 * (y * png.width + x) + 3)];
  // A quiet zone of 4 modules: the outer 2 % of the picture all round is white.
  const rim = Math.max(1, Math.floor(png.width * 0.02));
  let dark = 0;
  for (let i = 0; i < png.width; i++) {
    for (const [x, y] of [[i, rim], [i, png.height - 1 - rim], [rim, i], [png.width - 1 - rim, i]]) {
      if (y < png.height && at(x, y).some((c) => c < 200)) dark++;
    }
  }
  return { text: found?.data ?? null, width: png.width, height: png.height, darkOnRim: dark, corner: at(0, 0) };
}

/** The link Copy link copies (the field it fills; the clipboard may be refused headless). */
async function copiedLink(page, copyId, fieldId) {
  await page.locator(`#${copyId}`).click();
  await page.waitForFunction((id) => document.getElementById(id).value !== '', fieldId);
  return page.locator(`#${fieldId}`).inputValue();
}

test('the full page: the QR code says the copied link, loads on the first press, closes back to its button', { timeout: 180_000 }, async () => {
  const { context, page, problems } = await openPage();
  await page.waitForTimeout(500);
  // What the page itself fetched (its resource timing: an offline service worker's
  // precaching of every file is not the page's download).
  const fetched = () => page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
  const before = await fetched();
  assert.ok(before.includes('/www/panel/panel.js'), 'the page\'s own requests are read');
  for (const file of LAZY) assert.ok(!before.includes(file), `the page did not fetch ${file} before the press`);
  // Paused, so that the link and the code are of one and the same state.
  await page.keyboard.press('Space');
  const link = await copiedLink(page, 'copy-link', 'share-link');
  assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/\?/);
  const qr = page.locator('#qr');
  assert.equal((await qr.textContent()).trim(), WORDS.en[0]);
  await qr.click();
  const dialog = page.locator('dialog[open]');
  await dialog.waitFor();
  const after = await fetched();
  for (const file of LAZY) assert.ok(after.includes(file), `the press fetched ${file}`);
  saveArtifact('qr-page-1280.png', await dialog.screenshot());
  const code = await readCode(page, 'qr-page-1280-code.png');
  assert.equal(code.text, link, 'the code decodes to the copied link');
  assert.ok(code.width >= 470 && code.width <= 490, `480 px on a 1280×800 screen (${code.width})`);
  assert.equal(code.darkOnRim, 0, 'a white quiet zone all round');
  assert.deepEqual(code.corner, [255, 255, 255]);
  assert.equal(await dialog.locator('h2').textContent(), WORDS.en[1]);
  assert.equal(await dialog.locator('.bf-qr-link').textContent(), link, 'the link written under the code');
  const named = await page.evaluate(() => {
    const d = document.querySelector('dialog[open]');
    return { title: document.getElementById(d.getAttribute('aria-labelledby'))?.textContent, focused: document.activeElement.textContent };
  });
  assert.deepEqual(named, { title: WORDS.en[1], focused: 'Close' }, 'labelled by its title; focus on Close');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('dialog[open]'));
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'qr', 'Esc gives focus back to the button');
  // Again, in the projector look (contrast): still black on white.
  await page.locator('#contrast').click();
  await qr.click();
  const again = await readCode(page, 'qr-page-contrast-code.png');
  assert.equal(again.text, `${link}&contrast=more`, 'the link, now with the projector look, in the projector look');
  assert.deepEqual(again.corner, [255, 255, 255]);
  await page.locator('dialog[open] .bf-qr-close').click();
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'qr', 'Close gives focus back too');
  // Bad input to the module: a TypeError, and a RangeError for a link no code holds; the
  // dialog says so instead of drawing.
  const refusals = await page.evaluate(async () => {
    const { qrPath, showQr } = await import('/www/core/qr-dialog.js');
    const caught = (fn) => {
      try {
        fn();
        return 'none';
      } catch (error) {
        return error.constructor.name;
      }
    };
    const long = `https://example.org/?state=${'x'.repeat(5000)}`;
    const dialog = showQr({ link: long, words: { title: 't', close: 'c', code: 'q', tooLong: 'Too long.' }, parent: document.body });
    const said = { text: dialog.querySelector('p').textContent.slice(0, 9), drawn: dialog.querySelector('svg').style.display !== 'none' };
    dialog.close();
    return { notText: caught(() => qrPath(42)), empty: caught(() => qrPath('')), tooLong: caught(() => qrPath(long)), said };
  });
  assert.deepEqual(refusals, { notText: 'TypeError', empty: 'TypeError', tooLong: 'RangeError', said: { text: 'Too long.', drawn: false } });
  assert.deepEqual(await page.evaluate(() => window.__csp), [], 'no CSP violation (its styles are set through the CSSOM)');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the keyboard alone: Tab to the button, Enter opens, Tab stays in the dialog, Esc closes', { timeout: 120_000 }, async () => {
  const { context, page, problems } = await openPage();
  let reached = false;
  for (let i = 0; i < 120 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = (await page.evaluate(() => document.activeElement?.id)) === 'qr';
  }
  assert.ok(reached, 'Tab reaches the QR code button');
  await page.keyboard.press('Enter');
  await page.locator('dialog[open]').waitFor();
  await page.waitForFunction(() => document.activeElement?.classList.contains('bf-qr-close'));
  await page.keyboard.press('Tab');
  assert.ok(await page.evaluate(() => !!document.activeElement?.closest('dialog[open]') || document.activeElement === document.body), 'focus stays in the modal dialog');
  const link = await page.evaluate(() => document.querySelector('boids-flock').shareUrl());
  const code = await readCode(page, 'qr-keyboard-code.png');
  assert.equal(new URL(code.text).origin, new URL(link).origin, 'a code of this page');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('dialog[open]'));
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'qr');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a 390×844 phone: the dialog and its whole code fit the screen, and it still reads', { timeout: 120_000 }, async () => {
  const { context, page, problems } = await openPage('?count=200', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.keyboard.press('Space');
  const link = await copiedLink(page, 'copy-link', 'share-link');
  await page.locator('#qr').tap();
  const dialog = page.locator('dialog[open]');
  await dialog.waitFor();
  saveArtifact('qr-page-390.png', await page.screenshot());
  const [box, svg] = await Promise.all([dialog.boundingBox(), dialog.locator('svg').boundingBox()]);
  for (const [what, b] of [['the dialog', box], ['the code', svg]]) {
    assert.ok(b.x >= 0 && b.y >= 0 && b.x + b.width <= 390 && b.y + b.height <= 844, `${what} fits the screen: ${JSON.stringify(b)}`);
  }
  assert.ok(svg.width >= 300, `the code is 80vmin, about 312 px (${svg.width})`);
  assert.equal((await readCode(page, 'qr-page-390-code.png')).text, link);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the button and the dialog in uk, pl and ru', { timeout: 180_000 }, async () => {
  for (const lang of ['uk', 'pl', 'ru']) {
    const { context, page, problems } = await openPage(`?count=200&lang=${lang}`);
    await page.waitForFunction((word) => document.getElementById('qr')?.textContent.trim() === word, WORDS[lang][0], { timeout: 10_000 }).catch(() => {});
    assert.equal((await page.locator('#qr').textContent()).trim(), WORDS[lang][0], `${lang}: the button`);
    await page.locator('#qr').click();
    await page.locator('dialog[open]').waitFor();
    assert.equal(await page.locator('dialog[open] h2').textContent(), WORDS[lang][1], `${lang}: the title`);
    assert.notEqual(await page.locator('dialog[open] .bf-qr-close').textContent(), 'Close', `${lang}: Close`);
    assert.deepEqual(problems, [], lang);
    await context.close();
  }
});

test("the studio: the link output's QR code says the link it copies, in two languages", { timeout: 180_000 }, async () => {
  for (const lang of ['en', 'pl']) {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.addInitScript(CSP_WATCH_SCRIPT);
    const { problems } = watchProblems(page);
    await page.goto(`${env.server.url}studio.html?lang=${lang}`);
    await page.waitForFunction(() => document.documentElement.dataset.studio === 'ready', null, { timeout: 60_000 });
    await waitFlocks(page, '#preview');
    const button = page.locator('#studio-qr-link');
    assert.equal((await button.textContent()).trim(), WORDS[lang][0], `${lang}: the button`);
    await button.focus();
    await page.keyboard.press('Enter');
    const dialog = page.locator('dialog[open]');
    await dialog.waitFor();
    // The link as the output shows it when the code was drawn (the studio rewrites it every second).
    const shown = await dialog.locator('p').textContent();
    const link = await page.locator('#studio-out-link').inputValue();
    if (lang === 'en') saveArtifact('qr-studio-1280.png', await page.screenshot());
    const code = await readCode(page, `qr-studio-${lang}-code.png`);
    assert.equal(code.text, shown, `${lang}: the code decodes to the link under it`);
    assert.equal(code.text, link, `${lang}: which is the studio's link output`);
    assert.equal(await dialog.locator('h2').textContent(), WORDS[lang][1]);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('dialog[open]'));
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'studio-qr-link', `${lang}: focus back on the button`);
    assert.deepEqual(await page.evaluate(() => window.__csp), [], `${lang}: no CSP violation`);
    assert.deepEqual(problems, [], lang);
    await context.close();
  }
});
