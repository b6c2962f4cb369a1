//! "Colour by": what the cones' colour shows. The cone shader colours each instance from
//! its velocity and one more number in its record (see `renderer`'s instance layout),
//! which this module picks per mode — so every mode stays one instanced draw with one
//! upload. Neighbour counts and the strongest rule come from the step itself
//! (`Flock::neighbour_counts`, `Flock::strongest_rules`).

use crate::sim::Flock;

/// What the cones' colour shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColourBy {
    /// Compass heading (boids that fly together share a colour); with several species,
    /// the species' colour shaded by heading. The page's default.
    #[default]
    Heading,
    /// One colour per species.
    Species,
    /// Slow (blue) to fast (red), from the slowest to the fastest a boid may fly.
    Speed,
    /// Neighbours heeded in the last step: few (dark violet) to many (yellow).
    Neighbours,
    /// The rule that pushed hardest in the last step, in the inspector's arrow colours.
    Rule,
}

/// The modes' names, as JavaScript passes them, in the shader's numbering.
pub const MODES: [&str; 5] = ["heading", "species", "speed", "neighbours", "rule"];

impl ColourBy {
    /// The mode called `name` (one of `MODES`).
    pub fn parse(name: &str) -> Option<ColourBy> {
        Some(match name {
            "heading" => ColourBy::Heading,
            "species" => ColourBy::Species,
            "speed" => ColourBy::Speed,
            "neighbours" => ColourBy::Neighbours,
            "rule" => ColourBy::Rule,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        MODES[self.index()]
    }

    /// The shader's number for the mode.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The number in boid `i`'s record: its species (heading, species), its neighbour
    /// count (neighbours) or its strongest rule (rule: 0 none, 1–3 separation, alignment,
    /// cohesion). Speed reads the velocity alone.
    pub fn value(self, flock: &Flock, i: usize) -> f32 {
        let table = match self {
            ColourBy::Neighbours => {
                return flock
                    .neighbour_counts()
                    .get(i)
                    .map_or(0.0, |&n| f32::from(n));
            }
            ColourBy::Rule => flock.strongest_rules(),
            _ => flock.species(),
        };
        table.get(i).map_or(0.0, |&v| f32::from(v))
    }

    /// The count at which "neighbours" reaches its last colour: twice the mean (at least
    /// 2), so an ordinary boid sits mid-scale and a crowded one stands out.
    pub fn neighbour_scale(flock: &Flock) -> f32 {
        (2.0 * flock.mean_neighbours()).max(2.0)
    }
}

/// The ramp "speed" and "neighbours" colour along (low to high), as the shader has it.
pub const RAMP: [[f32; 3]; 3] = [[0.27, 0.15, 0.55], [0.13, 0.64, 0.62], [0.99, 0.86, 0.25]];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_others_are_refused() {
        for (k, name) in MODES.iter().enumerate() {
            let mode = ColourBy::parse(name).unwrap();
            assert_eq!(mode.name(), *name);
            assert_eq!(mode.index(), k);
        }
        assert_eq!(ColourBy::parse("Heading"), None);
        assert_eq!(ColourBy::parse(""), None);
    }

    #[test]
    fn values_come_from_the_step() {
        let mut flock = Flock::new(200, Some(1));
        flock.set(crate::sim::Param::SpeciesCount, 3.0).unwrap();
        flock.set(crate::sim::Param::FieldOfView, 360.0).unwrap();
        for _ in 0..30 {
            flock.step(1.0 / 60.0);
        }
        // Whom each boid heeds now, by the reference walk, and by id (the step re-sorts).
        let sets = flock.neighbour_sets();
        let ids = flock.ids().to_vec();
        let heeded: Vec<(u32, usize)> = (sets.into_iter().zip(&ids))
            .map(|(set, &id)| (id, set.len()))
            .collect();
        flock.step(1.0 / 60.0);
        let rules = flock.strongest_rules().to_vec();
        for &(id, count) in &heeded {
            let i = flock.index_of(id).unwrap();
            assert_eq!(
                ColourBy::Neighbours.value(&flock, i),
                count as f32,
                "boid {id}"
            );
            let kind = f32::from(flock.species()[i]);
            assert_eq!(ColourBy::Species.value(&flock, i), kind);
            assert_eq!(ColourBy::Heading.value(&flock, i), kind);
            assert_eq!(ColourBy::Rule.value(&flock, i), f32::from(rules[i]));
        }
        assert!(
            heeded.iter().any(|&(_, count)| count > 0),
            "someone heeds someone"
        );
        for kind in 0..3u8 {
            assert!(flock.species().contains(&kind), "species {kind}");
        }
        for rule in 1..=3u8 {
            assert!(rules.contains(&rule), "rule {rule} strongest somewhere");
        }
        assert!(ColourBy::neighbour_scale(&flock) >= 2.0);
        // Past the end (a count just raised, not yet stepped): 0, not a panic.
        flock.set_count(300);
        assert_eq!(ColourBy::Neighbours.value(&flock, 250), 0.0);
    }
}
