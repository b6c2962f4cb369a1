#!/usr/bin/env bash
# Builds the experiment worker's module (www/experiment/experiment-worker.js): the crate with the
# `worker` feature (the simulation and `Experiment`, no drawing), bound as boids_worker.js +
# boids_worker_bg.wasm beside Trunk's boids.js. Its own module, so the page's carries none of
# the experiment's code: a page downloads it only when an experiment starts.
# Run by scripts/post-build.sh (Trunk's post_build hook), in its own target directory.
set -euo pipefail
: "${TRUNK_STAGING_DIR:?run by trunk build or trunk serve, as the post_build hook in Trunk.toml}"
cd "${TRUNK_SOURCE_DIR:-$(dirname "${BASH_SOURCE[0]}")/..}"

profile="${TRUNK_PROFILE:-debug}"
target_dir="${BOIDS_WORKER_TARGET_DIR:-$PWD/target/worker}"
cargo_args=(build --lib --target wasm32-unknown-unknown --locked --features worker,lab)
if [[ $profile == release ]]; then
    cargo_args+=(--release)
fi

echo "==> experiment worker's module ($profile): cargo ${cargo_args[*]}"
CARGO_TARGET_DIR="$target_dir" cargo "${cargo_args[@]}"

bindgen_out="$target_dir/bindgen/$profile"
wasm-bindgen --target=web --out-dir="$bindgen_out" --out-name=boids_worker --no-typescript \
    "$target_dir/wasm32-unknown-unknown/$profile/boids.wasm"
wasm="$bindgen_out/boids_worker_bg.wasm"
if [[ $profile == release ]]; then
    # As Trunk runs wasm-opt for boids_bg.wasm (data-wasm-opt="3" in index.html).
    wasm-opt -O3 --output="$bindgen_out/boids_worker_opt.wasm" "$wasm"
    wasm="$bindgen_out/boids_worker_opt.wasm"
fi
if grep -qE 'class View|WebGl2' "$bindgen_out/boids_worker.js"; then
    echo "error: boids_worker.js binds the page's View or WebGL: the worker feature leaks" >&2
    exit 1
fi
cp "$bindgen_out/boids_worker.js" "$TRUNK_STAGING_DIR/boids_worker.js"
cp "$wasm" "$TRUNK_STAGING_DIR/boids_worker_bg.wasm"
echo "==> boids_worker_bg.wasm: $(wc -c < "$TRUNK_STAGING_DIR/boids_worker_bg.wasm") bytes"
