// <boids-flock>: the whole demo as one custom element, for the full page, the iframe form
// (embed.html) and teachers' own pages alike. A lesson page needs only
//
//   <script type="module" src=".../www/boids-embed.js"></script>
//   <boids-flock count="800" cohesion="2.5" controls="separation alignment cohesion"></boids-flock>
//
// Attributes (see docs/embedding.md):
// - every parameter of `Flock.params()`, spelled in lower case or kebab-case
//   (`separationradius` or `separation-radius`); aliases `predator`, `mode="2d|3d"`, `species`;
// - `controls`: which sliders show ("all", "none", or names); `lang`: en, uk, pl or ru;
//   `paused`; `readout`; `share` (a Copy link button); `explain` (the explanation panel);
//   `controls` may also name the tools `presets`, `obstacles` (click the scene to add one)
//   and `pointer` (hold the pointer down to attract or repel the flock); "all" has them;
// - read once: `layout="full"` (stage beside a panel, the full page), `url="read|sync"`
//   (settings from this document's URL; "sync" writes them back), `page` (the document's
//   main instance: fixed element ids, `window.flock`/`window.view`, `<html data-boids>`).
//
// Each instance owns its Flock, View (WebGL2 context), camera and controls. JS stays thin:
// no simulation logic here, ranges and defaults come from the parameter table.

import init, { Flock, View, takePanic, version } from '../boids.js';
import { texts, pickLang } from './i18n.js';
import { buildControls, formatValue, readParam, writeParam } from './controls.js';
import { attachCameraInput } from './camera-input.js';
import { OPTIONS, formatNumber, isOn, paramNames, parseControls } from './settings.js';
import { buildPresets, buildScene } from './tools.js';
import { pool, register, unregister, wake } from './loop.js';

/** Fixed simulation step, seconds: motion does not depend on the display's refresh rate. */
const STEP = 1 / 60;
/** At most this many steps per frame; a longer backlog is dropped, not caught up. */
const MAX_STEPS_PER_FRAME = 4;
/** How often the readouts refresh, ms. */
const READOUT_PERIOD = 500;
/** A context the browser took and did not give back within this time needs a click. */
const RESTORE_WAIT = 2000;
/** Settings changes reach the address bar this long after the last one, ms. */
const URL_DELAY = 250;
/** Radius of an obstacle added by a click, as a fraction of the world's side. */
const OBSTACLE_SIZE = 0.075;

const STYLESHEET = new URL('./boids-flock.css', import.meta.url).href;
/** The full page, where a shared link opens. */
const FULL_PAGE = new URL('../', import.meta.url).href;

// The element's stylesheet, unless the page links it already (a file, so a strict CSP allows it).
if (![...document.querySelectorAll('link[rel~="stylesheet"]')].some((link) => link.href === STYLESHEET)) {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = STYLESHEET;
  document.head.append(link);
}

/**
 * Whether `error` is the wasm module trapping: a `WebAssembly.RuntimeError` (a Rust panic
 * traps as "unreachable", after keeping its message for `takePanic()`). No argument of ours
 * makes a call trap; should one still (a bug), the flock it happened in shows the error and
 * stops, and every other flock on the page carries on.
 */
const isTrap = (error) => error instanceof WebAssembly.RuntimeError;

/** The panic behind a trap, in its own words, or null. */
function panicMessage() {
  try {
    return takePanic() ?? null;
  } catch {
    return null; // the module is past answering
  }
}

/** Whatever was thrown, as text (never throws itself: `String(Object.create(null))` does). */
function errorText(error) {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}

// The simulation comes in two builds of the same crate (scripts/build-relaxed.sh):
// - 'relaxed-simd', boids_relaxed_bg.wasm: the neighbour scan's multiply-adds fused, about
//   5 % faster; for browsers that validate relaxed SIMD (Chrome and Edge since 114);
// - 'simd128', boids_bg.wasm: for the others (SIMD128 is in Firefox 89+ and Safari 16.4+).
// A fused multiply-add rounds once where two steps round twice, so the same seed drifts apart
// between the builds after a while. `window.boidsBuild = 'simd128'` before this module loads
// runs the portable build everywhere: the same trajectory in every browser.
const WASM_FILES = { 'relaxed-simd': '../boids_relaxed_bg.wasm', simd128: '../boids_bg.wasm' };
/** A function returning `f32x4.relaxed_madd` of three zero vectors: valid only with relaxed SIMD. */
const RELAXED_SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, // header
  1, 5, 1, 96, 0, 1, 123, // type: () -> v128
  3, 2, 1, 0, // one function of that type
  10, 61, 1, 59, 0, // code: one body, no locals
  ...[0, 1, 2].flatMap(() => [253, 12, ...new Array(16).fill(0)]), // v128.const 0, three times
  253, 133, 2, 11, // f32x4.relaxed_madd, end
]);

function wantedBuild() {
  if (globalThis.boidsBuild === 'simd128') return 'simd128';
  try {
    return WebAssembly.validate(RELAXED_SIMD_PROBE) ? 'relaxed-simd' : 'simd128';
  } catch {
    return 'simd128';
  }
}

/** Loads the wanted build, or the portable one if that fails (say, a copy without the file). */
async function loadBuild() {
  const wanted = wantedBuild();
  if (wanted === 'relaxed-simd') {
    try {
      await init({ module_or_path: new URL(WASM_FILES[wanted], import.meta.url) });
      return wanted;
    } catch (error) {
      console.warn(`boids: ${WASM_FILES[wanted]} did not load (${error}); using boids_bg.wasm`);
    }
  }
  await init({ module_or_path: new URL(WASM_FILES.simd128, import.meta.url) });
  return 'simd128';
}

let initError = null;
let build = null;
try {
  build = await loadBuild();
} catch (error) {
  initError = error;
  console.error(error);
}

const SPECS = initError ? [] : Flock.params();
const PRESETS = initError ? [] : Flock.presets();
const NAMES = paramNames(SPECS);
const COUNT = SPECS.find((spec) => spec.name === 'count');
const SEED = SPECS.find((spec) => spec.name === 'seed');

let serial = 0;

function warn(message) {
  console.warn(`<boids-flock>: ${message}`);
}

/** A value as it may appear in a message: quoted, short, never interpreted. */
function quote(raw) {
  const text = String(raw);
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

function button(className, text, onClick) {
  const node = element('button', className, text);
  node.type = 'button';
  node.addEventListener('click', onClick);
  return node;
}

/** Lesson text with *emphasis*, {v} and {w_s} marks, as DOM nodes (never parsed as HTML). */
function richText(parent, source) {
  for (const part of source.split(/(\*[^*]+\*|\{[^}]+\})/)) {
    if (!part) continue;
    if (part.startsWith('*')) {
      parent.append(element('em', null, part.slice(1, -1)));
    } else if (part.startsWith('{')) {
      const [name, sub] = part.slice(1, -1).split('_');
      parent.append(element('var', null, name));
      if (sub) parent.append(element('sub', null, sub));
    } else {
      parent.append(part);
    }
  }
  return parent;
}

/** Where typing happens: keys pressed there are not shortcuts. */
function isTyping(target) {
  if (!(target instanceof Element)) return false;
  if (target.isContentEditable || target.closest('textarea, select')) return true;
  return target instanceof HTMLInputElement && !['range', 'checkbox', 'radio', 'button'].includes(target.type);
}

const reducedMotion = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

export class BoidsFlock extends HTMLElement {
  static get observedAttributes() {
    return [...NAMES.attributes, ...OPTIONS];
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
    /** The pointer tool: "off", "attract" or "repel" (a press on the scene holds it there). */
    this.pointerMode = 'off';
    this.features = new Set();
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
    if (!this.flock || this.applying) return; // setup reads every attribute itself
    if (name === 'paused') {
      this.setPaused(value != null);
      return;
    }
    if (OPTIONS.includes(name)) {
      if (name === 'lang') {
        this.chooseLang();
        this.scheduleUrl();
      }
      this.buildUi();
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
      this.explicit.delete(found.spec.name);
    } else {
      this.apply(found, value, `${name}=${quote(value)}`);
    }
    this.changed();
  }

  setup() {
    this.uid = `boids-flock-${++serial}`;
    this.isPage = this.hasAttribute('page');
    this.layout = this.getAttribute('layout') === 'full' ? 'full' : 'compact';
    const urlMode = this.getAttribute('url');
    this.urlMode = urlMode === 'sync' || urlMode === 'read' ? urlMode : null;
    this.url = this.urlMode ? new URLSearchParams(location.search) : new URLSearchParams();
    this.explicit = new Set();
    this.playedOnce = false;
    // Fresh context state (the element may have been removed and added again).
    this.view = null;
    this.loseContext = null;
    this.released = false;
    this.restoring = false;
    this.contextLost = false;
    this.freshCanvas = false;
    this.coverReason = null;
    this.message = null;
    this.chooseLang();
    if (this.isPage && !this.pageHooks) this.catchPageErrors();

    this.canvas = this.makeCanvas();
    this.resizer = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1].contentRect;
      this.cssSize = { width: box.width, height: box.height };
      this.resize();
    });
    this.resizer.observe(this.canvas);

    let error = initError;
    if (!error) {
      try {
        this.flock = this.createFlock();
      } catch (thrown) {
        this.flock?.free();
        this.flock = null;
        error = thrown;
      }
    }
    this.buildUi();
    if (error) {
      this.fail(error);
      return;
    }
    if (this.isPage) window.flock = this.flock;

    const paused =
      this.hasAttribute('paused') ? isOn(this.getAttribute('paused')) : isOn(this.url.get('paused'));
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
    this.resizer?.disconnect();
    this.dropView({ lose: true });
    this.letGo(() => this.flock?.free());
    this.flock = null;
    if (this.isPage) window.flock = window.view = undefined;
    clearTimeout(this.urlTimer);
    clearTimeout(this.restoreTimer);
  }

  // ---- settings -----------------------------------------------------------------------------

  /** An option's raw value: the URL (url mode) over the attribute; for `lang` the other way round. */
  option(name) {
    const fromUrl = this.url.has(name) ? this.url.get(name) : null;
    const fromAttribute = this.getAttribute(name);
    return name === 'lang' ? (fromAttribute ?? fromUrl) : (fromUrl ?? fromAttribute);
  }

  /** Settings from attributes, then the URL: name → [raw, where]. */
  collectSettings() {
    const settings = new Map();
    const take = (key, raw, where) => {
      const found = NAMES.resolve(key);
      if (found?.missing) warn(`${where}: this build has no "${found.missing}" parameter; ignored`);
      else if (found) settings.set(found.spec.name, [found, raw, where]);
    };
    for (const { name, value } of this.attributes) take(name, value, `${name}=${quote(value)}`);
    for (const [key, value] of this.url) take(key, value, `?${key}=${quote(value)}`);
    return settings;
  }

  /** Parses and sets one setting; a value that is not a number or known word changes nothing. */
  apply(found, raw, where) {
    const { spec } = found;
    const value = found.parse(raw);
    if (value === undefined) {
      const current = formatNumber(readParam(this.flock, spec));
      const expected = spec.kind === 'toggle' ? 'on/off, 1/0 or true/false' : `a number from ${spec.min} to ${spec.max}`;
      warn(`${where} is not a valid ${spec.name} (${expected}); keeping ${current}`);
      return false;
    }
    this.warnClamped(where, spec, value, writeParam(this.flock, spec, value));
    this.explicit.add(spec.name);
    return true;
  }

  /** The console warning for a setting the flock clamped into its parameter's range. */
  warnClamped(where, spec, value, applied) {
    if (spec.kind !== 'toggle' && Math.abs(applied - value) > spec.step / 2) {
      warn(`${where}: ${spec.name} runs from ${spec.min} to ${spec.max}; using ${formatNumber(applied)}`);
    }
  }

  createFlock() {
    const settings = this.collectSettings();
    // Count and seed go to the constructor; the rest are set afterwards, like any change.
    const initial = new Map();
    for (const spec of [COUNT, SEED]) {
      const entry = spec && settings.get(spec.name);
      if (!entry) continue;
      const [found, raw, where] = entry;
      const value = found.parse(raw);
      if (value === undefined) {
        warn(`${where} is not a valid ${spec.name} (a number from ${spec.min} to ${spec.max}); using the default`);
      } else {
        initial.set(spec, { value, where });
      }
    }
    const start = (spec) => {
      const value = initial.get(spec)?.value;
      return value === undefined ? undefined : Math.min(spec.max, Math.max(spec.min, value));
    };
    const flock = this.watch(new Flock(start(COUNT) ?? COUNT.default, SEED ? start(SEED) : undefined));
    this.flock = flock;
    for (const [spec, { value, where }] of initial) {
      this.explicit.add(spec.name);
      this.warnClamped(where, spec, value, readParam(flock, spec));
    }
    for (const [name, [found, raw, where]] of settings) {
      if (name !== 'count' && name !== 'seed') this.apply(found, raw, where);
    }
    // The start is "scattered from the seed with these settings", so a shared link (same
    // values, same seed) starts exactly where Rebuild would.
    flock.rebuild();
    return flock;
  }

  chooseLang() {
    const own = this.option('lang');
    this.langExplicit = own != null && own !== '';
    const inherited = this.parentElement?.closest('[lang]')?.getAttribute('lang');
    this.lang_ = pickLang([own, inherited, ...(navigator.languages ?? [navigator.language])]);
    if (own && !own.toLowerCase().startsWith(this.lang_) && this.langExplicit) {
      warn(`lang=${quote(own)} is not one of en, uk, pl, ru; using ${this.lang_}`);
    }
    this.text = texts(this.lang_);
    if (this.isPage) document.documentElement.lang = this.lang_;
  }

  /** The interface language in use: "en", "uk", "pl" or "ru". */
  get language() {
    return this.lang_;
  }

  /** Sliders, count and address bar after a change of settings. */
  changed() {
    this.syncControls?.();
    this.showCount();
    this.scheduleUrl();
  }

  /** A link to the full page with every setting that differs from its default, and the seed. */
  shareUrl() {
    const url = new URL(this.urlMode === 'sync' ? location.href : FULL_PAGE);
    const query = new URLSearchParams(this.urlMode === 'sync' ? url.search : '');
    for (const spec of SPECS) NAMES.spellings(spec).forEach((key) => query.delete(key));
    for (const alias of [...NAMES.aliases, 'lang']) query.delete(alias);
    for (const spec of SPECS) {
      const value = readParam(this.flock, spec);
      const keep =
        spec.name === 'seed' ||
        (spec.name === 'worldSize' ? this.explicit.has('worldSize') : Math.fround(value) !== Math.fround(spec.default));
      if (keep) query.set(spec.name, formatNumber(value));
    }
    if (this.langExplicit) query.set('lang', this.lang_);
    url.search = query.toString();
    return url.href;
  }

  scheduleUrl() {
    if (this.urlMode !== 'sync' || !this.flock) return;
    clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => {
      if (this.flock) history.replaceState(history.state, '', this.shareUrl());
    }, URL_DELAY);
  }

  async copyLink() {
    const link = this.shareUrl();
    const { copy, field, status } = this.ui;
    copy.dataset.link = link;
    field.value = link;
    field.hidden = false;
    try {
      await navigator.clipboard.writeText(link);
      status.textContent = this.text.ui('linkCopied');
    } catch {
      status.textContent = this.text.ui('linkManual');
      field.focus();
      field.select();
    }
  }

  // ---- the DOM: built from the table and the language; rebuilt when either option changes ---

  /** Element ids: the page's instance keeps the fixed ids of the page contract. */
  idFor(name) {
    return this.isPage ? name : `${this.uid}-${name}`;
  }

  makeCanvas() {
    const canvas = element('canvas', 'bf-canvas');
    canvas.id = this.idFor('view');
    canvas.tabIndex = 0;
    canvas.setAttribute('role', 'img');
    canvas.addEventListener('webglcontextlost', (event) => this.onContextLost(event));
    canvas.addEventListener('webglcontextrestored', () => this.onContextRestored());
    attachCameraInput(
      canvas,
      () => (this.contextLost ? null : this.view),
      () => this.flock,
      this.sceneInput(),
    );
    return canvas;
  }

  // ---- the scene's tools: obstacles by clicking, the pointer by holding ------------------------

  /** What a press on the canvas does besides orbiting (see camera-input.js). */
  sceneInput() {
    return {
      holdMode: (event) => {
        if (!this.features.has('pointer') || !this.flock || !this.view) return null;
        if (event.shiftKey) return 'attract';
        if (event.altKey) return 'repel';
        return this.pointerMode === 'off' ? null : this.pointerMode;
      },
      hold: (x, y, mode) => this.holdPointer(x, y, mode),
      release: () => this.releasePointer(),
      click: (x, y) => this.addObstacleAt(x, y),
      undoClick: () => this.undoObstacle(),
    };
  }

  /** The scene's point under the canvas pixel (x, y), in simulation coordinates, or null. */
  pointAt(x, y) {
    if (!this.flock || !this.view || this.contextLost) return null;
    const point = this.view.worldPointAt(this.flock, x, y);
    return point && point.every(Number.isFinite) ? point : null;
  }

  holdPointer(x, y, mode) {
    const point = this.pointAt(x, y);
    if (!point) return;
    this.flock.setPointer(point[0], point[1], point[2], mode === 'repel');
    const mark = this.ui?.mark;
    if (mark) {
      mark.hidden = false;
      mark.dataset.mode = mode;
      mark.style.transform = `translate(${x}px, ${y}px)`;
    }
    wake();
  }

  releasePointer() {
    this.flock?.clearPointer();
    if (this.ui?.mark) this.ui.mark.hidden = true;
  }

  setPointerMode(mode) {
    this.pointerMode = ['attract', 'repel'].includes(mode) ? mode : 'off';
    this.canvas?.classList.toggle('bf-pointing', this.pointerMode !== 'off');
    this.syncTools();
  }

  /** A click on the scene: an obstacle there, OBSTACLE_SIZE of the world's side across. */
  addObstacleAt(x, y) {
    if (!this.features.has('obstacles')) return;
    const point = this.pointAt(x, y);
    if (!point) return;
    const added = this.flock.addObstacle(point[0], point[1], point[2], OBSTACLE_SIZE * this.flock.worldSize());
    this.lastObstacle = added ? this.flock.obstacles().length / 4 : null;
    this.ui.scene?.say(added ? '' : this.text.ui('obstaclesFull'));
    this.syncTools();
    wake();
  }

  /** A double-click frames the flock: take back the obstacle its first click added. */
  undoObstacle() {
    const flock = this.flock;
    if (!flock || this.lastObstacle == null) return;
    const all = flock.obstacles();
    if (all.length / 4 === this.lastObstacle) flock.removeObstacle(this.lastObstacle - 1);
    this.lastObstacle = null;
    this.syncTools();
  }

  /** The presets' pressed state and the scene's tools, after any change of settings. */
  syncTools() {
    if (!this.flock) return;
    this.ui?.presets?.sync();
    this.ui?.scene?.sync();
  }

  buildUi() {
    const t = this.text.ui;
    const full = this.layout === 'full';
    const { specs, features } = parseControls(this.option('controls') ?? (full ? 'all' : null), SPECS, NAMES.resolve, warn);
    this.features = features;
    const readout = this.option('readout') != null ? isOn(this.option('readout')) : full;
    const share = this.option('share') != null ? isOn(this.option('share')) : full;
    const explain = isOn(this.getAttribute('explain'));
    const ui = (this.ui = {});
    this.syncControls = null;

    this.classList.add('bf');
    this.classList.toggle('bf-full', full);
    this.classList.toggle('bf-compact', !full);
    const canvasLabel = [t('canvas')];
    if (features.has('obstacles')) canvasLabel.push(t('canvasObstacles'));
    if (features.has('pointer')) canvasLabel.push(t('canvasPointer'));
    this.canvas.setAttribute('aria-label', canvasLabel.join(' '));
    this.canvas.classList.toggle('bf-pointing', features.has('pointer') && this.pointerMode !== 'off');

    const stage = element('div', 'bf-stage');
    stage.id = this.idFor('stage');
    stage.append(this.canvas);

    if (readout) {
      const list = element('dl', 'bf-readout');
      for (const [key, id] of [['fps', 'fps'], ['sim', 'sim-ms'], ['boids', 'boid-count']]) {
        const value = element('dd', null, '–');
        value.id = this.idFor(id);
        ui[key] = value;
        const pair = element('div');
        pair.append(element('dt', null, t(key)), value);
        list.append(pair);
      }
      stage.append(list);
    }

    const pause = button('bf-pause', t('pause'), () => {
      this.paused = !this.paused;
    });
    pause.id = this.idFor('pause');
    pause.title = t('pauseTitle');
    const rebuild = button('bf-rebuild', t('rebuild'), () => this.rebuild());
    rebuild.id = this.idFor('rebuild');
    rebuild.title = t('rebuildTitle');
    ui.pause = pause;

    ui.mark = element('div', 'bf-pointer-mark');
    ui.mark.hidden = true;
    stage.append(ui.mark);

    if (full) {
      const hint = [t('hint')];
      if (features.has('obstacles')) hint.push(t('hintObstacles'));
      stage.append(element('p', 'bf-hint', hint.join(' · ')));
      ui.badge = element('span', 'bf-badge', t('paused'));
      stage.append(ui.badge);
    }

    ui.play = button('bf-play', `▶ ${t('play')}`, () => {
      this.paused = false;
      this.canvas.focus({ preventScroll: true });
    });
    ui.play.tabIndex = -1; // the Pause/Play button does the same from the keyboard
    stage.append(ui.play);

    ui.cover = element('div', 'bf-cover');
    ui.cover.hidden = true;
    ui.coverText = element('p');
    ui.resume = element('button', 'bf-resume', t('resume'));
    ui.resume.type = 'button';
    // A click anywhere on the cover resumes; its button is the way in for the keyboard.
    ui.cover.addEventListener('click', () => this.resume());
    ui.cover.append(ui.coverText, ui.resume);
    stage.append(ui.cover);

    let shareBox = null;
    if (share) {
      shareBox = element('div', 'bf-share');
      ui.copy = button('bf-copy', t('copyLink'), () => this.copyLink());
      ui.copy.id = this.idFor('copy-link');
      ui.copy.title = t('copyLinkTitle');
      ui.status = element('p', 'bf-share-status');
      ui.status.setAttribute('aria-live', 'polite');
      ui.field = element('input', 'bf-share-link');
      ui.field.id = this.idFor('share-link');
      ui.field.readOnly = true;
      ui.field.hidden = true;
      ui.field.setAttribute('aria-label', t('linkField'));
      shareBox.append(ui.copy, ui.status, ui.field);
    }

    let form = null;
    let syncSliders = null;
    if (specs.length > 0 || full) {
      form = element('form', 'bf-controls');
      form.id = this.idFor('controls');
      form.setAttribute('aria-label', t('controls'));
      form.addEventListener('submit', (event) => event.preventDefault());
      if (this.flock) {
        syncSliders = buildControls(form, specs, {
          id: (name) => this.idFor(name),
          text: this.text,
          getFlock: () => this.flock,
          onChange: (spec) => {
            this.explicit.add(spec.name);
            if (spec.name === 'count') this.showCount();
            this.syncTools();
            this.scheduleUrl();
          },
        });
      }
    }

    let presets = null;
    let scene = null;
    if (this.flock) {
      const id = (name) => this.idFor(name);
      if (features.has('presets') && PRESETS.length > 0) {
        presets = buildPresets({
          presets: PRESETS,
          id,
          text: this.text,
          getFlock: () => this.flock,
          onApply: (preset) => {
            for (const name of Object.keys(preset.values)) this.explicit.add(name);
            this.changed();
          },
        });
      }
      const predator = specs.some((spec) => spec.name === 'predators');
      if (predator || features.has('pointer') || features.has('obstacles')) {
        scene = buildScene({
          predator,
          pointer: features.has('pointer'),
          obstacles: features.has('obstacles'),
          id,
          text: this.text,
          getFlock: () => this.flock,
          onChange: (what) => {
            if (what === 'predators') {
              this.explicit.add('predators');
              this.changed();
            } else {
              this.syncTools();
            }
            wake();
          },
          getMode: () => this.pointerMode,
          setMode: (mode) => this.setPointerMode(mode),
        });
      }
    }
    ui.presets = presets;
    ui.scene = scene;
    this.syncControls = this.flock
      ? () => {
          syncSliders?.();
          this.syncTools();
        }
      : null;

    const explanation = explain ? this.buildExplanation() : null;
    const parts = [];
    if (full) {
      const wrap = element('section', 'bf-stage-wrap');
      wrap.setAttribute('aria-label', t('simulation'));
      wrap.append(stage);
      const panel = element('aside', 'bf-panel');
      panel.setAttribute('aria-label', t('panel'));
      const step = button('bf-step', t('step'), () => this.step());
      step.id = this.idFor('step');
      step.title = t('stepTitle');
      const buttons = element('div', 'bf-buttons');
      buttons.append(pause, step, rebuild);
      panel.append(buttons);
      if (shareBox) panel.append(shareBox);
      if (presets) panel.append(presets.element);
      if (scene) panel.append(scene.element);
      if (form) panel.append(form);
      if (explanation) panel.append(explanation);
      parts.push(wrap, panel);
    } else {
      const toolbar = element('div', 'bf-toolbar');
      toolbar.append(pause, rebuild);
      stage.append(toolbar);
      parts.push(stage);
      if (shareBox || presets || scene || (form && specs.length > 0) || explanation) {
        const panel = element('div', 'bf-panel');
        if (shareBox) panel.append(shareBox);
        if (presets) panel.append(presets.element);
        if (scene) panel.append(scene.element);
        if (form && specs.length > 0) panel.append(form);
        if (explanation) panel.append(explanation);
        parts.push(panel);
      }
    }
    this.replaceChildren(...parts);
    this.ui.stage = stage;
    this.controlSpecs = specs;
    if (this.message) this.showMessage(...this.message);
    this.showPaused();
    this.showCount();
    this.showCover();
  }

  buildExplanation() {
    const { explain } = this.text;
    const section = element('section', 'bf-explain');
    section.append(element('h2', null, explain.title));
    section.append(richText(element('p'), explain.intro));
    const list = element('ul', 'bf-rules');
    ['separation', 'alignment', 'cohesion'].forEach((name, i) => {
      const spec = SPECS.find((s) => s.name === name);
      const item = element('li');
      const label = spec ? this.text.param(spec)[0] : name;
      item.append(element('strong', `bf-${name.slice(0, 3)}`, label), ` — ${explain.rules[i]}`);
      list.append(item);
    });
    section.append(list);
    const formula = element('p', 'bf-formula');
    formula.setAttribute('role', 'math');
    formula.setAttribute('aria-label', explain.formula);
    richText(formula, '{v}′ = {v} + {w_s}·{S} + {w_a}·{A} + {w_c}·{C}');
    section.append(formula);
    section.append(richText(element('p'), explain.body));
    section.append(richText(element('p', 'bf-try'), explain.try));
    if (explain.more) {
      section.append(element('h3', null, explain.more.title));
      const more = element('ul', 'bf-more');
      for (const [title, body] of explain.more.items) {
        const item = element('li');
        item.append(element('strong', null, title), ' — ');
        richText(item, body);
        more.append(item);
      }
      section.append(more);
    }
    return section;
  }

  showMessage(title, detail) {
    this.message = [title, detail];
    const stage = this.ui?.stage;
    if (!stage) return;
    let box = stage.querySelector('.bf-message');
    if (!box) {
      box = element('div', 'bf-message');
      box.id = this.idFor('message');
      box.setAttribute('role', 'alert');
      stage.append(box);
    }
    box.replaceChildren(element('strong', null, title), element('p', null, detail));
  }

  showPaused() {
    const { pause, badge, play } = this.ui ?? {};
    if (!pause) return;
    const paused = Boolean(this.paused_);
    pause.textContent = this.text.ui(paused ? 'play' : 'pause');
    pause.setAttribute('aria-pressed', String(paused));
    if (badge) badge.hidden = !paused;
    const working = this.state !== 'error' && this.state !== 'no-webgl';
    play.hidden = !(paused && working && (this.layout === 'compact' || !this.playedOnce));
    this.classList.toggle('bf-paused', paused);
  }

  showCount() {
    if (this.ui?.boids && this.flock) this.ui.boids.textContent = new Intl.NumberFormat(this.lang_).format(this.flock.count());
  }

  /** The "click to resume" cover: shown while this instance has no context but should. */
  showCover() {
    const { cover, coverText } = this.ui ?? {};
    if (!cover) return;
    const reason = this.coverReason;
    cover.hidden = !reason;
    if (reason) coverText.textContent = this.text.ui(reason);
  }

  setState(state) {
    this.state = state;
    this.dataset.state = state;
    if (this.isPage) document.documentElement.dataset.boids = state;
    this.showPaused();
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
   * `object` (this instance's Flock or View) as a Proxy whose every method call that traps
   * the wasm module fails this instance first: the trap may come from a slider, a key, a
   * lesson's script or the frame loop, and it is this flock that shows it.
   */
  watch(object) {
    const guarded = new Map(); // method → its guarded form (the same function each time)
    return new Proxy(object, {
      get: (target, key) => {
        const value = target[key];
        if (typeof value !== 'function' || key === 'constructor') return value;
        if (!guarded.has(value)) {
          guarded.set(value, (...args) => {
            try {
              return value.apply(target, args);
            } catch (error) {
              if (isTrap(error)) this.fail(error);
              throw error;
            }
          });
        }
        return guarded.get(value);
      },
    });
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
    this.showCover();
    this.showMessage(this.text.ui('errorTitle'), `${detail} ${this.text.ui('errorReload')}`);
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
    this.paused_ = paused;
    this.idle();
    this.showPaused();
    wake();
  }

  /** One step of 1/60 s (what the Step button does). */
  step() {
    if (!this.flock) return;
    const start = performance.now();
    this.flock.step(STEP);
    this.steps += 1;
    this.simTime = (this.simTime ?? 0) + performance.now() - start;
    wake();
  }

  /** Scatters the flock afresh from its seed with the current settings. */
  rebuild() {
    if (!this.flock) return;
    this.flock.rebuild();
    this.changed();
    wake();
  }

  onKey(event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (isTyping(event.target)) return;
    if (event.code === 'Space' || event.key === ' ') {
      if (event.target instanceof HTMLButtonElement) return; // Space presses the button
      event.preventDefault();
      this.paused = !this.paused;
    } else if (event.code === 'KeyR' || event.key === 'r' || event.key === 'R') {
      event.preventDefault();
      this.rebuild();
    }
  }

  setInView(inView) {
    this.inView = inView;
    this.lastSeen = performance.now();
    if (inView) this.ensureView();
  }

  /** Whether the shared loop should give this instance a frame now. */
  active() {
    return Boolean(
      this.flock &&
        this.view &&
        !this.contextLost &&
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
  }

  frame(now) {
    try {
      if (!this.paused_) {
        const elapsed = this.last == null ? STEP : Math.max(0, (now - this.last) / 1000);
        this.backlog = (this.backlog ?? 0) + elapsed;
        let steps = 0;
        const start = performance.now();
        while (this.backlog >= STEP && steps < MAX_STEPS_PER_FRAME) {
          this.flock.step(STEP);
          this.backlog -= STEP;
          steps += 1;
        }
        this.steps += steps;
        if (this.backlog >= STEP) this.backlog = 0; // too far behind: drop it rather than spiral
        this.simTime = (this.simTime ?? 0) + performance.now() - start;
      }
      this.last = now;
      this.lastSeen = now;
      this.view.draw(this.flock);
      this.readouts(now);
      if (this.state === 'loading') this.setState('running');
    } catch (error) {
      this.fail(error);
    }
  }

  /** FPS and simulation ms per frame, averaged over READOUT_PERIOD. */
  readouts(now) {
    const { fps, sim } = this.ui;
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
      sim.textContent = `${format(this.simTime / this.frames, 2)} ${this.text.ui('ms')}`;
    }
    this.showCount(); // the count may also change from the console or an embedding page
    this.windowStart = now;
    this.frames = 0;
    this.simTime = 0;
  }

  // ---- the WebGL context ------------------------------------------------------------------

  resize() {
    if (!this.view || !this.canvas) return;
    const size = this.cssSize ?? this.canvas.getBoundingClientRect();
    this.view.resize(size.width, size.height, window.devicePixelRatio || 1);
  }

  /** Makes the View when on screen and it has none (taking a context from the pool). */
  ensureView({ force = false } = {}) {
    if (this.view || !this.flock || this.contextLost || ['error', 'no-webgl'].includes(this.state)) return;
    if (this.restoring) return;
    if (!pool.acquire(this, { force })) {
      this.coverReason = 'tooMany';
      this.dataset.context = 'waiting';
      this.showCover();
      return;
    }
    this.coverReason = null;
    this.showCover();
    if (this.released && this.loseContext) {
      // Ours was given up with WEBGL_lose_context: ask for it back (see onContextRestored).
      this.restoring = true;
      this.released = false;
      this.dataset.context = 'restoring';
      try {
        this.loseContext.restoreContext();
        clearTimeout(this.restoreTimer);
        this.restoreTimer = setTimeout(() => {
          if (!this.restoring) return;
          // Never restored: start over on a new canvas.
          this.restoring = false;
          this.freshCanvas = true;
          pool.release(this);
          this.ensureView();
        }, RESTORE_WAIT);
        return;
      } catch {
        this.restoring = false;
        this.freshCanvas = true;
      }
    }
    if (this.freshCanvas) this.replaceCanvas();
    this.createView();
  }

  createView() {
    try {
      this.view = this.watch(new View(this.canvas));
    } catch (error) {
      pool.release(this);
      if (error?.name !== 'WebGL2Unavailable') throw error;
      this.canvas.hidden = true;
      this.setState('no-webgl');
      this.showMessage(this.text.ui('noWebglTitle'), this.text.ui('noWebglDetail'));
      return;
    }
    this.loseContext = this.canvas.getContext('webgl2')?.getExtension('WEBGL_lose_context') ?? null;
    if (this.camera) this.view.setCamera(this.camera);
    this.contextLost = false;
    this.released = false;
    this.restoring = false;
    this.freshCanvas = false;
    this.dataset.context = 'live';
    if (this.isPage) window.view = this.view;
    this.resize();
    wake();
  }

  /** Frees the View; with `lose`, gives the context back to the browser at once. */
  dropView({ lose = false } = {}) {
    const view = this.view;
    this.view = null;
    if (view) {
      this.letGo(() => {
        this.camera = view.camera();
        view.free();
      });
    }
    if (lose && this.loseContext && !this.canvas.getContext('webgl2')?.isContextLost()) {
      this.released = true;
      this.loseContext.loseContext();
    }
    pool.release(this);
  }

  /** The pool needs this instance's context for another one. */
  releaseContext() {
    this.dropView({ lose: true });
    this.dataset.context = 'released';
    if (this.inView) {
      this.coverReason = 'tooMany';
      this.showCover();
    }
  }

  onContextLost(event) {
    event.preventDefault(); // tells the browser we want the context back
    if (this.released) return; // we gave it up ourselves
    this.contextLost = true;
    this.dataset.context = 'lost';
    pool.release(this);
    clearTimeout(this.restoreTimer);
    this.restoreTimer = setTimeout(() => {
      if (!this.contextLost) return;
      // Not coming back (the browser evicted it): a click makes a new canvas and context.
      this.coverReason = 'contextLost';
      this.showCover();
    }, RESTORE_WAIT);
  }

  onContextRestored() {
    clearTimeout(this.restoreTimer);
    if (!this.flock) return;
    pool.live.add(this);
    const camera = this.view?.camera();
    this.view?.free();
    this.view = null;
    if (camera) this.camera = camera;
    this.contextLost = false;
    this.coverReason = null;
    this.showCover();
    this.createView();
  }

  /** The cover's button: take a context even if every other instance is on screen. */
  resume() {
    if (this.contextLost) {
      this.contextLost = false;
      this.freshCanvas = true;
      this.view?.free();
      this.view = null;
    }
    this.restoring = false;
    this.ensureView({ force: true });
    this.canvas.focus({ preventScroll: true });
  }

  replaceCanvas() {
    const old = this.canvas;
    this.canvas = this.makeCanvas();
    this.canvas.setAttribute('aria-label', old.getAttribute('aria-label') ?? '');
    this.resizer.unobserve(old);
    old.replaceWith(this.canvas);
    this.resizer.observe(this.canvas);
    this.released = false;
    this.loseContext = null;
  }
}

customElements.define('boids-flock', BoidsFlock);
