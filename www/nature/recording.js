// A recorded flock in the page (issue 43): a file read into the worker's module's `Replay`
// (www/core/worker-module.js, on demand), and a player that is a <boids-flock>'s `source`:
// each step it moves the element's flock to where the real birds were (`Flock.setBirds`), so
// the same cones, camera, inspector, readout and plot show it as they show the model. The
// birds are drawn around the world's home: the camera rides with the flock.

import { workerModule } from '../core/worker-module.js';

/** The pigeons' flight that ships with the page (Nagy et al. 2010; www/data/). */
export const PIGEONS = new URL('../data/pigeons-ff11.csv.gz', import.meta.url);

/** The text of `source`: a URL fetched, or a File or Blob; unzipped when it is gzip. */
export async function recordingText(source) {
  let blob;
  if (source instanceof Blob) {
    blob = source;
  } else if (typeof source === 'string' || source instanceof URL) {
    const response = await fetch(source);
    if (!response.ok) throw new Error(`${source}: ${response.status} ${response.statusText}`);
    blob = await response.blob();
  } else {
    throw new TypeError('readRecording: source must be a URL, a File or a Blob');
  }
  // By its first bytes, not its name: a server may already have unzipped it.
  const magic = new Uint8Array(await blob.slice(0, 2).arrayBuffer());
  if (magic[0] !== 0x1f || magic[1] !== 0x8b) return blob.text();
  return new Response(blob.stream().pipeThrough(new DecompressionStream('gzip'))).text();
}

/**
 * `{ replay, text }`: a `Replay` of `source` and its text (a fit reads it again in its worker);
 * a malformed file rejects with the `RangeError` naming its line.
 */
export async function readRecording(source) {
  const [text, bindings] = await Promise.all([recordingText(source), workerModule()]);
  return { replay: new bindings.Replay(text), text };
}

/**
 * The view's side for a flock of this radius (`Replay.radius`): drawn around home, the middle
 * of an open sky three views wide, its birds stay 1.5 views from the sky's edge, which keeps
 * them (a bird past it would be moved in, and the measures with it); the camera frames the view.
 */
const viewFor = (radius) => Math.min(1000, Math.max(10, Math.ceil(radius / 1.4)));

/** Plays a `Replay` through a <boids-flock>: `attach(el)`, then it moves with the element's clock. */
export class RecordingPlayer {
  constructor(replay, { loop = true } = {}) {
    this.replay = replay;
    this.start = replay.start();
    this.end = replay.end();
    this.time = this.start;
    this.loop = loop;
    this.el = null;
    /** Called after every move with the time (a bar follows it). */
    this.onMove = null;
  }

  /** Plays through `el` from now on: an open sky wide enough for the flock, its birds the recording's. */
  attach(el) {
    this.detach();
    const flock = el.flock;
    flock.setSky(true);
    flock.setWorldSize(viewFor(this.replay.radius()));
    this.el = el;
    el.source = this;
    this.place(flock);
    el.view?.fitFlock(el.flock);
  }

  /** Gives `el` back to the model (its flock keeps the birds where they were). */
  detach() {
    if (this.el?.source === this) this.el.source = null;
    this.el = null;
  }

  /** The element's step: `dt` seconds on, from the start again after the end (or held there). */
  advance(flock, dt) {
    this.time += dt;
    if (this.time > this.end) this.time = this.loop ? this.start : this.end;
    this.place(flock);
  }

  /** Jumps to `time` (clamped to the recording). */
  seek(time) {
    if (typeof time !== 'number' || Number.isNaN(time)) throw new TypeError(`RecordingPlayer.seek: time must be a number, got ${typeof time}`);
    this.time = Math.min(this.end, Math.max(this.start, time));
    if (this.el) this.place(this.el.flock);
  }

  /** The labels of the birds drawn now, in the flock's order (its ids 0, 1, …). */
  labels() {
    const ids = this.replay.ids();
    return Array.from(this.replay.present(), (bird) => ids[bird]);
  }

  /** The labels of the birds drawn between fixes further apart than usual. */
  markedLabels() {
    const labels = this.labels();
    const marked = this.replay.marked();
    return labels.filter((_, i) => marked[i]);
  }

  place(flock) {
    const home = flock.home();
    this.replay.seek(this.time, home[0], home[1], home[2]);
    flock.setBirds(this.replay.positions(), this.replay.velocities());
    this.onMove?.(this.time);
  }
}
