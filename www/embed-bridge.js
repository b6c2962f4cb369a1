// The iframe form's remote control (embed.html): the page that holds the iframe — a learning
// platform's activity, a lesson page — drives the flock with postMessage and hears back from it.
//
//   <iframe src=".../embed.html?count=800&origins=https://moodle.example.edu" ...></iframe>
//   frame.contentWindow.postMessage({ type: 'boids:set', values: { cohesion: 2.5 } }, 'https://cdn…');
//
// Only the origins listed in `?origins=` (exact origins, comma-separated) are heard, and only
// from the parent window; without `origins` nothing is heard at all. Every value goes through
// the very parsing an attribute goes through (settings.js) and then the element's attribute,
// so a message can do nothing an attribute cannot; junk is refused with a `boids:error` reply
// and changes nothing, and so is a value the lesson locked (`?locked=`, locks.js). What
// happens in the flock (the element's events, events.js) goes to the same origins as
// `boids:event`, shaped for a platform to record as xAPI statements. This module talks to the
// element's public API only (attributes, `.flock`, `.paused`, `.step()`, `.rebuild()`,
// `.isLocked()`, `.rangeOf()`, its events). The protocol: docs/embedding.md.
//
// Apart from the bridge, and with or without `origins`, the iframe tells its parent the
// height its content wants (`lti.frameResize`, the message Canvas and other platforms honour).

import { BoidsFlock } from './boids-embed.js';
import { paramNames } from './core/settings.js';

/** Every message of ours has a type starting so; anything else on the channel is not for us. */
const PREFIX = 'boids:';
/** Metrics every this many seconds at the shortest and longest (a second by default). */
const METRICS_EVERY = { min: 0.25, max: 60, default: 1 };
/** Longest string value taken (an attribute value that long is junk anyway). */
const MAX_TEXT = 64;
/** Largest boid id (ids are u32). */
const MAX_ID = 0xffffffff;
/** A parameter's change is posted once it has been still this long, ms: a slider dragged is one event. */
const CHANGE_QUIET = 500;
/** The height is measured this long after the content last changed size, ms. */
const RESIZE_DELAY = 100;

const warn = (message) => console.warn(`boids embed: ${message}`);

/**
 * The origins of `?origins=`: each must be exactly an http(s) origin ("https://host" or
 * "https://host:port", no path, no trailing slash); anything else is warned about and dropped,
 * as a junk attribute is.
 */
export function allowedOrigins(search = location.search) {
  const raw = new URLSearchParams(search).getAll('origins').join(',');
  const origins = new Set();
  for (const word of raw.split(',').map((w) => w.trim()).filter(Boolean)) {
    let origin = null;
    try {
      const url = new URL(word);
      if ((url.protocol === 'https:' || url.protocol === 'http:') && url.origin === word) origin = word;
    } catch {
      // not a URL: dropped below
    }
    if (origin) origins.add(origin);
    else warn(`origins: ${JSON.stringify(word.slice(0, 80))} is not an origin like https://school.example; ignored`);
  }
  return origins;
}

/** A message value as an attribute's text: a finite number, a boolean or a short string. */
function attributeText(value) {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'string' && value.length <= MAX_TEXT) return value;
  return undefined;
}

const describe = (value) => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number') return String(value);
  return typeof value === 'object' || typeof value === 'undefined' ? `an ${typeof value}` : `a ${typeof value}`;
};

const isRecord = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

class Refused extends Error {}

/** Drives one <boids-flock> for the parent window, on behalf of the allowed origins. */
export class Bridge {
  constructor(element, origins, target = window.parent) {
    this.element = element;
    this.origins = origins;
    this.target = target;
    this.names = paramNames(BoidsFlock.params);
    this.metricsTimer = null;
    this.warned = new Set();
    this.onMessage = (event) => this.receive(event);
    window.addEventListener('message', this.onMessage);
    // A student picks a boid (a click on its cone, N, Esc): the parent hears which.
    element.addEventListener('boidselect', (event) => this.tell({ type: 'boids:selected', id: event.detail?.id ?? null }));
    // Everything the element tells (events.js), as `boids:event`s for a platform to record.
    this.pending = new Map();
    element.addEventListener('boids-change', ({ detail }) => this.changed(detail));
    element.addEventListener('boids-preset', ({ detail }) => this.event('applied', { type: 'preset', id: detail.name }, null, detail.source));
    element.addEventListener('boids-select', ({ detail }) => this.event('selected', { type: 'boid', id: detail.id }));
    element.addEventListener('boids-seek', ({ detail }) => this.sought(detail));
    element.addEventListener('boids-experiment', ({ detail }) => this.event('completed', { type: 'experiment', id: detail.param }, { completion: true, ...detail }));
    this.announce();
  }

  /** A `boids:event` to the allowed origins: [verb, object, result] as an xAPI statement has them. */
  event(verb, object, result = null, source = undefined, time = new Date()) {
    this.tell({ type: 'boids:event', verb, object, result, ...(source ? { source } : {}), time: time.toISOString() });
  }

  /**
   * A parameter's change, posted when it has been still for CHANGE_QUIET: a dragged slider
   * fires a change for every step it passes, and a platform wants one record, where it stopped.
   */
  changed({ name, value, source }) {
    this.settled(`${source} ${name}`, (time) => this.event('changed', { type: 'parameter', id: name }, { value }, source, time));
  }

  /** A seek on the timeline (timeline.js), posted when the dragged bar has been still for CHANGE_QUIET. */
  sought({ time: at, source }) {
    this.settled(`${source} seek`, (time) => this.event('seeked', { type: 'moment', id: 'timeline' }, { time: at }, source, time));
  }

  /** Runs `post(time of the first call)` once calls under `key` have been still for CHANGE_QUIET. */
  settled(key, post) {
    const time = new Date();
    clearTimeout(this.pending.get(key));
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        post(time);
      }, CHANGE_QUIET),
    );
  }

  /** `boids:ready` to the parent, once for each allowed origin (the browser drops the others). */
  announce() {
    this.tell({ type: 'boids:ready', ...this.status() });
  }

  /** `message` to each allowed origin: the browser delivers it only to the parent's. */
  tell(message) {
    for (const origin of this.origins) this.post(message, origin);
  }

  post(message, origin) {
    try {
      this.target.postMessage(message, origin);
    } catch (error) {
      warn(`could not post ${message.type}: ${error}`);
    }
  }

  status() {
    const el = this.element;
    return {
      version: BoidsFlock.version,
      build: BoidsFlock.build,
      state: el.dataset.state ?? 'loading',
      paused: el.paused,
      steps: el.steps,
      values: this.values(),
    };
  }

  /** Every parameter's value as the flock holds it now: name → number (toggles 0 or 1). */
  values() {
    const flock = this.element.flock;
    if (!flock) return {};
    return Object.fromEntries(BoidsFlock.params.map((spec) => [spec.name, Number(flock[spec.getter]())]));
  }

  receive(event) {
    const data = event.data;
    if (!isRecord(data) || typeof data.type !== 'string' || !data.type.startsWith(PREFIX)) return;
    if (event.source !== this.target || !this.origins.has(event.origin)) {
      if (!this.warned.has(event.origin)) {
        this.warned.add(event.origin);
        warn(`a message from ${event.origin} was ignored: it is not the parent page or not in ?origins=`);
      }
      return;
    }
    const verb = data.type.slice(PREFIX.length);
    const reply = (message) => this.post({ ...message, ...(data.ref !== undefined ? { ref: data.ref } : {}) }, event.origin);
    try {
      if (!this.element.flock) throw new Refused(`the flock is not running (${this.element.dataset.state})`);
      reply(this.run(verb, data, event.origin));
    } catch (error) {
      // Refused: the sender's mistake. Anything else (the flock's own TypeError or RangeError,
      // a bug) is told to the sender as well, and to the console.
      if (!(error instanceof Refused)) console.error(error);
      reply({ type: 'boids:error', command: data.type, message: String(error?.message ?? error) });
    }
  }

  /** Carries out one command; returns the reply, or throws Refused with the reason. */
  run(verb, data, origin) {
    const el = this.element;
    switch (verb) {
      case 'hello':
        return { type: 'boids:ready', ...this.status() };
      case 'get':
        return { type: 'boids:state', ...this.status() };
      case 'set':
        return { type: 'boids:state', ...this.set(data.values) };
      case 'pause':
      case 'play':
        el.paused = verb === 'pause';
        return { type: 'boids:state', ...this.status() };
      case 'step':
        if (!el.paused) throw new Refused('boids:step: pause first (a running flock steps by itself)');
        el.step();
        return { type: 'boids:state', ...this.status() };
      case 'rebuild':
        el.rebuild();
        return { type: 'boids:state', ...this.status() };
      case 'select':
        return this.select(data.id);
      case 'metrics':
        return this.metrics(data.every, origin);
      default:
        throw new Refused(`unknown command ${describe(data.type)}; known: boids:hello, get, set, pause, play, step, rebuild, select, metrics`);
    }
  }

  /**
   * `values`: { name: value } with the names and values an attribute takes (any spelling,
   * `predator`, `mode`, `species`). All are checked before any is set: one junk value refuses
   * the whole message.
   */
  set(values) {
    if (!isRecord(values)) throw new Refused(`boids:set: values must be an object of name: value, got ${describe(values)}`);
    const entries = Object.entries(values);
    if (entries.length === 0) throw new Refused('boids:set: values is empty');
    const checked = [];
    const problems = [];
    for (const [name, value] of entries) {
      const found = this.names.resolve(name);
      if (!found?.spec) {
        problems.push(found?.missing ? `${name}: this build has no "${found.missing}" parameter` : `${describe(name)} is not a parameter`);
        continue;
      }
      const { spec } = found;
      if (this.element.isLocked(spec.name)) {
        problems.push(`${name} is locked in this lesson (?locked=)`);
        continue;
      }
      let text = attributeText(value);
      const parsed = text === undefined ? undefined : found.parse(text);
      if (parsed === undefined) {
        const expected = spec.kind === 'toggle' ? 'on/off, 1/0 or true/false' : `a number from ${spec.min} to ${spec.max}`;
        problems.push(`${name}: ${describe(value)} is not a valid ${spec.name} (${expected})`);
        continue;
      }
      // Within the lesson's range (`?ranges=`), as its slider is.
      const { min, max } = this.element.rangeOf(spec.name);
      if (spec.kind !== 'toggle' && (parsed < min || parsed > max)) text = String(Math.min(max, Math.max(min, parsed)));
      checked.push([name, text]);
    }
    if (problems.length) throw new Refused(`boids:set refused, nothing changed: ${problems.join('; ')}`);
    // The attribute does the rest, exactly as if the lesson's HTML had said so.
    for (const [name, text] of checked) this.element.setAttribute(name, text);
    return this.status();
  }

  select(id) {
    const flock = this.element.flock;
    if (id === null) {
      this.element.select?.(null);
      return { type: 'boids:select', id: null, boid: null };
    }
    if (!Number.isInteger(id) || id < 0 || id > MAX_ID) {
      throw new Refused(`boids:select: id must be a whole number from 0 to ${MAX_ID} (from flock.ids()) or null, got ${describe(id)}`);
    }
    const boid = flock.inspect(id);
    if (boid == null) throw new Refused(`boids:select: there is no boid with id ${id}`);
    // The element draws the selection where it can (the instruments); the data goes back either way.
    this.element.select?.(id);
    return { type: 'boids:select', id, boid };
  }

  /** `every`: seconds between `boids:metrics` events (0.25–60, default 1), or 0 to stop. */
  metrics(every = METRICS_EVERY.default, origin) {
    const valid = typeof every === 'number' && (every === 0 || (every >= METRICS_EVERY.min && every <= METRICS_EVERY.max));
    if (!valid) {
      throw new Refused(`boids:metrics: every must be 0 (stop) or seconds from ${METRICS_EVERY.min} to ${METRICS_EVERY.max}, got ${describe(every)}`);
    }
    clearInterval(this.metricsTimer);
    this.metricsTimer = null;
    if (every === 0) return { type: 'boids:metrics', every: 0 };
    const send = () => {
      const el = this.element;
      if (!el.flock) return;
      this.post({ type: 'boids:metrics', every, steps: el.steps, paused: el.paused, count: el.flock.count(), metrics: el.flock.metrics() }, origin);
    };
    this.metricsTimer = setInterval(send, every * 1000);
    send();
    return { type: 'boids:metrics-on', every };
  }
}

/**
 * The height embed.html's content wants at its width, in CSS px: the stage at its own 16:10,
 * the panel unscrolled, and what else the page holds. It does not depend on the iframe's
 * height, so a platform that sets the iframe to it measures the same height again: no loop.
 * (With many controls the element still keeps 60 % for the stage, boids-flock.css, and the
 * panel scrolls a little.)
 */
export function wantedHeight(element) {
  const stage = element.ui?.stage;
  if (!stage?.isConnected) return 0;
  const panel = element.querySelector(':scope > .bf-panel');
  const rest = element.offsetHeight - stage.offsetHeight + (panel ? panel.scrollHeight - panel.clientHeight : 0);
  const around = document.documentElement.clientHeight - element.offsetHeight;
  return Math.ceil(Math.max((element.clientWidth * 10) / 16, 128) + rest + around);
}

/**
 * `lti.frameResize` to the parent whenever the wanted height changes (a group opened, the
 * language, the iframe's width): Canvas sizes the iframe to it, and so do Sakai and Moodle's
 * LTI plugins. Posted to any origin ("*"), unlike the bridge's messages: it carries one number
 * that says nothing of the student, and a teacher pasting an iframe seldom knows the
 * platform's origin. As a JSON string: the form every handler reads (older ones only
 * JSON.parse the data; Canvas today takes a string or an object).
 */
export function reportHeight(element, target = window.parent) {
  let last = 0;
  let timer = 0;
  const measure = () => {
    timer = 0;
    const height = wantedHeight(element);
    if (height <= 0 || height === last) return;
    last = height;
    target.postMessage(JSON.stringify({ subject: 'lti.frameResize', height }), '*');
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(measure, RESIZE_DELAY);
  };
  // The element's box, and what its panel holds (a group opened grows the form, not the panel's box).
  const observer = new ResizeObserver(schedule);
  const watch = () => {
    observer.disconnect();
    observer.observe(element);
    for (const part of element.querySelectorAll(':scope > .bf-panel > *')) observer.observe(part);
    schedule();
  };
  element.addEventListener('boids-flock:panel', watch); // a new panel: new parts to watch
  watch();
}

/**
 * In an iframe: the height for the platform, always; the bridge when `?origins=` is given
 * (without it the iframe listens, and tells what happens, to nobody).
 */
async function main() {
  if (window.parent === window) return; // not in an iframe: nobody to talk to
  const origins = allowedOrigins();
  await customElements.whenDefined('boids-flock');
  const element = document.querySelector('boids-flock');
  if (!element) return;
  reportHeight(element);
  if (origins.size > 0) new Bridge(element, origins);
}

main();
