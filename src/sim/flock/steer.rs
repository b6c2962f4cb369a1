//! Stage 3 and 4 of a step: steer — the rules' and behaviours' terms and their sum — and
//! move (integrate one boid, or set up `glide` to move them `WIDE` at a time).

use glam::Vec3;

use crate::sim::behaviours::{Forces, Pulls};
use crate::sim::edges::confine;
use crate::sim::glide::Glide;
use crate::sim::limits::{Limits, Present, PANIC_SPEED_FACTOR, SPEED_RESPONSE};
use crate::sim::rules::{self, Neighbourhood};
use crate::sim::swarm::{Role, FAILED};

use super::Flock;

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
    /// The edges: the soft walls' push (zero in a wrapped world), and under an open sky
    /// the pull home.
    pub walls: Vec3,
    /// Wind, hawks, obstacles, leader and pointer.
    pub behaviours: Pulls,
    /// What the step adds to the velocity per second: the sum of the above (in a flat
    /// world, without z).
    pub total: Vec3,
    /// Fleeing a hawk (then it may fly faster).
    pub fleeing: bool,
}

impl Flock {
    /// The speeds and pushes of the next substep, derived once for every stage.
    pub(super) fn limits(&self) -> Limits {
        let present = Present {
            hawks: self.behaviours.hawks() > 0,
            leaders: self.behaviours.leaders() > 0,
            pointer: self.behaviours.pointer.is_some(),
        };
        Limits::new(&self.settings, self.world, present)
    }

    /// What the behaviours beyond the three rules need for one step.
    pub(super) fn forces(&self) -> Forces {
        let s = &self.settings;
        Forces {
            active: s.flat || s.wind_strength > 0.0 || self.behaviours.any(),
            flat: s.flat,
            wrap: s.wrap,
            world: self.world,
            limits: self.limits(),
            wind: if s.flat {
                rules::wind(s.wind_strength, s.wind_heading, 0.0)
            } else {
                rules::wind(s.wind_strength, s.wind_heading, s.wind_elevation)
            },
            flee_radius: s.flee_radius,
            leader_weight: s.leader_weight,
            pointer_strength: s.pointer_strength,
        }
    }

    /// Acceleration of a boid at `p` flying at `v` from what it sees, the walls, its wish
    /// to cruise and the other behaviours; and whether it is fleeing a hawk.
    pub(super) fn acceleration(
        &self,
        p: Vec3,
        v: Vec3,
        seen: &Neighbourhood,
        forces: &Forces,
    ) -> (Vec3, bool) {
        let terms = self.terms(p, v, seen, forces, Role::ORDINARY);
        (terms.total, terms.fleeing)
    }

    /// [`Flock::acceleration`] term by term: the step's own arithmetic, which the
    /// inspector shows.
    pub(super) fn terms(
        &self,
        p: Vec3,
        v: Vec3,
        seen: &Neighbourhood,
        forces: &Forces,
        role: Role,
    ) -> Terms {
        let s = &self.settings;
        let (behaviours, fleeing) = if forces.active {
            self.behaviours.pulls(forces, p, v)
        } else {
            (Pulls::default(), false)
        };
        let limits = &forces.limits;
        // A panicking boid wants to fly faster, and so does everything it steers for.
        let cruise = if fleeing {
            PANIC_SPEED_FACTOR * limits.cruise
        } else {
            limits.cruise
        } * role.speed;
        let steering = rules::steering(seen, v, cruise, limits.max_force, limits.urgency_radius);
        let [w_separation, w_alignment, w_cohesion] = role.weights;
        let [separation, alignment, cohesion] = [
            s.separation * w_separation * steering.separation,
            s.alignment * w_alignment * steering.alignment,
            s.cohesion * w_cohesion * steering.cohesion,
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
            let (margin, strength) = limits.walls;
            walls = rules::wall_push(p, self.world, margin, strength);
        }
        if s.sky {
            let (free, per_unit) = limits.home;
            walls += rules::home_pull(p, v, self.home(), free, per_unit);
        }
        acceleration += walls;
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

    /// What `glide_all` needs to move boids on which only the rules and the edges act.
    pub(super) fn glide(&self, h: f32, forces: &Forces) -> Glide {
        let s = &self.settings;
        Glide {
            limits: forces.limits,
            weights: [s.separation, s.alignment, s.cohesion],
            world: forces.world,
            wrap: forces.wrap,
            sky: s.sky,
            h,
        }
    }

    /// The new position and velocity of sorted boid `i` (old state read from `sorted`), and
    /// the rule that pushed it hardest (`rules::strongest`).
    pub(super) fn integrate(
        &self,
        i: usize,
        seen: &Neighbourhood,
        h: f32,
        forces: &Forces,
    ) -> ([f32; 3], [f32; 3], u8) {
        let s = &self.settings;
        let bits = self.traits_of_slot(i);
        if bits & FAILED != 0 {
            let (position, velocity) = self.drift(i, h);
            return (position, velocity, 0);
        }
        let p = self.sorted.position(i);
        let v = self.sorted.velocity(i);
        let terms = self.terms(p, v, seen, forces, Flock::role(bits));
        let (acceleration, fleeing) = (terms.total, terms.fleeing);
        let rule = rules::strongest(terms.separation, terms.alignment, terms.cohesion);
        let limits = &forces.limits;
        let top = limits.speed_limit(fleeing);
        let new_v = rules::limit_speed(v + h * acceleration, limits.min_speed, top, v);
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
