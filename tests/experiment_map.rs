//! Two-parameter maps (issue 44): a spec's `map` read and refused by field, each cell the
//! curve's point at that value (bit for bit: a map is its curves side by side), slices that
//! partition it and merge back on the command line, its CSV read back, and the drone map
//! (tests/fixtures/experiment-map.json: delay × message loss, 5 × 5, 3 seeds, 1,500 boids)
//! pinned as the command line writes it (`csv.native`); tests/browser/experiment-map.test.mjs
//! runs it in Chromium's workers (`csv.browser`: other last bits, SSE2 against SIMD128, which
//! a flock grows; the same map within its seeds' spread). `BOIDS_BLESS=1` rewrites `native`.
// Native only: it runs the binary.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use boids::sim::experiment::{
    js_number, parse_csv, read_json, run, write_csv, Axis, Direction, ErrorKind, Row, Spec,
    MAX_CELLS,
};
use boids::sim::Param;

/// A small map: alignment 0, 1.5, 3 across noise 0 and 1; 200 boids, 2 seeds, 1 s + 1 s.
fn small_map() -> Spec {
    Spec {
        settings: vec![(Param::Wrap, 1.0), (Param::Cohesion, 1.2)],
        param: Param::Alignment,
        values: vec![0.0, 1.5, 3.0],
        map: Some(Axis {
            param: Param::Noise,
            values: vec![0.0, 1.0],
        }),
        direction: Direction::Up,
        seeds: vec![1, 2],
        count: 200,
        settle: 1.0,
        measure: 1.0,
        sample_every: 0.5,
        slice: None,
    }
}

const SMALL_MAP_JSON: &str = r#"{"settings": {"wrap": 1, "cohesion": 1.2}, "param": "alignment",
  "values": [0, 1.5, 3], "map": {"param": "noise", "values": [0, 1]}, "direction": "up",
  "seeds": [1, 2], "count": 200, "settle": 1, "measure": 1, "sampleEvery": 0.5}"#;

/// A row's measures, samples and state as bits (NaN included).
fn bits(row: &Row) -> Vec<u64> {
    let mut all = vec![
        row.samples as u64,
        row.state.map_or(9, |s| s.index() as u64),
    ];
    for stat in row.stats() {
        all.extend([stat.mean.to_bits(), stat.sd.to_bits()]);
    }
    all
}

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boids-map-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the binary (quiet, on `threads` threads); its exit status and stderr.
fn experiment(args: &[&str], threads: usize) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_experiment"))
        .args(args)
        .arg("--quiet")
        .env("RAYON_NUM_THREADS", threads.to_string())
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_map_is_read_and_each_wrong_field_is_named() {
    assert_eq!(read_json(SMALL_MAP_JSON), Ok(small_map()));
    let with = |from: &str, to: &str| {
        assert!(SMALL_MAP_JSON.contains(from), "{from}");
        read_json(&SMALL_MAP_JSON.replace(from, to))
    };
    let map = r#""map": {"param": "noise", "values": [0, 1]}"#;
    // Left out or null: a curve.
    let curve = with(&format!("{map}, "), "").unwrap();
    assert_eq!(curve.map, None);
    assert_eq!(with(map, r#""map": null"#).unwrap().map, None);
    let cases: &[(&str, &str, ErrorKind, &str)] = &[
        (
            map,
            r#""map": 3"#,
            ErrorKind::Type,
            "map must be an object or undefined, got a number",
        ),
        (
            map,
            r#""map": {"param": "noise", "values": [0], "by": 1}"#,
            ErrorKind::Type,
            "map.by is not a field of a map (param, values)",
        ),
        (
            map,
            r#""map": {"values": [0]}"#,
            ErrorKind::Type,
            "map.param must be a string, got undefined",
        ),
        (
            map,
            r#""map": {"param": "bogus", "values": [0]}"#,
            ErrorKind::Type,
            "map.param: unknown parameter",
        ),
        (
            map,
            r#""map": {"param": "seed", "values": [1]}"#,
            ErrorKind::Type,
            "map.param: seed comes from seeds",
        ),
        (
            map,
            r#""map": {"param": "alignment", "values": [1]}"#,
            ErrorKind::Range,
            "map.param: must be another parameter than param",
        ),
        (
            map,
            r#""map": {"param": "noise", "values": 1}"#,
            ErrorKind::Type,
            "map.values must be an array, got a number",
        ),
        (
            map,
            r#""map": {"param": "noise", "values": []}"#,
            ErrorKind::Range,
            "map.values: at least one value is needed",
        ),
        (
            map,
            r#""map": {"param": "noise", "values": [0, 9]}"#,
            ErrorKind::Range,
            "map.values[1]: outside the range of noise, 0 to 4",
        ),
        (
            map,
            r#""map": {"param": "noise", "values": [0, "1"]}"#,
            ErrorKind::Type,
            "map.values[1] must be a number, got a string",
        ),
        (
            map,
            r#""map": {"param": "wrap", "values": [0.5]}"#,
            ErrorKind::Range,
            "map.values[0]: must be true, false, 1 or 0",
        ),
        (
            r#""direction": "up""#,
            r#""direction": "up-down""#,
            ErrorKind::Range,
            "direction: a map runs \"up\" only: each cell from a fresh flock",
        ),
    ];
    for (from, to, kind, message) in cases {
        let error = with(from, to).expect_err(to);
        assert_eq!(
            (error.kind, error.message.as_str()),
            (*kind, *message),
            "{to}"
        );
    }
    // On/off values as true/false on a map too.
    let toggled = with(map, r#""map": {"param": "wrap", "values": [false, true]}"#).unwrap();
    assert_eq!(toggled.map.unwrap().values, vec![0.0, 1.0]);
    // At most MAX_CELLS cells: 6 values across 201 are too many, 5 across 201 are not.
    let mut wide = small_map();
    wide.values = (0..6).map(|i| f64::from(i) / 2.0).collect();
    wide.map.as_mut().unwrap().values = (0..201).map(|i| f64::from(i) / 50.0).collect();
    let error = wide.validate().unwrap_err();
    assert_eq!(MAX_CELLS, 1024);
    assert_eq!(
        (error.kind, error.message.as_str()),
        (
            ErrorKind::Range,
            "map.values: at most 1024 cells (values × map.values)"
        )
    );
    wide.values.pop();
    assert_eq!(wide.validate(), Ok(()));
}

#[test]
fn each_cell_of_a_map_is_the_curve_at_its_value() {
    let map = small_map();
    let rows = run(map.clone()).unwrap();
    let across = map.map.clone().unwrap();
    assert_eq!(rows.len(), 2 * 3 * 2, "seeds × values × map values");
    for (j, &noise) in across.values.iter().enumerate() {
        let mut curve = map.clone();
        curve.map = None;
        curve.settings.push((Param::Noise, noise));
        let curve_rows = run(curve).unwrap();
        for (s, &seed) in map.seeds.iter().enumerate() {
            for (i, &alignment) in map.values.iter().enumerate() {
                // Seed by seed, the map's rows row by row (its values along each).
                let cell = &rows[s * 6 + j * 3 + i];
                let point = &curve_rows[s * 3 + i];
                assert_eq!(
                    (cell.seed, cell.value, cell.map_value),
                    (seed, alignment, noise)
                );
                assert_eq!(
                    point.map_value.to_bits(),
                    f64::NAN.to_bits(),
                    "a curve has no map value"
                );
                assert_eq!(
                    bits(cell),
                    bits(point),
                    "seed {seed}, alignment {alignment}, noise {noise}"
                );
            }
        }
    }
    // The same spec, the same rows.
    let again = run(map).unwrap();
    assert_eq!(
        rows.iter().map(bits).collect::<Vec<_>>(),
        again.iter().map(bits).collect::<Vec<_>>()
    );
}

#[test]
fn a_maps_print_csv_slices_and_merge() {
    let map = small_map();
    let mut curve = map.clone();
    curve.map = None;
    assert_ne!(
        map.print(),
        curve.print(),
        "a map is another experiment than its curve"
    );
    let mut other = map.clone();
    other.map.as_mut().unwrap().values[1] = 0.5;
    assert_ne!(map.print(), other.print());
    assert_eq!(map.units().len(), 12);

    // The CSV: the map's parameter and value after the first's, read back as written.
    let rows = run(map.clone()).unwrap();
    let csv = write_csv("test", &map, &rows, None, js_number);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[2].contains(
            r#""values":[0,1.5,3],"map":{"param":"noise","values":[0,1]},"direction":"up""#
        ),
        "{}",
        lines[2]
    );
    assert!(
        lines[3]
            .starts_with("param,direction,seed,value,map_param,map_value,samples,polarization,"),
        "{}",
        lines[3]
    );
    assert!(
        lines[4].starts_with("alignment,up,1,0,noise,0,2,"),
        "{}",
        lines[4]
    );
    assert!(
        lines[7].starts_with("alignment,up,1,0,noise,1,2,"),
        "{}",
        lines[7]
    );
    let parsed = parse_csv(&csv).unwrap();
    assert_eq!(parsed.spec, map);
    assert_eq!(parsed.print, map.fingerprint());
    for (read, run) in parsed.rows.iter().zip(&rows) {
        assert_eq!(
            (read.value, read.map_value, read.seed),
            (run.value, run.map_value, run.seed)
        );
        assert_eq!(bits(read), bits(run));
    }
    // A curve's header on a map's spec is not its header.
    let curve_csv = write_csv(
        "test",
        &curve,
        &run(curve.clone()).unwrap(),
        None,
        js_number,
    );
    let wrong = csv.replace(lines[3], curve_csv.lines().nth(3).unwrap());
    assert_eq!(
        parse_csv(&wrong).err().unwrap(),
        "line 4: not the experiment's header"
    );

    // The command line: four slices (a class split) merged give the whole, byte for byte.
    let dir = folder("slices");
    let spec = dir.join("map.json");
    std::fs::write(&spec, SMALL_MAP_JSON).unwrap();
    let spec = spec.to_str().unwrap();
    let whole = dir.join("whole.csv");
    assert!(experiment(&[spec, "-o", whole.to_str().unwrap()], 2).0);
    let whole_text = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(
        whole_text.lines().skip(1).collect::<Vec<_>>(),
        lines[1..].to_vec(),
        "the CLI's rows are run()'s"
    );
    let mut parts = Vec::new();
    for k in 1..=4 {
        let part = dir.join(format!("part{k}.csv"));
        let (ok, stderr) = experiment(
            &[
                spec,
                "--slice",
                &format!("{k}/4"),
                "-o",
                part.to_str().unwrap(),
            ],
            1,
        );
        assert!(ok, "{stderr}");
        parts.push(part.to_str().unwrap().to_string());
    }
    let merged = dir.join("merged.csv");
    let mut args: Vec<&str> = vec!["merge"];
    args.extend(parts.iter().map(String::as_str));
    args.extend(["-o", merged.to_str().unwrap()]);
    let (ok, stderr) = experiment(&args, 1);
    assert!(ok, "{stderr}");
    assert_eq!(std::fs::read_to_string(&merged).unwrap(), whole_text);
    // A slice's row moved to another cell is refused, naming both.
    let first = std::fs::read_to_string(&parts[0]).unwrap();
    let garbled = first.replacen("alignment,up,1,0,noise,0,", "alignment,up,1,0,noise,1,", 1);
    assert_ne!(garbled, first);
    std::fs::write(&parts[0], garbled).unwrap();
    let (ok, stderr) = experiment(&args, 1);
    assert!(!ok);
    assert!(
        stderr.contains("a row of seed 1 (up 0, 1) where seed 1 (up 0, 0) was due"),
        "{stderr}"
    );
    // More slices than cells × seeds is refused.
    let (ok, stderr) = experiment(&[spec, "--slice", "1/13"], 1);
    assert!(!ok);
    assert!(
        stderr.contains("slice.of: must be at most the number of units, 12"),
        "{stderr}"
    );
}

/// The drone map's fixture: its spec, the version it was written with, and its CSV.
struct Fixture {
    json: serde_json::Value,
    spec_text: String,
    version: String,
    csv: String,
}

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/experiment-map.json"
);

fn fixture() -> Fixture {
    let text = std::fs::read_to_string(FIXTURE).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    Fixture {
        spec_text: json["spec"].to_string(),
        version: json["version"].as_str().unwrap().to_string(),
        csv: json["csv"]["native"].as_str().unwrap().to_string(),
        json,
    }
}

/// The mean over seeds of `measure` at a cell.
fn cell_mean(rows: &[Row], delay: f64, loss: f64, measure: fn(&Row) -> f64) -> f64 {
    let at: Vec<f64> = rows
        .iter()
        .filter(|r| r.value == delay && r.map_value == loss)
        .map(measure)
        .collect();
    assert!(!at.is_empty(), "no cell {delay}, {loss}");
    at.iter().sum::<f64>() / at.len() as f64
}

#[test]
fn the_drone_map_runs_as_pinned_and_delay_breaks_the_swarm_at_every_loss() {
    let fixture = fixture();
    let spec = read_json(&fixture.spec_text).unwrap();
    let across = spec.map.clone().expect("a map");
    assert_eq!(
        (
            spec.values.len(),
            across.values.len(),
            spec.seeds.len(),
            spec.count
        ),
        (5, 5, 3, 1500)
    );
    let dir = folder("drone");
    let file = dir.join("spec.json");
    std::fs::write(&file, &fixture.spec_text).unwrap();
    let out = dir.join("map.csv");
    let started = Instant::now();
    let (ok, stderr) = experiment(&[file.to_str().unwrap(), "-o", out.to_str().unwrap()], 2);
    assert!(ok, "{stderr}");
    eprintln!(
        "the drone map, 75 points on 2 threads: {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let csv = std::fs::read_to_string(&out).unwrap();
    let version = format!("# boids {}\n", env!("CARGO_PKG_VERSION"));
    let pinned = csv.replacen(&version, &format!("# boids {}\n", fixture.version), 1);
    if std::env::var_os("BOIDS_BLESS").is_some() {
        let json = serde_json::json!({
            "about": "The drone swarm's map (issue 44): delay (0 to 0.2 s) across message loss (0 to 0.8), 5 × 5 cells, seeds 1-3, 1,500 boids, 4 s settle and 2 s measure a cell, the drone swarm preset's other settings. `csv.native`: the command line's CSV of it (tests/experiment_map.rs; BOIDS_BLESS=1 cargo test --test experiment_map rewrites it). `csv.browser`: the CSV Chromium's workers write (tests/browser/experiment-map.test.mjs; BOIDS_BLESS=1 node --test that file rewrites it), the same in every browser; its numbers differ from the native ones after the last bits (SSE2 lanes against SIMD128), which a flock of 1,500 grows within seconds: each cell agrees within its seeds' spread.",
            "spec": serde_json::from_str::<serde_json::Value>(&fixture.spec_text).unwrap(),
            "version": env!("CARGO_PKG_VERSION"),
            "csv": { "native": csv, "browser": fixture.json["csv"]["browser"] },
        });
        std::fs::write(FIXTURE, serde_json::to_string_pretty(&json).unwrap() + "\n").unwrap();
        return;
    }
    assert_eq!(
        pinned, fixture.csv,
        "the drone map's CSV is no longer the pinned one"
    );
    let rows = parse_csv(&csv).unwrap().rows;
    assert_eq!(rows.len(), 75);
    // What the map shows: at every message loss the velocity correlation falls as the delay
    // grows (0, 0.1, 0.2 s: measured 0.19, 0.05, 0.03 with every message heard; 0.76, 0.46,
    // 0.23 with four in five lost: losing messages softens the late pushes).
    let correlation = |r: &Row| r.velocity_correlation.mean;
    for &loss in &across.values {
        let [none, tenth, fifth] = [0.0, 0.1, 0.2].map(|d| cell_mean(&rows, d, loss, correlation));
        eprintln!("loss {loss}: velocity correlation {none:.3} {tenth:.3} {fifth:.3}");
        assert!(
            none > tenth && tenth > fifth,
            "loss {loss}: {none} {tenth} {fifth}"
        );
    }
    let heard = cell_mean(&rows, 0.1, 0.0, correlation);
    let lost = cell_mean(&rows, 0.1, 0.8, correlation);
    assert!(
        lost > 2.0 * heard,
        "at 0.1 s, loss 0.8 against 0: {lost} {heard}"
    );
}
