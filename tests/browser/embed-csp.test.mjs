// Safety: the page, the iframe form, the lesson and a teacher's page with two flocks run under
// the strict CSP `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'` sent as a header,
// with no violation and no request beyond their own files; no HTML is ever built from data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { distDir, useDistAndBrowser, sameArrays, waitFrames, watchProblems } from './helpers.mjs';
import { CSP_WATCH_SCRIPT, STRICT_CSP, TEST_CSS, testPage, waitFlocks } from './embed-helpers.mjs';

const pages = {
  '/test/test.css': TEST_CSS,
  '/test/two.html': testPage(`
    <div class="row">
      <boids-flock id="a" count="300" controls="cohesion" lang="uk"></boids-flock>
      <boids-flock id="b" count="500" controls="all" readout share explain></boids-flock>
    </div>`),
};

const env = useDistAndBrowser({ pages, csp: STRICT_CSP });

function htmlFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return htmlFiles(file);
    return entry.name.endsWith('.html') ? [file] : [];
  });
}

test('every built page declares the strict CSP and has no inline script, style or handler', () => {
  const files = htmlFiles(distDir);
  assert.ok(files.length >= 3, `index, embed and lesson pages are built: ${files}`);
  for (const file of files) {
    const html = readFileSync(file, 'utf8').replace(/<!--[\s\S]*?-->/g, '');
    const name = path.relative(distDir, file);
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
    assert.equal(meta?.[1], STRICT_CSP, `${name} has the CSP meta tag`);
    assert.doesNotMatch(html, /<style[\s>]/i, `${name}: no <style> block`);
    assert.doesNotMatch(html, /\sstyle\s*=/i, `${name}: no style="" attribute`);
    assert.doesNotMatch(html, /\son[a-z]+\s*=/i, `${name}: no inline event handler`);
    for (const script of html.matchAll(/<script\b[^>]*>/gi)) {
      assert.match(script[0], /\ssrc=/, `${name}: every script is a file (${script[0]})`);
    }
  }
});

test('the interface JS never builds HTML from strings', () => {
  const dir = path.join(distDir, 'www');
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.js'))) {
    const source = readFileSync(path.join(dir, name), 'utf8');
    assert.doesNotMatch(source, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/, `www/${name}`);
  }
});

async function open(url) {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const watch = watchProblems(page);
  const cspConsole = [];
  const foreign = [];
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) cspConsole.push(msg.text());
  });
  page.on('request', (req) => {
    if (!req.url().startsWith(env.server.url) && !req.url().startsWith('data:')) foreign.push(req.url());
  });
  await page.addInitScript(CSP_WATCH_SCRIPT);
  const response = await page.goto(env.server.url + url);
  assert.equal(response.headers()['content-security-policy'], STRICT_CSP, 'served with the CSP header');
  return { page, cspConsole, foreign, ...watch };
}

async function assertMoving(page, selector, index = 0) {
  const read = () =>
    page.evaluate(([s, i]) => Array.from(document.querySelectorAll(s)[i].flock.positions()), [selector, index]);
  const a = await read();
  await page.waitForTimeout(300);
  assert.ok(!sameArrays(a, await read()), `${selector} #${index} moves`);
}

async function assertClean({ page, cspConsole, foreign, problems }, label) {
  const violations = await page.evaluate(() => window.__csp);
  assert.deepEqual(violations, [], `${label}: securitypolicyviolation events`);
  assert.deepEqual(cspConsole, [], `${label}: CSP messages in the console`);
  assert.deepEqual(foreign, [], `${label}: requests beyond its own files`);
  assert.deepEqual(problems, [], `${label}: errors or failed requests`);
}

test('the full page works under the strict CSP', { timeout: 120_000 }, async () => {
  const opened = await open('');
  const { page } = opened;
  await waitFlocks(page, 'boids-flock[page]');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.boids), 'running');
  await assertMoving(page, 'boids-flock');
  // Use it: a slider, pause, the link, another language, rebuild.
  await page.evaluate(() => {
    const el = document.getElementById('param-cohesion');
    el.value = '2.5';
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
  assert.equal(await page.evaluate(() => window.flock.cohesion()), 2.5);
  await page.locator('#pause').click();
  await page.locator('#copy-link').click();
  await page.locator('#lang').selectOption('uk');
  await page.locator('#rebuild').click();
  await page.locator('#pause').click();
  await waitFrames(page, 5);
  await assertMoving(page, 'boids-flock');
  await assertClean(opened, 'index.html');
  await page.close();
});

test('embed.html, the lesson and a page with two flocks work under the strict CSP', { timeout: 180_000 }, async () => {
  for (const [url, selector, count] of [
    ['embed.html?count=300&controls=cohesion,separation&readout=1', 'boids-flock', 1],
    ['examples/lesson.html', 'boids-flock', 2],
    ['test/two.html', 'boids-flock', 2],
  ]) {
    const opened = await open(url);
    const { page } = opened;
    await waitFlocks(page, selector, { min: count });
    for (let i = 0; i < count; i++) await assertMoving(page, selector, i);
    const slider = page.locator('input[type=range]').first();
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await waitFrames(page, 5);
    await assertClean(opened, url);
    await page.close();
  }
});

test('the violation watch itself works: an inline script is refused and reported', { timeout: 60_000 }, async () => {
  const opened = await open('embed.html?count=100');
  const { page } = opened;
  await waitFlocks(page, 'boids-flock');
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true';
    document.body.append(script);
  });
  await page.waitForFunction(() => window.__csp.length > 0, null, { timeout: 5000 });
  assert.equal(await page.evaluate(() => window.__inlineRan ?? false), false, 'the inline script did not run');
  // The console watch saw the refusal too, and the request watch sees a file from elsewhere.
  assert.ok(opened.cspConsole.length > 0, 'the refusal is in the console');
  await page.evaluate(() => {
    const img = document.createElement('img');
    img.src = 'http://127.0.0.2:9/elsewhere.png';
    document.body.append(img);
  });
  await page.waitForTimeout(300);
  assert.ok(opened.foreign.some((url) => url.includes('elsewhere.png')), `a request beyond the page's files is caught: ${opened.foreign}`);
  await page.close();
});
