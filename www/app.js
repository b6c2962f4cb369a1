// Thin glue: creates the Flock and the View, runs the frame loop, wires the controls.
// No simulation logic here; ranges and defaults come from `Flock.params()`.
//
// Page state for tests and embedders: `document.documentElement.dataset.boids` is
// "loading", then "running" once the first frame is drawn, "no-webgl" without WebGL2,
// or "error" after a panic or an uncaught exception (the message is shown in #message).

import init, { Flock, View } from '../boids.js';
import { buildControls } from './controls.js';
import { attachCameraInput } from './camera-input.js';

/** Fixed simulation step, seconds: motion does not depend on the display's refresh rate. */
const STEP = 1 / 60;
/** At most this many steps per frame; a longer backlog is dropped, not caught up. */
const MAX_STEPS_PER_FRAME = 4;
/** How often the readouts refresh, ms. */
const READOUT_PERIOD = 500;

const root = document.documentElement;
const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------------------------------
// Errors: a Rust panic prints its message with console.error (console_error_panic_hook) and
// then traps as a WebAssembly.RuntimeError ("unreachable"); show the panic's own words.

let lastPanic = null;
const consoleError = console.error.bind(console);
console.error = (...args) => {
  const text = args.map(String).join(' ');
  if (text.includes('panicked at')) lastPanic = text.split('\n\nStack:')[0].trim();
  consoleError(...args);
};

let failed = false;

function showMessage(title, detail) {
  let box = $('message');
  if (!box) {
    box = document.createElement('div');
    box.id = 'message';
    box.setAttribute('role', 'alert');
    ($('stage') ?? document.body).append(box);
  }
  box.replaceChildren();
  const heading = document.createElement('strong');
  heading.textContent = title;
  const text = document.createElement('p');
  text.textContent = detail;
  box.append(heading, text);
  return box;
}

function fail(error, { logged = false } = {}) {
  if (failed) return;
  failed = true;
  if (!logged) consoleError(error);
  let detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  if (lastPanic && (error instanceof WebAssembly.RuntimeError || !(error instanceof Error))) {
    detail = lastPanic;
  }
  showMessage('The simulation stopped because of an error.', `${detail} (Reload the page to start again.)`);
  root.dataset.boids = 'error';
}

window.addEventListener('error', (event) => fail(event.error ?? event.message, { logged: true }));
window.addEventListener('unhandledrejection', (event) => fail(event.reason, { logged: true }));

// ---------------------------------------------------------------------------------------

function urlNumber(params, name) {
  if (!params.has(name)) return undefined;
  const value = Number(params.get(name));
  return Number.isFinite(value) ? value : undefined;
}

async function main() {
  await init();

  const url = new URLSearchParams(location.search);
  const specs = Flock.params();
  const countSpec = specs.find((spec) => spec.name === 'count');
  const flock = new Flock(urlNumber(url, 'count') ?? countSpec.default, urlNumber(url, 'seed'));
  window.flock = flock;

  const canvas = $('view');

  let view;
  try {
    view = new View(canvas);
  } catch (error) {
    if (error?.name !== 'WebGL2Unavailable') throw error;
    canvas.hidden = true;
    showMessage('This browser cannot draw the flock.', error.message);
    root.dataset.boids = 'no-webgl';
    return;
  }
  window.view = view;

  // ---- size: the canvas fills #stage; its drawing buffer follows in device pixels ---------
  let cssSize = null;
  const resize = () => {
    const size = cssSize ?? canvas.getBoundingClientRect();
    view.resize(size.width, size.height, window.devicePixelRatio || 1);
  };
  new ResizeObserver((entries) => {
    const box = entries[entries.length - 1].contentRect;
    cssSize = { width: box.width, height: box.height };
    resize();
  }).observe(canvas);
  // devicePixelRatio changes (browser zoom, another monitor) without a resize of the box.
  const watchPixelRatio = () => {
    matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener(
      'change',
      () => {
        resize();
        watchPixelRatio();
      },
      { once: true },
    );
  };
  watchPixelRatio();
  resize();

  // ---- lost and restored WebGL context: the flock lives on --------------------------------
  let contextLost = false;
  canvas.addEventListener('webglcontextlost', (event) => {
    event.preventDefault(); // tells the browser we want the context back
    contextLost = true;
  });
  canvas.addEventListener('webglcontextrestored', () => {
    const camera = view.camera();
    view.free();
    view = new View(canvas);
    view.setCamera(camera);
    window.view = view;
    contextLost = false;
    resize();
    draw();
  });

  // ---- loop state ---------------------------------------------------------------------------
  let paused = url.get('paused') === '1';
  let last = null; // time of the previous frame, ms
  let backlog = 0; // simulated time owed, s
  let frames = 0; // frames since windowStart
  let simTime = 0; // ms spent stepping since windowStart
  let windowStart = null;
  const resetClock = () => {
    last = null;
    backlog = 0;
    windowStart = null;
  };
  const draw = () => {
    if (!contextLost && !failed) view.draw(flock);
  };

  // ---- controls ---------------------------------------------------------------------------
  const boidCount = $('boid-count');
  const showCount = () => {
    boidCount.textContent = String(flock.count());
  };
  // The frame loop draws every frame, paused or not, so changes show without extra draws.
  const syncControls = buildControls($('controls'), specs, () => flock, (spec) => {
    if (spec.name === 'count') showCount();
  });

  const pauseButton = $('pause');
  const showPaused = () => {
    pauseButton.textContent = paused ? 'Play' : 'Pause';
    pauseButton.setAttribute('aria-pressed', String(paused));
    root.classList.toggle('paused', paused);
  };
  pauseButton.addEventListener('click', () => {
    paused = !paused;
    resetClock();
    showPaused();
  });
  $('step').addEventListener('click', () => {
    const start = performance.now();
    flock.step(STEP);
    simTime += performance.now() - start;
    draw();
  });
  $('rebuild').addEventListener('click', () => {
    flock.rebuild();
    syncControls();
  });
  showPaused();
  showCount();

  attachCameraInput(canvas, () => (contextLost ? null : view));

  // ---- frame loop ---------------------------------------------------------------------------
  document.addEventListener('visibilitychange', resetClock);

  const fps = $('fps');
  const simMs = $('sim-ms');
  // FPS and simulation ms per frame, averaged over READOUT_PERIOD.
  function readouts(now) {
    if (windowStart === null) {
      simMs.textContent = `${simTime.toFixed(2)} ms`;
      windowStart = now;
      frames = 0;
      simTime = 0;
      return;
    }
    frames += 1;
    const elapsed = now - windowStart;
    if (elapsed < READOUT_PERIOD) return;
    const rate = (1000 * frames) / elapsed;
    fps.textContent = rate.toFixed(rate < 10 ? 1 : 0);
    showCount(); // the count may also change from the console or an embedding page
    simMs.textContent = `${(simTime / frames).toFixed(2)} ms`;
    windowStart = now;
    frames = 0;
    simTime = 0;
  }

  function frame(now) {
    if (failed) return;
    try {
      if (!paused && !document.hidden) {
        const elapsed = last === null ? STEP : Math.max(0, (now - last) / 1000);
        backlog += elapsed;
        let steps = 0;
        const start = performance.now();
        while (backlog >= STEP && steps < MAX_STEPS_PER_FRAME) {
          flock.step(STEP);
          backlog -= STEP;
          steps += 1;
        }
        if (backlog >= STEP) backlog = 0; // too far behind: drop it rather than spiral
        simTime += performance.now() - start;
      }
      last = now;
      draw();
      readouts(now);
      if (root.dataset.boids === 'loading') root.dataset.boids = 'running';
      requestAnimationFrame(frame);
    } catch (error) {
      fail(error);
    }
  }
  requestAnimationFrame(frame);
}

main().catch((error) => fail(error));
