// WebGL2 call counting: one instance upload and one instanced draw per frame, and drawing
// resumes after the context is lost and restored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  GL_COUNTER_SCRIPT,
  canvasShot,
  foreground,
  recordFrames,
  waitFrames,
  waitRunning,
  watchProblems,
  useDistAndBrowser,
} from './helpers.mjs';

const env = useDistAndBrowser();

async function openCounted() {
  const page = await env.browser.newPage();
  const watch = watchProblems(page);
  await page.addInitScript(GL_COUNTER_SCRIPT);
  await page.goto(env.server.url);
  await waitRunning(page);
  await waitFrames(page, 10);
  return { page, ...watch };
}

/** Asserts every recorded frame is one upload + one instanced draw of `count` instances. */
function assertSteadyFrames(frames, count, label) {
  assert.ok(frames.length >= 5, `${label}: only ${frames.length} animation frames with page callbacks were recorded`);
  frames.forEach((f, i) => {
    const where = `${label}, frame ${i} of ${frames.length} (${JSON.stringify(f)})`;
    assert.equal(f.instanced.length, 1, `${where}: exactly one instanced draw call per frame`);
    assert.equal(f.instanced[0], count, `${where}: the instanced draw covers flock.count() boids`);
    assert.equal(f.bufferSubData, 1, `${where}: exactly one bufferSubData (the instance upload) per frame`);
    assert.equal(f.bufferData, 0, `${where}: no bufferData reallocation in steady state`);
  });
}

test('steady state: one bufferSubData and one instanced draw of count instances per frame', { timeout: 120_000 }, async () => {
  const { page, pageErrors } = await openCounted();
  const count = await page.evaluate(() => window.flock.count());
  assert.ok(count >= 50, `flock.count() = ${count}`);
  const frames = await recordFrames(page, 30);
  const outside = await page.evaluate(() => window.__glCount.outside);
  assert.ok(
    frames.length > 0,
    `no GL calls inside requestAnimationFrame callbacks (outside them: ${JSON.stringify(outside)})`,
  );
  assertSteadyFrames(frames, count, 'steady state');

  // A new count reaches the draw call, growing (the instance buffer may be reallocated once)
  // and shrinking; afterwards each frame is again one upload and one draw.
  for (const newCount of [2 * count + 1, Math.max(50, Math.round(count / 3))]) {
    await page.evaluate((n) => window.flock.setCount(n), newCount);
    assert.equal(await page.evaluate(() => window.flock.count()), newCount);
    await waitFrames(page, 5);
    assertSteadyFrames(await recordFrames(page, 15), newCount, `after setCount(${newCount})`);
  }
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('drawing resumes after WebGL context loss and restore', { timeout: 120_000 }, async () => {
  const { page, pageErrors } = await openCounted();
  const hasExtension = await page.evaluate(() => {
    const gl = document.getElementById('view').getContext('webgl2');
    window.__loseContext = gl && gl.getExtension('WEBGL_lose_context');
    return Boolean(window.__loseContext);
  });
  assert.ok(hasExtension, 'WEBGL_lose_context is available on #view');

  await page.evaluate(() => window.__loseContext.loseContext());
  await page.waitForTimeout(300);
  const lost = await page.evaluate(() => document.getElementById('view').getContext('webgl2').isContextLost());
  assert.equal(lost, true, 'the context is lost after loseContext()');

  await page.evaluate(() => window.__loseContext.restoreContext());
  await page.waitForFunction(() => !document.getElementById('view').getContext('webgl2').isContextLost(), null, {
    timeout: 10_000,
  });
  await waitFrames(page, 10);

  const count = await page.evaluate(() => window.flock.count());
  const frames = await recordFrames(page, 30);
  assert.ok(frames.length > 0, 'no GL frames recorded after the context was restored');
  assertSteadyFrames(frames, count, 'after restore');

  const fg = foreground(await canvasShot(page, 'context-restored.png'));
  assert.ok(fg > 0.01, `after restore only ${(100 * fg).toFixed(3)}% of #view stands out from the background`);
  assert.notEqual(await page.evaluate(() => document.documentElement.dataset.boids), 'error');
  assert.deepEqual(pageErrors, []);
  await page.close();
});
