//! Experiments from the command line (issue 26): the browser's spec as JSON in, the
//! browser's CSV out, every core at work (`rayon` over the units: one point of "up", one
//! seed's chain of "up-down"). Slices and `merge` farm a sweep out over machines.
//!
//! ```text
//! experiment SPEC.json [--slice K/N] [-o OUT.csv] [--quiet]
//! experiment merge A.csv B.csv … [-o OUT.csv] [--partial]
//! experiment fit FIT.json [-o OUT.json] [--quiet]
//! ```
//!
//! The spec is read, printed and written as CSV by the experiment core
//! (`boids::sim::experiment`: `read_json`, `write_csv`, `parse_csv`), the same code as the
//! browser's worker module runs; this file farms the units out and merges.
//!
//! See docs/experiments.md. Native only: built for wasm it says so and exits 2.

#[cfg(target_arch = "wasm32")]
fn main() {
    println!("native only");
    std::process::exit(2);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None | Some("-h" | "--help") => {
            println!("{}", cli::USAGE);
            return;
        }
        Some("merge") => cli::merge(&args[1..]),
        Some("fit") => cli::fit(&args[1..]),
        Some(_) => cli::run(&args),
    };
    if let Err(error) = result {
        eprintln!("experiment: {}", error.message);
        if error.usage {
            eprintln!("{}", cli::USAGE);
        }
        std::process::exit(if error.usage { 2 } else { 1 });
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[path = "experiment/fit.rs"]
mod fit;

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Instant;

    use boids::sim::experiment::{
        js_number, parse_csv, parse_slice, read_json, run as run_spec, write_csv, Row, Slice, Spec,
    };
    use rayon::prelude::*;

    pub const USAGE: &str = "usage: experiment SPEC.json [--slice K/N] [-o OUT.csv] [--quiet]
       experiment merge A.csv B.csv ... [-o OUT.csv] [--partial]
       experiment fit FIT.json [-o OUT.json] [--quiet]
SPEC.json is runExperiment's spec; threads: RAYON_NUM_THREADS (default: every core).";

    const VERSION: &str = env!("CARGO_PKG_VERSION");

    pub struct Failure {
        pub message: String,
        pub usage: bool,
    }

    fn usage(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            usage: true,
        }
    }

    impl From<String> for Failure {
        fn from(message: String) -> Failure {
            Failure {
                message,
                usage: false,
            }
        }
    }

    /// Files and options.
    struct Args {
        files: Vec<String>,
        output: Option<String>,
        slice: Option<Slice>,
        quiet: bool,
        partial: bool,
    }

    fn parse_args(args: &[String], merging: bool) -> Result<Args, Failure> {
        let mut parsed = Args {
            files: Vec::new(),
            output: None,
            slice: None,
            quiet: false,
            partial: false,
        };
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "-o" | "--output" => {
                    let file = args.next().ok_or_else(|| usage("-o needs a file"))?;
                    parsed.output = Some(file.clone());
                }
                "--slice" if !merging => {
                    let text = args.next().ok_or_else(|| usage("--slice needs K/N"))?;
                    let (index, of) = parse_slice(text)
                        .ok_or_else(|| usage(format!("--slice {text}: not K/N with 1 ≤ K ≤ N")))?;
                    parsed.slice = Some(Slice { index, of });
                }
                "-q" | "--quiet" => parsed.quiet = true,
                "--partial" if merging => parsed.partial = true,
                flag if flag.starts_with('-') && flag != "-" => {
                    return Err(usage(format!("unknown option {flag}")))
                }
                file => parsed.files.push(file.to_string()),
            }
        }
        Ok(parsed)
    }

    fn read(file: &str) -> Result<String, String> {
        if file == "-" {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
                .map_err(|e| format!("stdin: {e}"))?;
            return Ok(text);
        }
        std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))
    }

    fn write(output: Option<&str>, text: &str) -> Result<(), String> {
        match output {
            Some(file) => std::fs::write(file, text).map_err(|e| format!("{file}: {e}")),
            None => {
                print!("{text}");
                Ok(())
            }
        }
    }

    /// Fits the model to a recording (`fit.rs`): a fit's spec in, JSON out.
    pub fn fit(args: &[String]) -> Result<(), Failure> {
        let args = parse_args(args, true)?;
        let [file] = args.files.as_slice() else {
            return Err(usage("one fit spec file, please"));
        };
        let json = super::fit::run(file, &read(file)?, args.quiet)?;
        write(args.output.as_deref(), &json)?;
        Ok(())
    }

    /// The global indices of the units a slice holds (of `total`).
    fn slice_indices(slice: Option<Slice>, total: usize) -> Vec<usize> {
        match slice {
            Some(Slice { index, of }) => (index..total).step_by(of.max(1)).collect(),
            None => (0..total).collect(),
        }
    }

    /// Runs a spec (or the slice given), every unit on its own thread as the cores allow.
    pub fn run(args: &[String]) -> Result<(), Failure> {
        let args = parse_args(args, false)?;
        let [file] = args.files.as_slice() else {
            return Err(usage("one spec file, please"));
        };
        let mut spec = read_json(&read(file)?).map_err(|e| format!("{file}: {e}"))?;
        if args.slice.is_some() {
            spec.slice = args.slice;
            spec.validate().map_err(|e| format!("{file}: {e}"))?;
        }
        let rows = run_parallel(&spec, args.quiet);
        let csv = write_csv(VERSION, &spec, &rows, None, js_number);
        write(args.output.as_deref(), &csv)?;
        Ok(())
    }

    /// The rows `experiment::run(spec)` gives, in its order, each unit run alone (a slice
    /// of one) on rayon's threads.
    fn run_parallel(spec: &Spec, quiet: bool) -> Vec<Row> {
        let total = spec.units().len();
        let mine = slice_indices(spec.slice, total);
        let (done, start) = (AtomicUsize::new(0), Instant::now());
        let rows: Vec<Vec<Row>> = mine
            .par_iter()
            .map(|&index| {
                let mut one = spec.clone();
                one.slice = Some(Slice { index, of: total });
                let rows = run_spec(one).unwrap_or_default();
                let done = done.fetch_add(1, Ordering::Relaxed) + 1;
                if !quiet {
                    let seconds = start.elapsed().as_secs_f64();
                    eprintln!("experiment: {done}/{} units, {seconds:.1} s", mine.len());
                }
                rows
            })
            .collect();
        rows.concat()
    }

    /// Joins CSVs of one experiment (slices, or anything that holds whole units) into one,
    /// in canonical order.
    pub fn merge(args: &[String]) -> Result<(), Failure> {
        let args = parse_args(args, true)?;
        if args.files.is_empty() {
            return Err(usage("merge needs CSV files"));
        }
        let mut parsed = Vec::new();
        for file in &args.files {
            let csv = parse_csv(&read(file)?).map_err(|e| format!("{file}: {e}"))?;
            if csv.spec.fingerprint() != csv.print {
                let what = "its spec line does not match its `# experiment` print";
                return Err(format!("{file}: {what}").into());
            }
            csv.spec.validate().map_err(|e| format!("{file}: {e}"))?;
            parsed.push((file, csv));
        }
        let (first_file, first) = &parsed[0];
        let mut spec = first.spec.clone();
        spec.slice = None;
        let units = spec.units();
        let mut slots: Vec<Option<(&str, Vec<Row>)>> = vec![None; units.len()];
        for (file, csv) in &parsed {
            if csv.print != first.print {
                return Err(format!(
                    "{file}: another experiment (print {:016x}; {first_file} is {:016x})",
                    csv.print, first.print
                )
                .into());
            }
            let mine = slice_indices(csv.spec.slice, units.len());
            let expected: usize = mine.iter().map(|&u| spec.points(units[u]).len()).sum();
            if csv.rows.len() != expected {
                let (got, slice) = (csv.rows.len(), csv.spec.slice.map_or("whole", |_| "slice"));
                let what = format!("{got} rows where its {slice} experiment has {expected}");
                return Err(format!("{file}: {what}").into());
            }
            let mut rows = csv.rows.iter();
            for &u in &mine {
                let unit = units[u];
                let seed = spec.seeds[unit.seed_index];
                let mut held = Vec::new();
                for (leg, v) in spec.points(unit) {
                    let mut row = *rows.next().expect("counted above");
                    let (value, map_value) = spec.at(v);
                    // A map's value is NaN without a map: compared by its bits.
                    let same_cell = row.map_value.to_bits() == map_value.to_bits();
                    if row.seed != seed || row.leg != leg || row.value != value || !same_cell {
                        let at = |value: f64, map_value: f64| match spec.map {
                            None => js_number(value),
                            Some(_) => format!("{}, {}", js_number(value), js_number(map_value)),
                        };
                        let what = format!(
                            "a row of seed {} ({} {}) where seed {seed} ({} {}) was due",
                            row.seed,
                            row.leg.name(),
                            at(row.value, row.map_value),
                            leg.name(),
                            at(value, map_value)
                        );
                        return Err(format!("{file}: {what}").into());
                    }
                    row.value_index = v;
                    held.push(row);
                }
                if let Some((other, _)) = &slots[u] {
                    let value = unit
                        .value_index
                        .map_or(String::new(), |v| match spec.at(v) {
                            (value, _) if spec.map.is_none() => {
                                format!(", value {}", js_number(value))
                            }
                            (value, map_value) => {
                                format!(", values {}, {}", js_number(value), js_number(map_value))
                            }
                        });
                    let what = format!("the rows of seed {seed}{value} are also in {other}");
                    return Err(format!("{file}: {what}").into());
                }
                slots[u] = Some((file, held));
            }
        }
        let missing = slots.iter().filter(|slot| slot.is_none()).count();
        if missing > 0 && !args.partial {
            let what = format!(
                "{missing} of {} units are missing (a slice not given?); --partial merges what there is",
                units.len()
            );
            return Err(what.into());
        }
        let rows: Vec<Row> = slots.into_iter().flatten().flat_map(|(_, r)| r).collect();
        let csv = write_csv(&first.version, &spec, &rows, None, js_number);
        write(args.output.as_deref(), &csv)?;
        Ok(())
    }
}
