// The fit's worker (issue 43, item 3): the worker's module's `Fit` run to its end on this
// thread, posting { target } (the recording's measures in flight), { progress: { runs, best } }
// after each model run, then { result } or { error }. Stopped by ending the worker
// (worker.terminate(), fit-panel.js): the page's thread never waits for it.

import init, { Fit } from '../../boids_worker.js';

self.onmessage = async ({ data }) => {
  try {
    await init({ module_or_path: new URL('../../boids_worker_bg.wasm', import.meta.url) });
    const { text, params, evaluations, count, seed } = data;
    const fit = new Fit(text, params, evaluations, count, seed);
    self.postMessage({ target: fit.target() });
    const result = fit.run((runs, best) => {
      self.postMessage({ progress: { runs, best } });
      return true;
    });
    self.postMessage({ result });
  } catch (error) {
    self.postMessage({ error: `${error?.name ?? 'Error'}: ${error?.message ?? error}` });
  }
};
