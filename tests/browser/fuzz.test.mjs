// Fuzzing the exported API (issue 16): in each of the two builds, 100,000 calls of every
// method of `Flock` and `View` (and the constructors) with junk — NaN, ±Infinity, −0, ±1e308,
// strings, objects, arrays, undefined, null, BigInts, Symbols, huge and negative counts, freed
// flocks — between steps. Asserts that nothing traps (no WebAssembly.RuntimeError), that only
// TypeError and RangeError are thrown, that a call that throws changes nothing, that every
// getter stays inside the range `Flock.params()` gives, and that positions, velocities and
// the measures are finite after every step.
//
// Seeded: a failure prints its seed; `BOIDS_FUZZ_SEED=<seed>` replays it
// (`BOIDS_FUZZ_CALLS=<n>` changes the number of calls).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDistAndBrowser, watchProblems } from './helpers.mjs';

const env = useDistAndBrowser({ pages: { '/test/blank.html': '<!doctype html><title>fuzz</title><canvas></canvas>' } });

const CALLS = Number(process.env.BOIDS_FUZZ_CALLS ?? 100_000);
const SEED = Number(process.env.BOIDS_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 32));

/**
 * Runs in the page: loads the build `file` names with its own copy of the bindings and fuzzes
 * it (the relaxed-SIMD build is boids_bg.wasm with dist/'s patch applied, as the page does).
 */
async function fuzz({ file, seed, calls }) {
  const bindings = await import(`/boids.js?${file}`);
  const { patchedModule } = await import('/www/core/wasm-patch.js');
  const module = file.endsWith('.patch') ? await patchedModule('/boids_bg.wasm', `/${file}`) : `/${file}`;
  await bindings.default({ module_or_path: module });
  const { Flock, View } = bindings;

  // mulberry32: small, fast, and the same sequence for the same seed everywhere.
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const pick = (list) => list[Math.floor(random() * list.length)];

  const specs = Flock.params();
  const presets = Flock.presets().map((p) => p.name);
  /** Junk, and now and then something sensible, so that the flock's state keeps changing. */
  const junk = [
    () => NaN,
    () => Infinity,
    () => -Infinity,
    () => -0,
    () => 0,
    () => 1e308,
    () => -1e308,
    () => 5e-324,
    () => 2 ** 32,
    () => 2 ** 53 + 2,
    () => 1e9,
    () => -1,
    () => -1e9,
    () => 100_000,
    () => random() * 40 - 10,
    () => Math.floor(random() * 300),
    () => '',
    () => '5',
    () => 'murmuration',
    () => pick(presets),
    () => 'x'.repeat(100),
    () => ({}),
    () => ({ valueOf: () => 5 }),
    () => new Number(5),
    () => Object.create(null),
    () => [],
    () => [1, 2, 3],
    () => [NaN],
    () => new Float32Array([0.5, 0.2, 1.5]),
    () => undefined,
    () => null,
    () => true,
    () => false,
    () => 10n,
    () => -1n,
    () => Symbol('junk'),
    () => () => 1,
  ];
  const sensible = [() => random() * 3, () => random() * 20, () => Math.floor(random() * 200) + 50, () => 1 / 60];
  const value = () => (random() < 0.75 ? pick(junk)() : pick(sensible)());
  const show = (v) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (typeof v === 'symbol') return 'Symbol()';
    if (typeof v === 'function') return 'function';
    if (typeof v === 'string') return JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v);
    if (Object.is(v, -0)) return '-0';
    if (v instanceof Float32Array) return `Float32Array[${v}]`;
    if (Array.isArray(v)) return `[${v.map(show)}]`;
    if (v && typeof v === 'object') return Object.getPrototypeOf(v) === null ? 'Object.create(null)' : v.constructor.name;
    return String(v);
  };

  const methods = (prototype) =>
    Object.getOwnPropertyNames(prototype).filter(
      (name) => typeof prototype[name] === 'function' && name !== 'constructor' && !name.startsWith('__'),
    );
  const flockMethods = methods(Flock.prototype).filter((name) => name !== 'free');
  const viewMethods = methods(View.prototype).filter((name) => name !== 'free');
  const getters = specs.map((spec) => spec.getter);

  const canvas = document.querySelector('canvas');
  canvas.width = canvas.height = 64;
  let view = new View(canvas);
  let flock = new Flock(120, seed);
  let freed = null; // a Flock freed on purpose, to be used again
  const log = [];
  const counts = { calls: 0, steps: 0, ok: 0, TypeError: 0, RangeError: 0 };

  const snapshot = (f) => [...getters.map((g) => f[g]()), f.positions(), f.obstacles()];
  const sameArray = (a, b) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
  const same = (a, b) => a.every((v, i) => (ArrayBuffer.isView(v) ? sameArray(v, b[i]) : Object.is(v, b[i])));
  const failure = (message) => ({ failure: message, seed, call: counts.calls, last: log.slice(-12) });

  const checkRanges = () => {
    for (const spec of specs) {
      const got = Number(flock[spec.getter]());
      if (!(got >= spec.min && got <= spec.max)) return `${spec.getter}() = ${got}, outside ${spec.min}–${spec.max}`;
      if (spec.kind !== 'real' && !Number.isInteger(got)) return `${spec.getter}() = ${got}, not a whole number`;
    }
    return null;
  };
  const checkFinite = () => {
    const arrays = {
      positions: flock.positions(),
      velocities: flock.velocities(),
      predatorPositions: flock.predatorPositions(),
      leaderPositions: flock.leaderPositions(),
    };
    if (arrays.positions.length !== 3 * flock.count()) return `positions() has ${arrays.positions.length} values for ${flock.count()} boids`;
    for (const [name, array] of Object.entries(arrays)) {
      const bad = array.findIndex((v) => !Number.isFinite(v));
      if (bad >= 0) return `${name}()[${bad}] = ${array[bad]}`;
    }
    for (const name of ['polarization', 'meanNeighbours']) {
      const got = flock[name]();
      if (!Number.isFinite(got) || got < 0) return `${name}() = ${got}`;
    }
    if (!(flock.polarization() <= 1 + 1e-6)) return `polarization() = ${flock.polarization()}`;
    return null;
  };

  for (; counts.calls < calls; counts.calls++) {
    // Keep the flock small most of the time, so that a step stays cheap.
    if (flock.count() > 300) flock.setCount(50 + Math.floor(random() * 150));
    const roll = random();
    let target = flock;
    let name;
    let args;
    let build = null;
    if (roll < 0.06) {
      name = 'step';
      args = [1 / 60];
    } else if (roll < 0.07) {
      build = 'Flock';
      args = [value(), value()];
    } else if (roll < 0.071) {
      build = 'View';
      args = [random() < 0.5 ? canvas : value()];
    } else if (roll < 0.08) {
      name = pick(['params', 'presets']);
      target = Flock;
      args = [];
    } else if (roll < 0.085) {
      // Free a flock, go on with a fresh one, and use the freed one now and then.
      freed?.free();
      freed = flock;
      freed.free();
      flock = new Flock(50 + Math.floor(random() * 150), Math.floor(random() * 1000));
      log.push('free(); new Flock(…)');
      continue;
    } else if (roll < 0.1 && freed) {
      target = freed;
      name = pick(flockMethods);
      args = Array.from({ length: Flock.prototype[name].length }, value);
    } else if (roll < 0.12) {
      // View calls are rarer: a junk size makes the (software) canvas 4096 pixels wide.
      target = view;
      name = pick(viewMethods);
      const n = View.prototype[name].length;
      args = Array.from({ length: n }, value);
      // Their first argument is the flock: the right one mostly, else junk or a freed one.
      if (['draw', 'worldPointAt', 'cssPointOf'].includes(name)) {
        args[0] = random() < 0.8 ? flock : random() < 0.5 && freed ? freed : value();
      }
    } else {
      name = pick(flockMethods);
      const n = Flock.prototype[name].length;
      // Sometimes an argument short or one too many.
      const length = Math.max(0, n + (random() < 0.1 ? pick([-1, 1]) : 0));
      args = Array.from({ length }, value);
    }
    const what = build ? `new ${build}(${args.map(show)})` : `${target === view ? 'view' : target === freed ? 'freed' : target === Flock ? 'Flock' : 'flock'}.${name}(${args.map(show)})`;
    log.push(what);
    if (log.length > 50) log.shift();
    const before = target === flock && !build ? snapshot(flock) : null;
    try {
      if (build === 'Flock') {
        new Flock(...args).free();
      } else if (build === 'View') {
        view.free();
        view = new View(...args);
      } else {
        target[name](...args);
      }
      if (target === freed) return failure(`${what} on a freed flock did not throw`);
      counts.ok++;
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) return failure(`${what} trapped: ${error}`);
      if (!(error instanceof TypeError || error instanceof RangeError)) {
        return failure(`${what} threw ${error?.constructor?.name}: ${error?.message ?? error}`);
      }
      // The API's own refusal (its message names the method), or a freed object's: not an
      // engine error from the glue ("Cannot convert a BigInt…", "… is not a function").
      if (!/^(new )?(Flock|View)(\.\w+)?: \S|^the (Flock|View) was freed/.test(error.message)) {
        return failure(`${what} threw ${error.name} not of the API's own: ${error.message}`);
      }
      counts[error.name]++;
      if (build === 'View') view = new View(canvas);
      if (before && !same(before, snapshot(flock))) return failure(`${what} threw ${error.name} but changed the flock`);
    }
    const range = checkRanges();
    if (range) return failure(`after ${what}: ${range}`);
    if (name === 'step' || name === 'rebuild' || build) {
      counts.steps++;
      const bad = checkFinite();
      if (bad) return failure(`after ${what}: ${bad}`);
    }
  }
  flock.free();
  view.free();
  return { counts, methods: { flock: flockMethods.length, view: viewMethods.length } };
}

for (const file of ['boids_relaxed_bg.wasm.patch', 'boids_bg.wasm']) {
  test(`fuzzing ${file}: ${CALLS} calls with junk never trap, throw only TypeError/RangeError, keep every value in range`, { timeout: 300_000 }, async () => {
    const page = await env.browser.newPage();
    const { pageErrors } = watchProblems(page);
    await page.goto(`${env.server.url}test/blank.html`);
    console.log(`# ${file}: fuzz seed ${SEED} (replay: BOIDS_FUZZ_SEED=${SEED})`);
    const started = Date.now();
    const result = await page.evaluate(fuzz, { file, seed: SEED, calls: CALLS });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (result.failure) {
      assert.fail(
        `${result.failure}\n  seed ${result.seed} (replay: BOIDS_FUZZ_SEED=${result.seed}), call ${result.call}\n  last calls:\n    ${result.last.join('\n    ')}`,
      );
    }
    console.log(`# ${file}: ${JSON.stringify(result.counts)} in ${seconds} s`);
    assert.equal(result.counts.calls, CALLS);
    assert.ok(result.counts.TypeError > 0 && result.counts.RangeError > 0 && result.counts.ok > 0, JSON.stringify(result.counts));
    assert.deepEqual(pageErrors, []);
    await page.close();
  });
}
