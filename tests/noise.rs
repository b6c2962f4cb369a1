//! Noise (`noise`, rad/√s) and the zone of orientation (`alignmentRadius`): the two
//! parameters the experiments sweep. Noise's effect must not depend on the step (a flock
//! stepped at 1/120 s and at 1/60 s has the same statistics), must follow rotational
//! diffusion's law, and must disorder the defaults at its top; neither may change anything
//! when off.

use boids::sim::{Flock, Param, Settings, NOISE_MAX};
use glam::Vec3;

/// `count` boids that ignore one another (every weight 0) in a large wrapped world.
fn free_boids(count: usize, flat: bool, noise: f32) -> Flock {
    Flock::with_settings(
        count,
        Some(5),
        Settings {
            separation: 0.0,
            alignment: 0.0,
            cohesion: 0.0,
            wrap: true,
            flat,
            noise,
            world_size: Some(200.0),
            ..Settings::walled()
        },
    )
}

/// Each boid's unit heading, by id.
fn headings_by_id(flock: &Flock) -> Vec<Vec3> {
    let mut headings = vec![Vec3::ZERO; flock.len()];
    for (v, &id) in flock.velocities().chunks_exact(3).zip(flock.ids()) {
        headings[id as usize] = Vec3::from_slice(v).normalize();
    }
    headings
}

/// ⟨cos θ⟩ between each boid's heading now and after `seconds` stepped at `dt`.
fn memory_of_heading(flat: bool, noise: f32, dt: f32, seconds: f32) -> f32 {
    let mut flock = free_boids(4000, flat, noise);
    let before = headings_by_id(&flock);
    for _ in 0..(seconds / dt).round() as usize {
        flock.step(dt);
    }
    let after = headings_by_id(&flock);
    let sum: f32 = before.iter().zip(&after).map(|(a, b)| a.dot(*b)).sum();
    sum / before.len() as f32
}

#[test]
fn headings_diffuse_at_a_rate_that_does_not_depend_on_the_step() {
    let (noise, seconds) = (0.8f32, 1.5f32);
    for flat in [false, true] {
        // Rotational diffusion: e^(−σ²t) on the sphere, e^(−σ²t/2) on a plane.
        let rate = if flat { 0.5 } else { 1.0 };
        let law = (-rate * noise * noise * seconds).exp();
        let at_60 = memory_of_heading(flat, noise, 1.0 / 60.0, seconds);
        let at_120 = memory_of_heading(flat, noise, 1.0 / 120.0, seconds);
        // 4,000 boids: the mean of cosines has a standard error of about 0.01.
        for (dt, measured) in [("1/60", at_60), ("1/120", at_120)] {
            assert!(
                (measured - law).abs() < 0.04,
                "flat {flat}, dt {dt}: ⟨cos θ⟩ {measured}, law {law}"
            );
        }
        assert!(
            (at_60 - at_120).abs() < 0.04,
            "flat {flat}: {at_60} at 1/60 s against {at_120} at 1/120 s"
        );
    }
    // And without noise a free boid keeps its heading exactly.
    let kept = memory_of_heading(false, 0.0, 1.0 / 60.0, 0.5);
    assert!(kept > 0.9999, "{kept}");
}

/// Polarization averaged over `samples` samples a second apart, after `settle` seconds,
/// of the defaults (1,000 boids, wrapped) with `alignment` and `noise`, stepped at `dt`.
fn settled_polarization(noise: f64, alignment: f64, dt: f32, seed: u32) -> f32 {
    let mut flock = Flock::new(1000, Some(seed));
    flock.set(Param::Wrap, 1.0).unwrap();
    flock.set(Param::Alignment, alignment).unwrap();
    flock.set(Param::Noise, noise).unwrap();
    let per_second = (1.0 / dt).round() as usize;
    for _ in 0..12 * per_second {
        flock.step(dt);
    }
    let mut sum = 0.0;
    let samples = 6;
    for _ in 0..samples {
        for _ in 0..per_second {
            flock.step(dt);
        }
        sum += flock.polarization();
    }
    sum / samples as f32
}

#[test]
fn a_noisy_flock_has_the_same_order_at_either_step() {
    let (at_60, at_120) = (
        settled_polarization(1.5, 2.0, 1.0 / 60.0, 3),
        settled_polarization(1.5, 2.0, 1.0 / 120.0, 3),
    );
    assert!(
        (at_60 - at_120).abs() < 0.12,
        "polarization {at_60} at 1/60 s against {at_120} at 1/120 s"
    );
}

#[test]
fn order_falls_as_noise_rises_and_the_top_disorders_the_defaults() {
    let calm = settled_polarization(0.0, 2.5, 1.0 / 60.0, 1);
    let some = settled_polarization(NOISE_MAX * 0.4, 2.5, 1.0 / 60.0, 1);
    let top_defaults = settled_polarization(NOISE_MAX, 1.0, 1.0 / 60.0, 1);
    assert!(calm > 0.8, "no noise, strong alignment: {calm}");
    assert!(some < calm, "{some} with noise against {calm} without");
    // Random headings of 1,000 boids have a polarization of about 1/√1000 ≈ 0.03.
    assert!(
        top_defaults < 0.3,
        "the defaults at the top noise: {top_defaults}"
    );
}

#[test]
fn the_same_seed_gives_the_same_noisy_flock() {
    let run = || {
        let mut flock = Flock::new(500, Some(9));
        flock.set(Param::Noise, 2.0).unwrap();
        for _ in 0..120 {
            flock.step(1.0 / 60.0);
        }
        (flock.positions().to_vec(), flock.velocities().to_vec())
    };
    assert_eq!(run(), run());
    let mut calm = Flock::new(500, Some(9));
    let mut noisy = calm.clone();
    noisy.set(Param::Noise, 2.0).unwrap();
    calm.step(1.0 / 60.0);
    noisy.step(1.0 / 60.0);
    assert_ne!(calm.velocities(), noisy.velocities(), "noise turns boids");
}

#[test]
fn noise_set_back_to_zero_changes_nothing() {
    let mut untouched = Flock::new(600, Some(4));
    let mut toggled = untouched.clone();
    toggled.set(Param::Noise, 3.0).unwrap();
    toggled.set(Param::Noise, 0.0).unwrap();
    for _ in 0..200 {
        untouched.step(1.0 / 60.0);
        toggled.step(1.0 / 60.0);
    }
    assert_eq!(untouched.positions(), toggled.positions());
    assert_eq!(untouched.velocities(), toggled.velocities());
}

/// The zone of orientation at the perception radius is the perception radius: there the
/// step takes its usual path and nothing changes. Just below it (one f32 step under the
/// radius), the step takes the zoned path (`scan::zone_sum`, one boid at a time), which must
/// sum the same neighbours, to rounding (it adds them in another order), but for a boid
/// with a neighbour in the sliver between the two squared radii (two f32 steps wide): rare.
/// Each step starts both from the same state, so one such boid does not spread.
#[test]
fn the_alignment_radius_at_the_perception_radius_changes_nothing() {
    // The last two with wind and a hawk: boids that do not glide, moved one at a time
    // (after the scan when zoned, inside it when not).
    let cases = [
        (1, 270.0, 0.0, 0.0),
        (2, 360.0, 1.0, 0.0),
        (3, 120.0, 0.0, 0.0),
        (4, 270.0, 0.0, 3.0),
        (5, 360.0, 1.0, 3.0),
    ];
    for (seed, fov, wrap, wind) in cases {
        // In a box, as the cases' wrap says (the open sky's dense start makes the flock
        // more sensitive to the last bit of the radius: 4 boid-steps in 360,000 differ).
        let mut plain = Flock::with_settings(1200, Some(seed), Settings::walled());
        plain.set(Param::FieldOfView, fov).unwrap();
        plain.set(Param::Wrap, wrap).unwrap();
        plain.set(Param::WindStrength, wind).unwrap();
        plain
            .set(Param::Predators, if wind > 0.0 { 1.0 } else { 0.0 })
            .unwrap();
        let perception = plain.get(Param::Perception) as f32;
        let mut at = plain.clone();
        at.set(Param::AlignmentRadius, f64::from(perception))
            .unwrap();
        let (mut boid_steps, mut differing) = (0, 0);
        for _ in 0..300 {
            let mut just_under = plain.clone();
            just_under
                .set(Param::AlignmentRadius, f64::from(perception.next_down()))
                .unwrap();
            for flock in [&mut plain, &mut at, &mut just_under] {
                flock.step(1.0 / 60.0);
            }
            assert_eq!(plain.positions(), at.positions(), "seed {seed}");
            assert_eq!(plain.velocities(), at.velocities(), "seed {seed}");
            let boids = plain.velocities().chunks_exact(3);
            let apart = |a: &[f32], b: &[f32]| {
                a.iter()
                    .zip(b)
                    .any(|(a, b)| (a - b).abs() > 1e-4 * (1.0 + b.abs()))
            };
            differing += boids
                .zip(just_under.velocities().chunks_exact(3))
                .filter(|(a, b)| apart(a, b))
                .count();
            boid_steps += plain.len();
        }
        assert!(
            differing <= 3,
            "seed {seed}: {differing} of {boid_steps} boid-steps differ on the zoned path"
        );
    }
}

#[test]
fn a_narrow_zone_of_orientation_orders_the_flock_less() {
    let run = |zone: f64| {
        let mut flock = Flock::new(1000, Some(2));
        flock.set(Param::Wrap, 1.0).unwrap();
        flock.set(Param::Alignment, 2.5).unwrap();
        flock.set(Param::AlignmentRadius, zone).unwrap();
        for _ in 0..900 {
            flock.step(1.0 / 60.0);
        }
        let mut sum = 0.0;
        for _ in 0..5 {
            for _ in 0..60 {
                flock.step(1.0 / 60.0);
            }
            sum += flock.polarization();
        }
        sum / 5.0
    };
    let (whole, narrow) = (run(12.0), run(0.5));
    assert!(
        narrow < whole - 0.3,
        "zone of orientation 0.5: {narrow}; the whole perception radius: {whole}"
    );
}
