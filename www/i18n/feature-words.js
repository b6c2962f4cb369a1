// One feature's words in one language, www/i18n/<feature>-<lang>.js (the algorithm lab's
// `lab`, the real flocks' `nature`), loaded the first time a lesson asks and kept; English
// when a language's table does not load. The page itself never loads them.

import { LANGS } from './texts.js';

const loaded = new Map();

/** `feature`'s words in `lang` (English when that language's do not load). */
export function loadFeatureTexts(feature, lang) {
  const want = LANGS.includes(lang) ? lang : 'en';
  const key = `${feature}-${want}`;
  if (!loaded.has(key)) {
    const load = import(`./${key}.js`).then(
      (module) => module.default,
      (error) => {
        loaded.delete(key); // a later call tries again
        if (want === 'en') throw error;
        console.warn(`${feature}: the ${want} words did not load (${error}); using English`);
        return loadFeatureTexts(feature, 'en');
      },
    );
    loaded.set(key, load);
  }
  return loaded.get(key);
}

/** `template` with each {name} replaced by `values[name]`. */
export const fill = (template, values) => template.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? `{${name}}`));
