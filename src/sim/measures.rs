//! Measures of the whole flock: how ordered it is (polarization, milling), how it is spaced
//! (nearest-neighbour distances) and how it is split (groups, elongation). A leaf module
//! over flat xyz arrays: the flock, the tests, the benchmark and the page's plot all read
//! the same numbers.

use glam::Vec3;

use super::edges::nearest_image;
pub(crate) use cells::Bounds;
pub use local::{sample as local_sample, LOCAL_SAMPLE};
pub use shape::eigenvalues;
pub use survey::{Survey, UNIT_NS};

mod cells;
mod groups;
mod local;
pub mod nature;
pub mod profile;
mod shape;
mod survey;

/// The flock's state seen as a whole.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Metrics {
    pub count: usize,
    /// |Σ v̂| / N: 0 for random headings, 1 when all fly the same way.
    pub polarization: f32,
    /// |Σ r̂ × v̂| / N about the centre of mass: near 1 when the boids circle it, near 0 in
    /// parallel flight.
    pub milling: f32,
    /// Mean and median distance to the nearest other boid, over the boids that have one
    /// within the linking radius (the perception radius); `NaN` when none has. Like
    /// `local_order` and `streaming`, over the boids `local_sample` picks: every boid up to
    /// `LOCAL_SAMPLE`, else that many spread evenly (exact for each boid it takes).
    pub mean_nearest: f32,
    pub median_nearest: f32,
    /// Groups of boids linked by chains of neighbours within the linking radius (a lone boid
    /// is a group of one).
    pub groups: usize,
    /// Groups of at least `BIG_GROUP` boids: what one sees as separate flocks.
    pub big_groups: usize,
    /// Share of boids in the largest group.
    pub largest_group: f32,
    /// Polarization within each big group, mean weighted by size: several groups each
    /// flying its own way have a high value here and a low `polarization`.
    pub group_polarization: f32,
    /// How long the groups are for their width: √(λ₁/λ₂) of each big group's spread
    /// (1 for a ball, large for a stream), mean over big groups weighted by size.
    pub elongation: f32,
    /// How much neighbours fly together: the mean over boids of the polarization of each
    /// boid and its neighbours within the linking radius. High in a flock that turns or
    /// circles as one, where `polarization` is not.
    pub local_order: f32,
    /// How much the boids fly in file: the mean over boids of |v̂ · d̂| to their neighbours
    /// within the linking radius. Neighbours all round give 0.5, a flat band along the
    /// heading 2/π ≈ 0.64, single file 1.
    pub streaming: f32,
    /// Mean speed, and the share of boids within 20 % of `cruise`.
    pub mean_speed: f32,
    pub cruising: f32,
    /// The drone swarms' measures (Vásárhelyi et al. 2018). Velocity correlation: the
    /// mean over every pair of boids of v̂ᵢ · v̂ⱼ, from −1/(N−1) to 1; about polarization²
    /// in a big flock, but a pair measure, as the drones' papers take it.
    pub velocity_correlation: f32,
    /// The same within each big group, mean weighted by size (0 when there are none).
    pub group_correlation: f32,
    /// Share of boids in no big group: stragglers, members left outside any cluster.
    pub outside: f32,
    /// Collision ratio: the share of pairs of boids closer than `COLLISION_RADIUS`,
    /// over the boids `local_sample` picks (each exactly).
    pub collisions: f32,
}

/// Groups smaller than this are stragglers, not flocks.
pub const BIG_GROUP: usize = 10;
/// Two boids closer than this (world units) have collided: a quarter of the default
/// separation radius, about the length of a drawn cone.
pub const COLLISION_RADIUS: f32 = 0.5;
/// "Cruising" means within this fraction of the cruise speed.
pub const CRUISE_BAND: f32 = 0.2;

/// The space the boids live in: a cube `[0, world]³`, wrapped or walled.
#[derive(Clone, Copy, Debug)]
pub struct Space {
    pub world: f32,
    pub wrap: bool,
}

impl Space {
    /// `to − from`, across the nearest edge when the world wraps.
    pub fn offset(&self, from: Vec3, to: Vec3) -> Vec3 {
        nearest_image(to - from, self.world, self.wrap)
    }
}

fn at(values: &[f32], i: usize) -> Vec3 {
    Vec3::from_slice(&values[3 * i..3 * i + 3])
}

/// Every measure of the boids at `positions` flying at `velocities` (xyz per boid), with
/// boids linked within `radius`, all at once (a `Survey` advanced without limit).
pub fn measure(
    positions: &[f32],
    velocities: &[f32],
    space: Space,
    radius: f32,
    cruise: f32,
) -> Metrics {
    Survey::new(
        positions.to_vec(),
        velocities.to_vec(),
        space,
        radius,
        cruise,
    )
    .finish()
}

/// The boids' centre of mass (the world's centre when there are none).
pub fn centre_of_mass(positions: &[f32], space: Space) -> Vec3 {
    let n = positions.len() / 3;
    if n == 0 {
        return Vec3::splat(0.5 * space.world);
    }
    centre(positions, space, 0..n)
}

/// Where the boids are: their centre of mass and the radius around it that holds 95 % of
/// them (what a camera must frame to show the flock).
pub fn extent(positions: &[f32], space: Space) -> (Vec3, f32) {
    let n = positions.len() / 3;
    if n == 0 {
        return (Vec3::splat(0.5 * space.world), 0.5 * space.world);
    }
    let c = centre_of_mass(positions, space);
    let mut distances: Vec<f32> = (0..n)
        .map(|i| space.offset(c, at(positions, i)).length())
        .collect();
    distances.sort_unstable_by(f32::total_cmp);
    (c, distances[(n * 95 / 100).min(n - 1)])
}

/// Centre of mass of boids `members`; across wrapped edges, the circular mean per axis.
fn centre(positions: &[f32], space: Space, members: impl Iterator<Item = usize>) -> Vec3 {
    let mut sum = CentreSum::new(space);
    for i in members {
        sum.add(at(positions, i));
    }
    sum.centre()
}

/// The sums a centre of mass is taken from, one boid at a time: the positions, or across
/// wrapped edges the cosine and sine of each coordinate as an angle around the world.
struct CentreSum {
    space: Space,
    count: usize,
    sum: Vec3,
    cos: Vec3,
    sin: Vec3,
}

impl CentreSum {
    fn new(space: Space) -> Self {
        CentreSum {
            space,
            count: 0,
            sum: Vec3::ZERO,
            cos: Vec3::ZERO,
            sin: Vec3::ZERO,
        }
    }

    fn scale(&self) -> f32 {
        std::f32::consts::TAU / self.space.world
    }

    #[inline]
    fn add(&mut self, p: Vec3) {
        self.count += 1;
        if !self.space.wrap {
            self.sum += p;
            return;
        }
        let scale = self.scale();
        for axis in 0..3 {
            let (sin, cos) = (p[axis] * scale).sin_cos();
            self.cos[axis] += cos;
            self.sin[axis] += sin;
        }
    }

    /// The centre (the origin when no boid was added).
    fn centre(&self) -> Vec3 {
        if self.count == 0 {
            return Vec3::ZERO;
        }
        if !self.space.wrap {
            return self.sum / self.count as f32;
        }
        let scale = self.scale();
        Vec3::from_array([0, 1, 2].map(|axis| {
            (self.sin[axis].atan2(self.cos[axis]) / scale).rem_euclid(self.space.world)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Mat3;

    fn flat(points: &[(f32, f32, f32, f32)]) -> (Vec<f32>, Vec<f32>) {
        let p = points
            .iter()
            .flat_map(|&(x, y, _, _)| [x, y, 0.0])
            .collect();
        let v = points
            .iter()
            .flat_map(|&(_, _, vx, vy)| [vx, vy, 0.0])
            .collect();
        (p, v)
    }

    const WALLS: Space = Space {
        world: 100.0,
        wrap: false,
    };

    #[test]
    fn one_way_flight_is_polarized_and_does_not_mill() {
        let points: Vec<_> = (0..50)
            .map(|i| {
                (
                    10.0 + (i % 7) as f32 * 3.0,
                    10.0 + (i / 7) as f32 * 3.0,
                    1.0,
                    1.0,
                )
            })
            .collect();
        let (p, v) = flat(&points);
        let m = measure(&p, &v, WALLS, 5.0, 2f32.sqrt());
        assert!((m.polarization - 1.0).abs() < 1e-5, "{m:?}");
        assert!(m.milling < 0.05, "{m:?}");
        assert_eq!(m.cruising, 1.0);
    }

    #[test]
    fn boids_on_a_circle_flying_tangentially_mill() {
        let points: Vec<_> = (0..60)
            .map(|i| {
                let a = i as f32 / 60.0 * std::f32::consts::TAU;
                (
                    50.0 + 20.0 * a.cos(),
                    50.0 + 20.0 * a.sin(),
                    -a.sin(),
                    a.cos(),
                )
            })
            .collect();
        let (p, v) = flat(&points);
        let m = measure(&p, &v, WALLS, 5.0, 1.0);
        assert!(m.milling > 0.99, "{m:?}");
        assert!(m.polarization < 0.05, "{m:?}");
        // A circle of 60 boids two units apart is one long loop.
        assert_eq!(m.groups, 1);
    }

    #[test]
    fn planted_clusters_are_counted_and_nearest_distances_match_brute_force() {
        let mut points = Vec::new();
        let mut seed = 7u32;
        let mut unit = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        for (cx, cy) in [(15.0, 15.0), (80.0, 20.0), (50.0, 85.0), (20.0, 70.0)] {
            for _ in 0..25 {
                points.push((cx + unit() * 6.0, cy + unit() * 6.0, 1.0, 0.0));
            }
        }
        let (p, v) = flat(&points);
        let m = measure(&p, &v, WALLS, 5.0, 1.0);
        assert_eq!(m.groups, 4, "{m:?}");
        assert_eq!(m.big_groups, 4);
        let n = points.len();
        let brute: Vec<f32> = (0..n)
            .map(|i| {
                (0..n)
                    .filter(|&j| j != i)
                    .map(|j| (at(&p, i) - at(&p, j)).length())
                    .fold(f32::INFINITY, f32::min)
            })
            .collect();
        let mean = brute.iter().sum::<f32>() / n as f32;
        assert!(
            (m.mean_nearest - mean).abs() < 1e-4,
            "{} vs {mean}",
            m.mean_nearest
        );
    }

    #[test]
    fn groups_link_across_wrapped_edges_only_when_the_world_wraps() {
        let points = [(0.5, 50.0, 1.0, 0.0), (99.5, 50.0, 1.0, 0.0)];
        let (p, v) = flat(&points);
        assert_eq!(measure(&p, &v, WALLS, 5.0, 1.0).groups, 2);
        let wrapped = Space {
            world: 100.0,
            wrap: true,
        };
        let m = measure(&p, &v, wrapped, 5.0, 1.0);
        assert_eq!(m.groups, 1);
        assert!((m.median_nearest - 1.0).abs() < 1e-4);
    }

    #[test]
    fn a_stream_is_elongated_and_a_ball_is_not() {
        let stream: Vec<_> = (0..40)
            .map(|i| (10.0 + i as f32 * 2.0, 50.0 + (i % 3) as f32, 1.0, 0.0))
            .collect();
        let (p, v) = flat(&stream);
        assert!(measure(&p, &v, WALLS, 5.0, 1.0).elongation > 10.0);
        let ball: Vec<_> = (0..49)
            .map(|i| {
                (
                    40.0 + (i % 7) as f32 * 2.0,
                    40.0 + (i / 7) as f32 * 2.0,
                    1.0,
                    0.0,
                )
            })
            .collect();
        let (p, v) = flat(&ball);
        let e = measure(&p, &v, WALLS, 5.0, 1.0).elongation;
        assert!((e - 1.0).abs() < 0.05, "{e}");
    }

    #[test]
    fn the_extent_holds_most_of_the_flock() {
        let points: Vec<_> = (0..100)
            .map(|i| (30.0 + (i % 10) as f32, 60.0 + (i / 10) as f32, 1.0, 0.0))
            .collect();
        let (p, _) = flat(&points);
        let (centre, radius) = extent(&p, WALLS);
        assert!((centre - Vec3::new(34.5, 64.5, 0.0)).length() < 1e-4);
        // The 95th of the hundred distances from the centre: √(4.5² + 3.5²).
        assert!((radius - 5.7009).abs() < 1e-3, "{radius}");
        // Pairs ½, 1, … 25 either side of (50, 50): the 95th distance is 24 (the 90th 23,
        // the farthest 25).
        let points: Vec<_> = (1..=50)
            .flat_map(|k| {
                let d = 0.5 * k as f32;
                [(50.0 + d, 50.0, 1.0, 0.0), (50.0 - d, 50.0, 1.0, 0.0)]
            })
            .collect();
        let (p, _) = flat(&points);
        let (centre, radius) = extent(&p, WALLS);
        assert!((centre - Vec3::new(50.0, 50.0, 0.0)).length() < 1e-4);
        assert!((radius - 24.0).abs() < 1e-4, "{radius}");
    }

    #[test]
    fn eigenvalues_of_a_rotated_diagonal() {
        let r = Mat3::from_rotation_z(0.7) * Mat3::from_rotation_x(0.3);
        let m = r * Mat3::from_diagonal(Vec3::new(9.0, 4.0, 1.0)) * r.transpose();
        let [a, b, c] = eigenvalues(m);
        assert!((a - 9.0).abs() < 1e-4 && (b - 4.0).abs() < 1e-4 && (c - 1.0).abs() < 1e-4);
    }
}
