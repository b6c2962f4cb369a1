//! The limits of one step: the speeds and pushes that steering, gliding, the behaviours and
//! the hawks all derive from the settings, derived once per substep ([`Limits::new`]) so
//! that no stage works them out again (and no two stages can disagree).
//!
//! A leaf module: it knows the settings and nothing else of the step.

use crate::within::Within;

use super::settings::{Settings, SKY_SCALE};

/// Boids fly no slower than this fraction of the cruise speed...
pub const MIN_SPEED_FACTOR: f32 = 0.5;
/// ...and no faster than this one.
pub const MAX_SPEED_FACTOR: f32 = 1.4;
/// Fleeing boids steer this many times harder than a rule may...
pub const FLEE_FORCE_FACTOR: f32 = 4.0;
/// ...and their speed limit is this many times the usual one: they panic.
pub const PANIC_SPEED_FACTOR: f32 = 2.0;
/// The pointer counts this many times as much as a rule of the same weight: it must win
/// over cohesion to break a dense flock apart.
pub const POINTER_FORCE_FACTOR: f32 = 2.0;
/// How far a boid keeps its centre from an obstacle's surface: it steers around a sphere
/// this much larger than the one drawn.
pub const OBSTACLE_CLEARANCE: f32 = 1.0;
/// A boid looks this many seconds of flight ahead for obstacles.
pub const LOOK_AHEAD_SECONDS: f32 = 1.0;
/// How fast (1/s) a boid eases back toward cruise speed. At 1/s (with the rules' full pull
/// along the heading) 86 % of a settled default flock flew at the minimum speed; at 4/s,
/// with the rules mostly turning (`rules::ALONG_SHARE`), 95 % fly within 20 % of cruise.
pub const SPEED_RESPONSE: f32 = 4.0;

/// Which behaviours beyond the three rules take part in this step (they add to what the
/// walls and obstacles must overcome).
#[derive(Clone, Copy, Debug, Default)]
pub struct Present {
    pub hawks: bool,
    pub leaders: bool,
    pub pointer: bool,
}

/// The limits of one substep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// The speed boids ease back toward.
    pub cruise: f32,
    /// No boid flies slower...
    pub min_speed: f32,
    /// ...or faster, unless fleeing a hawk...
    pub top_speed: f32,
    /// ...when this is its limit.
    pub panic_speed: f32,
    /// The fastest any boid may fly this step: `panic_speed` while hawks hunt, else
    /// `top_speed`. What the walls and obstacles must be able to turn.
    pub fastest: f32,
    /// The most one rule may steer.
    pub max_force: f32,
    /// The most all the steering behaviours together can push.
    pub rules_total: f32,
    /// The soft walls' width and their push at the wall (used only inside walls).
    pub walls: (f32, f32),
    /// An open sky's pull toward home (`rules::home_pull`): how far from home it starts and
    /// how much it grows with every unit beyond (1/s per unit); zeros elsewhere.
    pub home: (f32, f32),
    /// An obstacle's push at its surface.
    pub obstacle_strength: f32,
    /// The separation radius that separation's urgency is measured against; 0 (no
    /// urgency, cohesion never yields) when separation is off: then nothing keeps boids
    /// apart.
    pub urgency_radius: f32,
}

impl Limits {
    pub fn new(s: &Settings, world: f32, present: Present) -> Self {
        let top_speed = MAX_SPEED_FACTOR * s.speed;
        let panic_speed = PANIC_SPEED_FACTOR * top_speed;
        let fastest = if present.hawks {
            panic_speed
        } else {
            top_speed
        };
        let mut rules_total = (s.separation + s.alignment + s.cohesion) * s.max_force;
        if present.hawks {
            rules_total += FLEE_FORCE_FACTOR * s.max_force;
        }
        if present.leaders {
            rules_total += s.leader_weight * s.max_force;
        }
        if present.pointer {
            rules_total += POINTER_FORCE_FACTOR * s.pointer_strength * s.max_force;
        }
        let rules_total = rules_total + s.wind_strength;
        let margin = wall_margin(world);
        let look_ahead = LOOK_AHEAD_SECONDS * fastest + OBSTACLE_CLEARANCE;
        Limits {
            cruise: s.speed,
            min_speed: MIN_SPEED_FACTOR * s.speed,
            top_speed,
            panic_speed,
            fastest,
            max_force: s.max_force,
            rules_total,
            walls: (margin, turn_back_push(fastest, margin, rules_total)),
            obstacle_strength: turn_back_push(fastest, look_ahead, rules_total),
            home: if s.sky {
                home_reach(s.speed, world / SKY_SCALE, s.home_range)
            } else {
                (0.0, 0.0)
            },
            urgency_radius: if s.separation > 0.0 {
                s.separation_radius
            } else {
                0.0
            },
        }
    }

    /// The speed limit of a boid that is fleeing a hawk, or not.
    pub fn speed_limit(&self, fleeing: bool) -> f32 {
        if fleeing {
            self.panic_speed
        } else {
            self.top_speed
        }
    }
}

/// The open sky's pull home (`Limits::home`) for a `view` wide at `cruise` speed: a boid
/// flies free within `range` views of home, and beyond it seeks home (`rules::home_pull`)
/// harder with every unit, so that as far again beyond the free zone (x = range · view) a
/// boid flying across the line home turns in a circle that size (v² / x = k · x · √2 v:
/// k = v / (√2 x²) per unit). The home range sets both how far the flock roams and how
/// firmly it is held: a small one holds a bait ball in place, a large one lets ribbons
/// wander; at a quarter view, k ≈ 11 v / view². Whatever the count (the view grows with it)
/// or the speed, the same shape.
pub fn home_reach(cruise: f32, view: f32, range: f32) -> (f32, f32) {
    let free = (range * view).max(1e-3);
    (free, cruise / (std::f32::consts::SQRT_2 * free * free))
}

/// Width of the soft wall in a world of side `world`: a tenth of it, 1 to 10 units.
pub fn wall_margin(world: f32) -> f32 {
    (0.1 * world).within(1.0, 10.0)
}

/// A push that grows linearly to this at a wall (or an obstacle's surface) `distance` ahead
/// turns a body at `speed` back before it gets there, whatever `others` (the most everything
/// else can push) want: with nothing else pushing it stops at √½ ≈ 0.71 of the distance
/// (½v² = P·x²/2d), with the most the others can push, nearer the wall but short of it.
/// The walls', the obstacles' and the hawks' one formula.
pub fn turn_back_push(speed: f32, distance: f32, others: f32) -> f32 {
    2.0 * speed * speed / distance + 2.0 * others
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hawks_raise_the_fastest_speed_and_what_walls_must_overcome() {
        let s = Settings::walled();
        let calm = Limits::new(&s, 100.0, Present::default());
        let hunted = Limits::new(
            &s,
            100.0,
            Present {
                hawks: true,
                ..Present::default()
            },
        );
        assert_eq!(calm.fastest, calm.top_speed);
        assert_eq!(hunted.fastest, hunted.panic_speed);
        assert_eq!(calm.panic_speed, PANIC_SPEED_FACTOR * calm.top_speed);
        assert!(hunted.rules_total > calm.rules_total);
        assert!(hunted.walls.1 > calm.walls.1);
        assert!(hunted.obstacle_strength > calm.obstacle_strength);
        assert_eq!(calm.walls.0, 10.0);
        assert_eq!(wall_margin(5.0), 1.0);
        assert!(calm.walls.1 > 2.0 * calm.rules_total);
        assert_eq!(calm.speed_limit(true), calm.panic_speed);
        assert_eq!(calm.speed_limit(false), calm.top_speed);
    }

    /// How deep a body entering a push that grows linearly to `push` over `distance`, at
    /// `speed`, with `others` pulling it on, gets before it turns (small steps of time).
    fn deepest(speed: f32, distance: f32, others: f32, push: f32) -> f32 {
        let (mut x, mut v, dt) = (0.0f64, f64::from(speed), 1e-5);
        let (d, o, p) = (f64::from(distance), f64::from(others), f64::from(push));
        while v > 0.0 {
            v -= (p * x / d - o) * dt;
            x += v * dt;
            if x > 2.0 * d {
                break;
            }
        }
        x as f32
    }

    #[test]
    fn the_turn_back_push_turns_a_body_before_the_wall() {
        for (speed, distance, others) in [(10.0, 10.0, 0.0), (28.0, 4.0, 0.0), (14.0, 10.0, 30.0)] {
            let depth = deepest(
                speed,
                distance,
                others,
                turn_back_push(speed, distance, others),
            );
            assert!(depth < distance, "{speed} {distance} {others}: {depth}");
            if others == 0.0 {
                assert!((depth / distance - 0.5f32.sqrt()).abs() < 1e-3, "{depth}");
            }
            // Half the push would not do: the formula is what holds the wall.
            let weak = deepest(
                speed,
                distance,
                others,
                0.5 * turn_back_push(speed, distance, others),
            );
            assert!(
                weak > 0.99 * distance,
                "{speed} {distance} {others}: half the push stops at {weak}"
            );
        }
        // The walls of a flock are that push for its fastest boid.
        let calm = Limits::new(&Settings::walled(), 100.0, Present::default());
        let (margin, strength) = calm.walls;
        assert!(deepest(calm.fastest, margin, calm.rules_total, strength) < margin);
    }

    #[test]
    fn without_separation_nothing_is_urgent() {
        let s = Settings {
            separation: 0.0,
            ..Settings::walled()
        };
        assert_eq!(
            Limits::new(&s, 50.0, Present::default()).urgency_radius,
            0.0
        );
        let s = Settings::walled();
        let limits = Limits::new(&s, 50.0, Present::default());
        assert_eq!(limits.urgency_radius, s.separation_radius);
    }
}
