// The element's one path for changes of a parameter (issue 41): whoever changes one (a slider,
// an attribute, a script's call on `el.flock`, a preset, a message to the iframe) ends in
// `changed({ name, value, source })`, and whatever follows changes subscribes here: the
// `boids-change` event (lesson/events.js), the address bar (lesson/url-sync.js) and the
// rewind's next snapshot (lesson/timeline.js). A part hears no other part by name.

export class ChangeHub {
  constructor() {
    this.listeners = new Set();
  }

  /** Calls `listener({ name, value, source })` for every change from now on; returns the undo. */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Parameter `name` (as the table names it) now holds `value` (the number the flock holds),
   * changed by `source`: "user" for the element's own controls, "api" for anything else.
   */
  changed(change) {
    for (const listener of this.listeners) listener(change);
  }
}
