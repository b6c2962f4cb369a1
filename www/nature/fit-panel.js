// Fit the model to a recording (issue 43, item 3): the parameters to search (checkboxes of
// `Fit.fittable()`), a button that starts the search in a worker (fit-worker.js) and stops it
// (the worker ended at once), the progress, and the result: the recording's measures beside
// the fitted model's and the defaults', the distances, the fitted values, a button that sets
// them on a model flock and a link that opens the fitted flock in the full page.

import { element } from '../core/dom.js';
import { fill } from '../i18n/feature-words.js';

/** The measures of a fit's summary, in the table's order. */
const ROWS = ['polarization', 'milling', 'nearest', 'speed', 'speedSpread', 'correlationShare', 'polarizedShare'];
const digits = { nearest: 1, speed: 1 };
const show = (key, value) => (value == null ? '—' : value.toFixed(digits[key] ?? 2));

let built = 0;

/**
 * The panel in `container`, in `words` (i18n/nature-<lang>.js `fit`). `bindings`: the worker's
 * module on this thread (`Fit.fittable()`); `labelOf(name)`: a parameter's label in the
 * reader's language; `recording()`: the text to fit to; `onApply(values)`: set on the model.
 * Returns `{ root, start(options), stop(), done }` (`done`: a promise of the latest result).
 */
export function buildFitPanel(container, words, { bindings, labelOf, recording, onApply, count = 50, seed = 1 }) {
  built += 1;
  const root = element('section', 'nature-fit');
  root.setAttribute('aria-label', words.title);
  const fieldset = element('fieldset', 'nature-fit-params');
  fieldset.append(element('legend', null, words.params));
  const chosen = new Set(bindings.Fit.defaultParams().split(' '));
  const boxes = new Map();
  for (const name of bindings.Fit.fittable().split(' ')) {
    const label = element('label', 'nature-fit-param');
    const box = element('input');
    Object.assign(box, { type: 'checkbox', checked: chosen.has(name), name: `nature-fit-${built}` });
    box.value = name;
    label.append(box, ` ${labelOf(name)}`);
    boxes.set(name, box);
    fieldset.append(label);
  }
  const button = element('button', 'nature-fit-start', words.start);
  button.type = 'button';
  button.setAttribute('aria-pressed', 'false');
  const status = element('p', 'nature-fit-status');
  status.setAttribute('role', 'status');
  const result = element('div', 'nature-fit-result');
  root.append(fieldset, button, status, result);
  container.append(root);

  let worker = null;
  let resolveDone = null;
  const panel = { root, done: null };
  const finish = () => {
    worker?.terminate();
    worker = null;
    button.textContent = words.start;
    button.setAttribute('aria-pressed', 'false');
  };

  function table(target, fitted) {
    const out = element('table', 'nature-table nature-fit-table');
    out.append(element('caption', null, words.tableCaption));
    const head = out.createTHead().insertRow();
    for (const text of [words.colMeasure, words.colReal, words.colFitted, words.colDefaults]) {
      const th = element('th', null, text);
      th.scope = 'col';
      head.append(th);
    }
    const body = out.createTBody();
    for (const key of ROWS) {
      const row = body.insertRow();
      row.dataset.measure = key;
      const th = element('th', null, words.measures[key]);
      th.scope = 'row';
      row.append(th);
      for (const value of [target[key], fitted.measures[key], fitted.defaults.measures[key]]) row.insertCell().textContent = show(key, value);
    }
    const distance = body.insertRow();
    distance.dataset.measure = 'distance';
    const th = element('th', null, words.distance);
    th.scope = 'row';
    distance.append(th);
    for (const value of ['', fitted.distance.toFixed(1), fitted.defaults.distance.toFixed(1)]) distance.insertCell().textContent = value;
    return out;
  }

  function showResult(target, fitted, seconds) {
    const values = Object.entries(fitted.values);
    const listed = values.map(([name, value]) => `${labelOf(name)} ${value.toFixed(2)}`).join(', ');
    status.textContent = fill(fitted.stopped ? words.stopped : words.done, {
      seconds: seconds.toFixed(1),
      runs: fitted.evaluations,
      fitted: fitted.distance.toFixed(1),
      defaults: fitted.defaults.distance.toFixed(1),
    });
    const apply = element('button', 'nature-fit-apply', words.apply);
    apply.type = 'button';
    apply.addEventListener('click', () => onApply?.(fitted.values));
    const query = new URLSearchParams({ count: String(count), seed: String(seed) });
    for (const [name, value] of values) query.set(name, String(Math.round(value * 1000) / 1000));
    const link = element('a', 'nature-fit-link', words.open);
    link.href = `${new URL('../../index.html', import.meta.url)}?${query}`;
    const actions = element('p', 'nature-fit-actions');
    actions.append(apply, ' ', link);
    // On a phone the four columns are wider than the screen: the table scrolls in its own box
    // (focusable, so the keyboard can scroll it too), never the page.
    const scroller = element('div', 'nature-fit-scroll');
    Object.assign(scroller, { tabIndex: 0 });
    scroller.setAttribute('role', 'region');
    scroller.setAttribute('aria-label', words.tableCaption);
    scroller.append(table(target, fitted));
    result.replaceChildren(scroller, element('p', 'nature-fit-values', fill(words.values, { values: listed })), actions);
  }

  /** Starts a fit (`evaluations` model runs at most); resolves with its result, or null if stopped or failed. */
  panel.start = ({ evaluations = 60 } = {}) => {
    finish();
    const params = [...boxes].filter(([, box]) => box.checked).map(([name]) => name);
    if (params.length === 0) {
      status.textContent = words.none;
      return Promise.resolve(null);
    }
    button.textContent = words.stop;
    button.setAttribute('aria-pressed', 'true');
    status.textContent = words.starting;
    const started = performance.now();
    let target = null;
    panel.done = new Promise((resolve) => (resolveDone = resolve));
    worker = new Worker(new URL('./fit-worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => {
      if (data.target) target = data.target;
      if (data.progress) status.textContent = fill(words.running, { runs: data.progress.runs, total: evaluations, best: data.progress.best.toFixed(1) });
      if (data.result) {
        finish();
        showResult(target, data.result, (performance.now() - started) / 1000);
        resolveDone(data.result);
      }
      if (data.error) {
        finish();
        status.textContent = fill(words.failed, { error: data.error });
        resolveDone(null);
      }
    };
    worker.onerror = (event) => {
      finish();
      status.textContent = fill(words.failed, { error: event.message ?? 'the worker did not start' });
      resolveDone(null);
    };
    worker.postMessage({ text: recording(), params: params.join(' '), evaluations, count, seed });
    return panel.done;
  };

  /** Stops a fit under way at once (its worker ended; what it found so far is lost). */
  panel.stop = () => {
    if (!worker) return;
    finish();
    status.textContent = words.aborted;
    resolveDone?.(null);
  };

  button.addEventListener('click', () => (worker ? panel.stop() : panel.start()));
  return panel;
}
