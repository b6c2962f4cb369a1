// <boids-flock> on a hostile page (issue 16): it changes none of the host page's globals
// (console.error stays the page's own), a flock that traps the wasm module shows its error
// while the others on the page keep running, out-of-range count and seed attributes are
// clamped with the console warning every other attribute gives, and on a small element the
// "click to resume" cover is not hidden under the toolbar.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDistAndBrowser, waitFrames, watchProblems } from './helpers.mjs';
import { STRICT_CSP, TEST_CSS, collectConsole, flockPositions, flockSteps, testPage, waitFlocks } from './embed-helpers.mjs';

const pages = {
  '/test/test.css': `${TEST_CSS}\nboids-flock.tiny { width: 240px; height: 150px; }\n`,
  '/test/three.html': testPage(`
    <div class="row">
      <boids-flock id="a" class="small" count="200" seed="1"></boids-flock>
      <boids-flock id="b" class="small" count="200" seed="2"></boids-flock>
      <boids-flock id="c" class="small" count="200" seed="3"></boids-flock>
    </div>`),
  '/test/ranges.html': testPage(`
    <boids-flock id="low" class="small" count="1" seed="-5"></boids-flock>
    <div hidden><boids-flock id="high" class="small" count="1e6" seed="99999999999"></boids-flock></div>
    <boids-flock id="fine" class="small" count="120" seed="7"></boids-flock>`),
  '/test/tiny.html': testPage(`
    <boids-flock id="t1" class="tiny" count="100"></boids-flock>
    <boids-flock id="t2" class="tiny" count="100"></boids-flock>`),
};

const env = useDistAndBrowser({ pages, csp: STRICT_CSP });

async function open(path, setup) {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const watched = watchProblems(page);
  const warnings = collectConsole(page, 'warning');
  if (setup) await setup(page);
  await page.goto(env.server.url + path.replace(/^\//, ''));
  return { page, warnings, ...watched };
}

test('the element changes none of the host page globals: console.error stays the page’s own', { timeout: 120_000 }, async () => {
  const { page, pageErrors } = await open('/test/three.html', (page) =>
    page.addInitScript(() => {
      // Before any script of the page: what the globals are.
      window.__before = {
        names: Object.getOwnPropertyNames(window),
        console: Object.fromEntries(Object.keys(console).filter((key) => typeof console[key] === 'function').map((key) => [key, console[key]])),
      };
    }),
  );
  await waitFlocks(page, 'boids-flock', { min: 3 });
  const result = await page.evaluate(() => {
    const { names, console: before } = window.__before;
    const added = Object.getOwnPropertyNames(window).filter((name) => !names.includes(name) && name !== '__before');
    const replaced = Object.keys(before).filter((key) => console[key] !== before[key]);
    let threw = null;
    try {
      console.error(Object.create(null));
    } catch (error) {
      threw = String(error);
    }
    return { added, replaced, threw };
  });
  assert.deepEqual(result.replaced, [], 'no console method replaced');
  assert.equal(result.threw, null, 'console.error(Object.create(null)) does not throw');
  assert.deepEqual(result.added, [], 'no global added');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('a flock that traps the wasm module shows its error; the other flocks keep running', { timeout: 120_000 }, async () => {
  const { page } = await open('/test/three.html');
  await waitFlocks(page, 'boids-flock', { min: 3 });
  await waitFrames(page, 5);
  // Point #a's flock past the end of wasm memory: its next call (the frame loop's step)
  // traps with "memory access out of bounds", as a bug in the simulation would.
  await page.evaluate(() => {
    document.querySelector('#a').flock.__wbg_ptr = 0x7ffffff0;
  });
  await page.waitForFunction(() => document.querySelector('#a').dataset.state === 'error', null, { timeout: 20_000 });
  const message = await page.locator('#a .bf-message').textContent();
  assert.match(message, /RuntimeError: memory access out of bounds/, `#a shows the trap: ${message}`);
  assert.equal(await page.locator('#a .bf-message').isVisible(), true);

  // A trap in a call from outside the frame loop (a lesson's script, a slider) fails the
  // flock it happened in at once: #b is paused, so no frame would notice.
  const b = await page.evaluate(() => {
    const el = document.querySelector('#b');
    el.paused = true;
    el.flock.__wbg_ptr = 0x7ffffff0;
    let error = null;
    try {
      el.flock.setCohesion(2);
    } catch (thrown) {
      error = thrown instanceof WebAssembly.RuntimeError;
    }
    return { trapped: error, state: el.dataset.state };
  });
  assert.deepEqual(b, { trapped: true, state: 'error' }, '#b fails on the spot and the caller still sees the trap');

  const before = await flockSteps(page, '#c');
  const positions = await flockPositions(page, '#c');
  await page.waitForTimeout(500);
  assert.ok((await flockSteps(page, '#c')) > before + 5, '#c keeps stepping');
  assert.notDeepEqual(await flockPositions(page, '#c'), positions, '#c keeps moving');
  assert.equal(await page.evaluate(() => document.querySelector('#c').dataset.state), 'running');
  // And a flock made after the traps works.
  await page.evaluate(() => {
    const el = document.createElement('boids-flock');
    el.id = 'd';
    el.className = 'small';
    el.setAttribute('count', '150');
    document.body.prepend(el);
  });
  await waitFlocks(page, '#d');
  const steps = await flockSteps(page, '#d');
  await page.waitForTimeout(300);
  assert.ok((await flockSteps(page, '#d')) > steps, 'a new flock steps');
  assert.equal(await page.evaluate(() => document.querySelector('#d').flock.count()), 150);
  await page.close();
});

test('count and seed attributes out of range are clamped with a console warning, like every other attribute', { timeout: 120_000 }, async () => {
  const { page, warnings, pageErrors } = await open('/test/ranges.html');
  // #high (100,000 boids) is hidden: it makes its flock but never draws, which would be slow.
  await page.waitForFunction(() => ['low', 'high', 'fine'].every((id) => document.getElementById(id)?.flock));
  const values = await page.evaluate(() =>
    Object.fromEntries(['low', 'high', 'fine'].map((id) => [id, [document.getElementById(id).flock.count(), document.getElementById(id).flock.seed()]])),
  );
  assert.deepEqual(values, { low: [2, 0], high: [100000, 4294967295], fine: [120, 7] });
  for (const expected of [
    '<boids-flock>: count="1": count runs from 2 to 100000; using 2',
    '<boids-flock>: seed="-5": seed runs from 0 to 4294967295; using 0',
    '<boids-flock>: count="1e6": count runs from 2 to 100000; using 100000',
    '<boids-flock>: seed="99999999999": seed runs from 0 to 4294967295; using 4294967295',
  ]) {
    assert.ok(warnings.includes(expected), `warns ${JSON.stringify(expected)}; got ${JSON.stringify(warnings)}`);
  }
  assert.equal(warnings.filter((w) => w.includes('"120"') || w.includes('"7"')).length, 0, 'nothing about values in range');
  // The same warning as changing the attribute later.
  await page.evaluate(() => document.getElementById('fine').setAttribute('count', '0'));
  assert.ok(warnings.includes('<boids-flock>: count="0": count runs from 2 to 100000; using 2'), JSON.stringify(warnings));
  assert.equal(await page.evaluate(() => document.getElementById('fine').flock.count()), 2, 'and uses 2');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('on a 240×150 element, a click on the centre of the "click to resume" cover resumes', { timeout: 120_000 }, async () => {
  const { page, pageErrors } = await open('/test/tiny.html', (page) =>
    page.addInitScript(() => {
      // One context for the page: the second flock on screen waits behind its cover.
      customElements.whenDefined('boids-flock').then(() => {
        customElements.get('boids-flock').maxContexts = 1;
      });
    }),
  );
  const covered = () =>
    page.waitForFunction(() => document.querySelectorAll('.bf-cover:not([hidden])').length === 1, null, { timeout: 30_000 });
  const centre = async (selector) => {
    const box = await page.locator(selector).boundingBox();
    return [box.x + box.width / 2, box.y + box.height / 2];
  };
  /** What is at a point: 'cover' when it belongs to the cover, else the node there. */
  const hit = ([x, y]) =>
    page.evaluate(([x, y]) => {
      const node = document.elementFromPoint(x, y);
      return node?.closest('.bf-cover') ? 'cover' : `${node?.tagName}.${node?.className}`;
    }, [x, y]);
  const resumes = async (id, point) => {
    await page.mouse.click(...point);
    await page.waitForFunction((id) => document.getElementById(id).dataset.context === 'live', id, { timeout: 20_000 });
    const after = await page.evaluate((id) => {
      const el = document.getElementById(id);
      return { paused: el.paused, cover: el.querySelector('.bf-cover').hidden };
    }, id);
    assert.deepEqual(after, { paused: false, cover: true }, `#${id} resumed, and did not pause`);
  };

  await covered();
  const waiting = await page.evaluate(() => ['t1', 't2'].find((id) => !document.getElementById(id).view));
  const stage = await page.locator(`#${waiting} .bf-stage`).boundingBox();
  assert.ok(Math.abs(stage.width - 240) < 2 && Math.abs(stage.height - 150) < 2, `the stage is 240×150: ${JSON.stringify(stage)}`);
  // The Click to resume button's centre (which the toolbar covered) and the cover's centre.
  const button = await centre(`#${waiting} .bf-resume`);
  assert.equal(await hit(button), 'cover', "the button's centre is the cover's, not the toolbar's");
  const middle = await centre(`#${waiting} .bf-cover`);
  assert.equal(await hit(middle), 'cover');
  await resumes(waiting, middle);

  // It took the other flock's context: that one waits now; its button resumes it.
  const other = waiting === 't1' ? 't2' : 't1';
  await covered();
  await resumes(other, await centre(`#${other} .bf-resume`));
  assert.deepEqual(pageErrors, []);
  await page.close();
});
