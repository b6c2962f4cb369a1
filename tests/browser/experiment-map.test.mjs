// Two-parameter maps (issue 44): the drone map (tests/fixtures/experiment-map.json: delay ×
// message loss, 5 × 5, 3 seeds, 1,500 boids) run in Chromium's workers, split in two as a
// class would split it and merged: its CSV the pinned browser one byte for byte, and the
// command line's map (tests/experiment_map.rs) cell by cell within the seeds' spread (the
// last bits differ, SSE2 against SIMD128, and a flock grows them); a map's slices, codes and
// links; and the panel:
// "Across it" makes a map, drawn as a heat map that fills cell by cell, read out cell by cell,
// with its CSV, PNG and link, the up-down choice closed; keyboard-only, a phone, uk/pl/ru.
// Screenshots go to tests/browser/artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, saveArtifact, useDistAndBrowser, waitRunning, watchProblems } from './helpers.mjs';

const env = useDistAndBrowser();
const FIXTURE_FILE = path.join(repoRoot, 'tests/fixtures/experiment-map.json');
const FIXTURE = JSON.parse(readFileSync(FIXTURE_FILE, 'utf8'));

/** A small map, quick to run: alignment 0, 1.5, 3 across noise 0 and 2; one seed of 60 boids. */
const SMALL = {
  settings: { wrap: 1 },
  param: 'alignment',
  values: [0, 1.5, 3],
  map: { param: 'noise', values: [0, 2] },
  direction: 'up',
  seeds: [1, 2],
  count: 60,
  settle: 0.5,
  measure: 0.5,
  sampleEvery: 0.25,
};

/** A map's CSV → "value mapValue" → { measure: { mean, sd } }: over the seeds, for three measures. */
function cellMeans(csv) {
  const lines = csv.trim().split('\n').filter((line) => !line.startsWith('#'));
  const header = lines.shift().split(',');
  const at = (name) => header.indexOf(name);
  const cells = new Map();
  for (const line of lines) {
    const f = line.split(',');
    const key = `${Number(f[at('value')])} ${Number(f[at('map_value')])}`;
    if (!cells.has(key)) cells.set(key, { polarization: [], velocity_correlation: [], largest_group: [] });
    for (const [name, list] of Object.entries(cells.get(key))) list.push(Number(f[at(name)]));
  }
  const stat = (list) => {
    const mean = list.reduce((a, b) => a + b, 0) / list.length;
    return { mean, sd: Math.sqrt(list.reduce((a, b) => a + (b - mean) ** 2, 0) / (list.length - 1)) };
  };
  return new Map([...cells].map(([key, lists]) => [key, Object.fromEntries(Object.entries(lists).map(([k, v]) => [k, stat(v)]))]));
}

async function open(query = '', options = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, ...options });
  const page = await context.newPage();
  const watch = watchProblems(page);
  await page.goto(`${env.server.url}${query}`);
  if (!query.startsWith('examples/')) await waitRunning(page); // (a lesson's flocks wait for the reader)
  return { page, context, ...watch };
}

test('the drone map runs in two workers as a class would split it: the pinned browser CSV, the command line\'s map within its seeds\' spread', { timeout: 600_000 }, async () => {
  const { page, context, problems, pageErrors } = await open('index.html');
  const out = await page.evaluate(async (fixture) => {
    const ex = await import('/www/experiment.js');
    const started = performance.now();
    const halves = ex.sliceSpecs(fixture.spec, 2);
    const results = await Promise.all(halves.map((spec) => ex.runExperiment(spec)));
    const merged = ex.mergeResults(results);
    const seconds = (performance.now() - started) / 1000;
    const csv = merged.csv().replace(/^# boids [^\n]*\n/, `# boids ${fixture.version}\n`);
    // A half as a student's code, and back.
    const code = await ex.resultCode(results[1]);
    const back = await ex.parseResultCode(code, fixture.spec);
    // Its picture (docs/img/drone-map.png): velocity correlation over delay and message loss.
    const { cellsFromRows, drawHeatMap } = await import('/www/experiment/heat-map.js');
    const canvas = Object.assign(document.createElement('canvas'), { id: 'map-shot' });
    canvas.style.cssText = 'position:fixed;left:0;top:0;width:560px;height:460px;z-index:99;background:#0f1a2e;color:#e8eef8;font-family:sans-serif';
    document.body.append(canvas);
    drawHeatMap(canvas, {
      cells: cellsFromRows(merged.rows, 'velocityCorrelation'),
      xs: fixture.spec.values,
      ys: fixture.spec.map.values,
      x: { label: 'Delay (s)' },
      y: { label: 'Message loss' },
      scale: { axis: 'share', label: 'Velocity correlation' },
    });
    return {
      seconds,
      csv,
      missing: merged.missing,
      rows: merged.rows.length,
      first: merged.rows[0],
      backRows: back.rows.length,
      backSame: JSON.stringify(back.rows) === JSON.stringify(results[1].rows),
      slice: back.spec.slice,
    };
  }, FIXTURE);
  console.log(`# the drone map, 75 points of 1,500 boids in 2 workers: ${out.seconds.toFixed(1)} s`);
  saveArtifact('experiment-map-browser.csv', Buffer.from(out.csv));
  saveArtifact('drone-map.png', await page.locator('#map-shot').screenshot());
  if (process.env.BOIDS_BLESS) {
    writeFileSync(FIXTURE_FILE, `${JSON.stringify({ ...FIXTURE, csv: { ...FIXTURE.csv, browser: out.csv } }, null, 2)}\n`);
    return;
  }
  assert.equal(out.missing, 0);
  assert.equal(out.rows, 75);
  assert.equal(out.first.mapParam, 'messageLoss');
  assert.equal(out.first.mapValue, 0);
  assert.equal(out.csv, FIXTURE.csv.browser, "the workers wrote another CSV than the pinned browser one");
  // Against the command line's: each cell's mean over the seeds, within their spread.
  const [browser, native] = [cellMeans(out.csv), cellMeans(FIXTURE.csv.native)];
  assert.equal(browser.size, 25);
  let largest = 0;
  for (const [cell, b] of browser) {
    const n = native.get(cell);
    for (const measure of ['polarization', 'velocity_correlation', 'largest_group']) {
      const gap = Math.abs(b[measure].mean - n[measure].mean);
      // Measured: at most 0.0005 apart (polarization, no delay, no loss), 0.23 of the seeds' sd.
      const allowed = 0.005 + 0.5 * Math.max(b[measure].sd, n[measure].sd);
      largest = Math.max(largest, gap / allowed);
      assert.ok(gap <= allowed, `${measure} at ${cell}: browser ${b[measure].mean}, native ${n[measure].mean}`);
    }
  }
  console.log(`# browser against native: the largest gap ${(largest * 100).toFixed(0)} % of its allowance`);
  // And the map says what the native one says: at every loss, the later the worse.
  for (const loss of FIXTURE.spec.map.values) {
    const [none, tenth, fifth] = [0, 0.1, 0.2].map((delay) => browser.get(`${delay} ${loss}`).velocity_correlation.mean);
    assert.ok(none > tenth && tenth > fifth, `loss ${loss}: ${none} ${tenth} ${fifth}`);
  }
  assert.deepEqual([out.backRows, out.backSame, out.slice], [37, true, { index: 1, of: 2 }]);
  assert.deepEqual(problems, []);
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test('a map\'s spec, link, code and merge: refused by field, given back whole', async () => {
  const { page, context, problems } = await open('index.html');
  const out = await page.evaluate(async (spec) => {
    const ex = await import('/www/experiment.js');
    const message = (f) => {
      try {
        f();
        return 'no error';
      } catch (error) {
        return `${error.name}: ${error.message}`;
      }
    };
    const link = ex.experimentLink(spec, 'https://example.org/boids/');
    const fromLink = ex.specFromLink(link);
    const result = await ex.runExperiment(spec);
    const slices = ex.sliceSpecs(spec, 3);
    const parts = await Promise.all(slices.map((s) => ex.runExperiment(s)));
    const codes = await Promise.all(parts.map((p) => ex.resultCode(p)));
    const read = await Promise.all(codes.map((c) => ex.parseResultCode(c, spec)));
    const merged = ex.mergeResults(read, spec);
    // A row moved to another cell is not the row its slice holds there.
    const moved = structuredClone(parts[0].rows);
    moved[0].mapValue = 2;
    return {
      fromLink: JSON.stringify(fromLink) === JSON.stringify(result.spec),
      units: ex.experimentUnits(spec),
      limits: ex.experimentLimits().maxCells,
      rows: result.rows.map((r) => [r.seed, r.value, r.mapParam, r.mapValue]),
      same: JSON.stringify(merged.rows) === JSON.stringify(result.rows),
      csv: merged.csv() === result.csv(),
      header: result.csv().split('\n')[3].split(',').slice(0, 7).join(','),
      moved: message(() => ex.mergeResults([{ ...parts[0], rows: moved }], spec)),
      upDown: message(() => ex.experimentFingerprint({ ...spec, direction: 'up-down' })),
      same_param: message(() => ex.experimentFingerprint({ ...spec, map: { param: 'alignment', values: [1] } })),
      badMap: message(() => ex.experimentFingerprint({ ...spec, map: { param: 'noise', values: [0, 9] } })),
      notMap: message(() => ex.experimentFingerprint({ ...spec, map: 'noise' })),
      printDiffers: ex.experimentFingerprint(spec) !== ex.experimentFingerprint({ ...spec, map: undefined }),
    };
  }, SMALL);
  assert.ok(out.fromLink, 'the link gives the map back');
  assert.equal(out.units, 12);
  assert.equal(out.limits, 1024);
  assert.deepEqual(out.rows.slice(0, 4), [
    [1, 0, 'noise', 0],
    [1, 1.5, 'noise', 0],
    [1, 3, 'noise', 0],
    [1, 0, 'noise', 2],
  ]);
  assert.ok(out.same && out.csv, 'three slices by their codes merge to the whole');
  assert.equal(out.header, 'param,direction,seed,value,map_param,map_value,samples');
  assert.match(out.moved, /^TypeError: mergeResults: results\[0\]\.rows\[0\] is not the row its slice holds there/);
  assert.equal(out.upDown, 'RangeError: experimentFingerprint: direction: a map runs "up" only: each cell from a fresh flock');
  assert.equal(out.same_param, 'RangeError: experimentFingerprint: map.param: must be another parameter than param');
  assert.equal(out.badMap, 'RangeError: experimentFingerprint: map.values[1]: outside the range of noise, 0 to 4');
  assert.equal(out.notMap, 'TypeError: experimentFingerprint: map must be an object or undefined, got a string');
  assert.ok(out.printDiffers);
  assert.deepEqual(problems, []);
  await context.close();
});

/** The heat map's colour at the middle of cell (i, j) of an nx × ny grid, read off the canvas. */
function cellColours(page, nx, ny) {
  return page.locator('#exp-plot').evaluate(
    (canvas, [nx, ny]) => {
      const g = canvas.getContext('2d');
      const ratio = canvas.width / canvas.clientWidth;
      const small = canvas.clientWidth < 420;
      // heat-map.js's layout: the left and bottom margins, the colour bar on the right.
      const pad = { left: small ? 46 : 56, right: 10 + (small ? 64 : 76), top: 12, bottom: 38 };
      const w = canvas.clientWidth - pad.left - pad.right;
      const h = canvas.clientHeight - pad.top - pad.bottom;
      const out = [];
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i < nx; i++) {
          // A quarter in from the corner: clear of the number written in the middle.
          const x = (pad.left + (i + 0.25) * (w / nx)) * ratio;
          const y = (pad.top + (ny - 1 - j + 0.25) * (h / ny)) * ratio;
          out.push(Array.from(g.getImageData(Math.round(x), Math.round(y), 1, 1).data.slice(0, 3)));
        }
      }
      return out;
    },
    [nx, ny],
  );
}

test('the panel: "Across it" makes a map, a heat map fills cell by cell, its CSV, PNG and link; keyboard, phone, languages', { timeout: 240_000 }, async () => {
  const { page, context, problems, pageErrors } = await open('index.html');
  await page.locator('#group-experiment > summary').click();
  await page.waitForSelector('#exp-run', { timeout: 30_000 });
  // Keyboard only: the second parameter chosen from its list.
  await page.locator('#exp-param').selectOption('alignment');
  await page.locator('#exp-map-param').focus();
  assert.equal(await page.locator('#exp-map-param option[value="alignment"]').isDisabled(), true, 'not the first parameter again');
  await page.keyboard.press('ArrowDown'); // (Chromium's closed select moves its choice with the arrows)
  await page.locator('#exp-map-param').selectOption('noise');
  assert.equal(await page.locator('.bf-exp-map-range').isHidden(), false);
  assert.equal(await page.locator('#exp-direction-up-down').isDisabled(), true, 'a map runs up only');
  for (const [name, value] of Object.entries({ from: '0', to: '3', points: '3', 'map-from': '0', 'map-to': '2', 'map-points': '2', seeds: '1', count: '60', settle: '0.5', measure: '0.5' })) {
    await page.fill(`#exp-${name}`, value);
    await page.locator(`#exp-${name}`).dispatchEvent('change');
  }
  await page.locator('#exp-run').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => !document.getElementById('exp-run').classList.contains('bf-exp-running'), null, { timeout: 120_000 });
  assert.match(await page.locator('.bf-exp-status').textContent(), /6/);
  const caption = await page.locator('.bf-exp-caption').textContent();
  assert.match(caption, /^Polarization \(aligned\) over Alignment and Noise/);
  const label = await page.locator('#exp-plot').getAttribute('aria-label');
  assert.match(label, /Cells: 6 of 6\./);
  assert.equal((label.match(/[\d.]+, [\d.]+: [\d.]+/g) ?? []).length, 6, label);
  // The cells' colours: every cell painted (not the background), and not all alike (order rises with alignment).
  const colours = await cellColours(page, 3, 2);
  const background = [15, 26, 46];
  assert.ok(colours.every((c) => c.some((v, k) => Math.abs(v - background[k]) > 20)), JSON.stringify(colours));
  assert.ok(new Set(colours.map(String)).size > 1, JSON.stringify(colours));
  saveArtifact('experiment-map.png', await page.locator('.bf-exp-figure').screenshot());

  // The CSV and the PNG.
  const [csv] = await Promise.all([page.waitForEvent('download'), page.locator('#exp-csv').click()]);
  assert.equal(csv.suggestedFilename(), 'boids-experiment-alignment-noise.csv');
  const text = readFileSync(await csv.path(), 'utf8');
  assert.match(text, /\nparam,direction,seed,value,map_param,map_value,samples,/);
  assert.equal(text.trim().split('\n').filter((l) => l.startsWith('alignment,up,')).length, 6);
  const [png] = await Promise.all([page.waitForEvent('download'), page.locator('#exp-png').click()]);
  assert.equal(png.suggestedFilename(), 'boids-experiment-alignment-noise.png');
  assert.deepEqual([...readFileSync(await png.path()).subarray(1, 4)], [0x50, 0x4e, 0x47]);

  // The link opens the map again: the form shows it.
  await page.locator('#exp-copy-link').click();
  const link = await page.locator('#exp-copy-link').getAttribute('data-link');
  const again = await context.newPage();
  await again.goto(link);
  await waitRunning(again);
  await again.waitForSelector('#exp-run', { timeout: 30_000 });
  assert.equal(await again.locator('#exp-map-param').inputValue(), 'noise');
  assert.equal(await again.locator('#exp-map-points').inputValue(), '2');
  assert.match(await again.locator('.bf-exp-caption').textContent(), /over Alignment and Noise/);
  await again.close();

  // Choosing nothing across gives the curve back, and up-down with it.
  await page.locator('#exp-map-param').selectOption('');
  assert.equal(await page.locator('.bf-exp-map-range').isHidden(), true);
  assert.equal(await page.locator('#exp-direction-up-down').isDisabled(), false);
  // (The plot keeps the map it ran until the next run; the form's link is a curve's now.)
  await page.locator('#exp-copy-link').click();
  const curveLink = await page.locator('#exp-copy-link').getAttribute('data-link');
  const curve = await page.evaluate(async (link) => (await import('/www/experiment.js')).specFromLink(link), curveLink);
  assert.deepEqual([curve.param, curve.map, curve.values.length], ['alignment', undefined, 3]);
  assert.deepEqual(problems, []);
  assert.deepEqual(pageErrors, []);
  await context.close();

  // A phone, in each language: the map's form and picture fit, nothing scrolls sideways.
  for (const lang of ['uk', 'pl', 'ru']) {
    const phone = await open(`index.html?lang=${lang}`, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const { page } = phone;
    await page.locator('#group-experiment > summary').click();
    await page.waitForSelector('#exp-run', { timeout: 30_000 });
    await page.locator('#exp-map-param').selectOption('delay');
    const across = await page.locator('label[for="exp-map-param"]').textContent();
    assert.notEqual(across, 'Across it (a map)', `${lang}: translated`);
    assert.match(await page.locator('.bf-exp-caption').textContent(), /\S/);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(wide <= 0, `${lang}: ${wide} px sideways`);
    await page.locator('#exp-map-param').scrollIntoViewIfNeeded();
    saveArtifact(`experiment-map-phone-${lang}.png`, await page.screenshot());
    assert.deepEqual(phone.problems, []);
    await phone.context.close();
  }
});

test('the lesson "A swarm of drones": its map runs in the page and fills all twelve cells; its links open experiments; four languages, a phone', { timeout: 240_000 }, async () => {
  const { page, context, problems, pageErrors } = await open('examples/swarm.html');
  await page.waitForSelector('[data-map][data-ready]', { timeout: 60_000 });
  assert.equal(await page.title(), 'A swarm of drones — Boids');
  // Each link carries an experiment the full page reads: the map, failures, roles.
  const specs = await page.evaluate(async () => {
    const ex = await import('/www/experiment.js');
    return [...document.querySelectorAll('[data-open]')].map((a) => {
      const spec = ex.specFromLink(a.href);
      return [a.dataset.open, spec.param, spec.map?.param ?? null, ex.experimentUnits(spec)];
    });
  });
  assert.deepEqual(specs, [
    ['map', 'delay', 'messageLoss', 12],
    ['failures', 'failures', null, 10],
    ['roles', 'roles', null, 10],
  ]);
  const started = Date.now();
  await page.locator('[data-map] [data-run]').click();
  await page.waitForFunction(() => window.swarmMap, null, { timeout: 180_000 });
  console.log(`# the lesson's map, 12 cells of 400 drones: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const label = await page.locator('[data-map] canvas').getAttribute('aria-label');
  assert.match(label, /Cells: 12 of 12\./);
  // The lesson's claim, in this run too: with every message heard, the later the less alike.
  const heard = await page.evaluate(() =>
    window.swarmMap.rows.filter((r) => r.mapValue === 0).map((r) => [r.value, r.velocityCorrelation.mean]),
  );
  assert.equal(heard.length, 4);
  assert.ok(heard[0][1] > heard[2][1] && heard[2][1] > heard[3][1], JSON.stringify(heard));
  await page.locator('[data-map] [data-measure]').selectOption('collisions');
  assert.match(await page.locator('[data-map] canvas').getAttribute('aria-label'), /^Collision ratio over Delay and Message loss/);
  saveArtifact('swarm-lesson.png', await page.screenshot({ fullPage: true }));
  saveArtifact('swarm-lesson-map.png', await page.locator('.order-pair').screenshot());
  assert.deepEqual(problems, []);
  assert.deepEqual(pageErrors, []);
  await context.close();

  for (const lang of ['uk', 'pl', 'ru']) {
    const phone = await open(`examples/swarm.html?lang=${lang}`, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.page.waitForSelector('[data-map][data-ready]', { timeout: 60_000 });
    const shown = await phone.page.evaluate(() => [...document.querySelectorAll('[data-lesson-lang]')].filter((s) => !s.hidden).map((s) => s.dataset.lessonLang));
    assert.ok(shown.length > 0 && shown.every((l) => l === lang), `${lang}: ${shown}`);
    assert.notEqual(await phone.page.locator('[data-map] [data-run]').textContent(), 'Start', `${lang}: the button translated`);
    const wide = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(wide <= 0, `${lang}: ${wide} px sideways`);
    await phone.page.locator('[data-map]').scrollIntoViewIfNeeded();
    saveArtifact(`swarm-lesson-phone-${lang}.png`, await phone.page.screenshot());
    assert.deepEqual(phone.problems, []);
    await phone.context.close();
  }
});
