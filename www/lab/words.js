// The algorithm lab's words: one language's table (www/i18n/lab-<lang>.js), loaded on demand
// and shared by the cost curve, the step's trace and the bugs' sandbox.

import { fill, loadFeatureTexts } from '../i18n/feature-words.js';

export { fill };

/** The lab's words in `lang` (English when that language's do not load). */
export const loadLabTexts = (lang) => loadFeatureTexts('lab', lang);
