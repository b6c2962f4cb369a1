// Shared helpers for the browser tests (not a test file: `node --test` runs only *.test.mjs).
//
// - serve(): the tests' one static server (dist/ or any folder, in-memory pages, CSP, CORS)
// - launchBrowser(): Debian's chromium through playwright-core (never a downloaded browser)
// - GL_COUNTER_SCRIPT: an init script that counts WebGL2 calls per animation frame
// - PNG helpers: decode a screenshot, compare it with its background or with another one

import { after, before } from 'node:test';
import { createServer } from 'node:http';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');
// BOIDS_DIST points the tests at another build (e.g. to check that they fail on a broken one).
export const distDir = path.resolve(process.env.BOIDS_DIST ?? path.join(repoRoot, 'dist'));
export const artifactsDir = path.join(here, 'artifacts');

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/**
 * The tests' one static server, on 127.0.0.1:<random port>: the files of `root` (dist/ by
 * default; null: `pages` only) and in-memory `pages` ({ '/test/x.html': text }). `csp` adds a
 * Content-Security-Policy header to every response; `cors` adds
 * `Access-Control-Allow-Origin: *`, as CDNs that serve npm packages do. `isolated` (the
 * default, as `trunk serve` and scripts/serve.sh serve: Trunk.toml) makes its pages
 * cross-origin isolated, as the threaded step needs (issue 30): COOP `same-origin` and COEP
 * `require-corp` on every response, and CORP `cross-origin`, so that a test's page on another
 * of these servers (another origin) may still embed what this one serves; `isolated: false`
 * is a static host that sends none of them (GitHub Pages, a teacher's page). Records every
 * request as { path, status } (not the browser's own /favicon.ico, answered 204 when there is
 * no such file). Returns { url, origin, requests, close }; `url` ends with `/`.
 */
export async function serve({ root = distDir, pages = {}, csp = null, cors = false, isolated = true } = {}) {
  if (root === distDir && !existsSync(path.join(root, 'index.html'))) {
    throw new Error(`${root}/index.html is missing: run \`trunk build --release --offline\` first`);
  }
  const requests = [];
  const type = (name) => MIME[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
  const server = createServer((req, res) => {
    // How it was asked (the browser's Sec-Fetch-Mode): 'navigate' for a page's load, also
    // when a service worker passes it on; 'cors', 'no-cors', 'same-origin' for the rest (the
    // offline copy's precache among them).
    const mode = req.headers['sec-fetch-mode'];
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    const headers = { 'cache-control': 'no-store' };
    if (csp) headers['content-security-policy'] = csp;
    if (cors) headers['access-control-allow-origin'] = '*';
    if (isolated) {
      headers['cross-origin-opener-policy'] = 'same-origin';
      headers['cross-origin-embedder-policy'] = 'require-corp';
      headers['cross-origin-resource-policy'] = 'cross-origin';
    }
    if (pages[pathname] != null) {
      requests.push({ path: pathname, status: 200, mode });
      // A page's type by its name; a page named without an extension is HTML.
      const pageType = MIME[path.extname(pathname).toLowerCase()] ?? 'text/html; charset=utf-8';
      res.writeHead(200, { ...headers, 'content-type': pageType }).end(pages[pathname]);
      return;
    }
    const file = root && path.join(root, pathname.endsWith('/') ? `${pathname}index.html` : pathname);
    if (!file || !file.startsWith(root + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      if (pathname === '/favicon.ico') {
        res.writeHead(204, headers).end();
        return;
      }
      requests.push({ path: pathname, status: 404, mode });
      res.writeHead(404, { ...headers, 'content-type': 'text/plain' }).end('not found');
      return;
    }
    requests.push({ path: pathname, status: 200, mode });
    res.writeHead(200, { ...headers, 'content-type': type(file) }).end(readFileSync(file));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  const origin = `http://127.0.0.1:${port}`;
  return { url: `${origin}/`, origin, requests, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * Sets the range input `#param-<name>` like a user dragging it would (input, then change
 * events) and returns the value the input settled on.
 */
export function slide(page, name, value) {
  return page.evaluate(
    ([name, value]) => {
      const el = document.getElementById(`param-${name}`);
      el.value = String(value);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
      return el.value;
    },
    [name, value],
  );
}

/** Path of Debian's chromium (or $CHROMIUM). */
/**
 * Serves dist/ and starts Chromium before a test file's tests, and stops both after them.
 * `const env = useDistAndBrowser();` at the top of a file, then `env.server.url` and
 * `env.browser.newPage()` inside its tests. `serveOptions` go to `serve`.
 */
export function useDistAndBrowser(serveOptions = {}) {
  const env = {};
  before(async () => {
    env.server = await serve(serveOptions);
    env.browser = await launchBrowser();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

export function chromiumPath() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('chromium not found: run `bash scripts/setup.sh` (installs Debian chromium)');
  }
}

/** Headless Debian chromium. WebGL2 runs on SwiftShader (software) when there is no GPU. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--no-default-browser-check',
      // Keeps software WebGL (SwiftShader) allowed on machines without a GPU.
      '--enable-unsafe-swiftshader',
    ],
  });
}

/**
 * Records every console error, page error, failed request and HTTP status >= 400 of a page.
 * Returns { problems, pageErrors } arrays that fill up as the page runs.
 */
export function watchProblems(page) {
  const problems = [];
  const pageErrors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console.error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => {
    pageErrors.push(String(err));
    problems.push(`pageerror: ${err}`);
  });
  page.on('requestfailed', (req) => {
    const error = req.failure()?.errorText;
    // Cancelled, not failed: a reload or a navigation drops what the page still had in
    // flight (the favicon, under load), and a missing file answers 404 (below) instead.
    if (error === 'net::ERR_ABORTED') return;
    problems.push(`request failed: ${req.url()} (${error})`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  return { problems, pageErrors };
}

/** Waits until <html data-boids> is "running" (or fails with what it is instead). */
/**
 * Opens the test's blank page (`/test/blank.html`, which it serves through
 * `useDistAndBrowser({ pages })`) with the SIMD128 module loaded: its exports as
 * `window.boids`, its memory as `window.memory`. Returns the page and what `watchProblems`
 * watches.
 */
export async function openModule(env) {
  const page = await env.browser.newPage();
  const watched = watchProblems(page);
  await page.goto(`${env.server.url}test/blank.html`);
  await page.evaluate(async () => {
    const bindings = await import('/boids.js');
    const wasm = await bindings.default({ module_or_path: '/boids_bg.wasm' });
    window.boids = bindings;
    window.memory = wasm.memory;
  });
  return { page, ...watched };
}

export async function waitRunning(page, timeout = 60_000) {
  try {
    await page.waitForFunction(() => document.documentElement.dataset.boids === 'running', null, {
      timeout,
    });
  } catch (err) {
    const state = await page.evaluate(() => document.documentElement.dataset.boids).catch(() => '?');
    throw new Error(`page never reached data-boids="running" (it is ${JSON.stringify(state)}): ${err.message}`);
  }
}

/** Waits n animation frames (through the unwrapped requestAnimationFrame). */
export function waitFrames(page, n) {
  return page.evaluate(
    (n) =>
      new Promise((resolve) => {
        const raf = window.__glCount?.originalRaf ?? window.requestAnimationFrame.bind(window);
        let k = 0;
        const tick = () => (++k >= n ? resolve() : raf(tick));
        raf(tick);
      }),
    n,
  );
}

/**
 * Init script (page.addInitScript): wraps WebGL2RenderingContext's draw and buffer calls and
 * window.requestAnimationFrame, and records per animation frame (frames are told apart by the
 * rAF timestamp) the instance count of every instanced draw and how many
 * drawArrays / drawElements / bufferData / bufferSubData calls were made. Calls made outside
 * any rAF callback are counted in `outside`.
 *
 * window.__glCount.take() returns the finished frames since the last take() and clears them.
 */
export const GL_COUNTER_SCRIPT = `(() => {
  if (window.__glCount || typeof WebGL2RenderingContext === 'undefined') return;
  const fresh = (ts) => ({ ts, instanced: [], drawArrays: 0, drawElements: 0, bufferData: 0, bufferSubData: 0 });
  const originalRaf = window.requestAnimationFrame.bind(window);
  const state = {
    originalRaf,
    frames: [],
    current: null,
    outside: fresh(null),
    inFrame: false,
    take() {
      const frames = state.frames;
      state.frames = [];
      return frames;
    },
  };
  window.__glCount = state;
  window.requestAnimationFrame = function (callback) {
    return originalRaf((ts) => {
      if (!state.current || state.current.ts !== ts) {
        if (state.current) {
          state.frames.push(state.current);
          if (state.frames.length > 1000) state.frames.shift();
        }
        state.current = fresh(ts);
      }
      state.inFrame = true;
      try {
        return callback(ts);
      } finally {
        state.inFrame = false;
      }
    });
  };
  const bucket = () => (state.inFrame && state.current ? state.current : state.outside);
  const proto = WebGL2RenderingContext.prototype;
  const wrap = (name, record) => {
    const original = proto[name];
    proto[name] = function (...args) {
      record(bucket(), args);
      return original.apply(this, args);
    };
  };
  wrap('drawArraysInstanced', (b, a) => b.instanced.push(a[3]));
  wrap('drawElementsInstanced', (b, a) => b.instanced.push(a[4]));
  wrap('drawArrays', (b) => b.drawArrays++);
  wrap('drawElements', (b) => b.drawElements++);
  wrap('bufferData', (b) => b.bufferData++);
  wrap('bufferSubData', (b) => b.bufferSubData++);
})();`;

/**
 * Finished GL frames recorded over the next `n` animation frames. Throws when none was: a
 * check made on each frame of an empty list would pass whatever the page drew.
 */
export async function recordFrames(page, n) {
  await page.evaluate(() => window.__glCount.take());
  await waitFrames(page, n);
  const frames = await page.evaluate(() => window.__glCount.take());
  if (frames.length === 0) throw new Error(`no frame was drawn in ${n} animation frames`);
  return frames;
}

/** Reads window.flock.positions() as a plain array. */
export function positions(page) {
  return page.evaluate(() => Array.from(window.flock.positions()));
}

/**
 * Whether two lists of numbers are equal, value for value. Throws on two empty lists: "stays
 * put" on a flock with no boids would hold for a page that lost them all.
 */
export function sameArrays(a, b) {
  if (a.length === 0 && b.length === 0) throw new Error('sameArrays: both lists are empty (no boids?)');
  return a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
}

// ---- screenshots ------------------------------------------------------------------------

export function saveArtifact(name, buffer) {
  mkdirSync(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, name);
  writeFileSync(file, buffer);
  return file;
}

/**
 * Screenshot of the canvas alone: everything else in #stage (readouts, hints) is hidden so
 * that only what WebGL drew is compared. Saved as an artifact; returns the decoded PNG.
 */
export async function canvasShot(page, name) {
  await page.evaluate(() => {
    if (document.getElementById('__test-hide-overlays')) return;
    const style = document.createElement('style');
    style.id = '__test-hide-overlays';
    style.textContent = '#stage > :not(#view) { visibility: hidden !important; }';
    document.head.append(style);
  });
  const buffer = await page.locator('#view').screenshot();
  saveArtifact(name, buffer);
  return decodePng(buffer);
}

export function decodePng(buffer) {
  return PNG.sync.read(buffer);
}

const pixel = (png, i) => [png.data[4 * i], png.data[4 * i + 1], png.data[4 * i + 2]];
const distance = (a, b) => Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));

/**
 * Fraction of a screenshot's pixels that stand out from the background. The background may be
 * a gradient, so it is estimated per `block`×`block` tile as the tile's per-channel median; a
 * pixel is foreground when some channel differs from its tile's median by more than
 * `tolerance`. (Tiles packed with cones count their stray background pixels as foreground;
 * good enough to tell "cones drawn" from "empty".)
 */
export function foreground(png, { tolerance = 24, block = 32 } = {}) {
  const { width, height, data } = png;
  let differing = 0;
  for (let by = 0; by < height; by += block) {
    for (let bx = 0; bx < width; bx += block) {
      const tile = [];
      for (let y = by; y < Math.min(height, by + block); y++) {
        for (let x = bx; x < Math.min(width, bx + block); x++) tile.push(y * width + x);
      }
      const median = [0, 1, 2].map((c) => {
        const values = tile.map((i) => data[4 * i + c]).sort((a, b) => a - b);
        return values[values.length >> 1];
      });
      for (const i of tile) if (distance(pixel(png, i), median) > tolerance) differing++;
    }
  }
  return differing / (width * height);
}

/**
 * Fraction of pixels that differ (by more than `tolerance`) between two same-sized PNGs.
 * Throws on two sizes: "the picture changed" must not pass because a canvas was resized.
 */
export function difference(a, b, tolerance = 24) {
  if (a.width !== b.width || a.height !== b.height) {
    throw new Error(`difference: ${a.width}×${a.height} vs ${b.width}×${b.height}: not the same picture size`);
  }
  const n = a.width * a.height;
  let differing = 0;
  for (let i = 0; i < n; i++) if (distance(pixel(a, i), pixel(b, i)) > tolerance) differing++;
  return differing / n;
}

/**
 * A point near (x, y) of a flock's canvas (CSS px from its top-left corner) with no cone
 * within `clear` CSS px: a click there adds an obstacle rather than selecting a boid. The
 * flock is `element`'s (a selector), else the page's `window.flock` and `window.view`.
 */
export function clearSpot(page, x, y, { element = null, clear = 10 } = {}) {
  return page.evaluate(
    ([x, y, element, clear]) => {
      const el = element ? document.querySelector(element) : null;
      const flock = el ? el.flock : window.flock;
      const view = el ? el.view : window.view;
      const p = flock.positions();
      const points = [];
      for (let i = 0; i < p.length; i += 3) {
        const at = view.cssPointOf(flock, p[i], p[i + 1], p[i + 2]);
        if (at) points.push(at);
      }
      const free = (cx, cy) => points.every(([px, py]) => Math.hypot(px - cx, py - cy) > clear);
      for (let r = 0; r <= 80; r += 3) {
        const around = Math.max(1, 2 * r);
        for (let k = 0; k < around; k++) {
          const angle = (2 * Math.PI * k) / around;
          const cx = Math.round(x + r * Math.cos(angle));
          const cy = Math.round(y + r * Math.sin(angle));
          if (free(cx, cy)) return { x: cx, y: cy };
        }
      }
      return { x, y };
    },
    [x, y, element, clear],
  );
}
