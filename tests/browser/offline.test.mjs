// Offline after the first visit (issue 45): the full page's service worker (dist/coi-sw.js,
// registered by www/core/isolate.js once the flock runs) precaches every file of dist/ in a
// cache named by the build's version (scripts/offline-manifest.mjs writes the list and the
// version into the worker), and answers the site's GETs from it. So, once visited, the page
// and its lessons open with no network. A new deployment is a new worker: it installs beside
// the old one and the page says "A new version is ready", whose Reload loads the new files.
// Each test serves its own copy of dist/ (the update test rewrites files in it).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { artifactsDir, distDir, launchBrowser, serve, waitRunning, watchProblems } from './helpers.mjs';
import { readOfflineManifest } from '../../scripts/offline-manifest.mjs';

const env = { dirs: [] };
before(async () => {
  env.browser = await launchBrowser();
});
after(async () => {
  await env.browser?.close();
  for (const dir of env.dirs) rmSync(dir, { recursive: true, force: true });
});

/** A copy of dist/ in a folder of its own, served (isolated, as the tests' default). */
async function serveCopy() {
  const dir = mkdtempSync(path.join(tmpdir(), 'boids-offline-'));
  env.dirs.push(dir);
  cpSync(distDir, dir, { recursive: true });
  return { dir, server: await serve({ root: dir }) };
}

/**
 * Waits until the page's worker is active and this version's cache holds every listed file.
 * Polled from here: page.waitForFunction takes a predicate's Promise for a truthy answer, so an
 * async predicate would return at once, before the cache is full (it did: 47 of 141 files).
 */
async function waitCached(page, { version, files }) {
  const name = `boids-offline-${version}`;
  const deadline = Date.now() + 60_000;
  let held = 0;
  while (held < files.length) {
    if (Date.now() > deadline) throw new Error(`the offline cache holds ${held} of ${files.length} files after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    held = await page.evaluate(async (cache) => {
      if (!(await navigator.serviceWorker.getRegistration())?.active) return 0;
      if (!(await caches.keys()).includes(cache)) return 0;
      return (await (await caches.open(cache)).keys()).length;
    }, name);
  }
}

test('the build lists every file of dist/ but the worker, with a version', () => {
  const { version, files } = readOfflineManifest(distDir);
  assert.match(version, /^[0-9a-f]{16}$/);
  for (const file of ['index.html', 'boids.js', 'boids_bg.wasm', 'boids_relaxed_bg.wasm.patch', 'www/app.js', 'embed.html', 'studio.html', 'examples/lesson.html', 'boids_worker.js', 'boids_worker_bg.wasm', 'www/core/update-notice.js']) {
    assert.ok(files.includes(file), file);
  }
  assert.ok(files.some((f) => /^www\/data\/.+\.gz$/.test(f)), 'the recordings');
  assert.ok(!files.includes('coi-sw.js'));
});

test('once visited, the page and a lesson open with no network', { timeout: 180_000 }, async () => {
  const { dir, server } = await serveCopy();
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const { pageErrors } = watchProblems(page);
  await page.goto(server.url);
  await waitRunning(page);
  await waitCached(page, readOfflineManifest(dir));
  const before = server.requests.length;
  await context.setOffline(true);
  server.close();
  await page.reload();
  await waitRunning(page).catch(async (error) => {
    throw new Error(`${error.message}: ${await page.locator('#message').textContent().catch(() => '')} ${JSON.stringify(pageErrors)}`);
  });
  const state = await page.evaluate(() => ({ controlled: Boolean(navigator.serviceWorker.controller), isolated: window.crossOriginIsolated }));
  assert.deepEqual(state, { controlled: true, isolated: true }, 'served by the worker, with the isolation headers');
  await page.goto(`${server.url}examples/lesson.html?lang=uk`);
  await page.waitForFunction(() => [...document.querySelectorAll('boids-flock')].some((el) => el.dataset.state === 'running'), null, { timeout: 60_000 });
  assert.equal(server.requests.length, before, 'nothing reached the server once offline');
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test('a new deployment: "A new version is ready", and Reload loads it', { timeout: 180_000 }, async () => {
  const { dir, server } = await serveCopy();
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const { pageErrors } = watchProblems(page);
  await page.goto(`${server.url}?lang=pl`);
  await waitRunning(page);
  const old = readOfflineManifest(dir);
  await waitCached(page, old);
  // Deploy: a changed page, so a new version in the worker (as the build would write it).
  const index = path.join(dir, 'index.html');
  writeFileSync(index, readFileSync(index, 'utf8').replace('</body>', '<p id="deployed">v2</p></body>'));
  const worker = path.join(dir, 'coi-sw.js');
  const next = 'f'.repeat(16);
  writeFileSync(worker, readFileSync(worker, 'utf8').replace(`"version":"${old.version}"`, `"version":"${next}"`));
  // Reloads are still served by the old version until the reader chooses.
  await page.reload();
  await waitRunning(page);
  assert.equal(await page.locator('#deployed').count(), 0, 'the old version, from its cache');
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
  const notice = page.locator('#update-notice[role="status"]');
  await notice.waitFor({ timeout: 60_000 });
  assert.match(await notice.textContent(), /^Nowa wersja jest gotowa\. Odśwież$/);
  await page.screenshot({ path: path.join(artifactsDir, 'offline-update-pl.png') });
  await Promise.all([page.waitForEvent('load'), notice.getByRole('button').click()]);
  await page.locator('#deployed').waitFor({ timeout: 30_000 });
  await waitRunning(page);
  assert.deepEqual(await page.evaluate(() => caches.keys()), [`boids-offline-${next}`], 'the old cache is gone');
  assert.deepEqual(pageErrors, []);
  await context.close();
  await server.close();
});
