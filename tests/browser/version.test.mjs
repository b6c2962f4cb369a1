// The version (issue 14): Cargo.toml's, as the running wasm reports it (`version()`), is
// `BoidsFlock.version` and shows in the full page's footer; CHANGELOG.md has an entry for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, useDistAndBrowser, waitRunning } from './helpers.mjs';
import { cargoVersion } from './package-helpers.mjs';

const env = useDistAndBrowser();
const version = cargoVersion();

test("the page's footer and BoidsFlock.version show Cargo.toml's version", { timeout: 120_000 }, async () => {
  assert.match(version, /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, 'a semantic version');
  const page = await env.browser.newPage();
  await page.goto(env.server.url);
  await waitRunning(page);
  const seen = await page.evaluate(() => ({
    element: customElements.get('boids-flock').version,
    footer: document.querySelector('footer').textContent.trim(),
  }));
  assert.equal(seen.element, version);
  // The footer begins with it (the studio's link follows).
  assert.match(seen.footer, new RegExp(`^boids ${version.replaceAll('.', '\\.')}( ·|$)`));
  await page.close();
});

test('CHANGELOG.md has an entry for the version', () => {
  const changelog = readFileSync(path.join(repoRoot, 'CHANGELOG.md'), 'utf8');
  const first = /^## (\S+)/m.exec(changelog)?.[1];
  assert.equal(first, version, 'the newest entry is this version');
});
