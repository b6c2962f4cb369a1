// The page as `bash scripts/serve.sh` serves it (issue 41): its console is clean. Trunk's
// live-reload script is inline, which the page's own Content Security Policy refused with an
// error on every load; serve.sh now runs trunk without it. This test runs serve.sh itself
// (a release build into a folder of its own, beside the dist/ the other tests read: cargo's
// build is the one `trunk build --release` just made) and opens the page in Chromium.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchBrowser, repoRoot, watchProblems } from './helpers.mjs';
import { CSP_WATCH_SCRIPT } from './embed-helpers.mjs';

/** The build and the server may take minutes on a fresh 2-core machine. */
const STARTUP_MS = 10 * 60_000;

let server;
let browser;
let output = '';
let url;
const dist = mkdtempSync(path.join(tmpdir(), 'boids-serve-'));

/** A port no one listens on now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

before(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}/`;
  server = spawn('bash', ['scripts/serve.sh', '--release', '--dist', dist], {
    cwd: repoRoot,
    env: { ...process.env, BOIDS_PORT: String(port) },
    detached: true, // its own process group: trunk and its children end with it
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk) => {
    output = (output + chunk).slice(-20_000);
  };
  server.stdout.on('data', keep);
  server.stderr.on('data', keep);
  const started = Date.now();
  for (;;) {
    if (server.exitCode != null) throw new Error(`scripts/serve.sh exited (${server.exitCode}):\n${output}`);
    const ok = await fetch(url).then((response) => response.ok, () => false);
    if (ok) break;
    if (Date.now() - started > STARTUP_MS) throw new Error(`scripts/serve.sh served nothing in ${STARTUP_MS / 1000} s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  browser = await launchBrowser();
}, { timeout: STARTUP_MS + 60_000 });

after(async () => {
  await browser?.close();
  if (server?.exitCode == null) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  rmSync(dist, { recursive: true, force: true });
});

test('the page scripts/serve.sh serves runs with a clean console: no CSP error, no error at all', { timeout: 120_000 }, async () => {
  const page = await browser.newPage();
  await page.addInitScript(CSP_WATCH_SCRIPT);
  const { problems } = watchProblems(page);
  const response = await page.goto(url);
  assert.equal(response.headers()['cross-origin-opener-policy'], 'same-origin', 'served with the isolation headers');
  await page.waitForFunction(() => document.documentElement.dataset.boids === 'running', null, { timeout: 60_000 });
  await page.waitForTimeout(2000); // a late script, a late error
  const csp = await page.evaluate(() => window.__csp);
  assert.deepEqual(csp, [], 'Content-Security-Policy violations');
  assert.deepEqual(problems, [], 'console errors, page errors, failed requests');
  assert.equal(await page.evaluate(() => window.crossOriginIsolated), true);
  await page.close();
});
