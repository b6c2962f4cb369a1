//! The bindings of a step shared among workers (`www/core/threads.js`, `www/core/share-worker.js`;
//! the simulation's side is `sim/flock/parts.rs`).
//!
//! The page's `Flock` hands a step out (`shareBegin`: its head; `shareViews`: its boids'
//! arrays, which threads.js copies into `SharedArrayBuffer`s), each worker's `FlockShare`
//! loads the head and the boids, steps its share and leaves its new state there, and the
//! `Flock` takes every share in (`shareFinish`) — only if it is still the flock the step
//! was handed out from: no setting, behaviour or boid changed meanwhile (else the caller
//! steps on its own). That rule is the simulation's (`sim::Handout`); this is its binding.
//!
//! The views into the module's memory are valid until the next call into the module that
//! allocates: JavaScript copies through them at once, and never keeps them.

use js_sys::{Array, Float32Array, Uint16Array, Uint32Array, Uint8Array};
use wasm_bindgen::prelude::*;

use super::args::{number, range_error, type_error};
use super::flock::Flock;
use crate::sim::{self, PartState, Split, Totals};

#[wasm_bindgen]
impl Flock {
    /// Hands a step out: the flock's head (`Uint8Array`, a few hundred bytes: everything
    /// but the boids, which `shareViews` gives), remembered so that `shareFinish` takes the
    /// shares in only if nothing changed meanwhile.
    #[wasm_bindgen(js_name = shareBegin)]
    pub fn share_begin(&mut self) -> Uint8Array {
        let (sim, sharing) = self.sim_and_sharing();
        Uint8Array::from(sharing.begin(sim))
    }

    /// Views into the module's memory, to copy through at once: the boids' positions,
    /// velocities (xyz each) and species as they are, then room for the shares' new
    /// positions, velocities, neighbours heeded (`Uint16Array`), strongest rules and the
    /// sort's order (`Uint32Array`), for the boids `shareBegin` handed out; last the boids'
    /// ids (`Uint32Array`: a swarm's draws, who fails and who is bold, follow them).
    #[wasm_bindgen(js_name = shareViews)]
    pub fn share_views(&self) -> Array {
        let sim = self.sim();
        let shares = &self.sharing.shares;
        // SAFETY: views of memory the flock owns, read or written by JavaScript before any
        // other call into the module (see the module's comment); nothing here allocates in
        // the module between making them and returning.
        unsafe {
            views9([
                Float32Array::view(sim.positions()).into(),
                Float32Array::view(sim.velocities()).into(),
                Uint8Array::view(sim.species()).into(),
                Float32Array::view(&shares.positions).into(),
                Float32Array::view(&shares.velocities).into(),
                Uint16Array::view(&shares.counts).into(),
                Uint8Array::view(&shares.strongest).into(),
                Uint32Array::view(&shares.order).into(),
                Uint32Array::view(sim.ids()).into(),
            ])
        }
    }

    /// Takes in the step of `dt` the workers shared (written through `shareViews`), with
    /// the neighbours and candidates they counted, summed. True when it was taken in; false
    /// when the flock changed since `shareBegin` (a setting, a behaviour, the boids), when
    /// there is no step handed out, or `dt` is not one substep: the flock is then as it
    /// was, and the caller steps it on its own.
    #[wasm_bindgen(js_name = shareFinish)]
    pub fn share_finish(
        &mut self,
        dt: &JsValue,
        neighbours: &JsValue,
        examined: &JsValue,
    ) -> Result<bool, JsValue> {
        const METHOD: &str = "Flock.shareFinish";
        let dt = number(METHOD, "dt", dt)?;
        let totals = Totals {
            neighbours: count(METHOD, "neighbours", neighbours)?,
            examined: count(METHOD, "examined", examined)?,
        };
        let (sim, sharing) = self.sim_and_sharing();
        Ok(sharing.finish(sim, dt as f32, totals))
    }
}

/// The nine views, as one array.
fn views9(views: [JsValue; 9]) -> Array {
    views.into_iter().collect()
}

/// A whole number of things counted, as JavaScript's numbers hold them exactly.
fn count(method: &str, name: &str, value: &JsValue) -> Result<u64, JsValue> {
    let value = number(method, name, value)?;
    if !(0.0..=9_007_199_254_740_991.0).contains(&value) || value.fract() != 0.0 {
        return Err(range_error(
            method,
            &format!("{name} must be a whole number from 0"),
        ));
    }
    Ok(value as u64)
}

/// One worker's copy of the flock (`www/core/share-worker.js`): loads the head and the boids a
/// step was handed out with, steps its share, and holds its new state for JavaScript to
/// copy out. Its scratch stays from step to step.
#[wasm_bindgen]
pub struct FlockShare {
    copy: sim::Flock,
    out: PartState,
}

impl Default for FlockShare {
    fn default() -> Self {
        FlockShare {
            copy: sim::Flock::new(0, Some(0)),
            out: PartState::default(),
        }
    }
}

#[wasm_bindgen]
impl FlockShare {
    #[wasm_bindgen(constructor)]
    pub fn new() -> FlockShare {
        FlockShare::default()
    }

    /// Loads the flock `head` describes (`Flock.shareBegin`) with `count` boids, whose
    /// arrays `views` then gives to be written. A head that is not one is a `RangeError`.
    pub fn load(&mut self, head: &[u8], count: &JsValue) -> Result<(), JsValue> {
        const METHOD: &str = "FlockShare.load";
        let count = number(METHOD, "count", count)?;
        if !(0.0..=f64::from(u32::MAX)).contains(&count) {
            return Err(range_error(METHOD, "count must be a number of boids"));
        }
        self.copy
            .load_head(head, count as usize)
            .map_err(|error| range_error(METHOD, &format!("not a flock's head: {error}")))
    }

    /// Views to copy through at once: the loaded boids' positions, velocities (xyz each)
    /// and species, to write; then the new positions, velocities, neighbours heeded,
    /// strongest rules and the sort's order after `advance`, slot by slot, of which this
    /// share wrote its `runs`; last the loaded boids' ids, to write.
    pub fn views(&mut self) -> Array {
        let out = &self.out;
        let (positions, velocities, species, ids) = self.copy.boids_mut();
        // SAFETY: as `Flock.shareViews`.
        unsafe {
            views9([
                Float32Array::view(positions).into(),
                Float32Array::view(velocities).into(),
                Uint8Array::view(species).into(),
                Float32Array::view(&out.positions).into(),
                Float32Array::view(&out.velocities).into(),
                Uint16Array::view(&out.counts).into(),
                Uint8Array::view(&out.strongest).into(),
                Uint32Array::view(&out.order).into(),
                Uint32Array::view(ids).into(),
            ])
        }
    }

    /// Steps chunks of the loaded flock by `dt` (one substep: 1/60 s or less) while
    /// `claim()` hands them out: it returns the next chunk's number, counted across all the
    /// workers (`Atomics.add` on a shared counter), and past the last (`Flock::chunks`) this
    /// worker stops. Workers claiming from one counter step every boid once, however the
    /// chunks fall to them. A `RangeError` for a `dt` the step would split; a `TypeError`
    /// when `claim` answers something other than a number (or its error, when it throws).
    pub fn advance(&mut self, dt: &JsValue, claim: &js_sys::Function) -> Result<(), JsValue> {
        const METHOD: &str = "FlockShare.advance";
        let dt = number(METHOD, "dt", dt)?;
        let count = self.copy.len();
        let chunks = self.copy.chunks();
        let (mut failed, mut claims) = (None, 0);
        // No more claims than there are chunks: a `claim` that never runs out ends too.
        let next = || {
            claims += 1;
            let answer = claim
                .call0(&JsValue::NULL)
                .map_err(|error| failed = Some(error))
                .ok()?;
            let Some(k) = answer.as_f64().filter(|k| *k >= 0.0) else {
                failed = Some(type_error(METHOD, "claim()", "a chunk's number", &answer));
                return None;
            };
            Split::even(k as usize, chunks, count).filter(|_| claims <= chunks)
        };
        let stepped = self.copy.advance_parts(dt as f32, next, &mut self.out);
        if let Some(error) = failed {
            return Err(error);
        }
        if stepped {
            Ok(())
        } else {
            Err(range_error(
                METHOD,
                "dt must be one substep: above 0, at most 1/60 s",
            ))
        }
    }

    /// The runs of slots this share wrote, as [start, end) pairs end to end.
    pub fn runs(&self) -> Vec<u32> {
        self.out
            .runs
            .iter()
            .flat_map(|run| [run.start as u32, run.end as u32])
            .collect()
    }

    /// Neighbours this share's boids heeded, summed.
    pub fn neighbours(&self) -> f64 {
        self.out.totals.neighbours as f64
    }

    /// Candidates this share's boids examined, summed.
    pub fn examined(&self) -> f64 {
        self.out.totals.examined as f64
    }
}
