//! `BugSandbox` for JavaScript (issue 42, item 6): the textbook all-pairs step in a flat,
//! wrapped world of its own (`sim::sandbox`), never the student's flock, with one switch per
//! classic bug and the symptoms measured. In the experiment worker's module only (the
//! `worker` and `lab` features), loaded on demand by the lesson. Arguments are checked as
//! `SearchLab`'s are: a `TypeError` or `RangeError` naming the method, never a trap; the
//! sandbox's own guard keeps NaN out of everything it returns.

use js_sys::{Float32Array, Uint8Array};
use wasm_bindgen::prelude::*;

use super::args::{boolean, js_number, number, range_error};
use super::lab::{one_of, whole};
use crate::sim::sandbox::{self, Bug, Sandbox};

/// The longest `dt` one `step` takes, seconds (the sandbox steps at most a quarter second).
const MAX_DT: f64 = 1.0;

#[wasm_bindgen]
pub struct BugSandbox {
    sandbox: Sandbox,
}

#[wasm_bindgen]
impl BugSandbox {
    /// `count` boids (2 to 2,000) scattered by `seed` (a whole number, 0 to 2³² − 1).
    #[wasm_bindgen(constructor)]
    pub fn new(count: &JsValue, seed: &JsValue) -> Result<BugSandbox, JsValue> {
        const WHERE: &str = "new BugSandbox";
        let count = whole(
            WHERE,
            "count",
            count,
            sandbox::MIN_COUNT as f64,
            sandbox::MAX_COUNT as f64,
        )?;
        let seed = whole(WHERE, "seed", seed, 0.0, f64::from(u32::MAX))? as u32;
        Ok(BugSandbox {
            sandbox: Sandbox::new(count, seed),
        })
    }

    /// The bugs, in order: "self speed reversed order radius".
    pub fn bugs() -> String {
        Bug::ALL.map(Bug::name).join(" ")
    }

    /// The world's side (it wraps), the cruise speed, the perception and separation radii.
    pub fn world() -> Vec<f64> {
        [
            sandbox::WORLD,
            sandbox::CRUISE,
            sandbox::PERCEPTION,
            sandbox::SEPARATION_RADIUS,
        ]
        .map(f64::from)
        .to_vec()
    }

    /// Turns the bug named on or off (`true`/`false` or 1/0); off brings the lost back.
    #[wasm_bindgen(js_name = setBug)]
    pub fn set_bug(&mut self, name: &JsValue, on: &JsValue) -> Result<(), JsValue> {
        const WHERE: &str = "BugSandbox.setBug";
        let bug = bug_from(WHERE, name)?;
        let on = boolean(WHERE, "on", on)?;
        self.sandbox.set_bug(bug, on);
        Ok(())
    }

    /// Whether the bug named is on.
    pub fn bug(&self, name: &JsValue) -> Result<bool, JsValue> {
        Ok(self.sandbox.bug(bug_from("BugSandbox.bug", name)?))
    }

    /// Advances `dt` seconds (above 0, at most 1; the sandbox takes a quarter at most).
    pub fn step(&mut self, dt: &JsValue) -> Result<(), JsValue> {
        const WHERE: &str = "BugSandbox.step";
        let dt = number(WHERE, "dt", dt)?;
        if !dt.is_finite() || dt <= 0.0 || dt > MAX_DT {
            return Err(range_error(
                WHERE,
                // js_number, not `{dt}`: Rust's float formatting weighs kilobytes in the module.
                &format!(
                    "dt must be above 0 and at most {} seconds, got {}",
                    js_number(MAX_DT),
                    js_number(dt)
                ),
            ));
        }
        self.sandbox.step(dt as f32);
        Ok(())
    }

    /// Positions, x y per boid (always finite: a lost boid's is where it was lost).
    pub fn positions(&self) -> Float32Array {
        let flat: Vec<f32> = self.sandbox.positions().flatten().collect();
        Float32Array::from(&flat[..])
    }

    /// Velocities, x y per boid (a lost boid's is zero).
    pub fn velocities(&self) -> Float32Array {
        let flat: Vec<f32> = self.sandbox.velocities().flatten().collect();
        Float32Array::from(&flat[..])
    }

    /// 1 for each boid lost to NaN, else 0.
    pub fn lost(&self) -> Uint8Array {
        let flags: Vec<u8> = self.sandbox.lost().iter().map(|&l| u8::from(l)).collect();
        Uint8Array::from(&flags[..])
    }

    /// The symptoms now: [lost, mean speed ÷ cruise, median nearest ÷ separation radius,
    /// polarization, distance checks and neighbours heeded in the last step].
    pub fn symptoms(&self) -> Vec<f64> {
        let s = self.sandbox.symptoms();
        vec![
            s.lost as f64,
            f64::from(s.speed),
            f64::from(s.nearest),
            f64::from(s.polarization),
            s.checks as f64,
            s.neighbours as f64,
        ]
    }

    /// Boids in the sandbox.
    pub fn count(&self) -> usize {
        self.sandbox.len()
    }
}

fn bug_from(method: &str, value: &JsValue) -> Result<Bug, JsValue> {
    one_of(method, "name", value, &BugSandbox::bugs(), Bug::from_name)
}
