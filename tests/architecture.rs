//! The layout keeps its promises (issue 12), read from the sources themselves:
//! - the modules of `src/sim/` depend on each other one way only (no cycle), and
//! - `src/sim/` knows nothing of the web or of GL.
//!
//! A module's dependencies are every `super::name` and `crate::sim::name` it mentions outside
//! its unit tests (a `use` or a path in code alike); `src/sim/flock/*.rs` count as `flock`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Module name → source, unit tests cut off.
fn sim_sources() -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/sim");
    let mut sources = BTreeMap::new();
    let mut visit = |path: &Path, module: String| {
        let text = fs::read_to_string(path).unwrap();
        let code = match text.find("#[cfg(test)]\nmod tests") {
            Some(at) => text[..at].to_string(),
            None => text,
        };
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
                visit(&inner.unwrap().path(), parent.clone());
            }
        }
    }
    sources
}

/// The sibling modules `code` names, out of `modules`.
fn mentions(code: &str, own: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let code: String = code
        .lines()
        .map(|line| line.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    for prefix in ["super::", "crate::sim::"] {
        for (at, _) in code.match_indices(prefix) {
            // `super::super::x` from a child module of `flock` is `x`.
            let mut rest = &code[at + prefix.len()..];
            while let Some(after) = rest.strip_prefix("super::") {
                rest = after;
            }
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if modules.contains(&name) && name != own {
                found.insert(name);
            }
            // `use super::{a, b::c}`
            if let Some(group) = rest.strip_prefix('{') {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                for item in group.split(',') {
                    let name = item.trim().split("::").next().unwrap_or("").trim();
                    if modules.contains(name) && name != own {
                        found.insert(name.to_string());
                    }
                }
            }
        }
    }
    found
}

fn graph(sources: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeSet<String> = sources.keys().cloned().collect();
    sources
        .iter()
        .map(|(name, code)| (name.clone(), mentions(code, name, &modules)))
        .collect()
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

#[test]
fn the_modules_of_sim_depend_one_way() {
    let graph = graph(&sim_sources());
    // The reading itself works: the flock uses the grid, the scan the rules.
    assert!(graph["flock"].contains("grid"), "{graph:#?}");
    assert!(graph["scan"].contains("rules"), "{graph:#?}");
    if let Some(cycle) = find_cycle(&graph) {
        panic!("import cycle in src/sim: {}\n{graph:#?}", cycle.join(" → "));
    }
}

#[test]
fn a_cycle_is_found_when_there_is_one() {
    let modules: BTreeSet<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let sources: BTreeMap<String, String> = [
        ("a", "use super::b::X;"),
        ("b", "fn f() { super::c::g() }"),
        ("c", "use super::{a, b};"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let cycle = find_cycle(&graph(&sources)).expect("a → b → c → a");
    assert_eq!(cycle.first(), cycle.last());
    assert_eq!(
        mentions("use super::{a, b::c}; // super::z", "x", &modules),
        ["a", "b"].iter().map(|s| s.to_string()).collect()
    );
    let acyclic: BTreeMap<String, String> =
        [("a", "use super::b;"), ("b", ""), ("c", "use super::a;")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
    assert_eq!(find_cycle(&graph(&acyclic)), None);
}

#[test]
fn sim_knows_nothing_of_the_web_or_gl() {
    for (module, code) in sim_sources() {
        for word in [
            "wasm_bindgen",
            "web_sys",
            "js_sys",
            "glow",
            "crate::web",
            "crate::render",
        ] {
            assert!(!code.contains(word), "src/sim/{module} mentions {word}");
        }
    }
}
