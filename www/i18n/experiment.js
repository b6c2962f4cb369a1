// The Experiment group's words: i18n-experiment-en.js … -ru.js, one table per language,
// merged into i18n.js's tables' `ui` when the group opens (experiment-panel.js) or a lesson
// runs an experiment (examples/order.js); the page loads neither this nor them (issue 11's
// 200 KB budget: they are ~2 KB gzipped for a reader).

import { STRINGS } from './texts.js';

const loading = new Map();

/**
 * Loads the Experiment group's words for `lang` (and English, their fallback) into the
 * tables' `ui`. Call after i18n.js's `loadLang(lang)`; resolves when they are in (a file
 * that did not load leaves the keys, and English or the key shows).
 */
export function loadExperimentTexts(lang) {
  const langs = lang === 'en' || !STRINGS[lang] ? ['en'] : ['en', lang];
  return Promise.all(
    langs.map((code) => {
      if (!loading.has(code)) {
        const load = import(`./experiment-${code}.js`).then(
          (module) => Object.assign(STRINGS[code].ui, module.default),
          (error) => console.warn(`<boids-flock>: the ${code} experiment texts did not load (${error})`),
        );
        loading.set(code, load);
      }
      return loading.get(code);
    }),
  );
}
