//! The JavaScript face of the crate: `Flock` (the simulation), `View` (the renderer) and
//! `Experiment` (a sweep, run in a worker by `www/experiment/experiment-worker.js`).
//!
//! No exported function or method traps the module, whatever JavaScript passes: every
//! argument's type is checked in Rust (`args`), and an object used after `free()` throws a
//! `TypeError` (`harden.js`). Should a panic still happen (a bug), its message is kept for
//! `takePanic()`, so that whoever catches the trap can show it.

// The worker's module (`worker` feature) reads only an experiment's spec with these.
#[cfg_attr(feature = "worker", allow(dead_code))]
mod args;
#[cfg(feature = "worker")]
mod experiment;
#[cfg(not(feature = "worker"))]
mod flock;
#[cfg(not(feature = "worker"))]
mod inspector;
#[cfg(not(feature = "worker"))]
mod instruments;
// The algorithm lab (issue 42): the searches' flock and the classic bugs' sandbox, in the
// worker's module with the `lab` feature.
#[cfg(all(feature = "worker", feature = "lab"))]
mod lab;
// Real flocks (issue 43): a recording played through the page's flock, and the measures
// both are compared by.
#[cfg(all(feature = "worker", feature = "lab"))]
mod fit;
#[cfg(all(feature = "worker", feature = "lab"))]
mod replay;
#[cfg(all(feature = "worker", feature = "lab"))]
mod sandbox;
#[cfg(not(feature = "worker"))]
mod share;
#[cfg(not(feature = "worker"))]
mod view;

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

#[cfg(feature = "worker")]
pub use experiment::Experiment;
#[cfg(all(feature = "worker", feature = "lab"))]
pub use fit::Fit;
#[cfg(not(feature = "worker"))]
pub use flock::Flock;
#[cfg(all(feature = "worker", feature = "lab"))]
pub use lab::SearchLab;
#[cfg(all(feature = "worker", feature = "lab"))]
pub use replay::{nature_profile, Replay};
#[cfg(all(feature = "worker", feature = "lab"))]
pub use sandbox::BugSandbox;
#[cfg(not(feature = "worker"))]
pub use share::FlockShare;
#[cfg(not(feature = "worker"))]
pub use view::View;

#[cfg(not(feature = "worker"))]
#[wasm_bindgen(module = "/src/web/harden.js")]
extern "C" {
    /// Hardens what wasm-bindgen's code checks before Rust is reached (see harden.js): a
    /// freed `Flock` or `View`, and a `View` method given something else than a `Flock`,
    /// throw a `TypeError` that says so. Takes a placeholder of each class and frees them.
    fn harden(flock: JsValue, view: JsValue, take_a_flock: &str);
}

thread_local! {
    /// The message of the latest panic not yet taken by `takePanic()`.
    static PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs once when the module is instantiated: Rust panics reach the console with their
/// message and are kept for `takePanic()`; see `harden` for the rest.
#[cfg(not(feature = "worker"))]
#[wasm_bindgen(start)]
pub fn start() {
    keep_panics();
    harden(
        Flock::placeholder().into(),
        View::placeholder().into(),
        view::TAKE_A_FLOCK,
    );
}

/// The worker's module: panics kept for `takePanic()`, as in the page's.
#[cfg(feature = "worker")]
#[wasm_bindgen(start)]
pub fn start() {
    keep_panics();
}

/// Sets the panic hook: the message goes to `console.error` (with a stack) and is kept for
/// `takePanic()`.
pub fn keep_panics() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        // `try_with`, `try_borrow_mut`: a panic while the message is being kept keeps nothing.
        let _ = PANIC.try_with(|panic| {
            if let Ok(mut panic) = panic.try_borrow_mut() {
                *panic = Some(message);
            }
        });
        console_error_panic_hook::hook(info);
    }));
}

/// The message of the last Rust panic in this module (`"panicked at …"`), once: `undefined`
/// when there was none since the last call. A panic traps the call it happened in (a
/// `WebAssembly.RuntimeError`, "unreachable"); catch that, then ask this for the reason.
#[wasm_bindgen(js_name = takePanic)]
pub fn take_panic() -> Option<String> {
    PANIC
        .try_with(|panic| panic.try_borrow_mut().ok()?.take())
        .ok()
        .flatten()
}

/// The crate's version (`Cargo.toml`), as `BoidsFlock.version` and the page's footer show it:
/// the version of the module that actually runs, not of whatever page loaded it.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
