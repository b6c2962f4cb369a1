//! `Fit` for JavaScript (issue 43, item 3): the model fitted to a recording
//! (`sim::fit`), run in a Web Worker (`www/nature/fit-worker.js`) that reports each model run
//! and is stopped by ending the worker. In the worker's module only (`worker` and `lab`
//! features). A bad argument is a `TypeError` or `RangeError` naming it; a recording with a
//! bad line makes no `Fit`.

use js_sys::{Function, Object, Reflect};
use wasm_bindgen::prelude::*;

use super::args::{range_error, string};
use super::lab::whole;
use super::replay::js_number_of;
use crate::sim::fit::{fit, summarize_recording, FitSpec, Summary, FIT_COUNT, MAX_EVALUATIONS};
use crate::sim::recording::Recording;
use crate::sim::Param;

/// The longest recording text read (as `Replay`).
const MAX_TEXT: u32 = 64 << 20;
/// The recording's measures are sampled every second, while its birds fly at 3 units/s or more.
const SAMPLE_EVERY: f32 = 1.0;
const MIN_SPEED: f32 = 3.0;

/// A fit under way: the spec and the recording's measures in flight.
#[wasm_bindgen]
pub struct Fit {
    spec: FitSpec,
    target: Summary,
}

fn set(object: &Object, key: &str, value: JsValue) {
    // A data property on a fresh plain object: cannot fail.
    let _ = Reflect::set(object, &key.into(), &value);
}

fn summary(s: &Summary) -> Object {
    let object = Object::new();
    set(&object, "samples", (s.samples as f64).into());
    for (key, value) in [
        ("polarization", s.polarization),
        ("milling", s.milling),
        ("nearest", s.nearest),
        ("speed", s.speed),
        ("speedSpread", s.speed_spread),
        ("correlationShare", s.correlation_share),
        ("polarizedShare", s.polarized_share),
    ] {
        set(&object, key, f64::from(value).into());
    }
    object
}

#[wasm_bindgen]
impl Fit {
    /// A fit of the parameters named in `params` (space-separated: e.g. "alignment cohesion
    /// separation separationRadius speed") to the recording `text`, at most `evaluations`
    /// model runs (1 to 500) of `count` boids (50 to 1,000) from `seed`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        text: &JsValue,
        params: &JsValue,
        evaluations: &JsValue,
        count: &JsValue,
        seed: &JsValue,
    ) -> Result<Fit, JsValue> {
        const WHERE: &str = "new Fit";
        let text = string(WHERE, "text", text, MAX_TEXT)?;
        let names = string(WHERE, "params", params, 200)?;
        let params = names
            .split_whitespace()
            .map(|name| {
                Param::from_name(name).ok_or_else(|| {
                    range_error(WHERE, &format!("params: unknown parameter \"{name}\""))
                })
            })
            .collect::<Result<Vec<Param>, JsValue>>()?;
        let spec = FitSpec {
            params,
            evaluations: whole(
                WHERE,
                "evaluations",
                evaluations,
                1.0,
                MAX_EVALUATIONS as f64,
            )?,
            count: whole(
                WHERE,
                "count",
                count,
                FIT_COUNT.0 as f64,
                FIT_COUNT.1 as f64,
            )?,
            seed: whole(WHERE, "seed", seed, 0.0, f64::from(u32::MAX))? as u32,
            ..FitSpec::default()
        };
        spec.check().map_err(|e| range_error(WHERE, &e))?;
        let recording = Recording::parse_with(&text, js_number_of)
            .map_err(|e| range_error(WHERE, &e.to_string()))?;
        let target = summarize_recording(&recording, SAMPLE_EVERY, MIN_SPEED);
        if target.samples == 0 {
            return Err(range_error(
                WHERE,
                "the recording has no moment with its birds flying at 3 units/s or faster",
            ));
        }
        Ok(Fit { spec, target })
    }

    /// The parameters a fit may search, space-separated (`sim::fit::FITTABLE`).
    pub fn fittable() -> String {
        crate::sim::fit::FITTABLE.map(|p| p.spec().name).join(" ")
    }

    /// The parameters searched when none are chosen, space-separated.
    #[wasm_bindgen(js_name = defaultParams)]
    pub fn default_params() -> String {
        FitSpec::default()
            .params
            .iter()
            .map(|p| p.spec().name)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The recording's measures in flight (averaged): what the fit aims at.
    pub fn target(&self) -> Object {
        summary(&self.target)
    }

    /// Runs the fit, calling `progress(runs, bestDistance)` after each model run (a `true`
    /// it returns goes on; anything else stops the search there). Returns { values, distance,
    /// measures, defaults: { values, distance, measures }, evaluations, stopped }, values by
    /// parameter name.
    pub fn run(&self, progress: &JsValue) -> Result<Object, JsValue> {
        let progress: &Function = progress.dyn_ref().ok_or_else(|| {
            super::args::type_error("Fit.run", "progress", "a function", progress)
        })?;
        let result = fit(&self.spec, &self.target, |runs, best| {
            progress
                .call2(&JsValue::NULL, &(runs as f64).into(), &best.into())
                .map(|answer| answer.as_bool() != Some(false))
                .unwrap_or(false)
        });
        let named = |values: &[f64]| {
            let object = Object::new();
            for (param, &value) in self.spec.params.iter().zip(values) {
                set(&object, param.spec().name, value.into());
            }
            object
        };
        let out = Object::new();
        set(&out, "values", named(&result.values).into());
        set(&out, "distance", result.distance.into());
        set(&out, "measures", summary(&result.model).into());
        let defaults = Object::new();
        set(&defaults, "values", named(&result.start_values).into());
        set(&defaults, "distance", result.start_distance.into());
        set(&defaults, "measures", summary(&result.start).into());
        set(&out, "defaults", defaults.into());
        set(&out, "evaluations", (result.evaluations as f64).into());
        set(&out, "stopped", result.stopped.into());
        Ok(out)
    }
}
