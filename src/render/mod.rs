//! Drawing the flock: the orbit camera (plain glam, tested natively) and the WebGL2
//! renderer (glow, wasm only) that draws every boid in one instanced call.

mod camera;
#[cfg(target_arch = "wasm32")]
mod mesh;
#[cfg(target_arch = "wasm32")]
mod renderer;

pub use camera::{CameraFrame, OrbitCamera};
#[cfg(target_arch = "wasm32")]
pub use renderer::*;
