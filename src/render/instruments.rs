//! What the instruments show, as the `View` keeps it between frames: the selected boid,
//! whether the camera follows it, trails, the cells it scans, the colour mode, the boids' shape and the projector look. Plain Rust (tested natively);
//! the renderer reads it each frame.

use glam::Vec3;

use super::camera::OrbitCamera;
use super::colour::ColourBy;
use super::shapes::Shape;
use crate::sim::Flock;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Instruments {
    /// The id of the boid drawn up close (its spheres, links and forces), if any.
    pub selected: Option<u32>,
    /// Keep the selected boid at the centre of the view.
    pub follow: bool,
    /// Draw every boid's trail (the selected boid's is drawn anyway).
    pub trails: bool,
    /// Draw the grid's cells the selected boid's next step scans and the candidates in them
    /// (`Flock::scan_window`).
    pub cells: bool,
    pub colour_by: ColourBy,
    /// What each boid is drawn as: a cone, a bird, a fish or a chick (one draw whichever).
    pub shape: Shape,
    /// The projector look: bright, saturated cones that barely fade with distance, bolder
    /// edges and a larger inspector overlay, for a dark sky on a washed-out screen.
    pub contrast: bool,
}

impl Instruments {
    /// The selected boid's index in `flock.positions()` now, if it is still in the flock.
    pub fn selected_index(&self, flock: &Flock) -> Option<usize> {
        flock.index_of(self.selected?)
    }

    /// With `follow` on and a boid selected, turns `camera` to look at it (the point looked
    /// at is kept as a fraction of the world, as the camera keeps it); true if it did.
    pub fn aim(&self, flock: &Flock, index: Option<usize>, camera: &mut OrbitCamera) -> bool {
        let Some(i) = index.filter(|_| self.follow) else {
            return false;
        };
        let world = flock.world_size().max(1e-6);
        let p = Vec3::from_slice(&flock.positions()[3 * i..3 * i + 3]) / world;
        if p.is_finite() {
            camera.target = p.clamp(Vec3::ZERO, Vec3::ONE);
        }
        true
    }

    /// Points `camera` before a frame drawn `dt` seconds of flock time after the last: at
    /// the followed boid (`aim`), else under an open sky toward the flock's centre, gliding
    /// (`OrbitCamera::glide_toward`), so that the flock stays in the picture wherever it
    /// roams; in a box the camera stays where it was put.
    pub fn track(&self, flock: &Flock, index: Option<usize>, camera: &mut OrbitCamera, dt: f32) {
        if !self.aim(flock, index, camera) && flock.is_sky() && !flock.is_empty() {
            camera.glide_toward(flock.centre(), dt);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Param, Settings};

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
        // Following a boid wins over the sky's following of the flock.
        flock.set(Param::Sky, 1.0).unwrap();
        let index = instruments.selected_index(&flock);
        instruments.track(&flock, index, &mut camera, 1.0 / 60.0);
        let i = index.unwrap();
        let p = Vec3::from_slice(&flock.positions()[3 * i..3 * i + 3]);
        assert!((camera.target * flock.world_size() - p).length() < 1e-3);
        // A boid that left the flock selects nothing.
        instruments.selected = Some(u32::MAX);
        assert_eq!(instruments.selected_index(&flock), None);
    }

    #[test]
    fn under_an_open_sky_the_camera_follows_the_flock_and_in_a_box_stays_put() {
        let mut flock = Flock::with_settings(300, Some(3), Settings::walled());
        let instruments = Instruments::default();
        let mut camera = OrbitCamera::default();
        for _ in 0..60 {
            flock.step(1.0 / 60.0);
            instruments.track(&flock, None, &mut camera, 1.0 / 60.0);
        }
        assert_eq!(
            camera,
            OrbitCamera::default(),
            "a box: the camera is where it was put"
        );
        flock.set(Param::Sky, 1.0).unwrap();
        // Seconds of flight: the flock roams, and the point looked at keeps near its centre.
        let mut worst = 0.0f32;
        for step in 0..1200 {
            flock.step(1.0 / 60.0);
            instruments.track(&flock, None, &mut camera, 1.0 / 60.0);
            if step > 120 {
                let gap = (camera.target - flock.centre()).length() * flock.world_size();
                worst = worst.max(gap / flock.view_size());
            }
        }
        // Behind it by about its speed times the camera's lag, a sixth of a view: the
        // flock's centre stays in the middle half of the picture.
        assert!(worst < 0.25, "{worst} of a view behind the flock's centre");
        assert!(camera.target.is_finite());
    }
}
