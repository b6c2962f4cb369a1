//! Native benchmark of one step on the standard scenario (`shared/bench-scenario.md`).
//! `cargo bench --bench step` prints ms per step and ns per boid-step at 1k, 10k and 100k
//! boids; set `BOIDS_BENCH_MILLION=1` to add 1,000,000. `BOIDS_BENCH_NEAREST=k` runs the same
//! scenario with each boid heeding its k nearest neighbours instead of all within the radius.
//! A benchmark, not a test: it asserts nothing about time.

use std::time::Instant;

use boids::sim::{Flock, Param, BENCH_DT, PRESETS};

/// `BOIDS_BENCH_WARMUP`, `BOIDS_BENCH_STEPS` and `BOIDS_BENCH_COUNTS` (comma-separated)
/// override the scenario's 100 / 100 / 1k,10k,100k, e.g. for a quick look under a profiler.
fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split(':').nth(1))
                .map(|name| name.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string())
}

/// Median ms per step, mean neighbours heeded and mean candidates examined per boid.
fn median_step_ms(count: usize, nearest: Option<f64>) -> (f64, f32, f32) {
    let mut flock = Flock::bench_scenario(count);
    if let Some(k) = nearest {
        flock
            .set(Param::Topological, 1.0)
            .expect("a toggle is finite");
        flock.set(Param::NearestK, k).expect("k is finite");
    }
    time(
        &mut flock,
        env_or("BOIDS_BENCH_WARMUP", 100),
        env_or("BOIDS_BENCH_STEPS", 100),
    )
}

/// `flock` stepped `warmup` times, then the median ms of `steps` steps, its mean neighbours
/// and candidates.
fn time(flock: &mut Flock, warmup: usize, steps: usize) -> (f64, f32, f32) {
    for _ in 0..warmup {
        flock.step(BENCH_DT);
    }
    let mut times: Vec<f64> = (0..steps.max(1))
        .map(|_| {
            let start = Instant::now();
            flock.step(BENCH_DT);
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (
        times[times.len() / 2],
        flock.mean_neighbours(),
        flock.mean_candidates(),
    )
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument, if any, is ignored.
    let mut counts: Vec<usize> = std::env::var("BOIDS_BENCH_COUNTS")
        .ok()
        .map(|list| {
            list.split(',')
                .filter_map(|c| c.trim().parse().ok())
                .collect()
        })
        .unwrap_or_else(|| vec![1_000, 10_000, 100_000]);
    if std::env::var_os("BOIDS_BENCH_MILLION").is_some() {
        counts.push(1_000_000);
    }
    let nearest: Option<f64> = std::env::var("BOIDS_BENCH_NEAREST")
        .ok()
        .and_then(|k| k.parse().ok());
    let mode = match nearest {
        Some(k) => format!(", {k} nearest neighbours"),
        None => String::new(),
    };
    println!(
        "native step, standard scenario{mode}, one thread — {}",
        cpu_model()
    );
    println!(
        "{:>9} | {:>9} | {:>13} | {:>10} | {:>10}",
        "boids", "ms/step", "ns/boid-step", "neighbours", "candidates"
    );
    for count in counts {
        let (ms, neighbours, candidates) = median_step_ms(count, nearest);
        let ns_per_boid = ms * 1e6 / count as f64;
        println!(
            "{count:>9} | {ms:>9.3} | {ns_per_boid:>13.1} | {neighbours:>10.1} | {candidates:>10.1}"
        );
    }
    settled();
}

/// The settled scenarios (`shared/bench-scenario.md`): the standard scenario and every
/// preset (the page's defaults among them) after 1,200 steps, the median of 50.
/// `BOIDS_BENCH_SETTLED_COUNTS` overrides 1,500, 10,000, 100,000; `0` skips them.
fn settled() {
    let counts: Vec<usize> = std::env::var("BOIDS_BENCH_SETTLED_COUNTS")
        .unwrap_or_else(|_| "1500,10000,100000".into())
        .split(',')
        .filter_map(|c| c.trim().parse().ok())
        .filter(|&c| c > 0)
        .collect();
    if counts.is_empty() {
        return;
    }
    println!("\nsettled (1,200 steps, then the median of 50)");
    println!(
        "{:>9} | {:<12} | {:>9} | {:>13} | {:>10} | {:>10} | {:>8}",
        "boids", "scenario", "ms/step", "ns/boid-step", "neighbours", "candidates", "× std"
    );
    for count in counts {
        let mut standard_ms = f64::NAN;
        let scenarios = std::iter::once(None).chain(PRESETS.iter().map(Some));
        for preset in scenarios {
            let (name, mut flock) = match preset {
                None => ("standard", Flock::bench_scenario(count)),
                Some(p) => (p.name, Flock::preset_scenario(p, count)),
            };
            let (ms, neighbours, candidates) = time(&mut flock, 1200, 50);
            if preset.is_none() {
                standard_ms = ms;
            }
            let ns = ms * 1e6 / count as f64;
            let ratio = ms / standard_ms;
            println!(
                "{count:>9} | {name:<12} | {ms:>9.3} | {ns:>13.1} | {neighbours:>10.1} | {candidates:>10.1} | {ratio:>8.2}"
            );
        }
    }
}
