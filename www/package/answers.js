// Answer boxes under the teacher's prompts, in the lessons a teacher downloads (the single
// file, the SCORM and H5P packages: www/lesson-bundle.js): a student writes what they
// predict, notice and tried, and the package keeps it (SCORM's interactions and suspend state,
// H5P's xAPI statements). The prompts themselves are lesson/prompts.js's; this only adds a
// labelled text box after each, built again with the prompts after every rebuild of the
// panel, so a change of language or layout keeps what was written.
//
// Each element's answers: `answersOf(element)` ({ predict: text, ... }), `setAnswers`
// (a returning student's, before the element is built), and a `boids-answer` event
// ({ name, text }) when a box's text is changed and left.

// First: prompts.js's listener must run before this one's (below), so that the prompts exist.
import '../lesson/prompts.js';

/** Longest answer kept: a paragraph, and within SCORM 2004's long-fill-in (4,000). */
export const MAX_ANSWER = 2000;

const WORDS = {
  en: { answer: 'Your answer', predict: 'Your prediction' },
  uk: { answer: 'Ваша відповідь', predict: 'Ваше передбачення' },
  pl: { answer: 'Twoja odpowiedź', predict: 'Twoje przewidywanie' },
  ru: { answer: 'Ваш ответ', predict: 'Ваше предсказание' },
};

const answers = new WeakMap();

/** What `element`'s student has written, by prompt name (only the non-empty ones). */
export function answersOf(element) {
  return Object.fromEntries([...(answers.get(element) ?? new Map())].filter(([, text]) => text.trim() !== ''));
}

/** Gives `element` answers written before (a returning student's): shown when its boxes are built. */
export function setAnswers(element, given) {
  const map = answers.get(element) ?? new Map();
  for (const [name, text] of Object.entries(given ?? {})) {
    if (['predict', 'notice', 'try'].includes(name) && typeof text === 'string') map.set(name, text.slice(0, MAX_ANSWER));
  }
  answers.set(element, map);
  addBoxes(element);
}

function addBoxes(element) {
  const map = answers.get(element) ?? new Map();
  answers.set(element, map);
  const words = WORDS[element.language] ?? WORDS.en;
  for (const item of element.querySelectorAll('.bf-prompts .bf-prompt')) {
    const name = ['predict', 'notice', 'try'].find((n) => item.classList.contains(`bf-prompt-${n}`));
    if (!name || item.querySelector('.bf-answer')) continue;
    const box = document.createElement('textarea');
    box.className = 'bf-answer';
    box.id = `${element.uid ?? 'boids-flock'}-answer-${name}`;
    box.rows = 2;
    box.maxLength = MAX_ANSWER;
    box.value = map.get(name) ?? '';
    const label = document.createElement('label');
    label.className = 'bf-answer-label';
    label.htmlFor = box.id;
    label.textContent = name === 'predict' ? words.predict : words.answer;
    box.addEventListener('input', () => map.set(name, box.value));
    box.addEventListener('change', () => {
      map.set(name, box.value);
      element.dispatchEvent(new CustomEvent('boids-answer', { detail: { name, text: box.value.trim() }, bubbles: true }));
    });
    // Typing is not a shortcut for the flock (panel/keys.js listens on the element).
    box.addEventListener('keydown', (event) => event.stopPropagation());
    item.append(label, box);
  }
}

// After prompts.js has built the prompts (its listener is registered first, so it runs first).
document.addEventListener('boids-flock:panel', (event) => addBoxes(event.target), true);
