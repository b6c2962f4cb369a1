//! The measures against brute force (every pair of boids) on random flocks: the groups
//! (connected components within the linking radius) exactly, and the nearest distances,
//! local order and streaming over the boids the measures sample (all of them up to
//! `LOCAL_SAMPLE`). Wrapped and walled worlds, flat and not, clusters, lattices with pairs
//! exactly one radius apart, coincident boids, a single boid, none, and far more boids than
//! the world has room for.
#![cfg(not(target_arch = "wasm32"))]

use boids::sim::measures::{local_sample, measure, Space, Survey, BIG_GROUP, LOCAL_SAMPLE};
use glam::Vec3;
use proptest::prelude::*;

fn at(values: &[f32], i: usize) -> Vec3 {
    Vec3::from_slice(&values[3 * i..3 * i + 3])
}

struct Brute {
    groups: usize,
    big_groups: usize,
    largest: usize,
    /// Nearest distances of the sampled boids that have a neighbour within the radius.
    nearest: Vec<f32>,
    local_order: f32,
    streaming: f32,
}

fn brute(p: &[f32], v: &[f32], space: Space, r: f32) -> Brute {
    let n = p.len() / 3;
    let r2 = r * r;
    let d2 = |i: usize, j: usize| space.offset(at(p, i), at(p, j)).length_squared();
    // Groups: flood fill over every pair.
    let mut group = vec![usize::MAX; n];
    let mut sizes = Vec::new();
    for s in 0..n {
        if group[s] != usize::MAX {
            continue;
        }
        let g = sizes.len();
        group[s] = g;
        let (mut stack, mut size) = (vec![s], 0);
        while let Some(i) = stack.pop() {
            size += 1;
            let unseen: Vec<usize> = (0..n)
                .filter(|&j| group[j] == usize::MAX && d2(i, j) <= r2)
                .collect();
            for j in unseen {
                group[j] = g;
                stack.push(j);
            }
        }
        sizes.push(size);
    }
    let headings: Vec<Vec3> = (0..n).map(|i| at(v, i).normalize_or_zero()).collect();
    let (mut nearest, mut order, mut streaming, mut streaming_boids) = (vec![], 0.0, 0.0, 0);
    // The sample as the measures promise it, written out here: every boid up to
    // `LOCAL_SAMPLE`, else that many spread evenly (k·n/S), each once, in order.
    let sample: Vec<usize> = if n <= LOCAL_SAMPLE {
        (0..n).collect()
    } else {
        (0..LOCAL_SAMPLE).map(|k| k * n / LOCAL_SAMPLE).collect()
    };
    assert_eq!(local_sample(n).collect::<Vec<_>>(), sample);
    for &i in &sample {
        let (mut closest, mut together, mut along, mut seen) =
            (f32::INFINITY, headings[i], 0.0f32, 0);
        for j in (0..n).filter(|&j| j != i) {
            let d = space.offset(at(p, i), at(p, j));
            let dd = d.length_squared();
            if dd <= r2 {
                closest = closest.min(dd);
                together += headings[j];
                if dd > 0.0 {
                    along += headings[i].dot(d / dd.sqrt()).abs();
                    seen += 1;
                }
            }
        }
        if closest.is_finite() {
            nearest.push(closest.sqrt());
        }
        order += together.length() / (1 + seen) as f32;
        if seen > 0 {
            streaming += along / seen as f32;
            streaming_boids += 1;
        }
    }
    Brute {
        groups: sizes.len(),
        big_groups: sizes.iter().filter(|&&s| s >= BIG_GROUP).count(),
        largest: sizes.iter().copied().max().unwrap_or(0),
        nearest,
        local_order: order / sample.len().max(1) as f32,
        streaming: if streaming_boids > 0 {
            streaming / streaming_boids as f32
        } else {
            0.5
        },
    }
}

/// How the boids are laid out.
#[derive(Clone, Copy, Debug)]
enum Layout {
    Uniform,
    /// A few tight clusters.
    Clusters(u8),
    /// All at one point.
    Coincident,
    /// On a lattice of spacing `radius × k / 4`: many pairs exactly a radius apart.
    Lattice(u8),
}

fn flock(
    seed: u64,
    n: usize,
    space: Space,
    r: f32,
    flat: bool,
    layout: Layout,
) -> (Vec<f32>, Vec<f32>) {
    let mut state = seed | 1;
    let mut unit = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32
    };
    let w = space.world;
    // Inside [0, world) however the coordinates were made.
    let inside = |x: f32| {
        if space.wrap {
            x.rem_euclid(w) % w
        } else {
            x.clamp(0.0, w)
        }
    };
    let centres: Vec<Vec3> = (0..8)
        .map(|_| Vec3::new(unit(), unit(), unit()) * w)
        .collect();
    let mut p = Vec::with_capacity(3 * n);
    let mut v = Vec::with_capacity(3 * n);
    for i in 0..n {
        let q = match layout {
            Layout::Uniform => Vec3::new(unit(), unit(), unit()) * w,
            Layout::Clusters(k) => {
                let c = centres[i % (k as usize % 8 + 1)];
                c + (Vec3::new(unit(), unit(), unit()) - 0.5) * 2.0 * r
            }
            Layout::Coincident => centres[0],
            Layout::Lattice(k) => {
                let step = r * f32::from(k % 8 + 1) / 4.0;
                let cells = ((w / step) as usize).max(1);
                let pick = |x: f32| (x * cells as f32).floor() * step;
                Vec3::new(pick(unit()), pick(unit()), pick(unit()))
            }
        };
        let z = if flat { 0.0 } else { inside(q.z) };
        p.extend([inside(q.x), inside(q.y), z]);
        let vz = if flat { 0.0 } else { unit() - 0.5 };
        v.extend([unit() - 0.5, unit() - 0.5, vz]);
    }
    (p, v)
}

fn layout() -> impl Strategy<Value = Layout> {
    prop_oneof![
        Just(Layout::Uniform),
        any::<u8>().prop_map(Layout::Clusters),
        Just(Layout::Coincident),
        any::<u8>().prop_map(Layout::Lattice),
    ]
}

fn check(p: &[f32], v: &[f32], space: Space, r: f32) -> Result<(), TestCaseError> {
    let n = p.len() / 3;
    let m = measure(p, v, space, r, 1.0);
    let b = brute(p, v, space, r);
    prop_assert_eq!(m.count, n);
    prop_assert_eq!(m.groups, b.groups, "groups");
    prop_assert_eq!(m.big_groups, b.big_groups, "big groups");
    let largest = if n > 0 {
        b.largest as f32 / n as f32
    } else {
        0.0
    };
    prop_assert_eq!(m.largest_group, largest);
    let mut nearest = b.nearest.clone();
    if nearest.is_empty() {
        prop_assert!(
            m.mean_nearest.is_nan() && m.median_nearest.is_nan(),
            "{m:?}"
        );
    } else {
        nearest.sort_by(f32::total_cmp);
        prop_assert_eq!(m.median_nearest, nearest[nearest.len() / 2], "median");
        let mean = nearest.iter().sum::<f32>() / nearest.len() as f32;
        let close = (m.mean_nearest - mean).abs() <= 1e-5 * mean.max(1.0);
        prop_assert!(close, "mean nearest {} vs {mean}", m.mean_nearest);
    }
    if n > 0 {
        let order = (m.local_order - b.local_order).abs() <= 1e-4;
        prop_assert!(order, "local order {} vs {}", m.local_order, b.local_order);
        let streaming = (m.streaming - b.streaming).abs() <= 1e-4;
        prop_assert!(streaming, "streaming {} vs {}", m.streaming, b.streaming);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// Up to 400 boids in worlds from a fifth of a radius to 40 radii wide.
    #[test]
    fn measures_match_brute_force(
        seed in any::<u64>(),
        n in 0usize..400,
        world_radii in 0.2f32..40.0,
        r in 0.3f32..20.0,
        wrap in any::<bool>(),
        flat in any::<bool>(),
        layout in layout(),
    ) {
        let space = Space { world: world_radii * r, wrap };
        let (p, v) = flock(seed, n, space, r, flat, layout);
        check(&p, &v, space, r)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    /// Above `LOCAL_SAMPLE` boids (the local measures then sample), up to 3,000 boids, some
    /// packed into a world a few radii wide.
    #[test]
    fn many_boids_match_brute_force(
        seed in any::<u64>(),
        n in LOCAL_SAMPLE..3000,
        world_radii in 1.0f32..12.0,
        wrap in any::<bool>(),
        flat in any::<bool>(),
        layout in layout(),
    ) {
        let r = 5.0;
        let space = Space { world: world_radii * r, wrap };
        let (p, v) = flock(seed, n, space, r, flat, layout);
        check(&p, &v, space, r)?;
    }
}

/// A survey cut into pieces of `budget` units: the calls it took and what it gave. The
/// flock's arrays are overwritten after the survey starts, as the next step would: it
/// measures its own copy.
fn survey_in_pieces(p: &[f32], v: &[f32], space: Space, r: f32, budget: u64) -> (usize, String) {
    let (mut p, mut v) = (p.to_vec(), v.to_vec());
    let mut survey = Survey::new(p.clone(), v.clone(), space, r, 1.0);
    p.fill(f32::NAN);
    v.fill(0.0);
    let mut calls = 0;
    loop {
        calls += 1;
        assert!(calls < 10_000_000, "a survey that never ends");
        if let Some(m) = survey.advance(budget) {
            assert!(survey.is_done());
            // Debug prints each float's shortest exact form: equal text, equal bits (NaN
            // too, which `==` would call unequal).
            return (calls, format!("{m:?}"));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// A survey cut into pieces, however small, gives the very numbers of `measure`. (How
    /// many calls it takes depends on the flock: the union-find counts the work it does,
    /// which a packed cluster makes many times the estimate's.)
    #[test]
    fn a_survey_in_pieces_measures_what_one_at_once_does(
        seed in any::<u64>(),
        n in 0usize..1200,
        world_radii in 0.5f32..20.0,
        wrap in any::<bool>(),
        flat in any::<bool>(),
        layout in layout(),
        budget in prop_oneof![1u64..100, 100u64..300_000],
    ) {
        let r = 5.0;
        let space = Space { world: world_radii * r, wrap };
        let (p, v) = flock(seed, n, space, r, flat, layout);
        let whole = format!("{:?}", measure(&p, &v, space, r, 1.0));
        let (calls, cut) = survey_in_pieces(&p, &v, space, r, budget);
        prop_assert_eq!(&cut, &whole);
        let (one, at_once) = survey_in_pieces(&p, &v, space, r, u64::MAX);
        prop_assert_eq!(one, 1);
        prop_assert_eq!(&at_once, &whole);
        if n > 0 {
            let estimate = Survey::new(p.clone(), v.clone(), space, r, 1.0).estimate();
            if estimate > 4 * budget + 2000 {
                prop_assert!(calls > 1, "cut into pieces");
            }
        }
    }
}

/// Two boids exactly one radius apart are linked (within means ≤), across a wrapped edge
/// too; a hair further they are not.
#[test]
fn a_pair_exactly_one_radius_apart_is_linked() {
    let walls = Space {
        world: 100.0,
        wrap: false,
    };
    let v = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
    let m = measure(&[10.0, 50.0, 0.0, 15.0, 50.0, 0.0], &v, walls, 5.0, 1.0);
    assert_eq!(m.groups, 1);
    assert_eq!(m.median_nearest, 5.0);
    let m = measure(&[10.0, 50.0, 0.0, 15.001, 50.0, 0.0], &v, walls, 5.0, 1.0);
    assert_eq!(m.groups, 2);
    assert!(m.median_nearest.is_nan());
    let wrapped = Space {
        world: 100.0,
        wrap: true,
    };
    let m = measure(&[2.0, 50.0, 7.0, 97.0, 50.0, 7.0], &v, wrapped, 5.0, 1.0);
    assert_eq!(m.groups, 1);
}

/// A single boid is one group with no neighbour; no boids, no groups.
#[test]
fn one_boid_and_none() {
    let space = Space {
        world: 10.0,
        wrap: true,
    };
    let m = measure(&[1.0, 2.0, 3.0], &[1.0, 0.0, 0.0], space, 5.0, 1.0);
    assert_eq!((m.groups, m.big_groups, m.largest_group), (1, 0, 1.0));
    assert!(m.mean_nearest.is_nan());
    let m = measure(&[], &[], space, 5.0, 1.0);
    assert_eq!((m.count, m.groups), (0, 0));
}
