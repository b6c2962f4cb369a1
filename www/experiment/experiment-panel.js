// The panel's Experiment group (issue 26): one parameter swept over a range, over seeds, up or
// up and down; or, with a second parameter "across" it, a map of the two (issue 44). Issue 41
// split the group, a job a file: this one is the form — the state kept on the element, the
// spec the form describes (its bounds Rust's: experimentLimits()), the form's fields — and
// joins the parts; panel-run.js runs the spec in a worker and plots it,
// panel-class.js shares it with a class and merges the codes that come back. Those two reach
// the form through the state it keeps on the element (`host.experiment_`: formSpec(), link(),
// say(), …), so that they import nothing back. Imported by panel.js only when the group is
// first opened, so the page downloads none of it at load. `buildExperiment(host, body)` fills
// the group's body; `host` is the <boids-flock>, which keeps the experiment's state, so a
// rebuilt panel (a new language) shows it again.

import { SPECS } from '../core/wasm-load.js';
import { readParam } from '../core/settings.js';
import { element } from '../core/dom.js';
import { experimentLimits, experimentLink, specFromLink } from './runner.js';
import { buildRun, redraw, showRun, start } from './panel-run.js';
import { buildClass, buildStudent, showClass } from './panel-class.js';

const STYLESHEET = new URL('./experiment.css', import.meta.url).href;

if (![...document.querySelectorAll('link[rel~="stylesheet"]')].some((link) => link.href === STYLESHEET)) {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = STYLESHEET;
  document.head.append(link);
}

// ---- the state and the spec the form describes -----------------------------------

/** The full page, where the experiment's links open. */
const FULL_PAGE = new URL('../../', import.meta.url).href;
/** What a spec may hold (src/sim/experiment.rs): the form's bounds. */
const LIMITS = experimentLimits();
/** The panel samples every half second (or the whole window, when shorter). */
const SAMPLE_EVERY = 0.5;

/** The parameters an experiment may sweep: every one with a slider (not the seed). */
const sweepable = () => SPECS.filter((spec) => spec.slider && spec.name !== 'seed');
const specOf = (name) => SPECS.find((spec) => spec.name === name);

/** `n` values from `from` to `to` (geometric on a log-scale parameter), within its range. */
export function spacedValues(spec, from, to, n) {
  const count = Math.max(1, Math.min(LIMITS.maxValues, Math.round(n)));
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
      if (hi < lo || hi - lo >= LIMITS.maxSeeds) return null;
      for (let s = lo; s <= hi; s++) seeds.push(s);
    } else if (/^\d+$/.test(word)) seeds.push(Number(word));
    else return null;
  }
  const unique = [...new Set(seeds)];
  return unique.length > 0 && unique.length <= LIMITS.maxSeeds && unique.every((s) => s <= LIMITS.maxSeed) ? unique : null;
}

/** The current flock's settings as an experiment's base: what differs from the table, or was set. */
function baseSettings(host, param, mapParam) {
  const settings = {};
  for (const spec of SPECS) {
    if (['seed', 'count', param, mapParam].includes(spec.name)) continue;
    const value = readParam(host.flock, spec);
    const set = host.settings.explicit.has(spec.name);
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
      ...mapForm(spec.map),
    };
  }
  const names = sweepable().map((s) => s.name);
  const param = names.includes('noise') ? 'noise' : names.includes('alignment') ? 'alignment' : names[0];
  const p = specOf(param);
  const flock = Math.round(host.flock ? host.flock.count() : 1500);
  const count = Math.min(LIMITS.maxCount, Math.max(LIMITS.minCount, flock));
  return { param, from: p.min, to: p.max, points: 11, seeds: '1 2 3', direction: 'up', count, settle: 20, measure: 10, students: 4, ...mapForm(null) };
}

/** The form's fields for a map's second parameter (none: '', and five points when one is chosen). */
function mapForm(map) {
  if (!map) return { mapParam: '', mapFrom: 0, mapTo: 1, mapPoints: 5 };
  const values = map.values;
  return { mapParam: map.param, mapFrom: values[0], mapTo: values[values.length - 1], mapPoints: values.length };
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
  if (!seeds) throw Object.assign(new RangeError('seeds'), { key: 'expSeedsError', n: LIMITS.maxSeeds });
  const measure = Number(f.measure);
  const across = f.mapParam ? specOf(f.mapParam) : null;
  return {
    settings: host.flock ? baseSettings(host, f.param, f.mapParam) : {},
    param: f.param,
    values: spacedValues(spec, Number(f.from), Number(f.to), Number(f.points)),
    ...(across && { map: { param: across.name, values: spacedValues(across, Number(f.mapFrom), Number(f.mapTo), Number(f.mapPoints)) } }),
    direction: across ? 'up' : f.direction,
    seeds,
    count: Math.round(Number(f.count)),
    settle: Number(f.settle),
    measure,
    sampleEvery: Math.min(SAMPLE_EVERY, measure > 0 ? measure : SAMPLE_EVERY),
  };
}

/** A link that opens the full page with `spec` (in this flock's language when it chose one). */
function linkTo(host, spec) {
  const base = new URL(FULL_PAGE);
  if (host.settings.langExplicit) base.searchParams.set('lang', host.language);
  return experimentLink(spec, base.href);
}

/** Says `text` in the status line (read out by screen readers). */
function say(host, text) {
  const state = stateOf(host);
  state.message = text;
  if (host.experimentUi?.status) host.experimentUi.status.textContent = text;
}

/** The message of an error for the status line: a text key's, or its own. */
function errorText(host, error) {
  if (error?.key) return host.text.ui(error.key).replace('{n}', String(error.n));
  return host.text.ui('expError').replace('{m}', error?.message ?? String(error));
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

// ---- the form ----------------------------------------------------------------------

/** Fills the group's body. Called again after each panel build while the group is open. */
export function buildExperiment(host, body) {
  const t = (key) => host.text.ui(key);
  const id = (name) => host.idFor(`exp-${name}`);
  const state = stateOf(host);
  const f = state.form;
  const ui = {};
  host.experimentUi = ui;
  // What panel-run.js and panel-class.js need of the form, on the state they share.
  Object.assign(state, {
    formSpec: () => specFromForm(host, state),
    link: (spec) => linkTo(host, spec),
    say: (text) => say(host, text),
    error: (error) => errorText(host, error),
    copy: copyText,
    param: specOf,
    refresh: () => ui.refresh(),
  });
  ui.refresh = () => {
    showRun(host);
    showClass(host);
  };

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
    field('points', 'expPoints', numberInput(f.points, { min: 1, max: LIMITS.maxValues, step: 1 })),
  );
  // Across it, optionally, a second parameter: a map of the two.
  const mapParam = element('select');
  const none = element('option', null, t('expAcrossNone'));
  none.value = '';
  mapParam.append(none);
  for (const spec of sweepable()) {
    const option = element('option', null, host.text.param(spec)[0]);
    option.value = spec.name;
    option.disabled = spec.name === f.param;
    mapParam.append(option);
  }
  mapParam.value = f.mapParam;
  const mapRange = element('div', 'bf-exp-row bf-exp-map-range');
  const mSpec = specOf(f.mapParam || f.param);
  mapRange.append(
    field('map-from', 'expFrom', numberInput(f.mapFrom, { min: mSpec.min, max: mSpec.max, step: mSpec.step })),
    field('map-to', 'expTo', numberInput(f.mapTo, { min: mSpec.min, max: mSpec.max, step: mSpec.step })),
    field('map-points', 'expPoints', numberInput(f.mapPoints, { min: 1, max: LIMITS.maxValues, step: 1 })),
  );
  mapRange.hidden = !f.mapParam;

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
    radio.checked = f.direction === value || (f.mapParam !== '' && value === 'up');
    radio.disabled = f.mapParam !== '' && value === 'up-down'; // a map's cells each start afresh
    radio.id = id(`direction-${value}`);
    label.append(radio, ` ${t(key)}`);
    direction.append(label);
  }
  ui.direction = direction;

  // How many boids, how long: the limits are the contract's (src/sim/experiment.rs).
  const timing = element('div', 'bf-exp-row bf-exp-timing');
  timing.append(
    field('count', 'expCount', numberInput(f.count, { min: LIMITS.minCount, max: LIMITS.maxCount, step: 1 })),
    field('settle', 'expSettle', numberInput(f.settle, { min: 0, max: LIMITS.maxPointSeconds, step: 1 })),
    field('measure', 'expMeasureTime', numberInput(f.measure, { min: LIMITS.step, max: LIMITS.maxPointSeconds })),
  );

  const run = buildRun(host, ui, field);
  body.replaceChildren(intro);
  if (state.slice) body.append(buildStudent(host, ui, t));
  body.append(
    field('param', 'expParam', param),
    range,
    field('map-param', 'expAcross', mapParam, 'expAcrossHint'),
    mapRange,
    field('seeds', 'expSeeds', seeds, 'expSeedsHint'),
    direction,
    timing,
    run.runRow,
    run.status,
    run.said,
    run.figure,
    run.files,
    run.link,
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
      mapParam: mapParam.value,
      mapFrom: ui['map-from'].value,
      mapTo: ui['map-to'].value,
      mapPoints: ui['map-points'].value,
    };
    if (state.fixed && host.settings.urlMode === 'sync') {
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
    // The map's parameter is another one.
    for (const option of mapParam.options) option.disabled = option.value === param.value;
    if (mapParam.value === param.value) mapParam.value = '';
    mapChanged();
  });
  const mapChanged = () => {
    const on = mapParam.value !== '';
    mapRange.hidden = !on;
    const [up, upDown] = direction.querySelectorAll('input');
    upDown.disabled = on;
    if (on && upDown.checked) up.checked = true;
    edited();
  };
  mapParam.addEventListener('change', () => {
    if (mapParam.value) {
      const spec = specOf(mapParam.value);
      for (const input of [ui['map-from'], ui['map-to']]) Object.assign(input, { min: spec.min, max: spec.max, step: spec.step });
      ui['map-from'].value = String(spec.min);
      ui['map-to'].value = String(spec.max);
    }
    mapChanged();
  });
  for (const input of [ui.from, ui.to, ui.points, ui['map-from'], ui['map-to'], ui['map-points'], seeds, ui.count, ui.settle, ui.measure]) {
    input.addEventListener('change', edited);
  }
  direction.addEventListener('change', edited);

  ui.refresh();
  if (state.fromLink && !state.shown) {
    state.shown = true; // a link's experiment: the group in view (it sits at the panel's end)
    requestAnimationFrame(() => body.closest('details')?.scrollIntoView({ block: 'start' }));
  }
  if (state.slice && !state.autoStarted) {
    state.autoStarted = true; // a student's link runs its part at once
    start(host);
  }
}
