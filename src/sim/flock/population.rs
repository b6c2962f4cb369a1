//! Making and resizing the flock: scattering boids from the seed, adding and removing them,
//! and the world that follows the count.

use crate::sim::behaviours::Behaviours;
use crate::sim::edges::confine;
use crate::sim::glide::Sightings;
use crate::sim::grid::Grid;
use crate::sim::params::Param;
use crate::sim::presets::Preset;
use crate::sim::rng::{random_seed, Rng};
use crate::sim::scan::{Scanner, Sorted};
use crate::sim::settings::{auto_world_size, Settings, SKY_SCALE};

use super::Flock;
use crate::sim::limits::wall_margin;

/// Under an open sky a new flock starts in a ball around home this many views in radius:
/// denser than a settled flock (1,500 boids at 0.6–1.0 separation radii apart fill a ball
/// of 0.2–0.3 views), so that it spreads into one flock and sets off together. Scattered
/// over the whole view, its groups end up circling home apart (milling 0.73–0.94); from a
/// ball of 0.3 views, 10,000 boids with the defaults still wound into a mill around home
/// (milling 0.71, seed 3), from 0.15 views none did (0.15–0.23).
const SKY_START: f32 = 0.15;

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
        settings.failure_mode = within(settings.failure_mode, Param::FailureMode);
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
            scanner: Scanner::default(),
            spans: Vec::new(),
            sightings: Sightings::default(),
            one_at_a_time: false,
            #[cfg(any(not(target_arch = "wasm32"), feature = "lab"))]
            lab: Default::default(),
            last_totals: Default::default(),
            swarm: Default::default(),
            grid: Grid::default(),
            world: 0.0,
            mean_neighbours: 0.0,
            mean_candidates: 0.0,
            neighbour_counts: Vec::new(),
            strongest: Vec::new(),
            elapsed: 0.0,
            ticks: 0,
            revision: 0,
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
            ..Settings::walled()
        };
        Self::with_settings(count, Some(42), settings)
    }

    /// The settled scenarios' flock for a preset (`shared/bench-scenario.md`): seed 42,
    /// everything else as the page has it (the preset's open sky, the world following the count).
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
        self.touched();
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
        self.swarm.history.clear();
        self.ids = (0..self.len() as u32).collect();
        self.next_id = self.len() as u32;
    }

    /// Sets each boid's species (in the order of `positions()`); values past the number of
    /// species wrap around. For lessons and tests that place boids by hand.
    pub fn set_species(&mut self, species: &[u8]) {
        self.touched();
        assert_eq!(species.len(), self.len(), "one species per boid");
        let kinds = self.settings.species.max(1);
        self.species.clear();
        self.species
            .extend(species.iter().map(|&k| (usize::from(k) % kinds) as u8));
    }

    /// Deals the species out in turn (boids are in cell order, so neighbours differ).
    pub(super) fn assign_species(&mut self) {
        self.touched();
        let kinds = self.settings.species.max(1);
        self.species.clear();
        self.species
            .extend((0..self.len()).map(|i| (i % kinds) as u8));
    }

    /// Marks the boids' arrays changed (`revision`): a step shared among workers from
    /// before is not taken in.
    pub(super) fn touched(&mut self) {
        self.revision = self.revision.wrapping_add(1);
    }

    /// Scatters the flock afresh from its seed, keeping count and settings.
    pub fn rebuild(&mut self) {
        self.scatter(self.len());
    }

    pub(super) fn scatter(&mut self, count: usize) {
        self.touched();
        // Ids are numbered afresh: the past heard of other boids.
        self.swarm.history.clear();
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
        // The clock too: noise draws from the step count (noise.rs), so a rebuilt flock with
        // noise ran otherwise than a new one with the same seed and settings (a shared link,
        // a studio's lesson), and the rewind's timeline starts again at 0 s.
        self.ticks = 0;
        self.elapsed = 0.0;
        // Hawks and leaders start afresh too: the same seed gives the same run.
        let (arena, flat, s) = (self.arena(), self.settings.flat, &self.settings);
        self.behaviours.set_hawks(0, arena, flat, s.predator_speed);
        self.behaviours
            .set_hawks(s.predators, arena, flat, s.predator_speed);
        self.behaviours
            .restart_leaders(s.leaders, arena, flat, s.speed);
        if flat {
            self.behaviours.flatten();
        }
    }

    pub(super) fn add_boids(&mut self, count: usize) {
        let speed = self.settings.speed;
        // Inside walls, start clear of them so that no boid begins by hitting one.
        // Under an open sky, over the view around home (the sky's middle third).
        let (inset, span) = if self.settings.sky {
            let view = self.world / SKY_SCALE;
            (0.5 * (self.world - view), view)
        } else if self.settings.wrap {
            (0.0, self.world)
        } else {
            let inset = wall_margin(self.world);
            (inset, self.world - 2.0 * inset)
        };
        let kinds = self.settings.species.max(1);
        for _ in 0..count {
            self.species.push((self.species.len() % kinds) as u8);
            self.ids.push(self.next_id);
            // Ids are never reused while the flock lives (4 billion additions away).
            self.next_id = self.next_id.wrapping_add(1);
            if self.settings.sky {
                // Under an open sky the flock starts together: a ball around home.
                let u = self.rng.unit();
                let root = if self.settings.flat {
                    u.sqrt()
                } else {
                    u.cbrt()
                };
                let radius = SKY_START * span * root;
                let mut offset = glam::Vec3::from(self.rng.direction());
                if self.settings.flat {
                    offset.z = 0.0;
                    offset = offset.normalize_or_zero();
                }
                let p = self.home() + offset * radius;
                self.positions.extend(p.to_array());
                let mut v = glam::Vec3::from(self.rng.direction());
                if self.settings.flat {
                    v.z = 0.0;
                    v = v.try_normalize().unwrap_or(glam::Vec3::X);
                }
                self.velocities.extend((v * speed).to_array());
                continue;
            }
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

    /// The world's side for `count` boids: the view's (`target_view`), or an open sky's
    /// `SKY_SCALE` times it.
    pub(super) fn target_world(&self, count: usize) -> f32 {
        let scale = if self.settings.sky { SKY_SCALE } else { 1.0 };
        self.target_view(count) * scale
    }

    /// The side of the view for `count` boids: `world_size` once set, else following the
    /// count.
    pub(super) fn target_view(&self, count: usize) -> f32 {
        self.settings
            .world_size
            .unwrap_or_else(|| auto_world_size(count, self.settings.flat))
    }

    pub(super) fn update_world(&mut self) {
        self.world = self.target_world(self.len());
    }

    /// The world resized for the settings (after a change of sky or world size): `about_centre`
    /// (entering or leaving an open sky, or resizing one), the flock, the hawks and the
    /// obstacles keep their places relative to the centre, home; else they keep theirs,
    /// brought inside if need be.
    pub(super) fn recentre_world(&mut self, about_centre: bool) {
        self.touched();
        let old = self.world;
        self.update_world();
        let new = self.world;
        if about_centre {
            self.shift_everything(0.5 * (new - old));
            // The leaders' loop and the pointer were placed for the old world.
            let (flat, cruise) = (self.settings.flat, self.settings.speed);
            let (leaders, arena) = (self.settings.leaders, self.arena());
            self.behaviours.set_leaders(leaders, arena, flat, cruise);
            self.behaviours.pointer = None;
        }
        self.confine_all();
    }

    /// Moves every boid, hawk and obstacle by `shift` along each axis (but z in a flat
    /// world); hawks and obstacles are kept inside the world.
    fn shift_everything(&mut self, shift: f32) {
        self.touched();
        let flat = self.settings.flat;
        let by = glam::Vec3::new(shift, shift, if flat { 0.0 } else { shift });
        for p in self.positions.chunks_exact_mut(3) {
            let moved = glam::Vec3::from_slice(p) + by;
            p.copy_from_slice(&moved.to_array());
        }
        let world = glam::Vec3::splat(self.world);
        for p in self.behaviours.hawk_positions.chunks_exact_mut(3) {
            let moved = (glam::Vec3::from_slice(p) + by).clamp(glam::Vec3::ZERO, world);
            p.copy_from_slice(&moved.to_array());
        }
        for obstacle in &mut self.behaviours.obstacles {
            let centre = glam::Vec3::from_slice(&obstacle[..3]) + by;
            obstacle[..3].copy_from_slice(&centre.clamp(glam::Vec3::ZERO, world).to_array());
        }
    }

    /// Adds boids (scattered at random) or removes random ones; the others stay put.
    /// When the world follows the count and so shrinks, the boids left outside it are the
    /// first to go, so that as few as possible have to be moved back in.
    pub fn set_count(&mut self, count: usize) {
        self.touched();
        let current = self.len();
        // Under an open sky the world grows or shrinks about home, the flock with it.
        let shift = 0.5 * (self.target_world(count) - self.world);
        if self.settings.sky && count != current {
            self.shift_everything(shift);
        }
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
    pub(super) fn confine_all(&mut self) {
        self.touched();
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
}
