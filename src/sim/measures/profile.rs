//! The measures a model flock and a recorded one are held against each other by (issue 43):
//! one function, positions and velocities in, a `Profile` out, the same code for both. Its
//! order and speed are `measure`'s (the page's plot reads the same numbers); the rest is what
//! the papers on real flocks use (`nature.rs`): the state of the group, the nearest
//! neighbour's distance, the spread of speeds, the correlation length against the flock's
//! size, and how the nearest neighbour lies against the motion.

use glam::Vec3;

use super::nature::{anisotropy, group_state, velocity_correlation, GroupState};
use super::{measure, Space};

/// Distance bins of C(r) for ξ: enough to place its zero within 2 % of the flock's size.
const CORRELATION_BINS: usize = 50;

/// A flock measured for comparison with another.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    pub count: usize,
    /// |Σ v̂| / N.
    pub polarization: f32,
    /// Rotation about the centre of mass, |Σ r̂ × v̂| / N.
    pub milling: f32,
    /// The state the two above give (Tunstrøm et al. 2013).
    pub state: GroupState,
    /// Mean over birds of the distance to the nearest other, whatever it is.
    pub nearest: f32,
    /// Mean speed, and the speeds' standard deviation divided by it.
    pub speed: f32,
    pub speed_spread: f32,
    /// The correlation length ξ (the first zero of C(r)), if C crosses zero, and the flock's
    /// size L (its largest distance between two birds).
    pub correlation_length: Option<f32>,
    pub size: f32,
    /// γ(1): (the direction of fewest nearest neighbours · the heading)²; 1/3 for none.
    pub anisotropy: Option<f32>,
}

impl Profile {
    /// ξ / L, the share of the flock over which velocities fluctuate together.
    pub fn correlation_share(&self) -> Option<f32> {
        self.correlation_length
            .filter(|_| self.size > 0.0)
            .map(|xi| xi / self.size)
    }
}

fn at(values: &[f32], i: usize) -> Vec3 {
    Vec3::from_slice(&values[3 * i..3 * i + 3])
}

/// The profile of the birds at `positions` flying at `velocities` (xyz each, any unit of
/// length, no wrapping). O(N²): for flocks of up to a few thousand.
pub fn profile(positions: &[f32], velocities: &[f32]) -> Profile {
    let n = positions.len() / 3;
    // `measure` takes a cube [0, side]³, unwrapped: the birds moved into it (order and speed
    // do not change with a shift). Its radius links groups, which the profile does not read.
    let mut low = [f32::INFINITY; 3];
    let mut high = [f32::NEG_INFINITY; 3];
    for p in positions.chunks_exact(3) {
        for axis in 0..3 {
            low[axis] = low[axis].min(p[axis]);
            high[axis] = high[axis].max(p[axis]);
        }
    }
    let side = (0..3).fold(1.0f32, |m, a| m.max(high[a] - low[a])) + 1.0;
    let shifted: Vec<f32> = positions
        .chunks_exact(3)
        .flat_map(|p| [0, 1, 2].map(|a| p[a] - low[a]))
        .collect();
    let space = Space {
        world: side,
        wrap: false,
    };
    let metrics = measure(&shifted, velocities, space, 1.0, 1.0);
    let mut nearest = 0.0f64;
    for i in 0..n {
        let p = at(positions, i);
        let d = (0..n)
            .filter(|&j| j != i)
            .map(|j| p.distance_squared(at(positions, j)))
            .fold(f32::INFINITY, f32::min);
        if d.is_finite() {
            nearest += f64::from(d.sqrt());
        }
    }
    let speeds: Vec<f32> = (0..n).map(|i| at(velocities, i).length()).collect();
    let speed = if n == 0 {
        0.0
    } else {
        speeds.iter().sum::<f32>() / n as f32
    };
    let spread = if n == 0 || speed <= 0.0 {
        0.0
    } else {
        let variance = speeds.iter().map(|s| (s - speed).powi(2)).sum::<f32>() / n as f32;
        variance.sqrt() / speed
    };
    let correlation = velocity_correlation(positions, velocities, CORRELATION_BINS);
    Profile {
        count: n,
        polarization: metrics.polarization,
        milling: metrics.milling,
        state: group_state(metrics.polarization, metrics.milling),
        nearest: if n > 1 {
            (nearest / n as f64) as f32
        } else {
            0.0
        },
        speed,
        speed_spread: spread,
        correlation_length: correlation.length,
        size: correlation.size,
        anisotropy: anisotropy(positions, velocities, 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A square of four birds 2 apart, two flying +x at 10 and two at 14: every figure known.
    #[test]
    fn a_square_of_four_has_known_figures() {
        let positions = [0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 2.0, 2.0, 0.0];
        let velocities = [
            10.0, 0.0, 0.0, 10.0, 0.0, 0.0, 14.0, 0.0, 0.0, 14.0, 0.0, 0.0,
        ];
        let p = profile(&positions, &velocities);
        assert_eq!(p.count, 4);
        assert!((p.polarization - 1.0).abs() < 1e-6);
        assert!(p.milling < 1e-6);
        assert_eq!(p.state, GroupState::Polarized);
        assert!((p.nearest - 2.0).abs() < 1e-6);
        assert!((p.speed - 12.0).abs() < 1e-5);
        assert!((p.speed_spread - 2.0 / 12.0).abs() < 1e-6);
        assert!((p.size - 8.0f32.sqrt()).abs() < 1e-5);
    }

    /// Birds on a ring, each flying along it: milling, not polarized.
    #[test]
    fn a_ring_mills() {
        let (mut positions, mut velocities) = (Vec::new(), Vec::new());
        for k in 0..36 {
            let a = k as f32 * std::f32::consts::TAU / 36.0;
            positions.extend([100.0 + 20.0 * a.cos(), 100.0 + 20.0 * a.sin(), 50.0]);
            velocities.extend([-a.sin() * 5.0, a.cos() * 5.0, 0.0]);
        }
        let p = profile(&positions, &velocities);
        assert!(p.milling > 0.99, "milling {}", p.milling);
        assert!(p.polarization < 0.01);
        assert_eq!(p.state, GroupState::Milling);
        assert!((p.size - 40.0).abs() < 0.1);
    }

    #[test]
    fn no_birds_and_one_bird_give_zeros_not_nan() {
        let none = profile(&[], &[]);
        assert_eq!(none.count, 0);
        assert_eq!(none.nearest, 0.0);
        assert_eq!(none.speed, 0.0);
        let one = profile(&[1.0, 2.0, 3.0], &[0.0, 0.0, 0.0]);
        assert_eq!(one.nearest, 0.0);
        assert_eq!(one.speed_spread, 0.0);
        assert!(one.polarization.is_finite() && one.milling.is_finite());
        assert_eq!(one.correlation_share(), None);
    }
}
