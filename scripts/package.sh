#!/usr/bin/env bash
# Builds the npm package of the release build: target/npm/boids-flock-<version>.tgz.
#
#   bash scripts/package.sh              # trunk build --release, then pack
#   bash scripts/package.sh --no-build   # pack the dist/ that is there (scripts/test.sh does)
#
# The package is dist/'s files for the element, the iframe form and the full page (the
# bindings, both wasm builds, www/, embed.html, index.html) plus npm/'s package.json, README.md
# and LICENSE, and CHANGELOG.md. Its version must be Cargo.toml's, and CHANGELOG.md must have
# an entry for it: the script stops otherwise (bump all three together). Nothing is published
# from here; CI publishes this very tarball on a tag (.github/workflows/ci.yml).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build=1
case "${1:-}" in
    --no-build) build=0 ;;
    "") ;;
    *) echo "usage: bash scripts/package.sh [--no-build]" >&2; exit 2 ;;
esac

if ((build)); then
    # shellcheck source=scripts/setup.sh
    source scripts/setup.sh
    echo "==> trunk build --release --offline"
    trunk build --release --offline
fi

version="$(awk -F'"' '/^version = / { print $2; exit }' Cargo.toml)"
npm_version="$(node -p 'require("./npm/package.json").version')"
name="$(node -p 'require("./npm/package.json").name')"
if [[ "$npm_version" != "$version" ]]; then
    echo "error: npm/package.json has version $npm_version, Cargo.toml $version: bump them together" >&2
    exit 1
fi
if ! grep -q "^## \[\?$version\]\?\b" CHANGELOG.md; then
    echo "error: CHANGELOG.md has no entry \"## $version\"" >&2
    exit 1
fi

# The files a page loads, and nothing else: no source maps, tests, examples or editor leftovers.
# coi-sw.js: the full page's service worker on hosts that send no isolation headers
# (www/core/isolate.js), beside index.html, whose folder it must control.
required=(boids.js boids_bg.wasm boids_relaxed_bg.wasm.patch boids_worker.js boids_worker_bg.wasm www/boids-embed.js www/embed-bridge.js embed.html index.html coi-sw.js)
for file in "${required[@]}"; do
    [[ -f "dist/$file" ]] || { echo "error: dist/$file is missing: run trunk build --release first" >&2; exit 1; }
done
if grep -rq --include='*.js' 'sourceMappingURL' dist/boids.js dist/www; then
    echo "error: dist/ has source-map references; the package ships release files only" >&2
    exit 1
fi

out=target/npm
stage="$out/$name"
rm -rf "$stage"
mkdir -p "$stage"
cp dist/boids.js dist/boids_bg.wasm dist/boids_relaxed_bg.wasm.patch dist/boids_worker.js dist/boids_worker_bg.wasm dist/embed.html dist/index.html dist/coi-sw.js "$stage/"
cp -r dist/snippets "$stage/"
# Only the www/ files the pages use, by name pattern: js, css and the icon (no *.map, no *~),
# in their folders (www/core/, www/panel/, ...: every subfolder, however deep). Not the
# algorithm lab (www/lab/, www/i18n/lab-*.js) nor real flocks (www/nature/, www/data/,
# www/i18n/nature-*.js), nor the studio's downloads (www/package/, www/lesson-bundle.js: the
# lesson bundle alone is ~300 KB gzipped, for a teacher's studio, not a page), nor what only they share (www/core/worker-module.js,
# www/i18n/feature-words.js): only their lessons load them, and the lessons (examples/) are
# not in the package.
(cd dist && find www -type f \( -name '*.js' -o -name '*.css' -o -name '*.svg' \) \
    -not -path 'www/lab/*' -not -name 'lab-*.js' -not -path 'www/nature/*' -not -name 'nature-*.js' \
    -not -name 'worker-module.js' -not -name 'feature-words.js' \
    -not -path 'www/package/*' -not -name 'lesson-bundle.js' -print0) |
    while IFS= read -r -d '' file; do
        mkdir -p "$stage/$(dirname "$file")"
        cp "dist/$file" "$stage/$file"
    done
# The worker's offline list named all of dist/: the package's page precaches the package's files.
node scripts/offline-manifest.mjs "$stage" --again
cp npm/package.json npm/README.md npm/LICENSE CHANGELOG.md "$stage/"

echo "==> npm pack $stage -> $out/"
rm -f "$out/$name-$version.tgz"
(cd "$stage" && npm pack --pack-destination .. --silent >/dev/null)
tarball="$out/$name-$version.tgz"
[[ -f "$tarball" ]] || { echo "error: npm pack wrote no $tarball" >&2; exit 1; }
echo "==> $tarball: $(stat -c %s "$tarball") bytes, $(tar -tzf "$tarball" | wc -l) files"
