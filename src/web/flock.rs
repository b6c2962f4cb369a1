//! `Flock` for JavaScript: a thin wrapper over [`crate::sim::Flock`] with camelCase names.
//! Setters clamp to the parameter table and throw a `RangeError` for non-finite values.

use crate::within::Within;
use glam::Vec3;
use js_sys::{Array, Float32Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;

use crate::sim::{self, Kind, Param, ParamError, Scale, PARAMS, PRESETS};

#[wasm_bindgen]
pub struct Flock {
    inner: sim::Flock,
}

fn range_error(error: impl std::fmt::Display) -> JsValue {
    js_sys::RangeError::new(&error.to_string()).into()
}

/// The `RangeError` for a refused value, its numbers written by JavaScript.
fn refused(error: ParamError) -> JsValue {
    js_sys::RangeError::new(&error.message(js_number)).into()
}

/// `value` as JavaScript writes it.
fn js_number(value: f64) -> String {
    js_sys::Number::from(value)
        .to_string_with_radix(10)
        .map(String::from)
        .unwrap_or_default()
}

fn seed_from_js(seed: Option<f64>) -> Result<Option<u32>, JsValue> {
    seed.map(|s| Param::Seed.spec().sanitize(s).map(|s| s as u32))
        .transpose()
        .map_err(refused)
}

impl Flock {
    /// The simulation, for the renderer (read only).
    pub fn sim(&self) -> &sim::Flock {
        &self.inner
    }

    fn set(&mut self, param: Param, value: f64) -> Result<f64, JsValue> {
        self.inner.set(param, value).map_err(refused)
    }
}

macro_rules! js_parameters {
    ($($getter:ident / $setter:ident => $param:expr;)*) => {
        // JS names are the contract, so the Rust names are camelCase too.
        #[allow(non_snake_case)]
        #[wasm_bindgen]
        impl Flock {
            $(
                #[doc = concat!("Current value of `", stringify!($getter), "` (see `Flock.params()`).")]
                #[wasm_bindgen(js_name = $getter)]
                pub fn $getter(&self) -> f64 {
                    self.inner.get($param)
                }

                #[doc = concat!("Sets `", stringify!($getter), "`, clamped to its range; returns the value applied. Throws `RangeError` for NaN or ±Infinity and changes nothing.")]
                #[wasm_bindgen(js_name = $setter)]
                pub fn $setter(&mut self, value: f64) -> Result<f64, JsValue> {
                    self.set($param, value)
                }
            )*
        }
    };
}

js_parameters! {
    count / setCount => Param::Count;
    speed / setSpeed => Param::Speed;
    separation / setSeparation => Param::Separation;
    alignment / setAlignment => Param::Alignment;
    cohesion / setCohesion => Param::Cohesion;
    perception / setPerception => Param::Perception;
    separationRadius / setSeparationRadius => Param::SeparationRadius;
    fieldOfView / setFieldOfView => Param::FieldOfView;
    maxForce / setMaxForce => Param::MaxForce;
    worldSize / setWorldSize => Param::WorldSize;
    seed / setSeed => Param::Seed;
    predators / setPredators => Param::Predators;
    predatorSpeed / setPredatorSpeed => Param::PredatorSpeed;
    fleeRadius / setFleeRadius => Param::FleeRadius;
    leaders / setLeaders => Param::Leaders;
    leaderWeight / setLeaderWeight => Param::LeaderWeight;
    pointerStrength / setPointerStrength => Param::PointerStrength;
    windStrength / setWindStrength => Param::WindStrength;
    windHeading / setWindHeading => Param::WindHeading;
    windElevation / setWindElevation => Param::WindElevation;
    speciesCount / setSpeciesCount => Param::SpeciesCount;
    flat / setFlat => Param::Flat;
    topological / setTopological => Param::Topological;
    nearestK / setNearestK => Param::NearestK;
}

/// Refuses NaN and ±Infinity in a list of named numbers with a `RangeError` naming the first.
fn finite(values: &[(&'static str, f64)]) -> Result<(), JsValue> {
    match values.iter().find(|(_, v)| !v.is_finite()) {
        Some(&(name, value)) => Err(refused(ParamError::NotFinite { name, value })),
        None => Ok(()),
    }
}

fn point(x: f64, y: f64, z: f64) -> Vec3 {
    Vec3::new(x as f32, y as f32, z as f32)
}

#[wasm_bindgen]
impl Flock {
    /// `new Flock(count, seed?)`: count is clamped to the table's range; without a seed one
    /// is drawn from the browser's crypto source (read it back with `seed()`).
    #[wasm_bindgen(constructor)]
    pub fn new(count: f64, seed: Option<f64>) -> Result<Flock, JsValue> {
        let count = Param::Count.spec().sanitize(count).map_err(refused)?;
        let seed = seed_from_js(seed)?;
        Ok(Flock {
            inner: sim::Flock::new(count as usize, seed),
        })
    }

    /// Advances by `dt` seconds (long steps are capped and subdivided).
    pub fn step(&mut self, dt: f64) {
        self.inner.step(dt as f32);
    }

    /// Scatters the boids afresh from the seed with the current settings.
    pub fn rebuild(&mut self) {
        self.inner.rebuild();
    }

    /// Whether the edges wrap around (else soft walls).
    pub fn wrap(&self) -> bool {
        self.inner.settings().wrap
    }

    #[wasm_bindgen(js_name = setWrap)]
    pub fn set_wrap(&mut self, wrap: bool) {
        // A toggle is always finite: nothing to refuse.
        let _ = self.inner.set(Param::Wrap, if wrap { 1.0 } else { 0.0 });
    }

    /// Lets the world size follow the count again after `setWorldSize`.
    #[wasm_bindgen(js_name = resetWorldSize)]
    pub fn reset_world_size(&mut self) {
        self.inner.reset_world_size();
    }

    /// A copy of the positions, xyz per boid. A copy, so it never dangles when wasm memory
    /// grows; the order of boids changes between steps.
    pub fn positions(&self) -> Float32Array {
        Float32Array::from(self.inner.positions())
    }

    /// A copy of the velocities, xyz per boid, in the same order as `positions()`.
    pub fn velocities(&self) -> Float32Array {
        Float32Array::from(self.inner.velocities())
    }

    /// |Σ v̂| / N in [0, 1]: 0 for random headings, 1 when all fly the same way.
    pub fn polarization(&self) -> f64 {
        f64::from(self.inner.polarization())
    }

    /// Mean number of neighbours each boid heeded in the last step.
    #[wasm_bindgen(js_name = meanNeighbours)]
    pub fn mean_neighbours(&self) -> f64 {
        f64::from(self.inner.mean_neighbours())
    }

    /// The parameter table: `[{name, label, min, max, default, step, unit, kind, scale,
    /// slider, description, getter, setter}]`. Sliders and docs are built from it.
    /// Toggles (`kind: "toggle"`) read and set 0 or 1 like any number, except `wrap`, whose
    /// getter and setter take a boolean.
    pub fn params() -> Array {
        PARAMS
            .iter()
            .map(|spec| JsValue::from(spec_object(spec)))
            .collect()
    }

    /// The presets: `[{name, label, description, values: {param: value}}]`, where each
    /// `param` is a name from `params()`.
    pub fn presets() -> Array {
        PRESETS
            .iter()
            .map(|preset| {
                let object = Object::new();
                let values = Object::new();
                for &(param, value) in preset.values {
                    set_field(&values, param.spec().name, value.into());
                }
                set_field(&object, "name", preset.name.into());
                set_field(&object, "label", preset.label.into());
                set_field(&object, "description", preset.description.into());
                set_field(&object, "values", values.into());
                JsValue::from(object)
            })
            .collect()
    }

    /// Sets every value of the preset `name` (see `presets()`); throws `RangeError` for a
    /// name that is not a preset's, and changes nothing.
    #[wasm_bindgen(js_name = applyPreset)]
    pub fn apply_preset(&mut self, name: &str) -> Result<(), JsValue> {
        self.inner.apply_preset(name).map_err(range_error)
    }

    /// A copy of each boid's species (0 to species − 1), in the same order as `positions()`.
    pub fn species(&self) -> Uint8Array {
        Uint8Array::from(self.inner.species())
    }

    /// Whether the world is flat (2D, every z is 0), as a boolean (`flat()` gives 0 or 1).
    #[wasm_bindgen(js_name = isFlat)]
    pub fn is_flat(&self) -> bool {
        self.inner.is_flat()
    }

    /// A copy of the hawks' positions, xyz per hawk.
    #[wasm_bindgen(js_name = predatorPositions)]
    pub fn predator_positions(&self) -> Float32Array {
        Float32Array::from(self.inner.predator_positions())
    }

    /// A copy of the hawks' velocities, xyz per hawk.
    #[wasm_bindgen(js_name = predatorVelocities)]
    pub fn predator_velocities(&self) -> Float32Array {
        Float32Array::from(self.inner.predator_velocities())
    }

    /// A copy of the leaders' positions, xyz per leader.
    #[wasm_bindgen(js_name = leaderPositions)]
    pub fn leader_positions(&self) -> Float32Array {
        Float32Array::from(self.inner.leader_positions())
    }

    /// A copy of the leaders' velocities, xyz per leader.
    #[wasm_bindgen(js_name = leaderVelocities)]
    pub fn leader_velocities(&self) -> Float32Array {
        Float32Array::from(self.inner.leader_velocities())
    }

    /// `samples` points (xyz each) around the leaders' closed loop, for drawing it
    /// (at most 10,000; non-finite or negative counts give none).
    #[wasm_bindgen(js_name = leaderPath)]
    pub fn leader_path(&self, samples: f64) -> Float32Array {
        let samples = if samples.is_finite() {
            samples.within(0.0, 10_000.0) as usize
        } else {
            0
        };
        Float32Array::from(&self.inner.leader_path(samples)[..])
    }

    /// A copy of the obstacles: x, y, z of the centre and the radius of each sphere.
    pub fn obstacles(&self) -> Float32Array {
        let flat: Vec<f32> = self.inner.obstacles().iter().flatten().copied().collect();
        Float32Array::from(&flat[..])
    }

    /// Adds a spherical obstacle at (x, y, z) (kept inside the world; z = 0 in 2D) with
    /// radius `r` (clamped to 0.5–20). Returns false, adding nothing, when there are 32
    /// already; throws `RangeError` for NaN or ±Infinity.
    #[wasm_bindgen(js_name = addObstacle)]
    pub fn add_obstacle(&mut self, x: f64, y: f64, z: f64, r: f64) -> Result<bool, JsValue> {
        finite(&[("x", x), ("y", y), ("z", z), ("r", r)])?;
        Ok(self.inner.add_obstacle(point(x, y, z), r as f32))
    }

    #[wasm_bindgen(js_name = clearObstacles)]
    pub fn clear_obstacles(&mut self) {
        self.inner.clear_obstacles();
    }

    /// Holds the pointer at (x, y, z) (kept inside the world): the flock flies toward it, or
    /// away from it when `repel`, until `clearPointer()`. Throws `RangeError` for NaN or
    /// ±Infinity.
    #[wasm_bindgen(js_name = setPointer)]
    pub fn set_pointer(&mut self, x: f64, y: f64, z: f64, repel: bool) -> Result<(), JsValue> {
        finite(&[("x", x), ("y", y), ("z", z)])?;
        self.inner.set_pointer(point(x, y, z), !repel);
        Ok(())
    }

    #[wasm_bindgen(js_name = clearPointer)]
    pub fn clear_pointer(&mut self) {
        self.inner.clear_pointer();
    }
}

fn set_field(object: &Object, key: &str, value: JsValue) {
    Reflect::set(object, &key.into(), &value).expect("setting a field of a fresh object");
}

fn spec_object(spec: &sim::ParamSpec) -> Object {
    let object = Object::new();
    let set = |key: &str, value: JsValue| set_field(&object, key, value);
    let setter = format!(
        "set{}{}",
        spec.name[..1].to_ascii_uppercase(),
        &spec.name[1..]
    );
    set("name", spec.name.into());
    set("label", spec.label.into());
    set("min", spec.min.into());
    set("max", spec.max.into());
    set("default", spec.default.into());
    set("step", spec.step.into());
    set("unit", spec.unit.into());
    let kind = match spec.kind {
        Kind::Real => "real",
        Kind::Integer => "integer",
        Kind::Toggle => "toggle",
    };
    set("kind", kind.into());
    let scale = match spec.scale {
        Scale::Linear => "linear",
        Scale::Log => "log",
    };
    set("scale", scale.into());
    set("slider", spec.slider.into());
    set("description", spec.description.into());
    set("getter", spec.name.into());
    set("setter", setter.into());
    object
}

/// Milliseconds per step of the standard benchmark scenario (see
/// `shared/bench-scenario.md`) at `count` boids, measured inside this wasm module: the
/// median over batches of steps (see below why batches).
#[wasm_bindgen(js_name = benchmarkStep)]
pub fn benchmark_step(count: u32, warmup: u32, steps: u32) -> f64 {
    let mut flock = sim::Flock::bench_scenario(count as usize);
    time_steps(&mut flock, count as usize, warmup, steps)
}

/// Median ms per step of `flock` (`count` boids) over `steps` steps after `warmup`.
fn time_steps(flock: &mut sim::Flock, count: usize, warmup: u32, steps: u32) -> f64 {
    let performance = web_sys::window()
        .and_then(|w| w.performance())
        .expect("benchmark needs window.performance");
    for _ in 0..warmup {
        flock.step(sim::BENCH_DT);
    }
    // Browsers coarsen `performance.now()` (to 0.1 ms in Chromium), so each sample times a
    // batch of steps long enough to be measured and reports its mean step. The batches
    // share out the same `steps` steps as the native benchmark, so both time the same
    // stretch of the flock's life (a flock keeps gathering, and denser is slower).
    let batch = if count <= 2_000 {
        20
    } else if count <= 20_000 {
        4
    } else {
        1
    };
    let samples = (steps / batch).max(1);
    let mut times: Vec<f64> = (0..samples)
        .map(|_| {
            let start = performance.now();
            for _ in 0..batch {
                flock.step(sim::BENCH_DT);
            }
            (performance.now() - start) / f64::from(batch)
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// The settled scenarios (`shared/bench-scenario.md`): scenario 0 is the standard one,
/// 1… the presets in `Flock.presets()` order. Returns `[ms per step, mean neighbours]`
/// after `warmup` steps, the median over `steps` steps timed inside this wasm module in
/// batches as `benchmarkStep` does; `undefined` for an unknown scenario.
#[wasm_bindgen(js_name = benchmarkScenario)]
pub fn benchmark_scenario(scenario: u32, count: u32, warmup: u32, steps: u32) -> Option<Vec<f64>> {
    let count = (count as usize).min(1_000_000);
    let mut flock = match scenario as usize {
        0 => sim::Flock::bench_scenario(count),
        k => sim::Flock::preset_scenario(PRESETS.get(k - 1)?, count),
    };
    Some(vec![
        time_steps(&mut flock, count, warmup, steps),
        f64::from(flock.mean_neighbours()),
    ])
}
