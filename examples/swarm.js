// The lesson "A swarm of drones" (swarm.html, issue 44): a map of delay × message loss run in
// the page with runExperiment (www/experiment.js, in a worker), its heat map drawn as the
// cells come (www/experiment/heat-map.js), and links that open it and the failures' and
// roles' experiments in the full page's Experiment group. A file, not an inline script: the
// lessons run under a strict CSP. Its words come from the flocks' language tables.

import { experimentLink, runExperiment } from '../www/experiment.js';
import { cellsFromRows, drawHeatMap } from '../www/experiment/heat-map.js';
import { loadLang, texts } from '../www/i18n/texts.js';
import { loadExperimentTexts } from '../www/i18n/experiment.js';

/** The drone swarm preset's settings but its delay and loss (docs/presets.md). */
const DRONES = {
  separation: 0.7,
  alignment: 3,
  cohesion: 0.5,
  perception: 5,
  separationRadius: 2.2,
  fieldOfView: 360,
  speed: 5,
  alignmentRadius: 12,
  noise: 0,
  homeRange: 0.22,
  sky: true,
  maxForce: 4,
};
const POINT = { direction: 'up', count: 400, settle: 10, measure: 4, sampleEvery: 0.5 };

/** Part one's map: 4 delays × 3 losses, one seed (about half a minute in a worker). */
const MAP = { settings: DRONES, param: 'delay', values: [0, 0.05, 0.1, 0.2], map: { param: 'messageLoss', values: [0, 0.4, 0.8] }, seeds: [1], ...POINT };
/** The experiments a link away: failing drones (flying straight on) and bold ones, with the preset's delay and loss. */
const LINKED = {
  map: MAP,
  failures: { ...POINT, settings: { ...DRONES, delay: 0.1, messageLoss: 0.2, failureMode: 0 }, param: 'failures', values: [0, 0.1, 0.2, 0.3, 0.5], seeds: [1, 2], measure: 5 },
  roles: { ...POINT, settings: { ...DRONES, delay: 0.1, messageLoss: 0.2 }, param: 'roles', values: [0, 0.25, 0.5, 0.75, 1], seeds: [1, 2], measure: 5 },
};
/** What the map can show: [measure, text key, axis]. */
const SHOWN = [
  ['velocityCorrelation', 'expVelocityCorrelation', 'share'],
  ['collisions', 'expCollisions', 'ratio'],
  ['polarization', 'expPolarization', 'share'],
];

await customElements.whenDefined('boids-flock');
const SPECS = customElements.get('boids-flock').params;
const lang = document.documentElement.lang || 'en';
await loadLang(lang);
await loadExperimentTexts(lang);
const text = texts(lang);
const t = (key) => text.ui(key);
const paramOf = (name) => SPECS.find((s) => s.name === name);
const label = (name) => {
  const spec = paramOf(name);
  return `${text.param(spec)[0]}${spec.unit ? ` (${text.unit(spec.unit)})` : ''}`;
};

for (const link of document.querySelectorAll('[data-open]')) {
  link.href = experimentLink(LINKED[link.dataset.open], new URL(`../?lang=${lang}`, location.href).href);
}

const box = document.querySelector('[data-map]');
const run = box.querySelector('[data-run]');
const progress = box.querySelector('progress');
const status = box.querySelector('[data-status]');
const canvas = box.querySelector('canvas');
const measure = box.querySelector('[data-measure]');
const percent = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 });
box.querySelector('[data-progress-label]').textContent = t('expProgress');
box.querySelector('[data-measure-label]').textContent = t('expMeasure');
for (const [key, textKey] of SHOWN) measure.append(Object.assign(document.createElement('option'), { value: key, textContent: t(textKey) }));
let rows = [];
let controller = null;

const draw = () => {
  const [key, textKey, axis] = SHOWN.find(([k]) => k === measure.value) ?? SHOWN[0];
  const cells = cellsFromRows(rows, key);
  drawHeatMap(canvas, {
    cells,
    xs: MAP.values,
    ys: MAP.map.values,
    x: { label: label(MAP.param) },
    y: { label: label(MAP.map.param) },
    scale: { axis, label: t(textKey) },
    lang,
    empty: controller ? t('expWaiting') : t('expEmpty'),
  });
  const caption = t('expMapTitle').replace('{y}', t(textKey)).replace('{x}', text.param(paramOf(MAP.param))[0]).replace('{z}', text.param(paramOf(MAP.map.param))[0]);
  const number = new Intl.NumberFormat(lang, { maximumSignificantDigits: 3 });
  const said = [...cells.values()].map((c) => `${number.format(c.value)}, ${number.format(c.mapValue)}: ${number.format(c.mean)}`).join('; ');
  const shown = t('expCellsShown').replace('{n}', String(cells.size)).replace('{total}', String(MAP.values.length * MAP.map.values.length));
  canvas.setAttribute('aria-label', `${caption} ${shown}${said ? ` ${said}` : ''}`);
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
    const result = await runExperiment(MAP, {
      signal: mine.signal,
      onProgress: (p) => {
        rows = p.rows;
        progress.value = p.fraction;
        // A live region: it speaks at each tenth of the way, not at every chunk.
        if (said == null || Math.floor(10 * p.fraction) !== Math.floor(10 * said)) {
          said = p.fraction;
          status.textContent = t('expLeft').replace('{p}', percent.format(p.fraction)).replace('{t}', p.secondsLeft == null ? '…' : t('expSeconds').replace('{n}', String(Math.max(1, Math.round(p.secondsLeft)))));
        }
        draw();
      },
    });
    rows = result.rows;
    progress.value = 1;
    status.textContent = t('expDone').replace('{n}', String(rows.length));
    window.swarmMap = result; // for the tests
  } catch (error) {
    status.textContent = error?.name === 'AbortError' ? t('expStopped') : t('expError').replace('{m}', error?.message ?? String(error));
  } finally {
    controller = null;
    show();
    draw();
  }
});
measure.addEventListener('change', draw);
new ResizeObserver(draw).observe(canvas);
show();
draw();
box.dataset.ready = 'true';
