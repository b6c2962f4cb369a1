// Size budget of the release build (issue 5): the whole dist/ at most 250 KB gzipped, the
// wasm at most 150 KB gzipped (each of the two builds: a browser loads one), file by file with zlib at level 9 (which comes out a few per
// cent larger than GNU `gzip -9`, so the check errs on the safe side).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { distDir } from './helpers.mjs';

const KB = 1000;

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? files(file) : [file];
  });
}

test('dist/ fits the size budget', () => {
  const sizes = files(distDir).map((file) => ({
    file: path.relative(distDir, file),
    gz: gzipSync(readFileSync(file), { level: 9 }).length,
  }));
  const wasm = sizes.filter((s) => s.file.endsWith('.wasm'));
  assert.deepEqual(wasm.map((s) => s.file).sort(), ['boids_bg.wasm', 'boids_relaxed_bg.wasm'], 'the two builds');
  const total = sizes.reduce((sum, s) => sum + s.gz, 0);
  const each = wasm.map((s) => `${s.file} ${(s.gz / KB).toFixed(1)} KB`).join(', ');
  console.log(`# wasm ${each} gzipped, dist/ ${(total / KB).toFixed(1)} KB gzipped (${sizes.length} files)`);
  for (const { file, gz } of wasm) {
    assert.ok(gz <= 150 * KB, `${file} is ${gz} bytes gzipped (limit 150 KB)`);
  }
  assert.ok(total <= 250 * KB, `dist/ is ${total} bytes gzipped (limit 250 KB)`);
});
