// The projector look (issue 29): black sky, white text (at least 7:1 against what it sits
// on, WCAG AAA), bolder focus rings and edges, and cones drawn bright and saturated with
// hardly any fog (`View.setContrast`), for a washed-out classroom projector. On where the
// reader's system asks for more contrast (`prefers-contrast: more`) unless the element says
// otherwise; `contrast="more"` or `contrast="normal"` (also `?contrast=` in url mode and the
// iframe form) decides; the full page's panel has a toggle. Its styles are the element's own
// (boids-flock.css, `.bf-contrast`), so an embed never restyles its host page; the full page
// (`page`) also marks <html data-contrast> for its masthead. The part `Contrast` owns the choice.

const MORE = new Set(['more', 'high', 'on', 'yes', 'true', '1', '']);
const NORMAL = new Set(['normal', 'no-preference', 'less', 'off', 'no', 'false', '0']);

const prefersMore = typeof matchMedia === 'function' ? matchMedia('(prefers-contrast: more)') : null;
// The reader changed the system setting: every flock that follows it follows.
prefersMore?.addEventListener?.('change', () => {
  for (const flock of document.querySelectorAll('boids-flock')) flock.contrast?.apply();
});

/** "more", "normal", or null (follow the reader's system) from a `contrast` value. */
export function parseContrast(raw) {
  if (raw == null) return null;
  const text = String(raw).trim().toLowerCase();
  if (MORE.has(text)) return 'more';
  if (NORMAL.has(text)) return 'normal';
  console.warn(`<boids-flock>: contrast=${JSON.stringify(text.slice(0, 40))} is not "more" or "normal"; following the system`);
  return null;
}

export class Contrast {
  /**
   * `element`: the <boids-flock> it styles (its class; the page's <html> when `isPage`);
   * `option(name)`: an option's raw value; `getView`, `getToggle`: the View and the panel's
   * toggle now (either may be missing); `onChoice`: a choice was made (the address bar).
   */
  constructor({ element, isPage, option, getView, getToggle, onChoice }) {
    Object.assign(this, { element, isPage, option, getView, getToggle, onChoice });
    /** The reader's choice by the toggle: "more", "normal", or undefined (the option decides). */
    this.chosen = undefined;
  }

  /** The look chosen for this flock ("more", "normal"), or null: the system's. */
  choice() {
    return this.chosen !== undefined ? this.chosen : parseContrast(this.option('contrast'));
  }

  /** Whether the projector look is on. */
  isOn() {
    const choice = this.choice();
    return choice ? choice === 'more' : Boolean(prefersMore?.matches);
  }

  /** Shows the look this flock should have: its class, the View's cones, the toggle. */
  apply() {
    const on = this.isOn();
    this.element.classList.toggle('bf-contrast', on);
    if (this.isPage()) document.documentElement.dataset.contrast = on ? 'more' : 'normal';
    this.getToggle()?.setAttribute('aria-pressed', String(on));
    try {
      this.getView()?.setContrast?.(on);
    } catch (error) {
      if (this.element.state !== 'error') throw error;
    }
  }

  /** The panel's toggle: the other look, kept in the address bar (url="sync") and shared links. */
  toggle() {
    this.chosen = this.isOn() ? 'normal' : 'more';
    this.apply();
    this.onChoice();
  }

  /** The `contrast` attribute changed: it decides again. */
  optionChanged() {
    this.chosen = undefined;
    this.apply();
    this.onChoice();
  }

  /** For a link: `contrast` when it was chosen (by the toggle, an attribute or the URL). */
  query(query) {
    query.delete('contrast');
    const choice = this.choice();
    if (choice) query.set('contrast', choice);
  }
}
