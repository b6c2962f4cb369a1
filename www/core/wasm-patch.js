// The relaxed-SIMD build ships as a patch to the portable one: the two modules are one crate
// compiled with and without relaxed SIMD, alike but for the neighbour scan's fused
// multiply-adds, so the patch is a few KB where the module is 126 KB gzipped (this kept
// dist/ within its 300 KB). scripts/wasm-patch.mjs writes it at build time and checks it
// with `applyPatch` below; the page applies it before compiling (wasm-load.js).
//
// Format (integers little-endian, `n` an unsigned LEB128):
//   "BWP1", base length u32, base FNV-1a u32, result length u32, result FNV-1a u32,
//   then operations to the end:
//   0 shift:z length:n  copy that run of the base, from where the last copy or change ended
//                       plus `shift` (z: a zigzag-coded signed n);
//   1 length:n bytes    these bytes;
//   2 length:n bytes    the base's next bytes plus these (mod 256), then on from there.
// Copies mostly follow one another in the base, so their shifts are small and alike; a
// changed offset or index is a few changes, mostly zero bytes. All of it gzips well.
// The checksums make a patch for another base, or a damaged one, fail with a message
// instead of building a wrong module.

const MAGIC = [66, 87, 80, 49]; // "BWP1"
const COPY = 0;
const ADD = 1;
const CHANGE = 2;

/** FNV-1a, 32 bits, of `bytes`. */
export function fnv1a(bytes) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  return hash >>> 0;
}

/** `base` with `patch` applied (both Uint8Array); throws an Error saying what does not fit. */
export function applyPatch(base, patch) {
  const fail = (why) => {
    throw new Error(`wasm patch: ${why}`);
  };
  const view = new DataView(patch.buffer, patch.byteOffset, patch.byteLength);
  if (patch.length < 20 || MAGIC.some((byte, i) => patch[i] !== byte)) fail('not a patch (no "BWP1" header)');
  const [baseLength, baseHash, length, hash] = [4, 8, 12, 16].map((at) => view.getUint32(at, true));
  if (base.length !== baseLength) fail(`made for another base module (of ${baseLength} bytes, not ${base.length})`);
  if (fnv1a(base) !== baseHash) fail('made for another base module (its checksum differs)');
  // A module grows by its changed functions, not by multiples: a damaged length asks for no
  // absurd allocation.
  if (length > 2 * base.length + patch.length) fail(`a result of ${length} bytes from ${base.length}`);
  let at = 20;
  const number = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      if (at >= patch.length || shift > 28) fail('truncated or damaged');
      const byte = patch[at++];
      value += (byte & 127) * 2 ** shift;
      if (byte < 128) return value;
    }
  };
  const out = new Uint8Array(length);
  let [written, copied] = [0, 0]; // copied: where the last copy or change ended in the base
  while (at < patch.length) {
    const op = patch[at++];
    if (op === COPY) {
      const shift = number();
      const from = copied + (shift % 2 ? -(shift + 1) / 2 : shift / 2);
      const run = number();
      if (from < 0 || from + run > base.length || written + run > length) fail('a copy runs past its end');
      out.set(base.subarray(from, from + run), written);
      written += run;
      copied = from + run;
    } else if (op === ADD) {
      const run = number();
      if (at + run > patch.length || written + run > length) fail('new bytes run past their end');
      out.set(patch.subarray(at, at + run), written);
      at += run;
      written += run;
    } else if (op === CHANGE) {
      const run = number();
      if (at + run > patch.length || written + run > length || copied + run > base.length) {
        fail('changed bytes run past their end');
      }
      for (let i = 0; i < run; i++) out[written + i] = (base[copied + i] + patch[at + i]) & 255;
      at += run;
      written += run;
      copied += run;
    } else {
      fail(`unknown operation ${op}`);
    }
  }
  if (written !== length || fnv1a(out) !== hash) fail('the result is not the module it was made for');
  return out;
}

/** The bytes at `url`, or an Error naming it and the HTTP status. */
export async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** The module the patch at `patchUrl` makes of the one at `baseUrl`, as bytes. */
export async function patchedModule(baseUrl, patchUrl) {
  const [base, patch] = await Promise.all([fetchBytes(baseUrl), fetchBytes(patchUrl)]);
  return applyPatch(base, patch);
}
