//! What the instruments read from a `Flock`: each boid's id, one boid up close
//! (`inspect`), and the measures of the whole flock (`metrics`). Plain data for JavaScript;
//! the numbers come from `sim` (`Flock::inspect`, `measures`), nothing is computed here.

use glam::Vec3;
use js_sys::{Array, Float32Array, Object, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;

use super::args::{js_number, number, range_error};
use super::flock::{Flock, Surveying};
use crate::sim::measures::Metrics;
use crate::sim::FlockSurvey;
use crate::sim::Terms;

fn set(object: &Object, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(object, &key.into(), &value.into());
}

fn xyz(v: Vec3) -> Float32Array {
    Float32Array::from(&v.to_array()[..])
}

/// The rules' words for the readout: which term pushes hardest.
const RULES: [&str; 3] = ["separation", "alignment", "cohesion"];

/// `{separation: {raw, weighted}, …, cruise, walls, wind, hawks, obstacles, leader, pointer,
/// total}`, each a Float32Array xyz.
fn terms_object(terms: &Terms) -> Object {
    let object = Object::new();
    let raw = [
        terms.steering.separation,
        terms.steering.alignment,
        terms.steering.cohesion,
    ];
    let weighted = [terms.separation, terms.alignment, terms.cohesion];
    for ((name, raw), weighted) in RULES.iter().zip(raw).zip(weighted) {
        let rule = Object::new();
        set(&rule, "raw", xyz(raw));
        set(&rule, "weighted", xyz(weighted));
        set(&object, name, rule);
    }
    let b = &terms.behaviours;
    for (name, value) in [
        ("cruise", terms.cruise),
        ("walls", terms.walls),
        ("wind", b.wind),
        ("hawks", b.hawks),
        ("obstacles", b.obstacles),
        ("leader", b.leader),
        ("pointer", b.pointer),
        ("total", terms.total),
    ] {
        set(&object, name, xyz(value));
    }
    object
}

#[wasm_bindgen]
impl Flock {
    /// A copy of each boid's id, in the same order as `positions()`: an id stays with its
    /// boid through every step, `setCount` (those that stay keep theirs) and presets;
    /// `rebuild` and a new seed number the boids afresh.
    pub fn ids(&self) -> Uint32Array {
        Uint32Array::from(self.sim().ids())
    }

    /// Every boid's id, the nearest the flock's centre of mass first: the order `N` steps
    /// through to select a boid without a pointer.
    #[wasm_bindgen(js_name = idsByDistanceFromCentre)]
    pub fn ids_by_distance_from_centre(&self) -> Uint32Array {
        Uint32Array::from(&self.sim().ids_by_distance_from_centre()[..])
    }

    /// One boid up close, or `null` for an id no boid has: `{id, position, velocity, speed,
    /// heeded, tooClose, unseen, urgency, fleeing, strongest, terms}`. `heeded`: the ids it
    /// heeds this step (in nearest-k mode its k nearest); `tooClose`: inside its separation
    /// radius (they push it away); `unseen`: inside its perception radius but in its blind
    /// zone. `terms`: every acceleration the next step adds (world units/s²) —
    /// `separation`, `alignment`, `cohesion` as `{raw, weighted}`, then `cruise`, `walls`,
    /// `wind`, `hawks`, `obstacles`, `leader`, `pointer` and their sum `total`. `strongest`:
    /// the rule whose weighted term is largest ("separation", "alignment", "cohesion"), or
    /// `null` when none acts. Throws `TypeError` for an id that is not a number.
    pub fn inspect(&self, id: &JsValue) -> Result<JsValue, JsValue> {
        let id = number("Flock.inspect", "id", id)?;
        if !(id.is_finite() && id >= 0.0 && id <= f64::from(u32::MAX) && id.fract() == 0.0) {
            return Ok(JsValue::NULL);
        }
        let Some(seen) = self.sim().inspect(id as u32) else {
            return Ok(JsValue::NULL);
        };
        let object = Object::new();
        set(&object, "id", seen.id);
        set(&object, "position", xyz(seen.position));
        set(&object, "velocity", xyz(seen.velocity));
        set(&object, "speed", seen.velocity.length());
        set(&object, "heeded", Uint32Array::from(&seen.heeded[..]));
        set(&object, "tooClose", Uint32Array::from(&seen.too_close[..]));
        set(&object, "unseen", Uint32Array::from(&seen.unseen[..]));
        set(&object, "urgency", seen.terms.steering.urgency);
        set(&object, "fleeing", seen.terms.fleeing);
        let t = &seen.terms;
        let sizes = [t.separation, t.alignment, t.cohesion].map(Vec3::length);
        let (strongest, size) =
            sizes.iter().enumerate().fold(
                (0, 0.0f32),
                |best, (k, &s)| if s > best.1 { (k, s) } else { best },
            );
        let strongest = if size > 0.0 {
            JsValue::from(RULES[strongest])
        } else {
            JsValue::NULL
        };
        set(&object, "strongest", strongest);
        set(&object, "terms", terms_object(t));
        Ok(object.into())
    }

    /// The measures of the whole flock now: `{count, polarization, milling, meanNeighbours,
    /// meanNearest, medianNearest, groups, bigGroups, largestGroup, groupPolarization,
    /// elongation, streaming, localOrder, meanSpeed, cruising, velocityCorrelation,
    /// groupCorrelation, outside, collisions}` (see the README's "The flocks
    /// people watch"; nearest distances are `NaN` when no boid has a neighbour within the
    /// perception radius). With several species, `species` holds the same per species.
    pub fn metrics(&self) -> Object {
        survey_object(self.sim().survey())
    }

    /// Begins to measure the flock as it is now, what `metrics()` gives, to be taken a
    /// piece at a time over about `calls` calls of `advanceSurvey` (a whole number from 1 to
    /// 10,000; the page's plot asks for 60): at 10,000 boids every measure at once takes
    /// about as long as a step, a sixtieth of it a few percent of one. Returns the survey's
    /// number, which `advanceSurvey` and `finishSurvey` take. One survey at a time: one
    /// under way is dropped (its caller's next call is told so). Throws `TypeError` for a
    /// `calls` that is not a number, `RangeError` for one out of range, and changes nothing
    /// then.
    #[wasm_bindgen(js_name = beginSurvey)]
    pub fn begin_survey(&mut self, calls: &JsValue) -> Result<u32, JsValue> {
        const METHOD: &str = "Flock.beginSurvey";
        let calls = number(METHOD, "calls", calls)?;
        if !(1.0..=10_000.0).contains(&calls) || calls.fract() != 0.0 {
            return Err(range_error(
                METHOD,
                &format!(
                    "calls must be a whole number from 1 to 10000, got {}",
                    js_number(calls)
                ),
            ));
        }
        let survey = self.sim().survey();
        let budget = survey.estimate().div_ceil(calls as u64).max(1);
        self.surveys_begun = self.surveys_begun.wrapping_add(1);
        self.survey = Some(Surveying {
            survey,
            budget,
            number: self.surveys_begun,
        });
        Ok(self.surveys_begun)
    }

    /// One piece of survey `survey` (the number `beginSurvey` gave). With its last piece,
    /// the measures of the flock as it was when the survey began (as `metrics()` gives
    /// them); `null` before that. Throws `TypeError` for a `survey` that is not a number,
    /// `RangeError` for one not under way (done, or dropped for a later one).
    #[wasm_bindgen(js_name = advanceSurvey)]
    pub fn advance_survey(&mut self, survey: &JsValue) -> Result<Option<Object>, JsValue> {
        let mut under_way = self.take_survey("Flock.advanceSurvey", survey)?;
        if under_way.survey.advance(under_way.budget) {
            return Ok(Some(survey_object(under_way.survey)));
        }
        self.survey = Some(under_way);
        Ok(None)
    }

    /// The rest of survey `survey` at once (a paused flock has the time): its measures.
    /// Throws as `advanceSurvey` does.
    #[wasm_bindgen(js_name = finishSurvey)]
    pub fn finish_survey(&mut self, survey: &JsValue) -> Result<Object, JsValue> {
        let under_way = self.take_survey("Flock.finishSurvey", survey)?;
        Ok(survey_object(under_way.survey))
    }
}

impl Flock {
    /// The survey under way, taken out, if it is number `survey`.
    fn take_survey(&mut self, method: &str, survey: &JsValue) -> Result<Surveying, JsValue> {
        let asked = number(method, "survey", survey)?;
        match self.survey.take() {
            Some(under_way) if f64::from(under_way.number) == asked => Ok(under_way),
            other => {
                self.survey = other;
                Err(range_error(
                    method,
                    &format!(
                        "survey {} is not under way (done, or dropped: one at a time per flock)",
                        js_number(asked)
                    ),
                ))
            }
        }
    }
}

/// What `metrics()` returns, from a survey (finished here if it is not yet).
fn survey_object(mut survey: FlockSurvey) -> Object {
    let (whole, species) = survey.finish();
    let object = metrics_object(&whole);
    set(&object, "meanNeighbours", survey.mean_neighbours());
    if !species.is_empty() {
        let per: Array = species
            .iter()
            .map(|m| JsValue::from(metrics_object(m)))
            .collect();
        set(&object, "species", per);
    }
    object
}

fn metrics_object(m: &Metrics) -> Object {
    let object = Object::new();
    set(&object, "count", m.count as u32);
    for (name, value) in [
        ("polarization", m.polarization),
        ("milling", m.milling),
        ("meanNearest", m.mean_nearest),
        ("medianNearest", m.median_nearest),
        ("largestGroup", m.largest_group),
        ("groupPolarization", m.group_polarization),
        ("elongation", m.elongation),
        ("streaming", m.streaming),
        ("localOrder", m.local_order),
        ("meanSpeed", m.mean_speed),
        ("cruising", m.cruising),
        ("velocityCorrelation", m.velocity_correlation),
        ("groupCorrelation", m.group_correlation),
        ("outside", m.outside),
        ("collisions", m.collisions),
    ] {
        set(&object, name, value);
    }
    set(&object, "groups", m.groups as u32);
    set(&object, "bigGroups", m.big_groups as u32);
    object
}
