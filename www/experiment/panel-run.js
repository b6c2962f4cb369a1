// The Experiment group's run and plot (issue 26; split out of experiment-panel.js in issue
// 41): Start/Stop and the progress bar with the time left, the run itself (runExperiment, in
// a worker), the phase plot filling as the points come (phase-plot.js; a map's heat map,
// heat-map.js), the CSV and the picture as files, and the link that gives the experiment back. The `boids-experiment` event when a
// run finishes.

import { button, element } from '../core/dom.js';
import { saveBlob } from '../core/save-blob.js';
import { resultCode, runExperiment } from './runner.js';
import { MEASURES, drawPhasePlot, seriesFromRows, statesFromRows } from './phase-plot.js';
import { cellsFromRows, drawHeatMap } from './heat-map.js';

// The form (experiment-panel.js) keeps the state on the element, `host.experiment_`, and
// hands over on it what these parts need of it: formSpec(), link(spec), say(text), error(e),
// copy(text, field), param(name), refresh(). Nothing imports back.

/** A progress message for screen readers at most this often, ms (the bar itself moves on). */
const SAY_EVERY = 5000;

/** Seconds as "45 s" or "3 min", in the language. */
function duration(t, seconds, lang) {
  const number = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
  if (!Number.isFinite(seconds)) return '…';
  if (seconds < 90) return t('expSeconds').replace('{n}', number.format(Math.max(1, Math.round(seconds))));
  return t('expMinutes').replace('{n}', number.format(Math.round(seconds / 60)));
}

/**
 * The run's controls, the plot and the files, as elements in order ({ runRow, status, said,
 * figure, files, link }); their parts go into `ui`.
 */
export function buildRun(host, ui, field) {
  const t = (key) => host.text.ui(key);
  const id = (name) => host.idFor(`exp-${name}`);
  const state = host.experiment_;

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
  measure.addEventListener('change', () => {
    state.measure = measure.value;
    redraw(host);
  });
  const canvas = element('canvas', 'bf-exp-plot');
  canvas.id = id('plot');
  canvas.setAttribute('role', 'img');
  ui.canvas = canvas;
  const caption = element('figcaption', 'bf-exp-caption');
  ui.caption = caption;
  // The state of the group at each point (Tunstrøm et al.'s, from polarization and milling).
  ui.states = element('p', 'bf-exp-states');
  ui.states.hidden = true;
  figure.append(field('show', 'expMeasure', measure), canvas, caption, ui.states);

  const files = element('div', 'bf-exp-buttons');
  ui.csv = button('bf-exp-csv', t('expDownloadCsv'), () => downloadCsv(host));
  ui.csv.id = id('csv');
  ui.png = button('bf-exp-png', t('expDownloadPng'), () => canvas.toBlob((blob) => blob && saveBlob(blob, `${fileStem(host)}.png`)));
  ui.png.id = id('png');
  ui.copy = button('bf-exp-copy', t('expCopyLink'), async () => {
    let link;
    try {
      link = host.experiment_.link(state.formSpec());
    } catch (error) {
      return host.experiment_.say(host.experiment_.error(error));
    }
    ui.link.value = link;
    ui.link.hidden = false;
    ui.copy.dataset.link = link;
    host.experiment_.say(t((await host.experiment_.copy(link, ui.link)) ? 'expCopied' : 'expCopyManual'));
  });
  ui.copy.id = id('copy-link');
  ui.link = element('input', 'bf-exp-link');
  ui.link.id = id('link');
  ui.link.readOnly = true;
  ui.link.hidden = true;
  ui.link.setAttribute('aria-label', t('expLinkField'));
  files.append(ui.csv, ui.png, ui.copy);

  if (!host.experimentObserver) {
    // The canvas follows its box (a phone turned, the panel resized).
    host.experimentObserver = new ResizeObserver(() => redraw(host));
  }
  host.experimentObserver.disconnect();
  host.experimentObserver.observe(canvas);
  return { runRow, status, said, figure, files, link: ui.link };
}

/** Runs the form's experiment (or the link's, or a student's slice). */
export async function start(host) {
  const state = host.experiment_;
  const t = (key) => host.text.ui(key);
  let spec;
  try {
    spec = state.formSpec();
  } catch (error) {
    host.experiment_.say(host.experiment_.error(error));
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
  host.experiment_.refresh();
  try {
    const result = await runExperiment(spec, {
      signal: controller.signal,
      onProgress: (p) => {
        if (state.running !== controller) return;
        state.progress = p;
        if (Array.isArray(p.rows)) state.rows = p.rows;
        host.experiment_.refresh();
      },
    });
    if (state.running !== controller) return;
    state.result = result;
    state.rows = result.rows;
    state.progress = { fraction: 1, secondsLeft: 0 };
    if (spec.slice) state.code = await resultCode(result);
    host.experiment_.say(t('expDone').replace('{n}', String(result.rows.length)));
    host.emit?.('boids-experiment', experimentDetail(result));
  } catch (error) {
    if (state.running !== controller) return;
    if (error?.name === 'AbortError') host.experiment_.say(t('expStopped'));
    else host.experiment_.say(t('expError').replace('{m}', error?.message ?? String(error)));
  } finally {
    if (state.running === controller) state.running = null;
    host.experiment_.refresh();
  }
}

/**
 * A finished run as `boids-experiment` tells it (events.js): what was swept, how, and for
 * each measure the curves of the phase plot (the mean over the seeds at each value, and its
 * spread), up and, for an up-down sweep, down.
 */
function experimentDetail(result) {
  const { param, values, map, direction, seeds, count, settle, measure, slice } = result.spec;
  const summary = {};
  for (const [key] of MEASURES) {
    if (map) {
      // A map's: each cell's mean over the seeds, and its spread.
      summary[key] = { cells: [...cellsFromRows(result.rows, key).values()] };
      continue;
    }
    const { up, down } = seriesFromRows(result.rows, key);
    const curve = (points) => points.map(({ value, mean, sd, seeds: n }) => ({ value, mean, sd, seeds: n }));
    summary[key] = { up: curve(up), down: curve(down) };
  }
  return {
    param,
    values,
    ...(map && { map }),
    direction,
    seeds,
    count,
    settle,
    measure,
    slice: slice ?? null,
    fingerprint: result.fingerprint,
    rows: result.rows.length,
    summary,
  };
}

function fileStem(host) {
  const state = host.experiment_;
  const spec = state.spec ?? state.fixed ?? state.shared;
  const across = spec ? spec.map?.param : state.form.mapParam;
  return `boids-experiment-${spec?.param ?? state.form.param}${across ? `-${across}` : ''}`;
}

function downloadCsv(host) {
  const state = host.experiment_;
  if (!state.result) return;
  const spec = state.result.spec ?? state.spec;
  let link;
  try {
    link = spec ? host.experiment_.link(spec) : undefined;
  } catch {
    link = undefined;
  }
  saveBlob(new Blob([state.result.csv(link)], { type: 'text/csv' }), `${fileStem(host)}.csv`);
}

/** Shows the run: the Start/Stop button, progress, messages, the files' buttons, the plot. */
export function showRun(host) {
  const state = host.experiment_;
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
  redraw(host);
}

/** Redraws the phase plot from the rows so far (before a run, its axes follow the form). */
export function redraw(host) {
  const state = host.experiment_;
  const ui = host.experimentUi;
  if (!ui?.canvas?.isConnected) return;
  const t = (key) => host.text.ui(key);
  let spec = state.result?.spec ?? state.spec ?? null;
  if (!spec) {
    try {
      spec = state.formSpec();
    } catch {
      spec = null;
    }
  }
  const pSpec = host.experiment_.param(spec?.param ?? state.form.param);
  const values = spec?.values?.length ? spec.values : [pSpec.min, pSpec.max];
  const [measureKey, measureText, axis] = MEASURES.find(([key]) => key === state.measure) ?? MEASURES[0];
  const unit = (u) => (u ? (u === '°' ? ' (°)' : ` (${host.text.unit(u)})`) : '');
  const xLabel = `${host.text.param(pSpec)[0]}${unit(pSpec.unit)}`;
  const yLabel = `${t(measureText)}${axis === 'distance' ? unit('units') : ''}`;
  if (spec?.map) return redrawMap(host, spec, { pSpec, xLabel, yLabel, measureKey, measureText, axis, unit });
  ui.canvas.classList.remove('bf-exp-map');
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
  const states = statesFromRows(state.rows);
  const stateWord = { swarm: 'expStateSwarm', milling: 'expStateMilling', polarized: 'expStatePolarized', transitional: 'expStateTransitional' };
  const legText = ([leg, key]) =>
    states[leg].length ? `${t(key)}: ${states[leg].map((p) => `${number.format(p.value)} ${t(stateWord[p.state] ?? 'expStateTransitional')}`).join(', ')}` : '';
  const stateText = [['up', 'expUp'], ['down', 'expDown']].map(legText).filter(Boolean).join('; ');
  ui.states.textContent = stateText ? t('expStates').replace('{list}', stateText) : '';
  ui.states.hidden = !stateText;
  ui.canvas.setAttribute('aria-label', `${caption} ${t('expPointsShown').replace('{n}', String(points))}${described ? ` ${described}` : ''}`);
}

/** redraw's map: the heat map of the measure chosen, its caption and a text of every cell. */
function redrawMap(host, spec, { pSpec, xLabel, yLabel, measureKey, measureText, axis, unit }) {
  const state = host.experiment_;
  const ui = host.experimentUi;
  const t = (key) => host.text.ui(key);
  const mSpec = host.experiment_.param(spec.map.param);
  const cells = cellsFromRows(state.rows, measureKey);
  ui.canvas.classList.add('bf-exp-map'); // square-ish: a grid wants height
  drawHeatMap(ui.canvas, {
    cells,
    xs: spec.values,
    ys: spec.map.values,
    x: { label: xLabel },
    y: { label: `${host.text.param(mSpec)[0]}${unit(mSpec.unit)}` },
    scale: { axis, label: yLabel },
    lang: host.language,
    empty: state.running ? t('expWaiting') : t('expEmpty'),
  });
  const caption = t('expMapTitle').replace('{y}', t(measureText)).replace('{x}', host.text.param(pSpec)[0]).replace('{z}', host.text.param(mSpec)[0]);
  ui.caption.textContent = caption;
  ui.states.textContent = '';
  ui.states.hidden = true;
  // Read out: each cell measured, "x, z: value".
  const number = new Intl.NumberFormat(host.language, { maximumSignificantDigits: 3 });
  const described = [...cells.values()].map((c) => `${number.format(c.value)}, ${number.format(c.mapValue)}: ${number.format(c.mean)}`).join('; ');
  const shown = t('expCellsShown').replace('{n}', String(cells.size)).replace('{total}', String(spec.values.length * spec.map.values.length));
  ui.canvas.setAttribute('aria-label', `${caption} ${shown}${described ? ` ${described}` : ''}`);
}
