// One worker of a step shared among workers (threads.js). It runs its own instance of the
// page's wasm module (the same build, posted compiled), holds a `FlockShare`, and for each
// step copies the boids in from the SharedArrayBuffers, sorts them, takes chunks of the
// step from the counter all the workers share while any are left, and copies its chunks'
// new state out (the runs of slots it wrote, where they lie in the flock, with the sort's
// order there: the page's flock reorders its ids by it, and need not sort), then answers.
// It never blocks: a message is a step.

import { initSync, FlockShare } from '../../boids.js';

let share = null;
let shared = null; // { control, positions, velocities, species, outPositions, outVelocities, counts, strongest, order, ids }

function step({ head, count, dt }) {
  share.load(head, count);
  let [positions, velocities, species, , , , , , ids] = share.views();
  positions.set(shared.positions.subarray(0, 3 * count));
  velocities.set(shared.velocities.subarray(0, 3 * count));
  species.set(shared.species.subarray(0, count));
  ids.set(shared.ids.subarray(0, count));
  // control[1] is the next chunk: each claim takes one, whichever worker asks.
  let chunks = 0;
  share.advance(dt, () => (chunks++, Atomics.add(shared.control, 1, 1)));
  const runs = share.runs(); // [start, end) slot pairs: a chunk's layers are one
  const [, , , newPositions, newVelocities, counts, strongest, order] = share.views();
  for (let k = 0; k < runs.length; k += 2) {
    const [from, to] = [runs[k], runs[k + 1]];
    shared.outPositions.set(newPositions.subarray(3 * from, 3 * to), 3 * from);
    shared.outVelocities.set(newVelocities.subarray(3 * from, 3 * to), 3 * from);
    shared.counts.set(counts.subarray(from, to), from);
    shared.strongest.set(strongest.subarray(from, to), from);
    shared.order.set(order.subarray(from, to), from);
  }
  // Written before it is counted: the page reads the shares once every worker is counted.
  Atomics.add(shared.control, 0, 1);
  // The last claim found none left.
  return { neighbours: share.neighbours(), examined: share.examined(), chunks: Math.max(0, chunks - 1) };
}

self.onmessage = ({ data }) => {
  try {
    if (data.module) {
      initSync({ module: data.module });
      share = new FlockShare();
      self.postMessage({ ready: true });
    } else if (data.shared) {
      shared = data.shared;
    } else if (data.step) {
      self.postMessage({ generation: data.generation, ...step(data.step) });
    }
  } catch (error) {
    self.postMessage({ generation: data.generation, error: String(error?.message ?? error) });
  }
};
