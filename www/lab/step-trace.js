// The pseudocode, traced (issue 42, item 5): the step's pseudocode beside a <boids-flock>, in
// the reader's language, walked line by line with one boid's real numbers: its neighbours,
// each rule's steering (clamped to the maximum force), the weighted sum, the new velocity and
// position. The numbers are the flock's own: `flock.inspect(id)` (the step's arithmetic: its
// `total` is the velocity change the next step makes) before the step, and the boid after
// `el.step()`. The flock pauses while traced. Loaded on demand (a lesson imports it), never
// with the page; its words are i18n/lab-<lang>.js's `trace`.

import { element, flockOf } from '../core/dom.js';
import { fill, loadLabTexts } from './words.js';

/** The lines, in order (each a key of the words' `trace.lines`). */
export const LINES = ['each', 'neighbours', 'separation', 'alignment', 'cohesion', 'sum', 'velocity', 'position'];
/** The line whose walk takes the step (the velocity's update). */
const STEP_AT = LINES.indexOf('velocity');
/** One step of the element, seconds (`el.step()`). */
const H = 1 / 60;

/**
 * The trace of `el`'s step in `container`, in `lang`. Resolves with `{ root, next(), whole(),
 * at() }` (the line walked last, -1 before the first).
 */
export async function buildStepTrace(container, el, { lang = 'en' } = {}) {
  const words = (await loadLabTexts(lang)).trace;
  const flock = await flockOf(el);
  const decimals = new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const whole = new Intl.NumberFormat(lang);
  const vec = (v) => `(${Array.from(v, (x) => decimals.format(x)).join('; ')})`;
  const size = (v) => decimals.format(Math.hypot(...v));

  const root = element('section', 'lab-trace');
  root.setAttribute('aria-label', words.title);
  const boid = element('p', 'lab-trace-boid');
  boid.setAttribute('role', 'status');
  const list = element('ol', 'lab-trace-lines');
  const rows = LINES.map((key) => {
    const item = element('li');
    const code = element('code', null);
    const values = element('span', 'lab-trace-values');
    item.append(code, values);
    list.append(item);
    return { key, item, code, values };
  });
  const tools = element('p', 'lab-trace-tools');
  const nextButton = element('button', 'lab-trace-next', words.next);
  const wholeButton = element('button', 'lab-trace-whole', words.whole);
  const otherButton = element('button', 'lab-trace-other', words.other);
  for (const b of [nextButton, wholeButton, otherButton]) b.type = 'button';
  tools.append(nextButton, ' ', wholeButton, ' ', otherButton);
  root.append(boid, list, tools);
  container.append(root);

  let at = -1;
  let seen = null; // inspect(id) before the step
  let after = null; // inspect(id) after it

  /** The pseudocode with the flock's settings written in. */
  function writeCode() {
    const values = {
      r: decimals.format(flock.perception()),
      rs: decimals.format(flock.separationRadius()),
      F: decimals.format(flock.maxForce()),
      ws: decimals.format(flock.separation()),
      wa: decimals.format(flock.alignment()),
      wc: decimals.format(flock.cohesion()),
      h: '1/60',
    };
    for (const row of rows) row.code.textContent = fill(words.lines[row.key], values);
  }

  function valuesOf(key) {
    const t = seen.terms;
    switch (key) {
      case 'each':
        return fill(words.values.each, { id: seen.id, p: vec(seen.position), v: vec(seen.velocity), speed: decimals.format(seen.speed) });
      case 'neighbours':
        return fill(words.values.neighbours, { heeded: whole.format(seen.heeded.length), close: whole.format(seen.tooClose.length), unseen: whole.format(seen.unseen.length) });
      case 'separation':
      case 'alignment':
      case 'cohesion': {
        // Each rule's steering is clamped to F; then separation is multiplied by its urgency
        // and cohesion divided by it (rules::urgency): `raw` is after both.
        const note = { separation: 'sepNote', alignment: 'aliNote', cohesion: 'cohNote' }[key];
        const values = { v: vec(t[key].raw), size: size(t[key].raw), F: decimals.format(flock.maxForce()), u: decimals.format(seen.urgency) };
        return `${fill(words.values.rule, values)} ${fill(words.values[note], values)}`;
      }
      case 'sum': {
        const others = [t.cruise, t.walls, t.wind, t.hawks, t.obstacles, t.leader, t.pointer].reduce((s, v) => s.map((x, k) => x + v[k]), [0, 0, 0]);
        return fill(words.values.sum, {
          s: vec(t.separation.weighted),
          a: vec(t.alignment.weighted),
          c: vec(t.cohesion.weighted),
          rest: vec(others),
          total: vec(t.total),
          size: size(t.total),
        });
      }
      case 'velocity': {
        const predicted = seen.velocity.map((v, k) => v + t.total[k] * H);
        const changed = predicted.some((v, k) => Math.abs(v - after.velocity[k]) > 1e-3);
        const text = fill(words.values.velocity, { v: vec(after.velocity), speed: decimals.format(after.speed) });
        return changed ? `${text} ${fill(words.values.limited, { v: vec(predicted) })}` : text;
      }
      case 'position':
        return fill(words.values.position, { p: vec(after.position) });
      default:
        return '';
    }
  }

  /** The selected boid, or the one nearest the flock's centre selected now. */
  function chosen() {
    if (el.selectedId == null) el.selectNext(1, { restart: true });
    return el.selectedId;
  }

  function showBoid() {
    const id = el.selectedId;
    boid.textContent = id == null ? words.none : fill(words.boid, { id, time: decimals.format(flock.elapsed()) });
  }

  function reset() {
    at = -1;
    seen = after = null;
    for (const row of rows) {
      row.values.textContent = '';
      row.item.removeAttribute('aria-current');
      row.item.classList.remove('lab-trace-now', 'lab-trace-done');
    }
    writeCode();
    showBoid();
  }

  /** Walks one line; past the last, starts again from the first with the flock as it is now. */
  function next() {
    if (at === LINES.length - 1) reset();
    if (at === -1) {
      el.paused = true;
      const id = chosen();
      seen = id == null ? null : flock.inspect(id);
      if (!seen) {
        showBoid();
        return at;
      }
      writeCode();
    }
    at += 1;
    if (at === STEP_AT) {
      el.step();
      after = flock.inspect(seen.id);
      if (!after) {
        reset();
        return at;
      }
    }
    rows.forEach((row, k) => {
      row.item.classList.toggle('lab-trace-now', k === at);
      row.item.classList.toggle('lab-trace-done', k < at);
      if (k === at) row.item.setAttribute('aria-current', 'step');
      else row.item.removeAttribute('aria-current');
    });
    rows[at].values.textContent = valuesOf(rows[at].key);
    showBoid();
    return at;
  }

  /** The whole step at once (the lines left of a walk under way, else all of them). */
  function wholeStep() {
    do next();
    while (at !== -1 && at < LINES.length - 1);
  }

  nextButton.addEventListener('click', () => next());
  wholeButton.addEventListener('click', () => wholeStep());
  otherButton.addEventListener('click', () => {
    el.selectNext(1);
    reset();
  });
  // Another boid chosen on the stage (a click, N), a rebuild, a seek: the walk starts again.
  el.addEventListener('boids-select', ({ detail }) => {
    if (detail?.id !== seen?.id) reset(); // (the walk's own choice is told too, maybe later)
  });
  el.addEventListener('boids-seek', () => reset());
  el.addEventListener('boids-change', () => at === -1 && writeCode());
  reset();
  return { root, next, whole: wholeStep, at: () => at };
}
