//! The counting-sort grid must find exactly the neighbours that checking every pair finds.

mod common;

use boids::sim::{Flock, Settings};
use common::{clump_and_stragglers, TestRng};

fn flock_with_state(settings: Settings, positions: Vec<f32>, velocities: Vec<f32>) -> Flock {
    let mut flock = Flock::with_settings(0, Some(1), settings);
    flock.set_state(&positions, &velocities);
    flock
}

fn random_state(n: usize, world: f32, seed: u64) -> (Vec<f32>, Vec<f32>) {
    let mut rng = TestRng::new(seed);
    let positions = (0..3 * n).map(|_| rng.range(0.0, world)).collect();
    let velocities = (0..3 * n).map(|_| rng.range(-10.0, 10.0)).collect();
    (positions, velocities)
}

fn assert_grid_agrees(mut flock: Flock, what: &str) {
    let brute = flock.neighbour_sets_brute_force();
    let grid = flock.neighbour_sets();
    let mut total = 0;
    for (i, (g, b)) in grid.iter().zip(&brute).enumerate() {
        let mut b = b.clone();
        b.sort_unstable();
        assert_eq!(g, &b, "{what}: neighbours of boid {i}");
        assert!(!g.contains(&i), "{what}: boid {i} counts itself");
        total += g.len();
    }
    assert!(
        total > 0,
        "{what}: the state should have some neighbours to compare"
    );
    let a_grid = flock.accelerations(false);
    let a_brute = flock.accelerations(true);
    for (k, (g, b)) in a_grid.iter().zip(&a_brute).enumerate() {
        assert!(g.is_finite(), "{what}: acceleration {k} is {g}");
        assert!(
            (g - b).abs() <= 1e-3 * (1.0 + b.abs()),
            "{what}: acceleration component {k}: grid {g} vs brute force {b}; boid at {:?} v {:?} with {} neighbours",
            &flock.positions()[k / 3 * 3..k / 3 * 3 + 3],
            &flock.velocities()[k / 3 * 3..k / 3 * 3 + 3],
            grid[k / 3].len()
        );
    }
}

/// `n` boids at random in a world of side `world`, perception 5, with `kinds` species in a
/// fixed mix (`set_species` folds the labels into the species there are).
fn random_flock(n: usize, world: f32, seed: u64, (wrap, fov): (bool, f32), kinds: usize) -> Flock {
    let (p, v) = random_state(n, world, seed);
    let settings = Settings {
        species: kinds,
        ..settings(world, wrap, 5.0, fov)
    };
    let mut flock = flock_with_state(settings, p, v);
    if kinds > 1 {
        let labels: Vec<u8> = (0..flock.len()).map(|i| (i * 7 % 5) as u8).collect();
        flock.set_species(&labels);
    }
    flock
}

fn settings(world: f32, wrap: bool, perception: f32, fov: f32) -> Settings {
    Settings {
        world_size: Some(world),
        wrap,
        perception,
        separation_radius: perception * 0.4,
        field_of_view: fov,
        ..Settings::walled()
    }
}

#[test]
fn random_states_in_a_box_and_wrapped() {
    for (seed, wrap, fov, perception) in [
        (1, false, 270.0, 5.0),
        (2, true, 270.0, 5.0),
        (3, true, 360.0, 3.3),
        (4, false, 120.0, 7.5),
        (5, true, 90.0, 12.0),
        (6, true, 360.0, 1.0),
    ] {
        let world = 40.0;
        let (p, v) = random_state(800, world, seed);
        let flock = flock_with_state(settings(world, wrap, perception, fov), p, v);
        assert_grid_agrees(
            flock,
            &format!("seed {seed} wrap {wrap} fov {fov} r {perception}"),
        );
    }
}

/// Crowded flocks: after a step with at least `CROWDED_AT` (180) candidates a boid, the grid
/// splits its cells into two rows along y (`scan::ROWS_PER_CELL`); the windows, the scan
/// and the reference must still find exactly the neighbours brute force finds.
#[test]
fn crowded_states_scanned_in_two_rows_a_cell() {
    for (seed, wrap, fov, flat, kinds) in [
        (11, false, 270.0, false, 1),
        (12, true, 270.0, false, 1),
        (13, true, 360.0, false, 3),
        (14, false, 90.0, false, 1),
        (15, true, 270.0, true, 1),
        (16, false, 360.0, true, 2),
    ] {
        // Perception 5 in a world of 20: four cells a side, about 300 candidates a boid.
        let (world, n) = (20.0, if flat { 500 } else { 900 });
        let (p, v) = random_state(n, world, seed);
        let settings = Settings {
            flat,
            species: kinds,
            ..settings(world, wrap, 5.0, fov)
        };
        let mut flock = flock_with_state(settings, p, v);
        flock.step(1.0 / 60.0);
        let what = format!("crowded seed {seed} wrap {wrap} fov {fov} flat {flat}");
        assert!(
            flock.mean_candidates() >= 180.0,
            "{what}: crowded enough for two rows a cell: {}",
            flock.mean_candidates()
        );
        assert_grid_agrees(flock, &what);
    }
}

#[test]
fn boids_exactly_on_cell_borders_and_world_edges() {
    // Perception 5 in a world of 40: cells are exactly 5 wide, so multiples of 5 are borders.
    let world = 40.0;
    let mut rng = TestRng::new(9);
    let mut positions = Vec::new();
    let mut velocities = Vec::new();
    for _ in 0..600 {
        for _ in 0..3 {
            positions.push((rng.unit() * 9.0).floor() * 5.0); // 0, 5, ..., 40
            velocities.push(rng.range(-10.0, 10.0));
        }
    }
    for wrap in [false, true] {
        let flock = flock_with_state(
            settings(world, wrap, 5.0, 270.0),
            positions.clone(),
            velocities.clone(),
        );
        assert_grid_agrees(flock, &format!("borders, wrap {wrap}"));
    }
}

#[test]
fn pairs_at_exactly_the_perception_radius_across_a_wrapped_edge() {
    let world = 40.0;
    // Boid 0 near x = 0, boid 1 near x = 40: 5 apart through the edge, 35 apart inside.
    let positions = vec![
        1.0, 20.0, 20.0, 36.0, 20.0, 20.0, 20.0, 20.0, 20.0, 24.0, 20.0, 20.0,
    ];
    let velocities = vec![
        0.0, 10.0, 0.0, 0.0, 10.0, 0.0, 0.0, 10.0, 0.0, 0.0, 10.0, 0.0,
    ];
    let mut flock = flock_with_state(
        settings(world, true, 5.0, 360.0),
        positions.clone(),
        velocities.clone(),
    );
    let sets = flock.neighbour_sets();
    assert_eq!(
        sets[0],
        vec![1],
        "the nearest image across the edge is exactly at the radius"
    );
    assert_eq!(sets[2], vec![3]);
    assert_grid_agrees(flock, "radius across the edge");
    let mut walled = flock_with_state(settings(world, false, 5.0, 360.0), positions, velocities);
    assert!(walled.neighbour_sets()[0].is_empty(), "walls do not wrap");
}

#[test]
fn a_separation_radius_beyond_the_perception_radius_pushes_only_boids_seen() {
    // Separation 7.5 with perception 5: the boids seen push, those between 5 and 7.5 do not,
    // and one exactly at the perception radius (across the wrapped edge) is seen and pushes.
    let world = 40.0;
    let separation_radius = 7.5;
    let positions = vec![
        1.0, 20.0, 20.0, 36.0, 20.0, 20.0, 20.0, 20.0, 20.0, 26.0, 20.0, 20.0,
    ];
    let velocities = vec![
        0.0, 10.0, 0.0, 0.0, 10.0, 0.0, 0.0, 10.0, 0.0, 0.0, 10.0, 0.0,
    ];
    for fov in [360.0, 270.0] {
        let settings = Settings {
            separation_radius,
            ..settings(world, true, 5.0, fov)
        };
        let mut flock = flock_with_state(settings, positions.clone(), velocities.clone());
        let sets = flock.neighbour_sets();
        assert_eq!(sets[0], vec![1], "fov {fov}: exactly at the radius");
        assert!(sets[2].is_empty(), "fov {fov}: 6 apart is out of sight");
        assert_grid_agrees(
            flock,
            &format!("pairs, separation beyond perception, fov {fov}"),
        );
    }
    for (seed, wrap, fov) in [(11, true, 360.0), (12, false, 360.0), (13, true, 270.0)] {
        let (p, v) = random_state(800, world, seed);
        let settings = Settings {
            separation_radius,
            ..settings(world, wrap, 5.0, fov)
        };
        let what = format!("seed {seed} wrap {wrap} fov {fov}, separation beyond perception");
        assert_grid_agrees(flock_with_state(settings, p, v), &what);
    }
}

#[test]
fn all_boids_in_one_cell_and_most_cells_empty() {
    let world = 60.0;
    let mut rng = TestRng::new(11);
    let positions: Vec<f32> = (0..3 * 300).map(|_| rng.range(31.0, 33.0)).collect();
    let velocities: Vec<f32> = (0..3 * 300).map(|_| rng.range(-10.0, 10.0)).collect();
    for wrap in [false, true] {
        let flock = flock_with_state(
            settings(world, wrap, 4.0, 270.0),
            positions.clone(),
            velocities.clone(),
        );
        assert_grid_agrees(flock, &format!("one cell, wrap {wrap}"));
    }
}

#[test]
fn boids_at_the_very_same_point_are_pushed_apart_as_brute_force_pushes_them() {
    // Piles of boids at one point (some flying alike, so only the pair's indices can part
    // them), others a hair apart, among a scattered flock; across a wrapped edge too.
    let world = 40.0;
    let (mut positions, mut velocities) = random_state(300, world, 31);
    let piles = [[20.0, 20.0, 20.0], [0.0, 13.0, 39.9999], [7.5, 7.5, 7.5]];
    for (k, pile) in piles.iter().enumerate() {
        for member in 0..4 {
            let i = 3 * (10 * k + member);
            positions[i..i + 3].copy_from_slice(pile);
            if member < 2 {
                velocities[i..i + 3].copy_from_slice(&[1.0, 2.0, 3.0]);
            }
        }
    }
    // A pair closer than the scan's "same point" threshold, but not at one point.
    positions[3 * 50..3 * 50 + 3].copy_from_slice(&[30.0, 30.0, 30.0]);
    positions[3 * 51..3 * 51 + 3].copy_from_slice(&[30.0, 30.0, 30.0 + 4e-7]);
    for wrap in [false, true] {
        for fov in [360.0, 270.0] {
            for topological in [false, true] {
                let flock = flock_with_state(
                    Settings {
                        topological,
                        nearest_k: 7,
                        ..settings(world, wrap, 5.0, fov)
                    },
                    positions.clone(),
                    velocities.clone(),
                );
                let what = format!("piles, wrap {wrap}, fov {fov}, nearest-k {topological}");
                assert_grid_agrees(flock, &what);
            }
        }
    }
}

#[test]
fn worlds_only_one_two_or_three_cells_wide() {
    for (world, perception) in [(10.0, 12.0), (10.0, 5.0), (12.0, 4.0)] {
        for wrap in [false, true] {
            let (p, v) = random_state(200, world, 21);
            let flock = flock_with_state(settings(world, wrap, perception, 360.0), p, v);
            assert_grid_agrees(flock, &format!("world {world} r {perception} wrap {wrap}"));
        }
    }
}

#[test]
fn the_step_sees_the_same_neighbours_as_brute_force() {
    let mut flock = Flock::new(2000, Some(5));
    flock.step(1.0 / 60.0);
    let brute: usize = flock
        .neighbour_sets_brute_force()
        .iter()
        .map(Vec::len)
        .sum();
    // A step counts the neighbours of the state it starts from.
    let mut stepped = flock.clone();
    stepped.step(1.0 / 60.0);
    let measured = stepped.mean_neighbours() * stepped.len() as f32;
    assert!(
        (measured - brute as f32).abs() <= 1e-3 * brute as f32 + 0.5,
        "step counted {measured} neighbours, brute force {brute}"
    );
}

#[test]
fn species_scan_agrees_with_brute_force() {
    for (seed, wrap, fov, kinds) in [
        (31, false, 270.0, 2),
        (32, true, 360.0, 4),
        (33, true, 120.0, 3),
    ] {
        let flock = random_flock(800, 40.0, seed, (wrap, fov), kinds);
        assert_grid_agrees(flock, &format!("species {kinds} seed {seed} wrap {wrap}"));
    }
}

#[test]
fn flat_worlds_agree_with_brute_force() {
    for (seed, wrap, perception) in [(41, false, 5.0), (42, true, 5.0), (43, true, 12.0)] {
        let world = 60.0;
        let mut rng = TestRng::new(seed);
        let mut positions = Vec::new();
        let mut velocities = Vec::new();
        for _ in 0..800 {
            positions.extend([rng.range(0.0, world), rng.range(0.0, world), 0.0]);
            velocities.extend([rng.range(-10.0, 10.0), rng.range(-10.0, 10.0), 0.0]);
        }
        let flock = flock_with_state(
            Settings {
                flat: true,
                ..settings(world, wrap, perception, 270.0)
            },
            positions,
            velocities,
        );
        assert_grid_agrees(
            flock,
            &format!("flat seed {seed} wrap {wrap} r {perception}"),
        );
    }
}

#[test]
fn dense_columns_whose_gathered_cells_move_to_the_front() {
    // So many boids to a column of cells that the step, walking up it, moves the cells it
    // still needs to the front of what it gathered (past 512 boids gathered).
    for (seed, wrap, fov, kinds) in [
        (11, true, 360.0, 1),
        (12, false, 270.0, 1),
        (13, true, 360.0, 3),
    ] {
        let flock = random_flock(3000, 30.0, seed, (wrap, fov), kinds);
        assert_grid_agrees(
            flock,
            &format!("dense, seed {seed} wrap {wrap} fov {fov} species {kinds}"),
        );
    }
}

/// A zone of orientation inside the perception radius (`alignmentRadius`): the scan's
/// alignment sums only the heeded boids inside it, as the reference does, in every kind of
/// view, with walls and wrapped, one species or several, sparse and crowded.
#[test]
fn a_zone_of_orientation_inside_the_perception_radius() {
    for (seed, wrap, fov, kinds, zone, world) in [
        (21, false, 270.0, 1, 2.5, 40.0),
        (22, true, 360.0, 1, 1.0, 40.0),
        (23, true, 120.0, 3, 4.0, 40.0),
        (24, false, 360.0, 2, 3.0, 20.0),
        (25, true, 270.0, 1, 4.9, 20.0),
    ] {
        let n = if world < 30.0 { 900 } else { 800 };
        let mut flock = random_flock(n, world, seed, (wrap, fov), kinds);
        flock.set(boids::sim::Param::AlignmentRadius, zone).unwrap();
        flock.step(1.0 / 60.0);
        assert_grid_agrees(
            flock,
            &format!("zone {zone} seed {seed} wrap {wrap} fov {fov} kinds {kinds}"),
        );
    }
}

/// Under the open sky the cells tile the cube around the flock, not the sky: a clump off
/// home, a few stragglers far from it, a clump that is a single point, in 3D and 2D.
#[test]
fn under_the_open_sky_the_cells_around_the_flock_find_every_neighbour() {
    let view = 30.0;
    for (seed, fov, flat, crowded) in [
        (41, 360.0, false, false),
        (42, 270.0, false, true),
        (43, 360.0, true, false),
    ] {
        let n = if crowded { 1500 } else { 400 };
        // Most in a clump a third of the view wide, off home; every 50th far out.
        let (p, v) = clump_and_stragglers(n, view, seed, flat, (1.7, 2.0), (50, 7));
        let settings = Settings {
            sky: true,
            flat,
            ..settings(view, false, 5.0, fov)
        };
        let mut flock = flock_with_state(settings, p, v);
        assert_eq!(flock.world_size(), 3.0 * view, "seed {seed}: the sky");
        if crowded {
            // Crowded: the grid splits its cells into rows (decided by the last step).
            flock.step(1.0 / 60.0);
        }
        assert_grid_agrees(flock, &format!("open sky, seed {seed}"));
    }
    // Everyone at one point: the cube around them is a cell wide.
    let settings = Settings {
        sky: true,
        ..settings(view, false, 5.0, 360.0)
    };
    let p: Vec<f32> = (0..20).flat_map(|_| [40.0, 41.0, 42.0]).collect();
    let v: Vec<f32> = (0..20).flat_map(|i| [1.0 + i as f32, 0.0, 0.0]).collect();
    assert_grid_agrees(flock_with_state(settings, p, v), "open sky, one point");
}
