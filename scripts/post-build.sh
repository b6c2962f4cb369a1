#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml). One hook running its steps in order, because Trunk
# starts all hooks of a stage at once, and a later step must not touch boids.js while the
# first compares it:
# 1. scripts/build-relaxed.sh: the relaxed-SIMD module beside boids_bg.wasm;
# 2. www/core/coi-sw.js, the full page's service worker (www/core/isolate.js), moves to the root: a
#    worker controls only the pages under its own folder, and index.html is at the root
#    (Trunk copies www/ whole; a `copy-file` link would add a line to index.html and leave a
#    second copy in www/);
# 3. release builds only: scripts/strip-comments.mjs takes the comment lines out of the
#    scripts a browser downloads (21 KB gzipped of the page's 211; `trunk serve` keeps them);
# 4. scripts/build-lesson-bundle.mjs: www/package/boids-lesson.js, the element and the wasm
#    in one module, for the lessons the studio downloads (issue 45);
# 5. release builds only: scripts/offline-manifest.mjs, the offline copy's file list and
#    version into coi-sw.js (`trunk serve`'s debug builds keep none: a page edited and rebuilt
#    is served fresh, not from a cache behind "A new version is ready").
set -euo pipefail
: "${TRUNK_STAGING_DIR:?run by trunk build or trunk serve, as the post_build hook in Trunk.toml}"
cd "${TRUNK_SOURCE_DIR:-$(dirname "${BASH_SOURCE[0]}")/..}"

bash scripts/build-relaxed.sh
bash scripts/build-worker.sh
mv "$TRUNK_STAGING_DIR/www/core/coi-sw.js" "$TRUNK_STAGING_DIR/coi-sw.js"
if [[ ${TRUNK_PROFILE:-debug} == release ]]; then
    node scripts/strip-comments.mjs "$TRUNK_STAGING_DIR"
fi
# The lesson bundle for the studio's downloads (single file, SCORM, H5P): last, from the
# files above as they ship.
node scripts/build-lesson-bundle.mjs "$TRUNK_STAGING_DIR"
# The offline copy's list and version, into the service worker: the very last step, after
# every step that writes a file (scripts/offline-manifest.mjs).
if [[ ${TRUNK_PROFILE:-debug} == release ]]; then
    node scripts/offline-manifest.mjs "$TRUNK_STAGING_DIR"
fi
