// Steps shared among Web Workers (issue 30). Each worker runs its own instance of the page's
// wasm module (share-worker.js); the boids' arrays travel through SharedArrayBuffers, which a
// page has only when it is cross-origin isolated (COOP and COEP: docs/page.md). A step is
// handed out (`Flock.shareBegin`), each worker takes chunks of the grid's layers one at a
// time from a counter they share, while any are left (a worker the host slows takes fewer),
// and the flock takes them in (`Flock.shareFinish`): the same flock, bit for bit, as a step
// on one thread (tests/parts.rs), so links, lessons and tests don't depend on the cores.
//
// The page's thread never waits: it hands a step out and draws; the workers' answers come
// as messages, and the step is taken in when the last arrives (and the next one handed out
// if the clock owes one), else at the next frame.

import { moduleForWorkers } from './wasm-load.js';

/**
 * Fewer boids than this step on the page's own thread (`threads="on"` shares any flock's).
 * Measured in Chromium on a 2-core machine (scripts/bench-threads.mjs, docs/performance.md),
 * 2 workers against one thread: 1,500 boids 0.91-1.8× (the hand-over costs about as much as
 * the step), 10,000 0.73-0.94× (0.97× in an earlier run), 20,000 0.78-0.89×, 100,000 0.65×
 * standard and 0.57-0.59× settled defaults. From 20,000 sharing paid in every run and both
 * scenarios, and it leaves the page's thread free to draw meanwhile.
 */
export const THREADS_FROM = 20_000;
/** Most workers, whatever the cores: past memory bandwidth more only cost copies. */
const MOST_WORKERS = 8;
/**
 * A pool whose workers have not all answered by then did not start: the flock stays on one
 * thread. Long, as the page steps on its own thread meanwhile: where software WebGL draws
 * 100,000 cones in 3 s a frame, 10 s was three frames, and the workers were given up.
 */
const START_TIMEOUT_MS = 60_000;

/** Whether this page may share steps: cross-origin isolated, with SharedArrayBuffer and Atomics. */
export function threadsPossible() {
  return globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function' && typeof Atomics === 'object';
}

/** Workers for this machine: its cores, capped; 1 means sharing would gain nothing. */
export function coresToUse() {
  return Math.max(1, Math.min(MOST_WORKERS, Math.floor(navigator.hardwareConcurrency) || 1));
}

/** `count` workers that share steps; `start()` before use, `stop()` when done. */
export class SharePool {
  constructor(count) {
    this.count = count;
    this.workers = [];
    this.capacity = 0;
    this.shared = null;
    /** The step handed out: { generation, dt, boids, answers, neighbours, examined, chunks, ready, dropped }. */
    this.inFlight = null;
    this.generation = 0;
    /** Shared steps taken in (not stepped again on the page's thread because the flock changed). */
    this.taken = 0;
    this.failure = null;
    this.onReady = null;
  }

  /** Starts the workers; rejects (and stops them) if one fails or they take too long. */
  async start() {
    try {
      const module = await moduleForWorkers();
      if (this.stopped) throw new Error('stopped before it started');
      const url = new URL('./share-worker.js', import.meta.url);
      const started = [];
      for (let i = 0; i < this.count; i++) {
        const worker = new Worker(url, { type: 'module', name: `boids step ${i + 1}/${this.count}` });
        this.workers.push(worker);
        started.push(
          new Promise((resolve, reject) => {
            worker.onmessage = ({ data }) => (data.ready ? resolve() : reject(new Error(data.error)));
            worker.onerror = (event) => reject(new Error(event.message || 'a worker did not start'));
          }),
        );
        worker.postMessage({ module });
      }
      let timer;
      const late = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`workers did not start in ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      });
      await Promise.race([Promise.all(started), late]).finally(() => clearTimeout(timer));
      for (const [part, worker] of this.workers.entries()) {
        worker.onmessage = ({ data }) => this.answered(data, part);
        worker.onerror = (event) => this.broke(event.message || 'a worker failed');
      }
    } catch (error) {
      this.stop();
      throw error;
    }
  }

  stop() {
    this.stopped = true;
    for (const worker of this.workers) worker.terminate();
    this.workers = [];
    this.inFlight = null;
  }

  /** Whether a step is out (answered or not). */
  get busy() {
    return this.inFlight !== null;
  }

  /** Whether the step out has every answer and can be taken in. */
  get ready() {
    return Boolean(this.inFlight?.ready && !this.inFlight.dropped);
  }

  /** Room for `boids` in the shared arrays; a larger flock gets new ones, told to the workers. */
  reserve(boids) {
    if (boids <= this.capacity) return;
    const capacity = Math.max(boids, Math.ceil(this.capacity * 1.25));
    const floats = () => new Float32Array(new SharedArrayBuffer(12 * capacity));
    this.shared = {
      // [shares written, the next chunk to claim]
      control: new Int32Array(new SharedArrayBuffer(8)),
      positions: floats(),
      velocities: floats(),
      species: new Uint8Array(new SharedArrayBuffer(capacity)),
      outPositions: floats(),
      outVelocities: floats(),
      counts: new Uint16Array(new SharedArrayBuffer(2 * capacity)),
      strongest: new Uint8Array(new SharedArrayBuffer(capacity)),
      order: new Uint32Array(new SharedArrayBuffer(4 * capacity)),
      ids: new Uint32Array(new SharedArrayBuffer(4 * capacity)),
    };
    this.capacity = capacity;
    for (const worker of this.workers) worker.postMessage({ shared: this.shared });
  }

  /** Hands a step of `dt` of `flock` out; `onReady` is called when every share is in. */
  begin(flock, dt) {
    const head = flock.shareBegin();
    let [positions, velocities, species, , , , , , ids] = flock.shareViews();
    const boids = species.length;
    this.reserve(boids); // JavaScript's memory only: the views stay valid
    this.shared.positions.set(positions);
    this.shared.velocities.set(velocities);
    this.shared.species.set(species);
    this.shared.ids.set(ids); // a swarm's draws (who fails, who is bold) follow the ids
    positions = velocities = species = ids = null; // never kept past a call into the module
    Atomics.store(this.shared.control, 0, 0);
    Atomics.store(this.shared.control, 1, 0);
    const generation = ++this.generation;
    this.inFlight = { generation, dt, boids, answers: 0, neighbours: 0, examined: 0, chunks: [], ready: false, dropped: false };
    const step = { head, count: boids, dt };
    this.workers.forEach((worker) => worker.postMessage({ generation, step }));
  }

  /** Forgets the step out (the flock changed, or stopped); its answers are still awaited. */
  drop() {
    if (this.inFlight?.ready) this.inFlight = null;
    else if (this.inFlight) this.inFlight.dropped = true;
  }

  /** Worker `part`'s answer; `chunks[part]` says how many chunks it took. */
  answered(data, part) {
    const step = this.inFlight;
    if (!step || data.generation !== step.generation) return;
    if (data.error) {
      this.broke(data.error);
      return;
    }
    step.answers += 1;
    step.neighbours += data.neighbours;
    step.examined += data.examined;
    step.chunks[part] = data.chunks;
    if (step.answers < this.count) return;
    if (Atomics.load(this.shared.control, 0) !== this.count) {
      this.broke('a share was answered but not written');
      return;
    }
    if (step.dropped) {
      this.inFlight = null;
      return;
    }
    step.ready = true;
    this.onReady?.();
  }

  broke(reason) {
    this.failure = new Error(`a shared step failed: ${reason}`);
    this.stop();
    this.onFailure?.(this.failure);
  }

  /** Takes the step in: true if the flock took it, false if it changed since (then nothing changed). */
  finish(flock) {
    const step = this.inFlight;
    this.inFlight = null;
    const [, , , positions, velocities, counts, strongest, order] = flock.shareViews();
    if (counts.length !== step.boids) return false;
    const { shared } = this;
    positions.set(shared.outPositions.subarray(0, 3 * step.boids));
    velocities.set(shared.outVelocities.subarray(0, 3 * step.boids));
    counts.set(shared.counts.subarray(0, step.boids));
    strongest.set(shared.strongest.subarray(0, step.boids));
    order.set(shared.order.subarray(0, step.boids));
    const taken = flock.shareFinish(step.dt, step.neighbours, step.examined);
    if (taken) this.taken += 1;
    return taken;
  }
}

/**
 * The element's side, a part of its own: whether its steps are shared, the pool's life, and a
 * shared step in the frame. `threads="1"` (or `?threads=1` where the element reads the URL)
 * keeps it on one thread; `threads="on"` shares the steps of a flock of any size.
 */
export class StepSharing {
  /**
   * `getFlock`: the flock now; `asked()`: the `threads` option ("1", "on" or null);
   * `canTakeIn()`: whether a step that came in between frames may be taken in now (drawn,
   * running, no moment loading); `owed()`: flock seconds the clock owes; `beforeHandOut()`:
   * runs before a step goes out (the rewind keeps its snapshot); `onTaken(dt)`: a step of
   * `dt` was taken in; `onSpent(ms)`: the page's thread spent `ms` on one between frames.
   */
  constructor({ getFlock, asked, canTakeIn, owed, beforeHandOut, onTaken, onSpent }) {
    Object.assign(this, { getFlock, asked, canTakeIn, owed, beforeHandOut, onTaken, onSpent });
    this.pool = null;
    this.failed = false;
    /** The step of the last frame that shared one: the next handed out between frames. */
    this.step = 0;
  }

  /**
   * How many threads step this flock now: the workers sharing its steps, or 1. Only says:
   * the pool starts with the first frame that steps a flock which should share its steps.
   */
  threads() {
    return this.wanted() && this.ready() ? this.pool.count : 1;
  }

  /** Whether this flock's steps should be shared: isolated, several cores, big enough or asked. */
  wanted() {
    const asked = this.asked();
    const flock = this.getFlock();
    return Boolean(
      flock && asked !== '1' && !this.failed && threadsPossible() && coresToUse() > 1 && (asked === 'on' || flock.count() >= THREADS_FROM),
    );
  }

  /** Whether the pool has its workers, started and answering. */
  ready() {
    return Boolean(this.pool?.workers.length && !this.pool.starting);
  }

  /** Whether this frame's step is shared, starting the pool when it should be and is not yet. */
  sharesSteps() {
    if (!this.wanted()) {
      if (this.pool?.busy) this.pool.drop();
      return false;
    }
    if (!this.pool) this.start();
    return this.ready();
  }

  start() {
    const pool = new SharePool(coresToUse());
    pool.starting = true;
    pool.onReady = () => this.readyBetweenFrames();
    pool.onFailure = (error) => this.failedWith(error);
    this.pool = pool;
    pool.start().then(
      () => {
        pool.starting = false;
        if (this.pool !== pool) pool.stop(); // torn down meanwhile
      },
      (error) => {
        if (this.pool === pool) this.failedWith(error); // else torn down meanwhile: nothing to say
      },
    );
  }

  /** Workers that fail leave the flock on one thread, as a page that isn't isolated has it. */
  failedWith(error) {
    console.warn(`boids: workers could not share the steps (${error.message ?? error}); stepping on one thread`);
    this.failed = true;
    this.stop();
  }

  stop() {
    this.pool?.stop();
    this.pool = null;
  }

  /** Forgets the step out (the flock changed, is paused or replaced); its answers are still awaited. */
  drop() {
    this.pool?.drop();
  }

  /** In a frame: takes a step in that is ready, hands the next out if one is owed. */
  share(step) {
    this.step = step;
    if (this.pool.ready) this.takeIn(step);
    if (!this.pool.busy && this.owed() >= step) {
      this.beforeHandOut();
      this.pool.begin(this.getFlock(), step);
    }
  }

  takeIn(step) {
    const flock = this.getFlock();
    // The flock changed while the step was out (a slider, the pointer): this step on this thread.
    if (!this.pool.finish(flock)) flock.step(step);
    this.onTaken(step);
  }

  /** The last share came in between frames: taken in at once, and the next handed out if owed. */
  readyBetweenFrames() {
    if (!this.canTakeIn() || !this.pool) return; // the next frame's
    const start = performance.now();
    this.share(this.step);
    this.onSpent(performance.now() - start);
  }
}
