// The measures' table (issue 43): one row per measure of `natureProfile` (the worker's
// module: the same code for every flock), one column per flock compared (the pigeons, the
// model, a fitted model), filled in as the lesson measures them.

import { element } from '../core/dom.js';

/** The rows, in order, and how each is written (unit: the flocks' own, metres for pigeons). */
const ROWS = [
  ['count', (v) => String(v)],
  ['polarization', (v) => v.toFixed(2)],
  ['milling', (v) => v.toFixed(2)],
  ['state', null],
  ['nearest', (v) => v.toFixed(1)],
  ['speed', (v) => v.toFixed(1)],
  ['speedSpread', (v) => v.toFixed(2)],
  ['correlationLength', (v) => v.toFixed(1)],
  ['size', (v) => v.toFixed(1)],
  ['correlationShare', (v) => v.toFixed(2)],
  ['anisotropy', (v) => v.toFixed(2)],
];

/**
 * The table in `container`, with a column per name of `columns` (their headings), in
 * `words` (i18n/nature-<lang>.js). Returns `{ root, show(column, profile) }`.
 */
export function buildProfileTable(container, words, columns) {
  const root = element('table', 'nature-table');
  root.append(element('caption', null, words.tableCaption));
  const head = root.createTHead().insertRow();
  const corner = element('th', null, words.colMeasure);
  corner.scope = 'col';
  head.append(corner);
  for (const name of columns) {
    const th = element('th', null, name);
    th.scope = 'col';
    head.append(th);
  }
  const body = root.createTBody();
  const cells = new Map();
  for (const [key] of ROWS) {
    const row = body.insertRow();
    row.dataset.measure = key;
    const th = element('th', null, words.measures[key]);
    th.scope = 'row';
    row.append(th);
    cells.set(key, columns.map(() => row.insertCell()));
  }
  container.append(root);
  return {
    root,
    /** Writes `profile` (natureProfile's object) into column `column` (an index). */
    show(column, profile) {
      for (const [key, format] of ROWS) {
        const value = profile[key];
        const text = value == null ? words.none : format ? format(value) : words.states[value] ?? value;
        cells.get(key)[column].textContent = text;
      }
    },
  };
}
