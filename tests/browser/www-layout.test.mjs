// The layout of www/ keeps its promises (issue 41), read from the sources (no browser):
// - every relative import, worker URL and style sheet import resolves to a file that exists
//   (in www/ or one the build writes beside it: boids.js, the wasm, coi-sw.js);
// - imports point one way: no cycle among the modules, and folders only reach down the
//   layers: the root (what pages name) → panel/ → lesson/, instruments/, experiment/,
//   studio/, lab/ → core/, i18n/ (package/, the downloads' files, beside panel/); a folder of one layer never imports another of the same layer;
// - no file over 500 lines without a reason in its opening comment ("Long because ...");
// - no mixin: no class's prototype is assembled from other modules' methods.
// tests/architecture.rs checks the same of src/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './helpers.mjs';

const WWW = path.join(repoRoot, 'www');
/** What the build writes beside www/ (Trunk, scripts/post-build.sh) and the pages at the root. */
const BUILT = new Set(['boids.js', 'boids_bg.wasm', 'boids_relaxed_bg.wasm.patch', 'boids_worker.js', 'boids_worker_bg.wasm', 'coi-sw.js', 'www/package/boids-lesson.js']);
/**
 * Lower layers first: a module may import its own folder and folders of lower layers only.
 * vendor/ is below them all: others' libraries copied as they ship (uqr.js), importing nothing of ours.
 */
const LAYER = { vendor: -1, core: 0, i18n: 0, lesson: 1, instruments: 1, experiment: 1, studio: 1, lab: 1, nature: 1, panel: 2, package: 2, '.': 3 };
const LONG = 500;

/** Every .js and .css file of www/, as 'core/loop.js'. */
export function wwwFiles() {
  return readdirSync(WWW, { recursive: true })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => /\.(js|css)$/.test(file))
    .sort();
}

/** The relative specifiers a source names: [{ spec, kind: 'import' | 'url' }]. */
export function specifiers(source) {
  const found = [];
  const code = source.replace(/^\s*\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
  const patterns = [
    [/(?:^|[\s;}])(?:import|export)\s[^'"`;]*?\sfrom\s*(['"])([^'"]+)\1/g, 'import'],
    [/(?:^|[\s;}])import\s*(['"])([^'"]+)\1/g, 'import'],
    [/\bimport\(\s*(['"])([^'"]+)\1\s*\)/g, 'import'],
    [/\bnew URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g, 'url'],
    [/@import\s+url\(\s*(['"])([^'"]+)\1\s*\)/g, 'import'],
  ];
  for (const [pattern, kind] of patterns) {
    for (const match of code.matchAll(pattern)) {
      if (match[2].startsWith('.') || kind === 'url' || pattern.source.startsWith('@import')) found.push({ spec: match[2], kind });
    }
  }
  return found;
}

/** 'core/loop.js' for a file, '.' for the root's. */
const folderOf = (file) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '.');

function graph() {
  const edges = new Map();
  const problems = [];
  for (const file of wwwFiles()) {
    const source = readFileSync(path.join(WWW, file), 'utf8');
    const targets = [];
    for (const { spec } of specifiers(source)) {
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(`www/${file}`), spec));
      if (resolved.startsWith('www/')) {
        const target = resolved.slice(4);
        if (!existsSync(path.join(WWW, target)) && !BUILT.has(resolved)) problems.push(`${file} names ${spec}, which is not there`);
        else if (/\.(js|css)$/.test(target)) targets.push(target);
      } else if (!BUILT.has(resolved) && !(spec.endsWith('/') || existsSync(path.join(repoRoot, resolved)))) {
        problems.push(`${file} names ${spec} (${resolved}), which neither the repository nor the build has`);
      }
    }
    edges.set(file, targets);
  }
  return { edges, problems };
}

test('every import and URL in www/ resolves to a file', () => {
  const { edges, problems } = graph();
  assert.ok(edges.size > 40, `read ${edges.size} files`);
  assert.ok([...edges.values()].flat().length > 60, 'and found their imports');
  assert.deepEqual(problems, []);
});

test('www/ imports point one way: no cycle, folders only reach down the layers', () => {
  const { edges } = graph();
  const wrongWay = [];
  for (const [file, targets] of edges) {
    for (const target of targets) {
      const [from, to] = [folderOf(file), folderOf(target)];
      assert.ok(from in LAYER, `www/${from}/ has a layer in LAYER (${file})`);
      assert.ok(to in LAYER, `www/${to}/ has a layer in LAYER (${target})`);
      if (from !== to && LAYER[to] >= LAYER[from]) wrongWay.push(`${file} → ${target}`);
    }
  }
  assert.deepEqual(wrongWay, [], 'imports from a folder to one of the same or a higher layer');
  // Depth-first search; a module met again while still on the path closes a cycle.
  const state = new Map();
  const cycles = [];
  const visit = (file, trail) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      cycles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
      return;
    }
    state.set(file, 'open');
    for (const target of edges.get(file) ?? []) visit(target, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of edges.keys()) visit(file, []);
  assert.deepEqual(cycles, [], 'import cycles');
});

test('no module of www/ is over 500 lines without saying why at its top', () => {
  const long = [];
  for (const file of wwwFiles()) {
    const lines = readFileSync(path.join(WWW, file), 'utf8').split('\n');
    // The opening comment: the lines before the first that is not a comment.
    // (JavaScript's // lines; a style sheet's first /* … */).
    const source = lines.join('\n');
    const opening = file.endsWith('.css')
      ? source.slice(0, source.indexOf('*/')).split('\n')
      : lines.slice(0, lines.findIndex((line) => !/^\s*(\/\/|\/\*|\*)/.test(line) && line.trim() !== ''));
    if (lines.length > LONG && !opening.some((line) => /Long because/.test(line))) long.push(`${file} (${lines.length} lines)`);
  }
  assert.deepEqual(long, []);
});

test('no mixin: no class takes its methods from other modules copied into its prototype', () => {
  // Issue 41: <boids-flock> was one class assembled from 12 mixin modules sharing its fields;
  // its parts are objects of their own now (boids-embed.js says which).
  const mixins = [];
  for (const file of wwwFiles().filter((f) => f.endsWith('.js'))) {
    const source = readFileSync(path.join(WWW, file), 'utf8');
    if (/Object\.(assign|defineProperties)\(\s*[\w.]+\.prototype/.test(source)) mixins.push(file);
    if (/export const \w+Methods = \{/.test(source)) mixins.push(`${file} (exports an object of methods)`);
  }
  assert.deepEqual(mixins, []);
});
