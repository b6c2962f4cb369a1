// Record and Picture (issue 45): the stage kept as a WebM clip or a PNG picture, for the
// buttons (panel/tools.js, buildKeep) and the element's `record()` and `picture()`. Loaded the
// first time one of them is used: the page's first download carries only the buttons.
// What is kept is the stage as the reader sees it: the sky (the stage's CSS background, painted
// here with the same gradients) under the WebGL canvas, which holds the flock and its overlay
// (the inspected boid's spheres, lines and forces, the trails, the grid's cells: the View
// draws them all, src/render). The labels over the stage (readouts, legend, hints) are HTML and
// stay out. A clip: every frame the element draws is painted onto a 2D canvas right after the
// View's draw (the element's frame calls `drawn()`: the WebGL context keeps no drawing buffer,
// so the canvas holds the frame only within the task that drew it), and MediaRecorder encodes
// that canvas's stream. `Keeper` is the part; it asks of the element its `canvas`, `view`,
// `flock`, `text`, `lang_`, `classList` (the projector look) and `panel.ui` (the buttons).

import { element } from '../core/dom.js';
import { saveBlob } from '../core/save-blob.js';

/**
 * The longest clip, seconds: a lesson's moment lasts seconds, and at Chromium's default
 * 2.5 Mbit/s 30 s make ~9 MB, which a school laptop's memory and a shared drive take easily;
 * a recording forgotten while the teacher talks ends on its own.
 */
export const LIMIT_S = 30;
/** Frames a second at most: the display's 60 would double the file for little the eye tells apart. */
const FPS = 30;
/** MediaRecorder hands over what it has every second: the size so far, shown on the button. */
const SLICE_MS = 1000;
/** How often the button's time and size are written while recording, ms. */
const SHOW_MS = 250;
/** WebM, the first this browser records: VP9 about halves VP8's size for the same look. */
const TYPES = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'];

/** Whether this browser can record a canvas (MediaRecorder and canvas.captureStream). */
export const canRecord = () => typeof MediaRecorder === 'function' && typeof HTMLCanvasElement.prototype.captureStream === 'function';

/** "2026-12-07-065645": local time, for file names that sort. */
function stamp(date = new Date()) {
  const two = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}-${two(date.getHours())}${two(date.getMinutes())}${two(date.getSeconds())}`;
}

/** Seconds as "0:07". */
const clock = (seconds) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/** An argument as an error message shows it. */
const shown = (value) => (typeof value === 'string' ? JSON.stringify(value) : String(value));

/**
 * The night sky of boids-flock.css's `.bf-stage` (two glows over a vertical gradient), or the
 * projector look's black, on `g` over `width` × `height` pixels.
 */
function paintSky(g, width, height, contrast) {
  if (contrast) {
    g.fillStyle = '#000';
    g.fillRect(0, 0, width, height);
    return;
  }
  const sky = g.createLinearGradient(0, 0, 0, height);
  sky.addColorStop(0, '#050a17');
  sky.addColorStop(0.45, '#0b1730');
  sky.addColorStop(1, '#16264a');
  g.fillStyle = sky;
  g.fillRect(0, 0, width, height);
  // radial-gradient(ellipse RX RY at X Y, colour, transparent 70%): a unit circle scaled to the ellipse.
  for (const [rx, ry, x, y, colour] of [
    [0.9, 0.6, 0.5, 1.05, 'rgba(88, 120, 190, 0.35)'],
    [0.7, 0.5, 0.15, 0, 'rgba(60, 80, 150, 0.25)'],
  ]) {
    g.save();
    g.translate(x * width, y * height);
    g.scale(rx * width, ry * height);
    const glow = g.createRadialGradient(0, 0, 0, 0, 0, 1);
    glow.addColorStop(0, colour);
    glow.addColorStop(0.7, 'rgba(0, 0, 0, 0)');
    g.fillStyle = glow;
    g.fillRect(-x / rx, -y / ry, 1 / rx, 1 / ry);
    g.restore();
  }
}

export class Keeper {
  constructor(host) {
    this.host = host;
    /** The clip being recorded: { recorder, canvas, g, chunks, size, began, resolve, ... }, or null. */
    this.clip = null;
  }

  /** A press of Record (start, or Stop while recording) or Picture; the file is downloaded. Never throws. */
  async press(kind) {
    try {
      if (kind === 'picture') {
        const name = `boids-${stamp()}.png`;
        saveBlob(await this.picture(), name);
        this.say(this.host.text.ui('pictureSaved').replace('{file}', name));
      } else if (this.clip) {
        this.stop();
      } else {
        await this.start({ seconds: LIMIT_S, save: true });
      }
    } catch (error) {
      console.warn('<boids-flock>:', error);
      this.say(this.host.text.ui('keepFailed').replace('{error}', error?.message ?? String(error)));
    }
  }

  /** Records `seconds` of the stage (Stop ends it sooner): a promise of the WebM Blob. */
  record(options = {}) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`boids-flock: record() takes { seconds }; got ${shown(options)}`);
    }
    const { seconds = LIMIT_S } = options;
    if (typeof seconds !== 'number') {
      throw new TypeError(`boids-flock: record({ seconds }) needs a number of seconds; got ${shown(seconds)}`);
    }
    if (!(seconds > 0 && seconds <= LIMIT_S)) {
      throw new RangeError(`boids-flock: record({ seconds }) records more than 0 and at most ${LIMIT_S} seconds; got ${seconds}`);
    }
    return this.start({ seconds, save: false });
  }

  /** The stage as it is now, drawn afresh (paused or not), as a PNG: a promise of the Blob. */
  picture() {
    const { view, flock, canvas } = this.host;
    if (!view || !flock) {
      throw new DOMException('boids-flock: nothing to picture: the flock is not drawn now (no WebGL2 view)', 'InvalidStateError');
    }
    const out = element('canvas');
    out.width = canvas.width;
    out.height = canvas.height;
    view.draw(flock); // in this task, so that the canvas still holds it when it is copied
    this.paint(out.getContext('2d'), out.width, out.height);
    return new Promise((resolve, reject) =>
      out.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('boids-flock: the picture could not be made'))), 'image/png'),
    );
  }

  /** Starts a clip of `seconds`; `save`: downloaded when it ends (the button's). Resolves with the Blob. */
  start({ seconds, save }) {
    const host = this.host;
    const t = host.text.ui;
    if (!canRecord()) throw new DOMException(`boids-flock: ${t('recordNone')}`, 'NotSupportedError');
    if (this.clip) throw new DOMException('boids-flock: a clip is being recorded already; wait for it, or press Stop', 'InvalidStateError');
    if (!host.view) throw new DOMException('boids-flock: nothing to record: the flock is not drawn now (no WebGL2 view)', 'InvalidStateError');
    const canvas = element('canvas');
    canvas.width = host.canvas.width;
    canvas.height = host.canvas.height;
    const g = canvas.getContext('2d');
    const type = TYPES.find((candidate) => MediaRecorder.isTypeSupported(candidate));
    if (!type) throw new DOMException(`boids-flock: ${t('recordNone')}`, 'NotSupportedError');
    const stream = canvas.captureStream(FPS);
    const recorder = new MediaRecorder(stream, { mimeType: type });
    const clip = { recorder, canvas, g, chunks: [], size: 0, began: performance.now(), save };
    this.clip = clip;
    this.paint(g, canvas.width, canvas.height); // its first frame, before the next one is drawn
    const done = new Promise((resolve, reject) => {
      recorder.addEventListener('dataavailable', (event) => {
        if (event.data.size === 0) return;
        clip.chunks.push(event.data);
        clip.size += event.data.size;
      });
      recorder.addEventListener('start', () => {
        clip.began = performance.now();
        clip.timeout = setTimeout(() => this.stop(), seconds * 1000);
      });
      recorder.addEventListener('error', (event) => {
        this.end(clip);
        reject(event.error ?? new Error('boids-flock: the recording failed'));
      });
      recorder.addEventListener('stop', () => {
        const elapsed = (performance.now() - clip.began) / 1000;
        this.end(clip);
        const blob = new Blob(clip.chunks, { type: recorder.mimeType || type });
        if (clip.save) {
          const name = `boids-${stamp()}.webm`;
          saveBlob(blob, name);
          this.say(t('recordSaved').replace('{time}', clock(elapsed)).replace('{size}', this.size(blob.size)).replace('{file}', name));
        }
        resolve(blob);
      });
    });
    recorder.start(SLICE_MS);
    clip.ticker = setInterval(() => this.show(), SHOW_MS);
    this.show();
    this.say(t('recordStarted').replace('{max}', LIMIT_S));
    return done;
  }

  /**
   * Ends the clip being recorded (it is kept: `start`'s promise resolves with it, and the
   * button's is saved). Also the element's teardown: a flock taken off the page stops its clip
   * there and lets the stream go (`end`), rather than recording its last frame for up to 30 s.
   */
  stop() {
    if (this.clip?.recorder.state === 'recording') this.clip.recorder.stop();
  }

  end(clip) {
    clearTimeout(clip.timeout);
    clearInterval(clip.ticker);
    clip.recorder.stream.getTracks().forEach((track) => track.stop());
    if (this.clip === clip) this.clip = null;
    this.show();
  }

  /** The element drew a frame (its frame loop, right after the View's draw): the clip takes it. */
  drawn() {
    const clip = this.clip;
    if (clip) this.paint(clip.g, clip.canvas.width, clip.canvas.height);
  }

  /**
   * Sky, then the WebGL canvas (flock and overlay) fitted into `width` × `height`, its shape
   * kept: a stage resized while it records (a phone turned, a window dragged) is not stretched.
   */
  paint(g, width, height) {
    paintSky(g, width, height, this.host.classList.contains('bf-contrast'));
    const canvas = this.host.canvas;
    if (!(canvas.width > 0 && canvas.height > 0)) return;
    const scale = Math.min(width / canvas.width, height / canvas.height);
    const [w, h] = [canvas.width * scale, canvas.height * scale];
    g.drawImage(canvas, (width - w) / 2, (height - h) / 2, w, h);
  }

  /** "1.2 MB", "340 kB" in the element's language (kB whole: the button stays narrow on a phone). */
  size(bytes) {
    const mega = bytes >= 1e6;
    const format = new Intl.NumberFormat(this.host.lang_, { style: 'unit', unit: mega ? 'megabyte' : 'kilobyte', maximumFractionDigits: mega ? 1 : 0 });
    return format.format(bytes / (mega ? 1e6 : 1e3));
  }

  /** Record's button: a dot, "■ 0:07 · 1.2 MB" while recording, named "Stop (0:07 · 1.2 MB)". */
  show() {
    const button = this.host.panel.ui?.record;
    if (!button) return;
    const t = this.host.text.ui;
    const clip = this.clip;
    button.classList.toggle('bf-recording', Boolean(clip));
    if (clip) {
      const time = clock((performance.now() - clip.began) / 1000);
      const size = this.size(clip.size);
      const words = t('recordStop').replace('{time}', time).replace('{size}', size);
      button.textContent = `■ ${time} · ${size}`;
      button.setAttribute('aria-label', words);
      button.title = words;
    } else {
      button.textContent = '●';
      button.setAttribute('aria-label', t('record'));
      if (!button.disabled) button.title = t('recordTitle'); // a disabled one's title says why
    }
  }

  /** Tells screen readers, politely (the panel's live region for Record and Picture). */
  say(message) {
    const said = this.host.panel.ui?.keepSaid;
    if (said) said.textContent = message;
  }
}
