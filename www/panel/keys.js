// The keyboard: page shortcuts (Space pauses, R rebuilds, O/X add and remove an obstacle in
// the middle of the view, A/D attract or repel toward it, N ] and Shift+N [ inspect the
// next and previous boid, M says the flock's measures, ? opens the Keys help) that never
// take a key a focused control needs (Space and Enter tick a checkbox, choose a radio, press
// a button or open a group), and the Keys help dialog. The camera's keys (arrows, + −, F, 0)
// belong to the canvas (camera-input.js). `handleKey` takes the key and the actions it may
// run (the element's, given explicitly): it knows no element.

import { button, element } from '../core/dom.js';

/** Where typing happens: keys pressed there are not shortcuts. */
function isTyping(target) {
  if (!(target instanceof Element)) return false;
  if (target.isContentEditable || target.closest('textarea, select')) return true;
  return target instanceof HTMLInputElement && !['range', 'checkbox', 'radio', 'button'].includes(target.type);
}

/** Controls that Space or Enter press, tick or open themselves. */
const PRESSABLE = 'button, summary, a[href], input[type="checkbox"], input[type="radio"], dialog';

/** The Keys help: a modal dialog listing every key (`?` or the Keys button opens it). */
export function buildKeysHelp({ text, id }) {
  const t = text.ui;
  const dialog = element('dialog', 'bf-keys-help');
  dialog.id = id;
  const title = element('h2', null, t('keysTitle'));
  title.id = `${id}-title`;
  dialog.setAttribute('aria-labelledby', title.id);
  const list = element('dl');
  for (const [keys, what] of t('keyList')) {
    const row = element('div');
    const term = element('dt');
    for (const key of keys.split(' ')) term.append(element('kbd', null, key), ' ');
    row.append(term, element('dd', null, what));
    list.append(row);
  }
  const close = button('bf-keys-close', t('close'), () => dialog.close());
  dialog.append(title, list, close);
  // A click on the backdrop (outside the box) closes it too.
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  return {
    dialog,
    open: () => {
      if (dialog.open) return;
      dialog.showModal();
      close.focus();
    },
  };
}

/**
 * A key pressed on the element (or, on the full page, with nothing focused): the shortcut it
 * is, run through `actions` — { togglePause, rebuild, showKeys, addObstacle, removeObstacle,
 * pointer(mode), pointerOn(), selectNext(step), sayFigures, selected(), unselect }; the ones
 * that may do nothing return whether they did something.
 */
export function handleKey(event, actions) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (isTyping(target)) return;
  const pressable = target instanceof Element ? target.closest(PRESSABLE) : null;
  if (event.key === 'Enter') {
    // Enter ticks a checkbox or chooses a radio, as Space does (browsers leave it to forms).
    if (target instanceof HTMLInputElement && ['checkbox', 'radio'].includes(target.type)) {
      event.preventDefault();
      if (target.type === 'checkbox' || !target.checked) target.click();
    }
    return;
  }
  if (target instanceof Element && target.closest('dialog')) return; // the help has its own keys
  const key = event.key;
  const code = event.code;
  const is = (letter) => code === `Key${letter}` || key.toLowerCase() === letter.toLowerCase();
  // [ and ] by where they are (another layout types other letters there) or what they type.
  const bracket = code === 'BracketLeft' || key === '[' ? -1 : code === 'BracketRight' || key === ']' ? 1 : 0;
  if (code === 'Space' || key === ' ') {
    if (pressable) return; // Space presses, ticks or opens it
    event.preventDefault();
    actions.togglePause();
  } else if (is('R')) {
    event.preventDefault();
    actions.rebuild();
  } else if (key === '?') {
    event.preventDefault();
    actions.showKeys();
  } else if (is('O') && !event.shiftKey) {
    if (actions.addObstacle()) event.preventDefault();
  } else if (is('X') || key === 'Delete') {
    if (actions.removeObstacle()) event.preventDefault();
  } else if (is('A') || is('D')) {
    if (actions.pointer(is('A') ? 'attract' : 'repel')) event.preventDefault();
  } else if (is('N') || bracket) {
    // Next boid to inspect (Shift+N or [: previous), the nearest the flock's centre first.
    event.preventDefault();
    actions.selectNext(bracket || (event.shiftKey ? -1 : 1));
  } else if (is('M')) {
    // The flock's measures, said now (the words otherwise tell only what changed).
    if (actions.sayFigures()) event.preventDefault();
  } else if (key === 'Escape') {
    if (actions.pointerOn()) {
      event.preventDefault();
      actions.pointer(null);
    } else if (actions.selected()) {
      event.preventDefault();
      actions.unselect();
    }
  }
}
