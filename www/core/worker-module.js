// The experiment worker's module (boids_worker.js + boids_worker_bg.wasm) on the page's own
// thread, loaded once and only when asked: what a lesson needs of it beside the page's module
// (the algorithm lab's BugSandbox, a recorded flock's Replay and natureProfile) never weighs
// on a page that does not use it. A failed load is forgotten, so a later call tries again.

let loaded = null;

/** Resolves with the module's exports, initialised. */
export function workerModule() {
  loaded ??= import('../../boids_worker.js')
    .then(async (bindings) => {
      await bindings.default({ module_or_path: new URL('../../boids_worker_bg.wasm', import.meta.url) });
      return bindings;
    })
    .catch((error) => {
      loaded = null;
      throw error;
    });
  return loaded;
}
