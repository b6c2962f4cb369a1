// <boids-flock>: the whole demo as one custom element, for the full page, the iframe form
// (embed.html) and teachers' own pages alike. A lesson page needs only
//
//   <script type="module" src=".../www/boids-embed.js"></script>
//   <boids-flock count="800" cohesion="2.5" controls="separation alignment cohesion"></boids-flock>
//
// Attributes (see docs/embedding.md):
// - every parameter of `Flock.params()`, spelled in lower case or kebab-case
//   (`separationradius` or `separation-radius`); aliases `predator`, `mode="2d|3d"`, `species`;
// - `preset`: a preset's name (`fishBall`), applied before the parameters beside it;
// - `controls`: which sliders show ("all", "none", or names); `lang`: en, uk, pl or ru;
//   `paused`; `readout`; `share` (a Copy link button); `record="0"` (no Record and Picture
//   buttons); `contrast="more|normal"` (the
//   projector look, contrast.js; else the reader's `prefers-contrast`); `explain` (the
//   explanation, behind a "How it works" button); `open`: panel groups open at first ("hawks wind", "how");
//   `controls` may also name the tools `presets`, `obstacles` (click the scene to add one)
//   and `pointer` (hold the pointer down to attract or repel the flock); "all" has them;
// - a lesson's words and view, as the studio (studio.html) writes them: `lesson-title`,
//   `predict`, `notice`, `try` (shown beside the flock as text, prompts.js) and
//   `camera="yaw pitch zoom"` (the view it starts from, gl-context.js);
// - read once: `layout="full"` (stage beside a panel, the full page), `url="read|sync"`
//   (settings from this document's URL; "sync" writes them back), `page` (the document's
//   main instance: fixed element ids, `window.flock`/`window.view`, `<html data-boids>`).
//
// Each instance owns its Flock, View (WebGL2 context), camera and controls. No simulation
// logic here: ranges and defaults come from the parameter table.
//
// The element is a shell with parts (issue 41): this file holds its life (setup, teardown,
// attributes), its frames and its public API; each other job is an object of its own, made in
// the constructor, that owns its state and is given what it needs: `settings` (the URL,
// values set on purpose, the language: lesson/url-sync.js), `panel` (stage and panel:
// panel/panel.js), `sceneTools` (obstacles and the pointer: panel/scene.js), `gl` (the WebGL
// context's life: core/gl-context.js), `instruments` (inspector, look, plot:
// instruments/instruments.js), `contrast` (the projector look), `locks` (lesson/locks.js),
// `paramWatch` (which parameters moved: lesson/events.js), `rewind` (lesson/timeline.js) and
// `sharing` (steps shared among workers: core/threads.js); keys are a function
// (panel/keys.js). Every change of a parameter reaches `hub` (core/hub.js), where the
// `boids-change` event, the address bar and the rewind's next snapshot listen. The parts that
// need much of the element take it as their `host` and list at their constructor what they
// ask of it.
//
// Long because it is the shell of ten parts: their wiring, and the public API that asks
// them (select, seek, setTrails, ...), besides the element's life and its frame loop.

// First: i18n.js asks for the page's language tables as it runs, before wasm-load.js starts
// the wasm (a module runs in import order, and wasm-load.js awaits the wasm at top level).
import { likelyLoaded } from './i18n/texts.js';
import { PRESETS, SPECS, build, errorText, initError, isTrap, panicMessage, version } from './core/wasm-load.js';
import { writeParam, OPTIONS, isOn } from './core/settings.js';
import { register, unregister, pool, wake } from './core/loop.js';
import { makeHandle } from './core/handle.js';
import { NAMES, quote, Settings, warn } from './lesson/url-sync.js';
import { Panel } from './panel/panel.js';
import { SceneTools } from './panel/scene.js';
import { handleKey } from './panel/keys.js';
import { GlContext } from './core/gl-context.js';
import { INSTRUMENT_OPTIONS, Instruments } from './instruments/instruments.js';
import { Contrast } from './panel/contrast.js';
import { LOCK_OPTIONS, Locks } from './lesson/locks.js';
import { SETTERS, ParamWatch, emit } from './lesson/events.js';
import { ChangeHub } from './core/hub.js';
import { PROMPT_ATTRIBUTES, showPrompts } from './lesson/prompts.js';
import { TIMELINE_OPTIONS, Rewind } from './lesson/timeline.js';
import { StepSharing } from './core/threads.js';

/** Fixed simulation step, seconds: motion does not depend on the display's refresh rate. */
const STEP = 1 / 60;
/** At most this many steps per frame (a 30 Hz display needs two); a longer backlog is dropped. */
const MAX_STEPS_PER_FRAME = 4;
/** A second step in one frame only while the frame's steps have taken less than this, ms. */
const STEP_BUDGET_MS = 8;
/** How often the readouts refresh, ms. */
const READOUT_PERIOD = 500;

const STYLESHEET = new URL('./boids-flock.css', import.meta.url).href;

// The element's stylesheet, unless the page links it already (a file, so a strict CSP allows it).
// The lesson bundle carries it as text (scripts/build-lesson-bundle.mjs defines BOIDS_LESSON_CSS).
if (typeof BOIDS_LESSON_CSS === 'string') {
  const style = document.createElement('style');
  style.textContent = BOIDS_LESSON_CSS;
  document.head.append(style);
} else if (![...document.querySelectorAll('link[rel~="stylesheet"]')].some((link) => link.href === STYLESHEET)) {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = STYLESHEET;
  document.head.append(link);
}

let serial = 0;

const reducedMotion = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

export class BoidsFlock extends HTMLElement {
  static get observedAttributes() {
    return [...NAMES.attributes, ...OPTIONS, ...INSTRUMENT_OPTIONS, ...LOCK_OPTIONS, 'preset', 'contrast', 'camera', 'threads', ...PROMPT_ATTRIBUTES, ...TIMELINE_OPTIONS];
  }

  /** The parameter table this element was built from (`Flock.params()`). */
  static get params() {
    return SPECS;
  }

  /** Which build of the simulation runs: 'relaxed-simd' or 'simd128' (null if none loaded). */
  static get build() {
    return build;
  }

  /** The version of the simulation that runs (Cargo.toml's, e.g. "0.1.0"; null if none loaded). */
  static get version() {
    return initError ? null : version();
  }

  /** The presets the preset buttons apply (`Flock.presets()`). */
  static get presets() {
    return PRESETS;
  }

  /** Most WebGL contexts all instances on the page hold at once (default 8). */
  static get maxContexts() {
    return pool.limit;
  }

  static set maxContexts(limit) {
    pool.limit = Math.max(1, Math.floor(Number(limit)) || 1);
  }

  constructor() {
    super();
    this.flock = null;
    this.view = null;
    this.canvas = null;
    this.state = 'loading';
    this.inView = false;
    this.lastSeen = 0;
    /** Simulation steps taken so far (for tests and curious teachers). */
    this.steps = 0;
    // The parts that are objects of their own, each given what it needs (issue 41). Every
    // change of a parameter reaches the hub, and what follows one listens there: the
    // `boids-change` event, the address bar, the rewind's next snapshot.
    this.panel = new Panel(this);
    this.settings = new Settings(this);
    this.gl = new GlContext(this);
    this.instruments = new Instruments(this);
    this.sceneTools = new SceneTools(this);
    this.hub = new ChangeHub();
    this.rewind = new Rewind(this);
    this.sharing = new StepSharing({
      getFlock: () => this.flock,
      asked: () => this.getAttribute('threads') ?? this.settings.url.get('threads'),
      canTakeIn: () => this.active() && !this.paused_ && !this.rewind.pending,
      owed: () => this.backlog,
      beforeHandOut: () => this.rewind.keep(),
      onTaken: (dt) => {
        this.steps += 1;
        this.backlog = Math.max(0, this.backlog - dt);
        this.flown = (this.flown ?? 0) + dt;
      },
      onSpent: (ms) => {
        this.simTime = (this.simTime ?? 0) + ms;
      },
    });
    this.paramWatch = new ParamWatch({ getFlock: () => this.flock, hub: this.hub, onApiChange: () => this.changed() });
    this.locks = new Locks({ option: (name) => this.option(name) });
    this.contrast = new Contrast({
      element: this,
      isPage: () => this.isPage,
      option: (name) => this.option(name),
      getView: () => this.view,
      getToggle: () => this.panel.ui?.contrast,
      onChoice: () => this.scheduleUrl(),
    });
    this.hub.subscribe((change) => this.emit('boids-change', change));
    this.hub.subscribe(() => this.scheduleUrl());
    this.hub.subscribe(() => {
      this.rewind.dirty = true; // the rewind keeps a snapshot before the next step (timeline.js)
    });
    /** Each handle `watch` made → its `swap` (core/handle.js). */
    this.swaps = new WeakMap();
    this.addEventListener('keydown', (event) => this.onKey(event));
  }

  // ---- lifecycle ------------------------------------------------------------------------

  connectedCallback() {
    if (this.teardownPending) {
      this.teardownPending = false; // moved within the document: keep everything
      return;
    }
    if (this.flock || this.state === 'error') return;
    this.setup();
  }

  disconnectedCallback() {
    if (!this.flock) return;
    this.teardownPending = true;
    queueMicrotask(() => {
      if (this.teardownPending && !this.isConnected) this.teardown();
      this.teardownPending = false;
    });
  }

  attributeChangedCallback(name, old, value) {
    if (PROMPT_ATTRIBUTES.includes(name)) return showPrompts(this); // the teacher's prompts (prompts.js)
    if (!this.flock || this.applying) return; // setup reads every attribute itself
    if (name === 'paused') {
      this.setPaused(value != null);
      return;
    }
    if (name === 'preset') {
      // Set later, a preset applies like its button; taken away, the values stay.
      const preset = value == null ? null : this.settings.applyPresetSetting(value, `preset=${quote(value)}`);
      if (preset) {
        this.emit('boids-preset', { name: preset.name, source: 'api' });
        this.changed();
      }
      return;
    }
    if (LOCK_OPTIONS.includes(name)) {
      this.locks.read();
      this.locks.clamp(this.flock);
      this.panel.buildUi();
      return;
    }
    if (name === 'contrast') {
      this.contrast.optionChanged();
      return;
    }
    if (name === 'state') {
      if (value) this.rewind.loadState(value); // timeline.js: the flock continues from that moment
      return;
    }
    if (name === 'timeline') {
      this.rewind.buildBar();
      return;
    }
    if (name === 'threads') {
      if (value === '1') this.sharing.stop(); // threads.js; "on": shared at any size; else where it pays
      return;
    }
    if (name === 'camera') {
      this.gl.cameraOptionChanged(value); // gl-context.js
      return;
    }
    if (INSTRUMENT_OPTIONS.includes(name)) {
      this.instruments.optionChanged(name, value);
      return;
    }
    if (OPTIONS.includes(name)) {
      if (name === 'lang') {
        this.settings.chooseLang();
        this.scheduleUrl();
      }
      if (name === 'open') this.settings.openSet = null; // read again from the attribute
      this.panel.buildUi();
      return;
    }
    const found = NAMES.resolve(name);
    if (found?.missing) {
      warn(`${name}: this build has no "${found.missing}" parameter; ignored`);
      return;
    }
    if (!found) return;
    if (value == null) {
      writeParam(this.flock, found.spec, found.spec.default);
      this.settings.explicit.delete(found.spec.name);
    } else {
      this.settings.apply(found, value, `${name}=${quote(value)}`);
    }
    this.changed();
  }

  setup() {
    this.uid = `boids-flock-${++serial}`;
    this.isPage = this.hasAttribute('page');
    this.layout = this.getAttribute('layout') === 'full' ? 'full' : 'compact';
    this.settings.setup();
    this.sceneTools.keyPointer = null;
    this.playedOnce = false;
    // Fresh context state (the element may have been removed and added again).
    this.view = null;
    this.gl.reset();
    this.coverReason = null;
    this.panel.message = null;
    this.settings.chooseLang();
    this.locks.read(); // before the flock: createFlock brings its values into the ranges
    if (this.isPage && !this.pageHooks) this.catchPageErrors();

    this.canvas = this.makeCanvas();
    this.resizer = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1].contentRect;
      this.cssSize = { width: box.width, height: box.height };
      this.gl.resize();
    });
    this.resizer.observe(this.canvas);

    let error = initError;
    if (!error) {
      try {
        this.flock = this.settings.createFlock();
      } catch (thrown) {
        this.flock?.free();
        this.flock = null;
        error = thrown;
      }
    }
    if (this.flock) {
      this.paramWatch.remember(); // the start is no change: events tell what comes after it
      this.instruments.readOptions();
      this.rewind.setup(); // the rewind's history, and a moment to start from (timeline.js)
    }
    this.panel.buildUi();
    if (error) {
      this.fail(error);
      return;
    }
    if (this.isPage) window.flock = this.flock;

    const paused =
      this.hasAttribute('paused') ? isOn(this.getAttribute('paused')) : isOn(this.settings.url.get('paused'));
    this.startedPaused = paused || reducedMotion();
    this.applying = true;
    this.toggleAttribute('paused', this.startedPaused);
    this.applying = false;
    this.setPaused(this.startedPaused);
    this.setState('loading');
    register(this);
    this.scheduleUrl();
  }

  teardown() {
    unregister(this);
    this.sharing.stop(); // threads.js: its workers end with the element
    this.keeper?.stop(); // recorder.js: a clip being recorded ends with it, not at its 30 s
    this.resizer?.disconnect();
    this.gl.dropView({ lose: true });
    this.letGo(() => this.flock?.free());
    this.flock = null;
    if (this.isPage) window.flock = window.view = undefined;
    this.settings.stop();
    this.gl.cancelTimers();
  }

  /**
   * How many threads step this flock now: the workers sharing its steps, or 1 (asking starts
   * nothing: the first frame that steps a flock big enough starts its workers).
   */
  threads() {
    return this.sharing.threads();
  }

  /** The interface language in use: "en", "uk", "pl" or "ru". */
  get language() {
    return this.settings.lang;
  }

  // ---- settings, language and links (lesson/url-sync.js) ------------------------------------

  /** The words of the interface language (i18n/texts.js), and its code. */
  get text() {
    return this.settings.text;
  }

  get lang_() {
    return this.settings.lang;
  }

  /** An option's raw value: the URL (url mode) over the attribute; for `lang` the other way round. */
  option(name) {
    return this.settings.option(name);
  }

  /** Sliders, count and address bar after a change of settings. */
  changed() {
    this.settings.changed();
  }

  /** A link to the full page with every setting that differs from its default, and the seed. */
  shareUrl() {
    return this.settings.shareUrl();
  }

  /** The address bar follows the settings (url="sync"), a moment after the last change. */
  scheduleUrl() {
    this.settings.scheduleUrl();
  }

  // ---- the rewind (lesson/timeline.js) ----------------------------------------------------

  /** Goes to flock time `time` (seconds, within `timeline`), paused there; returns the time. */
  seek(time, options) {
    return this.rewind.seek(time, options);
  }

  /** The kept flock time in seconds: { start, end, now, kept, limited }, or null. */
  get timeline() {
    return this.rewind.span();
  }

  /** A link that opens this very moment. */
  momentLink() {
    return this.rewind.momentLink();
  }

  /** Whether a moment (`state`) is being loaded; `momentLoaded`, the promise of the last. */
  get momentPending() {
    return this.rewind.pending;
  }

  get momentLoaded() {
    return this.rewind.loaded;
  }

  /** The bar under the stage shows where the flock is now (the readouts do it a few times a second). */
  showTimeline() {
    this.rewind.showBar();
  }

  /** A shortcut key (panel/keys.js), run through what the element does. */
  onKey(event) {
    handleKey(event, {
      togglePause: () => {
        this.paused = !this.paused;
      },
      rebuild: () => this.rebuild(),
      showKeys: () => this.panel.showKeys(),
      addObstacle: () => this.sceneTools.addObstacleAhead(),
      removeObstacle: () => this.sceneTools.removeLastObstacle(),
      pointer: (mode) => this.sceneTools.toggleKeyPointer(mode),
      pointerOn: () => Boolean(this.sceneTools.keyPointer),
      selectNext: (step) => this.selectNext(step),
      sayFigures: () => this.instruments.sayFigures(),
      selected: () => this.selectedId != null,
      unselect: () => this.select(null),
    });
  }

  /** A canvas for the View, with the camera's and the scene tools' input (panel/scene.js). */
  makeCanvas() {
    return this.sceneTools.makeCanvas();
  }

  // ---- Record and Picture (instruments/recorder.js, loaded on the first use) ----------------

  /** Records the stage as WebM for `seconds` (at most 30; Stop ends it sooner): a promise of the Blob. */
  record(options) {
    return this.keeping().then((keeper) => keeper.record(options));
  }

  /** The stage as it is now (the flock, its overlay, the sky) as PNG: a promise of the Blob. */
  picture() {
    return this.keeping().then((keeper) => keeper.picture());
  }

  /** The recorder (`keeper`, which takes each frame drawn while it records), made once. */
  keeping() {
    this.keeperLoad ??= import('./instruments/recorder.js').then(
      ({ Keeper }) => (this.keeper = new Keeper(this)),
      (error) => {
        this.keeperLoad = null; // the next press tries again
        throw error;
      },
    );
    return this.keeperLoad;
  }

  // ---- the instruments (instruments/instruments.js) -------------------------------------------

  /** Selects boid `id` (from `flock.ids()`) to inspect, or none with null; whether one has it. */
  select(id) {
    return this.instruments.select(id);
  }

  /** The selected boid's id, or null. */
  get selectedId() {
    return this.instruments.selectedId;
  }

  /** Steps the selection through the boids, the nearest the flock's centre first. */
  selectNext(direction = 1, options) {
    return this.instruments.selectNext(direction, options);
  }

  setColourBy(mode, options) {
    this.instruments.setColourBy(mode, options);
  }

  setTrails(on) {
    this.instruments.setTrails(on);
  }

  setFollow(on) {
    this.instruments.setFollow(on);
  }

  /** Simulated seconds per real second, 0.05–2. */
  setTimeScale(value, options) {
    this.instruments.setTimeScale(value, options);
  }

  get timeScale() {
    return this.instruments.timeScale;
  }

  /** The live plot (`plot.csv()`: its series as CSV), or null before the panel has one. */
  get plot() {
    return this.instruments.plot;
  }

  /** A View was made (a new one after a lost context too): the instruments hand it their state. */
  viewReady() {
    this.instruments.viewReady();
  }

  /** The context pool (core/loop.js) needs this instance's context for another one. */
  releaseContext() {
    this.gl.releaseContext();
  }

  /** The DOM the panel built (stage, readouts, controls, groups), for the iframe bridge and prompts. */
  get ui() {
    return this.panel.ui;
  }

  /** The tools `controls` offers: "presets", "obstacles", "pointer". */
  get features() {
    return this.panel.features;
  }

  /** Element ids: the page's instance keeps the fixed ids of the page contract (panel/panel.js). */
  idFor(name) {
    return this.panel.idFor(name);
  }

  /** Dispatches `type` on this element, bubbling and composed (lesson/events.js). */
  emit(type, detail) {
    emit(this, type, detail);
  }

  /** Whether the students' controls may not change parameter `name` (lesson/locks.js). */
  isLocked(name) {
    return this.locks.isLocked(name);
  }

  /** Parameter `name`'s range as the students' controls have it: `{ min, max }`, or null. */
  rangeOf(name) {
    return this.locks.rangeOf(name);
  }

  setState(state) {
    this.state = state;
    this.dataset.state = state;
    if (this.isPage) document.documentElement.dataset.boids = state;
    this.panel.showPaused();
  }

  catchPageErrors() {
    this.pageHooks = true;
    // On the page the element owns, any uncaught error is the simulation's, and Space and R
    // work while nothing in particular has the focus.
    window.addEventListener('error', (event) => this.fail(event.error ?? event.message, { logged: true }));
    window.addEventListener('unhandledrejection', (event) => this.fail(event.reason, { logged: true }));
    document.addEventListener('keydown', (event) => {
      if (event.target === document.body || event.target === document.documentElement) this.onKey(event);
    });
  }

  /**
   * `object` (this instance's Flock or View) behind a handle (core/handle.js) whose every
   * method call that traps the wasm module fails this instance first; with `setters` (the
   * Flock's), a call of a parameter's setter also has its change told (events.js) and a
   * mutating one marks a snapshot due (timeline.js). `swapIn` puts another object behind it.
   */
  watch(object, setters = false) {
    const onCall = setters
      ? (key) => {
          this.rewind.flockCalled(key);
          if (SETTERS.has(key)) this.paramWatch.flockTouched();
        }
      : null;
    const { handle, swap } = makeHandle(object, {
      onCall,
      onTrap: (error) => {
        if (isTrap(error)) this.fail(error);
      },
    });
    this.swaps.set(handle, swap);
    return handle;
  }

  /** Puts `fresh` behind `handle` (made by `watch`); returns the object it held before. */
  swapIn(handle, fresh) {
    return this.swaps.get(handle)(fresh);
  }

  /** Runs `release`, which frees wasm objects: one that trapped may throw there, and is let go. */
  letGo(release) {
    try {
      release();
    } catch (error) {
      if (this.state !== 'error') throw error;
    }
  }

  fail(error, { logged = false } = {}) {
    if (this.state === 'error') return;
    if (!logged) console.error(error);
    const panic = isTrap(error) || !(error instanceof Error) ? panicMessage() : null;
    const detail = panic ?? errorText(error);
    this.setState('error');
    this.coverReason = null;
    this.panel.showCover();
    this.panel.showMessage(this.text.ui('errorTitle'), `${detail} ${this.text.ui('errorReload')}`);
  }

  // ---- running ------------------------------------------------------------------------------

  get paused() {
    return this.hasAttribute('paused');
  }

  set paused(value) {
    this.toggleAttribute('paused', Boolean(value));
  }

  setPaused(paused) {
    if (!paused) this.playedOnce = true;
    if (paused) this.sharing.drop(); // a step out now would land on a flock the reader may change
    this.paused_ = paused;
    this.idle();
    this.panel.showPaused();
    wake();
  }

  /** One step of 1/60 s (what the Step button does). */
  step() {
    if (!this.flock) return;
    const start = performance.now();
    this.advanceOne();
    this.steps += 1;
    this.simTime = (this.simTime ?? 0) + performance.now() - start;
    wake();
  }

  /** One step of 1/60 s: the model's, or the source's. */
  advanceOne() {
    if (this.source_) {
      this.source_.advance(this.flock, STEP);
    } else {
      this.rewind.keep();
      this.flock.step(STEP);
    }
  }

  /**
   * What moves the birds: null for the model; else an object whose `advance(flock, dt)` moves
   * them each step (a recorded flock, www/nature/player.js, through `flock.setBirds`). The
   * pause, the time scale, the view, the inspector and the plot work as for the model; the
   * rewind keeps no moments meanwhile.
   */
  get source() {
    return this.source_ ?? null;
  }

  set source(value) {
    if (value != null && typeof value.advance !== 'function') {
      throw new TypeError('boids-flock: source must be null or an object with an advance(flock, dt) method');
    }
    this.source_ = value ?? null;
    this.sharing.drop();
    wake();
  }

  /** Scatters the flock afresh from its seed with the current settings. */
  rebuild() {
    if (!this.flock) return;
    this.select(null); // the boids are numbered afresh: that id is another bird now
    this.instruments.plot?.clear();
    this.steps = 0;
    this.flock.rebuild();
    this.changed();
    wake();
  }

  setInView(inView) {
    this.inView = inView;
    this.lastSeen = performance.now();
    if (inView) this.gl.ensureView();
  }

  /** Whether the shared loop should give this instance a frame now. */
  active() {
    return Boolean(
      this.flock &&
        this.view &&
        !this.gl.lost &&
        this.inView &&
        !document.hidden &&
        this.isConnected &&
        this.state !== 'error',
    );
  }

  /** Not drawing this frame: forget the clock, so nothing is owed when it resumes. */
  idle() {
    this.last = null;
    this.backlog = 0;
    this.windowStart = null;
    this.flown = this.owed = 0;
  }

  frame(now) {
    try {
      // A moment being loaded (`state`, timeline.js): drawn, not stepped, until it arrives.
      if (!this.paused_ && !this.rewind.pending) {
        // Slow motion: `timeScale` simulated seconds per real second (instruments.js).
        const scale = this.instruments.timeScale ?? 1;
        const elapsed = this.last == null ? STEP * scale : Math.max(0, (now - this.last) / 1000) * scale;
        this.backlog = (this.backlog ?? 0) + elapsed;
        this.owed = (this.owed ?? 0) + elapsed;
        const start = performance.now();
        if (!this.source_ && this.sharing.sharesSteps()) {
          this.sharing.share(STEP); // threads.js: handed out to workers, taken in when they answer
        } else {
          // Steps owed, while they fit in the frame's budget: a flock that cannot keep up with
          // the display flies slower than real time (the readout says so) rather than taking
          // several slow steps a frame, which made frames at 100,000 boids 160 ms long.
          let steps = 0;
          while (this.backlog >= STEP && steps < MAX_STEPS_PER_FRAME && (steps === 0 || performance.now() - start < STEP_BUDGET_MS)) {
            this.advanceOne();
            this.steps += 1;
            this.backlog -= STEP;
            this.flown = (this.flown ?? 0) + STEP;
            steps += 1;
          }
        }
        // Behind: what is owed beyond one step is let go (the clock runs slower), never caught up.
        this.backlog = Math.min(this.backlog, STEP);
        this.simTime = (this.simTime ?? 0) + performance.now() - start;
      }
      this.last = now;
      this.lastSeen = now;
      this.view.draw(this.flock);
      this.keeper?.drawn(); // a clip being recorded takes the frame just drawn (recorder.js)
      this.readouts(now);
      this.instruments.frame(now);
      if (this.state === 'loading') {
        this.setState('running');
        this.panel.startHintTimer?.();
      }
    } catch (error) {
      this.fail(error);
    }
  }

  /** FPS and simulation ms per frame, averaged over READOUT_PERIOD. */
  readouts(now) {
    const { fps, sim, search } = this.panel.ui;
    if (this.windowStart == null) {
      this.windowStart = now;
      this.frames = 0;
      this.simTime = 0;
      return;
    }
    this.frames += 1;
    const elapsed = now - this.windowStart;
    if (elapsed < READOUT_PERIOD) return;
    if (fps) {
      const rate = (1000 * this.frames) / elapsed;
      const format = (value, digits) =>
        new Intl.NumberFormat(this.lang_, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
      fps.textContent = format(rate, rate < 10 ? 1 : 0);
      const ms = `${format(this.simTime / this.frames, 2)} ${this.text.ui('ms')}`;
      // Slower than real time (the steps can't keep up): say how much, as "0.6× real time".
      const pace = this.owed > 0 ? this.flown / this.owed : 1;
      sim.textContent = pace < 0.95 ? `${ms} · ${this.text.ui('realTime').replace('{pace}', format(pace, pace < 0.1 ? 2 : 1))}` : ms;
      // What finding neighbours cost in the last step (issue 42): "1.8M checks · 180K neighbours".
      const [checks, neighbours] = this.flock.searchStats();
      const compact = new Intl.NumberFormat(this.lang_, { notation: 'compact', maximumFractionDigits: 1 });
      search.textContent = this.text.ui('searchStats').replace('{checks}', compact.format(checks)).replace('{neighbours}', compact.format(neighbours));
      const threads = this.sharing.threads();
      if (this.threadsShown !== threads) {
        this.threadsShown = threads;
        sim.title = this.threadsShown > 1 ? this.text.ui('threads').replace('{n}', this.threadsShown) : '';
      }
    }
    this.panel.showCount(); // the count may also change from the console or an embedding page
    this.panel.showLegend(); // and so may the number of species
    this.rewind.showBar();
    this.windowStart = now;
    this.frames = 0;
    this.simTime = 0;
    this.flown = this.owed = 0;
  }
}


// The languages the flocks here will show, fetched alongside the wasm (i18n.js): waiting
// for them (a few KB, long done when the wasm is) keeps the first paint from flashing English.
await likelyLoaded;
customElements.define('boids-flock', BoidsFlock);
