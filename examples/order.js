// The lesson "Order from noise" (order.html): two experiments run in the browser with
// runExperiment (www/experiment.js, in a worker), their phase plots drawn as they fill
// (www/experiment/phase-plot.js), a link to each in the full page's Experiment group. A file, not an
// inline script: the lessons run under a strict CSP. Its words come from the flocks' language
// tables (www/i18n/texts.js) and from order.html.

import { experimentLink, runExperiment } from '../www/experiment.js';
import { drawPhasePlot, seriesFromRows } from '../www/experiment/phase-plot.js';
import { loadLang, texts } from '../www/i18n/texts.js';
import { loadExperimentTexts } from '../www/i18n/experiment.js';

/**
 * The two experiments. Part one: polarization against noise, in a wrapped world with strong
 * alignment (the transition). Part two: the fish ball (the preset's values) with the zone of
 * orientation swept from 0.5 to its perception radius and back (Couzin's zones, and memory).
 */
const EXPERIMENTS = {
  noise: {
    spec: {
      settings: { wrap: 1, alignment: 3 },
      param: 'noise',
      values: [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4],
      direction: 'up',
      seeds: [1, 2],
      count: 600,
      settle: 10,
      measure: 5,
      sampleEvery: 0.5,
    },
    plots: [['polarization', 'share']],
  },
  zones: {
    spec: {
      settings: { separation: 1.5, alignment: 2, cohesion: 1.5, perception: 4, separationRadius: 2, fieldOfView: 200, speed: 8 },
      param: 'alignmentRadius',
      values: [0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4],
      direction: 'up-down',
      seeds: [1, 2],
      count: 400,
      settle: 10,
      measure: 5,
      sampleEvery: 0.5,
    },
    plots: [['milling', 'share'], ['polarization', 'share']],
  },
};

const MEASURE_TEXT = { polarization: 'expPolarization', milling: 'expMilling' };

await customElements.whenDefined('boids-flock');
const SPECS = customElements.get('boids-flock').params;
const lang = document.documentElement.lang || 'en';
await loadLang(lang);
await loadExperimentTexts(lang);
const text = texts(lang);
const t = (key) => text.ui(key);

function duration(seconds) {
  const number = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
  if (!Number.isFinite(seconds)) return '…';
  if (seconds < 90) return t('expSeconds').replace('{n}', number.format(Math.max(1, Math.round(seconds))));
  return t('expMinutes').replace('{n}', number.format(Math.round(seconds / 60)));
}

for (const box of document.querySelectorAll('[data-experiment]')) {
  const { spec, plots } = EXPERIMENTS[box.dataset.experiment];
  const param = SPECS.find((s) => s.name === spec.param);
  const run = box.querySelector('[data-run]');
  const progress = box.querySelector('progress');
  const status = box.querySelector('[data-status]');
  const canvases = [...box.querySelectorAll('canvas')];
  const open = box.querySelector('[data-open]');
  const percent = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 });
  let rows = [];
  let controller = null;

  if (open) open.href = experimentLink(spec, new URL(`../?lang=${lang}`, location.href).href);
  box.querySelector('[data-progress-label]').textContent = t('expProgress');

  const draw = () => {
    plots.forEach(([measure, axis], i) => {
      const canvas = canvases[i];
      if (!canvas || !param) return;
      const unit = param.unit ? ` (${text.unit(param.unit)})` : '';
      const name = t(MEASURE_TEXT[measure]);
      const series = seriesFromRows(rows, measure);
      drawPhasePlot(canvas, {
        series,
        x: { min: Math.min(...spec.values), max: Math.max(...spec.values), label: `${text.param(param)[0]}${unit}` },
        y: { axis, label: name },
        legend: { up: t('expUp'), down: t('expDown'), band: t('expBand') },
        lang,
        empty: controller ? t('expWaiting') : t('expEmpty'),
        upDown: spec.direction === 'up-down',
      });
      const number = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
      const said = (points) => points.map((p) => `${number.format(p.value)}: ${number.format(p.mean)}`).join('; ');
      const parts = [t('expPlotTitle').replace('{y}', name).replace('{x}', text.param(param)[0])];
      if (series.up.length) parts.push(`${t('expUp')}: ${said(series.up)}.`);
      if (series.down.length) parts.push(`${t('expDown')}: ${said(series.down)}.`);
      canvas.setAttribute('aria-label', parts.join(' '));
    });
  };
  const show = () => {
    run.textContent = t(controller ? 'expStop' : 'expStart');
    run.classList.toggle('order-running', Boolean(controller));
  };

  run.addEventListener('click', async () => {
    if (controller) {
      controller.abort();
      return;
    }
    const mine = (controller = new AbortController());
    let said = null;
    rows = [];
    progress.value = 0;
    show();
    draw();
    try {
      const result = await runExperiment(spec, {
        signal: mine.signal,
        onProgress: (p) => {
          rows = p.rows;
          progress.value = p.fraction;
          // The status is a live region: it speaks at each tenth of the way, not at every chunk.
          if (Math.floor(10 * p.fraction) !== Math.floor(10 * (said ?? -1)) || said == null) {
            said = p.fraction;
            status.textContent = t('expLeft').replace('{p}', percent.format(p.fraction)).replace('{t}', duration(p.secondsLeft));
          }
          draw();
        },
      });
      rows = result.rows;
      progress.value = 1;
      status.textContent = t('expDone').replace('{n}', String(rows.length));
    } catch (error) {
      status.textContent = error?.name === 'AbortError' ? t('expStopped') : t('expError').replace('{m}', error?.message ?? String(error));
    } finally {
      controller = null;
      show();
      draw();
    }
  });

  new ResizeObserver(draw).observe(canvases[0]);
  show();
  draw();
  box.dataset.ready = 'true';
}
