// The lesson studio (studio.html, issue 28): a live <boids-flock> beside a form of everything
// a lesson sets, and three outputs written from it as it changes: the snippet, the iframe,
// a link. PhET Studio's idea (the simulation beside a tree of its controls) on one page with
// nothing to install.
// Long because it is the page's one script: it wires the form (studio/studio-form.js) to the
// preview and the outputs (studio/studio-output.js) and keeps all three in step.
//
// The preview is the truth: the form sets the preview's attributes (the very attributes the
// outputs carry), the teacher may also drag the preview's sliders, orbit its view or click a
// boid, and the outputs read the flock back through the element's own link writer
// (`shareUrl()`, which a shared link already trusts to reproduce a flock: every value that
// differs or was set, and the seed). What the studio adds is what a link does not hold:
// which controls show, locks and ranges, the camera, "this exact moment", the prompts.
// The form's DOM is studio-form.js's, the outputs' text studio-output.js's.

import { BoidsFlock } from './boids-embed.js';
import { LANGS, LANG_NAMES, loadLang, pickLang, texts } from './i18n/texts.js';
import { formatNumber, kebab, readParam } from './core/settings.js';
import { saveBlob } from './core/save-blob.js';
import { BASICS, GROUPS } from './panel/panel.js';
import { COLOUR_MODES, MODE_TEXT, SHAPES, SHAPE_TEXT, TIME_SCALE } from './instruments/instruments.js';
import { PROMPT_ATTRIBUTES } from './lesson/prompts.js';
import { buildOutputs, buildParams, buildPrompts, buildStart, buildView } from './studio/studio-form.js';
import { elementOf, iframeOf, snippetOf, urlOf } from './studio/studio-output.js';
import { buildDownloads, sizeText } from './studio/studio-export.js';
import { makeDownload } from './package/downloads.js';
import studioEn from './i18n/studio-en.js';

/** Where students' pages get the element: this very copy, wherever the studio is served. */
const SCRIPT_SRC = new URL('./boids-embed.js', import.meta.url).href;
const EMBED_URL = new URL('../embed.html', import.meta.url).href;
const PAGE_URL = new URL('../', import.meta.url).href;
/** The tools `controls` may name beside parameters (settings.js FEATURES), with their words. */
const TOOLS = [
  ['presets', 'toolPresets'],
  ['obstacles', 'toolObstacles'],
  ['pointer', 'toolPointer'],
];
/** What the preview does that may change the lesson: the form is read again after it. */
const PREVIEW_EVENTS = ['input', 'change', 'click', 'keyup', 'pointerup', 'wheel', 'boidselect', 'boids-change'];

const SPECS = BoidsFlock.params;
const SEED = SPECS.find((spec) => spec.name === 'seed');
/** A moment's text longer than this makes a long iframe address and link (some platforms cut them). */
const MOMENT_LONG = 8000;
/** Attribute names of the parameters (and the seed). */
const SETTING_NAMES = new Set(SPECS.map((spec) => kebab(spec.name)));
let preview = document.getElementById('preview');

/** The studio's own tables: English at once, another language when chosen. */
const STUDIO = { en: studioEn };

/** What the form holds that the preview's settings do not. */
const lesson = {
  shown: new Set(), // parameter names and tools with a control for students
  locked: new Set(),
  ranges: new Map(), // name → [min, max]
  camera: false,
  paused: false,
  moment: null, // { state: the attribute's text, steps, count, settings: settingsKey() then }
  dropped: false, // a moment was let go when the settings changed
};

/**
 * Whether the preview can both give a moment (its flock's snapshot) and take one (`state`,
 * timeline.js). A build without them offers none: the studio says so, the lesson starts from
 * the seed.
 */
const supportsMoments = () => typeof preview.flock?.snapshot === 'function' && BoidsFlock.observedAttributes.includes('state');

/**
 * The preview's flock now as a `state` text (moment.js: the snapshot deflated, base64url),
 * imported when first asked for, so the studio loads without it where a build has none.
 */
async function momentOf() {
  const { encodeMoment } = await import('./lesson/moment.js');
  return {
    state: await encodeMoment(preview.flock.snapshot()),
    steps: preview.steps,
    count: preview.flock.count(),
    settings: settingsKey(),
  };
}

let lang = 'en';
let ui = null;

/** The studio's word `key` in its language, with {x} filled from `vars`. */
function w(key, vars = {}) {
  const text = STUDIO[lang]?.[key] ?? studioEn[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (match, name) => (name in vars ? String(vars[name]) : match));
}

async function loadStudioWords(code) {
  if (STUDIO[code]) return;
  try {
    STUDIO[code] = (await import(`./i18n/studio-${code}.js`)).default;
  } catch (error) {
    console.warn(`studio: the ${code} words did not load (${error}); using English`);
  }
}

/** Sets attribute `name` of the preview to `value` (null: removes it), only when it differs. */
function setAttr(name, value) {
  if (value == null) {
    if (preview.hasAttribute(name)) preview.removeAttribute(name);
  } else if (preview.getAttribute(name) !== value) {
    preview.setAttribute(name, value);
  }
}

// ---- the lesson as attributes ----------------------------------------------------------------

const shownSpecs = () => SPECS.filter((spec) => lesson.shown.has(spec.name));

function controlsValue() {
  const words = [...shownSpecs().map((spec) => kebab(spec.name)), ...TOOLS.filter(([tool]) => lesson.shown.has(tool)).map(([tool]) => tool)];
  return words.length ? words.join(' ') : null;
}

function lockedValue() {
  const words = shownSpecs().filter((spec) => lesson.locked.has(spec.name)).map((spec) => kebab(spec.name));
  return words.length ? words.join(' ') : null;
}

function rangesValue() {
  const words = shownSpecs()
    .filter((spec) => !lesson.locked.has(spec.name) && lesson.ranges.has(spec.name))
    .map((spec) => [kebab(spec.name), ...lesson.ranges.get(spec.name).map(formatNumber)].join(':'));
  return words.length ? words.join(' ') : null;
}

/** The preview's camera as `camera`'s text: yaw and pitch in degrees, and the zoom. */
function cameraValue() {
  const camera = preview.view?.camera() ?? preview.gl.camera;
  if (!camera) return null;
  const degrees = (radians) => formatNumber(Math.round((radians * 1800) / Math.PI) / 10);
  return `${degrees(camera[0])} ${degrees(camera[1])} ${formatNumber(Math.round(camera[2] * 1000) / 1000)}`;
}

/** Locks, ranges and which controls show, onto the preview (its panel is rebuilt on a change). */
function applyControls() {
  setAttr('controls', controlsValue());
  setAttr('locked', lockedValue());
  setAttr('ranges', rangesValue());
}

/**
 * The lesson as [attribute, value] pairs (value '' for a bare attribute), in the order the
 * snippet shows them: the seed and the settings, the controls, the view, the words, the moment.
 */
/** The seed and settings the preview has now, as text: a moment is of these settings. */
function settingsKey() {
  return new URLSearchParams(lessonAttributes().filter(([name]) => SETTING_NAMES.has(name))).toString();
}

function lessonAttributes() {
  if (!preview.flock) return [];
  const query = new URL(preview.shareUrl()).searchParams;
  const out = [];
  const take = (name, key = name) => {
    if (query.has(key)) out.push([name, query.get(key)]);
  };
  take('seed');
  for (const spec of SPECS) if (spec !== SEED) take(kebab(spec.name), spec.name);
  for (const [name, value] of [['controls', controlsValue()], ['locked', lockedValue()], ['ranges', rangesValue()]]) {
    if (value) out.push([name, value]);
  }
  if (lesson.camera) {
    const camera = cameraValue();
    if (camera) out.push(['camera', camera]);
  }
  take('inspect');
  if (query.has('trails')) out.push(['trails', '']);
  if (query.has('cells')) out.push(['cells', '']);
  take('colour-by');
  take('shape');
  take('time-scale');
  for (const name of ['plot', 'readout']) if (preview.hasAttribute(name)) out.push([name, '']);
  if (lesson.paused) out.push(['paused', '']);
  take('contrast');
  take('open');
  take('lang');
  for (const name of PROMPT_ATTRIBUTES) {
    const text = preview.getAttribute(name);
    if (text?.trim()) out.push([name, text]);
  }
  if (lesson.moment) out.push(['state', lesson.moment.state]);
  return out;
}

// ---- the outputs --------------------------------------------------------------------------------

function renderOutputs() {
  if (!ui) return;
  const attributes = lessonAttributes();
  const box = preview.getBoundingClientRect();
  const title = preview.getAttribute('lesson-title')?.trim() || w('frameTitle');
  const texts = {
    snippet: snippetOf(attributes, SCRIPT_SRC),
    iframe: iframeOf(attributes, { embedUrl: EMBED_URL, width: box.width, height: box.height, title }),
    // The full page shows every control and its readout unless told: the link says so.
    link: urlOf(PAGE_URL, [
      ...attributes,
      ...(attributes.some(([name]) => name === 'controls') ? [] : [['controls', 'none']]),
      ...(attributes.some(([name]) => name === 'readout') ? [] : [['readout', '0']]),
    ]),
  };
  for (const [name, text] of Object.entries(texts)) {
    const output = ui.outputs[name];
    if (output.text.value === text) continue;
    output.text.value = text;
    output.status.textContent = ''; // "Copied" was about the text before
  }
  ui.outputs.open.href = texts.link;
}

async function copy(name) {
  const { text, status } = ui.outputs[name];
  renderOutputs(); // the latest, even if a change is still on its way
  status.textContent = '';
  try {
    await navigator.clipboard.writeText(text.value);
    status.textContent = w('copied');
  } catch {
    // No clipboard here (an insecure origin, a refused permission): the text, selected.
    text.focus();
    text.select();
    status.textContent = w('copyManual');
  }
}

/** Makes the lesson's file of `kind` (studio-export.js) and hands it to the browser. */
async function download(kind) {
  const { buttons, status } = ui.downloads;
  const attributes = lessonAttributes();
  const lesson = {
    attributes,
    elementHtml: elementOf(attributes),
    title: preview.getAttribute('lesson-title')?.trim() || w('frameTitle'),
    lang: attributes.find(([name]) => name === 'lang')?.[1] ?? 'en',
  };
  for (const button of Object.values(buttons)) button.disabled = true;
  status.textContent = w('downloadMaking');
  try {
    const { blob, name } = await makeDownload(kind, lesson);
    saveBlob(blob, name);
    status.textContent = w('downloadDone', { name, size: sizeText(blob.size, lang) });
  } catch (error) {
    console.error(error);
    status.textContent = w('downloadFailed', { why: error.message });
  } finally {
    for (const button of Object.values(buttons)) button.disabled = false;
  }
}

/** The link, as a QR code in a dialog (www/core/qr-dialog.js, imported on the first press). */
async function showQr() {
  renderOutputs(); // the latest, as copy() does
  const { showQr: show } = await import('./core/qr-dialog.js');
  const words = { title: w('qrTitle'), close: w('qrClose'), code: w('qrButton'), tooLong: w('qrTooLong') };
  show({ link: ui.outputs.link.text.value, words, parent: document.body, opener: ui.outputs.qr });
}

// ---- the form -----------------------------------------------------------------------------------

const handlers = {
  start: {
    preset(preset) {
      // As the preview's own preset button: the preset's values, the flock flying on.
      setAttr('preset', null);
      preview.setAttribute('preset', preset.name);
      refresh();
    },
    seed(raw) {
      const value = Number(raw);
      if (!Number.isInteger(value) || value < SEED.min || value > SEED.max) return;
      preview.setAttribute('seed', String(value));
      restart();
    },
    newSeed() {
      const value = crypto.getRandomValues(new Uint32Array(1))[0] % (SEED.max + 1);
      preview.setAttribute('seed', String(value));
      restart();
    },
    async takeMoment() {
      // Held still: the preview shows the moment the students will start from.
      preview.paused = true;
      lesson.moment = await momentOf();
      lesson.dropped = false;
      refresh();
    },
    clearMoment() {
      lesson.moment = null;
      lesson.dropped = false;
      refresh();
    },
  },
  params: {
    value(spec, raw) {
      const text = String(raw).trim();
      if (spec.kind !== 'toggle' && (text === '' || !Number.isFinite(Number(text)))) return;
      preview.setAttribute(kebab(spec.name), text);
      refresh();
    },
    show(spec, on) {
      if (on) lesson.shown.add(spec.name);
      else lesson.shown.delete(spec.name);
      applyControls();
      refresh();
    },
    lock(spec, on) {
      if (on) lesson.locked.add(spec.name);
      else lesson.locked.delete(spec.name);
      applyControls();
      refresh();
    },
    range(spec, fromRaw, toRaw) {
      const row = ui.params.rows.get(spec.name);
      const blank = fromRaw.trim() === '' && toRaw.trim() === '';
      const from = fromRaw.trim() === '' ? spec.min : Number(fromRaw);
      const to = toRaw.trim() === '' ? spec.max : Number(toRaw);
      const whole = spec.kind !== 'integer' || (Number.isInteger(from) && Number.isInteger(to));
      const valid = blank || (whole && from >= spec.min && to <= spec.max && from < to);
      row.error.hidden = valid;
      for (const input of [row.from, row.to]) {
        input.setAttribute('aria-invalid', String(!valid));
        if (valid) input.removeAttribute('aria-describedby');
        else input.setAttribute('aria-describedby', row.error.id);
      }
      if (valid && !blank) lesson.ranges.set(spec.name, [from, to]);
      else lesson.ranges.delete(spec.name);
      applyControls();
      refresh();
    },
    tool(name, on) {
      if (on) lesson.shown.add(name);
      else lesson.shown.delete(name);
      applyControls();
      refresh();
    },
  },
  view(name, value) {
    if (name === 'camera') lesson.camera = value;
    else if (name === 'paused') lesson.paused = value;
    else if (name === 'inspect') {
      if (value) preview.setAttribute('inspect', 'on');
      else {
        setAttr('inspect', null);
        preview.select(null);
      }
    } else if (name === 'trails') setAttr('trails', value ? '' : null);
    else if (name === 'cells') setAttr('cells', value ? '' : null);
    else if (name === 'plot') setAttr('plot', value ? '' : null);
    else if (name === 'readout') setAttr('readout', value ? '' : null);
    else if (name === 'colour') setAttr('colour-by', value);
    else if (name === 'shape') setAttr('shape', value === 'cone' ? null : value);
    else if (name === 'timeScale') {
      const scale = Number(value);
      if (value.trim() !== '' && scale >= TIME_SCALE.min && scale <= TIME_SCALE.max) setAttr('time-scale', value.trim());
    } else if (name === 'contrast') setAttr('contrast', value || null);
    else if (name === 'lang') setAttr('lang', value || null);
    refresh();
  },
  prompt(name, text) {
    setAttr(name, text.trim() ? text : null);
    refresh();
  },
};

/**
 * The students' start in the preview: a new <boids-flock> made from the very attributes the
 * outputs carry, in place of the old one. Not the element's Rebuild: a new element is what a
 * student's page makes, whatever a flock keeps across a rebuild (its step count, which the
 * noise's random turns are drawn by, does: issue 28's report).
 */
function restart() {
  const fresh = document.createElement('boids-flock');
  fresh.id = 'preview';
  for (const [name, value] of lessonAttributes()) fresh.setAttribute(name, value);
  resizer.unobserve(preview);
  preview.replaceWith(fresh);
  preview = fresh;
  watchPreview();
  refresh();
}

/** The preview's changes reach the form and the outputs; its size, the iframe's. */
const resizer = new ResizeObserver(() => refresh());
function watchPreview() {
  for (const type of PREVIEW_EVENTS) preview.addEventListener(type, refresh);
  resizer.observe(preview);
}

function buildForm() {
  const text = texts(lang);
  const start = buildStart({ w, text, presets: BoidsFlock.presets, seedSpec: SEED, on: handlers.start });
  const params = buildParams({
    w,
    text,
    specs: SPECS.filter((spec) => spec !== SEED),
    groups: GROUPS,
    basics: BASICS,
    tools: TOOLS,
    on: handlers.params,
  });
  const view = buildView({
    w,
    text,
    colourModes: COLOUR_MODES.map((mode) => [mode, MODE_TEXT[mode]]),
    shapes: SHAPES.map((shape) => [shape, SHAPE_TEXT[shape]]),
    langs: LANGS,
    langNames: LANG_NAMES,
    timeScale: TIME_SCALE,
    on: handlers.view,
  });
  const prompts = buildPrompts({ w, on: handlers.prompt });
  const cdn = `https://cdn.jsdelivr.net/npm/boids-flock@${BoidsFlock.version ?? '0.1.0'}/www/boids-embed.js`;
  const { parts, outputs } = buildOutputs({ w, cdn, on: { copy, qr: showQr } });
  const form = document.getElementById('lesson');
  form.replaceChildren(form.querySelector('h2'), start.element, prompts.element, params.element, view.element);
  const outputsBox = document.querySelector('.studio-outputs');
  const downloads = buildDownloads({ w, on: { download } });
  outputsBox.replaceChildren(outputsBox.querySelector('h2'), ...parts, downloads.element);
  const restartButton = document.createElement('button');
  restartButton.type = 'button';
  restartButton.id = 'studio-restart';
  restartButton.className = 'studio-restart';
  restartButton.textContent = w('restart');
  restartButton.title = w('restartTitle');
  restartButton.addEventListener('click', restart);
  document.getElementById('preview-actions').replaceChildren(restartButton);
  ui = { start, params, view, prompts, outputs, downloads };
}

/** What the start's moment line says. */
function momentStatus(moments) {
  if (!moments) return w('momentUnsupported');
  if (!lesson.moment) return w(lesson.dropped ? 'momentDropped' : 'momentNone');
  const { state, steps, count } = lesson.moment;
  const long = state.length > MOMENT_LONG ? ` ${w('momentLarge', { k: Math.round(state.length / 1000) })}` : '';
  return `${w('momentTaken', { s: steps, n: count })}${long}`;
}

/** The form as the preview and the lesson have it now (a field being typed in is left alone). */
function syncForm() {
  if (!ui || !preview.flock) return;
  const busy = (input) => input === document.activeElement;
  const put = (input, value) => {
    if (!busy(input) && input.value !== value) input.value = value;
  };
  const query = new URL(preview.shareUrl()).searchParams;
  put(ui.start.seed, query.get('seed') ?? '');
  const moments = supportsMoments();
  // A moment is of the settings it was taken with: a change of them lets it go (a student
  // would get the moment's settings, not these), and the status says so.
  if (lesson.moment && lesson.moment.settings !== settingsKey()) {
    lesson.moment = null;
    lesson.dropped = true;
  }
  ui.start.take.disabled = !moments;
  ui.start.clear.hidden = !lesson.moment;
  const status = momentStatus(moments);
  if (ui.start.status.textContent !== status) ui.start.status.textContent = status;
  for (const [name, row] of ui.params.rows) {
    const spec = SPECS.find((s) => s.name === name);
    row.show.checked = lesson.shown.has(name);
    if (!spec) continue; // a tool: Show only
    const value = readParam(preview.flock, spec);
    if (spec.kind === 'toggle') row.value.checked = value >= 0.5;
    else put(row.value, formatNumber(value));
    const shown = lesson.shown.has(name);
    row.lock.disabled = !shown;
    row.lock.checked = shown && lesson.locked.has(name);
    if (row.from) {
      row.from.disabled = row.to.disabled = !shown || lesson.locked.has(name);
      const range = lesson.ranges.get(name);
      if (range && !busy(row.from) && !busy(row.to)) {
        put(row.from, formatNumber(range[0]));
        put(row.to, formatNumber(range[1]));
      }
    }
  }
  const view = ui.view.fields;
  const selected = preview.selectedId;
  view.inspect.checked = selected != null;
  view.inspectHint.textContent = selected != null ? w('inspectWhich', { id: selected }) : w('inspectNone');
  view.camera.checked = lesson.camera;
  view.paused.checked = lesson.paused;
  view.trails.checked = query.has('trails');
  view.cells.checked = query.has('cells');
  view.plot.checked = preview.hasAttribute('plot');
  view.readout.checked = preview.hasAttribute('readout');
  put(view.colour, query.get('colour-by') ?? 'heading');
  put(view.shape, query.get('shape') ?? 'cone');
  put(view.timeScale, query.get('time-scale') ?? String(TIME_SCALE.default));
  put(view.contrast, preview.getAttribute('contrast') ?? '');
  put(view.lang, preview.getAttribute('lang') ?? '');
  for (const name of PROMPT_ATTRIBUTES) put(ui.prompts.fields[name], preview.getAttribute(name) ?? '');
}

let pending = false;
/** The form and the outputs again, once, after the changes of this turn. */
function refresh() {
  if (pending) return;
  pending = true;
  setTimeout(() => {
    pending = false;
    syncForm();
    renderOutputs();
  });
}

async function setLanguage(code) {
  await Promise.all([loadLang(code), loadStudioWords(code)]);
  lang = code;
  document.documentElement.lang = code;
  document.title = w('pageTitle');
  for (const node of document.querySelectorAll('[data-s]')) node.textContent = w(node.dataset.s);
  document.getElementById('studio-lang').value = code;
  // Without a language of its own the preview speaks the page's, as a student's page would.
  if (!preview.hasAttribute('lang')) {
    preview.setAttribute('lang', code);
    preview.removeAttribute('lang');
  }
  const url = new URL(location.href);
  url.searchParams.set('lang', code);
  history.replaceState(history.state, '', url);
  buildForm();
  syncForm();
  renderOutputs();
}

async function main() {
  const picker = document.getElementById('studio-lang');
  for (const code of LANGS) {
    const option = document.createElement('option');
    option.value = code;
    option.lang = code;
    option.textContent = LANG_NAMES[code];
    picker.append(option);
  }
  picker.addEventListener('change', () => setLanguage(picker.value));
  watchPreview();
  // The camera glides and the keys move it: the outputs are written again every second too.
  setInterval(renderOutputs, 1000);
  const wanted = new URLSearchParams(location.search).get('lang');
  await setLanguage(pickLang([wanted, ...(navigator.languages ?? [navigator.language])]));
  document.documentElement.dataset.studio = 'ready';
}

main();
