//! Measures of the whole flock: how ordered it is (polarization, milling), how it is spaced
//! (nearest-neighbour distances) and how it is split (groups, elongation). A leaf module
//! over flat xyz arrays: the flock, the tests, the benchmark and the page's plot all read
//! the same numbers.

use glam::{Mat3, Vec3};

use super::edges::nearest_image;

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
    /// within the linking radius (the perception radius); `NaN` when none has.
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
}

/// Groups smaller than this are stragglers, not flocks.
pub const BIG_GROUP: usize = 10;
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
/// boids linked within `radius`.
pub fn measure(
    positions: &[f32],
    velocities: &[f32],
    space: Space,
    radius: f32,
    cruise: f32,
) -> Metrics {
    let n = positions.len() / 3;
    if n == 0 {
        return Metrics {
            mean_nearest: f32::NAN,
            median_nearest: f32::NAN,
            ..Metrics::default()
        };
    }
    let (polarization, milling) = order(positions, velocities, space);
    let links = Links::new(positions, space, radius);
    let Local {
        mut nearest,
        streaming,
        local_order,
        group_of,
    } = local(velocities, &links);
    let (mean_nearest, median_nearest) = if nearest.is_empty() {
        (f32::NAN, f32::NAN)
    } else {
        nearest.sort_unstable_by(f32::total_cmp);
        let mean = nearest.iter().sum::<f32>() / nearest.len() as f32;
        (mean, nearest[nearest.len() / 2])
    };
    let mut sizes = vec![0usize; n];
    for &g in &group_of {
        sizes[g] += 1;
    }
    let groups = sizes.iter().filter(|&&s| s > 0).count();
    let big_groups = sizes.iter().filter(|&&s| s >= BIG_GROUP).count();
    let largest = sizes.iter().copied().max().unwrap_or(0);
    let speeds: Vec<f32> = (0..n).map(|i| at(velocities, i).length()).collect();
    let mean_speed = speeds.iter().sum::<f32>() / n as f32;
    let cruising = speeds
        .iter()
        .filter(|&&s| (s - cruise).abs() <= CRUISE_BAND * cruise)
        .count() as f32
        / n as f32;
    Metrics {
        count: n,
        polarization,
        milling,
        mean_nearest,
        median_nearest,
        groups,
        big_groups,
        largest_group: largest as f32 / n as f32,
        elongation: elongation(positions, space, &group_of, &sizes),
        group_polarization: group_polarization(velocities, &group_of, &sizes),
        streaming,
        local_order,
        mean_speed,
        cruising,
    }
}

/// Polarization and milling.
fn order(positions: &[f32], velocities: &[f32], space: Space) -> (f32, f32) {
    let n = positions.len() / 3;
    let centre = centre_of_mass(positions, space);
    let (mut heading, mut turning) = (Vec3::ZERO, Vec3::ZERO);
    for i in 0..n {
        let v = at(velocities, i).normalize_or_zero();
        heading += v;
        let r = space.offset(centre, at(positions, i)).normalize_or_zero();
        turning += r.cross(v);
    }
    (heading.length() / n as f32, turning.length() / n as f32)
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
fn centre(
    positions: &[f32],
    space: Space,
    members: impl ExactSizeIterator<Item = usize> + Clone,
) -> Vec3 {
    let count = members.len();
    if count == 0 {
        return Vec3::ZERO;
    }
    if !space.wrap {
        let sum: Vec3 = members.map(|i| at(positions, i)).sum();
        return sum / count as f32;
    }
    let scale = std::f32::consts::TAU / space.world;
    let mut centre = Vec3::ZERO;
    for axis in 0..3 {
        let (mut c, mut s) = (0.0f32, 0.0f32);
        for i in members.clone() {
            let (sin, cos) = (positions[3 * i + axis] * scale).sin_cos();
            (c, s) = (c + cos, s + sin);
        }
        centre[axis] = (s.atan2(c) / scale).rem_euclid(space.world);
    }
    centre
}

/// What one walk over every boid's neighbours gives.
struct Local {
    /// Distance to the nearest other boid, for each boid that has one within the radius.
    nearest: Vec<f32>,
    streaming: f32,
    local_order: f32,
    /// A group label per boid (the root of its group; labels are below n).
    group_of: Vec<usize>,
}

/// `Metrics::streaming`, `Metrics::local_order`, the nearest distances and the groups (boids
/// linked by chains of neighbours: union-find over the pairs), in one walk.
fn local(velocities: &[f32], links: &Links) -> Local {
    let n = velocities.len() / 3;
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut nearest = Vec::with_capacity(n);
    let (mut streaming, mut streaming_boids, mut order) = (0.0f32, 0usize, 0.0f32);
    // Each heading once, not once per neighbour (a square root and a division each: at 10,000
    // settled boids that was most of the walk); boids in cell order, so neighbours are near
    // in memory.
    let headings: Vec<Vec3> = (0..n)
        .map(|i| at(velocities, i).normalize_or_zero())
        .collect();
    for &i in &links.order {
        let heading = headings[i];
        let p = at(links.positions, i);
        let (mut along, mut seen, mut together) = (0.0f32, 0usize, heading);
        let mut closest = f32::INFINITY;
        links.around(i, |j, d| {
            closest = closest.min(d);
            together += headings[j];
            if d > 0.0 {
                let towards = links.space.offset(p, at(links.positions, j)) / d;
                along += heading.dot(towards).abs();
                seen += 1;
            }
            if j > i {
                let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                if a != b {
                    parent[a.max(b)] = a.min(b);
                }
            }
        });
        if closest.is_finite() {
            nearest.push(closest);
        }
        order += together.length() / (1 + seen) as f32;
        if seen > 0 {
            streaming += along / seen as f32;
            streaming_boids += 1;
        }
    }
    let streaming = if streaming_boids > 0 {
        streaming / streaming_boids as f32
    } else {
        0.5
    };
    Local {
        nearest,
        streaming,
        local_order: order / n.max(1) as f32,
        group_of: (0..n).map(|i| root(&mut parent, i)).collect(),
    }
}

/// Size-weighted mean polarization of the big groups.
fn group_polarization(velocities: &[f32], group_of: &[usize], sizes: &[usize]) -> f32 {
    let mut headings = vec![Vec3::ZERO; sizes.len()];
    for (i, &g) in group_of.iter().enumerate() {
        headings[g] += at(velocities, i).normalize_or_zero();
    }
    let (mut sum, mut weight) = (0.0f32, 0usize);
    for (g, &size) in sizes.iter().enumerate() {
        if size >= BIG_GROUP {
            sum += headings[g].length();
            weight += size;
        }
    }
    if weight > 0 {
        sum / weight as f32
    } else {
        0.0
    }
}

/// Size-weighted mean of √(λ₁/λ₂) over the big groups.
fn elongation(positions: &[f32], space: Space, group_of: &[usize], sizes: &[usize]) -> f32 {
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); sizes.len()];
    for (i, &g) in group_of.iter().enumerate() {
        if sizes[g] >= BIG_GROUP {
            members[g].push(i);
        }
    }
    let (mut sum, mut weight) = (0.0f32, 0.0f32);
    for group in members.iter().filter(|m| !m.is_empty()) {
        let c = centre(positions, space, group.iter().copied());
        let mut cov = Mat3::ZERO;
        for &i in group {
            let d = space.offset(c, at(positions, i));
            cov += Mat3::from_cols(d * d.x, d * d.y, d * d.z);
        }
        let [l1, l2, _] = eigenvalues(cov * (1.0 / group.len() as f32));
        let ratio = (l1 / l2.max(1e-6 * l1.max(1e-12))).sqrt();
        sum += ratio * group.len() as f32;
        weight += group.len() as f32;
    }
    if weight > 0.0 {
        sum / weight
    } else {
        1.0
    }
}

/// Eigenvalues of a symmetric 3×3 matrix, largest first (Jacobi rotations).
pub fn eigenvalues(m: Mat3) -> [f32; 3] {
    let mut a = m.to_cols_array_2d().map(|c| c.map(f64::from));
    for _ in 0..32 {
        let off = a[0][1].powi(2) + a[0][2].powi(2) + a[1][2].powi(2);
        if off < 1e-18 {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            if a[p][q].abs() < 1e-30 {
                continue;
            }
            let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let t = if theta == 0.0 { 1.0 } else { t };
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            let mut r = [[0.0f64; 3]; 3];
            for (k, row) in r.iter_mut().enumerate() {
                row[k] = 1.0;
            }
            r[p][p] = c;
            r[q][q] = c;
            r[p][q] = s;
            r[q][p] = -s;
            // a ← rᵀ a r
            let mut ar = [[0.0f64; 3]; 3];
            for i in 0..3 {
                for j in 0..3 {
                    ar[i][j] = (0..3).map(|k| a[i][k] * r[k][j]).sum();
                }
            }
            for i in 0..3 {
                for j in 0..3 {
                    a[i][j] = (0..3).map(|k| r[k][i] * ar[k][j]).sum();
                }
            }
        }
    }
    let mut values = [a[0][0] as f32, a[1][1] as f32, a[2][2] as f32];
    values.sort_unstable_by(|x, y| y.total_cmp(x));
    values
}

/// Which boids lie within `radius` of which: a hash of cells at least `radius` wide.
pub struct Links<'a> {
    positions: &'a [f32],
    space: Space,
    radius: f32,
    dims: usize,
    flat: bool,
    /// Boids in cell order, and where each cell's run starts (`dims³ + 1` entries).
    order: Vec<usize>,
    start: Vec<usize>,
}

impl<'a> Links<'a> {
    pub fn new(positions: &'a [f32], space: Space, radius: f32) -> Self {
        let n = positions.len() / 3;
        let flat = positions.chunks_exact(3).all(|p| p[2] == 0.0);
        // Cells at least `radius` wide, and no more cells than about four per boid.
        let most = ((4 * n.max(1)) as f32).powf(if flat { 0.5 } else { 1.0 / 3.0 });
        let dims = ((space.world / radius.max(1e-3)).floor())
            .min(most)
            .max(1.0) as usize;
        let layers = if flat { 1 } else { dims };
        let cell_of = |i: usize| Self::cell(positions, space.world, dims, flat, i);
        let mut start = vec![0usize; dims * dims * layers + 1];
        for i in 0..n {
            start[cell_of(i) + 1] += 1;
        }
        for c in 1..start.len() {
            start[c] += start[c - 1];
        }
        let mut fill = start.clone();
        let mut order = vec![0usize; n];
        for i in 0..n {
            let c = cell_of(i);
            order[fill[c]] = i;
            fill[c] += 1;
        }
        Links {
            positions,
            space,
            radius,
            dims,
            flat,
            order,
            start,
        }
    }

    fn cell(positions: &[f32], world: f32, dims: usize, flat: bool, i: usize) -> usize {
        let index = |p: f32| ((p / world * dims as f32) as usize).min(dims - 1);
        let (x, y) = (index(positions[3 * i]), index(positions[3 * i + 1]));
        let z = if flat { 0 } else { index(positions[3 * i + 2]) };
        (z * dims + y) * dims + x
    }

    /// Calls `visit(j, distance)` for every other boid within the radius of boid `i`.
    pub fn around(&self, i: usize, mut visit: impl FnMut(usize, f32)) {
        let p = at(self.positions, i);
        let dims = self.dims as isize;
        let home = Self::cell(self.positions, self.space.world, self.dims, self.flat, i);
        let (hx, hy, hz) = (
            (home % self.dims) as isize,
            (home / self.dims % self.dims) as isize,
            (home / (self.dims * self.dims)) as isize,
        );
        let reach_z = if self.flat { 0 } else { 1 };
        let mut cells = [usize::MAX; 27];
        let mut found = 0;
        for dz in -reach_z..=reach_z {
            for dy in -1..=1isize {
                for dx in -1..=1isize {
                    let wrap = |c: isize| -> Option<usize> {
                        if (0..dims).contains(&c) {
                            Some(c as usize)
                        } else if self.space.wrap {
                            Some(c.rem_euclid(dims) as usize)
                        } else {
                            None
                        }
                    };
                    let (Some(x), Some(y)) = (wrap(hx + dx), wrap(hy + dy)) else {
                        continue;
                    };
                    let z = if self.flat { Some(0) } else { wrap(hz + dz) };
                    let Some(z) = z else { continue };
                    let cell = (z * self.dims + y) * self.dims + x;
                    // A world a few cells wide reaches the same cell from both sides.
                    if !cells[..found].contains(&cell) {
                        cells[found] = cell;
                        found += 1;
                    }
                }
            }
        }
        let r2 = self.radius * self.radius;
        for &cell in &cells[..found] {
            for &j in &self.order[self.start[cell]..self.start[cell + 1]] {
                if j == i {
                    continue;
                }
                let d2 = self.space.offset(p, at(self.positions, j)).length_squared();
                if d2 <= r2 {
                    visit(j, d2.sqrt());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(radius > 5.0 && radius < 6.4, "{radius}");
    }

    #[test]
    fn eigenvalues_of_a_rotated_diagonal() {
        let r = Mat3::from_rotation_z(0.7) * Mat3::from_rotation_x(0.3);
        let m = r * Mat3::from_diagonal(Vec3::new(9.0, 4.0, 1.0)) * r.transpose();
        let [a, b, c] = eigenvalues(m);
        assert!((a - 9.0).abs() < 1e-4 && (b - 4.0).abs() < 1e-4 && (c - 1.0).abs() < 1e-4);
    }
}
