// The flock's order over the last minute (issue 11): a small live plot of the flock's measures,
// the series behind it as CSV, and the same in words for a screen reader.
//
// Drawn by hand on a 2D canvas (about 4 KB of source) rather than with a chart library:
// uPlot, the smallest well-kept one, is about 20 KB gzipped, a tenth of the page's budget,
// for two axes and four lines.
//
// Time is the flock's own (steps × 1/60 s): pausing freezes the plot, slow motion slows it.
// Every sample also keeps the parameters in force, so a CSV row says what made it.

import { button, element } from '../core/dom.js';

/** Seconds of flock time between samples, and how many the plot shows (one minute). */
export const SAMPLE_EVERY = 1;
/**
 * Steps a sample's measures are spread over, a piece a step: one sample's time (the flock
 * steps 60 times a second of its time). Every measure at once costs about a step at 10,000
 * boids (more than one natively on a fresh flock): a frame that took them would stutter. A
 * sixtieth a step, with the inspector, stays within a tenth of one (README, "The
 * instruments"), and a frame that takes several steps takes as many pieces, so a sample is
 * done in a second of flock time at any frame rate.
 */
export const SURVEY_CALLS = SAMPLE_EVERY * 60;
const SHOWN = 60 / SAMPLE_EVERY;
/** The CSV keeps this many samples (ten minutes); older ones drop off. */
const KEPT = 600;

/** The series drawn: [key of metrics(), text key, colour, axis]. Left axis 0–1, right axis counts. */
export const SERIES = [
  ['polarization', 'plotPolarization', '#ffd166', 'share'],
  ['milling', 'plotMilling', '#ef476f', 'share'],
  ['localOrder', 'plotLocalOrder', '#06d6a0', 'share'],
  ['groups', 'plotGroups', '#8ecae6', 'count'],
];

/** Every measure of `metrics()` in the CSV, in this order. */
const MEASURES = [
  'count',
  'polarization',
  'milling',
  'meanNeighbours',
  'meanNearest',
  'medianNearest',
  'groups',
  'bigGroups',
  'largestGroup',
  'groupPolarization',
  'elongation',
  'streaming',
  'localOrder',
  'meanSpeed',
  'cruising',
  'velocityCorrelation',
  'groupCorrelation',
  'outside',
  'collisions',
];

export class MetricsPlot {
  /**
   * `canvas`: where to draw; `params`: the parameter table (`Flock.params()`), whose getters
   * give the values in force for the CSV.
   */
  constructor(canvas, params) {
    this.canvas = canvas;
    this.params = params;
    this.samples = [];
    this.nextAt = 0;
    this.pending = null;
  }

  /** Forgets the survey under way (another flock came in behind the same handle). */
  dropSurvey() {
    this.pending = null;
  }

  /** Forgets every sample (a rebuilt flock starts its own series). */
  clear() {
    this.samples = [];
    this.nextAt = 0;
    this.pending = null;
  }

  /**
   * Takes a sample when `time` (flock seconds) has reached the next one; true when one is
   * done. A sample's measures are surveyed a piece for each of the `steps` the flock took
   * since the last call (`Flock.beginSurvey`), of the flock as it was at its time; a paused
   * flock has the time to finish at once.
   */
  sample(flock, time, { paused = false, steps = 1 } = {}) {
    if (this.pending?.flock !== flock) {
      if (time < this.nextAt && this.samples.length > 0) return false;
      this.nextAt = time + SAMPLE_EVERY;
      const params = {};
      for (const spec of this.params) params[spec.name] = Number(flock[spec.getter]());
      this.pending = { flock, time, params, survey: flock.beginSurvey(SURVEY_CALLS) };
    }
    const { survey } = this.pending;
    let metrics = null;
    try {
      if (paused) metrics = flock.finishSurvey(survey);
      else for (let k = 0; k < steps && !metrics; k++) metrics = flock.advanceSurvey(survey);
    } catch (error) {
      // A script of the page began a survey of its own (one at a time per flock), dropping
      // ours: the next frame begins it again.
      if (!(error instanceof RangeError)) throw error;
      this.pending = null;
      this.nextAt = time;
      return false;
    }
    if (!metrics) return false;
    const { time: at, params } = this.pending;
    this.pending = null;
    this.samples.push({ time: at, metrics, params });
    if (this.samples.length > KEPT) this.samples.splice(0, this.samples.length - KEPT);
    return true;
  }

  /** The latest sample, or null. */
  latest() {
    return this.samples.at(-1) ?? null;
  }

  /** Draws the last minute. */
  draw() {
    const canvas = this.canvas;
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
    const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    const g = canvas.getContext('2d');
    if (!g) return;
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    const w = width / ratio;
    const h = height / ratio;
    g.clearRect(0, 0, w, h);
    const pad = { left: 26, right: 26, top: 6, bottom: 16 };
    const plotW = Math.max(1, w - pad.left - pad.right);
    const plotH = Math.max(1, h - pad.top - pad.bottom);
    // The last minute by time (a sample can come a step or so late).
    const end = this.samples.at(-1)?.time ?? 0;
    const start = end - (SHOWN - 1) * SAMPLE_EVERY;
    const shown = this.samples.slice(-SHOWN).filter((s) => s.time >= start);
    const x = (time) => pad.left + ((time - start) / ((SHOWN - 1) * SAMPLE_EVERY)) * plotW;
    const maxCount = Math.max(1, ...shown.map((s) => Number(s.metrics.groups) || 0));
    const top = niceCeil(maxCount);
    const y = (value, axis) => pad.top + plotH * (1 - (axis === 'share' ? value : value / top));

    // Axes and grid: 0, ½ and 1 on the left, 0 and the top count on the right.
    const style = getComputedStyle(canvas);
    g.font = `10px ${style.fontFamily || 'sans-serif'}`;
    g.strokeStyle = 'rgba(255,255,255,0.15)';
    g.fillStyle = style.color || '#ccc';
    g.lineWidth = 1;
    g.textBaseline = 'middle';
    for (const share of [0, 0.5, 1]) {
      const yy = Math.round(y(share, 'share')) + 0.5;
      g.beginPath();
      g.moveTo(pad.left, yy);
      g.lineTo(pad.left + plotW, yy);
      g.stroke();
      g.textAlign = 'right';
      g.fillText(share === 0.5 ? '½' : String(share), pad.left - 4, yy);
    }
    g.textAlign = 'left';
    g.fillText(String(top), pad.left + plotW + 4, y(top, 'count'));
    g.fillText('0', pad.left + plotW + 4, y(0, 'count'));
    g.textAlign = 'center';
    g.textBaseline = 'alphabetic';
    g.fillText('−60 s', pad.left + 12, h - 3);
    g.fillText('0', pad.left + plotW, h - 3);

    g.lineWidth = 1.5;
    for (const [key, , colour, axis] of SERIES) {
      g.strokeStyle = colour;
      g.beginPath();
      let drawing = false;
      for (const s of shown) {
        const value = Number(s.metrics[key]);
        if (!Number.isFinite(value)) {
          drawing = false;
          continue;
        }
        const px = x(s.time);
        const py = y(Math.min(axis === 'share' ? 1 : top, Math.max(0, value)), axis);
        if (drawing) g.lineTo(px, py);
        else g.moveTo(px, py);
        drawing = true;
      }
      g.stroke();
    }
  }

  /** The samples as CSV: time, every measure, every parameter in force. */
  csv() {
    const names = this.params.map((spec) => spec.name);
    const rows = [['time_s', ...MEASURES, ...names].join(',')];
    for (const { time, metrics, params } of this.samples) {
      const cell = (value) => (Number.isFinite(Number(value)) ? String(Number(value)) : '');
      rows.push([time.toFixed(3), ...MEASURES.map((key) => cell(metrics[key])), ...names.map((name) => cell(params[name]))].join(','));
    }
    return `${rows.join('\n')}\n`;
  }
}

/** 1, 2, 5, 10, 20, … at or above `value`. */
function niceCeil(value) {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/** `key` for `n` in the language's plural form (`key_one`, `key_few`, `key_many`, `key_other`). */
export function plural(text, key, n, lang) {
  const form = new Intl.PluralRules(lang).select(n);
  const found = text.ui(`${key}_${form}`);
  return found === `${key}_${form}` ? text.ui(`${key}_other`) : found;
}

/**
 * The flock in a few words: "1,500 boids · 82 % aligned · 3 groups · circling". `text` is
 * the page's `texts(lang)`.
 */
export function describe(metrics, text, lang) {
  const number = new Intl.NumberFormat(lang);
  const percent = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 });
  const parts = [
    plural(text, 'wordsBoids', metrics.count, lang).replace('{n}', number.format(metrics.count)),
    text.ui('wordsAligned').replace('{p}', percent.format(metrics.polarization || 0)),
    plural(text, 'wordsGroups', metrics.groups, lang).replace('{n}', number.format(metrics.groups)),
  ];
  // What it is doing, the clearest first.
  if (metrics.milling > 0.5) parts.push(text.ui('wordsCircling'));
  else if (metrics.polarization > 0.8) parts.push(text.ui('wordsOneWay'));
  else if (metrics.polarization < 0.3 && metrics.groups > 3) parts.push(text.ui('wordsScattered'));
  else if (metrics.localOrder > 0.8 && metrics.polarization < 0.6) parts.push(text.ui('wordsStreams'));
  return parts.join(' · ');
}

/**
 * The plot's <figure>: caption, canvas, legend, the sentences said as they happen, the figures
 * in words and the CSV button (calling `onCsv`). `t` gives the page's text for a key.
 */
export function plotFigure(t, onCsv) {
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
  const csv = button('bf-csv', t('downloadCsv'), onCsv);
  csv.title = t('downloadCsvTitle');
  figure.append(caption, canvas, legend, said, words, csv);
  return { figure, canvas, said, words };
}
