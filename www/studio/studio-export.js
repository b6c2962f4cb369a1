// The studio's downloads (issue 45): the lesson as files a teacher can upload or carry, for a
// school with a learning platform and no web space of its own, or no network in the room:
// - one HTML file (package/single-file.js) that runs opened from a USB stick, fetching nothing;
// - a SCORM package, 1.2 or 2004 (package/scorm.js), which Moodle, Canvas, Blackboard and
//   Brightspace take as an activity, and which reports completion, answers and a suspend state;
// - an H5P package (package/h5p.js), for Moodle's H5P activity, WordPress and other H5P hosts,
//   whose lesson sends xAPI statements through H5P's own dispatcher.
// Each is made in the page from the very attributes the studio's snippet carries, with the
// lesson bundle (~310 KB gzipped) fetched on the first press; the form's DOM is built here,
// the files themselves in www/package/ (downloads.js). None of those load with the studio.

import { element } from '../core/dom.js';

/** [kind, the button's word, its hint] in the order shown. */
export const DOWNLOADS = [
  ['html', 'downloadHtml', 'downloadHtmlHint'],
  ['scorm12', 'downloadScorm12', 'downloadScormHint'],
  ['scorm2004', 'downloadScorm2004', 'downloadScorm2004Hint'],
  ['h5p', 'downloadH5p', 'downloadH5pHint'],
];

/** The Download block: a heading, a button per kind with its hint, one polite status line. */
export function buildDownloads({ w, on }) {
  const box = element('div', 'studio-downloads');
  const heading = element('h3', 'studio-subheading', w('downloads'));
  heading.id = 'studio-downloads-heading';
  box.setAttribute('role', 'group');
  box.setAttribute('aria-labelledby', heading.id);
  const intro = element('p', 'studio-hint', w('downloadsHint'));
  const list = element('ul', 'studio-download-list');
  const buttons = {};
  for (const [kind, key, hintKey] of DOWNLOADS) {
    const item = element('li', 'studio-download');
    const button = element('button', 'studio-copy', w(key));
    button.type = 'button';
    button.id = `studio-download-${kind}`;
    const hint = element('span', 'studio-hint', w(hintKey));
    hint.id = `studio-download-${kind}-hint`;
    button.setAttribute('aria-describedby', hint.id);
    button.addEventListener('click', () => on.download(kind));
    item.append(button, hint);
    list.append(item);
    buttons[kind] = button;
  }
  const status = element('p', 'studio-status');
  status.id = 'studio-download-status';
  status.setAttribute('aria-live', 'polite');
  box.append(heading, intro, list, status);
  return { element: box, buttons, status };
}

/** Size in KB or MB, as the status line says it. */
export function sizeText(bytes, lang = 'en') {
  const format = (value, unit) => `${new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(value)} ${unit}`;
  return bytes >= 1024 * 1024 ? format(bytes / (1024 * 1024), 'MB') : format(bytes / 1024, 'KB');
}
