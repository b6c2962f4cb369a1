//! The flock measured: every measure at once (`metrics`, `metrics_by_species`), or the same
//! spread over many short calls (`survey`), so that a page can keep its plot current with
//! no frame that stalls.

use crate::sim::measures::{Metrics, Survey};

use super::Flock;

/// A measurement of the flock under way: the whole flock, then each species alone when
/// there are several, each on its own copy of the boids as they were when it began.
pub struct FlockSurvey {
    surveys: Vec<Survey>,
    /// The first not yet done.
    next: usize,
    /// What `Flock::mean_neighbours` read when the survey began.
    mean_neighbours: f32,
}

impl FlockSurvey {
    /// About how many units the whole measurement takes.
    pub fn estimate(&self) -> u64 {
        self.surveys.iter().map(Survey::estimate).sum()
    }

    /// Measures on for about `budget` units (at least one piece, of one survey at a time);
    /// true once every survey is done.
    pub fn advance(&mut self, budget: u64) -> bool {
        if let Some(survey) = self.surveys.get_mut(self.next) {
            if survey.advance(budget).is_some() {
                self.next += 1;
            }
        }
        self.is_done()
    }

    pub fn is_done(&self) -> bool {
        self.next == self.surveys.len()
    }

    /// Every piece left at once: the whole flock's measures and, with several species,
    /// each one's.
    pub fn finish(&mut self) -> (Metrics, Vec<Metrics>) {
        let mut all = self.surveys.iter_mut().map(|survey| {
            survey
                .advance(u64::MAX)
                .expect("a survey without limit finishes")
        });
        let whole = all.next().expect("a flock survey has the whole flock's");
        let species = all.collect();
        self.next = self.surveys.len();
        (whole, species)
    }

    /// Mean neighbours heeded in the step before the survey began.
    pub fn mean_neighbours(&self) -> f32 {
        self.mean_neighbours
    }
}

impl Flock {
    /// A survey of the boids of species `kind`, or of every boid.
    fn survey_of(&self, kind: Option<u8>) -> Survey {
        let (space, radius, cruise) = (self.space(), self.settings.perception, self.settings.speed);
        let pick = |values: &[f32]| -> Vec<f32> {
            match kind {
                None => values.to_vec(),
                Some(kind) => values
                    .chunks_exact(3)
                    .zip(&self.species)
                    .filter(|(_, &k)| k == kind)
                    .flat_map(|(v, _)| v.iter().copied())
                    .collect(),
            }
        };
        Survey::new(
            pick(&self.positions),
            pick(&self.velocities),
            space,
            radius,
            cruise,
        )
    }

    /// Every measure of the flock as a whole (`measures::measure`), boids linked within
    /// the perception radius.
    pub fn metrics(&self) -> Metrics {
        self.survey_of(None).finish()
    }

    /// The same measures for each species alone (the first for species 0, …).
    pub fn metrics_by_species(&self) -> Vec<Metrics> {
        (0..self.settings.species.max(1) as u8)
            .map(|kind| self.survey_of(Some(kind)).finish())
            .collect()
    }

    /// The measures of `metrics` (and, with several species, `metrics_by_species`) of the
    /// flock as it is now, to be taken a piece at a time (`FlockSurvey::advance`): the
    /// same numbers, whatever the flock does meanwhile.
    pub fn survey(&self) -> FlockSurvey {
        let mut surveys = vec![self.survey_of(None)];
        if self.settings.species > 1 {
            surveys.extend((0..self.settings.species as u8).map(|kind| self.survey_of(Some(kind))));
        }
        FlockSurvey {
            surveys,
            next: 0,
            mean_neighbours: self.mean_neighbours(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Param;

    /// Spread over frames while the flock flies on, a survey measures the flock as it was
    /// when it began, species by species too: the numbers of `metrics` at that moment.
    #[test]
    fn a_survey_spread_over_steps_measures_the_flock_as_it_was() {
        let mut flock = Flock::with_settings(3000, Some(3), crate::sim::Settings::walled());
        flock.set(Param::SpeciesCount, 3.0).unwrap();
        for _ in 0..30 {
            flock.step(1.0 / 60.0);
        }
        let whole = format!("{:?}", flock.metrics());
        let species = format!("{:?}", flock.metrics_by_species());
        let neighbours = flock.mean_neighbours();
        let mut survey = flock.survey();
        let budget = survey.estimate() / 20;
        let mut calls = 1;
        while !survey.advance(budget) {
            flock.step(1.0 / 60.0);
            calls += 1;
        }
        // The whole flock, then each of three species, each cut into pieces.
        assert!(calls >= 20, "{calls} calls");
        assert!(survey.is_done());
        let (w, s) = survey.finish();
        assert_eq!(format!("{w:?}"), whole);
        assert_eq!(format!("{s:?}"), species);
        assert_eq!(s.len(), 3);
        assert_eq!(survey.mean_neighbours(), neighbours);
        // The flock itself has moved on.
        assert_ne!(format!("{:?}", flock.metrics()), whole);
    }
}
