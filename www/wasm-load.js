// Loading the simulation: one of two wasm builds of the same crate, once per page, before
// any <boids-flock> is defined. Exports the parameter table and presets the element reads,
// and the small helpers that tell a trap of the wasm module from an ordinary error.

import init, { Flock, takePanic } from '../boids.js';
import { patchedModule } from './wasm-patch.js';

export { Flock, View, version } from '../boids.js';

// The simulation comes in two builds of the same crate (scripts/build-relaxed.sh):
// - 'relaxed-simd': the neighbour scan's multiply-adds fused, about 5 % faster; for browsers
//   that validate relaxed SIMD (Chrome and Edge since 114). It ships as
//   boids_relaxed_bg.wasm.patch, a few KB that make it of boids_bg.wasm (wasm-patch.js);
// - 'simd128', boids_bg.wasm: for the others (SIMD128 is in Firefox 89+ and Safari 16.4+).
// A fused multiply-add rounds once where two steps round twice, so the same seed drifts apart
// between the builds after a while. `window.boidsBuild = 'simd128'` before this module loads
// runs the portable build everywhere: the same trajectory in every browser.
const BASE = new URL('../boids_bg.wasm', import.meta.url);
const RELAXED_PATCH = new URL('../boids_relaxed_bg.wasm.patch', import.meta.url);
/** A function returning `f32x4.relaxed_madd` of three zero vectors: valid only with relaxed SIMD. */
const RELAXED_SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, // header
  1, 5, 1, 96, 0, 1, 123, // type: () -> v128
  3, 2, 1, 0, // one function of that type
  10, 61, 1, 59, 0, // code: one body, no locals
  ...[0, 1, 2].flatMap(() => [253, 12, ...new Array(16).fill(0)]), // v128.const 0, three times
  253, 133, 2, 11, // f32x4.relaxed_madd, end
]);

function wantedBuild() {
  if (globalThis.boidsBuild === 'simd128') return 'simd128';
  try {
    return WebAssembly.validate(RELAXED_SIMD_PROBE) ? 'relaxed-simd' : 'simd128';
  } catch {
    return 'simd128';
  }
}

/** Loads the wanted build, or the portable one if that fails (say, a copy without the file). */
async function loadBuild() {
  const wanted = wantedBuild();
  if (wanted === 'relaxed-simd') {
    try {
      // Compiled from bytes (no streaming compile): the patch is applied first, ~2 ms.
      await init({ module_or_path: await patchedModule(BASE, RELAXED_PATCH) });
      return wanted;
    } catch (error) {
      console.warn(`boids: the relaxed-SIMD build did not load (${error}); using boids_bg.wasm`);
    }
  }
  await init({ module_or_path: BASE });
  return 'simd128';
}

/** Why the module did not load (null when it did). */
export let initError = null;
/** Which build runs: 'relaxed-simd' or 'simd128' (null if none loaded). */
export let build = null;
try {
  build = await loadBuild();
} catch (error) {
  initError = error;
  console.error(error);
}

/** The parameter table (`Flock.params()`), empty when the module did not load. */
export const SPECS = initError ? [] : Flock.params();
/** The presets (`Flock.presets()`). */
export const PRESETS = initError ? [] : Flock.presets();

/**
 * Whether `error` is the wasm module trapping: a `WebAssembly.RuntimeError` (a Rust panic
 * traps as "unreachable", after keeping its message for `takePanic()`). No argument of ours
 * makes a call trap; should one still (a bug), the flock it happened in shows the error and
 * stops, and every other flock on the page carries on.
 */
export const isTrap = (error) => error instanceof WebAssembly.RuntimeError;

/** The panic behind a trap, in its own words, or null. */
export function panicMessage() {
  try {
    return takePanic() ?? null;
  } catch {
    return null; // the module is past answering
  }
}

/** Whatever was thrown, as text (never throws itself: `String(Object.create(null))` does). */
export function errorText(error) {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}
