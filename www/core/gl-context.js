// The WebGL context of one <boids-flock>: made when the element comes on screen (from the
// shared pool, loop.js), given back when the pool needs it for another instance, and
// recovered after the browser takes it (a lost context is restored, or replaced by a fresh
// canvas after a click). Methods mixed into BoidsFlock (boids-embed.js); `this` is the element.

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

export const contextMethods = {

  /** `camera` set or changed: the view turns there now, or starts there once made. */
  cameraOptionChanged(value) {
    const camera = parseCamera(value);
    if (!camera) return;
    this.camera = camera;
    this.view?.setCamera(camera);
    wake();
  },

  resize() {
    if (!this.view || !this.canvas) return;
    const size = this.cssSize ?? this.canvas.getBoundingClientRect();
    this.view.resize(size.width, size.height, window.devicePixelRatio || 1);
  },

  /** Makes the View when on screen and it has none (taking a context from the pool). */
  ensureView({ force = false } = {}) {
    if (this.view || !this.flock || this.contextLost || ['error', 'no-webgl'].includes(this.state)) return;
    if (this.restoring) return;
    if (!pool.acquire(this, { force })) {
      this.coverReason = 'tooMany';
      this.dataset.context = 'waiting';
      this.showCover();
      return;
    }
    this.coverReason = null;
    this.showCover();
    if (this.released && this.loseContext) {
      // Ours was given up with WEBGL_lose_context: ask for it back (see onContextRestored).
      this.restoring = true;
      this.released = false;
      this.dataset.context = 'restoring';
      try {
        this.loseContext.restoreContext();
        clearTimeout(this.restoreTimer);
        this.restoreTimer = setTimeout(() => {
          if (!this.restoring) return;
          // Never restored: start over on a new canvas.
          this.restoring = false;
          this.freshCanvas = true;
          pool.release(this);
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
  },

  createView() {
    try {
      this.view = this.watch(new View(this.canvas));
    } catch (error) {
      pool.release(this);
      if (error?.name !== 'WebGL2Unavailable') throw error;
      this.canvas.hidden = true;
      this.setState('no-webgl');
      this.showMessage(this.text.ui('noWebglTitle'), this.text.ui('noWebglDetail'));
      this.showExplanation(true, { remember: false }); // what is left to read: how it works
      return;
    }
    this.loseContext = this.canvas.getContext('webgl2')?.getExtension('WEBGL_lose_context') ?? null;
    // The camera kept from a View before (a lost context), else the lesson's `camera`.
    this.camera ??= parseCamera(this.option('camera'));
    if (this.camera) this.view.setCamera(this.camera);
    this.contextLost = false;
    this.released = false;
    this.restoring = false;
    this.freshCanvas = false;
    this.dataset.context = 'live';
    if (this.isPage) window.view = this.view;
    this.forceColours_ = null;
    this.viewReady();
    this.contrast.apply();
    this.resize();
    wake();
  },

  /** Frees the View; with `lose`, gives the context back to the browser at once. */
  dropView({ lose = false } = {}) {
    const view = this.view;
    this.view = null;
    if (view) {
      this.letGo(() => {
        this.camera = view.camera();
        view.free();
      });
    }
    if (lose && this.loseContext && !this.canvas.getContext('webgl2')?.isContextLost()) {
      this.released = true;
      this.loseContext.loseContext();
    }
    pool.release(this);
  },

  /** The pool needs this instance's context for another one. */
  releaseContext() {
    this.dropView({ lose: true });
    this.dataset.context = 'released';
    if (this.inView) {
      this.coverReason = 'tooMany';
      this.showCover();
    }
  },

  onContextLost(event) {
    event.preventDefault(); // tells the browser we want the context back
    if (this.released) return; // we gave it up ourselves
    this.contextLost = true;
    this.dataset.context = 'lost';
    pool.release(this);
    clearTimeout(this.restoreTimer);
    this.restoreTimer = setTimeout(() => {
      if (!this.contextLost) return;
      // Not coming back (the browser evicted it): a click makes a new canvas and context.
      this.coverReason = 'contextLost';
      this.showCover();
    }, RESTORE_WAIT);
  },

  onContextRestored() {
    clearTimeout(this.restoreTimer);
    if (!this.flock) return;
    pool.live.add(this);
    const camera = this.view?.camera();
    this.view?.free();
    this.view = null;
    if (camera) this.camera = camera;
    this.contextLost = false;
    this.coverReason = null;
    this.showCover();
    this.createView();
  },

  /** The cover's button: take a context even if every other instance is on screen. */
  resume() {
    if (this.contextLost) {
      this.contextLost = false;
      this.freshCanvas = true;
      this.view?.free();
      this.view = null;
    }
    this.restoring = false;
    this.ensureView({ force: true });
    this.canvas.focus({ preventScroll: true });
  },

  replaceCanvas() {
    const old = this.canvas;
    this.canvas = this.makeCanvas();
    this.canvas.setAttribute('aria-label', old.getAttribute('aria-label') ?? '');
    this.resizer.unobserve(old);
    old.replaceWith(this.canvas);
    this.resizer.observe(this.canvas);
    this.released = false;
    this.loseContext = null;
  },
};
