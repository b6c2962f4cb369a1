// Sliders built from the parameter table (`Flock.params()`): no range or default lives here.

import { readParam, writeParam } from '../core/settings.js';

/** Slider positions of a log-scale parameter run over 0..LOG_STEPS. */
const LOG_STEPS = 1000;

/**
 * Keyboard steps on a log-scale slider (Count): these values in every decade, so one arrow
 * press goes 1,500 → 2,000 (not 1,500 → 1,506, one of 1,000 log positions) and Page Up /
 * Page Down move three of them, about double or half.
 */
const NICE = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8];
/** Nice values a Page Up or Page Down moves by (1,000 → 2,000, 1,500 → 3,000). */
const PAGE = 3;

/** The value `steps` nice values above (or below, if negative) `value`, within the range. */
export function niceStep(spec, value, steps) {
  const list = [spec.min];
  for (let decade = 10 ** Math.floor(Math.log10(spec.min)); decade <= spec.max; decade *= 10) {
    for (const n of NICE) {
      const v = n * decade;
      if (v > spec.min && v < spec.max) list.push(v);
    }
  }
  list.push(spec.max);
  const eps = 1e-9 * Math.abs(value);
  if (steps > 0) {
    const above = list.findIndex((v) => v > value + eps);
    return above < 0 ? spec.max : list[Math.min(list.length - 1, above + steps - 1)];
  }
  let below = -1;
  list.forEach((v, i) => {
    if (v < value - eps) below = i;
  });
  return below < 0 ? spec.min : list[Math.max(0, below + steps + 1)];
}

const KEY_STEPS = { ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1, PageUp: PAGE, PageDown: -PAGE };

function decimals(step) {
  return Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
}

/** Parameters whose whole values each have a name (the `ui` strings'): `failureMode`'s 0, 1, 2. */
const CHOICES = { failureMode: ['failureStraight', 'failureHalt', 'failureWrongHeading'] };

/** `value` as shown beside its slider, in the language of `text` (see i18n/texts.js). */
export function formatValue(spec, value, text) {
  if (spec.kind === 'toggle') return text.ui(value >= 0.5 ? 'on' : 'off');
  const named = CHOICES[spec.name]?.[Math.round(value)];
  if (named) return text.ui(named);
  const digits = spec.kind === 'integer' ? 0 : decimals(spec.step);
  const number = new Intl.NumberFormat(text.lang, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(spec.kind === 'integer' ? Math.round(value) : value);
  if (!spec.unit) return number;
  return spec.unit === '°' ? `${number}°` : `${number} ${text.unit(spec.unit)}`;
}

/** Slider position ↔ value. Log scale: position 0..LOG_STEPS runs min..max exponentially. */
function scaleFor(spec) {
  if (spec.scale === 'log') {
    const ratio = Math.log(spec.max / spec.min);
    return {
      min: 0,
      max: LOG_STEPS,
      step: 1,
      toValue: (position) => {
        const value = spec.min * Math.exp((ratio * position) / LOG_STEPS);
        return spec.kind === 'integer' ? Math.round(value) : value;
      },
      toPosition: (value) => Math.round((LOG_STEPS * Math.log(value / spec.min)) / ratio),
    };
  }
  return {
    min: spec.min,
    max: spec.max,
    step: spec.step,
    toValue: (position) => position,
    toPosition: (value) => value,
  };
}

/**
 * Fills `form` with a labelled control for each parameter in `specs`, wired to the flock's
 * exported setters: a range input, or a checkbox for an on/off parameter (`kind: "toggle"`).
 * `id(name)` makes an element id unique in the document; `text` holds the language
 * (i18n.js). `getFlock()` returns the flock now; `onChange(spec, value)` hears of every
 * change. Returns `sync()`, which sets every control to the flock's values (`sync.except(name)`
 * all but one).
 */
export function buildControls(form, specs, { id, text, getFlock, onChange }) {
  const rows = new Map();
  for (const spec of specs) {
    const build = spec.kind === 'toggle' ? toggleRow : sliderRow;
    const row = build(spec, { id, text, getFlock, onChange });
    form.append(row.element);
    rows.set(spec.name, row.sync);
    row.sync();
  }
  const sync = () => rows.forEach((fn) => fn());
  /** Re-reads every control but `name`'s (the one just moved, left as the reader holds it). */
  sync.except = (name) => rows.forEach((fn, key) => key !== name && fn());
  return sync;
}

function hintFor(spec, description, id) {
  const hint = document.createElement('p');
  hint.className = 'bf-param-hint';
  hint.id = id(`hint-${spec.name}`);
  hint.textContent = description;
  return hint;
}

function rowFor(spec, className) {
  const row = document.createElement('div');
  row.className = className;
  row.dataset.param = spec.name;
  return row;
}

function sliderRow(spec, { id, text, getFlock, onChange }) {
  const scale = scaleFor(spec);
  const [labelText, description] = text.param(spec);
  const row = rowFor(spec, 'bf-param');

  const inputId = id(`param-${spec.name}`);
  const head = document.createElement('div');
  head.className = 'bf-param-head';
  const label = document.createElement('label');
  label.htmlFor = inputId;
  label.textContent = labelText;
  const output = document.createElement('output');
  output.id = id(`value-${spec.name}`);
  output.htmlFor = inputId;
  head.append(label, output);

  const input = document.createElement('input');
  input.type = 'range';
  input.id = inputId;
  input.name = spec.name;
  input.dataset.param = spec.name;
  input.min = String(scale.min);
  input.max = String(scale.max);
  input.step = String(scale.step);
  const hint = hintFor(spec, description, id);
  input.setAttribute('aria-describedby', hint.id);

  const show = () => {
    const value = readParam(getFlock(), spec);
    output.value = formatValue(spec, value, text);
    input.setAttribute('aria-valuetext', output.value);
    return value;
  };
  input.addEventListener('input', () => {
    writeParam(getFlock(), spec, scale.toValue(Number(input.value)));
    const value = show();
    onChange?.(spec, value);
  });

  if (spec.scale === 'log') {
    input.addEventListener('keydown', (event) => {
      const steps = KEY_STEPS[event.key];
      if (!steps || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      writeParam(getFlock(), spec, niceStep(spec, readParam(getFlock(), spec), steps));
      const value = show();
      input.value = String(scale.toPosition(value));
      onChange?.(spec, value);
    });
  }

  row.append(head, input, hint);
  return {
    element: row,
    sync: () => {
      input.value = String(scale.toPosition(show()));
    },
  };
}

/** An on/off parameter: a checkbox before its label (clearer than a 0–1 slider). */
function toggleRow(spec, { id, text, getFlock, onChange }) {
  const [labelText, description] = text.param(spec);
  const row = rowFor(spec, 'bf-param bf-param-toggle');
  const inputId = id(`param-${spec.name}`);
  const head = document.createElement('div');
  head.className = 'bf-param-head';
  const input = document.createElement('input');
  input.type = 'checkbox';
  input.id = inputId;
  input.name = spec.name;
  input.dataset.param = spec.name;
  const label = document.createElement('label');
  label.htmlFor = inputId;
  label.textContent = labelText;
  head.append(input, label);
  const hint = hintFor(spec, description, id);
  input.setAttribute('aria-describedby', hint.id);
  input.addEventListener('change', () => {
    const value = writeParam(getFlock(), spec, input.checked ? 1 : 0);
    input.checked = value >= 0.5;
    onChange?.(spec, value);
  });
  row.append(head, hint);
  return {
    element: row,
    sync: () => {
      input.checked = readParam(getFlock(), spec) >= 0.5;
    },
  };
}
