//! Each rule does what it says, and the flock as a whole behaves: alignment aligns,
//! cohesion gathers, separation spaces boids out.

mod common;

use boids::sim::{Flock, Settings, MAX_SPEED_FACTOR, MIN_SPEED_FACTOR};
use common::{nearest_neighbour_distances, only, speeds, spread};

const DT: f32 = 1.0 / 60.0;

fn two_boids(settings: Settings, a: [f32; 6], b: [f32; 6]) -> Flock {
    let mut flock = Flock::with_settings(
        0,
        Some(1),
        Settings {
            world_size: Some(40.0),
            ..settings
        },
    );
    flock.set_state(
        &[a[0], a[1], a[2], b[0], b[1], b[2]],
        &[a[3], a[4], a[5], b[3], b[4], b[5]],
    );
    flock
}

/// Acceleration of the boid that started at `x` (boids are re-ordered by the grid).
fn acceleration_of(flock: &mut Flock, x: f32) -> [f32; 3] {
    let a = flock.accelerations(false);
    let i = flock
        .positions()
        .chunks_exact(3)
        .position(|p| p[0] == x)
        .expect("boid present");
    [a[3 * i], a[3 * i + 1], a[3 * i + 2]]
}

#[test]
fn separation_pushes_two_close_boids_apart() {
    let mut flock = two_boids(
        only(1.5, 0.0, 0.0),
        [20.0, 20.0, 20.0, 0.0, 0.0, 10.0],
        [21.0, 20.0, 20.0, 0.0, 0.0, 10.0],
    );
    let a = acceleration_of(&mut flock, 20.0);
    assert!(a[0] < 0.0, "the left boid is pushed left: {a:?}");
    let b = acceleration_of(&mut flock, 21.0);
    assert!(b[0] > 0.0, "the right boid is pushed right: {b:?}");
}

#[test]
fn cohesion_pulls_toward_the_neighbours_centre() {
    let mut flock = two_boids(
        only(0.0, 0.0, 1.0),
        [20.0, 20.0, 20.0, 0.0, 0.0, 10.0],
        [23.0, 20.0, 20.0, 0.0, 0.0, 10.0],
    );
    assert!(acceleration_of(&mut flock, 20.0)[0] > 0.0);
    assert!(acceleration_of(&mut flock, 23.0)[0] < 0.0);
}

#[test]
fn alignment_turns_toward_the_neighbours_heading() {
    let mut flock = two_boids(
        only(0.0, 1.0, 0.0),
        [20.0, 20.0, 20.0, 10.0, 0.0, 0.0],
        [20.0, 22.0, 20.0, 0.0, 0.0, 10.0],
    );
    let a = acceleration_of(&mut flock, 20.0);
    assert!(a[2] > 0.0 && a[0] < 0.0, "turns from +x toward +z: {a:?}");
}

#[test]
fn field_of_view_ignores_a_neighbour_straight_behind() {
    // Boid A flies +x; boid B is 2 units straight behind it.
    let settings = Settings {
        field_of_view: 270.0,
        ..only(1.5, 1.0, 1.0)
    };
    let mut flock = two_boids(
        settings.clone(),
        [20.0, 20.0, 20.0, 10.0, 0.0, 0.0],
        [18.0, 20.0, 20.0, 10.0, 0.0, 0.0],
    );
    let sets = flock.neighbour_sets();
    let a = flock
        .positions()
        .chunks_exact(3)
        .position(|p| p[0] == 20.0)
        .unwrap();
    let b = 1 - a;
    assert!(sets[a].is_empty(), "A must not see B behind it");
    assert_eq!(sets[b], vec![a], "B sees A ahead of it");
    let all_round = Settings {
        field_of_view: 360.0,
        ..settings
    };
    let mut flock = two_boids(
        all_round,
        [20.0, 20.0, 20.0, 10.0, 0.0, 0.0],
        [18.0, 20.0, 20.0, 10.0, 0.0, 0.0],
    );
    assert!(
        flock.neighbour_sets().iter().all(|s| s.len() == 1),
        "360° sees behind"
    );
}

#[test]
fn speed_stays_within_bounds_after_every_step() {
    let mut flock = Flock::new(1500, Some(3));
    let cruise = flock.settings().speed;
    for _ in 0..300 {
        flock.step(DT);
        for s in speeds(&flock) {
            assert!(
                s >= MIN_SPEED_FACTOR * cruise * 0.999 && s <= MAX_SPEED_FACTOR * cruise * 1.001,
                "speed {s}"
            );
        }
    }
}

#[test]
fn soft_walls_turn_boids_back_before_they_touch_the_wall() {
    let mut flock = Flock::new(1500, Some(4));
    let world = flock.world_size();
    for _ in 0..600 {
        flock.step(DT);
        let touching = flock
            .positions()
            .iter()
            .filter(|&&p| p <= 0.0 || p >= world)
            .count();
        assert_eq!(touching, 0, "a boid hit the hard wall");
    }
}

#[test]
fn alignment_alone_makes_the_flock_polarized() {
    let settings = Settings {
        wrap: true,
        ..only(0.0, 1.0, 0.0)
    };
    let mut flock = Flock::with_settings(600, Some(7), settings);
    let before = flock.polarization();
    assert!(before < 0.2, "random headings start unpolarized: {before}");
    for _ in 0..1200 {
        flock.step(DT);
    }
    let after = flock.polarization();
    assert!(after > 0.9, "alignment should align: polarization {after}");
}

#[test]
fn without_alignment_headings_stay_disordered() {
    // Separation and cohesion at work, alignment off: headings keep changing but nothing
    // lines them up. The same flock with alignment on does line up (so the steps move
    // the boids and the measure can rise).
    let run = |alignment: f32| {
        let settings = Settings {
            wrap: true,
            ..only(1.5, alignment, 1.0)
        };
        let mut flock = Flock::with_settings(600, Some(7), settings);
        let start = flock.velocities().to_vec();
        for _ in 0..600 {
            flock.step(DT);
        }
        assert_ne!(flock.velocities(), &start[..]);
        flock.polarization()
    };
    let (without, with) = (run(0.0), run(1.0));
    assert!(without < 0.2, "nothing aligns them: {without}");
    assert!(with > 0.5, "alignment on: {with}");
}

#[test]
fn cohesion_alone_gathers_the_flock() {
    // Boids keep their cruise speed, so cohesion gathers them into a swarm about as wide
    // as their turning circle (cruise × 1 s = 10 units): a world much wider than that.
    let gather = |cohesion: f32| {
        let settings = Settings {
            world_size: Some(80.0),
            perception: 12.0,
            ..only(0.0, 0.0, cohesion)
        };
        let mut flock = Flock::with_settings(300, Some(8), settings);
        let before = spread(&flock);
        for _ in 0..1200 {
            flock.step(DT);
        }
        (before, spread(&flock))
    };
    let (before, after) = gather(1.0);
    let (_, without) = gather(0.0);
    assert!(
        after < 0.6 * before && after < 0.6 * without,
        "cohesion should gather: spread {before} -> {after} (without cohesion: {without})"
    );
}

#[test]
fn separation_alone_spaces_the_boids_out() {
    // Slow boids, so that separation has time to act before they pass each other.
    let settings = Settings {
        world_size: Some(20.0),
        wrap: true,
        speed: 2.0,
        ..only(3.0, 0.0, 0.0)
    };
    let mut flock = Flock::with_settings(400, Some(9), settings);
    let nearest = |f: &Flock| {
        nearest_neighbour_distances(f)
            .into_iter()
            .fold(f32::INFINITY, f32::min)
    };
    let mean = |f: &Flock| {
        let d = nearest_neighbour_distances(f);
        d.iter().sum::<f32>() / d.len() as f32
    };
    let (min_before, mean_before) = (nearest(&flock), mean(&flock));
    for _ in 0..600 {
        flock.step(DT);
    }
    let (min_after, mean_after) = (nearest(&flock), mean(&flock));
    assert!(
        min_after > 2.0 * min_before,
        "smallest gap {min_before} -> {min_after}"
    );
    assert!(
        mean_after > mean_before,
        "mean gap {mean_before} -> {mean_after}"
    );
}
