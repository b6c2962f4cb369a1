//! What the instruments show, as the `View` keeps it between frames: the selected boid,
//! whether the camera follows it, trails and the colour mode. Plain Rust (tested natively);
//! the renderer reads it each frame.

use glam::Vec3;

use super::camera::OrbitCamera;
use super::colour::ColourBy;
use crate::sim::Flock;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Instruments {
    /// The id of the boid drawn up close (its spheres, links and forces), if any.
    pub selected: Option<u32>,
    /// Keep the selected boid at the centre of the view.
    pub follow: bool,
    /// Draw every boid's trail (the selected boid's is drawn anyway).
    pub trails: bool,
    pub colour_by: ColourBy,
}

impl Instruments {
    /// The selected boid's index in `flock.positions()` now, if it is still in the flock.
    pub fn selected_index(&self, flock: &Flock) -> Option<usize> {
        flock.index_of(self.selected?)
    }

    /// With `follow` on and a boid selected, turns `camera` to look at it (the point looked
    /// at is kept as a fraction of the world, as the camera keeps it).
    pub fn aim(&self, flock: &Flock, index: Option<usize>, camera: &mut OrbitCamera) {
        let Some(i) = index.filter(|_| self.follow) else {
            return;
        };
        let world = flock.world_size().max(1e-6);
        let p = Vec3::from_slice(&flock.positions()[3 * i..3 * i + 3]) / world;
        if p.is_finite() {
            camera.target = p.clamp(Vec3::ZERO, Vec3::ONE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follow_looks_at_the_selected_boid_and_only_when_asked() {
        let mut flock = Flock::new(100, Some(1));
        let id = flock.ids()[10];
        let mut instruments = Instruments {
            selected: Some(id),
            ..Instruments::default()
        };
        let mut camera = OrbitCamera::default();
        let index = instruments.selected_index(&flock);
        instruments.aim(&flock, index, &mut camera);
        assert_eq!(camera, OrbitCamera::default(), "follow is off");
        instruments.follow = true;
        for _ in 0..30 {
            flock.step(1.0 / 60.0);
            let index = instruments.selected_index(&flock);
            assert_eq!(flock.ids()[index.unwrap()], id);
            instruments.aim(&flock, index, &mut camera);
            let i = index.unwrap();
            let p = Vec3::from_slice(&flock.positions()[3 * i..3 * i + 3]);
            assert!((camera.target * flock.world_size() - p).length() < 1e-3);
        }
        // A boid that left the flock selects nothing.
        instruments.selected = Some(u32::MAX);
        assert_eq!(instruments.selected_index(&flock), None);
    }
}
