// Cross-origin isolation (issue 30): SharedArrayBuffer, and so the threaded step, needs a page
// served with COOP `same-origin` and COEP `require-corp`. A server that sends them (trunk
// serve, scripts/serve.sh: Trunk.toml; the tests' default server) makes the page isolated at
// once. A static host that cannot (GitHub Pages: `isolated: false` here) gets there through
// the full page's service worker (www/core/isolate.js registers dist/coi-sw.js, which adds the
// headers) and one reload; `?threads=1` asks for none of it, and an embed — a <boids-flock>
// or embed.html on someone else's page — never registers a worker or reloads its host.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { distDir, launchBrowser, serve, waitRunning, watchProblems } from './helpers.mjs';
import { TEST_CSS, testPage, waitFlocks } from './embed-helpers.mjs';

/** A teacher's page on a host that sends no isolation headers: the element and the iframe. */
const pages = {
  '/test/test.css': TEST_CSS,
  // Side by side, both in view: a flock starts when it is scrolled into view.
  '/test/host.html': testPage(`
    <div class="row">
      <boids-flock id="guest" count="80" controls="cohesion"></boids-flock>
      <iframe id="frame" src="/embed.html?count=80" title="Boids" width="480" height="320"></iframe>
    </div>`),
};

const env = {};
before(async () => {
  env.isolated = await serve({ pages });
  env.plain = await serve({ pages, isolated: false });
  env.browser = await launchBrowser();
});
after(async () => {
  await env.browser?.close();
  await env.isolated?.close();
  await env.plain?.close();
});

/**
 * A page in a context of its own (its own service workers and session storage), with what went
 * wrong. A reload aborts the first load's requests (the wasm it was fetching): watchProblems
 * counts no `net::ERR_ABORTED`, which is that, not a failure. Loads are counted at the server, as fetches of
 * the page's HTML (sent with no-store: none comes from a cache; the browser's `load` events
 * would miss a reload made before the first load ended, `framenavigated` counts url="sync"'s
 * history.replaceState).
 */
async function open() {
  const page = await env.browser.newPage();
  const { problems, pageErrors } = watchProblems(page);
  const failures = () => problems;
  return { page, failures, pageErrors };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check()` holds, polling from here (a page that reloads loses waitForFunction). */
async function until(check, what, timeout = 30_000) {
  const end = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** What a page (or frame) says about its isolation and its service workers. */
function isolation(target) {
  return target.evaluate(async () => ({
    isolated: window.crossOriginIsolated,
    sab: typeof SharedArrayBuffer,
    controlled: Boolean(navigator.serviceWorker?.controller),
    workers: (await navigator.serviceWorker.getRegistrations()).map((r) => ({
      scope: r.scope,
      script: (r.active ?? r.waiting ?? r.installing)?.scriptURL,
    })),
  }));
}

/**
 * How many times `server` served `file` as a page's load (its HTML, sent with no-store: none
 * from the HTTP cache; the offline copy's precache fetches it too, but not as a navigation).
 */
const times = (server, file) => server.requests.filter((r) => r.path === file && r.mode === 'navigate').length;
const served = (server, file) => server.requests.some((r) => r.path === file);

test('dist/: the service worker at the root (it must control index.html), none left in www/', () => {
  assert.ok(existsSync(path.join(distDir, 'coi-sw.js')), 'dist/coi-sw.js');
  assert.ok(!existsSync(path.join(distDir, 'www', 'core', 'coi-sw.js')), 'no dist/www/core/coi-sw.js');
  assert.ok(existsSync(path.join(distDir, 'www', 'core', 'isolate.js')), 'dist/www/core/isolate.js');
});

test('served with COOP and COEP (the default, as scripts/serve.sh), the page is isolated at once', async () => {
  env.isolated.requests.length = 0;
  const { page, failures, pageErrors } = await open();
  const response = await page.goto(env.isolated.url);
  assert.equal(response.headers()['cross-origin-opener-policy'], 'same-origin');
  assert.equal(response.headers()['cross-origin-embedder-policy'], 'require-corp');
  await waitRunning(page);
  const state = await isolation(page);
  assert.equal(state.isolated, true, 'crossOriginIsolated');
  assert.equal(state.sab, 'function', 'SharedArrayBuffer is there');
  assert.equal(state.controlled, false, 'the headers came from the server, not the worker');
  assert.equal(times(env.isolated, '/'), 1, 'no reload');
  // The offline copy's worker (issue 45) still registers, once the flock runs; no reload.
  await until(() => served(env.isolated, '/coi-sw.js'), 'the offline worker');
  await sleep(1000);
  assert.equal(times(env.isolated, '/'), 1, 'still no reload');
  assert.deepEqual([...failures(), ...pageErrors], []);
  await page.context().close();
});

test('on a host without the headers, the page installs the worker, reloads once, and is isolated', async () => {
  env.plain.requests.length = 0;
  const { page, failures, pageErrors } = await open();
  await page.goto(env.plain.url);
  await until(() => times(env.plain, '/') >= 2, 'the reload');
  await page.waitForLoadState('load');
  await waitRunning(page);
  // Time for a second reload, were there one.
  await sleep(2000);
  assert.equal(times(env.plain, '/'), 2, 'one reload, no more');
  const state = await isolation(page);
  assert.equal(state.isolated, true, 'crossOriginIsolated after the reload');
  assert.equal(state.sab, 'function');
  assert.equal(state.controlled, true, 'the worker controls the page');
  assert.deepEqual(state.workers, [{ scope: env.plain.url, script: `${env.plain.url}coi-sw.js` }], "dist/'s root is its scope");
  assert.ok(served(env.plain, '/coi-sw.js'), 'the worker came from the server (stripped, in a release build)');

  // Later loads come through the worker (from the offline copy once it is cached, so the
  // server may not see them): isolated, and no reload of its own (the mark stays).
  await page.reload();
  await waitRunning(page);
  await page.evaluate(() => (window.reloadedByHand = true));
  await sleep(1000);
  assert.equal(await page.evaluate(() => window.reloadedByHand), true, 'a reload by hand, and none of its own');
  assert.equal((await isolation(page)).isolated, true);
  assert.deepEqual([...failures(), ...pageErrors], []);
  await page.context().close();
});

test('?threads=1 on a host without the headers: no reload, one thread (the offline worker still registers)', async () => {
  env.plain.requests.length = 0;
  const { page, failures, pageErrors } = await open();
  await page.goto(`${env.plain.url}index.html?threads=1`);
  await waitRunning(page);
  await sleep(2000);
  const state = await isolation(page);
  assert.equal(state.isolated, false);
  assert.equal(state.workers.length, 1, 'the offline copy\'s worker');
  assert.equal(state.controlled, false, 'not claimed: the page is not reloaded into it');
  assert.equal(times(env.plain, '/index.html'), 1, 'no reload');
  assert.deepEqual([...failures(), ...pageErrors], []);
  await page.context().close();
});

test('?offline=0: no worker at all, and none left from before', async () => {
  env.plain.requests.length = 0;
  const { page, failures, pageErrors } = await open();
  await page.goto(`${env.plain.url}index.html?threads=1`);
  await waitRunning(page);
  await until(async () => (await isolation(page)).workers.length === 1, 'the worker');
  await page.goto(`${env.plain.url}index.html?offline=0`);
  await waitRunning(page);
  await page.evaluate(() => (window.loadedOnce = true));
  await until(async () => (await isolation(page)).workers.length === 0, 'the worker removed');
  // Its cache too, though the worker was still filling it when the page asked (it stops first).
  await sleep(1000);
  assert.deepEqual(await page.evaluate(() => caches.keys()), [], 'its cache removed');
  assert.equal(await page.evaluate(() => window.loadedOnce), true, 'no reload');
  assert.deepEqual([...failures(), ...pageErrors], []);
  await page.context().close();
});

test("an embed on a host page without the headers never registers a worker or reloads its host", async () => {
  env.plain.requests.length = 0;
  const { page, failures, pageErrors } = await open();
  await page.goto(`${env.plain.url}test/host.html`);
  await waitFlocks(page, '#guest');
  const frame = page.frame({ url: /\/embed\.html/ });
  await waitRunning(frame);
  await sleep(2000);
  for (const [name, target] of [['the host page', page], ['embed.html in its iframe', frame]]) {
    const state = await isolation(target);
    assert.equal(state.isolated, false, `${name}: not isolated (it runs on one thread)`);
    assert.deepEqual(state.workers, [], `${name}: no service worker registered`);
    assert.equal(state.controlled, false, `${name}: no worker in control`);
  }
  assert.equal(times(env.plain, '/test/host.html'), 1, 'the host page never reloaded');
  assert.equal(times(env.plain, '/embed.html'), 1, 'the iframe was fetched once: it never reloaded');
  assert.ok(!served(env.plain, '/coi-sw.js'), 'the worker was never fetched');
  assert.ok(!served(env.plain, '/www/core/isolate.js'), "isolate.js is the full page's alone");
  assert.deepEqual([...failures(), ...pageErrors], []);
  await page.context().close();
});
