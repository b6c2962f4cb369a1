// The lesson bundle (issue 45): the element, everything it imports, its stylesheet and the
// portable wasm build in ONE ES module, dist/www/package/boids-lesson.js, for the lessons a
// teacher downloads from the studio: the single HTML file that works from a USB stick
// (file://, where a page may fetch nothing and import no other file), and the SCORM and H5P
// packages (www/package/). Run by scripts/post-build.sh in the staging folder, after Trunk
// has put boids.js and boids_bg.wasm there.
//
// esbuild bundles www/lesson-bundle.js and minifies it; two names that the sources
// test with `typeof` become text: BOIDS_LESSON_WASM (boids_bg.wasm as base64, read by
// core/wasm-load.js instead of fetching) and BOIDS_LESSON_CSS (boids-flock.css with its
// imports, and www/package/lesson.css, added by boids-embed.js as a <style> instead of a
// <link>). Left out: the Experiment group (its runs need a worker, which a page from a file
// cannot start; the stub says so if a lesson opens it) and the relaxed-SIMD patch (the
// portable build runs everywhere). The page itself never loads this file.
//
//   node scripts/build-lesson-bundle.mjs <staging folder>    # default: $TRUNK_STAGING_DIR
import { build } from 'esbuild';
import { readFileSync, writeFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = path.resolve(process.argv[2] ?? process.env.TRUNK_STAGING_DIR ?? '');
if (!process.argv[2] && !process.env.TRUNK_STAGING_DIR) {
  console.error('usage: node scripts/build-lesson-bundle.mjs <staging folder> (or TRUNK_STAGING_DIR)');
  process.exit(2);
}
const www = path.join(root, 'www');
const out = path.join(www, 'package', 'boids-lesson.js');

const css = await build({
  entryPoints: [path.join(www, 'boids-flock.css')],
  bundle: true,
  minify: true,
  write: false,
  logLevel: 'warning',
});
const styles = css.outputFiles[0].text + readFileSync(path.join(www, 'package', 'lesson.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');

const wasm = readFileSync(path.join(root, 'boids_bg.wasm'));

/** The Experiment group's modules, as stubs: a page from a file cannot start the runs' worker. */
const noExperiments = {
  name: 'no-experiments',
  setup(bundle) {
    bundle.onResolve({ filter: /(experiment-panel|i18n\/experiment)\.js$/ }, (args) => ({ path: args.path, namespace: 'stub' }));
    bundle.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
      contents: `export function buildExperiment() { throw new Error('experiments run on the full page, not in a downloaded lesson'); }
export function loadExperimentTexts() { return Promise.resolve(); }`,
      loader: 'js',
    }));
  },
};

const result = await build({
  entryPoints: [path.join(www, 'lesson-bundle.js')],
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  outfile: out,
  plugins: [noExperiments],
  define: {
    BOIDS_LESSON_WASM: JSON.stringify(wasm.toString('base64')),
    BOIDS_LESSON_CSS: JSON.stringify(styles),
  },
  logLevel: 'warning',
  metafile: true,
});
const text = readFileSync(out, 'utf8');
// The single file puts the bundle inside a <script> element: no "</script" may be in it.
if (/<\/script/i.test(text)) {
  console.error(`${out} has "</script" in it, which would end the single file's script early`);
  process.exit(1);
}
const inputs = Object.keys(result.metafile.inputs).length;
console.log(`==> lesson bundle: ${path.relative(root, out)}, ${(statSync(out).size / 1024).toFixed(1)} KB (${(gzipSync(text).length / 1024).toFixed(1)} KB gzipped), ${inputs} modules, wasm ${(wasm.length / 1024).toFixed(1)} KB inside`);
