// The instruments as a student uses them (issue 11): a click on a cone selects that boid
// and the readout names it; N / Shift+N / Esc select and release without a pointer; the
// plot moves while the flock runs (and goes on after a script's own survey) and freezes when
// paused; the CSV has a header and rows;
// colour-by, trails and the time scale work from the panel and from attributes; the figures
// in words say how many boids; a shared link carries the instruments' settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useDistAndBrowser, waitFrames, watchProblems } from './helpers.mjs';
import { STRICT_CSP, TEST_CSS, collectConsole, testPage, waitFlocks } from './embed-helpers.mjs';

const pages = {
  '/test/test.css': TEST_CSS,
  '/test/options.html': testPage(`
    <boids-flock id="opts" class="small" count="300" seed="4" colour-by="speed" trails time-scale="0.5" inspect="3"></boids-flock>
    <boids-flock id="junk" class="small" count="300" seed="5" colour-by="purple" time-scale="9"></boids-flock>`),
};
const env = useDistAndBrowser({ pages, csp: STRICT_CSP });

/**
 * Waits until `check` (an async function of this side, which may wait for the page's frames:
 * `page.waitForFunction` would take a promise from the page for a truthy answer) answers
 * true; fails with `what` after `ms`.
 */
async function until(check, what, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not within ${ms / 1000} s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Where the boid nearest the flock's centre is on screen (CSS px of the canvas), or null. */
function centralPixel(page) {
  return page.evaluate(() => {
    const { flock, view } = window;
    return view.cssPointOf(flock, ...flock.inspect(flock.idsByDistanceFromCentre()[0]).position);
  });
}

async function openPage(query = '') {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const watched = watchProblems(page);
  await page.goto(`${env.server.url}?open=look&seed=7${query}`);
  await page.waitForFunction(() => document.documentElement.dataset.boids === 'running', null, { timeout: 60_000 });
  await page.evaluate(() => {
    window.__selected = [];
    document.querySelector('boids-flock').addEventListener('boidselect', (event) => window.__selected.push(event.detail.id));
  });
  return { page, ...watched };
}

test('a click on a cone selects that boid: the readout names it and boidselect says so', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPage();
  await page.locator('boids-flock').evaluate((el) => {
    el.paused = true;
  });
  // Under the open sky the camera goes on gliding toward the flock's centre while paused (a
  // lag of about a second): the boid's pixel is taken once the camera is still, else the
  // click lands where the cone was a few frames before (on a busy host, frames apart).
  await until(
    async () => {
      const before = await centralPixel(page);
      await waitFrames(page, 2);
      const after = await centralPixel(page);
      return Boolean(before && after && Math.hypot(after[0] - before[0], after[1] - before[1]) < 0.05);
    },
    'the camera comes to rest once paused',
    60_000,
  );
  // A boid near the middle of the flock, where the screen shows it.
  const target = await page.evaluate(() => {
    const { flock, view } = window;
    const canvas = document.querySelector('canvas.bf-canvas').getBoundingClientRect();
    for (const id of flock.idsByDistanceFromCentre()) {
      const seen = flock.inspect(id);
      const at = view.cssPointOf(flock, seen.position[0], seen.position[1], seen.position[2]);
      if (!at) continue;
      // The one boid whose cone is under that pixel is the one pick finds.
      if (view.pick(flock, at[0], at[1]) !== id) continue;
      return { id, x: canvas.left + at[0], y: canvas.top + at[1] };
    }
    return null;
  });
  assert.ok(target, 'some boid has its cone on screen, unhidden');
  await page.mouse.click(target.x, target.y);
  await page.waitForFunction((id) => document.querySelector('boids-flock').selectedId === id, target.id);
  const state = await page.evaluate(() => ({
    view: window.view.selected(),
    readout: document.querySelector('boids-flock .bf-inspector').textContent,
    events: window.__selected,
    obstacles: window.flock.obstacles().length,
  }));
  assert.equal(state.view, target.id, 'the view draws the selection');
  assert.match(state.readout, new RegExp(`Boid ${target.id}\\b`));
  assert.match(state.readout, /separation/);
  assert.deepEqual(state.events, [target.id]);
  assert.equal(state.obstacles, 0, 'a click on a cone adds no obstacle');
  assert.deepEqual(problems, []);
  await page.close();
});

test('N, Shift+N and Esc select and release without a pointer, the nearest the centre first', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPage();
  await page.locator('canvas.bf-canvas').focus();
  await page.keyboard.press('n');
  const first = await page.evaluate(() => ({
    selected: document.querySelector('boids-flock').selectedId,
    order: Array.from(window.flock.idsByDistanceFromCentre()),
  }));
  // The order moves as the flock flies; the first pick was near the front of it.
  const rank = first.order.indexOf(first.selected);
  assert.ok(rank >= 0 && rank < 50, `N picks a boid near the centre: ${first.selected} is ${rank} in the order`);
  await page.keyboard.press('Shift+N');
  const back = await page.evaluate(() => document.querySelector('boids-flock').selectedId);
  assert.notEqual(back, first.selected, 'Shift+N moves the selection');
  await page.keyboard.press('Escape');
  const released = await page.evaluate(() => ({
    selected: document.querySelector('boids-flock').selectedId,
    view: window.view.selected(),
    events: window.__selected,
    readout: document.querySelector('boids-flock .bf-inspector').textContent,
  }));
  assert.equal(released.selected, null);
  assert.equal(released.view, undefined);
  assert.deepEqual(released.events, [first.selected, back, null]);
  assert.match(released.readout, /No boid selected/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the plot moves while the flock runs and freezes when paused; the CSV has a header and rows', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPage();
  const read = () =>
    page.evaluate(() => {
      const el = document.querySelector('boids-flock');
      const canvas = el.querySelector('.bf-plot-canvas');
      return { samples: el.plot.samples.length, pixels: canvas.toDataURL(), words: el.querySelector('.bf-words').textContent };
    });
  await page.waitForTimeout(1500);
  const a = await read();
  await page.waitForTimeout(2500);
  // A busy host draws fewer frames in that time: up to 30 s more for a redraw to come.
  await page
    .waitForFunction(
      ([samples, pixels]) => {
        const el = document.querySelector('boids-flock');
        return el.plot.samples.length > samples && el.querySelector('.bf-plot-canvas').toDataURL() !== pixels;
      },
      [a.samples, a.pixels],
      { timeout: 30_000, polling: 250 },
    )
    .catch(() => {}); // the asserts below say what did not happen
  const b = await read();
  assert.ok(b.samples > a.samples, `samples grow while running: ${a.samples} → ${b.samples}`);
  assert.notEqual(b.pixels, a.pixels, 'the plot redraws');
  // A script's own survey of the flock drops the plot's (one at a time per flock): it gets its
  // measures, and the plot begins its own again, with no error on the page.
  const foreign = await page.locator('boids-flock').evaluate((el) => {
    const survey = el.flock.beginSurvey(1);
    return el.flock.finishSurvey(survey).count;
  });
  assert.equal(foreign, 1500);
  await page.waitForTimeout(2500);
  const again = await read();
  assert.ok(again.samples > b.samples, `samples grow after a script's survey: ${b.samples} → ${again.samples}`);
  await page.locator('boids-flock').evaluate((el) => {
    el.paused = true;
  });
  await page.waitForTimeout(600);
  // The sample under way when it paused is finished and drawn at the next readout: c is
  // read once nothing is left to draw, for two frames running.
  await until(async () => {
    await waitFrames(page, 2);
    return page.evaluate(() => {
      const el = document.querySelector('boids-flock');
      return !el.instruments.plotDirty && !el.plot.pending;
    });
  }, 'the plot drawn its last sample once paused');
  const c = await read();
  await page.waitForTimeout(2000);
  const d = await read();
  assert.equal(d.samples, c.samples, 'no samples while paused');
  assert.equal(d.pixels, c.pixels, 'the plot stays still while paused');
  await page.waitForFunction(() => /1,500 boids/.test(document.querySelector('boids-flock .bf-words').textContent), null, { timeout: 10_000 });
  // The figures are there to go to, not said as they change: what the flock did is
  // (narrator.js, tests/browser/narrator-page.test.mjs).
  assert.equal(await page.locator('boids-flock .bf-words').getAttribute('aria-live'), null);
  assert.equal(await page.locator('boids-flock .bf-said').getAttribute('aria-live'), 'polite');

  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('boids-flock .bf-csv').click()]);
  const csv = readFileSync(await download.path(), 'utf8').trim().split('\n');
  const header = csv[0].split(',');
  for (const column of ['time_s', 'count', 'polarization', 'milling', 'meanNeighbours', 'groups', 'cohesion', 'seed']) {
    assert.ok(header.includes(column), `CSV column ${column}: ${csv[0]}`);
  }
  assert.ok(csv.length >= 5, `rows: ${csv.length - 1}`);
  const row = csv.at(-1).split(',');
  assert.equal(row.length, header.length);
  assert.equal(Number(row[header.indexOf('count')]), 1500);
  assert.equal(Number(row[header.indexOf('seed')]), 7);
  const polarization = Number(row[header.indexOf('polarization')]);
  assert.ok(polarization >= 0 && polarization <= 1, `polarization ${polarization}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('colour by, trails and time from the panel; slow motion steps slower; the link keeps them', { timeout: 120_000 }, async () => {
  const { page, problems } = await openPage();
  await page.locator('boids-flock .bf-look-field select[id$="colour-by"]').selectOption('rule');
  await page.locator('boids-flock input[id$="-trails"]').check();
  // Steps per second of page time: at 0.25× a quarter of 60 (plus the 4 a frame may take at
  // once). A loaded machine may not reach 60 at 1×, so 1× is only checked to be faster.
  const rate = (ms) =>
    page.evaluate(async (ms) => {
      const el = document.querySelector('boids-flock');
      const from = el.steps;
      const t0 = performance.now();
      await new Promise((resolve) => setTimeout(resolve, ms));
      return (el.steps - from) / ((performance.now() - t0) / 1000);
    }, ms);
  const normal = await rate(1500);
  await page.locator('boids-flock input[id$="-time-scale"]').fill('0.25');
  const slow = await rate(2000);
  const state = await page.evaluate(() => ({
    colour: window.view.colourBy(),
    trails: window.view.trails(),
    scale: document.querySelector('boids-flock').timeScale,
    legend: document.querySelector('boids-flock .bf-legend').dataset.mode,
    url: location.search,
  }));
  assert.equal(state.colour, 'rule');
  assert.equal(state.trails, true);
  assert.equal(state.scale, 0.25);
  assert.equal(state.legend, 'rule', 'the legend follows the colour mode');
  assert.ok(slow <= 0.25 * 60 + 2.5, `at 0.25× about 15 steps a second: ${slow.toFixed(1)} (1×: ${normal.toFixed(1)})`);
  assert.ok(slow > 5 && normal > slow, `slow motion still moves, slower: ${slow.toFixed(1)} < ${normal.toFixed(1)}`);
  await page.waitForFunction(() => /colour-by=rule/.test(location.search) && /trails=1/.test(location.search));
  assert.match(await page.evaluate(() => location.search), /time-scale=0\.25/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('attributes set the instruments; junk gets a warning and changes nothing', { timeout: 120_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const { problems } = watchProblems(page);
  const warnings = collectConsole(page, 'warning');
  await page.goto(`${env.server.url}test/options.html`);
  await waitFlocks(page, 'boids-flock', { min: 2 });
  const state = await page.evaluate(() => {
    const read = (id) => {
      const el = document.getElementById(id);
      return { colour: el.view.colourBy(), trails: el.view.trails(), scale: el.timeScale ?? 1, selected: el.selectedId };
    };
    return { opts: read('opts'), junk: read('junk') };
  });
  assert.deepEqual(state.opts, { colour: 'speed', trails: true, scale: 0.5, selected: 3 });
  assert.equal(state.junk.colour, 'heading');
  assert.equal(state.junk.scale, 2, 'time-scale="9" is clamped to 2');
  assert.ok(warnings.some((text) => /colour-by="purple"/.test(text)), warnings.join('\n'));
  assert.ok(warnings.some((text) => /time-scale="9"/.test(text)), warnings.join('\n'));
  // Set from script, like any attribute.
  await page.evaluate(() => document.getElementById('junk').setAttribute('colour-by', 'neighbours'));
  assert.equal(await page.evaluate(() => document.getElementById('junk').view.colourBy()), 'neighbours');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the lesson "Why does it turn?" in Ukrainian: its text, an inspected boid, two flocks with their plots', { timeout: 120_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const { problems } = watchProblems(page);
  await page.goto(`${env.server.url}examples/why.html?lang=uk`);
  await page.locator('.pair').scrollIntoViewIfNeeded();
  await waitFlocks(page, 'boids-flock', { min: 3 });
  await page.waitForFunction(() => [...document.querySelectorAll('.pair boids-flock')].every((el) => el.plot?.samples.length > 2), null, { timeout: 30_000 });
  const state = await page.evaluate(() => {
    const flocks = [...document.querySelectorAll('boids-flock')];
    const shown = [...document.querySelectorAll('[data-lesson-lang]')].filter((el) => !el.hidden).map((el) => el.dataset.lessonLang);
    return {
      lang: document.documentElement.lang,
      shown: [...new Set(shown)],
      flockLangs: flocks.map((el) => el.language),
      selected: flocks[0].selectedId,
      readout: flocks[0].querySelector('.bf-inspector').textContent,
      plots: flocks.slice(1).map((el) => el.querySelectorAll('.bf-plot-canvas').length),
      nearestK: flocks.map((el) => el.flock.topological()),
      words: flocks[1].querySelector('.bf-words').textContent,
    };
  });
  assert.equal(state.lang, 'uk');
  assert.deepEqual(state.shown, ['uk'], 'only the Ukrainian text shows');
  assert.deepEqual(state.flockLangs, ['uk', 'uk', 'uk']);
  assert.ok(state.selected != null, 'the first flock has a boid inspected');
  assert.match(state.readout, /Боїд \d+/);
  assert.deepEqual(state.plots, [1, 1], 'each of the pair has its plot');
  assert.deepEqual(state.nearestK, [0, 0, 1], 'metric beside nearest-k');
  await page.waitForFunction(() => /боїд/.test(document.querySelectorAll('.pair boids-flock')[0].querySelector('.bf-words').textContent), null, { timeout: 15_000 });
  assert.deepEqual(problems, []);
  await page.close();
});
