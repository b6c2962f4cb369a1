//! The flock: state in flat `f32` arrays (xyz per boid), stepped over a counting-sort grid.

use glam::Vec3;

use crate::within::Within;

use super::behaviours::{
    Behaviours, Forces, Pointer, Pulls, FLEE_FORCE_FACTOR, PANIC_SPEED_FACTOR, POINTER_FORCE_FACTOR,
};
use super::glide::{glide_all, Glide, Sightings};
use super::grid::Grid;
use super::leader::LeaderPath;
use super::measures::{centre_of_mass, extent, measure, Metrics, Space};
use super::nearest::{self, Nearest, Search, Seeker};
use super::params::{Param, ParamError};
use super::presets::{self, Preset, UnknownPreset};
use super::rng::{random_seed, Rng};
use super::rules::{self, Neighbourhood};
use super::scan::{
    look_around_fast, needs_nearest_image, neighbour_spans, push_apart_piled, Nearby, Sorted, Span,
    View,
};

mod reference;

pub use reference::Inspection;

/// The longest single integration step; longer `dt`s are split into steps this long.
pub const MAX_SUBSTEP: f32 = 1.0 / 60.0;
/// Boids gathered up a column of cells past which the slabs still needed move to the front
/// (`scan_all`): 512 boids' six columns are 12 KiB.
const COMPACT_AT: usize = 512;
/// The most time one `step` call advances: a tab that was hidden for a minute must not
/// make the flock jump (or spend a minute catching up).
pub const MAX_STEP: f32 = 0.25;
/// Boids fly no slower than this fraction of the cruise speed...
pub const MIN_SPEED_FACTOR: f32 = 0.5;
/// ...and no faster than this one.
pub const MAX_SPEED_FACTOR: f32 = 1.4;
/// How fast (1/s) a boid eases back toward cruise speed. At 1/s (with the rules' full pull
/// along the heading) 86 % of a settled default flock flew at the minimum speed; at 4/s,
/// with the rules mostly turning (`rules::ALONG_SHARE`), 95 % fly within 20 % of cruise.
const SPEED_RESPONSE: f32 = 4.0;
/// World side that the default count gets; other counts keep the same density.
const REFERENCE_COUNT: f32 = 1500.0;
/// Grid cells one perception radius wide, scanned 3×3×3. Half-size cells scanned 5×5×5
/// examine fewer candidates but in more, shorter ranges: measured 20% slower (README).
const CELL_REACH: usize = 1;
/// Nearest-k mode: grid cells this many times the typical distance to the k-th nearest
/// neighbour at the flock's mean density (flocks are denser than the mean where boids are).
/// Measured on the benchmark scenario: 0.8 beats 1.0, 1.2 and 1.5 (fewer candidates; the
/// rare boid left uncertain by its block of cells looks further in rings).
const NEAREST_CELL_FACTOR: f32 = 0.8;

/// Every setting of the model, in simulation units.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Cruise speed, world units per second.
    pub speed: f32,
    pub separation: f32,
    pub alignment: f32,
    pub cohesion: f32,
    /// Perception radius, world units.
    pub perception: f32,
    pub separation_radius: f32,
    /// Field of view, degrees.
    pub field_of_view: f32,
    /// Largest steering per rule, world units per second².
    pub max_force: f32,
    /// `None`: the world grows with the count (constant density).
    pub world_size: Option<f32>,
    pub wrap: bool,
    /// Hawks (0 to 5).
    pub predators: usize,
    pub predator_speed: f32,
    pub flee_radius: f32,
    /// Leaders on the loop (0 to 3).
    pub leaders: usize,
    pub leader_weight: f32,
    pub pointer_strength: f32,
    /// Wind push (units/s²), heading in the x-y plane and elevation toward +z, degrees.
    pub wind_strength: f32,
    pub wind_heading: f32,
    pub wind_elevation: f32,
    /// Species (1 to 4).
    pub species: usize,
    /// A flat world: every z (and velocity z) is 0.
    pub flat: bool,
    /// Heed the `nearest_k` nearest neighbours instead of all within the perception radius.
    pub topological: bool,
    pub nearest_k: usize,
}

impl Default for Settings {
    fn default() -> Self {
        let default = |param: Param| param.spec().default as f32;
        Settings {
            speed: default(Param::Speed),
            separation: default(Param::Separation),
            alignment: default(Param::Alignment),
            cohesion: default(Param::Cohesion),
            perception: default(Param::Perception),
            separation_radius: default(Param::SeparationRadius),
            field_of_view: default(Param::FieldOfView),
            max_force: default(Param::MaxForce),
            world_size: None,
            wrap: default(Param::Wrap) != 0.0,
            predators: default(Param::Predators) as usize,
            predator_speed: default(Param::PredatorSpeed),
            flee_radius: default(Param::FleeRadius),
            leaders: default(Param::Leaders) as usize,
            leader_weight: default(Param::LeaderWeight),
            pointer_strength: default(Param::PointerStrength),
            wind_strength: default(Param::WindStrength),
            wind_heading: default(Param::WindHeading),
            wind_elevation: default(Param::WindElevation),
            species: default(Param::SpeciesCount) as usize,
            flat: default(Param::Flat) != 0.0,
            topological: default(Param::Topological) != 0.0,
            nearest_k: default(Param::NearestK) as usize,
        }
    }
}

/// Everything that moves one boid in the next step, term by term (accelerations, world
/// units per second²): what `Flock::inspect` shows, from the step's own arithmetic.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Terms {
    /// The three rules before their weights (each clamped to the maximum force, separation
    /// then multiplied by its urgency and cohesion divided by it), and the urgency.
    pub steering: rules::Steering,
    /// The same after their weights.
    pub separation: Vec3,
    pub alignment: Vec3,
    pub cohesion: Vec3,
    /// Keeping the cruise speed: easing back toward it, less the part of the rules' pull
    /// along the heading that only turns the boid (`rules::mostly_turning`).
    pub cruise: Vec3,
    /// The soft walls' push (zero in a wrapped world).
    pub walls: Vec3,
    /// Wind, hawks, obstacles, leader and pointer.
    pub behaviours: Pulls,
    /// What the step adds to the velocity per second: the sum of the above (in a flat
    /// world, without z).
    pub total: Vec3,
    /// Fleeing a hawk (then it may fly faster).
    pub fleeing: bool,
}

/// The world side for `count` boids when it follows the count: same density as the
/// default flock in the default world. A `flat` world is as wide as gives each boid as many
/// neighbours within the default perception radius as in 3D.
pub fn auto_world_size(count: usize, flat: bool) -> f32 {
    let spec = Param::WorldSize.spec();
    let reference = spec.default as f32;
    let side = if flat {
        let radius = Param::Perception.spec().default as f32;
        // Boids per unit volume in 3D × a sphere's volume = per unit area × a disc's area.
        let neighbours_3d = REFERENCE_COUNT / reference.powi(3) * 4.0 / 3.0 * radius.powi(3);
        (count as f32 * radius * radius / neighbours_3d).sqrt()
    } else {
        reference * (count as f32 / REFERENCE_COUNT).cbrt()
    };
    side.within(spec.min as f32, spec.max as f32)
}

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
    /// Scratch: the spans of slots around one cell.
    spans: Vec<Span>,
    /// Scratch: a cell's neighbourhood, gathered into one range (`Sorted::gather_around`).
    nearby: Nearby,
    /// Scratch: where each slab of cells gathered into `nearby` ends.
    slab_end: Vec<usize>,
    /// How many cells the scan reaches each way: `CELL_REACH`, or 2 (half-size cells) in
    /// the tests that keep that path honest.
    cell_reach: usize,
    /// Scratch: what each boid saw, when all move together (`glide_all`).
    sightings: Sightings,
    /// Move every boid one at a time even when `glide_all` could: for tests that compare
    /// the two.
    one_at_a_time: bool,
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
}

fn vec3_at(values: &[f32], boid: usize) -> Vec3 {
    Vec3::from_slice(&values[3 * boid..3 * boid + 3])
}

impl Flock {
    /// `count` boids with default settings; `seed: None` draws a seed from the system.
    pub fn new(count: usize, seed: Option<u32>) -> Self {
        Self::with_settings(count, seed, Settings::default())
    }

    /// A flock with `settings`; counts in them (hawks, leaders, species, k) are kept inside
    /// the table's ranges.
    pub fn with_settings(count: usize, seed: Option<u32>, mut settings: Settings) -> Self {
        let seed = seed.unwrap_or_else(random_seed);
        let within = |value: usize, param: Param| {
            let spec = param.spec();
            value.clamp(spec.min as usize, spec.max as usize)
        };
        settings.predators = within(settings.predators, Param::Predators);
        settings.leaders = within(settings.leaders, Param::Leaders);
        settings.species = within(settings.species, Param::SpeciesCount);
        settings.nearest_k = within(settings.nearest_k, Param::NearestK);
        let mut flock = Flock {
            settings,
            seed,
            rng: Rng::new(seed),
            positions: Vec::new(),
            velocities: Vec::new(),
            species: Vec::new(),
            species_scratch: Vec::new(),
            ids: Vec::new(),
            ids_scratch: Vec::new(),
            next_id: 0,
            behaviours: Behaviours::default(),
            sorted: Sorted::default(),
            spans: Vec::new(),
            nearby: Nearby::default(),
            slab_end: Vec::new(),
            cell_reach: CELL_REACH,
            sightings: Sightings::default(),
            one_at_a_time: false,
            grid: Grid::default(),
            world: 0.0,
            mean_neighbours: 0.0,
            mean_candidates: 0.0,
            neighbour_counts: Vec::new(),
            strongest: Vec::new(),
            elapsed: 0.0,
        };
        flock.scatter(count);
        flock
    }

    /// The standard benchmark scenario (`shared/bench-scenario.md`): perception 5,
    /// separation radius 2, 360° view, weights 1.5/1/1, cruise 10, wrap, about 8 neighbours
    /// per boid at the uniform start, seed 42.
    pub fn bench_scenario(count: usize) -> Self {
        let perception = 5.0f32;
        let volume_per_boid = 4.0 / 3.0 * std::f32::consts::PI * perception.powi(3) / 8.0;
        let settings = Settings {
            speed: 10.0,
            separation: 1.5,
            alignment: 1.0,
            cohesion: 1.0,
            perception,
            separation_radius: 2.0,
            field_of_view: 360.0,
            world_size: Some((count as f32 * volume_per_boid).cbrt()),
            wrap: true,
            ..Settings::default()
        };
        Self::with_settings(count, Some(42), settings)
    }

    /// The settled scenarios' flock for a preset (`shared/bench-scenario.md`): seed 42,
    /// everything else as the page has it (walls, the world following the count).
    pub fn preset_scenario(preset: &Preset, count: usize) -> Self {
        let mut flock = Self::new(count, Some(42));
        if flock.apply_preset(preset.name).is_err() {
            unreachable!("a preset of the table applies");
        }
        flock.rebuild();
        flock
    }

    /// Replaces the whole state (xyz per boid in each array). For lessons and tests that
    /// place boids by hand; non-finite values become 0 and positions are kept in the world.
    pub fn set_state(&mut self, positions: &[f32], velocities: &[f32]) {
        assert_eq!(
            positions.len(),
            velocities.len(),
            "one velocity per position"
        );
        assert_eq!(positions.len() % 3, 0, "xyz per boid");
        let finite = |v: &f32| if v.is_finite() { *v } else { 0.0 };
        self.positions = positions.iter().map(finite).collect();
        self.velocities = velocities.iter().map(finite).collect();
        self.update_world();
        self.confine_all();
        self.assign_species();
        self.ids = (0..self.len() as u32).collect();
        self.next_id = self.len() as u32;
    }

    /// Sets each boid's species (in the order of `positions()`); values past the number of
    /// species wrap around. For lessons and tests that place boids by hand.
    pub fn set_species(&mut self, species: &[u8]) {
        assert_eq!(species.len(), self.len(), "one species per boid");
        let kinds = self.settings.species.max(1);
        self.species.clear();
        self.species
            .extend(species.iter().map(|&k| (usize::from(k) % kinds) as u8));
    }

    /// Deals the species out in turn (boids are in cell order, so neighbours differ).
    fn assign_species(&mut self) {
        let kinds = self.settings.species.max(1);
        self.species.clear();
        self.species
            .extend((0..self.len()).map(|i| (i % kinds) as u8));
    }

    /// Scatters the flock afresh from its seed, keeping count and settings.
    pub fn rebuild(&mut self) {
        self.scatter(self.len());
    }

    fn scatter(&mut self, count: usize) {
        self.rng = Rng::new(self.seed);
        self.positions.clear();
        self.velocities.clear();
        self.ids.clear();
        self.next_id = 0;
        self.species.clear();
        self.world = self.target_world(count);
        self.add_boids(count);
        self.mean_neighbours = 0.0;
        self.mean_candidates = 0.0;
        // Hawks and leaders start afresh too: the same seed gives the same run.
        let (world, flat, s) = (self.world, self.settings.flat, &self.settings);
        self.behaviours.set_hawks(0, world, flat, s.predator_speed);
        self.behaviours
            .set_hawks(s.predators, world, flat, s.predator_speed);
        self.behaviours
            .restart_leaders(s.leaders, world, flat, s.speed);
        if flat {
            self.behaviours.flatten();
        }
    }

    fn add_boids(&mut self, count: usize) {
        let speed = self.settings.speed;
        // Inside walls, start clear of them so that no boid begins by hitting one.
        let inset = if self.settings.wrap {
            0.0
        } else {
            self.wall_profile().0
        };
        let span = self.world - 2.0 * inset;
        let kinds = self.settings.species.max(1);
        for _ in 0..count {
            self.species.push((self.species.len() % kinds) as u8);
            self.ids.push(self.next_id);
            // Ids are never reused while the flock lives (4 billion additions away).
            self.next_id = self.next_id.wrapping_add(1);
            if self.settings.flat {
                let x = inset + self.rng.unit() * span;
                let y = inset + self.rng.unit() * span;
                let (sin, cos) = (self.rng.unit() * std::f32::consts::TAU).sin_cos();
                self.positions.extend([x, y, 0.0]);
                self.velocities.extend([cos * speed, sin * speed, 0.0]);
                continue;
            }
            for _ in 0..3 {
                let coordinate = inset + self.rng.unit() * span;
                self.positions.push(coordinate);
            }
            let direction = self.rng.direction();
            self.velocities.extend(direction.map(|d| d * speed));
        }
    }

    fn target_world(&self, count: usize) -> f32 {
        self.settings
            .world_size
            .unwrap_or_else(|| auto_world_size(count, self.settings.flat))
    }

    fn update_world(&mut self) {
        self.world = self.target_world(self.len());
    }

    /// Adds boids (scattered at random) or removes random ones; the others stay put.
    /// When the world follows the count and so shrinks, the boids left outside it are the
    /// first to go, so that as few as possible have to be moved back in.
    pub fn set_count(&mut self, count: usize) {
        let current = self.len();
        if count < current {
            self.world = self.target_world(count);
            let world = self.world;
            let (mut outside, mut inside): (Vec<usize>, Vec<usize>) = (0..current)
                .partition(|&i| self.positions[3 * i..3 * i + 3].iter().any(|&p| p > world));
            let mut remove = vec![false; current];
            for _ in count..current {
                let pool = if outside.is_empty() {
                    &mut inside
                } else {
                    &mut outside
                };
                let victim = pool.swap_remove(self.rng.below(pool.len()));
                remove[victim] = true;
            }
            let survivors = remove.iter().enumerate().filter(|(_, &gone)| !gone);
            for (kept, (i, _)) in survivors.enumerate() {
                self.positions.copy_within(3 * i..3 * i + 3, 3 * kept);
                self.velocities.copy_within(3 * i..3 * i + 3, 3 * kept);
                self.species[kept] = self.species[i];
                self.ids[kept] = self.ids[i];
            }
            self.positions.truncate(3 * count);
            self.velocities.truncate(3 * count);
            self.species.truncate(count);
            self.ids.truncate(count);
            self.confine_all();
        } else if count > current {
            // The world for the new count, before the newcomers are scattered over it: sized
            // from the old count, 100,000 boids crowded into 50 boids' world (22,000
            // neighbours each, 40 s a step).
            self.world = self.target_world(count);
            self.confine_all();
            self.add_boids(count - current);
        }
        // Nobody has looked around since: the last step's figures were for another flock.
        self.mean_neighbours = 0.0;
        self.mean_candidates = 0.0;
    }

    /// Brings every boid back inside the world after it shrank (and into the plane z = 0
    /// in a flat world).
    fn confine_all(&mut self) {
        let world = self.world;
        let wrap = self.settings.wrap;
        let flat = self.settings.flat;
        for (p, v) in self
            .positions
            .chunks_exact_mut(3)
            .zip(self.velocities.chunks_exact_mut(3))
        {
            for axis in 0..3 {
                (p[axis], v[axis]) = confine(p[axis], v[axis], world, wrap);
            }
            if flat {
                (p[2], v[2]) = (0.0, 0.0);
            }
        }
    }

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
        LeaderPath::new(self.world, self.settings.flat).samples(samples)
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

    /// Sets every parameter the preset `name` lists (see `presets::PRESETS`).
    pub fn apply_preset(&mut self, name: &str) -> Result<(), UnknownPreset> {
        let preset = presets::preset(name).ok_or_else(|| UnknownPreset(name.to_string()))?;
        for &(param, value) in preset.values {
            // Not `expect`: printing the error would bring float printing into the wasm module.
            if self.set(param, value).is_err() {
                unreachable!("preset values are finite (checked by presets' tests)");
            }
        }
        Ok(())
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn seed(&self) -> u32 {
        self.seed
    }

    /// Side of the cubic world now in use.
    pub fn world_size(&self) -> f32 {
        self.world
    }

    /// Returns the world size to following the count.
    pub fn reset_world_size(&mut self) {
        self.settings.world_size = None;
        self.update_world();
        self.confine_all();
    }

    /// The current value of a parameter, in the table's units.
    pub fn get(&self, param: Param) -> f64 {
        let s = &self.settings;
        let value = match param {
            Param::Count => return self.len() as f64,
            Param::Seed => return f64::from(self.seed),
            Param::Wrap => return if s.wrap { 1.0 } else { 0.0 },
            Param::Speed => s.speed,
            Param::Separation => s.separation,
            Param::Alignment => s.alignment,
            Param::Cohesion => s.cohesion,
            Param::Perception => s.perception,
            Param::SeparationRadius => s.separation_radius,
            Param::FieldOfView => s.field_of_view,
            Param::MaxForce => s.max_force,
            Param::WorldSize => self.world,
            Param::Predators => return s.predators as f64,
            Param::PredatorSpeed => s.predator_speed,
            Param::FleeRadius => s.flee_radius,
            Param::Leaders => return s.leaders as f64,
            Param::LeaderWeight => s.leader_weight,
            Param::PointerStrength => s.pointer_strength,
            Param::WindStrength => s.wind_strength,
            Param::WindHeading => s.wind_heading,
            Param::WindElevation => s.wind_elevation,
            Param::SpeciesCount => return s.species as f64,
            Param::Flat => return if s.flat { 1.0 } else { 0.0 },
            Param::Topological => return if s.topological { 1.0 } else { 0.0 },
            Param::NearestK => return s.nearest_k as f64,
        };
        f64::from(value)
    }

    /// Sets a parameter: clamped to the table's range; a non-finite value changes nothing
    /// and is refused. Returns the value stored, as `get` reads it.
    pub fn set(&mut self, param: Param, value: f64) -> Result<f64, ParamError> {
        self.apply(param, value)?;
        Ok(self.get(param))
    }

    fn apply(&mut self, param: Param, value: f64) -> Result<(), ParamError> {
        let value = param.spec().sanitize(value)?;
        let real = value as f32;
        let s = &mut self.settings;
        match param {
            Param::Count => self.set_count(value as usize),
            Param::Seed => {
                self.seed = value as u32;
                self.rebuild();
            }
            Param::Wrap => s.wrap = value != 0.0,
            Param::Speed => {
                let ratio = real / s.speed;
                s.speed = real;
                // Everyone changes pace at once, so the flock keeps its shape.
                self.velocities.iter_mut().for_each(|v| *v *= ratio);
            }
            Param::Separation => s.separation = real,
            Param::Alignment => s.alignment = real,
            Param::Cohesion => s.cohesion = real,
            Param::Perception => s.perception = real,
            Param::SeparationRadius => s.separation_radius = real,
            Param::FieldOfView => s.field_of_view = real,
            Param::MaxForce => s.max_force = real,
            Param::WorldSize => {
                s.world_size = Some(real);
                self.update_world();
                self.confine_all();
            }
            Param::Predators => {
                s.predators = value as usize;
                let (world, flat, speed) = (self.world, s.flat, s.predator_speed);
                self.behaviours
                    .set_hawks(value as usize, world, flat, speed);
            }
            Param::PredatorSpeed => {
                s.predator_speed = real;
                self.behaviours.set_hawk_speed(real);
            }
            Param::FleeRadius => s.flee_radius = real,
            Param::Leaders => {
                s.leaders = value as usize;
                let (world, flat, cruise) = (self.world, s.flat, s.speed);
                self.behaviours
                    .set_leaders(value as usize, world, flat, cruise);
            }
            Param::LeaderWeight => s.leader_weight = real,
            Param::PointerStrength => s.pointer_strength = real,
            Param::WindStrength => s.wind_strength = real,
            Param::WindHeading => s.wind_heading = real,
            Param::WindElevation => s.wind_elevation = real,
            Param::SpeciesCount => {
                if s.species != value as usize {
                    s.species = value as usize;
                    self.assign_species();
                }
            }
            Param::Flat => {
                let flat = value != 0.0;
                if s.flat != flat {
                    s.flat = flat;
                    // A new world: 3D boids squashed flat (or flat ones given depth) would
                    // start in a pile, so the flock is scattered afresh.
                    self.rebuild();
                }
            }
            Param::Topological => s.topological = value != 0.0,
            Param::NearestK => s.nearest_k = value as usize,
        }
        Ok(())
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

    /// Every measure of the flock as a whole (`measures::measure`), boids linked within
    /// the perception radius.
    pub fn metrics(&self) -> Metrics {
        measure(
            &self.positions,
            &self.velocities,
            self.space(),
            self.settings.perception,
            self.settings.speed,
        )
    }

    /// The world as the measures see it.
    fn space(&self) -> Space {
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

    /// A point as a fraction of the world's side (on z = 0 in a flat world).
    fn as_fraction(&self, point: Vec3) -> Vec3 {
        let mut point = point / self.world.max(1e-6);
        if self.settings.flat {
            point.z = 0.0;
        }
        point
    }

    /// The same measures for each species alone (the first for species 0, …).
    pub fn metrics_by_species(&self) -> Vec<Metrics> {
        let space = self.space();
        (0..self.settings.species.max(1) as u8)
            .map(|kind| {
                let pick = |values: &[f32]| -> Vec<f32> {
                    values
                        .chunks_exact(3)
                        .zip(&self.species)
                        .filter(|(_, &k)| k == kind)
                        .flat_map(|(v, _)| v.iter().copied())
                        .collect()
                };
                let (p, v) = (pick(&self.positions), pick(&self.velocities));
                measure(&p, &v, space, self.settings.perception, self.settings.speed)
            })
            .collect()
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

    /// Width the grid's cells are built for: the perception radius, or in nearest-k mode
    /// about the distance to the k-th nearest neighbour at the mean density.
    fn cell_radius(&self) -> f32 {
        let s = &self.settings;
        if !s.topological {
            return s.perception;
        }
        let count = self.len().max(1) as f32;
        let k = s.nearest_k as f32;
        let typical = if s.flat {
            let per_area = count / (self.world * self.world);
            (k / (std::f32::consts::PI * per_area)).sqrt()
        } else {
            let per_volume = count / self.world.powi(3);
            (3.0 * k / (4.0 * std::f32::consts::PI * per_volume)).cbrt()
        };
        (NEAREST_CELL_FACTOR * typical).within(0.5, self.world)
    }

    fn sort_into_cells(&mut self) {
        let radius = self.cell_radius();
        self.grid.configure(
            self.world,
            radius,
            self.cell_reach,
            self.len(),
            self.settings.flat,
        );
        self.grid.sort(&self.positions);
        self.sorted
            .gather(self.grid.order(), &self.positions, &self.velocities);
        if self.settings.species > 1 {
            self.sorted.gather_species(self.grid.order(), &self.species);
        }
    }

    /// The nearest-k search over the grid as sorted by `sort_into_cells`.
    fn search<'a>(&'a self, view: &'a View) -> Search<'a> {
        Search {
            grid: &self.grid,
            sorted: &self.sorted,
            view,
            wrap: self.settings.wrap,
            // Not `self.len()`: the step has taken the arrays it writes the new state into.
            count: self.grid.order().len(),
        }
    }

    /// Whether sorted boids `i` and `j` are of the same species.
    fn same_kind(&self, i: usize, j: usize) -> bool {
        self.settings.species <= 1 || self.sorted.species[i] == self.sorted.species[j]
    }

    /// Calls `visit(slot, neighbourhood)` for every boid in cell order, scanning the grid.
    /// Returns how many candidates were examined in all.
    fn scan_all(&mut self, mut visit: impl FnMut(&Self, usize, &Neighbourhood)) -> u64 {
        let view = View::new(&self.settings, self.world);
        if self.settings.topological {
            return self.scan_all_nearest(&view, visit);
        }
        let dims = self.grid.dims();
        let layers = self.grid.layers();
        let wrap = self.settings.wrap;
        let species = self.settings.species > 1;
        let nearest_image = needs_nearest_image(&self.grid, wrap);
        let mut spans = std::mem::take(&mut self.spans);
        let mut nearby = std::mem::take(&mut self.nearby);
        let mut slab_end = std::mem::take(&mut self.slab_end);
        let reach = self.grid.reach() as isize;
        let edges = (wrap, self.world);
        let mut examined = 0u64;
        // Up each column of cells along y, so that neighbouring cells share the slabs of
        // cells they both have around them (`Sorted::append_slab`).
        for z in 0..layers {
            for x in 0..dims {
                // Slabs `first..next` are in `nearby`; slab `first + k` ends at `slab_end[k]`.
                let (mut first, mut next) = (isize::MIN, isize::MIN);
                for y in 0..dims {
                    let own = self.grid.slots_of([x, y, z]);
                    if own.is_empty() {
                        continue;
                    }
                    let cell = [x, y, z];
                    let window = if nearest_image {
                        nearby
                            .boids
                            .gather_around(&self.sorted, &self.grid, cell, edges, species);
                        0..nearby.boids.count()
                    } else {
                        let (lo, hi) = (y as isize - reach, y as isize + reach);
                        if next < lo {
                            (first, next) = (lo, lo);
                            slab_end.clear();
                        } else if let Some(&gathered) = slab_end.last() {
                            if lo > first && gathered > COMPACT_AT {
                                // The slabs still needed move to the front, so that what a
                                // column gathers is rewritten in place, in the fastest cache,
                                // instead of growing into fresh memory up a long column.
                                let dropped = (lo - first) as usize;
                                let kept_from = slab_end[dropped - 1];
                                nearby.boids.move_to_front(kept_from..gathered, species);
                                slab_end.drain(..dropped);
                                for end in &mut slab_end {
                                    *end -= kept_from;
                                }
                                first = lo;
                            }
                        }
                        while next <= hi {
                            let at = slab_end.last().copied().unwrap_or(0);
                            let end = nearby.boids.append_slab(
                                &self.sorted,
                                &self.grid,
                                [x, z],
                                next,
                                edges,
                                species,
                                at,
                            );
                            slab_end.push(end);
                            next += 1;
                        }
                        let start = match lo - first {
                            0 => 0,
                            k => slab_end[k as usize - 1],
                        };
                        let end = slab_end[(hi - first) as usize];
                        nearby.boids.pad(end);
                        start..end
                    };
                    examined += (window.len() * own.len()) as u64;
                    // Listed only when a boid has company at its very point.
                    spans.clear();
                    look_around_fast(
                        own,
                        &self.sorted,
                        &mut nearby,
                        window,
                        &view,
                        nearest_image,
                        species,
                        |i, mut seen, piled| {
                            if piled {
                                if spans.is_empty() {
                                    neighbour_spans(&self.grid, cell, wrap, self.world, &mut spans);
                                }
                                push_apart_piled(
                                    i,
                                    &spans,
                                    &self.sorted,
                                    &view,
                                    nearest_image,
                                    &mut seen,
                                );
                            }
                            visit(self, i, &seen);
                        },
                    );
                }
            }
        }
        self.spans = spans;
        self.nearby = nearby;
        self.slab_end = slab_end;
        examined
    }

    /// `scan_all` in nearest-k mode: each boid's k nearest, looked for first in the block of
    /// cells around its own (built once per cell, as the radius scan does), then in growing
    /// rings of cells if need be.
    fn scan_all_nearest(
        &mut self,
        view: &View,
        mut visit: impl FnMut(&Self, usize, &Neighbourhood),
    ) -> u64 {
        let mut spans = std::mem::take(&mut self.spans);
        let search = self.search(view);
        let wrap = self.settings.wrap;
        // Spans of a world only a few cells wide cannot carry the wrap: rings handle it.
        let rings_only = needs_nearest_image(&self.grid, wrap);
        let mut found = Nearest::new(self.settings.nearest_k);
        let mut examined = 0u64;
        let (dims, layers) = (self.grid.dims(), self.grid.layers());
        for z in 0..layers {
            for y in 0..dims {
                for x in 0..dims {
                    let own = self.grid.slots_of([x, y, z]);
                    if own.is_empty() {
                        continue;
                    }
                    if !rings_only {
                        neighbour_spans(&self.grid, [x, y, z], wrap, self.world, &mut spans);
                    }
                    for i in own {
                        let seeker = self.seeker(i);
                        examined += if rings_only {
                            search.nearest(&seeker, &mut found)
                        } else {
                            search.nearest_around(&seeker, &spans, &mut found)
                        } as u64;
                        let seen = nearest::neighbourhood(
                            i,
                            &found,
                            |j| self.sorted.velocity(j),
                            |j| self.same_kind(i, j),
                            |j| self.sorted.label[j] as usize,
                            view.separation_squared,
                        );
                        visit(self, i, &seen);
                    }
                }
            }
        }
        self.spans = spans;
        examined
    }

    /// Sorted boid `i` looking for its neighbours.
    fn seeker(&self, i: usize) -> Seeker {
        Seeker {
            point: self.sorted.position(i),
            exclude: Some(i),
            forward: self.sorted.velocity(i).normalize_or_zero(),
        }
    }

    fn substep(&mut self, h: f32) {
        if self.is_empty() {
            return;
        }
        self.sort_into_cells();
        let forces = self.forces();
        let mut total_neighbours = 0u64;
        let mut new_positions = std::mem::take(&mut self.positions);
        let mut new_velocities = std::mem::take(&mut self.velocities);
        // Only the rules and the edges: every boid moves afterwards, `WIDE` at a time
        // (`glide_all`), from what it saw. Else each moves as soon as it has looked around.
        let glides = !(forces.active || self.one_at_a_time);
        let mut sightings = std::mem::take(&mut self.sightings);
        if glides {
            sightings.resize(new_positions.len() / 3);
        }
        // The new state is written in slot order, and so are these.
        let count = new_positions.len() / 3;
        let mut counts = std::mem::take(&mut self.neighbour_counts);
        counts.resize(count, 0);
        let mut strongest = std::mem::take(&mut self.strongest);
        strongest.resize(count, 0);
        // One scan for both ways (one copy of it in the wasm module, not two), branching per
        // boid on a flag that never changes during the step.
        let examined = self.scan_all(|flock, i, seen| {
            total_neighbours += u64::from(seen.count);
            counts[i] = seen.count.min(u32::from(u16::MAX)) as u16;
            if glides {
                sightings.record(i, seen);
            } else {
                let (p, v, rule) = flock.integrate(i, seen, h, &forces);
                new_positions[3 * i..3 * i + 3].copy_from_slice(&p);
                new_velocities[3 * i..3 * i + 3].copy_from_slice(&v);
                strongest[i] = rule;
            }
        });
        if glides {
            let glide = self.glide(h, &forces);
            glide_all(
                &self.sorted,
                &sightings,
                &glide,
                &mut new_positions,
                &mut new_velocities,
                &mut strongest,
            );
        }
        self.sightings = sightings;
        self.neighbour_counts = counts;
        self.strongest = strongest;
        self.elapsed += f64::from(h);
        self.positions = new_positions;
        self.velocities = new_velocities;
        // The new state is in cell order: ids and species follow their boids.
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
        self.mean_neighbours = total_neighbours as f32 / self.len() as f32;
        self.mean_candidates = examined as f32 / self.len() as f32;
        self.move_hawks(h, &forces);
        let (world, flat, cruise) = (self.world, self.settings.flat, self.settings.speed);
        self.behaviours.move_leaders(h, world, flat, cruise);
    }

    /// Hawks read the old state, as the boids did: each finds its nearest boid on the grid.
    fn move_hawks(&mut self, h: f32, forces: &Forces) {
        if self.behaviours.hawks() == 0 {
            return;
        }
        let walls = (!self.settings.wrap).then(|| self.wall_profile());
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
        behaviours.move_hawks(h, forces, speed, walls, |point| {
            let seeker = Seeker {
                point,
                exclude: None,
                forward: Vec3::ZERO,
            };
            search.nearest(&seeker, &mut found);
            found
                .iter()
                .next()
                .map(|(slot, _, _)| self.sorted.position(slot))
        });
        self.behaviours = behaviours;
    }

    /// What the behaviours beyond the three rules need for one step.
    fn forces(&self) -> Forces {
        let s = &self.settings;
        let top_speed = MAX_SPEED_FACTOR * s.speed;
        Forces {
            active: s.flat || s.wind_strength > 0.0 || self.behaviours.any(),
            flat: s.flat,
            wrap: s.wrap,
            world: self.world,
            cruise: s.speed,
            max_force: s.max_force,
            wind: if s.flat {
                rules::wind(s.wind_strength, s.wind_heading, 0.0)
            } else {
                rules::wind(s.wind_strength, s.wind_heading, s.wind_elevation)
            },
            flee_radius: s.flee_radius,
            top_speed,
            panic_speed: PANIC_SPEED_FACTOR * top_speed,
            walls: self.wall_profile(),
            leader_weight: s.leader_weight,
            pointer_strength: s.pointer_strength,
            obstacle_strength: Behaviours::obstacle_strength(self.top_speed(), self.rules_total()),
        }
    }

    /// The fastest a boid may fly now: faster when hawks may make it panic.
    fn top_speed(&self) -> f32 {
        let top = MAX_SPEED_FACTOR * self.settings.speed;
        if self.behaviours.hawks() > 0 {
            PANIC_SPEED_FACTOR * top
        } else {
            top
        }
    }

    /// The most all the steering behaviours together can push (walls and obstacles must
    /// overcome it).
    fn rules_total(&self) -> f32 {
        let s = &self.settings;
        let mut total = (s.separation + s.alignment + s.cohesion) * s.max_force;
        if self.behaviours.hawks() > 0 {
            total += FLEE_FORCE_FACTOR * s.max_force;
        }
        if self.behaviours.leaders() > 0 {
            total += s.leader_weight * s.max_force;
        }
        if self.behaviours.pointer.is_some() {
            total += POINTER_FORCE_FACTOR * s.pointer_strength * s.max_force;
        }
        total + s.wind_strength
    }

    /// Acceleration of a boid at `p` flying at `v` from what it sees, the walls, its wish
    /// to cruise and the other behaviours; and whether it is fleeing a hawk.
    fn acceleration(
        &self,
        p: Vec3,
        v: Vec3,
        seen: &Neighbourhood,
        forces: &Forces,
    ) -> (Vec3, bool) {
        let terms = self.terms(p, v, seen, forces);
        (terms.total, terms.fleeing)
    }

    /// [`Flock::acceleration`] term by term: the step's own arithmetic, which the
    /// inspector shows.
    fn terms(&self, p: Vec3, v: Vec3, seen: &Neighbourhood, forces: &Forces) -> Terms {
        let s = &self.settings;
        let (behaviours, fleeing) = if forces.active {
            self.behaviours.pulls(forces, p, v)
        } else {
            (Pulls::default(), false)
        };
        // A panicking boid wants to fly faster, and so does everything it steers for.
        let cruise = if fleeing {
            PANIC_SPEED_FACTOR * s.speed
        } else {
            s.speed
        };
        let steering = rules::steering(seen, v, cruise, s.max_force, self.urgency_radius());
        let [separation, alignment, cohesion] = [
            s.separation * steering.separation,
            s.alignment * steering.alignment,
            s.cohesion * steering.cohesion,
        ];
        let pull = separation + alignment + cohesion;
        let turning = rules::mostly_turning(pull, v);
        let mut acceleration = turning;
        let speed = v.length();
        let mut ease = Vec3::ZERO;
        if speed > 1e-6 {
            ease = v * ((cruise - speed) / speed * SPEED_RESPONSE);
            acceleration += ease;
        }
        let mut walls = Vec3::ZERO;
        if !s.wrap {
            let (margin, strength) = forces.walls;
            walls = rules::wall_push(p, self.world, margin, strength);
            acceleration += walls;
        }
        if forces.active {
            acceleration += behaviours.sum();
            if forces.flat {
                acceleration.z = 0.0;
            }
        }
        Terms {
            steering,
            separation,
            alignment,
            cohesion,
            cruise: turning - pull + ease,
            walls,
            behaviours,
            total: acceleration,
            fleeing,
        }
    }

    /// Width of the soft wall and its push at the wall: strong enough that a boid at top
    /// speed turns back within half the margin whatever the other rules want.
    fn wall_profile(&self) -> (f32, f32) {
        let margin = (0.1 * self.world).within(1.0, 10.0);
        let top_speed = self.top_speed();
        (
            margin,
            2.0 * top_speed * top_speed / margin + 2.0 * self.rules_total(),
        )
    }

    /// The separation radius that separation's urgency is measured against; 0 (no urgency,
    /// cohesion never yields) when separation is off: then nothing keeps boids apart.
    fn urgency_radius(&self) -> f32 {
        if self.settings.separation > 0.0 {
            self.settings.separation_radius
        } else {
            0.0
        }
    }

    /// What `glide_all` needs to move boids on which only the rules and the edges act.
    fn glide(&self, h: f32, forces: &Forces) -> Glide {
        let s = &self.settings;
        Glide {
            cruise: forces.cruise,
            max_force: forces.max_force,
            weights: [s.separation, s.alignment, s.cohesion],
            separation_radius: self.urgency_radius(),
            speed_response: SPEED_RESPONSE,
            min_speed: MIN_SPEED_FACTOR * s.speed,
            top_speed: forces.top_speed,
            world: forces.world,
            wrap: forces.wrap,
            walls: forces.walls,
            h,
        }
    }

    /// The new position and velocity of sorted boid `i` (old state read from `sorted`), and
    /// the rule that pushed it hardest (`rules::strongest`).
    fn integrate(
        &self,
        i: usize,
        seen: &Neighbourhood,
        h: f32,
        forces: &Forces,
    ) -> ([f32; 3], [f32; 3], u8) {
        let s = &self.settings;
        let p = self.sorted.position(i);
        let v = self.sorted.velocity(i);
        let terms = self.terms(p, v, seen, forces);
        let (acceleration, fleeing) = (terms.total, terms.fleeing);
        let rule = rules::strongest(terms.separation, terms.alignment, terms.cohesion);
        let top = if fleeing {
            PANIC_SPEED_FACTOR * MAX_SPEED_FACTOR * s.speed
        } else {
            MAX_SPEED_FACTOR * s.speed
        };
        let new_v = rules::limit_speed(v + h * acceleration, MIN_SPEED_FACTOR * s.speed, top, v);
        let new_p = p + h * new_v;
        let mut position = [0.0; 3];
        let mut velocity = [0.0; 3];
        for axis in 0..3 {
            (position[axis], velocity[axis]) =
                confine(new_p[axis], new_v[axis], self.world, s.wrap);
        }
        (position, velocity, rule)
    }
}

/// Keeps one coordinate inside [0, world]: wrapped around, or stopped at the wall with the
/// velocity turned back inward.
pub(super) fn confine(position: f32, velocity: f32, world: f32, wrap: bool) -> (f32, f32) {
    if wrap {
        // A step moves a boid far less than a world: one add or subtract brings it back
        // (`rem_euclid` is a slow library call, kept for anything further out).
        if (0.0..world).contains(&position) {
            return (position, velocity);
        }
        let once = if position < 0.0 {
            position + world
        } else {
            position - world
        };
        if (0.0..world).contains(&once) {
            return (once, velocity);
        }
        let wrapped = position.rem_euclid(world);
        // rem_euclid can round up to `world` itself for tiny negative inputs.
        return (if wrapped >= world { 0.0 } else { wrapped }, velocity);
    }
    if position < 0.0 {
        (0.0, velocity.abs())
    } else if position > world {
        (world, -velocity.abs())
    } else {
        (position, velocity)
    }
}

#[cfg(test)]
mod tests {
    use super::super::glide::WIDE;
    use super::*;

    /// A flock whose boids are scattered, piled, stopped, at and past the walls, and alone.
    fn awkward_flock(wrap: bool, seed: u32, count: usize) -> Flock {
        let settings = Settings {
            wrap,
            world_size: Some(30.0),
            ..Settings::default()
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
    fn half_size_cells_find_the_same_neighbours_as_brute_force() {
        // The step uses cells a radius wide (`CELL_REACH`); the grid and the scan also
        // take half-size cells scanned two each way, measured slower but kept working.
        for (wrap, fov, seed) in [(true, 360.0, 1), (false, 360.0, 2), (true, 270.0, 3)] {
            let settings = Settings {
                wrap,
                world_size: Some(40.0),
                field_of_view: fov,
                ..Settings::default()
            };
            let mut flock = Flock::with_settings(600, Some(seed), settings);
            flock.cell_reach = 2;
            flock.sort_into_cells();
            assert_eq!(flock.grid.reach(), 2, "half-size cells in use");
            let brute = flock.neighbour_sets_brute_force();
            let grid = flock.neighbour_sets();
            for (i, (g, b)) in grid.iter().zip(&brute).enumerate() {
                let mut b = b.clone();
                b.sort_unstable();
                assert_eq!(g, &b, "wrap {wrap} fov {fov}: neighbours of boid {i}");
            }
            assert!(grid.iter().map(Vec::len).sum::<usize>() > 600);
            let (fast, slow) = (flock.accelerations(false), flock.accelerations(true));
            for (k, (a, b)) in fast.iter().zip(&slow).enumerate() {
                assert!(
                    (a - b).abs() <= 1e-3 * (1.0 + b.abs()),
                    "wrap {wrap} fov {fov}: acceleration component {k}: {a} vs {b}"
                );
            }
        }
    }

    #[test]
    fn a_lone_boid_at_rest_sets_off_the_same_way_both_ways() {
        for wrap in [true, false] {
            let settings = Settings {
                wrap,
                world_size: Some(100.0),
                ..Settings::default()
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
