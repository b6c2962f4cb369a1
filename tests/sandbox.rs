//! The classic bugs' sandbox (issue 42, item 6; `sim::sandbox`): the correct textbook step
//! flocks; each bug switch gives its symptom, measured; no NaN ever leaves the sandbox, whatever
//! the switches; turning a bug off restores the correct step.
// Native only: the page's module has no sandbox (the `lab` feature's worker module has it,
// checked in tests/browser/search-lab.test.mjs).
#![cfg(not(target_arch = "wasm32"))]

use boids::sim::sandbox::{Bug, Sandbox, Symptoms};
use proptest::prelude::*;

const SEEDS: [u32; 3] = [1, 7, 42];

/// `count` boids by `seed` with `bugs` on, after `seconds`.
fn run(count: usize, seed: u32, bugs: &[Bug], seconds: f32) -> Sandbox {
    let mut sandbox = Sandbox::new(count, seed);
    for &bug in bugs {
        sandbox.set_bug(bug, true);
    }
    for _ in 0..(seconds * 4.0).round() as usize {
        sandbox.step(0.25);
    }
    sandbox
}

fn all_finite(sandbox: &Sandbox) -> bool {
    sandbox
        .positions()
        .chain(sandbox.velocities())
        .flatten()
        .all(f32::is_finite)
}

/// The correct step: nobody lost, the speed held near cruise, spaced at about the
/// separation radius, ordered within 20 s.
#[test]
fn the_correct_step_flocks() {
    for seed in SEEDS {
        let s = run(200, seed, &[], 20.0).symptoms();
        assert_eq!(s.lost, 0, "seed {seed}: {s:?}");
        assert!((0.75..=2.0).contains(&s.speed), "seed {seed}: {s:?}");
        assert!(s.nearest > 0.5, "seed {seed}: {s:?}");
        assert!(s.polarization > 0.6, "seed {seed}: {s:?}");
        assert_eq!(s.checks, 200 * 199);
        assert!(s.neighbours < s.checks / 5, "seed {seed}: {s:?}");
    }
}

/// Itself as a neighbour: 0/0 in separation, every boid lost in the first step, and none of
/// it reaches positions or velocities; turned off, they fly again from where they were.
#[test]
fn counting_itself_loses_every_boid_to_nan_and_nothing_leaks() {
    let mut sandbox = Sandbox::new(200, 7);
    let before: Vec<[f32; 2]> = sandbox.positions().collect();
    sandbox.set_bug(Bug::SelfNeighbour, true);
    sandbox.step(1.0 / 60.0);
    assert_eq!(sandbox.symptoms().lost, 200);
    assert!(all_finite(&sandbox));
    assert_eq!(
        sandbox.positions().collect::<Vec<_>>(),
        before,
        "lost where they were"
    );
    sandbox.step(1.0);
    assert_eq!(
        sandbox.symptoms(),
        Symptoms {
            lost: 200,
            ..Symptoms::default()
        }
    );
    sandbox.set_bug(Bug::SelfNeighbour, false);
    assert_eq!(sandbox.symptoms().lost, 0, "back when the bug is off");
    for _ in 0..20 {
        sandbox.step(0.25);
    }
    let s = sandbox.symptoms();
    assert_eq!(s.lost, 0);
    assert!((0.75..=2.0).contains(&s.speed), "{s:?}");
    assert!(all_finite(&sandbox));
}

/// No speed limit: the speed leaves cruise (here it falls under half within 10 s, alignment
/// averaging the random start headings away) where the limit holds it at ¾ or more.
#[test]
fn no_speed_limit_lets_the_speed_leave_cruise() {
    for seed in SEEDS {
        let s = run(200, seed, &[Bug::NoSpeedLimit], 10.0).symptoms();
        assert!(s.speed < 0.5, "seed {seed}: {s:?}");
        assert_eq!(s.lost, 0);
        let fixed = run(200, seed, &[], 10.0).symptoms();
        assert!(fixed.speed >= 0.75, "seed {seed}: {fixed:?}");
    }
}

/// Separation reversed: the median nearest distance falls below 0.2 of the separation radius
/// within 10 s (boids piled in points); the correct step keeps it above half.
#[test]
fn reversed_separation_collapses_the_flock() {
    for seed in SEEDS {
        let s = run(200, seed, &[Bug::SeparationReversed], 10.0).symptoms();
        assert!(s.nearest < 0.2, "seed {seed}: {s:?}");
        assert!(s.nearest.is_finite() && s.lost == 0, "seed {seed}: {s:?}");
    }
}

/// The forces zeroed before the update: no boid ever turns, so order never forms (the
/// polarization stays at its random start, about 1/√N).
#[test]
fn forces_zeroed_first_never_order() {
    for seed in SEEDS {
        let start = Sandbox::new(200, seed).symptoms().polarization;
        let s = run(200, seed, &[Bug::ForcesZeroedFirst], 20.0).symptoms();
        assert!(
            (s.polarization - start).abs() < 1e-3,
            "seed {seed}: {s:?} from {start}"
        );
        assert!(s.polarization < 0.2, "seed {seed}: {s:?}");
        assert!(
            (s.speed - 1.0).abs() < 1e-3,
            "flying straight on at cruise: {s:?}"
        );
    }
}

/// A huge radius on the all-pairs search: every boid heeds every other, N(N − 1) neighbours
/// a step, where the correct radius heeds under a fifth of the pairs checked.
#[test]
fn a_huge_radius_heeds_everyone() {
    let s = run(300, 1, &[Bug::HugeRadius], 1.0).symptoms();
    assert_eq!(s.neighbours, 300 * 299);
    assert_eq!(s.checks, 300 * 299);
    let fixed = run(300, 1, &[], 1.0).symptoms();
    assert!(fixed.neighbours * 5 < fixed.checks, "{fixed:?}");
}

/// Bad steps do nothing.
#[test]
fn bad_steps_do_nothing() {
    let mut sandbox = Sandbox::new(50, 3);
    let before: Vec<[f32; 2]> = sandbox.positions().collect();
    for dt in [f32::NAN, f32::INFINITY, -1.0, 0.0] {
        sandbox.step(dt);
    }
    assert_eq!(sandbox.positions().collect::<Vec<_>>(), before);
    assert_eq!(Sandbox::new(0, 1).len(), 2, "clamped to the fewest");
    assert_eq!(
        Sandbox::new(1_000_000, 1).len(),
        2000,
        "clamped to the most"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Whatever the switches, turned on and off as a student would, no NaN leaves the sandbox:
    /// positions, velocities and every symptom stay finite.
    #[test]
    fn no_nan_ever_leaves(count in 2usize..120, seed in any::<u32>(), flips in prop::collection::vec((0usize..5, any::<bool>()), 1..12)) {
        let mut sandbox = Sandbox::new(count, seed);
        for (bug, on) in flips {
            sandbox.set_bug(Bug::ALL[bug], on);
            sandbox.step(0.25);
            prop_assert!(all_finite(&sandbox));
            let s = sandbox.symptoms();
            prop_assert!([s.speed, s.nearest, s.polarization].iter().all(|v| v.is_finite()), "{:?}", s);
            prop_assert!(s.lost <= count);
        }
    }
}
