//! A step shared among workers is the step of one thread, bit for bit (issue 30): in every
//! mode, a flock stepped by `k` workers' copies (`load_head`, then `advance_part` for one
//! share each, or `advance_parts` for the chunks each claims) and taken in by
//! `finish_parts` is the flock stepped on its own, down to its snapshot's bytes, for `k` =
//! 1, 2, 3 and 7 (uneven shares, empty shares and chunks, more shares than layers).
//!
//! The same file runs natively and in both wasm builds (`scripts/test.sh`): the scan's
//! lanes differ between them, and the claim is made for each.

use boids::sim::{Flock, Handout, Param, PartState, Settings, Split};
use glam::Vec3;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test_configure!(run_in_browser);

const STEP: f32 = 1.0 / 60.0;

/// Every mode the step has a path for.
fn modes() -> Vec<(&'static str, Flock)> {
    let flock = |count, seed, settings| Flock::with_settings(count, Some(seed), settings);
    let walled = Settings::walled;
    let mut busy = flock(
        700,
        11,
        Settings {
            predators: 2,
            leaders: 2,
            species: 3,
            wind_strength: 2.0,
            field_of_view: 240.0,
            ..walled()
        },
    );
    busy.add_obstacle(Vec3::new(10.0, 10.0, 10.0), 3.0);
    busy.set_pointer(Vec3::new(5.0, 2.0, 3.0), true);
    let mut flat_busy = flock(
        600,
        12,
        Settings {
            flat: true,
            predators: 1,
            leaders: 1,
            species: 2,
            ..walled()
        },
    );
    flat_busy.set_pointer(Vec3::new(5.0, 2.0, 0.0), false);
    vec![
        ("defaults: the open sky 3D", Flock::new(900, Some(7))),
        ("walls 3D", flock(900, 7, walled())),
        (
            "wrap 3D",
            flock(
                900,
                8,
                Settings {
                    wrap: true,
                    ..walled()
                },
            ),
        ),
        (
            "2D walls",
            flock(
                800,
                9,
                Settings {
                    flat: true,
                    ..walled()
                },
            ),
        ),
        (
            "2D wrap, noise",
            flock(
                800,
                10,
                Settings {
                    flat: true,
                    wrap: true,
                    noise: 1.0,
                    ..walled()
                },
            ),
        ),
        (
            "2D sky",
            flock(
                700,
                13,
                Settings {
                    flat: true,
                    ..Settings::default()
                },
            ),
        ),
        (
            "nearest-k 3D",
            flock(
                600,
                14,
                Settings {
                    topological: true,
                    nearest_k: 7,
                    ..walled()
                },
            ),
        ),
        (
            "nearest-k 2D wrap",
            flock(
                600,
                15,
                Settings {
                    topological: true,
                    nearest_k: 5,
                    flat: true,
                    wrap: true,
                    ..walled()
                },
            ),
        ),
        (
            "alignment zone, species, noise",
            flock(
                700,
                16,
                Settings {
                    alignment_radius: 2.0,
                    species: 2,
                    noise: 0.5,
                    ..walled()
                },
            ),
        ),
        (
            "a world a few cells wide (nearest images)",
            flock(
                300,
                17,
                Settings {
                    wrap: true,
                    world_size: Some(12.0),
                    ..walled()
                },
            ),
        ),
        ("hawks, leaders, species, wind, obstacle, pointer", busy),
        ("2D hawk, leader, species, pointer", flat_busy),
        (
            "a drone swarm: delay, loss, wrong headings, bold members",
            flock(
                700,
                18,
                Settings {
                    delay: 0.3,
                    message_loss: 0.25,
                    failures: 0.15,
                    failure_mode: 2,
                    roles: 0.4,
                    ..walled()
                },
            ),
        ),
        (
            "a drone swarm, 2D, nearest k: delay, halting failures",
            flock(
                500,
                19,
                Settings {
                    flat: true,
                    topological: true,
                    nearest_k: 5,
                    delay: 0.2,
                    failures: 0.25,
                    failure_mode: 1,
                    ..walled()
                },
            ),
        ),
    ]
}

/// How a test's step is cut among its workers.
#[derive(Clone, Copy)]
enum Cut {
    /// One share each, even (`Split::even`).
    Even,
    /// One share each, uneven: share `k` of `n` ends at (k + 1)² / n² of the boids, the
    /// last past the end.
    Skewed,
    /// The page's way: `Flock::chunks` chunks, claimed one at a time from a counter that
    /// all the workers share; here chunk `k` falls to worker (`k` × 7 + `turn`) mod `n`,
    /// as a worker that the host slows takes fewer, and the next runs of one worker's
    /// chunks are not always next to each other.
    Claimed(usize),
}

/// Steps `flock` once as `workers` (copies kept from step to step) sharing the step, each
/// share's runs copied into one state as the page copies them, the sort's order with them.
fn shared_step(flock: &mut Flock, workers: &mut [Flock], cut: Cut) {
    let mut all = PartState::default();
    all.resize(flock.len());
    step_shares(flock, &flock.step_head(), workers, cut, &mut all);
    assert!(
        flock.finish_parts(STEP, &mut all),
        "the shares hold every boid"
    );
}

/// The workers' side of `shared_step`: each loads `head` and the boids of `flock`, steps its
/// share, and its runs are copied into `all` (room for every boid), its totals summed.
fn step_shares(flock: &Flock, head: &[u8], workers: &mut [Flock], cut: Cut, all: &mut PartState) {
    let count = flock.len();
    let parts = workers.len();
    let chunks = flock.chunks();
    let skewed = |k: usize| match k {
        k if k == parts => count + 5,
        k => count * k * k / (parts * parts),
    };
    for (part, worker) in workers.iter_mut().enumerate() {
        worker.load_head(head, count).expect("the head loads");
        let (positions, velocities, species, ids) = worker.boids_mut();
        positions.copy_from_slice(flock.positions());
        velocities.copy_from_slice(flock.velocities());
        species.copy_from_slice(flock.species());
        ids.copy_from_slice(flock.ids());
        let mut share = PartState::default();
        let stepped = match cut {
            Cut::Even => {
                worker.advance_part(STEP, Split::even(part, parts, count).unwrap(), &mut share)
            }
            Cut::Skewed => {
                let split = Split {
                    from: skewed(part),
                    to: skewed(part + 1),
                };
                worker.advance_part(STEP, split, &mut share)
            }
            Cut::Claimed(turn) => {
                let mut mine = (0..chunks).filter(|k| (k * 7 + turn) % parts == part);
                let claim = || mine.next().map(|k| Split::even(k, chunks, count).unwrap());
                worker.advance_parts(STEP, claim, &mut share)
            }
        };
        assert!(stepped);
        for run in &share.runs {
            let xyz = 3 * run.start..3 * run.end;
            all.positions[xyz.clone()].copy_from_slice(&share.positions[xyz.clone()]);
            all.velocities[xyz.clone()].copy_from_slice(&share.velocities[xyz]);
            all.counts[run.clone()].copy_from_slice(&share.counts[run.clone()]);
            all.strongest[run.clone()].copy_from_slice(&share.strongest[run.clone()]);
            all.order[run.clone()].copy_from_slice(&share.order[run.clone()]);
        }
        all.totals.neighbours += share.totals.neighbours;
        all.totals.examined += share.totals.examined;
    }
}

fn assert_same(name: &str, step: usize, alone: &Flock, shared: &Flock) {
    let what = format!("{name}, step {step}");
    assert_eq!(alone.positions(), shared.positions(), "{what}: positions");
    assert_eq!(
        alone.velocities(),
        shared.velocities(),
        "{what}: velocities"
    );
    assert_eq!(alone.ids(), shared.ids(), "{what}: ids");
    assert_eq!(alone.species(), shared.species(), "{what}: species");
    assert_eq!(
        alone.neighbour_counts(),
        shared.neighbour_counts(),
        "{what}: neighbours"
    );
    assert_eq!(
        alone.strongest_rules(),
        shared.strongest_rules(),
        "{what}: rules"
    );
    assert_eq!(
        alone.mean_candidates().to_bits(),
        shared.mean_candidates().to_bits(),
        "{what}: candidates"
    );
    assert_eq!(alone.snapshot(), shared.snapshot(), "{what}: snapshot");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn a_step_shared_among_workers_is_the_step_of_one_in_every_mode() {
    for (name, start) in modes() {
        for workers in [1, 2, 3, 7] {
            let mut alone = start.clone();
            let mut shared = start.clone();
            let mut copies = vec![Flock::new(0, Some(0)); workers];
            for step in 0..40 {
                alone.step(STEP);
                let cut = match step % 3 {
                    0 => Cut::Even,
                    1 => Cut::Skewed,
                    _ => Cut::Claimed(step),
                };
                shared_step(&mut shared, &mut copies, cut);
                assert_same(&format!("{name}, {workers} workers"), step, &alone, &shared);
            }
            // The flock flew: a test of two frozen flocks would pass as well.
            assert_ne!(alone.positions(), start.positions(), "{name}");
            assert!(
                alone.mean_neighbours() > 0.5,
                "{name}: boids saw each other"
            );
        }
    }
}

/// Shares cut the walk where they should: their runs of slots, all together, hold every
/// boid once; a share is a few runs (whole layers one, a part of a layer one a row of
/// cells), not one a cell; and no share is empty while another holds most of the flock
/// (even shares are within a quarter of even each in 3D, a half in 2D). The same of the
/// chunks a page's workers claim one at a time (`Flock::chunks`), however they fall to
/// the workers; and from 20,000 boids (where the page shares its steps) no chunk holds
/// more than twice an even one or an eighth of the flock, so no worker waits long for the
/// last.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn shares_hold_every_boid_once_and_about_equally() {
    let flat = Settings {
        flat: true,
        ..Settings::default()
    };
    for (count, settings) in [
        (4000, Settings::default()),
        (4000, flat.clone()),
        (20_000, Settings::default()),
        (20_000, flat.clone()),
    ] {
        let mut flock = Flock::with_settings(count, Some(3), settings);
        for _ in 0..30 {
            flock.step(STEP);
        }
        let head = flock.step_head();
        let load = || {
            let mut worker = Flock::new(0, Some(0));
            worker.load_head(&head, count).unwrap();
            let (p, v, _, _) = worker.boids_mut();
            p.copy_from_slice(flock.positions());
            v.copy_from_slice(flock.velocities());
            worker
        };
        let what = |n: usize| format!("{count} boids, flat {}: {n} workers", flock.is_flat());
        for parts in [2, 3, 4] {
            let mut held = vec![0u8; count];
            let mut sizes = Vec::new();
            for part in 0..parts {
                let mut share = PartState::default();
                let split = Split::even(part, parts, count).unwrap();
                assert!(load().advance_part(STEP, split, &mut share));
                assert!(
                    share.runs.len() <= 64,
                    "{}: share {part} is {} runs",
                    what(parts),
                    share.runs.len()
                );
                for run in &share.runs {
                    held[run.clone()].iter_mut().for_each(|times| *times += 1);
                }
                sizes.push(share.boids());
            }
            assert!(
                held.iter().all(|&times| times == 1),
                "{}: once",
                what(parts)
            );
            // A share ends at an edge between columns of cells: in 2D a column is a whole
            // line of cells across the flock, a coarser step.
            let fair = count / parts;
            let slack = if flock.is_flat() { fair / 2 } else { fair / 4 };
            for size in &sizes {
                assert!(
                    size.abs_diff(fair) < slack,
                    "{}: {sizes:?} against {fair} each",
                    what(parts)
                );
            }
            // The chunks, dealt out as the host's turns might: worker k takes every
            // `parts`-th from its own start.
            let chunks = flock.chunks();
            assert!(chunks >= 2 * parts, "{}: {chunks} chunks", what(parts));
            let mut held = vec![0u8; count];
            let mut largest = 0;
            for part in 0..parts {
                let mut mine = (part..chunks).step_by(parts);
                let mut share = PartState::default();
                let mut claim = || mine.next().map(|k| Split::even(k, chunks, count).unwrap());
                let claimed = load().advance_parts(STEP, &mut claim, &mut share);
                assert!(claimed && share.runs.len() <= 64 * chunks.div_ceil(parts));
                for run in &share.runs {
                    held[run.clone()].iter_mut().for_each(|times| *times += 1);
                }
                for k in (part..chunks).step_by(parts) {
                    let split = Split::even(k, chunks, count).unwrap();
                    assert!(load().advance_part(STEP, split, &mut share));
                    largest = largest.max(share.boids());
                }
            }
            assert!(
                held.iter().all(|&times| times == 1),
                "{}: chunks",
                what(parts)
            );
            if count >= 20_000 {
                assert!(
                    largest <= (2 * count / chunks).max(count / 8),
                    "{}: a chunk of {largest} boids, of {chunks}",
                    what(parts)
                );
            }
        }
    }
}

/// What is refused: a step of several substeps, a share that ends before it starts, shares that do
/// not hold the flock (another count), a head that is not one; the flock untouched.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn what_cannot_be_a_shared_step_is_refused() {
    let mut flock = Flock::new(300, Some(5));
    flock.step(STEP);
    let before = flock.snapshot();
    let mut worker = Flock::new(0, Some(0));
    let mut share = PartState::default();
    worker.load_head(&flock.step_head(), flock.len()).unwrap();
    let whole = Split::even(0, 1, flock.len()).unwrap();
    assert!(!worker.advance_part(0.05, whole, &mut share));
    assert_eq!(
        Split::even(2, 2, flock.len()),
        None,
        "no share past the last"
    );
    let backwards = Split { from: 200, to: 100 };
    assert!(!worker.advance_part(STEP, backwards, &mut share));
    assert!(!worker.advance_part(f32::NAN, whole, &mut share));
    let mut short = PartState::default();
    short.resize(299);
    assert!(!flock.finish_parts(STEP, &mut short));
    assert!(!flock.finish_parts(0.05, &mut short));
    assert_eq!(flock.snapshot(), before, "refused, the flock is untouched");
    assert!(worker.load_head(b"BOID not a head", 10).is_err());
    assert!(worker.load_head(&flock.step_head(), 1_000_000_000).is_err());
    // A step, a change of count, new positions: each moves the revision the page checks.
    let revision = flock.revision();
    flock.step(STEP);
    assert_ne!(flock.revision(), revision, "a step");
    let revision = flock.revision();
    flock.set_count(301);
    assert_ne!(flock.revision(), revision, "a change of count");
    let revision = flock.revision();
    let (p, v) = (flock.positions().to_vec(), flock.velocities().to_vec());
    flock.set_state(&p, &v);
    assert_ne!(flock.revision(), revision, "new positions");
}

/// The rule a shared step is taken in by (`Handout`: the page's `shareBegin` … `shareFinish`):
/// taken in, the step of one thread bit for bit, when the flock is as it was handed out;
/// refused, the flock left as it was, after each change that makes it another flock (a step
/// of its own and new positions move its revision, a count its length, a setting or a
/// behaviour its head), with nothing handed out, or for a `dt` of several substeps.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn a_shared_step_is_taken_in_only_by_the_flock_it_was_handed_out_from() {
    let mut start = Flock::new(400, Some(21));
    start.step(STEP);
    let mut workers = vec![Flock::new(0, Some(0)); 2];
    // Hands a step of `flock` out and has the workers step it.
    let hand_out = |flock: &Flock, workers: &mut [Flock]| {
        let mut handout = Handout::default();
        let head = handout.begin(flock).to_vec();
        step_shares(flock, &head, workers, Cut::Even, &mut handout.shares);
        handout
    };

    let (mut alone, mut shared) = (start.clone(), start.clone());
    let mut handout = hand_out(&shared, &mut workers);
    let totals = handout.shares.totals;
    assert!(handout.finish(&mut shared, STEP, totals), "nothing changed");
    alone.step(STEP);
    assert_same("taken in", 1, &alone, &shared);
    let before = shared.snapshot();
    assert!(!handout.finish(&mut shared, STEP, totals), "taken in once");
    assert!(
        !Handout::default().finish(&mut shared, STEP, totals),
        "none handed out"
    );
    let mut handout = hand_out(&shared, &mut workers);
    assert!(
        !handout.finish(&mut shared, 0.05, totals),
        "several substeps"
    );
    assert!(
        !handout.finish(&mut shared, STEP, totals),
        "dropped, refused"
    );
    assert_eq!(shared.snapshot(), before, "refused, the flock is untouched");

    type Change = fn(&mut Flock);
    let changes: [(&str, Change); 8] = [
        ("a step of its own", |f| f.step(STEP)),
        ("the same positions set anew", |f| {
            let (p, v) = (f.positions().to_vec(), f.velocities().to_vec());
            f.set_state(&p, &v);
        }),
        ("a boid more", |f| f.set_count(f.len() + 1)),
        ("a boid fewer", |f| f.set_count(f.len() - 1)),
        ("a rebuild", |f| f.rebuild()),
        ("a setting", |f| {
            f.set(Param::Cohesion, f.get(Param::Cohesion) + 0.5)
                .unwrap();
        }),
        ("an obstacle", |f| {
            assert!(f.add_obstacle(Vec3::ZERO, 2.0));
        }),
        ("the pointer", |f| f.set_pointer(Vec3::ONE, true)),
    ];
    for (change, make) in changes {
        let mut flock = start.clone();
        let mut handout = hand_out(&flock, &mut workers);
        make(&mut flock);
        let before = flock.snapshot();
        let totals = handout.shares.totals;
        assert!(!handout.finish(&mut flock, STEP, totals), "{change}");
        assert_eq!(flock.snapshot(), before, "{change}: the flock is untouched");
    }
}
