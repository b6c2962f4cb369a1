//! The pigeon flight the page plays (issue 43): www/data/pigeons-ff11.csv.gz, one free flight
//! of ten homing pigeons from Nagy, Ákos, Biro & Vicsek, "Hierarchical group dynamics in
//! pigeon flocks", Nature 464, 890–893 (2010), the fixes their GPS measured. Read natively, it
//! holds what the data's files hold; its profiles at set times and its leadership graph are
//! pinned in tests/data/pigeons-ff11.json, which the browser's test
//! (tests/browser/nature.test.mjs) holds the page's own reading to (fetched, unzipped, read
//! and measured in the worker's module, drawn through the page's flock).
#![cfg(not(target_arch = "wasm32"))]

use std::io::Read;

use boids::sim::leadership::{leadership, LeadershipSpec};
use boids::sim::measures::nature::GroupState;
use boids::sim::measures::profile::{profile, Profile};
use boids::sim::recording::Recording;
use serde_json::{json, Value};

const PINNED: &str = "tests/data/pigeons-ff11.json";
/// The times pinned: before take-off, taking off (the flock at its widest, 91 m), in flight
/// (straight and turning), after landing.
const TIMES: [f32; 6] = [5.0, 20.0, 60.0, 150.0, 230.0, 320.0];

fn flight() -> (Recording, usize) {
    let file = std::fs::File::open("www/data/pigeons-ff11.csv.gz").expect("the flight's file");
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .expect("gzip text");
    let fixes = text
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .count();
    (Recording::parse(&text).expect("the flight reads"), fixes)
}

fn profile_at(recording: &Recording, time: f32) -> Profile {
    let (mut positions, mut velocities) = (Vec::new(), Vec::new());
    for (p, v) in recording.at(time).into_iter().flatten() {
        positions.extend(p.to_array());
        velocities.extend(v.to_array());
    }
    profile(&positions, &velocities)
}

fn state_name(state: GroupState) -> &'static str {
    match state {
        GroupState::Swarm => "swarm",
        GroupState::Milling => "milling",
        GroupState::Polarized => "polarized",
        GroupState::Transitional => "transitional",
    }
}

fn pinned_now() -> Value {
    let (recording, _) = flight();
    let profiles: Vec<Value> = TIMES
        .iter()
        .map(|&t| {
            let p = profile_at(&recording, t);
            json!({
                "time": t,
                "count": p.count,
                "polarization": p.polarization,
                "milling": p.milling,
                "state": state_name(p.state),
                "nearest": p.nearest,
                "speed": p.speed,
                "speedSpread": p.speed_spread,
                "correlationLength": p.correlation_length,
                "size": p.size,
                "anisotropy": p.anisotropy,
            })
        })
        .collect();
    let graph = leadership(&recording, LeadershipSpec::default());
    let id = |i: usize| recording.ids[i].clone();
    json!({
        "source": "www/data/pigeons-ff11.csv.gz: Nagy M, Akos Zs, Biro D, Vicsek T, Nature 464, 890-893 (2010)",
        "profiles": profiles,
        "order": graph.order.iter().map(|&i| id(i)).collect::<Vec<_>>(),
        "leads": graph.leads.iter().map(|l| json!([id(l.leader), id(l.follower), l.delay])).collect::<Vec<_>>(),
    })
}

#[test]
fn the_flight_reads_whole() {
    let (recording, fixes) = flight();
    assert_eq!(
        recording.ids,
        ["A", "B", "C", "D", "G", "H", "I", "J", "L", "M"]
    );
    let held: usize = recording.tracks.iter().map(Vec::len).sum();
    assert_eq!(held, fixes, "every fix of the file is held");
    assert!(fixes > 12_000, "{fixes} fixes");
    let (start, end) = recording.span();
    assert_eq!(start, 0.0);
    assert!((end - 400.2).abs() < 1e-3, "ends at {end} s");
    // Every bird is seen the whole flight (its gaps within its bridge).
    for t in (0..400).map(|k| k as f32) {
        assert!(
            recording.at(t).iter().all(Option::is_some),
            "all ten at {t} s"
        );
    }
}

/// What the flight is, whatever our measures' code: the pigeons fly together and straight
/// at 11-16 m/s mid-flight, and sit still once landed.
#[test]
fn the_flight_flies_then_lands() {
    let (recording, _) = flight();
    let straight = profile_at(&recording, 150.0);
    assert!(straight.polarization > 0.98, "{straight:?}");
    assert!((11.0..16.0).contains(&straight.speed), "{straight:?}");
    assert_eq!(straight.state, GroupState::Polarized);
    let landed = profile_at(&recording, 320.0);
    assert!(landed.speed < 1.0, "{landed:?}");
}

#[test]
fn its_measures_and_leaders_are_as_pinned() {
    let now = pinned_now();
    if std::env::var_os("BOIDS_BLESS").is_some() {
        assert!(
            std::env::var_os("CI").is_none(),
            "BOIDS_BLESS rewrites {PINNED}: not under CI"
        );
        let text = serde_json::to_string_pretty(&now).unwrap() + "\n";
        std::fs::write(PINNED, text).expect("write the pinned figures");
        return;
    }
    let pinned: Value = serde_json::from_str(
        &std::fs::read_to_string(PINNED).expect("tests/data/pigeons-ff11.json"),
    )
    .unwrap();
    assert_eq!(pinned["order"], now["order"]);
    assert_eq!(
        pinned["leads"].as_array().unwrap().len(),
        now["leads"].as_array().unwrap().len()
    );
    for (old, new) in pinned["profiles"]
        .as_array()
        .unwrap()
        .iter()
        .zip(now["profiles"].as_array().unwrap())
    {
        for (key, value) in old.as_object().unwrap() {
            let fresh = &new[key];
            match (value.as_f64(), fresh.as_f64()) {
                (Some(a), Some(b)) => assert!(
                    (a - b).abs() <= 1e-4 * a.abs().max(1.0),
                    "{key} at {}: pinned {a}, now {b}",
                    old["time"]
                ),
                _ => assert_eq!(value, fresh, "{key} at {}", old["time"]),
            }
        }
    }
}
