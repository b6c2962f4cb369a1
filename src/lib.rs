//! Boids: Craig Reynolds' flocking in Rust, compiled to WebAssembly and drawn with WebGL2.
//!
//! - [`sim`] is the model: flat arrays, a counting-sort grid, no web code.
//! - [`render`] owns the WebGL2 objects (wasm only) and the orbit camera, and draws a flock
//!   in one instanced call.
//! - `web` (wasm only) exports `Flock` and `View` to JavaScript; built with the `worker`
//!   feature, `Experiment` alone (the experiment worker's module, no drawing).

pub mod sim;
pub mod within;

#[cfg(not(feature = "worker"))]
pub mod render;
#[cfg(target_arch = "wasm32")]
pub mod web;
