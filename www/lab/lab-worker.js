// The cost curve's worker (issue 42): steps the standard scenario in the experiment worker's
// module (SearchLab, boids_worker_bg.wasm) by each method over the counts asked, timing
// batches of steps around the call (the step is wholly in wasm), and posts each point as it is
// measured:
// { point: { method, count, ms, checks, neighbours } }, then { done: true }; { error } if
// anything throws. Past a step of `stopMs` a method measures only the counts in `keep` (the
// texts' table's). The page's thread stays free.

import init, { SearchLab } from '../../boids_worker.js';

self.onmessage = async ({ data }) => {
  try {
    const { module, methods, counts, warmup, steps, stopMs, keep = [] } = data;
    await init({ module_or_path: module });
    for (const method of methods) {
      // Warm-up: the browser first runs wasm by a quick baseline compiler and optimizes a
      // function only once it is hot; measured cold, naive's 500 and 1,000 boids took twice
      // their time (Chromium: 1,000 in 12 ms cold, 5.8 warm), bending the curve. A few steps
      // of 2,000 boids by the method, about 0.15 s, make it hot.
      const warm = new SearchLab(2000, method);
      const until = performance.now() + 150;
      for (let s = 0; s < 20 && performance.now() < until; s++) warm.step(1);
      warm.free();
      let slow = false;
      for (const count of counts) {
        if (slow && !keep.includes(count)) continue;
        const lab = new SearchLab(count, 'grid');
        // Settled by the grid (in calls of at most 600 steps, SearchLab's most), then searched
        // by `method`.
        for (let left = warmup; left > 0; left -= 600) lab.step(Math.min(600, left));
        lab.setMethod(method);
        // Each sample times a batch of steps at least ~10 ms long: a page that is not
        // cross-origin isolated reads the clock to 0.1 ms, and the grid steps 1,000 boids in
        // about that.
        const first = performance.now();
        lab.step(1);
        // The counts of this first step, the same flock's for every method (the timed batches
        // step on, and a settling flock's neighbours change).
        const [checks, neighbours] = lab.stats();
        const batch = Math.min(200, Math.max(1, Math.ceil(10 / Math.max(performance.now() - first, 0.05))));
        const times = [];
        for (let s = 0; s < steps; s++) {
          const start = performance.now();
          lab.step(batch);
          times.push((performance.now() - start) / batch);
        }
        lab.free();
        times.sort((a, b) => a - b);
        const ms = times[times.length >> 1];
        self.postMessage({ point: { method, count, ms, checks, neighbours } });
        slow ||= ms > stopMs;
      }
    }
    self.postMessage({ done: true });
  } catch (error) {
    self.postMessage({ error: String(error?.message ?? error) });
  }
};
