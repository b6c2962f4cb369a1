// One way to hand a file made in the page to the browser, for the experiment's CSV and
// picture, the algorithm lab's, and the studio's lesson files: modules that load on demand.
// Its own module, not dom.js, which is part of the page's first download.

import { element } from './dom.js';

/**
 * Hands `blob` to the browser as a download called `name` (a CSV, a picture, a lesson file):
 * a link to an object URL, clicked. The download has its bytes once click() returns, so the
 * URL goes a second later.
 */
export function saveBlob(blob, name) {
  const link = element('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
