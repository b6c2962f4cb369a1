// Words for a screen reader on the page (issue 29): the plot's live region says what the
// flock did as it does it — hawks come and go, the flock splits when its boids see too
// little to hold together and joins again — in sentences, at most one every few seconds, in
// the reader's language; the figures are there on demand (M) and not said as they change;
// keyboard only, ] and [ (and N, Shift+N) step through the boids with the scene focused, and
// the selected one is said in words (its neighbours, the rule that wins); Tab still leaves
// the scene. The sentences themselves: narrator.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { saveArtifact, useDistAndBrowser, watchProblems } from './helpers.mjs';
import { SAY_EVERY } from '../../www/instruments/narrator.js';

const env = useDistAndBrowser();

async function openPage(query, viewport = { width: 1280, height: 800 }) {
  const page = await env.browser.newPage({ viewport });
  const watched = watchProblems(page);
  await page.goto(`${env.server.url}?open=look&count=300&seed=7${query}`);
  await page.waitForFunction(() => document.documentElement.dataset.boids === 'running', null, { timeout: 60_000 });
  return { page, ...watched };
}

/** Sets a parameter's slider as a reader would (a value, or "default"). */
const set = (page, name, value) =>
  page.evaluate(
    ([name, value]) => {
      const el = document.getElementById(`param-${name}`);
      const spec = document.querySelector('boids-flock').constructor.params.find((s) => s.name === name);
      el.value = String(value === 'default' ? spec.default : value);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    },
    [name, value],
  );

/** Waits until the flock's live region says something matching `pattern`; returns it. */
async function heard(page, pattern, timeout = 30_000) {
  try {
    await page.waitForFunction((source) => new RegExp(source).test(document.querySelector('boids-flock .bf-said').textContent), pattern.source, { timeout });
  } catch (error) {
    const said = await page.evaluate(() => window.__said.map((s) => s.text));
    throw new Error(`never heard ${pattern} (said: ${JSON.stringify(said)}): ${error.message}`);
  }
  return page.evaluate(() => document.querySelector('boids-flock .bf-said').textContent);
}

test('the live region says what the flock did: hawks, a split, the groups joining; at most one every few seconds, in the reader’s language', { timeout: 240_000 }, async () => {
  const { page, problems } = await openPage('');
  // Everything the live region says, with when (a new region after a change of language too).
  await page.evaluate(() => {
    window.__said = [];
    new MutationObserver((changes) => {
      for (const change of changes) {
        const region = change.target instanceof Element && change.target.closest('.bf-said');
        if (region) window.__said.push({ at: performance.now(), text: region.textContent });
      }
    }).observe(document.querySelector('boids-flock'), { subtree: true, childList: true, characterData: true });
  });
  const region = page.locator('boids-flock .bf-said');
  assert.equal(await region.getAttribute('aria-live'), 'polite');
  assert.equal(await page.locator('boids-flock .bf-words').getAttribute('aria-live'), null, 'the figures are not said as they change');
  // Let the fresh flock settle (what it does first is said too, if it is worth saying).
  await page.waitForTimeout(8000);

  await set(page, 'predators', 2);
  assert.equal(await heard(page, /hawks? (is|are) hunting the flock|hawk scattered/), '2 hawks are hunting the flock.');
  await set(page, 'predators', 0);
  await heard(page, /^No hawk hunts the flock now\.$/);

  // Boids that see only their nearest neighbours lose the flock: it comes apart. The home
  // range at its widest, so that the open sky's pull home does not hold them in one ball (with
  // the default range they split into 2-4 groups or none, circling home: a clean clone's run
  // heard "began to circle" and no split).
  await set(page, 'homeRange', 0.5);
  await set(page, 'perception', 0.02);
  const apart = await heard(page, /split into \d+ groups|fell apart/);
  await set(page, 'perception', 'default');
  await set(page, 'homeRange', 'default');
  const joined = await heard(page, /joined into one flock|gathered into one flock/);

  // In Russian, from the same flock.
  await page.evaluate(() => document.querySelector('boids-flock[page]').setAttribute('lang', 'ru'));
  await page.waitForFunction(() => document.documentElement.lang === 'ru');
  await set(page, 'predators', 3);
  assert.equal(await heard(page, /ястреб/), '3 ястреба охотятся на стаю.');
  saveArtifact('narrator-ru.png', await page.locator('boids-flock .bf-plot').screenshot());

  const said = await page.evaluate(() => window.__said);
  for (let k = 1; k < said.length; k++) {
    assert.ok(said[k].at - said[k - 1].at >= SAY_EVERY - 50, `at most one announcement every ${SAY_EVERY} ms: ${JSON.stringify(said.slice(k - 1, k + 1))}`);
  }
  for (const { text } of said) assert.doesNotMatch(text, /%|\d+\.\d/, `sentences, not figures: ${text}`);
  assert.ok(said.length >= 5, JSON.stringify(said));
  console.log(`said: ${JSON.stringify(said.map((s) => s.text))} (${apart} / ${joined})`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('keyboard only: ] and [ step through the boids with the scene focused, each said in words; M says the figures; Tab leaves the scene', { timeout: 180_000 }, async () => {
  const { page, problems } = await openPage('');
  // Tab to the scene, as a keyboard reader gets there.
  let onCanvas = false;
  for (let k = 0; k < 40 && !onCanvas; k++) {
    await page.keyboard.press('Tab');
    onCanvas = await page.evaluate(() => document.activeElement?.classList.contains('bf-canvas'));
  }
  assert.ok(onCanvas, 'Tab reaches the scene');
  assert.match(await page.locator('canvas.bf-canvas').getAttribute('aria-label'), /\] inspects the next boid/);
  await page.keyboard.press('Space'); // pause: the order nearest the centre first holds still
  await page.waitForFunction(() => document.querySelector('boids-flock').paused);
  const state = () =>
    page.evaluate(() => {
      const el = document.querySelector('boids-flock');
      return { id: el.selectedId, words: el.querySelector('.bf-said-boid').textContent, order: Array.from(el.flock.idsByDistanceFromCentre()).slice(0, 3) };
    });
  const live = page.locator('boids-flock .bf-said-boid');
  assert.equal(await live.getAttribute('aria-live'), 'polite');
  assert.equal(await live.textContent(), '', 'nothing said before a boid is chosen');

  await page.keyboard.press(']');
  const first = await state();
  assert.equal(first.id, first.order[0], '] selects the boid nearest the centre first');
  const sentence = /^Boid (\d+): (\d+ neighbours? in sight|no neighbour in sight)(; too close: \d+)?\. (Separation|Alignment|Cohesion) wins: [^.]+\.|No rule acts on it\./;
  assert.match(first.words, sentence);
  assert.equal(Number(first.words.match(sentence)[1]), first.id, 'the words name the selected boid');
  // Its neighbours as the inspector counts them.
  const heeded = await page.evaluate((id) => document.querySelector('boids-flock').flock.inspect(id).heeded.length, first.id);
  assert.ok(first.words.includes(heeded === 0 ? 'no neighbour' : `${heeded} neighbour`), `${heeded} neighbours: ${first.words}`);

  await page.keyboard.press(']');
  const second = await state();
  assert.equal(second.id, first.order[1], '] again: the next nearest');
  assert.match(second.words, new RegExp(`^Boid ${second.id}:`));
  await page.keyboard.press('[');
  assert.equal((await state()).id, first.id, '[ goes back');
  await page.keyboard.press('n');
  await page.keyboard.press('Shift+N');
  assert.equal((await state()).id, first.id, 'N and Shift+N step as ] and [ do');
  await page.keyboard.press('Escape');
  const released = await state();
  assert.equal(released.id, null);
  assert.equal(released.words, 'No boid selected.');

  // The figures on demand: M says them (again and again), in the flock's live region.
  await page.keyboard.press('m');
  const figures = await page.locator('boids-flock .bf-said').textContent();
  assert.match(figures, /^300 boids · \d+% aligned · \d+ groups?/);
  await page.keyboard.press('m');
  assert.notEqual(await page.locator('boids-flock .bf-said').textContent(), figures, 'M again says them again (a change a reader hears)');

  // The keys help lists the keys.
  await page.keyboard.press('?');
  const help = await page.locator('dialog.bf-keys-help').textContent();
  assert.match(help, /N\s*\]\s*·\s*Shift\+N\s*\[/);
  assert.match(help, /M\s*say the flock’s measures/);
  await page.keyboard.press('Escape');

  // Tab still leaves the scene.
  await page.locator('canvas.bf-canvas').focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('bf-canvas')), false, 'Tab leaves the scene');

  // In Ukrainian, on a phone's screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => document.querySelector('boids-flock[page]').setAttribute('lang', 'uk'));
  await page.waitForFunction(() => document.documentElement.lang === 'uk');
  await page.locator('canvas.bf-canvas').focus();
  await page.keyboard.press(']');
  const uk = await state();
  assert.match(uk.words, new RegExp(`^Боїд ${uk.id}: (\\d+ сусід(и|ів)? (у|в) полі зору|жодного сусіда в полі зору)(; заблизько: \\d+)?\\. (Перемагає (розділення|вирівнювання|згуртованість): [^.]+\\.|Жодне правило на нього не діє\\.)`));
  saveArtifact('narrator-keyboard-uk-390.png', await page.screenshot({ fullPage: true }));
  assert.deepEqual(problems, []);
  await page.close();
});

test('a compact embed says its selected boid too (the words sit over the stage, for screen readers only)', { timeout: 120_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 800, height: 600 } });
  const { problems } = watchProblems(page);
  await page.goto(`${env.server.url}embed.html?count=200&seed=3`);
  await page.waitForFunction(() => document.documentElement.dataset.boids === 'running', null, { timeout: 60_000 });
  await page.locator('canvas.bf-canvas').focus();
  await page.keyboard.press(']');
  const words = await page.locator('boids-flock .bf-said-boid').textContent();
  const id = await page.evaluate(() => document.querySelector('boids-flock').selectedId);
  assert.match(words, new RegExp(`^Boid ${id}: `));
  const box = await page.locator('boids-flock .bf-said-boid').boundingBox();
  assert.ok(box.width <= 1 && box.height <= 1, `visually hidden: ${JSON.stringify(box)}`);
  // No plot here: M has no figures to say, and leaves the key alone.
  const pressed = await page.evaluate(() => {
    const event = new KeyboardEvent('keydown', { key: 'm', code: 'KeyM', bubbles: true, cancelable: true });
    document.querySelector('canvas.bf-canvas').dispatchEvent(event);
    return event.defaultPrevented;
  });
  assert.equal(pressed, false);
  assert.deepEqual(problems, []);
  await page.close();
});
