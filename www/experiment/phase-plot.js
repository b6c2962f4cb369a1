// The experiment's phase plot (issue 26): one measure against the swept parameter, a line for
// the way up and one for the way down, each with a band of ± one standard deviation over the
// seeds. Drawn by hand on a 2D canvas as the live plot is (plot.js: the same pixel ratio,
// colours and fonts), so that nothing more is downloaded; loaded only with the Experiment
// group (experiment-panel.js). `seriesFromRows` is pure: the node tests run it on plain rows.

/**
 * The measures a row holds (www/experiment.js), in the order offered: [key, text key, axis].
 * "share" runs 0–1; "count", "distance" and "ratio" (a small share) from 0 to a round number
 * above the data.
 */
export const MEASURES = [
  ['polarization', 'expPolarization', 'share'],
  ['milling', 'expMilling', 'share'],
  ['groups', 'expGroups', 'count'],
  ['largestGroup', 'expLargestGroup', 'share'],
  ['medianNearest', 'expMedianNearest', 'distance'],
  ['meanNeighbours', 'expMeanNeighbours', 'count'],
  ['correlationShare', 'expCorrelationShare', 'share'],
  ['anisotropy', 'expAnisotropy', 'share'],
  ['velocityCorrelation', 'expVelocityCorrelation', 'share'],
  ['groupCorrelation', 'expGroupCorrelation', 'share'],
  ['outside', 'expOutside', 'share'],
  ['collisions', 'expCollisions', 'ratio'],
];

/** The two legs: [direction, text key, colour, dash]: told apart by dash and marker, not colour alone. */
export const LEGS = [
  ['up', 'expUp', '#ffd166', []],
  ['down', 'expDown', '#7cc4ff', [7, 4]],
];

const mean = (list) => list.reduce((sum, v) => sum + v, 0) / list.length;

/**
 * Rows → the plot's series for `measure` (a key of MEASURES): `{ up: [...], down: [...] }`,
 * each a list of points `{ value, mean, sd, lo, hi, seeds }` in increasing `value`.
 * `mean` is the mean over seeds of each row's window mean; `sd` the sample standard deviation
 * of those means over the seeds, or with one seed that row's own sd over its window. Rows
 * whose mean is not a number (NaN, null: nothing measured) are left out of a point; a point
 * with none is left out.
 */
export function seriesFromRows(rows, measure) {
  const legs = { up: new Map(), down: new Map() };
  for (const row of rows ?? []) {
    const leg = legs[row.direction];
    const stat = row[measure];
    if (!leg || !stat) continue;
    const value = Number(row.value);
    const m = Number(stat.mean);
    if (!Number.isFinite(value) || stat.mean == null || !Number.isFinite(m)) continue;
    const sd = stat.sd == null ? 0 : Number(stat.sd);
    if (!leg.has(value)) leg.set(value, []);
    leg.get(value).push({ mean: m, sd: Number.isFinite(sd) ? sd : 0 });
  }
  const points = (leg) =>
    [...leg]
      .sort(([a], [b]) => a - b)
      .map(([value, list]) => {
        const means = list.map((s) => s.mean);
        const centre = mean(means);
        const sd =
          list.length > 1 ? Math.sqrt(means.reduce((sum, v) => sum + (v - centre) ** 2, 0) / (list.length - 1)) : list[0].sd;
        return { value, mean: centre, sd, lo: centre - sd, hi: centre + sd, seeds: list.length };
      });
  return { up: points(legs.up), down: points(legs.down) };
}

/**
 * Rows → the state at each value of each leg: `{ up: [{ value, state }], down: [...] }` in
 * increasing `value`, `state` the one most of the seeds' rows were in (a tie is
 * 'transitional', as a row's own tie is). Rows with no state are left out.
 */
export function statesFromRows(rows) {
  const legs = { up: new Map(), down: new Map() };
  for (const row of rows ?? []) {
    const leg = legs[row.direction];
    const value = Number(row.value);
    if (!leg || typeof row.state !== 'string' || !Number.isFinite(value)) continue;
    if (!leg.has(value)) leg.set(value, new Map());
    const votes = leg.get(value);
    votes.set(row.state, (votes.get(row.state) ?? 0) + 1);
  }
  const points = (leg) =>
    [...leg]
      .sort(([a], [b]) => a - b)
      .map(([value, votes]) => {
        const most = Math.max(...votes.values());
        const winners = [...votes].filter(([, n]) => n === most);
        return { value, state: winners.length === 1 ? winners[0][0] : 'transitional' };
      });
  return { up: points(legs.up), down: points(legs.down) };
}

/** About `count` round tick values across [lo, hi] (steps of 1, 2 or 5 times a power of ten). */
export function ticks(lo, hi, count = 5) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  // The finest round step that gives at most one tick more than asked.
  const step = [0.5, 1, 2, 5, 10].map((k) => k * power).find((s) => (hi - lo) / s <= count + 1) ?? 10 * power;
  const out = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** 1, 2, 5, 10, 20, … at or above `value` (1 for nothing). */
export function niceCeil(value) {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value * (1 - 1e-9)) return step * power;
  return 10 * power;
}

/**
 * `canvas` sized to its box at the screen's pixel ratio, its background painted (so that a
 * saved PNG reads alone): { g, w, h, font, text } (the context, CSS pixels, the canvas's font
 * family and text colour), or null without a 2D context. The phase plot's and the heat map's.
 */
export function paintedCanvas(canvas) {
  const ratio = window.devicePixelRatio || 1;
  const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
  const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  const g = canvas.getContext('2d');
  if (!g) return null;
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  const w = width / ratio;
  const h = height / ratio;
  const style = getComputedStyle(canvas);
  const font = style.fontFamily || 'sans-serif';
  const text = style.color || '#ccc';
  g.fillStyle = style.backgroundColor && style.backgroundColor !== 'rgba(0, 0, 0, 0)' ? style.backgroundColor : '#0f1a2e';
  g.fillRect(0, 0, w, h);
  return { g, w, h, font, text };
}

/**
 * Draws the plot on `canvas`. `series`: from seriesFromRows; `x`: { min, max, label } (the
 * parameter's range swept and its axis title with the unit); `y`: { axis, label } (axis from
 * MEASURES); `legend`: { up, down, band } texts; `lang` for the numbers; `empty`: a text shown
 * while there is no point yet; `upDown`: the legend names the way down before it has points.
 * The background is painted, so that a saved PNG reads alone.
 */
export function drawPhasePlot(canvas, { series, x, y, legend, lang = 'en', empty = '', upDown = false }) {
  const painted = paintedCanvas(canvas);
  if (!painted) return;
  const { g, w, h, font, text } = painted;

  const small = w < 420;
  const size = small ? 11 : 12;
  const pad = { left: small ? 40 : 48, right: 12, top: 28, bottom: 38 };
  const plotW = Math.max(1, w - pad.left - pad.right);
  const plotH = Math.max(1, h - pad.top - pad.bottom);
  const all = [...series.up, ...series.down];

  const xLo = x.min;
  const xHi = x.max > x.min ? x.max : x.min + 1;
  let yHi = 1;
  if (y.axis !== 'share') yHi = niceCeil(Math.max(0, ...all.map((p) => (Number.isFinite(p.hi) ? p.hi : p.mean))));
  // A collision ratio runs to 1e-4 or so: its ticks in significant digits, not 0, 0, 0.
  const number = new Intl.NumberFormat(lang, yHi < 0.01 ? { maximumSignificantDigits: 2 } : { maximumFractionDigits: 3 });
  const px = (value) => pad.left + ((value - xLo) / (xHi - xLo)) * plotW;
  const py = (value) => pad.top + plotH * (1 - Math.min(1, Math.max(0, value / yHi)));

  // Grid and ticks.
  g.font = `${size}px ${font}`;
  g.lineWidth = 1;
  g.strokeStyle = 'rgba(255,255,255,0.14)';
  g.fillStyle = text;
  g.textBaseline = 'middle';
  g.textAlign = 'right';
  for (const v of ticks(0, yHi, small ? 4 : 5)) {
    const yy = Math.round(py(v)) + 0.5;
    g.beginPath();
    g.moveTo(pad.left, yy);
    g.lineTo(pad.left + plotW, yy);
    g.stroke();
    g.fillText(number.format(v), pad.left - 5, yy);
  }
  g.textAlign = 'center';
  g.textBaseline = 'top';
  const xTicks = ticks(xLo, xHi, Math.max(2, Math.floor(plotW / (small ? 60 : 70))));
  for (const v of xTicks) {
    const xx = Math.round(px(v)) + 0.5;
    g.beginPath();
    g.moveTo(xx, pad.top);
    g.lineTo(xx, pad.top + plotH + 4);
    g.stroke();
    g.fillText(number.format(v), xx, pad.top + plotH + 6);
  }
  g.strokeStyle = 'rgba(255,255,255,0.45)';
  g.strokeRect(pad.left + 0.5, pad.top + 0.5, plotW, plotH);

  // Axis titles: x below, y along the left edge.
  g.textBaseline = 'bottom';
  g.fillText(x.label, pad.left + plotW / 2, h - 3);
  g.save();
  g.translate(11, pad.top + plotH / 2);
  g.rotate(-Math.PI / 2);
  g.textBaseline = 'middle';
  g.fillText(y.label, 0, 0);
  g.restore();

  // Bands, then lines and markers, for each leg.
  for (const [leg, , colour, dash] of LEGS) {
    const points = series[leg];
    if (points.length === 0) continue;
    g.globalAlpha = 0.2;
    g.fillStyle = colour;
    if (points.length === 1) {
      const [p] = points;
      g.fillRect(px(p.value) - 4, py(p.hi), 8, Math.max(1, py(p.lo) - py(p.hi)));
    } else {
      g.beginPath();
      points.forEach((p, i) => (i ? g.lineTo(px(p.value), py(p.hi)) : g.moveTo(px(p.value), py(p.hi))));
      for (let i = points.length - 1; i >= 0; i--) g.lineTo(px(points[i].value), py(points[i].lo));
      g.closePath();
      g.fill();
    }
    g.globalAlpha = 1;
    g.strokeStyle = colour;
    g.lineWidth = 2;
    g.setLineDash(dash);
    g.beginPath();
    points.forEach((p, i) => (i ? g.lineTo(px(p.value), py(p.mean)) : g.moveTo(px(p.value), py(p.mean))));
    g.stroke();
    g.setLineDash([]);
    g.fillStyle = colour;
    for (const p of points) marker(g, leg, px(p.value), py(p.mean));
  }

  if (all.length === 0 && empty) {
    g.fillStyle = text;
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(empty, pad.left + plotW / 2, pad.top + plotH / 2);
  }

  // The legend, along the top.
  g.font = `${size}px ${font}`;
  g.textAlign = 'left';
  g.textBaseline = 'middle';
  let at = pad.left;
  const mid = 12;
  for (const [leg, , colour, dash] of LEGS) {
    if (leg === 'down' && series.down.length === 0 && !upDown) continue;
    g.strokeStyle = colour;
    g.lineWidth = 2;
    g.setLineDash(dash);
    g.beginPath();
    g.moveTo(at, mid);
    g.lineTo(at + 24, mid);
    g.stroke();
    g.setLineDash([]);
    g.fillStyle = colour;
    marker(g, leg, at + 12, mid);
    g.fillStyle = text;
    g.fillText(legend[leg], at + 30, mid);
    at += 30 + g.measureText(legend[leg]).width + 14;
  }
  g.globalAlpha = 0.3;
  g.fillStyle = LEGS[0][2];
  g.fillRect(at, mid - 6, 16, 12);
  g.globalAlpha = 1;
  g.fillStyle = text;
  g.fillText(legend.band, at + 21, mid);
}

/** A point's mark: a disc on the way up, a square on the way down. */
function marker(g, leg, x, y) {
  g.beginPath();
  if (leg === 'up') g.arc(x, y, 3.5, 0, 2 * Math.PI);
  else g.rect(x - 3.5, y - 3.5, 7, 7);
  g.fill();
}
