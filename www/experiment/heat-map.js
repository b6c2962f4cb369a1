// A two-parameter map's picture (issue 44): one measure over a grid of two parameters' values,
// each cell the mean over the seeds, coloured on viridis (ordered, legible in grey and to
// colour-blind readers) with its number written in it where it fits, and a colour bar.
// Drawn by hand on a 2D canvas as the phase plot is (phase-plot.js's paintedCanvas: the same
// pixel ratio, background and fonts), so that a saved PNG reads alone; loaded with the
// Experiment group.
// `cellsFromRows` is pure: the node tests run it on plain rows.

import { niceCeil, paintedCanvas, ticks } from './phase-plot.js';

/** Viridis, 9 stops (matplotlib's, sampled): low values dark blue, high ones yellow. */
const VIRIDIS = [
  [68, 1, 84],
  [71, 44, 122],
  [59, 81, 139],
  [44, 113, 142],
  [33, 144, 141],
  [39, 173, 129],
  [92, 200, 99],
  [170, 220, 50],
  [253, 231, 37],
];

/** The colour of `t` in [0, 1] on VIRIDIS, as [r, g, b]. */
export function viridis(t) {
  const at = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(at));
  const f = at - i;
  return VIRIDIS[i].map((c, k) => Math.round(c + (VIRIDIS[i + 1][k] - c) * f));
}

/**
 * Rows of a map → its cells for `measure` (a key of MEASURES): a Map from "value mapValue" to
 * `{ value, mapValue, mean, sd, seeds }`, `mean` the mean over the seeds of each row's window
 * mean, `sd` the spread of those means over the seeds (with one seed, that row's own sd).
 * Rows whose mean is not a number are left out; a cell with none is not there.
 */
export function cellsFromRows(rows, measure) {
  const lists = new Map();
  for (const row of rows ?? []) {
    const stat = row?.[measure];
    const [value, mapValue, mean] = [Number(row?.value), Number(row?.mapValue), Number(stat?.mean)];
    if (!stat || stat.mean == null || ![value, mapValue, mean].every(Number.isFinite)) continue;
    const key = `${value} ${mapValue}`;
    if (!lists.has(key)) lists.set(key, { value, mapValue, means: [], sd: Number(stat.sd) || 0 });
    lists.get(key).means.push(mean);
  }
  const cells = new Map();
  for (const [key, { value, mapValue, means, sd }] of lists) {
    const mean = means.reduce((sum, v) => sum + v, 0) / means.length;
    const spread = means.length > 1 ? Math.sqrt(means.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (means.length - 1)) : sd;
    cells.set(key, { value, mapValue, mean, sd: spread, seeds: means.length });
  }
  return cells;
}

/**
 * Draws the map on `canvas`. `cells`: from cellsFromRows; `xs`, `ys`: the two parameters'
 * values (columns left to right, rows bottom to top); `x`, `y`: { label } their axis titles;
 * `scale`: { axis, label } (axis from MEASURES: "share" runs 0–1, others 0 to a round number
 * above the data); `lang` for the numbers; `empty`: a text shown while no cell is measured.
 */
export function drawHeatMap(canvas, { cells, xs, ys, x, y, scale, lang = 'en', empty = '' }) {
  const painted = paintedCanvas(canvas);
  if (!painted) return;
  const { g, w, h, font, text } = painted;

  const small = w < 420;
  const size = small ? 11 : 12;
  const bar = small ? 64 : 76; // the colour bar, its ticks and its title, on the right
  const pad = { left: small ? 46 : 56, right: 10 + bar, top: 12, bottom: 38 };
  const plotW = Math.max(1, w - pad.left - pad.right);
  const plotH = Math.max(1, h - pad.top - pad.bottom);
  const measured = [...cells.values()];
  const top = scale.axis === 'share' ? 1 : niceCeil(Math.max(0, ...measured.map((c) => c.mean)));
  const cellNumber = new Intl.NumberFormat(lang, top < 0.01 ? { maximumSignificantDigits: 2 } : { maximumFractionDigits: top <= 1 ? 2 : 1 });
  const axisNumber = new Intl.NumberFormat(lang, { maximumFractionDigits: 3 });
  const cw = plotW / Math.max(1, xs.length);
  const ch = plotH / Math.max(1, ys.length);

  // The cells: columns xs, rows ys from the bottom up; each number written where it fits.
  g.font = `${size}px ${font}`;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  xs.forEach((xv, i) => {
    ys.forEach((yv, j) => {
      const cell = cells.get(`${xv} ${yv}`);
      const [cx, cy] = [pad.left + i * cw, pad.top + (ys.length - 1 - j) * ch];
      if (!cell) {
        g.strokeStyle = 'rgba(255,255,255,0.14)';
        g.strokeRect(cx + 0.5, cy + 0.5, cw - 1, ch - 1);
        return;
      }
      const [r, gr, b] = viridis(cell.mean / top);
      g.fillStyle = `rgb(${r},${gr},${b})`;
      g.fillRect(cx, cy, Math.ceil(cw), Math.ceil(ch));
      const label = cellNumber.format(cell.mean);
      if (g.measureText(label).width + 6 <= cw && ch >= size + 4) {
        g.fillStyle = 0.299 * r + 0.587 * gr + 0.114 * b > 140 ? '#111' : '#fff';
        g.fillText(label, cx + cw / 2, cy + ch / 2);
      }
    });
  });
  g.strokeStyle = 'rgba(255,255,255,0.45)';
  g.lineWidth = 1;
  g.strokeRect(pad.left + 0.5, pad.top + 0.5, plotW, plotH);

  // Each column's and row's value (the values need not be evenly spaced): as many as fit.
  g.fillStyle = text;
  const everyX = Math.max(1, Math.ceil(xs.length / Math.max(1, Math.floor(plotW / (small ? 34 : 42)))));
  g.textBaseline = 'top';
  xs.forEach((xv, i) => i % everyX === 0 && g.fillText(axisNumber.format(xv), pad.left + (i + 0.5) * cw, pad.top + plotH + 5));
  const everyY = Math.max(1, Math.ceil(ys.length / Math.max(1, Math.floor(plotH / (size + 6)))));
  g.textAlign = 'right';
  g.textBaseline = 'middle';
  ys.forEach((yv, j) => j % everyY === 0 && g.fillText(axisNumber.format(yv), pad.left - 5, pad.top + (ys.length - 0.5 - j) * ch));

  // Axis titles: x below, y along the left edge.
  g.textAlign = 'center';
  g.textBaseline = 'bottom';
  g.fillText(x.label, pad.left + plotW / 2, h - 3);
  g.save();
  g.translate(11, pad.top + plotH / 2);
  g.rotate(-Math.PI / 2);
  g.textBaseline = 'middle';
  g.fillText(y.label, 0, 0);
  g.restore();

  // The colour bar, its ticks, and the measure's name along it.
  const bx = pad.left + plotW + 12;
  const bw = 12;
  for (let k = 0; k < plotH; k++) {
    const [r, gr, b] = viridis(1 - k / plotH);
    g.fillStyle = `rgb(${r},${gr},${b})`;
    g.fillRect(bx, pad.top + k, bw, 1.5);
  }
  g.strokeStyle = 'rgba(255,255,255,0.45)';
  g.strokeRect(bx + 0.5, pad.top + 0.5, bw, plotH);
  g.fillStyle = text;
  g.textAlign = 'left';
  g.textBaseline = 'middle';
  const barNumber = new Intl.NumberFormat(lang, top < 0.01 ? { maximumSignificantDigits: 2 } : { maximumFractionDigits: 3 });
  for (const v of ticks(0, top, 4)) g.fillText(barNumber.format(v), bx + bw + 4, pad.top + plotH * (1 - v / top));
  g.save();
  g.translate(w - 8, pad.top + plotH / 2);
  g.rotate(Math.PI / 2);
  g.textAlign = 'center';
  g.fillText(scale.label, 0, 0);
  g.restore();

  if (measured.length === 0 && empty) {
    // Wrapped to the grid's width (a phone's is narrow).
    const lines = [''];
    for (const word of empty.split(' ')) {
      const line = lines[lines.length - 1];
      const longer = line ? `${line} ${word}` : word;
      if (line && g.measureText(longer).width > plotW - 12) lines.push(word);
      else lines[lines.length - 1] = longer;
    }
    g.fillStyle = text;
    g.textAlign = 'center';
    const lead = size + 4;
    lines.forEach((line, k) => g.fillText(line, pad.left + plotW / 2, pad.top + plotH / 2 + (k - (lines.length - 1) / 2) * lead));
  }
}
