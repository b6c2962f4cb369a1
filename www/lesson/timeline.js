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
// Methods mixed into BoidsFlock (boids-embed.js); `this` is the element. The bar under the
// stage shows with `timeline` (the full page has it; an embed when asked).

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

export const timelineMethods = {
  /** After a flock is made: a history of its own, and the moment of `state` or `#state=` to load. */
  setupTimeline() {
    this.history = new History();
    this.historyDirty = false;
    this.onPanel ??= () => this.buildTimeline();
    this.addEventListener('boids-flock:panel', this.onPanel);
    const source = this.getAttribute('state') ?? (this.urlMode ? stateInHash() : null);
    if (source) this.loadState(source);
  },

  /** A method of the flock ran (boids-embed.js `watch`): a mutating one marks a snapshot due. */
  flockCalled(method) {
    if (MUTATING.test(method)) this.historyDirty = true;
  },

  /**
   * Before each step: a snapshot when one is due (CHECKPOINT_EVERY) or the flock was changed;
   * with `now`, of the present unless one is kept of it already (a seek keeps where it left).
   */
  keepHistory(now = false) {
    if (!this.history || !this.flock) return;
    const kept = now ? this.history.at(this.steps)?.step === this.steps : !this.history.due(this.steps);
    if (!this.historyDirty && kept) return;
    this.history.record(this.steps, this.flock.snapshot(), this.historyDirty);
    this.historyDirty = false;
  },

  /** The kept flock time in seconds: { start, end, now } (`kept` snapshots; `limited` by memory). */
  get timeline() {
    const h = this.history;
    if (!h || !this.flock) return null;
    const { start, end } = h.range(this.steps);
    return { start: start * STEP, end: end * STEP, now: this.steps * STEP, kept: h.points.length, limited: h.limited };
  },

  /**
   * Goes to flock time `time` (seconds, within `timeline`): the snapshot before it, stepped
   * forward to it; paused there. A TypeError for a non-number, a RangeError outside the kept span.
   */
  seek(time, { source = 'api' } = {}) {
    if (typeof time !== 'number') throw new TypeError(`seek: time must be a number of seconds, not ${typeof time}`);
    const span = this.timeline;
    if (!span) throw new RangeError('seek: the flock is not running');
    if (!Number.isFinite(time) || time < span.start - STEP / 2 || time > span.end + STEP / 2) {
      throw new RangeError(`seek: ${time} s is outside the timeline (${span.start.toFixed(2)}–${span.end.toFixed(2)} s)`);
    }
    this.keepHistory(true); // the present is kept too: seeking forward again finds it
    const target = Math.min(Math.round(time / STEP), this.history.range(this.steps).end);
    const point = this.history.at(target);
    const fresh = Flock.fromSnapshot(point.bytes);
    try {
      for (let step = point.step; step < target; step++) fresh.step(STEP);
    } catch (error) {
      fresh.free();
      throw error;
    }
    this.adoptFlock(fresh, target);
    this.paused = true;
    this.emit?.('boids-seek', { time: target * STEP, source });
    return target * STEP;
  },

  /**
   * Makes `fresh` this element's flock at step `steps` (the old one freed); controls follow.
   * `el.flock` stays the same handle (a script may keep it): the new flock goes behind it.
   */
  adoptFlock(fresh, steps) {
    this.sharing.drop(); // a shared step handed out from the old flock never lands on this one
    this.plot?.dropSurvey(); // its survey was the old flock's
    const old = this.swapIn(this.flock, fresh);
    this.letGo(() => old.free());
    this.steps = steps;
    this.historyDirty = false;
    this.paramWatch.remember(); // a moment is no change of a setting
    this.changed();
    this.showTimeline();
    wake();
  },

  /** Loads a moment (`state` text, a file's URL): the flock continues from it, paused until it has. */
  loadState(source) {
    this.momentPending = true;
    const done = moment()
      .then(({ loadMoment }) => loadMoment(source))
      .then((bytes) => {
        if (!this.flock) return;
        const fresh = Flock.fromSnapshot(bytes);
        this.history.clear();
        this.adoptFlock(fresh, Math.round(fresh.elapsed() / STEP));
      })
      .catch((error) => warn(`${error.message}; starting from the seed instead`))
      .finally(() => {
        this.momentPending = false;
        wake();
      });
    this.momentLoaded = done;
    return done;
  },

  /** A link that opens this very moment (the full page, or this page when it syncs its URL). */
  async momentLink() {
    const { encodeMoment, LINK_MAX } = await moment();
    const text = await encodeMoment(this.flock.snapshot());
    if (text.length > LINK_MAX) {
      throw new RangeError(`a moment of ${this.flock.count()} boids is too large for a link; use flock.snapshot() and a state file`);
    }
    const url = new URL(this.shareUrl());
    url.hash = `state=${text}`;
    return url.href;
  },

  // ---- the bar under the stage ----------------------------------------------------------

  buildTimeline() {
    const on = this.option('timeline') != null ? isOn(this.option('timeline')) : this.layout === 'full';
    this.ui.timeline = null;
    if (!on || !this.flock || !this.ui.stage) return;
    const t = this.text.ui;
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
    slider.id = this.idFor('timeline');
    slider.setAttribute('aria-label', t('timeline'));
    slider.addEventListener('input', () => this.trySeek(Number(slider.value)));
    const time = element('output', 'bf-timeline-time');
    time.htmlFor = slider.id;
    const link = button('bf-moment-link', t('momentLink'), () => this.copyMomentLink());
    link.title = t('momentLinkTitle');
    const said = element('span', 'bf-timeline-said');
    said.setAttribute('aria-live', 'polite');
    bar.append(back, slider, forward, time, link, said);
    const stage = this.ui.stage;
    stage.after(bar);
    this.ui.timeline = { bar, slider, time, said, link };
    this.showTimeline();
  },

  /** The bar shows the kept span and where the flock is (a few times a second: readouts). */
  showTimeline() {
    const ui = this.ui?.timeline;
    const span = this.timeline;
    if (!ui || !span) return;
    ui.slider.min = String(span.start);
    ui.slider.max = String(span.end);
    ui.slider.value = String(span.now);
    const format = (s) => new Intl.NumberFormat(this.lang_, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(s);
    const fill = (key, values) => this.text.ui(key).replace(/\{(\w+)\}/g, (_, name) => values[name]);
    const words = fill('timelineAt', { now: format(span.now), end: format(span.end) });
    ui.slider.setAttribute('aria-valuetext', words);
    ui.time.textContent = `${format(span.now)} / ${format(span.end)} ${this.text.ui('seconds')}`;
    ui.time.title = span.limited ? fill('timelineLimited', { kept: format(span.end - span.start) }) : '';
  },

  trySeek(time) {
    try {
      this.seek(time, { source: 'user' });
    } catch (error) {
      warn(error.message);
    }
  },

  /** One frame (1/60 s) back or forward: back within the kept span, forward from now. */
  stepBy(frames) {
    this.paused = true;
    if (frames > 0 && this.timeline && this.steps >= this.history.range(this.steps).end) {
      this.step();
      this.showTimeline();
      return;
    }
    const span = this.timeline;
    if (span) this.trySeek(Math.max(span.start, Math.min(span.end, span.now + frames * STEP)));
  },

  async copyMomentLink() {
    const ui = this.ui?.timeline;
    let said;
    try {
      const href = await this.momentLink();
      await navigator.clipboard.writeText(href);
      said = this.text.ui('momentCopied');
    } catch (error) {
      warn(error.message);
      said = this.text.ui('momentTooLarge');
    }
    if (ui) ui.said.textContent = said;
  },
};
