// A downloaded lesson as ONE HTML file (issue 45): the teacher's <boids-flock> and the lesson
// bundle (dist/www/package/boids-lesson.js: the element, its stylesheet and the wasm in one
// module) inside a page that needs nothing else: opened from a USB stick (file://) with no
// network, it fetches nothing. The SCORM package's page is the same file with `data-scorm`
// on <html> (scorm-runtime.js reports to the platform then).

import { escapeAttribute } from '../studio/studio-output.js';

/** The lesson bundle's URL, beside this module. */
export const BUNDLE_URL = new URL('./boids-lesson.js', import.meta.url);

let bundle = null;

/** The lesson bundle's text (fetched once, ~880 KB, ~300 KB over the wire gzipped). */
export function lessonBundle() {
  bundle ??= fetch(BUNDLE_URL).then((response) => {
    if (!response.ok) throw new Error(`the lesson bundle (${BUNDLE_URL.pathname}) did not load: HTTP ${response.status}`);
    return response.text();
  });
  bundle.catch(() => {
    bundle = null; // a later press tries again
  });
  return bundle;
}


/** The page around the lesson: the flock's night sky edge to edge, the lesson centred, readable on a phone. */
const PAGE_STYLE = `html{background:#070d1a;color:#e6edf7;font:16px/1.45 system-ui,sans-serif}
body{margin:0;padding:clamp(0.5rem,2vw,1.5rem)}
main{max-width:72rem;margin:0 auto}`;

/**
 * The lesson's page as text: `elementHtml` (the `<boids-flock …></boids-flock>` the studio's
 * snippet has), titled `title`, in language `lang`, running `bundleText` inline. `scorm`:
 * '1.2' or '2004' for a SCORM package's page, else nothing.
 */
export function lessonHtml({ elementHtml, title, lang = 'en', bundleText, scorm = null }) {
  if (typeof elementHtml !== 'string' || !/^<boids-flock[\s>][\s\S]*<\/boids-flock>\s*$/.test(elementHtml.trim())) {
    throw new TypeError('lessonHtml: elementHtml must be one <boids-flock …></boids-flock> element');
  }
  if (typeof bundleText !== 'string' || bundleText.length === 0) throw new TypeError('lessonHtml: bundleText must be the lesson bundle\'s text');
  if (/<\/script/i.test(bundleText)) throw new RangeError('lessonHtml: the bundle holds "</script", which would end its script early');
  if (scorm !== null && scorm !== '1.2' && scorm !== '2004') throw new RangeError(`lessonHtml: scorm must be '1.2', '2004' or null, got ${JSON.stringify(scorm)}`);
  const langCode = /^[a-z]{2}$/.test(lang) ? lang : 'en';
  return `<!doctype html>
<html lang="${langCode}"${scorm ? ` data-scorm="${scorm}"` : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeAttribute(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
${elementHtml.trim()}
</main>
<script type="module">${bundleText}</script>
</body>
</html>
`;
}

/** A name for a downloaded file from the lesson's title: letters, digits and dashes. */
export function fileStem(title) {
  const stem = String(title ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return stem || 'boids-lesson';
}
