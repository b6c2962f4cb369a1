//! The classic bugs, safely (issue 42, item 6): the flat, all-pairs boids step that tutorials
//! teach, written as its pseudocode reads, in a sandbox of its own (never the student's main
//! flock), with one switch per mistake everybody makes:
//!
//! | bug | the mistake | what it does |
//! |---|---|---|
//! | `self` | a boid counts itself as a neighbour | its separation divides 0 by 0: NaN, and it vanishes |
//! | `speed` | no speed limit | nothing holds the speed to cruise: here alignment averages the random start headings away and the flock stalls, jittering in place |
//! | `reversed` | separation points the wrong way | boids pull each other in: the flock collapses to points |
//! | `order` | the forces are zeroed before the update | nothing steers: order never forms |
//! | `radius` | a huge perception radius on the all-pairs search | everyone heeds everyone: the work climbs |
//!
//! Each step, per boid: find neighbours (every other boid within the perception radius),
//! separation (away from those within the separation radius, by 1/distance), alignment (toward
//! their mean velocity), cohesion (toward their centre), sum with weights, update velocity
//! (and hold the speed between ¾ and twice cruise), update position, wrap. The forces are
//! the texts' raw sums, not clamped: the speed limit is the one guard, as in their pseudocode. A boid whose numbers turn
//! non-finite is *lost*: it stays where it last was finite, is never stepped or heeded again,
//! and is counted; no NaN ever leaves the sandbox. Turning a bug off restores the correct
//! step and brings the lost back, where they were, at cruise speed.

use glam::Vec2;

use super::rng::Rng;

/// The mistakes, in the order the texts list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bug {
    SelfNeighbour,
    NoSpeedLimit,
    SeparationReversed,
    ForcesZeroedFirst,
    HugeRadius,
}

impl Bug {
    pub const ALL: [Bug; 5] = [
        Bug::SelfNeighbour,
        Bug::NoSpeedLimit,
        Bug::SeparationReversed,
        Bug::ForcesZeroedFirst,
        Bug::HugeRadius,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Bug::SelfNeighbour => "self",
            Bug::NoSpeedLimit => "speed",
            Bug::SeparationReversed => "reversed",
            Bug::ForcesZeroedFirst => "order",
            Bug::HugeRadius => "radius",
        }
    }

    pub fn from_name(name: &str) -> Option<Bug> {
        Bug::ALL.into_iter().find(|bug| bug.name() == name)
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The sandbox's model: a square world that wraps, `WORLD` units a side.
pub const WORLD: f32 = 100.0;
/// Cruise speed (units a second): boids start at it; the limit holds them to ¾–2 times it.
pub const CRUISE: f32 = 10.0;
const MAX_SPEED: f32 = 2.0 * CRUISE;
const MIN_SPEED: f32 = 0.75 * CRUISE;
pub const PERCEPTION: f32 = 10.0;
pub const SEPARATION_RADIUS: f32 = 4.0;
/// The bug's perception radius: the whole world (every boid is within it, wrapped).
const HUGE_PERCEPTION: f32 = WORLD;
/// Weights of separation (per unit of 1/distance, scaled by the separation radius),
/// alignment (per unit of velocity difference, a second) and cohesion (per unit of
/// distance, a second²): 200 boids (six in a perception circle, at the start) order to a
/// polarization of 0.77 within 10 s.
const W_SEPARATION: f32 = 30.0;
const W_ALIGNMENT: f32 = 2.0;
const W_COHESION: f32 = 1.0;
/// The step's length: a frame's.
pub const DT: f32 = 1.0 / 60.0;
/// Most boids: every pair is checked, 4 million checks a step at 2,000.
pub const MAX_COUNT: usize = 2000;
pub const MIN_COUNT: usize = 2;

/// What the sandbox shows of its flock, measured after the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Symptoms {
    /// Boids lost to NaN.
    pub lost: usize,
    /// Mean speed of the boids still flying ÷ cruise speed.
    pub speed: f32,
    /// Median distance to the nearest other boid ÷ the separation radius.
    pub nearest: f32,
    /// |Σ v̂| / N of the boids still flying: 0 disordered, 1 all one way.
    pub polarization: f32,
    /// Distance checks in the last step.
    pub checks: u64,
    /// Neighbours heeded in the last step, summed over boids.
    pub neighbours: u64,
}

#[derive(Clone, Debug)]
pub struct Sandbox {
    positions: Vec<Vec2>,
    velocities: Vec<Vec2>,
    lost: Vec<bool>,
    bugs: u8,
    checks: u64,
    neighbours: u64,
    rng: Rng,
}

/// `d` moved into (−WORLD/2, WORLD/2]: the shortest way across the wrapped edges.
fn nearest_image(d: Vec2) -> Vec2 {
    // floor(x + ½), not round(): the same here, and a native wasm instruction.
    d - (d / WORLD + 0.5).floor() * WORLD
}

impl Sandbox {
    /// `count` boids (clamped to MIN_COUNT..=MAX_COUNT) scattered by `seed` at cruise speed.
    pub fn new(count: usize, seed: u32) -> Sandbox {
        let count = count.clamp(MIN_COUNT, MAX_COUNT);
        let mut rng = Rng::new(seed);
        let mut positions = Vec::with_capacity(count);
        let mut velocities = Vec::with_capacity(count);
        for _ in 0..count {
            positions.push(Vec2::new(rng.unit(), rng.unit()) * WORLD);
            let angle = rng.unit() * std::f32::consts::TAU;
            velocities.push(Vec2::from_angle(angle) * CRUISE);
        }
        Sandbox {
            positions,
            velocities,
            lost: vec![false; count],
            bugs: 0,
            checks: 0,
            neighbours: 0,
            rng,
        }
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    pub fn bug(&self, bug: Bug) -> bool {
        self.bugs & bug.bit() != 0
    }

    /// Turns `bug` on or off. Off, the lost come back where they were, in a random heading.
    pub fn set_bug(&mut self, bug: Bug, on: bool) {
        if on {
            self.bugs |= bug.bit();
            return;
        }
        self.bugs &= !bug.bit();
        for i in 0..self.len() {
            if self.lost[i] {
                self.lost[i] = false;
                let angle = self.rng.unit() * std::f32::consts::TAU;
                self.velocities[i] = Vec2::from_angle(angle) * CRUISE;
            }
        }
    }

    /// Positions, x y per boid: always finite (a lost boid's is where it was last).
    pub fn positions(&self) -> impl Iterator<Item = [f32; 2]> + '_ {
        self.positions.iter().map(|p| p.to_array())
    }

    /// Velocities, x y per boid: always finite (a lost boid's is zero).
    pub fn velocities(&self) -> impl Iterator<Item = [f32; 2]> + '_ {
        self.velocities.iter().map(|v| v.to_array())
    }

    /// Which boids are lost to NaN.
    pub fn lost(&self) -> &[bool] {
        &self.lost
    }

    /// Advances by `dt` seconds (at most a quarter of one) in steps of `DT`; a non-finite or
    /// non-positive `dt` does nothing.
    pub fn step(&mut self, dt: f32) {
        if !dt.is_finite() || dt <= 0.0 {
            return;
        }
        let steps = (dt.min(0.25) / DT + 0.5).floor().max(1.0) as usize;
        for _ in 0..steps {
            self.step_once();
        }
    }

    /// One step of the textbook's pseudocode.
    fn step_once(&mut self) {
        let n = self.len();
        let perception = if self.bug(Bug::HugeRadius) {
            HUGE_PERCEPTION
        } else {
            PERCEPTION
        };
        let mut forces = vec![Vec2::ZERO; n];
        self.checks = 0;
        self.neighbours = 0;
        for (i, force) in forces.iter_mut().enumerate() {
            if self.lost[i] {
                continue;
            }
            let (p, v) = (self.positions[i], self.velocities[i]);
            // Find neighbours: every other boid within the perception radius.
            let (mut count, mut away, mut heading, mut centre) =
                (0u32, Vec2::ZERO, Vec2::ZERO, Vec2::ZERO);
            for j in 0..n {
                let its_self = j == i;
                if self.lost[j] || (its_self && !self.bug(Bug::SelfNeighbour)) {
                    continue;
                }
                self.checks += 1;
                let offset = nearest_image(self.positions[j] - p);
                let distance = offset.length();
                if distance > perception {
                    continue;
                }
                count += 1;
                heading += self.velocities[j];
                centre += offset;
                // Separation: away from the close, by 1/distance. Itself at distance 0 gives
                // 0/0 = NaN (the bug); two boids at one point are skipped (not a bug: the
                // correct step never divides by zero).
                if distance < SEPARATION_RADIUS && (its_self || distance > 0.0) {
                    let push = -offset / (distance * distance) * SEPARATION_RADIUS;
                    away += if self.bug(Bug::SeparationReversed) {
                        -push
                    } else {
                        push
                    };
                }
            }
            self.neighbours += u64::from(count);
            if count == 0 {
                continue;
            }
            let count = count as f32;
            let alignment = heading / count - v;
            let cohesion = centre / count;
            *force = W_SEPARATION * away + W_ALIGNMENT * alignment + W_COHESION * cohesion;
        }
        if self.bug(Bug::ForcesZeroedFirst) {
            // The reset meant for after the update, placed before it.
            forces.iter_mut().for_each(|f| *f = Vec2::ZERO);
        }
        for (i, force) in forces.into_iter().enumerate() {
            if self.lost[i] {
                continue;
            }
            let mut v = self.velocities[i] + force * DT;
            if !self.bug(Bug::NoSpeedLimit) {
                let speed = v.length();
                if speed > MAX_SPEED {
                    v *= MAX_SPEED / speed;
                } else if speed < MIN_SPEED && speed > 0.0 {
                    v *= MIN_SPEED / speed;
                }
            }
            let p = self.positions[i] + v * DT;
            if !(p.is_finite() && v.is_finite()) {
                // Lost: kept where it was last finite, never stepped or heeded again.
                self.lost[i] = true;
                self.velocities[i] = Vec2::ZERO;
                continue;
            }
            self.velocities[i] = v;
            self.positions[i] = p - (p / WORLD).floor() * WORLD;
        }
    }

    /// The symptoms, measured now.
    pub fn symptoms(&self) -> Symptoms {
        let flying: Vec<usize> = (0..self.len()).filter(|&i| !self.lost[i]).collect();
        let lost = self.len() - flying.len();
        let mut out = Symptoms {
            lost,
            checks: self.checks,
            neighbours: self.neighbours,
            ..Symptoms::default()
        };
        if flying.is_empty() {
            return out;
        }
        let count = flying.len() as f32;
        out.speed = flying
            .iter()
            .map(|&i| self.velocities[i].length())
            .sum::<f32>()
            / count
            / CRUISE;
        let heading: Vec2 = flying
            .iter()
            .map(|&i| self.velocities[i].normalize_or_zero())
            .sum();
        out.polarization = heading.length() / count;
        let mut nearest: Vec<f32> = flying
            .iter()
            .map(|&i| {
                flying
                    .iter()
                    .filter(|&&j| j != i)
                    .map(|&j| nearest_image(self.positions[j] - self.positions[i]).length())
                    .fold(f32::INFINITY, f32::min)
            })
            .filter(|d| d.is_finite())
            .collect();
        if !nearest.is_empty() {
            nearest.sort_unstable_by(f32::total_cmp);
            out.nearest = nearest[nearest.len() / 2] / SEPARATION_RADIUS;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for bug in Bug::ALL {
            assert_eq!(Bug::from_name(bug.name()), Some(bug));
        }
        assert_eq!(Bug::from_name("nan"), None);
    }

    #[test]
    fn the_nearest_image_crosses_the_edges() {
        assert_eq!(
            nearest_image(Vec2::new(90.0, -90.0)),
            Vec2::new(-10.0, 10.0)
        );
        assert_eq!(nearest_image(Vec2::new(3.0, 49.0)), Vec2::new(3.0, 49.0));
    }
}
