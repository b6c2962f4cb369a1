// The cost curve, measured live (issue 42): how the work of finding neighbours grows with the
// flock, on this device. A Web Worker (lab-worker.js) steps the standard scenario with each
// search — every pair (naive), the uniform grid, the Morton order — over counts from 250 to
// 16,000, and the page draws ms and distance checks per step against N on log-log axes with
// each method's fitted slope (≈2 naive, ≈1 grid), and the texts' table (frames a second at
// 500, 2,000 and 10,000) beside what this device measures; CSV and PNG out. Loaded on demand
// (a lesson imports it), never with the page; its words are i18n/lab-<lang>.js.

import { element } from '../core/dom.js';
import { saveBlob } from '../core/save-blob.js';
import { whiteCanvas } from './canvas.js';
import { fill, loadLabTexts } from './words.js';

/** The methods, in the order drawn: [name, colour, dash, marker] (told apart by dash and marker too). */
export const METHODS = [
  ['naive', '#c2410c', [], '●'],
  ['grid', '#1d4ed8', [6, 4], '■'],
  ['morton', '#15803d', [2, 3], '▲'],
];
/** The counts measured: 10,000 for the texts' table, and enough between to fit a slope. */
export const COUNTS = [250, 500, 1000, 2000, 4000, 8000, 10000, 16000];
/** The texts' table (a tutorial's measurements): frames a second, naive and spatial hash. */
export const TEXTS_TABLE = [
  [500, 60, 60],
  [2000, 22, 60],
  [10000, '< 1', 58],
];

let compiled = null;
let built = 0; // instruments built on this page (their ids apart)

/** The worker's module, compiled once on this thread and handed to each worker. */
function workerModule() {
  compiled ??= fetch(new URL('../../boids_worker_bg.wasm', import.meta.url))
    .then((response) => {
      if (!response.ok) throw new Error(`boids_worker_bg.wasm: ${response.status} ${response.statusText}`);
      return response.arrayBuffer();
    })
    .then((bytes) => WebAssembly.compile(bytes))
    .catch((error) => {
      compiled = null; // a later run tries again
      throw error;
    });
  return compiled;
}

/**
 * Measures the curve in a worker: resolves with the points `{ method, count, ms, checks,
 * neighbours }` in the order measured; `onPoint(point)` hears of each as it comes. `signal`
 * (an AbortSignal) stops the worker at once and rejects with an AbortError. Past a step of
 * `stopMs` a method measures only the counts of `keep` (the texts' table's: 10,000 naive takes
 * a few seconds).
 */
export async function measureCostCurve({
  methods = METHODS.map(([name]) => name),
  counts = COUNTS,
  warmup = 30,
  steps = 3,
  stopMs = 250,
  keep = TEXTS_TABLE.map(([count]) => count),
  onPoint = () => {},
  signal,
} = {}) {
  const aborted = () => new DOMException('the measurement was stopped', 'AbortError');
  if (signal?.aborted) throw aborted();
  const module = await workerModule();
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./lab-worker.js', import.meta.url), { type: 'module' });
    const points = [];
    const finish = (settle) => {
      worker.terminate();
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = () => finish(() => reject(aborted()));
    signal?.addEventListener('abort', onAbort);
    worker.onmessage = ({ data }) => {
      if (data.point) {
        points.push(data.point);
        onPoint(data.point);
      } else if (data.done) {
        finish(() => resolve(points));
      } else if (data.error) {
        finish(() => reject(new Error(data.error)));
      }
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      finish(() => reject(new Error(event.message || 'lab-worker.js did not load')));
    };
    worker.postMessage({ module, methods, counts, warmup, steps, stopMs, keep });
  });
}

/**
 * Least-squares slope of log `key` against log N over the points of `method` with N from
 * `from` to `to`; NaN with fewer than two.
 */
export function fitSlope(points, method, key, from = 1000, to = 16000) {
  const xy = points
    .filter((p) => p.method === method && p.count >= from && p.count <= to && p[key] > 0)
    .map((p) => [Math.log(p.count), Math.log(p[key])]);
  if (xy.length < 2) return NaN;
  const mx = xy.reduce((s, [x]) => s + x, 0) / xy.length;
  const my = xy.reduce((s, [, y]) => s + y, 0) / xy.length;
  const num = xy.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = xy.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return num / den;
}

/** The points as CSV: a header, then one line a point. */
export function costCsv(points) {
  const lines = ['method,count,ms_per_step,checks_per_step,neighbours_per_step'];
  for (const p of points) lines.push([p.method, p.count, p.ms.toFixed(4), p.checks, p.neighbours].join(','));
  return `${lines.join('\n')}\n`;
}

/** Steps a second at `count` by `method` (the step alone), or null if not measured. */
export function stepsPerSecond(points, method, count) {
  const point = points.find((p) => p.method === method && p.count === count);
  return point ? 1000 / point.ms : null;
}

const decades = (lo, hi) => {
  const out = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) out.push(10 ** e);
  return out;
};

/** Draws the two log-log charts (ms and checks per step against N) on `canvas`. */
export function drawCostCurve(canvas, points, words) {
  const width = canvas.clientWidth || 640;
  const height = canvas.clientHeight || 280;
  const g = whiteCanvas(canvas, width, height);
  const font = '12px system-ui, sans-serif';
  const panels = [
    ['ms', words.axisMs],
    ['checks', words.axisChecks],
  ];
  const compact = new Intl.NumberFormat(words.lang, { notation: 'compact' });
  const narrow = width < 520;
  const panelWidth = narrow ? width : width / 2;
  const panelHeight = narrow ? height / 2 : height;
  panels.forEach(([key, label], k) => {
    const x0 = narrow ? 0 : k * panelWidth;
    const y0 = narrow ? k * panelHeight : 0;
    // The legend first, on as many lines as the panel's width needs: a marker in each method's
    // colour and its name, left to right.
    g.font = font;
    g.textAlign = 'left';
    g.textBaseline = 'alphabetic';
    const legendLeft = x0 + 8;
    const legendRight = x0 + panelWidth - 12;
    let lineY = y0 + 14;
    let at = legendLeft;
    for (const [method, colour, , marker] of METHODS) {
      const name = words.methods[method] ?? method;
      const width = g.measureText(`${marker} ${name}`).width;
      if (at > legendLeft && at + width > legendRight) {
        at = legendLeft;
        lineY += 15;
      }
      g.fillStyle = colour;
      g.fillText(marker, at, lineY);
      g.fillStyle = '#1d2433';
      g.fillText(name, at + g.measureText(`${marker} `).width, lineY);
      at += width + 12;
    }
    const titleY = lineY + 18;
    const values = points.map((p) => p[key]).filter((v) => v > 0);
    const [ylo, yhi] = values.length ? [Math.min(...values), Math.max(...values)] : [1, 10];
    const [xlo, xhi] = [COUNTS[0], COUNTS[COUNTS.length - 1]];
    const ly = [Math.log10(ylo) - 0.1, Math.log10(yhi) + 0.1];
    // The y axis's labels (decades, in the reader's words: "1M", "1 млн"), and room for the widest.
    const tickLabel = (v) => (v < 0.01 ? v.toExponential(0) : compact.format(v));
    const ticks = decades(10 ** ly[0], 10 ** ly[1]).filter((v) => Math.log10(v) >= ly[0] && Math.log10(v) <= ly[1]);
    const labelRoom = Math.max(24, ...ticks.map((v) => g.measureText(tickLabel(v)).width)) + 10;
    // Room on the right for half the last count's label.
    const box = { left: x0 + labelRoom, right: x0 + panelWidth - 24, top: titleY + 6, bottom: y0 + panelHeight - 34 };
    const lx = [Math.log10(xlo) - 0.05, Math.log10(xhi) + 0.05];
    const px = (n) => box.left + ((Math.log10(n) - lx[0]) / (lx[1] - lx[0])) * (box.right - box.left);
    const py = (v) => box.bottom - ((Math.log10(v) - ly[0]) / (ly[1] - ly[0])) * (box.bottom - box.top);
    g.strokeStyle = '#c9cfdb';
    g.fillStyle = '#4a5368';
    g.font = font;
    g.lineWidth = 1;
    g.setLineDash([]);
    g.textAlign = 'right';
    g.textBaseline = 'middle';
    for (const v of ticks) {
      g.beginPath();
      g.moveTo(box.left, py(v));
      g.lineTo(box.right, py(v));
      g.stroke();
      g.fillText(tickLabel(v), box.left - 4, py(v));
    }
    g.textAlign = 'center';
    g.textBaseline = 'top';
    for (const n of COUNTS.filter((c) => [250, 1000, 4000, 16000].includes(c))) {
      g.beginPath();
      g.moveTo(px(n), box.top);
      g.lineTo(px(n), box.bottom);
      g.stroke();
      g.fillText(n.toLocaleString(words.lang), px(n), box.bottom + 4);
    }
    g.fillText(words.axisCount, (box.left + box.right) / 2, box.bottom + 18);
    g.textAlign = 'left';
    g.textBaseline = 'alphabetic';
    g.fillStyle = '#1d2433';
    g.fillText(label, box.left, titleY);
    g.font = font;
    g.textAlign = 'left';
    for (const [method, colour, dash] of METHODS) {
      const line = points.filter((p) => p.method === method && p[key] > 0);
      if (!line.length) continue;
      g.strokeStyle = colour;
      g.fillStyle = colour;
      g.lineWidth = 2;
      g.setLineDash(dash);
      g.beginPath();
      line.forEach((p, i) => (i ? g.lineTo(px(p.count), py(p[key])) : g.moveTo(px(p.count), py(p[key]))));
      g.stroke();
      g.setLineDash([]);
      for (const p of line) {
        g.beginPath();
        if (method === 'naive') g.arc(px(p.count), py(p[key]), 3.5, 0, 2 * Math.PI);
        else if (method === 'grid') g.rect(px(p.count) - 3, py(p[key]) - 3, 6, 6);
        else g.moveTo(px(p.count), py(p[key]) - 4), g.lineTo(px(p.count) + 4, py(p[key]) + 3), g.lineTo(px(p.count) - 4, py(p[key]) + 3);
        g.fill();
      }
    }
  });
}

/**
 * The instrument in `container`: a button that measures (and stops), the charts, each
 * method's slopes, the texts' table beside this device's, CSV and PNG. `lang`: its language;
 * `onMeasuring(true)` before a measurement and `(false)` after it (a page pauses its flocks,
 * which would share the processor with the worker and slow what it times).
 * Resolves once built; `measure(options)` on what it returns runs it as the button does.
 */
export async function buildCostCurve(container, { lang = 'en', counts = COUNTS, steps = 3, warmup = 30, onMeasuring = () => {} } = {}) {
  const words = { ...(await loadLabTexts(lang)), lang };
  const root = element('section', 'lab-cost');
  root.setAttribute('aria-label', words.title);
  const start = element('button', 'lab-start', words.start);
  start.type = 'button';
  const status = element('p', 'lab-status', words.idle);
  status.setAttribute('role', 'status');
  const canvas = element('canvas', 'lab-plot');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', words.plotLabel);
  const slopes = element('ul', 'lab-slopes');
  const table = element('table', 'lab-table');
  // The caption above the box, whose table a narrow screen scrolls, not the page (focusable:
  // the keyboard scrolls it too); the table and the box are named by it.
  const caption = element('p', 'lab-table-caption', words.tableCaption);
  caption.id = `lab-table-caption-${++built}`;
  table.setAttribute('aria-labelledby', caption.id);
  const tableBox = element('div', 'lab-table-box');
  tableBox.tabIndex = 0;
  tableBox.setAttribute('role', 'region');
  tableBox.setAttribute('aria-labelledby', caption.id);
  tableBox.append(table);
  const csv = element('button', 'lab-csv', words.csv);
  const png = element('button', 'lab-png', words.png);
  for (const b of [csv, png]) {
    b.type = 'button';
    b.disabled = true;
  }
  const downloads = element('p', 'lab-downloads');
  downloads.append(csv, ' ', png);
  root.append(start, status, canvas, slopes, caption, tableBox, downloads);
  container.append(root);

  let points = [];
  let running = null;
  const number = (n) => new Intl.NumberFormat(lang).format(n);
  const methodName = (method) => words.methods[method] ?? method;

  function render() {
    drawCostCurve(canvas, points, words);
    slopes.replaceChildren();
    const said = [];
    for (const [method] of METHODS) {
      const time = fitSlope(points, method, 'ms');
      const checks = fitSlope(points, method, 'checks');
      if (!Number.isFinite(checks)) continue;
      const line = fill(words.slope, { method: methodName(method), checks: checks.toFixed(2), time: Number.isFinite(time) ? time.toFixed(2) : '–' });
      const item = element('li', `lab-slope-${method}`);
      const [, colour, , marker] = METHODS.find(([name]) => name === method);
      const swatch = element('span', 'lab-marker', marker);
      swatch.style.color = colour;
      swatch.setAttribute('aria-hidden', 'true');
      item.append(swatch, ' ', line);
      slopes.append(item);
      said.push(line);
    }
    canvas.setAttribute('aria-label', [words.plotLabel, ...said].join(' '));
    const whole = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
    const here = (method, count) => {
      const rate = stepsPerSecond(points, method, count);
      return rate == null ? '–' : rate < 1 ? '< 1' : whole.format(rate);
    };
    table.replaceChildren();
    const head = element('tr');
    for (const title of [words.colCount, words.colTextsNaive, words.colTextsGrid, words.colHereNaive, words.colHereGrid]) {
      const th = element('th', null, title);
      th.scope = 'col';
      head.append(th);
    }
    table.append(head);
    for (const [count, naive, grid] of TEXTS_TABLE) {
      const row = element('tr');
      const th = element('th', null, whole.format(count));
      th.scope = 'row';
      row.append(th, ...[naive, grid, here('naive', count), here('grid', count)].map((v) => element('td', null, String(v))));
      table.append(row);
    }
    csv.disabled = png.disabled = points.length === 0;
  }

  /** Measures (or stops a measurement under way); `options` may narrow the counts, steps and warm-up. */
  async function measure(options = {}) {
    if (running) {
      running.abort();
      return null;
    }
    running = new AbortController();
    points = [];
    render();
    start.textContent = words.stop;
    start.setAttribute('aria-pressed', 'true');
    const began = performance.now();
    onMeasuring(true);
    try {
      await measureCostCurve({
        counts,
        steps,
        warmup,
        ...options,
        signal: running.signal,
        onPoint(point) {
          points.push(point);
          status.textContent = fill(words.measured, { method: methodName(point.method), count: number(point.count), ms: point.ms.toFixed(2) });
          render();
        },
      });
      status.textContent = fill(words.done, { seconds: ((performance.now() - began) / 1000).toFixed(0) });
      return points;
    } catch (error) {
      status.textContent = error.name === 'AbortError' ? words.stopped : fill(words.failed, { error: error.message });
      return null;
    } finally {
      onMeasuring(false);
      running = null;
      start.textContent = words.start;
      start.setAttribute('aria-pressed', 'false');
      render();
    }
  }
  start.addEventListener('click', () => measure());
  csv.addEventListener('click', () => saveBlob(new Blob([costCsv(points)], { type: 'text/csv' }), 'boids-search-cost.csv'));
  png.addEventListener('click', () => canvas.toBlob((blob) => blob && saveBlob(blob, 'boids-search-cost.png'), 'image/png'));
  new ResizeObserver(() => render()).observe(canvas);
  render();
  return { root, measure, points: () => points.slice() };
}
