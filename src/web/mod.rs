//! The JavaScript face of the crate: `Flock` (the simulation) and `View` (the renderer).

mod flock;
mod view;

use wasm_bindgen::prelude::*;

pub use flock::Flock;
pub use view::View;

/// Runs once when the module is instantiated: Rust panics reach the console with their message.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}
