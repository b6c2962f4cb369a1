#!/usr/bin/env bash
# Builds the boids demo and serves it on http://127.0.0.1:8080 (trunk serve, rebuilds on
# change). Installs missing tools first (scripts/setup.sh). Extra arguments go to trunk,
# e.g. `bash scripts/serve.sh --release`. Every response carries COOP and COEP (Trunk.toml's
# [serve] headers): the page is cross-origin isolated, as threads need (docs/page.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# shellcheck source=scripts/setup.sh
source scripts/setup.sh

echo "==> trunk serve on http://127.0.0.1:8080 (Ctrl-C stops it)"
exec trunk serve --offline --address 127.0.0.1 --port 8080 "$@"
