// Record and Picture (issue 45): a WebM clip and a PNG of the stage, on the full page and in a
// compact <boids-flock>, from the buttons and from the element's `record()` and `picture()`.
// - a 2 s clip is WebM with a video track of the stage's size, 2 s long (Chromium reports a
//   MediaRecorder clip's duration as Infinity until it is sought to the end), read back in a
//   page of its own (index.html's CSP refuses `blob:` media); the button's clip lasts what it said;
// - the picture is a PNG of the stage's size with the flock on it (not the sky alone);
// - the keyboard alone records (Tab to Record, Enter starts, Enter stops) and the button shows
//   the time and size meanwhile ("■ 0:07 · 1.2 MB", named "Stop (0:07 · 1.2 MB)"); the live
//   region tells the start and the end; the file downloads;
// - bad arguments are refused (TypeError, RangeError) and the recorder loads only when used;
// - the page's are glyphs at the end of the timeline bar under the stage (no row of the panel:
//   panel.test's first screen); on a 390x844 phone they fit and stay in view with the sticky
//   stage (recording too); uk, pl, ru words; record="0" hides them;
// - a flock taken off the page ends its clip at once (kept) and its stream's tracks stop.
import { after, before, test } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { decodePng, foreground, saveArtifact, serve, useDistAndBrowser, waitRunning, watchProblems } from './helpers.mjs';
import { TEST_CSS, testPage, waitFlocks } from './embed-helpers.mjs';
import uk from '../../www/i18n/uk.js';
import pl from '../../www/i18n/pl.js';
import ru from '../../www/i18n/ru.js';

const env = useDistAndBrowser({
  pages: {
    '/test/test.css': TEST_CSS,
    // Every flock on screen at 1280x800 (one draws only while seen), the first as wide as a phone.
    '/test/keep.css': `${TEST_CSS}\n.grid { display: flex; flex-wrap: wrap; gap: 8px; } .grid boids-flock { width: 300px; } .grid #a { width: 100%; max-width: 600px; }`,
    '/test/keep.html': testPage(
      `<div class="grid">
<boids-flock id="a" count="300" lang="en"></boids-flock>
<boids-flock id="uk" count="100" lang="uk" paused></boids-flock>
<boids-flock id="pl" count="100" lang="pl" paused></boids-flock>
<boids-flock id="ru" count="100" lang="ru" paused></boids-flock>
<boids-flock id="none" count="100" record="0" paused></boids-flock>
</div>`,
      { css: '/test/keep.css' },
    ),
  },
});

async function open(path, options = { viewport: { width: 1280, height: 800 } }) {
  const context = await env.browser.newContext(options);
  const page = await context.newPage();
  const watch = watchProblems(page);
  await page.goto(env.server.url + path);
  return { context, page, ...watch };
}

/** In the page: records `seconds` through `el.record()`; the clip's bytes as base64, and its type. */
function recordClip([selector, seconds]) {
  return (async () => {
    const el = document.querySelector(selector);
    const began = performance.now();
    const blob = await el.record({ seconds });
    const took = (performance.now() - began) / 1000;
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { type: blob.type, size: blob.size, base64: btoa(text), took, canvas: [el.canvas.width, el.canvas.height] };
  })();
}

/** In the clip's page: the WebM (base64) in a <video> from a blob: URL; its length and video track. */
function measureInPage([base64, type]) {
  return (async () => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const video = document.createElement('video');
    video.muted = true;
    const loaded = new Promise((resolve, reject) => {
      video.addEventListener('loadedmetadata', resolve, { once: true });
      video.addEventListener('error', () => reject(new Error(`the clip does not play: ${video.error?.message}`)), { once: true });
    });
    video.src = URL.createObjectURL(new Blob([bytes], { type }));
    document.body.append(video);
    await loaded;
    if (!Number.isFinite(video.duration)) {
      // A MediaRecorder clip has no duration in its header (Chromium says Infinity): seeking
      // far past the end makes it read the clip through and find it.
      const found = new Promise((resolve) => video.addEventListener('durationchange', () => Number.isFinite(video.duration) && resolve(), { once: false }));
      video.currentTime = 1e9;
      await Promise.race([found, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    }
    const tracks = typeof video.captureStream === 'function' ? video.captureStream().getVideoTracks().length : null;
    return { duration: video.duration, width: video.videoWidth, height: video.videoHeight, tracks };
  })();
}

/**
 * A clip's length and video track, read back in a page of its own: the test pages' CSP
 * (index.html's) refuses `blob:` media, so the bytes go to a page served without one.
 */
async function measureClip(bytes, type = 'video/webm') {
  const page = await env.browser.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(String(error)));
  await page.goto(clipEnv.server.url + 'clip.html');
  const measured = await page.evaluate(measureInPage, [Buffer.from(bytes).toString('base64'), type]);
  await page.close();
  assert.deepEqual(problems, [], 'the clip page has no errors');
  return measured;
}

/** The clip's page's server: that page alone, with no CSP. */
const clipEnv = {};
before(async () => {
  clipEnv.server = await serve({ root: null, pages: { '/clip.html': '<!doctype html><meta charset="utf-8"><title>clip</title><body></body>' }, isolated: false });
});
after(() => clipEnv.server?.close());

/** In the page: `el.picture()` as base64 PNG, with its type and the canvas's size. */
function pictureOf(selector) {
  return (async () => {
    const el = document.querySelector(selector);
    const blob = await el.picture();
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { type: blob.type, base64: btoa(text), canvas: [el.canvas.width, el.canvas.height] };
  })();
}

test('the page: record() gives a 2 s WebM of the stage, picture() a PNG of it with the flock on it; bad arguments are refused', { timeout: 120_000 }, async () => {
  const { context, page, problems, pageErrors } = await open('?count=800&seed=7');
  await waitRunning(page);
  const requested = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  assert.ok(!requested.includes('/www/instruments/recorder.js'), 'the recorder is not loaded with the page');
  // Glyphs under the stage (the timeline bar's end), named in words.
  assert.equal(await page.locator('#record').textContent(), '●');
  assert.equal(await page.locator('#record').getAttribute('aria-label'), 'Record');
  assert.equal(await page.locator('#picture').getAttribute('aria-label'), 'Picture');
  assert.equal(await page.locator('.bf-timeline #record').count(), 1, 'Record is in the timeline bar');

  const clip = await page.evaluate(recordClip, ['boids-flock', 2]);
  const played = await measureClip(Buffer.from(clip.base64, 'base64'), clip.type);
  console.log(`# a 2 s clip: ${clip.type}, ${clip.size} bytes, ${played.width}x${played.height}, ${played.duration.toFixed(2)} s long (recorded in ${clip.took.toFixed(2)} s)`);
  assert.ok(requested.includes('/www/instruments/recorder.js'), 'the recorder loads when first used');
  assert.match(clip.type, /^video\/webm/, 'WebM');
  assert.ok(clip.size > 0, 'not empty');
  assert.ok(played.width > 0 && played.tracks !== 0, `it has a video track (${played.width}x${played.height}, ${played.tracks} tracks)`);
  assert.ok(Math.abs(played.duration - 2) <= 0.5, `its video track lasts 2 s ± 0.5 (it lasts ${played.duration} s)`);
  assert.deepEqual([played.width, played.height], clip.canvas, "the stage's canvas's size");

  const picture = await page.evaluate(pictureOf, 'boids-flock');
  assert.equal(picture.type, 'image/png');
  const buffer = Buffer.from(picture.base64, 'base64');
  saveArtifact('record-picture.png', buffer);
  const png = decodePng(buffer);
  assert.deepEqual([png.width, png.height], picture.canvas, "the stage's canvas's size");
  const drawn = foreground(png);
  assert.ok(drawn > 0.01, `the flock is on it, not the sky alone (${(100 * drawn).toFixed(2)} % stands out)`);

  // Bad arguments: refused with the reason, and nothing starts.
  const refusals = await page.evaluate(async () => {
    const el = document.querySelector('boids-flock');
    const out = [];
    for (const options of [{ seconds: 0 }, { seconds: -1 }, { seconds: NaN }, { seconds: 31 }, { seconds: Infinity }, { seconds: '2' }, null, 5]) {
      try {
        await el.record(options);
        out.push('resolved');
      } catch (error) {
        out.push(`${error.name}: ${error.message}`);
      }
    }
    return out;
  });
  assert.deepEqual(
    refusals.map((r) => r.split(':')[0]),
    ['RangeError', 'RangeError', 'RangeError', 'RangeError', 'RangeError', 'TypeError', 'TypeError', 'TypeError'],
    refusals.join('\n'),
  );
  assert.match(refusals[3], /at most 30 seconds; got 31/);
  assert.equal(await page.locator('#record').getAttribute('aria-label'), 'Record', 'no recording started');
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the keyboard alone: Tab to Record, Enter starts, the button says the time and size, Enter stops and the clip downloads', { timeout: 120_000 }, async () => {
  const { context, page, problems, pageErrors } = await open('?count=800&seed=3');
  await waitRunning(page);
  // The control before Record (the timeline bar's "Link to this moment"), then Tab: the keyboard's way to it.
  const before = await page.evaluate(() => {
    const all = [...document.querySelectorAll('button, [href], input, select, summary, [tabindex]:not([tabindex="-1"])')].filter(
      (el) => !el.disabled && el.getClientRects().length > 0,
    );
    const index = all.indexOf(document.getElementById('record'));
    all[index - 1].id ||= 'before-record';
    return all[index - 1].id;
  });
  await page.focus(`#${before}`);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'record', 'Tab reaches Record');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /^Stop \(0:0[1-9] · /.test(document.getElementById('record').getAttribute('aria-label')), null, { timeout: 15_000 });
  await page.waitForFunction(() => /MB|kB/.test(document.getElementById('record').textContent), null, { timeout: 15_000 });
  const recording = await page.locator('#record').textContent();
  assert.match(recording, /^■ 0:\d\d · [\d.]+ (kB|MB)$/, `time and size so far, seen: ${recording}`);
  const named = await page.locator('#record').getAttribute('aria-label');
  assert.match(named, /^Stop \(0:\d\d · [\d.]+ (kB|MB)\)$/, `and named: ${named}`);
  assert.match(await page.locator('.bf-keep-said').textContent(), /^Recording the stage, at most 30 s\.$/, 'the start is told');
  assert.equal(await page.locator('.bf-keep-said').getAttribute('aria-live'), 'polite');
  saveArtifact('record-page-recording-1280.png', await page.screenshot());
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  assert.match(download.suggestedFilename(), /^boids-\d{4}-\d\d-\d\d-\d{6}\.webm$/);
  assert.equal(await page.locator('#record').textContent(), '●', 'Record again');
  assert.equal(await page.locator('#record').getAttribute('aria-label'), 'Record');
  assert.match(await page.locator('.bf-keep-said').textContent(), /^Recording stopped: 0:0\d, [\d.]+ (kB|MB), saved as boids-.*\.webm\.$/);
  // The clip downloaded lasts what the button and the live region said (its clock floors to the second).
  const [, minutes, seconds] = /^Recording stopped: (\d+):(\d\d), /.exec(await page.locator('.bf-keep-said').textContent());
  const said = 60 * Number(minutes) + Number(seconds);
  const played = await measureClip(readFileSync(await download.path()));
  console.log(`# the button's clip: said ${said} s, ${played.width}x${played.height}, ${played.duration.toFixed(2)} s long`);
  assert.ok(played.width > 0 && played.tracks !== 0, 'the downloaded clip has a video track');
  assert.ok(played.duration >= said - 0.5 && played.duration < said + 1.5, `it lasts the ${said} s said, to the second (${played.duration} s)`);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'record', 'the focus stays on the button');

  const [picture] = await Promise.all([page.waitForEvent('download'), page.locator('#picture').click()]);
  assert.match(picture.suggestedFilename(), /^boids-\d{4}-\d\d-\d\d-\d{6}\.png$/);
  await page.waitForFunction(() => /^Picture saved as boids-/.test(document.querySelector('.bf-keep-said').textContent));
  saveArtifact('record-page-1280.png', await page.screenshot());
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('on a 390x844 phone the buttons fit, on the page and in a compact embed, recording too', { timeout: 120_000 }, async () => {
  const phone = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 };
  const inside = async (page, selector, holder) => {
    const [box, outer] = await Promise.all([page.locator(selector).boundingBox(), page.locator(holder).boundingBox()]);
    assert.ok(box && box.width > 20 && box.height > 20, `${selector} shows: ${JSON.stringify(box)}`);
    assert.ok(box.x >= outer.x - 1 && box.x + box.width <= outer.x + outer.width + 1, `${selector} fits in ${holder}: ${JSON.stringify(box)} in ${JSON.stringify(outer)}`);
  };
  const { context, page, problems, pageErrors } = await open('?count=300', phone);
  await waitRunning(page);
  // Under the stage, which stays at the top of a phone's screen: in view however far the panel scrolls.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  for (const selector of ['#record', '#picture']) await inside(page, selector, '.bf-stage-wrap');
  const done = page.evaluate(() => document.querySelector('boids-flock').record({ seconds: 3 }).then((blob) => blob.size));
  await page.waitForFunction(() => /^■ 0:0[1-9] · \d/.test(document.getElementById('record').textContent), null, { timeout: 15_000 });
  await inside(page, '#record', '.bf-stage-wrap');
  const seen = await page.evaluate(() => {
    const box = document.getElementById('record').getBoundingClientRect();
    return box.top >= 0 && box.bottom <= innerHeight;
  });
  assert.ok(seen, 'Record, recording, is on the screen with the panel scrolled to its end');
  saveArtifact('record-page-recording-390.png', await page.screenshot());
  assert.ok((await done) > 0);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'nothing scrolls sideways');
  await context.close();

  const embed = await open('test/keep.html', phone);
  await waitFlocks(embed.page, '#a');
  const a = embed.page.locator('#a');
  assert.equal(await a.locator('.bf-record').getAttribute('aria-label'), 'Record', 'a dot named in words');
  assert.equal(await a.locator('.bf-picture').getAttribute('aria-label'), 'Picture');
  for (const selector of ['#a .bf-record', '#a .bf-picture', '#a .bf-keys']) await inside(embed.page, selector, '#a .bf-stage');
  const clip = embed.page.evaluate(() => document.getElementById('a').record({ seconds: 3 }).then((blob) => blob.size));
  await embed.page.waitForFunction(() => /^■ 0:0[1-9] · \d/.test(document.querySelector('#a .bf-record').textContent), null, { timeout: 15_000 });
  assert.match(await a.locator('.bf-record').getAttribute('aria-label'), /^Stop \(0:0\d · /, 'named in words while recording');
  for (const selector of ['#a .bf-record', '#a .bf-picture', '#a .bf-pause']) await inside(embed.page, selector, '#a .bf-stage');
  saveArtifact('record-compact-recording-390.png', await a.screenshot());
  assert.ok((await clip) > 0);
  assert.equal(await a.locator('.bf-record').textContent(), '●');
  saveArtifact('record-compact-390.png', await a.screenshot());
  assert.deepEqual(embed.pageErrors, []);
  assert.deepEqual(pageErrors, []);
  assert.deepEqual([...problems, ...embed.problems], []);
  await embed.context.close();
});

test('in uk, pl and ru; record="0" hides the buttons, and taking it away shows them', { timeout: 120_000 }, async () => {
  const { context, page, problems, pageErrors } = await open('test/keep.html');
  await waitFlocks(page, 'boids-flock', { min: 5 });
  for (const [lang, table] of [['uk', uk], ['pl', pl], ['ru', ru]]) {
    const el = page.locator(`#${lang}`);
    assert.equal(await el.locator('.bf-record').getAttribute('aria-label'), table.ui.record, `${lang}: Record`);
    assert.equal(await el.locator('.bf-picture').getAttribute('aria-label'), table.ui.picture, `${lang}: Picture`);
    assert.equal(await el.locator('.bf-picture').getAttribute('title'), table.ui.pictureTitle);
  }
  const words = await page.evaluate(async () => {
    const el = document.getElementById('pl');
    const done = el.record({ seconds: 1 });
    while (!el.querySelector('.bf-record').classList.contains('bf-recording')) await new Promise((resolve) => setTimeout(resolve, 50));
    const during = el.querySelector('.bf-record').getAttribute('aria-label');
    await done;
    return { during, said: el.querySelector('.bf-keep-said').textContent };
  });
  assert.match(words.during, /^Zatrzymaj \(0:00 · [\d,]+ kB\)$/, `Polish while recording: ${words.during}`);
  assert.equal(words.said, pl.ui.recordStarted.replace('{max}', '30'), 'the start told in Polish (the API saves nothing, so no end)');
  assert.equal(await page.locator('#none .bf-record, #none .bf-picture').count(), 0, 'record="0": none');
  await page.evaluate(() => document.getElementById('none').removeAttribute('record'));
  assert.equal(await page.locator('#none .bf-record').count(), 1, 'shown again');
  await page.evaluate(() => document.getElementById('none').setAttribute('record', 'off'));
  assert.equal(await page.locator('#none .bf-record').count(), 0, 'record="off" hides them too');
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a flock taken off the page stops its recording there (kept, not run to 30 s) and lets the stream go', { timeout: 120_000 }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  // The streams the recorder takes, to see their tracks end (the test's page only).
  await context.addInitScript(() => {
    const capture = HTMLCanvasElement.prototype.captureStream;
    window.testStreams = [];
    HTMLCanvasElement.prototype.captureStream = function (...args) {
      const stream = capture.apply(this, args);
      window.testStreams.push(stream);
      return stream;
    };
  });
  const page = await context.newPage();
  const { problems, pageErrors } = watchProblems(page);
  await page.goto(env.server.url + 'test/keep.html');
  await waitFlocks(page, '#a');
  const result = await page.evaluate(async () => {
    const el = document.getElementById('a');
    const done = el.record({ seconds: 30 });
    while (!el.querySelector('.bf-record').classList.contains('bf-recording')) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const removed = performance.now();
    el.remove();
    const blob = await Promise.race([done, new Promise((resolve) => setTimeout(() => resolve(null), 10_000))]);
    return {
      after: (performance.now() - removed) / 1000,
      size: blob?.size ?? null,
      streams: window.testStreams.length,
      live: window.testStreams.flatMap((stream) => stream.getTracks()).filter((track) => track.readyState !== 'ended').length,
    };
  });
  assert.notEqual(result.size, null, 'the recording ended within 10 s of the removal, not at its 30 s');
  assert.ok(result.after < 3, `it ended at once (${result.after.toFixed(2)} s after)`);
  assert.ok(result.size > 0, 'what was recorded is kept');
  assert.equal(result.streams, 1, 'one stream taken');
  assert.equal(result.live, 0, "the stream's tracks are stopped");
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('without MediaRecorder: Record is disabled with the reason in its title, and record() rejects; Picture still works', { timeout: 120_000 }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    delete window.MediaRecorder;
  });
  const page = await context.newPage();
  const { problems, pageErrors } = watchProblems(page);
  await page.goto(`${env.server.url}?count=300`);
  await waitRunning(page);
  assert.equal(await page.locator('#record').isDisabled(), true);
  assert.match(await page.locator('#record').getAttribute('title'), /cannot record video/);
  const refused = await page.evaluate(() => document.querySelector('boids-flock').record({ seconds: 1 }).then(() => 'resolved', (error) => error.name));
  assert.equal(refused, 'NotSupportedError');
  const [picture] = await Promise.all([page.waitForEvent('download'), page.locator('#picture').click()]);
  assert.match(picture.suggestedFilename(), /\.png$/);
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(problems, []);
  await context.close();
});
