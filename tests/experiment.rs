//! Experiments (issue 26): the spec's rules, the rows (the same twice, bit for bit; "up" as a
//! flock run by hand; "up-down" both legs), slices that partition the whole, the native
//! runner's CSV (slices merged equal the whole run; another experiment refused), numbers
//! written as JavaScript writes them, the one reader (its messages; on/off values as
//! `true`/`false` or 1/0), the golden experiment (tests/fixtures/experiment-golden.json: its
//! print and its exact CSV, the browser's as well as this runner's, which
//! tests/browser/experiment.test.mjs checks in Chromium too), and one physical check:
//! alignment orders a flock.
// Native only: it runs the binary.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;
use std::process::Command;

use boids::sim::experiment::{
    js_number, pack_rows, param_named, parse_csv, read_json, run, write_csv, write_packed_csv,
    Direction, ErrorKind, Leg, Row, Runner, Slice, Spec, Stat, DT, MAX_COUNT, MAX_SEEDS,
    MAX_VALUES, ROW_NUMBERS,
};
use boids::sim::{Flock, Param, Settings};

/// The small experiment of the tests: 200 boids, 2 seeds, 3 values, 1 s + 1 s.
fn small(direction: Direction) -> Spec {
    Spec {
        settings: vec![(Param::Wrap, 1.0), (Param::Cohesion, 1.2)],
        param: Param::Alignment,
        values: vec![0.0, 1.5, 3.0],
        map: None,
        direction,
        seeds: vec![1, 2],
        count: 200,
        settle: 1.0,
        measure: 1.0,
        sample_every: 0.5,
        slice: None,
    }
}

/// Every number of a row as bits, to compare rows exactly (NaN included).
fn bits(rows: &[Row]) -> Vec<Vec<u64>> {
    rows.iter()
        .map(|row| {
            let mut all = vec![
                u64::from(row.seed),
                row.leg as u64,
                row.value.to_bits(),
                row.value_index as u64,
                row.samples as u64,
            ];
            for stat in row.stats() {
                all.extend([stat.mean.to_bits(), stat.sd.to_bits()]);
            }
            all
        })
        .collect()
}

#[test]
fn each_rule_names_its_field_and_kind() {
    type Change = fn(&mut Spec);
    let cases: &[(Change, &str, ErrorKind)] = &[
        (
            |s| s.settings.push((Param::Seed, 3.0)),
            "settings.seed",
            ErrorKind::Type,
        ),
        (
            |s| s.settings[1].1 = f64::NAN,
            "settings.cohesion",
            ErrorKind::Range,
        ),
        (
            |s| s.settings[0].1 = f64::INFINITY,
            "settings.wrap",
            ErrorKind::Range,
        ),
        // An on/off parameter takes 1 or 0 (true or false, as the reader reads them).
        (|s| s.settings[0].1 = 0.5, "settings.wrap", ErrorKind::Range),
        (|s| s.param = Param::Seed, "param", ErrorKind::Type),
        (|s| s.values.clear(), "values", ErrorKind::Range),
        (
            |s| s.values = vec![1.0; MAX_VALUES + 1],
            "values",
            ErrorKind::Range,
        ),
        (|s| s.values[1] = f64::NAN, "values[1]", ErrorKind::Range),
        (|s| s.values[2] = 3.5, "values[2]", ErrorKind::Range),
        (|s| s.values[0] = -0.1, "values[0]", ErrorKind::Range),
        (|s| s.seeds.clear(), "seeds", ErrorKind::Range),
        (
            |s| s.seeds = vec![1; MAX_SEEDS + 1],
            "seeds",
            ErrorKind::Range,
        ),
        (|s| s.count = 1, "count", ErrorKind::Range),
        (|s| s.count = MAX_COUNT + 1, "count", ErrorKind::Range),
        (|s| s.settle = -1.0, "settle", ErrorKind::Range),
        (|s| s.settle = f64::NAN, "settle", ErrorKind::Range),
        (|s| s.measure = 0.0, "measure", ErrorKind::Range),
        (|s| s.measure = f64::INFINITY, "measure", ErrorKind::Range),
        (|s| s.settle = 599.5, "measure", ErrorKind::Range),
        (|s| s.sample_every = 0.0, "sampleEvery", ErrorKind::Range),
        (|s| s.sample_every = 0.001, "sampleEvery", ErrorKind::Range),
        (|s| s.sample_every = 1.5, "sampleEvery", ErrorKind::Range),
        (
            |s| s.sample_every = f64::NAN,
            "sampleEvery",
            ErrorKind::Range,
        ),
        (
            |s| s.slice = Some(Slice { index: 0, of: 0 }),
            "slice.of",
            ErrorKind::Range,
        ),
        (
            |s| s.slice = Some(Slice { index: 0, of: 7 }),
            "slice.of",
            ErrorKind::Range,
        ),
        (
            |s| s.slice = Some(Slice { index: 3, of: 3 }),
            "slice.index",
            ErrorKind::Range,
        ),
        // The first failure wins.
        (
            |s| {
                s.values[0] = 9.0;
                s.count = 0;
            },
            "values[0]",
            ErrorKind::Range,
        ),
    ];
    assert_eq!(small(Direction::Up).validate(), Ok(()));
    for (i, (change, field, kind)) in cases.iter().enumerate() {
        let mut spec = small(Direction::Up);
        change(&mut spec);
        let error = spec.validate().expect_err(&format!("case {i} ({field})"));
        assert_eq!(
            (error.field.as_str(), error.kind),
            (*field, *kind),
            "case {i}"
        );
        assert!(error.message.starts_with(field), "{}", error.message);
        assert!(
            Runner::new(spec).is_err(),
            "case {i}: Runner::new validates"
        );
    }
    // The range is in the message, written without float printing.
    let mut spec = small(Direction::Up);
    spec.param = Param::SeparationRadius;
    spec.values = vec![0.05];
    let message = spec.validate().unwrap_err().message;
    assert_eq!(
        message,
        "values[0]: outside the range of separationRadius, 0.1 to 12"
    );
    // Names the spec gives are checked where they are read.
    let unknown = param_named("settings.foo", "foo").unwrap_err();
    assert_eq!(unknown.kind, ErrorKind::Type);
    assert_eq!(unknown.message, "settings.foo: unknown parameter");
    assert_eq!(param_named("param", "alignment"), Ok(Param::Alignment));
    assert_eq!(Direction::from_name("up-down"), Some(Direction::UpDown));
    assert_eq!(Direction::from_name("down"), None);
}

#[test]
fn the_same_spec_gives_the_same_rows_bit_for_bit() {
    for direction in [Direction::Up, Direction::UpDown] {
        let first = run(small(direction)).unwrap();
        let second = run(small(direction)).unwrap();
        assert_eq!(bits(&first), bits(&second));
        // A few steps at a time, as the worker runs it, gives the same rows.
        let mut runner = Runner::new(small(direction)).unwrap();
        let mut calls = 0;
        while !runner.advance(37) {
            calls += 1;
            assert!(runner.steps_done() < runner.steps_total());
        }
        assert_eq!(runner.steps_done(), runner.steps_total());
        assert!(calls > 5, "{calls}");
        assert_eq!(bits(runner.rows()), bits(&first));
    }
}

/// Mean and sample standard deviation, as the rows have them.
fn stat(samples: &[f64]) -> Stat {
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    let squares: f64 = samples.iter().map(|x| (x - mean) * (x - mean)).sum();
    Stat {
        mean,
        sd: (squares / (n - 1.0)).sqrt(),
    }
}

#[test]
fn an_up_row_is_a_fresh_flock_run_by_hand() {
    let spec = small(Direction::Up);
    let rows = run(spec.clone()).unwrap();
    assert_eq!(rows.len(), 6);
    // Seed 2, value 1.5: the fifth row.
    let row = rows[4];
    assert_eq!(
        (row.seed, row.leg, row.value, row.value_index),
        (2, Leg::Up, 1.5, 1)
    );
    let mut flock = Flock::with_settings(200, Some(2), Settings::walled());
    flock.set(Param::Wrap, 1.0).unwrap();
    flock.set(Param::Cohesion, 1.2).unwrap();
    flock.set(Param::Alignment, 1.5).unwrap();
    let mut taken = [(); 6].map(|_| Vec::new());
    // Samples at 1.5 s and 2 s: steps 90 and 120 of 1/60 s.
    for step in 1..=120 {
        flock.step(DT);
        if step == 90 || step == 120 {
            let m = flock.metrics();
            let measures = [
                f64::from(m.polarization),
                f64::from(m.milling),
                m.big_groups as f64,
                f64::from(m.largest_group),
                f64::from(m.median_nearest),
                f64::from(flock.mean_neighbours()),
            ];
            for (list, value) in taken.iter_mut().zip(measures) {
                list.push(value);
            }
        }
    }
    assert_eq!(row.samples, 2);
    for (got, samples) in row.stats().into_iter().zip(&taken) {
        let want = stat(samples);
        assert_eq!(got.mean.to_bits(), want.mean.to_bits(), "{samples:?}");
        assert_eq!(got.sd.to_bits(), want.sd.to_bits(), "{samples:?}");
    }
}

#[test]
fn up_down_rows_hold_both_legs_with_the_top_in_both() {
    let spec = small(Direction::UpDown);
    let rows = run(spec.clone()).unwrap();
    let got: Vec<(u32, Leg, f64)> = rows.iter().map(|r| (r.seed, r.leg, r.value)).collect();
    let mut want = Vec::new();
    for seed in [1, 2] {
        for value in [0.0, 1.5, 3.0] {
            want.push((seed, Leg::Up, value));
        }
        for value in [3.0, 1.5, 0.0] {
            want.push((seed, Leg::Down, value));
        }
    }
    assert_eq!(got, want);
    // The chain carries on: the first point of a seed is an "up" run's, the later ones not.
    let up = run(small(Direction::Up)).unwrap();
    assert_eq!(bits(&rows[..1]), bits(&up[..1]));
    assert_ne!(bits(&rows[1..2]), bits(&up[1..2]));
    // The top measured twice, a settle apart: not the same window.
    assert_ne!(rows[2].polarization, rows[3].polarization);
    assert!(rows.iter().all(|row| row.samples == 2));
}

#[test]
fn slices_partition_the_whole_and_their_rows_are_the_whole_runs() {
    for direction in [Direction::Up, Direction::UpDown] {
        let whole = small(direction);
        let units = whole.units();
        assert_eq!(whole.slice_units(), units);
        let whole_rows = run(whole.clone()).unwrap();
        for of in 1..=4.min(units.len()) {
            let mut seen = Vec::new();
            let mut rows = Vec::new();
            for index in 0..of {
                let mut spec = whole.clone();
                spec.slice = Some(Slice { index, of });
                assert_eq!(spec.fingerprint(), whole.fingerprint());
                let mine = spec.slice_units();
                assert!(!mine.is_empty());
                for (k, unit) in mine.iter().enumerate() {
                    assert_eq!(*unit, units[index + k * of], "round robin");
                }
                seen.extend(mine);
                rows.extend(run(spec).unwrap());
            }
            seen.sort_by_key(|u| (u.seed_index, u.value_index));
            assert_eq!(seen, units, "{of} slices of {direction:?}");
            // Rows of every slice, put back in canonical order, are the whole run's.
            // (seed, place in its chain): an up-down chain runs 0, 1, 2 up, then 2, 1, 0 down.
            let key = |r: &Row| match r.leg {
                Leg::Up => (r.seed, r.value_index),
                Leg::Down => (r.seed, 5 - r.value_index),
            };
            rows.sort_by_key(key);
            assert_eq!(bits(&rows), bits(&whole_rows), "{of} slices");
        }
    }
}

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boids-experiment-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const SMALL_JSON: &str = r#"{"settings": {"wrap": 1, "cohesion": 1.2}, "param": "alignment",
  "values": [0, 1.5, 3], "direction": "up", "seeds": [1, 2], "count": 200,
  "settle": 1, "measure": 1, "sampleEvery": 0.5}"#;

/// Runs the binary; its exit status and stderr.
fn experiment(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_experiment"))
        .args(args)
        .arg("--quiet")
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn read(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn the_cli_writes_the_rows_of_run_and_merged_slices_equal_the_whole() {
    let dir = folder("merge");
    let spec_file = dir.join("spec.json");
    std::fs::write(&spec_file, SMALL_JSON).unwrap();
    let spec = spec_file.to_str().unwrap();
    let whole = dir.join("whole.csv");
    assert!(experiment(&[spec, "-o", whole.to_str().unwrap()]).0);
    let text = read(&whole);
    let lines: Vec<&str> = text.lines().collect();
    let spec_rust = small(Direction::Up);
    assert_eq!(lines[0], format!("# boids {}", env!("CARGO_PKG_VERSION")));
    assert_eq!(
        lines[1],
        format!("# experiment {:016x}", spec_rust.fingerprint())
    );
    assert_eq!(
        lines[2],
        "# spec {\"settings\":{\"wrap\":1,\"cohesion\":1.2},\"param\":\"alignment\",\
         \"values\":[0,1.5,3],\"direction\":\"up\",\"seeds\":[1,2],\"count\":200,\
         \"settle\":1,\"measure\":1,\"sampleEvery\":0.5}"
    );
    assert!(lines[3].starts_with("param,direction,seed,value,samples,polarization,"));
    // The rows, read back, are `run`'s bit for bit (rayon changed nothing).
    let rows = run(spec_rust).unwrap();
    assert_eq!(lines.len(), 4 + rows.len());
    for (line, row) in lines[4..].iter().zip(&rows) {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(
            fields[..5],
            [
                "alignment",
                "up",
                &row.seed.to_string(),
                &js_number(row.value),
                "2"
            ]
        );
        let (state, stats) = fields[5..].split_last().unwrap();
        assert_eq!(*state, row.state.map_or("", |s| s.name()), "{line}");
        let numbers: Vec<u64> = stats
            .iter()
            .map(|f| {
                if f.is_empty() {
                    f64::NAN
                } else {
                    f.parse::<f64>().unwrap()
                }
                .to_bits()
            })
            .collect();
        let want: Vec<u64> = row
            .stats()
            .iter()
            .flat_map(|s| [s.mean.to_bits(), s.sd.to_bits()])
            .collect();
        assert_eq!(numbers, want, "{line}");
    }
    for n in 1..=4 {
        let mut parts = Vec::new();
        for k in (1..=n).rev() {
            let part = dir.join(format!("slice-{k}-of-{n}.csv"));
            let slice = format!("{k}/{n}");
            assert!(experiment(&[spec, "--slice", &slice, "-o", part.to_str().unwrap()]).0);
            assert!(read(&part).contains(&format!("\n# slice {k}/{n}\n")));
            parts.push(part.to_str().unwrap().to_string());
        }
        let merged = dir.join(format!("merged-{n}.csv"));
        let mut args: Vec<&str> = vec!["merge"];
        args.extend(parts.iter().map(String::as_str));
        args.extend(["-o", merged.to_str().unwrap()]);
        let (ok, stderr) = experiment(&args);
        assert!(ok, "{stderr}");
        assert_eq!(read(&merged), text, "{n} slices merged");
    }
    // Up-down chains split by seed merge the same way.
    let up_down = dir.join("up-down.json");
    std::fs::write(&up_down, SMALL_JSON.replace("\"up\"", "\"up-down\"")).unwrap();
    let up_down = up_down.to_str().unwrap();
    let (whole, a, b, merged) = (
        dir.join("ud.csv"),
        dir.join("ud1.csv"),
        dir.join("ud2.csv"),
        dir.join("udm.csv"),
    );
    let path = |p: &PathBuf| p.to_str().unwrap().to_string();
    assert!(experiment(&[up_down, "-o", &path(&whole)]).0);
    assert!(experiment(&[up_down, "--slice", "2/2", "-o", &path(&b)]).0);
    assert!(experiment(&[up_down, "--slice", "1/2", "-o", &path(&a)]).0);
    assert!(experiment(&["merge", &path(&b), &path(&a), "-o", &path(&merged)]).0);
    assert_eq!(read(&merged), read(&whole));
    assert_eq!(
        read(&whole)
            .lines()
            .filter(|l| l.contains(",down,"))
            .count(),
        6
    );
}

#[test]
fn merge_refuses_another_experiment_duplicates_and_gaps() {
    let dir = folder("refuse");
    let (one, other) = (dir.join("one.json"), dir.join("other.json"));
    std::fs::write(&one, SMALL_JSON).unwrap();
    std::fs::write(&other, SMALL_JSON.replace("[0, 1.5, 3]", "[0, 1.5, 2.5]")).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    assert!(
        experiment(&[
            one.to_str().unwrap(),
            "--slice",
            "1/2",
            "-o",
            &path("a.csv")
        ])
        .0
    );
    assert!(
        experiment(&[
            one.to_str().unwrap(),
            "--slice",
            "2/2",
            "-o",
            &path("b.csv")
        ])
        .0
    );
    assert!(
        experiment(&[
            other.to_str().unwrap(),
            "--slice",
            "2/2",
            "-o",
            &path("c.csv")
        ])
        .0
    );
    let (ok, stderr) = experiment(&["merge", &path("a.csv"), &path("c.csv")]);
    assert!(!ok);
    assert!(
        stderr.contains(&path("c.csv")) && stderr.contains("another experiment"),
        "{stderr}"
    );
    let (ok, stderr) = experiment(&["merge", &path("a.csv"), &path("b.csv"), &path("a.csv")]);
    assert!(!ok && stderr.contains("also in"), "{stderr}");
    let (ok, stderr) = experiment(&["merge", &path("b.csv")]);
    assert!(!ok && stderr.contains("missing"), "{stderr}");
    assert!(experiment(&["merge", &path("b.csv"), "--partial", "-o", &path("p.csv")]).0);
    // A spec the rules refuse is refused before anything runs, naming the field.
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        SMALL_JSON.replace("\"count\": 200", "\"count\": 20001"),
    )
    .unwrap();
    let (ok, stderr) = experiment(&[bad.to_str().unwrap()]);
    assert!(!ok && stderr.contains("count:"), "{stderr}");
    std::fs::write(&bad, SMALL_JSON.replace("\"wrap\"", "\"warp\"")).unwrap();
    let (ok, stderr) = experiment(&[bad.to_str().unwrap()]);
    assert!(
        !ok && stderr.contains("settings.warp: unknown parameter"),
        "{stderr}"
    );
}

#[test]
fn numbers_are_written_as_javascript_writes_them() {
    for (value, text) in [
        (0.0, "0"),
        (-0.0, "0"),
        (1.0, "1"),
        (0.1, "0.1"),
        (1e-7, "1e-7"),
        (1.5e-7, "1.5e-7"),
        (0.000001, "0.000001"),
        (123456789012345680000.0, "123456789012345680000"),
        (1e21, "1e+21"),
        (1.5e21, "1.5e+21"),
        (0.30000000000000004, "0.30000000000000004"),
        (-2.5, "-2.5"),
        (1500.0, "1500"),
        (f64::NAN, "NaN"),
        (f64::INFINITY, "Infinity"),
        (-f64::INFINITY, "-Infinity"),
    ] {
        assert_eq!(js_number(value), text, "{value:?}");
    }
}

/// SMALL_JSON with `from` replaced by `to`, read.
fn read_with(from: &str, to: &str) -> Result<Spec, boids::sim::experiment::SpecError> {
    assert!(SMALL_JSON.contains(from), "{from}");
    read_json(&SMALL_JSON.replace(from, to))
}

#[test]
fn the_reader_names_the_field_and_its_type() {
    let small = small(Direction::Up);
    assert_eq!(read_json(SMALL_JSON), Ok(small.clone()));
    // `settings` may be left out or null; a slice is read.
    let bare = read_with("\"settings\": {\"wrap\": 1, \"cohesion\": 1.2}, ", "").unwrap();
    assert!(bare.settings.is_empty());
    let sliced = read_with("\"up\"", "\"up\", \"slice\": {\"index\": 1, \"of\": 3}").unwrap();
    assert_eq!(sliced.slice, Some(Slice { index: 1, of: 3 }));
    let cases: &[(&str, &str, ErrorKind, &str)] = &[
        ("\"param\": \"alignment\"", "\"param\": 3", ErrorKind::Type, "param must be a string, got a number"),
        ("\"param\": \"alignment\"", "\"param\": \"bogus\"", ErrorKind::Type, "param: unknown parameter"),
        ("\"wrap\"", "\"warp\"", ErrorKind::Type, "settings.warp: unknown parameter"),
        ("1.2}", "\"strong\"}", ErrorKind::Type, "settings.cohesion must be a number, got a string"),
        ("[0, 1.5, 3]", "2", ErrorKind::Type, "values must be an array, got a number"),
        ("[0, 1.5, 3]", "[0, \"1\"]", ErrorKind::Type, "values[1] must be a number, got a string"),
        ("[0, 1.5, 3]", "[0, 9]", ErrorKind::Range, "values[1]: outside the range of alignment, 0 to 3"),
        ("\"up\"", "\"sideways\"", ErrorKind::Type, "direction must be \"up\" or \"up-down\""),
        ("[1, 2]", "[1, 2.5]", ErrorKind::Type, "seeds[1] must be a whole number from 0 to 4294967295"),
        ("[1, 2]", "[-1]", ErrorKind::Type, "seeds[0] must be a whole number from 0 to 4294967295"),
        ("\"count\": 200", "\"count\": 10.5", ErrorKind::Type, "count must be a whole number"),
        ("\"count\": 200", "\"count\": 1e6", ErrorKind::Range, "count: must be 2 to 20000 boids"),
        ("\"count\": 200", "\"count\": -3", ErrorKind::Range, "count: must be 2 to 20000 boids"),
        ("\"measure\": 1", "\"measure\": null", ErrorKind::Type, "measure must be a number, got null"),
        ("\"measure\": 1, ", "", ErrorKind::Type, "measure must be a number, got undefined"),
        ("\"up\"", "\"up\", \"sampleevery\": 1", ErrorKind::Type, "spec.sampleevery is not a field of a spec (settings, param, values, map, direction, seeds, count, settle, measure, sampleEvery, slice)"),
        ("\"up\"", "\"up\", \"slice\": {\"index\": -1, \"of\": 3}", ErrorKind::Type, "slice.index must be a whole number ≥ 0"),
        ("\"up\"", "\"up\", \"slice\": {\"index\": 3, \"of\": 3}", ErrorKind::Range, "slice.index: must be below slice.of"),
        ("\"up\"", "\"up\", \"slice\": 2", ErrorKind::Type, "slice must be an object or undefined, got a number"),
    ];
    for (from, to, kind, message) in cases {
        let error = read_with(from, to).expect_err(message);
        assert_eq!((error.kind, error.message.as_str()), (*kind, *message));
        assert!(error.message.starts_with(&error.field), "{error:?}");
    }
    for text in ["[]", "\"spec\"", "null", "{\"settings\": "] {
        let error = read_json(text).unwrap_err();
        assert_eq!(error.kind, ErrorKind::Type);
        assert!(error.message.starts_with("spec"), "{}", error.message);
    }
    // A list far too long is not read whole: "at most".
    let many = format!("[{}]", vec!["1"; 5000].join(","));
    let error = read_with("[0, 1.5, 3]", &many).unwrap_err();
    assert_eq!(error.message, "values: at most 201 values");
}

/// Issue 41: an on/off setting (and an on/off parameter's values) takes `true`/`false` as
/// well as 1/0, meaning the same: the same spec, the same print, the same rows.
#[test]
fn on_off_values_take_true_and_false_as_1_and_0() {
    let numbers = read_with("\"wrap\": 1", "\"wrap\": 1, \"flat\": 0").unwrap();
    let booleans = read_with("\"wrap\": 1", "\"wrap\": true, \"flat\": false").unwrap();
    assert_eq!(booleans, numbers);
    assert_eq!(booleans.settings[0], (Param::Wrap, 1.0));
    assert_eq!(booleans.settings[1], (Param::Flat, 0.0));
    assert_eq!(booleans.fingerprint(), numbers.fingerprint());
    // Sweeping an on/off parameter: its values may be booleans too.
    let sweep = |values: &str| {
        let text = SMALL_JSON.replace("\"alignment\"", "\"topological\"");
        read_json(&text.replace("[0, 1.5, 3]", values))
    };
    let (ones, trues) = (sweep("[0, 1]").unwrap(), sweep("[false, true]").unwrap());
    assert_eq!(trues, ones);
    assert_eq!(trues.values, [0.0, 1.0]);
    // A number parameter takes no boolean; an on/off one no other number, nor a string.
    let refused = [
        (
            "1.2}",
            "true}",
            ErrorKind::Type,
            "settings.cohesion must be a number, got a boolean",
        ),
        (
            "\"wrap\": 1",
            "\"wrap\": 2",
            ErrorKind::Range,
            "settings.wrap: must be true, false, 1 or 0",
        ),
        (
            "\"wrap\": 1",
            "\"wrap\": \"on\"",
            ErrorKind::Type,
            "settings.wrap must be true, false, 1 or 0, got a string",
        ),
    ];
    for (from, to, kind, message) in refused {
        let error = read_with(from, to).expect_err(message);
        assert_eq!((error.kind, error.message.as_str()), (kind, message));
    }
    let error = read_with("[0, 1.5, 3]", "[true]").unwrap_err();
    assert_eq!(error.message, "values[0] must be a number, got a boolean");
    // Run: `wrap: true` flies the flock that `wrap: 1` flies.
    let short = |spec: Spec| Spec {
        values: vec![1.5],
        seeds: vec![1],
        count: 60,
        settle: 0.25,
        measure: 0.25,
        sample_every: 0.25,
        ..spec
    };
    let bools = read_with("\"wrap\": 1", "\"wrap\": true").unwrap();
    let ones = read_json(SMALL_JSON).unwrap();
    assert_eq!(
        bits(&run(short(bools)).unwrap()),
        bits(&run(short(ones)).unwrap())
    );
    // The command line reads them too.
    let dir = folder("booleans");
    let file = dir.join("spec.json");
    std::fs::write(&file, SMALL_JSON.replace("\"wrap\": 1", "\"wrap\": true")).unwrap();
    let out = dir.join("out.csv");
    let (ok, stderr) = experiment(&[file.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert!(read(&out).contains("# spec {\"settings\":{\"wrap\":1,\"cohesion\":1.2},"));
}

/// The golden experiment (tests/fixtures/experiment-golden.json), as the browser test reads it.
struct Golden {
    spec: Spec,
    spec_text: String,
    fingerprint: String,
    version: String,
    link: String,
    native: String,
    browser: String,
}

fn golden() -> Golden {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/experiment-golden.json"
    );
    let json: serde_json::Value = serde_json::from_str(&read(std::path::Path::new(path))).unwrap();
    let text = |value: &serde_json::Value| value.as_str().unwrap().to_string();
    Golden {
        spec: read_json(&json["spec"].to_string()).unwrap(),
        spec_text: json["spec"].to_string(),
        fingerprint: text(&json["fingerprint"]),
        version: text(&json["version"]),
        link: text(&json["link"]),
        native: text(&json["csv"]["native"]),
        browser: text(&json["csv"]["browser"]),
    }
}

/// Every row's numbers of two CSVs of one experiment, to compare within rounding.
fn row_numbers(csv: &str) -> Vec<(String, Vec<f64>)> {
    let parsed = parse_csv(csv).unwrap();
    parsed
        .rows
        .iter()
        .map(|row| {
            let key = format!(
                "{} {} {} {} {:?}",
                row.seed,
                row.leg.name(),
                row.value,
                row.samples,
                row.state
            );
            let numbers = row.stats().iter().flat_map(|s| [s.mean, s.sd]).collect();
            (key, numbers)
        })
        .collect()
}

#[test]
fn the_golden_experiment_reads_prints_and_writes_as_pinned() {
    let golden = golden();
    let spec = &golden.spec;
    // Read (wrap given as true), printed.
    assert_eq!(spec.settings[0], (Param::Wrap, 1.0));
    assert_eq!(spec.print(), golden.fingerprint);
    assert_eq!(format!("{:016x}", spec.fingerprint()), golden.fingerprint);
    let link = Some(golden.link.as_str());
    // The writer: the browser's rows, read back from its CSV, written again are its text, byte
    // for byte (numbers as V8 wrote them, here by `js_number`).
    let browser = parse_csv(&golden.browser).unwrap();
    assert_eq!(browser.spec.print(), golden.fingerprint);
    let again = write_csv(
        &golden.version,
        &browser.spec,
        &browser.rows,
        link,
        js_number,
    );
    assert_eq!(again, golden.browser);
    // ... and packed as numbers, as the worker's module hands rows over and the browser
    // hands them back for the CSV (`pack_rows`, `write_packed_csv`).
    let packed = pack_rows(&browser.rows);
    assert_eq!(packed.len(), ROW_NUMBERS * browser.rows.len());
    let again = write_packed_csv(&golden.version, spec, &packed, link, js_number);
    assert_eq!(again, golden.browser);
    // The run: this machine's rows make the native CSV (x86_64, bit for bit; elsewhere its
    // lanes may round otherwise: the same rows within rounding).
    let rows = run(spec.clone()).unwrap();
    let native = write_csv(&golden.version, spec, &rows, link, js_number);
    if cfg!(target_arch = "x86_64") {
        assert_eq!(native, golden.native);
    }
    let lines = |csv: &str| csv.lines().take(5).map(String::from).collect::<Vec<_>>();
    assert_eq!(
        lines(&native),
        lines(&golden.native),
        "comment lines and header"
    );
    assert_eq!(lines(&golden.browser), lines(&golden.native));
    // Native and browser rows: the same points, the same numbers to rounding (other lanes).
    for other in [&native, &golden.browser] {
        let (ours, theirs) = (row_numbers(&golden.native), row_numbers(other));
        assert_eq!(ours.len(), theirs.len());
        for ((key, a), (other_key, b)) in ours.iter().zip(&theirs) {
            assert_eq!(key, other_key);
            for (x, y) in a.iter().zip(b) {
                assert!(
                    (x.is_nan() && y.is_nan()) || (x - y).abs() <= 1e-4 * (1.0 + x.abs()),
                    "{key}: {x} against {y}"
                );
            }
        }
    }
    // The command line writes the same (no link line: it has none).
    let dir = folder("golden");
    let file = dir.join("golden.json");
    std::fs::write(&file, &golden.spec_text).unwrap();
    let out = dir.join("golden.csv");
    let (ok, stderr) = experiment(&[file.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let without_link = native.replace(&format!("# link {}\n", golden.link), "");
    let cli = read(&out).replacen(
        &format!("# boids {}\n", env!("CARGO_PKG_VERSION")),
        &format!("# boids {}\n", golden.version),
        1,
    );
    assert_eq!(cli, without_link);
}

/// Alignment orders a flock: a sweep of it in a wrapped world, polarization rising.
#[test]
fn polarization_rises_with_alignment() {
    let spec = Spec {
        settings: vec![(Param::Wrap, 1.0)],
        param: Param::Alignment,
        values: vec![0.0, 1.5, 3.0],
        map: None,
        direction: Direction::Up,
        seeds: vec![1, 2],
        count: 600,
        settle: 5.0,
        measure: 2.0,
        sample_every: 0.5,
        slice: None,
    };
    let rows = run(spec).unwrap();
    let mean = |v: usize| {
        let at: Vec<f64> = rows
            .iter()
            .filter(|r| r.value_index == v)
            .map(|r| r.polarization.mean)
            .collect();
        at.iter().sum::<f64>() / at.len() as f64
    };
    let (low, mid, high) = (mean(0), mean(1), mean(2));
    eprintln!("polarization at alignment 0, 1.5, 3: {low} {mid} {high}");
    // Measured: 0.04, 0.94, 0.89 (seeds 1 and 2).
    assert!(
        low < 0.2 && mid > low + 0.4 && high > low + 0.4,
        "{low} {mid} {high}"
    );
}
