// The full page: its flock is the <boids-flock page> element (boids-embed.js), the same one a
// teacher embeds. This file only translates the page around it and offers a language picker.
//
// Page state for tests and embedders: `document.documentElement.dataset.boids` is
// "loading", then "running" once the first frame is drawn, "no-webgl" without WebGL2,
// or "error" after a panic or an uncaught exception (the message is shown in #message).

import { LANGS, LANG_NAMES, loadLang, texts } from './i18n/texts.js';
import STUDIO_LINK from './i18n/studio-link.js';

function showFatal(error) {
  // The module itself failed to load (a missing file, a syntax error): say so on the page.
  console.error(error);
  const stage = document.querySelector('boids-flock') ?? document.body;
  const box = document.createElement('div');
  box.id = 'message';
  box.setAttribute('role', 'alert');
  box.textContent = `${texts(document.documentElement.lang).ui('errorTitle')} ${error}`;
  stage.append(box);
  document.documentElement.dataset.boids = 'error';
}

async function main() {
  // The service worker (isolate.js, coi-sw.js): cross-origin isolation where the host cannot
  // send the headers (issue 30: threads), and the offline copy (issue 45). The page only: an
  // embed never changes the page it is a guest on.
  import('./core/isolate.js').then((m) => m.register()).catch(() => {});
  await import('./boids-embed.js');
  const flock = document.querySelector('boids-flock[page]');
  document.getElementById('version').textContent = customElements.get('boids-flock').version ?? '';
  const picker = document.getElementById('lang');
  // The lesson studio, for a teacher: after the version in the footer, in the page's language.
  const studio = document.createElement('a');
  studio.id = 'studio-link';
  studio.className = 'studio-link';
  document.querySelector('.page-footer').append(' · ', studio);

  const localize = () => {
    const text = texts(flock.language);
    document.documentElement.lang = text.lang;
    document.title = text.ui('pageTitle');
    for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = text.ui(node.dataset.i18n);
    picker.value = text.lang;
    studio.textContent = STUDIO_LINK[text.lang] ?? STUDIO_LINK.en;
    studio.href = `studio.html?lang=${text.lang}`;
  };

  for (const lang of LANGS) {
    const option = document.createElement('option');
    option.value = lang;
    option.lang = lang;
    option.textContent = LANG_NAMES[lang];
    picker.append(option);
  }
  picker.addEventListener('change', async () => {
    // The new language's table first (a few KB, i18n.js), so that nothing shows in English.
    const lang = picker.value;
    await loadLang(lang);
    if (picker.value !== lang) return; // another language was picked meanwhile
    flock.setAttribute('lang', lang);
    localize();
  });
  picker.closest('label').hidden = false;
  localize();
}

main().catch(showFatal);
