//! The arena: the cube where hawks start and the leaders' loop runs. In a box it is the
//! world; under an open sky, the view around home (the sky is three views wide, and a loop or
//! a hawk spread over all of it would fly far out of the picture and away from the flock).

use glam::Vec3;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arena {
    /// The corner of the cube with the smallest coordinates.
    pub corner: Vec3,
    pub side: f32,
}

impl Arena {
    /// The whole world of side `world`, from the origin.
    pub fn world(world: f32) -> Self {
        Arena {
            corner: Vec3::ZERO,
            side: world,
        }
    }

    /// The point at `fraction` (0..1 on each axis) of the arena.
    pub fn at(&self, fraction: Vec3) -> Vec3 {
        self.corner + fraction * self.side
    }
}
