//! The big groups' own measures: how each flies (polarization within it) and how long it
//! is for its width (elongation).

use glam::{Mat3, Vec3};

use super::{centre, Space, BIG_GROUP};

/// The groups of at least `BIG_GROUP` boids, numbered 0, 1, …
pub(super) struct BigGroups {
    /// Each boid's big group, `u32::MAX` for a boid of a smaller one.
    of: Vec<u32>,
    sizes: Vec<u32>,
}

impl BigGroups {
    /// From a group label per boid and each label's size.
    pub fn new(group_of: &[u32], sizes: &[u32]) -> Self {
        let mut number = vec![u32::MAX; sizes.len()];
        let mut big = Vec::new();
        for (g, &size) in sizes.iter().enumerate() {
            if size as usize >= BIG_GROUP {
                number[g] = big.len() as u32;
                big.push(size);
            }
        }
        BigGroups {
            of: group_of.iter().map(|&g| number[g as usize]).collect(),
            sizes: big,
        }
    }

    /// Each boid's big group, if it is in one.
    fn members(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.of
            .iter()
            .enumerate()
            .filter(|(_, &g)| g != u32::MAX)
            .map(|(i, &g)| (i, g as usize))
    }

    /// Size-weighted mean polarization of the big groups (0 when there are none).
    pub fn polarization(&self, headings: &[Vec3]) -> f32 {
        let mut sums = vec![Vec3::ZERO; self.sizes.len()];
        for (i, g) in self.members() {
            sums[g] += headings[i];
        }
        let weight: u32 = self.sizes.iter().sum();
        if weight > 0 {
            sums.iter().map(|s| s.length()).sum::<f32>() / weight as f32
        } else {
            0.0
        }
    }
}

/// Size-weighted mean of √(λ₁/λ₂) of each big group's spread (1 when there are none).
pub(super) fn elongation(positions: &[f32], space: Space, big: &BigGroups) -> f32 {
    if big.sizes.is_empty() {
        return 1.0;
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); big.sizes.len()];
    for (i, g) in big.members() {
        members[g].push(i);
    }
    let (mut sum, mut weight) = (0.0f32, 0.0f32);
    for group in &members {
        let c = centre(positions, space, group.iter().copied());
        let mut cov = Mat3::ZERO;
        for &i in group {
            let d = space.offset(c, Vec3::from_slice(&positions[3 * i..3 * i + 3]));
            cov += Mat3::from_cols(d * d.x, d * d.y, d * d.z);
        }
        let [l1, l2, _] = eigenvalues(cov * (1.0 / group.len() as f32));
        let ratio = (l1 / l2.max(1e-6 * l1.max(1e-12))).sqrt();
        sum += ratio * group.len() as f32;
        weight += group.len() as f32;
    }
    sum / weight
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
    // Largest first; through the module's one float sort (a comparator of its own would
    // make a second).
    values.sort_unstable_by(f32::total_cmp);
    values.reverse();
    values
}
