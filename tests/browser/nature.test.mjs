// The lesson "Is our flock like a real one?" (examples/nature.html, issue 43): the pigeons'
// flight (www/data/pigeons-ff11.csv.gz, Nagy et al. 2010) fetched, unzipped and read in the
// worker's module, played through the page's <boids-flock>, measured by natureProfile from
// what the page's flock holds: at each time pinned by the native test (tests/nature.rs,
// tests/data/pigeons-ff11.json) every measure is the native one, and the leadership graph's
// order is too. Playing moves the birds with the element's clock and the plot samples them;
// a reader's own file plays in their place (a bird between far fixes is marked), a file with
// a bad line is refused naming the line while the pigeons fly on; bad arguments throw, never
// trap. Screenshots (desktop, a 390x844 phone in Ukrainian) go to tests/browser/artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { repoRoot, saveArtifact, useDistAndBrowser, watchProblems } from './helpers.mjs';

const env = useDistAndBrowser();
const pinned = JSON.parse(readFileSync(`${repoRoot}/tests/data/pigeons-ff11.json`, 'utf8'));

async function open(query = '', options = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  const watched = watchProblems(page);
  await page.goto(`${env.server.url}examples/nature.html${query}`);
  await page.waitForFunction(() => window.leadership && window.naturePlayer, null, { timeout: 60_000 });
  return { context, page, ...watched };
}

/** natureProfile of what the pigeons' element's flock holds after seeking `time`. */
function profileAt(page, time) {
  return page.evaluate(async (time) => {
    const { workerModule } = await import('/www/core/worker-module.js');
    const { natureProfile } = await workerModule();
    const el = document.getElementById('pigeons');
    window.naturePlayer.seek(time);
    return natureProfile(el.flock.positions(), el.flock.velocities());
  }, time);
}

test('the pigeons play through the page and measure as natively', { timeout: 120_000 }, async () => {
  const { context, page, problems, pageErrors } = await open();
  const el = page.locator('#pigeons');
  assert.equal(await el.evaluate((el) => el.paused), true, 'it waits for Play');
  for (const expected of pinned.profiles) {
    const got = await profileAt(page, expected.time);
    for (const [key, value] of Object.entries(expected)) {
      if (key === 'time') continue;
      if (typeof value === 'number') {
        assert.ok(Math.abs(got[key] - value) <= 1e-3 * Math.max(1, Math.abs(value)), `${key} at ${expected.time} s: page ${got[key]}, native ${value}`);
      } else {
        assert.equal(got[key], value, `${key} at ${expected.time} s`);
      }
    }
  }
  // The graph: the native order, every edge, and as many lines in its list.
  const order = await page.locator('#leaders .nature-leaders-caption p').first().textContent();
  assert.ok(order.includes(pinned.order.join(', ')), `order: ${order}`);
  assert.equal(await page.locator('#leaders .nature-leaders-graph path[marker-end]').count(), pinned.leads.length);
  assert.equal(await page.locator('#leaders .nature-leads li').count(), pinned.leads.length);
  // Beside it the model's, recorded on the page (www/nature/model-flight.js): each of its ten
  // boids turns before the leader ★ it is pulled toward, as tests/nature.rs finds natively.
  await page.locator('#model-leaders').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => window.modelLeadership, null, { timeout: 30_000 });
  const model = await page.evaluate(() => window.modelLeadership.leads.map((l) => [l.leader, l.follower, l.delay]));
  assert.deepEqual(model.map(([, follower]) => follower), Array(10).fill('★'), JSON.stringify(model));
  assert.deepEqual(model.map(([leader]) => Number(leader)).sort((a, b) => a - b), Array.from({ length: 10 }, (_, i) => i + 1));
  assert.ok(model.every(([, , delay]) => delay >= 0.2 && delay <= 0.8), JSON.stringify(model));
  assert.match(await page.locator('#model-leaders .nature-leaders-caption p').first().textContent(), /, ★\.$/);
  const arrows = await page.locator('.nature-leaders-graph marker').evaluateAll((ms) => ms.map((m) => m.id));
  assert.equal(new Set(arrows).size, 2, `two markers of their own: ${arrows}`);

  // Playing: the birds move with the element's clock, the bar follows, the plot samples them.
  await page.locator('#pigeons').scrollIntoViewIfNeeded(); // (an element off screen rests)
  await page.evaluate(() => window.naturePlayer.seek(150));
  const before = await el.evaluate((el) => Array.from(el.flock.velocities().slice(0, 3)));
  await el.evaluate((el) => (el.paused = false));
  await page.waitForFunction(() => window.naturePlayer.time > 152, null, { timeout: 30_000 });
  const after = await el.evaluate((el) => ({ v: Array.from(el.flock.velocities().slice(0, 3)), count: el.flock.positions().length / 3 }));
  assert.notDeepEqual(after.v, before, 'the birds turned');
  assert.equal(after.count, 10);
  await page.waitForFunction(() => /^2:3\d\.\d of 6:40\.2$/.test(document.querySelector('.nature-now').value), null, { timeout: 10_000 });
  await page.waitForFunction(() => Number(document.querySelector('.nature-time').value) > 152);
  const table = await page.locator('.nature-table tbody tr[data-measure="count"] td').first().textContent();
  assert.equal(table, '10');
  saveArtifact('nature-desktop.png', await page.screenshot({ fullPage: true }));
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a reader\'s own file plays, a bad one is refused by its line, and the pigeons come back', { timeout: 120_000 }, async () => {
  const { context, page, pageErrors } = await open();
  const file = page.locator('.nature-file');
  // A bad line (the third): refused whole, said with its number, the pigeons fly on.
  await page.evaluate(() => window.naturePlayer.seek(100));
  await file.setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('time,id,x,y,z\n0,a,0,0,0\n0.2,a,1,zero,0\n') });
  await page.waitForFunction(() => document.querySelector('.nature-error').textContent);
  const error = await page.locator('.nature-error').textContent();
  assert.match(error, /line 3/, error);
  assert.match(error, /y is not a finite number/, error);
  assert.ok(Math.abs((await page.evaluate(() => window.naturePlayer.end)) - 400.2) < 1e-3, 'the pigeons still play');
  assert.equal(await page.locator('#pigeons').evaluate((el) => el.flock.positions().length / 3), 10);

  // Three fish, one of them (c) with a gap of 0.6 s where it is usually fixed every 0.2 s.
  let text = 'time,id,x,y,z\n';
  for (let k = 0; k <= 50; k++) {
    const t = (k * 0.2).toFixed(1);
    text += `${t},a,${k},0,0\n${t},b,${k},2,0\n`;
    if (k < 20 || k > 22) text += `${t},c,${k},0,2\n`;
  }
  await file.setInputFiles({ name: 'fish.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
  await page.waitForFunction(() => /fish\.csv/.test(document.querySelector('.nature-status').textContent));
  assert.match(await page.locator('.nature-status').textContent(), /3 birds, 150 fixes, 10\.0 s/);
  assert.equal(await page.locator('.nature-error').textContent(), '');
  assert.equal(await page.locator('#pigeons').evaluate((el) => el.flock.positions().length / 3), 3);
  // Two seeks at once while paused: the bar redraws at most every 100 ms, yet shows the last.
  assert.equal(await page.locator('#pigeons').evaluate((el) => el.paused), true);
  await page.evaluate(() => {
    window.naturePlayer.seek(1);
    window.naturePlayer.seek(4.1);
  });
  await page.waitForFunction(() => /: c$/.test(document.querySelector('.nature-marked').textContent), null, { timeout: 5_000 });
  const placed = await page.locator('#pigeons').evaluate((el) => Array.from(el.flock.velocities().slice(0, 3)));
  assert.deepEqual(placed.map((v) => Math.round(v)), [5, 0, 0], 'a moves 1 m per 0.2 s along x');
  await page.locator('.nature-back').click();
  assert.ok(Math.abs((await page.evaluate(() => window.naturePlayer.end)) - 400.2) < 1e-3, 'the pigeons again');
  assert.equal(await page.locator('#pigeons').evaluate((el) => el.flock.positions().length / 3), 10);
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test('the fit runs in a worker, aims at the flight as natively, repeats itself, frames keep coming, Stop ends it at once, the fitted values go to the model', { timeout: 180_000 }, async () => {
  const { context, page, pageErrors, problems } = await open();
  const button = page.locator('.nature-fit-start');
  assert.equal(await button.textContent(), 'Fit the model');
  // The pinned fit (tests/nature.rs): the default parameters, 12 runs; the page's frames
  // counted meanwhile.
  const run = await page.evaluate(async (evaluations) => {
    let frames = 0;
    let counting = true;
    const tick = () => {
      frames += 1;
      if (counting) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    const started = performance.now();
    const result = await window.fitPanel.start({ evaluations });
    counting = false;
    return { result, frames, seconds: (performance.now() - started) / 1000 };
  }, pinned.fit.evaluations);
  const { result } = run;
  assert.ok(result, 'a result');
  console.log(`# the fit, ${pinned.fit.evaluations} runs: ${run.seconds.toFixed(1)} s in the worker, ${run.frames} frames meanwhile; distance ${result.distance.toFixed(2)} against the defaults' ${result.defaults.distance.toFixed(2)}`);
  assert.ok(result.distance < result.defaults.distance, 'closer than the defaults');
  assert.equal(result.evaluations, pinned.fit.evaluations);
  // What it aimed at: the flight's measures as natively (the table's Pigeons column).
  for (const [key, value] of Object.entries(pinned.fit.target)) {
    const shown = await page.locator(`.nature-fit-table tr[data-measure="${key}"] td`).first().textContent();
    assert.equal(shown, value.toFixed(['nearest', 'speed'].includes(key) ? 1 : 2), `${key}: the page's target ${shown}, native ${value}`);
  }
  // The same spec and seed, the same fit.
  const again = await page.evaluate((evaluations) => window.fitPanel.start({ evaluations }), pinned.fit.evaluations);
  assert.deepEqual(again.values, result.values, 'the same fit again');
  assert.equal(again.distance, result.distance);
  assert.ok(run.frames >= Math.max(3, 5 * run.seconds), `${run.frames} frames in ${run.seconds.toFixed(1)} s of fitting: the page kept drawing`);
  assert.match(await page.locator('.nature-fit-status').textContent(), /^Fitted in [\d.]+ s \(12 runs\): distance [\d.]+, the defaults’ [\d.]+\.$/);
  assert.equal(await page.locator('.nature-fit-table th[scope="col"]').count(), 4);
  assert.equal(await page.locator('.nature-fit-table tr[data-measure="distance"] td').nth(1).textContent(), result.distance.toFixed(1));
  const href = await page.locator('.nature-fit-link').getAttribute('href');
  const query = new URL(href).searchParams;
  assert.equal(query.get('count'), '50');
  assert.equal(query.get('seed'), '1');
  for (const [name, value] of Object.entries(result.values)) assert.equal(Number(query.get(name)), Math.round(value * 1000) / 1000, `the link's ${name}`);
  // Set on the model flock above.
  await page.locator('.nature-fit-apply').click();
  const radius = await page.locator('#model').evaluate((el) => el.flock.separationRadius());
  assert.ok(Math.abs(radius - result.values.separationRadius) < 2e-3, `the model's separation radius ${radius}`);

  // A long fit stopped from the keyboard: the worker ends within a second, nothing more comes.
  await button.focus();
  await page.evaluate(() => {
    window.fitPanel.start({ evaluations: 500 }); // not awaited: it is stopped half way
  });
  await page.waitForFunction(() => /^Run \d+ of 500/.test(document.querySelector('.nature-fit-status').textContent), null, { timeout: 30_000 });
  const pressed = Date.now();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('.nature-fit-status').textContent === 'Stopped.', null, { timeout: 1_000 });
  assert.ok(Date.now() - pressed < 1_000, 'stopped within a second');
  assert.equal(await button.getAttribute('aria-pressed'), 'false');
  await page.waitForTimeout(1_000);
  assert.equal(await page.locator('.nature-fit-status').textContent(), 'Stopped.', 'no run reported after Stop');
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('bad arguments throw with a message, never trap, and change nothing', async () => {
  const { context, page, pageErrors } = await open();
  const results = await page.evaluate(async () => {
    const { workerModule } = await import('/www/core/worker-module.js');
    const { Replay, natureProfile } = await workerModule();
    const el = document.getElementById('pigeons');
    const caught = (f) => {
      try {
        f();
        return 'no error';
      } catch (e) {
        return `${e.constructor.name}: ${e.message}`;
      }
    };
    const count = () => el.flock.positions().length / 3;
    return {
      source: caught(() => (el.source = 5)),
      sourceKept: el.source === window.naturePlayer,
      nan: caught(() => el.flock.setBirds(new Float32Array([NaN, 0, 0]), new Float32Array(3))),
      lengths: caught(() => el.flock.setBirds(new Float32Array(6), new Float32Array(3))),
      notArray: caught(() => el.flock.setBirds([0, 0, 0], new Float32Array(3))),
      one: caught(() => el.flock.setBirds(new Float32Array([1, 2, 3]), new Float32Array(3))),
      none: caught(() => el.flock.setBirds(new Float32Array(0), new Float32Array(0))),
      count: count(),
      replayType: caught(() => new Replay(42)),
      replayEmpty: caught(() => new Replay('# nothing\n')),
      seek: caught(() => new Replay('0,a,0,0,0').seek(NaN, 0, 0, 0)),
      profile: caught(() => natureProfile(new Float32Array(3), new Float32Array(6))),
      playerSeek: caught(() => window.naturePlayer.seek('soon')),
    };
  });
  assert.match(results.source, /^TypeError: boids-flock: source must be null or an object with an advance/);
  assert.equal(results.sourceKept, true);
  assert.match(results.nan, /^RangeError: Flock\.setBirds: positions\[0\] is NaN, not a finite number/);
  assert.match(results.lengths, /^RangeError: Flock\.setBirds: positions and velocities must hold xyz for each bird alike, got 6 and 3/);
  assert.match(results.notArray, /^TypeError: Flock\.setBirds: positions must be a Float32Array, got an object/);
  assert.match(results.one, /^RangeError: Flock\.setBirds: a flock is at least 2 birds, got 1/);
  assert.match(results.none, /^RangeError: Flock\.setBirds: a flock is at least 2 birds, got 0/);
  assert.equal(results.count, 10, 'nothing changed');
  assert.match(results.replayType, /^TypeError: new Replay: text must be a string, got a number/);
  assert.match(results.replayEmpty, /^RangeError: new Replay: line 1: no fixes/);
  assert.match(results.seek, /^RangeError: Replay\.seek: /);
  assert.match(results.profile, /^RangeError: natureProfile: positions and velocities/);
  assert.match(results.playerSeek, /^TypeError: RecordingPlayer\.seek: time must be a number/);
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test('on a 390x844 phone in Ukrainian the words are the language\'s and nothing scrolls sideways', { timeout: 120_000 }, async () => {
  const { context, page, pageErrors } = await open('?lang=uk', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  assert.equal(await page.locator('.nature-time-label').textContent(), 'Час у записі');
  assert.equal(await page.locator('.nature-table th[scope="col"]').nth(1).textContent(), 'Голуби');
  assert.match(await page.locator('.nature-leaders-caption p').first().textContent(), /^Від найбільш провідного/);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(wide <= 0, `the page scrolls ${wide} px sideways`);
  // The fit's table (four columns) is wider than the phone: it scrolls in its own box, which
  // the keyboard can reach, and the page still does not.
  await page.evaluate(() => window.fitPanel.start({ evaluations: 3 }));
  assert.equal(await page.locator('.nature-fit-scroll .nature-fit-table th[scope="col"]').nth(1).textContent(), 'Голуби');
  assert.equal(await page.locator('.nature-fit-scroll').getAttribute('tabindex'), '0');
  const wideAfter = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(wideAfter <= 0, `with the fit's table the page scrolls ${wideAfter} px sideways`);
  saveArtifact('nature-phone-uk.png', await page.screenshot({ fullPage: true }));
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test('the papers\' experiments: each language links the three spec files, and a link opens the Experiment group filled in', { timeout: 120_000 }, async () => {
  const names = ['correlation-size', 'anisotropy-topological', 'zones-state'];
  const files = names.map((name) => JSON.parse(readFileSync(`${repoRoot}/examples/experiments/${name}.json`, 'utf8')));
  const { context, page, problems } = await open();
  await page.waitForFunction(() => [...document.querySelectorAll('.nature-canon a')].every((a) => a.href.includes('?experiment=')));
  const links = await page.locator('.nature-canon').evaluateAll((lists) => lists.map((list) => [...list.querySelectorAll('a')].map((a) => a.href)));
  assert.equal(links.length, 4, 'one list a language');
  for (const list of links) {
    assert.equal(list.length, 3);
    list.forEach((href, i) => {
      assert.equal(new URL(href).pathname, '/index.html');
      const spec = JSON.parse(Buffer.from(new URL(href).searchParams.get('experiment'), 'base64url').toString('utf8'));
      assert.deepEqual(spec, files[i], `${href.slice(0, 60)}… is ${names[i]}.json`);
    });
  }
  const main = await context.newPage();
  await main.goto(links[0][0]);
  await main.waitForSelector('#exp-run', { timeout: 60_000 });
  assert.equal(await main.locator('#group-experiment').getAttribute('open'), '', 'the group is open');
  const values = await main.evaluate(() =>
    Object.fromEntries(['param', 'points', 'seeds', 'count', 'settle', 'measure'].map((k) => [k, document.getElementById(`exp-${k}`)?.value])),
  );
  assert.deepEqual(values, { param: 'count', points: '5', seeds: '1 2', count: '100', settle: '20', measure: '10' });
  assert.deepEqual(problems, []);
  await context.close();
});
