//! The docs follow the code:
//! - docs/parameters.md's parameter table is generated from the one table in
//!   `src/sim/params.rs`; `BOIDS_BLESS=1 cargo test --test docs` rewrites it after the table
//!   changed;
//! - docs/architecture.md names every source file (`src/**/*.{rs,glsl,js}`,
//!   `www/**/*.{js,css}`, `scripts/*.{sh,mjs}`, the three pages) by its path from the
//!   repository's root, and names no path that is not there. The one pattern: `<lang>` in a
//!   path of `www/i18n/` stands for each language of `LANGS` in `www/i18n/texts.js`.

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

/// docs/architecture.md, and the repository's root.
fn architecture() -> (std::path::PathBuf, String) {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let doc =
        std::fs::read_to_string(root.join("docs/architecture.md")).expect("docs/architecture.md");
    (root, doc)
}

/// Every file under `dir` (its folders too when `deep`) whose name ends in `.<ext>` for one of
/// `exts`, as a path from the repository's root with `/` between names.
fn files(root: &std::path::Path, dir: &str, exts: &[&str], deep: bool, out: &mut Vec<String>) {
    let entries = std::fs::read_dir(root.join(dir)).unwrap_or_else(|e| panic!("{dir}: {e}"));
    for entry in entries {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().to_string();
        let path = format!("{dir}/{name}");
        if entry.file_type().unwrap().is_dir() {
            if deep {
                files(root, &path, exts, deep, out);
            }
        } else if exts.iter().any(|ext| name.ends_with(&format!(".{ext}"))) {
            out.push(path);
        }
    }
}

/// The source files docs/architecture.md must name: `src/**/*.{rs,glsl,js}`,
/// `www/**/*.{js,css}`, `scripts/*.{sh,mjs}` and the three pages.
fn source_files(root: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    files(root, "src", &["rs", "glsl", "js"], true, &mut out);
    files(root, "www", &["js", "css"], true, &mut out);
    files(root, "scripts", &["sh", "mjs"], false, &mut out);
    for page in ["index.html", "embed.html", "studio.html"] {
        assert!(root.join(page).is_file(), "{page} is gone");
        out.push(page.to_string());
    }
    out.sort();
    out
}

/// The languages of `LANGS` in www/i18n/texts.js: `<lang>` in a path stands for each.
fn languages(root: &std::path::Path) -> Vec<String> {
    let texts = std::fs::read_to_string(root.join("www/i18n/texts.js")).expect("texts.js");
    let line = texts
        .lines()
        .find(|line| line.starts_with("export const LANGS = ["))
        .expect("www/i18n/texts.js has `export const LANGS = [...]`");
    let langs: Vec<String> = line
        .split('\'')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    assert!(langs.len() >= 2, "LANGS read from texts.js: {langs:?}");
    langs
}

/// A character that may be part of a path (a `.` ends one when no letter or digit follows).
fn in_path(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_-/.".contains(c)
}

/// Whether `doc` names `path` whole: not as the end of a longer path (`x/www/app.js`) nor
/// the start of one (`www/app.js.map`, `www/app.jsx`).
fn names(doc: &str, path: &str) -> bool {
    doc.match_indices(path).any(|(at, _)| {
        let before = doc[..at].chars().next_back();
        let mut after = doc[at + path.len()..].chars();
        let ends = match after.next() {
            None => true,
            Some('.') => !after.next().is_some_and(|c| c.is_ascii_alphanumeric()),
            Some(c) => !in_path(c),
        };
        !before.is_some_and(in_path) && ends
    })
}

/// `path` with its language written `<lang>`, for a language table of www/i18n/
/// (`www/i18n/uk.js` → `www/i18n/<lang>.js`, `www/i18n/studio-uk.js` →
/// `www/i18n/studio-<lang>.js`); `None` for any other file.
fn as_pattern(path: &str, langs: &[String]) -> Option<String> {
    let stem = path.strip_prefix("www/i18n/")?.strip_suffix(".js")?;
    langs.iter().find_map(|lang| {
        let prefix = stem.strip_suffix(lang.as_str())?;
        (prefix.is_empty() || prefix.ends_with('-')).then(|| format!("www/i18n/{prefix}<lang>.js"))
    })
}

#[test]
fn architecture_md_names_every_source_file() {
    let (root, doc) = architecture();
    let langs = languages(&root);
    let sources = source_files(&root);
    assert!(sources.len() > 150, "found {} source files", sources.len());
    let missing: Vec<String> = sources
        .into_iter()
        .filter(|path| {
            !names(&doc, path) && !as_pattern(path, &langs).is_some_and(|p| names(&doc, &p))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "docs/architecture.md does not name {} source file(s): say what each does, by its path \
         from the repository's root (`www/core/loop.js`, `src/sim/grid.rs`; a language table \
         of www/i18n/ may be named as `www/i18n/<lang>.js`, `www/i18n/studio-<lang>.js`):\n  {}",
        missing.len(),
        missing.join("\n  ")
    );
}

#[test]
fn architecture_md_names_no_file_that_is_not_there() {
    let (root, doc) = architecture();
    let langs = languages(&root);
    let mut gone = Vec::new();
    for top in [
        "src/",
        "www/",
        "scripts/",
        "tests/",
        "examples/",
        "benches/",
        "docs/",
    ] {
        for (at, _) in doc.match_indices(top) {
            if doc[..at].chars().next_back().is_some_and(in_path) {
                continue;
            }
            let rest = &doc[at..];
            let end = rest
                .find(|c: char| !(in_path(c) || c == '<' || c == '>'))
                .unwrap_or(rest.len());
            let mut path = rest[..end].trim_end_matches('.');
            // `examples/<name>.html`: a placeholder other than `<lang>` names its folder.
            if let Some(open) = path.find('<').filter(|_| !path.contains("<lang>")) {
                path = &path[..open];
            }
            let there = if path.contains("<lang>") {
                langs
                    .iter()
                    .all(|lang| root.join(path.replace("<lang>", lang)).exists())
            } else {
                root.join(path).exists()
            };
            if !there {
                gone.push(path.to_string());
            }
        }
    }
    gone.sort();
    gone.dedup();
    assert!(
        gone.is_empty(),
        "docs/architecture.md names paths that are not in the repository:\n  {}",
        gone.join("\n  ")
    );
}
