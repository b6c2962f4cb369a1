//! `Replay` and `natureProfile` for JavaScript (issue 43): a recorded flock read from text
//! (`sim::recording`), the birds at any time for the page's flock to draw
//! (`Flock.setBirds`), its leadership graph (`sim::leadership`), and the profile a model
//! flock and a recording are compared by (`sim::measures::profile`), the same code for both.
//! In the experiment worker's module only (the `worker` and `lab` features: it loads on
//! demand, never with the page). Arguments are checked here: a `TypeError` or `RangeError`
//! naming the method, never a trap; a file with a bad line makes no `Replay`.

use js_sys::{Array, Float32Array, Float64Array, Object, Reflect, Uint32Array, Uint8Array};
use wasm_bindgen::prelude::*;

use super::args::{finite, floats, range_error, string};
use crate::sim::leadership::{leadership, LeadershipSpec};
use crate::sim::measures::profile::profile;
use crate::sim::recording::{is_decimal, Recording};

/// The longest text read: 64 MiB, about a million fixes with velocities (`MAX_FIXES`).
const MAX_TEXT: u32 = 64 << 20;
/// The most birds `natureProfile` measures (it is O(N²)): 2,000,000 pairs, 10 ms or so.
const MAX_PROFILED: u32 = 3 * 2_000;
/// A bird drawn between fixes more than this many of its usual intervals apart is marked:
/// its place there is a straight line, not a fix.
const MARKED_SPAN: f32 = 1.5;
/// Samples (a second apart) looked at for the flock's radius.
const RADIUS_SAMPLES: usize = 2_000;

/// A recorded flock, and the birds at the time last sought.
#[wasm_bindgen]
pub struct Replay {
    recording: Recording,
    /// The farthest any bird strays from the flock's centre, over the recording.
    radius: f32,
    positions: Vec<f32>,
    velocities: Vec<f32>,
    present: Vec<u32>,
    marked: Vec<u8>,
}

#[wasm_bindgen]
impl Replay {
    /// Reads `text`: one fix a line, `time, id, x, y, z` or with `vx, vy, vz` (docs/api.md).
    /// A `RangeError` names the first bad line ("new Replay: line 12: …").
    #[wasm_bindgen(constructor)]
    pub fn new(text: &JsValue) -> Result<Replay, JsValue> {
        const WHERE: &str = "new Replay";
        let text = string(WHERE, "text", text, MAX_TEXT)?;
        let recording = Recording::parse_with(&text, js_number_of)
            .map_err(|e| range_error(WHERE, &e.to_string()))?;
        let (start, end) = recording.span();
        let step = ((end - start) / RADIUS_SAMPLES as f32).max(1.0);
        let mut radius = 0.0f32;
        let mut t = start;
        while t <= end {
            let birds: Vec<_> = recording.at(t).into_iter().flatten().collect();
            if !birds.is_empty() {
                let centre = birds.iter().map(|b| b.0).sum::<glam::Vec3>() / birds.len() as f32;
                radius = birds
                    .iter()
                    .fold(radius, |r, b| r.max(b.0.distance(centre)));
            }
            t += step;
        }
        Ok(Replay {
            recording,
            radius,
            positions: Vec::new(),
            velocities: Vec::new(),
            present: Vec::new(),
            marked: Vec::new(),
        })
    }

    /// The birds' labels, in the order first seen.
    pub fn ids(&self) -> Array {
        self.recording.ids.iter().map(JsValue::from).collect()
    }

    /// The first and last time of any fix (the file's unit, seconds).
    pub fn start(&self) -> f64 {
        self.recording.span().0.into()
    }

    pub fn end(&self) -> f64 {
        self.recording.span().1.into()
    }

    /// Fixes read.
    pub fn fixes(&self) -> usize {
        self.recording.tracks.iter().map(Vec::len).sum()
    }

    /// The farthest any bird strays from the flock's centre over the recording (sampled
    /// about every second): what a world must hold around the centre.
    pub fn radius(&self) -> f64 {
        self.radius.into()
    }

    /// The birds seen at `time`, placed around (`x`, `y`, `z`): their centre there, each
    /// where it is relative to it. Returns how many; `positions()`, `velocities()`,
    /// `present()` and `marked()` give them.
    pub fn seek(
        &mut self,
        time: &JsValue,
        x: &JsValue,
        y: &JsValue,
        z: &JsValue,
    ) -> Result<usize, JsValue> {
        const WHERE: &str = "Replay.seek";
        let time = finite(WHERE, "time", time)? as f32;
        let around = glam::Vec3::new(
            finite(WHERE, "x", x)? as f32,
            finite(WHERE, "y", y)? as f32,
            finite(WHERE, "z", z)? as f32,
        );
        let birds = self.recording.at(time);
        let spans = self.recording.spans_at(time);
        self.positions.clear();
        self.velocities.clear();
        self.present.clear();
        self.marked.clear();
        let seen: Vec<_> = birds.iter().flatten().collect();
        let centre = if seen.is_empty() {
            glam::Vec3::ZERO
        } else {
            seen.iter().map(|b| b.0).sum::<glam::Vec3>() / seen.len() as f32
        };
        for (bird, state) in birds.iter().enumerate() {
            let Some((p, v)) = state else { continue };
            self.positions.extend((*p - centre + around).to_array());
            self.velocities.extend(v.to_array());
            self.present.push(bird as u32);
            let usual = self.recording.usual_interval(bird);
            let span = spans[bird].unwrap_or(0.0);
            self.marked.push(u8::from(span > MARKED_SPAN * usual));
        }
        Ok(self.present.len())
    }

    /// The birds of the last `seek`, xyz each.
    pub fn positions(&self) -> Float32Array {
        Float32Array::from(&self.positions[..])
    }

    pub fn velocities(&self) -> Float32Array {
        Float32Array::from(&self.velocities[..])
    }

    /// Which birds they are (indices into `ids()`).
    pub fn present(&self) -> Uint32Array {
        Uint32Array::from(&self.present[..])
    }

    /// 1 for a bird drawn between fixes further apart than its usual interval.
    pub fn marked(&self) -> Uint8Array {
        Uint8Array::from(&self.marked[..])
    }

    /// Who leads whom (Nagy et al. 2010; `sim::leadership`, its defaults): each edge as
    /// [leader, follower, delay in seconds, correlation], flat.
    pub fn leads(&self) -> Float64Array {
        let graph = leadership(&self.recording, LeadershipSpec::default());
        let flat: Vec<f64> = graph
            .leads
            .iter()
            .flat_map(|l| {
                [
                    l.leader as f64,
                    l.follower as f64,
                    l.delay.into(),
                    l.correlation.into(),
                ]
            })
            .collect();
        Float64Array::from(&flat[..])
    }

    /// The birds ordered by their summed delays, the most leading first (indices into `ids()`).
    #[wasm_bindgen(js_name = leaderOrder)]
    pub fn leader_order(&self) -> Uint32Array {
        let graph = leadership(&self.recording, LeadershipSpec::default());
        let order: Vec<u32> = graph.order.iter().map(|&i| i as u32).collect();
        Uint32Array::from(&order[..])
    }
}

/// `value` read as Rust's `str::parse::<f32>` would, by JavaScript's `parseFloat` (Rust's
/// float parser would add 21 KB gzipped to this module): only what `is_decimal` passes, so
/// that "0x1f", "1-2" and "1e" are refused as Rust refuses them (`parseFloat` would read a
/// number off the front of some); `None` for anything else.
pub(super) fn js_number_of(value: &str) -> Option<f32> {
    is_decimal(value).then(|| js_sys::Number::parse_float(value) as f32)
}

fn set(object: &Object, key: &str, value: JsValue) {
    // Setting a data property on a fresh plain object cannot fail.
    let _ = Reflect::set(object, &key.into(), &value);
}

fn optional(value: Option<f32>) -> JsValue {
    value.map_or(JsValue::NULL, |v| JsValue::from(f64::from(v)))
}

/// The profile of the birds at `positions` flying at `velocities` (Float32Arrays, xyz each,
/// at most 2,000 birds): { count, polarization, milling, state ("swarm", "milling",
/// "polarized", "transitional"), nearest, speed, speedSpread, correlationLength (null when
/// C(r) never crosses zero), size, correlationShare (ξ/L), anisotropy (γ(1), null for fewer
/// than two birds) }. The same numbers for a model flock and a recording.
#[wasm_bindgen(js_name = natureProfile)]
pub fn nature_profile(positions: &JsValue, velocities: &JsValue) -> Result<Object, JsValue> {
    const WHERE: &str = "natureProfile";
    let p = floats(WHERE, "positions", positions, MAX_PROFILED)?;
    let v = floats(WHERE, "velocities", velocities, MAX_PROFILED)?;
    if p.len() != v.len() || p.len() % 3 != 0 {
        let (p, v) = (p.len(), v.len());
        return Err(range_error(
            WHERE,
            &format!("positions and velocities must hold xyz for each bird alike, got {p} and {v} numbers"),
        ));
    }
    let profile = profile(&p, &v);
    let object = Object::new();
    set(&object, "count", (profile.count as f64).into());
    set(
        &object,
        "polarization",
        f64::from(profile.polarization).into(),
    );
    set(&object, "milling", f64::from(profile.milling).into());
    set(&object, "state", profile.state.name().into());
    set(&object, "nearest", f64::from(profile.nearest).into());
    set(&object, "speed", f64::from(profile.speed).into());
    set(
        &object,
        "speedSpread",
        f64::from(profile.speed_spread).into(),
    );
    set(
        &object,
        "correlationLength",
        optional(profile.correlation_length),
    );
    set(&object, "size", f64::from(profile.size).into());
    set(
        &object,
        "correlationShare",
        optional(profile.correlation_share()),
    );
    set(&object, "anisotropy", optional(profile.anisotropy));
    Ok(object)
}
