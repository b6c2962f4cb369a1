//! Presets: named sets of slider values that show one kind of collective motion each.
//! One table; the page lists it through `Flock.presets()`.

use super::params::Param;

/// One preset: a name for code, a label for people, and the values it sets. Parameters it
/// does not list keep their values.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    pub name: &'static str,
    pub label: &'static str,
    pub description: &'static str,
    pub values: &'static [(Param, f64)],
}

/// Every preset sets the same parameters, so going from one to another leaves nothing of the
/// first behind.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "defaults",
        label: "Defaults",
        description: "The plain model with the table's default values.",
        values: &[
            (Param::Separation, 1.5),
            (Param::Alignment, 1.0),
            (Param::Cohesion, 1.0),
            (Param::Perception, 5.0),
            (Param::SeparationRadius, 2.0),
            (Param::FieldOfView, 270.0),
            (Param::Speed, 10.0),
        ],
    },
    Preset {
        name: "murmuration",
        label: "Murmuration",
        description: "Starling-like: separation 1 : alignment 1.2 : cohesion 0.9, a wide view.",
        values: &[
            (Param::Separation, 1.0),
            (Param::Alignment, 1.2),
            (Param::Cohesion, 0.9),
            (Param::Perception, 6.0),
            (Param::SeparationRadius, 2.0),
            (Param::FieldOfView, 300.0),
            (Param::Speed, 12.0),
        ],
    },
    Preset {
        name: "ribbons",
        label: "Loose ribbons",
        description: "Strong separation, weak cohesion: long, thin streams that drift apart.",
        values: &[
            (Param::Separation, 2.5),
            (Param::Alignment, 1.0),
            (Param::Cohesion, 0.3),
            (Param::Perception, 6.0),
            (Param::SeparationRadius, 3.0),
            (Param::FieldOfView, 270.0),
            (Param::Speed, 10.0),
        ],
    },
    Preset {
        name: "arrows",
        label: "Arrow formations",
        description: "Strong alignment, weak separation and a narrow view: tight arrowheads.",
        values: &[
            (Param::Separation, 0.5),
            (Param::Alignment, 2.5),
            (Param::Cohesion, 1.0),
            (Param::Perception, 7.0),
            (Param::SeparationRadius, 1.5),
            (Param::FieldOfView, 180.0),
            (Param::Speed, 12.0),
        ],
    },
    Preset {
        name: "fishBall",
        label: "Fish ball",
        description: "Strong cohesion, weak alignment: a slow, dense, milling bait ball.",
        values: &[
            (Param::Separation, 1.0),
            (Param::Alignment, 0.3),
            (Param::Cohesion, 2.5),
            (Param::Perception, 8.0),
            (Param::SeparationRadius, 1.5),
            (Param::FieldOfView, 360.0),
            (Param::Speed, 6.0),
        ],
    },
];

/// The preset called `name`.
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|preset| preset.name == name)
}

/// A name that is not a preset's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPreset(pub String);

impl std::fmt::Display for UnknownPreset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<_> = PRESETS.iter().map(|p| p.name).collect();
        // Quoted by hand: `{:?}` would bring Rust's escaping tables into the wasm module.
        let (name, presets) = (&self.0, names.join(", "));
        write!(f, "no preset called \"{name}\" (presets: {presets})")
    }
}

impl std::error::Error for UnknownPreset {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_in_range_named_uniquely_and_set_the_same_parameters() {
        let first: Vec<Param> = PRESETS[0].values.iter().map(|(p, _)| *p).collect();
        for (k, preset) in PRESETS.iter().enumerate() {
            assert!(PRESETS[..k].iter().all(|other| other.name != preset.name));
            let params: Vec<Param> = preset.values.iter().map(|(p, _)| *p).collect();
            assert_eq!(params, first, "{}", preset.name);
            for &(param, value) in preset.values {
                let spec = param.spec();
                assert_eq!(
                    spec.sanitize(value),
                    Ok(value),
                    "{} {}",
                    preset.name,
                    spec.name
                );
            }
        }
        for &(param, value) in preset("defaults").unwrap().values {
            assert_eq!(value, param.spec().default, "{}", param.spec().name);
        }
        let murmuration = preset("murmuration").unwrap().values;
        let weight = |p: Param| murmuration.iter().find(|(q, _)| *q == p).unwrap().1;
        assert_eq!(
            [Param::Separation, Param::Alignment, Param::Cohesion].map(weight),
            [1.0, 1.2, 0.9]
        );
        assert!(preset("nope").is_none());
        assert!(UnknownPreset("nope".into())
            .to_string()
            .contains("fishBall"));
    }
}
