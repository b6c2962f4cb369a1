// The panel's Experiment group (issue 26): loaded only when opened; a short sweep fills the
// phase plot while the progress bar reaches 100 %; the CSV; a link that gives the experiment
// back; the class's split (one link a slice, a student's page runs its part and shows a code,
// the teacher's merges the codes and refuses another experiment's); axe-clean, keyboard-only,
// a phone without sideways scrolling, translated in uk/pl/ru; the form's bounds from the
// contract (experimentLimits()); the lesson "Order from noise"
// in its four languages. Screenshots go to tests/browser/artifacts/ (and /tmp/shots/ when it
// exists).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { saveArtifact, useDistAndBrowser, waitRunning, watchProblems } from './helpers.mjs';
import { TEST_CSS, testPage, waitFlocks } from './embed-helpers.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/** The files only the Experiment group loads. */
const ON_DEMAND =
  /\/(www\/(experiment\/[a-z-]+\.(js|css)|experiment\.js|i18n\/experiment[a-z-]*\.js)|boids_worker(\.js|_bg\.wasm))$/;
/** A sweep that takes a second or two: 50 boids, 0.5 s to settle and 0.5 s to measure a point. */
const SHORT = { count: '50', settle: '0.5', measure: '0.5', points: '3', seeds: '1' };
const LANGS = ['uk', 'pl', 'ru'];

/** A teacher's page with two embeds, every control each: the group in both, ids apart. */
const EMBEDS = testPage(`
  <div class="row">
    <boids-flock count="100" controls="all" open="experiment"></boids-flock>
    <boids-flock count="100" controls="all" lang="uk"></boids-flock>
  </div>`);
const env = useDistAndBrowser({ pages: { '/test/test.css': TEST_CSS, '/test/embeds.html': EMBEDS } });

function shot(name, buffer) {
  saveArtifact(name, buffer);
  if (existsSync('/tmp/shots')) writeFileSync(`/tmp/shots/${name}`, buffer);
}

async function open(query = '', options = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, ...options });
  const page = await context.newPage();
  const watch = watchProblems(page);
  const requested = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.goto(`${env.server.url}${query}`);
  await waitRunning(page);
  return { page, context, requested, ...watch };
}

/** Opens the group by its title and waits for its controls. */
async function openGroup(page) {
  await page.locator('#group-experiment > summary').click();
  await page.waitForSelector('#exp-run', { timeout: 30_000 });
}

/** Fills the form's fields (ids exp-<name>) as a user would, each followed by its change event. */
async function fill(page, fields) {
  for (const [name, value] of Object.entries(fields)) {
    await page.fill(`#exp-${name}`, value);
    await page.locator(`#exp-${name}`).dispatchEvent('change');
  }
}

const idle = (page) => page.waitForFunction(() => !document.getElementById('exp-run').classList.contains('bf-exp-running'), null, { timeout: 120_000 });

/**
 * The plot's pixels as they are now, kept in the page under `name`; with `against`, the
 * fraction of pixels that differ from those kept under that name (the canvas itself, not a
 * screenshot: a layout that moves by a pixel changes nothing here).
 */
function plotPixels(page, name, against = null) {
  return page.locator('#exp-plot').evaluate(
    (canvas, [name, against]) => {
      const { width, height } = canvas;
      const { data } = canvas.getContext('2d').getImageData(0, 0, width, height);
      window.__plots = { ...window.__plots, [name]: { data, width, height } };
      const old = against && window.__plots[against];
      if (!old) return null;
      // The panel's layout may round the canvas a pixel taller or shorter: the rows both have.
      if (old.width !== width) return NaN;
      const rows = Math.min(height, old.height);
      let differing = 0;
      for (let i = 0; i < rows * width * 4; i += 4) {
        if (Math.abs(data[i] - old.data[i]) + Math.abs(data[i + 1] - old.data[i + 1]) + Math.abs(data[i + 2] - old.data[i + 2]) > 24) differing++;
      }
      return differing / (rows * width);
    },
    [name, against],
  );
}

async function axe(page) {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

test('the group loads its modules only when opened; a short sweep fills the plot, the progress reaches 100 %, the CSV has its comment lines', { timeout: 180_000 }, async () => {
  const { page, context, requested, pageErrors, problems } = await open('?count=300');
  assert.equal(await page.locator('#group-experiment').isVisible(), true, 'the group is in the panel');
  assert.equal(await page.locator('#group-experiment').getAttribute('open'), null, 'closed at first');
  assert.deepEqual(requested.filter((p) => ON_DEMAND.test(p)), [], 'nothing of the experiment is fetched at load');

  await openGroup(page);
  for (const file of ['experiment-panel.js', 'panel-run.js', 'panel-class.js', 'phase-plot.js', 'runner.js', 'experiment.css']) {
    assert.ok(requested.includes(`/www/experiment/${file}`), `${file} fetched once the group opened`);
  }
  // The form's bounds are the contract's (Rust's experimentLimits()), not copies.
  const limits = await page.evaluate(async () => (await import('/www/experiment.js')).experimentLimits());
  const bounds = await page.evaluate(() =>
    Object.fromEntries(['points', 'count', 'settle', 'measure'].map((k) => [k, [document.getElementById(`exp-${k}`).min, document.getElementById(`exp-${k}`).max]])),
  );
  assert.deepEqual(bounds, {
    points: ['1', String(limits.maxValues)],
    count: [String(limits.minCount), String(limits.maxCount)],
    settle: ['0', String(limits.maxPointSeconds)],
    measure: [String(limits.step), String(limits.maxPointSeconds)],
  });
  // The parameter list: every slider parameter, noise chosen, its range as the default.
  const options = await page.locator('#exp-param option').evaluateAll((list) => list.map((o) => o.value));
  const sliders = await page.evaluate(() => customElements.get('boids-flock').params.filter((s) => s.slider && s.name !== 'seed').map((s) => s.name));
  assert.deepEqual(options, sliders, 'every slider parameter can be swept');
  if (options.includes('noise')) {
    assert.equal(await page.locator('#exp-param').inputValue(), 'noise', 'noise by default');
    const noise = await page.evaluate(() => customElements.get('boids-flock').params.find((s) => s.name === 'noise'));
    assert.equal(Number(await page.locator('#exp-from').inputValue()), noise.min);
    assert.equal(Number(await page.locator('#exp-to').inputValue()), noise.max);
  }
  assert.equal(await page.locator('#exp-show').inputValue(), 'polarization', 'polarization plotted by default');

  await fill(page, SHORT);
  await page.locator('#exp-plot').scrollIntoViewIfNeeded();
  await plotPixels(page, 'before');
  assert.equal(await page.locator('#exp-csv').isDisabled(), true, 'no CSV before a run');
  await page.locator('#exp-run').click();
  assert.equal(await page.locator('#exp-run').textContent(), 'Stop', 'Start became Stop');
  await idle(page);
  assert.equal(await page.locator('#exp-progress').evaluate((p) => p.value), 1, 'the progress bar is full');
  assert.match(await page.locator('#exp-status').textContent(), /Done/, 'done, said in the status line');
  assert.equal(await page.locator('#exp-status').getAttribute('aria-live'), 'polite');
  const changed = await plotPixels(page, 'after', 'before');
  assert.ok(changed > 0.005, `the plot was drawn (${(100 * changed).toFixed(2)} % of its pixels changed)`);
  assert.match(await page.locator('#exp-plot').getAttribute('aria-label'), /Points: 3/, 'the plot says what it shows');
  shot('experiment-desktop.png', await page.screenshot());

  // Another measure redraws without running again.
  await page.locator('#exp-show').selectOption('groups');
  assert.ok((await plotPixels(page, 'groups', 'after')) > 0.002, 'the plot shows the chosen measure');

  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#exp-csv').click()]);
  const csv = readFileSync(await download.path(), 'utf8').split('\n');
  assert.match(download.suggestedFilename(), /\.csv$/);
  assert.match(csv[0], /^# boids \S+/, 'the version');
  assert.match(csv[1], /^# experiment [0-9a-f]{16}$/, 'the print');
  assert.match(csv[2], /^# spec \{"settings":/, 'the spec');
  assert.match(csv[3], /^# link http.*[?&]experiment=/, 'the link');
  assert.equal(
    csv[4],
    'param,direction,seed,value,samples,polarization,polarization_sd,milling,milling_sd,groups,groups_sd,largest_group,largest_group_sd,median_nearest,median_nearest_sd,mean_neighbours,mean_neighbours_sd,correlation_share,correlation_share_sd,anisotropy,anisotropy_sd,velocity_correlation,velocity_correlation_sd,group_correlation,group_correlation_sd,outside,outside_sd,collisions,collisions_sd,state',
  );
  assert.equal(csv.filter((line) => line && !line.startsWith('#')).length, 1 + 3, 'the header and three rows');
  const [png] = await Promise.all([page.waitForEvent('download'), page.locator('#exp-png').click()]);
  assert.match(png.suggestedFilename(), /\.png$/);
  assert.deepEqual([...readFileSync(await png.path()).subarray(1, 4)].map((c) => String.fromCharCode(c)).join(''), 'PNG');
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('Copy link gives the experiment back: the page opens the group with the same fields', { timeout: 120_000 }, async () => {
  const { page, context } = await open('?count=300');
  await openGroup(page);
  await fill(page, { ...SHORT, points: '4', seeds: '2 5', from: '0.5' });
  await page.locator('#exp-direction-up-down').check();
  await page.locator('#exp-copy-link').click();
  const link = await page.locator('#exp-link').inputValue();
  assert.match(link, /[?&]experiment=/);
  const again = await context.newPage();
  await again.goto(link);
  await again.waitForSelector('#exp-run', { timeout: 60_000 });
  assert.equal(await again.locator('#group-experiment').getAttribute('open'), '', 'the group is open');
  const values = await again.evaluate(() =>
    Object.fromEntries(['from', 'points', 'seeds', 'count', 'settle', 'measure'].map((k) => [k, document.getElementById(`exp-${k}`).value])),
  );
  assert.deepEqual(values, { from: '0.5', points: '4', seeds: '2 5', count: '50', settle: '0.5', measure: '0.5' });
  assert.equal(await again.locator('#exp-direction-up-down').isChecked(), true);
  assert.equal(await again.locator('#exp-run').textContent(), 'Start', 'a teacher’s link does not start by itself');
  await context.close();
});

test('share with the class: one link a slice; a student’s page runs its part and shows its code; the teacher merges the codes and refuses another experiment’s', { timeout: 240_000 }, async () => {
  const { page, context, pageErrors } = await open('?count=300');
  await openGroup(page);
  await fill(page, SHORT);
  await fill(page, { students: '3' });
  await page.locator('#exp-share').click();
  const links = await page.locator('#exp-links a').evaluateAll((list) => list.map((a) => a.href));
  assert.equal(links.length, 3, 'three links');
  const slices = await page.evaluate(async (links) => {
    const { specFromLink } = await import('/www/experiment.js');
    return links.map((link) => specFromLink(link).slice);
  }, links);
  assert.deepEqual(slices, [0, 1, 2].map((index) => ({ index, of: 3 })), 'each link a different slice');
  // More students than units: as many links as there are units, and it says so.
  await fill(page, { students: '9' });
  await page.locator('#exp-share').click();
  assert.equal(await page.locator('#exp-links a').count(), 3, 'at most one link a unit');
  assert.match(await page.locator('#exp-status').textContent(), /3/, 'says the most');

  // Two students run their parts.
  const codes = [];
  for (const link of links.slice(0, 2)) {
    const student = await context.newPage();
    const { pageErrors: studentErrors } = watchProblems(student);
    await student.goto(link);
    await student.waitForSelector('#exp-code', { timeout: 60_000 });
    await student.waitForFunction(() => document.getElementById('exp-code').value.startsWith('boids1:'), null, { timeout: 120_000 });
    assert.match(await student.locator('.bf-exp-intro').textContent(), /part \d of 3/i, 'the student is told which part');
    assert.equal(await student.locator('#exp-copy-code').isDisabled(), false, 'the code can be copied');
    codes.push(await student.locator('#exp-code').inputValue());
    if (codes.length === 1) shot('experiment-student.png', await student.screenshot());
    assert.deepEqual(studentErrors, []);
    await student.close();
  }

  await page.locator('#exp-paste').fill(codes.join('\n'));
  await page.locator('#exp-merge').click();
  await page.waitForFunction(() => /Codes merged: 2/.test(document.getElementById('exp-merge-status').textContent), null, { timeout: 10_000 });
  assert.match(await page.locator('#exp-merge-status').textContent(), /rows: 2\b.*still to come: 1/i, 'two rows of three, one to come');
  assert.equal(await page.locator('#exp-merge-status').evaluate((el) => el.classList.contains('bf-exp-refused')), false);

  // A code from another experiment (another count) is refused, said inline.
  const foreign = await page.evaluate(async () => {
    const { resultCode, runExperiment } = await import('/www/experiment.js');
    const result = await runExperiment({ settings: {}, param: 'alignment', values: [1], direction: 'up', seeds: [1], count: 60, settle: 0.5, measure: 0.5, sampleEvery: 0.5 });
    return resultCode(result);
  });
  await page.locator('#exp-paste').fill(`${codes[0]}\n${foreign}`);
  await page.locator('#exp-merge').click();
  await page.waitForFunction(() => /another experiment/.test(document.getElementById('exp-merge-status').textContent), null, { timeout: 10_000 });
  assert.match(await page.locator('#exp-merge-status').textContent(), /Refused 1/);
  assert.equal(await page.locator('#exp-merge-status').evaluate((el) => el.classList.contains('bf-exp-refused')), true, 'shown as a refusal');
  await page.locator('#exp-merge-status').scrollIntoViewIfNeeded();
  shot('experiment-merge.png', await page.screenshot());
  await page.locator('#exp-paste').fill('no code here');
  await page.locator('#exp-merge').click();
  await page.waitForFunction(() => /No result code/.test(document.getElementById('exp-merge-status').textContent), null, { timeout: 10_000 });
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test('axe-clean with the group open, and keyboard-only: Tab reaches every control, Enter starts, Space stops', { timeout: 180_000 }, async () => {
  // axe-core is injected: the page's CSP bypassed for the test, as in a11y.test.mjs.
  const { page, context, pageErrors } = await open('?count=300&open=experiment', { bypassCSP: true });
  await page.waitForSelector('#exp-run');
  await fill(page, { ...SHORT, points: '2' });
  await page.locator('#exp-run').click();
  await idle(page);
  await page.locator('#exp-share').click();
  const bad = await axe(page);
  assert.deepEqual(bad, [], JSON.stringify(bad, null, 1));

  // Every control of the group, reached by Tab from its title.
  const controls = await page.evaluate(() =>
    [...document.querySelectorAll('#group-experiment .bf-group-body :is(input, select, button, textarea, a[href])')]
      .filter((el) => !el.disabled && el.getClientRects().length > 0 && !(el.type === 'radio' && !el.checked))
      .map((el) => el.id || el.textContent),
  );
  assert.ok(controls.length >= 15, `controls found: ${controls}`);
  await page.locator('#group-experiment > summary').focus();
  const reached = new Set();
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate(() => {
      const el = document.activeElement;
      return el?.closest('#group-experiment') ? el.id || el.textContent : null;
    });
    if (at == null) break;
    reached.add(at);
  }
  assert.deepEqual(controls.filter((c) => !reached.has(c)), [], 'Tab reaches them all');

  // Enter on Start starts; Space on Stop stops (and does not pause the flock).
  const paused = await page.locator('#pause').getAttribute('aria-pressed');
  await fill(page, { settle: '30', measure: '30', points: '5' });
  await page.locator('#exp-run').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('exp-run').classList.contains('bf-exp-running'));
  await page.keyboard.press('Space');
  await idle(page);
  assert.match(await page.locator('#exp-status').textContent(), /Stopped/);
  assert.equal(await page.locator('#pause').getAttribute('aria-pressed'), paused, 'Space on the button did not pause the flock');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.getElementById('exp-run').classList.contains('bf-exp-running'));
  await page.keyboard.press('Enter');
  await idle(page);
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test('a 390×844 touch screen: the group fits, no sideways scrolling', { timeout: 180_000 }, async () => {
  const { page, context, pageErrors } = await open('?count=300&open=experiment', {
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    deviceScaleFactor: 2,
  });
  await page.waitForSelector('#exp-run');
  await fill(page, SHORT);
  await page.locator('#exp-direction-up-down').check();
  await page.locator('#exp-run').click();
  await idle(page);
  await page.locator('#exp-share').click();
  const overflow = await page.evaluate(() => {
    const out = [];
    if (document.documentElement.scrollWidth > window.innerWidth) out.push(`page ${document.documentElement.scrollWidth}>${window.innerWidth}`);
    for (const el of document.querySelectorAll('#group-experiment *')) {
      if (!el.getClientRects().length) continue;
      const r = el.getBoundingClientRect();
      if (r.right > window.innerWidth + 0.5 || r.left < -0.5) out.push(`${el.tagName.toLowerCase()}.${el.className} ${r.left}-${r.right}`);
    }
    return out;
  });
  assert.deepEqual(overflow, [], 'nothing sticks out sideways');
  const plot = await page.locator('#exp-plot').boundingBox();
  assert.ok(plot.width >= 300, `the plot is ${plot.width} px wide`);
  // Below the stage (which stays on top on a phone): the plot, then the class's part.
  await page.locator('#exp-plot').evaluate((el) => el.scrollIntoView({ block: 'end' }));
  shot('experiment-phone.png', await page.screenshot());
  await page.locator('#exp-merge').evaluate((el) => el.scrollIntoView({ block: 'end' }));
  shot('experiment-phone-class.png', await page.screenshot());
  assert.deepEqual(pageErrors, []);
  await context.close();
});

/** The group's visible texts: labels, legends, options, buttons, headings, hints. */
function groupTexts(page) {
  return page.evaluate(() => {
    const out = {};
    const group = document.getElementById('group-experiment');
    out.title = group.querySelector('summary').textContent.trim();
    group.querySelectorAll('label, legend, button, h3, .bf-exp-hint, option, figcaption').forEach((el, i) => {
      out[`${el.tagName.toLowerCase()}${i}`] = el.textContent.trim();
    });
    out.plot = group.querySelector('canvas').getAttribute('aria-label');
    return out;
  });
}

test('uk, pl, ru: every text of the group is translated', { timeout: 240_000 }, async () => {
  const { page, context } = await open('?count=300&open=experiment');
  await page.waitForSelector('#exp-run');
  const en = await groupTexts(page);
  for (const lang of LANGS) {
    const other = await context.newPage();
    await other.goto(`${env.server.url}?count=300&open=experiment&lang=${lang}`);
    await waitRunning(other);
    await other.waitForSelector('#exp-run');
    const texts = await groupTexts(other);
    assert.deepEqual(Object.keys(texts), Object.keys(en), `${lang}: the same texts`);
    const same = Object.keys(en).filter((key) => texts[key] === en[key]);
    assert.deepEqual(same, [], `${lang}: left in English: ${same.map((k) => `${k}=${en[k]}`).join(', ')}`);
    if (lang === 'uk') {
      await fill(other, SHORT);
      await other.locator('#exp-run').click();
      await idle(other);
      await other.locator('#exp-plot').scrollIntoViewIfNeeded();
      shot('experiment-uk.png', await other.screenshot());
    }
    await other.close();
  }
  await context.close();
});

test('embeds with every control have the group too, with ids of their own, and run an experiment', { timeout: 120_000 }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const page = await context.newPage();
  const { pageErrors } = watchProblems(page);
  await page.goto(`${env.server.url}test/embeds.html`);
  await waitFlocks(page, 'boids-flock', { min: 2 });
  await page.waitForSelector('boids-flock .bf-exp-run', { timeout: 30_000 });
  const run = page.locator('boids-flock .bf-exp-run');
  assert.equal(await run.count(), 1, 'the first embed opened its group, the second did not');
  assert.match(await run.getAttribute('id'), /^boids-flock-\d+-exp-run$/, 'ids made unique by the element');
  const second = page.locator('boids-flock').nth(1);
  await second.locator('[data-group="experiment"] > summary').click();
  await page.waitForFunction(() => document.querySelectorAll('boids-flock .bf-exp-run').length === 2);
  assert.equal(await second.locator('.bf-exp-run').textContent(), 'Почати', 'in the embed’s language');
  const ids = await page.evaluate(() => [...document.querySelectorAll('[id]')].map((el) => el.id));
  assert.equal(new Set(ids).size, ids.length, 'no id twice in the document');
  const first = page.locator('boids-flock').first();
  for (const [name, value] of Object.entries(SHORT)) {
    const input = first.locator(`[id$="-exp-${name}"]`);
    await input.fill(value);
    await input.dispatchEvent('change');
  }
  await run.first().click();
  await page.waitForFunction(() => {
    const bar = document.querySelector('boids-flock .bf-exp-progress');
    return bar.value === 1 && !document.querySelector('boids-flock .bf-exp-run').classList.contains('bf-exp-running');
  }, null, { timeout: 120_000 });
  assert.equal(await page.evaluate(() => 'experiment_' in window || 'runExperiment' in window), false, 'no globals');
  assert.deepEqual(pageErrors, []);
  await context.close();
});

for (const lang of ['en', 'uk', 'pl', 'ru']) {
  test(`the lesson "Order from noise" loads in ${lang} without errors`, { timeout: 120_000 }, async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const { pageErrors, problems } = watchProblems(page);
    await page.goto(`${env.server.url}examples/order.html?lang=${lang}`);
    for (const flock of await page.locator('boids-flock').all()) await flock.scrollIntoViewIfNeeded();
    await waitFlocks(page, 'boids-flock');
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    const shown = await page.locator(`[data-lesson-lang="${lang}"]`).count();
    assert.ok(shown > 0, 'the language’s sections');
    assert.equal(await page.locator(`[data-lesson-lang]:not([data-lesson-lang="${lang}"]):not([hidden])`).count(), 0, 'only its own language shows');
    await page.waitForFunction(() => [...document.querySelectorAll('[data-experiment]')].every((box) => box.dataset.ready === 'true'));
    if (lang === 'en') {
      // Part one's Start runs the sweep in a worker: its first point comes, then Stop stops it.
      const part = page.locator('[data-experiment="noise"]');
      const plot = part.locator('canvas');
      await plot.scrollIntoViewIfNeeded();
      const pixels = () => plot.evaluate((canvas) => canvas.toDataURL());
      const before = await pixels();
      await part.locator('[data-run]').click();
      await page.waitForFunction(() => document.querySelector('[data-experiment="noise"] progress').value > 0.1, null, { timeout: 120_000 });
      assert.equal(await part.locator('[data-run]').textContent(), 'Stop');
      await page.waitForFunction(() => /up: \d/.test(document.querySelector('[data-experiment="noise"] canvas').getAttribute('aria-label')), null, { timeout: 120_000 });
      assert.notEqual(await pixels(), before, 'the first points are drawn');
      await part.locator('[data-run]').click();
      await page.waitForFunction(() => /Stopped/.test(document.querySelector('[data-experiment="noise"] [data-status]').textContent));
      assert.match(await part.locator('[data-open]').getAttribute('href'), /[?&]experiment=/, 'a link to the experiment in the full page');
    }
    if (lang === 'en' || lang === 'uk') {
      await page.evaluate(() => window.scrollTo(0, 0));
      shot(`order-${lang}.png`, await page.screenshot({ fullPage: true }));
      const phone = await context.newPage();
      await phone.setViewportSize({ width: 390, height: 844 });
      await phone.goto(`${env.server.url}examples/order.html?lang=${lang}`);
      await phone.waitForFunction(() => document.querySelector('[data-experiment]')?.dataset.ready === 'true');
      assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scrolling on a phone');
      shot(`order-${lang}-phone.png`, await phone.screenshot({ fullPage: true }));
      await phone.close();
    }
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
