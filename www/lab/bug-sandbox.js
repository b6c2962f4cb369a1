// The classic bugs, safely (issue 42, item 6): a sandbox flock of its own (BugSandbox, the
// tutorials' flat all-pairs step in the experiment worker's module, run on this thread: a few
// hundred boids), never the student's flock, with one switch per mistake everybody makes and
// what to look for, the symptoms measured beside it (boids lost to NaN, drawn as red crosses;
// mean speed; nearest neighbour; order; the work a step), drawn from above on a 2D canvas.
// Loaded on demand (a lesson imports it), never with the page; its words are
// i18n/lab-<lang>.js's `sandbox`.

import { element } from '../core/dom.js';
import { workerModule } from '../core/worker-module.js';
import { whiteCanvas } from './canvas.js';
import { fill, loadLabTexts } from './words.js';

/** The bugs, in the order the texts list them (BugSandbox.bugs()). */
export const BUGS = ['self', 'speed', 'reversed', 'order', 'radius'];
/** Flock sizes offered: a huge radius on 2,000 boids sinks the frame rate visibly. */
export const COUNTS = [200, 500, 1000, 2000];
/** The longest frame the sandbox steps (a tab coming back steps no backlog). */
const MAX_FRAME = 0.1;
/** How often the symptoms are measured and shown, ms (measuring is O(N²) too). */
const SHOW_EVERY = 250;

let built = 0; // sandboxes built on this page (their ids apart)

/** The worker's module on this thread: its `BugSandbox`. */
const sandboxModule = () => workerModule().then((bindings) => bindings.BugSandbox);

/**
 * The sandbox in `container`, in `lang`. Resolves with `{ root, setBug(name, on), advance(s),
 * symptoms(), pause(on) }` once running (or showing why it could not start).
 */
export async function buildBugSandbox(container, { lang = 'en', count = COUNTS[0], seed = 1 } = {}) {
  const all = await loadLabTexts(lang);
  const words = all.sandbox;
  built += 1;
  const root = element('section', 'lab-bugs');
  root.setAttribute('aria-label', words.title);
  container.append(root);
  let BugSandbox;
  try {
    BugSandbox = await sandboxModule();
  } catch (error) {
    const message = element('p', 'lab-status', fill(words.failed, { error: error.message }));
    message.setAttribute('role', 'alert');
    root.append(message);
    return { root, failed: true };
  }
  const number = (digits) => new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const whole = number(0);

  const canvas = element('canvas', 'lab-bugs-view');
  canvas.setAttribute('role', 'img');
  const side = element('div', 'lab-bugs-side');
  const switches = element('fieldset', 'lab-bugs-switches');
  switches.append(element('legend', null, words.legend));
  const inputs = new Map();
  for (const bug of BUGS) {
    const [name, lookFor] = words.bugs[bug];
    const label = element('label', 'lab-bug');
    const input = element('input');
    input.type = 'checkbox';
    input.dataset.bug = bug;
    const hint = element('span', 'lab-bug-hint', lookFor);
    hint.id = `lab-bug-${bug}-${built}`;
    input.setAttribute('aria-describedby', hint.id);
    label.append(input, ' ', element('span', 'lab-bug-name', name));
    const item = element('div', 'lab-bug-item');
    item.append(label, hint);
    switches.append(item);
    inputs.set(bug, input);
  }
  const symptoms = element('dl', 'lab-bugs-symptoms');
  const shown = {};
  for (const key of ['lost', 'speed', 'nearest', 'order', 'work']) {
    const row = element('div');
    shown[key] = element('dd', null, '–');
    row.append(element('dt', null, words[`${key}Label`]), shown[key]);
    symptoms.append(row);
  }
  const tools = element('p', 'lab-bugs-tools');
  const pauseButton = element('button', 'lab-bugs-pause', words.pause);
  pauseButton.type = 'button';
  const restart = element('button', 'lab-bugs-restart', words.restart);
  restart.type = 'button';
  const sizeLabel = element('label', 'lab-bugs-count');
  const size = element('select');
  for (const n of COUNTS) {
    const option = element('option', null, whole.format(n));
    option.value = String(n);
    size.append(option);
  }
  size.value = String(COUNTS.includes(count) ? count : COUNTS[0]);
  sizeLabel.append(element('span', null, words.count), ' ', size);
  tools.append(pauseButton, ' ', restart, ' ', sizeLabel);
  side.append(switches, symptoms, tools);
  root.append(canvas, side);

  let sandbox = null;
  let stepMs = 0;
  let paused = matchMedia('(prefers-reduced-motion: reduce)').matches;
  let visible = false;
  let last = null;
  let lastShown = -Infinity;

  function start() {
    sandbox?.free();
    sandbox = new BugSandbox(Number(size.value), seed);
    for (const [bug, input] of inputs) if (input.checked) sandbox.setBug(bug, true);
    stepMs = 0;
    canvas.setAttribute('aria-label', fill(words.canvas, { count: whole.format(sandbox.count()) }));
    show();
  }

  function draw() {
    const width = canvas.clientWidth || 320;
    const g = whiteCanvas(canvas, width, width);
    const [world] = BugSandbox.world();
    const scale = width / world;
    const p = sandbox.positions();
    const v = sandbox.velocities();
    const lost = sandbox.lost();
    g.fillStyle = '#1d4ed8';
    g.beginPath();
    for (let i = 0; i < lost.length; i++) {
      if (lost[i]) continue;
      const [x, y] = [p[2 * i] * scale, p[2 * i + 1] * scale];
      const speed = Math.hypot(v[2 * i], v[2 * i + 1]) || 1;
      const [dx, dy] = [v[2 * i] / speed, v[2 * i + 1] / speed];
      // A small triangle along the velocity: its nose 5 px ahead, its tail 3 px behind.
      g.moveTo(x + dx * 5, y + dy * 5);
      g.lineTo(x - dx * 3 - dy * 2.5, y - dy * 3 + dx * 2.5);
      g.lineTo(x - dx * 3 + dy * 2.5, y - dy * 3 - dx * 2.5);
      g.closePath();
    }
    g.fill();
    // The lost: a red cross where each was last finite (its numbers never reach the canvas).
    g.strokeStyle = '#dc2626';
    g.lineWidth = 1.5;
    g.beginPath();
    for (let i = 0; i < lost.length; i++) {
      if (!lost[i]) continue;
      const [x, y] = [p[2 * i] * scale, p[2 * i + 1] * scale];
      g.moveTo(x - 3, y - 3);
      g.lineTo(x + 3, y + 3);
      g.moveTo(x + 3, y - 3);
      g.lineTo(x - 3, y + 3);
    }
    g.stroke();
  }

  function show() {
    const [lost, speed, nearest, order, checks, neighbours] = sandbox.symptoms();
    const compact = new Intl.NumberFormat(lang, { notation: 'compact', maximumFractionDigits: 1 });
    shown.lost.textContent = fill(words.lostValue, { lost: whole.format(lost), count: whole.format(sandbox.count()) });
    // With every boid lost there is no speed, spacing or order to measure.
    const none = lost === sandbox.count();
    shown.speed.textContent = none ? '–' : fill(words.speedValue, { value: number(2).format(speed) });
    shown.nearest.textContent = none ? '–' : fill(words.nearestValue, { value: number(2).format(nearest) });
    shown.order.textContent = none ? '–' : number(2).format(order);
    shown.work.textContent = fill(words.workValue, { checks: compact.format(checks), neighbours: compact.format(neighbours), ms: number(2).format(stepMs) });
    root.classList.toggle('lab-bugs-lost', lost > 0);
    draw();
  }

  function frame(now) {
    if (!visible || paused || !root.isConnected) {
      last = null;
      return;
    }
    const dt = last == null ? 1 / 60 : Math.min((now - last) / 1000, MAX_FRAME);
    last = now;
    if (dt > 0) {
      const began = performance.now();
      sandbox.step(dt);
      stepMs = performance.now() - began;
    }
    if (now - lastShown >= SHOW_EVERY) {
      lastShown = now;
      show();
    } else {
      draw();
    }
    requestAnimationFrame(frame);
  }

  function run() {
    if (visible && !paused && last == null) requestAnimationFrame(frame);
  }

  function pause(on) {
    paused = on;
    pauseButton.textContent = paused ? words.play : words.pause;
    pauseButton.setAttribute('aria-pressed', String(paused));
    run();
  }

  for (const [bug, input] of inputs) {
    input.addEventListener('change', () => {
      sandbox.setBug(bug, input.checked);
      show();
    });
  }
  pauseButton.addEventListener('click', () => pause(!paused));
  restart.addEventListener('click', () => start());
  size.addEventListener('change', () => start());
  new IntersectionObserver(([entry]) => {
    visible = entry.isIntersecting;
    run();
  }).observe(canvas);
  new ResizeObserver(() => sandbox && draw()).observe(canvas);

  start();
  pause(paused);
  return {
    root,
    setBug(bug, on) {
      const input = inputs.get(bug);
      if (!input) throw new RangeError(`setBug: bug must be one of ${BUGS.join(', ')}, got ${JSON.stringify(bug)}`);
      input.checked = Boolean(on);
      input.dispatchEvent(new Event('change'));
    },
    /** Steps `seconds` at once (a test's or a teacher's fast-forward), then shows the symptoms. */
    advance(seconds) {
      for (let t = 0; t < seconds; t += 0.25) sandbox.step(Math.min(0.25, seconds - t));
      show();
    },
    symptoms: () => Array.from(sandbox.symptoms()),
    pause,
  };
}
