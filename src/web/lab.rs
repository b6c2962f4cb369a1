//! `SearchLab` for JavaScript (issue 42): a flock of the standard scenario whose neighbours
//! are found by the method named (`grid`, `naive`, `morton`: `sim::search`), stepped on
//! demand, with the last step's distance checks and neighbours. In the experiment worker's
//! module only (the `worker` and `lab` features: it loads on demand, never with the page),
//! for the cost curve (`scripts/bench-search.mjs`, tests/browser/search-lab.test.mjs): the
//! caller times `step` (the step is wholly in wasm). Arguments are checked here, as
//! `args.rs` does for `Flock`: a `TypeError` or `RangeError` naming the method, never a trap.

use wasm_bindgen::prelude::*;

use super::args::{js_number, number, range_error, string, type_error};
use crate::sim::search::SearchMethod;
use crate::sim::{Flock, BENCH_DT};

/// The fewest and most boids a lab flock holds: the count slider's range.
const MIN_BOIDS: f64 = 50.0;
const MAX_BOIDS: f64 = 100_000.0;
/// The most steps one `step` call takes (about a second of flock time).
const MAX_STEPS: f64 = 600.0;

/// A flock of the standard scenario, searched by one method.
#[wasm_bindgen]
pub struct SearchLab {
    flock: Flock,
}

/// `value` as a whole number from `min` to `max`, else a `TypeError` or `RangeError`.
pub(super) fn whole(
    method: &str,
    name: &'static str,
    value: &JsValue,
    min: f64,
    max: f64,
) -> Result<usize, JsValue> {
    // Not `args::finite`: its message reads the parameter table, which this module has not.
    let n = number(method, name, value)?;
    if !n.is_finite() || n.fract() != 0.0 || n < min || n > max {
        let (min, max, n) = (js_number(min), js_number(max), js_number(n));
        return Err(range_error(
            method,
            &format!("{name} must be a whole number from {min} to {max}, got {n}"),
        ));
    }
    Ok(n as usize)
}

#[wasm_bindgen]
impl SearchLab {
    /// `count` boids of the standard scenario (`shared/bench-scenario.md`, seed 42), their
    /// neighbours found by `method` ("grid", "naive" or "morton").
    #[wasm_bindgen(constructor)]
    pub fn new(count: &JsValue, method: &JsValue) -> Result<SearchLab, JsValue> {
        const WHERE: &str = "new SearchLab";
        let count = whole(WHERE, "count", count, MIN_BOIDS, MAX_BOIDS)?;
        let method = method_from(WHERE, method)?;
        let mut flock = Flock::bench_scenario(count);
        flock.set_search_method(method);
        Ok(SearchLab { flock })
    }

    /// The methods, in order: "grid naive morton".
    pub fn methods() -> String {
        SearchMethod::ALL.map(SearchMethod::name).join(" ")
    }

    /// Finds neighbours by `method` from the next step on.
    #[wasm_bindgen(js_name = setMethod)]
    pub fn set_method(&mut self, method: &JsValue) -> Result<(), JsValue> {
        self.flock
            .set_search_method(method_from("SearchLab.setMethod", method)?);
        Ok(())
    }

    /// Steps the flock `steps` times (1 to 600), the standard scenario's step each.
    pub fn step(&mut self, steps: &JsValue) -> Result<(), JsValue> {
        let steps = whole("SearchLab.step", "steps", steps, 1.0, MAX_STEPS)?;
        for _ in 0..steps {
            self.flock.step(BENCH_DT);
        }
        Ok(())
    }

    /// The last step's search: [distance checks, neighbours kept], over every boid.
    pub fn stats(&self) -> Vec<f64> {
        let totals = self.flock.search_stats();
        vec![totals.examined as f64, totals.neighbours as f64]
    }

    /// Boids in the flock.
    pub fn count(&self) -> usize {
        self.flock.len()
    }
}

fn method_from(method: &str, value: &JsValue) -> Result<SearchMethod, JsValue> {
    one_of(
        method,
        "method",
        value,
        &SearchLab::methods(),
        SearchMethod::from_name,
    )
}

/// `value` as one of the space-separated `names`, read by `from_name`; else a `TypeError`
/// (not a string) or a `RangeError` that lists them.
pub(super) fn one_of<T>(
    method: &str,
    name: &str,
    value: &JsValue,
    names: &str,
    from_name: impl Fn(&str) -> Option<T>,
) -> Result<T, JsValue> {
    if !value.is_string() {
        return Err(type_error(method, name, "a string", value));
    }
    let text = string(method, name, value, 16)?;
    from_name(&text).ok_or_else(|| {
        range_error(
            method,
            &format!(
                "{name} must be one of {}, got \"{text}\"",
                names.replace(' ', ", ")
            ),
        )
    })
}
