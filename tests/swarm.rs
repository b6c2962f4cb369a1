//! The drone swarm's parameters (issue 44): `delay`, `messageLoss`, `failures` with
//! `failureMode`, and `roles`. Each at 0 changes nothing; a delay that grows disorders the
//! flock and brings its members into collision; a message always lost leaves every boid
//! alone; a failed boid never steers; a bold one keeps its own speed; the past a delay
//! needs stays within its cap, and junk is refused. Bit for bit across snapshots and
//! threads: the swarm's modes in tests/snapshot.rs and tests/parts.rs.

use boids::sim::swarm::{history_bytes, most_delay, HISTORY_BUDGET, HISTORY_RATE};
use boids::sim::{Flock, Param, ParamError, Settings, BOLD, FAILED};
use glam::Vec3;

const STEP: f32 = 1.0 / 60.0;

const SWARM: [Param; 5] = [
    Param::Delay,
    Param::MessageLoss,
    Param::Failures,
    Param::FailureMode,
    Param::Roles,
];

fn fly(flock: &mut Flock, steps: usize) {
    for _ in 0..steps {
        flock.step(STEP);
    }
}

/// Each boid's velocity, by id.
fn velocities_by_id(flock: &Flock) -> Vec<Vec3> {
    let mut by_id = vec![Vec3::ZERO; flock.len()];
    for (v, &id) in flock.velocities().chunks_exact(3).zip(flock.ids()) {
        by_id[id as usize] = Vec3::from_slice(v);
    }
    by_id
}

#[test]
fn each_parameter_at_zero_changes_nothing() {
    for settings in [Settings::default(), Settings::walled()] {
        let mut plain = Flock::with_settings(800, Some(4), settings.clone());
        fly(&mut plain, 90);
        for param in SWARM {
            // Set on, flown, then off again: a flock whose swarm is off again steps as
            // one that never had it, from the same state.
            let mut flock = Flock::with_settings(800, Some(4), settings.clone());
            fly(&mut flock, 30);
            let mut twin = flock.clone();
            flock.set(param, 0.5).unwrap();
            if param == Param::FailureMode {
                // A mode without failures is nothing: flown as it is.
                fly(&mut flock, 1);
                fly(&mut twin, 1);
                assert_eq!(flock.positions(), twin.positions(), "{param:?} alone");
            }
            flock.set(param, 0.0).unwrap();
            fly(&mut flock, 60);
            fly(&mut twin, 60);
            assert_eq!(flock.positions(), twin.positions(), "{param:?} back at 0");
            assert_eq!(flock.velocities(), twin.velocities(), "{param:?} back at 0");
        }
        // And set to 0 from the start, the flock is the plain one bit for bit.
        let zeroed = Settings {
            delay: 0.0,
            message_loss: 0.0,
            failures: 0.0,
            failure_mode: 2,
            roles: 0.0,
            ..settings.clone()
        };
        let mut flock = Flock::with_settings(800, Some(4), zeroed);
        fly(&mut flock, 90);
        assert_eq!(flock.snapshot().len(), plain.snapshot().len());
        assert_eq!(flock.positions(), plain.positions());
    }
}

/// The default flock under the open sky with `delay`, seed `seed`: its velocity
/// correlation and collision ratio, each the mean of ten samples over its eleventh to
/// fifteenth second.
fn delayed(delay: f32, seed: u32) -> (f32, f32) {
    let mut flock = Flock::with_settings(
        1500,
        Some(seed),
        Settings {
            delay,
            ..Settings::default()
        },
    );
    fly(&mut flock, 600);
    let (mut correlation, mut collisions) = (0.0, 0.0);
    for _ in 0..10 {
        fly(&mut flock, 30);
        let m = flock.metrics();
        correlation += m.velocity_correlation / 10.0;
        collisions += m.collisions / 10.0;
    }
    (correlation, collisions)
}

#[test]
fn the_later_boids_hear_each_other_the_less_they_fly_together_and_the_more_they_collide() {
    // Measured (1,500 boids, seeds 1–3, means): velocity correlation 0.50, 0.30, 0.02;
    // collisions 2e-6, 6e-6, 4e-5 a pair. The boids' separation is stiff (a push as 1/d, up
    // to the maximum force): heard a tenth of a second late, neighbours ahead seem a unit
    // nearer than they are and the pushes no longer balance.
    let delays = [0.0, 1.0 / 60.0, 0.1];
    let measured: Vec<(f32, f32)> = delays
        .iter()
        .map(|&delay| {
            let runs: Vec<(f32, f32)> = (1..=3).map(|seed| delayed(delay, seed)).collect();
            let mean = |pick: fn(&(f32, f32)) -> f32| runs.iter().map(pick).sum::<f32>() / 3.0;
            (mean(|r| r.0), mean(|r| r.1))
        })
        .collect();
    println!("delay, velocity correlation, collisions: {delays:?} {measured:?}");
    for k in 1..delays.len() {
        let (before, now) = (measured[k - 1], measured[k]);
        assert!(
            now.0 < before.0,
            "velocity correlation falls from {} s to {} s: {measured:?}",
            delays[k - 1],
            delays[k]
        );
        assert!(
            now.1 > before.1,
            "collisions rise from {} s to {} s: {measured:?}",
            delays[k - 1],
            delays[k]
        );
    }
    assert!(
        measured[0].0 > 0.3,
        "without delay the flock flies together"
    );
    assert!(
        measured[2].0 < 0.5 * measured[0].0,
        "a tenth of a second late, it no longer does"
    );
}

#[test]
fn a_message_always_lost_leaves_every_boid_alone() {
    let flown = |loss: f64, weights: f64| {
        let mut flock = Flock::new(1500, Some(2));
        flock.set(Param::MessageLoss, loss).unwrap();
        for rule in [Param::Separation, Param::Alignment, Param::Cohesion] {
            flock.set(rule, weights).unwrap();
        }
        fly(&mut flock, 120);
        flock
    };
    let heard = flown(0.0, 1.0);
    let unheard = flown(1.0, 1.0);
    assert!(
        heard.mean_neighbours() > 5.0,
        "with every message, boids hear neighbours"
    );
    assert!(
        unheard.neighbour_counts().iter().all(|&n| n == 0) && unheard.mean_neighbours() == 0.0,
        "with none, no boid hears anyone"
    );
    // No separation, alignment or cohesion: the rules' weights make no difference, bit for
    // bit, where nothing is heard (and do where it is).
    assert_eq!(unheard.positions(), flown(1.0, 0.0).positions());
    assert_ne!(heard.positions(), flown(0.0, 0.0).positions());
}

#[test]
fn a_failed_boid_never_steers() {
    for mode in 0..3 {
        let mut flock = Flock::new(1500, Some(3));
        flock.set(Param::Failures, 0.3).unwrap();
        flock.set(Param::FailureMode, f64::from(mode)).unwrap();
        flock.set(Param::Predators, 2.0).unwrap();
        fly(&mut flock, 10);
        let failed: Vec<u32> = (0..1500)
            .filter(|&id| flock.traits_of(id) & FAILED != 0)
            .collect();
        let share = failed.len() as f32 / 1500.0;
        assert!((share - 0.3).abs() < 0.04, "a share of 0.3 fails {share}");
        let before = velocities_by_id(&flock);
        let steps = 120;
        fly(&mut flock, steps);
        let after = velocities_by_id(&flock);
        let halt = (-(steps as f32) * STEP / boids::sim::swarm::HALT_TIME).exp();
        for &id in &failed {
            let (v0, v1) = (before[id as usize], after[id as usize]);
            // Under the open sky there is no wall to bounce from: the heading holds.
            assert!(
                v0.normalize().dot(v1.normalize()) > 0.9999,
                "mode {mode}: failed boid {id} turned from {v0} to {v1}"
            );
            let expected = if mode == 1 { halt } else { 1.0 };
            let ratio = v1.length() / v0.length();
            assert!(
                (ratio - expected).abs() < 1e-3,
                "mode {mode}: speed × {ratio}, not {expected}"
            );
        }
        // The others still steer: some turn.
        let turned = (0..1500u32)
            .filter(|id| !failed.contains(id))
            .filter(|&id| {
                before[id as usize]
                    .normalize()
                    .dot(after[id as usize].normalize())
                    < 0.99
            })
            .count();
        assert!(turned > 500, "mode {mode}: working boids turn ({turned})");
    }
}

#[test]
fn bold_members_keep_their_own_speed() {
    let mut flock = Flock::new(1500, Some(5));
    flock.set(Param::Roles, 0.5).unwrap();
    fly(&mut flock, 600);
    let cruise = flock.get(Param::Speed) as f32;
    let (mut bold, mut shy) = (Vec::new(), Vec::new());
    for (v, &id) in flock.velocities().chunks_exact(3).zip(flock.ids()) {
        let speed = Vec3::from_slice(v).length();
        if flock.traits_of(id) & BOLD != 0 {
            bold.push(speed);
        } else {
            shy.push(speed);
        }
    }
    let mean = |s: &[f32]| s.iter().sum::<f32>() / s.len() as f32;
    let (bold, shy) = (mean(&bold), mean(&shy));
    println!("cruise {cruise}: bold {bold}, the others {shy}");
    assert!(
        (bold / cruise - 1.3).abs() < 0.12,
        "bold boids cruise at 1.3×: {bold}"
    );
    assert!((shy / cruise - 1.0).abs() < 0.12, "the others at 1×: {shy}");
}

#[test]
fn the_past_a_delay_keeps_stays_within_its_cap() {
    // What it costs: 1,500 boids, 2 s: 5 MB; 10,000 boids, 2 s: 34 MB; 100,000 boids: a
    // quarter of a second at most (48 MB).
    assert_eq!(history_bytes(2.0, 1500), 122 * 1500 * 28);
    assert!(history_bytes(2.0, 10_000) <= HISTORY_BUDGET);
    assert!((most_delay(100_000) - 0.25).abs() < 1.0 / HISTORY_RATE);

    let mut flock = Flock::new(1500, Some(6));
    assert_eq!(flock.set(Param::Delay, 2.0), Ok(2.0));
    fly(&mut flock, 200);
    let held = flock.snapshot().len();
    assert!(
        held > 120 * 1500 * 28,
        "the snapshot carries the past ({held} bytes)"
    );
    assert!(held < history_bytes(2.0, 1500) + 200_000);

    // 100,000 boids and a second: refused with the delay that count allows, and nothing
    // changed.
    let mut big = Flock::new(100_000, Some(7));
    let refused = big.set(Param::Delay, 1.0).unwrap_err();
    assert!(matches!(refused, ParamError::HistoryTooLarge { .. }));
    let message = refused.message(|x| format!("{x}"));
    assert!(
        message.starts_with("delay: a delay of 1 s at 100000 boids would keep")
            && message.contains("at most 0.25 s"),
        "{message}"
    );
    assert_eq!(big.get(Param::Delay), 0.0);
    assert_eq!(big.set(Param::Delay, 0.25), Ok(0.25));
    // And a count that would outgrow the past a delay keeps is refused the same way.
    let mut flock = Flock::new(20_000, Some(8));
    flock.set(Param::Delay, 1.0).unwrap();
    let refused = flock.set(Param::Count, 50_000.0).unwrap_err();
    assert!(refused.message(|x| format!("{x}")).starts_with("count: "));
    assert_eq!(flock.len(), 20_000);
}

#[test]
fn junk_is_refused_and_the_flock_stays_whole() {
    let mut flock = Flock::new(600, Some(9));
    for param in SWARM {
        for junk in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let error = flock.set(param, junk).unwrap_err();
            assert!(
                matches!(error, ParamError::NotFinite { .. }),
                "{param:?} {junk}"
            );
            assert_eq!(flock.get(param), 0.0, "{param:?}: {junk} changed nothing");
        }
        let spec = param.spec();
        for value in [-1e30, -1.0, 0.37, 1.5, 7.0, 1e30] {
            let got = flock.set(param, value).unwrap();
            assert!(
                (spec.min..=spec.max).contains(&got),
                "{param:?} {value} → {got}"
            );
        }
    }
    fly(&mut flock, 120);
    assert!(flock
        .positions()
        .iter()
        .chain(flock.velocities())
        .all(|x| x.is_finite()));
}
