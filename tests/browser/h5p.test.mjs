// The H5P package (issue 45, www/package/h5p.js, www/package/h5p/) as a teacher gets it: the
// studio's "H5P (.h5p)" button on a lesson built in its form. The file is unzipped by Python's
// zipfile (testzip checks every CRC) and rendered by h5p-standalone, a real H5P player, in
// Chromium:
// - the lesson runs inside H5P's iframe with the preview's settings and prompts, and every
//   xAPI statement it sends through H5P's dispatcher (a slider moved, the answers, the lesson
//   completed) passes xapi-validation;
// - docs/embedding.md's LRS recipe, pasted as written into the player's page, forwards them to
//   a real Learning Record Store (ralph, from PyPI, in .tools/lrs: scripts/setup.sh) started
//   on the loopback address: the LRS returns the student's answer, and the recipe's write-only
//   key cannot read it back.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot, saveArtifact, serve, useDistAndBrowser } from './helpers.mjs';
import { NOTICE, PREDICT, buildLesson, download, openStudio } from './studio-lesson.mjs';
import { recipe } from './package-helpers.mjs';

const validate = createRequire(import.meta.url)('xapi-validation').default;
const RALPH = path.join(repoRoot, '.tools', 'lrs', 'bin', 'ralph');
const env = useDistAndBrowser({ isolated: false });
const work = mkdtempSync(path.join(tmpdir(), 'boids-h5p-'));
const site = path.join(work, 'site');
const answers = { predict: 'They scatter and join again', notice: 'Away from the hawk' };
let made;
/** The studio's .h5p, unzipped into site/lesson beside the player in site/player (once). */
const makeSite = () => (made ??= makeH5p());

async function makeH5p() {
  const { context, page } = await openStudio(env);
  await buildLesson(page);
  // Separation shown too, unlocked: a slider for the student to move.
  await page.locator('#studio-show-separation').check();
  await page.waitForFunction(() => document.getElementById('studio-out-snippet').value.includes('separation'), null, { timeout: 10_000 });
  const { target, name, status } = await download(page, 'h5p', work);
  await context.close();
  assert.equal(name, 'one-hawk.h5p');
  const size = statSync(target).size;
  assert.ok(status.includes(name), `the status line names the file: ${status}`);
  console.log(`# ${name}: ${(size / 1024).toFixed(1)} KB (${status})`);
  assert.ok(size > 200_000 && size < 400_000, `the .h5p holds the bundle: ${size} bytes`);
  execFileSync('python3', ['-c', 'import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; z.extractall(sys.argv[2])', target, path.join(site, 'lesson')]);
  cpSync(path.join(repoRoot, 'node_modules', 'h5p-standalone', 'dist'), path.join(site, 'player'), { recursive: true });
}

/**
 * The page of a site that shows the lesson with h5p-standalone, for a student who is known
 * (H5P asks the host for their saved state: none yet), with `extra` pasted after the player.
 */
function playerPage(extra = '') {
  return `<!doctype html><html lang="en"><body><div id="h5p" style="width:800px"></div>
<script src="/player/main.bundle.js"></script>
<script>
  window.statements = [];
  window.played = new H5PStandalone.H5P(document.getElementById('h5p'), {
    h5pJsonPath: '/lesson', frameJs: '/player/frame.bundle.js', frameCss: '/player/styles/h5p.css',
    id: 'one-hawk', user: { name: 'A student', mail: 'student@example.org' },
    ajax: { contentUserDataUrl: '/user-data/:contentId/:dataType/:subContentId' }, saveFreq: false,
  }).then(() => H5P.externalDispatcher.on('xAPI', (event) => window.statements.push(event.data.statement)));
</script>
${extra}
</body></html>`;
}

/** Serves the player's page, opens it and answers both prompts in the lesson's frame: { top, frame, errors }. */
async function playLesson(host) {
  const top = await env.browser.newPage({ viewport: { width: 900, height: 1000 } });
  const errors = [];
  top.on('pageerror', (e) => errors.push(String(e)));
  top.on('console', (m) => m.type() === 'warning' && !/GL Driver/.test(m.text()) && errors.push(m.text()));
  await top.goto(`${host.url}index.html`);
  const frame = await (await top.waitForSelector('iframe.h5p-iframe', { timeout: 30_000 })).contentFrame();
  await frame.waitForFunction(() => document.querySelector('boids-flock')?.steps > 10, null, { timeout: 60_000 });
  // The student moves a slider, then writes both answers (leaving each box, as a student does).
  await frame.evaluate(() => {
    const input = document.querySelector('boids-flock input[data-param="separation"]');
    input.value = String(Number(input.min) + (Number(input.max) - Number(input.min)) * 0.7);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  for (const [name, text] of Object.entries(answers)) {
    await frame.locator(`.bf-prompt-${name} textarea`).fill(text);
    await frame.locator(`.bf-prompt-${name} textarea`).press('Tab');
  }
  return { top, frame, errors };
}

test('the .h5p renders in h5p-standalone with the preview\'s lesson, and its statements pass xapi-validation', { timeout: 240_000 }, async () => {
  await makeSite();
  const host = await serve({
    root: site,
    isolated: false,
    pages: { '/user-data/one-hawk/state/0': JSON.stringify({ success: true, data: false }), '/index.html': playerPage() },
  });
  try {
    const { top, frame, errors } = await playLesson(host);
    const lesson = await frame.evaluate(() => {
      const el = document.querySelector('boids-flock');
      return {
        count: el.flock.count(),
        seed: new URL(el.shareUrl()).searchParams.get('seed'),
        sliders: [...el.querySelectorAll('input[data-param]')].map((input) => [input.dataset.param, input.disabled]),
        prompts: [...el.querySelectorAll('.bf-prompt dd')].map((dd) => dd.textContent),
      };
    });
    assert.equal(lesson.count, 300);
    assert.equal(lesson.seed, '77');
    assert.deepEqual(Object.fromEntries(lesson.sliders), { separation: false, cohesion: true }, 'separation shown, cohesion shown and locked, as in the preview');
    assert.deepEqual(lesson.prompts, [PREDICT, NOTICE]);
    // Completed once the flock has run 5 s of simulated time with both prompts answered (progress.js).
    await top.waitForFunction(() => ['interacted', 'answered', 'completed'].every((v) => window.statements.some((s) => s.verb.id.endsWith(`/${v}`))), null, { timeout: 60_000 });
    saveArtifact('h5p-standalone.png', await top.screenshot());
    const statements = await top.evaluate(() => window.statements);
    console.log(`# ${statements.length} statements: ${statements.map((s) => s.verb.id.split('/').pop()).join(', ')}`);
    const answered = statements.filter((s) => s.verb.id.endsWith('/answered'));
    assert.deepEqual(answered.map((s) => s.result.response).sort(), Object.values(answers).sort());
    assert.ok(answered.every((s) => s.object.definition.interactionType === 'long-fill-in'));
    assert.ok(answered.every((s) => s.context.contextActivities.parent[0].id === answered[0].object.id.split('#')[0]), 'each answer\'s parent is the lesson');
    const interacted = statements.find((s) => s.verb.id.endsWith('/interacted'));
    assert.ok(interacted.result.extensions['urn:boids-flock:xapi:parameter'], 'the slider moved is named');
    assert.equal(statements.filter((s) => s.verb.id.endsWith('/completed')).length, 1, 'completed once');
    assert.equal(statements[0].actor.mbox, 'mailto:student@example.org', 'the actor is the player\'s user');
    for (const statement of statements) assert.deepEqual(validate(statement), [], JSON.stringify(statement));
    assert.deepEqual(errors, []);
    await top.close();
  } finally {
    await host.close();
  }
});

/** A free port on the loopback address. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

const lrs = {};
after(() => lrs.process?.kill());

test('the LRS recipe forwards the statements to a real LRS (ralph), which returns the answer', { timeout: 240_000 }, async () => {
  assert.ok(existsSync(RALPH), `${RALPH} is missing: run \`bash scripts/setup.sh\` (it installs ralph-malph into .tools/lrs)`);
  await makeSite();
  const dir = mkdtempSync(path.join(work, 'lrs-'));
  const lrsEnv = { ...process.env, RALPH_RUNSERVER_BACKEND: 'fs', RALPH_AUTH_FILE: path.join(dir, 'auth.json'), RALPH_APP_DIR: path.join(dir, 'app') };
  // Two keys, as docs/embedding.md makes them: the page's may only write; the teacher's reads.
  execFileSync(RALPH, ['auth', '-u', 'lesson', '-p', 'write-only-secret', '-s', 'statements/write', '-M', 'mailto:lesson@your-school.edu', '-w'], { env: lrsEnv, cwd: dir, stdio: 'pipe' });
  execFileSync(RALPH, ['auth', '-u', 'teacher', '-p', 'teacher-secret', '-s', 'all', '-M', 'mailto:teacher@your-school.edu', '-w'], { env: lrsEnv, cwd: dir, stdio: 'pipe' });
  const pages = { '/user-data/one-hawk/state/0': JSON.stringify({ success: true, data: false }) };
  const host = await serve({ root: site, isolated: false, pages });
  const port = await freePort();
  lrs.url = `http://127.0.0.1:${port}`;
  const serverEnv = { ...lrsEnv, RALPH_LRS_RESTRICT_BY_AUTHORITY: 'true', RALPH_LRS_RESTRICT_BY_SCOPES: 'true', RALPH_RUNSERVER_CORS_ALLOW_ORIGINS: JSON.stringify([host.url.replace(/\/$/, '')]) };
  // ralph's API as `ralph runserver -b fs` serves it, on uvicorn, but its file backend told to
  // append: in 5.1.0 that backend (meant for trying ralph out) writes a new file per POST and
  // refuses the second one ("already exists"); a school's ralph keeps statements in a database.
  const serve_ = [
    'from ralph.backends.data.base import BaseOperationType',
    'from ralph.backends.lrs.fs import FSLRSBackend',
    'FSLRSBackend.default_operation_type = BaseOperationType.APPEND',
    'import sys, uvicorn',
    "uvicorn.run('ralph.api:app', host='127.0.0.1', port=int(sys.argv[1]), log_level='info')",
  ].join('\n');
  serverEnv.RALPH_BACKENDS__LRS__FS__DEFAULT_DIRECTORY_PATH = path.join(dir, 'data');
  lrs.process = spawn(path.join(path.dirname(RALPH), 'python'), ['-c', serve_, String(port)], { env: serverEnv, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  lrs.process.stdout.on('data', (d) => (log += d));
  lrs.process.stderr.on('data', (d) => (log += d));
  const read = (query = '') => fetch(`${lrs.url}/xAPI/statements${query}`, { headers: { Authorization: `Basic ${btoa('teacher:teacher-secret')}`, 'X-Experience-API-Version': '1.0.3' } });
  for (let i = 0; ; i++) {
    const answer = await read().catch(() => null);
    if (answer?.ok) break;
    assert.ok(i < 120, `ralph did not start in 60 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  // The recipe, as the docs write it, with the made-up LRS swapped for this one.
  const forward = recipe('lrs-forward').replace('https://lrs.your-school.edu', lrs.url);
  assert.ok(forward.includes(`${lrs.url}/xAPI/statements`), 'the recipe names the LRS\'s statements endpoint');
  pages['/index.html'] = playerPage(forward);
  try {
    const { top, errors } = await playLesson(host);
    await top.waitForFunction(() => window.statements.some((s) => s.verb.id.endsWith('/completed')), null, { timeout: 60_000 });
    const sent = await top.evaluate(() => window.statements.filter((s) => s.verb.id.endsWith('/answered')).map((s) => s.result.response));
    assert.equal(sent.length, 2);
    // The LRS has them (statements/write posts are stored as they arrive).
    let stored = [];
    for (let i = 0; i < 40 && stored.length < 2; i++) {
      const body = await (await read()).json();
      stored = body.statements.filter((st) => st.verb.id === 'http://adlnet.gov/expapi/verbs/answered');
      if (stored.length < 2) await new Promise((r) => setTimeout(r, 250));
    }
    assert.deepEqual(stored.map((s) => s.result.response).sort(), Object.values(answers).sort(), `the LRS returns both answers; its log:\n${log.split("\n").filter((line) => !/GET \/xAPI/.test(line)).join("\n").slice(-3000)}`);
    assert.ok(stored.every((s) => s.actor.mbox === 'mailto:student@example.org'), 'as the student\'s');
    const all = (await (await read()).json()).statements;
    assert.ok(all.some((s) => s.verb.id.endsWith('/completed')), 'and the lesson completed');
    // The key in the page can write but not read what students wrote.
    const peek = await top.evaluate((url) => fetch(`${url}/xAPI/statements`, { headers: { Authorization: `Basic ${btoa('lesson:write-only-secret')}`, 'X-Experience-API-Version': '1.0.3' } }).then((r) => r.status), lrs.url);
    assert.ok([401, 403].includes(peek), `the page's key cannot read statements (answered ${peek})`);
    console.log(`# the LRS holds ${all.length} statements`);
    assert.deepEqual(errors, []);
    await top.close();
  } finally {
    await host.close();
  }
});
