// The offline copy's list (issue 45), written into the service worker by the build's last
// step (scripts/post-build.sh): every file of the staging folder but the worker itself, and
// a version, the first 16 hex digits of a SHA-256 of their names and bytes. Any file that
// changes changes the worker's bytes, which is how a browser learns of a new deployment
// (www/core/coi-sw.js precaches the list; www/core/isolate.js shows the notice).
//
//   node scripts/offline-manifest.mjs <folder>    # default: $TRUNK_STAGING_DIR
//   node scripts/offline-manifest.mjs <folder> --again   # also a worker with a list already,
//                                                          # for a folder of fewer files (the npm package)
//
// readOfflineManifest(folder) reads the list back (the offline and package tests).
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const WORKER = 'coi-sw.js';
const PLACEHOLDER = "'__OFFLINE_MANIFEST__'";
// The list is one line of JSON: file names hold no "};".
const LISTED = /(const OFFLINE = )(\{.*?\});/;

/** The manifest { version, files } written into `dir`/coi-sw.js; throws if it holds none. */
export function readOfflineManifest(dir) {
  const match = readFileSync(path.join(dir, WORKER), 'utf8').match(LISTED);
  if (!match) throw new Error(`${dir}/${WORKER} carries no offline manifest (a release build writes it)`);
  return JSON.parse(match[2]);
}

/** Writes `dir`'s list and version into its worker (over a list already there if `again`). */
function writeOfflineManifest(dir, again) {
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
  const manifest = JSON.stringify({ version, files });
  if (again && LISTED.test(source)) writeFileSync(workerPath, source.replace(LISTED, (_, head) => `${head}${manifest};`));
  else if (source.includes(PLACEHOLDER)) writeFileSync(workerPath, source.replace(PLACEHOLDER, manifest));
  else throw new Error(`${workerPath}: no ${PLACEHOLDER} to replace`);
  console.log(`offline manifest: ${files.length} files, version ${version}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
  if (!dir) throw new Error('usage: node scripts/offline-manifest.mjs <dist folder>');
  writeOfflineManifest(dir, process.argv.includes('--again'));
}
