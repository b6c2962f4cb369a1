// Helpers for the npm package and iframe-bridge tests (not a test file: `node --test` runs only
// *.test.mjs).
//
// - packTarball(): scripts/package.sh --no-build on the dist/ there is; the tarball's path
// - installTarball(): `npm install <tarball>` into an empty temporary folder (offline)
// - recipe(): a code block of docs/embedding.md, so that the docs' recipes are what is tested

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodePng, foreground, repoRoot, saveArtifact } from './helpers.mjs';

/** Cargo.toml's version: the one the package, the footer and BoidsFlock.version must show. */
export function cargoVersion() {
  const toml = readFileSync(path.join(repoRoot, 'Cargo.toml'), 'utf8');
  return /^version = "([^"]+)"/m.exec(toml)[1];
}

/** Packs dist/ (scripts/package.sh --no-build) and returns the tarball's absolute path. */
export function packTarball() {
  execFileSync('bash', ['scripts/package.sh', '--no-build'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  const name = JSON.parse(readFileSync(path.join(repoRoot, 'npm', 'package.json'), 'utf8')).name;
  const tarball = path.join(repoRoot, 'target', 'npm', `${name}-${cargoVersion()}.tgz`);
  if (!existsSync(tarball)) throw new Error(`scripts/package.sh wrote no ${tarball}`);
  return tarball;
}

/** Installs `tarball` into a new empty folder, as a teacher's `npm install` would; its path. */
export function installTarball(tarball) {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'boids-install-'));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], {
    cwd: folder,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return folder;
}

/**
 * The fenced code block that follows `<!-- recipe: name -->` in docs/embedding.md: the text a
 * teacher copies, which the tests then run (with the placeholders' hosts swapped for the
 * test servers').
 */
export function recipe(name) {
  const docs = readFileSync(path.join(repoRoot, 'docs', 'embedding.md'), 'utf8');
  const marker = `<!-- recipe: ${name} -->`;
  const at = docs.indexOf(marker);
  if (at < 0) throw new Error(`docs/embedding.md has no ${marker}`);
  const block = /```[a-z]*\n([\s\S]*?)```/.exec(docs.slice(at));
  if (!block) throw new Error(`no code block after ${marker}`);
  return block[1];
}

/** Placeholders the recipes use for the package's home, a teacher's site and a platform. */
export const PLACEHOLDERS = {
  cdn: /https:\/\/cdn\.jsdelivr\.net\/npm\/boids-flock@[0-9.]+\//g,
  site: /https:\/\/your\.site\/boids-flock\//g,
  platform: /https:\/\/moodle\.your-school\.edu/g,
};

/**
 * Fraction of the first <boids-flock>'s canvas that stands out from the stage behind it
 * (helpers.mjs `foreground`): cones. Everything else on the stage (hints, buttons) is hidden
 * first, through the CSSOM, which a strict CSP allows.
 */
export async function drawnFraction(page, name) {
  await page.evaluate(() => {
    const canvas = document.querySelector('boids-flock canvas');
    for (const node of canvas.parentElement.children) if (node !== canvas) node.style.visibility = 'hidden';
  });
  // The canvas's box on the page (a clip, so that a hidden canvas still gives the stage behind).
  const box = await page.evaluate(() => {
    const { x, y, width, height } = document.querySelector('boids-flock canvas').getBoundingClientRect();
    return { x, y, width, height };
  });
  const buffer = await page.screenshot({ clip: box });
  saveArtifact(`package-${name}.png`, buffer);
  return foreground(decodePng(buffer));
}
