// The instruments (issue 11): pick a boid and see why it turns, colour the flock by what
// matters, trails, slow motion, and the order of the flock on a live plot. The drawing is
// the View's (src/render: overlay, trails, colour modes); the numbers are the Flock's
// (`inspect`, `metrics`, `idsByDistanceFromCentre`). This module only wires them to the
// page: the panel's "Look and instruments" group, the keys N / Shift+N / Esc, a click on a
// cone, the element's options and the `boidselect` event. `Instruments` is the part: it owns
// the selection, the look (colour, trails, follow, time scale), the plot and what is said;
// what it asks of the element is listed at its constructor.
//
// Options (attributes, and `embed.html` / shared-link URL parameters):
//   inspect="<id>"   select that boid (inspect="" or "on": the boid nearest the centre)
//   trails           every boid's trail over the last ~2 s
//   cells            the grid's cells the selected boid's next step scans, its candidates
//   colour-by="heading|species|speed|neighbours|rule"   (color-by too)
//   shape="cone|bird|fish|chick"   what every boid is drawn as (one draw whichever)
//   time-scale="0.05…2"   simulated seconds per real second
//   plot             the live plot (the full page's panel always has it)

import { button, checkbox, choice, element } from '../core/dom.js';
import { readoutOf } from './readout.js';
import { isOn, parseNumber } from '../core/settings.js';
import { MetricsPlot, describe, plotFigure } from './plot.js';
import { Narrator, SAY_EVERY, boidGist, boidWords, sentences } from './narrator.js';

export const INSTRUMENT_OPTIONS = ['inspect', 'trails', 'cells', 'colour-by', 'color-by', 'shape', 'time-scale', 'plot'];
export const TIME_SCALE = { min: 0.05, max: 2, step: 0.05, default: 1 };
/** How often the readout and the plot are redrawn, and the figures written, ms. */
const READOUT_EVERY = 250;
const WORDS_EVERY = 4000;
export const COLOUR_MODES = ['heading', 'species', 'speed', 'neighbours', 'rule'];
export const MODE_TEXT = { heading: 'colourHeading', species: 'colourSpecies', speed: 'colourSpeed', neighbours: 'colourNeighbours', rule: 'colourRule' };
/** The View's shapes (`View.setShape`, src/render/shapes.rs), the default first. */
export const SHAPES = ['cone', 'bird', 'fish', 'chick'];
export const SHAPE_TEXT = { cone: 'shapeCone', bird: 'shapeBird', fish: 'shapeFish', chick: 'shapeChick' };
const warn = (message) => console.warn(`<boids-flock> ${message}`);

/** A time scale from text ("0.5", "0,5", "0.5x"), as attributes' numbers are read; undefined when it is none. */
const parseTimeScale = (raw) => parseNumber(String(raw).trim().toLowerCase().replace(/[x×]$/, ''));

export class Instruments {
  /**
   * `host`, the element, for: its flock, View and steps (`flock`, `view`, `steps`, `paused`,
   * `state`), its options and words (`option`, `layout`, `text`, `lang_`, `uid`), where the
   * instruments go (`panelSlot`, `ui.stage`, `ui.keysHelp`, its own class list and children),
   * its events (`emit`, `dispatchEvent`), the legend (`showLegend`), the address bar
   * (`scheduleUrl`) and the parameter table (`constructor.params`).
   */
  constructor(host) {
    this.host = host;
    this.colourBy = null;
    this.shape = null;
    this.trails = false;
    this.cells = false;
    this.follow = false;
    /** The selected boid's id, or null. */
    this.selected = null;
    /** Simulated seconds per real second (null: 1). */
    this.timeScale = null;
    this.pendingInspect = null;
    this.plotWanted = false;
    this.plot = null;
    this.plotDirty = false;
    /** The panel's instruments, once built: { readout, boidSaid, follow, colour, trails, time, ... }. */
    this.parts = null;
  }

  /** Reads the instruments' options (URL over attribute) once the flock and view exist. */
  readOptions() {
    const colour = this.host.option('colour-by') ?? this.host.option('color-by');
    if (colour != null) this.setColourBy(colour, { where: `colour-by=${JSON.stringify(colour)}` });
    const shape = this.host.option('shape');
    if (shape != null) this.setShape(shape, { where: `shape=${JSON.stringify(shape)}` });
    const trails = this.host.option('trails');
    if (trails != null) this.setTrails(isOn(trails));
    const cells = this.host.option('cells');
    if (cells != null) this.setCells(isOn(cells));
    const scale = this.host.option('time-scale');
    if (scale != null) this.setTimeScale(scale, { where: `time-scale=${JSON.stringify(scale)}` });
    const inspect = this.host.option('inspect');
    this.pendingInspect = inspect;
    this.plotWanted = isOn(this.host.option('plot')) || this.host.layout === 'full';
  }

  /** An instruments option changed on the element. */
  optionChanged(name, value) {
    if (name === 'colour-by' || name === 'color-by') this.setColourBy(value ?? 'heading', { where: `${name}=${JSON.stringify(value)}` });
    else if (name === 'shape') this.setShape(value ?? 'cone', { where: `shape=${JSON.stringify(value)}` });
    else if (name === 'trails') this.setTrails(value != null && isOn(value));
    else if (name === 'cells') this.setCells(value != null && isOn(value));
    else if (name === 'time-scale') this.setTimeScale(value ?? TIME_SCALE.default, { where: `time-scale=${JSON.stringify(value)}` });
    else if (name === 'inspect') {
      if (value == null) this.select(null);
      else this.selectFromOption(value);
    } else if (name === 'plot') {
      this.plotWanted = (value != null && isOn(value)) || this.host.layout === 'full';
      this.build();
    }
  }

  /** Called once a View exists (a new one after a lost context too): hand it the state. */
  viewReady() {
    const view = this.host.view;
    this.forceColours_ = null; // a new View's legend: read again when asked
    if (!view) return;
    try {
      view.setColourBy(this.colourBy ?? 'heading');
      view.setShape(this.shape ?? 'cone');
      view.setTrails(Boolean(this.trails));
      view.setCells(Boolean(this.cells));
      view.setFollow(Boolean(this.follow));
      if (this.selected != null) view.select(this.host.flock, this.selected);
    } catch (error) {
      if (this.host.state !== 'error') throw error;
    }
    if (this.pendingInspect != null && this.host.flock) {
      const wanted = this.pendingInspect;
      this.pendingInspect = null;
      this.selectFromOption(wanted);
    }
    this.host.panel.showLegend();
  }

  selectFromOption(raw) {
    const text = String(raw).trim().toLowerCase();
    if (text === '' || text === 'on' || text === 'true' || text === 'centre' || text === 'center') {
      this.selectNext(1, { restart: true });
      return;
    }
    if (['off', 'false', 'none'].includes(text)) {
      this.select(null);
      return;
    }
    const id = Number(text);
    if (!Number.isInteger(id) || id < 0 || id > 0xffffffff) {
      warn(`inspect=${JSON.stringify(raw)} is not a boid id (a whole number from flock.ids()) nor "on"; ignored`);
      return;
    }
    if (!this.select(id)) warn(`inspect=${id}: no boid has that id; ignored`);
  }

  // ---- the public API ------------------------------------------------------------------------

  /**
   * Selects the boid with `id` (from `flock.ids()`) to inspect, or none with `null`. Returns
   * whether a boid has that id. Dispatches `boidselect` ({detail: {id}}) when the selection
   * changes.
   */
  select(id) {
    if (!this.host.flock) return false;
    if (id == null) {
      const had = this.selected != null;
      this.selected = null;
      this.host.view?.select(this.host.flock, null);
      if (had) this.selectionChanged();
      return false;
    }
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id > 0xffffffff) {
      throw new TypeError(`<boids-flock>.select: id must be a whole number from flock.ids() or null, got ${String(id)}`);
    }
    if (this.host.flock.inspect(id) == null) return false;
    const changed = this.selected !== id;
    this.selected = id;
    this.host.view?.select(this.host.flock, id);
    if (changed) this.selectionChanged();
    return true;
  }

  /** The selected boid's id, or null. */
  get selectedId() {
    return this.selected ?? null;
  }

  /** Steps the selection through the boids, the nearest the flock's centre first. */
  selectNext(direction = 1, { restart = false } = {}) {
    if (!this.host.flock || this.host.flock.count() === 0) return false;
    const order = this.host.flock.idsByDistanceFromCentre();
    let at = restart || this.selected == null ? -1 : order.indexOf(this.selected);
    if (at < 0 && direction < 0) at = 0;
    const next = order[(at + direction + order.length) % order.length];
    return this.select(next);
  }

  setColourBy(raw, { where = 'colourBy' } = {}) {
    const mode = String(raw).trim().toLowerCase();
    if (!COLOUR_MODES.includes(mode)) {
      warn(`${where} is not a colour mode (${COLOUR_MODES.join(', ')}); keeping ${this.colourBy ?? 'heading'}`);
      return;
    }
    this.colourBy = mode;
    this.host.view?.setColourBy(mode);
    if (this.parts?.colour) this.parts.colour.value = mode;
    this.host.panel.showLegend();
    this.host.scheduleUrl?.();
  }

  /** What every boid is drawn as (SHAPES); another name keeps the shape, with a warning. */
  setShape(raw, { where = 'shape' } = {}) {
    const shape = String(raw).trim().toLowerCase();
    if (!SHAPES.includes(shape)) {
      warn(`${where} is not a shape (${SHAPES.join(', ')}); keeping ${this.shape ?? 'cone'}`);
      return;
    }
    this.shape = shape;
    this.host.view?.setShape(shape);
    if (this.parts?.shape) this.parts.shape.value = shape;
    this.host.scheduleUrl?.();
  }

  setTrails(on) {
    this.trails = Boolean(on);
    this.host.view?.setTrails(this.trails);
    if (this.parts?.trails) this.parts.trails.checked = this.trails;
    this.host.scheduleUrl?.();
  }

  /** Draw the grid's cells the selected boid's next step scans (and its candidates). */
  setCells(on) {
    this.cells = Boolean(on);
    this.host.view?.setCells(this.cells);
    if (this.parts?.cells) this.parts.cells.checked = this.cells;
    this.host.scheduleUrl?.();
  }

  setFollow(on) {
    this.follow = Boolean(on);
    this.host.view?.setFollow(this.follow);
    if (this.parts?.follow) this.parts.follow.checked = this.follow;
  }

  /** Simulated seconds per real second, 0.05–2 (out of range: clamped, with a warning). */
  setTimeScale(raw, { where = 'timeScale' } = {}) {
    const value = typeof raw === 'number' ? raw : parseTimeScale(raw);
    if (value === undefined || !Number.isFinite(value)) {
      warn(`${where} is not a number (${TIME_SCALE.min} to ${TIME_SCALE.max}); keeping ${this.timeScale ?? 1}`);
      return;
    }
    const clamped = Math.min(TIME_SCALE.max, Math.max(TIME_SCALE.min, value));
    if (clamped !== value) warn(`${where} is outside ${TIME_SCALE.min}–${TIME_SCALE.max}; using ${clamped}`);
    this.timeScale = clamped;
    const slider = this.parts?.time;
    if (slider) {
      slider.value = String(clamped);
      this.parts.timeOut.textContent = this.formatScale(clamped);
    }
    this.host.scheduleUrl?.();
  }

  formatScale(value) {
    return `${new Intl.NumberFormat(this.host.lang_, { maximumFractionDigits: 2 }).format(value)}×`;
  }

  /** The instruments' options for a shared link (only what differs from the defaults). */
  query(query) {
    for (const name of INSTRUMENT_OPTIONS) query.delete(name);
    if (this.colourBy && this.colourBy !== 'heading') query.set('colour-by', this.colourBy);
    if (this.shape && this.shape !== 'cone') query.set('shape', this.shape);
    if (this.trails) query.set('trails', '1');
    if (this.cells) query.set('cells', '1');
    if (this.timeScale != null && this.timeScale !== 1) query.set('time-scale', String(this.timeScale));
    if (this.selected != null) query.set('inspect', String(this.selected));
  }

  /** `boidselect` (kept for the pages that listen to it) and `boids-select` (events.js). */
  announceSelection(id) {
    this.host.dispatchEvent(new CustomEvent('boidselect', { detail: { id }, bubbles: true }));
    this.host.emit('boids-select', { id });
  }

  selectionChanged() {
    this.announceSelection(this.selected ?? null);
    this.readoutAt = 0;
    this.boidGist = null; // said at once
    this.showReadout();
    this.host.scheduleUrl?.();
  }

  // ---- the panel -----------------------------------------------------------------------------

  /** Builds the instruments into the panel's "look" group (again after every panel build). */
  build() {
    const t = (key) => this.host.text.ui(key);
    const slot = this.host.panel.panelSlot?.('look') ?? null;
    const ids = (name) => `${this.host.uid}-${name}`;
    const parts = { readout: null };
    // The readout sits over the stage in a compact embed (no group to hold it).
    const readoutHost = slot ?? this.host.panel.ui?.stage;
    if (!readoutHost) return;

    const readout = element('div', 'bf-inspector');
    readout.id = ids('inspector');
    parts.readout = readout;
    // The selected boid in words, for a screen reader (the readout above is its figures).
    const boidSaid = element('p', 'bf-said-boid');
    boidSaid.setAttribute('aria-live', 'polite');
    parts.boidSaid = boidSaid;

    if (slot) {
      slot.replaceChildren();
      const heading = element('h3', 'bf-look-heading', t('inspector'));
      const hint = element('p', 'bf-tools-hint', t('inspectorHint'));
      const row = element('div', 'bf-look-row');
      const next = button('bf-pick-next', t('pickNext'), () => this.selectNext(1));
      next.title = t('pickNextTitle');
      const release = button('bf-release', t('release'), () => this.select(null));
      release.title = t('releaseTitle');
      const { label: followLabel, input: follow } = checkbox(null, t('follow'), this.follow, (on) => this.setFollow(on), t('followTitle'));
      row.append(next, release, followLabel);
      parts.follow = follow;
      parts.release = release;

      // Colour by, trails, time.
      const look = element('div', 'bf-look-row');
      const options = (names, textKey) => names.map((name) => [name, t(textKey[name])]);
      const { label: colourLabel, select: colour } = choice(ids('colour-by'), t('colourBy'), options(COLOUR_MODES, MODE_TEXT), this.colourBy ?? 'heading', (mode) => this.setColourBy(mode));
      const { label: shapeLabel, select: shape } = choice(ids('shape'), t('shapeLabel'), options(SHAPES, SHAPE_TEXT), this.shape ?? 'cone', (name) => this.setShape(name));
      const { label: trailsLabel, input: trails } = checkbox(ids('trails'), t('trailsLabel'), this.trails, (on) => this.setTrails(on));
      const { label: cellsLabel, input: cells } = checkbox(ids('cells'), t('cellsLabel'), this.cells, (on) => this.setCells(on), t('cellsHint'));
      look.append(colourLabel, shapeLabel, trailsLabel, cellsLabel);
      parts.colour = colour;
      parts.shape = shape;
      parts.trails = trails;
      parts.cells = cells;

      const timeRow = element('label', 'bf-look-field bf-time');
      const time = element('input');
      time.type = 'range';
      time.id = ids('time-scale');
      Object.assign(time, { min: TIME_SCALE.min, max: TIME_SCALE.max, step: TIME_SCALE.step });
      time.value = String(this.timeScale ?? 1);
      const timeOut = element('output', null, this.formatScale(this.timeScale ?? 1));
      time.addEventListener('input', () => this.setTimeScale(Number(time.value)));
      time.title = t('timeScaleHint');
      timeRow.append(`${t('timeScale')} `, time, timeOut);
      parts.time = time;
      parts.timeOut = timeOut;

      slot.append(heading, hint, row, readout, boidSaid, look, timeRow);

      if (this.plotWanted) slot.append(this.buildPlot(parts));
    } else {
      readout.classList.add('bf-inspector-over');
      this.host.panel.ui.stage.append(readout, boidSaid);
      // A compact embed with `plot`: the plot goes below everything else.
      if (this.plotWanted) this.host.insertBefore(this.buildPlot(parts), this.host.panel.ui.keysHelp?.dialog ?? null);
    }
    this.host.classList.toggle('bf-with-plot', Boolean(this.plotWanted && !slot));
    this.parts = parts;
    this.showReadout();
  }

  /** The live plot, its legend, its words and the CSV button, as one <figure>. */
  buildPlot(parts) {
    const t = (key) => this.host.text.ui(key);
    const { figure, canvas, said, words } = plotFigure(t, () => this.downloadCsv());
    this.plot ??= new MetricsPlot(canvas, this.host.constructor.params);
    this.plot.canvas = canvas;
    this.plotDirty = true;
    parts.words = words;
    parts.said = said;
    parts.plotCanvas = canvas;
    return figure;
  }

  // ---- every frame ---------------------------------------------------------------------------

  /** After each drawn frame: the plot's samples, the readout and the words, now and then. */
  frame(now) {
    if (this.plot) {
      const time = this.host.steps / 60;
      // A piece of the plot's survey for each step this frame took (none between the steps
      // of slow motion).
      const steps = Math.max(0, this.host.steps - (this.plotSteps ?? this.host.steps));
      this.plotSteps = this.host.steps;
      if (this.plot.sample(this.host.flock, time, { paused: this.host.paused, steps })) {
        this.plotDirty = true;
        const { metrics, params } = this.plot.latest();
        this.narrator ??= new Narrator();
        const said = this.narrator.hear(metrics, params.predators, now);
        if (said) this.say(sentences(said, this.host.text, this.host.lang_));
      }
    }
    if (now - (this.readoutAt ?? 0) < READOUT_EVERY) return;
    this.readoutAt = now;
    this.showReadout();
    if (this.plot && this.plotDirty && this.parts?.plotCanvas) {
      this.plotDirty = false;
      this.plot.draw();
    }
    if (now - (this.wordsAt ?? 0) >= WORDS_EVERY && this.parts?.words) {
      this.wordsAt = now;
      const latest = this.plot?.latest();
      if (latest) this.parts.words.textContent = describe(latest.metrics, this.host.text, this.host.lang_);
    }
  }

  /** Says `words` in the flock's live region (`figures`: M asked for them). */
  say(words) {
    const said = this.parts?.said;
    if (said) said.textContent = words;
  }

  /** The flock's figures now, said (the M key); false without a plot to take them from. */
  sayFigures() {
    const latest = this.plot?.latest();
    if (!latest || !this.parts?.said) return false;
    // The same words twice are said twice: a change of text is what a reader hears.
    const words = describe(latest.metrics, this.host.text, this.host.lang_);
    this.say(this.parts.said.textContent === words ? `${words}\u00a0` : words);
    return true;
  }

  /** The selected boid in its live region: at once when chosen, then when its gist changes. */
  sayBoid(seen, now = performance.now()) {
    const box = this.parts?.boidSaid;
    if (!box) return;
    const gist = seen ? boidGist(seen) : 'none';
    if (gist === this.boidGist || (this.boidGist != null && now - (this.boidSaidAt ?? 0) < SAY_EVERY)) return;
    const first = this.boidGist == null;
    this.boidGist = gist;
    this.boidSaidAt = now;
    if (!seen && first && !box.textContent) return; // nothing was said: nothing to take back
    box.textContent = seen ? boidWords(seen, this.host.text, this.host.lang_) : this.host.text.ui('inspectorNone');
  }

  /** The selected boid in numbers and words. */
  showReadout() {
    const parts = this.parts;
    const box = parts?.readout;
    if (!box || !this.host.flock) return;
    const t = (key) => this.host.text.ui(key);
    if (parts.release) parts.release.disabled = this.selected == null;
    const seen = this.selected == null ? null : this.host.flock.inspect(this.selected);
    box.hidden = !seen && box.classList.contains('bf-inspector-over');
    if (!seen) {
      if (this.selected != null) {
        // The boid is gone (a smaller count, a rebuild): let go of it.
        this.selected = null;
        this.host.view?.select(this.host.flock, null);
        this.announceSelection(null);
      }
      box.replaceChildren(element('p', 'bf-inspector-none', t('inspectorNone')));
      this.sayBoid(null);
      return;
    }
    this.sayBoid(seen);
    box.replaceChildren(...readoutOf(seen, this.host.text, this.host.lang_, this.forceColours()));
  }

  /** The arrows' colours (the View's legend), by force name. */
  forceColours() {
    if (!this.forceColours_) {
      this.forceColours_ = {};
      try {
        for (const { name, colour } of this.host.view?.legend()?.forces ?? []) this.forceColours_[name] = colour;
      } catch {
        // no view yet: plain swatches until there is one
      }
      if (Object.keys(this.forceColours_).length === 0) return {};
    }
    return this.forceColours_;
  }

  /** The plot's series as a CSV file. */
  downloadCsv() {
    if (!this.plot) return;
    const blob = new Blob([this.plot.csv()], { type: 'text/csv' });
    const link = element('a');
    link.href = URL.createObjectURL(blob);
    link.download = `boids-seed${this.host.flock?.seed?.() ?? ''}.csv`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }
}
