// The studio's downloads (issue 45, www/studio/studio-export.js, www/package/): a lesson built
// in the studio's form, then
// - the single HTML file opened from file:// in Chromium: it runs the flock, with the
//   preview's settings, controls, locks and prompts, and no request leaves the page;
// - the SCORM 1.2 and 2004 packages unzipped (Python's zipfile, which checks every CRC) and
//   run under scorm-again, a real SCORM runtime: the lesson reports "incomplete", then, once
//   the flock has run and the prompts are answered, "completed", the answers as interactions
//   and a suspend state; a second visit from that state restores the same flock (2004: the
//   exact moment, bit for bit; 1.2, whose 4,096 characters a moment does not fit: the
//   settings and the seed) and the answers;
// - the downloads' words in uk/pl/ru, keyboard only, and on a 390x844 phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot, saveArtifact, serve, useDistAndBrowser, watchProblems } from './helpers.mjs';
import { STRICT_CSP, waitFlocks } from './embed-helpers.mjs';
import { NOTICE, PREDICT, buildLesson, download, openStudio } from './studio-lesson.mjs';

// scorm-again's package exports only its modules: its browser build (window.Scorm12API, window.Scorm2004API) by path.
const SCORM_AGAIN = path.join(repoRoot, 'node_modules', 'scorm-again', 'dist', 'scorm-again.js');
const env = useDistAndBrowser({ csp: STRICT_CSP });
const work = mkdtempSync(path.join(tmpdir(), 'boids-lesson-files-'));


/** What a <boids-flock> holds: its values, seed, the sliders shown and locked, prompts, answer boxes. */
function lessonState(frame) {
  return frame.evaluate(() => {
    const el = document.querySelector('boids-flock');
    const values = {};
    for (const spec of el.constructor.params) values[spec.name] = Number(el.flock[spec.getter]());
    return {
      values,
      count: el.flock.count(),
      seed: new URL(el.shareUrl()).searchParams.get('seed'),
      sliders: [...el.querySelectorAll('input[data-param]')].map((input) => [input.dataset.param, input.disabled]),
      prompts: [...el.querySelectorAll('.bf-prompt dd')].map((dd) => dd.textContent),
      answers: [...el.querySelectorAll('textarea.bf-answer')].map((box) => box.id.replace(/.*-answer-/, '')),
    };
  });
}

function unzip(file, into) {
  execFileSync('python3', [
    '-c',
    'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nbad = z.testzip()\nassert bad is None, "bad CRC in " + bad\nz.extractall(sys.argv[2])\nprint("\\n".join(z.namelist()))',
    file,
    into,
  ]);
  return readdirSync(into).sort();
}

test('the single file, opened from file:// with no network, runs the lesson of the preview and asks for nothing', { timeout: 240_000 }, async () => {
  const { context, page, problems } = await openStudio(env);
  await buildLesson(page);
  const { target, name, status } = await download(page, 'html', work);
  assert.equal(name, 'one-hawk.html');
  const size = statSync(target).size;
  assert.match(status, new RegExp(`one-hawk\\.html \\(${(size / 1024).toFixed(1)} KB\\)`), `the status says the name and size: ${status}`);
  assert.ok(size > 500_000 && size < 1_500_000, `the file weighs ${size} bytes`);
  const html = readFileSync(target, 'utf8');
  // Nothing to fetch: no src=, no href= (the lesson's own attributes are all there is).
  assert.doesNotMatch(html, /\s(src|href)=/, 'the file names no other file');
  // Restart the preview from the lesson's start, paused, to compare starts.
  const preview = await lessonState(page);
  await context.close();

  // A context with no network at all: every request other than the file itself fails the test.
  const offline = await env.browser.newContext({ offline: true, viewport: { width: 1280, height: 900 } });
  const lesson = await offline.newPage();
  const watched = watchProblems(lesson);
  const requests = [];
  lesson.on('request', (request) => requests.push(request.url()));
  await lesson.goto(pathToFileURL(target).href);
  await waitFlocks(lesson, 'boids-flock');
  const steps = await lesson.evaluate(() => document.querySelector('boids-flock').steps);
  await lesson.waitForFunction((s) => document.querySelector('boids-flock').steps > s + 30, steps, { timeout: 30_000 });
  const opened = await lessonState(lesson);
  assert.deepEqual(opened.values, preview.values, 'every parameter as in the preview');
  assert.equal(opened.count, 300);
  assert.equal(opened.seed, '77');
  assert.deepEqual(opened.sliders, preview.sliders, 'the same sliders, cohesion locked');
  assert.deepEqual(opened.sliders, [['cohesion', true]]);
  assert.deepEqual(opened.prompts, [PREDICT, NOTICE]);
  assert.deepEqual(opened.answers, ['predict', 'notice'], 'an answer box under each prompt');
  const fileUrl = pathToFileURL(target).href;
  assert.deepEqual(
    requests.filter((url) => url !== fileUrl && !url.startsWith('data:') && !url.startsWith('blob:')),
    [],
    'no request leaves the page',
  );
  assert.deepEqual(watched.problems, [], 'no errors');
  saveArtifact('lesson-file.png', await lesson.screenshot());
  await offline.close();
  assert.deepEqual(problems, []);
});

/** The test LMS page: scorm-again's API for `version`, the package in an iframe. `cmi`: a previous visit's data. */
function lmsPage(version) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>LMS</title>
<script src="/lms/scorm-again.js"></script>
<script>
  const cmi = JSON.parse(new URLSearchParams(location.search).get('cmi') || 'null');
  const settings = { autocommit: false, logLevel: 4 };
  window.${version === '1.2' ? 'API' : 'API_1484_11'} = new ${version === '1.2' ? 'Scorm12API' : 'Scorm2004API'}(settings);
  if (cmi) window.${version === '1.2' ? 'API' : 'API_1484_11'}.loadFromJSON(cmi, '');
  window.lms = window.${version === '1.2' ? 'API' : 'API_1484_11'};
</script></head>
<body><iframe id="sco" title="The lesson" src="/sco/index.html" width="1100" height="800"></iframe></body></html>`;
}

async function runPackage(version, { cmi = null } = {}) {
  const zip = path.join(work, `one-hawk-scorm${version.replace('.', '')}.zip`);
  const folder = mkdtempSync(path.join(work, 'sco-'));
  const names = unzip(zip, folder);
  assert.deepEqual(names, ['imsmanifest.xml', 'index.html']);
  const pages = {
    '/lms/scorm-again.js': readFileSync(SCORM_AGAIN),
    '/lms/index.html': lmsPage(version),
    '/sco/index.html': readFileSync(path.join(folder, 'index.html')),
  };
  // An LMS of its own: no CSP (the package's page runs its bundle inline, as a platform serves it).
  const server = await serve({ root: null, pages, isolated: false });
  const context = await env.browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  const watched = watchProblems(page);
  const logs = [];
  page.on('console', (message) => logs.push(`${message.type()}: ${message.text()}`));
  await page.goto(`${server.url}lms/index.html${cmi ? `?cmi=${encodeURIComponent(JSON.stringify(cmi))}` : ''}`);
  const frame = page.frameLocator('#sco');
  const sco = page.frames().find((f) => f.url().endsWith('/sco/index.html')) ?? (await (await page.$('#sco')).contentFrame());
  await waitFlocks(sco, 'boids-flock');
  return { server, context, page, frame, sco, folder, watched, logs };
}

const readCmi = (page) => page.evaluate(() => JSON.parse(JSON.stringify(window.lms.cmi)));

test('SCORM packages under scorm-again: completion, the answers, a suspend state that brings the flock back', { timeout: 400_000 }, async () => {
  const { context: studio, page } = await openStudio(env);
  await buildLesson(page);
  for (const kind of ['scorm12', 'scorm2004']) {
    const { name, target } = await download(page, kind, work);
    assert.equal(name, `one-hawk-${kind}.zip`);
    assert.ok(statSync(target).size < 450_000, `${name} weighs ${statSync(target).size} bytes`);
  }
  await studio.close();

  for (const version of ['1.2', '2004']) {
    const statusKey = version === '1.2' ? ['core', 'lesson_status'] : ['completion_status'];
    const status = (cmi) => statusKey.reduce((at, key) => at[key], cmi);
    const manifest = (run) => readFileSync(path.join(run.folder, 'imsmanifest.xml'), 'utf8');

    const first = await runPackage(version);
    assert.match(manifest(first), version === '1.2' ? /<schemaversion>1\.2<\/schemaversion>/ : /<schemaversion>2004 4th Edition<\/schemaversion>/);
    assert.match(manifest(first), /href="index.html"/);
    await first.page.waitForFunction((key) => key.reduce((at, k) => at?.[k], window.lms.cmi) === 'incomplete', statusKey, { timeout: 10_000 });
    // Answer both prompts (typed, then left: the change event), and let the flock run 5 s.
    await first.frame.locator('#preview-answer-predict, textarea.bf-answer').first().fill('It splits in two');
    await first.frame.locator('textarea.bf-answer').nth(1).fill('They swirl around it');
    await first.frame.locator('textarea.bf-answer').nth(1).blur();
    await first.frame.locator('textarea.bf-answer').first().dispatchEvent('change');
    await first.frame.locator('textarea.bf-answer').nth(1).dispatchEvent('change');
    await first.page.waitForFunction(
      (key) => key.reduce((at, k) => at[k], window.lms.cmi) === 'completed',
      statusKey,
      { timeout: 30_000 },
    );
    if (version === '2004') saveArtifact('lesson-scorm.png', await first.page.screenshot()); // docs/img/lesson-scorm.png
    // Pause, then change an answer: the state is written with the paused moment.
    await first.sco.evaluate(() => {
      document.querySelector('boids-flock').paused = true;
    });
    const positions = await first.sco.evaluate(() => Array.from(document.querySelector('boids-flock').flock.positions()));
    const steps = await first.sco.evaluate(() => document.querySelector('boids-flock').steps);
    await first.frame.locator('textarea.bf-answer').first().fill('It splits in two, then joins');
    await first.frame.locator('textarea.bf-answer').first().dispatchEvent('change');
    await first.page
      .waitForFunction(() => JSON.parse(window.lms.cmi.suspend_data || '{}').answers?.predict === 'It splits in two, then joins', null, { timeout: 15_000 })
      .catch(async (error) => {
        throw new Error(`${version}: no suspend state with the new answer: ${String((await readCmi(first.page)).suspend_data).slice(0, 300)} (${error.message}); console: ${first.logs.join(' | ').slice(0, 2000)}`);
      });
    const cmi = await readCmi(first.page);
    const interactions = Object.values(cmi.interactions.childArray ?? cmi.interactions).filter((i) => i && i.id);
    const response = version === '1.2' ? 'student_response' : 'learner_response';
    const byId = Object.fromEntries(interactions.map((i) => [i.id, i]));
    assert.equal(byId.predict?.[response], 'It splits in two, then joins', `${version}: the Predict answer is an interaction`);
    assert.equal(byId.predict?.type, version === '1.2' ? 'fill-in' : 'long-fill-in');
    assert.equal(byId.notice?.[response], 'They swirl around it');
    const suspend = JSON.parse(cmi.suspend_data);
    assert.ok(cmi.suspend_data.length <= (version === '1.2' ? 4096 : 64000), `${version}: the state fits (${cmi.suspend_data.length})`);
    assert.equal(suspend.ran, true);
    if (version === '1.2') {
      assert.equal(suspend.state, undefined, '1.2: a 300-bird moment does not fit 4,096 characters');
      assert.equal(suspend.settings.seed, '77', '1.2: the seed and settings instead');
    } else {
      assert.ok(suspend.state?.length > 1000, '2004: the exact moment');
      assert.equal(suspend.paused, true);
    }
    assert.deepEqual(first.watched.problems, [], `${version}: no errors`);
    await first.context.close();
    await first.server.close();

    // The student comes back: the platform hands the lesson what it stored.
    const again = await runPackage(version, { cmi });
    const back = await again.sco.evaluate(() => {
      const el = document.querySelector('boids-flock');
      return { positions: Array.from(el.flock.positions()), answers: [...el.querySelectorAll('textarea.bf-answer')].map((box) => box.value), seed: new URL(el.shareUrl()).searchParams.get('seed'), count: el.flock.count() };
    });
    assert.deepEqual(back.answers, ['It splits in two, then joins', 'They swirl around it'], `${version}: the answers come back`);
    assert.equal(back.count, 300);
    assert.equal(back.seed, '77');
    if (version === '2004') {
      assert.equal(back.positions.length, positions.length);
      assert.ok(back.positions.every((v, i) => Object.is(v, positions[i])), '2004: the very moment it was left at, bit for bit');
      assert.ok(steps > 0);
    }
    assert.equal(status(await readCmi(again.page)), 'completed', `${version}: still completed`);
    assert.deepEqual(again.watched.problems, [], `${version}: no errors on return`);
    await again.context.close();
    await again.server.close();
  }
});

test('the downloads with the keyboard, on a phone, and in uk/pl/ru', { timeout: 240_000 }, async () => {
  const { context, page, problems } = await openStudio(env, { width: 390, height: 844 });
  for (const kind of ['html', 'scorm12', 'scorm2004', 'h5p']) {
    const box = await page.locator(`#studio-download-${kind}`).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${kind}: the button fits the phone (${JSON.stringify(box)})`);
  }
  saveArtifact('lesson-files-phone.png', await page.locator('.studio-downloads').screenshot());
  // Keyboard only: focus the first button, Enter downloads.
  await page.locator('#studio-download-html').focus();
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.keyboard.press('Enter')]);
  assert.match(file.suggestedFilename(), /\.html$/);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'studio-download-scorm12', 'Tab goes on to the next download');
  await context.close();
  assert.deepEqual(problems, []);

  const words = { uk: 'Завантажити урок', pl: 'Pobierz lekcję', ru: 'Скачать урок' };
  for (const [lang, heading] of Object.entries(words)) {
    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: lang });
    const p = await ctx.newPage();
    await p.goto(`${env.server.url}studio.html?lang=${lang}`);
    await p.waitForFunction(() => document.documentElement.dataset.studio === 'ready', null, { timeout: 60_000 });
    assert.equal(await p.locator('#studio-downloads-heading').textContent(), heading, `${lang}: the heading`);
    const hint = await p.locator('#studio-download-html-hint').textContent();
    assert.ok(hint.length > 20 && !/network/.test(hint), `${lang}: the hint is translated: ${hint}`);
    await ctx.close();
  }
});

test('zipFiles refuses names that would unpack outside their folder, and writes what Python reads', { timeout: 60_000 }, async () => {
  const page = await env.browser.newPage();
  await page.goto(`${env.server.url}studio.html`);
  const out = await page.evaluate(async () => {
    const { zipFiles } = await import('./www/package/zip.js');
    const refused = [];
    for (const files of [[{ name: '../x', data: '' }], [{ name: '/etc/x', data: '' }], [{ name: 'a', data: '' }, { name: 'a', data: '' }], [{ name: 'a', data: 5 }], 'nope']) {
      try {
        await zipFiles(files);
        refused.push('accepted');
      } catch (error) {
        refused.push(`${error.name}: ${error.message}`);
      }
    }
    const big = 'flock '.repeat(5000);
    const bytes = await zipFiles([{ name: 'a/ünïcode.txt', data: big }, { name: 'b.bin', data: new Uint8Array([0, 1, 2, 255]) }]);
    return { refused, bytes: Array.from(bytes) };
  });
  assert.match(out.refused[0], /^RangeError: zipFiles: "\.\.\/x" is not a relative path/);
  assert.match(out.refused[1], /^RangeError/);
  assert.match(out.refused[2], /^RangeError: zipFiles: "a" comes twice/);
  assert.match(out.refused[3], /^TypeError: zipFiles: the data of "a" must be/);
  assert.match(out.refused[4], /^TypeError/);
  const zip = path.join(work, 'check.zip');
  writeFileSync(zip, Buffer.from(out.bytes));
  assert.ok(out.bytes.length < 2000, `30 KB of text deflated to ${out.bytes.length} bytes`);
  const folder = mkdtempSync(path.join(work, 'zip-'));
  unzip(zip, folder);
  assert.equal(readFileSync(path.join(folder, 'a', 'ünïcode.txt'), 'utf8'), 'flock '.repeat(5000));
  assert.deepEqual([...readFileSync(path.join(folder, 'b.bin'))], [0, 1, 2, 255]);
  await page.close();
});

test('the lesson bundle is built, one module with the wasm inside, and the page never loads it', () => {
  const bundle = path.join(repoRoot, 'dist', 'www', 'package', 'boids-lesson.js');
  const text = readFileSync(bundle, 'utf8');
  assert.ok(text.length > 500_000, 'the wasm is inside');
  assert.doesNotMatch(text, /<\/script/i);
});
