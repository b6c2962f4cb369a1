//! Hawks: a few predators that circle the flock, then dive at the nearest boid.
//! They are not boids: a handful of positions and velocities of their own, moved once a step.

use crate::within::Within;
use glam::Vec3;

use super::arena::Arena;
use super::rules;

/// The most hawks (the top of the `predators` range).
pub const MAX_PREDATORS: usize = 5;
/// A hawk circles for this long...
const CIRCLE_SECONDS: f32 = 4.0;
/// ...then dives for this long, and circles again.
const DIVE_SECONDS: f32 = 3.0;
/// Hawks start this far apart in their cycle, so that they do not all dive at once.
const STAGGER_SECONDS: f32 = 2.3;
/// Circling, a hawk keeps this many flee radii from the boid it watches: just outside the
/// distance that frightens it.
const CIRCLE_RADII: f32 = 1.6;

/// What a hawk is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Circling,
    Diving,
}

/// The mode at `clock` seconds into a hawk's life.
pub fn mode(clock: f32) -> Mode {
    if clock.rem_euclid(CIRCLE_SECONDS + DIVE_SECONDS) < CIRCLE_SECONDS {
        Mode::Circling
    } else {
        Mode::Diving
    }
}

/// A clock at the start of a dive.
pub const DIVE_START: f32 = CIRCLE_SECONDS;

/// The clock hawk `index` starts with.
pub fn start_clock(index: usize) -> f32 {
    index as f32 * STAGGER_SECONDS
}

/// Where hawk `index` starts in `arena`, and its heading: high up near one edge, inside the
/// walls, spread along x.
pub fn start(index: usize, arena: Arena, flat: bool) -> (Vec3, Vec3) {
    let x = 0.15 + 0.175 * index as f32;
    let mut position = arena.at(Vec3::new(x, 0.85, 0.85));
    if flat {
        position.z = 0.0;
    }
    let angle = index as f32 * 1.3;
    let heading = Vec3::new(angle.cos(), -angle.sin().abs(), 0.0);
    (position, heading)
}

/// The direction a hawk flying at `velocity` wants to go, in `mode`, with the boid it
/// watches at `to_target` (= boid − hawk). Diving: straight at it. Circling: around it, in
/// the x-y plane, on a circle `CIRCLE_RADII` flee radii wide, the way it is already turning.
pub fn heading(mode: Mode, to_target: Vec3, velocity: Vec3, flee_radius: f32) -> Vec3 {
    if mode == Mode::Diving {
        return to_target;
    }
    let radius = CIRCLE_RADII * flee_radius;
    let outward = Vec3::new(-to_target.x, -to_target.y, 0.0);
    let distance = outward.length();
    let Some(out) = outward.try_normalize() else {
        return velocity;
    };
    let mut around = Vec3::Z.cross(out);
    if around.dot(velocity) < 0.0 {
        around = -around;
    }
    // Back toward the circle, and toward the height of the boid it watches.
    let toward_circle = -out * ((distance - radius) / radius).within(-1.0, 1.0);
    let toward_height = Vec3::Z * (to_target.z / radius).within(-1.0, 1.0);
    around + toward_circle + toward_height
}

/// A hawk's new velocity: it turns toward `wanted` no faster than `agility` allows (units/s²)
/// and always flies at `speed`.
pub fn fly(velocity: Vec3, wanted: Vec3, extra: Vec3, speed: f32, agility: f32, h: f32) -> Vec3 {
    let turn = rules::steer(wanted, velocity, speed, agility) + extra;
    let new = velocity + h * turn;
    new.try_normalize()
        .or_else(|| velocity.try_normalize())
        .unwrap_or(Vec3::X)
        * speed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hawks_alternate_circling_and_diving() {
        assert_eq!(mode(0.0), Mode::Circling);
        assert_eq!(mode(CIRCLE_SECONDS + 0.1), Mode::Diving);
        assert_eq!(mode(CIRCLE_SECONDS + DIVE_SECONDS + 0.1), Mode::Circling);
        assert_ne!(start_clock(0), start_clock(1));
    }

    #[test]
    fn diving_heads_at_the_target_and_circling_goes_around_it() {
        let to_target = Vec3::new(10.0, 0.0, 0.0);
        let v = Vec3::new(0.0, 15.0, 0.0);
        assert_eq!(heading(Mode::Diving, to_target, v, 10.0), to_target);
        // On the circle (16 away for flee radius 10), circling is sideways to the target.
        let on_circle = Vec3::new(16.0, 0.0, 0.0);
        let around = heading(Mode::Circling, on_circle, v, 10.0);
        assert!(
            around.normalize().dot(on_circle.normalize()).abs() < 1e-3,
            "{around:?}"
        );
        assert!(around.y > 0.0, "keeps turning the way it flies");
        // Too close: away as well as around; too far: closer as well as around.
        assert!(heading(Mode::Circling, to_target * 0.5, v, 10.0).x < 0.0);
        assert!(heading(Mode::Circling, to_target * 5.0, v, 10.0).x > 0.0);
    }

    #[test]
    fn a_hawk_keeps_its_speed_and_turns_at_a_bounded_rate() {
        let v = Vec3::new(18.0, 0.0, 0.0);
        let new = fly(v, Vec3::Y, Vec3::ZERO, 18.0, 30.0, 1.0 / 60.0);
        assert!((new.length() - 18.0).abs() < 1e-4);
        let turned = new.angle_between(v);
        assert!(turned > 0.0 && turned <= 30.0 / 60.0 / 18.0 + 1e-4);
        assert!(fly(Vec3::ZERO, Vec3::ZERO, Vec3::ZERO, 18.0, 30.0, 0.1).is_finite());
        for index in 0..MAX_PREDATORS {
            let (p, h) = start(index, Arena::world(40.0), true);
            assert!(p.z == 0.0 && h.z == 0.0 && p.x < 40.0 * 0.9);
        }
    }
}
