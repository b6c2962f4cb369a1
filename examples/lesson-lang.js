// A lesson in four languages: shows the <section lang> that matches ?lang= (else the
// browser's languages, else English), and gives its flocks the same language. A file, not an
// inline script: the lessons run under a strict CSP.
const LANGS = ['en', 'uk', 'pl', 'ru'];
const asked = new URLSearchParams(location.search).get('lang');
const wanted = [asked, ...navigator.languages]
  .filter(Boolean)
  .map((tag) => tag.toLowerCase().split('-')[0])
  .find((lang) => LANGS.includes(lang)) ?? 'en';
document.documentElement.lang = wanted;
for (const section of document.querySelectorAll('[data-lesson-lang]')) {
  section.hidden = section.dataset.lessonLang !== wanted;
}
const title = document.querySelector(`[data-lesson-lang="${wanted}"] h1`);
if (title) document.title = `${title.textContent} — Boids`;
for (const flock of document.querySelectorAll('boids-flock')) flock.setAttribute('lang', wanted);
for (const link of document.querySelectorAll('nav.lesson-langs a')) {
  link.setAttribute('aria-current', String(link.getAttribute('hreflang') === wanted));
}
