// Soak tests (issue 16, items 4 and 7): the same thing done hundreds of times leaks nothing.
// For each part, the wasm memory (WebAssembly.Memory's buffer, which never shrinks) is read
// at the start, after the first cycle, at its peak and at the end; the end must be within
// 10 % of the value after the first cycle, i.e. no growth once the first cycle has sized the
// heap. The element part also counts WebGL contexts: every context the page made that is not
// lost is live, and at most one (the element on the page) may be; Chromium's "Too many
// active WebGL contexts" warning must never appear, and a new element still draws afterwards.
// Each element cycle takes 130–160 ms in SwiftShader: the 500 cycles take 65–80 s (the part
// stops and fails should they not fit in 150 s).
// The figures are printed as lines starting with '# ' (the README's "Reliability" quotes them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePng, foreground, openModule, saveArtifact, useDistAndBrowser, watchProblems } from './helpers.mjs';
import { TEST_CSS, testPage, waitFlocks } from './embed-helpers.mjs';

const pages = {
  '/test/blank.html': '<!doctype html><title>soak</title><link rel="icon" href="data:,">',
  '/test/test.css': `${TEST_CSS}\nboids-flock.tiny { width: 240px; height: 150px; }\n`,
  '/test/empty.html': testPage('<div id="slot"></div>'),
};
const env = useDistAndBrowser({ pages });

const MiB = (bytes) => `${(bytes / 2 ** 20).toFixed(2)} MiB`;

/** Prints a part's figures; returns the failure when the end exceeds the value after cycle 1 by over 10 %. */
function memoryFigures(name, figures) {
  const { cycles, start, first, peak, end, ms } = figures;
  console.log(
    `# soak ${name}: ${cycles} cycles in ${(ms / 1000).toFixed(1)} s; wasm memory start ${MiB(start)}, ` +
      `after cycle 1 ${MiB(first)}, peak ${MiB(peak)}, end ${MiB(end)}`,
  );
  return end <= first * 1.1 ? null : `${name}: wasm memory grew from ${MiB(first)} after cycle 1 to ${MiB(end)} at the end`;
}

/** Prints a part's figures and checks the end is within 10 % of the value after cycle 1. */
function report(name, figures) {
  const failure = memoryFigures(name, figures);
  assert.equal(failure, null);
}

/**
 * Runs `cycle(i)` `cycles` times in the page (a function's source, called with the flock
 * module as `boids`) and returns the memory figures.
 */
function soak(page, cycles, setup, cycle) {
  return page.evaluate(
    ([cycles, setup, cycle]) => {
      const size = () => window.memory.buffer.byteLength;
      const state = (0, eval)(`(${setup})`)(window.boids);
      const run = (0, eval)(`(${cycle})`);
      const start = size();
      const t0 = performance.now();
      let first = 0;
      let peak = start;
      for (let i = 0; i < cycles; i++) {
        run(window.boids, state, i);
        peak = Math.max(peak, size());
        if (i === 0) first = size();
      }
      state?.free?.();
      return { cycles, start, first, peak, end: size(), ms: performance.now() - t0 };
    },
    [cycles, setup.toString(), cycle.toString()],
  );
}

test('1,000 rebuild() calls on one Flock grow no wasm memory', { timeout: 60_000 }, async () => {
  const { page, problems } = await openModule(env);
  const figures = await soak(
    page,
    1000,
    (boids) => new boids.Flock(1500, 1),
    (boids, flock, i) => {
      flock.rebuild();
      if (i % 50 === 0) flock.step(1 / 60);
    },
  );
  report('rebuild', figures);
  assert.deepEqual(problems, []);
  await page.close();
});

test('200 cycles of setCount 50 → 100,000 → 50 grow no wasm memory', { timeout: 60_000 }, async () => {
  const { page, problems } = await openModule(env);
  const figures = await soak(
    page,
    200,
    (boids) => new boids.Flock(50, 2),
    (boids, flock, i) => {
      flock.setCount(100_000);
      if (flock.count() !== 100_000) throw new Error(`count ${flock.count()} after setCount(100000)`);
      if (i % 20 === 0) flock.step(1 / 60);
      flock.setCount(50);
      flock.step(1 / 60);
    },
  );
  report('setCount', figures);
  assert.ok(figures.peak > figures.start, 'a flock of 100,000 needed more memory than one of 50');
  assert.deepEqual(problems, []);
  await page.close();
});

test('creating and freeing 500 Flocks of 1,500 grows no wasm memory', { timeout: 60_000 }, async () => {
  const { page, problems } = await openModule(env);
  const figures = await soak(
    page,
    500,
    () => null,
    (boids) => {
      const flock = new boids.Flock(1500, 3);
      flock.step(1 / 60);
      flock.free();
    },
  );
  report('new Flock/free', figures);
  assert.deepEqual(problems, []);
  await page.close();
});

// Counts the WebGL contexts the page makes (each canvas's context, once) in window.__contexts.
const CONTEXT_COUNTER = `(() => {
  const made = [];
  window.__contexts = made;
  const original = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (...args) {
    const context = original.apply(this, args);
    if (context && /webgl/.test(args[0]) && !made.includes(context)) made.push(context);
    return context;
  };
})();`;

const ELEMENT_CYCLES = 500;
const ELEMENT_BUDGET_MS = 150_000;

test('adding and removing a <boids-flock> 500 times leaks no wasm memory and no WebGL context', { timeout: 240_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 800, height: 600 } });
  const { problems } = watchProblems(page);
  const messages = [];
  page.on('console', (msg) => messages.push(msg.text()));
  await page.addInitScript(CONTEXT_COUNTER);
  await page.goto(`${env.server.url}test/empty.html`);

  const figures = await page.evaluate(
    async ([cycles, budget]) => {
      const slot = document.getElementById('slot');
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      /** Adds an element and waits until it runs with a live context and has drawn 3 frames. */
      const add = async (i) => {
        const el = document.createElement('boids-flock');
        el.className = 'tiny';
        el.setAttribute('count', '50');
        el.setAttribute('seed', String(i + 1));
        slot.append(el);
        const t0 = performance.now();
        while (!(el.dataset.state === 'running' && el.dataset.context === 'live')) {
          if (el.dataset.state === 'error' || el.dataset.state === 'no-webgl') throw new Error(`cycle ${i}: ${el.dataset.state}`);
          if (performance.now() - t0 > 20_000) throw new Error(`cycle ${i}: state ${el.dataset.state}, context ${el.dataset.context}`);
          await frame();
        }
        // Drawing: it steps (and draws) in the frames after its first.
        const steps = el.steps;
        while (el.steps < steps + 2) {
          if (performance.now() - t0 > 20_000) throw new Error(`cycle ${i}: the flock does not step`);
          await frame();
        }
        return el;
      };
      const live = () => window.__contexts.filter((context) => !context.isContextLost()).length;

      // The first element loads the module; its memory is the bindings' (the same instance).
      const first = await add(0);
      const { pool } = await import('/www/core/loop.js');
      const memory = (await (await import('/boids.js')).default()).memory;
      const size = () => memory.buffer.byteLength;
      const start = size();
      first.remove();
      await frame();
      const t0 = performance.now();
      let afterFirst = size();
      let peak = start;
      let maxLive = live();
      let done = 1;
      while (done < cycles && performance.now() - t0 < budget) {
        const el = await add(done);
        maxLive = Math.max(maxLive, live());
        peak = Math.max(peak, size());
        el.remove(); // its teardown runs in a microtask, before the next element is added
        await Promise.resolve();
        if (done === 1) afterFirst = size();
        done++;
      }
      await frame();
      return {
        cycles: done,
        start,
        first: afterFirst,
        peak,
        end: size(),
        ms: performance.now() - t0,
        made: window.__contexts.length,
        maxLive,
        liveAtEnd: live(),
        poolAtEnd: pool.live.size,
      };
    },
    [ELEMENT_CYCLES, ELEMENT_BUDGET_MS],
  );
  const failures = [memoryFigures('<boids-flock> add/remove', figures)];
  console.log(
    `# soak <boids-flock> contexts: ${figures.made} made, at most ${figures.maxLive} live at once, ` +
      `${figures.liveAtEnd} live after the last removal (pool: ${figures.poolAtEnd})`,
  );
  const tooMany = messages.filter((text) => /too many active webgl contexts/i.test(text));
  failures.push(
    figures.cycles < ELEMENT_CYCLES && `only ${figures.cycles} of ${ELEMENT_CYCLES} cycles fit in ${ELEMENT_BUDGET_MS / 1000} s`,
    figures.made < figures.cycles && `fewer contexts than elements: ${figures.made} for ${figures.cycles}`,
    figures.maxLive !== 1 && `${figures.maxLive} contexts live at once with one element on the page`,
    figures.liveAtEnd !== 0 && `${figures.liveAtEnd} contexts live once the last element is gone`,
    figures.poolAtEnd !== 0 && `the pool holds ${figures.poolAtEnd} contexts once the last element is gone`,
    tooMany.length > 0 && `Chromium warned ${tooMany.length} times: ${tooMany[0]}`,
  );
  assert.deepEqual(failures.filter(Boolean), []);

  // A new element still draws.
  await page.evaluate(() => {
    const el = document.createElement('boids-flock');
    el.id = 'last';
    el.className = 'small';
    el.setAttribute('count', '400');
    document.getElementById('slot').append(el);
  });
  await waitFlocks(page, '#last');
  await page.waitForFunction(() => document.querySelector('#last').steps > 10);
  const buffer = await page.locator('#last canvas.bf-canvas').screenshot();
  saveArtifact('soak-last-element.png', buffer);
  const drawn = foreground(decodePng(buffer));
  console.log(`# soak <boids-flock> after the cycles: a new element draws (${(drawn * 100).toFixed(1)} % foreground pixels)`);
  assert.ok(drawn > 0.002, `the new element draws cones: ${drawn}`);
  assert.deepEqual(problems, []);
  await page.close();
});
