// Firefox and WebKit for the engine tests (not a test file: `node --test` runs only
// *.test.mjs), both behind one small interface, and the pages they open.
//
// - launchEngine('firefox' | 'webkit'): Debian's firefox-esr over WebDriver BiDi
//   (puppeteer-core) or WebKitGTK's MiniBrowser through WebKitWebDriver (selenium-webdriver);
//   never a downloaded browser. Both draw WebGL2 only with an X display: run under
//   `xvfb-run -a` (scripts/test.sh). Headless Firefox refuses WebGL2 without one, and
//   MiniBrowser does not start.
// - serveWatched(): dist/ with a watch script put first into each of its pages (WebKitWebDriver
//   has no console events nor init scripts; one way for both engines).

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { Builder } from 'selenium-webdriver';
import { decodePng, distDir, serve } from '../browser/helpers.mjs';

export const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = process.env.MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
export const VIEWPORT = { width: 1280, height: 800 };

/**
 * Runs first in every served page: records uncaught errors, rejections, failed loads, CSP
 * refusals and the page's console errors and warnings in window.__problems.
 */
const WATCH_SCRIPT = `(() => {
  const problems = (window.__problems = []);
  const say = (text) => problems.push(String(text).slice(0, 600));
  addEventListener('error', (e) => {
    // Not a failure: the spec has an engine report, as an error event, that it kept a resize
    // observation for the next frame (WebKit does on why.html as its flocks start, when layout
    // moves under the observer); no script threw.
    if (/^ResizeObserver loop/.test(e.message)) return;
    if (e.target && e.target !== window) say('failed to load ' + (e.target.src || e.target.href || e.target.localName));
    else say('uncaught ' + e.message + ' at ' + e.filename + ':' + e.lineno);
  }, true);
  addEventListener('unhandledrejection', (e) => say('unhandled rejection: ' + (e.reason && e.reason.stack || e.reason)));
  addEventListener('securitypolicyviolation', (e) => say('CSP refused ' + e.violatedDirective + ' ' + e.blockedURI));
  for (const level of ['error', 'warn']) {
    const original = console[level];
    console[level] = function (...args) {
      say('console.' + level + ': ' + args.map(String).join(' '));
      return original.apply(this, args);
    };
  }
})();`;

/** Every .html under `dir`, as paths from dist/ with a leading slash. */
function htmlPaths(dir, prefix = '/') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return htmlPaths(path.join(dir, entry.name), `${prefix}${entry.name}/`);
    return entry.name.endsWith('.html') ? [`${prefix}${entry.name}`] : [];
  });
}

/** `html` with the watch script as the first thing in its <head>. */
export function watched(html) {
  const at = html.search(/<head[^>]*>/i);
  if (at < 0) throw new Error('watched: a page without <head>');
  const end = html.indexOf('>', at) + 1;
  return `${html.slice(0, end)}\n<script src="/test/engine-watch.js"></script>${html.slice(end)}`;
}

/**
 * dist/ (helpers.mjs `serve`), each of its HTML pages with the watch script, plus `pages`
 * ({ '/test/x.html': html }, its .html watched too). `isolated` as serve's: cross-origin
 * isolated by default, as scripts/serve.sh serves. Returns serve's { url, requests, close, ... }.
 */
export function serveWatched(pages = {}, { isolated = true } = {}) {
  if (!existsSync(path.join(distDir, 'index.html'))) {
    throw new Error(`${distDir}/index.html is missing: run \`trunk build --release --offline\` first`);
  }
  const all = { '/test/engine-watch.js': WATCH_SCRIPT };
  for (const page of htmlPaths(distDir)) all[page] = watched(readFileSync(path.join(distDir, page), 'utf8'));
  all['/'] = all['/index.html'];
  for (const [name, text] of Object.entries(pages)) all[name] = name.endsWith('.html') ? watched(text) : text;
  return serve({ pages: all, isolated });
}

/** A free TCP port on 127.0.0.1 (for WebKitWebDriver). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * The body of a WebDriver execute/async script that runs `fn(...args)` (args as its first
 * argument) and ends with its value or error. Put together here, not eval'd in the page: the
 * pages' CSP allows no eval.
 */
const asyncCall = (fn) => `const done = arguments[arguments.length - 1];
Promise.resolve()
  .then(() => (${fn})(...arguments[0]))
  .then((value) => done({ value: value === undefined ? null : value }), (error) => done({ error: String((error && error.stack) || error) }));`;

/**
 * One engine with one page. Its methods:
 *   goto(url), evaluate(fn, ...args) (fn may be async; args and result JSON-like),
 *   screenshot() (the viewport, a decoded PNG, with its bytes as `.buffer`),
 *   click(x, y) (a real pointer click at CSS px of the viewport), close().
 * `name` is 'firefox' or 'webkit'; `version` the engine's.
 */
export async function launchEngine(name, { env = {} } = {}) {
  if (!process.env.DISPLAY) {
    throw new Error('no X display: run the engine tests under `xvfb-run -a` (WebGL2 needs one in both engines)');
  }
  if (name === 'firefox') return launchFirefox(env);
  if (name === 'webkit') return launchWebKit(env);
  throw new Error(`launchEngine: no engine ${name}`);
}

async function launchFirefox(env) {
  if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} not found: run \`bash scripts/setup.sh\` (installs Debian firefox-esr)`);
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    // Headful on Xvfb's display: headless Firefox has no WebGL2 without a GPU.
    headless: false,
    env: { ...process.env, ...env },
    defaultViewport: VIEWPORT,
    extraPrefsFirefox: {
      // A CI machine has no GPU: keep WebGL on its software path (llvmpipe).
      'webgl.force-enabled': true,
      'browser.shell.checkDefaultBrowser': false,
    },
  });
  const page = await browser.newPage();
  await page.setViewport(VIEWPORT);
  return {
    name: 'firefox',
    version: await browser.version(),
    goto: async (url) => {
      await page.goto(url, { waitUntil: 'load' });
    },
    evaluate: (fn, ...args) => page.evaluate(fn, ...args),
    screenshot: async () => {
      const buffer = Buffer.from(await page.screenshot());
      return Object.assign(decodePng(buffer), { buffer });
    },
    click: (x, y) => page.mouse.click(x, y),
    close: () => browser.close(),
  };
}

async function launchWebKit(env) {
  for (const file of [WEBKIT_DRIVER, MINIBROWSER]) {
    if (!existsSync(file)) throw new Error(`${file} not found: run \`bash scripts/setup.sh\` (installs Debian webkit2gtk-driver)`);
  }
  const port = await freePort();
  // MiniBrowser and its web process take their environment from the driver (say,
  // JSC_useWasmRelaxedSIMD=true for JavaScriptCore's relaxed SIMD).
  const driverProcess = spawn(WEBKIT_DRIVER, [`--port=${port}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...env },
  });
  const exited = new Promise((resolve) => driverProcess.once('exit', resolve));
  let driver;
  try {
    // Until the driver listens (no output to wait for): its first session request may fail.
    for (let tries = 0; ; tries++) {
      try {
        driver = await new Builder()
          .usingServer(`http://127.0.0.1:${port}`)
          .withCapabilities({
            browserName: 'MiniBrowser',
            'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
          })
          .build();
        break;
      } catch (error) {
        if (tries >= 40 || driverProcess.exitCode !== null) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    await driver.manage().setTimeouts({ script: 90_000, pageLoad: 60_000 });
    await driver.manage().window().setRect(VIEWPORT);
  } catch (error) {
    driverProcess.kill();
    throw error;
  }
  const capabilities = await driver.getCapabilities();
  return {
    name: 'webkit',
    version: capabilities.get('browserVersion'),
    goto: (url) => driver.get(url),
    evaluate: async (fn, ...args) => {
      const result = await driver.executeAsyncScript(asyncCall(fn), args);
      if (result?.error) throw new Error(`in the page: ${result.error}`);
      return result?.value;
    },
    screenshot: async () => {
      const buffer = Buffer.from(await driver.takeScreenshot(), 'base64');
      return Object.assign(decodePng(buffer), { buffer });
    },
    click: (x, y) =>
      driver
        .actions()
        .move({ x: Math.round(x), y: Math.round(y), origin: 'viewport' })
        .click()
        .perform(),
    close: async () => {
      await driver.quit().catch(() => {});
      driverProcess.kill();
      await exited;
    },
  };
}

/** Polls `fn(...args)` in the page until it returns something truthy (and returns that), or fails after `timeout` ms saying `what`. */
export async function waitFor(engine, what, fn, args = [], timeout = 60_000) {
  const until = Date.now() + timeout;
  let last;
  for (;;) {
    last = await engine.evaluate(fn, ...args);
    if (last) return last;
    if (Date.now() > until) throw new Error(`${engine.name}: ${what} within ${timeout} ms (last: ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The part of a viewport screenshot under `rect` (CSS px of the viewport: a
 * getBoundingClientRect), as a PNG-like { width, height, data } for helpers.mjs `foreground`.
 */
export function crop(png, rect, innerWidth) {
  const scale = png.width / innerWidth;
  const x0 = Math.max(0, Math.round(rect.left * scale));
  const y0 = Math.max(0, Math.round(rect.top * scale));
  const x1 = Math.min(png.width, Math.round((rect.left + rect.width) * scale));
  const y1 = Math.min(png.height, Math.round((rect.top + rect.height) * scale));
  const width = Math.max(0, x1 - x0);
  const height = Math.max(0, y1 - y0);
  const data = Buffer.alloc(4 * width * height);
  for (let y = 0; y < height; y++) {
    png.data.copy(data, 4 * y * width, 4 * ((y0 + y) * png.width + x0), 4 * ((y0 + y) * png.width + x0 + width));
  }
  return { width, height, data };
}
