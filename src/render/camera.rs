//! Orbit camera around the centre of the world cube, in glam.
//!
//! The distance is stored relative to the distance that frames the whole cube, so the
//! camera follows changes of world size (and of aspect ratio) without any bookkeeping.

use crate::within::Within;
use glam::camera::rh::{proj::opengl, view};
use glam::{Mat4, Vec3};

/// Vertical field of view, radians.
const FOV_Y: f32 = 45.0 * std::f32::consts::PI / 180.0;
const DEFAULT_YAW: f32 = 0.65;
const DEFAULT_PITCH: f32 = 0.32;
/// Radians per CSS pixel of drag.
const ORBIT_SPEED: f32 = 0.006;
/// Keep clear of the poles, where "up" is undefined.
const MAX_PITCH: f32 = 1.45;
const MIN_ZOOM: f32 = 0.25;
const MAX_ZOOM: f32 = 8.0;
/// 1: the cube's bounding sphere just fits the narrower side of the view.
const DEFAULT_ZOOM: f32 = 1.0;

/// Where the camera is, in angles around the world's centre and a zoom factor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    /// Rotation around the vertical axis, radians.
    pub yaw: f32,
    /// Elevation above the horizontal plane, radians.
    pub pitch: f32,
    /// 1 frames the world's bounding sphere; 2 is twice as close.
    pub zoom: f32,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        OrbitCamera {
            yaw: DEFAULT_YAW,
            pitch: DEFAULT_PITCH,
            zoom: DEFAULT_ZOOM,
        }
    }
}

/// Everything a frame needs from the camera.
#[derive(Clone, Copy, Debug)]
pub struct CameraFrame {
    pub view_proj: Mat4,
    pub eye: Vec3,
    /// Distance from the eye to the world's centre.
    pub distance: f32,
    /// Radius of the world's bounding sphere.
    pub radius: f32,
}

impl OrbitCamera {
    /// Rotates by a drag of `dx`, `dy` CSS pixels.
    pub fn orbit(&mut self, dx: f32, dy: f32) {
        if !(dx.is_finite() && dy.is_finite()) {
            return;
        }
        self.yaw = (self.yaw - dx * ORBIT_SPEED).rem_euclid(std::f32::consts::TAU);
        self.pitch = (self.pitch + dy * ORBIT_SPEED).within(-MAX_PITCH, MAX_PITCH);
    }

    /// Moves closer (`factor` > 1) or farther (`factor` < 1).
    pub fn zoom_by(&mut self, factor: f32) {
        if factor.is_finite() && factor > 0.0 {
            self.zoom = (self.zoom * factor).within(MIN_ZOOM, MAX_ZOOM);
        }
    }

    /// Takes a camera back from `[yaw, pitch, zoom]` (see `to_array`); ignores junk.
    pub fn set_from(&mut self, values: &[f32]) {
        if let [yaw, pitch, zoom] = *values {
            if yaw.is_finite() && pitch.is_finite() && zoom.is_finite() && zoom > 0.0 {
                self.yaw = yaw.rem_euclid(std::f32::consts::TAU);
                self.pitch = pitch.within(-MAX_PITCH, MAX_PITCH);
                self.zoom = zoom.within(MIN_ZOOM, MAX_ZOOM);
            }
        }
    }

    pub fn to_array(self) -> [f32; 3] {
        [self.yaw, self.pitch, self.zoom]
    }

    /// Matrices for a flat world (the square of side `world` on GL's floor, y = 0) seen
    /// from straight above; only the zoom applies.
    pub fn frame_from_above(&self, world: f32, aspect: f32) -> CameraFrame {
        let world = world.max(1e-3);
        let aspect = usable_aspect(aspect);
        let target = Vec3::new(0.5 * world, 0.0, 0.5 * world);
        // The square's half side, not its circumcircle, has to fit.
        let fit = 0.55 * world / narrow_half_angle(aspect).tan();
        let eye = target + Vec3::Y * (fit / self.zoom);
        let radius = 0.5 * 2f32.sqrt() * world;
        // Looking down with GL's -z up on screen: x runs right and the lesson's y (GL's z)
        // runs down, as on a 2D canvas.
        look(eye, target, Vec3::NEG_Z, aspect, radius, radius)
    }

    /// Matrices for a world cube of side `world` seen in a viewport of `aspect` = width / height.
    pub fn frame(&self, world: f32, aspect: f32) -> CameraFrame {
        let world = world.max(1e-3);
        let aspect = usable_aspect(aspect);
        let target = Vec3::splat(0.5 * world);
        let radius = 0.5 * 3f32.sqrt() * world;
        let fit = radius / narrow_half_angle(aspect).sin();
        let direction = Vec3::new(
            self.pitch.cos() * self.yaw.sin(),
            self.pitch.sin(),
            self.pitch.cos() * self.yaw.cos(),
        );
        let eye = target + (fit / self.zoom) * direction;
        look(eye, target, Vec3::Y, aspect, 1.5 * radius, radius)
    }
}

/// `aspect` if it is a usable width / height ratio, else 1.
fn usable_aspect(aspect: f32) -> f32 {
    if aspect.is_finite() && aspect > 0.0 {
        aspect
    } else {
        1.0
    }
}

/// The narrower of the view's two half-angles: it decides how far away something fits.
fn narrow_half_angle(aspect: f32) -> f32 {
    let half_y = 0.5 * FOV_Y;
    let half_x = (half_y.tan() * aspect).atan();
    half_y.min(half_x)
}

/// The frame of an eye looking at `target`, with the scene reaching `depth` in front of and
/// behind the target (the clip planes) and a bounding sphere of `radius`.
fn look(eye: Vec3, target: Vec3, up: Vec3, aspect: f32, depth: f32, radius: f32) -> CameraFrame {
    let distance = eye.distance(target);
    let near = (distance - depth).max(0.005 * radius);
    let far = distance + depth;
    let view = view::look_at_mat4(eye, target, up);
    let proj = opengl::perspective(FOV_Y, aspect, near, far);
    CameraFrame {
        view_proj: proj * view,
        eye,
        distance,
        radius,
    }
}
