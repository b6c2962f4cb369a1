// The lesson "How is it computed?" (examples/algorithm.html, issue 42): the cost curve of
// finding neighbours measured in this browser (www/lab/cost-curve.js, a worker stepping
// SearchLab). Started and stopped from the keyboard; a short curve (1,000-4,000 boids) gives
// the slopes of the distance checks (naive 2, grid and Morton 1) in the list and the chart's
// label, naive's N(N-1) checks, the same neighbours by all three, the texts' table beside this
// device's, a CSV of every point and a PNG of the chart; a worker module that does not load
// is said in words and the next press tries again; in uk/pl/ru on a 390x844 phone the words
// are the language's and nothing scrolls sideways. The classic bugs' sandbox (www/lab/bug-sandbox.js):
// a switch turned on by keyboard gives its symptom on screen (every boid lost to NaN and drawn
// as a red cross; the nearest neighbour collapsing; everyone heeding everyone), off brings the
// correct step back; it says so when its module does not load. The step traced
// (www/lab/step-trace.js): Enter on Next line walks the eight lines with the selected boid's
// own numbers (inspect's before the step, the boid's after it), the velocity's line takes one
// step of the flock; Whole step and Another boid. Screenshots go to
// tests/browser/artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { saveArtifact, useDistAndBrowser, watchProblems } from './helpers.mjs';

const env = useDistAndBrowser();

async function open(query = '', options = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, ...options });
  const page = await context.newPage();
  const watched = watchProblems(page);
  await page.goto(`${env.server.url}examples/algorithm.html${query}`);
  await page.waitForFunction(() => window.costCurve && document.querySelector('.lab-start'));
  return { context, page, ...watched };
}

/** The number after "power" in a slope's line (the English words). */
const power = (text) => Number(/power ([\d.]+)/.exec(text)?.[1]);

test('started and stopped by keyboard; a short curve gives the slopes, the table, the CSV and the PNG', { timeout: 180_000 }, async () => {
  const { context, page, problems, pageErrors } = await open();
  const start = page.locator('.lab-start');
  const status = page.locator('#cost .lab-status');
  assert.equal(await start.textContent(), 'Measure on this device');
  assert.equal(await page.locator('.lab-csv').isDisabled(), true, 'nothing to download before a measurement');

  // Keyboard only: Tab reaches the button, Enter starts, Enter again stops.
  let reached = false;
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await start.evaluate((button) => document.activeElement === button);
  }
  assert.ok(reached, 'Tab reaches the Measure button');
  await page.keyboard.press('Enter');
  assert.equal(await start.getAttribute('aria-pressed'), 'true');
  assert.equal(await start.textContent(), 'Stop');
  await page.waitForFunction(() => /boids: [\d.]+ ms a step/.test(document.querySelector('.lab-status').textContent), null, { timeout: 60_000 });
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /Stopped/.test(document.querySelector('.lab-status').textContent));
  assert.equal(await start.getAttribute('aria-pressed'), 'false');
  assert.equal(await start.textContent(), 'Measure on this device');

  // A short curve, run as the button runs it.
  const counts = [1000, 2000, 4000];
  const points = await page.evaluate((counts) => window.costCurve.measure({ counts, steps: 1, warmup: 5 }), counts);
  assert.match(await status.textContent(), /^Measured in \d+ s\.$/);
  assert.equal(points.length, 9, 'three methods at three counts');
  for (const count of counts) {
    const at = Object.fromEntries(points.filter((p) => p.count === count).map((p) => [p.method, p]));
    assert.equal(at.naive.checks, count * (count - 1), `naive at ${count}: N(N-1) checks`);
    assert.ok(at.grid.checks < at.naive.checks / 10, `the grid checks far fewer at ${count}`);
    assert.ok(at.grid.neighbours > count, `neighbours found at ${count}`);
    assert.equal(at.naive.neighbours, at.grid.neighbours, `naive keeps the grid's neighbours at ${count}`);
    assert.equal(at.morton.neighbours, at.grid.neighbours, `Morton keeps the grid's neighbours at ${count}`);
    for (const p of Object.values(at)) assert.ok(Number.isFinite(p.ms) && p.ms >= 0, `a time for ${p.method} at ${count}`);
  }
  const slopes = Object.fromEntries(
    await Promise.all(['naive', 'grid', 'morton'].map(async (m) => [m, power(await page.locator(`.lab-slope-${m}`).textContent())])),
  );
  assert.ok(slopes.naive > 1.9 && slopes.naive < 2.1, `naive's checks grow as N^2: ${JSON.stringify(slopes)}`);
  for (const m of ['grid', 'morton']) assert.ok(slopes[m] > 0.85 && slopes[m] < 1.2, `${m}'s checks grow as N: ${JSON.stringify(slopes)}`);
  const label = await page.locator('.lab-plot').getAttribute('aria-label');
  assert.match(label, /Every pair \(naive\): checks grow as N to the power 2\.\d\d/, 'the chart says the slopes in words');

  // The texts' table beside this device: 2,000 was measured, 500 and 10,000 were not.
  const rows = await page.locator('.lab-table tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.deepEqual(rows[0], ['Boids', 'Texts: naive', 'Texts: spatial hash', 'Here: naive', 'Here: grid']);
  assert.deepEqual(rows.slice(1).map((r) => r.slice(0, 3)), [['500', '60', '60'], ['2,000', '22', '60'], ['10,000', '< 1', '58']]);
  assert.deepEqual(rows[1].slice(3), ['–', '–']);
  assert.match(rows[2][3], /^(\d[\d,]*|< 1)$/, `naive's steps a second at 2,000: ${rows[2][3]}`);
  assert.match(rows[2][4], /^\d[\d,]*$/, `the grid's steps a second at 2,000: ${rows[2][4]}`);

  // CSV: a header and one line a point, the numbers the points'.
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.locator('.lab-csv').click()]);
  assert.equal(csvDownload.suggestedFilename(), 'boids-search-cost.csv');
  const csv = readFileSync(await csvDownload.path(), 'utf8').trim().split('\n');
  assert.equal(csv[0], 'method,count,ms_per_step,checks_per_step,neighbours_per_step');
  assert.equal(csv.length, 10);
  assert.equal(csv[1].split(',')[0], points[0].method);
  assert.equal(Number(csv[1].split(',')[3]), points[0].checks);
  // PNG: the chart, with something drawn on it.
  const [pngDownload] = await Promise.all([page.waitForEvent('download'), page.locator('.lab-png').click()]);
  assert.equal(pngDownload.suggestedFilename(), 'boids-search-cost.png');
  const png = readFileSync(await pngDownload.path());
  assert.equal(png.subarray(1, 4).toString(), 'PNG');
  assert.ok(png.length > 5000, `the PNG holds the chart (${png.length} bytes)`);

  await page.locator('#cost').scrollIntoViewIfNeeded();
  saveArtifact('algorithm-en-1280.png', await page.screenshot());
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a worker module that does not load is said in words, and the next press tries again', { timeout: 120_000 }, async () => {
  const { context, page } = await open();
  let blocked = true;
  await page.route('**/boids_worker_bg.wasm', (route) => (blocked ? route.fulfill({ status: 404, body: 'gone' }) : route.continue()));
  // The bugs' sandbox fetches the same module and may say its own failure (another
  // .lab-status, an alert) while it is blocked: this test reads the cost curve's.
  const status = page.locator('#cost .lab-status');
  await page.evaluate(() => window.costCurve.measure({ counts: [250], steps: 1, warmup: 1 }));
  assert.match(await status.textContent(), /^The measurement failed: .*404/);
  assert.equal(await page.locator('.lab-start').getAttribute('aria-pressed'), 'false');
  blocked = false;
  // A warm-up longer than one SearchLab.step call takes (600 steps): the settled benchmark's.
  const points = await page.evaluate(() => window.costCurve.measure({ counts: [250], steps: 1, warmup: 650 }));
  assert.equal(points.length, 3, 'measured once the module loads');
  assert.match(await status.textContent(), /^Measured in/);
  await context.close();
});

test('the step traced: Next line walks the pseudocode with one boid\'s own numbers, the velocity\'s line steps the flock', { timeout: 120_000 }, async () => {
  const { context, page, problems, pageErrors } = await open();
  await page.waitForFunction(() => window.stepTrace);
  await page.locator('.algorithm-trace').scrollIntoViewIfNeeded();
  const lines = page.locator('.lab-trace-lines li');
  assert.equal(await lines.count(), 8);
  assert.equal(await lines.nth(0).locator('code').textContent(), 'for each boid b:');
  assert.match(await lines.nth(2).locator('code').textContent(), /closer than 2\.00: at most F = 20\.00/, 'the flock\'s own settings written in');
  const next = page.locator('.lab-trace-next');
  await next.focus();
  await page.keyboard.press('Enter');
  const before = await page.evaluate(() => {
    const el = document.getElementById('traced');
    const seen = el.flock.inspect(el.selectedId);
    return { id: el.selectedId, paused: el.paused, time: el.flock.elapsed(), heeded: seen.heeded.length, urgency: seen.urgency };
  });
  assert.ok(before.id != null, 'a boid is selected');
  assert.equal(before.paused, true, 'the flock pauses while traced');
  assert.equal(await lines.nth(0).getAttribute('aria-current'), 'step');
  assert.match(await lines.nth(0).locator('.lab-trace-values').textContent(), new RegExp(`^b = boid ${before.id}: p = \\(`));
  await page.keyboard.press('Enter');
  assert.match(await lines.nth(1).locator('.lab-trace-values').textContent(), new RegExp(`^${before.heeded.toLocaleString('en')} heeded;`));
  assert.equal(await lines.nth(0).getAttribute('aria-current'), null, 'one line current at a time');
  for (let k = 2; k < 6; k++) await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.getElementById('traced').flock.elapsed()), before.time, 'no step before the velocity\'s line');
  assert.match(await lines.nth(2).locator('.lab-trace-values').textContent(), new RegExp(`× urgency u = ${before.urgency.toFixed(2)}`));
  await page.keyboard.press('Enter');
  const after = await page.evaluate(() => {
    const el = document.getElementById('traced');
    const seen = el.flock.inspect(el.selectedId);
    return { time: el.flock.elapsed(), v: Array.from(seen.velocity), p: Array.from(seen.position) };
  });
  assert.ok(Math.abs(after.time - before.time - 1 / 60) < 1e-6, `the velocity's line takes one step (${before.time} -> ${after.time})`);
  const shownV = await lines.nth(6).locator('.lab-trace-values').textContent();
  assert.ok(shownV.startsWith(`v = (${after.v.map((x) => x.toFixed(2)).join('; ')})`), `the new velocity shown: ${shownV} vs ${after.v}`);
  await page.keyboard.press('Enter');
  assert.equal(await lines.nth(7).locator('.lab-trace-values').textContent(), `p = (${after.p.map((x) => x.toFixed(2)).join('; ')})`);
  saveArtifact('algorithm-trace-en.png', await page.locator('.algorithm-trace').screenshot());
  // Past the last line the walk starts again; Whole step fills every line at once.
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => window.stepTrace.at()), 0);
  await page.locator('.lab-trace-whole').click();
  assert.equal(await page.evaluate(() => window.stepTrace.at()), 7);
  assert.equal(await page.locator('.lab-trace-values:empty').count(), 0, 'every line filled');
  // Another boid: the selection moves on and the walk is cleared.
  await page.locator('.lab-trace-other').click();
  assert.notEqual(await page.evaluate(() => document.getElementById('traced').selectedId), before.id);
  assert.equal(await page.locator('.lab-trace-values:empty').count(), 8, 'the walk starts afresh');
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(problems, []);
  await context.close();
});

/** Red pixels on the sandbox's canvas (the crosses of the lost). */
const redPixels = (page) =>
  page.locator('.lab-bugs-view').evaluate((canvas) => {
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let red = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] > 180 && data[i + 1] < 90 && data[i + 2] < 90) red += 1;
    return red;
  });

test('the classic bugs: a switch by keyboard shows its symptom, and off brings the correct step back', { timeout: 120_000 }, async () => {
  const { context, page, problems, pageErrors } = await open();
  await page.waitForFunction(() => window.bugSandbox?.symptoms);
  await page.locator('#bugs').scrollIntoViewIfNeeded();
  const shown = async () =>
    Object.fromEntries(await page.locator('.lab-bugs-symptoms div').evaluateAll((rows) => rows.map((r, i) => [['lost', 'speed', 'nearest', 'order', 'work'][i], r.querySelector('dd').textContent])));
  await page.waitForFunction(() => document.querySelector('.lab-bugs-symptoms dd').textContent === '0 of 200');
  assert.equal(await redPixels(page), 0, 'no boid lost in the correct step');

  // Keyboard only: Tab to the first switch (itself as a neighbour), Space turns it on.
  const first = page.locator('.lab-bug input[data-bug="self"]');
  let reached = false;
  for (let i = 0; i < 60 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await first.evaluate((input) => document.activeElement === input);
  }
  assert.ok(reached, 'Tab reaches the first switch');
  await page.keyboard.press('Space');
  assert.equal(await first.isChecked(), true);
  await page.waitForFunction(() => document.querySelector('.lab-bugs-symptoms dd').textContent === '200 of 200');
  assert.equal((await shown()).speed, '–', 'no speed to measure with every boid lost');
  assert.ok((await redPixels(page)) > 200, 'the lost are drawn as red crosses');
  const finite = () => page.evaluate(() => window.bugSandbox.symptoms().every(Number.isFinite));
  assert.ok(await finite(), 'no NaN reaches the page');
  saveArtifact('algorithm-bugs-self.png', await page.locator('#bugs').screenshot());
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.querySelector('.lab-bugs-symptoms dd').textContent === '0 of 200');
  await page.waitForFunction(() => !/–/.test(document.querySelectorAll('.lab-bugs-symptoms dd')[1].textContent));

  // Separation reversed: fast-forward 10 s, the nearest neighbour shown below 0.2.
  await page.evaluate(() => {
    window.bugSandbox.setBug('reversed', true);
    window.bugSandbox.advance(10);
  });
  const nearest = Number((await shown()).nearest.split(' ')[0]);
  assert.ok(nearest < 0.2, `separation reversed: the nearest neighbour at ${nearest} of the separation radius`);
  saveArtifact('algorithm-bugs-reversed.png', await page.locator('#bugs').screenshot());
  await page.evaluate(() => window.bugSandbox.setBug('reversed', false));
  // A huge radius: everyone heeds everyone, the neighbours a step equal the checks.
  await page.evaluate(() => {
    window.bugSandbox.setBug('radius', true);
    window.bugSandbox.advance(0.25);
  });
  assert.match((await shown()).work, /^39\.8K checks · 39\.8K neighbours · /);
  // Pause, and another size: the sandbox starts again with the switches kept.
  await page.locator('.lab-bugs-pause').click();
  assert.equal(await page.locator('.lab-bugs-pause').getAttribute('aria-pressed'), 'true');
  await page.locator('.lab-bugs-count select').selectOption('500');
  await page.waitForFunction(() => document.querySelector('.lab-bugs-symptoms dd').textContent === '0 of 500');
  assert.equal(await page.locator('.lab-bug input[data-bug="radius"]').isChecked(), true);
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the sandbox says so when its module does not load; the rest of the lesson stays', { timeout: 60_000 }, async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.route('**/boids_worker_bg.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto(`${env.server.url}examples/algorithm.html`);
  await page.waitForFunction(() => window.bugSandbox);
  assert.match(await page.locator('.lab-bugs [role="alert"]').textContent(), /^The sandbox did not load: /);
  assert.equal(await page.locator('.lab-start').isVisible(), true, 'the cost curve is still there');
  await context.close();
});

for (const [lang, start] of [
  ['uk', 'Виміряти на цьому пристрої'],
  ['pl', 'Zmierz na tym urządzeniu'],
  ['ru', 'Измерить на этом устройстве'],
]) {
  test(`in ${lang} on a 390x844 phone: the language's words, nothing scrolls sideways`, { timeout: 120_000 }, async () => {
    const { context, page, problems, pageErrors } = await open(`?lang=${lang}`, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    assert.equal(await page.locator('.lab-start').textContent(), start);
    assert.equal(await page.locator(`[data-lesson-lang]:not([data-lesson-lang="${lang}"]):not([hidden])`).count(), 0, 'only its own language shows');
    const words = await import(`../../www/i18n/lab-${lang}.js`);
    assert.equal(await page.locator('.lab-table-caption').textContent(), words.default.tableCaption);
    await page.evaluate(() => window.costCurve.measure({ counts: [1000, 2000], steps: 1, warmup: 1 }));
    assert.equal(await page.locator('.lab-slopes li').count(), 3, 'a slope for each method');
    assert.match(await page.locator('.lab-slope-naive').textContent(), new RegExp(words.default.methods.naive.replace(/[()]/g, '\\$&')));
    await page.waitForFunction(() => window.bugSandbox?.symptoms);
    assert.equal(await page.locator('.lab-bugs-switches legend').textContent(), words.default.sandbox.legend);
    assert.equal(await page.locator('.lab-bug-name').first().textContent(), words.default.sandbox.bugs.self[0]);
    await page.waitForFunction(() => window.stepTrace);
    assert.equal(await page.locator('.lab-trace-lines code').first().textContent(), words.default.trace.lines.each);
    await page.locator('.lab-trace-whole').click();
    assert.equal(await page.locator('.lab-trace-values:empty').count(), 0, 'the trace walks in this language too');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scrolling');
    await page.locator('#cost').scrollIntoViewIfNeeded();
    saveArtifact(`algorithm-${lang}-390.png`, await page.screenshot());
    await page.locator('#bugs').scrollIntoViewIfNeeded();
    saveArtifact(`algorithm-bugs-${lang}-390.png`, await page.screenshot());
    await page.locator('.algorithm-trace').scrollIntoViewIfNeeded();
    saveArtifact(`algorithm-trace-${lang}-390.png`, await page.screenshot({ fullPage: false }));
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
