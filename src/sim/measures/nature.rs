//! The measures the field uses on real flocks (issue 43), for a model flock and a recording
//! alike: positions and velocities in, numbers out. Each follows its paper:
//!
//! - `velocity_correlation`: the connected correlation of velocity fluctuations C(r) and its
//!   correlation length ξ, the first zero of C (Cavagna et al. 2010, PNAS 107:11865: in
//!   starling flocks ξ ≈ 0.35 L, L the flock's size);
//! - `anisotropy`: γ(n), how the n-th nearest neighbour's direction lines up with the
//!   direction of motion (Ballerini et al. 2008, PNAS 105:1232: 1/3 for no structure; in
//!   starlings it falls to 1/3 by the sixth or seventh neighbour);
//! - `group_state`: swarm, milling, polarized or transitional from polarization and rotation
//!   (Tunstrøm et al. 2013, PLoS Comput Biol 9:e1002915);
//! - `correlation_delay`: for a pair of birds, the lag τ* at which their headings correlate
//!   most, and so who leads whom (Nagy et al. 2010, Nature 464:890).

use glam::{Mat3, Vec3};

use super::shape::eigenvalues;

/// C(r) in distance bins, and what it gives.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Correlation {
    /// Each bin's middle distance and C there: ⟨u_i · u_j⟩ over the pairs at that distance,
    /// u the velocity less the flock's mean, divided by ⟨u_i · u_i⟩ (so C(0) → 1).
    pub bins: Vec<(f32, f32)>,
    /// The first distance where C crosses zero (linear between bins), if it does.
    pub length: Option<f32>,
    /// The flock's size L: the largest distance between two of its birds.
    pub size: f32,
}

fn at(values: &[f32], i: usize) -> Vec3 {
    Vec3::from_slice(&values[3 * i..3 * i + 3])
}

/// C(r) of the birds at `positions` flying at `velocities` (xyz each), in `bins` bins from 0
/// to the flock's size; O(N²).
pub fn velocity_correlation(positions: &[f32], velocities: &[f32], bins: usize) -> Correlation {
    let n = positions.len() / 3;
    if n < 2 || bins == 0 {
        return Correlation::default();
    }
    let mean = (0..n).map(|i| at(velocities, i)).sum::<Vec3>() / n as f32;
    let u: Vec<Vec3> = (0..n).map(|i| at(velocities, i) - mean).collect();
    let spread = u.iter().map(|v| v.length_squared()).sum::<f32>() / n as f32;
    let mut size = 0.0f32;
    for i in 0..n {
        for j in i + 1..n {
            size = size.max(at(positions, i).distance(at(positions, j)));
        }
    }
    if !(spread > 0.0 && size > 0.0) {
        return Correlation {
            size,
            ..Correlation::default()
        };
    }
    let width = size / bins as f32;
    let mut sum = vec![0.0f64; bins];
    let mut pairs = vec![0u64; bins];
    for i in 0..n {
        for j in i + 1..n {
            let r = at(positions, i).distance(at(positions, j));
            let bin = ((r / width) as usize).min(bins - 1);
            sum[bin] += f64::from(u[i].dot(u[j]));
            pairs[bin] += 1;
        }
    }
    let table: Vec<(f32, f32)> = (0..bins)
        .filter(|&b| pairs[b] > 0)
        .map(|b| {
            let c = sum[b] / pairs[b] as f64 / f64::from(spread);
            ((b as f32 + 0.5) * width, c as f32)
        })
        .collect();
    let length = table.windows(2).find_map(|w| {
        let ((r0, c0), (r1, c1)) = (w[0], w[1]);
        (c0 > 0.0 && c1 <= 0.0).then(|| r0 + (r1 - r0) * c0 / (c0 - c1))
    });
    Correlation {
        bins: table,
        length,
        size,
    }
}

/// The eigenvector of the symmetric `m` with the smallest eigenvalue (unit length).
fn smallest_axis(m: Mat3) -> Vec3 {
    let smallest = eigenvalues(m)[2];
    let a = m - Mat3::from_diagonal(Vec3::splat(smallest));
    // Its rows span the plane orthogonal to the eigenvector: the longest cross product of two
    // of them points along it.
    let rows = [a.row(0), a.row(1), a.row(2)];
    [
        rows[0].cross(rows[1]),
        rows[0].cross(rows[2]),
        rows[1].cross(rows[2]),
    ]
    .into_iter()
    .max_by(|x, y| x.length_squared().total_cmp(&y.length_squared()))
    .map_or(Vec3::X, |v| v.normalize_or(Vec3::X))
}

/// γ(n): Ballerini et al.'s anisotropy of the `n`-th nearest neighbour (n ≥ 1). For each
/// bird, û the unit vector to its n-th nearest; M = ⟨û ûᵀ⟩ over the birds; w the direction
/// in which neighbours are fewest (M's eigenvector of the smallest eigenvalue); γ = (w · V̂)²
/// with V̂ the flock's direction of motion. 1/3 on average for no structure; 1 when the
/// n-th neighbours all lie across the motion (none ahead or behind). `None` for fewer than
/// n + 1 birds or no motion.
pub fn anisotropy(positions: &[f32], velocities: &[f32], n: usize) -> Option<f32> {
    let count = positions.len() / 3;
    if n == 0 || count <= n {
        return None;
    }
    let heading = (0..count).map(|i| at(velocities, i)).sum::<Vec3>();
    let heading = heading.try_normalize()?;
    let mut m = Mat3::ZERO;
    let mut distances: Vec<(f32, usize)> = Vec::with_capacity(count);
    for i in 0..count {
        let p = at(positions, i);
        distances.clear();
        distances.extend(
            (0..count)
                .filter(|&j| j != i)
                .map(|j| (p.distance_squared(at(positions, j)), j)),
        );
        distances.select_nth_unstable_by(n - 1, |a, b| a.0.total_cmp(&b.0));
        let u = (at(positions, distances[n - 1].1) - p).normalize_or_zero();
        m += Mat3::from_cols(u * u.x, u * u.y, u * u.z);
    }
    let w = smallest_axis(m * (1.0 / count as f32));
    Some(w.dot(heading).powi(2))
}

/// The state of a group, after Tunstrøm et al. 2013.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupState {
    /// Low order, low rotation: a milling-free, polarization-free swarm.
    Swarm,
    /// Rotating about its centre.
    Milling,
    /// Flying one way.
    Polarized,
    /// Between the three.
    Transitional,
}

impl GroupState {
    /// In the order an experiment's row packs them (0 to 3).
    pub const ALL: [GroupState; 4] = [
        GroupState::Swarm,
        GroupState::Milling,
        GroupState::Polarized,
        GroupState::Transitional,
    ];

    /// Its word, as the CSV and the page's measures write it.
    pub fn name(self) -> &'static str {
        match self {
            GroupState::Swarm => "swarm",
            GroupState::Milling => "milling",
            GroupState::Polarized => "polarized",
            GroupState::Transitional => "transitional",
        }
    }

    pub fn from_name(name: &str) -> Option<GroupState> {
        GroupState::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Its place in `ALL`.
    pub fn index(self) -> usize {
        GroupState::ALL.iter().position(|&s| s == self).unwrap_or(3)
    }
}

/// Tunstrøm et al.'s thresholds: polarized when polarization > 0.65 and rotation < 0.35;
/// milling when rotation > 0.65 and polarization < 0.35; a swarm when both are below 0.35;
/// else transitional.
pub fn group_state(polarization: f32, rotation: f32) -> GroupState {
    const HIGH: f32 = 0.65;
    const LOW: f32 = 0.35;
    match (polarization, rotation) {
        (p, r) if p > HIGH && r < LOW => GroupState::Polarized,
        (p, r) if r > HIGH && p < LOW => GroupState::Milling,
        (p, r) if p < LOW && r < LOW => GroupState::Swarm,
        _ => GroupState::Transitional,
    }
}

/// Nagy et al.'s directional correlation delay of two birds whose unit headings are sampled
/// together (`a[t]`, `b[t]`, the same times, `dt` apart): C(τ) = ⟨â(t) · b̂(t + τ)⟩ over the
/// times both exist, for τ from −`max_lag` to `max_lag` samples; returns (τ* in seconds, C(τ*))
/// for the τ that maximises it. τ* > 0: b turns after a, so a leads. A zero heading marks a
/// time not to count (the bird unseen). `None` when no lag has a common time.
pub fn correlation_delay(a: &[Vec3], b: &[Vec3], dt: f32, max_lag: usize) -> Option<(f32, f32)> {
    let len = a.len().min(b.len()) as isize;
    let max_lag = max_lag as isize;
    let mut best: Option<(isize, f32)> = None;
    for lag in -max_lag..=max_lag {
        let (mut sum, mut count) = (0.0f64, 0u32);
        for t in 0.max(-lag)..len.min(len - lag) {
            let (u, v) = (
                a[t as usize].normalize_or_zero(),
                b[(t + lag) as usize].normalize_or_zero(),
            );
            // A zero heading is a time the bird was not seen (or not counted): skipped.
            if u != Vec3::ZERO && v != Vec3::ZERO {
                sum += f64::from(u.dot(v));
                count += 1;
            }
        }
        if count == 0 {
            continue;
        }
        let c = (sum / f64::from(count)) as f32;
        if best.is_none_or(|(_, top)| c > top) {
            best = Some((lag, c));
        }
    }
    best.map(|(lag, c)| (lag as f32 * dt, c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::Rng;

    /// Birds on a long line along x, every velocity fluctuation u = cos(2πx/λ) along y: C(r)
    /// is ½cos(2πr/λ) on average over the line, whose first zero is λ/4.
    #[test]
    fn the_correlation_length_of_a_wave_is_a_quarter_of_its_length() {
        let (n, lambda) = (400usize, 40.0f32);
        let mut positions = Vec::new();
        let mut velocities = Vec::new();
        for i in 0..n {
            let x = i as f32 * 0.5; // a line 200 long: five waves
            positions.extend([x, 0.0, 0.0]);
            velocities.extend([10.0, (std::f32::consts::TAU * x / lambda).cos(), 0.0]);
        }
        let c = velocity_correlation(&positions, &velocities, 80);
        let xi = c.length.expect("C crosses zero");
        assert!(
            (xi - lambda / 4.0).abs() < 1.0,
            "ξ = {xi}, expected {}",
            lambda / 4.0
        );
        assert!((c.size - 199.5).abs() < 1e-3);
        assert!(c.bins[0].1 > 0.9, "C near 0 is about 1: {:?}", c.bins[0]);
    }

    #[test]
    fn no_fluctuation_no_correlation_length() {
        let positions = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0];
        let velocities = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
        let c = velocity_correlation(&positions, &velocities, 10);
        assert_eq!(c.length, None);
        assert!(c.bins.is_empty());
        assert_eq!(
            velocity_correlation(&[0.0; 3], &[1.0, 0.0, 0.0], 10),
            Correlation::default()
        );
    }

    /// Isotropic clouds give γ = 1/3 on average (one cloud's w is one random direction).
    #[test]
    fn an_isotropic_cloud_has_gamma_a_third_on_average() {
        let mut rng = Rng::new(11);
        let clouds = 300;
        let mut sum = 0.0;
        for _ in 0..clouds {
            let mut positions = Vec::new();
            let mut velocities = Vec::new();
            for _ in 0..120 {
                positions.extend([rng.unit(), rng.unit(), rng.unit()].map(|c| c * 10.0));
                velocities.extend([1.0, 0.0, 0.0]);
            }
            sum += anisotropy(&positions, &velocities, 1).unwrap();
        }
        let mean = sum / clouds as f32;
        assert!((mean - 1.0 / 3.0).abs() < 0.05, "mean γ(1) = {mean}");
    }

    /// Birds in slabs across the motion, scattered over y and z within a slab and the slabs
    /// far apart along x (the heading): every nearest neighbour is beside, none ahead, so
    /// γ(1) ≈ 1; with the heading along y instead, inside the slabs' plane, γ(1) = 0.
    #[test]
    fn neighbours_all_beside_give_gamma_one() {
        let mut rng = Rng::new(5);
        let mut positions = Vec::new();
        let mut velocities = Vec::new();
        for x in 0..4 {
            for _ in 0..36 {
                positions.extend([x as f32 * 10.0, rng.unit() * 6.0, rng.unit() * 6.0]);
                velocities.extend([2.0, 0.1, 0.0]);
            }
        }
        let beside = anisotropy(&positions, &velocities, 1).unwrap();
        assert!(beside > 0.99, "γ(1) = {beside}");
        let along: Vec<f32> = velocities.chunks(3).flat_map(|_| [0.0, 1.0, 0.0]).collect();
        let ahead = anisotropy(&positions, &along, 1).unwrap();
        assert!(ahead < 0.01, "heading along y: γ(1) = {ahead}");
        assert_eq!(anisotropy(&positions[..3], &velocities[..3], 1), None);
        assert_eq!(
            anisotropy(&positions, &vec![0.0; positions.len()], 1),
            None,
            "no motion"
        );
    }

    #[test]
    fn group_states_follow_the_thresholds() {
        assert_eq!(group_state(0.9, 0.1), GroupState::Polarized);
        assert_eq!(group_state(0.1, 0.9), GroupState::Milling);
        assert_eq!(group_state(0.1, 0.1), GroupState::Swarm);
        assert_eq!(group_state(0.5, 0.5), GroupState::Transitional);
        assert_eq!(group_state(0.9, 0.9), GroupState::Transitional);
        assert_eq!(
            group_state(0.65, 0.1),
            GroupState::Transitional,
            "the thresholds are strict"
        );
    }

    /// A bird whose headings are another's delayed by 7 samples: τ* = 7 dt, and the leader is
    /// the one copied; swapped, τ* = −7 dt.
    #[test]
    fn a_lagged_copy_gives_the_lag() {
        let mut rng = Rng::new(3);
        let mut angle = 0.0f32;
        let leader: Vec<Vec3> = (0..400)
            .map(|_| {
                angle += (rng.unit() - 0.5) * 0.4;
                Vec3::new(angle.cos(), angle.sin(), 0.1)
            })
            .collect();
        let lag = 7;
        let follower: Vec<Vec3> = (0..400).map(|t| leader[t.max(lag) - lag]).collect();
        let (tau, c) = correlation_delay(&leader, &follower, 0.2, 20).unwrap();
        assert!((tau - 1.4).abs() < 1e-5, "τ* = {tau}");
        assert!(c > 0.99, "C(τ*) = {c}");
        let (back, _) = correlation_delay(&follower, &leader, 0.2, 20).unwrap();
        assert!((back + 1.4).abs() < 1e-5, "τ* = {back}");
        assert_eq!(correlation_delay(&[], &[], 0.2, 3), None);
        // Unseen stretches (zero headings) are skipped, not counted as uncorrelated.
        let mut gappy = follower.clone();
        gappy[100..250].fill(Vec3::ZERO);
        let (tau, c) = correlation_delay(&leader, &gappy, 0.2, 20).unwrap();
        assert!((tau - 1.4).abs() < 1e-5 && c > 0.99, "τ* = {tau}, C = {c}");
    }
}
