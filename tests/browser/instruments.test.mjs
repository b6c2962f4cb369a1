// The instruments drawn by the View (issue 11), driven through its API on the page
// (`window.flock`, `window.view`): a selected boid's arrows show in their colours, pick()
// finds the cone under a point, the colour modes recolour the cones, trails draw — and the
// cones stay one instanced draw with one instance upload per frame, the overlays' own draws
// few and counted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  GL_COUNTER_SCRIPT,
  decodePng,
  difference,
  saveArtifact,
  recordFrames,
  waitFrames,
  watchProblems,
  useDistAndBrowser,
} from './helpers.mjs';

const env = useDistAndBrowser();

/** Also counts texture uploads per frame (the trails' ring), in GL_COUNTER_SCRIPT's frames. */
const TEXTURE_COUNTER = `(() => {
  const proto = WebGL2RenderingContext.prototype;
  for (const name of ['texSubImage2D', 'texImage2D']) {
    const original = proto[name];
    proto[name] = function (...args) {
      const state = window.__glCount;
      const bucket = state && state.inFrame && state.current ? state.current : state?.outside;
      if (bucket) bucket[name] = (bucket[name] ?? 0) + 1;
      return original.apply(this, args);
    };
  }
})();`;

/** The page, paused (the scene holds still between shots), with GL calls counted. */
async function open(query = '') {
  const page = await env.browser.newPage({ viewport: { width: 1000, height: 760 } });
  const watch = watchProblems(page);
  await page.addInitScript(GL_COUNTER_SCRIPT);
  await page.addInitScript(TEXTURE_COUNTER);
  await page.goto(`${env.server.url}?paused=1&count=400&seed=7${query}`);
  // Not just `window.view`: until the View exists, that names the canvas (id="view").
  await page.waitForFunction(() => window.flock && typeof window.view?.draw === 'function', null, {
    timeout: 60_000,
  });
  // A few steps, so that the step has recorded neighbours and rules.
  await page.evaluate(() => {
    for (let i = 0; i < 30; i++) window.flock.step(1 / 60);
  });
  // What lies over the canvas (readouts, the Play button) hidden through the CSSOM, which
  // the page's CSP allows (canvasShot's <style> it refuses).
  await page.evaluate(() => {
    for (const el of document.querySelectorAll('#stage > :not(#view)')) el.style.visibility = 'hidden';
  });
  await waitFrames(page, 5);
  return { page, ...watch };
}

/** The canvas alone (what lies over it is hidden by `open`), saved as an artifact. */
async function canvasShot(page, name) {
  const buffer = await page.locator('#view').screenshot();
  saveArtifact(name, buffer);
  return decodePng(buffer);
}

const hex = (css) => [1, 3, 5].map((k) => parseInt(css.slice(k, k + 2), 16));

/** Pixels of `png` within `tolerance` of `rgb` on every channel. */
function countColour(png, rgb, tolerance = 10) {
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    if (
      Math.abs(png.data[i] - rgb[0]) <= tolerance &&
      Math.abs(png.data[i + 1] - rgb[1]) <= tolerance &&
      Math.abs(png.data[i + 2] - rgb[2]) <= tolerance
    ) {
      n++;
    }
  }
  return n;
}

/** The id of the boid drawn nearest the point at fractions (`fx`, `fy`) of the canvas. */
function central(page, fx = 0.5, fy = 0.5) {
  return page.evaluate(([fx, fy]) => {
    const { flock, view } = window;
    const canvas = document.getElementById('view');
    const [w, h] = [canvas.clientWidth, canvas.clientHeight];
    const p = flock.positions();
    const ids = flock.ids();
    let best = null;
    for (let i = 0; i < ids.length; i++) {
      const at = view.cssPointOf(flock, p[3 * i], p[3 * i + 1], p[3 * i + 2]);
      if (!at) continue;
      const d = Math.hypot(at[0] - fx * w, at[1] - fy * h);
      if (!best || d < best.d) best = { d, id: ids[i], x: at[0], y: at[1] };
    }
    return best;
  }, [fx, fy]);
}

/** GL counts of the frames recorded over the next `n` frames, each as a summary. */
async function frames(page, n = 10) {
  return (await recordFrames(page, n)).map((f) => ({
    instanced: f.instanced,
    drawArrays: f.drawArrays,
    drawElements: f.drawElements,
    bufferSubData: f.bufferSubData,
    bufferData: f.bufferData,
    texSubImage2D: f.texSubImage2D ?? 0,
    texImage2D: f.texImage2D ?? 0,
  }));
}

/**
 * How many saturated, lit pixels of `png` lie within 20° of hue of each of `colours` (CSS
 * hex), and what fraction of all such pixels lie near one of them. The sky is too dark to
 * count.
 */
function ruleHues(png, colours) {
  const hue = ([r, g, b]) => {
    const [max, min] = [Math.max(r, g, b), Math.min(r, g, b)];
    if (max === min) return 0;
    const h = max === r ? (g - b) / (max - min) : max === g ? (b - r) / (max - min) + 2 : (r - g) / (max - min) + 4;
    return (h * 60 + 360) % 360;
  };
  const wanted = colours.map((hex) => hue([1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))));
  const counts = wanted.map(() => 0);
  let [coloured, near] = [0, 0];
  for (let i = 0; i < png.width * png.height; i++) {
    const p = [png.data[4 * i], png.data[4 * i + 1], png.data[4 * i + 2]];
    const [max, min] = [Math.max(...p), Math.min(...p)];
    if (max < 90 || (max - min) / max < 0.4) continue;
    coloured += 1;
    const h = hue(p);
    const hits = wanted.map((w) => Math.min(Math.abs(h - w), 360 - Math.abs(h - w)) < 20);
    hits.forEach((hit, k) => (counts[k] += hit ? 1 : 0));
    near += hits.some(Boolean) ? 1 : 0;
  }
  return { counts, near: near / Math.max(1, coloured) };
}

function assertConesOneDraw(list, count, label) {
  assert.ok(list.length >= 5, `${label}: only ${list.length} frames recorded`);
  for (const f of list) {
    assert.deepEqual(f.instanced, [count], `${label}: one instanced draw of the ${count} cones (${JSON.stringify(f)})`);
  }
}

test('cells: the selected boid\'s scanned cells and candidates are lines of the overlay\'s own draw', { timeout: 120_000 }, async () => {
  const { page, pageErrors, problems } = await open('&sky=0');
  const count = await page.evaluate(() => window.flock.count());
  const { id } = await central(page, 0.35, 0.4);
  await page.evaluate((id) => window.view.select(window.flock, id), id);
  await waitFrames(page, 4);
  const off = await frames(page);
  const plain = await canvasShot(page, 'cells-off.png');
  await page.evaluate(() => window.view.setCells(true));
  assert.equal(await page.evaluate(() => window.view.cells()), true);
  await waitFrames(page, 4);
  const on = await frames(page);
  assertConesOneDraw(on, count, 'cells shown');
  const last = (list, key) => list[list.length - 1][key];
  assert.equal(last(on, 'drawArrays'), last(off, 'drawArrays'), `no draw of their own: ${JSON.stringify(on)}`);
  assert.equal(last(on, 'bufferSubData'), last(off, 'bufferSubData'), 'in the overlay\'s one upload');
  const shown = await canvasShot(page, 'cells-on.png');
  const covered = difference(shown, plain);
  assert.ok(covered > 0.002, `the cells and crosses cover ${(100 * covered).toFixed(3)}% of the canvas`);
  // Off again: the very same picture as before.
  await page.evaluate(() => window.view.setCells(0));
  await waitFrames(page, 4);
  assert.ok(difference(await canvasShot(page, 'cells-off-again.png'), plain) < 0.0005, 'off restores the picture');
  const refused = await page.evaluate(() => {
    try {
      window.view.setCells(2);
      return null;
    } catch (error) {
      return [error.name, error.message];
    }
  });
  assert.deepEqual(refused, ['RangeError', 'View.setCells: on must be true, false, 1 or 0, got 2']);
  // The page's option and its checkbox.
  await page.goto(`${env.server.url}?paused=1&count=400&seed=7&sky=0&cells=1&inspect=on`);
  await page.waitForFunction(() => typeof window.view?.cells === 'function' && window.view.cells() === true, null, { timeout: 60_000 });
  assert.equal(await page.locator('boids-flock input[id$="-cells"]').isChecked(), true, 'the Look group\'s checkbox says so');
  // (The Look group lies below the fold of this small viewport: clicked as a script would.)
  await page.locator('boids-flock input[id$="-cells"]').evaluate((input) => input.click());
  assert.equal(await page.evaluate(() => window.view.cells()), false);
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a selected boid draws its arrows in their colours, in a few draws and one upload', { timeout: 180_000 }, async () => {
  // In a box, filled from the start: a boid in the middle of the open sky's first, dense
  // ball is pushed alike from every side (its separation sums to nothing).
  const { page, pageErrors, problems } = await open('&sky=0');
  const count = await page.evaluate(() => window.flock.count());
  const before = await frames(page);
  assertConesOneDraw(before, count, 'nothing selected');
  for (const f of before) assert.equal(f.bufferSubData, 1, `one upload per frame: ${JSON.stringify(f)}`);

  const { id } = await central(page, 0.35, 0.4);
  const known = await page.evaluate((id) => window.view.select(window.flock, id), id);
  assert.equal(known, true);
  assert.equal(await page.evaluate(() => window.view.selected()), id);
  // A few steps, drawn, so that its trail has samples (the page is paused otherwise).
  for (let k = 0; k < 12; k++) {
    await page.evaluate(() => window.flock.step(1 / 60));
    await waitFrames(page, 1);
  }
  const after = await frames(page);
  assertConesOneDraw(after, count, 'a boid selected');
  const last = (list, key) => list[list.length - 1][key];
  // The overlay: triangles and lines from one upload; the selected boid's trail: one draw.
  assert.equal(last(after, 'drawArrays') - last(before, 'drawArrays'), 3, `overlay draws: ${JSON.stringify(after)}`);
  assert.equal(last(after, 'drawElements'), last(before, 'drawElements'), 'no other draw');
  assert.equal(last(after, 'bufferSubData'), 2, 'the overlay adds one upload to the instances');
  for (const f of after) assert.equal(f.bufferData, 0, `no reallocation in steady state: ${JSON.stringify(f)}`);
  const selected = await canvasShot(page, 'instruments-selected.png');

  const { legend, terms, maxForce } = await page.evaluate((id) => {
    const seen = window.flock.inspect(id);
    const size = (v) => Math.hypot(v[0], v[1], v[2]);
    const terms = {};
    for (const name of ['separation', 'alignment', 'cohesion']) terms[name] = size(seen.terms[name].weighted);
    terms.total = size(seen.terms.total);
    return { legend: window.view.legend(), terms, maxForce: window.flock.maxForce() };
  }, id);

  // Released: the same (paused) flock without the overlay.
  await page.evaluate(() => window.view.select(window.flock, null));
  assert.equal(await page.evaluate(() => window.view.selected()), undefined);
  await waitFrames(page, 4);
  const plain = await canvasShot(page, 'instruments-released.png');
  const released = await frames(page);
  assert.equal(last(released, 'drawArrays'), last(before, 'drawArrays'), 'releasing removes the overlay draws');
  assert.equal(last(released, 'bufferSubData'), 1);
  const covered = difference(selected, plain);
  assert.ok(covered > 0.003, `the overlay covers ${(100 * covered).toFixed(3)}% of the canvas`);

  // Each force that pushes it shows as pixels of its colour that the flock alone lacks (an
  // arrow is 60 CSS px for the maximum force: those drawn 30 px or longer are checked).
  const colours = Object.fromEntries(legend.forces.map((f) => [f.name, f.colour]));
  let shown = 0;
  for (const [name, size] of Object.entries(terms)) {
    if ((60 * size) / maxForce < 30) continue;
    const rgb = hex(colours[name]);
    const gained = countColour(selected, rgb) - countColour(plain, rgb);
    assert.ok(gained > 30, `${name} (${colours[name]}, size ${size.toFixed(2)}): ${gained} more pixels of its colour`);
    shown++;
  }
  assert.ok(shown >= 2, `at least two arrows checked (${JSON.stringify(terms)})`);
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('pick() at a cone returns its id; far from every cone, undefined', { timeout: 120_000 }, async () => {
  const { page, pageErrors } = await open();
  const result = await page.evaluate(() => {
    const { flock, view } = window;
    const p = flock.positions();
    const ids = flock.ids();
    const out = [];
    for (const i of [0, 57, 123, 399]) {
      const at = view.cssPointOf(flock, p[3 * i], p[3 * i + 1], p[3 * i + 2]);
      const picked = view.pick(flock, at[0], at[1]);
      // Another cone drawn at the same point (within a pixel) is as good an answer.
      const j = ids.indexOf(picked);
      const there = view.cssPointOf(flock, p[3 * j], p[3 * j + 1], p[3 * j + 2]);
      out.push({ id: ids[i], picked, apart: Math.hypot(there[0] - at[0], there[1] - at[1]) });
    }
    return { out, nothing: view.pick(flock, -500, -500), junk: view.pick(flock, NaN, 3) };
  });
  for (const { id, picked, apart } of result.out) {
    assert.ok(picked === id || apart < 1, `picked ${picked} for ${id} (${apart} px apart)`);
  }
  assert.equal(result.nothing, undefined);
  assert.equal(result.junk, undefined);
  const errors = await page.evaluate(() =>
    [
      () => window.view.pick(window.flock, '1', 2),
      () => window.view.pick({}, 1, 2),
      () => window.view.select(window.flock, -1),
      () => window.view.select(window.flock, 'x'),
      () => window.view.setColourBy('plaid'),
      () => window.view.setColourBy(3),
      () => window.view.setTrails(2), // 1 and 0 are on and off (one rule for on/off, issue 41)
      () => window.view.setFollow('yes'),
    ].map((f) => {
      try {
        f();
        return 'no error';
      } catch (e) {
        return `${e.name}: ${e.message}`;
      }
    }),
  );
  assert.deepEqual(
    errors.map((e) => e.split(':')[0]),
    ['TypeError', 'TypeError', 'RangeError', 'TypeError', 'RangeError', 'TypeError', 'RangeError', 'TypeError'],
    errors.join('\n'),
  );
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('each colour mode recolours the cones, still one draw and one upload', { timeout: 180_000 }, async () => {
  // In a box (as above: in the open sky's first ball separation cancels out in the middle).
  const { page, pageErrors } = await open('&speciesCount=3&sky=0');
  const count = await page.evaluate(() => window.flock.count());
  const modes = await page.evaluate(() => window.view.legend().modes);
  assert.deepEqual(modes, ['heading', 'species', 'speed', 'neighbours', 'rule']);
  assert.equal(await page.evaluate(() => window.view.colourBy()), 'heading');
  const shots = {};
  for (const mode of modes) {
    await page.evaluate((mode) => window.view.setColourBy(mode), mode);
    assert.equal(await page.evaluate(() => window.view.colourBy()), mode);
    await waitFrames(page, 3);
    const list = await frames(page, 6);
    assertConesOneDraw(list, count, mode);
    for (const f of list) assert.equal(f.bufferSubData, 1, `${mode}: one upload per frame`);
    shots[mode] = await canvasShot(page, `instruments-colour-${mode}.png`);
  }
  for (const mode of modes.slice(1)) {
    const changed = difference(shots[mode], shots.heading, 30);
    assert.ok(changed > 0.002, `${mode}: ${(100 * changed).toFixed(3)}% of the canvas changed colour`);
  }
  // Colour by rule uses the arrows' rule colours: the three show among the cones (lit, so
  // compared by hue) in a flock where each rule is strongest somewhere, and nearly every
  // coloured pixel is one of them (the other modes spread over more hues).
  const { rules } = await page.evaluate(() => window.view.legend());
  const ruleColours = ['separation', 'alignment', 'cohesion'].map((name) => rules.find((r) => r.name === name).colour);
  const rule = ruleHues(shots.rule, ruleColours);
  assert.ok(rule.counts.every((n) => n >= 100), `each rule's colour shows: ${rule.counts} px`);
  assert.ok(rule.near >= 0.97, `${(100 * rule.near).toFixed(1)}% of the coloured pixels are a rule's colour`);
  const heading = ruleHues(shots.heading, ruleColours);
  assert.ok(heading.near < 0.9, `by heading, ${(100 * heading.near).toFixed(1)}% are (the check can tell)`);
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('trails draw (one draw, one texture row per sample), every boid or the selected one', { timeout: 180_000 }, async () => {
  const { page, pageErrors } = await open();
  const count = await page.evaluate(() => window.flock.count());
  const steadyState = await canvasShot(page, 'instruments-no-trails.png');
  await page.evaluate(() => window.view.setTrails(true));
  assert.equal(await page.evaluate(() => window.view.trails()), true);
  // Fly a second and a half, drawing each step (the ring samples every 1/15 s).
  for (let k = 0; k < 90; k++) {
    await page.evaluate(() => window.flock.step(1 / 60));
    await waitFrames(page, 1);
  }
  const list = await frames(page, 8);
  assertConesOneDraw(list, count, 'trails on');
  for (const f of list) {
    assert.equal(f.bufferSubData, 1, `trails add no buffer upload: ${JSON.stringify(f)}`);
    assert.equal(f.texSubImage2D, 0, 'paused: no new sample, no texture upload');
    assert.equal(f.texImage2D, 0, 'paused: the trails texture is not made afresh');
  }
  // Moving again: one texture row per sample, never more than one per frame.
  await page.evaluate(() => window.flock.step(0.1));
  const moved = await frames(page, 3);
  assert.equal(moved.reduce((n, f) => n + f.texSubImage2D, 0), 1, JSON.stringify(moved));
  assert.equal(moved.reduce((n, f) => n + f.texImage2D, 0), 0, JSON.stringify(moved));
  // Trails on, then off, with no step between: what differs is the trails alone.
  const trails = await canvasShot(page, 'instruments-trails.png');
  await page.evaluate(() => window.view.setTrails(false));
  await waitFrames(page, 4);
  const off = await canvasShot(page, 'instruments-trails-off.png');
  const drawn = difference(trails, off);
  assert.ok(drawn > 0.005, `trails cover ${(100 * drawn).toFixed(3)}% of the canvas`);
  assert.ok(difference(steadyState, off) > 0.005, 'the flock moved meanwhile');
  const offFrames = await frames(page, 5);
  const onDraws = list[list.length - 1].drawArrays;
  assert.equal(onDraws - offFrames[offFrames.length - 1].drawArrays, 1, 'trails are one draw');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('2D, every behaviour on, follow: the instruments draw and nothing fails', { timeout: 180_000 }, async () => {
  // In a box: under the open sky, releasing the followed boid hands the camera back to the
  // flock's centre, which it glides to (the shots below compare frames with the camera still).
  for (const query of ['&flat=1&sky=0', '&predators=2&leaders=1&windStrength=3&speciesCount=2&sky=0']) {
    const { page, pageErrors, problems } = await open(query);
    await page.evaluate(() => {
      const { flock, view } = window;
      if (!flock.isFlat()) {
        const w = flock.worldSize();
        flock.addObstacle(w / 2, w / 2, w / 2, 3);
        flock.setPointer(w / 4, w / 4, w / 2, true);
      }
      view.setTrails(true);
      view.setFollow(true);
    });
    const { id } = await central(page);
    await page.evaluate((id) => window.view.select(window.flock, id), id);
    for (const mode of ['heading', 'speed', 'rule']) {
      await page.evaluate((mode) => window.view.setColourBy(mode), mode);
      for (let k = 0; k < 20; k++) {
        await page.evaluate(() => window.flock.step(1 / 30));
        await waitFrames(page, 1);
      }
    }
    // Followed: the selected boid is drawn at the centre of the canvas.
    const at = await page.evaluate((id) => {
      const { flock, view } = window;
      const i = Array.from(flock.ids()).indexOf(id);
      const p = flock.positions();
      const canvas = document.getElementById('view');
      const point = view.cssPointOf(flock, p[3 * i], p[3 * i + 1], p[3 * i + 2]);
      return { x: point[0] - canvas.clientWidth / 2, y: point[1] - canvas.clientHeight / 2, follow: view.follow() };
    }, id);
    assert.equal(at.follow, true);
    assert.ok(Math.hypot(at.x, at.y) < 2, `${query}: followed boid is ${JSON.stringify(at)} px off centre`);
    // The query's behaviours are in force, and the instruments draw: the selection's
    // arrows and the trails show against the same frame with them off.
    const state = await page.evaluate(() => {
      const { flock } = window;
      return { flat: flock.isFlat(), hawks: flock.predatorPositions().length / 3, leaders: flock.leaderPositions().length / 3 };
    });
    if (query.includes('flat')) assert.equal(state.flat, true, query);
    else assert.deepEqual([state.hawks, state.leaders], [2, 1], query);
    const shot = await canvasShot(page, `instruments${query.replace(/[&=]/g, '-')}.png`);
    const corner = () => page.evaluate(() => Array.from(window.view.cssPointOf(window.flock, 0, 0, 0)));
    const camera = await corner();
    await page.evaluate(() => {
      window.view.setTrails(false);
      window.view.select(window.flock, null);
    });
    await waitFrames(page, 4);
    const bare = await canvasShot(page, `instruments${query.replace(/[&=]/g, '-')}-bare.png`);
    assert.deepEqual(await corner(), camera, `${query}: the camera held still between the two shots`);
    const drawn = difference(shot, bare);
    assert.ok(drawn > 0.003, `${query}: the instruments cover ${(100 * drawn).toFixed(3)}% of the canvas`);
    assert.deepEqual(pageErrors, [], query);
    assert.deepEqual(problems, [], query);
    await page.close();
  }
});
