// The built page (dist/) loads cleanly and really draws a moving flock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  canvasShot,
  difference,
  foreground,
  waitFrames,
  waitRunning,
  watchProblems,
  useDistAndBrowser,
} from './helpers.mjs';

const env = useDistAndBrowser();

test('page loads with no console errors, page errors or failed requests', { timeout: 120_000 }, async () => {
  const page = await env.browser.newPage();
  const { problems } = watchProblems(page);
  const response = await page.goto(env.server.url, { waitUntil: 'load' });
  assert.equal(response.status(), 200);
  await waitRunning(page);

  // The page contract: canvas in the stage, a control form, readouts, the JS objects.
  assert.equal(await page.locator('#stage > canvas#view').count(), 1, '<canvas id="view"> inside #stage');
  for (const id of ['controls', 'rebuild', 'pause', 'step', 'fps', 'sim-ms', 'search-stats', 'boid-count']) {
    assert.equal(await page.locator(`#${id}`).count(), 1, `#${id} exists`);
  }
  const objects = await page.evaluate(() => ({
    flock: typeof window.flock?.count === 'function' && typeof window.flock?.positions === 'function',
    view: window.view != null,
  }));
  assert.deepEqual(objects, { flock: true, view: true }, 'window.flock and window.view are exposed');
  assert.equal(await page.locator('#message').isVisible(), false, '#message stays hidden when WebGL2 works');

  // Let it run a while: errors in the frame loop show up here too.
  await page.waitForTimeout(1500);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.boids), 'running');
  const count = await page.evaluate(() => window.flock.count());
  const shown = await page.locator('#boid-count').textContent();
  assert.equal(Number(shown.replace(/[^\d]/g, '')), count, `#boid-count shows the count (${shown})`);
  // What finding neighbours cost (issue 42): searchStats() and the readout beside Sim. The
  // grid's checks are the boids of the cells around each boid, far fewer than every pair.
  const [checks, neighbours] = await page.evaluate(() => Array.from(window.flock.searchStats()));
  assert.ok(neighbours > count && checks > neighbours && checks < count * (count - 1) / 4, `searchStats(): ${checks} checks, ${neighbours} neighbours`);
  await page.waitForFunction(() => / checks · .* neighbours$/.test(document.getElementById('search-stats').textContent));
  assert.match(await page.locator('#search-stats').textContent(), /^\d[\d.]*K checks · \d[\d.]*K neighbours$/);
  assert.deepEqual(problems, [], 'no console errors, page errors, failed requests or HTTP errors');
  await page.close();
});

test('cones are drawn and move', { timeout: 120_000 }, async () => {
  const page = await env.browser.newPage();
  const { pageErrors } = watchProblems(page);
  await page.goto(env.server.url);
  await waitRunning(page);
  await page.waitForTimeout(500);

  const box = await page.locator('#view').boundingBox();
  assert.ok(box && box.width >= 100 && box.height >= 100, `#view is laid out at a usable size: ${JSON.stringify(box)}`);

  // Something stands out from the background...
  const first = await canvasShot(page, 'running-1.png');
  const fg = foreground(first);
  assert.ok(fg > 0.01, `only ${(100 * fg).toFixed(3)}% of #view stands out from the background`);
  // ...and it moves.
  await page.waitForTimeout(700);
  const second = await canvasShot(page, 'running-2.png');
  const moved = difference(first, second);
  assert.ok(moved > 0.002, `two screenshots 700 ms apart differ in only ${(100 * moved).toFixed(4)}% of pixels`);

  // What stands out is the boids: paused, with the world size held, going from the current
  // count down to 50 boids changes a large part of the picture and shrinks the foreground.
  const count = await page.evaluate(() => window.flock.count());
  assert.ok(count >= 500, `default count ${count} is large enough for this check`);
  await page.locator('#pause').click();
  await page.evaluate(() => window.flock.setWorldSize(window.flock.worldSize()));
  await waitFrames(page, 3);
  const many = await canvasShot(page, `paused-${count}-boids.png`);
  await page.evaluate(() => window.flock.setCount(50));
  await waitFrames(page, 3);
  const few = await canvasShot(page, 'paused-50-boids.png');
  const removed = difference(many, few);
  assert.ok(
    removed > 0.01,
    `removing ${count - 50} boids changed only ${(100 * removed).toFixed(3)}% of the picture`,
  );
  assert.ok(
    foreground(few) < foreground(many),
    `foreground with 50 boids (${foreground(few)}) should be smaller than with ${count} (${foreground(many)})`,
  );
  console.log(
    `# foreground ${(100 * fg).toFixed(2)}%, moved ${(100 * moved).toFixed(2)}%, ` +
      `${count}→50 boids changed ${(100 * removed).toFixed(2)}%`,
  );
  assert.deepEqual(pageErrors, []);
  await page.close();
});
