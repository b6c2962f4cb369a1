//! The trajectory is pinned (issue 12): a checksum of every position after 1,000 steps of
//! seeded flocks, one per mode, taken before the refactor of `src/sim/`. A refactor that
//! changes any arithmetic of the step — its order, a fused operation, one boid's neighbour
//! more or less — changes a checksum; one that only moves code keeps them all.
//!
//! The same file runs natively (`cargo test`) and in both wasm builds in headless Chromium
//! (`cargo test --target wasm32-unknown-unknown --test trajectory`, plain and with
//! `scripts/relaxed-env.sh`): the scan runs different code on each (the portable lanes
//! natively, SIMD128 in wasm, fused multiply-adds with relaxed SIMD), so each has its own
//! pinned values. A deliberate change of behaviour updates them; the failure message prints
//! the new ones.

use boids::sim::{Flock, Settings};
use glam::Vec3;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test_configure!(run_in_browser);

const STEPS: usize = 1_000;

/// FNV-1a over the bits of every coordinate, in the flock's own (grid) order.
fn checksum(values: &[f32]) -> u64 {
    values.iter().fold(0xcbf2_9ce4_8422_2325, |hash, value| {
        value.to_bits().to_le_bytes().iter().fold(hash, |h, byte| {
            (h ^ u64::from(*byte)).wrapping_mul(0x100_0000_01b3)
        })
    })
}

/// The modes pinned: each runs other stages of the step.
fn flocks() -> Vec<(&'static str, Flock)> {
    let mut busy = Flock::with_settings(
        600,
        Some(11),
        Settings {
            predators: 2,
            leaders: 1,
            species: 3,
            wind_strength: 2.0,
            wrap: false,
            field_of_view: 240.0,
            ..Settings::walled()
        },
    );
    busy.add_obstacle(Vec3::ZERO, 3.0);
    busy.set_pointer(Vec3::new(5.0, 2.0, -3.0), true);
    vec![
        (
            "walls 3D",
            Flock::with_settings(800, Some(7), Settings::walled()),
        ),
        (
            "2D",
            Flock::with_settings(
                800,
                Some(8),
                Settings {
                    flat: true,
                    ..Settings::walled()
                },
            ),
        ),
        (
            "nearest-k",
            Flock::with_settings(
                600,
                Some(9),
                Settings {
                    topological: true,
                    nearest_k: 7,
                    ..Settings::walled()
                },
            ),
        ),
        (
            "hawks, leader, species, wind, walls, obstacle, pointer",
            busy,
        ),
        ("defaults: the open sky 3D", Flock::new(800, Some(7))),
    ]
}

/// (mode, checksum of positions, checksum of velocities) after `STEPS` steps of 1/60 s.
fn measured() -> Vec<(&'static str, u64, u64)> {
    flocks()
        .into_iter()
        .map(|(name, mut flock)| {
            let (count, start) = (flock.len(), flock.positions().to_vec());
            for _ in 0..STEPS {
                flock.step(1.0 / 60.0);
            }
            // What is pinned is a flock that flew: every boid there, finite, and moved (a
            // checksum of a frozen or NaN flock would pin just as well).
            let (p, v) = (flock.positions(), flock.velocities());
            assert_eq!((p.len(), v.len()), (3 * count, 3 * count), "{name}");
            assert!(p.iter().chain(v).all(|x| x.is_finite()), "{name}");
            let moved = p
                .chunks(3)
                .zip(start.chunks(3))
                .filter(|(a, b)| a != b)
                .count();
            assert_eq!(moved, count, "{name}: every boid moved");
            (
                name,
                checksum(flock.positions()),
                checksum(flock.velocities()),
            )
        })
        .collect()
}

/// The pinned values of this build.
fn pinned() -> [(u64, u64); 5] {
    if cfg!(all(target_arch = "wasm32", target_feature = "relaxed-simd")) {
        RELAXED
    } else if cfg!(target_arch = "wasm32") {
        SIMD128
    } else {
        NATIVE
    }
}

// Updated once, deliberately (issue 13): the field of view became `rules::Sight`, which
// tests `heading·offset ≥ cos(½fov)·distance` by the sign of `u = heading/|cos|·offset`
// (`min(u,0)² ≤ d²` or `max(u,0)² ≥ d²`) instead of `a·|a| + GLANCE > c·|c|·d²`; the same
// cone, decided differently at its very edge. That moved the native 2D flock and the
// SIMD128 3D one; the others kept their values.
// And once more (issue 13): in a crowded flock the scan's grid has two rows of cells along
// y to a cell's width (`scan::ROWS_PER_CELL`, chosen each step by the candidates of the
// step before), so a window holds fewer candidates, in another order: the same neighbours,
// summed in another order. The 3D defaults and the busy flock moved in all three builds; the
// 2D flock (never crowded enough) and nearest-k's (its grid keeps one row a cell) kept
// their values.
// And the default world became the open sky (issue 27): the 3D defaults, pinned before in a
// box, now fly in a box as "walls 3D" (their values kept), and the defaults are pinned
// under the sky as a fifth flock; under the sky the grid's cells tile the cube around the
// flock, not the sky, which sums the same neighbours in another order.
// And the default home range became 0.22 views, not 0.2 (issue 27: at 10,000 boids the
// defaults circled or shed a group within 0.2): the sky's defaults moved in all three builds.
const NATIVE: [(u64, u64); 5] = [
    (0x4da80205f4c1672d, 0x26d65eb836f8ffbd),
    (0x1b63c70ba0f28ce8, 0xd1174ae8699f56c9),
    (0x9f02edf38eab9350, 0x753e374ff293aedd),
    (0x0fb622fa790b14f3, 0xb932f8668a531f56),
    (0x5e932926fa7fc4b6, 0x31046243a653fc07),
];
const SIMD128: [(u64, u64); 5] = [
    (0x0c574b370f31d49a, 0xc238061342086340),
    (0xab14501a531fe2e2, 0xd13752df4df1e27a),
    (0x5e8b6a3c798ccacf, 0x6c3feff56bbc26cf),
    (0x89573549d0956e58, 0xb88fd66fa9f12929),
    (0x598b083504275029, 0x0556daa2c0a11a9a),
];
const RELAXED: [(u64, u64); 5] = [
    (0x4d923f73ee5ecf28, 0x927346acba0c039a),
    (0x66720082ea53eb96, 0x92b3a2ed1de2e145),
    (0x5e8b6a3c798ccacf, 0x6c3feff56bbc26cf),
    (0x64b347f4b39d496f, 0x9b890cf1214db6d9),
    (0xb3f15aa22213a9e2, 0x8dd5248c0fa27623),
];

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn the_trajectory_after_1000_steps_is_unchanged() {
    let found = measured();
    let now: Vec<(u64, u64)> = found.iter().map(|(_, p, v)| (*p, *v)).collect();
    let report: Vec<String> = found
        .iter()
        .map(|(name, p, v)| format!("{name}: ({p:#018x}, {v:#018x})"))
        .collect();
    assert_eq!(
        now,
        pinned().to_vec(),
        "the trajectory changed; measured now: {report:#?}"
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn the_checksum_sees_one_bit() {
    let mut values = vec![1.0_f32, -2.5, 3.25];
    let before = checksum(&values);
    values[1] = f32::from_bits(values[1].to_bits() ^ 1);
    assert_ne!(checksum(&values), before);
    // ...and the order of the values.
    assert_ne!(checksum(&[1.0, 2.0]), checksum(&[2.0, 1.0]));
}
