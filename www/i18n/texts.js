// Interface text in English, Ukrainian, Polish and Russian: one table per language, in
// i18n-en.js, i18n-uk.js, i18n-pl.js and i18n-ru.js. English is imported here (it is every
// other language's fallback); the others are fetched only when a flock or the page shows
// them, with a dynamic import beside this file, so a copy on a CDN or in a sub-folder finds
// them as it finds everything else. Why: the four tables are ~23 KB gzipped together, a
// reader needs one or two (issue 11's 200 KB budget for the page).
//
// Each table has:
// - `ui`: buttons, readouts, messages, the page's masthead; also the panel's groups, Keys
//   help (`keyList`: [keys, what they do] pairs, in the order shown), legends and touch
//   wording, and the instruments' words. Keys ending in _one, _few, _many, _other are
//   plural forms (Intl.PluralRules): Ukrainian, Polish and Russian need three, English two.
// The explanation panel ("How it works") has a table of its own per language,
// explain-en.js ... explain-ru.js, fetched the first time a reader opens it (`explain()`
// below): ~1.2 KB gzipped each, words most readers never open (issue 41's page budget).
// - `params`: [label, description] per parameter name of `Flock.params()`. English has none:
//   the parameter table itself is the English text, and any parameter a language lacks falls
//   back to it (tests/browser/embed-i18n.test.mjs fails while a label is untranslated).
// - `presets`: [label, description] per preset name of `Flock.presets()`; English falls back to
//   the presets table as `params` does to the parameter table.
// - `units`: the table's units, keyed by their English spelling.

import en from './en.js';

export const LANGS = ['en', 'uk', 'pl', 'ru'];

/** Each language's own name, for a language picker. */
export const LANG_NAMES = { en: 'English', uk: 'Українська', pl: 'Polski', ru: 'Русский' };

/** The tables loaded so far: English always, another language once `loadLang` has it. */
export const STRINGS = { en };

// Each other table by name, not `import(\`./${lang}.js\`)`: a bundler (the lesson bundle,
// scripts/build-lesson-bundle.mjs) takes a template as every file of this folder.
const TABLES = { uk: () => import('./uk.js'), pl: () => import('./pl.js'), ru: () => import('./ru.js') };
const EXPLAIN = {
  en: () => import('./explain-en.js'),
  uk: () => import('./explain-uk.js'),
  pl: () => import('./explain-pl.js'),
  ru: () => import('./explain-ru.js'),
};

const loading = new Map();

/**
 * Fetches one language's table (once; later calls share the first). Resolves true when it is
 * in STRINGS, false for an unknown language or a file that did not load (English is used then).
 */
export function loadLang(lang) {
  if (STRINGS[lang]) return Promise.resolve(true);
  if (!LANGS.includes(lang)) return Promise.resolve(false);
  if (!loading.has(lang)) {
    const load = TABLES[lang]().then(
      (module) => {
        STRINGS[lang] = module.default;
        return true;
      },
      (error) => {
        console.warn(`<boids-flock>: the ${lang} texts did not load (${error}); using English`);
        return false;
      },
    );
    loading.set(lang, load);
  }
  return loading.get(lang);
}

/**
 * The languages this document will most likely show: each <boids-flock>'s (its `lang`, an
 * ancestor's, the browser's), and `?lang=` (the page and url="read" embeds read it).
 */
function likelyLangs() {
  const found = new Set([pickLang([new URLSearchParams(location.search).get('lang')]), pickLang(browserLangs())]);
  for (const flock of document.querySelectorAll('boids-flock')) found.add(langOf(flock, flock.getAttribute('lang')));
  return [...found];
}

/** The reader's languages, most wanted first. */
function browserLangs() {
  return navigator.languages ?? [navigator.language];
}

/**
 * The language a <boids-flock> shows: its own `lang` value (`own`), else the nearest
 * ancestor's `lang`, else the browser's; English when none is supported.
 */
export function langOf(element, own) {
  const inherited = element.parentElement?.closest('[lang]')?.getAttribute('lang');
  return pickLang([own, inherited, ...browserLangs()]);
}

/**
 * Settles when the languages this document most likely shows have loaded (or failed): asked
 * for as this module runs, so they arrive while the wasm does, and the element waits for
 * them before its first paint (boids-embed.js). A language asked for later loads then, and
 * the element shows English until it arrives (url-sync.js).
 */
export const likelyLoaded = Promise.all(likelyLangs().map(loadLang));

/**
 * The first supported language among `candidates` (BCP 47 tags such as "uk-UA"; empty and
 * unknown ones are skipped), else English.
 */
export function pickLang(candidates) {
  for (const tag of candidates) {
    if (typeof tag !== 'string' || !tag) continue;
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (LANGS.includes(primary)) return primary;
  }
  return 'en';
}

const explaining = new Map();

/**
 * The explanation's table in `lang` (fetched once; English when that language's does not
 * load). Rejects only when English itself cannot be fetched.
 */
export function loadExplain(lang) {
  const want = LANGS.includes(lang) ? lang : 'en';
  if (!explaining.has(want)) {
    const load = EXPLAIN[want]().then(
      (module) => module.default,
      (error) => {
        if (want === 'en') throw error;
        console.warn(`<boids-flock>: the ${want} explanation did not load (${error}); using English`);
        return loadExplain('en');
      },
    );
    explaining.set(want, load);
    load.catch(() => explaining.delete(want)); // a later open tries again
  }
  return explaining.get(want);
}

/**
 * Text for one language: `ui(key)`, `param(spec)`, `preset(preset)`, `unit(spec)`, and
 * `explain()`, a promise of the explanation's table.
 */
export function texts(lang) {
  const table = STRINGS[lang] ?? en;
  return {
    lang: STRINGS[lang] ? lang : 'en',
    ui: (key) => table.ui[key] ?? en.ui[key] ?? key,
    /** [label, description] of a parameter: this language's, else the table's English. */
    param: (spec) => table.params[spec.name] ?? [spec.label, spec.description],
    /** [label, description] of a preset (from `Flock.presets()`): this language's, else English. */
    preset: (preset) => table.presets?.[preset.name] ?? [preset.label, preset.description],
    unit: (unit) => (unit ? (table.units[unit] ?? unit) : ''),
    explain: () => loadExplain(STRINGS[lang] ? lang : 'en'),
  };
}
