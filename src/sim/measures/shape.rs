//! The big groups' own measures: how each flies (polarization within it) and how long it
//! is for its width (elongation).

use std::ops::Range;

use glam::{Mat3, Vec3};

use super::{CentreSum, Space, BIG_GROUP};

/// The groups of at least `BIG_GROUP` boids, numbered 0, 1, …, and their own measures,
/// summed boid by boid in two passes (`add_centres`, then `add_spreads`), a few boids at a
/// time, so that a survey can spread them over frames.
pub(super) struct BigGroups {
    /// Each boid's big group, `u32::MAX` for a boid of a smaller one.
    of: Vec<u32>,
    sizes: Vec<u32>,
    centres: Vec<CentreSum>,
    headings: Vec<Vec3>,
    /// Σ |v̂|² per group: its moving boids (a halted one has no heading).
    moving: Vec<f32>,
    /// Each group's centre, once every boid is in `centres`.
    at: Vec<Vec3>,
    spreads: Vec<Mat3>,
}

impl BigGroups {
    /// From a group label per boid and each label's size.
    pub fn new(group_of: &[u32], sizes: &[u32], space: Space) -> Self {
        let mut number = vec![u32::MAX; sizes.len()];
        let mut big = Vec::new();
        for (g, &size) in sizes.iter().enumerate() {
            if size as usize >= BIG_GROUP {
                number[g] = big.len() as u32;
                big.push(size);
            }
        }
        let count = big.len();
        BigGroups {
            of: group_of.iter().map(|&g| number[g as usize]).collect(),
            sizes: big,
            centres: (0..count).map(|_| CentreSum::new(space)).collect(),
            headings: vec![Vec3::ZERO; count],
            moving: vec![0.0; count],
            at: Vec::new(),
            spreads: vec![Mat3::ZERO; count],
        }
    }

    /// Boids `boids` into their groups' centres (across wrapped edges, the circular mean per
    /// axis) and heading sums.
    pub fn add_centres(&mut self, positions: &[f32], headings: &[Vec3], boids: Range<usize>) {
        for i in boids {
            let g = self.of[i];
            if g != u32::MAX {
                self.centres[g as usize].add(Vec3::from_slice(&positions[3 * i..3 * i + 3]));
                self.headings[g as usize] += headings[i];
                self.moving[g as usize] += headings[i].length_squared();
            }
        }
    }

    /// Boids `boids` into their groups' spreads about the centres, once every boid is in
    /// the centres.
    pub fn add_spreads(&mut self, positions: &[f32], space: Space, boids: Range<usize>) {
        if self.at.len() != self.centres.len() {
            self.at = self.centres.iter().map(CentreSum::centre).collect();
        }
        for i in boids {
            let g = self.of[i];
            if g != u32::MAX {
                let c = self.at[g as usize];
                let d = space.offset(c, Vec3::from_slice(&positions[3 * i..3 * i + 3]));
                self.spreads[g as usize] += Mat3::from_cols(d * d.x, d * d.y, d * d.z);
            }
        }
    }

    /// Size-weighted mean polarization of the big groups (0 when there are none), once
    /// every boid is in the centres.
    pub fn polarization(&self) -> f32 {
        let weight: u32 = self.sizes.iter().sum();
        if weight > 0 {
            self.headings.iter().map(|s| s.length()).sum::<f32>() / weight as f32
        } else {
            0.0
        }
    }

    /// Share of `n` boids in no big group.
    pub fn outside(&self, n: usize) -> f32 {
        let inside: u32 = self.sizes.iter().sum();
        1.0 - inside as f32 / n.max(1) as f32
    }

    /// Size-weighted mean over the big groups of each one's velocity correlation (0 when
    /// there are none), once every boid is in the centres.
    pub fn correlation(&self) -> f32 {
        let weight: u32 = self.sizes.iter().sum();
        if weight == 0 {
            return 0.0;
        }
        let mut sum = 0.0f32;
        for ((s, &moving), &size) in self.headings.iter().zip(&self.moving).zip(&self.sizes) {
            let n = size as f32;
            sum += n * pair_mean(*s, moving, n);
        }
        sum / weight as f32
    }

    /// Size-weighted mean of √(λ₁/λ₂) of each big group's spread (1 when there are none),
    /// once every boid is in the spreads.
    pub fn elongation(&self) -> f32 {
        if self.sizes.is_empty() {
            return 1.0;
        }
        let (mut sum, mut weight) = (0.0f32, 0.0f32);
        for (&spread, &size) in self.spreads.iter().zip(&self.sizes) {
            let size = size as f32;
            let [l1, l2, _] = eigenvalues(spread * (1.0 / size));
            let ratio = (l1 / l2.max(1e-6 * l1.max(1e-12))).sqrt();
            sum += ratio * size;
            weight += size;
        }
        sum / weight
    }
}

/// The mean of v̂ᵢ · v̂ⱼ over the pairs of `n` boids whose headings sum to `sum`, with
/// Σ|v̂|² = `moving`: Σ over i ≠ j is |Σv̂|² less the boids' own squares. 0 below two boids.
pub(super) fn pair_mean(sum: Vec3, moving: f32, n: f32) -> f32 {
    if n < 2.0 {
        return 0.0;
    }
    ((sum.length_squared() - moving) / (n * (n - 1.0))).clamp(-1.0, 1.0)
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
