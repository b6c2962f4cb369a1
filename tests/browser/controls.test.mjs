// Sliders call the exported setters; Rebuild, Pause and Step do what they say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  GL_COUNTER_SCRIPT,
  positions,
  recordFrames,
  sameArrays,
  waitFrames,
  waitRunning,
  watchProblems,
  useDistAndBrowser,
  slide,
} from './helpers.mjs';

const LINEAR = ['speed', 'separation', 'alignment', 'cohesion', 'perception'];

const env = useDistAndBrowser();

async function open(query = '') {
  const page = await env.browser.newPage();
  const watch = watchProblems(page);
  await page.addInitScript(GL_COUNTER_SCRIPT);
  await page.goto(env.server.url + query);
  await waitRunning(page);
  return { page, ...watch };
}


function firstNumber(text) {
  const match = /-?\d[\d,]*(\.\d+)?/.exec(text ?? '');
  return match ? Number(match[0].replace(/,/g, '')) : NaN;
}

test('every slider exists, is wired to its setter and shows its value', { timeout: 120_000 }, async () => {
  const { page, pageErrors } = await open();

  for (const name of LINEAR) {
    const slider = await page.evaluate((name) => {
      const el = document.getElementById(`param-${name}`);
      if (!el) return null;
      const out = document.getElementById(`value-${name}`);
      return {
        type: el.type,
        param: el.dataset.param,
        inForm: Boolean(el.closest('form#controls')),
        output: Boolean(out),
        min: Number(el.min),
        max: Number(el.max),
        step: Number(el.step),
        value: Number(el.value),
        current: window.flock[name](),
      };
    }, name);
    assert.ok(slider, `#param-${name} exists`);
    assert.equal(slider.type, 'range', `#param-${name} is a range input`);
    assert.equal(slider.param, name, `#param-${name} has data-param="${name}"`);
    assert.ok(slider.inForm, `#param-${name} is inside form#controls`);
    assert.ok(slider.output, `#value-${name} exists`);
    const step = slider.step > 0 ? slider.step : (slider.max - slider.min) / 100;
    assert.ok(
      Math.abs(slider.value - slider.current) <= step / 2 + 1e-6,
      `${name}: slider starts at the flock's value (${slider.value} vs ${slider.current})`,
    );

    // Move to a clearly different value on the step grid.
    const fraction = slider.current - slider.min < (slider.max - slider.min) / 2 ? 0.8 : 0.2;
    const target = slider.min + Math.round((fraction * (slider.max - slider.min)) / step) * step;
    const settled = Number(await slide(page, name, target));
    const now = await page.evaluate((name) => window.flock[name](), name);
    assert.ok(Math.abs(now - slider.current) > step / 2, `${name}: the flock's value changed (was ${slider.current}, is ${now})`);
    assert.ok(
      Math.abs(now - settled) <= step / 2 + 1e-6,
      `${name}: flock.${name}() = ${now} should equal the slider's ${settled} within a step`,
    );
    const shown = firstNumber(await page.locator(`#value-${name}`).textContent());
    assert.ok(Math.abs(shown - now) <= step + 1e-6, `${name}: #value-${name} shows ${shown}, flock has ${now}`);
  }

  // Count: log-scaled, so the slider position is not the count; the output shows the count.
  const before = await page.evaluate(() => {
    const el = document.getElementById('param-count');
    if (!el) return null;
    return {
      type: el.type,
      param: el.dataset.param,
      output: Boolean(document.getElementById('value-count')),
      count: window.flock.count(),
      min: Number(el.min),
      max: Number(el.max),
      value: Number(el.value),
    };
  });
  assert.ok(before, '#param-count exists');
  assert.equal(before.type, 'range', '#param-count is a range input');
  assert.equal(before.param, 'count', '#param-count has data-param="count"');
  assert.ok(before.output, '#value-count exists');
  // Halfway down from the current position (a big flock would only slow software WebGL).
  const span = before.max - before.min;
  const target =
    before.value - before.min > span / 10 ? before.min + Math.round((before.value - before.min) / 2) : before.value + span / 10;
  await slide(page, 'count', target);
  const count = await page.evaluate(() => window.flock.count());
  assert.notEqual(count, before.count, 'moving the count slider changes flock.count()');
  const shownCount = Number((await page.locator('#value-count').textContent()).replace(/[^\d]/g, ''));
  assert.equal(shownCount, count, '#value-count shows flock.count()');
  await waitFrames(page, 5);
  const frames = await recordFrames(page, 10);
  assert.ok(frames.length > 0, 'frames are drawn after changing the count');
  for (const f of frames) {
    assert.deepEqual(f.instanced, [count], `the instanced draw covers the new count (${JSON.stringify(f)})`);
  }
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('Pause stops the flock, Step advances it by one step, Play resumes', { timeout: 120_000 }, async () => {
  const { page, pageErrors } = await open();
  const pause = page.locator('#pause');
  assert.match(await pause.textContent(), /pause/i, 'the button reads Pause while running');
  const a = await positions(page);
  await page.waitForTimeout(300);
  assert.ok(!sameArrays(a, await positions(page)), 'positions change while running');

  await pause.click();
  assert.match(await pause.textContent(), /play/i, 'the button reads Play while paused');
  await waitFrames(page, 2);
  const paused = await positions(page);
  await page.waitForTimeout(300);
  assert.ok(sameArrays(paused, await positions(page)), 'positions stay put while paused');

  const steps = () => page.evaluate(() => document.querySelector('boids-flock').steps);
  const stepsBefore = await steps();
  await page.locator('#step').click();
  await waitFrames(page, 2);
  const stepped = await positions(page);
  assert.ok(!sameArrays(paused, stepped), 'Step advances the flock while paused');
  assert.equal(await steps(), stepsBefore + 1, 'by exactly one step');
  await page.waitForTimeout(300);
  assert.ok(sameArrays(stepped, await positions(page)), 'after Step the flock stays paused');

  await pause.click();
  assert.match(await pause.textContent(), /pause/i, 'the button reads Pause again');
  await page.waitForTimeout(300);
  assert.ok(!sameArrays(stepped, await positions(page)), 'positions change again after Play');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('Rebuild re-scatters the flock', { timeout: 120_000 }, async () => {
  const { page, pageErrors } = await open();
  await page.waitForTimeout(500);
  const count = await page.evaluate(() => window.flock.count());
  await page.locator('#pause').click(); // paused: only Rebuild can move the boids now
  await waitFrames(page, 2);
  const before = await positions(page);
  await page.locator('#rebuild').click();
  await waitFrames(page, 2);
  const after = await positions(page);
  assert.equal(after.length, before.length, 'Rebuild keeps the count');
  assert.equal(await page.evaluate(() => window.flock.count()), count);
  assert.ok(!sameArrays(before, after), 'positions differ right after Rebuild');
  assert.ok(after.every(Number.isFinite), 'positions are finite after Rebuild');
  // A fresh scatter from the seed, not a step or two: the step count starts again, and a
  // second Rebuild lands every boid where the first did.
  assert.equal(await page.evaluate(() => document.querySelector('boids-flock').steps), 0);
  await page.locator('#rebuild').click();
  await waitFrames(page, 2);
  assert.ok(sameArrays(after, await positions(page)), 'a second Rebuild scatters the same way');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('?paused=1 starts paused', { timeout: 120_000 }, async () => {
  const { page, pageErrors } = await open('?paused=1');
  assert.match(await page.locator('#pause').textContent(), /play/i, 'the button reads Play');
  const a = await positions(page);
  await page.waitForTimeout(400);
  assert.ok(sameArrays(a, await positions(page)), 'positions stay put with ?paused=1');
  assert.deepEqual(pageErrors, []);
  await page.close();
});
