// Settings in and out: attributes and the URL into the flock (names and values checked,
// never evaluated), the language, and the link that gives them back (the address bar with
// url="sync", the Copy link button). Also which panel groups are open (`open`), so a shared
// link opens the same groups. `Settings` is the part: it owns the URL it reads, which values
// were set on purpose, the open groups, the language chosen and the address bar's timer;
// what it asks of the element is listed at its constructor.

import { Flock, PRESETS, SPECS } from '../core/wasm-load.js';
import { langOf, loadLang, texts } from '../i18n/texts.js';
import { readParam, writeParam, formatNumber, paramNames } from '../core/settings.js';

/** Settings changes reach the address bar this long after the last one, ms. */
const URL_DELAY = 250;
/** The full page, where a shared link opens. */
const FULL_PAGE = new URL('../../', import.meta.url).href;

export const NAMES = paramNames(SPECS);
const COUNT = SPECS.find((spec) => spec.name === 'count');
const SEED = SPECS.find((spec) => spec.name === 'seed');

export function warn(message) {
  console.warn(`<boids-flock>: ${message}`);
}

/** A value as it may appear in a message: quoted, short, never interpreted. */
export function quote(raw) {
  const text = String(raw);
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

export class Settings {
  /**
   * `host`, the element, for: its attributes (`getAttribute`, `attributes`, `isPage`), its
   * flock (`flock`, set by `createFlock`; `watch` makes its handle), the lesson's ranges
   * (`locks`), the panel it rebuilds or refreshes (`buildUi`, `syncControls`, `showCount`,
   * `ui` for the Copy link button), and the parts that add to a link (`contrast`,
   * `instruments`).
   */
  constructor(host) {
    this.host = host;
    this.urlMode = null;
    this.url = new URLSearchParams();
    /** The parameters set on purpose (an attribute, a preset, a slider): kept in links. */
    this.explicit = new Set();
    this.openSet = null;
    this.urlTimer = null;
    this.langExplicit = false;
    this.lang = 'en';
    this.text = texts('en');
  }

  /** Reads `url` (once, at set-up): "read" and "sync" take settings from this document's URL. */
  setup() {
    const urlMode = this.host.getAttribute('url');
    this.urlMode = urlMode === 'sync' || urlMode === 'read' ? urlMode : null;
    this.url = this.urlMode ? new URLSearchParams(location.search) : new URLSearchParams();
    this.explicit = new Set();
    this.openSet = null;
  }

  /** Stops the address bar's pending write (the element leaves the page). */
  stop() {
    clearTimeout(this.urlTimer);
  }

  /** An option's raw value: the URL (url mode) over the attribute; for `lang` the other way round. */
  option(name) {
    const fromUrl = this.url.has(name) ? this.url.get(name) : null;
    const fromAttribute = this.host.getAttribute(name);
    return name === 'lang' ? (fromAttribute ?? fromUrl) : (fromUrl ?? fromAttribute);
  }

  /** Settings from attributes, then the URL: name → [raw, where]. */
  collectSettings() {
    const settings = new Map();
    const take = (key, raw, where) => {
      const found = NAMES.resolve(key);
      if (found?.missing) warn(`${where}: this build has no "${found.missing}" parameter; ignored`);
      else if (found) settings.set(found.spec.name, [found, raw, where]);
    };
    for (const { name, value } of this.host.attributes) take(name, value, `${name}=${quote(value)}`);
    for (const [key, value] of this.url) take(key, value, `?${key}=${quote(value)}`);
    return settings;
  }

  /** Parses and sets one setting; a value that is not a number or known word changes nothing. */
  apply(found, raw, where) {
    const { spec } = found;
    const value = found.parse(raw);
    if (value === undefined) {
      const current = formatNumber(readParam(this.host.flock, spec));
      const expected = spec.kind === 'toggle' ? 'on/off, 1/0 or true/false' : `a number from ${spec.min} to ${spec.max}`;
      warn(`${where} is not a valid ${spec.name} (${expected}); keeping ${current}`);
      return false;
    }
    this.warnClamped(where, spec, value, writeParam(this.host.flock, spec, value));
    this.explicit.add(spec.name);
    return true;
  }

  /** The console warning for a setting the flock clamped into its parameter's range. */
  warnClamped(where, spec, value, applied) {
    if (spec.kind !== 'toggle' && Math.abs(applied - value) > spec.step / 2) {
      warn(`${where}: ${spec.name} runs from ${spec.min} to ${spec.max}; using ${formatNumber(applied)}`);
    }
  }

  /** Sets every value of `preset` (one of `PRESETS`), each as set on purpose. */
  applyPreset(preset) {
    this.host.flock.applyPreset(preset.name);
    for (const name of Object.keys(preset.values)) this.explicit.add(name);
  }

  /**
   * Applies the preset named `raw` (any case: "fishball" is the fish ball), as its button
   * does, and returns it; one that is not a preset's name changes nothing, gets a warning and
   * returns null.
   */
  applyPresetSetting(raw, where) {
    const wanted = String(raw).trim().toLowerCase();
    const preset = PRESETS.find((p) => p.name.toLowerCase() === wanted);
    if (!preset) {
      warn(`${where} is not a preset (${PRESETS.map((p) => p.name).join(', ')}); ignored`);
      return null;
    }
    this.applyPreset(preset);
    return preset;
  }

  createFlock() {
    const settings = this.collectSettings();
    // Count and seed go to the constructor; the rest are set afterwards, like any change.
    const initial = new Map();
    for (const spec of [COUNT, SEED]) {
      const entry = spec && settings.get(spec.name);
      if (!entry) continue;
      const [found, raw, where] = entry;
      const value = found.parse(raw);
      if (value === undefined) {
        warn(`${where} is not a valid ${spec.name} (a number from ${spec.min} to ${spec.max}); using the default`);
      } else {
        initial.set(spec, { value, where });
      }
    }
    const start = (spec) => {
      const value = initial.get(spec)?.value;
      return value === undefined ? undefined : Math.min(spec.max, Math.max(spec.min, value));
    };
    const flock = this.host.watch(new Flock(start(COUNT) ?? COUNT.default, SEED ? start(SEED) : undefined), true);
    this.host.flock = flock;
    for (const [spec, { value, where }] of initial) {
      this.explicit.add(spec.name);
      this.warnClamped(where, spec, value, readParam(flock, spec));
    }
    // A preset before the settings named beside it, so that they win (`preset="fishBall"
    // cohesion="3"` is the fish ball with more cohesion); a preset in the URL after the
    // attributes, as the URL wins over them, and before the URL's own settings.
    const preset = this.option('preset');
    const presetInUrl = this.url.has('preset');
    const rest = [...settings].filter(([name]) => name !== 'count' && name !== 'seed');
    const fromUrl = ([, [, , where]]) => where.startsWith('?');
    const applyAll = (list) => list.forEach(([, [found, raw, where]]) => this.apply(found, raw, where));
    if (presetInUrl) applyAll(rest.filter((entry) => !fromUrl(entry)));
    if (preset != null) this.applyPresetSetting(preset, presetInUrl ? `?preset=${quote(preset)}` : `preset=${quote(preset)}`);
    applyAll(presetInUrl ? rest.filter(fromUrl) : rest);
    this.host.locks.clamp(flock); // the lesson's `ranges` (locks.js) over the values given
    // The start is "scattered from the seed with these settings", so a shared link (same
    // values, same seed) starts exactly where Rebuild would.
    flock.rebuild();
    return flock;
  }

  chooseLang() {
    const own = this.option('lang');
    this.langExplicit = own != null && own !== '';
    this.lang = langOf(this.host, own);
    if (own && !own.toLowerCase().startsWith(this.lang) && this.langExplicit) {
      warn(`lang=${quote(own)} is not one of en, uk, pl, ru; using ${this.lang}`);
    }
    this.text = texts(this.lang);
    if (this.host.isPage) document.documentElement.lang = this.text.lang;
    if (this.text.lang !== this.lang) {
      // Not loaded yet (a language no flock showed when the page loaded): English until it
      // arrives, then the panel is built again, as for any change of `lang` (state is kept).
      const lang = this.lang;
      loadLang(lang).then(() => {
        if (this.lang !== lang || this.text.lang === lang || !this.host.flock) return;
        this.text = texts(lang);
        if (this.host.isPage) document.documentElement.lang = this.text.lang;
        this.host.panel.buildUi();
      });
    }
  }


  /** Sliders, count and address bar after a change of settings. */
  changed() {
    this.host.panel.syncControls?.();
    this.host.panel.showCount();
    this.scheduleUrl();
  }

  /** A link to the full page with every setting that differs from its default, and the seed. */
  shareUrl() {
    const url = new URL(this.urlMode === 'sync' ? location.href : FULL_PAGE);
    const query = new URLSearchParams(this.urlMode === 'sync' ? url.search : '');
    for (const spec of SPECS) NAMES.spellings(spec).forEach((key) => query.delete(key));
    // The preset's values are written out one by one (they may have been moved since).
    for (const alias of [...NAMES.aliases, 'lang', 'preset']) query.delete(alias);
    for (const spec of SPECS) {
      const value = readParam(this.host.flock, spec);
      // Whatever differs from the table, and whatever was set on purpose (a preset, an
      // attribute, a slider): with url="sync" a `preset` or parameter attribute is applied
      // again on reload, and the address bar's value must win over it, even a default.
      const keep =
        spec.name === 'seed' ||
        this.explicit.has(spec.name) ||
        (spec.name !== 'worldSize' && Math.fround(value) !== Math.fround(spec.default));
      if (keep) query.set(spec.name, formatNumber(value));
    }
    if (this.langExplicit) query.set('lang', this.lang);
    query.delete('open');
    const open = this.openGroups();
    if (open.size > 0) query.set('open', [...open].join(' '));
    this.host.instruments.query(query);
    this.host.contrast.query(query);
    url.search = query.toString();
    return url.href;
  }

  scheduleUrl() {
    if (this.urlMode !== 'sync' || !this.host.flock) return;
    clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => {
      if (this.host.flock) history.replaceState(history.state, '', this.shareUrl());
    }, URL_DELAY);
  }

  /**
   * The panel groups that are open (names such as "hawks", "wind", "how" for the
   * explanation): from the `open` setting (URL over attribute) until the reader opens or
   * closes one; then kept here and written to the address bar with the settings.
   */
  openGroups() {
    if (!this.openSet) {
      const raw = this.option('open') ?? '';
      this.openSet = new Set(String(raw).toLowerCase().split(/[\s,]+/).filter((word) => /^[a-z]{1,16}$/.test(word)));
    }
    return this.openSet;
  }

  /** A group opened or closed by the reader. */
  setGroupOpen(name, open) {
    const set = this.openGroups();
    if (set.has(name) === open) return;
    if (open) set.add(name);
    else set.delete(name);
    this.scheduleUrl();
  }

  async copyLink() {
    const link = this.shareUrl();
    const { copy, field, status } = this.host.panel.ui;
    copy.dataset.link = link;
    field.value = link;
    field.hidden = false;
    try {
      await navigator.clipboard.writeText(link);
      status.textContent = this.text.ui('linkCopied');
    } catch {
      status.textContent = this.text.ui('linkManual');
      field.focus();
      field.select();
    }
  }
}
