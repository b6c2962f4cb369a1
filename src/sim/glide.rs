//! Moving the flock when nothing but the three rules, the cruise speed and the world's edges
//! act on it (no hawks, leaders, obstacles, pointer or wind; 3D): four boids at a time in
//! `Vec4` lanes.
//!
//! This is the step's common case (the standard benchmark, and the page's defaults), and
//! one boid at a time its square roots and divisions were a fifth of the step in wasm. The
//! arithmetic is `Flock::integrate`'s, rule for rule (`rules::steering`,
//! `rules::wall_push`, `rules::limit_speed`, `confine`); the rare boid that needs a
//! fallback (stopped, or thrown far outside the world) is finished one at a time by those
//! same functions. `flock.rs` tests that both ways agree.

use glam::{BVec4A, Vec3, Vec4};

use super::flock::confine;
use super::rules::{self, Neighbourhood};
use super::scan::{keep, Sorted, LANES};

/// What each boid saw in one scan, by sorted slot, padded to a whole number of groups of
/// lanes: one boid's count and sums side by side (`COUNT`, then xyz from `VELOCITY`,
/// `OFFSET` and `SEPARATION`). The scan records them cell by cell up each column of cells,
/// which jumps about the slots; so a record is one or two cache lines, where a column per
/// component made it ten (at 100,000 boids that was 3–5 % of the step).
#[derive(Clone, Debug, Default)]
pub struct Sightings {
    seen: Vec<[f32; SIGHTING]>,
}

const COUNT: usize = 0;
const VELOCITY: usize = 1;
const OFFSET: usize = 4;
const SEPARATION: usize = 7;
const SIGHTING: usize = 10;

impl Sightings {
    /// Room for `boids` sightings (contents stale until `record`ed).
    pub fn resize(&mut self, boids: usize) {
        self.seen
            .resize(boids.next_multiple_of(LANES), [0.0; SIGHTING]);
    }

    pub fn record(&mut self, slot: usize, seen: &Neighbourhood) {
        let record = &mut self.seen[slot];
        record[COUNT] = seen.count as f32;
        record[VELOCITY..OFFSET].copy_from_slice(&seen.sum_velocity.to_array());
        record[OFFSET..SEPARATION].copy_from_slice(&seen.sum_offset.to_array());
        record[SEPARATION..].copy_from_slice(&seen.separation.to_array());
    }

    /// Entry `k` of the four boids from `first`.
    fn lanes(&self, first: usize, k: usize) -> Vec4 {
        let four = &self.seen[first..first + LANES];
        Vec4::new(four[0][k], four[1][k], four[2][k], four[3][k])
    }

    /// The sum whose x is entry `k`, of the four boids from `first`.
    fn lanes3(&self, first: usize, k: usize) -> Lanes3 {
        Lanes3 {
            x: self.lanes(first, k),
            y: self.lanes(first, k + 1),
            z: self.lanes(first, k + 2),
        }
    }
}

/// The settings the plain step moves boids by.
#[derive(Clone, Copy, Debug)]
pub struct Glide {
    pub cruise: f32,
    pub max_force: f32,
    /// Separation, alignment and cohesion weights.
    pub weights: [f32; 3],
    /// How fast (1/s) a boid eases back toward cruise speed.
    pub speed_response: f32,
    pub min_speed: f32,
    pub top_speed: f32,
    pub world: f32,
    pub wrap: bool,
    /// Soft walls' margin and push at the wall, when the edges do not wrap.
    pub walls: (f32, f32),
    /// Time step, seconds.
    pub h: f32,
}

/// Three components of four boids.
#[derive(Clone, Copy)]
struct Lanes3 {
    x: Vec4,
    y: Vec4,
    z: Vec4,
}

impl Lanes3 {
    fn load(columns: [&[f32]; 3], first: usize) -> Self {
        let [x, y, z] = columns.map(|column| Vec4::from_slice(&column[first..first + LANES]));
        Lanes3 { x, y, z }
    }

    fn length(self) -> Vec4 {
        (self.x * self.x + self.y * self.y + self.z * self.z).sqrt()
    }

    fn scale(self, by: Vec4) -> Self {
        Lanes3 {
            x: self.x * by,
            y: self.y * by,
            z: self.z * by,
        }
    }

    fn add(self, other: Self) -> Self {
        Lanes3 {
            x: self.x + other.x,
            y: self.y + other.y,
            z: self.z + other.z,
        }
    }

    fn sub(self, other: Self) -> Self {
        Lanes3 {
            x: self.x - other.x,
            y: self.y - other.y,
            z: self.z - other.z,
        }
    }

    /// x, y, z of each of the four lanes in turn.
    fn interleaved(self) -> [f32; 3 * LANES] {
        let (x, y, z) = (self.x.to_array(), self.y.to_array(), self.z.to_array());
        [
            x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2], x[3], y[3], z[3],
        ]
    }

    fn lane(self, k: usize) -> Vec3 {
        Vec3::new(self.x[k], self.y[k], self.z[k])
    }
}

/// `rules::steer` in four lanes; `wanted`: lanes whose boid saw anyone at all.
fn steer(direction: Lanes3, velocity: Lanes3, wanted: BVec4A, glide: &Glide) -> Lanes3 {
    let length = direction.length();
    let asks = wanted & length.cmpgt(Vec4::splat(1e-12)) & length.cmplt(Vec4::INFINITY);
    let desired = direction.scale(keep(asks, Vec4::splat(glide.cruise) / length));
    let change = desired.sub(velocity);
    let size = change.length();
    let max = Vec4::splat(glide.max_force);
    let limit = Vec4::select(size.cmpgt(max), max / size, Vec4::ONE);
    change.scale(keep(asks, limit))
}

/// `rules::wall_push` along one axis, in four lanes.
fn wall_push(p: Vec4, glide: &Glide) -> Vec4 {
    let (margin, strength) = glide.walls;
    let (margin_v, far) = (Vec4::splat(margin), Vec4::splat(glide.world - margin));
    let per_unit = Vec4::splat(strength / margin);
    let low = keep(p.cmplt(margin_v), (margin_v - p) * per_unit);
    let high = keep(p.cmpgt(far), (p - far) * per_unit);
    low - high
}

/// `confine` along one axis for lanes inside or one world past an edge, and which lanes
/// that covered (the others need the general case).
fn confine_lanes(p: Vec4, v: Vec4, glide: &Glide) -> (Vec4, Vec4, BVec4A) {
    let world = Vec4::splat(glide.world);
    if glide.wrap {
        let p = Vec4::select(p.cmplt(Vec4::ZERO), p + world, p);
        let p = Vec4::select(p.cmpge(world), p - world, p);
        let fine = p.cmpge(Vec4::ZERO) & p.cmplt(world);
        (p, v, fine)
    } else {
        let below = p.cmplt(Vec4::ZERO);
        let above = p.cmpgt(world);
        let speed = v.abs();
        let v = Vec4::select(below, speed, Vec4::select(above, -speed, v));
        let p = Vec4::select(below, Vec4::ZERO, Vec4::select(above, world, p));
        // NaN compares false both ways: found by the general case.
        let fine = p.cmpge(Vec4::ZERO) & p.cmple(world);
        (p, v, fine)
    }
}

/// Writes the new position and velocity (xyz per boid) of every boid in `sorted`, in slot
/// order, from what it saw.
pub fn glide_all(
    sorted: &Sorted,
    seen: &Sightings,
    glide: &Glide,
    positions: &mut [f32],
    velocities: &mut [f32],
) {
    let boids = positions.len() / 3;
    let h = Vec4::splat(glide.h);
    let [ws, wa, wc] = glide.weights.map(Vec4::splat);
    for first in (0..boids).step_by(LANES) {
        let p = Lanes3::load([&sorted.x, &sorted.y, &sorted.z], first);
        let v = Lanes3::load([&sorted.vx, &sorted.vy, &sorted.vz], first);
        let wanted = seen.lanes(first, COUNT).cmpgt(Vec4::ZERO);
        let separation = steer(seen.lanes3(first, SEPARATION), v, wanted, glide);
        let alignment = steer(seen.lanes3(first, VELOCITY), v, wanted, glide);
        let cohesion = steer(seen.lanes3(first, OFFSET), v, wanted, glide);
        let mut acceleration = separation
            .scale(ws)
            .add(alignment.scale(wa))
            .add(cohesion.scale(wc));
        let speed = v.length();
        let ease = (Vec4::splat(glide.cruise) - speed) / speed * Vec4::splat(glide.speed_response);
        acceleration = acceleration.add(v.scale(keep(speed.cmpgt(Vec4::splat(1e-6)), ease)));
        if !glide.wrap {
            acceleration = acceleration.add(Lanes3 {
                x: wall_push(p.x, glide),
                y: wall_push(p.y, glide),
                z: wall_push(p.z, glide),
            });
        }
        // `rules::limit_speed`.
        let moved = v.add(acceleration.scale(h));
        let speed = moved.length();
        let (min, top) = (Vec4::splat(glide.min_speed), Vec4::splat(glide.top_speed));
        let factor = Vec4::select(
            speed.cmpgt(top),
            top / speed,
            Vec4::select(speed.cmplt(min), min / speed, Vec4::ONE),
        );
        let stopped = !speed.cmplt(Vec4::INFINITY) | speed.cmplt(Vec4::splat(1e-6));
        let new_v = moved.scale(factor);
        let new_p = p.add(new_v.scale(h));
        let (px, vx, fine_x) = confine_lanes(new_p.x, new_v.x, glide);
        let (py, vy, fine_y) = confine_lanes(new_p.y, new_v.y, glide);
        let (pz, vz, fine_z) = confine_lanes(new_p.z, new_v.z, glide);
        let fine = fine_x & fine_y & fine_z & !stopped;
        let position = Lanes3 {
            x: px,
            y: py,
            z: pz,
        };
        let velocity = Lanes3 {
            x: vx,
            y: vy,
            z: vz,
        };
        if fine.all() && first + LANES <= boids {
            // The common case: all four as xyz triples in one go.
            let span = 3 * first..3 * (first + LANES);
            positions[span.clone()].copy_from_slice(&position.interleaved());
            velocities[span].copy_from_slice(&velocity.interleaved());
            continue;
        }
        for k in 0..LANES.min(boids - first) {
            let i = first + k;
            let (p_k, v_k) = if fine.test(k) {
                (position.lane(k), velocity.lane(k))
            } else {
                // One at a time, as `Flock::integrate` does it.
                let old_v = v.lane(k);
                let new_v = rules::limit_speed(
                    old_v + glide.h * acceleration.lane(k),
                    glide.min_speed,
                    glide.top_speed,
                    old_v,
                );
                let new_p = p.lane(k) + glide.h * new_v;
                let mut pair = (Vec3::ZERO, Vec3::ZERO);
                for axis in 0..3 {
                    (pair.0[axis], pair.1[axis]) =
                        confine(new_p[axis], new_v[axis], glide.world, glide.wrap);
                }
                pair
            };
            positions[3 * i..3 * i + 3].copy_from_slice(&p_k.to_array());
            velocities[3 * i..3 * i + 3].copy_from_slice(&v_k.to_array());
        }
    }
}
