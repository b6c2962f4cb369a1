// Many flocks, lost contexts and sleeping tabs (issue 16, items 5 and 6):
// - twenty <boids-flock> elements on one page each draw as they scroll into view (the pool
//   keeps at most 8 contexts, so most of them give theirs up and take one again), and the
//   first still draws when scrolled back to;
// - twenty forced context losses and restores in a row: the element is drawing after each,
//   with no error;
// - a tab hidden for five minutes resumes without a jump: nothing steps while hidden, and the
//   first second after it comes back takes about a second of steps, not five minutes' worth.
// Figures are printed as lines starting with '# '.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePng, foreground, saveArtifact, useDistAndBrowser, watchProblems } from './helpers.mjs';
import { STRICT_CSP, TEST_CSS, testPage, waitFlocks } from './embed-helpers.mjs';

const FLOCKS = 20;
const LOSSES = 20;

const pages = {
  '/test/test.css': `${TEST_CSS}\n.stack boids-flock { display: block; width: 360px; height: 225px; margin-bottom: 700px; }\n`,
  '/test/twenty.html': testPage(
    `<div class="stack">${Array.from(
      { length: FLOCKS },
      (_, i) => `<boids-flock id="f${i}" count="300" seed="${i + 1}"></boids-flock>`,
    ).join('\n')}</div>`,
  ),
  '/test/one.html': testPage('<boids-flock id="one" class="small" count="400" seed="3"></boids-flock>'),
};
const env = useDistAndBrowser({ pages, csp: STRICT_CSP });

/** Share of foreground pixels in the element's canvas. */
async function drawn(page, selector) {
  const buffer = await page.locator(`${selector} canvas.bf-canvas`).screenshot();
  return { share: foreground(decodePng(buffer)), buffer };
}

/**
 * Waits until the element is running with a live context and has stepped `more` times since.
 * (Two plain predicates: Playwright takes a promise a predicate returns as truthy at once.)
 */
async function waitDrawing(page, selector, more = 3, timeout = 30_000) {
  await page.waitForFunction(
    (selector) => {
      const el = document.querySelector(selector);
      return el.dataset.state === 'running' && el.dataset.context === 'live';
    },
    selector,
    { timeout, polling: 100 },
  );
  const from = await page.evaluate((selector) => document.querySelector(selector).steps, selector);
  await page.waitForFunction(
    ([selector, from, more]) => {
      const el = document.querySelector(selector);
      return el.steps >= from + more && el.dataset.context === 'live';
    },
    [selector, from, more],
    { timeout, polling: 100 },
  );
}

test(`${FLOCKS} flocks on one page each draw as they scroll into view`, { timeout: 300_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 800, height: 600 } });
  const { problems } = watchProblems(page);
  await page.goto(`${env.server.url}test/twenty.html`);
  await waitFlocks(page, '#f0');
  const shares = [];
  let maxLive = 0;
  for (let i = 0; i < FLOCKS; i++) {
    const selector = `#f${i}`;
    await page.locator(selector).scrollIntoViewIfNeeded();
    await waitDrawing(page, selector);
    const { share, buffer } = await drawn(page, selector);
    if (i === FLOCKS - 1) saveArtifact('many-last.png', buffer);
    shares.push(share);
    maxLive = Math.max(maxLive, await page.evaluate(() => document.querySelectorAll('boids-flock[data-context="live"]').length));
  }
  // Back to the first: its context was given to a later one; it takes one again and draws.
  await page.locator('#f0').scrollIntoViewIfNeeded();
  await waitDrawing(page, '#f0');
  const again = (await drawn(page, '#f0')).share;
  const states = await page.evaluate(() => [...document.querySelectorAll('boids-flock')].map((el) => el.dataset.state));
  console.log(
    `# many: ${FLOCKS} flocks drew as they scrolled in (foreground ${Math.min(...shares).toFixed(3)}–${Math.max(...shares).toFixed(3)}), ` +
      `at most ${maxLive} contexts live at once; the first drew again (${again.toFixed(3)})`,
  );
  assert.deepEqual(
    shares.map((share, i) => (share > 0.002 ? null : `#f${i}: ${share}`)).filter(Boolean),
    [],
    'every flock draws cones once in view',
  );
  assert.ok(again > 0.002, `the first flock draws again after scrolling back: ${again}`);
  assert.ok(maxLive <= 8, `the pool keeps at most 8 contexts live: ${maxLive}`);
  assert.ok(maxLive >= 1);
  assert.deepEqual(states.filter((state) => state === 'error' || state === 'no-webgl'), []);
  assert.deepEqual(problems, []);
  await page.close();
});

test(`${LOSSES} forced context losses and restores in a row: still drawing, no error`, { timeout: 300_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 800, height: 600 } });
  const { problems } = watchProblems(page);
  await page.goto(`${env.server.url}test/one.html`);
  await waitFlocks(page, '#one');
  await waitDrawing(page, '#one');
  // The wait can fail: a paused flock never steps again.
  await page.evaluate(() => (document.querySelector('#one').paused = true));
  await assert.rejects(waitDrawing(page, '#one', 3, 1_500), /Timeout/, 'a paused flock is not drawing');
  await page.evaluate(() => (document.querySelector('#one').paused = false));
  await waitDrawing(page, '#one');
  const t0 = Date.now();
  const restored = [];
  for (let i = 0; i < LOSSES; i++) {
    // The canvas of now (a restore that took too long would have replaced it).
    const lost = await page.evaluate(async () => {
      const el = document.querySelector('#one');
      const gl = el.querySelector('canvas.bf-canvas').getContext('webgl2');
      const ext = gl.getExtension('WEBGL_lose_context');
      ext.loseContext();
      for (let k = 0; k < 100 && el.dataset.context !== 'lost'; k++) await new Promise((r) => setTimeout(r, 10));
      const state = el.dataset.context;
      ext.restoreContext();
      return state;
    });
    assert.equal(lost, 'lost', `loss ${i + 1}: the element noticed the lost context`);
    const started = Date.now();
    await waitDrawing(page, '#one');
    restored.push(Date.now() - started);
  }
  const { share, buffer } = await drawn(page, '#one');
  saveArtifact('many-after-losses.png', buffer);
  const state = await page.evaluate(() => {
    const el = document.querySelector('#one');
    return { state: el.dataset.state, context: el.dataset.context, cover: !el.querySelector('.bf-cover').hidden };
  });
  console.log(
    `# many: ${LOSSES} context losses and restores in ${((Date.now() - t0) / 1000).toFixed(1)} s ` +
      `(each drawing again within ${Math.max(...restored)} ms); foreground after the last ${share.toFixed(3)}`,
  );
  assert.deepEqual(state, { state: 'running', context: 'live', cover: false });
  assert.ok(share > 0.002, `still draws cones after ${LOSSES} losses: ${share}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a tab hidden for five minutes resumes without a jump', { timeout: 120_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 800, height: 600 } });
  const { problems } = watchProblems(page);
  // A clock the test can move: five minutes pass in an instant while the tab is hidden.
  await page.clock.install();
  // Headless Chromium never hides a tab by itself; the page's own view of it is what the
  // element reads (document.hidden and the visibilitychange event), so the test sets that.
  await page.addInitScript(() => {
    let hidden = false;
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
    window.__setHidden = (value) => {
      hidden = value;
      document.dispatchEvent(new Event('visibilitychange'));
    };
  });
  await page.goto(`${env.server.url}test/one.html`);
  await waitFlocks(page, '#one');
  await waitDrawing(page, '#one');
  const read = () =>
    page.evaluate(() => {
      const el = document.querySelector('#one');
      // By id: the step keeps the boids in grid order, so an index is not a bird.
      const [ids, p] = [el.flock.ids(), el.flock.positions()];
      const positions = [];
      ids.forEach((id, i) => (positions[id] = [p[3 * i], p[3 * i + 1], p[3 * i + 2]]));
      return { steps: el.steps, positions };
    });

  await page.evaluate(() => window.__setHidden(true));
  const before = await read();
  await page.clock.fastForward('05:00');
  await page.waitForTimeout(300);
  const hiddenAfter = await read();
  assert.equal(hiddenAfter.steps, before.steps, 'nothing steps while the tab is hidden');

  // Back: record the steps of every frame for one second of page time.
  const perFrame = await page.evaluate(async () => {
    const el = document.querySelector('#one');
    const counts = [];
    let last = el.steps;
    window.__setHidden(false);
    const t0 = performance.now();
    while (performance.now() - t0 < 1000) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      counts.push(el.steps - last);
      last = el.steps;
    }
    return { counts, seconds: (performance.now() - t0) / 1000 };
  });
  const after = await read();
  const total = perFrame.counts.reduce((a, b) => a + b, 0);
  let moved = 0;
  assert.equal(after.positions.length, before.positions.length);
  before.positions.forEach((p, id) => {
    moved = Math.max(moved, ...p.map((v, k) => Math.abs(after.positions[id][k] - v)));
  });
  console.log(
    `# many: hidden 5 min (clock moved on); on return ${total} steps in ${perFrame.seconds.toFixed(2)} s of page time over ` +
      `${perFrame.counts.length} frames (at most ${Math.max(...perFrame.counts)} in one); largest coordinate change ${moved.toFixed(2)}`,
  );
  assert.ok(total > 0, 'it runs again once visible');
  // No boid flies faster than twice its cruise speed (a panic), for as many steps as ran
  // between the two readings.
  const ran = after.steps - before.steps;
  const bound = 2 * (await page.evaluate(() => document.querySelector('#one').flock.speed())) * (ran / 60);
  assert.ok(moved <= bound, `no jump: the largest coordinate change ${moved.toFixed(2)} is within ${bound.toFixed(2)}`);
  // 60 steps per second of page time, plus the 4 a frame may take to catch up once.
  assert.ok(total <= Math.ceil(60 * perFrame.seconds) + 4, `about one second of steps, not five minutes: ${total}`);
  assert.ok(Math.max(...perFrame.counts) <= 4, `no frame takes more than 4 steps: ${perFrame.counts}`);
  assert.deepEqual(problems, []);
  await page.close();
});
