// The offline copy's list (issue 45), written into the service worker by the build's last
// step (scripts/post-build.sh): every file of the staging folder but the worker itself, and
// a version, the first 16 hex digits of a SHA-256 of their names and bytes. Any file that
// changes changes the worker's bytes, which is how a browser learns of a new deployment
// (www/core/coi-sw.js precaches the list; www/core/isolate.js shows the notice).
//
//   node scripts/offline-manifest.mjs <folder>    # default: $TRUNK_STAGING_DIR
//   node scripts/offline-manifest.mjs <folder> --again   # also a worker with a list already,
//                                                          # for a folder of fewer files (the npm package)
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
const again = process.argv.includes('--again');
if (!dir) throw new Error('usage: node scripts/offline-manifest.mjs <dist folder>');
const WORKER = 'coi-sw.js';
const PLACEHOLDER = "'__OFFLINE_MANIFEST__'";

const files = readdirSync(dir, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)).split(path.sep).join('/'))
  .filter((file) => file !== WORKER)
  .sort();
const hash = createHash('sha256');
for (const file of files) hash.update(`${file}\0`).update(readFileSync(path.join(dir, file)));
const version = hash.digest('hex').slice(0, 16);

const workerPath = path.join(dir, WORKER);
const source = readFileSync(workerPath, 'utf8');
// The list is one line of JSON: file names hold no "};".
const LISTED = /(const OFFLINE = )\{.*?\};/;
const manifest = JSON.stringify({ version, files });
if (again && LISTED.test(source)) writeFileSync(workerPath, source.replace(LISTED, (_, head) => `${head}${manifest};`));
else if (source.includes(PLACEHOLDER)) writeFileSync(workerPath, source.replace(PLACEHOLDER, manifest));
else throw new Error(`${workerPath}: no ${PLACEHOLDER} to replace`);
console.log(`offline manifest: ${files.length} files, version ${version}`);
