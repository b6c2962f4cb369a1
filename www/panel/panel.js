// The element's DOM: the stage (canvas, readouts, legend, hints, covers) and the panel,
// built from the parameter table, the `controls` option and the language, and rebuilt when
// one of them changes. Simple first: the three rules, the perception radius, Count and the
// presets show at once, with "How it works" beside them; everything else sits in labelled
// groups (<details>) that open on demand and are remembered in the URL (`open`, url-sync.js).
// `Panel` is the part: it owns the DOM it builds (`ui`), the controls' refresh, the tools
// offered (`features`) and the hints; what it asks of the element is listed at its constructor.
// Long because the stage and the panel are built in one pass (a new language or `controls`
// rebuilds both); the sliders (controls.js), presets and tools (tools.js), explanation and
// legend are apart already.

import { PRESETS, SPECS, errorText } from '../core/wasm-load.js';
import { buildControls } from './controls.js';
import { buildKeysHelp } from './keys.js';
import { buildLegend } from './legend.js';
import { isOn, parseControls } from '../core/settings.js';
import { attachPredator, buildKeep, buildPresets, buildScene } from './tools.js';
import { button, element, isTouch } from '../core/dom.js';
import { NAMES, warn } from '../lesson/url-sync.js';
import { wake } from '../core/loop.js';

/** What shows first, outside any group: the three rules, the perception radius, Count. */
export const BASICS = ['count', 'separation', 'alignment', 'cohesion', 'perception'];

/**
 * The groups, in order: [name (in `open` and data-group), its title's text key, parameters].
 * A parameter the table has and no group names goes to "world"; "scene" also holds the
 * pointer and obstacle tools; "look" holds the instruments (an inspector, a colour-by
 * choice, trails, a time scale, a plot) that other modules add through `panelSlot('look')`,
 * and stays hidden while empty; "experiment" is filled by experiment-panel.js, imported when
 * the group is first opened (so the page downloads none of it at load).
 */
export const GROUPS = [
  ['hawks', 'groupHawks', ['predators', 'predatorSpeed', 'fleeRadius']],
  ['scene', 'groupScene', ['pointerStrength']],
  ['leaders', 'groupLeaders', ['leaders', 'leaderWeight']],
  ['wind', 'groupWind', ['windStrength', 'windHeading', 'windElevation']],
  ['species', 'groupSpecies', ['speciesCount', 'topological', 'nearestK']],
  ['swarm', 'groupSwarm', ['delay', 'messageLoss', 'failures', 'failureMode', 'roles']],
  ['sight', 'groupSight', ['fieldOfView', 'separationRadius', 'alignmentRadius']],
  ['world', 'groupWorld', ['speed', 'noise', 'maxForce', 'flat', 'wrap', 'sky', 'homeRange', 'worldSize']],
  ['look', 'groupLook', []],
  ['experiment', 'groupExperiment', []],
];

/** More sliders than this in a compact embed: grouped like the full page's. */
const FLAT_LIMIT = 6;

export class Panel {
  /**
   * `host`, the element, for: its flock, View, canvas and state (`flock`, `view`, `canvas`,
   * `state`, `paused`, `paused_`, `playedOnce`, `step`, `rebuild`, `coverReason`), its
   * options, words and ids (`option`, `getAttribute`, `layout`, `isPage`, `uid`, `text`,
   * `lang_`, `language`), its own box (`classList`, `replaceChildren`, `dispatchEvent`,
   * `emit`), and the parts the panel shows or drives (`settings`, `locks`, `paramWatch`,
   * `contrast`, `instruments`, `sceneTools`, `gl`, `changed`, `scheduleUrl`; `keeping` and
   * `keeper` for Record and Picture).
   */
  constructor(host) {
    this.host = host;
    /** The DOM the panel built: stage, readouts, controls, groups, cover (rebuilt by buildUi). */
    this.ui = null;
    /** Re-reads every control from the flock (null before the controls exist). */
    this.syncControls = null;
    /** The tools `controls` asks for ("presets", "obstacles", "pointer"). */
    this.features = new Set();
    /** The message shown over the stage: [title, detail], or null. */
    this.message = null;
  }

  /** The presets' pressed state and the scene's tools, after any change of settings. */
  syncTools() {
    if (!this.host.flock) return;
    this.ui?.presets?.sync();
    this.ui?.scene?.sync();
    this.ui?.predator?.();
    this.showLegend();
  }

  /** A student moved a control: kept within the lesson's ranges, and told as the user's (events.js). */
  byUser() {
    this.host.locks.clamp(this.host.flock);
    this.host.paramWatch.note('user');
  }

  /** Element ids: the page's instance keeps the fixed ids of the page contract. */
  idFor(name) {
    return this.host.isPage ? name : `${this.host.uid}-${name}`;
  }

  /** The parameters and tools `controls` asks for; the full page's "all" has every parameter. */
  chosenControls(full) {
    const raw = this.host.option('controls') ?? (full ? 'all' : null);
    const chosen = parseControls(raw, SPECS, NAMES.resolve, warn);
    const all = ['all', '1', 'true', 'on', 'yes'].includes(String(raw ?? '').trim().toLowerCase());
    // On the full page the groups have room for the parameters without a slider of their own
    // elsewhere (max force, the world's size and edges, the wind's elevation).
    if (full && all) chosen.specs = SPECS.filter((spec) => spec.name !== 'seed');
    return chosen;
  }

  buildUi() {
    const t = this.host.text.ui;
    const full = this.host.layout === 'full';
    const touch = isTouch();
    const chosen = this.chosenControls(full);
    const features = chosen.features;
    const specs = chosen.specs.map((spec) => this.host.locks.narrowed(spec)); // a lesson's `ranges` (locks.js)
    this.features = features;
    const readout = this.host.option('readout') != null ? isOn(this.host.option('readout')) : full;
    const share = this.host.option('share') != null ? isOn(this.host.option('share')) : full;
    const record = this.host.option('record') == null || isOn(this.host.option('record')); // record="0" hides
    const explain = isOn(this.host.getAttribute('explain'));
    const ui = (this.ui = {});
    this.syncControls = null;

    this.host.classList.add('bf');
    this.host.classList.toggle('bf-full', full);
    this.host.classList.toggle('bf-compact', !full);
    const canvasLabel = [t('canvas')];
    if (features.has('obstacles')) canvasLabel.push(t(touch ? 'canvasObstaclesTouch' : 'canvasObstacles'));
    if (features.has('pointer')) canvasLabel.push(t(touch ? 'canvasPointerTouch' : 'canvasPointer'));
    canvasLabel.push(t('canvasInspect'));
    this.host.canvas.setAttribute('aria-label', canvasLabel.join(' '));
    this.host.canvas.classList.toggle('bf-pointing', features.has('pointer') && this.host.sceneTools.pointerMode !== 'off');

    const stage = this.buildStage({ full, touch, readout, features });

    const pause = button('bf-pause', t('pause'), () => {
      this.host.paused = !this.host.paused;
    });
    pause.id = this.idFor('pause');
    pause.title = t('pauseTitle');
    const rebuild = button('bf-rebuild', t('rebuild'), () => this.host.rebuild());
    rebuild.id = this.idFor('rebuild');
    rebuild.title = t('rebuildTitle');
    ui.pause = pause;
    ui.keysHelp = buildKeysHelp({ text: this.host.text, id: this.idFor('keys-help') });
    const keys = button('bf-keys', full ? t('keys') : '?', () => this.showKeys());
    keys.id = this.idFor('keys');
    keys.setAttribute('aria-haspopup', 'dialog');
    if (!full) keys.setAttribute('aria-label', t('keysTitle'));
    keys.title = `${t('keysTitle')} (?)`;
    // The projector look (contrast.js): the full page's toggle, pressed while it shows; a
    // half-filled circle after Pause, Step and Rebuild (no row of its own: the first screen
    // keeps its sliders), named in words for screen readers.
    if (full) {
      ui.contrast = button('bf-contrast-toggle', '◐', () => this.host.contrast.toggle());
      ui.contrast.id = this.idFor('contrast');
      ui.contrast.setAttribute('aria-label', t('contrast'));
      ui.contrast.title = `${t('contrast')}: ${t('contrastTitle')}`;
    }

    const shareBox = share ? this.buildShare() : null;
    // Record and Picture (tools.js): what makes them loads on the first press (instruments/recorder.js).
    const keep = record
      ? buildKeep({
          text: this.host.text,
          id: (name) => this.idFor(name),
          onPress: (kind) => this.host.keeping().then((keeper) => keeper.press(kind), (error) => console.warn(`<boids-flock>: the recorder did not load (${error})`)),
        })
      : null;
    if (keep) [ui.record, ui.picture, ui.keepSaid] = keep;
    const { form, sync: syncSliders } = this.buildForm({ specs, features, full, touch });
    this.syncControls = this.host.flock
      ? () => {
          syncSliders?.();
          this.syncTools();
        }
      : null;

    // Empty until it first opens (fillExplanation): its script and words load on demand.
    const explanation = explain ? element('section', 'bf-explain') : null;
    let how = null;
    if (explanation) {
      explanation.id = this.idFor('explain');
      explanation.tabIndex = 0; // it scrolls on its own: the keyboard must be able to scroll it
      how = button('bf-how', t('howItWorks'), () => this.showExplanation(explanation.hidden));
      how.id = this.idFor('how');
      how.setAttribute('aria-controls', explanation.id);
      ui.how = how;
      ui.explanation = explanation;
    }

    const parts = [];
    if (full) {
      const wrap = element('section', 'bf-stage-wrap');
      wrap.setAttribute('aria-label', t('simulation'));
      wrap.append(stage);
      const panel = element('aside', 'bf-panel');
      panel.setAttribute('aria-label', t('panel'));
      const step = button('bf-step', t('step'), () => this.host.step());
      step.id = this.idFor('step');
      step.title = t('stepTitle');
      const buttons = element('div', 'bf-buttons');
      buttons.append(pause, step, rebuild, ui.contrast);
      const help = element('div', 'bf-helpbar');
      if (how) help.append(how);
      help.append(keys);
      // The QR code as a glyph after Copy link: as a word it took a row of its own and pushed
      // Perception off a 1280×800 screen (boids-panel.css). The two wrap as one, so the code
      // never sits on a row away from its link (Polish at 1280 px did).
      if (shareBox) {
        const link = element('span', 'bf-helpbar-link');
        link.append(shareBox.copy, shareBox.qr);
        help.append(link);
      }
      panel.append(buttons, help);
      // Record and Picture under the stage, not in the panel (as a row of their own they pushed
      // Perception off a 1280×800 screen): the rewind's bar takes them at its end
      // (lesson/timeline.js), else they sit there alone. On a phone they stay in view with the stage.
      if (keep) {
        ui.keep = element('div', 'bf-keep');
        ui.keep.append(...keep);
        wrap.append(ui.keep);
      }
      if (shareBox) panel.append(shareBox.box);
      if (ui.presets) panel.append(ui.presets.element);
      if (form) panel.append(form);
      // The explanation opens beside the sliders (its own column on a wide screen, over the
      // stage's side on a middling one, between stage and panel on a phone).
      parts.push(wrap, ...(explanation ? [explanation] : []), panel);
    } else {
      const toolbar = element('div', 'bf-toolbar');
      toolbar.append(pause, rebuild, ...(keep ?? []), keys);
      stage.append(toolbar);
      parts.push(stage);
      const hasForm = form && form.childElementCount > 0;
      if (shareBox || ui.presets || hasForm || explanation) {
        const panel = element('div', 'bf-panel');
        if (shareBox) panel.append(shareBox.copy, shareBox.qr, shareBox.box);
        if (how) panel.append(how);
        if (explanation) panel.append(explanation);
        if (ui.presets) panel.append(ui.presets.element);
        if (hasForm) panel.append(form);
        parts.push(panel);
      }
    }
    parts.push(ui.keysHelp.dialog);
    this.host.replaceChildren(...parts);
    this.ui.stage = stage;
    this.controlSpecs = specs;
    if (explanation) this.showExplanation(this.host.settings.openGroups().has('how'), { remember: false });
    if (this.message) this.showMessage(...this.message);
    this.showPaused();
    this.host.keeper?.show(); // a recording goes on in the new panel's button
    this.showCount();
    this.showCover();
    this.showLegend();
    this.host.instruments.build();
    this.host.contrast.apply();
    this.host.locks.show(this.host, this.host.text, this.ui?.presets?.element);
    // For modules that put controls into a group (panelSlot): the panel is new, add them again.
    this.host.dispatchEvent(new CustomEvent('boids-flock:panel'));
  }

  /** The stage: canvas, readouts, legend, hints, the pointer's mark, Play, the cover. */
  buildStage({ full, touch, readout, features }) {
    const t = this.host.text.ui;
    const ui = this.ui;
    const stage = element('div', 'bf-stage');
    stage.id = this.idFor('stage');
    stage.append(this.host.canvas);

    if (readout) {
      const list = element('dl', 'bf-readout');
      for (const [key, id] of [['fps', 'fps'], ['sim', 'sim-ms'], ['search', 'search-stats'], ['boids', 'boid-count']]) {
        const value = element('dd', null, '–');
        value.id = this.idFor(id);
        ui[key] = value;
        const pair = element('div');
        pair.append(element('dt', null, t(key)), value);
        list.append(pair);
      }
      stage.append(list);
    }

    ui.legend = buildLegend(this.host.text);
    stage.append(ui.legend.element);

    // On a touch screen the canvas takes every gesture (orbit, pinch); these strips along
    // its sides let a one-finger vertical swipe scroll the page instead (boids-flock.css
    // shows them only for a coarse pointer).
    for (const side of ['start', 'end']) {
      const edge = element('div', `bf-edge bf-edge-${side}`);
      edge.setAttribute('aria-hidden', 'true');
      stage.append(edge);
    }

    ui.mark = element('div', 'bf-pointer-mark');
    ui.mark.hidden = true;
    stage.append(ui.mark);

    if (full) {
      const hint = touch ? [t('hintTouch')] : [t('hint'), t('hintKeys')];
      if (features.has('obstacles')) hint.push(t(touch ? 'hintObstaclesTouch' : 'hintObstacles'));
      stage.append(element('p', `bf-hint${touch ? ' bf-hint-touch' : ''}`, hint.join(' · ')));
      ui.badge = element('span', 'bf-badge', t('paused'));
      stage.append(ui.badge);
    } else if (touch && !this.gesturesShown) {
      // A compact embed has no room to keep a hint, but on a touch screen nothing else says
      // what a finger does: the gestures once, until the first touch on the scene or for 8 s
      // from the first frame drawn (an embed further down the page is seen when scrolled to).
      const hint = element('p', 'bf-hint bf-hint-touch bf-hint-brief', t('hintTouch'));
      stage.append(hint);
      const gone = () => {
        hint.hidden = true;
        this.gesturesShown = true;
      };
      this.host.canvas.addEventListener('pointerdown', gone, { once: true });
      this.startHintTimer = () => setTimeout(gone, 8000);
      if (this.host.state === 'running') this.startHintTimer();
    }

    ui.play = button('bf-play', `▶ ${t('play')}`, () => {
      this.host.paused = false;
      this.host.canvas.focus({ preventScroll: true });
    });
    ui.play.tabIndex = -1; // the Pause/Play button does the same from the keyboard
    stage.append(ui.play);

    ui.cover = element('div', 'bf-cover');
    ui.cover.hidden = true;
    ui.coverText = element('p');
    ui.resume = element('button', 'bf-resume', t(touch ? 'resumeTouch' : 'resume'));
    ui.resume.type = 'button';
    // A click anywhere on the cover resumes; its button is the way in for the keyboard.
    ui.cover.addEventListener('click', () => this.host.gl.resume());
    ui.cover.append(ui.coverText, ui.resume);
    stage.append(ui.cover);
    return stage;
  }

  /** The Copy link button and, in its own box, what it says and the link itself. */
  buildShare() {
    const t = this.host.text.ui;
    const ui = this.ui;
    const box = element('div', 'bf-share');
    ui.copy = button('bf-copy', t('copyLink'), () => this.host.settings.copyLink());
    ui.copy.id = this.idFor('copy-link');
    ui.copy.title = t('copyLinkTitle');
    // The same link as a QR code for phones (issue 45): its module loads on the first press.
    ui.qr = button('bf-qr', t('qrButton'), () => this.showQr());
    ui.qr.id = this.idFor('qr');
    ui.qr.title = t('qrButtonTitle');
    ui.qr.setAttribute('aria-haspopup', 'dialog');
    ui.status = element('p', 'bf-share-status');
    ui.status.setAttribute('aria-live', 'polite');
    ui.field = element('input', 'bf-share-link');
    ui.field.id = this.idFor('share-link');
    ui.field.readOnly = true;
    ui.field.hidden = true;
    ui.field.setAttribute('aria-label', t('linkField'));
    box.append(ui.status, ui.field);
    return { box, copy: ui.copy, qr: ui.qr };
  }

  /** The link Copy link copies, as a QR code in a dialog (www/core/qr-dialog.js). */
  async showQr() {
    const t = this.host.text.ui;
    const link = this.host.settings.shareUrl();
    const { showQr } = await import('../core/qr-dialog.js');
    const words = { title: t('qrTitle'), close: t('close'), code: t('qrButton'), tooLong: t('qrTooLong') };
    showQr({ link, words, parent: this.host, opener: this.ui.qr });
  }

  /**
   * The form: presets (kept in `ui.presets`, placed by the caller), the basic sliders, then
   * the groups. Returns { form, sync } (sync re-reads every slider), form null when nothing
   * shows.
   */
  buildForm({ specs, features, full, touch }) {
    const t = this.host.text.ui;
    const ui = this.ui;
    const id = (name) => this.idFor(name);
    const flock = this.host.flock;
    if (!flock || (specs.length === 0 && !full && features.size === 0)) {
      if (!flock && (specs.length > 0 || full)) {
        const form = element('form', 'bf-controls');
        form.id = this.idFor('controls');
        form.setAttribute('aria-label', t('controls'));
        return { form, sync: null };
      }
      return { form: null, sync: null };
    }

    if (features.has('presets') && PRESETS.length > 0) {
      ui.presets = buildPresets({
        presets: PRESETS,
        id,
        text: this.host.text,
        getFlock: () => this.host.flock,
        onApply: (preset) => {
          this.host.locks.keep(this.host.flock, () => this.host.settings.applyPreset(preset));
          this.host.emit('boids-preset', { name: preset.name, source: 'user' });
          this.host.paramWatch.note('user');
          this.host.changed();
        },
      });
    }

    const form = element('form', 'bf-controls');
    form.id = this.idFor('controls');
    form.setAttribute('aria-label', t('controls'));
    form.addEventListener('submit', (event) => event.preventDefault());
    const grouped = full || specs.length > FLAT_LIMIT;
    form.classList.toggle('bf-grouped', grouped);
    const syncs = [];
    const options = {
      id,
      text: this.host.text,
      getFlock: () => this.host.flock,
      onChange: (spec) => {
        this.host.settings.explicit.add(spec.name);
        this.byUser();
        // One setting may move others (count the world's size while it follows the count;
        // the sky and wrap exclude each other): re-read every other control.
        syncs.forEach((fn) => fn.except(spec.name));
        this.showCount();
        this.syncTools();
        this.showLegend();
        this.host.scheduleUrl();
      },
    };
    const sliders = (container, list) => {
      if (list.length > 0) syncs.push(buildControls(container, list, options));
    };
    const predatorRow = (container) => {
      const row = container.querySelector('[data-param="predators"]');
      if (!row) return;
      ui.predator = attachPredator(row, {
          id,
          text: this.host.text,
          getFlock: () => this.host.flock,
          onChange: () => {
            this.host.settings.explicit.add('predators');
            this.byUser();
            this.host.changed();
            wake();
          },
        });
    };
    const sceneTools = (heading) => {
      if (!features.has('pointer') && !features.has('obstacles')) return null;
      ui.scene = buildScene({
        pointer: features.has('pointer'),
        obstacles: features.has('obstacles'),
        heading,
        touch,
        id,
        text: this.host.text,
        getFlock: () => this.host.flock,
        onChange: () => {
          this.syncTools();
          wake();
        },
        getMode: () => this.host.sceneTools.pointerMode,
        setMode: (mode) => this.host.sceneTools.setPointerMode(mode),
      });
      return ui.scene.element;
    };

    if (!grouped) {
      const tools = sceneTools(true);
      if (tools) form.append(tools);
      const grid = element('div', 'bf-sliders');
      sliders(grid, specs);
      predatorRow(grid);
      if (grid.childElementCount > 0) form.append(grid);
    } else {
      const chosen = new Set(specs.map((spec) => spec.name));
      const placed = new Set();
      const basics = element('div', 'bf-sliders bf-basics');
      sliders(basics, specs.filter((spec) => BASICS.includes(spec.name)));
      BASICS.forEach((name) => placed.add(name));
      form.append(basics);
      GROUPS.forEach(([, , names]) => names.forEach((name) => placed.add(name)));
      const rest = specs.filter((spec) => !placed.has(spec.name)).map((spec) => spec.name);
      ui.groups = {};
      // A link with an experiment (`?experiment=…`) opens its group, once.
      if (!this.experimentAsked) {
        this.experimentAsked = true;
        if (this.host.option('experiment')) this.host.settings.openGroups().add('experiment');
      }
      for (const [name, titleKey, names] of GROUPS) {
        const members = [...names, ...(name === 'world' ? rest : [])].filter((n) => chosen.has(n));
        const body = element('div', 'bf-group-body');
        if (name === 'scene') {
          const tools = sceneTools(false);
          if (tools) body.append(tools);
        }
        sliders(
          body,
          specs.filter((spec) => members.includes(spec.name)),
        );
        if (name === 'hawks') predatorRow(body);
        if (name !== 'look' && name !== 'experiment' && body.childElementCount === 0) continue;
        form.append(this.buildGroup(name, t(titleKey), body));
      }
    }
    const sync = () => syncs.forEach((fn) => fn());
    return { form, sync };
  }

  /** A labelled group that opens on demand; whether it is open goes to the URL. */
  buildGroup(name, title, body) {
    const group = element('details', 'bf-group');
    group.dataset.group = name;
    group.id = this.idFor(`group-${name}`);
    const summary = element('summary', 'bf-group-title', title);
    group.append(summary, body);
    group.open = this.host.settings.openGroups().has(name);
    group.addEventListener('toggle', () => {
      this.host.settings.setGroupOpen(name, group.open);
      if (name === 'experiment' && group.open) this.fillExperiment();
    });
    if (name === 'look') group.hidden = body.childElementCount === 0;
    this.ui.groups[name] = { element: group, body };
    if (name === 'experiment' && group.open) this.fillExperiment();
    return group;
  }

  /**
   * The Experiment group's content: experiment-panel.js (with experiment.js, phase-plot.js
   * and experiment.css), imported the first time the group opens, and built again into each
   * new panel while it is open.
   */
  async fillExperiment() {
    const group = this.ui?.groups?.experiment;
    if (!group || group.body.dataset.filled) return;
    group.body.dataset.filled = 'loading';
    group.body.setAttribute('aria-busy', 'true');
    try {
      const [{ buildExperiment }, { loadExperimentTexts }] = await Promise.all([
        import('../experiment/experiment-panel.js'),
        import('../i18n/experiment.js'),
      ]);
      await loadExperimentTexts(this.host.language);
      if (this.ui?.groups?.experiment !== group) return; // the panel was rebuilt meanwhile
      buildExperiment(this.host, group.body);
      group.body.dataset.filled = 'yes';
    } catch (error) {
      delete group.body.dataset.filled;
      console.error(error);
      group.body.replaceChildren(element('p', 'bf-param-hint', `${this.host.text.ui('expNotLoaded')} (${errorText(error)})`));
    } finally {
      group.body.removeAttribute('aria-busy');
    }
  }

  /**
   * Where other modules put their controls: the body of group `name` (e.g. "look" for an
   * inspector, a colour-by choice, trails, a time scale, a live plot), shown once it has
   * something in it. Null when this instance has no such group (a compact embed).
   * The panel is rebuilt when `controls`, `lang` or `open` change: add controls again on
   * each `boids-flock:panel` event (dispatched on the element after every build).
   */
  panelSlot(name) {
    const group = this.ui?.groups?.[name];
    if (!group) return null;
    group.element.hidden = false;
    return group.body;
  }

  /**
   * Shows or hides the explanation ("How it works"); remembered in the URL as `open=how`.
   * Resolves once it shows its words (the first opening fetches them and explain.js).
   */
  showExplanation(show, { remember = true } = {}) {
    const { how, explanation } = this.ui ?? {};
    if (!explanation) return Promise.resolve();
    explanation.hidden = !show;
    how.setAttribute('aria-expanded', String(show));
    this.host.classList.toggle('bf-explaining', show);
    if (remember) this.host.settings.setGroupOpen('how', show);
    if (!show) return Promise.resolve();
    const filled = this.fillExplanation(explanation);
    if (remember) filled.then(() => explanation.scrollIntoView({ block: 'nearest', behavior: 'smooth' }));
    return filled;
  }

  /** Fetches explain.js and the language's words into `section`, once per section. */
  fillExplanation(section) {
    if (!this.explanationFill || this.explanationFill.section !== section) {
      const text = this.host.text;
      section.setAttribute('aria-busy', 'true');
      const promise = Promise.all([import('./explain.js'), text.explain()]).then(
        ([{ fillExplanation }, explain]) => {
          fillExplanation(section, { text, explain, specs: SPECS });
          section.removeAttribute('aria-busy');
          section.dataset.filled = 'yes'; // for a test waiting on it, as the Experiment group's
        },
        (error) => {
          section.removeAttribute('aria-busy');
          section.replaceChildren(element('p', 'bf-explain-error', this.host.text.ui('explainFailed')));
          console.warn(`<boids-flock>: the explanation did not load (${error})`);
          this.explanationFill = null; // opening it again tries again
        },
      );
      this.explanationFill = { section, promise };
    }
    return this.explanationFill.promise;
  }

  showKeys() {
    this.ui?.keysHelp?.open();
  }

  showMessage(title, detail) {
    this.message = [title, detail];
    const stage = this.ui?.stage;
    if (!stage) return;
    let box = stage.querySelector('.bf-message');
    if (!box) {
      box = element('div', 'bf-message');
      box.id = this.idFor('message');
      box.setAttribute('role', 'alert');
      stage.append(box);
    }
    box.replaceChildren(element('strong', null, title), element('p', null, detail));
  }

  showPaused() {
    const { pause, badge, play } = this.ui ?? {};
    if (!pause) return;
    const paused = Boolean(this.host.paused_);
    pause.textContent = this.host.text.ui(paused ? 'play' : 'pause');
    pause.setAttribute('aria-pressed', String(paused));
    if (badge) badge.hidden = !paused;
    const working = this.host.state !== 'error' && this.host.state !== 'no-webgl';
    play.hidden = !(paused && working && (this.host.layout === 'compact' || !this.host.playedOnce));
    this.host.classList.toggle('bf-paused', paused);
  }

  showCount() {
    if (this.ui?.boids && this.host.flock) this.ui.boids.textContent = new Intl.NumberFormat(this.host.lang_).format(this.host.flock.count());
  }

  /** The legend follows the colour mode (the View's, when it has one; else by species count). */
  showLegend() {
    const legend = this.ui?.legend;
    if (!legend || !this.host.flock) return;
    let mode = null;
    try {
      mode = this.host.instruments.colourBy ?? null;
    } catch {
      mode = null;
    }
    const species = typeof this.host.flock.speciesCount === 'function' ? this.host.flock.speciesCount() : 1;
    let palette = null;
    try {
      palette = this.host.view?.legend() ?? null;
    } catch {
      palette = null;
    }
    legend.show(mode ?? (species > 1 ? 'species' : 'heading'), { species, palette });
  }

  /** The "click to resume" cover: shown while this instance has no context but should. */
  showCover() {
    const { cover, coverText } = this.ui ?? {};
    if (!cover) return;
    const reason = this.host.coverReason;
    cover.hidden = !reason;
    if (reason) coverText.textContent = this.host.text.ui(reason);
  }
}
