//! `Flock` for JavaScript: a thin wrapper over [`crate::sim::Flock`] with camelCase names.
//! Every argument is checked before it reaches the simulation (see `args`): the wrong type
//! is a `TypeError`, NaN or ±Infinity a `RangeError`; setters clamp to the parameter table.

use crate::within::Within;
use glam::Vec3;
use js_sys::{Array, Float32Array, Float64Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;

use super::args::{self, boolean, finite, number, optional_number, refused};
use crate::sim::{self, Kind, Param, Scale, PARAMS, PRESETS};

#[wasm_bindgen]
pub struct Flock {
    inner: sim::Flock,
    /// A measurement under way (`beginSurvey`), and how many have begun (each one's
    /// number).
    pub(super) survey: Option<Surveying>,
    pub(super) surveys_begun: u32,
    /// A step handed out to workers and not yet taken in (`share.rs`).
    pub(super) sharing: sim::Handout,
}

/// A survey under way (`beginSurvey`, `instruments.rs`): the flock's, the units each call
/// does of it, and its number.
pub(super) struct Surveying {
    pub(super) survey: sim::FlockSurvey,
    pub(super) budget: u64,
    pub(super) number: u32,
}

/// The longest preset name `applyPreset` reads (the names are a few letters long).
const PRESET_NAME_MAX: u32 = 64;
/// Most points `leaderPath` gives.
const LEADER_PATH_MAX: f64 = 10_000.0;

impl Flock {
    /// The simulation, for the renderer (read only).
    pub fn sim(&self) -> &sim::Flock {
        &self.inner
    }

    /// The simulation, to change, and the step handed out of it (`share.rs`, which changes
    /// both at once).
    pub(super) fn sim_and_sharing(&mut self) -> (&mut sim::Flock, &mut sim::Handout) {
        (&mut self.inner, &mut self.sharing)
    }

    /// A small flock that JavaScript never sees: `start` hands it to `harden.js` to reach
    /// the class, then frees it.
    pub(super) fn placeholder() -> Flock {
        Flock {
            inner: sim::Flock::new(Param::Count.spec().min as usize, Some(0)),
            survey: None,
            surveys_begun: 0,
            sharing: Default::default(),
        }
    }

    /// What every setter does. Not inlined: one copy, not one per setter, of the parameter
    /// table's match (a setter is no hot path).
    #[inline(never)]
    fn set(&mut self, method: &str, param: Param, value: &JsValue) -> Result<f64, JsValue> {
        // One rule for on/off (issue 41): a toggle takes `true`/`false` as well as 1/0.
        let value = match value.as_bool() {
            Some(on) if param.spec().kind == Kind::Toggle => f64::from(u8::from(on)),
            _ => number(method, "value", value)?,
        };
        self.inner.set(param, value).map_err(|e| refused(method, e))
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

                #[doc = concat!("Sets `", stringify!($getter), "`, clamped to its range; returns the value applied. Throws `TypeError` for anything but a number, `RangeError` for NaN or ±Infinity, and changes nothing.")]
                #[wasm_bindgen(js_name = $setter)]
                pub fn $setter(&mut self, value: &JsValue) -> Result<f64, JsValue> {
                    self.set(concat!("Flock.", stringify!($setter)), $param, value)
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
    noise / setNoise => Param::Noise;
    alignmentRadius / setAlignmentRadius => Param::AlignmentRadius;
    sky / setSky => Param::Sky;
    homeRange / setHomeRange => Param::HomeRange;
    delay / setDelay => Param::Delay;
    messageLoss / setMessageLoss => Param::MessageLoss;
    failures / setFailures => Param::Failures;
    failureMode / setFailureMode => Param::FailureMode;
    roles / setRoles => Param::Roles;
}

fn point(x: f64, y: f64, z: f64) -> Vec3 {
    Vec3::new(to_f32(x), to_f32(y), to_f32(z))
}

/// A finite f64 as the nearest finite f32: 1e300 is "very far", not infinity (which the
/// simulation refuses as junk).
fn to_f32(value: f64) -> f32 {
    value.within(-f64::from(f32::MAX), f64::from(f32::MAX)) as f32
}

/// Three finite coordinates from JavaScript.
fn coordinates(method: &str, x: &JsValue, y: &JsValue, z: &JsValue) -> Result<Vec3, JsValue> {
    Ok(point(
        finite(method, "x", x)?,
        finite(method, "y", y)?,
        finite(method, "z", z)?,
    ))
}

#[wasm_bindgen]
impl Flock {
    /// `new Flock(count, seed?)`: count is clamped to the table's range; without a seed
    /// (`undefined` or `null`) one is drawn from the browser's crypto source (read it back
    /// with `seed()`).
    #[wasm_bindgen(constructor)]
    pub fn new(count: &JsValue, seed: &JsValue) -> Result<Flock, JsValue> {
        const METHOD: &str = "new Flock";
        let count = number(METHOD, "count", count)?;
        let seed = optional_number(METHOD, "seed", seed)?;
        let count = Param::Count
            .spec()
            .sanitize(count)
            .map_err(|e| refused(METHOD, e))?;
        let seed = seed
            .map(|s| Param::Seed.spec().sanitize(s).map(|s| s as u32))
            .transpose()
            .map_err(|e| refused(METHOD, e))?;
        Ok(Flock {
            inner: sim::Flock::new(count as usize, seed),
            survey: None,
            surveys_begun: 0,
            sharing: Default::default(),
        })
    }

    /// Advances by `dt` seconds (long steps are capped and subdivided; NaN, ±Infinity, zero
    /// and negative steps do nothing).
    pub fn step(&mut self, dt: &JsValue) -> Result<(), JsValue> {
        let dt = number("Flock.step", "dt", dt)?;
        self.inner.step(dt as f32);
        Ok(())
    }

    /// Scatters the boids afresh from the seed with the current settings.
    pub fn rebuild(&mut self) {
        self.inner.rebuild();
    }

    /// Whether the edges wrap around (else soft walls).
    pub fn wrap(&self) -> bool {
        self.inner.settings().wrap
    }

    /// Wraps the edges (`true`) or puts up soft walls (`false`).
    #[wasm_bindgen(js_name = setWrap)]
    pub fn set_wrap(&mut self, wrap: &JsValue) -> Result<(), JsValue> {
        let wrap = boolean("Flock.setWrap", "wrap", wrap)?;
        // A toggle is always finite: nothing to refuse.
        let _ = self.inner.set(Param::Wrap, if wrap { 1.0 } else { 0.0 });
        Ok(())
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

    /// Home, the middle of the world (of the view under an open sky), xyz: where a recorded
    /// flock is drawn around.
    pub fn home(&self) -> Float32Array {
        Float32Array::from(&self.inner.home().to_array()[..])
    }

    /// Puts birds where `positions` say, flying at `velocities` (Float32Arrays, xyz per bird,
    /// the same length, from the count's minimum birds to its maximum): how a recorded flock plays through the
    /// page (issue 43, `www/nature/player.js`), drawn, inspected and measured as the model
    /// is. The flock becomes that many birds, ids 0, 1, … in the order given, each kept
    /// inside the world. A `TypeError` or `RangeError` (a value not finite, lengths that do
    /// not match) changes nothing.
    #[wasm_bindgen(js_name = setBirds)]
    pub fn set_birds(&mut self, positions: &JsValue, velocities: &JsValue) -> Result<(), JsValue> {
        const METHOD: &str = "Flock.setBirds";
        let most = 3 * Param::Count.spec().max as u32;
        let p = args::floats(METHOD, "positions", positions, most)?;
        let v = args::floats(METHOD, "velocities", velocities, most)?;
        if p.len() != v.len() || p.len() % 3 != 0 {
            let (p, v) = (p.len(), v.len());
            return Err(args::range_error(
                METHOD,
                &format!("positions and velocities must hold xyz for each bird alike, got {p} and {v} numbers"),
            ));
        }
        let fewest = Param::Count.spec().min as usize;
        if p.len() < 3 * fewest {
            let birds = p.len() / 3;
            return Err(args::range_error(
                METHOD,
                &format!("a flock is at least {fewest} birds, got {birds}"),
            ));
        }
        self.inner.set_state(&p, &v);
        Ok(())
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

    /// What finding neighbours cost in the last step: `[checks, neighbours]`, the pairs whose
    /// distance was examined and those heeded (the readout's "1.8M checks · 180K neighbours";
    /// `SearchLab.stats()` gives the same for the other searches). Zeros before a step.
    #[wasm_bindgen(js_name = searchStats)]
    pub fn search_stats(&self) -> Float64Array {
        let totals = self.inner.search_stats();
        Float64Array::from(&[totals.examined as f64, totals.neighbours as f64][..])
    }

    /// The parameter table: `[{name, label, min, max, default, step, unit, kind, scale,
    /// slider, description, getter, setter}]`. Sliders and docs are built from it.
    /// Toggles (`kind: "toggle"`) read 0 or 1 like any number, except `wrap`, whose getter
    /// gives a boolean; every toggle's setter takes `true`/`false` and 1/0 alike.
    pub fn params() -> Array {
        PARAMS.iter().map(spec_object).collect()
    }

    /// The presets: `[{name, label, description, values: {param: value}}]`, where each
    /// `param` is a name from `params()`.
    pub fn presets() -> Array {
        PRESETS
            .iter()
            .map(|preset| {
                let values = preset
                    .values
                    .iter()
                    .map(|&(param, value)| (param.spec().name, value.into()));
                object([
                    ("name", preset.name.into()),
                    ("label", preset.label.into()),
                    ("description", preset.description.into()),
                    ("values", object(values)),
                ])
            })
            .collect()
    }

    /// Sets every value of the preset `name` (see `presets()`); throws `TypeError` for a
    /// name that is not a string, `RangeError` for one that is not a preset's, and changes
    /// nothing.
    #[wasm_bindgen(js_name = applyPreset)]
    pub fn apply_preset(&mut self, name: &JsValue) -> Result<(), JsValue> {
        const METHOD: &str = "Flock.applyPreset";
        let name = args::string(METHOD, "name", name, PRESET_NAME_MAX)?;
        self.inner
            .apply_preset(&name)
            .map_err(|e| args::range_error(METHOD, &e.to_string()))
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
    /// (at most 10,000; NaN, ±Infinity or negative counts give none).
    #[wasm_bindgen(js_name = leaderPath)]
    pub fn leader_path(&self, samples: &JsValue) -> Result<Float32Array, JsValue> {
        let samples = number("Flock.leaderPath", "samples", samples)?;
        let samples = if samples.is_finite() {
            samples.within(0.0, LEADER_PATH_MAX) as usize
        } else {
            0
        };
        Ok(Float32Array::from(&self.inner.leader_path(samples)[..]))
    }

    /// A copy of the obstacles: x, y, z of the centre and the radius of each sphere.
    pub fn obstacles(&self) -> Float32Array {
        let flat: Vec<f32> = self.inner.obstacles().iter().flatten().copied().collect();
        Float32Array::from(&flat[..])
    }

    /// Adds a spherical obstacle at (x, y, z) (kept inside the world; z = 0 in 2D) with
    /// radius `r` (clamped to 0.5–20). Returns false, adding nothing, when there are 32
    /// already; throws `TypeError` for anything but numbers, `RangeError` for NaN or
    /// ±Infinity.
    #[wasm_bindgen(js_name = addObstacle)]
    pub fn add_obstacle(
        &mut self,
        x: &JsValue,
        y: &JsValue,
        z: &JsValue,
        r: &JsValue,
    ) -> Result<bool, JsValue> {
        const METHOD: &str = "Flock.addObstacle";
        let centre = coordinates(METHOD, x, y, z)?;
        let r = finite(METHOD, "r", r)?;
        Ok(self.inner.add_obstacle(centre, to_f32(r)))
    }

    /// Removes every obstacle.
    #[wasm_bindgen(js_name = clearObstacles)]
    pub fn clear_obstacles(&mut self) {
        self.inner.clear_obstacles();
    }

    /// Removes obstacle `index` (0 for the first in `obstacles()`; the later ones move up
    /// one): true if there was one. Throws `TypeError` for an index that is not a number.
    #[wasm_bindgen(js_name = removeObstacle)]
    pub fn remove_obstacle(&mut self, index: &JsValue) -> Result<bool, JsValue> {
        let index = number("Flock.removeObstacle", "index", index)?;
        let whole = index.is_finite() && index >= 0.0 && index.fract() == 0.0;
        Ok(whole && index < 1e9 && self.inner.remove_obstacle(index as usize))
    }

    /// Holds the pointer at (x, y, z) (kept inside the world): the flock flies toward it, or
    /// away from it when `repel` is true, until `clearPointer()`. Throws `TypeError` for
    /// anything but three numbers and a boolean, `RangeError` for NaN or ±Infinity.
    #[wasm_bindgen(js_name = setPointer)]
    pub fn set_pointer(
        &mut self,
        x: &JsValue,
        y: &JsValue,
        z: &JsValue,
        repel: &JsValue,
    ) -> Result<(), JsValue> {
        const METHOD: &str = "Flock.setPointer";
        let point = coordinates(METHOD, x, y, z)?;
        let repel = boolean(METHOD, "repel", repel)?;
        self.inner.set_pointer(point, !repel);
        Ok(())
    }

    /// Lets go of the pointer.
    #[wasm_bindgen(js_name = clearPointer)]
    pub fn clear_pointer(&mut self) {
        self.inner.clear_pointer();
    }

    /// The flock's exact state (positions, velocities, ids, settings, the random generator,
    /// hawks, leaders, obstacles, time): `Flock.fromSnapshot` makes a flock that continues
    /// bit for bit as this one would. See docs/api.md for the format.
    pub fn snapshot(&self) -> Uint8Array {
        Uint8Array::from(&self.inner.snapshot()[..])
    }

    /// Simulated seconds stepped since the flock was made (a restored snapshot goes on from
    /// its own): where a moment lies on the rewind's timeline.
    pub fn elapsed(&self) -> f64 {
        self.inner.elapsed()
    }

    /// The flock a `snapshot()` holds. Throws `TypeError` for anything but a `Uint8Array`,
    /// `RangeError` saying why for bytes that are not a snapshot this build reads (another
    /// format version, truncated, altered, a value out of range); makes no flock then.
    #[wasm_bindgen(js_name = fromSnapshot)]
    pub fn from_snapshot(bytes: &JsValue) -> Result<Flock, JsValue> {
        const METHOD: &str = "Flock.fromSnapshot";
        let array: &Uint8Array = bytes
            .dyn_ref()
            .ok_or_else(|| args::type_error(METHOD, "bytes", "a Uint8Array", bytes))?;
        // Measured before it is copied into wasm memory: a gigabyte is refused unread.
        let (present, most) = (array.length() as usize, sim::Flock::largest_snapshot());
        let inner = if present > most {
            Err(sim::SnapshotError::TooLong { present, most })
        } else {
            sim::Flock::from_snapshot(&array.to_vec())
        };
        Ok(Flock {
            inner: inner.map_err(|e| args::range_error(METHOD, &e.to_string()))?,
            survey: None,
            surveys_begun: 0,
            sharing: Default::default(),
        })
    }
}

/// A fresh object with these fields. A setter that a page put on `Object.prototype` may
/// refuse one (it throws): that field is left out, rather than a panic trapping the module.
fn object<'a>(fields: impl IntoIterator<Item = (&'a str, JsValue)>) -> JsValue {
    let object = Object::new();
    for (key, value) in fields {
        let _ = Reflect::set(&object, &key.into(), &value);
    }
    object.into()
}

fn spec_object(spec: &sim::ParamSpec) -> JsValue {
    let setter = format!(
        "set{}{}",
        spec.name[..1].to_ascii_uppercase(),
        &spec.name[1..]
    );
    let kind = match spec.kind {
        Kind::Real => "real",
        Kind::Integer => "integer",
        Kind::Toggle => "toggle",
    };
    let scale = match spec.scale {
        Scale::Linear => "linear",
        Scale::Log => "log",
    };
    object([
        ("name", spec.name.into()),
        ("label", spec.label.into()),
        ("min", spec.min.into()),
        ("max", spec.max.into()),
        ("default", spec.default.into()),
        ("step", spec.step.into()),
        ("unit", spec.unit.into()),
        ("kind", kind.into()),
        ("scale", scale.into()),
        ("slider", spec.slider.into()),
        ("description", spec.description.into()),
        ("getter", spec.name.into()),
        ("setter", setter.into()),
    ])
}

/// The most boids, and the most steps, the benchmarks take.
const BENCH_MAX: u32 = 100_000;

/// A whole number from `min` to `BENCH_MAX`, for the benchmark `method`.
fn bench_count(method: &str, name: &str, value: &JsValue, min: u32) -> Result<u32, JsValue> {
    let value = number(method, name, value)?;
    if value.fract() == 0.0 && (f64::from(min)..=f64::from(BENCH_MAX)).contains(&value) {
        Ok(value as u32)
    } else {
        Err(args::range_error(
            method,
            &format!("{name} must be a whole number from {min} to {BENCH_MAX}"),
        ))
    }
}

/// Milliseconds per step of the standard benchmark scenario (see
/// `shared/bench-scenario.md`) at `count` boids (1 to 100,000), after `warmup` steps,
/// measured inside this wasm module over `steps` more (each 0 to 100,000): the median over
/// batches of steps (see below why batches).
#[wasm_bindgen(js_name = benchmarkStep)]
pub fn benchmark_step(count: &JsValue, warmup: &JsValue, steps: &JsValue) -> Result<f64, JsValue> {
    const METHOD: &str = "benchmarkStep";
    let count = bench_count(METHOD, "count", count, 1)?;
    let warmup = bench_count(METHOD, "warmup", warmup, 0)?;
    let steps = bench_count(METHOD, "steps", steps, 0)?;
    let mut flock = sim::Flock::bench_scenario(count as usize);
    time_steps(METHOD, &mut flock, count, warmup, steps)
}

/// Median ms per step of `flock` (`count` boids) over `steps` steps after `warmup`.
fn time_steps(
    method: &str,
    flock: &mut sim::Flock,
    count: u32,
    warmup: u32,
    steps: u32,
) -> Result<f64, JsValue> {
    let performance = web_sys::window()
        .and_then(|w| w.performance())
        .ok_or_else(|| js_sys::Error::new(&format!("{method}: needs window.performance")))?;
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
    // In f32 (microseconds are far above its precision at these sizes): the module's one
    // float sort, where a sort of f64 brought a second (4 KB of wasm).
    let mut times: Vec<f32> = (0..samples)
        .map(|_| {
            let start = performance.now();
            for _ in 0..batch {
                flock.step(sim::BENCH_DT);
            }
            ((performance.now() - start) / f64::from(batch)) as f32
        })
        .collect();
    times.sort_unstable_by(f32::total_cmp);
    Ok(f64::from(times[times.len() / 2]))
}

/// The settled scenarios (`shared/bench-scenario.md`): scenario 0 is the standard one,
/// 1… the presets in `Flock.presets()` order. Returns `[ms per step, mean neighbours]`
/// after `warmup` steps, the median over `steps` steps timed inside this wasm module in
/// batches as `benchmarkStep` does; `undefined` for an unknown scenario. Counts as for
/// `benchmarkStep`.
#[wasm_bindgen(js_name = benchmarkScenario)]
pub fn benchmark_scenario(
    scenario: &JsValue,
    count: &JsValue,
    warmup: &JsValue,
    steps: &JsValue,
) -> Result<Option<Vec<f64>>, JsValue> {
    const METHOD: &str = "benchmarkScenario";
    let scenario = number(METHOD, "scenario", scenario)?;
    let count = bench_count(METHOD, "count", count, 1)?;
    let warmup = bench_count(METHOD, "warmup", warmup, 0)?;
    let steps = bench_count(METHOD, "steps", steps, 0)?;
    let preset = match scenario {
        0.0 => None,
        k if k.fract() == 0.0 && k >= 1.0 => match PRESETS.get(k as usize - 1) {
            Some(preset) => Some(preset),
            None => return Ok(None),
        },
        _ => return Ok(None),
    };
    let mut flock = match preset {
        None => sim::Flock::bench_scenario(count as usize),
        Some(preset) => sim::Flock::preset_scenario(preset, count as usize),
    };
    Ok(Some(vec![
        time_steps(METHOD, &mut flock, count, warmup, steps)?,
        f64::from(flock.mean_neighbours()),
    ]))
}
