// The relaxed-SIMD probe (www/core/relaxed-simd.js): it holds every relaxed instruction the
// relaxed build holds, so an engine with relaxed SIMD in part (WebKitGTK 2.50 with
// JSC_useWasmRelaxedSIMD=true takes f32x4.relaxed_madd, not f32x4.relaxed_max) runs the
// SIMD128 build without fetching the patch, without a failed compile and without a warning;
// and an engine that passes the probe but refuses the module itself gets the same, quietly.
// Chromium plays those engines: an init script makes WebAssembly refuse what they refuse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { applyPatch } from '../../www/core/wasm-patch.js';
import { RELAXED_NAMES, RELAXED_USED, relaxedProbe } from '../../www/core/relaxed-simd.js';
import { canvasShot, distDir, foreground, repoRoot, useDistAndBrowser, waitFrames, waitRunning, watchProblems } from './helpers.mjs';

const env = useDistAndBrowser();

/** The relaxed module the page builds: boids_bg.wasm with the patch applied. */
function relaxedModule() {
  const read = (name) => new Uint8Array(readFileSync(path.join(distDir, name)));
  return applyPatch(read('boids_bg.wasm'), read('boids_relaxed_bg.wasm.patch'));
}

/** The relaxed-SIMD instructions named in `wasm-dis`'s text of `bytes` (binaryen's, from node_modules), with their counts. */
function relaxedInstructions(bytes) {
  const dir = mkdtempSync(path.join(tmpdir(), 'boids-relaxed-'));
  try {
    const file = path.join(dir, 'relaxed.wasm');
    writeFileSync(file, bytes);
    const text = execFileSync(path.join(repoRoot, 'node_modules/.bin/wasm-dis'), [file], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    const counts = {};
    for (const [name] of text.matchAll(/\b(?:i8x16|i16x8|i32x4|i64x2|f32x4|f64x2)\.\w*(?:relaxed|laneselect|i7x16)\w*/g)) {
      counts[name] = (counts[name] ?? 0) + 1;
    }
    return counts;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("the probe holds every relaxed instruction of the relaxed build, and only those", { timeout: 60_000 }, () => {
  const found = relaxedInstructions(relaxedModule());
  for (const name of Object.keys(found)) {
    assert.ok(RELAXED_NAMES.includes(name), `wasm-dis names ${name}, which relaxed-simd.js does not know`);
  }
  assert.deepEqual(
    Object.keys(found).sort(),
    [...RELAXED_USED].sort(),
    `RELAXED_USED in www/core/relaxed-simd.js must be what the module holds (${JSON.stringify(found)})`,
  );
  // And the probe is a module holding just those (so the list above is what engines see).
  assert.deepEqual(Object.keys(relaxedInstructions(relaxedProbe())).sort(), [...RELAXED_USED].sort());
});

/**
 * Init script: WebAssembly refuses (validate false, compile and instantiate a CompileError, as
 * an engine does) every module that `refuses(bytes)` says it would, and counts the refusals in
 * window.__refused. `refuses` is the source of a function of a Uint8Array.
 */
const refusing = (refuses) => `(() => {
  const refuses = ${refuses};
  const bytesOf = (source) =>
    source instanceof ArrayBuffer ? new Uint8Array(source)
      : ArrayBuffer.isView(source) ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength)
      : null;
  const refused = (source) => {
    const bytes = bytesOf(source);
    if (!bytes || !refuses(bytes)) return false;
    window.__refused = (window.__refused ?? 0) + 1;
    return true;
  };
  const error = () => new WebAssembly.CompileError('invalid extended simd op (refused by the test)');
  const { validate, compile, instantiate } = WebAssembly;
  WebAssembly.validate = (source, ...rest) => (refused(source) ? false : validate.call(WebAssembly, source, ...rest));
  WebAssembly.compile = (source, ...rest) =>
    refused(source) ? Promise.reject(error()) : compile.call(WebAssembly, source, ...rest);
  WebAssembly.instantiate = (source, ...rest) =>
    refused(source) ? Promise.reject(error()) : instantiate.call(WebAssembly, source, ...rest);
})();`;

/** Whether bytes hold f32x4.relaxed_max (0xfd, then 270 as LEB128): what WebKitGTK 2.50 refuses. */
const HOLDS_RELAXED_MAX = `(bytes) => {
  for (let i = 0; i + 2 < bytes.length; i++) if (bytes[i] === 0xfd && bytes[i + 1] === 0x8e && bytes[i + 2] === 2) return true;
  return false;
}`;

/** Opens the page after `init` (an init script); returns the build it ran, the wasm it fetched, its warnings and problems. */
async function openPage(init) {
  const page = await env.browser.newPage();
  const watched = watchProblems(page);
  const warnings = [];
  page.on('console', (message) => {
    // The page's own (Chromium adds GL driver notes on readPixels of its own).
    if (message.type() === 'warning' && message.text().startsWith('boids:')) warnings.push(message.text());
  });
  const wasm = [];
  page.on('request', (request) => {
    if (/\.wasm(\.patch)?$/.test(request.url())) wasm.push(new URL(request.url()).pathname);
  });
  await page.addInitScript(init);
  await page.goto(`${env.server.url}?count=400`);
  await waitRunning(page);
  await waitFrames(page, 10);
  const state = await page.evaluate(async () => {
    const { relaxedProbe } = await import('/www/core/relaxed-simd.js');
    return {
      build: customElements.get('boids-flock').build,
      refused: window.__refused ?? 0,
      // The probe of before: relaxed_madd alone.
      maddAlone: WebAssembly.validate(relaxedProbe(['f32x4.relaxed_madd'])),
    };
  });
  const problems = [...watched.problems];
  const drawn = foreground(await canvasShot(page, `relaxed-probe-${state.build}.png`));
  return { page, ...state, wasm, warnings, problems, drawn };
}

test('an engine without f32x4.relaxed_max (as WebKit with relaxed SIMD on) runs simd128: no patch fetched, no warning', { timeout: 120_000 }, async () => {
  const { page, build, refused, maddAlone, wasm, warnings, problems, drawn } = await openPage(refusing(HOLDS_RELAXED_MAX));
  assert.equal(maddAlone, true, 'the engine played here takes relaxed_madd (the old probe would have passed)');
  assert.ok(refused >= 1, 'the probe was refused');
  assert.equal(build, 'simd128');
  assert.deepEqual(wasm, ['/boids_bg.wasm'], 'only the portable module is fetched');
  assert.deepEqual(warnings, []);
  assert.deepEqual(problems, []);
  assert.ok(drawn > 0.003, `cones drawn (${(drawn * 100).toFixed(2)} % of the canvas)`);
  await page.close();
});

test('an engine that passes the probe but refuses the relaxed module runs simd128 without a warning', { timeout: 120_000 }, async () => {
  // Refuses the big module only: the probe (a few hundred bytes) passes.
  const refuses = `(bytes) => bytes.length > 10000 && (${HOLDS_RELAXED_MAX})(bytes)`;
  const { page, build, refused, wasm, warnings, problems, drawn } = await openPage(refusing(refuses));
  assert.equal(refused, 1, 'the relaxed module was validated, refused, and never compiled');
  assert.equal(build, 'simd128');
  // boids_bg.wasm twice: once as the patch's base, once to compile.
  assert.deepEqual([...new Set(wasm)].sort(), ['/boids_bg.wasm', '/boids_relaxed_bg.wasm.patch']);
  assert.deepEqual(warnings, []);
  assert.deepEqual(problems, []);
  assert.ok(drawn > 0.003, `cones drawn (${(drawn * 100).toFixed(2)} % of the canvas)`);
  await page.close();
});
