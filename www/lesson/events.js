// Events for the page around the element (issue 28): `boids-change` for every parameter
// change, `boids-preset`, `boids-select` and `boids-experiment` (experiment/panel-run.js),
// each a CustomEvent that bubbles and is composed (it leaves a shadow root the element sits
// in), so a lesson's script, or embed-bridge.js in the iframe form, hears them on the element
// or the document. A change says where it came from: "user" for the element's own controls (a
// slider, a checkbox, the keys on them, a preset's button), "api" for everything else (an
// attribute, a script's call on `el.flock`, a message to the iframe).
//
// `ParamWatch` is the part that sees parameters move: it keeps every value as last seen and,
// asked to look, tells each that moved to the change hub (core/hub.js); `boids-change` is one
// of the hub's listeners.

import { SPECS } from '../core/wasm-load.js';
import { readParam, formatNumber } from '../core/settings.js';

/** The Flock's methods that may change a parameter: after one, the values are compared. */
export const SETTERS = new Set([...SPECS.map((spec) => spec.setter), 'applyPreset']);

/** Dispatches `type` on `target`, bubbling and composed. */
export function emit(target, type, detail) {
  target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}

export class ParamWatch {
  /**
   * `getFlock`: the flock now; `hub`: where each change is told; `onApiChange`: called after a
   * script's own change was told (the element's controls follow it).
   */
  constructor({ getFlock, hub, onApiChange }) {
    this.getFlock = getFlock;
    this.hub = hub;
    this.onApiChange = onApiChange;
    this.values = null;
    this.touched = false;
  }

  /** Every parameter's value now: what later changes are told against. */
  remember() {
    const flock = this.getFlock();
    this.values = flock ? SPECS.map((spec) => readParam(flock, spec)) : null;
  }

  /**
   * Tells the hub of each parameter whose value moved since the last look (one setting may
   * move others: the world's size follows the count), coming from `source`. Returns whether
   * any moved.
   */
  note(source) {
    const before = this.values;
    if (!before || !this.getFlock()) return false;
    this.remember();
    const moved = SPECS.filter((spec, i) => !Object.is(this.values[i], before[i]));
    for (const spec of moved) {
      // As the flock holds it (f32), written short: 0.3, not 0.30000001192092896.
      const value = Number(formatNumber(this.values[SPECS.indexOf(spec)]));
      this.hub.changed({ name: spec.name, value, source });
    }
    return moved.length > 0;
  }

  /**
   * A setter of the flock ran (the handle of core/handle.js tells). The element's own
   * controls tell their changes as "user" at once, in the same task; whatever is left when
   * the task's script is done came from elsewhere: "api". One look per task.
   */
  flockTouched() {
    if (this.touched) return;
    this.touched = true;
    queueMicrotask(() => {
      this.touched = false;
      if (this.note('api')) this.onApiChange();
    });
  }
}
