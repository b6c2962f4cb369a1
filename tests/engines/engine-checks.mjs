// The checks run in each engine besides Chromium (firefox.test.mjs, webkit.test.mjs; not a
// test file itself): the page, two <boids-flock> on one page, the iframe form, every lesson
// page and the instruments — each without a page error, its flocks drawn (pixels of a
// screenshot against their background), its controls reaching its flock, and the wasm build
// it ran the one the engine should run. One engine and one page for a file's tests: starting
// an engine costs seconds, the tests run one after another.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { distDir, foreground, saveArtifact } from '../browser/helpers.mjs';
import { TEST_CSS, testPage } from '../browser/embed-helpers.mjs';
import { crop, launchEngine, serveWatched, waitFor } from './engines-helpers.mjs';

const pages = {
  '/test/test.css': TEST_CSS,
  '/test/two.html': testPage(`
    <div class="row">
      <boids-flock id="a" count="300" seed="3" controls="cohesion"></boids-flock>
      <boids-flock id="b" count="400" seed="4" controls="all" readout></boids-flock>
    </div>`),
  '/test/threads.html': testPage('<boids-flock id="big" count="6000" seed="7" threads="on" style="display:block;width:200px;height:150px"></boids-flock>'),
  '/test/frame.html': testPage(
    '<iframe src="/embed.html?count=300&amp;seed=5&amp;controls=cohesion,separation" width="640" height="420" title="boids"></iframe>',
  ),
};

/** Cones cover more than this share of a flock's canvas (600 boids cover ~2-10 %; an empty one 0). */
const DRAWN = 0.003;

/**
 * The share a flock of `count` must cover: DRAWN, less for a small flock. 50 boids spread
 * over the world covered 0.11 % in WebKit on CI (about 2e-5 each); 1e-5 each keeps half of
 * that in hand, and an empty canvas (0) still fails.
 */
const drawnFor = (count) => Math.min(DRAWN, count * 1e-5);

/**
 * Registers the checks for engine `name` ('firefox' | 'webkit'). `build` is the wasm build
 * the page must run there ('relaxed-simd' or 'simd128'); `launch` options go to launchEngine.
 */
export function engineChecks(name, { build: expectedBuild, launch = {}, label = name, threads = false } = {}) {
  const env = {};
  before(async () => {
    env.server = await serveWatched(pages);
    env.engine = await launchEngine(name, launch);
  });
  after(async () => {
    await env.engine?.close();
    await env.server?.close();
  });

  /** Opens `url` (from the server's root) and waits until `min` flocks run (each brought into view first). */
  async function open(url, { min = 1, frame = false } = {}) {
    const { engine, server } = env;
    server.requests.length = 0;
    await engine.goto(server.url + url);
    await waitFor(
      engine,
      `${min} flock(s) running on /${url}`,
      (min, frame) => {
        const doc = frame ? document.querySelector('iframe')?.contentDocument : document;
        const flocks = doc ? [...doc.querySelectorAll('boids-flock')] : [];
        // A flock below the fold starts once seen (a long lesson): bring each into view.
        for (const el of flocks) if (el.dataset.state !== 'running') el.scrollIntoView({ block: 'nearest' });
        const failed = flocks.find((el) => el.dataset.state === 'error');
        if (failed) return `error: ${failed.textContent.trim().slice(0, 300)}`;
        return flocks.length >= min && flocks.every((el) => el.dataset.state === 'running') && flocks.length;
      },
      [min, frame],
    ).then((result) => {
      if (typeof result === 'string') throw new Error(`${name}: a flock on /${url} failed: ${result}`);
    });
  }

  /** The page's problems (its frame's too), and every request the server answered with 400 or more. */
  async function problems() {
    const inPage = await env.engine.evaluate(() => [
      ...(window.__problems ?? ['the watch script did not run']),
      ...[...document.querySelectorAll('iframe')].flatMap((f) => f.contentWindow.__problems ?? ['the watch script did not run in the frame']),
    ]);
    const http = env.server.requests.filter((r) => r.status >= 400).map((r) => `HTTP ${r.status}: ${r.path}`);
    return [...inPage, ...http];
  }

  /** Share of each flock's canvas covered by cones, from one screenshot of the viewport (saved as an artifact). */
  async function drawn(artifact, { frame = false } = {}) {
    const { engine } = env;
    const rects = await engine.evaluate((frame) => {
      const iframe = frame ? document.querySelector('iframe') : null;
      const doc = iframe ? iframe.contentDocument : document;
      const offset = iframe ? iframe.getBoundingClientRect() : { left: 0, top: 0 };
      // Over the canvas, only what WebGL drew: readouts and buttons hidden through the CSSOM
      // (the CSP allows it; a <style> it refuses).
      for (const el of doc.querySelectorAll('.bf-stage > :not(canvas)')) el.style.visibility = 'hidden';
      return {
        innerWidth,
        canvases: [...doc.querySelectorAll('boids-flock canvas.bf-canvas')].map((canvas) => {
          const r = canvas.getBoundingClientRect();
          return { left: offset.left + r.left, top: offset.top + r.top, width: r.width, height: r.height };
        }),
      };
    }, frame);
    // Two frames, so that the hidden readouts are gone from the picture too.
    await engine.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const shot = await engine.screenshot();
    saveArtifact(`engine-${label}-${artifact}.png`, shot.buffer);
    await engine.evaluate((frame) => {
      const doc = frame ? document.querySelector('iframe').contentDocument : document;
      for (const el of doc.querySelectorAll('.bf-stage > :not(canvas)')) el.style.visibility = '';
    }, frame);
    assert.ok(rects.canvases.length > 0, `${name}: /${artifact} has a flock's canvas`);
    return rects.canvases.map((rect) => {
      const part = crop(shot, rect, rects.innerWidth);
      return part.width * part.height > 0 ? foreground(part) : 0;
    });
  }

  /** Whether the selected flock (the `index`th boids-flock, in the frame if `frame`) moves within 1 s. */
  async function moves(index = 0, frame = false) {
    const read = () =>
      env.engine.evaluate(
        (index, frame) => {
          const doc = frame ? document.querySelector('iframe').contentDocument : document;
          return Array.from(doc.querySelectorAll('boids-flock')[index].flock.positions().slice(0, 60));
        },
        index,
        frame,
      );
    const a = await read();
    await waitFor(
      env.engine,
      `flock ${index} moving`,
      (index, frame, a) => {
        const doc = frame ? document.querySelector('iframe').contentDocument : document;
        const b = doc.querySelectorAll('boids-flock')[index].flock.positions().slice(0, 60);
        return b.some((v, i) => v !== a[i]);
      },
      [index, frame, a],
      10_000,
    );
    return true;
  }

  /**
   * Moves the `index`th range input inside the `flock`th boids-flock (in the frame if `frame`)
   * the way a drag does (input, then change events), to a value far from where it was; returns
   * { param, before, after } of that flock's setting.
   */
  function slideInFlock(flock, index, frame = false) {
    return env.engine.evaluate(
      (flock, index, frame) => {
        const doc = frame ? document.querySelector('iframe').contentDocument : document;
        const el = doc.querySelectorAll('boids-flock')[flock];
        const input = [...el.querySelectorAll('input[type=range][data-param]')][index];
        if (!input) return null;
        const param = input.dataset.param;
        const spec = el.constructor.params.find((p) => p.name === param);
        const read = () => Number(el.flock[spec.getter]());
        const before = read();
        const [min, max] = [Number(input.min), Number(input.max)];
        input.value = String(Number(input.value) - min < (max - min) / 2 ? min + 0.8 * (max - min) : min + 0.2 * (max - min));
        input.dispatchEvent(new Event('input', { bubbles: true }));
        input.dispatchEvent(new Event('change', { bubbles: true }));
        return { param, before, after: read() };
      },
      flock,
      index,
      frame,
    );
  }

  test(`${label}: the page runs the ${expectedBuild} build, draws the flock, and its sliders reach it`, { timeout: 120_000 }, async () => {
    await open('?count=600&seed=3');
    const state = await env.engine.evaluate(() => ({
      build: customElements.get('boids-flock').build,
      boids: document.documentElement.dataset.boids,
      count: window.flock.count(),
    }));
    const wasm = env.server.requests.map((r) => r.path).filter((p) => /\.wasm(\.patch)?$/.test(p));
    assert.equal(state.build, expectedBuild, `${name} ${env.engine.version} runs the ${expectedBuild} build`);
    // What it fetched agrees: the relaxed build is boids_bg.wasm and its patch.
    if (expectedBuild === 'relaxed-simd') assert.ok(wasm.includes('/boids_relaxed_bg.wasm.patch'), JSON.stringify(wasm));
    else assert.deepEqual(wasm, ['/boids_bg.wasm']);
    assert.equal(state.count, 600);
    await moves();
    // The whole page as a reader sees it (drawn() hides what lies over the canvas).
    saveArtifact(`engine-${label}-page-full.png`, (await env.engine.screenshot()).buffer);
    const [share] = await drawn('page');
    assert.ok(share > DRAWN, `${name}: cones cover ${(share * 100).toFixed(2)} % of the canvas`);
    // A slider, as a drag moves it, and the flock's own setting follows.
    const cohesion = await env.engine.evaluate(() => {
      const before = window.flock.cohesion();
      const el = document.getElementById('param-cohesion');
      el.value = '2.5';
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
      return { before, after: window.flock.cohesion(), shown: document.getElementById('value-cohesion').textContent };
    });
    assert.notEqual(cohesion.before, 2.5);
    assert.equal(cohesion.after, 2.5, `${name}: the cohesion slider sets the flock's cohesion`);
    assert.match(cohesion.shown, /2\.50?/);
    assert.deepEqual(await problems(), []);
  });

  test(`${label}: two <boids-flock> on one page both run, draw and take their controls`, { timeout: 120_000 }, async () => {
    await open('test/two.html', { min: 2 });
    await moves(0);
    await moves(1);
    const shares = await drawn('two');
    assert.equal(shares.length, 2);
    shares.forEach((share, i) => assert.ok(share > DRAWN, `${name}: flock ${i} covers ${(share * 100).toFixed(2)} % of its canvas`));
    for (const flock of [0, 1]) {
      const moved = await slideInFlock(flock, 0);
      assert.ok(moved, `flock ${flock} has a slider`);
      assert.notEqual(moved.after, moved.before, `${name}: flock ${flock}'s ${moved.param} follows its slider (${JSON.stringify(moved)})`);
    }
    assert.deepEqual(await problems(), []);
  });

  test(`${label}: the iframe form (embed.html) runs, draws and takes its controls`, { timeout: 120_000 }, async () => {
    await open('test/frame.html', { frame: true });
    await moves(0, true);
    const [share] = await drawn('frame', { frame: true });
    assert.ok(share > DRAWN, `${name}: the framed flock covers ${(share * 100).toFixed(2)} % of its canvas`);
    const moved = await slideInFlock(0, 0, true);
    assert.ok(moved, 'the framed flock has a slider');
    assert.notEqual(moved.after, moved.before, `${name}: ${moved.param} follows its slider in the frame`);
    assert.deepEqual(await problems(), []);
  });

  const lessons = readdirSync(path.join(distDir, 'examples')).filter((f) => f.endsWith('.html')).sort();
  test(`${label}: every lesson page (${lessons.join(', ')}) runs its flocks and draws them`, { timeout: 240_000 }, async () => {
    assert.ok(lessons.length >= 3, `dist/examples/ holds the lessons: ${lessons}`);
    for (const lesson of lessons) {
      const url = `examples/${lesson}`;
      await open(url);
      const count = await env.engine.evaluate(() => document.querySelectorAll('boids-flock').length);
      assert.ok(count >= 1, `${url} has flocks`);
      // The first flock that runs (a lesson may start one paused, to compare), brought into view.
      const { first, boids } = await env.engine.evaluate(() => {
        const flocks = [...document.querySelectorAll('boids-flock')];
        const index = Math.max(0, flocks.findIndex((el) => !el.paused));
        flocks[index].scrollIntoView({ block: 'start' });
        return { first: index, boids: flocks[index].flock.positions().length / 3 };
      });
      await moves(first).catch((error) => assert.fail(`${url}: ${error.message}`));
      const shares = await drawn(lesson.replace('.html', ''));
      assert.ok(
        shares[first] > drawnFor(boids),
        `${name}: ${url}'s flock ${first} (${boids} boids) covers ${(shares[first] * 100).toFixed(2)} % of its canvas`,
      );
      assert.deepEqual(await problems(), [], url);
    }
  });

  test(`${label}: the recorded pigeons play through the page (examples/nature.html)`, { timeout: 120_000 }, async () => {
    await open('examples/nature.html');
    const { engine } = env;
    // Fetched, unzipped (DecompressionStream), read in the worker's module, graphed.
    await waitFor(engine, 'the pigeons loaded', () => Boolean(window.naturePlayer && window.leadership), [], 60_000);
    const start = await engine.evaluate(() => {
      const el = document.getElementById('pigeons');
      el.scrollIntoView({ block: 'start' });
      window.naturePlayer.seek(150);
      el.paused = false;
      return window.naturePlayer.time;
    });
    await waitFor(engine, 'the recording plays on', (t) => window.naturePlayer.time > t + 1, [start], 30_000);
    assert.equal(await engine.evaluate(() => document.getElementById('pigeons').flock.positions().length / 3), 10);
    // Mid-flight the pigeons fly as one (the table's polarization, measured every second).
    const polarization = await waitFor(
      engine,
      'the table measures the flight',
      () => {
        const text = document.querySelector('.nature-table tr[data-measure="polarization"] td')?.textContent;
        return window.naturePlayer.time > 152 && text;
      },
      [],
      10_000,
    );
    assert.ok(Number(polarization) >= 0.95, `${name}: polarization ${polarization} in straight flight`);
    assert.deepEqual(await problems(), []);
  });

  test(`${label}: the instruments: a click on a cone selects that boid, the plot draws`, { timeout: 180_000 }, async () => {
    await open('?open=look&count=300&seed=7');
    const { engine } = env;
    await engine.evaluate(() => {
      document.querySelector('boids-flock').paused = true;
    });
    // A boid near the middle of the flock whose cone is the one under its pixel.
    const target = await engine.evaluate(() => {
      const { flock, view } = window;
      const canvas = document.querySelector('canvas.bf-canvas').getBoundingClientRect();
      for (const id of flock.idsByDistanceFromCentre()) {
        const seen = flock.inspect(id);
        const at = view.cssPointOf(flock, seen.position[0], seen.position[1], seen.position[2]);
        if (at && view.pick(flock, at[0], at[1]) === id) return { id, x: canvas.left + at[0], y: canvas.top + at[1] };
      }
      return null;
    });
    assert.ok(target, 'some boid has its cone on screen');
    await engine.click(target.x, target.y);
    const selected = await waitFor(
      engine,
      `boid ${target.id} selected by the click`,
      (id) => document.querySelector('boids-flock').selectedId === id && document.querySelector('boids-flock .bf-inspector').textContent,
      [target.id],
      10_000,
    );
    assert.match(selected, new RegExp(`\\b${target.id}\\b`), `${name}: the readout names boid ${target.id}`);
    assert.equal(await engine.evaluate(() => window.flock.obstacles().length), 0, 'the click added no obstacle');
    // Running again, the plot gathers samples and redraws.
    const plot = () =>
      engine.evaluate(() => {
        const el = document.querySelector('boids-flock');
        const canvas = el.querySelector('.bf-plot-canvas');
        return { samples: el.plot.samples.length, pixels: canvas.toDataURL(), size: [canvas.width, canvas.height] };
      });
    await engine.evaluate(() => {
      document.querySelector('boids-flock').paused = false;
    });
    const a = await plot();
    // A sample a simulated second, its measures gathered over 60 frames: seconds in software GL.
    await waitFor(engine, 'the plot gathering a sample', (n) => document.querySelector('boids-flock').plot.samples.length > n, [a.samples], 90_000);
    // The plot draws its new sample in a later frame than the one that took it (WebKit seen
    // reading the canvas between the two): wait for the redraw, up to 10 s.
    await waitFor(
      engine,
      'the plot redrawn',
      (before) => document.querySelector('boids-flock .bf-plot-canvas').toDataURL() !== before,
      [a.pixels],
      10_000,
    ).catch(() => {});
    const b = await plot();
    assert.ok(b.samples > a.samples, `${name}: samples grow while running: ${a.samples} → ${b.samples}`);
    assert.notEqual(b.pixels, a.pixels, `${name}: the plot redraws`);
    assert.ok(b.size[0] > 0 && b.size[1] > 0, 'the plot has a size');
    assert.deepEqual(await problems(), []);
  });

  // Issue 30: where the engine allows SharedArrayBuffer on an isolated page (`threads`), a
  // flock of 6,000 shares its steps among workers, and the shared step is the step of one
  // thread bit for bit (the snapshots after 10 steps of each); elsewhere it runs on one.
  test(`${label}: a flock of 6,000 ${threads ? 'shares its steps among workers, bit for bit' : 'runs on one thread'}`, { timeout: 180_000 }, async () => {
    await open('test/threads.html');
    const isolated = await env.engine.evaluate(() => crossOriginIsolated === true && typeof SharedArrayBuffer === 'function');
    assert.equal(isolated, threads, `${name}: cross-origin isolated with SharedArrayBuffer`);
    const used = await waitFor(env.engine, 'the flock to settle on its threads', (threads) => {
      const el = document.getElementById('big');
      const n = el.threads();
      return (threads ? n > 1 && el.sharing.pool.taken > 5 : n === 1 && el.steps > 5) && n;
    }, [threads && (await env.engine.evaluate(() => navigator.hardwareConcurrency)) > 1], 120_000);
    if (threads) {
      const same = await env.engine.evaluate(async () => {
        const { Flock } = await import('/www/core/wasm-load.js');
        const { SharePool } = await import('/www/core/threads.js');
        const pool = new SharePool(2);
        await pool.start();
        const results = [];
        for (const setup of [() => {}, (f) => (f.setFlat(1), f.setPredators(1), f.setSpeciesCount(2))]) {
          const [alone, together] = [new Flock(3000, 9), new Flock(3000, 9)];
          setup(alone);
          setup(together);
          for (let i = 0; i < 10; i++) {
            alone.step(1 / 60);
            const ready = new Promise((resolve) => (pool.onReady = resolve));
            pool.begin(together, 1 / 60);
            await ready;
            if (!pool.finish(together)) return 'a shared step was not taken in';
          }
          const [a, b] = [alone.snapshot(), together.snapshot()];
          results.push(a.length === b.length && a.every((byte, i) => byte === b[i]));
        }
        pool.stop();
        return results;
      });
      assert.deepEqual(same, [true, true], `${name}: shared steps equal one thread's`);
      assert.ok(used > 1, `${name}: ${used} threads`);
    }
    assert.deepEqual(await problems(), []);
  });
}
