//! docs/parameters.md's parameter table is generated from the one table in `src/sim/params.rs`.
//! `BOIDS_BLESS=1 cargo test --test docs` rewrites it after the table changed.

use boids::sim::{Kind, PARAMS};

const START: &str = "<!-- params:start -->";
const END: &str = "<!-- params:end -->";

fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}

fn parameter_table() -> String {
    let mut out = String::from(
        "| name | label | range | default | step | unit | what it does |\n|---|---|---|---|---|---|---|\n",
    );
    for spec in PARAMS {
        let range = match spec.kind {
            Kind::Toggle => "on / off".to_string(),
            _ => format!("{} – {}", number(spec.min), number(spec.max)),
        };
        let default = match spec.kind {
            Kind::Toggle => (if spec.default != 0.0 { "on" } else { "off" }).to_string(),
            _ => number(spec.default),
        };
        out += &format!(
            "| `{}` | {} | {} | {} | {} | {} | {} |\n",
            spec.name,
            spec.label,
            range,
            default,
            number(spec.step),
            spec.unit,
            spec.description
        );
    }
    out
}

#[test]
fn readme_parameter_table_follows_the_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/parameters.md");
    let readme = std::fs::read_to_string(path).expect("docs/parameters.md");
    let start = readme
        .find(START)
        .expect("docs/parameters.md has the params:start marker")
        + START.len();
    let end = readme
        .find(END)
        .expect("docs/parameters.md has the params:end marker");
    let expected = format!("\n{}", parameter_table());
    if std::env::var_os("BOIDS_BLESS").is_some() {
        // Rewriting is for a person at a checkout; in CI it would pass any table.
        assert!(
            std::env::var_os("CI").is_none(),
            "BOIDS_BLESS rewrites docs/parameters.md: not under CI"
        );
        let updated = format!("{}{}{}", &readme[..start], expected, &readme[end..]);
        std::fs::write(path, updated).expect("rewrite docs/parameters.md");
        return;
    }
    assert_eq!(
        &readme[start..end],
        expected,
        "docs/parameters.md's parameter table is stale: run `BOIDS_BLESS=1 cargo test --test docs`"
    );
}
