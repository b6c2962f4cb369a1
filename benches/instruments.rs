//! Native benchmark of the instruments (issue 11) at 10,000 boids on the standard scenario:
//! what a frame adds to a step when the page shows the measures every frame and a boid is
//! inspected (`metrics`, `inspect`), and the CPU side of drawing the instruments (the
//! overlay's vertices, a trail sample, the colour column of the instance records).
//! The page takes the measures as a survey spread over frames (`Flock::survey`, a
//! sixtieth each step): each piece is timed too, the flock stepping between pieces as
//! the page's does. Then the same on the settled page defaults. `cargo bench --bench instruments`;
//! `BOIDS_BENCH_COUNTS` (comma-separated; 1,500 and 10,000 by default) for others.
//! A benchmark, not a test: it asserts nothing about time.

use std::hint::black_box;
use std::time::Instant;

use boids::render::colour::ColourBy;
use boids::render::overlay::{self, Geometry, Scene};
use boids::render::trails::Ring;
use boids::render::OrbitCamera;
use boids::sim::{Flock, BENCH_DT, PRESETS};

/// Calls a survey is spread over: the page's `SURVEY_CALLS` (`www/instruments/plot.js`).
const SURVEY_CALLS: u64 = 60;

/// Surveys of `flock` spread over `SURVEY_CALLS` calls each, a step between calls: calls a
/// survey took (mean), and the median, 95th percentile and slowest call, ms.
fn survey_pieces(flock: &mut Flock, surveys: usize) -> (f64, f64, f64, f64) {
    let mut times = Vec::new();
    for _ in 0..surveys {
        let mut survey = flock.survey();
        let budget = survey.estimate().div_ceil(SURVEY_CALLS);
        loop {
            let start = Instant::now();
            let done = survey.advance(budget);
            times.push(start.elapsed().as_secs_f64() * 1e3);
            if done {
                break;
            }
            flock.step(BENCH_DT);
        }
    }
    let calls = times.len() as f64 / surveys as f64;
    times.sort_by(f64::total_cmp);
    let at = |share: f64| times[((times.len() - 1) as f64 * share) as usize];
    (calls, at(0.5), at(0.95), at(1.0))
}

/// Median ms of `runs` calls of `f`.
fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let counts: Vec<usize> = std::env::var("BOIDS_BENCH_COUNTS")
        .ok()
        .map(|list| {
            list.split(',')
                .filter_map(|c| c.trim().parse().ok())
                .collect()
        })
        .unwrap_or_else(|| vec![1_500, 10_000]);
    println!("instruments, standard scenario, one thread (ms, median; a survey's pieces: calls, median, 95th percentile, slowest; the last % is the median piece and inspect)");
    println!(
        "{:>8} | {:>7} | {:>7} | {:>7} | {:>7} | {:>7} | {:>7} | {:>7} | {:>5} | {:>7} | {:>7} | {:>7} | {:>7}",
        "boids", "step", "metrics", "inspect", "overlay", "sample", "colour", "% step",
        "calls", "piece", "p95", "slowest", "% step"
    );
    for &count in &counts {
        let mut flock = Flock::bench_scenario(count);
        for _ in 0..100 {
            flock.step(BENCH_DT);
        }
        let step = median_ms(100, || flock.step(BENCH_DT));
        let metrics = median_ms(50, || {
            black_box(flock.metrics());
            black_box(flock.mean_neighbours());
        });
        let id = flock.ids()[count / 2];
        let inspect = median_ms(100, || {
            black_box(flock.inspect(id));
        });
        let frame = OrbitCamera::default().frame(flock.world_size(), 1.5);
        let scene = Scene {
            view_proj: frame.view_proj,
            eye: frame.eye,
            width: 1500.0,
            height: 1000.0,
            pixel_ratio: 1.0,
            flat: false,
        };
        let seen = flock.inspect(id).expect("the id is in the flock");
        let mut geometry = Geometry::default();
        let overlay = median_ms(100, || {
            let links = overlay::links(&seen);
            overlay::build(&mut geometry, &flock, &seen, &links, None, &scene);
            black_box(&geometry);
        });
        let mut ring = Ring::default();
        ring.sample(&flock);
        let sample = median_ms(100, || {
            black_box(ring.sample(&flock));
        });
        let mut column = Vec::with_capacity(count);
        let colour = median_ms(100, || {
            column.clear();
            column.extend((0..flock.len()).map(|i| ColourBy::Rule.value(&flock, i)));
            black_box(&column);
        });
        let (calls, piece, p95, slowest) = survey_pieces(&mut flock, 10);
        println!(
            "{count:>8} | {step:>7.3} | {metrics:>7.3} | {inspect:>7.3} | {overlay:>7.3} | {sample:>7.3} | {colour:>7.3} | {:>6.1}% | {calls:>5.1} | {piece:>7.3} | {p95:>7.3} | {slowest:>7.3} | {:>6.1}%",
            100.0 * (metrics + inspect) / step,
            100.0 * (piece + inspect) / step
        );
    }
    settled(&counts);
}

/// `metrics()` on the flocks people watch: the page's defaults (the first preset) after
/// 1,200 steps (`shared/bench-scenario.md`), beside a step of the same flock.
fn settled(counts: &[usize]) {
    println!("\nmetrics on the settled page defaults (1,200 steps; ms, median; a survey's pieces: calls, median, 95th percentile, slowest; the last % is the median piece)");
    println!(
        "{:>8} | {:>7} | {:>7} | {:>7} | {:>5} | {:>7} | {:>7} | {:>7} | {:>7}",
        "boids", "step", "metrics", "% step", "calls", "piece", "p95", "slowest", "% step"
    );
    for &count in counts {
        let mut flock = Flock::preset_scenario(&PRESETS[0], count);
        for _ in 0..1200 {
            flock.step(BENCH_DT);
        }
        let step = median_ms(50, || flock.step(BENCH_DT));
        let metrics = median_ms(50, || {
            black_box(flock.metrics());
        });
        let (calls, piece, p95, slowest) = survey_pieces(&mut flock, 10);
        println!(
            "{count:>8} | {step:>7.3} | {metrics:>7.3} | {:>6.1}% | {calls:>5.1} | {piece:>7.3} | {p95:>7.3} | {slowest:>7.3} | {:>6.1}%",
            100.0 * metrics / step,
            100.0 * piece / step
        );
    }
}
