//! The colours the view draws with, as JSON for `View.legend()`: written out here as one
//! constant (the module parses it in JavaScript) rather than built by code, which cost the
//! module ~3 KB; a test holds it equal to the tables the drawing uses.

/// `{forces, links, rules, ramp, modes}`: see `View.legend`.
pub const LEGEND_JSON: &str = concat!(
    r##"{"forces":[{"name":"total","colour":"#ffffff"},{"name":"separation","colour":"#ff5454"},"##,
    r##"{"name":"alignment","colour":"#ffd43b"},{"name":"cohesion","colour":"#4dabf7"},"##,
    r##"{"name":"cruise","colour":"#8ce99a"},{"name":"walls","colour":"#adb5bd"},"##,
    r##"{"name":"obstacles","colour":"#d68c52"},{"name":"hawks","colour":"#f767c4"},"##,
    r##"{"name":"leader","colour":"#ff922b"},{"name":"pointer","colour":"#be4bdb"},"##,
    r##"{"name":"wind","colour":"#66d9e8"}],"##,
    r##""links":[{"name":"heeded","colour":"rgba(235, 242, 255, 0.55)"},"##,
    r##"{"name":"tooClose","colour":"rgba(255, 84, 84, 0.95)"},"##,
    r##"{"name":"unseen","colour":"rgba(140, 148, 166, 0.22)"}],"##,
    r##""rules":[{"name":"none","colour":"#80808c"},{"name":"separation","colour":"#ff5454"},"##,
    r##"{"name":"alignment","colour":"#ffd43b"},{"name":"cohesion","colour":"#4dabf7"}],"##,
    r##""ramp":["#45268c","#21a39e","#fcdb40"],"##,
    r##""modes":["heading","species","speed","neighbours","rule"]}"##
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::colour::{MODES, RAMP};
    use crate::render::overlay::{css, Link, FORCES, LINK_RGBA, NO_RULE_RGB, RULE_RGB};

    fn named(name: &str, colour: &str) -> String {
        format!(r#"{{"name":"{name}","colour":"{colour}"}}"#)
    }

    fn rgba(c: [f32; 4]) -> String {
        let byte = |v: f32| (v * 255.0).round() as u8;
        format!(
            "rgba({}, {}, {}, {:.2})",
            byte(c[0]),
            byte(c[1]),
            byte(c[2]),
            c[3]
        )
    }

    #[test]
    fn the_legend_is_the_tables_the_drawing_uses() {
        let forces: Vec<_> = FORCES.iter().map(|f| named(f.name, &css(f.rgb))).collect();
        let links: Vec<_> = LINK_RGBA
            .iter()
            .map(|(link, c)| {
                let name = match link {
                    Link::Heeded => "heeded",
                    Link::TooClose => "tooClose",
                    Link::Unseen => "unseen",
                };
                named(name, &rgba(*c))
            })
            .collect();
        let rules: Vec<_> = [("none", NO_RULE_RGB)]
            .into_iter()
            .chain(
                ["separation", "alignment", "cohesion"]
                    .into_iter()
                    .zip(RULE_RGB),
            )
            .map(|(name, rgb)| named(name, &css(rgb)))
            .collect();
        let ramp: Vec<_> = RAMP.iter().map(|&c| format!("\"{}\"", css(c))).collect();
        let modes: Vec<_> = MODES.iter().map(|m| format!("\"{m}\"")).collect();
        let expected = format!(
            r#"{{"forces":[{}],"links":[{}],"rules":[{}],"ramp":[{}],"modes":[{}]}}"#,
            forces.join(","),
            links.join(","),
            rules.join(","),
            ramp.join(","),
            modes.join(",")
        );
        assert_eq!(LEGEND_JSON, expected);
    }
}
