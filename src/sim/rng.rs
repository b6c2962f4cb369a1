//! A small seeded generator: the same seed gives the same flock on every platform.

/// SplitMix64: tiny, fast and good enough for scattering boids.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u32) -> Self {
        Rng(u64::from(seed) ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// The generator's whole state, for a snapshot.
    pub fn state(&self) -> u64 {
        self.0
    }

    /// A generator in `state` (one `state()` gave): it goes on as that one would.
    pub fn from_state(state: u64) -> Self {
        Rng(state)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (1.0 / (1u64 << 24) as f32)
    }

    /// Uniform in [0, n).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// A uniformly distributed direction on the unit sphere.
    pub fn direction(&mut self) -> [f32; 3] {
        let z = self.unit() * 2.0 - 1.0;
        let angle = self.unit() * std::f32::consts::TAU;
        let ring = (1.0 - z * z).max(0.0).sqrt();
        [ring * angle.cos(), ring * angle.sin(), z]
    }
}

/// A seed from the system's entropy source (Web Crypto in the browser).
pub fn random_seed() -> u32 {
    let mut bytes = [0u8; 4];
    // Without entropy a fixed seed still gives a working flock.
    if getrandom::fill(&mut bytes).is_err() {
        return 1;
    }
    u32::from_le_bytes(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_stays_in_range_and_directions_are_unit_length() {
        let mut rng = Rng::new(7);
        for _ in 0..10_000 {
            let u = rng.unit();
            assert!((0.0..1.0).contains(&u));
            let [x, y, z] = rng.direction();
            assert!(((x * x + y * y + z * z).sqrt() - 1.0).abs() < 1e-5);
            assert!(rng.below(13) < 13);
        }
    }

    #[test]
    fn directions_cover_the_sphere_evenly() {
        let mut rng = Rng::new(3);
        let mut mean = [0.0f64; 3];
        let n = 20_000;
        for _ in 0..n {
            let d = rng.direction();
            for k in 0..3 {
                mean[k] += f64::from(d[k]) / n as f64;
            }
        }
        for m in mean {
            assert!(m.abs() < 0.03, "mean direction component {m}");
        }
        // Evenly over the sphere, not only balanced: each coordinate is uniform on [−1, 1]
        // (Archimedes), so a tenth of the directions in each tenth of it (a uniform polar
        // angle would crowd the poles; a flat circle would fill two bins).
        let mut rng = Rng::new(4);
        for axis in 0..3 {
            let mut bins = [0u32; 10];
            for _ in 0..n {
                let c = rng.direction()[axis];
                bins[(((c + 1.0) * 5.0) as usize).min(9)] += 1;
            }
            for (k, &count) in bins.iter().enumerate() {
                let share = f64::from(count) / n as f64;
                assert!((share - 0.1).abs() < 0.012, "axis {axis} bin {k}: {share}");
            }
        }
    }
}
