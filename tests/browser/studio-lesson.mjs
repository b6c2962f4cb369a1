// A lesson made in the studio and downloaded by its buttons, as a teacher makes one: shared by
// the tests of the downloaded files (lesson-files.test.mjs: the single file and SCORM;
// h5p.test.mjs: H5P and the LRS recipe).
import path from 'node:path';
import { watchProblems } from './helpers.mjs';
import { waitFlocks } from './embed-helpers.mjs';

export const PREDICT = 'What will one hawk do to 300 birds?';
export const NOTICE = 'Where do the birds go?';

/** The studio of `env` (useDistAndBrowser's) in a context that takes downloads, its preview running. */
export async function openStudio(env, viewport = { width: 1280, height: 900 }) {
  const context = await env.browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  const watch = watchProblems(page);
  await page.goto(`${env.server.url}studio.html`);
  await page.waitForFunction(() => document.documentElement.dataset.studio === 'ready', null, { timeout: 60_000 });
  await waitFlocks(page, '#preview');
  return { context, page, ...watch };
}

/** A lesson in the studio's form: 300 birds, seed 77, cohesion shown and locked, two prompts. */
export async function buildLesson(page) {
  await page.locator('#studio-value-count').fill('300');
  await page.locator('#studio-seed').fill('77');
  await page.locator('#studio-show-cohesion').check();
  await page.locator('#studio-lock-cohesion').check();
  await page.locator('#studio-lesson-title').fill('One hawk');
  await page.locator('#studio-predict').fill(PREDICT);
  await page.locator('#studio-notice').fill(NOTICE);
  await page.locator('#studio-try').fill('');
  // The outputs follow the form on the next frames.
  await page.waitForFunction(() => document.getElementById('studio-out-snippet').value.includes('notice='), null, { timeout: 10_000 });
}

/**
 * Presses the download button of `kind` and saves the file into `folder`; resolves to its
 * path, its name and the status line.
 */
export async function download(page, kind, folder) {
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.locator(`#studio-download-${kind}`).click()]);
  const target = path.join(folder, file.suggestedFilename());
  await file.saveAs(target);
  await page.waitForFunction(() => /\d/.test(document.getElementById('studio-download-status').textContent), null, { timeout: 10_000 });
  const status = await page.locator('#studio-download-status').textContent();
  return { target, name: file.suggestedFilename(), status };
}
