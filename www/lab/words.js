// The algorithm lab's words: one language's table (www/i18n/lab-<lang>.js), loaded on demand
// and shared by the cost curve and the bugs' sandbox; English when a language's does not load.

const wordsLoaded = new Map();

/** The lab's words in `lang` (English when that language's do not load). */
export function loadLabTexts(lang) {
  const want = ['en', 'uk', 'pl', 'ru'].includes(lang) ? lang : 'en';
  if (!wordsLoaded.has(want)) {
    const load = import(`../i18n/lab-${want}.js`).then(
      (module) => module.default,
      (error) => {
        wordsLoaded.delete(want); // a later call tries again
        if (want === 'en') throw error;
        console.warn(`algorithm lab: the ${want} words did not load (${error}); using English`);
        return loadLabTexts('en');
      },
    );
    wordsLoaded.set(want, load);
  }
  return wordsLoaded.get(want);
}

/** `template` with each {name} replaced by `values[name]`. */
export const fill = (template, values) => template.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? `{${name}}`));
