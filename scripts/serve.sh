#!/usr/bin/env bash
# Builds the boids demo and serves it on http://127.0.0.1:8080 (trunk serve, rebuilds on
# change). Installs missing tools first (scripts/setup.sh). Extra arguments go to trunk,
# e.g. `bash scripts/serve.sh --release`; BOIDS_PORT picks another port. Every response
# carries COOP and COEP (Trunk.toml's [serve] headers): the page is cross-origin isolated, as
# threads need (docs/page.md).
#
# No autoreload: Trunk's live-reload script is inline, which the page's own Content Security
# Policy (`script-src 'self'`) refuses, so every load showed a CSP error in the console
# (issue 41; tests/browser/serve.test.mjs checks the served page's console). Reload by hand
# after a change.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# shellcheck source=scripts/setup.sh
source scripts/setup.sh

port="${BOIDS_PORT:-8080}"
echo "==> trunk serve on http://127.0.0.1:$port (Ctrl-C stops it)"
exec trunk serve --offline --no-autoreload --address 127.0.0.1 --port "$port" "$@"
