// The studio's form (studio.html): its sections built from the parameter table, the presets
// and the studio's words, with every field named for screen readers (a label, a legend, a
// hint by aria-describedby). Only DOM here: what a field does is studio.js's (it passes the
// handlers in), and no range, default or preset lives here.

import { element, button } from '../core/dom.js';
import { formatNumber, kebab } from '../core/settings.js';

let hints = 0;

/** `input` described by `text` (a hint paragraph after it). */
function describe(input, text) {
  const hint = element('p', 'studio-hint', text);
  hint.id = `studio-hint-${++hints}`;
  input.setAttribute('aria-describedby', [input.getAttribute('aria-describedby'), hint.id].filter(Boolean).join(' '));
  return hint;
}

/** A labelled field: label, then the input (a text field, select, number…), then a hint. */
export function field(id, labelText, input, hintText) {
  const box = element('div', 'studio-field');
  input.id = id;
  const label = element('label', null, labelText);
  label.htmlFor = id;
  box.append(label, input);
  if (hintText) box.append(describe(input, hintText));
  return box;
}

/** A checkbox before its label. Returns { box, input }. */
export function checkbox(id, labelText, hintText) {
  const box = element('div', 'studio-check');
  const input = element('input');
  input.type = 'checkbox';
  input.id = id;
  const label = element('label', null, labelText);
  label.htmlFor = id;
  box.append(input, label);
  if (hintText) box.append(describe(input, hintText));
  return { box, input };
}

/** A <select> of [value, text] pairs. */
export function select(options) {
  const node = element('select');
  for (const [value, text] of options) {
    const option = element('option', null, text);
    option.value = value;
    node.append(option);
  }
  return node;
}

/** A number field over a parameter's range (the table's; the browser checks the rest). */
function numberInput(spec) {
  const input = element('input', 'studio-number');
  input.type = 'number';
  input.min = String(spec.min);
  input.max = String(spec.max);
  input.step = spec.kind === 'integer' ? '1' : 'any';
  input.inputMode = spec.kind === 'integer' ? 'numeric' : 'decimal';
  return input;
}

/** A section of the form: a fieldset with its legend (and an optional hint). */
export function section(className, legendText, hintText) {
  const box = element('fieldset', `studio-section ${className}`);
  box.append(element('legend', null, legendText));
  if (hintText) box.append(element('p', 'studio-hint', hintText));
  return box;
}

/**
 * The start: preset buttons, the seed (with "New seed") and "this exact moment".
 * `on`: { preset(preset), seed(value), newSeed(), takeMoment(), clearMoment() }.
 */
export function buildStart({ w, text, presets, seedSpec, on }) {
  const box = section('studio-start', w('start'));
  const presetRow = element('div', 'studio-presets');
  presetRow.setAttribute('role', 'group');
  const presetsLabel = element('p', 'studio-label', w('presets'));
  presetsLabel.id = 'studio-presets-label';
  presetRow.setAttribute('aria-labelledby', presetsLabel.id);
  for (const preset of presets) {
    const [label, description] = text.preset(preset);
    const b = button('studio-preset', label, () => on.preset(preset));
    b.id = `studio-preset-${preset.name}`;
    b.title = description;
    presetRow.append(b);
  }
  const seed = numberInput(seedSpec);
  const seedField = field('studio-seed', w('seed'), seed, w('seedHint'));
  seed.addEventListener('change', () => on.seed(seed.value));
  const newSeed = button('studio-new-seed', w('newSeed'), on.newSeed);
  newSeed.id = 'studio-new-seed';
  seedField.querySelector('input').after(newSeed);
  const moment = element('div', 'studio-moment');
  moment.setAttribute('role', 'group');
  const momentLabel = element('p', 'studio-label', w('moment'));
  momentLabel.id = 'studio-moment-label';
  moment.setAttribute('aria-labelledby', momentLabel.id);
  const take = button('studio-moment-take', w('momentTake'), on.takeMoment);
  take.id = 'studio-moment-take';
  const clear = button('studio-moment-clear', w('momentClear'), on.clearMoment);
  clear.id = 'studio-moment-clear';
  const status = element('p', 'studio-hint studio-moment-status');
  status.id = 'studio-moment-status';
  status.setAttribute('aria-live', 'polite');
  moment.append(momentLabel, take, clear, status);
  box.append(presetsLabel, presetRow, seedField, moment);
  return { element: box, seed, take, clear, status };
}

/**
 * One row per parameter (all but the seed): its value, Show, Lock, From and To, in groups
 * as the panel has them (`groups`: [name, title key, parameter names], `basics` first).
 * `on`: { value(spec, raw), show(spec, on), lock(spec, on), range(spec, from, to) }.
 * Returns { element, rows: name → { value, show, lock, from, to, error } }.
 */
export function buildParams({ w, text, specs, groups, basics, tools, on }) {
  const box = section('studio-params', w('controls'), w('controlsHint'));
  const rows = new Map();
  const bySpec = new Map(specs.map((spec) => [spec.name, spec]));
  const placed = new Set(['seed']);
  const list = (names) => names.map((name) => bySpec.get(name)).filter((spec) => spec && !placed.has(spec.name));
  const group = (title, names, open) => {
    const details = element('details', 'studio-group');
    details.open = open;
    details.append(element('summary', null, title));
    for (const spec of list(names)) {
      placed.add(spec.name);
      details.append(paramRow(spec, { w, text, on, rows }));
    }
    return details;
  };
  box.append(group(w('basics'), basics, true));
  for (const [, titleKey, names] of groups) {
    if (list(names).length) box.append(group(text.ui(titleKey), names, false));
  }
  const rest = specs.filter((spec) => !placed.has(spec.name)).map((spec) => spec.name);
  if (rest.length) box.append(group(text.ui('groupWorld'), rest, false));
  const toolBox = element('div', 'studio-tools');
  toolBox.setAttribute('role', 'group');
  const toolsLabel = element('p', 'studio-label', w('tools'));
  toolsLabel.id = 'studio-tools-label';
  toolBox.setAttribute('aria-labelledby', toolsLabel.id);
  toolBox.append(toolsLabel);
  for (const [name, key] of tools) {
    const { box: row, input } = checkbox(`studio-show-${name}`, w(key));
    input.addEventListener('change', () => on.tool(name, input.checked));
    rows.set(name, { show: input });
    toolBox.append(row);
  }
  box.append(toolBox);
  return { element: box, rows };
}

function paramRow(spec, { w, text, on, rows }) {
  const [label, description] = text.param(spec);
  const name = kebab(spec.name);
  const row = element('fieldset', 'studio-param');
  row.dataset.param = spec.name;
  const legend = element('legend', null, label);
  legend.title = description;
  row.append(legend);
  let value;
  if (spec.kind === 'toggle') {
    const check = checkbox(`studio-value-${name}`, w('value'));
    value = check.input;
    value.addEventListener('change', () => on.value(spec, value.checked ? '1' : '0'));
    row.append(check.box);
  } else {
    value = numberInput(spec);
    value.addEventListener('change', () => on.value(spec, value.value));
    row.append(field(`studio-value-${name}`, w('value'), value));
  }
  const show = checkbox(`studio-show-${name}`, w('show'));
  const lock = checkbox(`studio-lock-${name}`, w('lock'));
  show.input.addEventListener('change', () => on.show(spec, show.input.checked));
  lock.input.addEventListener('change', () => on.lock(spec, lock.input.checked));
  const checks = element('div', 'studio-param-checks');
  checks.append(show.box, lock.box);
  row.append(checks);
  const entry = { value, show: show.input, lock: lock.input };
  if (spec.kind !== 'toggle') {
    const from = numberInput(spec);
    const to = numberInput(spec);
    from.placeholder = formatNumber(spec.min);
    to.placeholder = formatNumber(spec.max);
    const range = () => on.range(spec, from.value, to.value);
    from.addEventListener('change', range);
    to.addEventListener('change', range);
    const error = element('p', 'studio-error', w('rangeError', { min: formatNumber(spec.min), max: formatNumber(spec.max) }));
    error.id = `studio-range-error-${name}`;
    error.hidden = true;
    row.append(field(`studio-from-${name}`, w('from'), from), field(`studio-to-${name}`, w('to'), to), error);
    Object.assign(entry, { from, to, error });
  }
  rows.set(spec.name, entry);
  return row;
}

/**
 * The view and instruments: camera, inspected boid, trails, the cells it searches, colour mode, shape, plot, time scale,
 * start paused, readout, contrast, the lesson's language. `on(name, value)` hears each.
 */
export function buildView({ w, text, colourModes, shapes, langs, langNames, timeScale, on }) {
  const box = section('studio-view', w('view'));
  const fields = {};
  const check = (name, key, hintKey) => {
    const { box: row, input } = checkbox(`studio-${name}`, w(key), hintKey ? w(hintKey) : null);
    input.addEventListener('change', () => on(name, input.checked));
    fields[name] = input;
    box.append(row);
    return row;
  };
  check('camera', 'camera', 'cameraHint');
  const inspectRow = check('inspect', 'inspect');
  fields.inspectHint = element('p', 'studio-hint');
  fields.inspectHint.id = 'studio-inspect-hint';
  fields.inspectHint.setAttribute('aria-live', 'polite');
  fields.inspect.setAttribute('aria-describedby', fields.inspectHint.id);
  inspectRow.append(fields.inspectHint);
  check('trails', 'trails');
  check('cells', 'cells', 'cellsHint');
  const colour = select(colourModes.map(([mode, key]) => [mode, text.ui(key)]));
  colour.addEventListener('change', () => on('colour', colour.value));
  box.append(field('studio-colour', w('colourBy'), colour));
  fields.colour = colour;
  const shape = select(shapes.map(([name, key]) => [name, text.ui(key)]));
  shape.addEventListener('change', () => on('shape', shape.value));
  box.append(field('studio-shape', w('shape'), shape));
  fields.shape = shape;
  check('plot', 'plot');
  const scale = element('input', 'studio-number');
  scale.type = 'number';
  scale.min = String(timeScale.min);
  scale.max = String(timeScale.max);
  scale.step = String(timeScale.step);
  scale.inputMode = 'decimal';
  scale.addEventListener('change', () => on('timeScale', scale.value));
  box.append(field('studio-time-scale', w('timeScale'), scale));
  fields.timeScale = scale;
  check('paused', 'paused');
  check('readout', 'readout');
  const contrast = select([['', w('contrastAuto')], ['more', w('contrastMore')], ['normal', w('contrastNormal')]]);
  contrast.addEventListener('change', () => on('contrast', contrast.value));
  box.append(field('studio-contrast', w('contrast'), contrast));
  fields.contrast = contrast;
  const lang = select([['', w('lessonLangAuto')], ...langs.map((code) => [code, langNames[code]])]);
  for (const option of lang.options) if (option.value) option.lang = option.value;
  lang.addEventListener('change', () => on('lang', lang.value));
  box.append(field('studio-lesson-lang', w('lessonLang'), lang));
  fields.lang = lang;
  return { element: box, fields };
}

/** The title and the three prompts; `on(attribute, text)` as they are typed. */
export function buildPrompts({ w, on }) {
  const box = section('studio-prompts', w('prompts'), w('promptsHint'));
  const fields = {};
  const title = element('input', 'studio-text');
  title.type = 'text';
  title.maxLength = 200;
  title.addEventListener('input', () => on('lesson-title', title.value));
  box.append(field('studio-lesson-title', w('lessonTitle'), title));
  fields['lesson-title'] = title;
  for (const name of ['predict', 'notice', 'try']) {
    const area = element('textarea', 'studio-text');
    area.rows = 2;
    area.maxLength = 1000;
    area.addEventListener('input', () => on(name, area.value));
    box.append(field(`studio-${name}`, w(name), area, w(`${name}Hint`)));
    fields[name] = area;
  }
  return { element: box, fields };
}

/**
 * The three outputs, each a read-only text with a Copy button and its own polite status.
 * `on.copy(name)`; returns name → { text, copy, status }, and the link's Open anchor.
 */
export function buildOutputs({ w, cdn, on }) {
  const parts = [];
  const outputs = {};
  for (const [name, key, hint] of [
    ['snippet', 'snippet', w('snippetHint', { cdn })],
    ['iframe', 'iframe', w('iframeHint')],
    ['link', 'link', w('linkHint')],
  ]) {
    const box = element('div', 'studio-output');
    const area = element('textarea', 'studio-code');
    area.readOnly = true;
    area.rows = name === 'snippet' ? 8 : 4;
    area.spellcheck = false;
    area.setAttribute('autocomplete', 'off');
    const labelled = field(`studio-out-${name}`, w(key), area, hint);
    const actions = element('div', 'studio-output-actions');
    const copy = button('studio-copy', w('copy'), () => on.copy(name));
    copy.id = `studio-copy-${name}`;
    copy.setAttribute('aria-label', w('copyTitle', { what: w(key) }));
    const status = element('p', 'studio-status');
    status.id = `studio-status-${name}`;
    status.setAttribute('aria-live', 'polite');
    actions.append(copy);
    if (name === 'link') {
      outputs.open = element('a', 'studio-open', w('openLink'));
      outputs.open.id = 'studio-open-link';
      outputs.open.target = '_blank';
      outputs.open.rel = 'noopener';
      // The link as a QR code for phones (issue 45; www/core/qr-dialog.js, loaded on demand).
      outputs.qr = button('studio-qr', w('qrButton'), () => on.qr());
      outputs.qr.id = 'studio-qr-link';
      outputs.qr.title = w('qrButtonTitle');
      outputs.qr.setAttribute('aria-haspopup', 'dialog');
      actions.append(outputs.qr, outputs.open);
    }
    actions.append(status);
    box.append(labelled, actions);
    parts.push(box);
    outputs[name] = { text: area, copy, status };
  }
  return { parts, outputs };
}
