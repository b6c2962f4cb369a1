//! Orbit camera around a point of the world cube (its centre, or the flock's), in glam.
//!
//! The distance is stored relative to the distance that frames the framed cube (the whole
//! world; under an open sky the view, a third of it: `Framing`), and the point looked at as
//! a fraction of the world, so the camera follows changes of world size (and of aspect
//! ratio) without any bookkeeping.

use crate::sim::Flock;
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
/// The world's centre, as a fraction of the world.
const CENTRE: Vec3 = Vec3::splat(0.5);
/// Under an open sky, the point looked at closes on the flock's centre with this time
/// constant, seconds of flock time: smooth, yet never far behind a flock at cruise speed.
const FOLLOW_TIME: f32 = 0.5;
/// The least flock time a drawn frame counts for when the camera follows (a paused flock
/// still settles the camera on it), and the most (a slow frame makes no jump).
const FOLLOW_STEP: (f32, f32) = (1.0 / 60.0, 0.25);

/// What a frame frames: the world's side, the side of the cube (or, flat, the square) that
/// zoom 1 shows around the point looked at, and whether the world is flat (seen from above).
/// In a box the framed side is the world's; under an open sky it is the view's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Framing {
    pub world: f32,
    pub view: f32,
    pub flat: bool,
}

impl Framing {
    /// A world of side `world` framed whole.
    pub fn whole(world: f32, flat: bool) -> Framing {
        Framing {
            world,
            view: world,
            flat,
        }
    }

    /// The framing of `flock` now: its world, its view (`Flock::view_size`), flat or not.
    pub fn of(flock: &Flock) -> Framing {
        Framing {
            world: flock.world_size(),
            view: flock.view_size(),
            flat: flock.is_flat(),
        }
    }

    /// The framed side as a fraction of the world's (1 in a box, a third under the sky).
    pub fn share(&self) -> f32 {
        (self.view / self.world.max(1e-6)).within(1e-3, 1.0)
    }
}

/// Where the camera is, in angles around the point it looks at and a zoom factor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    /// The point looked at, as a fraction of the world along each simulation axis (z up):
    /// (0.5, 0.5, 0.5) is the world's centre.
    pub target: Vec3,
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
            target: CENTRE,
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
    /// Distance from the eye to the point looked at.
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

    /// Zooms by `factor` toward `point` (a fraction of the world, e.g. the flock's centre):
    /// zooming in moves the point looked at toward it as much as the zoom brings things
    /// closer; zooming out brings it back to the world's centre, reached at zoom 1.
    pub fn zoom_toward(&mut self, factor: f32, point: Vec3) {
        let before = self.zoom;
        self.zoom_by(factor);
        let applied = self.zoom / before;
        if applied > 1.0 && point.is_finite() {
            let point = point.clamp(Vec3::ZERO, Vec3::ONE);
            self.target += (point - self.target) * (1.0 - 1.0 / applied);
        } else if applied < 1.0 {
            let left = if before > 1.0 {
                ((self.zoom - 1.0) / (before - 1.0)).within(0.0, 1.0)
            } else {
                0.0
            };
            self.target = CENTRE + (self.target - CENTRE) * left;
        }
    }

    /// Looks at a sphere (`centre`, a fraction of the world; `radius`, a fraction of the
    /// framed side: the world's, or under an open sky the view's) so that it just fits the
    /// view: "fit the flock".
    pub fn fit(&mut self, centre: Vec3, radius: f32, flat: bool) {
        if !(centre.is_finite() && radius.is_finite() && radius > 0.0) {
            return;
        }
        self.target = centre.clamp(Vec3::ZERO, Vec3::ONE);
        // The radius the default view frames, in the same units (`frame`, `frame_from_above`).
        let framed = if flat { 0.55 } else { 0.5 * 3f32.sqrt() };
        self.zoom = (framed / radius).within(MIN_ZOOM, MAX_ZOOM);
    }

    /// Moves the point looked at toward `point` (a fraction of the world: the flock's
    /// centre) as `dt` seconds of flock time let it, smoothly (a first-order lag of
    /// `FOLLOW_TIME`, stepped implicitly): the open sky's camera, which follows the flock. A `dt` out of
    /// `FOLLOW_STEP` counts as its nearest end; a point that is not finite changes nothing.
    pub fn glide_toward(&mut self, point: Vec3, dt: f32) {
        if !point.is_finite() {
            return;
        }
        let dt = if dt.is_finite() { dt } else { 0.0 };
        let dt = dt.within(FOLLOW_STEP.0, FOLLOW_STEP.1);
        // The lag's step taken implicitly, dt / (T + dt), rather than 1 − e^(−dt/T): as
        // smooth, stable for any dt, and no `exp` in the module (0.3 KB gzipped).
        let share = dt / (FOLLOW_TIME + dt);
        let point = point.clamp(Vec3::ZERO, Vec3::ONE);
        self.target += (point - self.target) * share;
    }

    /// Takes a camera back from `[yaw, pitch, zoom]` or `[yaw, pitch, zoom, x, y, z]` (see
    /// `to_array`; without the point, the world's centre); ignores junk.
    pub fn set_from(&mut self, values: &[f32]) {
        let (angles, target) = match *values {
            [yaw, pitch, zoom] => ([yaw, pitch, zoom], CENTRE),
            [yaw, pitch, zoom, x, y, z] => ([yaw, pitch, zoom], Vec3::new(x, y, z)),
            _ => return,
        };
        let [yaw, pitch, zoom] = angles;
        if yaw.is_finite()
            && pitch.is_finite()
            && zoom.is_finite()
            && zoom > 0.0
            && target.is_finite()
        {
            self.yaw = yaw.rem_euclid(std::f32::consts::TAU);
            self.pitch = pitch.within(-MAX_PITCH, MAX_PITCH);
            self.zoom = zoom.within(MIN_ZOOM, MAX_ZOOM);
            self.target = target.clamp(Vec3::ZERO, Vec3::ONE);
        }
    }

    /// `[yaw, pitch, zoom, x, y, z]`: the angles, the zoom and the point looked at.
    pub fn to_array(self) -> [f32; 6] {
        let t = self.target;
        [self.yaw, self.pitch, self.zoom, t.x, t.y, t.z]
    }

    /// The point looked at in GL's coordinates (y up) for a world of side `world`; a flat
    /// world lies on GL's floor.
    pub fn target_gl(&self, world: f32, flat: bool) -> Vec3 {
        let t = self.target * world;
        if flat {
            Vec3::new(t.x, 0.0, t.y)
        } else {
            Vec3::new(t.x, t.z, t.y)
        }
    }

    /// Matrices for `framing` seen in a viewport of `aspect` = width / height: a flat world
    /// from straight above (`frame_from_above`), else from the orbit (`frame`), zoom 1
    /// showing the framed cube (or square) around the point looked at.
    pub fn frame_of(&self, framing: Framing, aspect: f32) -> CameraFrame {
        let world = framing.world.max(1e-3);
        let framed = world * framing.share();
        if framing.flat {
            self.above(world, framed, aspect)
        } else {
            self.around(world, framed, aspect)
        }
    }

    /// Matrices for a flat world (the square of side `world` on GL's floor, y = 0) seen
    /// from straight above, framed whole; only the zoom applies.
    pub fn frame_from_above(&self, world: f32, aspect: f32) -> CameraFrame {
        self.frame_of(Framing::whole(world, true), aspect)
    }

    /// Matrices for a world cube of side `world`, framed whole, seen in a viewport of
    /// `aspect` = width / height.
    pub fn frame(&self, world: f32, aspect: f32) -> CameraFrame {
        self.frame_of(Framing::whole(world, false), aspect)
    }

    /// From above, zoom 1 showing a square of side `framed` around the point looked at.
    fn above(&self, world: f32, framed: f32, aspect: f32) -> CameraFrame {
        let aspect = usable_aspect(aspect);
        let target = self.target_gl(world, true);
        // The square's half side, not its circumcircle, has to fit.
        let fit = 0.55 * framed / narrow_half_angle(aspect).tan();
        let eye = target + Vec3::Y * (fit / self.zoom);
        let radius = 0.5 * 2f32.sqrt() * framed;
        // Looking down with GL's -z up on screen: x runs right and the lesson's y (GL's z)
        // runs down, as on a 2D canvas.
        look(eye, target, Vec3::NEG_Z, aspect, radius, radius)
    }

    /// From the orbit, zoom 1 fitting a cube of side `framed` (its bounding sphere) around
    /// the point looked at; the clip planes hold the whole world cube.
    fn around(&self, world: f32, framed: f32, aspect: f32) -> CameraFrame {
        let aspect = usable_aspect(aspect);
        let target = self.target_gl(world, false);
        let radius = 0.5 * 3f32.sqrt() * framed;
        let fit = radius / narrow_half_angle(aspect).sin();
        // Off the centre, the far side of the cube is that much farther.
        let off_centre = target.distance(Vec3::splat(0.5 * world));
        let direction = Vec3::new(
            self.pitch.cos() * self.yaw.sin(),
            self.pitch.sin(),
            self.pitch.cos() * self.yaw.cos(),
        );
        let eye = target + (fit / self.zoom) * direction;
        let reach = 0.5 * 3f32.sqrt() * world;
        look(
            eye,
            target,
            Vec3::Y,
            aspect,
            1.5 * reach + off_centre,
            radius,
        )
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

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec4Swizzles;

    /// Where a GL point lands in normalised device coordinates.
    fn ndc(frame: &CameraFrame, p: Vec3) -> Vec3 {
        let clip = frame.view_proj * p.extend(1.0);
        clip.xyz() / clip.w
    }

    #[test]
    fn the_default_view_looks_at_the_centre_of_the_world() {
        let frame = OrbitCamera::default().frame(40.0, 1.5);
        let centre = ndc(&frame, Vec3::splat(20.0));
        assert!(centre.x.abs() < 1e-4 && centre.y.abs() < 1e-4, "{centre}");
        // Every corner of the cube is in view.
        for corner in 0..8 {
            let c = Vec3::new(
                (corner & 1) as f32,
                (corner >> 1 & 1) as f32,
                (corner >> 2) as f32,
            ) * 40.0;
            let p = ndc(&frame, c);
            assert!(p.abs().max_element() <= 1.0, "corner {c}: {p}");
        }
    }

    #[test]
    fn fitting_a_sphere_centres_it_and_fills_the_view() {
        let mut camera = OrbitCamera::default();
        // A flock of radius 4 in a world of 40 would need a zoom past the largest.
        camera.fit(Vec3::splat(0.5), 4.0 / 40.0, false);
        assert_eq!(camera.zoom, MAX_ZOOM);
        // Radius 8 around (10, 30, 20) (simulation axes, z up): the default view frames the
        // box's half-diagonal (√3/2 of the side), so the zoom is that over 8/40.
        camera.fit(Vec3::new(10.0, 30.0, 20.0) / 40.0, 8.0 / 40.0, false);
        assert!(
            (camera.zoom - 0.5 * 3f32.sqrt() / 0.2).abs() < 1e-5,
            "{}",
            camera.zoom
        );
        let frame = camera.frame(40.0, 1.0);
        let centre_gl = Vec3::new(10.0, 20.0, 30.0);
        let c = ndc(&frame, centre_gl);
        assert!(c.x.abs() < 1e-4 && c.y.abs() < 1e-4, "{c}");
        // Its edge, seen from the side, reaches most of the way across (not a speck).
        let right = frame
            .view_proj
            .inverse()
            .transform_vector3(Vec3::X)
            .normalize();
        let edge = ndc(&frame, centre_gl + right * 8.0);
        assert!(edge.x > 0.4 && edge.x <= 1.0, "{edge}");
        // And in 2D.
        camera.fit(Vec3::new(0.25, 0.75, 0.0), 0.1, true);
        let frame = camera.frame_from_above(40.0, 1.0);
        let c = ndc(&frame, Vec3::new(10.0, 0.0, 30.0));
        assert!(c.x.abs() < 1e-4 && c.y.abs() < 1e-4, "{c}");
        // Junk changes nothing.
        let before = camera;
        camera.fit(Vec3::splat(f32::NAN), 0.1, false);
        camera.fit(Vec3::splat(0.5), 0.0, false);
        assert_eq!(camera, before);
    }

    #[test]
    fn zooming_in_moves_toward_the_point_and_zooming_out_comes_back() {
        let mut camera = OrbitCamera::default();
        let flock = Vec3::new(0.2, 0.3, 0.8);
        camera.zoom_toward(2.0, flock);
        assert_eq!(camera.zoom, 2.0);
        // Halfway there: as much as the zoom brings things closer.
        assert!((camera.target - (CENTRE + (flock - CENTRE) * 0.5)).length() < 1e-6);
        camera.zoom_toward(2.0, flock);
        assert!(camera.target.distance(flock) < 0.5 * CENTRE.distance(flock));
        camera.zoom_toward(0.5, flock);
        assert!(camera.target.distance(CENTRE) > 0.0);
        camera.zoom_toward(0.1, flock);
        assert_eq!(camera.zoom, MIN_ZOOM);
        assert_eq!(
            camera.target, CENTRE,
            "all the way out: the whole world again"
        );
    }

    #[test]
    fn under_an_open_sky_zoom_one_frames_the_view_around_the_point_looked_at() {
        // A sky of 120 around a view of 40: the default camera shows the view's cube, the
        // middle third, as a box of 40 is shown.
        let sky = Framing {
            world: 120.0,
            view: 40.0,
            flat: false,
        };
        assert_eq!(sky.share(), 1.0 / 3.0);
        let camera = OrbitCamera::default();
        let frame = camera.frame_of(sky, 1.5);
        let boxed = camera.frame(40.0, 1.5);
        let corner = |c: usize, side: f32| {
            Vec3::new((c & 1) as f32, (c >> 1 & 1) as f32, (c >> 2) as f32) * side
        };
        for c in 0..8 {
            let p = ndc(&frame, Vec3::splat(40.0) + corner(c, 40.0));
            let q = ndc(&boxed, corner(c, 40.0));
            // Where on screen, not how deep: the sky's clip planes reach farther.
            let off = (p - q).truncate().abs().max_element();
            assert!(off < 1e-4, "corner {c}: {p} against {q}");
        }
        // The sky reaches out of the picture, yet its far side lies within the clip planes:
        // a boid there is drawn.
        let sky_corners: Vec<Vec3> = (0..8).map(|c| ndc(&frame, corner(c, 120.0))).collect();
        assert!(
            sky_corners.iter().any(|p| p.x.abs().max(p.y.abs()) > 1.0),
            "{sky_corners:?}"
        );
        // The farthest, behind home from the eye.
        let far = sky_corners[0];
        assert!(far.z.abs() <= 1.0, "{far}");
        // A framing of the whole world is the old frame, matrix for matrix.
        let whole = camera.frame_of(Framing::whole(40.0, false), 1.5);
        assert_eq!(whole.view_proj, boxed.view_proj);
        // Off home, the view's cube around the point looked at.
        let mut camera = OrbitCamera {
            target: Vec3::new(0.3, 0.6, 0.45),
            ..OrbitCamera::default()
        };
        let frame = camera.frame_of(sky, 1.0);
        let target_gl = Vec3::new(36.0, 54.0, 72.0);
        let c = ndc(&frame, target_gl);
        assert!(c.x.abs() < 1e-4 && c.y.abs() < 1e-4, "{c}");
        for c in 0..8 {
            let p = ndc(&frame, target_gl - Vec3::splat(20.0) + corner(c, 40.0));
            assert!(p.abs().max_element() <= 1.0, "corner {c}: {p}");
        }
        // And flat: the view's square around the point, from above.
        camera.target = Vec3::new(0.5, 0.5, 0.0);
        let flat = Framing { flat: true, ..sky };
        let frame = camera.frame_of(flat, 1.0);
        let edge = ndc(&frame, Vec3::new(80.0, 0.0, 60.0));
        assert!(edge.x > 0.8 && edge.x <= 1.0, "{edge}");
        let beyond = ndc(&frame, Vec3::new(100.0, 0.0, 60.0));
        assert!(beyond.x > 1.0, "{beyond}");
        assert_eq!(
            camera.frame_of(Framing::whole(40.0, true), 1.0).view_proj,
            camera.frame_from_above(40.0, 1.0).view_proj
        );
    }

    #[test]
    fn gliding_closes_on_the_point_smoothly() {
        let mut camera = OrbitCamera::default();
        let flock = Vec3::new(0.6, 0.4, 0.5);
        camera.glide_toward(flock, 1.0 / 60.0);
        let first = camera.target.distance(CENTRE);
        let gap = CENTRE.distance(flock);
        // A small part of the way in a frame: no jump.
        assert!(first > 0.0 && first < 0.05 * gap, "{first} of {gap}");
        // About two thirds of the way in FOLLOW_TIME (1 − 1/e, less a little for the steps),
        // nearly all of it in five.
        let mut camera = OrbitCamera::default();
        for _ in 0..(FOLLOW_TIME * 60.0).round() as usize {
            camera.glide_toward(flock, 1.0 / 60.0);
        }
        let left = camera.target.distance(flock) / gap;
        assert!((left - (-1f32).exp()).abs() < 0.02, "{left}");
        for _ in 0..(4.0 * FOLLOW_TIME * 60.0) as usize {
            camera.glide_toward(flock, 1.0 / 60.0);
        }
        assert!(camera.target.distance(flock) < 0.01 * gap);
        // A paused flock (no time) still draws the camera on; a long frame makes no jump;
        // junk changes nothing.
        let mut camera = OrbitCamera::default();
        camera.glide_toward(flock, 0.0);
        assert!((camera.target.distance(CENTRE) - first).abs() < 1e-6);
        let mut camera = OrbitCamera::default();
        camera.glide_toward(flock, 10.0);
        assert!(camera.target.distance(flock) > 0.5 * gap);
        let before = camera;
        camera.glide_toward(Vec3::NAN, 0.1);
        assert_eq!(camera, before);
        camera.glide_toward(flock, f32::NAN);
        assert!(camera.target.distance(flock) < before.target.distance(flock));
    }

    #[test]
    fn a_camera_round_trips_through_its_array() {
        let mut camera = OrbitCamera::default();
        camera.orbit(50.0, -20.0);
        camera.fit(Vec3::new(0.1, 0.2, 0.3), 0.2, false);
        let mut copy = OrbitCamera::default();
        copy.set_from(&camera.to_array());
        assert_eq!(copy, camera);
        // The old three-value form looks at the centre.
        copy.set_from(&[1.0, 0.2, 2.0]);
        assert_eq!((copy.target, copy.zoom), (CENTRE, 2.0));
        copy.set_from(&[1.0, 0.2, 2.0, f32::NAN, 0.0, 0.0]);
        assert_eq!(copy.target, CENTRE, "junk ignored");
    }
}
