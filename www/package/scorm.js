// A downloaded lesson as a SCORM package (issue 45): a zip that a learning platform (Moodle,
// Canvas, Blackboard, Brightspace) takes as an activity. Inside: imsmanifest.xml, which
// names the lesson's one page as its one SCO, and index.html, the single file
// (single-file.js) with `data-scorm` set, so that its scorm-runtime.js reports completion,
// the answers and a suspend state through the platform's runtime API. SCORM 1.2 (every
// platform takes it) or 2004 4th edition (a suspend state of 64,000 characters instead of
// 4,096: room for the flock's exact moment). The schema files (.xsd) are left out: the
// platforms named read the manifest without them, and they would add ~200 KB.

import { escapeAttribute } from '../studio/studio-output.js';
import { lessonHtml } from './single-file.js';
import { zipFiles } from './zip.js';


/**
 * The package's identifier: the same lesson gives the same one, so a platform sees a
 * re-upload as an update. FNV-1a, 2 × 32 bits (crypto.subtle exists only on https pages,
 * and a school's studio may be served over plain http).
 */
function hashOf(text) {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    a = Math.imul(a ^ text.charCodeAt(i), 0x01000193) >>> 0;
    b = Math.imul(b ^ text.charCodeAt(i), 0x811c9dc5 | 1) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/**
 * What the two manifests differ in: the manifest's own version, the namespaces and their
 * schema files, the schema version, and the spelling of the SCO attribute (1.2 writes
 * `scormtype`, 2004 `scormType`).
 */
const MANIFEST = {
  '1.2': {
    manifestVersion: '1.0',
    cp: ['http://www.imsproject.org/xsd/imscp_rootv1p1p2', 'imscp_rootv1p1p2.xsd'],
    adlcp: ['http://www.adlnet.org/xsd/adlcp_rootv1p2', 'adlcp_rootv1p2.xsd'],
    schemaVersion: '1.2',
    scormType: 'adlcp:scormtype',
  },
  2004: {
    manifestVersion: '1',
    cp: ['http://www.imsglobal.org/xsd/imscp_v1p1', 'imscp_v1p1.xsd'],
    adlcp: ['http://www.adlnet.org/xsd/adlcp_v1p3', 'adlcp_v1p3.xsd'],
    schemaVersion: '2004 4th Edition',
    scormType: 'adlcp:scormType',
  },
};

/** The manifest of a one-page package, for SCORM `version` ('1.2' or '2004'). */
export function manifestOf({ title, version, identifier }) {
  const form = MANIFEST[version];
  if (!form) throw new RangeError(`scorm: version must be '1.2' or '2004', got ${JSON.stringify(version)}`);
  const { cp, adlcp } = form;
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${escapeAttribute(identifier)}" version="${form.manifestVersion}"
    xmlns="${cp[0]}"
    xmlns:adlcp="${adlcp[0]}"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="${cp[0]} ${cp[1]} ${adlcp[0]} ${adlcp[1]}">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>${form.schemaVersion}</schemaversion>
  </metadata>
  <organizations default="boids-org">
    <organization identifier="boids-org">
      <title>${escapeAttribute(title)}</title>
      <item identifier="boids-item" identifierref="boids-sco">
        <title>${escapeAttribute(title)}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="boids-sco" type="webcontent" ${form.scormType}="sco" href="index.html">
      <file href="index.html"/>
    </resource>
  </resources>
</manifest>
`;
}

/**
 * The package's bytes (a zip): `lesson` is { elementHtml, title, lang } as for the single
 * file, `bundleText` the lesson bundle, `version` '1.2' or '2004'.
 */
export async function scormPackage(lesson, bundleText, version = '1.2') {
  const identifier = `boids-${hashOf(lesson.elementHtml)}`;
  const manifest = manifestOf({ title: lesson.title, version, identifier });
  const page = lessonHtml({ ...lesson, bundleText, scorm: version });
  return zipFiles([
    { name: 'imsmanifest.xml', data: manifest },
    { name: 'index.html', data: page },
  ]);
}
