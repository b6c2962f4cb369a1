// The worker of runExperiment (experiment.js): its own module, boids_worker_bg.wasm (the
// simulation and Experiment, built with SIMD128 only, never relaxed SIMD: the rows do not
// depend on the browser; no drawing, none of the page's code), no GL. The module comes
// compiled with the spec (runner.js compiled it for the page's thread), or is fetched.
// Protocol:
//   in:  { spec, module? }                 (once; spec as checkSpec gives it)
//   out: { type: 'ready', total, version }, right after the spec is read, or
//        { type: 'error', name, message }  (a refused spec: TypeError / RangeError), then
//        { type: 'progress' | 'done', done, total, rows }  each ~50 ms (rows: the new ones,
//        packed as numbers, Experiment.rowNumbers() a row: a Float64Array, transferred; runner.js unpacks them)
// It closes itself when done; runExperiment terminates it on abort.

import init, { Experiment, takePanic, version } from '../../boids_worker.js';

/** About this long a chunk of steps, ms: progress often enough, postMessage rarely. */
const CHUNK_MS = 50;

const WASM = new URL('../../boids_worker_bg.wasm', import.meta.url);

function report(error) {
  const panic = error instanceof WebAssembly.RuntimeError ? takePanic() : null;
  const name = error instanceof TypeError || error instanceof RangeError ? error.name : 'Error';
  const message = panic ? `the experiment stopped: ${panic}` : String(error?.message ?? error);
  postMessage({ type: 'error', name, message });
  close();
}

self.onmessage = async ({ data }) => {
  let experiment;
  try {
    await init({ module_or_path: data.module instanceof WebAssembly.Module ? data.module : WASM });
    experiment = new Experiment(data.spec);
  } catch (error) {
    report(error);
    return;
  }
  const total = experiment.stepsTotal();
  postMessage({ type: 'ready', total, version: version() });
  try {
    let steps = 10;
    let sent = 0;
    for (;;) {
      const start = performance.now();
      const finished = experiment.advance(steps);
      const ms = performance.now() - start;
      const rows = experiment.rows(sent);
      sent += rows.length / Experiment.rowNumbers();
      postMessage({ type: finished ? 'done' : 'progress', done: experiment.stepsDone(), total, rows }, [rows.buffer]);
      if (finished) break;
      // The next chunk sized to take CHUNK_MS at the rate just seen (at most 4× the last).
      steps = Math.max(1, Math.min(4 * steps, Math.round((steps * CHUNK_MS) / Math.max(ms, 0.1))));
    }
    experiment.free();
    close();
  } catch (error) {
    report(error);
  }
};
