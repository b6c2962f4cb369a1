// Events for the page around the element (issue 28): `boids-change` for every parameter
// change, `boids-preset`, `boids-select` and `boids-experiment` (experiment-panel.js), each a
// CustomEvent that bubbles and is composed (it leaves a shadow root the element sits in), so a
// lesson's script, or embed-bridge.js in the iframe form, hears them on the element or the
// document. A change says where it came from: "user" for the element's own controls (a
// slider, a checkbox, the keys on them, a preset's button), "api" for everything else (an
// attribute, a script's call on `el.flock`, a message to the iframe). Methods mixed into
// BoidsFlock (boids-embed.js); `this` is the element.

import { SPECS } from '../core/wasm-load.js';
import { readParam, formatNumber } from '../core/settings.js';

/** The Flock's methods that may change a parameter: after one, the values are compared. */
export const SETTERS = new Set([...SPECS.map((spec) => spec.setter), 'applyPreset']);

export const eventMethods = {
  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  },

  /** Every parameter's value now: what later changes are told against. */
  rememberValues() {
    this.values_ = SPECS.map((spec) => readParam(this.flock, spec));
  },

  /**
   * A `boids-change` for each parameter whose value moved since the last look (one setting
   * may move others: the world's size follows the count), coming from `source`. Returns
   * whether any moved.
   */
  noteChanges(source) {
    const before = this.values_;
    if (!before || !this.flock) return false;
    this.rememberValues();
    const moved = SPECS.filter((spec, i) => !Object.is(this.values_[i], before[i]));
    for (const spec of moved) {
      // As the flock holds it (f32), written short: 0.3, not 0.30000001192092896.
      const value = Number(formatNumber(this.values_[SPECS.indexOf(spec)]));
      this.emit('boids-change', { name: spec.name, value, source });
    }
    return moved.length > 0;
  },

  /**
   * A setter of the flock ran (the Proxy of boids-embed.js `watch` calls this). The element's
   * own controls tell their changes as "user" at once, in the same task; whatever is left
   * when the task's script is done came from elsewhere: "api". One look per task.
   */
  flockTouched() {
    if (this.touched_) return;
    this.touched_ = true;
    queueMicrotask(() => {
      this.touched_ = false;
      // A script's own change: the sliders follow it (an attribute's did already).
      if (this.noteChanges('api')) this.changed();
    });
  },
};
