//! Running an experiment a few steps at a time: `Runner::advance` stops anywhere, so a
//! worker can report progress and be stopped; `run` is the whole thing at once.

use super::{steps, Leg, Spec, SpecError, Unit, DT};
use crate::sim::flock::Flock;
use crate::sim::settings::Settings;

/// Mean and sample standard deviation (n − 1; 0 for one sample) over a window; NaN samples
/// are skipped, and the mean is NaN when none is left.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stat {
    pub mean: f64,
    pub sd: f64,
}

impl Stat {
    fn of(samples: impl Iterator<Item = f64> + Clone) -> Stat {
        let finite = samples.filter(|x| !x.is_nan());
        let (n, sum) = finite
            .clone()
            .fold((0usize, 0.0), |(n, sum), x| (n + 1, sum + x));
        if n == 0 {
            return Stat {
                mean: f64::NAN,
                sd: f64::NAN,
            };
        }
        let mean = sum / n as f64;
        let squares: f64 = finite.map(|x| (x - mean) * (x - mean)).sum();
        let sd = if n > 1 {
            (squares / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        Stat { mean, sd }
    }
}

/// One measured point: a seed, a leg, a value, and the measures over its window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    pub seed: u32,
    pub leg: Leg,
    pub value: f64,
    pub value_index: usize,
    pub samples: usize,
    pub polarization: Stat,
    pub milling: Stat,
    /// Groups of at least `measures::BIG_GROUP` boids (`Metrics::big_groups`).
    pub groups: Stat,
    pub largest_group: Stat,
    pub median_nearest: Stat,
    pub mean_neighbours: Stat,
}

impl Row {
    /// The six measures in the CSV's order: polarization, milling, groups, largest group,
    /// median nearest distance, mean neighbours.
    pub fn stats(&self) -> [Stat; 6] {
        [
            self.polarization,
            self.milling,
            self.groups,
            self.largest_group,
            self.median_nearest,
            self.mean_neighbours,
        ]
    }
}

/// The measures of one sample, in the order of `Row::stats`.
type Sample = [f64; 6];

/// An experiment under way.
pub struct Runner {
    spec: Spec,
    units: Vec<Unit>,
    point_steps: u64,
    /// The step of the point at which each sample is taken.
    sample_steps: Vec<u64>,
    steps_total: u64,
    steps_done: u64,
    /// The unit (of `units`) under way, and its point.
    unit: usize,
    point: usize,
    points: Vec<(Leg, usize)>,
    flock: Option<Flock>,
    step_in_point: u64,
    taken: Vec<Sample>,
    rows: Vec<Row>,
}

impl Runner {
    /// Checks the spec; steps nothing yet.
    pub fn new(spec: Spec) -> Result<Runner, SpecError> {
        spec.validate()?;
        let units = spec.slice_units();
        let point_steps = spec.point_steps();
        let sample_steps = (1..=spec.samples())
            .map(|k| steps(spec.settle + k as f64 * spec.sample_every).min(point_steps))
            .collect();
        let points: u64 = units.iter().map(|&u| spec.points(u).len() as u64).sum();
        Ok(Runner {
            units,
            point_steps,
            sample_steps,
            steps_total: points * point_steps,
            steps_done: 0,
            unit: 0,
            point: 0,
            points: Vec::new(),
            flock: None,
            step_in_point: 0,
            taken: Vec::new(),
            rows: Vec::new(),
            spec,
        })
    }

    /// Runs at most `max_steps` flock steps; true when the whole experiment is done.
    pub fn advance(&mut self, max_steps: u64) -> bool {
        let mut budget = max_steps;
        loop {
            let Some(&unit) = self.units.get(self.unit) else {
                return true;
            };
            if self.flock.is_none() {
                self.start(unit);
            }
            if self.step_in_point >= self.point_steps {
                self.finish_point(unit);
                continue;
            }
            if budget == 0 {
                return false;
            }
            budget -= 1;
            if let Some(flock) = &mut self.flock {
                flock.step(DT);
            }
            self.step_in_point += 1;
            self.steps_done += 1;
            self.take_due();
        }
    }

    pub fn steps_done(&self) -> u64 {
        self.steps_done
    }

    pub fn steps_total(&self) -> u64 {
        self.steps_total
    }

    /// The rows so far, in the order run.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    pub fn into_rows(self) -> Vec<Row> {
        self.rows
    }

    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// A fresh flock for the unit, with the settings, at its first point.
    fn start(&mut self, unit: Unit) {
        let spec = &self.spec;
        let seed = spec.seeds[unit.seed_index];
        let mut flock = Flock::with_settings(spec.count, Some(seed), Settings::walled());
        for &(param, value) in &spec.settings {
            // Validated finite, so `set` cannot refuse it.
            let _ = flock.set(param, value);
        }
        self.flock = Some(flock);
        self.points = spec.points(unit);
        self.point = 0;
        self.begin_point();
    }

    fn begin_point(&mut self) {
        let (_, v) = self.points[self.point];
        if let Some(flock) = &mut self.flock {
            let _ = flock.set(self.spec.param, self.spec.values[v]);
        }
        self.step_in_point = 0;
        self.taken.clear();
        self.take_due();
    }

    /// Takes every sample due at the point's current step.
    fn take_due(&mut self) {
        let Some(flock) = &self.flock else { return };
        while let Some(&at) = self.sample_steps.get(self.taken.len()) {
            if at > self.step_in_point {
                break;
            }
            let m = flock.metrics();
            self.taken.push([
                f64::from(m.polarization),
                f64::from(m.milling),
                m.big_groups as f64,
                f64::from(m.largest_group),
                f64::from(m.median_nearest),
                f64::from(flock.mean_neighbours()),
            ]);
        }
    }

    fn finish_point(&mut self, unit: Unit) {
        let (leg, v) = self.points[self.point];
        let stat = |i: usize| Stat::of(self.taken.iter().map(move |s| s[i]));
        self.rows.push(Row {
            seed: self.spec.seeds[unit.seed_index],
            leg,
            value: self.spec.values[v],
            value_index: v,
            samples: self.taken.len(),
            polarization: stat(0),
            milling: stat(1),
            groups: stat(2),
            largest_group: stat(3),
            median_nearest: stat(4),
            mean_neighbours: stat(5),
        });
        self.point += 1;
        if self.point < self.points.len() {
            self.begin_point();
        } else {
            self.flock = None;
            self.unit += 1;
        }
    }
}

/// The whole experiment at once.
pub fn run(spec: Spec) -> Result<Vec<Row>, SpecError> {
    let mut runner = Runner::new(spec)?;
    runner.advance(u64::MAX);
    Ok(runner.into_rows())
}
