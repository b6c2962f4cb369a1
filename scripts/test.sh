#!/usr/bin/env bash
# Runs every test of the boids demo, failing fast:
#   fmt, clippy (native + wasm), native tests, wasm tests in headless Chromium (both
#   builds: SIMD128 and relaxed SIMD),
#   trunk release build (with the relaxed-SIMD patch and the experiment worker's module),
#   browser tests of dist/ (playwright-core + Debian chromium), among
#   them the npm package's (scripts/package.sh) and the iframe bridge's; the same page, embeds,
#   iframe, lessons and instruments in Firefox ESR and WebKitGTK (tests/engines/, under
#   xvfb-run); and the CI workflow's lint (scripts/lint-workflows.sh).
# Installs missing tools first (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Blessing rewrites README.md's parameter table to whatever the code says (tests/docs.rs):
# for a person at a checkout, never part of a run that is meant to check it.
unset BOIDS_BLESS

start=$SECONDS
# shellcheck source=scripts/setup.sh
source scripts/setup.sh

step() { printf '\n==> [%ds] %s\n' "$((SECONDS - start))" "$*"; }

step "lint the CI workflow (scripts/lint-workflows.sh)"
bash scripts/lint-workflows.sh

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (native, all targets)"
cargo clippy --all-targets -- -D warnings

step "cargo clippy (wasm32, all targets)"
cargo clippy --target wasm32-unknown-unknown --all-targets -- -D warnings

step "cargo clippy (wasm32, the experiment worker's module: --features worker,lab)"
cargo clippy --target wasm32-unknown-unknown --lib --features worker,lab -- -D warnings

step "cargo clippy (wasm32, relaxed-SIMD build)"
(
    # shellcheck source=scripts/relaxed-env.sh
    source scripts/relaxed-env.sh
    cargo clippy --target wasm32-unknown-unknown --all-targets -- -D warnings
)

step "cargo test (native)"
cargo test

step "cargo test --target wasm32-unknown-unknown --test web --test trajectory --test snapshot --test parts (headless Chromium)"
# .cargo/config.toml makes wasm-bindgen-test-runner the runner; webdriver.json holds
# Chromium's flags. chromedriver gives every session a fresh temporary profile.
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-120}"
cargo test --target wasm32-unknown-unknown --test web --test trajectory --test snapshot --test parts

step "the same wasm tests, relaxed-SIMD build (as scripts/build-relaxed.sh builds it)"
(
    # shellcheck source=scripts/relaxed-env.sh
    source scripts/relaxed-env.sh
    cargo test --target wasm32-unknown-unknown --test web --test trajectory --test parts
)

step "trunk build --release --offline"
trunk build --release --offline

step "browser tests of dist/ (node --test tests/browser/)"
node --test --test-concurrency=1 tests/browser/

step "Firefox and WebKit: the page, embeds, the iframe, lessons, instruments (tests/engines/, under xvfb-run)"
# Both engines draw WebGL2 only with an X display (headless Firefox refuses WebGL2, and
# WebKitGTK's MiniBrowser does not start): Xvfb gives them one. One engine at a time.
xvfb-run -a -s "-screen 0 1600x1000x24" node --test --test-concurrency=1 tests/engines/

step "all tests passed in $((SECONDS - start)) s"
