// A link as a QR code in a modal dialog (issue 45): a teacher puts the lesson on the
// projector and students open it with their phones' cameras. The full page's share box and
// the studio's link output import this module the first time their "QR code" button is
// pressed (it and the encoder, www/vendor/uqr.js, are ~7 KB gzipped the page never fetches
// unless asked). It knows no element and no language: the caller gives the link, the words,
// the button to give focus back to and where the dialog lives.
//
// What a camera needs, whatever the page looks like: dark modules on white (the dark theme,
// the projector look and a host page's styles must not invert or tint it; the colours are set
// on the dialog itself), a quiet zone of 4 modules all round (ISO/IEC 18004 asks for 4), and
// size: min(80vmin, 480px), 312 px on a 390×844 phone, 480 px on a projector's 1280×720, less
// on a screen too short to show the code, its title and the link at once. Error correction M
// (15 % of the code may be lost): a projector's glare and keystone cost some modules.
// Drawn as one SVG path built with createElementNS: no markup is parsed (a strict CSP, a
// link's text never read as HTML), and crispEdges keeps the modules square when scaled.

import { element } from './dom.js';
import { encode } from '../vendor/uqr.js';

/** Modules of white around the code: the standard's quiet zone. */
const QUIET = 4;
const SVG_NS = 'http://www.w3.org/2000/svg';
/** The code's side: see above; never under 10rem, where a phone's camera still reads it. */
const SIDE = 'max(10rem, min(80vmin, 480px, calc(100dvh - 13rem)))';
/** One dialog per place it lives (an element's box, the studio's body), made once. */
const dialogs = new WeakMap();
let made = 0;

/**
 * The code of `link`: { side, d }, side its width in modules with the quiet zone, d an SVG
 * path of its dark modules (one square a module, rows merged into runs). Throws a RangeError
 * for a link no QR code holds (uqr's "Data too long": over ~2,300 characters at level M).
 */
export function qrPath(link) {
  if (typeof link !== 'string' || link === '') throw new TypeError(`a QR code needs a link as text, got ${typeof link}`);
  const { size, data } = encode(link, { ecc: 'M', border: QUIET });
  const runs = [];
  data.forEach((row, y) => {
    for (let x = 0; x < size; x++) {
      if (!row[x]) continue;
      const start = x;
      while (x + 1 < size && row[x + 1]) x++;
      runs.push(`M${start} ${y}h${x + 1 - start}v1h-${x + 1 - start}z`);
    }
  });
  return { side: size, d: runs.join('') };
}

/** The dialog's parts, made the first time for `parent` (again if `parent` was emptied). */
function dialogFor(parent) {
  const known = dialogs.get(parent);
  if (known?.dialog.isConnected) return known;
  const id = `bf-qr-${++made}`;
  const dialog = element('dialog', 'bf-qr-dialog');
  dialog.id = id;
  // Black on white and sizes of its own: the page's theme, the projector look and a host
  // page's rules for dialog, h2, p or button must not reach the code (inline style wins).
  Object.assign(dialog.style, {
    background: '#fff', color: '#000', border: '2px solid #000', borderRadius: '8px', padding: '1rem',
    boxSizing: 'border-box', maxWidth: 'calc(100vw - 1rem)', maxHeight: 'calc(100dvh - 1rem)',
    overflow: 'auto', textAlign: 'center', font: '16px/1.35 system-ui, sans-serif',
  });
  const title = element('h2');
  title.id = `${id}-title`;
  Object.assign(title.style, { margin: '0 0 0.6rem', fontSize: '1.25rem', color: '#000' });
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('role', 'img');
  svg.setAttribute('shape-rendering', 'crispEdges');
  Object.assign(svg.style, { display: 'block', width: SIDE, height: SIDE, margin: '0 auto', background: '#fff' });
  const white = document.createElementNS(SVG_NS, 'rect');
  white.setAttribute('fill', '#fff');
  white.setAttribute('width', '100%');
  white.setAttribute('height', '100%');
  const dark = document.createElementNS(SVG_NS, 'path');
  dark.setAttribute('fill', '#000');
  svg.append(white, dark);
  // The link under the code, for a student who types it; a long one scrolls (4 lines shown).
  const text = element('p', 'bf-qr-link');
  text.id = `${id}-link`;
  Object.assign(text.style, {
    margin: '0.6rem auto', maxWidth: SIDE, maxHeight: '5.4em', overflow: 'auto', overflowWrap: 'anywhere',
    fontSize: '0.85rem', color: '#000', userSelect: 'all',
  });
  const close = element('button', 'bf-qr-close');
  close.type = 'button';
  Object.assign(close.style, {
    font: 'inherit', color: '#000', background: '#fff', border: '2px solid #000', borderRadius: '6px',
    padding: '0.35rem 1.2rem', cursor: 'pointer',
  });
  close.addEventListener('click', () => dialog.close());
  dialog.setAttribute('aria-labelledby', title.id);
  dialog.setAttribute('aria-describedby', text.id);
  // A click on the backdrop (outside the box) closes it too, as the Keys help does.
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  dialog.addEventListener('close', () => {
    const opener = parts.opener;
    parts.opener = null;
    if (opener?.isConnected) opener.focus();
  });
  dialog.append(title, svg, text, close);
  parent.append(dialog);
  const parts = { dialog, title, svg, dark, text, close, opener: null };
  dialogs.set(parent, parts);
  return parts;
}

/**
 * Shows `link` as a QR code in a modal dialog appended to `parent`; Esc, the Close button or
 * the backdrop closes it and focus goes back to `opener`. `words`: { title, close, code (the
 * image's name), tooLong (said instead of a code for a link too long for one) }.
 */
export function showQr({ link, words, parent, opener }) {
  if (!(parent instanceof Element)) throw new TypeError('showQr needs the element the dialog goes into (parent)');
  let code = null;
  try {
    code = qrPath(link);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  const parts = dialogFor(parent);
  parts.title.textContent = words.title;
  parts.close.textContent = words.close;
  parts.text.textContent = code ? link : `${words.tooLong} ${link}`;
  parts.svg.hidden = !code;
  parts.svg.style.display = code ? 'block' : 'none';
  if (code) {
    parts.svg.setAttribute('viewBox', `0 0 ${code.side} ${code.side}`);
    parts.svg.setAttribute('aria-label', `${words.code}: ${link}`);
    parts.dark.setAttribute('d', code.d);
  }
  parts.opener = opener ?? null;
  if (!parts.dialog.open) parts.dialog.showModal();
  parts.close.focus();
  return parts.dialog;
}
