//! Helpers shared by the simulation's integration tests.
#![allow(dead_code)]

use boids::sim::{Flock, Settings};

/// A small deterministic generator for test states (independent of the flock's own).
pub struct TestRng(u64);

impl TestRng {
    pub fn new(seed: u64) -> Self {
        TestRng(
            seed.wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407),
        )
    }

    pub fn unit(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }

    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

pub fn speeds(flock: &Flock) -> Vec<f32> {
    flock
        .velocities()
        .chunks_exact(3)
        .map(|v| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt())
        .collect()
}

pub fn all_finite(flock: &Flock) -> bool {
    flock
        .positions()
        .iter()
        .chain(flock.velocities())
        .all(|v| v.is_finite())
}

/// Distance between boids `i` and `j`, across wrapped edges when the world wraps.
pub fn distance(flock: &Flock, i: usize, j: usize) -> f32 {
    let p = flock.positions();
    let world = flock.world_size();
    let mut sum = 0.0;
    for k in 0..3 {
        let mut d = (p[3 * i + k] - p[3 * j + k]).abs();
        if flock.settings().wrap {
            d = d.min(world - d);
        }
        sum += d * d;
    }
    sum.sqrt()
}

pub fn nearest_neighbour_distances(flock: &Flock) -> Vec<f32> {
    let n = flock.len();
    (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| j != i)
                .map(|j| distance(flock, i, j))
                .fold(f32::INFINITY, f32::min)
        })
        .collect()
}

/// Root-mean-square distance of the boids from their centroid (no wrap).
pub fn spread(flock: &Flock) -> f32 {
    let p = flock.positions();
    let n = flock.len() as f32;
    let mut centre = [0.0f32; 3];
    for b in p.chunks_exact(3) {
        for k in 0..3 {
            centre[k] += b[k] / n;
        }
    }
    let sum: f32 = p
        .chunks_exact(3)
        .map(|b| (0..3).map(|k| (b[k] - centre[k]).powi(2)).sum::<f32>())
        .sum();
    (sum / n).sqrt()
}

pub fn only(separation: f32, alignment: f32, cohesion: f32) -> Settings {
    Settings {
        separation,
        alignment,
        cohesion,
        ..Settings::walled()
    }
}

/// `n` boids for a sky three `view`s wide: most in the clump between `clump.0` and
/// `clump.1` on every axis (off home), every `every`-th (from `first`) anywhere in the sky;
/// headings at random. `flat` puts every z at 0.
pub fn clump_and_stragglers(
    n: usize,
    view: f32,
    seed: u64,
    flat: bool,
    clump: (f32, f32),
    (every, first): (usize, usize),
) -> (Vec<f32>, Vec<f32>) {
    let mut rng = TestRng::new(seed);
    let (mut p, mut v) = (Vec::new(), Vec::new());
    for i in 0..n {
        let (low, high) = if i % every == first {
            (0.0, 3.0 * view)
        } else {
            (clump.0 * view, clump.1 * view)
        };
        let z = if flat { 0.0 } else { rng.range(low, high) };
        p.extend([rng.range(low, high), rng.range(low, high), z]);
        let vz = if flat { 0.0 } else { rng.range(-10.0, 10.0) };
        v.extend([rng.range(-10.0, 10.0), rng.range(-10.0, 10.0), vz]);
    }
    (p, v)
}
