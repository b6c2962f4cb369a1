// Experiments (issue 26): one parameter swept over values, for a few seeds, each point let
// settle and then measured; or two over a grid, a map (issue 44: `map`, each cell a point). Runs in a module Web Worker (experiment-worker.js) with its own
// module (boids_worker_bg.wasm: the simulation and the experiment, SIMD128, never relaxed SIMD,
// so the rows do not depend on the browser; none of the page's drawing), so a page's flock
// keeps flying. Loaded on demand only; touches no globals. Works from any folder (URLs from
// import.meta.url).
//
// The contract itself — the spec read and checked, its print and JSON, the CSV, the limits —
// is Rust's (src/sim/experiment.rs, which the native runner uses too), exported by the
// worker's module (src/web/experiment.rs). This file instantiates that module on the page's
// own thread, once, when it is first imported (a top-level await, so that every function
// below but the codes' stays synchronous), and hands the compiled module to each worker: it is
// downloaded and compiled once. JavaScript formats nothing here: it passes the spec through,
// packs and unpacks rows (30 numbers a row, as the module hands them over), puts the name of
// the function called before the module's message, and, beside Rust, writes the units' order
// (unitsOf: slices and merging). It runs the worker, splits, merges, makes codes and links.
// Long because it is the contract's one JavaScript side: the worker, rows, slices, codes and
// links share its checks (a part split off would import them back).
//
// The spec (every field but `settings` and `slice` required):
//   { settings: {cohesion: 1.2, wrap: true}, // base parameters (Flock.params() names), in
//                                           // order; on/off ones true/false or 1/0
//     param: 'noise', values: [0, 0.5, 1],  // the swept parameter and its points
//     map: { param: 'delay', values: [0, 0.1] }, // optional: a second one, every value with
//                                           // every one of `values` (a map; "up" only)
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
//   'up'|'down', seed, value, (a map's mapParam, mapValue,) samples, polarization: {mean, sd}, milling, groups,
//   largestGroup, medianNearest, meanNeighbours, correlationShare (ξ/L), anisotropy (γ(1)),
//   velocityCorrelation, groupCorrelation, outside, collisions (the drone swarms'), state:
//   'swarm'|'milling'|'polarized'|'transitional'|null }] (docs/experiments.md says when
//   ξ/L, γ(1) and the state are NaN), `csv(link)` = toCsv(result, link).
// - toCsv(result, link?) → the CSV text, the same as the native `experiment` binary writes
//   (written by the module: its `# boids` line is the module's version).
// - mergeResults(results, spec?) → a result of the whole experiment: rows in canonical order
//   (seed, up then down, values as run; a map's cells row by row), no slice; `missing` says how many rows are still
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
// - experimentLimits() → { maxValues, maxSeeds, maxSeed, minCount, maxCount, maxPointSeconds,
//   step, maxCells }: what a spec may hold (forms show these).
// - experimentUnits(spec) → the experiment's units (one point "up", one seed's chain
//   "up-down"): the most slices it splits into.
// - SPEC_FIELDS: the spec's fields, in order.
// Every function that takes a spec checks it whole (a TypeError or RangeError naming the
// field); a spec given back (result.spec, sliceSpecs, specFromLink) is the spec read: its
// fields in order, on/off values as 1 and 0.

import init, { Experiment } from '../../boids_worker.js';

// ---- the contract, in Rust ---------------------------------------------------------

const WASM = new URL('../../boids_worker_bg.wasm', import.meta.url);

/** The worker's module, compiled: sent to each worker with its spec. */
const workerModule = await (async () => {
  const response = await fetch(WASM);
  if (!response.ok) throw new Error(`boids_worker_bg.wasm: ${response.status} ${response.statusText}`);
  return WebAssembly.compile(await response.arrayBuffer());
})();
await init({ module_or_path: workerModule });

/**
 * Calls the module, naming `where` (the function called) before the field its error names:
 * "runExperiment: count: must be 2 to 20000 boids".
 */
function call(where, f) {
  try {
    return f();
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError) throw new error.constructor(`${where}: ${error.message}`);
    throw error; // a getter of the spec's that threw, as it threw
  }
}

/** The spec's fields, in order. */
export const SPEC_FIELDS = Object.freeze(Experiment.fields().split(', '));

/**
 * A spec's limits: { maxValues, maxSeeds, maxSeed, minCount, maxCount, maxPointSeconds, step,
 * maxCells } (`step`: one flock step, the shortest sampleEvery, in seconds; `maxCells`: a
 * map's values × map values), as the module lists them.
 */
const LIMITS = (() => {
  const [maxValues, maxSeeds, maxSeed, minCount, maxCount, maxPointSeconds, stepsPerSecond, maxCells] = Experiment.limits();
  return Object.freeze({ maxValues, maxSeeds, maxSeed, minCount, maxCount, maxPointSeconds, step: 1 / stepsPerSecond, maxCells });
})();

/**
 * `spec` read and checked: { print, json }, its print (16 hex digits that every slice of it
 * shares) and its compact JSON (fields in order, `settings` {} when left out, `slice` only
 * when given, on/off values as 1 and 0). A TypeError or RangeError whose message starts with
 * `where` and names the field.
 */
function readSpec(spec, where) {
  const read = call(where, () => Experiment.contract(spec));
  return { print: read.slice(0, 16), json: read.slice(16) };
}

/** `spec` read and checked, as a plain object (readSpec's JSON, parsed). */
const checkSpec = (spec, where) => JSON.parse(readSpec(spec, where).json);

/** The print of `spec` (checked). */
const printOf = (spec, where) => readSpec(spec, where).print;

/** The measures of a row, in the CSV's order. */
const STATS = Object.freeze(['polarization', 'milling', 'groups', 'largestGroup', 'medianNearest', 'meanNeighbours', 'correlationShare', 'anisotropy', 'velocityCorrelation', 'groupCorrelation', 'outside', 'collisions']);
/** The states a row's last number names, in the module's order (GroupState::ALL). */
const STATES = Object.freeze(['swarm', 'milling', 'polarized', 'transitional']);
/** The longest `# link` a CSV takes. */
const LINK_MOST = 100_000;
/** Numbers a packed row holds. */
const ROW = 5 + 2 * STATS.length + 1;
if (Experiment.rowNumbers() !== ROW) {
  throw new Error(`runner.js packs ${ROW} numbers a row, the worker's module ${Experiment.rowNumbers()}: a build of another version`);
}
const whole = (n, most) => Number.isInteger(n) && n >= 0 && n <= most;

/**
 * A result's rows as numbers, ROW (30) a row, as the module packs them: leg (0 up, 1 down),
 * seed, value, the map's value (NaN without a map), samples, then each measure's mean and sd
 * (NaN for none), then the state's place in STATES (NaN for none). What the CSV is written
 * from; a TypeError for what is not a list of rows, or a row whose direction, seed or samples
 * are not one.
 */
function packRows(rows, where) {
  if (!Array.isArray(rows)) throw new TypeError(`${where}: rows must be an array`);
  // No spec runs more (each value up and down for every seed): a longer list is no result, and
  // copying it into the module could exhaust its memory (a trap, not an error).
  const most = Math.max(LIMITS.maxValues * 2, LIMITS.maxCells) * LIMITS.maxSeeds;
  if (rows.length > most) throw new RangeError(`${where}: rows: at most ${most} rows, got ${rows.length}`);
  return rows.map((row, i) => {
    const leg = { up: 0, down: 1 }[row?.direction];
    if (leg === undefined || !whole(row.seed, 0xffffffff) || !whole(row.samples, Number.MAX_SAFE_INTEGER)) {
      throw new TypeError(`${where}: rows[${i}] is not a row: its seed, direction or samples are wrong`);
    }
    const state = row.state == null ? NaN : STATES.indexOf(row.state);
    if (state === -1) throw new TypeError(`${where}: rows[${i}].state must be one of ${STATES.join(', ')} or null`);
    return [leg, row.seed, row.value, row.mapValue ?? NaN, row.samples, ...STATS.flatMap((name) => [row[name]?.mean, row[name]?.sd]), state];
  });
}

/**
 * Rows packed as numbers (packRows's, the module's `rows`) as objects: { param, direction, seed,
 * value, samples, polarization: { mean, sd }, … }; given `mapParam` (a map's), each with
 * `mapParam` and `mapValue` after `value`.
 */
function unpackRows(numbers, param, mapParam) {
  const rows = [];
  const nan = (n) => (n == null ? NaN : n);
  for (let i = 0; i + ROW <= numbers.length; i += ROW) {
    const row = { param, direction: numbers[i] ? 'down' : 'up', seed: numbers[i + 1], value: nan(numbers[i + 2]) };
    if (mapParam) Object.assign(row, { mapParam, mapValue: nan(numbers[i + 3]) });
    row.samples = numbers[i + 4];
    STATS.forEach((name, k) => (row[name] = { mean: nan(numbers[i + 5 + 2 * k]), sd: nan(numbers[i + 6 + 2 * k]) }));
    row.state = STATES[numbers[i + ROW - 1]] ?? null;
    rows.push(row);
  }
  return rows;
}

/**
 * The CSV of `rows` (objects) of `spec` (checked), with `link` on a `# link` line when given:
 * written by the module (its `# boids` line the module's version).
 */
function csvOf(spec, rows, link, where) {
  if (link != null && (typeof link !== 'string' || /[\r\n]/.test(link))) {
    throw new TypeError(`${where}: link must be a string of one line`);
  }
  // Far beyond any address a browser keeps (Chromium's 2 MB are bytes of a page's address):
  // a link this long is a mistake, and copying it into the module could exhaust its memory.
  if (link != null && link.length > LINK_MOST) throw new RangeError(`${where}: link: at most ${LINK_MOST} characters, got ${link.length}`);
  const packed = new Float64Array(packRows(rows, where).flat());
  return call(where, () => Experiment.contract(spec, packed, link ?? undefined));
}

/**
 * The experiment's units in canonical order, each its points in the order run: [[seedIndex,
 * 'up' | 'down', valueIndex], …] (Spec::units and Spec::points in src/sim/experiment.rs: seed
 * by seed, each value a unit going up; a seed's chain up and back down a unit going up-down;
 * a map's cells row by row, valueIndex = row × values + column: `pointAt`).
 * What slices and merging count by; the merged rows are checked against the module's own in
 * tests/browser/experiment.test.mjs.
 */
function unitsOf(spec) {
  const list = [];
  const points = spec.values.length * (spec.map?.values.length ?? 1);
  spec.seeds.forEach((_, s) => {
    const up = Array.from({ length: points }, (_, v) => [s, 'up', v]);
    if (spec.direction === 'up-down') list.push([...up, ...up.map(([, , v]) => [s, 'down', v]).reverse()]);
    else list.push(...up.map((point) => [point]));
  });
  return list;
}

/** A point's values (Spec::at): [value, mapValue] (mapValue undefined without a map). */
function pointAt(spec, v) {
  const n = spec.values.length;
  return spec.map ? [spec.values[v % n], spec.map.values[Math.floor(v / n)]] : [spec.values[v], undefined];
}

const CODE_PREFIX = 'boids1:';

function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

const withoutSlice = ({ slice, ...spec }) => spec; // eslint-disable-line no-unused-vars

/** The experiment's print, 16 hex digits, as every slice of it has (the spec is checked). */
export function experimentFingerprint(spec) {
  return printOf(spec, 'experimentFingerprint');
}

/** What a spec may hold: { maxValues, maxSeeds, maxSeed, minCount, maxCount, maxPointSeconds, step }. */
export function experimentLimits() {
  return { ...LIMITS };
}

/** The experiment's units: the most slices `spec` splits into. */
export function experimentUnits(spec) {
  return unitsOf(checkSpec(spec, 'experimentUnits')).length;
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
    let fingerprint;
    try {
      ({ print: fingerprint, json: read } = readSpec(spec, 'runExperiment'));
      read = JSON.parse(read);
      if (onProgress != null && typeof onProgress !== 'function') {
        throw new TypeError(`runExperiment: onProgress must be a function, got ${describe(onProgress)}`);
      }
    } catch (error) {
      return reject(error);
    }
    const { worker, blob } = startWorker();
    const rows = [];
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
          fail(new Class(`runExperiment: ${data.message}`));
        } else if (data.type === 'ready') {
          ({ version } = data);
          started = performance.now();
          progress(0, data.total);
        } else {
          rows.push(...unpackRows(data.rows, read.param, read.map?.param));
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
    worker.postMessage({ spec: read, module: workerModule });
  });
}

// ---- CSV -----------------------------------------------------------------------------

/** The result's CSV: comment lines (version, print, spec, slice, link), a header, its rows. */
export function toCsv(result, link) {
  if (!isObject(result)) throw new TypeError(`toCsv: result must be a result, got ${describe(result)}`);
  return csvOf(result.spec, result.rows, link, 'toCsv');
}

// ---- slices and merging --------------------------------------------------------------

/** `n` specs, slice 0 to n − 1 of n each: units k, k + n, … of the experiment. */
export function sliceSpecs(spec, n) {
  spec = withoutSlice(checkSpec(spec, 'sliceSpecs'));
  const total = unitsOf(spec).length;
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
  const read = readSpec(spec, where);
  spec = withoutSlice(JSON.parse(read.json));
  const fingerprint = read.print; // the same with or without the slice
  const all = unitsOf(spec);
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
      const [value, mapValue] = pointAt(spec, v);
      if (row.seed !== spec.seeds[s] || row.direction !== d || row.value !== value || row.mapValue !== mapValue) {
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
  // A code row: seed, down (0 or 1), value, the map's value, samples, the measures.
  const rows = packRows(result.rows, 'resultCode').map(([leg, seed, ...rest]) => [seed, leg, ...rest]);
  const json = JSON.stringify({
    fingerprint: result.fingerprint,
    slice: result.spec?.slice ?? result.slice ?? null,
    param: result.rows[0]?.param ?? result.spec?.param ?? null,
    mapParam: result.spec?.map?.param ?? result.rows[0]?.mapParam ?? null,
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
  const { fingerprint, slice, param, mapParam = null, version, rows } = isObject(data) ? data : {};
  const sliceOk =
    slice === null || (isObject(slice) && Number.isInteger(slice.of) && Number.isInteger(slice.index) && slice.index >= 0 && slice.index < slice.of);
  const numbers = (row) => row.slice(2).every((n) => n === null || typeof n === 'number');
  // Before the canon measures (ξ/L, γ(1), the state) a row packed 16 numbers; before the drone
  // swarms' measures, 21; before maps, 29.
  if (Array.isArray(rows) && rows.length && rows.every((row) => Array.isArray(row) && [16, 21, 29].includes(row.length))) {
    throw new TypeError(`parseResultCode: this code is from an older version of the page (${version ?? 'unknown'}): run that part of the experiment again`);
  }
  if (
    !/^[0-9a-f]{16}$/.test(fingerprint) ||
    !sliceOk ||
    typeof param !== 'string' ||
    (mapParam !== null && typeof mapParam !== 'string') ||
    !Array.isArray(rows) ||
    !rows.every((row) => Array.isArray(row) && row.length === ROW && Number.isInteger(row[0]) && [0, 1].includes(row[1]) && numbers(row))
  ) {
    throw garbled();
  }
  const objects = unpackRows(rows.flatMap(([seed, leg, ...rest]) => [leg, seed, ...rest]), param, mapParam);
  let read = null;
  if (spec !== undefined) {
    const { print: expected, json } = readSpec(spec, 'parseResultCode');
    read = withoutSlice(JSON.parse(json));
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
  const { json } = readSpec(spec, 'experimentLink');
  const url = new URL(base);
  url.searchParams.set('experiment', base64url(new TextEncoder().encode(json)));
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
  return checkSpec(spec, 'specFromLink');
}
