# shellcheck shell=bash
# The relaxed-SIMD build's settings, for scripts to source (build-relaxed.sh, test.sh,
# profile-wasm.sh): the relaxed-simd target feature on top of .cargo/config.toml's simd128,
# and a target directory of its own (other flags would rebuild the main build's artifacts).
export CARGO_TARGET_DIR=target/relaxed
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128,+relaxed-simd"
