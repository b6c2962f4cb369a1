//! The cost curve of the neighbour searches (issue 42), natively: `cargo bench --bench search`
//! steps the standard scenario (`shared/bench-scenario.md`, settled `BOIDS_BENCH_WARMUP`
//! steps by the grid first) with each method over counts on a log scale (250 to 16,000; a
//! method stops past a step of `BOIDS_BENCH_STOP_MS`, 250 ms), and prints per count the
//! median ms a step, the distance checks and neighbours a step, then each method's fitted
//! log-log slope of checks and of time against N, and the texts' table: steps a second (the
//! step alone, no drawing) at 500, 2,000 and 10,000 boids, naive against grid.
//! A benchmark, not a test: it asserts nothing about time (tests/search.rs checks counts).

// Native only: the page's module has the grid alone (the `lab` feature adds the others).
#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::time::Instant;

    use boids::sim::search::SearchMethod;
    use boids::sim::{Flock, BENCH_DT};

    fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    }

    /// One method at one count: median ms a step, checks and neighbours a step.
    #[derive(Clone, Copy)]
    struct Point {
        count: usize,
        ms: f64,
        checks: u64,
        neighbours: u64,
    }

    fn measure(count: usize, method: SearchMethod, warmup: usize, steps: usize) -> Point {
        let mut flock = Flock::bench_scenario(count);
        for _ in 0..warmup {
            flock.step(BENCH_DT);
        }
        flock.set_search_method(method);
        let mut times = Vec::with_capacity(steps);
        for _ in 0..steps {
            let start = Instant::now();
            flock.step(BENCH_DT);
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(f64::total_cmp);
        let stats = flock.search_stats();
        Point {
            count,
            ms: times[times.len() / 2],
            checks: stats.examined,
            neighbours: stats.neighbours,
        }
    }

    /// Least-squares slope of ln y against ln x.
    fn slope(points: &[(f64, f64)]) -> f64 {
        let n = points.len() as f64;
        let (sx, sy) = points
            .iter()
            .fold((0.0, 0.0), |(sx, sy), &(x, y)| (sx + x.ln(), sy + y.ln()));
        let (mx, my) = (sx / n, sy / n);
        let (num, den) = points.iter().fold((0.0, 0.0), |(num, den), &(x, y)| {
            let dx = x.ln() - mx;
            (num + dx * (y.ln() - my), den + dx * dx)
        });
        num / den
    }

    pub fn main() {
        let warmup = env_or("BOIDS_BENCH_WARMUP", 60);
        let steps = env_or("BOIDS_BENCH_STEPS", 9);
        let stop_ms = env_or("BOIDS_BENCH_STOP_MS", 250.0);
        let counts: Vec<usize> = (0..=12)
            .map(|k| (250.0 * 2f64.powf(k as f64 / 2.0)).round() as usize)
            .collect();
        println!(
            "neighbour search cost, standard scenario settled {warmup} steps, median of {steps} steps"
        );
        println!(
            "{:>8} {:>7} {:>10} {:>14} {:>12}",
            "method", "N", "ms/step", "checks/step", "neighbours"
        );
        let mut curves = Vec::new();
        for method in SearchMethod::ALL {
            let mut curve = Vec::new();
            for &count in &counts {
                let point = measure(count, method, warmup, steps);
                println!(
                    "{:>8} {:>7} {:>10.3} {:>14} {:>12}",
                    method.name(),
                    count,
                    point.ms,
                    point.checks,
                    point.neighbours
                );
                curve.push(point);
                if point.ms > stop_ms {
                    break;
                }
            }
            curves.push((method, curve));
        }
        println!("\nlog-log slopes over 1,000-16,000 boids (checks; time)");
        for (method, curve) in &curves {
            let within: Vec<&Point> = curve
                .iter()
                .filter(|p| (1000..=16_000).contains(&p.count))
                .collect();
            if within.len() < 2 {
                println!("{:>8}: too few points", method.name());
                continue;
            }
            let checks: Vec<(f64, f64)> = within
                .iter()
                .map(|p| (p.count as f64, p.checks as f64))
                .collect();
            let time: Vec<(f64, f64)> = within.iter().map(|p| (p.count as f64, p.ms)).collect();
            println!(
                "{:>8}: checks {:.2}, time {:.2}",
                method.name(),
                slope(&checks),
                slope(&time)
            );
        }
        println!("\nsteps a second (the step alone), as the texts' table has it");
        for count in [500, 2000, 10_000] {
            let row: Vec<String> = [SearchMethod::Naive, SearchMethod::Grid]
                .iter()
                .map(|&method| {
                    let point = measure(count, method, warmup, steps);
                    format!("{} {:.0}", method.name(), 1e3 / point.ms)
                })
                .collect();
            println!("{count:>7}: {}", row.join(", "));
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    native::main();
}

#[cfg(target_arch = "wasm32")]
fn main() {}
