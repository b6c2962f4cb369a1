// A downloaded lesson as an H5P package (issue 45): a .h5p file (a zip) that Moodle's content
// bank or H5P activity, WordPress's H5P plugin and other H5P hosts take. Inside: h5p.json
// (the title, language and the one library it needs), content/content.json (the lesson's
// attributes) and the library folder H5P.BoidsFlock-1.0/ (h5p/: library.json, the classic
// script that shows the lesson and sends its xAPI statements, a style sheet) with the lesson
// bundle copied beside them. The library's files are fetched from beside this module, as
// the build ships them.

import { zipFiles } from './zip.js';

export const LIBRARY = { machineName: 'H5P.BoidsFlock', majorVersion: 1, minorVersion: 0 };
const FOLDER = `${LIBRARY.machineName}-${LIBRARY.majorVersion}.${LIBRARY.minorVersion}`;
const LIBRARY_FILES = ['library.json', 'boids-flock-h5p.js', 'boids-flock-h5p.css'];
const SOURCES = {
  'library.json': new URL('./h5p/library.json', import.meta.url),
  'boids-flock-h5p.js': new URL('./h5p/boids-flock-h5p.js', import.meta.url),
  'boids-flock-h5p.css': new URL('./h5p/boids-flock-h5p.css', import.meta.url),
};

async function fetchText(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`h5pPackage: ${url} answered ${response.status}`);
  return response.text();
}

/** h5p.json for a lesson titled `title` in `lang` (H5P wants a language code, "und" if none). */
export function h5pJsonOf({ title, lang }) {
  return {
    title,
    language: lang || 'und',
    mainLibrary: LIBRARY.machineName,
    embedTypes: ['iframe'],
    license: 'U',
    preloadedDependencies: [LIBRARY],
  };
}

/**
 * The package (a Blob, application/zip, to save as .h5p): `attributes` the element's, as
 * [[name, value], ...] or an object; `bundleText` the lesson bundle (boids-lesson.js).
 */
export async function h5pPackage({ attributes, title, lang }, bundleText) {
  const list = Array.isArray(attributes) ? attributes : attributes && typeof attributes === 'object' ? Object.entries(attributes) : null;
  if (!list || list.some((pair) => !Array.isArray(pair) || typeof pair[0] !== 'string')) {
    throw new TypeError(`h5pPackage: attributes must be [[name, value], ...] or an object, got ${JSON.stringify(attributes)}`);
  }
  if (typeof title !== 'string' || title.trim() === '') throw new TypeError(`h5pPackage: title must be a non-empty string, got ${JSON.stringify(title)}`);
  if (typeof bundleText !== 'string' || bundleText === '') throw new TypeError('h5pPackage: bundleText must be the lesson bundle\'s text');
  const library = await Promise.all(LIBRARY_FILES.map(async (name) => ({ name: `${FOLDER}/${name}`, data: await fetchText(SOURCES[name]) })));
  const bytes = await zipFiles([
    { name: 'h5p.json', data: JSON.stringify(h5pJsonOf({ title, lang }), null, 2) },
    { name: 'content/content.json', data: JSON.stringify({ attributes: list.map(([name, value]) => [name, String(value)]) }, null, 2) },
    ...library,
    { name: `${FOLDER}/boids-lesson.js`, data: bundleText },
  ]);
  return new Blob([bytes], { type: 'application/zip' });
}
