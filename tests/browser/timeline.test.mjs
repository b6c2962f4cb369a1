// Rewind and exact moments (issue 28): a flock seeked back and forward again is the flock that
// never seeked, bit for bit; a change mid-run is kept (seeking across it replays it); a change
// after a seek drops the old future; the bar under the stage works by keyboard; "Link to this
// moment" and `state="…"` open exactly that moment; junk is refused with a clear error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { saveArtifact, useDistAndBrowser, watchProblems } from './helpers.mjs';
import { STRICT_CSP, TEST_CSS, collectConsole, testPage, waitFlocks } from './embed-helpers.mjs';

const FLOCK = 'count="400" seed="3" predators="1" paused';
const env = useDistAndBrowser({
  csp: STRICT_CSP,
  pages: {
    '/test/test.css': TEST_CSS,
    '/test/two.html': testPage(`<div class="row">
      <boids-flock id="a" ${FLOCK} timeline></boids-flock>
      <boids-flock id="b" ${FLOCK} hidden></boids-flock></div>`),
  },
});

/** Steps element `id` `n` times (as its Step button does); at `at` (a step count) runs `change`. */
function stepTo(page, id, target, change = null) {
  return page.evaluate(
    ([id, target, change]) => {
      const el = document.getElementById(id);
      while (el.steps < target) {
        if (change && el.steps === change.at) el.flock[change.setter](change.value);
        el.step();
      }
      return Array.from(el.flock.positions());
    },
    [id, target, change],
  );
}

/** A new element like #a, never seeked, stepped to `target` (with `change`); then removed. */
function fresh(page, target, change) {
  return page.evaluate(
    async ([target, change]) => {
      const template = document.getElementById('b');
      const el = document.createElement('boids-flock');
      for (const { name, value } of template.attributes) if (name !== 'id') el.setAttribute(name, value);
      document.body.append(el);
      while (!el.flock) await new Promise((resolve) => setTimeout(resolve, 20));
      while (el.steps < target) {
        if (change && el.steps === change.at) el.flock[change.setter](change.value);
        el.step();
      }
      const result = { positions: Array.from(el.flock.positions()), velocities: Array.from(el.flock.velocities()) };
      el.remove();
      return result;
    },
    [target, change],
  );
}

const read = (page, id) =>
  page.evaluate((id) => {
    const el = document.getElementById(id);
    return { positions: Array.from(el.flock.positions()), velocities: Array.from(el.flock.velocities()), steps: el.steps };
  }, id);

test('seek back 10 s and forward again: the same flock as never having seeked, changes included', { timeout: 240_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const { pageErrors } = watchProblems(page);
  await page.goto(`${env.server.url}test/two.html`);
  await waitFlocks(page, '#a');
  await page.evaluate(() => {
    window.seeks = [];
    document.addEventListener('boids-seek', (e) => window.seeks.push(e.detail));
  });

  // 30 s of flock time, cohesion raised at 15.5 s (between two snapshots).
  const change = { at: 930, setter: 'setCohesion', value: 2.5 };
  const atEnd = await stepTo(page, 'a', 1800, change);
  const timeline = await page.evaluate(() => document.getElementById('a').timeline);
  assert.equal(timeline.end, 30);
  assert.ok(timeline.start <= 0.01 && timeline.kept >= 15, JSON.stringify(timeline));

  // Back 10 s: a flock never seeked, stepped to 20 s with the same change, is identical.
  assert.equal(await page.evaluate(() => document.getElementById('a').seek(20)), 20);
  const back = await read(page, 'a');
  const reference = await fresh(page, 1200, change);
  assert.equal(back.steps, 1200);
  assert.deepEqual(back.positions, reference.positions, 'positions at 20 s');
  assert.deepEqual(back.velocities, reference.velocities, 'velocities at 20 s');
  // Across the change: 15 s is before it, 15.75 s after it and before the next regular
  // snapshot (at 16 s): only the snapshot taken at the change gets there.
  for (const t of [15, 15.75]) {
    await page.evaluate((t) => document.getElementById('a').seek(t), t);
    const seeked = await read(page, 'a');
    assert.deepEqual(seeked.positions, (await fresh(page, Math.round(t * 60), change)).positions, `positions at ${t} s`);
  }
  // Forward again to the end: what it was before any seek.
  await page.evaluate(() => document.getElementById('a').seek(30));
  const forward = await read(page, 'a');
  assert.deepEqual(forward.positions, atEnd, 'positions at 30 s after seeking back and forward');
  assert.deepEqual(
    await page.evaluate(() => window.seeks.map((s) => [s.time, s.source])),
    [[20, 'api'], [15, 'api'], [15.75, 'api'], [30, 'api']],
  );

  // A change after a seek starts a new branch: the old future is gone.
  await page.evaluate(() => document.getElementById('a').seek(20));
  await page.evaluate(() => document.getElementById('a').flock.setAlignment(2));
  await stepTo(page, 'a', 1260);
  const branched = await page.evaluate(() => document.getElementById('a').timeline);
  assert.equal(branched.end, 21, `the timeline ends where the new branch is: ${JSON.stringify(branched)}`);

  // Junk: a clear error, nothing changed.
  const before = await read(page, 'a');
  const errors = await page.evaluate(() =>
    ['soon', NaN, -5, 1e9, Infinity].map((t) => {
      try {
        document.getElementById('a').seek(t);
        return 'no error';
      } catch (error) {
        return `${error.name}: ${error.message}`;
      }
    }),
  );
  assert.match(errors[0], /^TypeError: seek: time must be a number/);
  for (const e of errors.slice(1)) assert.match(e, /^RangeError: seek: .* outside the timeline/);
  assert.deepEqual(await read(page, 'a'), before, 'a refused seek changes nothing');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('the bar under the stage: keyboard seeks, frame steps, and it says where it is', { timeout: 180_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const { pageErrors } = watchProblems(page);
  await page.goto(`${env.server.url}?count=300&seed=4&paused=1`);
  await waitFlocks(page, 'boids-flock[page]');
  await page.evaluate(() => {
    const el = document.querySelector('boids-flock');
    for (let i = 0; i < 600; i++) el.step();
    el.showTimeline();
  });
  const slider = page.locator('.bf-timeline-range');
  await slider.focus();
  assert.match((await slider.getAttribute('aria-valuetext')) ?? '', /10[.,]0/);
  await page.keyboard.press('Home'); // the start of the kept span
  assert.equal(await page.evaluate(() => document.querySelector('boids-flock').steps), 0);
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => document.querySelector('boids-flock').steps), 600);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => document.querySelector('boids-flock').steps), 599);
  // The frame buttons, by keyboard: Tab to ▶ and Enter.
  await page.locator('.bf-frame-back').focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.querySelector('boids-flock').steps), 598);
  await page.locator('.bf-frame-forward').focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.querySelector('boids-flock').steps), 601, 'forward past the end steps on');
  assert.match(await page.locator('.bf-timeline-time').textContent(), /10[.,]0 \/ 10[.,]0/);
  assert.equal(await page.evaluate(() => document.querySelector('boids-flock').paused), true);
  saveArtifact('timeline-page.png', await page.screenshot());
  // A phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('.bf-timeline').scrollIntoViewIfNeeded();
  saveArtifact('timeline-phone.png', await page.screenshot());
  const overflow = await page.evaluate(() => {
    const bar = document.querySelector('.bf-timeline').getBoundingClientRect();
    return bar.right > innerWidth + 0.5 || document.documentElement.scrollWidth > innerWidth;
  });
  assert.equal(overflow, false, 'the bar fits a 390 px screen');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('"Link to this moment" and state="…" open exactly that moment; an altered one is refused', { timeout: 180_000 }, async () => {
  // No service worker: the page's (the offline copy) would answer the teacher's pages below
  // before page.route could (Playwright does not route what a service worker answers).
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']).catch(() => {});
  const page = await context.newPage();
  const { pageErrors } = watchProblems(page);
  await page.goto(`${env.server.url}?count=500&seed=9&paused=1&predators=1`);
  await waitFlocks(page, 'boids-flock[page]');
  const original = await page.evaluate(async () => {
    const el = document.querySelector('boids-flock');
    for (let i = 0; i < 300; i++) el.step();
    el.flock.setCohesion(2.25);
    el.flock.addObstacle(50, 50, 50, 4);
    for (let i = 0; i < 7; i++) el.step();
    const link = await el.momentLink();
    for (let i = 0; i < 30; i++) el.step();
    return { link, positions: Array.from(el.flock.positions()), cohesion: el.flock.cohesion() };
  });
  assert.match(original.link, /#state=[A-Za-z0-9_-]+$/);

  // The link, in a new page: at step 307 with the same settings; 30 steps on it is the original.
  const other = await context.newPage();
  const { pageErrors: otherErrors } = watchProblems(other);
  await other.goto(original.link);
  await waitFlocks(other, 'boids-flock[page]');
  await other.waitForFunction(() => !document.querySelector('boids-flock').momentPending);
  const opened = await other.evaluate(() => {
    const el = document.querySelector('boids-flock');
    const at = { steps: el.steps, time: el.timeline.now, cohesion: el.flock.cohesion(), obstacles: el.flock.obstacles().length / 4 };
    el.paused = true;
    for (let i = 0; i < 30; i++) el.step();
    return { ...at, positions: Array.from(el.flock.positions()) };
  });
  assert.equal(opened.steps, 307);
  assert.equal(opened.cohesion, original.cohesion);
  assert.equal(opened.obstacles, 1);
  assert.deepEqual(opened.positions, original.positions, 'the moment continues exactly as the original did');
  assert.deepEqual(otherErrors, []);

  // The same text as an attribute on a teacher's page.
  const text = original.link.split('#state=')[1];
  const pageWithState = testPage(`<boids-flock id="m" state="${text}" paused></boids-flock>`);
  const altered = testPage(`<boids-flock id="m" state="${text.slice(0, 40)}A${text.slice(41)}" seed="9" paused></boids-flock>`);
  const third = await context.newPage();
  const warnings = collectConsole(third, 'warning');
  await third.route('**/test/state.html', (route) => route.fulfill({ contentType: 'text/html', body: pageWithState }));
  await third.route('**/test/altered.html', (route) => route.fulfill({ contentType: 'text/html', body: altered }));
  await third.goto(`${env.server.url}test/state.html`);
  await waitFlocks(third, '#m');
  await third.waitForFunction(() => !document.getElementById('m').momentPending);
  const fromAttribute = await third.evaluate(() => {
    const el = document.getElementById('m');
    for (let i = 0; i < 30; i++) el.step();
    return { steps: el.steps, positions: Array.from(el.flock.positions()) };
  });
  assert.equal(fromAttribute.steps, 337);
  assert.deepEqual(fromAttribute.positions, original.positions, 'state="…" continues exactly too');

  // A snapshot file beside the page: the raw bytes of flock.snapshot() (inflated here), by its URL.
  const raw = zlib.inflateRawSync(Buffer.from(text, 'base64url'));
  assert.equal(raw.subarray(0, 4).toString(), 'BOID');
  await third.route('**/test/strike.boids', (route) => route.fulfill({ contentType: 'application/octet-stream', body: raw }));
  await third.route('**/test/file.html', (route) =>
    route.fulfill({ contentType: 'text/html', body: testPage('<boids-flock id="m" state="strike.boids" paused></boids-flock>') }),
  );
  await third.goto(`${env.server.url}test/file.html`);
  await waitFlocks(third, '#m');
  await third.waitForFunction(() => !document.getElementById('m').momentPending);
  const fromFile = await third.evaluate(() => {
    const el = document.getElementById('m');
    for (let i = 0; i < 30; i++) el.step();
    return { steps: el.steps, positions: Array.from(el.flock.positions()) };
  });
  assert.equal(fromFile.steps, 337);
  assert.deepEqual(fromFile.positions, original.positions, 'state="strike.boids" continues exactly too');

  await third.goto(`${env.server.url}test/altered.html`);
  await waitFlocks(third, '#m');
  await third.waitForFunction(() => !document.getElementById('m').momentPending);
  const refused = await third.evaluate(() => ({ steps: document.getElementById('m').steps, state: document.getElementById('m').dataset.state }));
  assert.equal(refused.steps, 0, 'an altered moment is refused: the flock starts from its seed');
  assert.equal(refused.state, 'running');
  assert.ok(
    warnings.some((w) => /state|snapshot|checksum|moment/i.test(w) && /starting from the seed/.test(w)),
    `a warning says why: ${JSON.stringify(warnings)}`,
  );
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test('a script that keeps el.flock keeps a working flock across seek, a moment, rebuild and a preset', { timeout: 120_000 }, async () => {
  // Issue 41: a lesson's `const flock = el.flock` threw "the Flock was freed" after a rewind,
  // because the seek swapped a new Flock in and freed the old one.
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const { pageErrors } = watchProblems(page);
  await page.goto(`${env.server.url}test/two.html`);
  await waitFlocks(page, '#a');
  const result = await page.evaluate(async () => {
    const el = document.getElementById('a');
    const kept = el.flock;
    const seen = [];
    const check = (what) => {
      seen.push({
        what,
        same: kept === el.flock,
        steps: el.steps,
        elapsed: Math.round(kept.elapsed() * 60),
        set: kept.setCohesion(1.75),
        read: el.flock.cohesion(),
        isFlock: typeof kept.positions,
      });
    };
    for (let i = 0; i < 700; i++) el.step();
    el.seek(5);
    check('seek');
    const link = await el.momentLink();
    el.setAttribute('state', link.split('#state=')[1]);
    while (el.momentPending) await new Promise((resolve) => setTimeout(resolve, 20));
    check('moment');
    el.rebuild();
    check('rebuild');
    el.setAttribute('preset', 'fishBall');
    check('preset');
    return seen;
  });
  for (const entry of result) {
    assert.equal(entry.same, true, `${entry.what}: el.flock is still the kept handle`);
    assert.equal(entry.set, 1.75, `${entry.what}: the kept reference sets`);
    assert.equal(entry.read, 1.75, `${entry.what}: on the flock the element flies`);
    assert.equal(entry.isFlock, 'function', `${entry.what}: a Flock's methods`);
  }
  assert.equal(result[0].elapsed, 300, 'after the seek, the kept reference reads the seeked flock (5 s)');
  assert.equal(result[0].steps, 300);
  assert.equal(result[1].elapsed, 300, 'and the moment loaded (5 s)');
  assert.deepEqual(pageErrors, []);
  await page.close();
});
