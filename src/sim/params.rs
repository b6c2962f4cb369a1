//! The one table of tunable parameters: name, range, default, step, unit, description.
//! Setters, the JS API, the page's sliders and the docs all read it; nothing copies a range.

use crate::within::Within;

/// How a parameter's value is stored and shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A real number.
    Real,
    /// A whole number (rounded when set).
    Integer,
    /// On/off; 0 or 1 in the table.
    Toggle,
}

/// How a slider maps its position to the value (log makes small flocks easy to pick).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    Linear,
    Log,
}

/// Every parameter the flock exposes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Param {
    Count,
    Speed,
    Separation,
    Alignment,
    Cohesion,
    Perception,
    SeparationRadius,
    AlignmentRadius,
    FieldOfView,
    MaxForce,
    Noise,
    WorldSize,
    Wrap,
    Sky,
    HomeRange,
    Seed,
    Predators,
    PredatorSpeed,
    FleeRadius,
    Leaders,
    LeaderWeight,
    PointerStrength,
    WindStrength,
    WindHeading,
    WindElevation,
    SpeciesCount,
    Flat,
    Topological,
    NearestK,
    Delay,
    MessageLoss,
    Failures,
    FailureMode,
    Roles,
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    pub param: Param,
    /// JS-facing camelCase name; the getter has this name, the setter `set` + Name.
    pub name: &'static str,
    /// Short label for a slider.
    pub label: &'static str,
    pub min: f64,
    pub max: f64,
    pub default: f64,
    pub step: f64,
    pub unit: &'static str,
    pub kind: Kind,
    pub scale: Scale,
    /// Shown as a slider on the full page by default.
    pub slider: bool,
    /// One line a student understands.
    pub description: &'static str,
}

/// World side length used when the world size follows the count (see `auto_world_size`).
pub const DEFAULT_WORLD_SIZE: f64 = 40.0;

/// The strongest noise, rad/√s: where the defaults' flock is disordered (see
/// `tests/noise.rs`: polarization falls from 0.9+ to about the value of random headings).
pub const NOISE_MAX: f64 = 4.0;

/// The longest delay, seconds: Vásárhelyi et al.'s drones flew with 1 s; at 2 s the
/// default flock has long fallen apart. The memory the past takes caps it lower for big
/// flocks (`swarm::most_delay`).
pub const MAX_DELAY: f64 = 2.0;

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        param: Param::Count,
        name: "count",
        label: "Count",
        // Two, not more: a recorded flock (issue 43, `Flock.setBirds`) may be a handful of
        // pigeons, and the count it leaves must read inside this table like any other.
        min: 2.0,
        max: 100_000.0,
        default: 1500.0,
        step: 1.0,
        unit: "boids",
        kind: Kind::Integer,
        scale: Scale::Log,
        slider: true,
        description: "How many boids fly. Boids are added or removed; the others stay where they are.",
    },
    ParamSpec {
        param: Param::Speed,
        name: "speed",
        label: "Speed",
        min: 1.0,
        max: 30.0,
        default: 10.0,
        step: 0.5,
        unit: "units/s",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "Cruise speed. A boid flies between half of it and 1.4 times it.",
    },
    ParamSpec {
        param: Param::Separation,
        name: "separation",
        label: "Separation",
        min: 0.0,
        max: 3.0,
        default: 1.5,
        step: 0.05,
        unit: "",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "Weight of steering away from neighbours that are too close.",
    },
    ParamSpec {
        param: Param::Alignment,
        name: "alignment",
        label: "Alignment",
        min: 0.0,
        max: 3.0,
        default: 1.0,
        step: 0.05,
        unit: "",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "Weight of turning toward the neighbours' average heading.",
    },
    ParamSpec {
        param: Param::Cohesion,
        name: "cohesion",
        label: "Cohesion",
        min: 0.0,
        max: 3.0,
        default: 1.0,
        step: 0.05,
        unit: "",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "Weight of steering toward the neighbours' centre.",
    },
    ParamSpec {
        param: Param::Perception,
        name: "perception",
        label: "Perception radius",
        min: 1.0,
        max: 12.0,
        default: 5.0,
        step: 0.1,
        unit: "units",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "How far a boid sees its neighbours.",
    },
    ParamSpec {
        param: Param::SeparationRadius,
        name: "separationRadius",
        label: "Separation radius",
        min: 0.1,
        max: 12.0,
        default: 2.0,
        step: 0.1,
        unit: "units",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "Neighbours closer than this push a boid away (it still sees only within the perception radius).",
    },
    ParamSpec {
        param: Param::AlignmentRadius,
        name: "alignmentRadius",
        label: "Alignment radius",
        min: 0.1,
        max: 12.0,
        default: 12.0,
        step: 0.1,
        unit: "units",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "How far a boid copies its neighbours' heading (Couzin's zone of orientation); cohesion still reaches the perception radius. At or above it: the same.",
    },
    ParamSpec {
        param: Param::FieldOfView,
        name: "fieldOfView",
        label: "Field of view",
        min: 10.0,
        max: 360.0,
        default: 270.0,
        step: 5.0,
        unit: "°",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "How wide a boid sees; it ignores neighbours in the blind zone behind it, but still keeps its distance from them.",
    },
    ParamSpec {
        param: Param::MaxForce,
        name: "maxForce",
        label: "Max force",
        min: 1.0,
        max: 100.0,
        default: 20.0,
        step: 0.5,
        unit: "units/s²",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: false,
        description: "Strongest steering each rule may apply: low is lazy and smooth, high is twitchy.",
    },
    ParamSpec {
        param: Param::Noise,
        name: "noise",
        label: "Noise",
        min: 0.0,
        max: NOISE_MAX,
        default: 0.0,
        step: 0.05,
        unit: "rad/√s",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "Random turns: each boid's heading wobbles, standing for its errors in seeing and in flying. Strong noise breaks the flock's order.",
    },
    ParamSpec {
        param: Param::WorldSize,
        name: "worldSize",
        label: "World size",
        min: 10.0,
        max: 1000.0,
        default: DEFAULT_WORLD_SIZE,
        step: 1.0,
        unit: "units",
        kind: Kind::Real,
        scale: Scale::Log,
        slider: false,
        description: "Side of the cubic world, or under an open sky of the view the camera frames around home (the sky is three times wider). Follows the count (same density) until you set it.",
    },
    ParamSpec {
        param: Param::Wrap,
        name: "wrap",
        label: "Wrap edges",
        min: 0.0,
        max: 1.0,
        default: 0.0,
        step: 1.0,
        unit: "",
        kind: Kind::Toggle,
        scale: Scale::Linear,
        slider: false,
        description: "On: a boid leaving one side comes back on the other. Off: soft walls turn boids back.",
    },
    ParamSpec {
        param: Param::Sky,
        name: "sky",
        label: "Open sky",
        min: 0.0,
        max: 1.0,
        default: 1.0,
        step: 1.0,
        unit: "",
        kind: Kind::Toggle,
        scale: Scale::Linear,
        slider: false,
        description: "On: an open sky, three times wider than the view, with no wall in sight: the flock roams and is drawn gently back toward home, the middle of the view, and the camera follows it. Turns wrap off.",
    },
    ParamSpec {
        param: Param::HomeRange,
        name: "homeRange",
        label: "Home range",
        min: 0.05,
        max: 0.5,
        default: 0.22,
        step: 0.01,
        unit: "",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: false,
        description: "Under an open sky: how far from home, as a share of the view's width, the flock flies free before it is drawn back. Small: a tight ball held in place, as predators herd a bait ball.",
    },
    ParamSpec {
        param: Param::Seed,
        name: "seed",
        label: "Seed",
        min: 0.0,
        max: 4_294_967_295.0,
        default: 1.0,
        step: 1.0,
        unit: "",
        kind: Kind::Integer,
        scale: Scale::Linear,
        slider: false,
        description: "Starting point of the random numbers: the same seed gives the same flock.",
    },
    ParamSpec {
        param: Param::Predators,
        name: "predators",
        label: "Hawks",
        min: 0.0,
        max: 5.0,
        default: 0.0,
        step: 1.0,
        unit: "",
        kind: Kind::Integer,
        scale: Scale::Linear,
        slider: true,
        description: "Hawks that circle and dive at the flock. Boids near a hawk flee and panic (up to twice their top speed).",
    },
    ParamSpec {
        param: Param::PredatorSpeed,
        name: "predatorSpeed",
        label: "Hawk speed",
        min: 5.0,
        max: 40.0,
        default: 18.0,
        step: 0.5,
        unit: "units/s",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "How fast the hawks fly. Faster than the boids' cruise, slower than their panic.",
    },
    ParamSpec {
        param: Param::FleeRadius,
        name: "fleeRadius",
        label: "Flee radius",
        min: 2.0,
        max: 30.0,
        default: 10.0,
        step: 0.5,
        unit: "units",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "Boids closer than this to a hawk flee from it.",
    },
    ParamSpec {
        param: Param::Leaders,
        name: "leaders",
        label: "Leaders",
        min: 0.0,
        max: 3.0,
        default: 0.0,
        step: 1.0,
        unit: "",
        kind: Kind::Integer,
        scale: Scale::Linear,
        slider: true,
        description: "Leaders flying a closed loop through the world; each boid is pulled toward the nearest one.",
    },
    ParamSpec {
        param: Param::LeaderWeight,
        name: "leaderWeight",
        label: "Follow the leader",
        min: 0.0,
        max: 3.0,
        default: 1.0,
        step: 0.05,
        unit: "",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "Weight of steering toward the nearest leader.",
    },
    ParamSpec {
        param: Param::PointerStrength,
        name: "pointerStrength",
        label: "Pointer pull",
        min: 0.0,
        max: 3.0,
        default: 1.0,
        step: 0.05,
        unit: "",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "Weight of steering toward (or away from) the pointer while it is held down.",
    },
    ParamSpec {
        param: Param::WindStrength,
        name: "windStrength",
        label: "Wind",
        min: 0.0,
        max: 20.0,
        default: 0.0,
        step: 0.5,
        unit: "units/s²",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "A steady push every boid feels, the same everywhere.",
    },
    ParamSpec {
        param: Param::WindHeading,
        name: "windHeading",
        label: "Wind heading",
        min: 0.0,
        max: 360.0,
        default: 0.0,
        step: 5.0,
        unit: "°",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "Where the wind blows toward, in the x-y plane: 0° is +x, 90° is +y.",
    },
    ParamSpec {
        param: Param::WindElevation,
        name: "windElevation",
        label: "Wind elevation",
        min: -90.0,
        max: 90.0,
        default: 0.0,
        step: 5.0,
        unit: "°",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: false,
        description: "How steeply the wind blows up (+) or down (−) the z axis. Ignored in 2D.",
    },
    ParamSpec {
        param: Param::SpeciesCount,
        name: "speciesCount",
        label: "Species",
        min: 1.0,
        max: 4.0,
        default: 1.0,
        step: 1.0,
        unit: "",
        kind: Kind::Integer,
        scale: Scale::Linear,
        slider: true,
        description: "Kinds of boid. Each aligns with and gathers to its own kind only, but keeps clear of all.",
    },
    ParamSpec {
        param: Param::Flat,
        name: "flat",
        label: "2D",
        min: 0.0,
        max: 1.0,
        default: 0.0,
        step: 1.0,
        unit: "",
        kind: Kind::Toggle,
        scale: Scale::Linear,
        slider: true,
        description: "On: a flat world seen from above (every z is 0). Switching scatters the flock afresh.",
    },
    ParamSpec {
        param: Param::Topological,
        name: "topological",
        label: "Nearest k only",
        min: 0.0,
        max: 1.0,
        default: 0.0,
        step: 1.0,
        unit: "",
        kind: Kind::Toggle,
        scale: Scale::Linear,
        slider: true,
        description: "On: each boid heeds its k nearest neighbours however far, like starlings (Ballerini et al., 2008). Off: all within the perception radius.",
    },
    ParamSpec {
        param: Param::NearestK,
        name: "nearestK",
        label: "Nearest k",
        min: 1.0,
        max: 20.0,
        default: 7.0,
        step: 1.0,
        unit: "boids",
        kind: Kind::Integer,
        scale: Scale::Linear,
        slider: true,
        description: "How many nearest neighbours a boid heeds when \"Nearest k only\" is on.",
    },
    ParamSpec {
        param: Param::Delay,
        name: "delay",
        label: "Delay",
        min: 0.0,
        max: MAX_DELAY,
        default: 0.0,
        step: 0.05,
        unit: "s",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "How late a boid hears its neighbours: it reacts to where they were and how they flew this many seconds ago, as drones hear each other over radio. Its own state it knows now.",
    },
    ParamSpec {
        param: Param::MessageLoss,
        name: "messageLoss",
        label: "Message loss",
        min: 0.0,
        max: 1.0,
        default: 0.0,
        step: 0.05,
        unit: "",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "Share of messages lost: each step, each neighbour goes unheard with this chance, and a boid neither follows nor avoids one it does not hear.",
    },
    ParamSpec {
        param: Param::Failures,
        name: "failures",
        label: "Failures",
        min: 0.0,
        max: 1.0,
        default: 0.0,
        step: 0.01,
        unit: "",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "Share of boids that have failed: they no longer steer (drawn in their own colour), and behave as the failure mode says. The seed picks which.",
    },
    ParamSpec {
        param: Param::FailureMode,
        name: "failureMode",
        label: "Failure mode",
        min: 0.0,
        max: 2.0,
        default: 0.0,
        step: 1.0,
        unit: "",
        kind: Kind::Integer,
        scale: Scale::Linear,
        slider: true,
        description: "What a failed boid does: 0 flies straight on, 1 drifts to a halt, 2 flies straight on and tells its neighbours a wrong heading.",
    },
    ParamSpec {
        param: Param::Roles,
        name: "roles",
        label: "Bold members",
        min: 0.0,
        max: 1.0,
        default: 0.0,
        step: 0.05,
        unit: "",
        kind: Kind::Real,
        scale: Scale::Linear,
        slider: true,
        description: "Share of bold boids: they cruise 30 % faster and heed their neighbours' heading and centre half as much. The seed picks which.",
    },
];

impl Param {
    /// This parameter's row of the table.
    pub fn spec(self) -> &'static ParamSpec {
        PARAMS
            .iter()
            .find(|spec| spec.param == self)
            .expect("every Param has a row in PARAMS")
    }

    /// Looks a parameter up by its JS name.
    pub fn from_name(name: &str) -> Option<Param> {
        PARAMS
            .iter()
            .find(|spec| spec.name == name)
            .map(|spec| spec.param)
    }
}

/// Why a value was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamError {
    NotFinite {
        name: &'static str,
        value: f64,
    },
    /// The past a `delay` needs at `count` boids would take more than the flock keeps
    /// (`swarm::HISTORY_BUDGET`): at that count, `most` seconds at most. `name` is the
    /// parameter that was set (the delay, or the count).
    HistoryTooLarge {
        name: &'static str,
        delay: f64,
        count: usize,
        bytes: usize,
        most: f64,
    },
}

impl ParamError {
    /// What was refused, in words, with the numbers written by `number`: the JS API has
    /// JavaScript write them ("Infinity", and no float printing in the wasm module).
    pub fn message(&self, number: impl Fn(f64) -> String) -> String {
        match self {
            ParamError::NotFinite { name, value } => {
                let mut message = format!("{name} must be a finite number, got {}", number(*value));
                if let Some(spec) = Param::from_name(name).map(Param::spec) {
                    let (min, max) = (number(spec.min), number(spec.max));
                    message += &format!(" (range {min} to {max})");
                }
                message
            }
            ParamError::HistoryTooLarge {
                name,
                delay,
                count,
                bytes,
                most,
            } => {
                let megabytes = |bytes: usize| number((bytes as f64 / 1e6).round());
                let budget = megabytes(crate::sim::swarm::HISTORY_BUDGET);
                format!(
                    "{name}: a delay of {} s at {} boids would keep {} MB of the flock's past, more than the {budget} MB it may; at {} boids the delay is at most {} s",
                    number(*delay),
                    number(*count as f64),
                    megabytes(*bytes),
                    number(*count as f64),
                    number(*most),
                )
            }
        }
    }
}

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(|number| number.to_string()))
    }
}

impl std::error::Error for ParamError {}

impl ParamSpec {
    /// Clamps a value into the table's range (rounding whole numbers); refuses non-finite input.
    pub fn sanitize(&self, value: f64) -> Result<f64, ParamError> {
        if !value.is_finite() {
            return Err(ParamError::NotFinite {
                name: self.name,
                value,
            });
        }
        let value = match self.kind {
            Kind::Real => value,
            Kind::Integer => value.round(),
            Kind::Toggle => {
                if value >= 0.5 {
                    1.0
                } else {
                    0.0
                }
            }
        };
        // `+ 0.0` turns −0 into 0: a weight of "−0" is no weight, and shows as 0.
        Ok(value.within(self.min, self.max) + 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_param_has_exactly_one_row_with_a_sane_range() {
        let all = [
            Param::Count,
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
            Param::WorldSize,
            Param::Wrap,
            Param::Sky,
            Param::HomeRange,
            Param::Seed,
            Param::Predators,
            Param::PredatorSpeed,
            Param::FleeRadius,
            Param::Leaders,
            Param::LeaderWeight,
            Param::PointerStrength,
            Param::WindStrength,
            Param::WindHeading,
            Param::WindElevation,
            Param::SpeciesCount,
            Param::Flat,
            Param::Topological,
            Param::NearestK,
            Param::Delay,
            Param::MessageLoss,
            Param::Failures,
            Param::FailureMode,
            Param::Roles,
        ];
        // Exhaustive: a parameter added to the enum does not compile here until it is
        // listed above too.
        let _listed = |param: Param| match param {
            Param::Count
            | Param::Speed
            | Param::Separation
            | Param::Alignment
            | Param::Cohesion
            | Param::Perception
            | Param::SeparationRadius
            | Param::AlignmentRadius
            | Param::FieldOfView
            | Param::MaxForce
            | Param::Noise
            | Param::WorldSize
            | Param::Wrap
            | Param::Sky
            | Param::HomeRange
            | Param::Seed
            | Param::Predators
            | Param::PredatorSpeed
            | Param::FleeRadius
            | Param::Leaders
            | Param::LeaderWeight
            | Param::PointerStrength
            | Param::WindStrength
            | Param::WindHeading
            | Param::WindElevation
            | Param::SpeciesCount
            | Param::Flat
            | Param::Topological
            | Param::NearestK
            | Param::Delay
            | Param::MessageLoss
            | Param::Failures
            | Param::FailureMode
            | Param::Roles => (),
        };
        assert_eq!(all.len(), PARAMS.len());
        for param in all {
            let rows = PARAMS.iter().filter(|s| s.param == param).count();
            assert_eq!(rows, 1, "{param:?}");
            let spec = param.spec();
            assert!(spec.min < spec.max, "{}", spec.name);
            assert!(
                (spec.min..=spec.max).contains(&spec.default),
                "{}",
                spec.name
            );
            assert!(spec.step > 0.0, "{}", spec.name);
            assert_eq!(Param::from_name(spec.name), Some(param));
        }
    }

    #[test]
    fn weights_and_radii_follow_the_design() {
        for (param, default) in [
            (Param::Separation, 1.5),
            (Param::Alignment, 1.0),
            (Param::Cohesion, 1.0),
        ] {
            let spec = param.spec();
            assert_eq!((spec.min, spec.max, spec.default), (0.0, 3.0, default));
        }
        let perception = Param::Perception.spec();
        assert_eq!((perception.min, perception.max), (1.0, 12.0));
        assert_eq!(Param::FieldOfView.spec().default, 270.0);
        assert_eq!(
            Param::SeparationRadius.spec().default,
            0.4 * perception.default
        );
    }

    #[test]
    fn sanitize_clamps_rounds_and_refuses_non_finite() {
        let cohesion = Param::Cohesion.spec();
        assert_eq!(cohesion.sanitize(-4.0), Ok(0.0));
        assert_eq!(cohesion.sanitize(1e30), Ok(3.0));
        assert_eq!(cohesion.sanitize(2.25), Ok(2.25));
        assert!(cohesion.sanitize(f64::NAN).is_err());
        assert!(cohesion.sanitize(f64::INFINITY).is_err());
        assert!(cohesion.sanitize(f64::NEG_INFINITY).is_err());
        assert_eq!(Param::Count.spec().sanitize(123.6), Ok(124.0));
        assert_eq!(Param::Count.spec().sanitize(1.0), Ok(2.0));
        assert_eq!(Param::Wrap.spec().sanitize(0.7), Ok(1.0));
        let message = cohesion.sanitize(f64::NAN).unwrap_err().to_string();
        assert!(
            message.contains("cohesion") && message.contains("finite"),
            "{message}"
        );
    }
}
