//! The open sky (issue 27): a world `SKY_SCALE` views wide where the flock starts together
//! around home and is drawn back toward it instead of meeting walls.

use boids::sim::{Flock, Param, Settings};
use glam::Vec3;

fn centre(flock: &Flock) -> Vec3 {
    let p = flock.positions();
    let sum = p
        .chunks_exact(3)
        .fold(Vec3::ZERO, |a, q| a + Vec3::from_slice(q));
    sum / (p.len() / 3) as f32
}

fn farthest_from(flock: &Flock, point: Vec3) -> f32 {
    flock
        .positions()
        .chunks_exact(3)
        .map(|q| Vec3::from_slice(q).distance(point))
        .fold(0.0, f32::max)
}

#[test]
fn the_sky_is_three_views_wide_and_excludes_wrap() {
    let mut flock = Flock::with_settings(1500, Some(3), Settings::walled());
    let view = flock.world_size();
    flock.set(Param::Wrap, 1.0).unwrap();
    assert_eq!(flock.set(Param::Sky, 1.0), Ok(1.0));
    assert_eq!(flock.get(Param::Wrap), 0.0, "the sky turns wrap off");
    assert!(flock.is_sky());
    assert_eq!(flock.world_size(), 3.0 * view);
    assert_eq!(flock.view_size(), view);
    assert_eq!(
        flock.get(Param::WorldSize),
        f64::from(view),
        "worldSize is the view's"
    );
    // The flock starts together: a ball of 0.15 views around home.
    let home = flock.home();
    assert_eq!(home, Vec3::splat(1.5 * view));
    assert!(farthest_from(&flock, home) <= 0.15 * view + 1e-3);
    // Wrap turns the sky off, and the world is the view again.
    flock.set(Param::Wrap, 1.0).unwrap();
    assert_eq!(flock.get(Param::Sky), 0.0);
    assert_eq!(flock.world_size(), view);
    assert!(flock.positions().iter().all(|&p| (0.0..=view).contains(&p)));
}

#[test]
fn the_flock_stays_near_home_and_grows_about_it() {
    let mut flock = Flock::new(1500, Some(5));
    flock.set(Param::Sky, 1.0).unwrap();
    flock.set(Param::HomeRange, 0.25).unwrap();
    let view = flock.view_size();
    for second in 1..=60 {
        for _ in 0..60 {
            flock.step(1.0 / 60.0);
        }
        // Free within a quarter view of home, then drawn back: the flock's centre stays
        // within a view of home, two thirds of the way to the sky's edge. A polarized
        // flock flies through home and out the other side past the pull's reach (0.5
        // views) before it turns: seed 5 swings out to 0.49, 0.80, 0.67, 0.60, then
        // 0.5-0.6 views every 10 s or so.
        let off = centre(&flock).distance(flock.home());
        assert!(off < view, "second {second}: {off} from home");
        assert!(flock.velocities().iter().all(|v| v.is_finite()));
    }
    // More boids: the sky grows about home, and the flock keeps its place relative to it.
    let before = centre(&flock) - flock.home();
    flock.set(Param::Count, 3000.0).unwrap();
    assert_eq!(flock.world_size(), 3.0 * flock.view_size());
    assert!(flock.view_size() > view);
    let after = centre(&flock) - flock.home();
    assert!(
        after.length() < before.length() + 0.3 * flock.view_size(),
        "{before} -> {after}"
    );
}

#[test]
fn a_flat_sky_stays_flat() {
    let mut flock = Flock::new(800, Some(2));
    flock.set(Param::Flat, 1.0).unwrap();
    flock.set(Param::Sky, 1.0).unwrap();
    assert_eq!(flock.home().z, 0.0);
    for _ in 0..600 {
        flock.step(1.0 / 60.0);
    }
    assert!(flock.positions().chunks_exact(3).all(|p| p[2] == 0.0));
    let off = centre(&flock).distance(flock.home());
    assert!(off < 0.5 * flock.view_size(), "{off}");
}

#[test]
fn an_aligned_flock_roams_past_its_home_range() {
    // The sky is not a cage: a flock that flies straight goes past the home range before
    // the pull turns it. (With the pull switched off, the check of the test above fails
    // within 10 s.)
    let mut flock = Flock::new(1500, Some(5));
    flock.set(Param::Sky, 1.0).unwrap();
    flock.set(Param::HomeRange, 0.5).unwrap();
    flock.set(Param::Alignment, 5.0).unwrap();
    let view = flock.view_size();
    let mut farthest = 0.0f32;
    for _ in 0..1200 {
        flock.step(1.0 / 60.0);
        farthest = farthest.max(centre(&flock).distance(flock.home()));
    }
    assert!(farthest > 0.25 * view, "an aligned flock roams: {farthest}");
}

#[test]
fn hawks_start_and_leaders_loop_in_the_view_around_home() {
    // Not across the sky, three views wide: a loop or a hawk out there would fly out of the
    // picture and far from the flock.
    let mut flock = Flock::new(1500, Some(4));
    assert!(flock.is_sky());
    flock.set(Param::Predators, 3.0).unwrap();
    flock.set(Param::Leaders, 2.0).unwrap();
    let (home, view) = (flock.home(), flock.view_size());
    let within_view = |p: &[f32]| {
        p.chunks_exact(3)
            .all(|q| (Vec3::from_slice(q) - home).abs().max_element() <= 0.5 * view)
    };
    assert!(
        within_view(flock.predator_positions()),
        "the hawks start in view"
    );
    assert!(
        within_view(flock.leader_positions()),
        "the leaders start in view"
    );
    assert!(
        within_view(&flock.leader_path(64)),
        "the leaders' loop lies in view"
    );
    for _ in 0..300 {
        flock.step(1.0 / 60.0);
    }
    assert!(
        within_view(flock.leader_positions()),
        "the leaders fly the loop in view"
    );
}
