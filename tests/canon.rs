//! The canon as ready experiments (issue 43): the spec files in `examples/experiments/` read
//! as they are, and run shortened (fewer values or seeds, shorter windows) they show what
//! docs/nature.md reports of the full runs: ξ/L growing with the flock and levelling off
//! (Cavagna et al. 2010), γ(1) lower with topological neighbours than with metric ones
//! (Ballerini et al. 2008), and Couzin's zones read as states (a swarm below a zone of 1.5,
//! a mill from 2.5 up). The row's ξ/L and γ(1) are NaN where they are not taken: a wrapped
//! world, more than `CANON_MAX_COUNT` boids; γ(1) in a flat flock.

#![cfg(not(target_arch = "wasm32"))]

use boids::sim::experiment::{read_json, run, Row, Spec, CANON_MAX_COUNT};
use boids::sim::measures::nature::GroupState;
use boids::sim::Param;

fn canon(name: &str) -> Spec {
    let path = format!(
        "{}/examples/experiments/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    read_json(&std::fs::read_to_string(&path).unwrap()).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn mean_of(rows: &[Row], keep: impl Fn(&Row) -> bool, pick: impl Fn(&Row) -> f64) -> f64 {
    let picked: Vec<f64> = rows.iter().filter(|r| keep(r)).map(pick).collect();
    assert!(!picked.is_empty());
    picked.iter().sum::<f64>() / picked.len() as f64
}

#[test]
fn the_correlation_length_grows_with_the_flock_and_levels_off() {
    let mut spec = canon("correlation-size");
    assert_eq!(spec.param, Param::Count);
    spec.values = vec![100.0, 400.0, 800.0];
    spec.seeds = vec![1];
    spec.measure = 4.0;
    let rows = run(spec).unwrap();
    let share: Vec<f64> = rows.iter().map(|r| r.correlation_share.mean).collect();
    for (row, s) in rows.iter().zip(&share) {
        assert!(*s > 0.0 && *s < 1.0, "ξ/L at {}: {s}", row.value);
        assert!(row.anisotropy.mean >= 0.0 && row.anisotropy.mean <= 1.0);
        assert_eq!(row.state, Some(GroupState::Polarized));
    }
    assert!(share[1] > share[0] + 0.1, "ξ/L grows: {share:?}");
    assert!(
        (share[2] - share[1]).abs() < 0.1,
        "then levels off: {share:?}"
    );
}

#[test]
fn topological_neighbours_lie_more_along_the_motion_than_metric_ones() {
    let mut spec = canon("anisotropy-topological");
    assert_eq!(spec.param, Param::Topological);
    spec.settle = 10.0;
    spec.measure = 6.0;
    let rows = run(spec).unwrap();
    let gamma = |on: f64| mean_of(&rows, |r| r.value == on, |r| r.anisotropy.mean);
    let (metric, topological) = (gamma(0.0), gamma(1.0));
    assert!(
        topological < metric - 0.1,
        "γ(1) metric {metric}, topological {topological}"
    );
}

#[test]
fn couzins_zones_read_as_states_swarm_then_mill() {
    let mut spec = canon("zones-state");
    assert_eq!(spec.param, Param::AlignmentRadius);
    spec.values = vec![0.5, 1.0, 3.0, 4.0];
    spec.seeds = vec![1];
    let rows = run(spec).unwrap();
    for row in &rows {
        let want = if row.value < 1.5 {
            GroupState::Swarm
        } else {
            GroupState::Milling
        };
        assert_eq!(row.state, Some(want), "zone {} {:?}", row.value, row.leg);
    }
}

#[test]
fn a_wrapped_world_and_a_big_flock_leave_the_canon_measures_unset() {
    let mut spec = canon("anisotropy-topological");
    spec.values = vec![0.0];
    spec.seeds = vec![1];
    spec.settle = 0.5;
    spec.measure = 0.5;
    spec.sample_every = 0.5;
    spec.count = 100;
    spec.settings.push((Param::Sky, 0.0));
    spec.settings.push((Param::Wrap, 1.0));
    let wrapped = run(spec.clone()).unwrap();
    assert!(wrapped[0].correlation_share.mean.is_nan() && wrapped[0].anisotropy.mean.is_nan());
    assert!(wrapped[0].polarization.mean.is_finite() && wrapped[0].state.is_some());
    spec.settings.pop();
    let open = run(spec.clone()).unwrap();
    assert!(open[0].correlation_share.mean.is_finite() && open[0].anisotropy.mean.is_finite());
    spec.settings.push((Param::Flat, 1.0));
    let flat = run(spec.clone()).unwrap();
    assert!(flat[0].correlation_share.mean.is_finite() && flat[0].anisotropy.mean.is_nan());
    spec.settings.pop();
    spec.count = CANON_MAX_COUNT + 1;
    spec.measure = 1.0 / 60.0;
    spec.sample_every = 1.0 / 60.0;
    let big = run(spec).unwrap();
    assert!(big[0].correlation_share.mean.is_nan() && big[0].anisotropy.mean.is_nan());
}
