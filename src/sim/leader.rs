//! The leaders' route: a closed loop of cubic Bézier segments through the world.

use glam::Vec3;

use super::arena::Arena;

/// Waypoints of the loop as fractions of the world side: well inside the walls (whose soft
/// margin is a tenth of the world), rising and falling so that the route is a 3D one.
const WAYPOINTS: [[f32; 3]; 6] = [
    [0.25, 0.25, 0.35],
    [0.50, 0.18, 0.55],
    [0.78, 0.30, 0.45],
    [0.75, 0.72, 0.62],
    [0.45, 0.80, 0.40],
    [0.22, 0.62, 0.55],
];

/// Segments in the loop; a position on it is a parameter in `0..SEGMENTS`.
pub const SEGMENTS: usize = WAYPOINTS.len();

/// A closed, smooth loop: one cubic Bézier segment per pair of waypoints, with the control
/// points of a Catmull-Rom spline, so the loop passes through every waypoint without a kink.
#[derive(Clone, Copy, Debug)]
pub struct LeaderPath {
    /// Four control points per segment.
    controls: [[Vec3; 4]; SEGMENTS],
}

impl LeaderPath {
    /// The loop through `arena`; `flat` lays it in the plane z = 0.
    pub fn new(arena: Arena, flat: bool) -> Self {
        let point = |k: usize| {
            let [x, y, z] = WAYPOINTS[k % SEGMENTS];
            let p = arena.at(Vec3::new(x, y, z));
            if flat {
                Vec3::new(p.x, p.y, 0.0)
            } else {
                p
            }
        };
        let controls = std::array::from_fn(|k| {
            let (before, from, to, after) = (
                point(k + SEGMENTS - 1),
                point(k),
                point(k + 1),
                point(k + 2),
            );
            [
                from,
                from + (to - before) / 6.0,
                to - (after - from) / 6.0,
                to,
            ]
        });
        LeaderPath { controls }
    }

    /// Which segment, and where along it (0..1), the parameter `u` falls.
    fn locate(&self, u: f32) -> (&[Vec3; 4], f32) {
        let u = u.rem_euclid(SEGMENTS as f32);
        let segment = (u as usize).min(SEGMENTS - 1);
        (&self.controls[segment], u - segment as f32)
    }

    /// The point at parameter `u` (any real; the loop repeats every `SEGMENTS`).
    pub fn position(&self, u: f32) -> Vec3 {
        let ([a, b, c, d], t) = self.locate(u);
        let s = 1.0 - t;
        *a * (s * s * s) + *b * (3.0 * s * s * t) + *c * (3.0 * s * t * t) + *d * (t * t * t)
    }

    /// d(position)/du at `u`: the direction of travel, and how far one unit of `u` goes.
    pub fn derivative(&self, u: f32) -> Vec3 {
        let ([a, b, c, d], t) = self.locate(u);
        let s = 1.0 - t;
        (*b - *a) * (3.0 * s * s) + (*c - *b) * (6.0 * s * t) + (*d - *c) * (3.0 * t * t)
    }

    /// The parameter after travelling `distance` from `u` (one Euler step along the curve:
    /// steps are short, a fraction of a unit).
    pub fn advance(&self, u: f32, distance: f32) -> f32 {
        let rate = self.derivative(u).length().max(1e-3);
        (u + distance / rate).rem_euclid(SEGMENTS as f32)
    }

    /// `samples` points evenly spaced in the parameter around the whole loop, xyz each.
    pub fn samples(&self, samples: usize) -> Vec<f32> {
        (0..samples)
            .flat_map(|k| {
                let u = k as f32 * SEGMENTS as f32 / samples as f32;
                self.position(u).to_array()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loop_is_closed_smooth_and_inside_the_walls() {
        let path = LeaderPath::new(Arena::world(40.0), false);
        // Passes through every waypoint, and the end meets the start.
        for (k, w) in WAYPOINTS.iter().enumerate() {
            assert!((path.position(k as f32) - Vec3::from_array(*w) * 40.0).length() < 1e-4);
        }
        assert!((path.position(SEGMENTS as f32 - 1e-4) - path.position(0.0)).length() < 0.01);
        // No kink at the joins: the tangent is continuous.
        for k in 0..SEGMENTS {
            let u = k as f32;
            let before = path.derivative(u - 1e-4).normalize();
            let after = path.derivative(u + 1e-4).normalize();
            assert!(before.dot(after) > 0.999, "kink at waypoint {k}");
        }
        let points = path.samples(600);
        assert_eq!(points.len(), 1800);
        assert!(points.iter().all(|&c| (4.0..=36.0).contains(&c)));
    }

    #[test]
    fn advancing_moves_the_requested_distance() {
        let path = LeaderPath::new(Arena::world(40.0), false);
        let mut u = 0.3;
        let mut travelled = 0.0;
        for _ in 0..600 {
            let next = path.advance(u, 0.1);
            travelled += (path.position(next) - path.position(u)).length();
            u = next;
        }
        assert!((travelled - 60.0).abs() < 0.6, "travelled {travelled}");
    }

    #[test]
    fn a_flat_loop_lies_in_the_plane() {
        let path = LeaderPath::new(Arena::world(100.0), true);
        assert!(path.samples(97).chunks_exact(3).all(|p| p[2] == 0.0));
    }
}
