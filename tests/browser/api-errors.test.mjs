// The exported API refuses what it cannot use (issue 16): every method checks its arguments'
// JavaScript types before they reach Rust and throws a TypeError or RangeError that names the
// method and the argument, changing nothing; a freed Flock or View says so; no call traps the
// module (a WebAssembly.RuntimeError), not even on a page that poisoned Object.prototype.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openModule as openModuleOn, useDistAndBrowser } from './helpers.mjs';

const env = useDistAndBrowser({ pages: { '/test/blank.html': '<!doctype html><title>api</title><canvas></canvas>' } });

/** Opens a blank page with the module loaded as `window.boids` (its exports), and helpers. */
async function openModule() {
  const opened = await openModuleOn(env);
  await opened.page.evaluate(() => {
    // What a call threw, as plain data: { name, message, trap } or null.
    window.thrown = (call) => {
      try {
        call();
        return null;
      } catch (error) {
        return { name: error?.constructor?.name, message: String(error?.message), trap: error instanceof WebAssembly.RuntimeError };
      }
    };
    // Every value of a flock's parameters, its positions and obstacles, to see that nothing changed.
    window.snapshot = (flock) =>
      JSON.stringify([
        boids.Flock.params().map((spec) => flock[spec.getter]()),
        Array.from(flock.positions()),
        Array.from(flock.obstacles()),
      ]);
  });
  return opened;
}

test('applyPreset given a non-string throws a TypeError naming the method and the argument, never traps', { timeout: 60_000 }, async () => {
  const { page, pageErrors } = await openModule();
  const results = await page.evaluate(() => {
    const flock = new boids.Flock(200, 1);
    const before = snapshot(flock);
    const junk = { 123: 123, true: true, '{}': {}, '10n': 10n, NaN: NaN, Symbol: Symbol('x'), undefined, null: null, '[]': [] };
    const out = Object.entries(junk).map(([what, value]) => [what, thrown(() => flock.applyPreset(value))]);
    out.push(['nothing', thrown(() => flock.applyPreset())]);
    out.push(['"nope"', thrown(() => flock.applyPreset('nope'))]);
    out.push(['a long string', thrown(() => flock.applyPreset('m'.repeat(10_000_000)))]);
    return { out, unchanged: snapshot(flock) === before, applied: thrown(() => flock.applyPreset('murmuration')) };
  });
  for (const [what, error] of results.out) {
    assert.ok(error, `applyPreset(${what}) throws`);
    assert.equal(error.trap, false, `applyPreset(${what}) does not trap: ${error.message}`);
    if (what === '"nope"' || what === 'a long string') {
      assert.equal(error.name, 'RangeError', `applyPreset(${what}): ${error.message}`);
    } else {
      assert.equal(error.name, 'TypeError', `applyPreset(${what}): ${error.name} ${error.message}`);
      assert.match(error.message, /^Flock\.applyPreset: name must be a string, got /, `applyPreset(${what})`);
    }
  }
  assert.ok(results.unchanged, 'nothing changed');
  assert.equal(results.applied, null, 'a preset name still works');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('every Flock method refuses arguments of the wrong type with a TypeError that names it, and changes nothing', { timeout: 60_000 }, async () => {
  const { page, pageErrors } = await openModule();
  const failures = await page.evaluate(() => {
    const { Flock } = boids;
    // Sensible arguments for each method that takes any; each is then replaced by junk in turn.
    const good = { setWrap: [true], applyPreset: ['defaults'], setPointer: [5, 5, 5, false], addObstacle: [5, 5, 5, 2], setBirds: [new Float32Array(300), new Float32Array(300)] };
    const junk = {
      number: ['5', true, null, undefined, {}, [5], new Number(5), 10n, Symbol('x'), () => 5],
      // 1 and 0 are on and off (one rule for on/off values, issue 41): not junk.
      boolean: ['true', null, undefined, {}, 1n, Symbol('x')],
      string: [5, null, undefined, {}, ['defaults'], 1n, Symbol('x'), NaN],
      // setBirds' positions and velocities: Float32Arrays.
      object: [5, null, undefined, {}, 'x', 1n, Symbol('x')],
    };
    const kind = (value) => typeof value;
    const toggles = new Set(Flock.params().filter((spec) => spec.kind === 'toggle').map((spec) => spec.setter));
    const names = Object.getOwnPropertyNames(Flock.prototype).filter(
      (name) => name !== 'constructor' && typeof Flock.prototype[name] === 'function' && Flock.prototype[name].length > 0,
    );
    const failures = [];
    // The list is the prototype's: methods moved elsewhere, or wrapped to take no declared
    // arguments, would leave nothing to check.
    if (names.length < 30 || !names.includes('setCohesion')) failures.push(`only these methods take arguments: ${names}`);
    for (const name of names) {
      const arity = Flock.prototype[name].length;
      const args = Object.hasOwn(good, name) ? good[name] : Array(arity).fill(1);
      for (let i = 0; i < arity; i++) {
        for (const bad of junk[kind(args[i])]) {
          if (toggles.has(name) && typeof bad === 'boolean') continue; // a toggle takes true/false too
          const flock = new Flock(100, 3);
          const before = snapshot(flock);
          const call = [...args];
          call[i] = bad;
          const error = thrown(() => flock[name](...call));
          const shown = typeof bad === 'symbol' ? 'Symbol' : typeof bad === 'bigint' ? `${bad}n` : JSON.stringify(bad) ?? String(bad);
          if (!error || error.name !== 'TypeError' || !error.message.startsWith(`Flock.${name}: `) || !/ must be /.test(error.message)) {
            failures.push(`${name}(argument ${i + 1} = ${shown}): ${error ? `${error.name}: ${error.message}` : 'no error'}`);
          }
          if (snapshot(flock) !== before) failures.push(`${name}(argument ${i + 1} = ${shown}) changed the flock`);
          flock.free();
        }
      }
      // A missing argument (the last one) is a TypeError too.
      const flock = new Flock(100, 3);
      const error = thrown(() => flock[name](...args.slice(0, -1)));
      if (error?.name !== 'TypeError' || !error.message.includes('undefined')) failures.push(`${name} without its last argument: ${error?.message}`);
      flock.free();
    }
    for (const [what, make] of [
      ['new Flock()', () => new Flock()],
      ['new Flock("100")', () => new Flock('100')],
      ['new Flock(100, "7")', () => new Flock(100, '7')],
      ['new Flock(100n)', () => new Flock(100n)],
    ]) {
      const error = thrown(make);
      if (error?.name !== 'TypeError' || !error.message.startsWith('new Flock: ')) failures.push(`${what}: ${error?.name} ${error?.message}`);
    }
    for (const [what, make] of [
      ['new Flock(NaN)', () => new Flock(NaN)],
      ['setCohesion(Infinity)', () => new Flock(60).setCohesion(Infinity)],
      ['addObstacle(1, 1, 1, NaN)', () => new Flock(60).addObstacle(1, 1, 1, NaN)],
    ]) {
      const error = thrown(make);
      if (error?.name !== 'RangeError' || !/^(new Flock|Flock\.\w+): /.test(error.message)) failures.push(`${what}: ${error?.name} ${error?.message}`);
    }
    if (thrown(() => new Flock(60, null).free()) !== null) failures.push('new Flock(60, null) draws a seed');
    return failures;
  });
  assert.deepEqual(failures, []);
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('every on/off value takes true/false and 1/0 alike; anything else is refused with a clear error', { timeout: 60_000 }, async () => {
  // Issue 41: setWrap(1) was a TypeError ("must be true or false") while setFlat(true) was
  // one too ("must be a number").
  const { page, pageErrors } = await openModule();
  const failures = await page.evaluate(() => {
    const { Flock } = boids;
    const failures = [];
    const toggles = Flock.params().filter((spec) => spec.kind === 'toggle');
    if (toggles.length < 3 || !toggles.some((spec) => spec.name === 'wrap')) failures.push(`toggles: ${toggles.map((s) => s.name)}`);
    for (const spec of toggles) {
      const flock = new Flock(100, 3);
      for (const [given, on] of [[true, 1], [false, 0], [1, 1], [0, 0], [true, 1]]) {
        flock[spec.setter](given);
        const read = Number(flock[spec.getter]());
        if (read !== on) failures.push(`${spec.setter}(${given}) reads ${read}`);
      }
      for (const junk of ['yes', null, {}]) {
        const error = thrown(() => flock[spec.setter](junk));
        if (error?.name !== 'TypeError' || !error.message.startsWith(`Flock.${spec.setter}: `)) failures.push(`${spec.setter}(${JSON.stringify(junk)}): ${error?.name} ${error?.message}`);
      }
      flock.free();
    }
    const flock = new Flock(100, 3);
    for (const [what, call] of [
      ['setWrap(2)', () => flock.setWrap(2)],
      ['setPointer(5, 5, 5, 0.5)', () => flock.setPointer(5, 5, 5, 0.5)],
    ]) {
      const error = thrown(call);
      if (error?.name !== 'RangeError' || !/true, false, 1 or 0/.test(error.message)) failures.push(`${what}: ${error?.name} ${error?.message}`);
    }
    if (flock.wrap() !== false) failures.push('a refused setWrap(2) changed wrap');
    if (thrown(() => flock.setPointer(5, 5, 5, 1)) !== null) failures.push('setPointer(…, 1) is refused');
    flock.free();
    return failures;
  });
  assert.deepEqual(failures, []);
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('a freed Flock or View throws a TypeError that says so, wherever it is used; a second free() does nothing', { timeout: 60_000 }, async () => {
  const { page, pageErrors } = await openModule();
  const results = await page.evaluate(() => {
    const { Flock, View } = boids;
    const canvas = document.querySelector('canvas');
    const view = new View(canvas);
    const flock = new Flock(100, 1);
    flock.free();
    const out = {};
    for (const name of Object.getOwnPropertyNames(Flock.prototype)) {
      if (name === 'constructor' || name === 'free' || name.startsWith('__')) continue;
      out[`flock.${name}`] = thrown(() => flock[name](1, 1, 1, 1));
    }
    out['view.draw(freed)'] = thrown(() => view.draw(flock));
    out['view.worldPointAt(freed)'] = thrown(() => view.worldPointAt(flock, 1, 1));
    out['flock.free() again'] = thrown(() => flock.free());
    out['flock[Symbol.dispose]()'] =
      typeof Symbol.dispose !== 'symbol' || typeof flock[Symbol.dispose] === 'function'
        ? thrown(() => flock[Symbol.dispose]?.())
        : 'Flock has no Symbol.dispose';
    const freedView = new View(document.createElement('canvas'));
    freedView.free();
    const live = new Flock(60, 1);
    for (const name of ['draw', 'resize', 'orbit', 'zoom', 'resetCamera', 'camera', 'setCamera', 'isContextLost']) {
      out[`view.${name}`] = thrown(() => freedView[name](live, 1, 1));
    }
    out['view.free() again'] = thrown(() => freedView.free());
    view.free();
    return out;
  });
  for (const [call, error] of Object.entries(results)) {
    if (call.endsWith('again') || call.includes('dispose')) {
      assert.equal(error, null, `${call} does nothing: ${error?.message}`);
      continue;
    }
    assert.ok(error, `${call} throws`);
    assert.equal(error.name, 'TypeError', `${call}: ${error.name}: ${error.message}`);
    assert.match(error.message, /the (Flock|View) was freed/, call);
  }
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('View and benchmarkStep check their arguments too', { timeout: 60_000 }, async () => {
  const { page, pageErrors } = await openModule();
  const results = await page.evaluate(() => {
    const { Flock, View, benchmarkStep } = boids;
    const canvas = document.querySelector('canvas');
    const flock = new Flock(60, 1);
    const out = {};
    out['new View()'] = thrown(() => new View());
    out['new View(div)'] = thrown(() => new View(document.createElement('div')));
    out['new View("canvas")'] = thrown(() => new View('canvas'));
    const view = new View(canvas);
    out['view.draw({})'] = thrown(() => view.draw({}));
    out['view.draw()'] = thrown(() => view.draw());
    out['view.worldPointAt(view, 1, 1)'] = thrown(() => view.worldPointAt(view, 1, 1));
    out['view.resize("100", 100, 1)'] = thrown(() => view.resize('100', 100, 1));
    out['view.orbit(1n, 0)'] = thrown(() => view.orbit(1n, 0));
    out['view.zoom(Symbol())'] = thrown(() => view.zoom(Symbol('x')));
    out['view.setCamera(5)'] = thrown(() => view.setCamera(5));
    out['view.cssPointOf(flock, 1, 2, "3")'] = thrown(() => view.cssPointOf(flock, 1, 2, '3'));
    out['benchmarkStep("10", 0, 0)'] = thrown(() => benchmarkStep('10', 0, 0));
    out['benchmarkStep(-5, 0, 0)'] = thrown(() => benchmarkStep(-5, 0, 0));
    out['benchmarkStep(1e9, 0, 0)'] = thrown(() => benchmarkStep(1e9, 0, 0));
    const camera = Array.from(view.camera());
    const kept = [thrown(() => view.setCamera([1, 2])), thrown(() => view.setCamera({ length: 1e9 }))];
    const unchanged = JSON.stringify(Array.from(view.camera())) === JSON.stringify(camera);
    const works = [thrown(() => view.setCamera([1, 0.5, 2])), thrown(() => view.draw(flock)), thrown(() => benchmarkStep(50, 0, 1))];
    view.free();
    return { out, kept, unchanged, works };
  });
  for (const [call, error] of Object.entries(results.out)) {
    assert.ok(error, `${call} throws`);
    const expected = /-5|1e9/.test(call) ? 'RangeError' : 'TypeError';
    assert.equal(error.name, expected, `${call}: ${error.name}: ${error.message}`);
    const method = call.match(/^(new View|view\.(\w+)|benchmarkStep)/);
    const prefix = method[2] ? `View.${method[2]}: ` : `${method[1]}: `;
    assert.ok(error.message.startsWith(prefix), `${call}: the message names the method: ${error.message}`);
  }
  assert.deepEqual(results.kept, [null, null], 'an array of the wrong length is ignored');
  assert.ok(results.unchanged, 'and changes nothing');
  assert.deepEqual(results.works, [null, null, null]);
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('a page that poisoned Object.prototype does not make Flock.params() trap', { timeout: 60_000 }, async () => {
  const { page } = await openModule();
  const result = await page.evaluate(() => {
    Object.defineProperty(Object.prototype, 'label', {
      set() {
        throw new Error('poisoned');
      },
      configurable: true,
    });
    try {
      const errors = [thrown(() => boids.Flock.params()), thrown(() => boids.Flock.presets())];
      const params = boids.Flock.params();
      return { errors, names: params.map((spec) => spec.name).length, labels: params.filter((spec) => Object.hasOwn(spec, 'label')).length };
    } finally {
      delete Object.prototype.label;
    }
  });
  // The refused field is left out (it was a panic: "setting a field of a fresh object").
  assert.deepEqual(result.errors, [null, null]);
  assert.ok(result.names > 20 && result.labels === 0, JSON.stringify(result));
  // The module still answers.
  assert.equal(await page.evaluate(() => new boids.Flock(60, 1).count()), 60);
  await page.close();
});
