//! `Flock::inspect`: one boid up close must agree with the step itself — its neighbours
//! with the grid's and brute force's, its terms with the acceleration the step applies.

mod common;

use boids::sim::{rules, Flock, Param, Settings, PANIC_SPEED_FACTOR, SPEED_RESPONSE};
use glam::Vec3;

const DT: f32 = 1.0 / 60.0;

fn at(values: &[f32], i: usize) -> Vec3 {
    Vec3::from_slice(&values[3 * i..3 * i + 3])
}

/// Flocks in every mode: wrap and walls, a blind zone, species, nearest-k, 2D, and every
/// behaviour on.
fn flocks() -> Vec<(&'static str, Flock)> {
    let base = Settings {
        world_size: Some(25.0),
        ..Settings::walled()
    };
    let mut all = vec![
        (
            "walls, 270°",
            Flock::with_settings(400, Some(1), base.clone()),
        ),
        (
            "wrap, 360°",
            Flock::with_settings(
                400,
                Some(2),
                Settings {
                    wrap: true,
                    field_of_view: 360.0,
                    ..base.clone()
                },
            ),
        ),
        (
            "species, 200°",
            Flock::with_settings(
                400,
                Some(3),
                Settings {
                    species: 3,
                    field_of_view: 200.0,
                    ..base.clone()
                },
            ),
        ),
        (
            "nearest 7",
            Flock::with_settings(
                400,
                Some(4),
                Settings {
                    topological: true,
                    nearest_k: 7,
                    ..base.clone()
                },
            ),
        ),
        (
            "2D",
            Flock::with_settings(
                300,
                Some(5),
                Settings {
                    flat: true,
                    ..base.clone()
                },
            ),
        ),
    ];
    let mut busy = Flock::with_settings(400, Some(6), base);
    for (param, value) in [
        (Param::Predators, 2.0),
        (Param::Leaders, 1.0),
        (Param::WindStrength, 3.0),
    ] {
        busy.set(param, value).unwrap();
    }
    busy.add_obstacle(Vec3::splat(12.0), 3.0);
    busy.set_pointer(Vec3::new(5.0, 20.0, 12.0), true);
    all.push(("every behaviour", busy));
    for (_, flock) in &mut all {
        for _ in 0..30 {
            flock.step(DT);
        }
    }
    all
}

#[test]
fn inspect_agrees_with_the_grid_and_the_step() {
    for (mode, mut flock) in flocks() {
        let ids = flock.ids().to_vec();
        let grid_sets = flock.neighbour_sets();
        let accelerations = flock.accelerations(false);
        let before: Vec<(Vec3, Vec3)> = (0..flock.len())
            .map(|i| (at(flock.positions(), i), at(flock.velocities(), i)))
            .collect();
        let inspections: Vec<_> = ids.iter().map(|&id| flock.inspect(id).unwrap()).collect();
        let mut heeded_total = 0;
        for (i, seen) in inspections.iter().enumerate() {
            assert_eq!(seen.id, ids[i]);
            assert_eq!((seen.position, seen.velocity), before[i], "{mode}");
            // The same neighbours as the step's grid scan.
            let mut mine: Vec<u32> = seen.heeded.clone();
            mine.sort_unstable();
            let mut grid: Vec<u32> = grid_sets[i].iter().map(|&j| ids[j]).collect();
            grid.sort_unstable();
            assert_eq!(mine, grid, "{mode}: boid {}", seen.id);
            heeded_total += mine.len();
            // Blind-zone boids are not heeded; those too close are within the radius.
            assert!(
                seen.unseen.iter().all(|id| !seen.heeded.contains(id)),
                "{mode}"
            );
            let r = flock.settings().separation_radius;
            for id in &seen.too_close {
                let j = flock.index_of(*id).unwrap();
                let d = common::distance(&flock, i, j);
                assert!(d < r * 1.0001, "{mode}: {id} is {d} away");
            }
            // Cruise from its own formula (all but `ALONG_SHARE` of the rules' pull along
            // the heading dropped, the speed eased toward cruise, twice it when fleeing),
            // so that the sum below holds the other terms to the total.
            let t = &seen.terms;
            let v = seen.velocity;
            let pull = t.separation + t.alignment + t.cohesion;
            let cruise = flock.settings().speed * if t.fleeing { PANIC_SPEED_FACTOR } else { 1.0 };
            let expected_cruise = if v.length() > 1e-3 {
                v * ((cruise - v.length()) / v.length() * SPEED_RESPONSE
                    - (1.0 - rules::ALONG_SHARE) * pull.dot(v) / v.length_squared())
            } else {
                Vec3::ZERO
            };
            assert!(
                (t.cruise - expected_cruise).length() < 1e-3 * (1.0 + expected_cruise.length()),
                "{mode}: cruise {} vs {expected_cruise}",
                t.cruise
            );
            // The terms add up to the total, which is the step's acceleration.
            let sum =
                t.separation + t.alignment + t.cohesion + t.cruise + t.walls + t.behaviours.sum();
            let sum = if flock.is_flat() {
                Vec3::new(sum.x, sum.y, 0.0)
            } else {
                sum
            };
            let scale = 1.0 + t.total.length();
            assert!(
                (sum - t.total).length() < 1e-3 * scale,
                "{mode}: {sum} vs {}",
                t.total
            );
            let grid_a = at(&accelerations, i);
            assert!(
                (grid_a - t.total).length() < 1e-3 * scale,
                "{mode}: {grid_a} vs {}",
                t.total
            );
        }
        assert!(
            heeded_total > flock.len(),
            "{mode}: the flock should have neighbours"
        );
        let spotted = |f: &dyn Fn(&boids::sim::Inspection) -> bool| {
            inspections.iter().filter(|s| f(s)).count()
        };
        assert!(
            spotted(&|s| !s.too_close.is_empty()) > 0,
            "{mode}: someone too close"
        );
        if flock.settings().field_of_view < 360.0 && !flock.settings().topological {
            assert!(
                spotted(&|s| !s.unseen.is_empty()) > 0,
                "{mode}: someone unseen"
            );
        }
        // The next step applies that acceleration: v' = v + h·a (where no speed limit or
        // edge intervenes).
        flock.step(DT);
        let settings = flock.settings().clone();
        let (min, top) = (0.5 * settings.speed, 1.4 * settings.speed);
        let mut checked = 0;
        for (k, seen) in inspections.iter().enumerate() {
            let expected = before[k].1 + DT * seen.terms.total;
            let speed = expected.length();
            if speed < min * 1.01 || speed > top * 0.99 || seen.terms.fleeing {
                continue;
            }
            let j = flock.index_of(seen.id).unwrap();
            let now = at(flock.velocities(), j);
            // Either the step applied the acceleration, or a wall bounced the boid (one
            // component flipped); anything else is a disagreement.
            let tolerance = 1e-2 * (1.0 + speed);
            let agrees = (now - expected).length() < tolerance;
            let bounced = !settings.wrap && now.abs().distance(expected.abs()) < tolerance;
            assert!(
                agrees || bounced,
                "{mode}: boid {} {now} vs {expected}",
                seen.id
            );
            checked += usize::from(agrees);
        }
        assert!(
            checked > flock.len() / 4,
            "{mode}: only {checked} boids checked"
        );
    }
}

#[test]
fn an_unknown_id_has_nothing_to_inspect() {
    let flock = Flock::new(100, Some(1));
    assert!(flock.inspect(100).is_none());
    assert!(flock.inspect(u32::MAX).is_none());
    assert!(flock.inspect(99).is_some());
}

#[test]
fn the_step_records_each_boids_neighbours_and_strongest_rule_as_inspect_sees_them() {
    // What "colour by neighbours / strongest rule" draws comes from the step itself; it
    // must name what the inspector names for the same boid, in every mode.
    for (mode, mut flock) in flocks() {
        let inspections: Vec<_> = flock
            .ids()
            .to_vec()
            .into_iter()
            .map(|id| flock.inspect(id).unwrap())
            .collect();
        flock.step(DT);
        let (counts, rules) = (flock.neighbour_counts(), flock.strongest_rules());
        assert_eq!(counts.len(), flock.len(), "{mode}");
        assert_eq!(rules.len(), flock.len(), "{mode}");
        let mut differ = 0;
        let mut seen_rules = [0usize; 4];
        for seen in &inspections {
            let j = flock.index_of(seen.id).unwrap();
            assert_eq!(
                usize::from(counts[j]),
                seen.heeded.len(),
                "{mode}: boid {}",
                seen.id
            );
            let t = &seen.terms;
            let expected = boids::sim::rules::strongest(t.separation, t.alignment, t.cohesion);
            seen_rules[usize::from(rules[j])] += 1;
            if rules[j] != expected {
                differ += 1;
            }
        }
        // Rounding may tip a near tie (the SIMD step sums in another order).
        assert!(
            differ <= flock.len() / 100,
            "{mode}: {differ} strongest rules differ from inspect's"
        );
        assert!(
            seen_rules[1..].iter().filter(|&&n| n > 0).count() >= 2,
            "{mode}: more than one rule is strongest somewhere ({seen_rules:?})"
        );
    }
}

#[test]
fn ids_by_distance_from_centre_start_at_the_centre_and_hold_every_id() {
    let mut flock = boids::sim::Flock::new(300, Some(5));
    for _ in 0..30 {
        flock.step(1.0 / 60.0);
    }
    let order = flock.ids_by_distance_from_centre();
    let mut sorted = order.clone();
    sorted.sort_unstable();
    let mut ids = flock.ids().to_vec();
    ids.sort_unstable();
    assert_eq!(sorted, ids, "every id once");
    // Distances from the flock's centre grow along the order: in a walled world, the plain
    // mean of the positions (which `centre()` must report too).
    assert!(!flock.settings().wrap);
    let point = |i: usize| glam::Vec3::from_slice(&flock.positions()[3 * i..3 * i + 3]);
    let centre = (0..flock.len()).map(point).sum::<glam::Vec3>() / flock.len() as f32;
    let reported = flock.centre() * flock.world_size();
    assert!(reported.distance(centre) < 1e-3, "{reported} vs {centre}");
    let distance = |id: u32| point(flock.index_of(id).unwrap()).distance(centre);
    let first = distance(order[0]);
    let last = distance(*order.last().unwrap());
    assert!(first < last, "{first} < {last}");
    for pair in order.windows(2) {
        let (a, b) = (distance(pair[0]), distance(pair[1]));
        assert!(
            a <= b + 1e-3,
            "{} at {a} before {} at {b}",
            pair[0],
            pair[1]
        );
    }
}

#[test]
fn the_strongest_rule_is_the_largest_weighted_push() {
    use rules::strongest;
    let (x, y, z) = (Vec3::X, Vec3::Y, Vec3::Z);
    assert_eq!(
        strongest(Vec3::ZERO, Vec3::ZERO, Vec3::ZERO),
        0,
        "none acts"
    );
    assert_eq!(strongest(3.0 * x, y, z), 1, "separation");
    assert_eq!(strongest(x, -3.0 * y, z), 2, "alignment");
    assert_eq!(strongest(x, y, 3.0 * z), 3, "cohesion");
    // By size, not by a component: (1, 1, 1) is longer than (1.5, 0, 0).
    assert_eq!(strongest(1.5 * x, Vec3::ONE, Vec3::ZERO), 2);
    // A tie goes to the first.
    assert_eq!(strongest(Vec3::ZERO, 2.0 * y, 2.0 * z), 2);
    assert_eq!(strongest(x, y, z), 1);
}
