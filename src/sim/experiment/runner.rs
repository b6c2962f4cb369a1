//! Running an experiment a few steps at a time: `Runner::advance` stops anywhere, so a
//! worker can report progress and be stopped; `run` is the whole thing at once.

use super::{steps, Leg, Spec, SpecError, Unit, DT};
use crate::sim::flock::Flock;
use crate::sim::measures::nature::{anisotropy, group_state, velocity_correlation, GroupState};
use crate::sim::settings::Settings;

/// The most boids whose ξ/L and γ(1) a sample takes (both O(N²): at 2,000 boids about 12 M
/// distances a sample, some 30 ms in the worker); above it, and in a wrapped world (where a
/// flock's size and its neighbours' directions mean nothing), they are NaN: empty in the CSV.
pub const CANON_MAX_COUNT: usize = 2000;

/// Distance bins of C(r) for ξ, as a recording's profile takes them.
const CORRELATION_BINS: usize = 50;

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
    /// The map's value (NaN without a map).
    pub map_value: f64,
    /// The point's index: into `values`, or a map's cell (`Spec::at`).
    pub value_index: usize,
    pub samples: usize,
    pub polarization: Stat,
    pub milling: Stat,
    /// Groups of at least `measures::BIG_GROUP` boids (`Metrics::big_groups`).
    pub groups: Stat,
    pub largest_group: Stat,
    pub median_nearest: Stat,
    pub mean_neighbours: Stat,
    /// ξ / L, the correlation length over the flock's size (Cavagna et al. 2010), and γ(1),
    /// the nearest neighbour's anisotropy (Ballerini et al. 2008): NaN past `CANON_MAX_COUNT`
    /// boids or with wrap on, γ(1) NaN in a flat flock too.
    pub correlation_share: Stat,
    pub anisotropy: Stat,
    /// The drone swarms' measures (Vásárhelyi et al. 2018; `Metrics`): velocity
    /// correlation, overall and within the big groups, the share of boids in no big group,
    /// and the collision ratio.
    pub velocity_correlation: Stat,
    pub group_correlation: Stat,
    pub outside: Stat,
    pub collisions: Stat,
    /// The state most of the window's samples were in (Tunstrøm et al.'s thresholds on each
    /// sample's polarization and milling; a tie is transitional); `None` with no sample.
    pub state: Option<GroupState>,
}

impl Row {
    /// The twelve measures in the CSV's order: polarization, milling, groups, largest
    /// group, median nearest distance, mean neighbours, ξ/L, γ(1), velocity correlation
    /// (overall, within groups), outside, collisions.
    pub fn stats(&self) -> [Stat; 12] {
        [
            self.polarization,
            self.milling,
            self.groups,
            self.largest_group,
            self.median_nearest,
            self.mean_neighbours,
            self.correlation_share,
            self.anisotropy,
            self.velocity_correlation,
            self.group_correlation,
            self.outside,
            self.collisions,
        ]
    }
}

/// The measures of one sample, in the order of `Row::stats`.
type Sample = [f64; 12];

/// The state of most samples (polarization and milling their first two numbers).
fn majority_state(samples: &[Sample]) -> Option<GroupState> {
    let mut votes = [0usize; 4];
    for s in samples.iter().filter(|s| !s[0].is_nan() && !s[1].is_nan()) {
        votes[group_state(s[0] as f32, s[1] as f32).index()] += 1;
    }
    let most = *votes.iter().max()?;
    if most == 0 {
        return None;
    }
    let winners: Vec<usize> = (0..4).filter(|&k| votes[k] == most).collect();
    Some(match winners[..] {
        [one] => GroupState::ALL[one],
        _ => GroupState::Transitional,
    })
}

/// ξ/L and γ(1) of `flock`, NaN where they are not taken (`CANON_MAX_COUNT`).
fn canon_measures(flock: &Flock) -> [f64; 2] {
    if flock.len() > CANON_MAX_COUNT || flock.settings().wrap {
        return [f64::NAN; 2];
    }
    let (p, v) = (flock.positions(), flock.velocities());
    let correlation = velocity_correlation(p, v, CORRELATION_BINS);
    let share = match correlation.length {
        Some(xi) if correlation.size > 0.0 => f64::from(xi / correlation.size),
        _ => f64::NAN,
    };
    // In a flat flock no neighbour lies above or below: γ would read the plane's normal.
    let gamma = match flock.is_flat() {
        true => f64::NAN,
        false => anisotropy(p, v, 1).map_or(f64::NAN, f64::from),
    };
    [share, gamma]
}

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
        let (value, map_value) = self.spec.at(v);
        if let Some(flock) = &mut self.flock {
            if let Some(map) = &self.spec.map {
                let _ = flock.set(map.param, map_value);
            }
            let _ = flock.set(self.spec.param, value);
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
            let [share, gamma] = canon_measures(flock);
            self.taken.push([
                f64::from(m.polarization),
                f64::from(m.milling),
                m.big_groups as f64,
                f64::from(m.largest_group),
                f64::from(m.median_nearest),
                f64::from(flock.mean_neighbours()),
                share,
                gamma,
                f64::from(m.velocity_correlation),
                f64::from(m.group_correlation),
                f64::from(m.outside),
                f64::from(m.collisions),
            ]);
        }
    }

    fn finish_point(&mut self, unit: Unit) {
        let (leg, v) = self.points[self.point];
        let (value, map_value) = self.spec.at(v);
        let stat = |i: usize| Stat::of(self.taken.iter().map(move |s| s[i]));
        self.rows.push(Row {
            seed: self.spec.seeds[unit.seed_index],
            leg,
            value,
            map_value,
            value_index: v,
            samples: self.taken.len(),
            polarization: stat(0),
            milling: stat(1),
            groups: stat(2),
            largest_group: stat(3),
            median_nearest: stat(4),
            mean_neighbours: stat(5),
            correlation_share: stat(6),
            anisotropy: stat(7),
            velocity_correlation: stat(8),
            group_correlation: stat(9),
            outside: stat(10),
            collisions: stat(11),
            state: majority_state(&self.taken),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(polarization: f64, milling: f64) -> Sample {
        [
            polarization,
            milling,
            1.0,
            1.0,
            1.0,
            1.0,
            f64::NAN,
            f64::NAN,
            0.5,
            0.5,
            0.0,
            0.0,
        ]
    }

    #[test]
    fn the_state_is_most_samples_and_a_tie_is_transitional() {
        let polarized = sample(0.9, 0.1);
        let milling = sample(0.1, 0.9);
        let swarm = sample(0.1, 0.1);
        assert_eq!(majority_state(&[]), None);
        assert_eq!(majority_state(&[sample(f64::NAN, f64::NAN)]), None);
        assert_eq!(
            majority_state(&[polarized, milling, polarized]),
            Some(GroupState::Polarized)
        );
        assert_eq!(
            majority_state(&[swarm, milling, milling]),
            Some(GroupState::Milling)
        );
        assert_eq!(
            majority_state(&[swarm, polarized]),
            Some(GroupState::Transitional)
        );
        assert_eq!(majority_state(&[swarm]), Some(GroupState::Swarm));
    }
}
