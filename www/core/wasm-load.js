// Loading the simulation: one of two wasm builds of the same crate, once per page, before
// any <boids-flock> is defined. Exports the parameter table and presets the element reads,
// and the small helpers that tell a trap of the wasm module from an ordinary error.

import init, { Flock, takePanic } from '../../boids.js';
import { fetchBytes, patchedModule } from './wasm-patch.js';
import { relaxedProbe } from './relaxed-simd.js';

export { Flock, View, version } from '../../boids.js';

// The simulation comes in two builds of the same crate (scripts/build-relaxed.sh):
// - 'relaxed-simd': the neighbour scan's multiply-adds fused, about 5 % faster; for browsers
//   that validate every relaxed instruction it uses (Chrome and Edge since 114; the probe in
//   relaxed-simd.js, and then the module itself). It ships as
//   boids_relaxed_bg.wasm.patch, a few KB that make it of boids_bg.wasm (wasm-patch.js);
// - 'simd128', boids_bg.wasm: for the others (SIMD128 is in Firefox 89+ and Safari 16.4+).
// A fused multiply-add rounds once where two steps round twice, so the same seed drifts apart
// between the builds after a while. `window.boidsBuild = 'simd128'` before this module loads
// runs the portable build everywhere: the same trajectory in every browser.
const BASE = new URL('../../boids_bg.wasm', import.meta.url);
const RELAXED_PATCH = new URL('../../boids_relaxed_bg.wasm.patch', import.meta.url);
function wantedBuild() {
  if (globalThis.boidsBuild === 'simd128') return 'simd128';
  try {
    return WebAssembly.validate(relaxedProbe()) ? 'relaxed-simd' : 'simd128';
  } catch {
    return 'simd128';
  }
}

/**
 * The portable build's bytes when this module is part of the lesson bundle, which carries
 * them inside it (scripts/build-lesson-bundle.mjs defines BOIDS_LESSON_WASM as their base64):
 * a lesson opened from a file or a learning platform's package fetches nothing. null here.
 */
const INLINE = typeof BOIDS_LESSON_WASM === 'string' ? Uint8Array.from(atob(BOIDS_LESSON_WASM), (c) => c.charCodeAt(0)) : null;

/** Loads the wanted build, or the portable one if that fails (say, a copy without the file). */
async function loadBuild() {
  if (INLINE) {
    await init({ module_or_path: INLINE });
    return 'simd128';
  }
  const wanted = wantedBuild();
  if (wanted === 'relaxed-simd') {
    try {
      // Compiled from bytes (no streaming compile): the patch is applied first, ~2 ms.
      const relaxed = await patchedModule(BASE, RELAXED_PATCH);
      // The probe holds the instructions the build was made with; this is the rest of the
      // module (~1 ms): an engine that refuses some of it runs the other build, which is no
      // fault of the page, so without a warning.
      if (WebAssembly.validate(relaxed)) {
        await init({ module_or_path: relaxed });
        return wanted;
      }
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

let forWorkers = null;

/**
 * The compiled module of the build that runs here, for workers that share its steps
 * (threads.js): the same build, so that a shared step is this one bit for bit. Compiled once,
 * when first asked for (a page that never shares a step never fetches it again).
 */
export function moduleForWorkers() {
  forWorkers ??= (async () => {
    const bytes = INLINE ?? (build === 'relaxed-simd' ? await patchedModule(BASE, RELAXED_PATCH) : await fetchBytes(BASE));
    return WebAssembly.compile(bytes);
  })();
  return forWorkers;
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
