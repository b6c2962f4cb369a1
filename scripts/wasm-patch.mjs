// Writes the patch that turns one wasm module into another (www/core/wasm-patch.js has the format
// and applies it), and checks it by applying it:
//   node scripts/wasm-patch.mjs <base.wasm> <target.wasm> <out.patch>
// scripts/build-relaxed.sh runs it for boids_bg.wasm → boids_relaxed_bg.wasm. The two builds
// differ in a few functions, but every function after a changed one sits at another offset,
// so runs of the target are found anywhere in the base: every 16-byte window of the base is
// indexed by its hash, and at each place in the target the longest run that starts with a
// matching window is copied (or a run of 4 where the base goes on in step), else one byte is
// taken as new. New bytes that stand in for as many of the base are written as changes
// (mostly zeros: an index or offset that moved). A greedy match, like rsync's, with bsdiff's
// changes: the relaxed module's patch is 13.8 KB, 6.2 KB gzipped, of a 126 KB module.
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { applyPatch, fnv1a } from '../www/core/wasm-patch.js';

/** The shortest run worth a copy (a copy costs about 6 bytes). */
const WINDOW = 16;
/** The shortest run worth a copy where the base goes on in step with the target. */
const SHORT_RUN = 4;
/** At most this many places in the base are kept per window hash (a bound on the search). */
const BUCKET = 8;

function windowHash(bytes, at) {
  return fnv1a(bytes.subarray(at, at + WINDOW));
}

/** The patch (Uint8Array) that makes `target` of `base`. */
export function makePatch(base, target) {
  const index = new Map();
  for (let at = 0; at + WINDOW <= base.length; at++) {
    const key = windowHash(base, at);
    const places = index.get(key);
    if (!places) index.set(key, [at]);
    else if (places.length < BUCKET) places.push(at);
  }
  const out = [];
  const number = (value) => {
    do {
      const byte = value % 128;
      value = Math.floor(value / 128);
      out.push(value > 0 ? byte | 128 : byte);
    } while (value > 0);
  };
  const u32 = (value) => out.push(value & 255, (value >>> 8) & 255, (value >>> 16) & 255, value >>> 24);
  out.push(...Buffer.from('BWP1'));
  [base.length, fnv1a(base), target.length, fnv1a(target)].forEach(u32);
  let pending = 0; // where the bytes not yet written as new start
  let copied = 0; // where the last copy ended in the base
  // New bytes; where they stand in for as many bytes of the base (the next copy resumes just
  // past them), as their differences from those, mostly zeros where an offset or an index
  // changed in a byte or two.
  const flush = (end, resume = -1) => {
    if (end === pending) return;
    const aligned = resume - copied === end - pending && copied + (end - pending) <= base.length;
    out.push(aligned ? 2 : 1);
    number(end - pending);
    for (let i = pending; i < end; i++) out.push(aligned ? (target[i] - base[copied + i - pending]) & 255 : target[i]);
    if (aligned) copied = resume;
  };
  /** How many bytes of the target from `at` equal the base's from `from`. */
  const runFrom = (at, from) => {
    let run = 0;
    while (at + run < target.length && from + run < base.length && target[at + run] === base[from + run]) run++;
    return run;
  };
  let at = 0;
  while (at < target.length) {
    let best = { from: 0, run: 0 };
    if (at + WINDOW <= target.length) {
      for (const from of index.get(windowHash(target, at)) ?? []) {
        const run = runFrom(at, from);
        if (run > best.run) best = { from, run };
      }
    }
    // Where the base goes on in step with the target past the new bytes so far: a shorter
    // run there is still worth a copy (it costs no shift, and the bytes before it are
    // written as changes).
    const inStep = copied + (at - pending);
    const stepRun = inStep < base.length ? runFrom(at, inStep) : 0;
    if (stepRun >= SHORT_RUN && stepRun >= best.run) best = { from: inStep, run: stepRun };
    if (best.run >= WINDOW || (best.from === inStep && best.run >= SHORT_RUN)) {
      flush(at, best.from);
      const shift = best.from - copied;
      out.push(0);
      number(shift >= 0 ? 2 * shift : -2 * shift - 1);
      number(best.run);
      copied = best.from + best.run;
      at += best.run;
      pending = at;
    } else {
      at += 1;
    }
  }
  flush(target.length);
  return Uint8Array.from(out);
}

// Run as a script (the path compared as a URL: a folder with a space is %20 in import.meta.url).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [basePath, targetPath, outPath] = process.argv.slice(2);
  if (!outPath) {
    console.error('usage: node scripts/wasm-patch.mjs <base.wasm> <target.wasm> <out.patch>');
    process.exit(2);
  }
  const [base, target] = [basePath, targetPath].map((file) => new Uint8Array(readFileSync(file)));
  const patch = makePatch(base, target);
  const back = applyPatch(base, patch);
  if (back.length !== target.length || back.some((byte, i) => byte !== target[i])) {
    console.error(`error: the patch does not give back ${targetPath}`);
    process.exit(1);
  }
  writeFileSync(outPath, patch);
  const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
  console.log(
    `==> ${outPath}: ${kb(patch.length)} (${kb(gzipSync(patch, { level: 9 }).length)} gzipped) ` +
      `makes ${targetPath} (${kb(target.length)}, ${kb(gzipSync(target, { level: 9 }).length)} gzipped)`,
  );
}
