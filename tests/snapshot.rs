//! Snapshots (issue 28): a flock read back from its snapshot steps on bit for bit as the
//! original would, in every mode (its next snapshot is the original's, byte for byte), and
//! so do its own calls after (`set_count` draws from the generator). What is refused, and
//! why: tests/snapshot_refusals.rs; the binding in Chromium: tests/web.rs.
//!
//! Natively, and in the SIMD128 build in headless Chromium (`cargo test --target
//! wasm32-unknown-unknown --test snapshot`): each build's own arithmetic, bit for bit.

use boids::sim::{Flock, Kind, Param, Settings, PARAMS};
use glam::Vec3;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test_configure!(run_in_browser);

const STEP: f32 = 1.0 / 60.0;
/// Steps both flocks take after the restore.
const AFTER: usize = 120;

/// A flock of `count` with `settings`, seed `seed`.
fn flock(count: usize, seed: u32, settings: Settings) -> Flock {
    Flock::with_settings(count, Some(seed), settings)
}

/// Steps `flock` until the grid's choice of rows rests on the last step's rows: the last
/// step had two rows to a cell and its candidates a boid lie in the band where the grid
/// keeps its rows (a flock restored without them would drop to one, and sum its
/// neighbours in another order). Mirrors `Flock::scan_rows_per_cell` (flock/look.rs:
/// 180 and 150 candidates in a window three rows high, two rows to a cell when crowded).
/// Returns the steps taken, at least `least`; `None` if the flock never got there in
/// `most` steps.
fn fly_into_the_band_of_rows(flock: &mut Flock, least: usize, most: usize) -> Option<usize> {
    let mut rows = 1.0f32;
    for step in 0..most {
        let crowding = flock.mean_candidates() * 3.0 / (2.0 + 1.0 / rows);
        rows = if crowding >= 180.0 {
            2.0
        } else if crowding < 150.0 {
            1.0
        } else {
            if rows == 2.0 && step >= least {
                return Some(step);
            }
            rows
        };
        flock.step(STEP);
    }
    None
}

/// The modes: a name, the flock and how many steps it flies before its snapshot. Each runs
/// other stages of the step, or carries other state from one step to the next.
fn modes() -> Vec<(&'static str, Flock, usize)> {
    let walled = Settings::walled;
    let mut obstacles = flock(500, 5, walled());
    let centre = Vec3::splat(0.5 * obstacles.world_size());
    obstacles.add_obstacle(centre, 4.0);
    obstacles.add_obstacle(centre + Vec3::new(8.0, -3.0, 2.0), 2.5);
    obstacles.set_pointer(centre + Vec3::new(-6.0, 4.0, 0.0), true);
    let mut repelled = flock(
        400,
        6,
        Settings {
            flat: true,
            ..walled()
        },
    );
    let corner = Vec3::splat(0.3 * repelled.world_size());
    repelled.set_pointer(corner, false);
    let mut busy = flock(
        600,
        11,
        Settings {
            predators: 2,
            leaders: 1,
            species: 3,
            wind_strength: 2.0,
            noise: 0.5,
            field_of_view: 240.0,
            ..walled()
        },
    );
    busy.add_obstacle(Vec3::ZERO, 3.0);
    vec![
        ("fresh: never stepped", Flock::new(300, Some(1)), 0),
        (
            "the open sky, 3D (the defaults)",
            Flock::new(600, Some(1)),
            40,
        ),
        ("walls, 3D", flock(600, 2, walled()), 40),
        (
            "wrap",
            flock(
                600,
                3,
                Settings {
                    wrap: true,
                    ..walled()
                },
            ),
            40,
        ),
        (
            "2D, walls",
            flock(
                500,
                4,
                Settings {
                    flat: true,
                    ..walled()
                },
            ),
            40,
        ),
        (
            "2D, the open sky",
            flock(
                500,
                4,
                Settings {
                    flat: true,
                    ..Settings::default()
                },
            ),
            40,
        ),
        (
            "three species",
            flock(
                600,
                7,
                Settings {
                    species: 3,
                    ..Settings::default()
                },
            ),
            40,
        ),
        (
            "nearest k",
            flock(
                500,
                8,
                Settings {
                    topological: true,
                    nearest_k: 5,
                    ..walled()
                },
            ),
            40,
        ),
        // Five seconds in: hawk 0 is diving, the others circle at other points of their cycle.
        (
            "hawks mid-hunt",
            flock(
                600,
                9,
                Settings {
                    predators: 3,
                    ..Settings::default()
                },
            ),
            300,
        ),
        (
            "leaders",
            flock(
                500,
                10,
                Settings {
                    leaders: 2,
                    ..walled()
                },
            ),
            100,
        ),
        ("obstacles and an attracting pointer", obstacles, 60),
        ("2D, a repelling pointer", repelled, 60),
        (
            "noise",
            flock(
                500,
                12,
                Settings {
                    noise: 1.5,
                    ..walled()
                },
            ),
            40,
        ),
        (
            "hawks, a leader, species, wind, noise, an obstacle",
            busy,
            200,
        ),
        // The swarm's frontier: a past of 0.5 s half read (the snapshot carries it), lost
        // messages, failures that lie, bold members.
        (
            "a drone swarm: delay, loss, wrong headings, bold members",
            flock(
                500,
                13,
                Settings {
                    delay: 0.5,
                    message_loss: 0.3,
                    failures: 0.2,
                    failure_mode: 2,
                    roles: 0.3,
                    ..walled()
                },
            ),
            50,
        ),
        (
            "a drone swarm, 2D, nearest k: delay, halting failures",
            flock(
                400,
                14,
                Settings {
                    flat: true,
                    topological: true,
                    nearest_k: 6,
                    delay: 0.25,
                    failures: 0.3,
                    failure_mode: 1,
                    ..walled()
                },
            ),
            40,
        ),
    ]
}

/// Steps both flocks `steps` times (one step of 0.05 s, three substeps, among them) and
/// checks they stay equal bit for bit: their snapshots, and what a caller reads.
fn fly_together(name: &str, original: &mut Flock, copy: &mut Flock, steps: usize) {
    for step in 0..steps {
        let dt = if step == steps / 2 { 0.05 } else { STEP };
        original.step(dt);
        copy.step(dt);
        if step % 30 == 29 || step + 1 == steps {
            assert!(
                original.snapshot() == copy.snapshot(),
                "{name}: the flocks part at step {step}"
            );
        }
    }
    let same = |what: &str, a: &[f32], b: &[f32]| {
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(a), bits(b), "{name}: {what}");
    };
    same("positions", original.positions(), copy.positions());
    same("velocities", original.velocities(), copy.velocities());
    same(
        "hawks",
        original.predator_positions(),
        copy.predator_positions(),
    );
    same(
        "hawks' velocities",
        original.predator_velocities(),
        copy.predator_velocities(),
    );
    same(
        "leaders",
        original.leader_positions(),
        copy.leader_positions(),
    );
    assert_eq!(original.ids(), copy.ids(), "{name}: ids");
    assert_eq!(original.species(), copy.species(), "{name}: species");
    assert_eq!(original.obstacles(), copy.obstacles(), "{name}: obstacles");
    assert_eq!(original.pointer(), copy.pointer(), "{name}: the pointer");
    assert_eq!(original.elapsed(), copy.elapsed(), "{name}: time");
    assert_eq!(original.settings(), copy.settings(), "{name}: settings");
}

/// Restores `original` from its snapshot, checks the copy writes the same bytes, flies both
/// `AFTER` steps, then adds and removes boids in both (drawn from the generator).
fn continues_bit_for_bit(name: &str, mut original: Flock) {
    let bytes = original.snapshot();
    let mut copy = Flock::from_snapshot(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        copy.snapshot() == bytes,
        "{name}: read back, it writes other bytes"
    );
    let before = original.positions().to_vec();
    fly_together(name, &mut original, &mut copy, AFTER);
    let moved = original
        .positions()
        .iter()
        .zip(&before)
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        moved > original.positions().len() / 2,
        "{name}: the flock flew"
    );
    // The generator picks where new boids go and which go (the next ids are the same too).
    let count = original.len();
    for flock in [&mut original, &mut copy] {
        flock.set_count(count + 37);
    }
    fly_together(name, &mut original, &mut copy, 5);
    for flock in [&mut original, &mut copy] {
        flock.set_count(count - 20);
    }
    fly_together(name, &mut original, &mut copy, 5);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn a_flock_read_from_its_snapshot_continues_bit_for_bit_in_every_mode() {
    for (name, mut original, before) in modes() {
        for _ in 0..before {
            original.step(STEP);
        }
        continues_bit_for_bit(name, original);
    }
}

/// Rebuild is a true fresh start: a flock with noise (whose turns draw from the step count),
/// flown and rebuilt, is byte for byte a new flock of the same seed and settings, rebuilt.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn a_rebuilt_flock_is_a_new_one() {
    let noisy = || {
        let mut flock = Flock::new(300, Some(4));
        flock.set(Param::Noise, 0.5).unwrap();
        flock
    };
    let mut flown = noisy();
    for _ in 0..90 {
        flown.step(STEP);
    }
    flown.rebuild();
    let mut fresh = noisy();
    fresh.rebuild();
    assert_eq!(
        flown.snapshot(),
        fresh.snapshot(),
        "rebuilt after 90 steps vs new"
    );
    for _ in 0..30 {
        flown.step(STEP);
        fresh.step(STEP);
    }
    assert_eq!(flown.positions(), fresh.positions());
}

/// Mid-run, a few hundred steps in: in a box, at a step where the grid's rows rest on the
/// step before's; under the open sky, 400 steps in.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn a_flock_restored_mid_run_continues_bit_for_bit() {
    let mut walled = flock(600, 2, Settings::walled());
    // Each build meets the band at other steps (natively from step 308).
    let steps = fly_into_the_band_of_rows(&mut walled, 200, 2000);
    assert!(steps.is_some(), "never in the band of rows");
    continues_bit_for_bit("walls, 3D, mid-run, in the band of rows", walled);
    let mut sky = Flock::new(600, Some(1));
    for _ in 0..400 {
        sky.step(STEP);
    }
    continues_bit_for_bit("the open sky, mid-run", sky);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn sizes_are_28_bytes_a_boid_and_a_species_byte_with_species() {
    // The frame (17), 33 parameters (8 bytes each), the flock's own figures (45), the
    // behaviours' four counts and the delay's past (its frame count: 0 frames).
    let fixed = 17 + 33 * 8 + 45 + 4 + 4;
    for count in [50, 1500, 10_000] {
        let flock = Flock::new(count, Some(1));
        assert_eq!(flock.snapshot().len(), fixed + 28 * count, "{count} boids");
    }
    let species = flock(
        1500,
        1,
        Settings {
            species: 2,
            ..Settings::default()
        },
    );
    assert_eq!(species.snapshot().len(), fixed + 29 * 1500);
    assert!(species.snapshot().len() <= Flock::largest_snapshot());
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn a_snapshot_holds_every_parameter_the_table_reads() {
    // Every parameter away from its default (toggles flipped, in the table's order: wrap
    // on turns the sky off), and the world size set or following the count.
    for world_size in [true, false] {
        let mut flock = Flock::new(300, Some(31));
        for spec in PARAMS {
            let value = match spec.kind {
                Kind::Toggle => 1.0 - spec.default,
                _ => spec.min + 0.37 * (spec.max - spec.min),
            };
            let changes =
                spec.param != Param::Count && (spec.param != Param::WorldSize || world_size);
            if changes {
                flock.set(spec.param, value).unwrap();
            }
        }
        let copy = Flock::from_snapshot(&flock.snapshot()).unwrap();
        assert_eq!(
            copy.settings(),
            flock.settings(),
            "world size set: {world_size}"
        );
        for spec in PARAMS {
            let (read, original) = (copy.get(spec.param), flock.get(spec.param));
            assert_eq!(read, original, "{}", spec.name);
            if spec.param != Param::Count && (spec.param != Param::WorldSize || world_size) {
                assert_ne!(read, spec.default, "{} left at its default", spec.name);
            }
        }
    }
}
