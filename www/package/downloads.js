// The files the studio's Download buttons make (studio/studio-export.js builds the buttons):
// the lesson as one HTML file (single-file.js), a SCORM package (scorm.js) or an H5P package
// (h5p.js), each from the lesson bundle, fetched on the first press. The modules that write them load on demand.

/** The kinds, in the order the studio shows them. */
export const KINDS = ['html', 'scorm12', 'scorm2004', 'h5p'];

/**
 * The file for `kind` of the lesson `{ elementHtml, attributes, title, lang }`: resolves to
 * { blob, name }. A RangeError for an unknown kind.
 */
export async function makeDownload(kind, lesson) {
  if (!KINDS.includes(kind)) throw new RangeError(`makeDownload: kind must be one of ${KINDS.join(', ')}, got ${JSON.stringify(kind)}`);
  const { lessonBundle, lessonHtml, fileStem } = await import('./single-file.js');
  const bundleText = await lessonBundle();
  const stem = fileStem(lesson.title);
  if (kind === 'html') {
    return { blob: new Blob([lessonHtml({ ...lesson, bundleText })], { type: 'text/html' }), name: `${stem}.html` };
  }
  if (kind === 'h5p') {
    const { h5pPackage } = await import('./h5p.js');
    return { blob: await h5pPackage(lesson, bundleText), name: `${stem}.h5p` };
  }
  const { scormPackage } = await import('./scorm.js');
  const version = kind === 'scorm12' ? '1.2' : '2004';
  const bytes = await scormPackage(lesson, bundleText, version);
  return { blob: new Blob([bytes], { type: 'application/zip' }), name: `${stem}-scorm${version.replace('.', '')}.zip` };
}

