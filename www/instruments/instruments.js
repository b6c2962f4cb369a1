// The instruments (issue 11): pick a boid and see why it turns, colour the flock by what
// matters, trails, slow motion, and the order of the flock on a live plot. The drawing is
// the View's (src/render: overlay, trails, colour modes); the numbers are the Flock's
// (`inspect`, `metrics`, `idsByDistanceFromCentre`). This module only wires them to the
// page: the panel's "Look and instruments" group, the keys N / Shift+N / Esc, a click on a
// cone, the element's options and the `boidselect` event. Methods mixed into BoidsFlock;
// `this` is the element.
//
// Options (attributes, and `embed.html` / shared-link URL parameters):
//   inspect="<id>"   select that boid (inspect="" or "on": the boid nearest the centre)
//   trails           every boid's trail over the last ~2 s
//   colour-by="heading|species|speed|neighbours|rule"   (color-by too)
//   time-scale="0.05…2"   simulated seconds per real second
//   plot             the live plot (the full page's panel always has it)

import { button, element } from '../core/dom.js';
import { isOn, parseNumber } from '../core/settings.js';
import { MetricsPlot, SERIES, describe } from './plot.js';
import { Narrator, SAY_EVERY, boidGist, boidWords, sentences } from './narrator.js';

export const INSTRUMENT_OPTIONS = ['inspect', 'trails', 'colour-by', 'color-by', 'time-scale', 'plot'];
export const TIME_SCALE = { min: 0.05, max: 2, step: 0.05, default: 1 };
/** How often the readout and the plot are redrawn, and the figures written, ms. */
const READOUT_EVERY = 250;
const WORDS_EVERY = 4000;
export const COLOUR_MODES = ['heading', 'species', 'speed', 'neighbours', 'rule'];
export const MODE_TEXT = { heading: 'colourHeading', species: 'colourSpecies', speed: 'colourSpeed', neighbours: 'colourNeighbours', rule: 'colourRule' };
const FORCE_TEXT = {
  separation: 'forceSeparation',
  alignment: 'forceAlignment',
  cohesion: 'forceCohesion',
  cruise: 'forceCruise',
  walls: 'forceWalls',
  wind: 'forceWind',
  hawks: 'forceHawks',
  obstacles: 'forceObstacles',
  leader: 'forceLeader',
  pointer: 'forcePointer',
  total: 'forceTotal',
};
const STRONGEST_TEXT = { separation: 'strongestSeparation', alignment: 'strongestAlignment', cohesion: 'strongestCohesion' };

const warn = (message) => console.warn(`<boids-flock> ${message}`);
const length = (v) => Math.hypot(v[0], v[1], v[2]);

/** A time scale from text ("0.5", "0,5", "0.5x"), as attributes' numbers are read; undefined when it is none. */
const parseTimeScale = (raw) => parseNumber(String(raw).trim().toLowerCase().replace(/[x×]$/, ''));

export const instrumentMethods = {
  /** Reads the instruments' options (URL over attribute) once the flock and view exist. */
  readInstrumentOptions() {
    const colour = this.option('colour-by') ?? this.option('color-by');
    if (colour != null) this.setColourBy(colour, { where: `colour-by=${JSON.stringify(colour)}` });
    const trails = this.option('trails');
    if (trails != null) this.setTrails(isOn(trails));
    const scale = this.option('time-scale');
    if (scale != null) this.setTimeScale(scale, { where: `time-scale=${JSON.stringify(scale)}` });
    const inspect = this.option('inspect');
    this.pendingInspect = inspect;
    this.plotWanted = isOn(this.option('plot')) || this.layout === 'full';
  },

  /** An instruments option changed on the element. */
  instrumentOptionChanged(name, value) {
    if (name === 'colour-by' || name === 'color-by') this.setColourBy(value ?? 'heading', { where: `${name}=${JSON.stringify(value)}` });
    else if (name === 'trails') this.setTrails(value != null && isOn(value));
    else if (name === 'time-scale') this.setTimeScale(value ?? TIME_SCALE.default, { where: `time-scale=${JSON.stringify(value)}` });
    else if (name === 'inspect') {
      if (value == null) this.select(null);
      else this.selectFromOption(value);
    } else if (name === 'plot') {
      this.plotWanted = (value != null && isOn(value)) || this.layout === 'full';
      this.buildInstruments();
    }
  },

  /** Called once a View exists (a new one after a lost context too): hand it the state. */
  viewReady() {
    const view = this.view;
    this.forceColours_ = null; // a new View's legend: read again when asked
    if (!view) return;
    try {
      view.setColourBy(this.colourBy_ ?? 'heading');
      view.setTrails(Boolean(this.trails_));
      view.setFollow(Boolean(this.follow_));
      if (this.selected_ != null) view.select(this.flock, this.selected_);
    } catch (error) {
      if (this.state !== 'error') throw error;
    }
    if (this.pendingInspect != null && this.flock) {
      const wanted = this.pendingInspect;
      this.pendingInspect = null;
      this.selectFromOption(wanted);
    }
    this.showLegend();
  },

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
  },

  // ---- the public API ------------------------------------------------------------------------

  /**
   * Selects the boid with `id` (from `flock.ids()`) to inspect, or none with `null`. Returns
   * whether a boid has that id. Dispatches `boidselect` ({detail: {id}}) when the selection
   * changes.
   */
  select(id) {
    if (!this.flock) return false;
    if (id == null) {
      const had = this.selected_ != null;
      this.selected_ = null;
      this.view?.select(this.flock, null);
      if (had) this.selectionChanged();
      return false;
    }
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id > 0xffffffff) {
      throw new TypeError(`<boids-flock>.select: id must be a whole number from flock.ids() or null, got ${String(id)}`);
    }
    if (this.flock.inspect(id) == null) return false;
    const changed = this.selected_ !== id;
    this.selected_ = id;
    this.view?.select(this.flock, id);
    if (changed) this.selectionChanged();
    return true;
  },

  /** The selected boid's id, or null. */
  get selectedId() {
    return this.selected_ ?? null;
  },

  /** Steps the selection through the boids, the nearest the flock's centre first. */
  selectNext(direction = 1, { restart = false } = {}) {
    if (!this.flock || this.flock.count() === 0) return false;
    const order = this.flock.idsByDistanceFromCentre();
    let at = restart || this.selected_ == null ? -1 : order.indexOf(this.selected_);
    if (at < 0 && direction < 0) at = 0;
    const next = order[(at + direction + order.length) % order.length];
    return this.select(next);
  },

  setColourBy(raw, { where = 'colourBy' } = {}) {
    const mode = String(raw).trim().toLowerCase();
    if (!COLOUR_MODES.includes(mode)) {
      warn(`${where} is not a colour mode (${COLOUR_MODES.join(', ')}); keeping ${this.colourBy_ ?? 'heading'}`);
      return;
    }
    this.colourBy_ = mode;
    this.view?.setColourBy(mode);
    if (this.ui?.instruments?.colour) this.ui.instruments.colour.value = mode;
    this.showLegend();
    this.scheduleUrl?.();
  },

  setTrails(on) {
    this.trails_ = Boolean(on);
    this.view?.setTrails(this.trails_);
    if (this.ui?.instruments?.trails) this.ui.instruments.trails.checked = this.trails_;
    this.scheduleUrl?.();
  },

  setFollow(on) {
    this.follow_ = Boolean(on);
    this.view?.setFollow(this.follow_);
    if (this.ui?.instruments?.follow) this.ui.instruments.follow.checked = this.follow_;
  },

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
    const slider = this.ui?.instruments?.time;
    if (slider) {
      slider.value = String(clamped);
      this.ui.instruments.timeOut.textContent = this.formatScale(clamped);
    }
    this.scheduleUrl?.();
  },

  formatScale(value) {
    return `${new Intl.NumberFormat(this.lang_, { maximumFractionDigits: 2 }).format(value)}×`;
  },

  /** The instruments' options for a shared link (only what differs from the defaults). */
  instrumentQuery(query) {
    for (const name of INSTRUMENT_OPTIONS) query.delete(name);
    if (this.colourBy_ && this.colourBy_ !== 'heading') query.set('colour-by', this.colourBy_);
    if (this.trails_) query.set('trails', '1');
    if (this.timeScale != null && this.timeScale !== 1) query.set('time-scale', String(this.timeScale));
    if (this.selected_ != null) query.set('inspect', String(this.selected_));
  },

  /** `boidselect` (kept for the pages that listen to it) and `boids-select` (events.js). */
  announceSelection(id) {
    this.dispatchEvent(new CustomEvent('boidselect', { detail: { id }, bubbles: true }));
    this.emit('boids-select', { id });
  },

  selectionChanged() {
    this.announceSelection(this.selected_ ?? null);
    this.readoutAt = 0;
    this.boidGist = null; // said at once
    this.showReadout();
    this.scheduleUrl?.();
  },

  // ---- the panel -----------------------------------------------------------------------------

  /** Builds the instruments into the panel's "look" group (again after every panel build). */
  buildInstruments() {
    const t = (key) => this.text.ui(key);
    const slot = this.panelSlot?.('look') ?? null;
    const ids = (name) => `${this.uid}-${name}`;
    const parts = { readout: null };
    // The readout sits over the stage in a compact embed (no group to hold it).
    const readoutHost = slot ?? this.ui?.stage;
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
      const followLabel = element('label', 'bf-check');
      const follow = element('input');
      follow.type = 'checkbox';
      follow.checked = Boolean(this.follow_);
      follow.addEventListener('change', () => this.setFollow(follow.checked));
      followLabel.title = t('followTitle');
      followLabel.append(follow, ` ${t('follow')}`);
      row.append(next, release, followLabel);
      parts.follow = follow;
      parts.release = release;

      // Colour by, trails, time.
      const look = element('div', 'bf-look-row');
      const colourLabel = element('label', 'bf-look-field');
      const colour = element('select');
      colour.id = ids('colour-by');
      for (const mode of COLOUR_MODES) {
        const option = element('option', null, t(MODE_TEXT[mode]));
        option.value = mode;
        colour.append(option);
      }
      colour.value = this.colourBy_ ?? 'heading';
      colour.addEventListener('change', () => this.setColourBy(colour.value));
      colourLabel.append(`${t('colourBy')} `, colour);
      const trailsLabel = element('label', 'bf-check');
      const trails = element('input');
      trails.type = 'checkbox';
      trails.id = ids('trails');
      trails.checked = Boolean(this.trails_);
      trails.addEventListener('change', () => this.setTrails(trails.checked));
      trailsLabel.append(trails, ` ${t('trailsLabel')}`);
      look.append(colourLabel, trailsLabel);
      parts.colour = colour;
      parts.trails = trails;

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
      this.ui.stage.append(readout, boidSaid);
      // A compact embed with `plot`: the plot goes below everything else.
      if (this.plotWanted) this.insertBefore(this.buildPlot(parts), this.ui.keysHelp?.dialog ?? null);
    }
    this.classList.toggle('bf-with-plot', Boolean(this.plotWanted && !slot));
    this.ui.instruments = parts;
    this.showReadout();
  },

  /** The live plot, its legend, its words and the CSV button, as one <figure>. */
  buildPlot(parts) {
    const t = (key) => this.text.ui(key);
    const figure = element('figure', 'bf-plot');
    const caption = element('figcaption', null, t('plotTitle'));
    const canvas = element('canvas', 'bf-plot-canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', t('plotTitle'));
    const legend = element('ul', 'bf-plot-legend');
    for (const [, key, colourCss] of SERIES) {
      const item = element('li');
      const swatch = element('span', 'bf-plot-swatch');
      swatch.style.background = colourCss;
      item.append(swatch, t(key));
      legend.append(item);
    }
    // What the flock did, in sentences (narrator.js), said as it happens; the figures below
    // stay where a reader can go to them (and M says them).
    const said = element('p', 'bf-said');
    said.setAttribute('aria-live', 'polite');
    const words = element('p', 'bf-words');
    const csv = button('bf-csv', t('downloadCsv'), () => this.downloadCsv());
    csv.title = t('downloadCsvTitle');
    figure.append(caption, canvas, legend, said, words, csv);
    this.plot ??= new MetricsPlot(canvas, this.constructor.params);
    this.plot.canvas = canvas;
    this.plotDirty = true;
    parts.words = words;
    parts.said = said;
    parts.plotCanvas = canvas;
    return figure;
  },

  // ---- every frame ---------------------------------------------------------------------------

  /** After each drawn frame: the plot's samples, the readout and the words, now and then. */
  instrumentsFrame(now) {
    if (this.plot) {
      const time = this.steps / 60;
      // A piece of the plot's survey for each step this frame took (none between the steps
      // of slow motion).
      const steps = Math.max(0, this.steps - (this.plotSteps ?? this.steps));
      this.plotSteps = this.steps;
      if (this.plot.sample(this.flock, time, { paused: this.paused, steps })) {
        this.plotDirty = true;
        const { metrics, params } = this.plot.latest();
        this.narrator ??= new Narrator();
        const said = this.narrator.hear(metrics, params.predators, now);
        if (said) this.say(sentences(said, this.text, this.lang_));
      }
    }
    if (now - (this.readoutAt ?? 0) < READOUT_EVERY) return;
    this.readoutAt = now;
    this.showReadout();
    if (this.plot && this.plotDirty && this.ui?.instruments?.plotCanvas) {
      this.plotDirty = false;
      this.plot.draw();
    }
    if (now - (this.wordsAt ?? 0) >= WORDS_EVERY && this.ui?.instruments?.words) {
      this.wordsAt = now;
      const latest = this.plot?.latest();
      if (latest) this.ui.instruments.words.textContent = describe(latest.metrics, this.text, this.lang_);
    }
  },

  /** Says `words` in the flock's live region (`figures`: M asked for them). */
  say(words) {
    const said = this.ui?.instruments?.said;
    if (said) said.textContent = words;
  },

  /** The flock's figures now, said (the M key); false without a plot to take them from. */
  sayFigures() {
    const latest = this.plot?.latest();
    if (!latest || !this.ui?.instruments?.said) return false;
    // The same words twice are said twice: a change of text is what a reader hears.
    const words = describe(latest.metrics, this.text, this.lang_);
    this.say(this.ui.instruments.said.textContent === words ? `${words}\u00a0` : words);
    return true;
  },

  /** The selected boid in its live region: at once when chosen, then when its gist changes. */
  sayBoid(seen, now = performance.now()) {
    const box = this.ui?.instruments?.boidSaid;
    if (!box) return;
    const gist = seen ? boidGist(seen) : 'none';
    if (gist === this.boidGist || (this.boidGist != null && now - (this.boidSaidAt ?? 0) < SAY_EVERY)) return;
    const first = this.boidGist == null;
    this.boidGist = gist;
    this.boidSaidAt = now;
    if (!seen && first && !box.textContent) return; // nothing was said: nothing to take back
    box.textContent = seen ? boidWords(seen, this.text, this.lang_) : this.text.ui('inspectorNone');
  },

  /** The selected boid in numbers and words. */
  showReadout() {
    const parts = this.ui?.instruments;
    const box = parts?.readout;
    if (!box || !this.flock) return;
    const t = (key) => this.text.ui(key);
    if (parts.release) parts.release.disabled = this.selected_ == null;
    const seen = this.selected_ == null ? null : this.flock.inspect(this.selected_);
    box.hidden = !seen && box.classList.contains('bf-inspector-over');
    if (!seen) {
      if (this.selected_ != null) {
        // The boid is gone (a smaller count, a rebuild): let go of it.
        this.selected_ = null;
        this.view?.select(this.flock, null);
        this.announceSelection(null);
      }
      box.replaceChildren(element('p', 'bf-inspector-none', t('inspectorNone')));
      this.sayBoid(null);
      return;
    }
    this.sayBoid(seen);
    const number = new Intl.NumberFormat(this.lang_, { maximumFractionDigits: 1 });
    const colours = this.forceColours();
    const title = element('p', 'bf-inspector-title');
    title.append(element('strong', null, t('boidId').replace('{id}', String(seen.id))));
    const strongest = seen.strongest ? t(STRONGEST_TEXT[seen.strongest]) : t('strongestOther');
    title.append(` — ${strongest}`);
    const facts = element(
      'p',
      'bf-inspector-facts',
      `${t('neighboursHeeded')
        .replace('{n}', number.format(seen.heeded.length))
        .replace('{close}', number.format(seen.tooClose.length))
        .replace('{unseen}', number.format(seen.unseen.length))} · ${t('speedNow').replace('{v}', number.format(seen.speed))}`,
    );
    const list = element('ul', 'bf-forces');
    for (const [name, key] of Object.entries(FORCE_TEXT)) {
      const term = seen.terms[name];
      const vector = term?.weighted ?? term;
      if (!vector) continue;
      const size = length(vector);
      if (name !== 'total' && !['separation', 'alignment', 'cohesion'].includes(name) && size < 1e-4) continue;
      const item = element('li');
      item.dataset.force = name;
      const swatch = element('span', 'bf-force-swatch');
      swatch.style.background = colours[name] ?? '#fff';
      item.append(swatch, `${t(key)} `, element('span', 'bf-force-size', number.format(size)));
      list.append(item);
    }
    box.replaceChildren(title, facts, list);
  },

  /** The arrows' colours (the View's legend), by force name. */
  forceColours() {
    if (!this.forceColours_) {
      this.forceColours_ = {};
      try {
        for (const { name, colour } of this.view?.legend()?.forces ?? []) this.forceColours_[name] = colour;
      } catch {
        // no view yet: plain swatches until there is one
      }
      if (Object.keys(this.forceColours_).length === 0) return {};
    }
    return this.forceColours_;
  },

  /** The plot's series as a CSV file. */
  downloadCsv() {
    if (!this.plot) return;
    const blob = new Blob([this.plot.csv()], { type: 'text/csv' });
    const link = element('a');
    link.href = URL.createObjectURL(blob);
    link.download = `boids-seed${this.flock?.seed?.() ?? ''}.csv`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  },
};
