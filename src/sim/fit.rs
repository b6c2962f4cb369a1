//! Fitting the model to a recorded flock (issue 43, item 3): the parameters chosen are
//! searched by Nelder and Mead's simplex (derivative-free; each point a model flock run and
//! measured) for the flock whose measures, averaged over time, come closest to a recording's
//! in flight. The same spec and seed give the same fit: every point is run from the same
//! seed (common random numbers, so two points differ by their settings only).
//!
//! A leaf over `recording`, `measures::profile` and the flock; the worker's module
//! (`web/fit.rs`) and the command line (`experiment fit`) run it.

use super::measures::nature::GroupState;
use super::measures::profile::{profile, Profile};
use super::params::{Kind, Param};
use super::recording::Recording;
use super::Flock;

/// The step a fitted flock is run at (the page's).
const DT: f32 = 1.0 / 60.0;

/// A flock's profiles averaged over time: what a fit compares.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Profiles averaged.
    pub samples: usize,
    pub polarization: f32,
    pub milling: f32,
    pub nearest: f32,
    pub speed: f32,
    pub speed_spread: f32,
    /// ξ / L, over the samples where C(r) crosses zero.
    pub correlation_share: f32,
    /// The share of samples in the polarized state.
    pub polarized_share: f32,
}

impl Summary {
    fn of(profiles: &[Profile]) -> Summary {
        let n = profiles.len();
        if n == 0 {
            return Summary::default();
        }
        let mean = |f: &dyn Fn(&Profile) -> f32| profiles.iter().map(f).sum::<f32>() / n as f32;
        let shares: Vec<f32> = profiles
            .iter()
            .filter_map(Profile::correlation_share)
            .collect();
        Summary {
            samples: n,
            polarization: mean(&|p| p.polarization),
            milling: mean(&|p| p.milling),
            nearest: mean(&|p| p.nearest),
            speed: mean(&|p| p.speed),
            speed_spread: mean(&|p| p.speed_spread),
            correlation_share: if shares.is_empty() {
                0.0
            } else {
                shares.iter().sum::<f32>() / shares.len() as f32
            },
            polarized_share: mean(&|p| f32::from(u8::from(p.state == GroupState::Polarized))),
        }
    }
}

/// A recording in flight: its profile every `every` seconds at which its birds' mean speed
/// is at least `min_speed` (the pigeons sit 0.3 m/s still on the ground).
pub fn summarize_recording(recording: &Recording, every: f32, min_speed: f32) -> Summary {
    let (start, end) = recording.span();
    let mut profiles = Vec::new();
    if every > 0.0 && end >= start {
        let samples = ((end - start) / every) as usize + 1;
        for k in 0..samples {
            let (mut p, mut v) = (Vec::new(), Vec::new());
            for (position, velocity) in recording.at(start + k as f32 * every).into_iter().flatten()
            {
                p.extend(position.to_array());
                v.extend(velocity.to_array());
            }
            let seen = profile(&p, &v);
            if seen.count >= 2 && seen.speed >= min_speed {
                profiles.push(seen);
            }
        }
    }
    Summary::of(&profiles)
}

/// How a fit runs the model.
#[derive(Clone, Debug, PartialEq)]
pub struct FitSpec {
    /// The parameters searched, each over its range in the table.
    pub params: Vec<Param>,
    /// Settings held fixed (applied first).
    pub settings: Vec<(Param, f64)>,
    pub count: usize,
    pub seed: u32,
    /// Seconds run before measuring, then measured over, a profile every `every`.
    pub settle: f32,
    pub measure: f32,
    pub every: f32,
    /// The most model runs the search makes.
    pub evaluations: usize,
}

impl Default for FitSpec {
    fn default() -> Self {
        FitSpec {
            params: vec![
                Param::Alignment,
                Param::Cohesion,
                Param::Separation,
                Param::SeparationRadius,
                Param::Speed,
            ],
            settings: Vec::new(),
            count: 50,
            seed: 1,
            settle: 10.0,
            measure: 10.0,
            every: 0.5,
            evaluations: 60,
        }
    }
}

/// The parameters a fit may search: the model's rules and senses, not the world, the seed or
/// the count (the recording fixes how many birds), nor the hawks, leaders, wind or species.
pub const FITTABLE: [Param; 10] = [
    Param::Speed,
    Param::Separation,
    Param::Alignment,
    Param::Cohesion,
    Param::Perception,
    Param::SeparationRadius,
    Param::AlignmentRadius,
    Param::FieldOfView,
    Param::MaxForce,
    Param::Noise,
];
/// The fewest and most boids a fitted flock holds (its profile is O(N²) a sample).
pub const FIT_COUNT: (usize, usize) = (50, 1000);
/// The most model runs a fit makes, and the longest run (settle + measure), s.
pub const MAX_EVALUATIONS: usize = 500;
pub const MAX_RUN: f32 = 120.0; // the message in `check` says 120

impl FitSpec {
    /// Why the spec cannot run, if it cannot.
    pub fn check(&self) -> Result<(), String> {
        if self.params.is_empty() || self.params.len() > 6 {
            return Err("params: name 1 to 6 parameters to fit".into());
        }
        for (i, p) in self.params.iter().enumerate() {
            if !FITTABLE.contains(p) {
                return Err(format!(
                    "params: {} cannot be fitted (fittable: {})",
                    p.spec().name,
                    FITTABLE.map(|p| p.spec().name).join(", ")
                ));
            }
            if self.params[..i].contains(p) {
                return Err(format!("params: {} is named twice", p.spec().name));
            }
        }
        if !(FIT_COUNT.0..=FIT_COUNT.1).contains(&self.count) {
            return Err(format!(
                "count must be a whole number from {} to {}",
                FIT_COUNT.0, FIT_COUNT.1
            ));
        }
        let times = [self.settle, self.measure, self.every];
        if times.iter().any(|t| !t.is_finite() || *t < 0.0)
            || self.every <= 0.0
            || self.measure < self.every
        {
            return Err(
                "settle, measure and every must be finite seconds, every > 0 and measure ≥ every"
                    .into(),
            );
        }
        if self.settle + self.measure > MAX_RUN {
            // Not `{MAX_RUN}`: formatting a float would add the float printer (~20 KB) to the
            // worker's module.
            return Err("settle + measure must be at most 120 s".into());
        }
        if !(1..=MAX_EVALUATIONS).contains(&self.evaluations) {
            return Err(format!(
                "evaluations must be a whole number from 1 to {MAX_EVALUATIONS}"
            ));
        }
        Ok(())
    }

    /// A fresh flock with the fixed settings, before any searched value is set.
    fn flock(&self) -> Flock {
        let mut flock = Flock::new(self.count, Some(self.seed));
        for &(param, value) in &self.settings {
            let _ = flock.set(param, value);
        }
        flock
    }

    /// The searched parameters' values in a flock of the spec as it starts (the defaults
    /// and the fixed settings).
    pub fn start_values(&self) -> Vec<f64> {
        let flock = self.flock();
        self.params.iter().map(|&p| flock.get(p)).collect()
    }

    /// The model with `values` for the searched parameters, run and measured.
    pub fn summarize(&self, values: &[f64]) -> Summary {
        let mut flock = self.flock();
        for (&param, &value) in self.params.iter().zip(values) {
            let _ = flock.set(param, value);
        }
        let steps = |seconds: f32| (seconds / DT).round() as usize;
        for _ in 0..steps(self.settle) {
            flock.step(DT);
        }
        let mut profiles = Vec::new();
        let every = steps(self.every).max(1);
        for k in 0..=steps(self.measure) {
            if k % every == 0 {
                profiles.push(profile(flock.positions(), flock.velocities()));
            }
            flock.step(DT);
        }
        Summary::of(&profiles)
    }
}

/// How far `model` is from `target`: a sum of squared differences, each over the scale at
/// which it reads as "clearly different" (0.1 of order, 10 % of the target's distance and
/// speed, 0.05 of speed spread, 0.1 of ξ/L, 0.2 of time polarized).
pub fn distance(model: &Summary, target: &Summary) -> f64 {
    let term = |m: f32, t: f32, scale: f32| {
        let d = f64::from((m - t) / scale.max(1e-3));
        d * d
    };
    term(model.polarization, target.polarization, 0.1)
        + term(model.milling, target.milling, 0.1)
        + term(model.nearest, target.nearest, 0.1 * target.nearest)
        + term(model.speed, target.speed, 0.1 * target.speed)
        + term(model.speed_spread, target.speed_spread, 0.05)
        + term(model.correlation_share, target.correlation_share, 0.1)
        + term(model.polarized_share, target.polarized_share, 0.2)
}

/// Nelder–Mead's simplex minimising `f` over the unit cube (points are clamped into it), from
/// `start` with a first simplex of side `step`, for at most `budget` evaluations of `f`;
/// `f` returns `None` to stop. Returns the best point and its value.
pub fn nelder_mead(
    mut f: impl FnMut(&[f64]) -> Option<f64>,
    start: &[f64],
    step: f64,
    budget: usize,
) -> (Vec<f64>, f64) {
    let n = start.len();
    let clamp = |x: Vec<f64>| {
        x.into_iter()
            .map(|v| v.clamp(0.0, 1.0))
            .collect::<Vec<f64>>()
    };
    let mut used = 0usize;
    let mut best: (Vec<f64>, f64) = (clamp(start.to_vec()), f64::INFINITY);
    // Evaluates `x`, keeping the best; `None` once the budget is spent or `f` says stop.
    let mut eval = |x: &[f64], best: &mut (Vec<f64>, f64)| -> Option<f64> {
        if used >= budget {
            return None;
        }
        used += 1;
        let value = f(x)?;
        if value < best.1 {
            *best = (x.to_vec(), value);
        }
        Some(value)
    };
    let mut simplex: Vec<(Vec<f64>, f64)> = Vec::with_capacity(n + 1);
    let first = best.0.clone();
    let Some(value) = eval(&first, &mut best) else {
        return best;
    };
    simplex.push((first.clone(), value));
    for i in 0..n {
        let mut x = first.clone();
        x[i] = if x[i] + step <= 1.0 {
            x[i] + step
        } else {
            x[i] - step
        };
        let Some(value) = eval(&x, &mut best) else {
            return best;
        };
        simplex.push((x, value));
    }
    loop {
        // Best first. Insertion: the simplex has at most 7 points, and a library sort added
        // 3 KB to the worker's module.
        for i in 1..simplex.len() {
            let mut j = i;
            while j > 0 && simplex[j - 1].1.total_cmp(&simplex[j].1).is_gt() {
                simplex.swap(j - 1, j);
                j -= 1;
            }
        }
        let centroid: Vec<f64> = (0..n)
            .map(|i| simplex[..n].iter().map(|(x, _)| x[i]).sum::<f64>() / n as f64)
            .collect();
        let toward = |t: f64, from: &[f64]| {
            clamp(
                (0..n)
                    .map(|i| centroid[i] + t * (from[i] - centroid[i]))
                    .collect(),
            )
        };
        let worst = simplex[n].clone();
        let reflected = toward(-1.0, &worst.0);
        let Some(r) = eval(&reflected, &mut best) else {
            return best;
        };
        if r < simplex[0].1 {
            let expanded = toward(-2.0, &worst.0);
            let Some(e) = eval(&expanded, &mut best) else {
                return best;
            };
            simplex[n] = if e < r { (expanded, e) } else { (reflected, r) };
            continue;
        }
        if r < simplex[n - 1].1 {
            simplex[n] = (reflected, r);
            continue;
        }
        // Contract: outside toward the reflected point if it beat the worst, else inside.
        let (contracted, against) = if r < worst.1 {
            (toward(-0.5, &worst.0), r)
        } else {
            (toward(0.5, &worst.0), worst.1)
        };
        let Some(c) = eval(&contracted, &mut best) else {
            return best;
        };
        if c < against {
            simplex[n] = (contracted, c);
            continue;
        }
        // Shrink toward the best.
        let anchor = simplex[0].0.clone();
        for vertex in simplex.iter_mut().skip(1) {
            let x: Vec<f64> = (0..n)
                .map(|i| anchor[i] + 0.5 * (vertex.0[i] - anchor[i]))
                .collect();
            let Some(value) = eval(&x, &mut best) else {
                return best;
            };
            *vertex = (x, value);
        }
    }
}

/// What a fit found.
#[derive(Clone, Debug, PartialEq)]
pub struct FitResult {
    /// The searched parameters' values, in the spec's order, and the distance they give.
    pub values: Vec<f64>,
    pub distance: f64,
    pub model: Summary,
    /// The same for the spec's start (the defaults and the fixed settings).
    pub start_values: Vec<f64>,
    pub start_distance: f64,
    pub start: Summary,
    /// Model runs made, and whether the search was stopped before its budget.
    pub evaluations: usize,
    pub stopped: bool,
}

/// A value of `param` from a point of the unit cube (whole numbers rounded).
fn value_of(param: Param, x: f64) -> f64 {
    let spec = param.spec();
    let value = spec.min + x.clamp(0.0, 1.0) * (spec.max - spec.min);
    if spec.kind == Kind::Integer {
        value.round()
    } else {
        value
    }
}

fn unit_of(param: Param, value: f64) -> f64 {
    let spec = param.spec();
    ((value - spec.min) / (spec.max - spec.min)).clamp(0.0, 1.0)
}

/// Fits `spec`'s parameters to `target`. `progress(evaluations, best distance)` after every
/// model run; it returns false to stop the search there (the best so far is the result).
pub fn fit(
    spec: &FitSpec,
    target: &Summary,
    mut progress: impl FnMut(usize, f64) -> bool,
) -> FitResult {
    let start_values = spec.start_values();
    let start = spec.summarize(&start_values);
    let start_distance = distance(&start, target);
    let values_at = |x: &[f64]| -> Vec<f64> {
        spec.params
            .iter()
            .zip(x)
            .map(|(&p, &u)| value_of(p, u))
            .collect()
    };
    let mut runs = 0usize;
    let mut best = start_distance;
    let mut stopped = !progress(0, best);
    let origin: Vec<f64> = spec
        .params
        .iter()
        .zip(&start_values)
        .map(|(&p, &v)| unit_of(p, v))
        .collect();
    let (x, mut found) = if stopped {
        (origin.clone(), start_distance)
    } else {
        nelder_mead(
            |x| {
                if stopped {
                    return None;
                }
                let d = distance(&spec.summarize(&values_at(x)), target);
                runs += 1;
                best = best.min(d);
                stopped = !progress(runs, best);
                Some(d)
            },
            &origin,
            0.15,
            spec.evaluations,
        )
    };
    let mut values = values_at(&x);
    if found > start_distance {
        (values, found) = (start_values.clone(), start_distance);
    }
    FitResult {
        model: spec.summarize(&values),
        values,
        distance: found,
        start_values,
        start_distance,
        start,
        evaluations: runs,
        stopped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bowl with its bottom at (0.3, 0.7): the simplex finds it.
    #[test]
    fn nelder_mead_finds_a_bowls_bottom() {
        let mut calls = 0;
        let (x, value) = nelder_mead(
            |x| {
                calls += 1;
                Some((x[0] - 0.3).powi(2) + 10.0 * (x[1] - 0.7).powi(2))
            },
            &[0.9, 0.1],
            0.15,
            200,
        );
        assert!(calls <= 200);
        assert!(value < 1e-6, "{value} at {x:?}");
        assert!(
            (x[0] - 0.3).abs() < 1e-3 && (x[1] - 0.7).abs() < 1e-3,
            "{x:?}"
        );
    }

    /// Rosenbrock's valley squeezed into the unit cube (its bottom at (0.75, 0.75)).
    #[test]
    fn nelder_mead_follows_a_curved_valley() {
        let rosenbrock = |x: &[f64]| {
            let (a, b) = (4.0 * x[0] - 2.0, 4.0 * x[1] - 2.0);
            Some((1.0 - a).powi(2) + 100.0 * (b - a * a).powi(2))
        };
        let (x, value) = nelder_mead(rosenbrock, &[0.2, 0.8], 0.15, 500);
        assert!(value < 1e-4, "{value} at {x:?}");
    }

    /// The budget is kept and a stop is heeded: the best point so far comes back.
    #[test]
    fn nelder_mead_keeps_its_budget_and_stops_when_told() {
        let mut calls = 0;
        let _ = nelder_mead(
            |x| {
                calls += 1;
                Some(x[0])
            },
            &[0.5],
            0.1,
            7,
        );
        assert_eq!(calls, 7);
        let mut left = 3;
        let (x, value) = nelder_mead(
            |x| {
                left -= 1;
                (left >= 0).then_some(x[0])
            },
            &[0.5],
            0.1,
            100,
        );
        assert!(value <= 0.5 && x[0] <= 0.5);
    }

    #[test]
    fn a_bad_spec_says_why() {
        let good = FitSpec::default();
        assert_eq!(good.check(), Ok(()));
        let cases = [
            (
                FitSpec {
                    params: vec![],
                    ..good.clone()
                },
                "1 to 6",
            ),
            (
                FitSpec {
                    params: vec![Param::Count],
                    ..good.clone()
                },
                "count cannot be fitted",
            ),
            (
                FitSpec {
                    params: vec![Param::Speed, Param::Speed],
                    ..good.clone()
                },
                "named twice",
            ),
            (
                FitSpec {
                    count: 10,
                    ..good.clone()
                },
                "count must be",
            ),
            (
                FitSpec {
                    every: 0.0,
                    ..good.clone()
                },
                "every > 0",
            ),
            (
                FitSpec {
                    settle: 200.0,
                    ..good.clone()
                },
                "at most 120",
            ),
            (
                FitSpec {
                    evaluations: 0,
                    ..good.clone()
                },
                "evaluations",
            ),
        ];
        for (spec, says) in cases {
            let error = spec.check().unwrap_err();
            assert!(error.contains(says), "{error}");
        }
    }

    /// A target made by the model itself at other settings: the fit comes closer to it than
    /// the start, and the same spec gives the same result.
    #[test]
    fn a_fit_recovers_a_model_flock_more_closely_than_its_start() {
        let spec = FitSpec {
            params: vec![Param::Speed, Param::Separation],
            settle: 3.0,
            measure: 3.0,
            evaluations: 25,
            ..FitSpec::default()
        };
        let target = spec.summarize(&[16.0, 2.5]);
        let mut told = 0;
        let result = fit(&spec, &target, |_, _| {
            told += 1;
            true
        });
        assert!(result.distance < result.start_distance, "{result:?}");
        assert!(
            (result.values[0] - 16.0).abs() < 3.0,
            "speed {}",
            result.values[0]
        );
        assert_eq!(result.evaluations, 25);
        assert_eq!(told, 26);
        assert_eq!(
            fit(&spec, &target, |_, _| true),
            result,
            "the same fit again"
        );
        // Stopped at once: the start comes back.
        let stopped = fit(&spec, &target, |_, _| false);
        assert!(stopped.stopped);
        assert_eq!(stopped.values, stopped.start_values);
        assert_eq!(stopped.evaluations, 0);
    }
}
