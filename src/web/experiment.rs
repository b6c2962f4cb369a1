//! `Experiment` for JavaScript (issue 26): a thin wrapper over [`Runner`], driven by
//! `www/experiment/experiment-worker.js` a chunk of steps at a time; and the experiment's
//! contract for the page's own thread (issue 41), which loads this module too
//! (`www/experiment/runner.js`): `Experiment.contract` (the spec read and checked, its print
//! and JSON; or the CSV of rows), `Experiment.limits` and `Experiment.fields`. Every rule is
//! the core's (`crate::sim::experiment`: one reader, one print, one CSV writer, the native
//! runner's too); this file only says how a JavaScript value is read (`Js`) and made. A refusal
//! is a `TypeError` or `RangeError` with the core's message, which names the field; no float
//! is printed here (numbers are written by the engine, `args::js_number`). The worker's module
//! is held to a size (tests/browser/embed-size.test.mjs): each export costs its glue, which is
//! why the contract is one call.

use std::cell::RefCell;

use js_sys::{Array, JsString, Object, RangeError, Reflect, TypeError};
use wasm_bindgen::prelude::*;

use super::args::{js_number, number, optional_number};
use crate::sim::experiment::{
    min_count, pack_rows, read, spec_json, write_packed_csv, ErrorKind, Runner, Source, Spec,
    SpecError, Value, FIELD_LIST, MAX_CELLS, MAX_COUNT, MAX_POINT_SECONDS, MAX_SEEDS, MAX_VALUES,
    ROW_NUMBERS, STEPS_PER_SECOND,
};

/// An experiment under way: `new Experiment(spec)`, then `advance(steps)` until it says
/// true; `rows(from)` gives the rows measured so far.
#[wasm_bindgen]
pub struct Experiment {
    runner: Runner,
}

thread_local! {
    /// The first error a read threw (a getter, a proxy), kept until the reader is done.
    static THROWN: RefCell<Option<JsValue>> = const { RefCell::new(None) };
}

/// The error JavaScript sees for a refused spec: a `TypeError` or `RangeError` with the core's
/// message, which names the field ("count: must be 2 to 20000 boids"; `runner.js` puts
/// the name of the function called before it).
#[inline(never)]
fn refused(error: SpecError) -> JsValue {
    match error.kind {
        ErrorKind::Type => TypeError::new(&error.message).into(),
        ErrorKind::Range => RangeError::new(&error.message).into(),
    }
}

/// A JavaScript value, read for `read`. Only `typeof`, `Array.isArray`, own keys and property
/// reads are asked of it (no `valueOf` or `toString` of the caller's); a read that throws
/// gives `undefined` and its error is kept (`THROWN`), for `spec_from` to throw.
struct Js(JsValue);

/// The value read, or `undefined` with the error kept.
#[inline(never)]
fn kept(read: Result<JsValue, JsValue>) -> Js {
    Js(read.unwrap_or_else(|error| {
        THROWN.with(|thrown| {
            thrown.borrow_mut().get_or_insert(error);
        });
        JsValue::UNDEFINED
    }))
}

impl Source for Js {
    fn value(&self) -> Value {
        let value = &self.0;
        if value.is_undefined() {
            Value::Undefined
        } else if value.is_null() {
            Value::Null
        } else if let Some(on) = value.as_bool() {
            Value::Boolean(on)
        } else if let Some(x) = value.as_f64() {
            Value::Number(x)
        } else if value.is_string() {
            Value::Text
        } else if Array::is_array(value) {
            Value::Array
        } else if value.is_function() {
            Value::Other("a function")
        } else if value.is_object() {
            Value::Object
        } else if value.is_symbol() {
            Value::Other("a symbol")
        } else {
            Value::Other("a bigint")
        }
    }

    fn text(&self, max: usize) -> Option<String> {
        text(&self.0, max as u32)
    }

    fn get(&self, key: &str) -> Js {
        kept(Reflect::get(&self.0, &JsValue::from_str(key)))
    }

    fn keys(&self) -> Vec<Js> {
        Object::keys(self.0.unchecked_ref::<Object>())
            .iter()
            .map(Js)
            .collect()
    }

    fn length(&self) -> usize {
        self.0.unchecked_ref::<Array>().length() as usize
    }

    fn item(&self, index: usize) -> Js {
        kept(Reflect::get_u32(&self.0, index as u32))
    }
}

/// The string `value`, when it is one of at most `max` characters.
fn text(value: &JsValue, max: u32) -> Option<String> {
    let text = value.dyn_ref::<JsString>()?;
    (text.length() <= max).then(|| String::from(text))
}

/// `spec` read and checked, or the error to throw: what a read threw, else the refusal.
#[inline(never)]
fn spec_from(spec: &JsValue) -> Result<Spec, JsValue> {
    let spec = read(&Js(spec.clone()));
    if let Some(error) = THROWN.with(|thrown| thrown.borrow_mut().take()) {
        return Err(error);
    }
    spec.map_err(refused)
}

#[wasm_bindgen]
impl Experiment {
    /// Checks `spec` (the JS spec of `www/experiment.js`): a `TypeError` or `RangeError`
    /// naming the field when it is refused. Steps nothing yet.
    #[wasm_bindgen(constructor)]
    pub fn new(spec: &JsValue) -> Result<Experiment, JsValue> {
        let spec = spec_from(spec)?;
        let runner = Runner::new(spec).map_err(refused)?;
        Ok(Experiment { runner })
    }

    /// Runs at most `maxSteps` flock steps (a number ≥ 0; fractions are dropped); true
    /// when the whole experiment is done.
    pub fn advance(&mut self, max_steps: &JsValue) -> Result<bool, JsValue> {
        let steps = number("Experiment.advance", "maxSteps", max_steps)?;
        if steps.is_nan() || steps < 0.0 {
            return Err(RangeError::new("Experiment.advance: maxSteps must be ≥ 0").into());
        }
        Ok(self.runner.advance(steps as u64))
    }

    /// Flock steps run so far.
    #[wasm_bindgen(js_name = stepsDone)]
    pub fn steps_done(&self) -> f64 {
        self.runner.steps_done() as f64
    }

    /// Flock steps of the whole experiment (its slice's, for a slice).
    #[wasm_bindgen(js_name = stepsTotal)]
    pub fn steps_total(&self) -> f64 {
        self.runner.steps_total() as f64
    }

    /// The rows from index `from` on (0 when left out), in the order run, packed as numbers
    /// (`pack_rows`: `ROW_NUMBERS` a row, leg (0 up, 1 down), seed, value, the map's value,
    /// samples, each measure's mean and sd, the state's number): `www/experiment/runner.js`
    /// makes them `{ param, direction, seed, value, samples, polarization: { mean, sd }, …,
    /// state }` (and a map's `mapParam`, `mapValue`).
    pub fn rows(&self, from: &JsValue) -> Result<Vec<f64>, JsValue> {
        let from = optional_number("Experiment.rows", "from", from)?.unwrap_or(0.0);
        let rows = self.runner.rows();
        let from = if from >= 0.0 {
            (from as usize).min(rows.len())
        } else {
            0
        };
        Ok(pack_rows(&rows[from..]))
    }

    /// `spec` read and checked: its print (16 hex digits, the same for every slice) followed
    /// by the spec as compact JSON (fields in order, `settings` `{}` when left out, `slice`
    /// only when given, on/off values as 1 and 0), which the page's thread keeps
    /// (`JSON.parse`d), sends the worker and puts in links. Given `rows` (packed as numbers,
    /// `ROW_NUMBERS` a row: `pack_rows`), the CSV of those rows of `spec` instead, `link` (if any) on its
    /// `# link` line, its `# boids` line this module's version: the native runner's text for
    /// the same rows. Its arguments are `runner.js`'s (a `Float64Array` it has packed and
    /// checked, a link it has checked), copied in by the bindings.
    pub fn contract(
        spec: &JsValue,
        rows: Option<Vec<f64>>,
        link: Option<String>,
    ) -> Result<String, JsValue> {
        let spec = spec_from(spec)?;
        let Some(rows) = rows else {
            return Ok(spec.print() + &spec_json(&spec, true, js_number));
        };
        let version = env!("CARGO_PKG_VERSION");
        Ok(write_packed_csv(
            version,
            &spec,
            &rows,
            link.as_deref(),
            js_number,
        ))
    }

    /// The limits of a spec, for forms, in this order: the most values, the most seeds, the
    /// largest seed, the fewest and the most boids, the longest point (settle + measure, s),
    /// the steps in a second of flock time (a step is the shortest `sampleEvery`), and the
    /// most cells of a map. `runner.js` names them.
    pub fn limits() -> Vec<f64> {
        vec![
            MAX_VALUES as f64,
            MAX_SEEDS as f64,
            f64::from(u32::MAX),
            min_count() as f64,
            MAX_COUNT as f64,
            MAX_POINT_SECONDS,
            STEPS_PER_SECOND,
            MAX_CELLS as f64,
        ]
    }

    /// Numbers a packed row holds (`ROW_NUMBERS`): the worker counts the rows it has sent by
    /// it, and `runner.js` checks that its own count agrees.
    #[wasm_bindgen(js_name = rowNumbers)]
    pub fn row_numbers() -> usize {
        ROW_NUMBERS
    }

    /// The fields of a spec, in order, as a message lists them ("settings, param, …").
    pub fn fields() -> String {
        FIELD_LIST.to_owned()
    }
}
