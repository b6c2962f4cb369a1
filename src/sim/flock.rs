//! The flock: state in flat `f32` arrays (xyz per boid), stepped over a counting-sort grid.

use glam::Vec3;

use super::grid::Grid;
use super::params::{Param, ParamError};
use super::rng::{random_seed, Rng};
use super::rules::{self, Neighbourhood};
use super::scan::{
    look_around, look_around_fast, needs_nearest_image, neighbour_spans, Sorted, Span, View,
};

/// The longest single integration step; longer `dt`s are split into steps this long.
pub const MAX_SUBSTEP: f32 = 1.0 / 60.0;
/// The most time one `step` call advances: a tab that was hidden for a minute must not
/// make the flock jump (or spend a minute catching up).
pub const MAX_STEP: f32 = 0.25;
/// Boids fly no slower than this fraction of the cruise speed...
pub const MIN_SPEED_FACTOR: f32 = 0.5;
/// ...and no faster than this one.
pub const MAX_SPEED_FACTOR: f32 = 1.4;
/// How fast (1/s) a boid eases back toward cruise speed when nothing else is going on.
const SPEED_RESPONSE: f32 = 1.0;
/// World side that the default count gets; other counts keep the same density.
const REFERENCE_COUNT: f32 = 1500.0;
/// Grid cells one perception radius wide, scanned 3×3×3. Half-size cells scanned 5×5×5
/// examine fewer candidates but in more, shorter ranges: measured 20% slower (README).
const CELL_REACH: usize = 1;

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
        }
    }
}

/// The world side for `count` boids when it follows the count: same density as the
/// default flock in the default world.
pub fn auto_world_size(count: usize) -> f32 {
    let spec = Param::WorldSize.spec();
    let side = spec.default as f32 * (count as f32 / REFERENCE_COUNT).cbrt();
    side.clamp(spec.min as f32, spec.max as f32)
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
    /// The old state in cell order, read while the new state is written (double buffer).
    sorted: Sorted,
    /// Scratch: the spans of slots around one cell.
    spans: Vec<Span>,
    grid: Grid,
    world: f32,
    mean_neighbours: f32,
}

fn vec3_at(values: &[f32], boid: usize) -> Vec3 {
    Vec3::from_slice(&values[3 * boid..3 * boid + 3])
}

impl Flock {
    /// `count` boids with default settings; `seed: None` draws a seed from the system.
    pub fn new(count: usize, seed: Option<u32>) -> Self {
        Self::with_settings(count, seed, Settings::default())
    }

    pub fn with_settings(count: usize, seed: Option<u32>, settings: Settings) -> Self {
        let seed = seed.unwrap_or_else(random_seed);
        let mut flock = Flock {
            settings,
            seed,
            rng: Rng::new(seed),
            positions: Vec::new(),
            velocities: Vec::new(),
            sorted: Sorted::default(),
            spans: Vec::new(),
            grid: Grid::default(),
            world: 0.0,
            mean_neighbours: 0.0,
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
    }

    /// Scatters the flock afresh from its seed, keeping count and settings.
    pub fn rebuild(&mut self) {
        self.scatter(self.len());
    }

    fn scatter(&mut self, count: usize) {
        self.rng = Rng::new(self.seed);
        self.positions.clear();
        self.velocities.clear();
        self.world = self.target_world(count);
        self.add_boids(count);
        self.mean_neighbours = 0.0;
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
        for _ in 0..count {
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
            .unwrap_or_else(|| auto_world_size(count))
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
            }
            self.positions.truncate(3 * count);
            self.velocities.truncate(3 * count);
            self.confine_all();
        } else if count > current {
            self.update_world();
            self.confine_all();
            self.add_boids(count - current);
        }
    }

    /// Brings every boid back inside the world after it shrank.
    fn confine_all(&mut self) {
        let world = self.world;
        let wrap = self.settings.wrap;
        for (p, v) in self
            .positions
            .chunks_exact_mut(3)
            .zip(self.velocities.chunks_exact_mut(3))
        {
            for axis in 0..3 {
                (p[axis], v[axis]) = confine(p[axis], v[axis], world, wrap);
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
        };
        f64::from(value)
    }

    /// Sets a parameter: clamped to the table's range; a non-finite value changes nothing
    /// and is refused. Returns the value applied.
    pub fn set(&mut self, param: Param, value: f64) -> Result<f64, ParamError> {
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
        }
        Ok(value)
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

    /// Mean number of neighbours each boid heeded in the last step.
    pub fn mean_neighbours(&self) -> f32 {
        self.mean_neighbours
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

    fn sort_into_cells(&mut self) {
        self.grid
            .configure(self.world, self.settings.perception, CELL_REACH, self.len());
        self.grid.sort(&self.positions);
        self.sorted
            .gather(self.grid.order(), &self.positions, &self.velocities);
    }

    /// Calls `visit(slot, neighbourhood)` for every boid in cell order, scanning the grid.
    fn scan_all(&mut self, mut visit: impl FnMut(&Self, usize, &Neighbourhood)) {
        let view = View::new(&self.settings, self.world);
        let dims = self.grid.dims();
        let wrap = self.settings.wrap;
        let nearest_image = needs_nearest_image(&self.grid, wrap);
        let mut spans = std::mem::take(&mut self.spans);
        for z in 0..dims {
            for y in 0..dims {
                for x in 0..dims {
                    let own = self.grid.slots_of([x, y, z]);
                    if own.is_empty() {
                        continue;
                    }
                    neighbour_spans(&self.grid, [x, y, z], wrap, self.world, &mut spans);
                    for i in own {
                        let seen = look_around_fast(i, &spans, &self.sorted, &view, nearest_image);
                        visit(self, i, &seen);
                    }
                }
            }
        }
        self.spans = spans;
    }

    fn substep(&mut self, h: f32) {
        if self.is_empty() {
            return;
        }
        self.sort_into_cells();
        let mut total_neighbours = 0u64;
        let mut new_positions = std::mem::take(&mut self.positions);
        let mut new_velocities = std::mem::take(&mut self.velocities);
        self.scan_all(|flock, i, seen| {
            total_neighbours += u64::from(seen.count);
            let (p, v) = flock.integrate(i, seen, h);
            new_positions[3 * i..3 * i + 3].copy_from_slice(&p);
            new_velocities[3 * i..3 * i + 3].copy_from_slice(&v);
        });
        self.positions = new_positions;
        self.velocities = new_velocities;
        self.mean_neighbours = total_neighbours as f32 / self.len() as f32;
    }

    /// Acceleration of a boid at `p` flying at `v` from what it sees, the walls and its
    /// wish to cruise.
    fn acceleration(&self, p: Vec3, v: Vec3, seen: &Neighbourhood) -> Vec3 {
        let s = &self.settings;
        let steer = rules::steering(seen, v, s.speed, s.max_force);
        let mut acceleration = s.separation * steer.separation
            + s.alignment * steer.alignment
            + s.cohesion * steer.cohesion;
        let speed = v.length();
        if speed > 1e-6 {
            acceleration += v * ((s.speed - speed) / speed * SPEED_RESPONSE);
        }
        if !s.wrap {
            let (margin, strength) = self.wall_profile();
            acceleration += rules::wall_push(p, self.world, margin, strength);
        }
        acceleration
    }

    /// Width of the soft wall and its push at the wall: strong enough that a boid at top
    /// speed turns back within half the margin whatever the other rules want.
    fn wall_profile(&self) -> (f32, f32) {
        let s = &self.settings;
        let margin = (0.1 * self.world).clamp(1.0, 10.0);
        let top_speed = MAX_SPEED_FACTOR * s.speed;
        let rules_total = (s.separation + s.alignment + s.cohesion) * s.max_force;
        (
            margin,
            2.0 * top_speed * top_speed / margin + 2.0 * rules_total,
        )
    }

    /// The new position and velocity of sorted boid `i` (old state read from `sorted`).
    fn integrate(&self, i: usize, seen: &Neighbourhood, h: f32) -> ([f32; 3], [f32; 3]) {
        let s = &self.settings;
        let p = self.sorted.position(i);
        let v = self.sorted.velocity(i);
        let acceleration = self.acceleration(p, v, seen);
        let new_v = rules::limit_speed(
            v + h * acceleration,
            MIN_SPEED_FACTOR * s.speed,
            MAX_SPEED_FACTOR * s.speed,
            v,
        );
        let new_p = p + h * new_v;
        let mut position = [0.0; 3];
        let mut velocity = [0.0; 3];
        for axis in 0..3 {
            (position[axis], velocity[axis]) =
                confine(new_p[axis], new_v[axis], self.world, s.wrap);
        }
        (position, velocity)
    }

    /// Neighbours of every boid found through the grid's ranges, as sorted lists of indices
    /// into the current arrays. For tests: the step scans the same ranges.
    pub fn neighbour_sets(&mut self) -> Vec<Vec<usize>> {
        self.sort_into_cells();
        let view = View::new(&self.settings, self.world);
        let order = self.grid.order();
        let sorted = &self.sorted;
        let mut sets = vec![Vec::new(); self.len()];
        let mut spans = Vec::new();
        for (slot, &boid) in order.iter().enumerate() {
            let p = sorted.position(slot);
            let cell = self.grid.cell_coords(p.x, p.y, p.z);
            neighbour_spans(&self.grid, cell, self.settings.wrap, self.world, &mut spans);
            let found = &mut sets[boid as usize];
            let candidates = spans.iter().flat_map(|s| s.slots.clone());
            let record = |j: usize| found.push(order[j] as usize);
            let position = |j| sorted.position(j);
            let velocity = |j| sorted.velocity(j);
            if self.settings.wrap {
                look_around::<true>(slot, candidates, position, velocity, &view, record);
            } else {
                look_around::<false>(slot, candidates, position, velocity, &view, record);
            }
            found.sort_unstable();
        }
        sets
    }

    /// Neighbours of every boid by checking every pair: the reference for the grid.
    pub fn neighbour_sets_brute_force(&self) -> Vec<Vec<usize>> {
        (0..self.len())
            .map(|i| {
                let mut found = Vec::new();
                self.look_around_brute_force(i, |j| found.push(j));
                found
            })
            .collect()
    }

    fn look_around_brute_force(&self, i: usize, record: impl FnMut(usize)) -> Neighbourhood {
        let view = View::new(&self.settings, self.world);
        let position = |j| vec3_at(&self.positions, j);
        let velocity = |j| vec3_at(&self.velocities, j);
        if self.settings.wrap {
            look_around::<true>(i, 0..self.len(), position, velocity, &view, record)
        } else {
            look_around::<false>(i, 0..self.len(), position, velocity, &view, record)
        }
    }

    /// Accelerations (xyz per boid, in the current order) the next step would apply:
    /// through the step's own grid scan, or (`brute_force`) by checking every pair one at
    /// a time. For tests.
    pub fn accelerations(&mut self, brute_force: bool) -> Vec<f32> {
        let mut out = vec![0.0; self.positions.len()];
        if brute_force {
            for i in 0..self.len() {
                let seen = self.look_around_brute_force(i, |_| {});
                let p = vec3_at(&self.positions, i);
                let v = vec3_at(&self.velocities, i);
                out[3 * i..3 * i + 3].copy_from_slice(&self.acceleration(p, v, &seen).to_array());
            }
            return out;
        }
        self.sort_into_cells();
        let order = self.grid.order().to_vec();
        self.scan_all(|flock, slot, seen| {
            let p = flock.sorted.position(slot);
            let v = flock.sorted.velocity(slot);
            let boid = order[slot] as usize;
            out[3 * boid..3 * boid + 3].copy_from_slice(&flock.acceleration(p, v, seen).to_array());
        });
        out
    }
}

/// Keeps one coordinate inside [0, world]: wrapped around, or stopped at the wall with the
/// velocity turned back inward.
fn confine(position: f32, velocity: f32, world: f32, wrap: bool) -> (f32, f32) {
    if wrap {
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
