//! The behaviours the lessons add to the three rules: hawks, obstacles, leaders, pointer,
//! wind, species, presets and the flat world. Each test fails if its behaviour is missing
//! or backwards.

mod common;

use boids::sim::{Flock, Param, Settings, MAX_SPEED_FACTOR, PANIC_SPEED_FACTOR};
use common::all_finite;
use glam::Vec3;

const DT: f32 = 1.0 / 60.0;

fn at(values: &[f32], i: usize) -> Vec3 {
    Vec3::from_slice(&values[3 * i..3 * i + 3])
}

fn centroid(flock: &Flock) -> Vec3 {
    let n = flock.len();
    (0..n).map(|i| at(flock.positions(), i)).sum::<Vec3>() / n as f32
}

fn nearest_distance(flock: &Flock, point: Vec3) -> f32 {
    (0..flock.len())
        .map(|i| at(flock.positions(), i).distance(point))
        .fold(f32::INFINITY, f32::min)
}

#[test]
fn boids_flee_a_hawk_that_enters_the_flock() {
    // A slow hawk in the middle of an unpolarized flock: without fleeing, boids would keep
    // streaming past it at the usual spacing.
    let mut flock = Flock::new(1500, Some(21));
    flock.set(Param::Predators, 1.0).unwrap();
    flock.set(Param::PredatorSpeed, 5.0).unwrap();
    let flee_radius = flock.settings().flee_radius;
    let cruise = flock.settings().speed;
    let world = flock.world_size();
    assert!(flock.place_predator(0, Vec3::splat(world / 2.0), Vec3::X));
    let hawk = |f: &Flock| at(f.predator_positions(), 0);
    let at_entry = nearest_distance(&flock, hawk(&flock));
    let (mut radial_sum, mut inside) = (0.0f32, 0usize);
    let mut latest = Vec::new();
    for step in 0..90 {
        flock.step(DT);
        let h = hawk(&flock);
        if step >= 75 {
            latest.push(nearest_distance(&flock, h));
        }
        // After a quarter of a second to react, those inside the flee radius fly away.
        if step >= 15 {
            for i in 0..flock.len() {
                let away = at(flock.positions(), i) - h;
                if away.length() < flee_radius {
                    radial_sum += at(flock.velocities(), i).dot(away.normalize());
                    inside += 1;
                }
            }
        }
    }
    let radial = radial_sum / inside as f32;
    assert!(
        radial > 0.2 * cruise,
        "boids near the hawk should fly away from it: mean radial velocity {radial}"
    );
    let later = latest.iter().sum::<f32>() / latest.len() as f32;
    assert!(
        later > (3.0 * at_entry).max(0.5 * flee_radius),
        "the hawk's nearest boid should be farther after it entered: {at_entry} -> {later}"
    );
    assert!(all_finite(&flock));
}

#[test]
fn fleeing_boids_panic_and_hawks_fly_at_their_own_speed() {
    // In a box the boids fill it and a hunting hawk is always near one; under the open sky
    // the flock is compact and flees, and a hawk circling 1.6 flee radii from the boid it
    // watches keeps 2.2 flee radii from the nearest (seed 22) where one that did not hunt
    // would be views away (a view is 4 flee radii).
    for (sky, near) in [(false, 2.0), (true, 3.0)] {
        hawks_hunt(sky, near);
    }
}

fn hawks_hunt(sky: bool, near: f32) {
    let mut flock = Flock::new(1500, Some(22));
    flock.set(Param::Sky, f64::from(u8::from(sky))).unwrap();
    flock.set(Param::Predators, 3.0).unwrap();
    let cruise = flock.settings().speed;
    let hawk_speed = flock.settings().predator_speed;
    let top = MAX_SPEED_FACTOR * cruise;
    let mut fastest = 0.0f32;
    let mut nearest_sum = 0.0;
    for step in 0..900 {
        flock.step(DT);
        for s in common::speeds(&flock) {
            assert!(s <= PANIC_SPEED_FACTOR * top * 1.001, "speed {s}");
            fastest = fastest.max(s);
        }
        for k in 0..3 {
            let v = at(flock.predator_velocities(), k);
            assert!((v.length() - hawk_speed).abs() < 1e-3 * hawk_speed);
            if step >= 300 {
                nearest_sum += nearest_distance(&flock, at(flock.predator_positions(), k));
            }
        }
    }
    assert!(
        fastest > top * 1.2,
        "panicking boids fly faster than usual: {fastest}"
    );
    // The hawks hunt the flock rather than wander: on average they stay close to a boid.
    let mean_nearest = nearest_sum / (600.0 * 3.0);
    assert!(
        mean_nearest < near * flock.settings().flee_radius,
        "sky {sky}: hawks stay near the flock: mean nearest boid {mean_nearest}"
    );
    // Without hawks, nobody panics.
    flock.set(Param::Predators, 0.0).unwrap();
    for _ in 0..120 {
        flock.step(DT);
    }
    assert!(common::speeds(&flock).iter().all(|&s| s <= top * 1.001));
}

#[test]
fn no_boid_enters_an_obstacle_the_flock_flies_straight_at() {
    for (radius, seed) in [(2.0, 5), (6.0, 6), (12.0, 7)] {
        let settings = Settings {
            world_size: Some(60.0),
            wrap: true,
            ..Settings::walled()
        };
        let mut flock = Flock::with_settings(0, Some(seed), settings);
        // A flock flying along +x straight at the obstacle in the middle of the world.
        let mut rng = common::TestRng::new(u64::from(seed));
        let (mut positions, mut velocities) = (Vec::new(), Vec::new());
        for _ in 0..400 {
            positions.extend([
                rng.range(5.0, 15.0),
                rng.range(24.0, 36.0),
                rng.range(24.0, 36.0),
            ]);
            velocities.extend([10.0, rng.range(-0.5, 0.5), rng.range(-0.5, 0.5)]);
        }
        flock.set_state(&positions, &velocities);
        let centre = Vec3::splat(30.0);
        assert!(flock.add_obstacle(centre, radius));
        let on_course = (0..flock.len())
            .filter(|&i| {
                let p = at(flock.positions(), i);
                Vec3::new(0.0, p.y - centre.y, p.z - centre.z).length() < radius
            })
            .count();
        assert!(
            on_course > 20,
            "radius {radius}: only {on_course} boids head for it"
        );
        let mut closest = f32::INFINITY;
        for step in 0..2000 {
            flock.step(DT);
            for i in 0..flock.len() {
                let d = at(flock.positions(), i).distance(centre);
                assert!(
                    d > radius,
                    "radius {radius}: a boid's centre entered the obstacle at step {step} ({d} from its centre)"
                );
                closest = closest.min(d);
            }
        }
        assert!(
            closest < radius + 2.0 * boids::sim::OBSTACLE_CLEARANCE,
            "radius {radius}: the flock should have skimmed the obstacle, came no nearer than {closest}"
        );
    }
}

/// The largest distance between the flock's centroid and its leader over 20 s, after 10 s
/// to gather, and how far the leader went meanwhile.
fn leader_run(weight: f64) -> (f32, f32) {
    let settings = Settings {
        world_size: Some(80.0),
        ..Settings::walled()
    };
    let mut flock = Flock::with_settings(300, Some(8), settings);
    flock.set(Param::Leaders, 1.0).unwrap();
    flock.set(Param::LeaderWeight, weight).unwrap();
    let leader = |f: &Flock| at(f.leader_positions(), 0);
    let (mut worst, mut travelled) = (0.0f32, 0.0);
    for step in 0..1800 {
        let before = leader(&flock);
        flock.step(DT);
        let d = centroid(&flock).distance(leader(&flock));
        if step >= 600 {
            worst = worst.max(d);
            travelled += leader(&flock).distance(before);
        }
    }
    (worst, travelled)
}

#[test]
fn the_flock_follows_its_leader_around_the_loop() {
    let perception = Settings::walled().perception;
    let (following, travelled) = leader_run(Param::LeaderWeight.spec().default);
    assert!(travelled > 80.0, "the leader should fly far: {travelled}");
    // 300 boids that keep their spacing make a ball about 2.5 perception radii across.
    assert!(
        following < 2.5 * perception,
        "the centroid strayed {following} from the leader"
    );
    let (ignoring, _) = leader_run(0.0);
    assert!(ignoring > 4.0 * perception, "without the pull, {ignoring}");
}

/// Unit headings of the boids of species `kind`, summed.
fn heading_sum(flock: &Flock, kind: u8) -> (Vec3, usize) {
    let mut sum = Vec3::ZERO;
    let mut count = 0;
    for (i, &k) in flock.species().iter().enumerate() {
        if k == kind {
            sum += at(flock.velocities(), i).normalize();
            count += 1;
        }
    }
    (sum, count)
}

/// Mean pairwise heading correlation v̂_i · v̂_j between boids of species `a` and of `b`.
fn heading_correlation(flock: &Flock, a: u8, b: u8) -> f32 {
    let (sum_a, count_a) = heading_sum(flock, a);
    let (sum_b, count_b) = heading_sum(flock, b);
    sum_a.dot(sum_b) / (count_a * count_b) as f32
}

/// Local alignment: over boids of species `a`, the mean of v̂_i · v̂_j over the boids `j` of
/// species `b` within `radius` of `i`. Unlike a whole-flock correlation it stays high in a
/// flock that circles its box (neighbours fly together while the flock turns).
fn local_alignment(flock: &Flock, a: u8, b: u8, radius: f32) -> f32 {
    let kinds = flock.species();
    let heading = |i: usize| at(flock.velocities(), i).normalize();
    let (mut sum, mut pairs) = (0.0f32, 0usize);
    for i in (0..flock.len()).filter(|&i| kinds[i] == a) {
        for j in (0..flock.len()).filter(|&j| j != i && kinds[j] == b) {
            if at(flock.positions(), i).distance(at(flock.positions(), j)) < radius {
                sum += heading(i).dot(heading(j));
                pairs += 1;
            }
        }
    }
    sum / pairs.max(1) as f32
}

#[test]
fn each_species_aligns_with_its_own_kind_only() {
    // In walls (the page's default): in a wrapped world two flocks that keep crossing each
    // other end up flying the same way, species or not.
    let (mut within_total, mut between_total) = (0.0, 0.0);
    for seed in [31, 33, 34] {
        let settings = Settings {
            species: 2,
            ..Settings::walled()
        };
        let mut flock = Flock::with_settings(800, Some(seed), settings);
        assert_eq!(flock.species().len(), flock.len());
        assert!(flock.species().iter().all(|&k| k < 2));
        for k in 0..2 {
            let start = heading_correlation(&flock, k, k);
            assert!(
                start < 0.05,
                "seed {seed}: species {k} starts disordered: {start}"
            );
        }
        // Time averages over seconds 5 to 20: one instant can catch two flocks by chance
        // flying the same way.
        let (mut within, mut between, mut samples) = (0.0, 0.0, 0.0);
        for step in 0..1200 {
            flock.step(DT);
            if step >= 300 && step % 30 == 0 {
                let r = flock.settings().perception;
                within +=
                    0.5 * (local_alignment(&flock, 0, 0, r) + local_alignment(&flock, 1, 1, r));
                between += local_alignment(&flock, 0, 1, r);
                samples += 1.0;
            }
        }
        let (within, between) = (within / samples, between / samples);
        assert!(within > 0.25, "seed {seed}: each species aligns: {within}");
        assert!(
            between < within - 0.1,
            "seed {seed}: headings correlate less between species ({between}) than within ({within})"
        );
        within_total += within;
        between_total += between;
        // Species follow their boids through the re-ordering of every step.
        assert_eq!(
            [heading_sum(&flock, 0).1, heading_sum(&flock, 1).1],
            [400, 400]
        );
    }
    assert!(between_total / 3.0 < within_total / 3.0 - 0.2);
}

#[test]
fn species_kept_in_order_with_their_boids() {
    // Two species started apart in heading: kind 0 flies +x, kind 1 flies +y. Alignment alone
    // (no cohesion, no separation) keeps each kind on its heading if, and only if, species
    // stay attached to the right boids while the grid re-orders them.
    let settings = Settings {
        wrap: true,
        species: 2,
        world_size: Some(30.0),
        ..common::only(0.0, 1.0, 0.0)
    };
    let mut flock = Flock::with_settings(0, Some(3), settings);
    let mut rng = common::TestRng::new(4);
    let (mut positions, mut velocities, mut kinds) = (vec![], vec![], vec![]);
    for i in 0..600 {
        positions.extend([
            rng.range(0.0, 30.0),
            rng.range(0.0, 30.0),
            rng.range(0.0, 30.0),
        ]);
        let kind = (i % 2) as u8;
        velocities.extend(if kind == 0 {
            [10.0, 0.0, 0.0]
        } else {
            [0.0, 10.0, 0.0]
        });
        kinds.push(kind);
    }
    flock.set_state(&positions, &velocities);
    flock.set_species(&kinds);
    for _ in 0..300 {
        flock.step(DT);
    }
    for (i, &k) in flock.species().iter().enumerate() {
        let v = at(flock.velocities(), i).normalize();
        let expected = if k == 0 { Vec3::X } else { Vec3::Y };
        assert!(v.dot(expected) > 0.99, "boid {i} of species {k} flies {v}");
    }
}

#[test]
fn one_species_is_bit_identical_to_the_plain_model() {
    let run = |species: Option<usize>| {
        let mut flock = Flock::new(700, Some(9));
        if let Some(kinds) = species {
            // Several species declared, but every boid is of the first: the species scan
            // runs, and must give exactly what the plain scan gives.
            flock.set(Param::SpeciesCount, kinds as f64).unwrap();
            flock.set_species(&vec![0; flock.len()]);
        }
        for _ in 0..300 {
            flock.step(DT);
        }
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        (bits(flock.positions()), bits(flock.velocities()))
    };
    let plain = run(None);
    assert_eq!(plain, run(Some(3)), "species scan with one kind in use");
    assert_eq!(plain, run(Some(1)));
    assert_ne!(
        plain,
        run_with_two_kinds(),
        "two kinds in use must change the flock"
    );
}

fn run_with_two_kinds() -> (Vec<u32>, Vec<u32>) {
    let mut flock = Flock::new(700, Some(9));
    flock.set(Param::SpeciesCount, 2.0).unwrap();
    for _ in 0..300 {
        flock.step(DT);
    }
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    (bits(flock.positions()), bits(flock.velocities()))
}

/// How far the flock as a whole moved (without wrapping) in `seconds`.
fn drift(flock: &mut Flock, seconds: f32) -> Vec3 {
    let mut moved = Vec3::ZERO;
    for _ in 0..(seconds / DT) as usize {
        flock.step(DT);
        let n = flock.len();
        let mean: Vec3 = (0..n).map(|i| at(flock.velocities(), i)).sum::<Vec3>() / n as f32;
        moved += mean * DT;
    }
    moved
}

#[test]
fn wind_shifts_the_flock_along_the_wind() {
    for (heading, elevation, direction) in [
        (90.0, 0.0, Vec3::Y),
        (180.0, 0.0, -Vec3::X),
        (0.0, -90.0, -Vec3::Z),
    ] {
        let settings = Settings {
            wrap: true,
            ..Settings::walled()
        };
        let mut calm = Flock::with_settings(400, Some(12), settings.clone());
        let mut windy = Flock::with_settings(400, Some(12), settings);
        windy.set(Param::WindStrength, 5.0).unwrap();
        windy.set(Param::WindHeading, heading).unwrap();
        windy.set(Param::WindElevation, elevation).unwrap();
        let calm_drift = drift(&mut calm, 10.0);
        let windy_drift = drift(&mut windy, 10.0);
        let along = windy_drift.dot(direction);
        assert!(
            along > 30.0 && along > calm_drift.dot(direction) + 30.0,
            "wind toward {direction}: drift {windy_drift} vs calm {calm_drift}"
        );
        let across = (windy_drift - direction * along).length();
        assert!(
            across < 0.5 * along,
            "drift {windy_drift} should be mostly along {direction}"
        );
    }
}

#[test]
fn a_flat_world_keeps_every_z_at_zero() {
    let mut flock = Flock::new(800, Some(13));
    flock.set(Param::Flat, 1.0).unwrap();
    assert!(flock.is_flat());
    flock.set(Param::Predators, 2.0).unwrap();
    flock.set(Param::Leaders, 1.0).unwrap();
    flock.set(Param::SpeciesCount, 3.0).unwrap();
    flock.set(Param::WindStrength, 3.0).unwrap();
    flock.set(Param::WindElevation, 60.0).unwrap();
    let world = flock.world_size();
    assert!(flock.add_obstacle(Vec3::new(world / 2.0, world / 2.0, 7.0), 4.0));
    assert_eq!(flock.obstacles()[0][2], 0.0, "obstacles lie in the plane");
    flock.set_pointer(Vec3::new(world / 3.0, world / 3.0, 5.0), true);
    let before = flock.polarization();
    // Two hawks and a leader, or the checks on their z below would hold for nothing.
    assert_eq!(flock.predator_positions().len(), 6);
    assert_eq!(flock.predator_velocities().len(), 6);
    assert_eq!(flock.leader_positions().len(), 3);
    for step in 0..600 {
        flock.step(DT);
        let flat = |values: &[f32]| values.chunks_exact(3).all(|v| v[2] == 0.0);
        assert!(
            flat(flock.positions()) && flat(flock.velocities()),
            "step {step}"
        );
        assert!(flat(flock.predator_positions()) && flat(flock.predator_velocities()));
        assert!(flat(flock.leader_positions()));
        if step == 300 {
            flock.clear_pointer();
            flock.set(Param::Topological, 1.0).unwrap();
        }
    }
    assert!(all_finite(&flock));
    let path = flock.leader_path(50);
    assert_eq!(path.len(), 150, "fifty points of the leader's path");
    assert!(path.chunks_exact(3).all(|p| p[2] == 0.0));
    assert!(
        flock.polarization() > before + 0.3,
        "a flat flock still flocks"
    );
    // Back to 3D: the flock is scattered afresh, in depth too.
    flock.set(Param::Flat, 0.0).unwrap();
    assert!(flock.positions().chunks_exact(3).any(|p| p[2] > 1.0));
}

#[test]
fn a_flat_world_is_as_crowded_as_the_3d_one() {
    // Walls: the world sized by the count, filled from the start.
    let mut solid = Flock::with_settings(1500, Some(14), Settings::walled());
    let mut flat = solid.clone();
    flat.set(Param::Flat, 1.0).unwrap();
    solid.step(DT);
    flat.step(DT);
    let ratio = flat.mean_neighbours() / solid.mean_neighbours();
    assert!((0.7..1.4).contains(&ratio), "neighbours 2D/3D: {ratio}");
    assert!(flat.world_size() > solid.world_size());
}

#[test]
fn the_pointer_attracts_and_repels() {
    let distance_to = |flock: &Flock, point: Vec3| {
        let n = flock.len();
        (0..n)
            .map(|i| at(flock.positions(), i).distance(point))
            .sum::<f32>()
            / n as f32
    };
    let mut flock = Flock::with_settings(1000, Some(15), Settings::walled());
    let world = flock.world_size();
    let corner = Vec3::new(0.2, 0.2, 0.8) * world;
    let start = distance_to(&flock, corner);
    flock.set_pointer(corner, true);
    assert_eq!(flock.pointer(), Some((corner, true)));
    for _ in 0..300 {
        flock.step(DT);
    }
    let attracted = distance_to(&flock, corner);
    assert!(attracted < 0.5 * start, "attract: {start} -> {attracted}");

    // Repel from the middle of a fresh flock: the middle empties, unlike without the pointer.
    let mut flock = Flock::with_settings(1000, Some(15), Settings::walled());
    let centre = Vec3::splat(world / 2.0);
    let mut calm = flock.clone();
    flock.set_pointer(centre, false);
    for _ in 0..120 {
        flock.step(DT);
        calm.step(DT);
    }
    let near = |f: &Flock| {
        (0..f.len())
            .filter(|&i| at(f.positions(), i).distance(centre) < 0.2 * world)
            .count()
    };
    assert!(
        near(&flock) * 5 < near(&calm),
        "repel: {} boids near the pointer, {} without it",
        near(&flock),
        near(&calm)
    );
    flock.clear_pointer();
    assert_eq!(flock.pointer(), None);
}

#[test]
fn presets_set_exactly_their_values() {
    let mut flock = Flock::new(300, Some(16));
    assert!(boids::sim::PRESETS.len() >= 5);
    for preset in boids::sim::PRESETS {
        flock.apply_preset(preset.name).unwrap();
        for &(param, value) in preset.values {
            assert_eq!(
                flock.get(param) as f32,
                value as f32,
                "{} sets {}",
                preset.name,
                param.spec().name
            );
        }
        flock.step(DT);
        assert!(all_finite(&flock));
    }
    let murmuration = boids::sim::presets::preset("murmuration").unwrap();
    flock.apply_preset(murmuration.name).unwrap();
    let weights =
        [Param::Separation, Param::Alignment, Param::Cohesion].map(|p| flock.get(p) as f32);
    assert_eq!(weights, [2.0, 3.0, 0.4]);
    let before = flock.settings().clone();
    let error = flock.apply_preset("starlings").unwrap_err();
    assert!(error.to_string().contains("starlings"));
    assert_eq!(
        flock.settings(),
        &before,
        "an unknown preset changes nothing"
    );
}
