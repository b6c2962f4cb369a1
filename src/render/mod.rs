//! Drawing the flock: the orbit camera (plain glam, tested natively) and the WebGL2
//! renderer (glow, wasm only) that draws every boid in one instanced call; the instruments
//! (a selected boid's overlay, trails, colour modes) as plain Rust tested natively, drawn
//! by `overlay_gl` (wasm only).

mod camera;
pub mod colour;
#[cfg(target_arch = "wasm32")]
mod gl_util;
pub mod instruments;
pub mod legend;
pub mod mesh;
pub mod overlay;
#[cfg(target_arch = "wasm32")]
mod overlay_gl;
#[cfg(target_arch = "wasm32")]
mod renderer;
pub mod shapes;
pub mod trails;

pub use camera::{CameraFrame, Framing, OrbitCamera};
#[cfg(target_arch = "wasm32")]
pub use renderer::*;
