// The panel's Experiment group (issue 26): one parameter swept over a range, over seeds, up or
// up and down; the run in a worker (experiment.js) with a progress bar and time left; the phase
// plot filling as the points come (phase-plot.js); the CSV and the plot as files; a link that
// gives the experiment back (`?experiment=…`); and a class's split: one link a student, each
// running its slice and showing a result code, the codes pasted back and merged here.
// Imported by panel.js only when the group is first opened, so the page downloads none of it
// at load. `buildExperiment(host, body)` fills the group's body; `host` is the <boids-flock>,
// which keeps the experiment's state, so a rebuilt panel (a new language) shows it again.

import { SPECS } from '../core/wasm-load.js';
import { readParam } from '../core/settings.js';
import { button, element } from '../core/dom.js';
import {
  experimentFingerprint,
  experimentLink,
  mergeResults,
  parseResultCode,
  resultCode,
  runExperiment,
  sliceSpecs,
  specFromLink,
} from './runner.js';
import { MEASURES, drawPhasePlot, seriesFromRows } from './phase-plot.js';

const STYLESHEET = new URL('./experiment.css', import.meta.url).href;
/** The full page, where the experiment's links open. */
const FULL_PAGE = new URL('../../', import.meta.url).href;
/** The contract's limits (src/sim/experiment.rs). */
const MAX_VALUES = 201;
const MAX_SEEDS = 64;
const MAX_COUNT = 20_000;
const SAMPLE_EVERY = 0.5;
/** A progress message for screen readers at most this often, ms (the bar itself moves on). */
const SAY_EVERY = 5000;
const CODE = /boids1:[A-Za-z0-9_-]+/g;


if (![...document.querySelectorAll('link[rel~="stylesheet"]')].some((link) => link.href === STYLESHEET)) {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = STYLESHEET;
  document.head.append(link);
}

/** The parameters an experiment may sweep: every one with a slider (not the seed). */
const sweepable = () => SPECS.filter((spec) => spec.slider && spec.name !== 'seed');
const specOf = (name) => SPECS.find((spec) => spec.name === name);

/** `n` values from `from` to `to` (geometric on a log-scale parameter), within its range. */
export function spacedValues(spec, from, to, n) {
  const count = Math.max(1, Math.min(MAX_VALUES, Math.round(n)));
  const clamp = (v) => Math.min(spec.max, Math.max(spec.min, v));
  const [a, b] = [clamp(from), clamp(to)];
  const out = [];
  for (let i = 0; i < count; i++) {
    const t = count === 1 ? 0 : i / (count - 1);
    let v = spec.scale === 'log' && a > 0 && b > 0 ? a * (b / a) ** t : a + (b - a) * t;
    v = spec.kind === 'integer' || spec.kind === 'toggle' ? Math.round(v) : Number(v.toPrecision(10));
    v = clamp(v);
    if (!out.includes(v)) out.push(v);
  }
  return out;
}

/** Seeds from "1 2 3", "1, 5, 9" or a range "1-10" (1 to 10); null when that is not it. */
export function parseSeeds(text) {
  const seeds = [];
  for (const word of String(text).trim().split(/[\s,;]+/).filter(Boolean)) {
    const range = /^(\d+)\s*[-–…]\s*(\d+)$/.exec(word);
    if (range) {
      const [lo, hi] = [Number(range[1]), Number(range[2])];
      if (hi < lo || hi - lo >= MAX_SEEDS) return null;
      for (let s = lo; s <= hi; s++) seeds.push(s);
    } else if (/^\d+$/.test(word)) seeds.push(Number(word));
    else return null;
  }
  const unique = [...new Set(seeds)];
  return unique.length > 0 && unique.length <= MAX_SEEDS && unique.every((s) => s <= 0xffffffff) ? unique : null;
}

/** The current flock's settings as an experiment's base: what differs from the table, or was set. */
function baseSettings(host, param) {
  const settings = {};
  for (const spec of SPECS) {
    if (['seed', 'count', param].includes(spec.name)) continue;
    const value = readParam(host.flock, spec);
    const set = host.explicit?.has(spec.name);
    if (set || (spec.name !== 'worldSize' && Math.fround(value) !== Math.fround(spec.default))) settings[spec.name] = value;
  }
  return settings;
}

/** The form's fields for a spec (from a link), or the defaults for the current flock. */
function formFor(host, spec) {
  if (spec) {
    const values = spec.values;
    return {
      param: spec.param,
      from: values[0],
      to: values[values.length - 1],
      points: values.length,
      seeds: spec.seeds.join(' '),
      direction: spec.direction,
      count: spec.count,
      settle: spec.settle,
      measure: spec.measure,
      students: spec.slice?.of ?? 4,
    };
  }
  const names = sweepable().map((s) => s.name);
  const param = names.includes('noise') ? 'noise' : names.includes('alignment') ? 'alignment' : names[0];
  const p = specOf(param);
  const count = Math.min(MAX_COUNT, Math.max(50, Math.round(host.flock ? host.flock.count() : 1500)));
  return { param, from: p.min, to: p.max, points: 11, seeds: '1 2 3', direction: 'up', count, settle: 20, measure: 10, students: 4 };
}

/** The experiment's state, kept on the element across panel builds. */
function stateOf(host) {
  if (host.experiment_) return host.experiment_;
  const state = {
    form: null,
    fixed: null, // a spec from a link, run as it is until a field changes
    slice: null, // a student's slice, from the link
    rows: [],
    result: null,
    running: null,
    progress: null,
    measure: 'polarization',
    message: '',
    links: [],
    mergeMessage: '',
    code: '',
  };
  const raw = host.option?.('experiment');
  if (raw) {
    try {
      const url = new URL(FULL_PAGE);
      url.searchParams.set('experiment', raw);
      const spec = specFromLink(url.href);
      if (!spec) throw new TypeError('no experiment');
      state.fixed = spec;
      state.fromLink = true;
      state.slice = spec.slice ?? null;
      state.form = formFor(host, spec);
    } catch (error) {
      state.message = ['expBadLink', error?.message ?? String(error)];
    }
  }
  state.form ??= formFor(host, null);
  host.experiment_ = state;
  return state;
}

/** The spec the form describes (or the link's, while unchanged). Throws a text key on bad seeds. */
function specFromForm(host, state) {
  if (state.fixed) return state.fixed;
  const f = state.form;
  const spec = specOf(f.param);
  const seeds = parseSeeds(f.seeds);
  if (!seeds) throw Object.assign(new RangeError('seeds'), { key: 'expSeedsError' });
  const measure = Number(f.measure);
  return {
    settings: host.flock ? baseSettings(host, f.param) : {},
    param: f.param,
    values: spacedValues(spec, Number(f.from), Number(f.to), Number(f.points)),
    direction: f.direction,
    seeds,
    count: Math.round(Number(f.count)),
    settle: Number(f.settle),
    measure,
    sampleEvery: Math.min(SAMPLE_EVERY, measure > 0 ? measure : SAMPLE_EVERY),
  };
}

/** How many units (the slices' grain) a spec has: (seed, value) pairs up, seeds up and down. */
const unitsOf = (spec) => (spec.direction === 'up' ? spec.seeds.length * spec.values.length : spec.seeds.length);

/** A link that opens the full page with `spec` (in this flock's language when it chose one). */
function linkTo(host, spec) {
  const base = new URL(FULL_PAGE);
  if (host.langExplicit) base.searchParams.set('lang', host.language);
  return experimentLink(spec, base.href);
}

function download(name, blob) {
  const link = element('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function copyText(text, field) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    field?.focus();
    field?.select?.();
    return false;
  }
}

/** Seconds as "45 s" or "3 min", in the language. */
function duration(t, seconds, lang) {
  const number = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
  if (!Number.isFinite(seconds)) return '…';
  if (seconds < 90) return t('expSeconds').replace('{n}', number.format(Math.max(1, Math.round(seconds))));
  return t('expMinutes').replace('{n}', number.format(Math.round(seconds / 60)));
}

/** Fills the group's body. Called again after each panel build while the group is open. */
export function buildExperiment(host, body) {
  const t = (key) => host.text.ui(key);
  const id = (name) => host.idFor(`exp-${name}`);
  const lang = host.language;
  const state = stateOf(host);
  const f = state.form;
  const ui = {};
  host.experimentUi = ui;

  const field = (name, labelKey, input, hintKey) => {
    const wrap = element('div', 'bf-exp-field');
    input.id = id(name);
    const label = element('label', null, t(labelKey));
    label.htmlFor = input.id;
    wrap.append(label, input);
    if (hintKey) {
      const hint = element('p', 'bf-exp-hint', t(hintKey));
      hint.id = id(`${name}-hint`);
      input.setAttribute('aria-describedby', hint.id);
      wrap.append(hint);
    }
    ui[name] = input;
    return wrap;
  };
  const numberInput = (value, { min, max, step = 'any' } = {}) => {
    const input = element('input');
    input.type = 'number';
    input.inputMode = 'decimal';
    if (min != null) input.min = String(min);
    if (max != null) input.max = String(max);
    input.step = String(step);
    input.value = String(value);
    return input;
  };

  const intro = element('p', 'bf-exp-hint bf-exp-intro', t(state.slice ? 'expStudentIntro' : 'expIntro'));
  if (state.slice) intro.textContent = t('expStudentIntro').replace('{k}', String(state.slice.index + 1)).replace('{n}', String(state.slice.of));

  // What to sweep.
  const param = element('select');
  for (const spec of sweepable()) {
    const option = element('option', null, host.text.param(spec)[0]);
    option.value = spec.name;
    param.append(option);
  }
  param.value = f.param;
  const range = element('div', 'bf-exp-row');
  const pSpec = specOf(f.param);
  range.append(
    field('from', 'expFrom', numberInput(f.from, { min: pSpec.min, max: pSpec.max, step: pSpec.step })),
    field('to', 'expTo', numberInput(f.to, { min: pSpec.min, max: pSpec.max, step: pSpec.step })),
    field('points', 'expPoints', numberInput(f.points, { min: 1, max: MAX_VALUES, step: 1 })),
  );
  const seeds = element('input');
  seeds.type = 'text';
  seeds.value = f.seeds;
  seeds.spellcheck = false;
  seeds.autocomplete = 'off';

  const direction = element('fieldset', 'bf-exp-direction');
  direction.append(element('legend', null, t('expDirection')));
  for (const [value, key] of [['up', 'expDirUp'], ['up-down', 'expDirUpDown']]) {
    const label = element('label', 'bf-check');
    const radio = element('input');
    radio.type = 'radio';
    radio.name = id('direction');
    radio.value = value;
    radio.checked = f.direction === value;
    radio.id = id(`direction-${value}`);
    label.append(radio, ` ${t(key)}`);
    direction.append(label);
  }
  ui.direction = direction;

  const timing = element('div', 'bf-exp-row bf-exp-timing');
  timing.append(
    field('count', 'expCount', numberInput(f.count, { min: 50, max: MAX_COUNT, step: 1 })),
    field('settle', 'expSettle', numberInput(f.settle, { min: 0, max: 600, step: 1 })),
    field('measure', 'expMeasureTime', numberInput(f.measure, { min: 0.5, max: 600, step: 0.5 })),
  );

  // Run and progress.
  const run = button('bf-exp-run', '', () => (state.running ? state.running.abort() : start(host)));
  run.id = id('run');
  ui.run = run;
  const progressLabel = element('label', 'bf-exp-progress-label', t('expProgress'));
  const progress = element('progress', 'bf-exp-progress');
  progress.id = id('progress');
  progress.max = 1;
  progress.value = 0;
  progressLabel.htmlFor = progress.id;
  const status = element('p', 'bf-exp-status');
  status.id = id('status');
  status.setAttribute('aria-live', 'polite');
  const said = element('p', 'bf-exp-said');
  said.setAttribute('aria-live', 'polite');
  ui.progress = progress;
  ui.status = status;
  ui.said = said;
  const runRow = element('div', 'bf-exp-run-row');
  const bar = element('div', 'bf-exp-bar');
  bar.append(progressLabel, progress);
  runRow.append(run, bar);

  // The plot.
  const figure = element('figure', 'bf-exp-figure');
  const measure = element('select');
  for (const [key, textKey] of MEASURES) {
    const option = element('option', null, t(textKey));
    option.value = key;
    measure.append(option);
  }
  measure.value = state.measure;
  const canvas = element('canvas', 'bf-exp-plot');
  canvas.id = id('plot');
  canvas.setAttribute('role', 'img');
  ui.canvas = canvas;
  const caption = element('figcaption', 'bf-exp-caption');
  ui.caption = caption;
  figure.append(field('show', 'expMeasure', measure), canvas, caption);

  const files = element('div', 'bf-exp-buttons');
  ui.csv = button('bf-exp-csv', t('expDownloadCsv'), () => downloadCsv(host));
  ui.csv.id = id('csv');
  ui.png = button('bf-exp-png', t('expDownloadPng'), () => canvas.toBlob((blob) => blob && download(`${fileStem(host)}.png`, blob)));
  ui.png.id = id('png');
  ui.copy = button('bf-exp-copy', t('expCopyLink'), async () => {
    let spec;
    try {
      spec = specFromForm(host, state);
    } catch (error) {
      return say(host, error.key ? t(error.key) : String(error.message));
    }
    const link = linkTo(host, spec);
    ui.link.value = link;
    ui.link.hidden = false;
    ui.copy.dataset.link = link;
    say(host, t((await copyText(link, ui.link)) ? 'expCopied' : 'expCopyManual'));
  });
  ui.copy.id = id('copy-link');
  ui.link = element('input', 'bf-exp-link');
  ui.link.id = id('link');
  ui.link.readOnly = true;
  ui.link.hidden = true;
  ui.link.setAttribute('aria-label', t('expLinkField'));
  files.append(ui.csv, ui.png, ui.copy);

  body.replaceChildren(intro);
  if (state.slice) body.append(buildStudent(host, ui, t));
  body.append(
    field('param', 'expParam', param),
    range,
    field('seeds', 'expSeeds', seeds, 'expSeedsHint'),
    direction,
    timing,
    runRow,
    status,
    said,
    figure,
    files,
    ui.link,
  );
  if (!state.slice) body.append(buildClass(host, ui, t));

  // Edits: keep the form's state; a field changed makes a new experiment (not the link's).
  const edited = () => {
    state.form = {
      param: param.value,
      from: ui.from.value,
      to: ui.to.value,
      points: ui.points.value,
      seeds: seeds.value,
      direction: direction.querySelector('input:checked')?.value ?? 'up',
      count: ui.count.value,
      settle: ui.settle.value,
      measure: ui.measure.value,
      students: ui.students?.value ?? state.form.students,
    };
    if (state.fixed && host.urlMode === 'sync') {
      // Another experiment now: the address bar no longer carries the link's.
      const url = new URL(location.href);
      url.searchParams.delete('experiment');
      history.replaceState(history.state, '', url.href);
    }
    state.fixed = null;
    state.slice = null;
    redraw(host); // before a run the plot's axes follow the form
  };
  param.addEventListener('change', () => {
    const spec = specOf(param.value);
    for (const input of [ui.from, ui.to]) Object.assign(input, { min: spec.min, max: spec.max, step: spec.step });
    ui.from.value = String(spec.min);
    ui.to.value = String(spec.max);
    edited();
  });
  for (const input of [ui.from, ui.to, ui.points, seeds, ui.count, ui.settle, ui.measure]) input.addEventListener('change', edited);
  direction.addEventListener('change', edited);
  measure.addEventListener('change', () => {
    state.measure = measure.value;
    redraw(host);
  });

  if (!host.experimentObserver) {
    // The canvas follows its box (a phone turned, the panel resized).
    host.experimentObserver = new ResizeObserver(() => redraw(host));
  }
  host.experimentObserver.disconnect();
  host.experimentObserver.observe(canvas);
  update(host);
  if (state.fromLink && !state.shown) {
    state.shown = true; // a link's experiment: the group in view (it sits at the panel's end)
    requestAnimationFrame(() => body.closest('details')?.scrollIntoView({ block: 'start' }));
  }
  if (state.slice && !state.autoStarted) {
    state.autoStarted = true; // a student's link runs its part at once
    start(host);
  }
}

/** A student's part: the result code to send back, with a copy button. */
function buildStudent(host, ui, t) {
  const box = element('div', 'bf-exp-student');
  const code = element('textarea', 'bf-exp-code');
  code.id = host.idFor('exp-code');
  code.readOnly = true;
  code.rows = 3;
  const label = element('label', null, t('expCode'));
  label.htmlFor = code.id;
  const copy = button('bf-exp-copy-code', t('expCopyCode'), async () => {
    say(host, t((await copyText(code.value, code)) ? 'expCopied' : 'expCopyManual'));
  });
  copy.id = host.idFor('exp-copy-code');
  ui.code = code;
  ui.copyCode = copy;
  box.append(label, code, copy);
  return box;
}

/** Sharing with the class, and merging the codes the students send back. */
function buildClass(host, ui, t) {
  const state = stateOf(host);
  const box = element('section', 'bf-exp-class');
  const headingId = host.idFor('exp-class-heading');
  const heading = element('h3', 'bf-look-heading', t('expClass'));
  heading.id = headingId;
  box.setAttribute('aria-labelledby', headingId);
  const students = element('input');
  students.type = 'number';
  students.min = '1';
  students.max = '200';
  students.step = '1';
  students.value = String(state.form.students ?? 4);
  students.id = host.idFor('exp-students');
  const studentsLabel = element('label', null, t('expStudents'));
  studentsLabel.htmlFor = students.id;
  ui.students = students;
  students.addEventListener('change', () => {
    state.form.students = students.value;
  });
  const share = button('bf-exp-share', t('expShare'), () => shareWithClass(host));
  share.id = host.idFor('exp-share');
  ui.share = share;
  const row = element('div', 'bf-exp-share-row');
  const wrap = element('div', 'bf-exp-field');
  wrap.append(studentsLabel, students);
  row.append(wrap, share);
  const links = element('ol', 'bf-exp-links');
  links.id = host.idFor('exp-links');
  ui.links = links;
  const copyLinks = button('bf-exp-copy-links', t('expCopyLinks'), async () => {
    const text = state.links.join('\n');
    say(host, t((await copyText(text)) ? 'expCopied' : 'expCopyManual'));
  });
  copyLinks.id = host.idFor('exp-copy-links');
  ui.copyLinks = copyLinks;

  const paste = element('textarea', 'bf-exp-paste');
  paste.id = host.idFor('exp-paste');
  paste.rows = 3;
  paste.spellcheck = false;
  const pasteLabel = element('label', null, t('expPaste'));
  pasteLabel.htmlFor = paste.id;
  const merge = button('bf-exp-merge', t('expMerge'), () => mergeCodes(host, paste.value));
  merge.id = host.idFor('exp-merge');
  const mergeStatus = element('p', 'bf-exp-merge-status');
  mergeStatus.id = host.idFor('exp-merge-status');
  mergeStatus.setAttribute('aria-live', 'polite');
  paste.setAttribute('aria-describedby', mergeStatus.id);
  ui.paste = paste;
  ui.merge = merge;
  ui.mergeStatus = mergeStatus;

  box.append(heading, element('p', 'bf-exp-hint', t('expShareHint')), row, links, copyLinks, pasteLabel, paste, merge, mergeStatus);
  return box;
}

/** Says `text` in the status line (read out by screen readers). */
function say(host, text) {
  const state = stateOf(host);
  state.message = text;
  if (host.experimentUi?.status) host.experimentUi.status.textContent = text;
}

async function start(host) {
  const state = stateOf(host);
  const t = (key) => host.text.ui(key);
  let spec;
  try {
    spec = specFromForm(host, state);
  } catch (error) {
    say(host, error.key ? t(error.key) : t('expError').replace('{m}', error.message));
    return;
  }
  const controller = new AbortController();
  state.running = controller;
  state.rows = [];
  state.result = null;
  state.code = '';
  state.progress = { fraction: 0, secondsLeft: NaN };
  state.spec = spec;
  state.saidAt = 0;
  update(host);
  try {
    const result = await runExperiment(spec, {
      signal: controller.signal,
      onProgress: (p) => {
        if (state.running !== controller) return;
        state.progress = p;
        if (Array.isArray(p.rows)) state.rows = p.rows;
        update(host);
      },
    });
    if (state.running !== controller) return;
    state.result = result;
    state.rows = result.rows;
    state.progress = { fraction: 1, secondsLeft: 0 };
    if (spec.slice) state.code = await resultCode(result);
    say(host, t('expDone').replace('{n}', String(result.rows.length)));
    host.emit?.('boids-experiment', experimentDetail(result));
  } catch (error) {
    if (state.running !== controller) return;
    if (error?.name === 'AbortError') say(host, t('expStopped'));
    else say(host, t('expError').replace('{m}', error?.message ?? String(error)));
  } finally {
    if (state.running === controller) state.running = null;
    update(host);
  }
}

/**
 * A finished run as `boids-experiment` tells it (events.js): what was swept, how, and for
 * each measure the curves of the phase plot (the mean over the seeds at each value, and its
 * spread), up and, for an up-down sweep, down.
 */
function experimentDetail(result) {
  const { param, values, direction, seeds, count, settle, measure, slice } = result.spec;
  const summary = {};
  for (const [key] of MEASURES) {
    const { up, down } = seriesFromRows(result.rows, key);
    const curve = (points) => points.map(({ value, mean, sd, seeds: n }) => ({ value, mean, sd, seeds: n }));
    summary[key] = { up: curve(up), down: curve(down) };
  }
  return { param, values, direction, seeds, count, settle, measure, slice: slice ?? null, fingerprint: result.fingerprint, rows: result.rows.length, summary };
}

function shareWithClass(host) {
  const state = stateOf(host);
  const t = (key) => host.text.ui(key);
  const ui = host.experimentUi;
  let spec;
  try {
    spec = specFromForm(host, state);
  } catch (error) {
    say(host, error.key ? t(error.key) : error.message);
    return;
  }
  const units = unitsOf(spec);
  const wanted = Math.max(1, Math.round(Number(ui.students.value) || 1));
  const n = Math.min(units, wanted);
  let specs;
  try {
    specs = sliceSpecs(spec, n);
  } catch (error) {
    say(host, t('expError').replace('{m}', error?.message ?? String(error)));
    return;
  }
  state.shared = spec;
  state.links = specs.map((slice) => linkTo(host, slice));
  const shown = t('expShared').replace('{n}', String(n));
  say(host, n < wanted ? `${shown} ${t('expClassMax').replace('{n}', String(units))}` : shown);
  showLinks(host);
}

function showLinks(host) {
  const state = stateOf(host);
  const ui = host.experimentUi;
  if (!ui?.links) return;
  const t = (key) => host.text.ui(key);
  ui.links.replaceChildren(
    ...state.links.map((link, k) => {
      const item = element('li');
      const a = element('a', null, t('expPart').replace('{k}', String(k + 1)).replace('{n}', String(state.links.length)));
      a.href = link;
      a.target = '_blank';
      a.rel = 'noopener';
      item.append(a);
      return item;
    }),
  );
  ui.links.hidden = state.links.length === 0;
  ui.copyLinks.hidden = state.links.length === 0;
}

/**
 * Merges the pasted codes into the plot. The experiment is the one shared from here (else
 * the form's); codes of another are refused, and said so.
 */
async function mergeCodes(host, text) {
  const state = stateOf(host);
  const t = (key) => host.text.ui(key);
  let spec;
  try {
    spec = state.shared ?? specFromForm(host, state);
  } catch (error) {
    say(host, error.key ? t(error.key) : error.message);
    return;
  }
  const { slice, ...whole } = spec; // eslint-disable-line no-unused-vars
  const expected = experimentFingerprint(whole);
  const found = String(text).match(CODE) ?? [];
  const own = [];
  let bad = 0;
  let foreign = 0;
  for (const code of found) {
    try {
      const result = await parseResultCode(code);
      if (result.fingerprint === expected) own.push(result);
      else foreign += 1;
    } catch {
      bad += 1;
    }
  }
  const messages = [];
  if (found.length === 0) messages.push(t('expNoCodes'));
  if (foreign > 0) messages.push(t('expForeign').replace('{n}', String(foreign)));
  if (bad > 0) messages.push(t('expBadCodes').replace('{n}', String(bad)));
  if (own.length > 0) {
    try {
      const merged = mergeResults(own, whole);
      state.result = merged;
      state.rows = merged.rows;
      state.spec = whole;
      let said = t('expMerged').replace('{n}', String(own.length)).replace('{rows}', String(merged.rows.length));
      if (merged.missing > 0) said += ` ${t('expMissing').replace('{n}', String(merged.missing))}`;
      messages.unshift(said);
    } catch (error) {
      messages.push(t('expError').replace('{m}', error?.message ?? String(error)));
    }
  }
  state.mergeMessage = messages.join(' ');
  state.mergeRefused = foreign > 0 || bad > 0 || found.length === 0;
  update(host);
}

function fileStem(host) {
  const state = stateOf(host);
  const spec = state.spec ?? state.fixed ?? state.shared;
  return `boids-experiment-${spec?.param ?? state.form.param}`;
}

function downloadCsv(host) {
  const state = stateOf(host);
  if (!state.result) return;
  const spec = state.result.spec ?? state.spec;
  let link;
  try {
    link = spec ? linkTo(host, spec) : undefined;
  } catch {
    link = undefined;
  }
  download(`${fileStem(host)}.csv`, new Blob([state.result.csv(link)], { type: 'text/csv' }));
}

/** Shows the state: the Start/Stop button, progress, messages, the plot, the codes. */
function update(host) {
  const state = stateOf(host);
  const ui = host.experimentUi;
  if (!ui?.run?.isConnected) return;
  const t = (key) => host.text.ui(key);
  const lang = host.language;
  const running = Boolean(state.running);
  ui.run.textContent = t(running ? 'expStop' : state.slice ? 'expStartPart' : 'expStart');
  ui.run.classList.toggle('bf-exp-running', running);
  const fraction = state.progress?.fraction ?? 0;
  ui.progress.value = fraction;
  const percent = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 }).format(fraction);
  ui.progress.setAttribute('aria-valuetext', percent);
  if (running) {
    const left = t('expLeft').replace('{p}', percent).replace('{t}', duration(t, state.progress?.secondsLeft, lang));
    ui.status.textContent = left;
    state.message = left;
    // The live region says it now and then, not at every point.
    const now = performance.now();
    if (now - (state.saidAt ?? 0) > SAY_EVERY) {
      state.saidAt = now;
      ui.said.textContent = left;
    }
  } else {
    const message = state.message;
    ui.status.textContent = Array.isArray(message) ? t(message[0]).replace('{m}', message[1]) : message || '';
    ui.said.textContent = '';
  }
  const rows = state.rows ?? [];
  ui.csv.disabled = !state.result;
  ui.png.disabled = rows.length === 0;
  if (ui.code) {
    ui.code.value = state.code;
    ui.copyCode.disabled = !state.code;
  }
  if (ui.mergeStatus) {
    ui.mergeStatus.textContent = state.mergeMessage;
    ui.mergeStatus.classList.toggle('bf-exp-refused', Boolean(state.mergeRefused));
    showLinks(host);
  }
  redraw(host);
}

/** Redraws the phase plot from the rows so far. */
function redraw(host) {
  const state = stateOf(host);
  const ui = host.experimentUi;
  if (!ui?.canvas?.isConnected) return;
  const t = (key) => host.text.ui(key);
  let spec = state.result?.spec ?? state.spec ?? null;
  if (!spec) {
    try {
      spec = specFromForm(host, state);
    } catch {
      spec = null;
    }
  }
  const pSpec = specOf(spec?.param ?? state.form.param);
  const values = spec?.values?.length ? spec.values : [pSpec.min, pSpec.max];
  const [measureKey, measureText, axis] = MEASURES.find(([key]) => key === state.measure) ?? MEASURES[0];
  const unit = (u) => (u ? (u === '°' ? ' (°)' : ` (${host.text.unit(u)})`) : '');
  const xLabel = `${host.text.param(pSpec)[0]}${unit(pSpec.unit)}`;
  const yLabel = `${t(measureText)}${axis === 'distance' ? unit('units') : ''}`;
  const series = seriesFromRows(state.rows, measureKey);
  drawPhasePlot(ui.canvas, {
    series,
    x: { min: Math.min(...values), max: Math.max(...values), label: xLabel },
    y: { axis, label: yLabel },
    legend: { up: t('expUp'), down: t('expDown'), band: t('expBand') },
    lang: host.language,
    empty: state.running ? t('expWaiting') : t('expEmpty'),
    upDown: (spec?.direction ?? state.form.direction) === 'up-down',
  });
  const points = series.up.length + series.down.length;
  const caption = t('expPlotTitle').replace('{y}', t(measureText)).replace('{x}', host.text.param(pSpec)[0]);
  ui.caption.textContent = caption;
  const number = new Intl.NumberFormat(host.language, { maximumFractionDigits: 2 });
  const described = series.up.map((p) => `${number.format(p.value)}: ${number.format(p.mean)}`).join('; ');
  ui.canvas.setAttribute('aria-label', `${caption}. ${t('expPointsShown').replace('{n}', String(points))}${described ? ` ${described}` : ''}`);
}
