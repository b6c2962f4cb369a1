// Helpers for the <boids-flock> tests (not a test file: `node --test` runs only *.test.mjs).
//
// - serveEmbed(): dist/ plus in-memory test pages, every response with the strict CSP header
// - page builders and small readers of an element's state

import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { distDir } from './helpers.mjs';

/** The policy the page and the embed must run under (issue 5). */
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * Serves dist/ and `pages` ({ '/test/x.html': html }) on 127.0.0.1:<random port>, each
 * response with `Content-Security-Policy: csp` (pass csp: null for none). Records every
 * request path. Returns { url, requests, close }.
 */
export async function serveEmbed({ pages = {}, csp = STRICT_CSP, root = distDir } = {}) {
  if (!existsSync(path.join(root, 'index.html'))) {
    throw new Error(`${root}/index.html is missing: run \`trunk build --release --offline\` first`);
  }
  const requests = [];
  const server = createServer((req, res) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    requests.push(pathname);
    const headers = { 'cache-control': 'no-store' };
    if (csp) headers['content-security-policy'] = csp;
    if (pages[pathname] != null) {
      const type = MIME[path.extname(pathname)] ?? 'text/html; charset=utf-8';
      res.writeHead(200, { ...headers, 'content-type': type }).end(pages[pathname]);
      return;
    }
    if (pathname.endsWith('/')) pathname += 'index.html';
    const file = path.join(root, pathname);
    if (!file.startsWith(root + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { ...headers, 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const type = MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    res.writeHead(200, { ...headers, 'content-type': type }).end(readFileSync(file));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
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
