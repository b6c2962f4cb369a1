// The patch that ships the relaxed-SIMD build (www/core/wasm-patch.js applies it, scripts/
// wasm-patch.mjs makes it): round trips on edited buffers, refusals of a wrong base and of
// damaged patches, and dist/'s own patch, which must make a relaxed-SIMD module of
// dist/boids_bg.wasm. Plain Node: no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { applyPatch } from '../../www/core/wasm-patch.js';
import { makePatch } from '../../scripts/wasm-patch.mjs';
import { distDir } from './helpers.mjs';

/** A deterministic pseudo-random buffer (xorshift32). */
function noise(length, seed) {
  const out = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 255;
  }
  return out;
}

/** `base` with a few stretches replaced, inserted and cut out, as a second build would. */
function edited(base) {
  const parts = [base.subarray(0, 1000), noise(40, 7), base.subarray(1000, 20_000)];
  parts.push(base.subarray(20_300, 35_000), noise(3, 9), base.subarray(35_010, 60_000), noise(700, 11));
  parts.push(base.subarray(12_000, 13_000)); // a run copied from earlier
  parts.push(base.subarray(60_000, 60_100), noise(5, 13), base.subarray(60_105)); // 5 bytes changed
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

test('a patch gives back the target, and is small when the two are alike', () => {
  const base = noise(80_000, 1);
  const target = edited(base);
  const patch = makePatch(base, target);
  assert.deepEqual(applyPatch(base, patch), target);
  // The new bytes (748) and a few copies, not the 80 KB.
  assert.ok(patch.length < 1_000, `patch ${patch.length} bytes`);
  // Unrelated buffers still round-trip (as new bytes), and so do empty ones.
  const other = noise(5_000, 2);
  assert.deepEqual(applyPatch(base, makePatch(base, other)), other);
  assert.deepEqual(applyPatch(base, makePatch(base, new Uint8Array(0))), new Uint8Array(0));
  assert.deepEqual(applyPatch(new Uint8Array(0), makePatch(new Uint8Array(0), other)), other);
});

test('a patch refuses another base and damage, with a message', () => {
  const base = noise(30_000, 3);
  const target = edited(noise(70_000, 3)).subarray(0, 40_000);
  const patch = makePatch(base, target);
  assert.deepEqual(applyPatch(base, patch), target);
  const other = base.slice();
  other[100] ^= 1;
  assert.throws(() => applyPatch(other, patch), /wasm patch: made for another base module/);
  assert.throws(() => applyPatch(base, patch.subarray(0, patch.length - 5)), /wasm patch: /);
  assert.throws(() => applyPatch(base, patch.subarray(0, 10)), /wasm patch: not a patch/);
  for (const at of [24, Math.floor(patch.length / 2), patch.length - 1]) {
    const damaged = patch.slice();
    damaged[at] ^= 0x55;
    assert.throws(() => applyPatch(base, damaged), /wasm patch: /, `a byte changed at ${at}`);
  }
});

test("dist/'s patch makes the relaxed-SIMD module of dist/boids_bg.wasm, in a few KB", () => {
  const base = new Uint8Array(readFileSync(path.join(distDir, 'boids_bg.wasm')));
  const patch = new Uint8Array(readFileSync(path.join(distDir, 'boids_relaxed_bg.wasm.patch')));
  const relaxed = applyPatch(base, patch);
  assert.deepEqual([...relaxed.subarray(0, 4)], [0, 97, 115, 109], 'a wasm module');
  // f32x4.relaxed_madd is 0xfd 0x85 0x02: the patched module has them, the base none.
  const madds = (bytes) => {
    let n = 0;
    for (let i = 0; i + 2 < bytes.length; i++) n += bytes[i] === 0xfd && bytes[i + 1] === 0x85 && bytes[i + 2] === 0x02 ? 1 : 0;
    return n;
  };
  assert.ok(madds(relaxed) > 10, `fused multiply-adds in the relaxed build: ${madds(relaxed)}`);
  // (The three bytes may turn up by chance elsewhere, in an immediate or data: a few at most.)
  assert.ok(madds(base) < madds(relaxed) / 10, `hardly any in the portable build: ${madds(base)}`);
  const gz = gzipSync(patch, { level: 9 }).length;
  console.log(`# the relaxed build: a ${(patch.length / 1000).toFixed(1)} KB patch (${(gz / 1000).toFixed(1)} KB gzipped)`);
  assert.ok(gz < 20_000, `${gz} bytes gzipped`);
});
