//! The flock: state in flat `f32` arrays (xyz per boid), stepped over a counting-sort grid.

use std::ops::Range;

use glam::Vec3;

use super::behaviours::{Behaviours, Forces, Pointer};
use super::glide::{glide_all, Sightings};
use super::grid::Grid;
use super::leader::LeaderPath;
use super::measures::{centre_of_mass, extent, Space};
use super::nearest::{Nearest, Seeker};
use super::noise::turn_headings;
use super::rng::Rng;
use super::scan::{Scanner, Sorted, Span, View};
pub use super::settings::Settings;

mod access;
mod handout;
mod look;
mod parts;
mod population;
mod reference;
#[cfg(any(not(target_arch = "wasm32"), feature = "lab"))]
mod search;
mod snapshot;
mod steer;
mod survey;
mod swarm;
mod window;

pub use handout::Handout;
pub use parts::{PartState, Split};
pub use reference::Inspection;
pub use steer::Terms;
pub use survey::FlockSurvey;
pub use window::ScanWindow;

/// The longest single integration step; longer `dt`s are split into steps this long.
pub const MAX_SUBSTEP: f32 = 1.0 / 60.0;
/// The most time one `step` call advances: a tab that was hidden for a minute must not
/// make the flock jump (or spend a minute catching up).
pub const MAX_STEP: f32 = 0.25;
/// Time step of the standard benchmark scenario.
pub const BENCH_DT: f32 = 1.0 / 60.0;

/// A flock of boids.
#[derive(Clone, Debug)]
pub struct Flock {
    settings: Settings,
    seed: u32,
    rng: Rng,
    /// x, y, z per boid, inside [0, world]³.
    positions: Vec<f32>,
    velocities: Vec<f32>,
    /// Species of each boid (0 to species − 1), in the same order as `positions`.
    species: Vec<u8>,
    /// Scratch for re-ordering `species` with the boids.
    species_scratch: Vec<u8>,
    /// Each boid's id, in the same order as `positions`: it follows its boid through the
    /// re-ordering of every step, so a selection follows the same bird.
    ids: Vec<u32>,
    /// Scratch for re-ordering `ids` with the boids.
    ids_scratch: Vec<u32>,
    /// The id the next boid added gets.
    next_id: u32,
    /// Hawks, leaders, obstacles and the pointer.
    behaviours: Behaviours,
    /// The old state in cell order, read while the new state is written (double buffer).
    sorted: Sorted,
    /// The radius scan's walk and its scratch.
    scanner: Scanner,
    /// Scratch: the spans of slots around one cell, for the nearest-k search.
    spans: Vec<Span>,
    /// Scratch: what each boid saw, when all move together (`glide_all`).
    sightings: Sightings,
    /// Move every boid one at a time even when `glide_all` could: for tests that compare
    /// the two.
    one_at_a_time: bool,
    /// The search by another method than the grid (issue 42), and its scratch.
    #[cfg(any(not(target_arch = "wasm32"), feature = "lab"))]
    lab: search::Lab,
    /// What looking around cost in the last step (`search_stats`).
    last_totals: Totals,
    /// The swarm's past and the step's layout for it (`flock/swarm.rs`).
    swarm: swarm::SwarmState,
    grid: Grid,
    world: f32,
    mean_neighbours: f32,
    mean_candidates: f32,
    /// Neighbours each boid heeded in the last step, in the order of `positions` (what
    /// "colour by neighbours" shows): written by the scan, one store per boid.
    neighbour_counts: Vec<u16>,
    /// The rule that pushed each boid hardest in the last step (`rules::strongest`), in the
    /// order of `positions`: written where the acceleration is summed (`glide_all` or
    /// `integrate`).
    strongest: Vec<u8>,
    /// Simulated seconds stepped since the flock was made (what trails are sampled by).
    elapsed: f64,
    /// Steps taken since the flock was made: with the seed and a boid's id, it picks the
    /// boid's random turn (`noise.rs`).
    ticks: u64,
    /// Changes with every change to the boids' arrays (a step, new positions, boids added
    /// or taken away): a step shared among workers is taken in only if the flock is still
    /// the one it was handed out from (`flock/handout.rs`). Not part of a snapshot.
    revision: u64,
}

/// The next state as a step writes it, slot by slot (`Flock::take_next`).
struct Next {
    positions: Vec<f32>,
    velocities: Vec<f32>,
    /// Neighbours heeded, per boid.
    counts: Vec<u16>,
    /// The strongest rule, per boid.
    strongest: Vec<u8>,
}

/// What looking around cost, summed over the boids looked for.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Totals {
    /// Neighbours heeded.
    pub neighbours: u64,
    /// Candidates examined.
    pub examined: u64,
}

impl Flock {
    pub fn len(&self) -> usize {
        self.positions.len() / 3
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// x, y, z per boid, in [0, world size]. The order of boids changes from step to step
    /// (they are kept sorted by grid cell).
    pub fn positions(&self) -> &[f32] {
        &self.positions
    }

    pub fn velocities(&self) -> &[f32] {
        &self.velocities
    }

    /// Species of each boid (0 to species − 1), in the same order as `positions()`.
    pub fn species(&self) -> &[u8] {
        &self.species
    }

    /// Each boid's id, in the same order as `positions()`. An id stays with its boid through
    /// every step, `set_count` (the boids that stay keep theirs; new ones get new ids) and
    /// presets; `rebuild` and a new seed number the flock afresh from 0.
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// Where the boid with `id` is now in `positions()` (`None` for an unknown id).
    pub fn index_of(&self, id: u32) -> Option<usize> {
        self.ids.iter().position(|&other| other == id)
    }

    /// Whether the world is flat (2D): every z and velocity z is 0, seen from above (+z).
    pub fn is_flat(&self) -> bool {
        self.settings.flat
    }

    /// x, y, z per hawk.
    pub fn predator_positions(&self) -> &[f32] {
        &self.behaviours.hawk_positions
    }

    /// x, y, z per hawk, in the same order as `predator_positions()`.
    pub fn predator_velocities(&self) -> &[f32] {
        &self.behaviours.hawk_velocities
    }

    /// Sets hawk `index`'s position and heading (its speed stays the hawks' speed), and
    /// starts a dive from there. For lessons and tests; false if there is no such hawk.
    pub fn place_predator(&mut self, index: usize, position: Vec3, velocity: Vec3) -> bool {
        let speed = self.settings.predator_speed;
        let heading = velocity.try_normalize().unwrap_or(Vec3::X);
        let position = self.confined(position);
        self.behaviours.place_hawk(index, position, heading * speed)
    }

    /// x, y, z per leader.
    pub fn leader_positions(&self) -> &[f32] {
        &self.behaviours.leader_positions
    }

    /// x, y, z per leader, in the same order as `leader_positions()`.
    pub fn leader_velocities(&self) -> &[f32] {
        &self.behaviours.leader_velocities
    }

    /// `samples` points along the leaders' closed loop (xyz each), for drawing it.
    pub fn leader_path(&self, samples: usize) -> Vec<f32> {
        LeaderPath::new(self.arena(), self.settings.flat).samples(samples)
    }

    /// The obstacles: x, y, z of the centre and the radius of each sphere.
    pub fn obstacles(&self) -> &[[f32; 4]] {
        &self.behaviours.obstacles
    }

    /// Adds a spherical obstacle. Its centre is kept inside the world (in a flat world, at
    /// z = 0) and its radius in `MIN_OBSTACLE_RADIUS..=MAX_OBSTACLE_RADIUS`. Refused (false)
    /// for a non-finite centre or radius, or when there are `MAX_OBSTACLES` already.
    pub fn add_obstacle(&mut self, centre: Vec3, radius: f32) -> bool {
        if !centre.is_finite() || !radius.is_finite() {
            return false;
        }
        let centre = self.confined(centre);
        self.behaviours.add_obstacle(centre, radius)
    }

    pub fn clear_obstacles(&mut self) {
        self.behaviours.obstacles.clear();
    }

    /// Removes obstacle `index` (in the order of `obstacles()`; the later ones move up
    /// one); false when there is no such obstacle.
    pub fn remove_obstacle(&mut self, index: usize) -> bool {
        if index < self.behaviours.obstacles.len() {
            self.behaviours.obstacles.remove(index);
            true
        } else {
            false
        }
    }

    /// Holds the pointer at `point` (kept inside the world): the flock is drawn toward it
    /// (`attract`) or pushed away from it until `clear_pointer`. A non-finite point is ignored.
    pub fn set_pointer(&mut self, point: Vec3, attract: bool) {
        if point.is_finite() {
            let point = self.confined(point);
            self.behaviours.pointer = Some(Pointer { point, attract });
        }
    }

    pub fn clear_pointer(&mut self) {
        self.behaviours.pointer = None;
    }

    /// Where the pointer is held and whether it attracts, if it is held.
    pub fn pointer(&self) -> Option<(Vec3, bool)> {
        self.behaviours.pointer.map(|p| (p.point, p.attract))
    }

    /// A point moved inside the world (onto z = 0 in a flat one).
    fn confined(&self, point: Vec3) -> Vec3 {
        let mut point = point.clamp(Vec3::ZERO, Vec3::splat(self.world));
        if self.settings.flat {
            point.z = 0.0;
        }
        point
    }

    /// Order parameter |Σ v̂| / N: 0 for random headings, 1 when all fly the same way.
    pub fn polarization(&self) -> f32 {
        if self.is_empty() {
            return 0.0;
        }
        let sum: Vec3 = self
            .velocities
            .chunks_exact(3)
            .map(|v| Vec3::from_slice(v).normalize_or_zero())
            .sum();
        sum.length() / self.len() as f32
    }

    /// The world as the measures see it.
    pub(super) fn space(&self) -> Space {
        Space {
            world: self.world,
            wrap: self.settings.wrap,
        }
    }

    /// The flock's centre and the radius around it that holds 95 % of the boids, each as a
    /// fraction of the world's side: what "fit the flock" frames.
    pub fn extent(&self) -> (Vec3, f32) {
        let (centre, radius) = extent(&self.positions, self.space());
        // A lone boid still gets a view around it: at least a perception radius.
        let radius = radius.max(self.settings.perception) / self.world.max(1e-6);
        (self.as_fraction(centre), radius)
    }

    /// The flock's centre of mass as a fraction of the world's side: where a zoom heads.
    pub fn centre(&self) -> Vec3 {
        self.as_fraction(centre_of_mass(&self.positions, self.space()))
    }

    /// Every boid's id, the nearest the flock's centre of mass first (across wrapped edges):
    /// the order in which a keyboard user steps through the boids to inspect one.
    pub fn ids_by_distance_from_centre(&self) -> Vec<u32> {
        let space = self.space();
        let centre = centre_of_mass(&self.positions, space);
        let mut keys: Vec<u64> = (0..self.len())
            .map(|i| {
                let p = Vec3::from_slice(&self.positions[3 * i..3 * i + 3]);
                nearer_first(space.offset(centre, p).length_squared(), self.ids[i])
            })
            .collect();
        keys.sort_unstable();
        keys.into_iter().map(|key| key as u32).collect()
    }

    /// A point as a fraction of the world's side (on z = 0 in a flat world).
    fn as_fraction(&self, point: Vec3) -> Vec3 {
        let mut point = point / self.world.max(1e-6);
        if self.settings.flat {
            point.z = 0.0;
        }
        point
    }

    /// Mean number of neighbours each boid heeded in the last step (0 before the first
    /// step, and after `set_count` until the next).
    pub fn mean_neighbours(&self) -> f32 {
        self.mean_neighbours
    }

    /// How many neighbours each boid heeded in the last step, in the order of
    /// `positions()` (in nearest-k mode at most k). Shorter than the flock, or stale, until
    /// the next step after `set_count`, `rebuild` or `set_state`.
    pub fn neighbour_counts(&self) -> &[u16] {
        &self.neighbour_counts
    }

    /// Which rule pushed each boid hardest in the last step (`rules::strongest`: 0 none,
    /// 1 separation, 2 alignment, 3 cohesion), in the order of `positions()`; as stale as
    /// `neighbour_counts` after a change of count.
    pub fn strongest_rules(&self) -> &[u8] {
        &self.strongest
    }

    /// Simulated seconds stepped since the flock was made.
    pub fn elapsed(&self) -> f64 {
        self.elapsed
    }

    /// Mean number of boids each boid examined to find its neighbours in the last step: the
    /// cost of looking around, which must not grow with the count.
    pub fn mean_candidates(&self) -> f32 {
        self.mean_candidates
    }

    /// The last step's search, summed over every boid: the distance checks it made
    /// (`examined`: candidates looked at, N(N − 1) for the naive search) and the neighbours
    /// it kept.
    pub fn search_stats(&self) -> Totals {
        self.last_totals
    }

    /// Advances the flock by `dt` seconds (capped at `MAX_STEP`, split into steps no longer
    /// than `MAX_SUBSTEP`). A non-finite or non-positive `dt` does nothing.
    pub fn step(&mut self, dt: f32) {
        if !dt.is_finite() || dt <= 0.0 {
            return;
        }
        let dt = dt.min(MAX_STEP);
        let substeps = (dt / MAX_SUBSTEP).ceil().max(1.0);
        let h = dt / substeps;
        for _ in 0..substeps as usize {
            self.substep(h);
        }
    }

    /// One step of `h` seconds, in the stages of a step: sort into cells, look around and
    /// move (`advance`), then everything that follows the boids (`settle`). A step shared
    /// among workers runs the same stages split (`flock/parts.rs`).
    fn substep(&mut self, h: f32) {
        if self.is_empty() {
            return;
        }
        self.sort_into_cells();
        let forces = self.forces();
        let mut next = self.take_next();
        let totals = self.advance(h, &forces, 0..self.walk_units(), &mut next);
        self.settle(h, &forces, next, totals);
    }

    /// The buffers the next state is written into, taken from the flock (the old state is
    /// in `sorted` by now): positions and velocities, and the per-boid readouts.
    fn take_next(&mut self) -> Next {
        let count = self.len();
        let mut next = Next {
            positions: std::mem::take(&mut self.positions),
            velocities: std::mem::take(&mut self.velocities),
            counts: std::mem::take(&mut self.neighbour_counts),
            strongest: std::mem::take(&mut self.strongest),
        };
        next.counts.resize(count, 0);
        next.strongest.resize(count, 0);
        next
    }

    /// Looks around for every boid of the walk's `units` (`walk_units`: all of them, or a
    /// worker's share) and writes its new position, velocity and readouts into `next`, at
    /// its slot; the other slots are left as they were.
    fn advance(&mut self, h: f32, forces: &Forces, units: Range<usize>, next: &mut Next) -> Totals {
        let whole = units == (0..self.walk_units());
        let mut neighbours = 0u64;
        // Only the rules and the edges: every boid moves afterwards, `WIDE` at a time
        // (`glide_all`), from what it saw. Else each moves as soon as it has looked around.
        // The swarm's boids each heed their own role or fail: one at a time too.
        let glides = !(forces.active || self.one_at_a_time || self.settings.swarm());
        let mut sightings = std::mem::take(&mut self.sightings);
        if glides {
            sightings.resize(next.positions.len() / 3);
        }
        let Next {
            positions,
            velocities,
            counts,
            strongest,
        } = next;
        // One scan for both ways (one copy of it in the wasm module, not two), branching per
        // boid on a flag that never changes during the step.
        let examined = self.scan_all(units.clone(), |flock, i, seen| {
            neighbours += u64::from(seen.count);
            counts[i] = seen.count.min(u32::from(u16::MAX)) as u16;
            if glides {
                sightings.record(i, seen);
            } else {
                let (p, v, rule) = flock.integrate(i, seen, h, forces);
                positions[3 * i..3 * i + 3].copy_from_slice(&p);
                velocities[3 * i..3 * i + 3].copy_from_slice(&v);
                strongest[i] = rule;
            }
        });
        if glides {
            let glide = self.glide(h, forces);
            let boids = positions.len() / 3;
            let mut glide_run = |slots: Range<usize>| {
                glide_all(
                    &self.sorted,
                    &sightings,
                    &glide,
                    slots,
                    positions,
                    velocities,
                    strongest,
                )
            };
            if whole {
                glide_run(0..boids);
            } else {
                // A worker's share: its whole layers as one run, a part of a layer a run per
                // row of cells (each lane moves on its own, so the runs move their boids bit
                // for bit as the whole would).
                self.unit_runs(units, &mut glide_run);
            }
        }
        self.sightings = sightings;
        Totals {
            neighbours,
            examined,
        }
    }

    /// What follows the boids' move: the new state taken in, ids and species reordered
    /// with their boids (the new state is in cell order), the noise's turn, the clock, the
    /// figures, then the hawks and leaders.
    fn settle(&mut self, h: f32, forces: &Forces, next: Next, totals: Totals) {
        self.positions = next.positions;
        self.velocities = next.velocities;
        self.neighbour_counts = next.counts;
        self.strongest = next.strongest;
        self.elapsed += f64::from(h);
        let order = self.grid.order();
        self.ids_scratch.clear();
        self.ids_scratch
            .extend(order.iter().map(|&boid| self.ids[boid as usize]));
        std::mem::swap(&mut self.ids, &mut self.ids_scratch);
        if self.settings.species > 1 {
            self.species_scratch.clear();
            self.species_scratch
                .extend(order.iter().map(|&boid| self.species[boid as usize]));
            std::mem::swap(&mut self.species, &mut self.species_scratch);
        }
        if self.settings.noise > 0.0 {
            let spread = self.settings.noise * h.sqrt();
            let flat = self.settings.flat;
            turn_headings(
                &mut self.velocities,
                &self.ids,
                self.seed,
                self.ticks,
                spread,
                flat,
            );
        }
        self.remember();
        self.ticks += 1;
        self.revision = self.revision.wrapping_add(1);
        self.mean_neighbours = totals.neighbours as f32 / self.len() as f32;
        self.mean_candidates = totals.examined as f32 / self.len() as f32;
        self.last_totals = totals;
        self.move_hawks(h, forces);
        let (arena, flat, cruise) = (self.arena(), self.settings.flat, self.settings.speed);
        self.behaviours.move_leaders(h, arena, flat, cruise);
    }

    /// Hawks read the old state, as the boids did: each finds its nearest boid on the grid.
    fn move_hawks(&mut self, h: f32, forces: &Forces) {
        if self.behaviours.hawks() == 0 {
            return;
        }
        let speed = self.settings.predator_speed;
        let mut behaviours = std::mem::take(&mut self.behaviours);
        let all_round = View::new(
            &Settings {
                field_of_view: 360.0,
                ..self.settings.clone()
            },
            self.world,
        );
        let search = self.search(&all_round);
        let mut found = Nearest::new(1);
        behaviours.move_hawks(h, forces, speed, |point| {
            let seeker = Seeker {
                point,
                exclude: None,
                sight: None,
            };
            search.nearest(&seeker, &mut found);
            found
                .iter()
                .next()
                .map(|(slot, _, _)| self.sorted.position(slot))
        });
        self.behaviours = behaviours;
    }
}

/// A sort key that orders by the squared distance `d2` (non-negative: its f32 bits order as
/// the number does), then by `tie`; the low 32 bits give `tie` back. Sorting these keys is
/// the module's one integer sort, where a sort of pairs by a float cost it 4 KB of wasm.
fn nearer_first(d2: f32, tie: u32) -> u64 {
    (u64::from(d2.to_bits()) << 32) | u64::from(tie)
}

#[cfg(test)]
mod tests {
    use super::super::lanes::WIDE;
    use super::*;

    /// A flock whose boids are scattered, piled, stopped, at and past the walls, and alone;
    /// odd seeds (unwrapped) under an open sky, where they are all far from home.
    fn awkward_flock(wrap: bool, seed: u32, count: usize) -> Flock {
        let settings = Settings {
            wrap,
            sky: !wrap && seed % 4 == 1,
            world_size: Some(30.0),
            ..Settings::walled()
        };
        let mut flock = Flock::with_settings(count, Some(seed), settings);
        let mut positions = flock.positions().to_vec();
        let mut velocities = flock.velocities().to_vec();
        let mut place = |boid: usize, p: [f32; 3], v: [f32; 3]| {
            positions[3 * boid..3 * boid + 3].copy_from_slice(&p);
            velocities[3 * boid..3 * boid + 3].copy_from_slice(&v);
        };
        place(0, [0.0, 15.0, 15.0], [-20.0, 0.0, 0.0]);
        place(1, [30.0, 29.99, 0.01], [20.0, 20.0, -20.0]);
        place(2, [12.0, 12.0, 12.0], [0.0, 0.0, 0.0]);
        place(3, [12.0, 12.0, 12.0], [0.0, 0.0, 0.0]);
        place(4, [5.0, 5.0, 5.0], [1e-9, 0.0, 0.0]);
        place(5, [29.9999, 0.0001, 15.0], [14.0, -14.0, 0.0]);
        flock.set_state(&positions, &velocities);
        flock
    }

    #[test]
    fn moving_together_agrees_with_one_at_a_time() {
        // Counts that leave the last `WIDE` boids short by each amount in turn: so the last
        // group of lanes is partly empty, or wholly.
        let cases = [true, false].repeat(WIDE / 2).into_iter().zip(1..);
        for (short, (wrap, seed)) in cases.enumerate() {
            let count = 400 - short;
            let mut together = awkward_flock(wrap, seed, count);
            let mut alone = together.clone();
            alone.one_at_a_time = true;
            for step in 0..20 {
                together.step(MAX_SUBSTEP);
                alone.step(MAX_SUBSTEP);
                let pairs = together
                    .positions()
                    .iter()
                    .zip(alone.positions())
                    .chain(together.velocities().iter().zip(alone.velocities()));
                for (k, (a, b)) in pairs.enumerate() {
                    assert!(
                        a.is_finite(),
                        "{count} boids, wrap {wrap}, step {step}: {k} is {a}"
                    );
                    assert!(
                        (a - b).abs() <= 1e-3 * (1.0 + b.abs()),
                        "{count} boids, wrap {wrap}, step {step}: component {k}: {a} vs {b}"
                    );
                }
                // Both record the same neighbours and, but for a near tie that rounding
                // may tip, the same strongest rule.
                assert_eq!(together.neighbour_counts(), alone.neighbour_counts());
                let rules = together.strongest_rules();
                assert_eq!(rules.len(), count, "one rule per boid");
                let differ = rules
                    .iter()
                    .zip(alone.strongest_rules())
                    .filter(|(a, b)| a != b)
                    .count();
                assert!(
                    differ <= count / 100,
                    "{count} boids, wrap {wrap}, step {step}: {differ} strongest rules differ"
                );
                for rule in 1..=3 {
                    assert!(rules.contains(&rule), "rule {rule} is strongest somewhere");
                }
            }
            // Both ways really ran: the flock moved.
            let start = awkward_flock(wrap, seed, count);
            assert_ne!(together.positions(), start.positions());
        }
    }

    #[test]
    fn a_lone_boid_at_rest_sets_off_the_same_way_both_ways() {
        for wrap in [true, false] {
            let settings = Settings {
                wrap,
                world_size: Some(100.0),
                ..Settings::walled()
            };
            let mut together = Flock::with_settings(0, Some(1), settings);
            together.set_state(&[50.0, 50.0, 50.0, 10.0, 90.0, 50.0], &[0.0; 6]);
            let mut alone = together.clone();
            alone.one_at_a_time = true;
            together.step(MAX_SUBSTEP);
            alone.step(MAX_SUBSTEP);
            assert_eq!(together.velocities(), alone.velocities(), "wrap {wrap}");
            assert_eq!(together.positions(), alone.positions(), "wrap {wrap}");
            assert!(together.velocities()[0] > 0.0, "sets off along +x");
        }
    }
}
