//! A flock's exact state as bytes and back (the format: `sim/snapshot.rs`): everything the
//! next step reads, so that a flock made from a snapshot steps on bit for bit as the
//! original would, and everything its own calls read after (the generator `set_count`
//! draws from, the id the next boid gets).
//!
//! The payload:
//!
//! | bytes | what |
//! |---|---|
//! | 8 × 33 | every parameter of the table but the count, in its order, as `get` reads it (f64); the world size as set, NaN while it follows the count |
//! | 8 | the generator's state |
//! | 4 + 8 + 8 | the next boid's id; steps taken (noise draws from seed, id and step); seconds flown (f64) |
//! | 4 | the world's side |
//! | 4 + 4 + 1 | the last step's neighbours and candidates a boid, and rows of the grid to a cell (the next step picks its rows from the last two) |
//! | 4 | boids, n |
//! | 12 n + 12 n + 4 n | positions, velocities (xyz each), ids, in the flock's own order (sums run in that order) |
//! | n | species, only when there is more than one |
//! | 4 + … | the past, while there is a delay (`swarm::History`): frames, then each frame's time (f64), m, m positions, m velocities (xyz each) and m ids; a step's head holds only the frame its step reads |
//! | … | hawks, leaders, obstacles, pointer (`Behaviours::write_snapshot`) |
//!
//! The parameters are read back through the table's own setters, into a flock of none, and
//! each must then read as written: none out of its range (it would have been clamped), none
//! undone by another (an open sky turns wrap off), the settings whole.
//!
//! Not stored, because every step rebuilds them before reading them: the grid's cells, the
//! sorted copy, the scan's and the nearest-k search's scratch; nor the last step's
//! per-boid readouts (neighbours heeded, strongest rule), which the next step writes
//! afresh (`neighbour_counts` says they may be short until then).

use crate::sim::behaviours::{Behaviours, MAX_OBSTACLES};
use crate::sim::grid::Grid;
use crate::sim::params::MAX_DELAY;
use crate::sim::params::{Param, PARAMS};
use crate::sim::predator::MAX_PREDATORS;
use crate::sim::rng::Rng;
use crate::sim::scan::ROWS_PER_CELL;
use crate::sim::settings::{Settings, SKY_SCALE};
use crate::sim::snapshot::{Reader, SnapshotError, Writer};
use crate::sim::swarm::{self, Frame};

use super::Flock;

/// Bytes a boid takes: position and velocity (f32 xyz each), id, species.
const PER_BOID: usize = 12 + 12 + 4 + 1;
/// Bytes a boid takes in a frame of the past, and the frame's own (time, count).
const PER_PAST_BOID: usize = swarm::BYTES_PER_BOID_FRAME;
const PER_FRAME: usize = 8 + 4;

/// Bytes besides the boids, at most: the frame, the settings, the flock's own figures and
/// the behaviours (generous: an upper bound, only to refuse absurd lengths unread).
const BESIDE_BOIDS: usize = 1024;

impl Flock {
    /// The most bytes a snapshot takes: a flock of the table's most boids, hawks, leaders
    /// and obstacles. Longer input is refused before it is read.
    pub fn largest_snapshot() -> usize {
        let boids = Param::Count.spec().max as usize;
        let hawks = MAX_PREDATORS * 28;
        let leaders = Param::Leaders.spec().max as usize * 28;
        let past = swarm::HISTORY_BUDGET + swarm::frames_for(MAX_DELAY as f32) * PER_FRAME;
        BESIDE_BOIDS + boids * PER_BOID + past + hawks + leaders + MAX_OBSTACLES * 16
    }

    /// The flock's whole state as bytes (see the module's table): `from_snapshot` makes a
    /// flock that continues bit for bit as this one.
    pub fn snapshot(&self) -> Vec<u8> {
        self.write_snapshot(true)
    }

    /// A snapshot, or without `boids` one of a flock of none with everything else this
    /// one has (`step_head`: what a worker sharing a step needs besides the boids).
    pub(super) fn write_snapshot(&self, boids: bool) -> Vec<u8> {
        let count = if boids { self.len() } else { 0 };
        // A worker's head carries the one frame its step reads, a snapshot all of them.
        let past: Vec<&Frame> = if boids {
            self.history().frames().collect()
        } else {
            let s = &self.settings;
            self.history()
                .read(self.elapsed, s.delay)
                .into_iter()
                .collect()
        };
        let past_bytes: usize = past
            .iter()
            .map(|frame| PER_FRAME + frame.ids.len() * PER_PAST_BOID)
            .sum();
        let mut out = Writer::new(BESIDE_BOIDS + count * PER_BOID + 4 + past_bytes);
        for spec in PARAMS {
            if spec.param != Param::Count {
                out.f64(self.parameter(spec.param));
            }
        }
        out.u64(self.rng.state());
        out.u32(self.next_id);
        out.u64(self.ticks);
        out.f64(self.elapsed);
        out.f32(self.world);
        out.f32(self.mean_neighbours);
        out.f32(self.mean_candidates);
        // A grid never sorted has 0 rows, which the step reads as 1 (`scan_rows_per_cell`).
        out.u8(self.grid.rows_per_cell().max(1) as u8);
        out.u32(count as u32);
        if boids {
            out.f32s(&self.positions);
            out.f32s(&self.velocities);
            out.u32s(&self.ids);
            // With one species every boid's is 0: nothing to store.
            if self.settings.species > 1 {
                out.bytes(&self.species);
            }
        }
        out.u32(past.len() as u32);
        for frame in past {
            out.f64(frame.time);
            out.u32(frame.ids.len() as u32);
            out.f32s(&frame.positions);
            out.f32s(&frame.velocities);
            out.u32s(&frame.ids);
        }
        self.behaviours.write_snapshot(&mut out);
        out.finish()
    }

    /// The flock `snapshot` wrote, or why these bytes are not one: not a snapshot, another
    /// version of the format, truncated, altered (the checksum), or a value no flock holds
    /// (a count past the table's maximum, a position outside the world or not finite, a
    /// species past the species count, two boids with one id…). Never a flock half read.
    pub fn from_snapshot(bytes: &[u8]) -> Result<Flock, SnapshotError> {
        let mut input = Reader::open(bytes, Self::largest_snapshot())?;
        // The parameters set on a flock of none, then the rest read into it, its scratch
        // left empty (the next step builds it). Refused, it is dropped whole.
        let mut flock = Flock::with_parameters(&mut input);
        flock.rng = Rng::from_state(input.u64());
        flock.next_id = input.u32();
        flock.ticks = input.u64();
        flock.elapsed = input.f64();
        input.check(
            (0.0..f64::INFINITY).contains(&flock.elapsed),
            "the time flown",
        );
        // The view's side is in the table's range, the world's up to `SKY_SCALE` times it.
        let spec = Param::WorldSize.spec();
        let sides = spec.min as f32..=spec.max as f32 * SKY_SCALE;
        flock.world = input.f32();
        input.check(sides.contains(&flock.world), "the world's size");
        let figure = 0.0..f32::INFINITY;
        flock.mean_neighbours = input.f32();
        flock.mean_candidates = input.f32();
        input.check(
            figure.contains(&flock.mean_neighbours) && figure.contains(&flock.mean_candidates),
            "the last step's neighbours or candidates",
        );
        let rows = input.count(1, ROWS_PER_CELL, "rows of the grid to a cell");
        input.check(rows > 0, "no rows of the grid to a cell");
        flock.grid = Grid::with_rows_per_cell(rows);
        flock.read_boids(&mut input);
        flock.read_past(&mut input);
        flock.behaviours = Behaviours::read_snapshot(&mut input);
        input.finish()?;
        Ok(flock)
    }

    /// A parameter as a snapshot holds it: what `get` reads, but the world size as set
    /// (NaN while it follows the count: `get` reads the size it has then).
    fn parameter(&self, param: Param) -> f64 {
        match param {
            Param::WorldSize => self.settings.world_size.map_or(f64::NAN, f64::from),
            param => self.get(param),
        }
    }

    /// A flock of none with the parameters a snapshot holds, each set by the table's own
    /// setter in the table's order; `input` is refused unless each then reads as written.
    fn with_parameters(input: &mut Reader) -> Flock {
        let mut flock = Flock::new(0, Some(0));
        // Every field of the settings by name, no `..`: each is a parameter of the table,
        // which is what is stored; a field added to `Settings` does not compile here until
        // it is one too.
        let Settings {
            speed: _,
            separation: _,
            alignment: _,
            cohesion: _,
            perception: _,
            separation_radius: _,
            alignment_radius: _,
            field_of_view: _,
            max_force: _,
            noise: _,
            world_size: _,
            wrap: _,
            sky: _,
            home_range: _,
            predators: _,
            predator_speed: _,
            flee_radius: _,
            leaders: _,
            leader_weight: _,
            pointer_strength: _,
            wind_strength: _,
            wind_heading: _,
            wind_elevation: _,
            species: _,
            flat: _,
            topological: _,
            nearest_k: _,
            delay: _,
            message_loss: _,
            failures: _,
            failure_mode: _,
            roles: _,
        } = &flock.settings;
        let mut values = [0.0; PARAMS.len()];
        for (spec, value) in PARAMS.iter().zip(&mut values) {
            if spec.param == Param::Count {
                continue;
            }
            *value = input.f64();
            let follows_the_count = spec.param == Param::WorldSize && value.is_nan();
            if !follows_the_count {
                // A value `set` refuses (not finite) reads back otherwise: refused below.
                let _ = flock.set(spec.param, *value);
            }
        }
        for (spec, value) in PARAMS.iter().zip(values) {
            let read = flock.parameter(spec.param);
            if spec.param != Param::Count && read.to_bits() != value.to_bits() {
                input.refuse(SnapshotError::Setting(spec.name));
            }
        }
        flock
    }

    /// Reads the past into this flock (its delay read already): no more frames than the
    /// delay keeps, none later than now nor out of order, none larger than a flock, the
    /// whole within the budget, every number finite. A flock with no delay keeps none.
    fn read_past(&mut self, input: &mut Reader) {
        let delay = self.settings.delay;
        let frames = input.count(4, swarm::frames_for(delay), "frames of the past");
        let most = Param::Count.spec().max as usize;
        let (mut bytes, mut last) = (0usize, f64::NEG_INFINITY);
        for _ in 0..frames {
            let time = input.f64();
            input.check(
                time >= last && time <= self.elapsed,
                "a frame of the past out of order, or after now",
            );
            last = time;
            let m = input.count(4, most, "boids in a frame of the past");
            bytes += m * PER_PAST_BOID;
            input.check(
                bytes <= swarm::HISTORY_BUDGET,
                "a past larger than the budget",
            );
            let not_finite = "a frame of the past with a number that is not finite";
            let positions = input.finite_f32s(3 * m, not_finite);
            let velocities = input.finite_f32s(3 * m, not_finite);
            let ids = input.u32s(m);
            self.history_mut().push(Frame {
                time,
                ids,
                positions,
                velocities,
            });
        }
    }

    /// Reads the boids into this flock (its world and settings read already): positions in
    /// the world, velocities finite, ids unique, species below the species count.
    fn read_boids(&mut self, input: &mut Reader) {
        let count = input.count(4, Param::Count.spec().max as usize, "boids");
        let outside = "a position outside the world, or not a finite number";
        self.positions = input.f32s_within(3 * count, 0.0, self.world, outside);
        self.velocities = input.finite_f32s(3 * count, "a velocity that is not finite");
        self.ids = input.u32s(count);
        // Sorted as u64 keys: the module's one integer sort (`nearer_first`), no second.
        let mut keys = vec![0u64; count];
        for (key, &id) in keys.iter_mut().zip(&self.ids) {
            *key = u64::from(id);
        }
        keys.sort_unstable();
        let unique = keys.windows(2).all(|pair| pair[0] != pair[1]);
        input.check(unique, "two boids with the same id");
        let kinds = self.settings.species;
        self.species = if kinds > 1 {
            input.bytes_below(count, kinds as u8, "a species past the species count")
        } else {
            vec![0; count]
        };
    }
}
