// The snapshots a <boids-flock> keeps for rewinding (timeline.js): in order of their step,
// within a span of flock time and a memory budget. No DOM and no wasm: tests/browser/
// history.test.mjs runs it in node.

/** A snapshot every 2 s of flock time: a seek replays at most 120 steps (~0.5 s at 10,000). */
export const CHECKPOINT_EVERY = 120;
/** The span kept: the last 60 s of flock time, in steps of 1/60 s (boids-embed.js STEP). */
export const SPAN = 3600;
/** At most 32 MiB of snapshots per element. */
export const MEMORY_BUDGET = 32 * 1024 * 1024;

/** Snapshots in order of their step. */
export class History {
  constructor({ every = CHECKPOINT_EVERY, span = SPAN, budget = MEMORY_BUDGET } = {}) {
    Object.assign(this, { every, span, budget });
    this.clear();
  }

  clear() {
    this.points = []; // { step, bytes }
    this.bytes = 0;
    this.reached = 0;
    this.limited = false; // whether the budget, not the span, decided the oldest kept
  }

  /** The last snapshot at or before `step` (null if none). */
  at(step) {
    for (let i = this.points.length - 1; i >= 0; i--) if (this.points[i].step <= step) return this.points[i];
    return null;
  }

  /** Whether `step` is due a snapshot: none within the last `every` steps. */
  due(step) {
    const last = this.at(step);
    return !last || step - last.step >= this.every;
  }

  /**
   * Keeps `bytes` as the flock at `step`. `branch`: the flock was changed there, so what was
   * kept after it is another story (dropped).
   */
  record(step, bytes, branch) {
    const keep = this.points.filter((p) => (branch ? p.step < step : p.step !== step));
    keep.push({ step, bytes });
    keep.sort((a, b) => a.step - b.step);
    this.points = keep;
    this.reached = branch ? step : Math.max(this.reached, step);
    this.bytes = keep.reduce((sum, p) => sum + p.bytes.length, 0);
    this.limited = false;
    // Oldest first: past the span (the next one still covers it), or over the budget.
    while (this.points.length > 1 && this.points[1].step <= this.reached - this.span) this.drop();
    while (this.points.length > 1 && this.bytes > this.budget) {
      this.drop();
      this.limited = true;
    }
  }

  drop() {
    this.bytes -= this.points.shift().bytes.length;
  }

  /** The kept span in steps: [first snapshot, furthest step reached]. */
  range(now) {
    return { start: this.points[0]?.step ?? now, end: Math.max(this.reached, now) };
  }
}

