//! `Experiment` for JavaScript (issue 26): a thin wrapper over [`Runner`], driven by
//! `www/experiment/experiment-worker.js` a chunk of steps at a time. The spec is read here, field by
//! field, with the type checks (`TypeError` naming the field); every other rule is the
//! core's (`Spec::validate`), its `SpecError` thrown as a `TypeError` or `RangeError` with
//! the core's message. No float is printed: messages name fields and limits only.

use js_sys::{Array, Object, RangeError, Reflect, TypeError};
use wasm_bindgen::prelude::*;

use super::args::{number, optional_number, string, type_error};
use crate::sim::experiment::{
    param_named, Direction, ErrorKind, Row, Runner, Slice, Spec, SpecError, Stat, MAX_COUNT,
    MAX_SEEDS, MAX_VALUES,
};

const NEW: &str = "Experiment";
/// The longest parameter name read (the table's are a few letters long).
const NAME_MAX: u32 = 64;

/// An experiment under way: `new Experiment(spec)`, then `advance(steps)` until it says
/// true; `rows(from)` gives the rows measured so far.
#[wasm_bindgen]
pub struct Experiment {
    runner: Runner,
}

fn spec_error(error: SpecError) -> JsValue {
    let message = format!("{NEW}: {}", error.message);
    match error.kind {
        ErrorKind::Type => TypeError::new(&message).into(),
        ErrorKind::Range => RangeError::new(&message).into(),
    }
}

/// `object[name]` (a getter or a proxy may throw: that error is passed on).
fn get(object: &JsValue, name: &str) -> Result<JsValue, JsValue> {
    Reflect::get(object, &JsValue::from_str(name))
}

/// The number `object[name]`, called `field` in messages.
#[inline(never)]
fn number_at(object: &JsValue, name: &str, field: &str) -> Result<f64, JsValue> {
    number(NEW, field, &get(object, name)?)
}

#[inline(never)]
fn whole_number_error(field: &str, range: &str) -> JsValue {
    TypeError::new(&format!("{NEW}: {field} must be a whole number{range}")).into()
}

/// A whole number ≥ 0 at `object[name]`; with `clamp`, NaN, ±Infinity and numbers out of
/// `0..=above` go through as 0 or `above`, which the core refuses as out of range.
#[inline(never)]
fn whole(
    object: &JsValue,
    name: &str,
    field: &str,
    above: f64,
    clamp: bool,
) -> Result<usize, JsValue> {
    let value = number_at(object, name, field)?;
    let refused = if value.is_finite() {
        value.fract() != 0.0 || (value < 0.0 && !clamp)
    } else {
        !clamp
    };
    if refused {
        return Err(whole_number_error(field, if clamp { "" } else { " ≥ 0" }));
    }
    Ok(if value.is_nan() {
        0
    } else {
        value.max(0.0).min(above) as usize
    })
}

/// The numbers of the array `spec[field]`, at most `max` + 1 of them (one more than the
/// core accepts, so that it says "at most": a length of a billion is not read).
#[inline(never)]
fn numbers(spec: &JsValue, field: &str, max: usize) -> Result<Vec<f64>, JsValue> {
    let value = get(spec, field)?;
    if !Array::is_array(&value) {
        return Err(type_error(NEW, field, "an array", &value));
    }
    let array: &Array = value.unchecked_ref();
    let length = array.length().min(max as u32 + 1);
    let mut numbers = Vec::with_capacity(length as usize);
    for i in 0..length {
        let item = Reflect::get_u32(array, i)?;
        match item.as_f64() {
            Some(number) => numbers.push(number),
            None => return Err(type_error(NEW, &format!("{field}[{i}]"), "a number", &item)),
        }
    }
    Ok(numbers)
}

fn read_spec(spec: &JsValue) -> Result<Spec, JsValue> {
    if !spec.is_object() {
        return Err(type_error(NEW, "spec", "an object", spec));
    }
    let mut settings = Vec::new();
    let given = get(spec, "settings")?;
    if !given.is_undefined() {
        if !given.is_object() {
            return Err(type_error(NEW, "settings", "an object", &given));
        }
        for key in Object::keys(given.unchecked_ref::<Object>()) {
            let name = string(NEW, "a settings name", &key, NAME_MAX)?;
            let field = format!("settings.{name}");
            let value = number_at(&given, &name, &field)?;
            settings.push((param_named(&field, &name).map_err(spec_error)?, value));
        }
    }
    let name = string(NEW, "param", &get(spec, "param")?, NAME_MAX)?;
    let param = param_named("param", &name).map_err(spec_error)?;
    let values = numbers(spec, "values", MAX_VALUES)?;
    let direction = string(NEW, "direction", &get(spec, "direction")?, NAME_MAX)?;
    let Some(direction) = Direction::from_name(&direction) else {
        let message = format!("{NEW}: direction must be \"up\" or \"up-down\"");
        return Err(TypeError::new(&message).into());
    };
    let mut seeds = Vec::new();
    for (i, seed) in numbers(spec, "seeds", MAX_SEEDS)?.into_iter().enumerate() {
        if !(seed.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&seed)) {
            let range = " from 0 to 4294967295";
            return Err(whole_number_error(&format!("seeds[{i}]"), range));
        }
        seeds.push(seed as u32);
    }
    let count = whole(spec, "count", "count", (MAX_COUNT + 1) as f64, true)?;
    let settle = number_at(spec, "settle", "settle")?;
    let measure = number_at(spec, "measure", "measure")?;
    let sample_every = number_at(spec, "sampleEvery", "sampleEvery")?;
    let slice = get(spec, "slice")?;
    let slice = if slice.is_undefined() || slice.is_null() {
        None
    } else if slice.is_object() {
        Some(Slice {
            index: whole(&slice, "index", "slice.index", f64::MAX, false)?,
            of: whole(&slice, "of", "slice.of", f64::MAX, false)?,
        })
    } else {
        return Err(type_error(NEW, "slice", "an object or undefined", &slice));
    };
    Ok(Spec {
        settings,
        param,
        values,
        direction,
        seeds,
        count,
        settle,
        measure,
        sample_every,
        slice,
    })
}

fn set(object: &Object, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(object, &key.into(), &value.into());
}

fn stat(stat: Stat) -> Object {
    let object = Object::new();
    set(&object, "mean", stat.mean);
    set(&object, "sd", stat.sd);
    object
}

fn row_object(param: &str, row: &Row) -> Object {
    let object = Object::new();
    set(&object, "param", param);
    set(&object, "direction", row.leg.name());
    set(&object, "seed", row.seed);
    set(&object, "value", row.value);
    set(&object, "samples", row.samples as u32);
    let keys = [
        "polarization",
        "milling",
        "groups",
        "largestGroup",
        "medianNearest",
        "meanNeighbours",
    ];
    for (key, value) in keys.into_iter().zip(row.stats()) {
        set(&object, key, stat(value));
    }
    object
}

#[wasm_bindgen]
impl Experiment {
    /// Checks `spec` (the JS spec of `www/experiment.js`): a `TypeError` or `RangeError`
    /// naming the field when it is refused. Steps nothing yet.
    #[wasm_bindgen(constructor)]
    pub fn new(spec: &JsValue) -> Result<Experiment, JsValue> {
        let runner = Runner::new(read_spec(spec)?).map_err(spec_error)?;
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

    /// Rows measured so far.
    #[wasm_bindgen(js_name = rowCount)]
    pub fn row_count(&self) -> u32 {
        self.runner.rows().len() as u32
    }

    /// The rows from index `from` on (0 when left out), in the order run: `[{param,
    /// direction: "up"|"down", seed, value, samples, polarization: {mean, sd}, milling,
    /// groups, largestGroup, medianNearest, meanNeighbours}]`.
    pub fn rows(&self, from: &JsValue) -> Result<Array, JsValue> {
        let from = optional_number("Experiment.rows", "from", from)?.unwrap_or(0.0);
        let rows = self.runner.rows();
        let from = if from >= 0.0 {
            (from as usize).min(rows.len())
        } else {
            0
        };
        let param = self.runner.spec().param.spec().name;
        Ok(rows[from..]
            .iter()
            .map(|row| row_object(param, row))
            .collect())
    }

    /// The experiment's print (`Spec::fingerprint`) as 16 hex digits: slices share it.
    pub fn fingerprint(&self) -> String {
        let print = self.runner.spec().fingerprint();
        (0..16)
            .rev()
            .map(|i| char::from(b"0123456789abcdef"[(print >> (4 * i)) as usize & 15]))
            .collect()
    }
}
