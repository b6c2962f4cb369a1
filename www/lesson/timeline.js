// Rewind (issue 28): the element keeps the last minute of flock time, so a student can drag
// back to the moment a boid broke away, step through it frame by frame and play on from there.
//
// What is kept: snapshots (`flock.snapshot()`, every bit the next step reads) every
// CHECKPOINT_EVERY steps, and one more whenever something changes the flock between steps (a
// slider, a preset, an obstacle, the pointer: any of the flock's mutating methods, seen by
// boids-embed.js `watch`). Every step is the same STEP of 1/60 s, so any moment between two
// snapshots is the earlier one stepped forward again, bit for bit (the simulation is
// deterministic: tests/snapshot.rs). A seek replays at most CHECKPOINT_EVERY steps.
//
// Memory: a snapshot holds ~29 bytes a boid, so 1,500 boids keep 30 snapshots (60 s) in
// 1.3 MB, 10,000 in 8.7 MB; the budget is MEMORY_BUDGET, and a larger flock keeps fewer
// seconds (100,000 boids: 11 snapshots, ~20 s) — the timeline says how many it holds.
// A change after a seek starts a new branch: the snapshots after that moment are dropped.
//
// `Rewind` is the part that owns the history, the moment being loaded and the bar under the
// stage (shown with `timeline`: the full page has it; an embed when asked). What it asks of
// the element (`host`) is listed at its constructor; the element's `seek`, `timeline`,
// `momentLink`, `momentPending` and `momentLoaded` are its own.

import { Flock } from '../core/wasm-load.js';
import { History } from './history.js';
import { button, element } from '../core/dom.js';
import { isOn } from '../core/settings.js';
import { warn } from './url-sync.js';
import { wake } from '../core/loop.js';

/** The element's fixed step (boids-embed.js STEP): flock time is steps × STEP. */
const STEP = 1 / 60;
/** moment.js (a moment as text and back), imported when a moment is loaded or linked: most
 * readers never do either, and the page is ~1 KB lighter without it. */
const moment = () => import('./moment.js');
/** The `state=` of this document's fragment (`#state=…`), or null. */
const stateInHash = () => new URLSearchParams(location.hash.slice(1)).get('state') || null;
/** The flock's methods that change what the next step does (the rest only read). */
const MUTATING = /^(set|apply|add|clear|remove|reset|place|rebuild)/;

export const TIMELINE_OPTIONS = ['timeline', 'state'];

export class Rewind {
  /**
   * `host`, the element, for: its flock (`flock`, and `swapIn`/`letGo` to replace it), its
   * steps (`steps`, `step()`, `paused`), what follows a change (`changed()`, the parts
   * `sharing`, `paramWatch`, `plot`), its events (`emit`), words and ids (`text`, `lang_`,
   * `idFor`, `option`, `layout`, `ui.stage`, `settings.urlMode`), its link (`shareUrl`) and
   * the page's Record and Picture (`panel.ui.keep`, taken into the bar).
   */
  constructor(host) {
    this.host = host;
    this.history = null;
    /** The flock changed since the last snapshot: one is kept before the next step. */
    this.dirty = false;
    /** A moment (`state`) is being loaded: the flock is drawn, not stepped, until it has. */
    this.pending = false;
    /** The promise of the last moment loaded. */
    this.loaded = null;
    /** The bar's parts, once built. */
    this.bar = null;
  }

  /** After a flock is made: a history of its own, and the moment of `state` or `#state=` to load. */
  setup() {
    const host = this.host;
    this.history = new History();
    this.dirty = false;
    this.onPanel ??= () => this.buildBar();
    host.addEventListener('boids-flock:panel', this.onPanel);
    const source = host.getAttribute('state') ?? (host.settings.urlMode ? stateInHash() : null);
    if (source) this.loadState(source);
  }

  /** A method of the flock ran (core/handle.js): a mutating one marks a snapshot due. */
  flockCalled(method) {
    if (MUTATING.test(method)) this.dirty = true;
  }

  /**
   * Before each step: a snapshot when one is due (CHECKPOINT_EVERY) or the flock was changed;
   * with `now`, of the present unless one is kept of it already (a seek keeps where it left).
   */
  keep(now = false) {
    const { flock, steps } = this.host;
    if (!this.history || !flock) return;
    const kept = now ? this.history.at(steps)?.step === steps : !this.history.due(steps);
    if (!this.dirty && kept) return;
    this.history.record(steps, flock.snapshot(), this.dirty);
    this.dirty = false;
  }

  /** The kept flock time in seconds: { start, end, now } (`kept` snapshots; `limited` by memory). */
  span() {
    const h = this.history;
    const { flock, steps } = this.host;
    if (!h || !flock) return null;
    const { start, end } = h.range(steps);
    return { start: start * STEP, end: end * STEP, now: steps * STEP, kept: h.points.length, limited: h.limited };
  }

  /**
   * Goes to flock time `time` (seconds, within `span()`): the snapshot before it, stepped
   * forward to it; paused there. A TypeError for a non-number, a RangeError outside the kept span.
   */
  seek(time, { source = 'api' } = {}) {
    if (typeof time !== 'number') throw new TypeError(`seek: time must be a number of seconds, not ${typeof time}`);
    const span = this.span();
    if (!span) throw new RangeError('seek: the flock is not running');
    if (!Number.isFinite(time) || time < span.start - STEP / 2 || time > span.end + STEP / 2) {
      throw new RangeError(`seek: ${time} s is outside the timeline (${span.start.toFixed(2)}–${span.end.toFixed(2)} s)`);
    }
    this.keep(true); // the present is kept too: seeking forward again finds it
    const target = Math.min(Math.round(time / STEP), this.history.range(this.host.steps).end);
    const point = this.history.at(target);
    const fresh = Flock.fromSnapshot(point.bytes);
    try {
      for (let step = point.step; step < target; step++) fresh.step(STEP);
    } catch (error) {
      fresh.free();
      throw error;
    }
    this.adopt(fresh, target);
    this.host.paused = true;
    this.host.emit('boids-seek', { time: target * STEP, source });
    return target * STEP;
  }

  /**
   * Makes `fresh` the element's flock at step `steps` (the old one freed); controls follow.
   * `el.flock` stays the same handle (a script may keep it): the new flock goes behind it.
   */
  adopt(fresh, steps) {
    const host = this.host;
    host.sharing.drop(); // a shared step handed out from the old flock never lands on this one
    host.plot?.dropSurvey(); // its survey was the old flock's
    const old = host.swapIn(host.flock, fresh);
    host.letGo(() => old.free());
    host.steps = steps;
    this.dirty = false;
    host.paramWatch.remember(); // a moment is no change of a setting
    host.changed();
    this.showBar();
    wake();
  }

  /** Loads a moment (`state` text, a file's URL): the flock continues from it, paused until it has. */
  loadState(source) {
    this.pending = true;
    const done = moment()
      .then(({ loadMoment }) => loadMoment(source))
      .then((bytes) => {
        if (!this.host.flock) return;
        const fresh = Flock.fromSnapshot(bytes);
        this.history.clear();
        this.adopt(fresh, Math.round(fresh.elapsed() / STEP));
      })
      .catch((error) => warn(`${error.message}; starting from the seed instead`))
      .finally(() => {
        this.pending = false;
        wake();
      });
    this.loaded = done;
    return done;
  }

  /** A link that opens this very moment (the full page, or this page when it syncs its URL). */
  async momentLink() {
    const { flock } = this.host;
    const { encodeMoment, LINK_MAX } = await moment();
    const text = await encodeMoment(flock.snapshot());
    if (text.length > LINK_MAX) {
      throw new RangeError(`a moment of ${flock.count()} boids is too large for a link; use flock.snapshot() and a state file`);
    }
    const url = new URL(this.host.shareUrl());
    url.hash = `state=${text}`;
    return url.href;
  }

  // ---- the bar under the stage ----------------------------------------------------------

  buildBar() {
    const host = this.host;
    const on = host.option('timeline') != null ? isOn(host.option('timeline')) : host.layout === 'full';
    // The page's Record and Picture (panel.js) sit at the bar's end; without a bar, under the stage.
    const keep = host.panel.ui.keep;
    if (keep && this.bar?.bar.contains(keep)) this.bar.bar.after(keep);
    this.bar?.bar.remove(); // `timeline` turned off, or on again: not a second bar
    this.bar = null;
    if (!on || !host.flock || !host.panel.ui.stage) return;
    const t = host.text.ui;
    const bar = element('div', 'bf-timeline');
    bar.setAttribute('role', 'group');
    bar.setAttribute('aria-label', t('timeline'));
    const back = button('bf-frame-back', '◀', () => this.stepBy(-1));
    back.setAttribute('aria-label', t('frameBack'));
    back.title = t('frameBack');
    const forward = button('bf-frame-forward', '▶', () => this.stepBy(1));
    forward.setAttribute('aria-label', t('frameForward'));
    forward.title = t('frameForward');
    const slider = element('input', 'bf-timeline-range');
    slider.type = 'range';
    slider.step = String(STEP);
    slider.id = host.panel.idFor('timeline');
    slider.setAttribute('aria-label', t('timeline'));
    slider.addEventListener('input', () => this.trySeek(Number(slider.value)));
    const time = element('output', 'bf-timeline-time');
    time.htmlFor = slider.id;
    const link = button('bf-moment-link', t('momentLink'), () => this.copyMomentLink());
    link.title = t('momentLinkTitle');
    const said = element('span', 'bf-timeline-said');
    said.setAttribute('aria-live', 'polite');
    bar.append(back, slider, forward, time, link, said);
    if (keep) bar.append(keep);
    host.panel.ui.stage.after(bar);
    this.bar = { bar, slider, time, said, link };
    this.showBar();
  }

  /** The bar shows the kept span and where the flock is (a few times a second: readouts). */
  showBar() {
    const ui = this.bar;
    const span = this.span();
    if (!ui || !span || !ui.bar.isConnected) return;
    const { text, lang_: lang } = this.host;
    ui.slider.min = String(span.start);
    ui.slider.max = String(span.end);
    ui.slider.value = String(span.now);
    const format = (s) => new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(s);
    const fill = (key, values) => text.ui(key).replace(/\{(\w+)\}/g, (_, name) => values[name]);
    const words = fill('timelineAt', { now: format(span.now), end: format(span.end) });
    ui.slider.setAttribute('aria-valuetext', words);
    ui.time.textContent = `${format(span.now)} / ${format(span.end)} ${text.ui('seconds')}`;
    ui.time.title = span.limited ? fill('timelineLimited', { kept: format(span.end - span.start) }) : '';
  }

  trySeek(time) {
    try {
      this.seek(time, { source: 'user' });
    } catch (error) {
      warn(error.message);
    }
  }

  /** One frame (1/60 s) back or forward: back within the kept span, forward from now. */
  stepBy(frames) {
    const host = this.host;
    host.paused = true;
    if (frames > 0 && this.span() && host.steps >= this.history.range(host.steps).end) {
      host.step();
      this.showBar();
      return;
    }
    const span = this.span();
    if (span) this.trySeek(Math.max(span.start, Math.min(span.end, span.now + frames * STEP)));
  }

  async copyMomentLink() {
    let said;
    try {
      const href = await this.momentLink();
      await navigator.clipboard.writeText(href);
      said = this.host.text.ui('momentCopied');
    } catch (error) {
      warn(error.message);
      said = this.host.text.ui('momentTooLarge');
    }
    if (this.bar) this.bar.said.textContent = said;
  }
}
