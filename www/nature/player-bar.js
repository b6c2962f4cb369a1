// The recording's controls beside its <boids-flock> (issue 43): a time bar that follows the
// player and seeks it, the time, which birds are drawn between fixes, the data's citation,
// and a file picker for a recording of one's own (a bad file is refused with its line, and
// the flight playing goes on). Pause, step and slow motion are the element's own.

import { element } from '../core/dom.js';
import { fill } from '../i18n/feature-words.js';
import { readRecording } from './recording.js';

/** Seconds as m:ss.s. */
const clock = (seconds) => {
  const s = Math.max(0, seconds);
  const minutes = Math.floor(s / 60);
  return `${minutes}:${(s - 60 * minutes).toFixed(1).padStart(4, '0')}`;
};
/** The bar redraws at most this often, ms (the player moves 60 times a second). */
const REDRAW_EVERY = 100;

let built = 0;

/**
 * The bar in `container`, with `words` (i18n/nature-<lang>.js). `onRecording(replay, name, text)`
 * is called with a file the reader opened and read; `onPigeons()` when they go back.
 * Returns `{ root, bind(player), citation }`.
 */
export function buildPlayerBar(container, words, { onRecording, onPigeons } = {}) {
  built += 1;
  const root = element('section', 'nature-player');
  root.setAttribute('aria-label', words.player);
  const timeId = `nature-time-${built}`;
  const label = element('label', 'nature-time-label', words.time);
  label.htmlFor = timeId;
  const slider = element('input', 'nature-time');
  Object.assign(slider, { type: 'range', id: timeId, min: '0', max: '1', step: '0.1', value: '0' });
  const now = element('output', 'nature-now');
  now.htmlFor = timeId;
  const marked = element('p', 'nature-marked');
  const citation = element('p', 'nature-source', words.source);
  const fileId = `nature-file-${built}`;
  const open = element('label', 'nature-open', words.open);
  open.htmlFor = fileId;
  const file = element('input', 'nature-file');
  Object.assign(file, { type: 'file', id: fileId, accept: '.csv,.txt,.tsv,.gz,text/csv,text/plain,application/gzip' });
  const hintId = `nature-file-hint-${built}`;
  const hint = element('p', 'nature-hint', words.openHint);
  hint.id = hintId;
  file.setAttribute('aria-describedby', hintId);
  const status = element('p', 'nature-status');
  status.setAttribute('role', 'status');
  const error = element('p', 'nature-error');
  error.setAttribute('role', 'alert');
  const back = element('button', 'nature-back', words.back);
  back.type = 'button';
  back.hidden = true;
  root.append(
    element('div', 'nature-time-row'),
    marked,
    citation,
    element('div', 'nature-open-row'),
    hint,
    status,
    error,
  );
  root.children[0].append(label, slider, now);
  root.children[3].append(open, file, back);
  container.append(root);

  let player = null;
  let drawnAt = 0;
  let trailing = 0; // a show() owed to a move that came too soon after the last (a seek while paused)
  let dragging = false;
  const show = (time) => {
    if (!player) return;
    if (!dragging) slider.value = String(time - player.start);
    now.value = fill(words.timeValue, { now: clock(time - player.start), end: clock(player.end - player.start) });
    const late = player.markedLabels();
    marked.textContent = late.length ? fill(words.marked, { birds: late.join(', ') }) : words.markedNone;
  };
  slider.addEventListener('pointerdown', () => (dragging = true));
  slider.addEventListener('pointerup', () => (dragging = false));
  slider.addEventListener('input', () => {
    if (!player) return;
    player.seek(player.start + Number(slider.value));
    show(player.time);
  });
  file.addEventListener('change', async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    error.textContent = '';
    status.textContent = words.loading;
    try {
      const { replay, text } = await readRecording(chosen);
      const seconds = (replay.end() - replay.start()).toFixed(1);
      status.textContent = fill(words.opened, { name: chosen.name, birds: replay.ids().length, fixes: replay.fixes(), seconds });
      citation.hidden = true;
      back.hidden = false;
      onRecording?.(replay, chosen.name, text);
    } catch (e) {
      status.textContent = '';
      error.textContent = fill(words.failed, { error: e?.message ?? String(e) });
    } finally {
      file.value = ''; // the same file chosen again is read again
    }
  });
  back.addEventListener('click', () => {
    back.hidden = true;
    citation.hidden = false;
    status.textContent = error.textContent = '';
    onPigeons?.();
  });

  return {
    root,
    citation,
    /** Follows `player` (and seeks it) from now on. */
    bind(next) {
      player = next;
      slider.max = String(Math.max(0.1, player.end - player.start));
      player.onMove = (time) => {
        const at = performance.now();
        if (at - drawnAt < REDRAW_EVERY) {
          // Too soon to draw again, but the last move must show: with the flock paused no
          // other move may follow it.
          trailing ||= setTimeout(() => {
            trailing = 0;
            drawnAt = performance.now();
            show(player.time);
          }, REDRAW_EVERY - (at - drawnAt));
          return;
        }
        drawnAt = at;
        show(time);
      };
      show(player.time);
    },
  };
}
