#!/usr/bin/env bash
# Benchmarks the simulation step: natively (`cargo bench --bench step`) and as wasm in
# headless Chromium (the module's own benchmarkStep, timed inside wasm). Not part of test.sh.
#
#   bash scripts/bench.sh            # native + wasm
#   BENCH_COUNTS=1000,10000 bash scripts/bench.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# shellcheck source=scripts/setup.sh
source scripts/setup.sh

echo "==> native: cargo bench --bench step"
cargo bench --bench step

echo "==> wasm: trunk build --release --offline"
trunk build --release --offline

echo "==> wasm: benchmarkStep in headless Chromium"
node scripts/bench-wasm.mjs
