#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml): builds the crate a second time with relaxed SIMD, to
# boids_relaxed_bg.wasm, and ships it as boids_relaxed_bg.wasm.patch, a patch to Trunk's
# boids_bg.wasm. In that build the neighbour scan's multiply-adds are single
# `f32x4.relaxed_madd` instructions, which V8 turns into fused multiply-adds (about 5 % off the
# step). Browsers that validate relaxed SIMD patch and load it (Chrome and Edge since 114); the
# others load boids_bg.wasm, which needs only SIMD128: www/core/wasm-load.js picks one. Both are
# driven by Trunk's boids.js, so this checks that the bindings wasm-bindgen writes for the
# relaxed module are that very file.
set -euo pipefail
: "${TRUNK_STAGING_DIR:?run by trunk build or trunk serve, as the post_build hook in Trunk.toml}"
cd "${TRUNK_SOURCE_DIR:-$(dirname "${BASH_SOURCE[0]}")/..}"

profile="${TRUNK_PROFILE:-debug}"
# shellcheck source=scripts/relaxed-env.sh
source scripts/relaxed-env.sh
target_dir="$CARGO_TARGET_DIR"
cargo_args=(build --lib --target wasm32-unknown-unknown --locked)
if [[ $profile == release ]]; then
    cargo_args+=(--release)
fi

echo "==> relaxed-SIMD module ($profile): cargo ${cargo_args[*]}"
cargo "${cargo_args[@]}"

# The same options as Trunk's own wasm-bindgen call, so that the bindings come out the same.
bindgen_out="$target_dir/bindgen/$profile"
wasm-bindgen --target=web --out-dir="$bindgen_out" --out-name=boids --no-typescript \
    "$target_dir/wasm32-unknown-unknown/$profile/boids.wasm"
if ! cmp -s "$bindgen_out/boids.js" "$TRUNK_STAGING_DIR/boids.js"; then
    echo "error: the relaxed-SIMD module's bindings differ from Trunk's boids.js;" \
        "boids_bg.wasm and boids_relaxed_bg.wasm can no longer share it" >&2
    diff "$bindgen_out/boids.js" "$TRUNK_STAGING_DIR/boids.js" | head -20 >&2 || true
    exit 1
fi

wasm="$bindgen_out/boids_bg.wasm"
if [[ $profile == release ]]; then
    # As Trunk runs wasm-opt for boids_bg.wasm (data-wasm-opt="3" in index.html).
    wasm-opt -O3 --enable-relaxed-simd --output="$bindgen_out/boids_relaxed_bg.wasm" "$wasm"
    wasm="$bindgen_out/boids_relaxed_bg.wasm"
fi
# Flags that never reached rustc would leave a plain SIMD128 module under the relaxed name.
fused=$(wasm-dis "$wasm" | grep -c 'relaxed_madd' || true)
if ((fused == 0)); then
    echo "error: $wasm has no f32x4.relaxed_madd: relaxed SIMD was not enabled" >&2
    exit 1
fi
echo "==> boids_relaxed_bg.wasm: $fused fused multiply-adds"
# Shipped as a patch to boids_bg.wasm (the two differ in a few functions): a few KB, where the
# module is 126 KB gzipped. www/core/wasm-patch.js applies it in the page; the script checks that
# it gives back this very module before writing it.
patch="$TRUNK_STAGING_DIR/boids_relaxed_bg.wasm.patch"
rm -f "$patch"
node scripts/wasm-patch.mjs "$TRUNK_STAGING_DIR/boids_bg.wasm" "$wasm" "$patch"
[[ -s $patch ]] || { echo "error: scripts/wasm-patch.mjs wrote no $patch" >&2; exit 1; }
