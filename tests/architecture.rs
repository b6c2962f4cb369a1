//! The layout keeps its promises (issues 12 and 41), read from the sources themselves:
//! - the modules of each of `src/sim/`, `src/render/` and `src/web/` depend on each other
//!   one way only (no cycle),
//! - `src/sim/` knows nothing of the web or of GL, and `src/render/` nothing of the web.
//!
//! A module's dependencies are every `super::name` and `crate::<folder>::name` it mentions
//! outside its unit tests (a `use` or a path in code alike), where `name` is a sibling
//! module or an item the folder's `mod.rs` re-exports from one (`super::Flock` in
//! `src/web/` is `flock`); `src/sim/flock/*.rs` count as `flock`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// One folder of `src/`, read: its modules' sources and the names they reach each other by.
struct Folder {
    /// `crate::sim::` for `src/sim/`.
    crate_path: String,
    /// Module name → source, unit tests cut off (`mod.rs` is the folder's, not a module).
    sources: BTreeMap<String, String>,
    /// Every name a module reaches a sibling by → that sibling: the siblings' own names, and
    /// the items `mod.rs` re-exports from them.
    names: BTreeMap<String, String>,
    /// `mod.rs`, unit tests cut off.
    own: String,
}

/// `text` without its unit tests.
fn without_tests(text: String) -> String {
    match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// `code` without its `//` comments.
fn without_comments(code: &str) -> String {
    code.lines()
        .map(|line| line.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The leading identifier of `text`.
fn identifier(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

impl Folder {
    /// `src/<name>/`: each `*.rs` a module, each folder's files counted as the module of its
    /// name.
    fn read(name: &str) -> Folder {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(name);
        let mut sources = BTreeMap::new();
        let mut visit = |path: &Path, module: String| {
            let code = without_tests(fs::read_to_string(path).unwrap());
            sources
                .entry(module)
                .and_modify(|all: &mut String| all.push_str(&code))
                .or_insert(code);
        };
        for entry in fs::read_dir(&root).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|ext| ext == "rs") {
                let name = path.file_stem().unwrap().to_string_lossy().to_string();
                if name != "mod" {
                    visit(&path, name);
                }
            } else if path.is_dir() {
                let parent = path.file_name().unwrap().to_string_lossy().to_string();
                for inner in fs::read_dir(&path).unwrap() {
                    let inner = inner.unwrap().path();
                    if inner.extension().is_some_and(|ext| ext == "rs") {
                        visit(&inner, parent.clone());
                    }
                }
            }
        }
        let own = without_tests(fs::read_to_string(root.join("mod.rs")).unwrap());
        Folder::new(name, sources, own)
    }

    /// The folder `crate::<name>` of these modules, whose `mod.rs` is `own`.
    fn new(name: &str, sources: BTreeMap<String, String>, own: String) -> Folder {
        let mut names = BTreeMap::new();
        // `pub use module::Item;`, `pub use module::{A, B as C};`, `pub use module::*;`
        let code = without_comments(&own);
        for (at, _) in code.match_indices("pub use ") {
            let statement = &code[at + "pub use ".len()..];
            let statement = &statement[..statement.find(';').unwrap_or(statement.len())];
            let Some((module, items)) = statement.split_once("::") else {
                continue;
            };
            let Some(source) = sources.get(module) else {
                continue;
            };
            let items = items.trim().trim_start_matches('{').trim_end_matches('}');
            for item in items.split(',').map(str::trim) {
                if item == "*" {
                    // Every item of the module's own, at the start of a line.
                    for line in source.lines() {
                        let Some(rest) = line.strip_prefix("pub ") else {
                            continue;
                        };
                        let words: Vec<&str> = rest.split_whitespace().take(2).collect();
                        let kinds = ["struct", "enum", "fn", "const", "static", "trait", "type"];
                        if let [kind, name] = words[..] {
                            if kinds.contains(&kind) {
                                names.insert(identifier(name).to_string(), module.to_string());
                            }
                        }
                    }
                } else if !item.is_empty() {
                    let visible = item.rsplit(" as ").next().unwrap();
                    let visible = visible.rsplit("::").next().unwrap().trim();
                    names.insert(visible.to_string(), module.to_string());
                }
            }
        }
        // A module's own name wins over an item of the same name.
        for module in sources.keys() {
            names.insert(module.clone(), module.clone());
        }
        Folder {
            crate_path: format!("crate::{name}::"),
            sources,
            names,
            own,
        }
    }

    /// The sibling modules `code` (of module `own`) names.
    fn mentions(&self, code: &str, own: &str) -> BTreeSet<String> {
        let mut found = BTreeSet::new();
        let mut name = |name: &str| {
            if let Some(module) = self.names.get(name.trim()) {
                if module != own {
                    found.insert(module.clone());
                }
            }
        };
        let code = without_comments(code);
        for prefix in ["super::", self.crate_path.as_str()] {
            for (at, _) in code.match_indices(prefix) {
                // `super::super::x` from a child module of `flock` is `x`.
                let mut rest = &code[at + prefix.len()..];
                while let Some(after) = rest.strip_prefix("super::") {
                    rest = after;
                }
                name(identifier(rest));
                // `use super::{a, b::c}`
                if let Some(group) = rest.strip_prefix('{') {
                    let group = &group[..group.find('}').unwrap_or(group.len())];
                    for item in group.split(',') {
                        name(item.trim().split("::").next().unwrap_or(""));
                    }
                }
            }
        }
        found
    }

    /// Module → the sibling modules it names.
    fn graph(&self) -> BTreeMap<String, BTreeSet<String>> {
        self.sources
            .iter()
            .map(|(name, code)| (name.clone(), self.mentions(code, name)))
            .collect()
    }
}

/// A cycle in `graph`, as the path around it, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

/// The modules of `src/<folder>/` depend on each other one way only; `reads` are
/// dependencies that are there, to show that the reading itself works.
fn assert_one_way(folder: &str, reads: &[(&str, &str)]) {
    let graph = Folder::read(folder).graph();
    for (module, uses) in reads {
        assert!(
            graph[*module].contains(*uses),
            "src/{folder}/{module} uses {uses}, unread: {graph:#?}"
        );
    }
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "import cycle in src/{folder}: {}\n{graph:#?}",
            cycle.join(" → ")
        );
    }
}

#[test]
fn the_modules_of_sim_depend_one_way() {
    // The flock uses the grid, the scan the rules.
    assert_one_way("sim", &[("flock", "grid"), ("scan", "rules")]);
}

#[test]
fn the_modules_of_render_depend_one_way() {
    // The renderer uses the overlay's GL, which uses the trails; `super::CameraFrame`, which
    // `mod.rs` re-exports, is the camera's.
    assert_one_way(
        "render",
        &[
            ("renderer", "overlay_gl"),
            ("overlay_gl", "trails"),
            ("renderer", "camera"),
        ],
    );
}

#[test]
fn the_modules_of_web_depend_one_way() {
    // The shared step's bindings use the flock; the view names it as `super::Flock`.
    assert_one_way(
        "web",
        &[("share", "flock"), ("view", "flock"), ("inspector", "view")],
    );
}

#[test]
fn a_cycle_is_found_when_there_is_one() {
    let folder = |sources: &[(&str, &str)], own: &str| {
        let sources = sources
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Folder::new("x", sources, own.to_string())
    };
    let names =
        |list: &[&str]| -> BTreeSet<String> { list.iter().map(|s| s.to_string()).collect() };
    let cyclic = folder(
        &[
            ("a", "use super::b::X;"),
            ("b", "fn f() { crate::x::c::g() }"),
            ("c", "use super::{a, b};"),
        ],
        "",
    );
    let cycle = find_cycle(&cyclic.graph()).expect("a → b → c → a");
    assert_eq!(cycle.first(), cycle.last());
    assert_eq!(
        cyclic.mentions("use super::{a, b::c}; // super::z", "x"),
        names(&["a", "b"])
    );
    // Items `mod.rs` re-exports count as their modules: `super::Y` is `b`'s.
    let exported = folder(
        &[
            ("a", "use super::{Y, Zed};"),
            ("b", "pub struct Y;\nimpl Y {\n    pub fn inner() {}\n}"),
            ("c", "pub struct Z;\nfn g() { super::inner() }"),
        ],
        "mod a;\npub use b::*;\npub use c::{Z as Zed};",
    );
    assert_eq!(
        exported.mentions("use super::{Y, Zed};", "a"),
        names(&["b", "c"])
    );
    assert_eq!(exported.mentions("super::inner()", "a"), names(&[]));
    let acyclic = folder(
        &[("a", "use super::b;"), ("b", ""), ("c", "use super::a;")],
        "",
    );
    assert_eq!(find_cycle(&acyclic.graph()), None);
}

/// The sources of `src/<folder>/` (`mod.rs` too, unit tests cut off) mention none of `words`.
fn assert_knows_nothing_of(folder: &str, words: &[&str]) {
    let read = Folder::read(folder);
    let own = ("mod".to_string(), read.own);
    for (module, code) in read.sources.into_iter().chain([own]) {
        for word in words {
            assert!(
                !code.contains(word),
                "src/{folder}/{module} mentions {word}"
            );
        }
    }
}

#[test]
fn sim_knows_nothing_of_the_web_or_gl() {
    assert_knows_nothing_of(
        "sim",
        &[
            "wasm_bindgen",
            "web_sys",
            "js_sys",
            "glow",
            "crate::web",
            "crate::render",
        ],
    );
}

#[test]
fn render_knows_nothing_of_the_web() {
    // The JavaScript face is `src/web/`'s: the renderer draws what it is handed.
    assert_knows_nothing_of("render", &["crate::web", "wasm_bindgen", "js_sys"]);
}
