// A picture of every preset, settled: for the README and the docs, and to see at a glance
// whether a re-tuned preset still looks like its name.
//
//   node scripts/screenshot-presets.mjs [name …]     (after `trunk build --release --offline`)
//   PRESET_COUNT=10000 node scripts/screenshot-presets.mjs   (the same at 10,000 boids)
//
// For each preset of `Flock.presets()` (or those named), in headless Debian chromium (as the
// browser tests run it, software WebGL where there is no GPU): a <boids-flock> that takes the
// preset from its URL (`?preset=…&seed=…`), paused, flown by this script for PRESET_SECONDS of
// flock time (four steps of 1/60 s a drawn frame, as the page flies at 15 frames a second:
// under an open sky the camera follows the flock frame by frame), then framed and saved as
// docs/presets/<name>.png (PRESET_OUT), the stage alone (its sky behind the canvas, no
// readouts or hints) at PRESET_WIDTH × PRESET_HEIGHT CSS pixels.
// PRESET_FRAME: "auto" (default) keeps the sky's own camera under an open sky and fits the
// flock in a box; "fit" fits it always; "default" never (the whole box, or the sky's view).
// PRESET_SEED picks the seed (1); PRESET_COUNT the number of boids (the page's own, 1,500),
// and then the pictures are <name>-<count>.png.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { launchBrowser, repoRoot, serve } from '../tests/browser/helpers.mjs';

const seconds = Number(process.env.PRESET_SECONDS ?? 20);
const width = Number(process.env.PRESET_WIDTH ?? 800);
const height = Number(process.env.PRESET_HEIGHT ?? 600);
const seed = Number(process.env.PRESET_SEED ?? 1);
const count = process.env.PRESET_COUNT ? Number(process.env.PRESET_COUNT) : null;
const framing = process.env.PRESET_FRAME ?? 'auto';
const out = path.resolve(process.env.PRESET_OUT ?? path.join(repoRoot, 'docs', 'presets'));
if (count !== null && !(Number.isInteger(count) && count > 0)) throw new Error(`PRESET_COUNT=${process.env.PRESET_COUNT}: a whole number of boids`);
if (!['auto', 'fit', 'default'].includes(framing)) throw new Error(`PRESET_FRAME=${framing}: auto, fit or default`);

// One element filling the page, its stage the picture's size; what lies over the canvas hidden.
const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>presets</title>
  <script type="module" src="/www/boids-embed.js"></script>
  <style>
    body { margin: 0; background: #070d1a; }
    boids-flock { width: ${width}px; }
    boids-flock .bf-stage { width: ${width}px; height: ${height}px; aspect-ratio: auto; border: 0; border-radius: 0; }
    boids-flock .bf-stage > :not(canvas) { visibility: hidden !important; }
  </style>
</head>
<body><boids-flock url="read" controls="none"></boids-flock></body>
</html>`;

const server = await serve({ pages: { '/shot.html': page } });
const browser = await launchBrowser();
const started = performance.now();
try {
  const tab = await browser.newPage({ viewport: { width: width + 40, height: height + 200 } });
  tab.on('pageerror', (err) => console.error('page error:', err));
  await tab.goto(`${server.url}shot.html`);
  await tab.waitForFunction(() => customElements.get('boids-flock'), null, { timeout: 60_000 });
  const all = await tab.evaluate(() => customElements.get('boids-flock').presets.map((p) => p.name));
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !all.includes(name));
  if (unknown.length > 0) throw new Error(`no preset ${unknown.join(', ')} (there are ${all.join(', ')})`);
  const names = wanted.length > 0 ? wanted : all;
  mkdirSync(out, { recursive: true });
  for (const name of names) {
    const start = performance.now();
    await tab.goto(`${server.url}shot.html?preset=${encodeURIComponent(name)}&seed=${seed}${count ? `&count=${count}` : ''}&paused=1`);
    await tab.waitForFunction(() => document.querySelector('boids-flock')?.dataset.state === 'running', null, {
      timeout: 60_000,
    });
    const shown = await tab.evaluate(
      ([seconds, framing]) => {
        const el = document.querySelector('boids-flock');
        const { flock, view } = el;
        const frames = Math.round((seconds * 60) / 4);
        for (let frame = 0; frame < frames; frame++) {
          for (let k = 0; k < 4; k++) flock.step(1 / 60);
          view.draw(flock);
        }
        const sky = flock.sky() >= 0.5;
        const fit = framing === 'fit' || (framing === 'auto' && !sky);
        if (fit) view.fitFlock(flock);
        view.draw(flock);
        return { count: flock.count(), sky, fit, polarization: flock.polarization() };
      },
      [seconds, framing],
    );
    // Two frames of the page's own (paused: drawn, not stepped), so the picture is composited.
    await tab.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const file = path.join(out, count ? `${name}-${count}.png` : `${name}.png`);
    await tab.locator('boids-flock .bf-stage').screenshot({ path: file });
    const took = ((performance.now() - start) / 1000).toFixed(1);
    console.log(
      `${name}: ${path.relative(repoRoot, file)} (${shown.count} boids, ${shown.sky ? 'open sky' : 'box'}, ` +
        `${shown.fit ? 'fitted' : 'default camera'}, polarization ${shown.polarization.toFixed(2)}; ${took} s)`,
    );
  }
  console.log(`${names.length} presets in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await browser.close();
  await server.close();
}
