//! The edges of the world, shared by every stage that meets them: keeping a coordinate
//! inside the box (wrapped or against a wall) and the nearest image of an offset across
//! wrapped edges. A leaf module.

use glam::{Vec3, Vec4};

/// `d` (an offset `to − from`) to the nearest image across wrapped edges of a world `world`
/// wide: each axis more than half a world away comes back by one world.
#[inline]
pub fn nearest_image(d: Vec3, world: f32, wrap: bool) -> Vec3 {
    if !wrap {
        return d;
    }
    let half = Vec3::splat(0.5 * world);
    let world = Vec3::splat(world);
    let d = Vec3::select(d.cmpgt(half), d - world, d);
    Vec3::select(d.cmplt(-half), d + world, d)
}

/// `nearest_image` of four lanes' offsets along one axis (`half` is half of `world`).
#[inline(always)]
pub fn nearest_image_lanes(d: Vec4, world: Vec4, half: Vec4) -> Vec4 {
    let d = Vec4::select(d.cmpgt(half), d - world, d);
    Vec4::select(d.cmplt(-half), d + world, d)
}

/// Keeps one coordinate inside [0, world]: wrapped around, or stopped at the wall with the
/// velocity turned back inward.
pub fn confine(position: f32, velocity: f32, world: f32, wrap: bool) -> (f32, f32) {
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
