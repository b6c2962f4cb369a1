// The teacher's prompts beside the flock (issue 28): a title and three short texts, Predict,
// Notice and Try, as the studio (studio.html) writes them:
//
//   <boids-flock lesson-title="Who leads?" predict="What will 3 hawks do?" notice="…" try="…">
//
// and in the iframe form as URL parameters (embed.html?lesson-title=…&predict=…). Attributes,
// not child content: the element rebuilds its children (panel.js), the iframe form has only a
// URL, and an attribute is plain text by nature. A teacher's text is not markup: it is shown
// with textContent, never parsed as HTML. The box is built again after every rebuild of the
// panel ('boids-flock:panel'), so a change of language or controls keeps it; in a compact
// embed it sits above the stage, in the full layout at the top of the panel, beside the stage.

/** The attributes (and URL parameters) this module reads, title first. */
export const PROMPT_ATTRIBUTES = ['lesson-title', 'predict', 'notice', 'try'];

/** Longest text shown (a longer one is cut, with a console warning): a prompt, not a page. */
const MAX_TEXT = 1000;

/**
 * The three headings, in each language of the element (i18n.js's LANGS). Here, not in the
 * interface tables, so the few words travel with the one module that shows them; English for
 * any other language.
 */
const WORDS = {
  en: { lesson: 'Lesson', predict: 'Predict', notice: 'Notice', try: 'Try' },
  uk: { lesson: 'Урок', predict: 'Передбачте', notice: 'Помітьте', try: 'Спробуйте' },
  pl: { lesson: 'Lekcja', predict: 'Przewidź', notice: 'Zauważ', try: 'Spróbuj' },
  ru: { lesson: 'Урок', predict: 'Предскажите', notice: 'Заметьте', try: 'Попробуйте' },
};

/** The teacher's texts on `element` (URL over attribute in url mode, as every option), trimmed. */
export function promptTexts(element) {
  const texts = {};
  for (const name of PROMPT_ATTRIBUTES) {
    const raw = element.option ? element.option(name) : element.getAttribute(name);
    let text = String(raw ?? '').trim();
    if (text.length > MAX_TEXT) {
      console.warn(`<boids-flock>: ${name} is ${text.length} characters long; showing the first ${MAX_TEXT}`);
      text = `${text.slice(0, MAX_TEXT)}…`;
    }
    texts[name] = text;
  }
  return texts;
}

/**
 * Shows `element`'s prompts (or takes them away when it has none). Called when one of
 * PROMPT_ATTRIBUTES changes and after each rebuild of the panel; before the element has
 * built its interface it does nothing (the first build calls it).
 */
export function showPrompts(element) {
  if (!element.ui) return;
  element.querySelector('.bf-prompts')?.remove();
  const texts = promptTexts(element);
  if (!PROMPT_ATTRIBUTES.some((name) => texts[name])) return;
  const words = WORDS[element.language] ?? WORDS.en;
  const box = document.createElement('section');
  box.className = 'bf-prompts';
  if (texts['lesson-title']) {
    const title = document.createElement('h2');
    title.className = 'bf-prompts-title';
    title.id = `${element.uid ?? 'boids-flock'}-prompts-title`;
    title.textContent = texts['lesson-title'];
    box.setAttribute('aria-labelledby', title.id);
    box.append(title);
  } else {
    box.setAttribute('aria-label', words.lesson);
  }
  const list = document.createElement('dl');
  for (const name of ['predict', 'notice', 'try']) {
    if (!texts[name]) continue;
    const item = document.createElement('div');
    item.className = `bf-prompt bf-prompt-${name}`;
    const term = document.createElement('dt');
    term.textContent = words[name];
    const text = document.createElement('dd');
    text.textContent = texts[name];
    item.append(term, text);
    list.append(item);
  }
  if (list.childElementCount > 0) box.append(list);
  // Beside the stage: the full layout's panel (first), or above a compact embed's stage.
  const panel = element.classList.contains('bf-full') ? element.querySelector(':scope > .bf-panel') : null;
  if (panel) panel.prepend(box);
  else element.prepend(box);
}

// Every element's panel, when (re)built: one listener for the document, in the capture phase
// (the event does not bubble), so the iframe form's prompts from the URL show with no
// attribute to announce them.
document.addEventListener('boids-flock:panel', (event) => showPrompts(event.target), true);
