#!/usr/bin/env bash
# Profiles the wasm step down to V8's machine instructions: Linux `perf` samples headless
# Chromium (the browser the benchmark times) running the module's benchmarkStep on the
# standard scenario; V8's `--perf-prof` writes its code for perf to read. Prints the
# functions by share of the time, then the hottest one's code. NODE=1 profiles Node instead:
# Node 20's older V8 compiles the scan differently (the settled defaults took 7.8 ms a step
# there, 4.65 in Chromium), so its profile can mislead.
# Not part of test.sh; needs `perf` (Debian: linux-perf).
#
#   bash scripts/profile-wasm.sh            # 10,000 boids
#   bash scripts/profile-wasm.sh 100000
#   SYMBOL=append_slab bash scripts/profile-wasm.sh   # annotate another function
#   RELAXED=1 bash scripts/profile-wasm.sh            # the relaxed-SIMD build (build-relaxed.sh)
#   SCENARIO=1 bash scripts/profile-wasm.sh           # a settled scenario (benchmarkScenario:
#                                                     # 0 standard, 1 defaults, 2… the presets)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
count="${1:-10000}"

command -v perf >/dev/null || { echo "perf is missing: apt-get install linux-perf" >&2; exit 1; }
# shellcheck source=scripts/setup.sh
source scripts/setup.sh

out=target/profile-wasm
mkdir -p "$out"
target_dir=target
node_flags=()
if [[ -n "${RELAXED:-}" ]]; then
  # As scripts/build-relaxed.sh builds it; Node 20 has relaxed SIMD behind a flag.
  # shellcheck source=scripts/relaxed-env.sh
  source scripts/relaxed-env.sh
  target_dir="$CARGO_TARGET_DIR"
  node_flags=(--experimental-wasm-relaxed-simd)
fi
cargo build --lib --target wasm32-unknown-unknown --release
# --keep-debug: function names in the profile.
wasm-bindgen --target web --keep-debug --out-dir "$out" --out-name boids \
  "$target_dir/wasm32-unknown-unknown/release/boids.wasm"

# The generated module is an ES module: say so, or Node warns and parses it twice.
echo '{ "type": "module" }' >"$out/package.json"
# What runs: the benchmark, where V8 tiers it up and then runs it long enough to sample.
cat >"$out/bench.js" <<'EOF'
// A settled scenario's 1,200 steps of settling are sampled too: the same code, its flock
// still gathering.
export function bench(boids, count, scenario) {
  boids.benchmarkStep(count, 100, 20); // let V8 tier the code up before the long run
  const ms = scenario === ''
    ? boids.benchmarkStep(count, 100, 600)
    : boids.benchmarkScenario(Number(scenario), count, 1200, 600)[0];
  return `${count} boids: ${ms.toFixed(3)} ms/step (slowed by the sampling)`;
}
EOF
if [[ -n "${NODE:-}" ]]; then
  cat >"$out/run.mjs" <<'EOF'
// Node has no window: benchmarkStep only needs performance.now().
globalThis.window = globalThis;
globalThis.Window = Object;
import { readFileSync } from 'node:fs';
import { bench } from './bench.js';
const dir = new URL('.', import.meta.url);
const boids = await import(new URL('boids.js', dir));
boids.initSync({ module: readFileSync(new URL('boids_bg.wasm', dir)) });
console.log(bench(boids, Number(process.argv[2]), process.argv[3]));
EOF
  run=(node "${node_flags[@]}" --perf-prof --no-write-protect-code-memory run.mjs)
else
  cat >"$out/run.mjs" <<'EOF'
// Headless Chromium with V8's perf map on; perf follows its processes from this one. Its
// renderer writes jit-<pid>.dump into this folder (the working directory).
import { chromium } from 'playwright-core';
import { chromiumPath, serve } from '../../tests/browser/helpers.mjs';
const dir = new URL('.', import.meta.url).pathname;
const server = await serve({ root: dir.replace(/\/$/, ''), pages: { '/': '<!doctype html><title>profile</title>' } });
const browser = await chromium.launch({
  executablePath: chromiumPath(),
  headless: true,
  args: ['--no-sandbox', '--js-flags=--perf-prof --no-write-protect-code-memory'],
});
try {
  const page = await browser.newPage();
  await page.goto(server.url);
  console.log(await page.evaluate(async ([count, scenario]) => {
    const boids = await import('/boids.js');
    await boids.default({ module_or_path: '/boids_bg.wasm' });
    const { bench } = await import('/bench.js');
    return bench(boids, count, scenario);
  }, [Number(process.argv[2]), process.argv[3]]));
} finally {
  await browser.close();
  await server.close();
}
EOF
  run=(node run.mjs)
fi

cd "$out"
rm -f perf.data perf.jit.data jit-*.dump jitted-*.so isolate-*.log
perf record -q -e cpu-clock -F 10000 -k 1 -o perf.data "${run[@]}" "$count" "${SCENARIO:-}"
perf inject --jit -i perf.data -o perf.jit.data
perf report -i perf.jit.data --sort sym --stdio 2>/dev/null >report.txt
grep -v '^#' report.txt | grep . | head -15 || true
# V8's optimised code ("turbofan"), not its first, baseline compile ("liftoff").
symbol=$(grep -o "JS:[^ ]*${SYMBOL:-look_around_fast}[^ ]*turbofan" report.txt | head -1 || true)
[ -n "$symbol" ] || { echo "no optimised function matches ${SYMBOL:-look_around_fast}" >&2; exit 1; }
echo "==> instructions of ${symbol} with at least 0.5 % of its samples"
perf annotate -i perf.jit.data --stdio -s "$symbol" 2>/dev/null >annotate.txt
awk -F: '$1 + 0 >= 0.5' annotate.txt | head -60 || true
