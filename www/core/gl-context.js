// The WebGL context of one <boids-flock>: made when the element comes on screen (from the
// shared pool, loop.js), given back when the pool needs it for another instance, and
// recovered after the browser takes it (a lost context is restored, or replaced by a fresh
// canvas after a click). `GlContext` is the part that owns the context's state (lost,
// released, restoring, the camera kept across Views); the element keeps its View and canvas,
// and the pool (loop.js) still deals with the element, which asks this part.

import { View } from './wasm-load.js';
import { pool, wake } from './loop.js';
import { parseNumber } from './settings.js';

/**
 * `camera="yaw pitch zoom"` (or `?camera=` in url mode): the view a lesson starts from, as the
 * studio writes it from its preview. Yaw (round the vertical) and pitch (above the horizon) in
 * degrees, the zoom as View.camera() has it; the point looked at is the world's centre (under
 * the open sky the camera then glides to the flock, as always). Radians for View.setCamera, or
 * null (warned) for anything else.
 */
export function parseCamera(raw) {
  if (raw == null) return null;
  const numbers = String(raw).trim().split(/\s+/).map(parseNumber);
  if (numbers.length !== 3 || numbers.some((n) => n === undefined) || !(numbers[2] > 0)) {
    console.warn(`<boids-flock>: camera=${JSON.stringify(String(raw).slice(0, 40))} is not "yaw pitch zoom" (degrees, degrees, a zoom above 0); ignored`);
    return null;
  }
  const [yaw, pitch, zoom] = numbers;
  return [(yaw * Math.PI) / 180, (pitch * Math.PI) / 180, zoom];
}

/** A context the browser took and did not give back within this time needs a click. */
const RESTORE_WAIT = 2000;

export class GlContext {
  /**
   * `host`, the element, for: its View and canvas (`view`, `canvas`, set here; `makeCanvas`,
   * `resizer`, `cssSize`), its flock and state (`flock`, `state`, `setState`, `dataset`,
   * `inView`), its cover and messages (`coverReason`, `showCover`, `showMessage`,
   * `showExplanation`, `text`), its options (`option`, `isPage`), the handle and its release
   * (`watch`, `letGo`) and what follows a new View (`contrast.apply`, `viewReady`).
   */
  constructor(host) {
    this.host = host;
    this.reset();
  }

  /** A fresh start (the element set up again after it was taken out of the page). */
  reset() {
    this.loseContext = null;
    /** Given back on purpose (WEBGL_lose_context): its loss is none of the browser's doing. */
    this.released = false;
    /** Asked back after being given; a new canvas if it has not come within RESTORE_WAIT. */
    this.restoring = false;
    /** The browser took the context. */
    this.lost = false;
    /** The next View goes on a new canvas (the old context is not coming back). */
    this.freshCanvas = false;
    clearTimeout(this.restoreTimer);
  }

  /** Stops waiting for a context to come back (the element leaves the page). */
  cancelTimers() {
    clearTimeout(this.restoreTimer);
  }

  /** `camera` set or changed: the view turns there now, or starts there once made. */
  cameraOptionChanged(value) {
    const camera = parseCamera(value);
    if (!camera) return;
    this.camera = camera;
    this.host.view?.setCamera(camera);
    wake();
  }

  resize() {
    const { view, canvas } = this.host;
    if (!view || !canvas) return;
    const size = this.host.cssSize ?? canvas.getBoundingClientRect();
    view.resize(size.width, size.height, window.devicePixelRatio || 1);
  }

  /** Makes the View when on screen and it has none (taking a context from the pool). */
  ensureView({ force = false } = {}) {
    const host = this.host;
    if (host.view || !host.flock || this.lost || ['error', 'no-webgl'].includes(host.state)) return;
    if (this.restoring) return;
    if (!pool.acquire(host, { force })) {
      host.coverReason = 'tooMany';
      host.dataset.context = 'waiting';
      host.panel.showCover();
      return;
    }
    host.coverReason = null;
    host.panel.showCover();
    if (this.released && this.loseContext) {
      // Ours was given up with WEBGL_lose_context: ask for it back (see onContextRestored).
      this.restoring = true;
      this.released = false;
      host.dataset.context = 'restoring';
      try {
        this.loseContext.restoreContext();
        clearTimeout(this.restoreTimer);
        this.restoreTimer = setTimeout(() => {
          if (!this.restoring) return;
          // Never restored: start over on a new canvas.
          this.restoring = false;
          this.freshCanvas = true;
          pool.release(host);
          this.ensureView();
        }, RESTORE_WAIT);
        return;
      } catch {
        this.restoring = false;
        this.freshCanvas = true;
      }
    }
    if (this.freshCanvas) this.replaceCanvas();
    this.createView();
  }

  createView() {
    const host = this.host;
    try {
      host.view = host.watch(new View(host.canvas));
    } catch (error) {
      pool.release(host);
      if (error?.name !== 'WebGL2Unavailable') throw error;
      host.canvas.hidden = true;
      host.setState('no-webgl');
      host.panel.showMessage(host.text.ui('noWebglTitle'), host.text.ui('noWebglDetail'));
      host.panel.showExplanation(true, { remember: false }); // what is left to read: how it works
      return;
    }
    this.loseContext = host.canvas.getContext('webgl2')?.getExtension('WEBGL_lose_context') ?? null;
    // The camera kept from a View before (a lost context), else the lesson's `camera`.
    this.camera ??= parseCamera(host.option('camera'));
    if (this.camera) host.view.setCamera(this.camera);
    this.lost = false;
    this.released = false;
    this.restoring = false;
    this.freshCanvas = false;
    host.dataset.context = 'live';
    if (host.isPage) window.view = host.view;
    host.viewReady();
    host.contrast.apply();
    this.resize();
    wake();
  }

  /** Frees the View; with `lose`, gives the context back to the browser at once. */
  dropView({ lose = false } = {}) {
    const host = this.host;
    const view = host.view;
    host.view = null;
    if (view) {
      host.letGo(() => {
        this.camera = view.camera();
        view.free();
      });
    }
    if (lose && this.loseContext && !host.canvas.getContext('webgl2')?.isContextLost()) {
      this.released = true;
      this.loseContext.loseContext();
    }
    pool.release(host);
  }

  /** The pool needs this instance's context for another one. */
  releaseContext() {
    const host = this.host;
    this.dropView({ lose: true });
    host.dataset.context = 'released';
    if (host.inView) {
      host.coverReason = 'tooMany';
      host.panel.showCover();
    }
  }

  onContextLost(event) {
    const host = this.host;
    event.preventDefault(); // tells the browser we want the context back
    if (this.released) return; // we gave it up ourselves
    this.lost = true;
    host.dataset.context = 'lost';
    pool.release(host);
    clearTimeout(this.restoreTimer);
    this.restoreTimer = setTimeout(() => {
      if (!this.lost) return;
      // Not coming back (the browser evicted it): a click makes a new canvas and context.
      host.coverReason = 'contextLost';
      host.panel.showCover();
    }, RESTORE_WAIT);
  }

  onContextRestored() {
    const host = this.host;
    clearTimeout(this.restoreTimer);
    if (!host.flock) return;
    pool.live.add(host);
    const camera = host.view?.camera();
    host.view?.free();
    host.view = null;
    if (camera) this.camera = camera;
    this.lost = false;
    host.coverReason = null;
    host.panel.showCover();
    this.createView();
  }

  /** The cover's button: take a context even if every other instance is on screen. */
  resume() {
    const host = this.host;
    if (this.lost) {
      this.lost = false;
      this.freshCanvas = true;
      host.view?.free();
      host.view = null;
    }
    this.restoring = false;
    this.ensureView({ force: true });
    host.canvas.focus({ preventScroll: true });
  }

  replaceCanvas() {
    const host = this.host;
    const old = host.canvas;
    host.canvas = host.makeCanvas();
    host.canvas.setAttribute('aria-label', old.getAttribute('aria-label') ?? '');
    host.resizer.unobserve(old);
    old.replaceWith(host.canvas);
    host.resizer.observe(host.canvas);
    this.released = false;
    this.loseContext = null;
  }
}
