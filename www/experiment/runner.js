// Experiments (issue 26): one parameter swept over values, for a few seeds, each point let
// settle and then measured. Runs in a module Web Worker (experiment-worker.js) with its own
// module (boids_worker_bg.wasm: the simulation and the experiment, SIMD128, never relaxed SIMD,
// so the rows do not depend on the browser; none of the page's drawing), so a page's flock
// keeps flying. Loaded on demand only; touches no
// globals. Works from any folder (URLs from import.meta.url).
//
// The spec (every field but `settings` and `slice` required):
//   { settings: {cohesion: 1.2, wrap: 1},   // base parameters (Flock.params() names), in order
//     param: 'noise', values: [0, 0.5, 1],  // the swept parameter and its points
//     direction: 'up' | 'up-down',          // fresh flock per point | carried up, then down
//     seeds: [1, 2, 3], count: 1500,        // seeds (whole numbers) and boids
//     settle: 20, measure: 10, sampleEvery: 0.5,  // seconds of flock time
//     slice: { index: 0, of: 4 } }          // optional: run only this share (a class split)
//
// Exports:
// - runExperiment(spec, { onProgress, signal }) → Promise<result>. Rejects with a TypeError or
//   RangeError whose message names the field before any step runs; `signal` (AbortSignal)
//   stops it: rejects with DOMException 'AbortError' at once (the worker is terminated).
//   onProgress({ done, total, fraction, secondsLeft, rows }) after each chunk of ~50 ms
//   (done/total: flock steps; secondsLeft: null until a rate is known; rows: all so far).
//   result = { spec, fingerprint, version, rows, csv(link?) }: `spec` the spec read (keys in
//   the order above), `fingerprint` 16 hex digits (the same for every slice of an
//   experiment), `version` the module's, rows in the order run: [{ param, direction:
//   'up'|'down', seed, value, samples, polarization: {mean, sd}, milling, groups,
//   largestGroup, medianNearest, meanNeighbours }], `csv(link)` = toCsv(result, link).
// - toCsv(result, link?) → the CSV text, the same as the native `experiment` binary writes.
// - mergeResults(results, spec?) → a result of the whole experiment: rows in canonical order
//   (seed, up then down, values as run), no slice; `missing` says how many rows are still
//   to come. TypeError for results of another experiment, a row given twice, or no spec
//   (results from parseResultCode(code) without a spec need `spec` here).
// - resultCode(result) → Promise<string>: "boids1:" + base64url of the compressed JSON
//   { fingerprint, slice, param, version, rows } (short enough to paste).
// - parseResultCode(code, spec?) → Promise<result>: TypeError for text that is no code or is
//   garbled, and (given the spec, e.g. from the teacher's link) for another experiment's.
// - experimentLink(spec, base = location.href) → a URL with `?experiment=<base64url JSON>`;
//   specFromLink(url = location.href) → the spec, or null when there is none (TypeError
//   when it is garbled).
// - sliceSpecs(spec, n) → n specs, slice k of n each; their results merged are the whole.
// - experimentFingerprint(spec) → the 16 hex digits `result.fingerprint` has (no worker).
// - SPEC_FIELDS: the spec's fields, in order.

export const SPEC_FIELDS = Object.freeze([
  'settings', 'param', 'values', 'direction', 'seeds', 'count', 'settle', 'measure', 'sampleEvery', 'slice',
]);

const CODE_PREFIX = 'boids1:';
/** Arrays longer than this are not copied whole (the module refuses more than 201 values). */
const ARRAY_MAX = 1000;
const STATS = ['polarization', 'milling', 'groups', 'largestGroup', 'medianNearest', 'meanNeighbours'];
const HEADER =
  'param,direction,seed,value,samples,polarization,polarization_sd,milling,milling_sd,groups,groups_sd,' +
  'largest_group,largest_group_sd,median_nearest,median_nearest_sd,mean_neighbours,mean_neighbours_sd';

function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy that a worker can be sent: functions and symbols are refused, naming the field. */
function plain(value, field, where) {
  if (typeof value === 'function' || typeof value === 'symbol') {
    throw new TypeError(`${where}: ${field} cannot be ${describe(value)}`);
  }
  if (Array.isArray(value)) {
    const length = Math.min(value.length, ARRAY_MAX);
    return Array.from({ length }, (_, i) => plain(value[i], `${field}[${i}]`, where));
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.keys(value).map((key) => [key, plain(value[key], `${field}.${key}`, where)]));
  }
  return value;
}

/**
 * The spec with its fields in order (`settings` {} when left out, `slice` only when given),
 * copied; a TypeError for what is no spec or has a field of another name. The rest is
 * checked by the module (runExperiment) or by the function that needs it.
 */
function readSpec(spec, where) {
  if (!isObject(spec)) throw new TypeError(`${where}: spec must be an object, got ${describe(spec)}`);
  const unknown = Object.keys(spec).find((key) => !SPEC_FIELDS.includes(key));
  if (unknown !== undefined) {
    throw new TypeError(`${where}: spec.${unknown} is not a field of a spec (${SPEC_FIELDS.join(', ')})`);
  }
  const read = {};
  for (const field of SPEC_FIELDS) {
    const value = field === 'settings' ? (spec.settings ?? {}) : spec[field];
    if (field === 'slice' && value == null) continue;
    read[field] = plain(value, field, where);
  }
  return read;
}

const withoutSlice = ({ slice, ...spec }) => spec; // eslint-disable-line no-unused-vars

// ---- the fingerprint (Spec::fingerprint in src/sim/experiment.rs, FNV-1a 64) -------------

/** The experiment's print, 16 hex digits, as the module computes it (for a valid spec). */
export function experimentFingerprint(spec) {
  spec = readSpec(spec, 'experimentFingerprint');
  const bytes = [];
  const view = new DataView(new ArrayBuffer(8));
  const out = (n) => bytes.push(...new Uint8Array(view.buffer, 0, n));
  const word = (n) => (view.setBigUint64(0, BigInt(n), true), out(8));
  const real = (x) => (view.setFloat64(0, Number(x) + 0, true), out(8));
  const text = (s) => bytes.push(...new TextEncoder().encode(s));
  const name = (s) => (text(String(s)), bytes.push(0));
  const settings = Object.entries(spec.settings);
  word(settings.length);
  for (const [key, value] of settings) name(key), real(value);
  name(spec.param);
  word(spec.values.length);
  spec.values.forEach(real);
  text(String(spec.direction));
  word(spec.seeds.length);
  for (const seed of spec.seeds) view.setUint32(0, seed, true), out(4);
  word(spec.count);
  [spec.settle, spec.measure, spec.sampleEvery].forEach(real);
  // 64-bit multiply by the FNV prime 2^40 + 0x1b3, in 16-bit pieces (exact in doubles).
  let h = [0x2325, 0x8422, 0x9ce4, 0xcbf2]; // 0xcbf29ce484222325, low piece first
  for (const byte of bytes) {
    h[0] ^= byte;
    const p = [0, 0, 0, 0];
    for (let i = 0; i < 4; i++) {
      p[i] += h[i] * 0x1b3;
      if (i + 2 < 4) p[i + 2] += h[i] << 8; // 2^40 = 2^32 · 2^8: piece i lands in i + 2
    }
    let carry = 0;
    h = p.map((v) => {
      v += carry;
      carry = Math.floor(v / 0x10000);
      return v % 0x10000;
    });
  }
  return h.reverse().map((piece) => piece.toString(16).padStart(4, '0')).join('');
}

// ---- running -------------------------------------------------------------------------

/** The worker, same-origin directly; from another origin (a CDN) through a same-origin blob. */
function startWorker() {
  const url = new URL('./experiment-worker.js', import.meta.url);
  if (url.origin === globalThis.location?.origin) return { worker: new Worker(url, { type: 'module' }), blob: null };
  const blob = URL.createObjectURL(new Blob([`import ${JSON.stringify(url.href)};`], { type: 'text/javascript' }));
  return { worker: new Worker(blob, { type: 'module' }), blob };
}

const ERRORS = { TypeError, RangeError };

/** A result object: the rows and what they came from, and csv(link). */
function result(spec, fingerprint, version, rows, extra = {}) {
  const made = { spec, fingerprint, version, rows, ...extra };
  made.csv = (link) => toCsv(made, link);
  return made;
}

/**
 * Runs `spec` in a worker. Resolves to the result; rejects with the module's TypeError or
 * RangeError for a refused spec (before any step), with an AbortError when `signal` aborts.
 */
export function runExperiment(spec, { onProgress, signal } = {}) {
  return new Promise((resolve, reject) => {
    const aborted = () => new DOMException('the experiment was stopped', 'AbortError');
    if (signal?.aborted) return reject(aborted());
    let read;
    try {
      read = readSpec(spec, 'runExperiment');
      if (onProgress != null && typeof onProgress !== 'function') {
        throw new TypeError(`runExperiment: onProgress must be a function, got ${describe(onProgress)}`);
      }
    } catch (error) {
      return reject(error);
    }
    const { worker, blob } = startWorker();
    const rows = [];
    let fingerprint = null;
    let version = null;
    let started = 0;
    const stop = () => {
      worker.terminate();
      if (blob) URL.revokeObjectURL(blob);
      signal?.removeEventListener('abort', onAbort);
    };
    const fail = (error) => (stop(), reject(error));
    const onAbort = () => fail(aborted());
    signal?.addEventListener('abort', onAbort, { once: true });
    const progress = (done, total) => {
      if (!onProgress) return;
      const elapsed = (performance.now() - started) / 1000;
      const secondsLeft = done > 0 && elapsed > 0 ? ((total - done) * elapsed) / done : null;
      onProgress({ done, total, fraction: total > 0 ? done / total : 1, secondsLeft, rows: rows.slice() });
    };
    worker.onmessage = ({ data }) => {
      try {
        if (data.type === 'error') {
          const Class = ERRORS[data.name] ?? Error;
          fail(new Class(data.message));
        } else if (data.type === 'ready') {
          ({ fingerprint, version } = data);
          started = performance.now();
          progress(0, data.total);
        } else {
          rows.push(...data.rows);
          progress(data.done, data.total);
          if (data.type === 'done') {
            stop();
            resolve(result(read, fingerprint, version, rows));
          }
        }
      } catch (error) {
        fail(error); // onProgress threw: the run stops with its error
      }
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      fail(new Error(`runExperiment: the worker failed (${event.message || 'experiment-worker.js did not load'})`));
    };
    worker.postMessage({ spec: read });
  });
}

// ---- CSV -----------------------------------------------------------------------------

const csvNumber = (n) => (Number.isNaN(n) || n == null ? '' : String(n));

/** The result's CSV: comment lines (version, print, spec, slice, link), a header, its rows. */
export function toCsv(result, link) {
  const { spec, fingerprint, version, rows } = result;
  const lines = [`# boids ${version ?? 'unknown'}`, `# experiment ${fingerprint}`];
  if (spec) lines.push(`# spec ${JSON.stringify(withoutSlice(spec))}`);
  if (spec?.slice) lines.push(`# slice ${spec.slice.index + 1}/${spec.slice.of}`);
  if (link != null && link !== '') lines.push(`# link ${String(link).replace(/[\r\n]+/g, '')}`);
  lines.push(HEADER);
  for (const row of rows) {
    const stats = STATS.flatMap((name) => [csvNumber(row[name].mean), csvNumber(row[name].sd)]);
    lines.push([row.param, row.direction, row.seed, csvNumber(row.value), row.samples, ...stats].join(','));
  }
  return lines.map((line) => `${line}\n`).join('');
}

// ---- slices and merging --------------------------------------------------------------

function arrayField(spec, field, where) {
  if (!Array.isArray(spec[field])) throw new TypeError(`${where}: ${field} must be an array, got ${describe(spec[field])}`);
  return spec[field];
}

/** The experiment's units in canonical order, each its points [seedIndex, direction, valueIndex]. */
function units(spec, where) {
  const seeds = arrayField(spec, 'seeds', where).length;
  const values = arrayField(spec, 'values', where).length;
  const list = [];
  for (let s = 0; s < seeds; s++) {
    const up = Array.from({ length: values }, (_, v) => [s, 'up', v]);
    if (spec.direction === 'up-down') list.push([...up, ...up.map(([, , v]) => [s, 'down', v]).reverse()]);
    else list.push(...up.map((point) => [point]));
  }
  return list;
}

/** `n` specs, slice 0 to n − 1 of n each: units k, k + n, … of the experiment. */
export function sliceSpecs(spec, n) {
  spec = withoutSlice(readSpec(spec, 'sliceSpecs'));
  const total = units(spec, 'sliceSpecs').length;
  if (!Number.isInteger(n) || n < 1 || n > total) {
    throw new RangeError(`sliceSpecs: n must be a whole number from 1 to ${total} (the experiment's units), got ${n}`);
  }
  return Array.from({ length: n }, (_, index) => ({ ...spec, slice: { index, of: n } }));
}

/**
 * The rows of `results` (of one experiment: slices, or the whole) in canonical order, as one
 * result of the whole experiment.
 */
export function mergeResults(results, spec) {
  const where = 'mergeResults';
  if (!Array.isArray(results) || results.length === 0) {
    throw new TypeError(`${where}: results must be a non-empty array, got ${describe(results)}`);
  }
  results.forEach((r, i) => {
    if (!isObject(r) || !Array.isArray(r.rows)) throw new TypeError(`${where}: results[${i}] is not a result`);
  });
  spec = spec ?? results.find((r) => r.spec)?.spec;
  if (!spec) throw new TypeError(`${where}: no spec (pass the experiment's spec as the second argument)`);
  spec = withoutSlice(readSpec(spec, where));
  const fingerprint = experimentFingerprint(spec);
  const all = units(spec, where);
  const canonical = all.flat();
  const index = new Map(canonical.map(([s, d, v], i) => [`${s} ${d} ${v}`, i]));
  const placed = new Array(canonical.length);
  results.forEach((r, i) => {
    if (r.fingerprint !== fingerprint) {
      throw new TypeError(
        `${where}: results[${i}] is from another experiment (print ${r.fingerprint}, this one's ${fingerprint})`,
      );
    }
    const slice = r.spec?.slice ?? r.slice ?? { index: 0, of: 1 };
    const expected = all.filter((_, u) => u % slice.of === slice.index).flat();
    if (r.rows.length > expected.length) throw new TypeError(`${where}: results[${i}] has more rows than its slice`);
    r.rows.forEach((row, j) => {
      const [s, d, v] = expected[j];
      if (row.seed !== spec.seeds[s] || row.direction !== d || row.value !== spec.values[v]) {
        throw new TypeError(`${where}: results[${i}].rows[${j}] is not the row its slice holds there (garbled?)`);
      }
      const at = index.get(`${s} ${d} ${v}`);
      if (placed[at]) throw new TypeError(`${where}: results[${i}].rows[${j}] was given twice (the same slice twice?)`);
      placed[at] = row;
    });
  });
  const rows = placed.filter(Boolean);
  const version = results.find((r) => r.version)?.version ?? null;
  return result(spec, fingerprint, version, rows, { missing: canonical.length - rows.length });
}

// ---- codes and links -----------------------------------------------------------------

function base64url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('not base64url');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function transform(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

function compressor() {
  try {
    return new CompressionStream('deflate-raw');
  } catch {
    return new CompressionStream('gzip'); // older browsers; told apart by gzip's magic bytes
  }
}

/** A short text of the result to paste back: "boids1:" + base64url of compressed JSON. */
export async function resultCode(result) {
  if (!isObject(result) || !Array.isArray(result.rows)) throw new TypeError(`resultCode: not a result, got ${describe(result)}`);
  const rows = result.rows.map((row) => [
    row.seed,
    row.direction === 'down' ? 1 : 0,
    row.value,
    row.samples,
    ...STATS.flatMap((name) => [row[name].mean, row[name].sd]),
  ]);
  const json = JSON.stringify({
    fingerprint: result.fingerprint,
    slice: result.spec?.slice ?? result.slice ?? null,
    param: result.rows[0]?.param ?? result.spec?.param ?? null,
    version: result.version ?? null,
    rows,
  });
  return CODE_PREFIX + base64url(await transform(new TextEncoder().encode(json), compressor()));
}

const garbled = () => new TypeError('parseResultCode: the code is garbled (was it copied whole?)');

/**
 * The result in a code from resultCode. With `spec` (the experiment's), a code of another
 * experiment is a TypeError, and the result carries the spec (with the code's slice).
 */
export async function parseResultCode(code, spec) {
  if (typeof code !== 'string') throw new TypeError(`parseResultCode: code must be a string, got ${describe(code)}`);
  code = code.replace(/\s+/g, '');
  if (!code.startsWith(CODE_PREFIX)) throw new TypeError(`parseResultCode: not a result code (one starts with "${CODE_PREFIX}")`);
  let data;
  try {
    const bytes = fromBase64url(code.slice(CODE_PREFIX.length));
    const format = bytes[0] === 0x1f && bytes[1] === 0x8b ? 'gzip' : 'deflate-raw';
    data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(await transform(bytes, new DecompressionStream(format))));
  } catch {
    throw garbled();
  }
  const { fingerprint, slice, param, version, rows } = isObject(data) ? data : {};
  const sliceOk =
    slice === null || (isObject(slice) && Number.isInteger(slice.of) && Number.isInteger(slice.index) && slice.index >= 0 && slice.index < slice.of);
  const numbers = (row) => row.slice(2).every((n) => n === null || typeof n === 'number');
  if (
    !/^[0-9a-f]{16}$/.test(fingerprint) ||
    !sliceOk ||
    typeof param !== 'string' ||
    !Array.isArray(rows) ||
    !rows.every((row) => Array.isArray(row) && row.length === 16 && Number.isInteger(row[0]) && [0, 1].includes(row[1]) && numbers(row))
  ) {
    throw garbled();
  }
  const nan = (n) => (n === null ? NaN : n);
  const objects = rows.map(([seed, down, value, samples, ...stats]) => ({
    param,
    direction: down ? 'down' : 'up',
    seed,
    value: nan(value),
    samples,
    ...Object.fromEntries(STATS.map((name, i) => [name, { mean: nan(stats[2 * i]), sd: nan(stats[2 * i + 1]) }])),
  }));
  let read = null;
  if (spec !== undefined) {
    read = withoutSlice(readSpec(spec, 'parseResultCode'));
    const expected = experimentFingerprint(read);
    if (fingerprint !== expected) {
      throw new TypeError(
        `parseResultCode: this code is from another experiment (print ${fingerprint}, this experiment's ${expected})`,
      );
    }
    if (slice) read.slice = { index: slice.index, of: slice.of };
    mergeResults([{ fingerprint, spec: read, rows: objects }], read); // its rows are the slice's, or TypeError
  }
  return result(read, fingerprint, version, objects, read ? {} : { slice });
}

/** A link to `base` (default: this page) that carries the experiment: `?experiment=…`. */
export function experimentLink(spec, base = globalThis.location?.href) {
  spec = readSpec(spec, 'experimentLink');
  const url = new URL(base);
  url.searchParams.set('experiment', base64url(new TextEncoder().encode(JSON.stringify(spec))));
  return url.href;
}

/** The spec a link carries (experimentLink), or null when it carries none. */
export function specFromLink(url = globalThis.location?.href) {
  const text = new URL(String(url), globalThis.location?.href).searchParams.get('experiment');
  if (text == null) return null;
  let spec;
  try {
    spec = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fromBase64url(text)));
  } catch {
    throw new TypeError("specFromLink: the link's experiment is garbled (was it copied whole?)");
  }
  return readSpec(spec, 'specFromLink');
}
