// Helpers for the <boids-flock> tests (not a test file: `node --test` runs only *.test.mjs).
//
// - serveEmbed(): dist/ plus in-memory test pages, every response with the strict CSP header
// - page builders and small readers of an element's state

import { distDir, serve } from './helpers.mjs';

/** The policy the page and the embed must run under (issue 5). */
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";

/**
 * Serves dist/ and `pages` ({ '/test/x.html': html }) on 127.0.0.1:<random port>, each
 * response with `Content-Security-Policy: csp` (pass csp: null for none): helpers.mjs
 * `serve` with the strict policy by default.
 */
export function serveEmbed({ pages = {}, csp = STRICT_CSP, root = distDir } = {}) {
  return serve({ root, pages, csp });
}

/** A test page: the one script tag a teacher writes, a stylesheet, and `body` as given. */
export function testPage(body, { lang = 'en', css = '/test/test.css' } = {}) {
  return `<!doctype html>
<html lang="${lang}">
<head>
  <meta charset="utf-8">
  <title>boids-flock test</title>
  <link rel="icon" href="/www/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="${css}">
  <script type="module" src="/www/boids-embed.js"></script>
</head>
<body>
${body}
</body>
</html>`;
}

/** Layout for test pages (a file: inline styles would break the CSP). */
export const TEST_CSS = `
body { margin: 0; padding: 8px; font: 14px sans-serif; }
.row { display: flex; gap: 12px; }
.row boids-flock { width: 460px; }
.tall { height: 2400px; }
boids-flock.small { width: 360px; }
`;

/** Init script: records Content-Security-Policy violations in window.__csp. */
export const CSP_WATCH_SCRIPT = `(() => {
  window.__csp = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sample || ''));
  });
})();`;

/** Waits until every element matching `selector` (at least `min`) has data-state="running". */
export async function waitFlocks(page, selector = 'boids-flock', { min = 1, timeout = 60_000 } = {}) {
  try {
    await page.waitForFunction(
      ([selector, min]) => {
        const all = [...document.querySelectorAll(selector)];
        return all.length >= min && all.every((el) => el.dataset.state === 'running');
      },
      [selector, min],
      { timeout },
    );
  } catch (err) {
    const states = await page
      .evaluate((s) => [...document.querySelectorAll(s)].map((el) => el.dataset.state), selector)
      .catch(() => '?');
    throw new Error(`${selector} never all reached data-state="running" (states: ${JSON.stringify(states)}): ${err.message}`);
  }
}

/** The element's flock positions as a plain array. */
export function flockPositions(page, selector) {
  return page.evaluate((s) => Array.from(document.querySelector(s).flock.positions()), selector);
}

/** The element's count of simulation steps taken. */
export function flockSteps(page, selector) {
  return page.evaluate((s) => document.querySelector(s).steps, selector);
}

/** Every parameter's current value of the element's flock: { name: number }. */
export function flockValues(page, selector) {
  return page.evaluate((s) => {
    const el = document.querySelector(s);
    const values = {};
    for (const spec of el.constructor.params) values[spec.name] = Number(el.flock[spec.getter]());
    return values;
  }, selector);
}

/** Console messages of one type, collected as the page runs. */
export function collectConsole(page, type) {
  const messages = [];
  page.on('console', (msg) => {
    if (msg.type() === type) messages.push(msg.text());
  });
  return messages;
}
