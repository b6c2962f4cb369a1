// Without WebGL2 the page says so instead of failing silently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { saveArtifact, watchProblems, useDistAndBrowser } from './helpers.mjs';

const env = useDistAndBrowser();

test('without WebGL2 the page shows a message and data-boids="no-webgl"', { timeout: 120_000 }, async () => {
  const page = await env.browser.newPage();
  const { pageErrors } = watchProblems(page);
  await page.addInitScript(() => {
    const original = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
      if (String(type).toLowerCase() === 'webgl2') return null;
      return original.call(this, type, ...rest);
    };
  });
  await page.goto(env.server.url);
  await page.waitForFunction(
    () => ['no-webgl', 'running', 'error'].includes(document.documentElement.dataset.boids),
    null,
    { timeout: 60_000 },
  );
  await page.waitForTimeout(200);
  saveArtifact('no-webgl.png', await page.screenshot());

  assert.equal(await page.evaluate(() => document.documentElement.dataset.boids), 'no-webgl');
  const message = page.locator('#message');
  assert.equal(await message.isVisible(), true, '#message is visible');
  assert.equal(await message.getAttribute('role'), 'alert', '#message has role=alert');
  assert.match(await message.textContent(), /WebGL\s*2/i, '#message mentions WebGL2');
  assert.deepEqual(pageErrors, [], 'no uncaught errors without WebGL2');
  await page.close();
});
