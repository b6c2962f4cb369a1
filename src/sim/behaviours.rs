//! The behaviours beyond the three rules: hawks to flee, obstacles to avoid, leaders to
//! follow, the pointer, and the wind. Their state is a handful of small arrays beside the
//! flock's; what they do to one boid is [`Behaviours::pulls`], built from the pure
//! functions in `rules`.

use crate::within::Within;
use glam::Vec3;

pub use super::arena::Arena;
use super::edges::nearest_image;
use super::leader::{LeaderPath, SEGMENTS};
use super::limits::{
    turn_back_push, Limits, FLEE_FORCE_FACTOR, LOOK_AHEAD_SECONDS, OBSTACLE_CLEARANCE,
    POINTER_FORCE_FACTOR,
};
use super::params::Param;
use super::predator;
use super::rules;
use super::snapshot::{Reader, Writer};

/// The most obstacles at once.
pub const MAX_OBSTACLES: usize = 32;
/// Obstacle radii are clamped to this range (world units).
pub const MIN_OBSTACLE_RADIUS: f32 = 0.5;
pub const MAX_OBSTACLE_RADIUS: f32 = 20.0;
/// Hawks turn this many times harder than a boid's rule may.
const HAWK_AGILITY_FACTOR: f32 = 1.5;
/// Leaders fly at this fraction of the cruise speed, so that the flock can keep up: a dense
/// flock (cohesion and separation each steer against the current velocity) slows toward
/// the slowest speed a boid flies.
pub const LEADER_PACE: f32 = 0.5;
/// A repelling pointer reaches this fraction of the world side.
const POINTER_REPEL_REACH: f32 = 0.3;

/// The pointer, while it is held down.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pointer {
    pub point: Vec3,
    /// Toward the point (else away from it).
    pub attract: bool,
}

/// Everything beyond the boids themselves. Positions and velocities are xyz per item.
#[derive(Clone, Debug, Default)]
pub struct Behaviours {
    pub hawk_positions: Vec<f32>,
    pub hawk_velocities: Vec<f32>,
    /// Seconds into each hawk's circle-and-dive cycle.
    hawk_clocks: Vec<f32>,
    /// Where each leader is on the loop (a parameter in `0..SEGMENTS`).
    leader_phases: Vec<f32>,
    pub leader_positions: Vec<f32>,
    pub leader_velocities: Vec<f32>,
    /// x, y, z, radius.
    pub obstacles: Vec<[f32; 4]>,
    pub pointer: Option<Pointer>,
}

/// What the behaviours need to know about the world and the settings during one step.
#[derive(Clone, Copy, Debug)]
pub struct Forces {
    /// Anything to do at all: when false, [`Behaviours::pulls`] is never called.
    pub active: bool,
    pub flat: bool,
    pub wrap: bool,
    pub world: f32,
    /// The speeds and pushes of this step.
    pub limits: Limits,
    pub wind: Vec3,
    pub flee_radius: f32,
    pub leader_weight: f32,
    pub pointer_strength: f32,
}

/// What each behaviour beyond the three rules does to one boid: accelerations.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pulls {
    pub wind: Vec3,
    pub hawks: Vec3,
    pub obstacles: Vec3,
    pub leader: Vec3,
    pub pointer: Vec3,
}

impl Pulls {
    /// Their sum, in the order the step adds them.
    pub fn sum(&self) -> Vec3 {
        self.wind + self.hawks + self.obstacles + self.leader + self.pointer
    }

    fn each_mut(&mut self) -> [&mut Vec3; 5] {
        [
            &mut self.wind,
            &mut self.hawks,
            &mut self.obstacles,
            &mut self.leader,
            &mut self.pointer,
        ]
    }
}

impl Forces {
    /// Offset from `from` to `to`, to the nearest image across wrapped edges.
    pub fn offset(&self, from: Vec3, to: Vec3) -> Vec3 {
        nearest_image(to - from, self.world, self.wrap)
    }
}

/// Boid `k`'s three coordinates out of a flat `[x, y, z, x, y, z, …]` array.
pub(super) fn vec3_at(values: &[f32], k: usize) -> Vec3 {
    Vec3::from_slice(&values[3 * k..3 * k + 3])
}

impl Behaviours {
    pub fn hawks(&self) -> usize {
        self.hawk_positions.len() / 3
    }

    pub fn leaders(&self) -> usize {
        self.leader_phases.len()
    }

    /// Whether anything here acts on the boids.
    pub fn any(&self) -> bool {
        self.hawks() > 0
            || self.leaders() > 0
            || !self.obstacles.is_empty()
            || self.pointer.is_some()
    }

    /// Keeps `count` hawks: new ones start at their places, flying at `speed`.
    pub fn set_hawks(&mut self, count: usize, arena: Arena, flat: bool, speed: f32) {
        let count = count.min(predator::MAX_PREDATORS);
        let kept = self.hawks().min(count);
        self.hawk_positions.truncate(3 * kept);
        self.hawk_velocities.truncate(3 * kept);
        self.hawk_clocks.truncate(kept);
        for index in kept..count {
            let (position, heading) = predator::start(index, arena, flat);
            self.hawk_positions.extend(position.to_array());
            self.hawk_velocities.extend((heading * speed).to_array());
            self.hawk_clocks.push(predator::start_clock(index));
        }
    }

    /// Sets hawk `index`'s state, at the start of a dive (for lessons and tests); false if
    /// there is no such hawk.
    pub fn place_hawk(&mut self, index: usize, position: Vec3, velocity: Vec3) -> bool {
        if index >= self.hawks() {
            return false;
        }
        self.hawk_clocks[index] = predator::DIVE_START;
        self.hawk_positions[3 * index..3 * index + 3].copy_from_slice(&position.to_array());
        self.hawk_velocities[3 * index..3 * index + 3].copy_from_slice(&velocity.to_array());
        true
    }

    pub fn set_hawk_speed(&mut self, speed: f32) {
        for v in self.hawk_velocities.chunks_exact_mut(3) {
            let heading = Vec3::from_slice(v).try_normalize().unwrap_or(Vec3::X);
            v.copy_from_slice(&(heading * speed).to_array());
        }
    }

    /// Keeps `count` leaders, spread evenly around the loop behind the first.
    pub fn set_leaders(&mut self, count: usize, arena: Arena, flat: bool, cruise: f32) {
        let first = self.leader_phases.first().copied().unwrap_or(0.0);
        self.leader_phases.clear();
        self.leader_phases.extend(
            (0..count)
                .map(|k| (first + k as f32 * SEGMENTS as f32 / count as f32) % SEGMENTS as f32),
        );
        self.place_leaders(&LeaderPath::new(arena, flat), cruise);
    }

    /// `count` leaders, starting from the beginning of the loop.
    pub fn restart_leaders(&mut self, count: usize, arena: Arena, flat: bool, cruise: f32) {
        self.leader_phases.clear();
        self.set_leaders(count, arena, flat, cruise);
    }

    fn place_leaders(&mut self, path: &LeaderPath, cruise: f32) {
        self.leader_positions.clear();
        self.leader_velocities.clear();
        for &u in &self.leader_phases {
            self.leader_positions.extend(path.position(u).to_array());
            let heading = path.derivative(u).try_normalize().unwrap_or(Vec3::X);
            self.leader_velocities
                .extend((heading * (LEADER_PACE * cruise)).to_array());
        }
    }

    /// Moves every leader `h` seconds along the loop.
    pub fn move_leaders(&mut self, h: f32, arena: Arena, flat: bool, cruise: f32) {
        if self.leader_phases.is_empty() {
            return;
        }
        let path = LeaderPath::new(arena, flat);
        for u in &mut self.leader_phases {
            *u = path.advance(*u, LEADER_PACE * cruise * h);
        }
        self.place_leaders(&path, cruise);
    }

    /// Moves every hawk `h` seconds: `nearest_boid(position)` is where the boid nearest to
    /// a point is (if any). Inside walls they keep to the boids' soft walls.
    pub fn move_hawks(
        &mut self,
        h: f32,
        forces: &Forces,
        speed: f32,
        mut nearest_boid: impl FnMut(Vec3) -> Option<Vec3>,
    ) {
        let agility = HAWK_AGILITY_FACTOR * forces.limits.max_force;
        for k in 0..self.hawks() {
            let p = vec3_at(&self.hawk_positions, k);
            let v = vec3_at(&self.hawk_velocities, k);
            self.hawk_clocks[k] += h;
            let mode = predator::mode(self.hawk_clocks[k]);
            let wanted = match nearest_boid(p) {
                Some(boid) => {
                    predator::heading(mode, forces.offset(p, boid), v, forces.flee_radius)
                }
                None => v,
            };
            // The boids' walls, pushing as hard as a hawk at its speed needs.
            let walls = if forces.wrap {
                Vec3::ZERO
            } else {
                let margin = forces.limits.walls.0;
                let strength = turn_back_push(speed, margin, agility);
                rules::wall_push(p, forces.world, margin, strength)
            };
            let mut new_v = predator::fly(v, wanted, walls, speed, agility, h);
            if forces.flat {
                new_v.z = 0.0;
                new_v = new_v.try_normalize().unwrap_or(Vec3::X) * speed;
            }
            let mut new_p = p + h * new_v;
            for axis in 0..3 {
                (new_p[axis], new_v[axis]) =
                    super::edges::confine(new_p[axis], new_v[axis], forces.world, forces.wrap);
            }
            self.hawk_positions[3 * k..3 * k + 3].copy_from_slice(&new_p.to_array());
            self.hawk_velocities[3 * k..3 * k + 3].copy_from_slice(&new_v.to_array());
        }
    }

    /// Adds an obstacle; false (and nothing added) when there are `MAX_OBSTACLES` already.
    pub fn add_obstacle(&mut self, centre: Vec3, radius: f32) -> bool {
        if self.obstacles.len() >= MAX_OBSTACLES {
            return false;
        }
        let radius = radius.within(MIN_OBSTACLE_RADIUS, MAX_OBSTACLE_RADIUS);
        self.obstacles.push([centre.x, centre.y, centre.z, radius]);
        true
    }

    /// Writes every behaviour's state into a snapshot: the counts of hawks, leaders and
    /// obstacles and whether the pointer is held (and how), then their numbers: the hawks
    /// (with their clocks, where each is in its circle-and-dive cycle), the leaders (with
    /// where each is on the loop), the obstacles and the pointer.
    pub fn write_snapshot(&self, out: &mut Writer) {
        out.u8(self.hawks() as u8);
        out.u8(self.leaders() as u8);
        out.u8(self.obstacles.len() as u8);
        out.u8(match self.pointer {
            None => 0,
            Some(pointer) if pointer.attract => 1,
            Some(_) => 2,
        });
        for values in [
            &self.hawk_positions,
            &self.hawk_velocities,
            &self.hawk_clocks,
            &self.leader_phases,
            &self.leader_positions,
            &self.leader_velocities,
        ] {
            out.f32s(values);
        }
        // Each obstacle's centre, then its radius.
        out.f32s(self.obstacles.as_flattened());
        if let Some(pointer) = self.pointer {
            out.f32s(&pointer.point.to_array());
        }
    }

    /// Reads what `write_snapshot` wrote: counts within their maxima, every number finite,
    /// the leaders on the loop and the obstacles' radii in their range (else `input` is
    /// refused, and what is read is nothing to keep).
    pub fn read_snapshot(input: &mut Reader) -> Self {
        let hawks = input.count(1, predator::MAX_PREDATORS, "hawks");
        let leaders = input.count(1, Param::Leaders.spec().max as usize, "leaders");
        let obstacles = input.count(1, MAX_OBSTACLES, "obstacles");
        let held = input.count(1, 2, "for the pointer (0 let go, 1 drawing, 2 pushing)");
        let hawk = "a hawk's number that is not finite";
        let leader = "a leader's number that is not finite";
        // On the loop: from 0 up to, not at, `SEGMENTS`.
        let last = (SEGMENTS as f32).next_down();
        let mut read = Behaviours {
            hawk_positions: input.finite_f32s(3 * hawks, hawk),
            hawk_velocities: input.finite_f32s(3 * hawks, hawk),
            hawk_clocks: input.finite_f32s(hawks, hawk),
            leader_phases: input.f32s_within(leaders, 0.0, last, "a leader off the loop"),
            leader_positions: input.finite_f32s(3 * leaders, leader),
            leader_velocities: input.finite_f32s(3 * leaders, leader),
            ..Behaviours::default()
        };
        let spheres = input.finite_f32s(4 * obstacles, "an obstacle that is not finite");
        let radii = MIN_OBSTACLE_RADIUS..=MAX_OBSTACLE_RADIUS;
        for sphere in spheres.chunks_exact(4) {
            input.check(radii.contains(&sphere[3]), "an obstacle's radius");
            read.obstacles
                .push([sphere[0], sphere[1], sphere[2], sphere[3]]);
        }
        let point = input.finite_f32s(3 * held.min(1), "the pointer that is not finite");
        read.pointer = point.get(..3).map(|point| Pointer {
            point: Vec3::from_slice(point),
            attract: held == 1,
        });
        read
    }

    /// Moves obstacles and the pointer into the plane z = 0 (for a flat world).
    pub fn flatten(&mut self) {
        for obstacle in &mut self.obstacles {
            obstacle[2] = 0.0;
        }
        if let Some(pointer) = &mut self.pointer {
            pointer.point.z = 0.0;
        }
    }

    /// What the hawks, obstacles, leaders, pointer and wind do to a boid at `p` flying at
    /// `v`, term by term (the inspector shows each; the step adds them up), and whether it
    /// is fleeing (and so may fly faster).
    pub fn pulls(&self, forces: &Forces, p: Vec3, v: Vec3) -> (Pulls, bool) {
        let mut pulls = Pulls {
            wind: forces.wind,
            ..Pulls::default()
        };
        let mut fleeing = false;
        if self.hawks() > 0 {
            let away: Vec3 = self
                .hawk_positions
                .chunks_exact(3)
                .filter_map(|hawk| {
                    rules::flee_from(forces.offset(p, Vec3::from_slice(hawk)), forces.flee_radius)
                })
                .sum();
            if away != Vec3::ZERO {
                fleeing = true;
                let force = FLEE_FORCE_FACTOR * forces.limits.max_force;
                pulls.hawks = rules::steer(away, v, forces.limits.panic_speed, force);
            }
        }
        if !self.obstacles.is_empty() {
            let look_ahead = LOOK_AHEAD_SECONDS * v.length() + OBSTACLE_CLEARANCE;
            for &[x, y, z, radius] in &self.obstacles {
                let centre = p + forces.offset(p, Vec3::new(x, y, z));
                pulls.obstacles += rules::avoid_sphere(
                    p,
                    v,
                    centre,
                    radius + OBSTACLE_CLEARANCE,
                    look_ahead,
                    forces.limits.obstacle_strength,
                );
            }
        }
        if self.leaders() > 0 {
            let nearest = (0..self.leaders())
                .map(|k| (k, forces.offset(p, vec3_at(&self.leader_positions, k))))
                .min_by(|a, b| a.1.length_squared().total_cmp(&b.1.length_squared()));
            if let Some((k, offset)) = nearest {
                let leader_velocity = vec3_at(&self.leader_velocities, k);
                pulls.leader = forces.leader_weight
                    * rules::follow(
                        offset,
                        leader_velocity,
                        v,
                        forces.limits.top_speed,
                        forces.limits.max_force,
                    );
            }
        }
        if let Some(pointer) = self.pointer {
            let offset = forces.offset(p, pointer.point);
            let repel_radius = POINTER_REPEL_REACH * forces.world;
            pulls.pointer = POINTER_FORCE_FACTOR
                * forces.pointer_strength
                * rules::pointer_pull(
                    offset,
                    v,
                    pointer.attract,
                    repel_radius,
                    forces.limits.cruise,
                    forces.limits.max_force,
                );
        }
        if forces.flat {
            for pull in pulls.each_mut() {
                pull.z = 0.0;
            }
        }
        (pulls, fleeing)
    }
}
