//! Moving the flock when nothing but the three rules, the cruise speed and the world's edges
//! act on it (no hawks, leaders, obstacles, pointer or wind; 3D): eight boids at a time,
//! two groups of four `Vec4` lanes in step.
//!
//! This is the step's common case (the standard benchmark, and the page's defaults), and
//! one boid at a time its square roots and divisions were a fifth of the step in wasm. The
//! arithmetic is `Flock::integrate`'s, rule for rule (`rules::steering`,
//! `rules::wall_push`, `rules::limit_speed`, `confine`); the rare boid that needs a
//! fallback (stopped, or thrown far outside the world) is finished one at a time by those
//! same functions. `flock.rs` tests that both ways agree.

use std::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Range, Sub};

use glam::{BVec4A, Vec3, Vec4};

use super::edges::confine;
use super::lanes::{keep, GROUPS, LANES, WIDE};
use super::limits::{Limits, SPEED_RESPONSE};
use super::rules::{self, Neighbourhood};
use super::scan::Sorted;

/// `WIDE` boids' values: groups of lanes, every operation made on each before the next.
/// Each boid's move is a long chain of square roots and divisions, each waiting for the one
/// before; one group at a time, the CPU mostly waited. With two in step their chains
/// overlap (wasm in Chromium: 1.925 → 1.875 ms a step at 10,000 boids; three or four
/// groups measured slower, V8 running out of registers).
#[derive(Clone, Copy)]
struct Wide([Vec4; GROUPS]);

/// Which of the `WIDE` lanes: a `Wide` comparison.
#[derive(Clone, Copy)]
struct WideMask([BVec4A; GROUPS]);

impl Wide {
    const ZERO: Wide = Wide([Vec4::ZERO; GROUPS]);
    const ONE: Wide = Wide([Vec4::ONE; GROUPS]);
    const INFINITY: Wide = Wide([Vec4::INFINITY; GROUPS]);

    fn splat(value: f32) -> Self {
        Wide([Vec4::splat(value); GROUPS])
    }

    /// `make(at)` for the group of lanes from boid `at` on.
    fn from_groups(make: impl Fn(usize) -> Vec4) -> Self {
        Wide(std::array::from_fn(|g| make(g * LANES)))
    }

    fn load(column: &[f32], first: usize) -> Self {
        Wide::from_groups(|at| Vec4::from_slice(&column[first + at..first + at + LANES]))
    }

    fn map(self, f: impl Fn(Vec4) -> Vec4) -> Self {
        Wide(self.0.map(f))
    }

    fn zip(self, other: Self, f: impl Fn(Vec4, Vec4) -> Vec4) -> Self {
        Wide(std::array::from_fn(|g| f(self.0[g], other.0[g])))
    }

    fn compare(self, other: Self, f: impl Fn(Vec4, Vec4) -> BVec4A) -> WideMask {
        WideMask(std::array::from_fn(|g| f(self.0[g], other.0[g])))
    }

    fn sqrt(self) -> Self {
        self.map(Vec4::sqrt)
    }

    fn abs(self) -> Self {
        self.map(Vec4::abs)
    }

    fn min(self, other: Self) -> Self {
        self.zip(other, Vec4::min)
    }

    fn cmpgt(self, other: Self) -> WideMask {
        self.compare(other, Vec4::cmpgt)
    }

    fn cmpge(self, other: Self) -> WideMask {
        self.compare(other, Vec4::cmpge)
    }

    fn cmplt(self, other: Self) -> WideMask {
        self.compare(other, Vec4::cmplt)
    }

    fn cmple(self, other: Self) -> WideMask {
        self.compare(other, Vec4::cmple)
    }

    /// `if_true` where `mask` is set, else `if_false`.
    fn select(mask: WideMask, if_true: Self, if_false: Self) -> Self {
        Wide(std::array::from_fn(|g| {
            Vec4::select(mask.0[g], if_true.0[g], if_false.0[g])
        }))
    }

    /// `scan::keep`: the value where `mask` is set, 0 elsewhere.
    fn keep(mask: WideMask, value: Self) -> Self {
        Wide(std::array::from_fn(|g| keep(mask.0[g], value.0[g])))
    }

    fn lane(self, k: usize) -> f32 {
        self.0[k / LANES][k % LANES]
    }
}

impl WideMask {
    fn all(self) -> bool {
        self.0.iter().all(|group| group.all())
    }

    fn test(self, k: usize) -> bool {
        self.0[k / LANES].test(k % LANES)
    }
}

macro_rules! wide_op {
    ($($trait:ident $method:ident),*) => {$(
        impl $trait for Wide {
            type Output = Wide;
            fn $method(self, other: Wide) -> Wide {
                self.zip(other, Vec4::$method)
            }
        }
    )*};
}
wide_op!(Add add, Sub sub, Mul mul, Div div);

impl Neg for Wide {
    type Output = Wide;
    fn neg(self) -> Wide {
        self.map(Vec4::neg)
    }
}

impl BitAnd for WideMask {
    type Output = WideMask;
    fn bitand(self, other: WideMask) -> WideMask {
        WideMask(std::array::from_fn(|g| self.0[g] & other.0[g]))
    }
}

impl BitOr for WideMask {
    type Output = WideMask;
    fn bitor(self, other: WideMask) -> WideMask {
        WideMask(std::array::from_fn(|g| self.0[g] | other.0[g]))
    }
}

impl Not for WideMask {
    type Output = WideMask;
    fn not(self) -> WideMask {
        WideMask(self.0.map(|group| !group))
    }
}

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
        // A run of slots may start anywhere (`glide_all`): its last group reads up to
        // `WIDE` − 1 past the last boid.
        self.seen
            .resize((boids + WIDE).next_multiple_of(WIDE), [0.0; SIGHTING]);
    }

    pub fn record(&mut self, slot: usize, seen: &Neighbourhood) {
        let record = &mut self.seen[slot];
        record[COUNT] = seen.count as f32;
        record[VELOCITY..OFFSET].copy_from_slice(&seen.sum_velocity.to_array());
        record[OFFSET..SEPARATION].copy_from_slice(&seen.sum_offset.to_array());
        record[SEPARATION..].copy_from_slice(&seen.separation.to_array());
    }

    /// Entry `k` of the eight boids from `first`.
    fn lanes(&self, first: usize, k: usize) -> Wide {
        Wide::from_groups(|at| {
            let four = &self.seen[first + at..first + at + LANES];
            Vec4::new(four[0][k], four[1][k], four[2][k], four[3][k])
        })
    }

    /// The sum whose x is entry `k`, of the `WIDE` boids from `first`.
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
    /// The speeds and pushes of this step.
    pub limits: Limits,
    /// Separation, alignment and cohesion weights.
    pub weights: [f32; 3],
    pub world: f32,
    pub wrap: bool,
    /// An open sky: boids are pulled toward home, the world's centre (`rules::home_pull`).
    pub sky: bool,
    /// Time step, seconds.
    pub h: f32,
}

/// Three components of eight boids.
#[derive(Clone, Copy)]
struct Lanes3 {
    x: Wide,
    y: Wide,
    z: Wide,
}

impl Lanes3 {
    fn load(columns: [&[f32]; 3], first: usize) -> Self {
        let [x, y, z] = columns.map(|column| Wide::load(column, first));
        Lanes3 { x, y, z }
    }

    fn length(self) -> Wide {
        (self.x * self.x + self.y * self.y + self.z * self.z).sqrt()
    }

    fn scale(self, by: Wide) -> Self {
        Lanes3 {
            x: self.x * by,
            y: self.y * by,
            z: self.z * by,
        }
    }

    fn dot(self, other: Self) -> Wide {
        self.x * other.x + self.y * other.y + self.z * other.z
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

    /// x, y, z of each of the four lanes of group `g` in turn.
    fn interleaved(self, g: usize) -> [f32; 3 * LANES] {
        let [x, y, z] = [self.x, self.y, self.z].map(|c| c.0[g].to_array());
        [
            x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2], x[3], y[3], z[3],
        ]
    }

    fn lane(self, k: usize) -> Vec3 {
        Vec3::new(self.x.lane(k), self.y.lane(k), self.z.lane(k))
    }
}

/// `rules::steer` in eight lanes; `wanted`: lanes whose boid saw anyone at all.
fn steer(direction: Lanes3, velocity: Lanes3, wanted: WideMask, glide: &Glide) -> Lanes3 {
    steer_sized(direction, direction.length(), velocity, wanted, glide)
}

/// `steer` for a direction whose `length` is known already (separation's, which its
/// urgency needs too: one square root per lane, not two).
fn steer_sized(
    direction: Lanes3,
    length: Wide,
    velocity: Lanes3,
    wanted: WideMask,
    glide: &Glide,
) -> Lanes3 {
    let asks = wanted & length.cmpgt(Wide::splat(1e-12)) & length.cmplt(Wide::INFINITY);
    let desired = direction.scale(Wide::keep(asks, Wide::splat(glide.limits.cruise) / length));
    let change = desired.sub(velocity);
    let size = change.length();
    let max = Wide::splat(glide.limits.max_force);
    let limit = Wide::select(size.cmpgt(max), max / size, Wide::ONE);
    change.scale(Wide::keep(asks, limit))
}

/// `rules::urgency` in eight lanes, from the separation sum's `length` (a lane that saw no
/// one has a zero sum: 1).
fn urgency(length: Wide, glide: &Glide) -> Wide {
    let u = length * Wide::splat(glide.limits.urgency_radius);
    let most = Wide::splat(rules::MAX_URGENCY);
    Wide::select(u.cmpgt(Wide::ONE), u.min(most), Wide::ONE)
}

/// `rules::mostly_turning` in eight lanes.
fn mostly_turning(pull: Lanes3, velocity: Lanes3) -> Lanes3 {
    let speed_squared = velocity.dot(velocity);
    let along = pull.dot(velocity) / speed_squared;
    let moving = speed_squared.cmpgt(Wide::splat(1e-12));
    let drop = Wide::keep(moving, Wide::splat(1.0 - rules::ALONG_SHARE) * along);
    pull.sub(velocity.scale(drop))
}

/// `rules::wall_push` along one axis, in eight lanes.
fn wall_push(p: Wide, glide: &Glide) -> Wide {
    let (margin, strength) = glide.limits.walls;
    let (margin_v, far) = (Wide::splat(margin), Wide::splat(glide.world - margin));
    let per_unit = Wide::splat(strength / margin);
    let low = Wide::keep(p.cmplt(margin_v), (margin_v - p) * per_unit);
    let high = Wide::keep(p.cmpgt(far), (p - far) * per_unit);
    low - high
}

/// `rules::home_pull` in eight lanes, for boids flying at `v` at `speed` (home: the
/// world's centre; the glide is never flat).
fn home_pull(p: Lanes3, v: Lanes3, speed: Wide, glide: &Glide) -> Lanes3 {
    let (free, per_unit) = glide.limits.home;
    let home = Wide::splat(0.5 * glide.world);
    let away = Lanes3 {
        x: p.x - home,
        y: p.y - home,
        z: p.z - home,
    };
    let distance = away.length();
    let beyond = distance.cmpgt(Wide::splat(free));
    let desired = away.scale(-speed / distance);
    let strength = Wide::splat(per_unit) * (distance - Wide::splat(free));
    mostly_turning(desired.sub(v).scale(Wide::keep(beyond, strength)), v)
}

/// `confine` along one axis for lanes inside or one world past an edge, and which lanes
/// that covered (the others need the general case).
fn confine_lanes(p: Wide, v: Wide, glide: &Glide) -> (Wide, Wide, WideMask) {
    let world = Wide::splat(glide.world);
    if glide.wrap {
        let p = Wide::select(p.cmplt(Wide::ZERO), p + world, p);
        let p = Wide::select(p.cmpge(world), p - world, p);
        let fine = p.cmpge(Wide::ZERO) & p.cmplt(world);
        (p, v, fine)
    } else {
        let below = p.cmplt(Wide::ZERO);
        let above = p.cmpgt(world);
        let speed = v.abs();
        let v = Wide::select(below, speed, Wide::select(above, -speed, v));
        let p = Wide::select(below, Wide::ZERO, Wide::select(above, world, p));
        // NaN compares false both ways: found by the general case.
        let fine = p.cmpge(Wide::ZERO) & p.cmple(world);
        (p, v, fine)
    }
}

/// `rules::strongest` in eight lanes: 0 none, 1 separation, 2 alignment, 3 cohesion.
fn strongest(separation: Lanes3, alignment: Lanes3, cohesion: Lanes3) -> Wide {
    let mut best = Wide::ZERO;
    let mut rule = Wide::ZERO;
    for (code, term) in [(1.0, separation), (2.0, alignment), (3.0, cohesion)] {
        let size = term.dot(term);
        let larger = size.cmpgt(best);
        best = Wide::select(larger, size, best);
        rule = Wide::select(larger, Wide::splat(code), rule);
    }
    rule
}

/// Writes the new position and velocity (xyz per boid) of the boids in `slots` of
/// `sorted` (all of them, or a worker's run), in slot order, from what each saw, and which
/// rule pushed it hardest (`strongest`, one per boid). Each lane moves on its own: a run
/// that starts mid-group moves its boids bit for bit as the whole would.
pub fn glide_all(
    sorted: &Sorted,
    seen: &Sightings,
    glide: &Glide,
    slots: Range<usize>,
    positions: &mut [f32],
    velocities: &mut [f32],
    strongest_rules: &mut [u8],
) {
    let boids = slots.end;
    let h = Wide::splat(glide.h);
    let [ws, wa, wc] = glide.weights.map(Wide::splat);
    for first in slots.step_by(WIDE) {
        let p = Lanes3::load([&sorted.x, &sorted.y, &sorted.z], first);
        let v = Lanes3::load([&sorted.vx, &sorted.vy, &sorted.vz], first);
        let wanted = seen.lanes(first, COUNT).cmpgt(Wide::ZERO);
        let push = seen.lanes3(first, SEPARATION);
        let push_length = push.length();
        let urgency = urgency(push_length, glide);
        let separation = steer_sized(push, push_length, v, wanted, glide);
        let alignment = steer(seen.lanes3(first, VELOCITY), v, wanted, glide);
        let cohesion = steer(seen.lanes3(first, OFFSET), v, wanted, glide);
        let [separation, alignment, cohesion] = [
            separation.scale(ws * urgency),
            alignment.scale(wa),
            cohesion.scale(wc / urgency),
        ];
        let rules = strongest(separation, alignment, cohesion);
        for k in 0..WIDE.min(boids - first) {
            strongest_rules[first + k] = rules.lane(k) as u8;
        }
        let pull = separation.add(alignment).add(cohesion);
        let mut acceleration = mostly_turning(pull, v);
        let speed = v.length();
        let ease = (Wide::splat(glide.limits.cruise) - speed) / speed * Wide::splat(SPEED_RESPONSE);
        acceleration = acceleration.add(v.scale(Wide::keep(speed.cmpgt(Wide::splat(1e-6)), ease)));
        if !glide.wrap {
            acceleration = acceleration.add(Lanes3 {
                x: wall_push(p.x, glide),
                y: wall_push(p.y, glide),
                z: wall_push(p.z, glide),
            });
        }
        if glide.sky {
            acceleration = acceleration.add(home_pull(p, v, speed, glide));
        }
        // `rules::limit_speed`.
        let moved = v.add(acceleration.scale(h));
        let speed = moved.length();
        let (min, top) = (
            Wide::splat(glide.limits.min_speed),
            Wide::splat(glide.limits.top_speed),
        );
        let factor = Wide::select(
            speed.cmpgt(top),
            top / speed,
            Wide::select(speed.cmplt(min), min / speed, Wide::ONE),
        );
        let stopped = !speed.cmplt(Wide::INFINITY) | speed.cmplt(Wide::splat(1e-6));
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
        if fine.all() && first + WIDE <= boids {
            // The common case: all of them as xyz triples, four at a time.
            for g in 0..GROUPS {
                let span = 3 * (first + g * LANES)..3 * (first + (g + 1) * LANES);
                positions[span.clone()].copy_from_slice(&position.interleaved(g));
                velocities[span].copy_from_slice(&velocity.interleaved(g));
            }
            continue;
        }
        for k in 0..WIDE.min(boids - first) {
            let i = first + k;
            let (p_k, v_k) = if fine.test(k) {
                (position.lane(k), velocity.lane(k))
            } else {
                // One at a time, as `Flock::integrate` does it.
                let old_v = v.lane(k);
                let new_v = rules::limit_speed(
                    old_v + glide.h * acceleration.lane(k),
                    glide.limits.min_speed,
                    glide.limits.top_speed,
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
