//! Noise: every step turns each boid's heading by a small random angle, standing for its
//! errors in seeing its neighbours and in flying (Vicsek's angular noise, made continuous in
//! time). A leaf module over flat xyz arrays.
//!
//! Each component of the turn across the heading is uniform with a spread (standard
//! deviation) of `noise · √h` in a step of `h` seconds, so the heading diffuses on the
//! sphere at the same rate whatever the step: the variances of many short steps add up to
//! those of one long one. Free boids' headings then lose their memory as ⟨cos θ(t)⟩ =
//! e^(−noise²·t) in 3D and e^(−noise²·t/2) on a plane (tests/noise.rs measures both, at
//! 1/60 and 1/120 s steps). The turn is a rotation by exactly the drawn angle, so speeds
//! are kept and large spreads do not saturate.
//!
//! The random numbers are counter-based: a hash of the seed, the step's number and the
//! boid's id, so a boid's turn does not depend on where the grid put it in memory, nor on
//! how the flock is split between threads: the same seed gives the same flock.

use glam::Vec3;

/// √3: a uniform number in [−√3, √3] has a variance of 1.
const UNIT_SPREAD: f32 = 1.732_050_8;

/// Turns each boid's velocity (`velocities`, xyz per boid, `ids` in the same order) by a
/// random angle of spread `spread` (= noise · √h) per axis across its heading; on a
/// `flat` world, in the x-y plane. `seed` and `tick` (the step's number) pick the numbers.
/// A boid at rest has no heading to turn and stays at rest.
pub fn turn_headings(
    velocities: &mut [f32],
    ids: &[u32],
    seed: u32,
    tick: u64,
    spread: f32,
    flat: bool,
) {
    let scale = spread * UNIT_SPREAD;
    let stream = mix(u64::from(seed) ^ tick.wrapping_mul(0xD6E8_FEB8_6659_FD93));
    for (v, &id) in velocities.chunks_exact_mut(3).zip(ids) {
        let velocity = Vec3::from_slice(v);
        let speed = velocity.length();
        if speed <= 1e-12 {
            continue;
        }
        let heading = velocity / speed;
        let bits = mix(stream ^ u64::from(id).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let kick = if flat {
            Vec3::new(signed_unit(bits), signed_unit(bits >> 21), 0.0)
        } else {
            Vec3::new(
                signed_unit(bits),
                signed_unit(bits >> 21),
                signed_unit(bits >> 42),
            )
        } * scale;
        // Only the part across the heading turns it.
        let across = kick - heading * kick.dot(heading);
        let angle = across.length();
        if angle <= 1e-12 {
            continue;
        }
        let (sin, cos) = angle.sin_cos();
        let turned = heading * cos + across * (sin / angle);
        (turned * speed).write_to_slice(v);
    }
}

/// SplitMix64's finaliser: every bit of the input reaches every bit of the output.
pub(super) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The low 21 bits of `bits` as a number uniform in (−1, 1).
fn signed_unit(bits: u64) -> f32 {
    const HALF: f32 = (1u32 << 20) as f32;
    ((bits & 0x1F_FFFF) as f32 + 0.5) / HALF - 1.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_keep_speed_and_stay_in_the_plane_when_flat() {
        let mut velocities: Vec<f32> = (0..300).map(|k| ((k * 7) % 11) as f32 - 5.0).collect();
        for v in velocities.chunks_exact_mut(3).step_by(2) {
            v[2] = 0.0;
        }
        let ids: Vec<u32> = (0..100).collect();
        let before = velocities.clone();
        let mut flat = before.clone();
        for v in flat.chunks_exact_mut(3) {
            v[2] = 0.0;
        }
        let flat_before = flat.clone();
        turn_headings(&mut velocities, &ids, 3, 17, 0.3, false);
        turn_headings(&mut flat, &ids, 3, 17, 0.3, true);
        let mut turned = 0;
        for (old, new) in before.chunks_exact(3).zip(velocities.chunks_exact(3)) {
            let (old, new) = (Vec3::from_slice(old), Vec3::from_slice(new));
            assert!((old.length() - new.length()).abs() <= 1e-4 * (1.0 + old.length()));
            turned += usize::from(old != new);
        }
        assert!(turned > 90, "{turned} of 100 turned");
        for (old, new) in flat_before.chunks_exact(3).zip(flat.chunks_exact(3)) {
            assert_eq!(new[2], 0.0);
            let (old, new) = (Vec3::from_slice(old), Vec3::from_slice(new));
            assert!((old.length() - new.length()).abs() <= 1e-4 * (1.0 + old.length()));
        }
    }

    #[test]
    fn the_same_boid_gets_the_same_turn_wherever_it_sits() {
        let velocities = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
        let mut in_order = velocities;
        turn_headings(&mut in_order, &[5, 9, 2], 1, 4, 0.5, false);
        // The same boids, listed in another order.
        let mut shuffled = [0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
        turn_headings(&mut shuffled, &[2, 5, 9], 1, 4, 0.5, false);
        assert_eq!(in_order[0..3], shuffled[3..6]);
        assert_eq!(in_order[3..6], shuffled[6..9]);
        assert_eq!(in_order[6..9], shuffled[0..3]);
        // Another step or another seed: other turns.
        let mut later = velocities;
        turn_headings(&mut later, &[5, 9, 2], 1, 5, 0.5, false);
        assert_ne!(later, in_order);
        let mut other_seed = velocities;
        turn_headings(&mut other_seed, &[5, 9, 2], 2, 4, 0.5, false);
        assert_ne!(other_seed, in_order);
    }

    #[test]
    fn a_boid_at_rest_stays_at_rest() {
        let mut velocities = [0.0; 3];
        turn_headings(&mut velocities, &[0], 1, 1, 2.0, false);
        assert_eq!(velocities, [0.0; 3]);
    }

    #[test]
    fn the_numbers_are_uniform_with_unit_variance_once_scaled() {
        let n = 200_000u64;
        let (mut sum, mut sum2) = (0.0f64, 0.0f64);
        for k in 0..n {
            let x = f64::from(signed_unit(mix(k)) * UNIT_SPREAD);
            sum += x;
            sum2 += x * x;
        }
        let mean = sum / n as f64;
        let variance = sum2 / n as f64 - mean * mean;
        assert!(mean.abs() < 0.01, "mean {mean}");
        assert!((variance - 1.0).abs() < 0.01, "variance {variance}");
    }
}
