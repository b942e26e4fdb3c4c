//! Which module of a crate uses which. Modules that use each other in a circle can't be
//! understood, tested or moved one at a time, so the tests keep every crate of the
//! workspace free of them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Context, Result};

/// A crate's top-level modules and the others each one uses (`crate::<module>`).
pub type Graph = BTreeMap<String, BTreeSet<String>>;

/// The graph of the crate whose sources are in `src`. A module's submodules (files
/// under `src/<module>/`) count as the module.
pub fn graph(src: &Path) -> Result<Graph> {
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    for entry in std::fs::read_dir(src).with_context(|| format!("reading {}", src.display()))? {
        let path = entry?.path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if matches!(stem, "lib" | "main") {
            continue;
        }
        let text = texts.entry(stem.to_owned()).or_default();
        for file in rust_files(&path)? {
            text.push_str(&std::fs::read_to_string(&file)?);
        }
    }
    let modules: BTreeSet<String> = texts.keys().cloned().collect();
    Ok(texts
        .iter()
        .map(|(name, text)| {
            let used = uses(text)
                .into_iter()
                .filter(|m| m != name && modules.contains(m))
                .collect();
            (name.clone(), used)
        })
        .collect())
}

/// The `.rs` files at `path`: itself, or every one under it.
fn rust_files(path: &Path) -> Result<Vec<std::path::PathBuf>> {
    if path.is_file() {
        return Ok(if path.extension().is_some_and(|e| e == "rs") {
            vec![path.to_owned()]
        } else {
            vec![]
        });
    }
    let mut out = vec![];
    for entry in std::fs::read_dir(path)? {
        out.extend(rust_files(&entry?.path())?);
    }
    Ok(out)
}

/// The first path segment after each `crate::` in `text`, `crate::{a, b::c}` included.
fn uses(text: &str) -> BTreeSet<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = BTreeSet::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        match rest.strip_prefix('{') {
            Some(group) => {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                out.extend(group.split(',').map(ident));
            }
            None => {
                out.insert(ident(rest));
            }
        }
    }
    out.retain(|m| !m.is_empty());
    out
}

/// A circle of modules in `graph`, if there is one: `[a, b, a]`.
pub fn circle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        graph: &Graph,
        at: &str,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|m| m == at) {
            let mut found = path[start..].to_vec();
            found.push(at.to_owned());
            return Some(found);
        }
        if done.contains(at) {
            return None;
        }
        path.push(at.to_owned());
        for next in graph.get(at).into_iter().flatten() {
            if let Some(found) = visit(graph, next, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(at.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|m| visit(graph, m, &mut vec![], &mut done))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_crate_has_modules_that_use_each_other_in_a_circle() {
        let crates = crate::sh::root().join("crates");
        let mut checked = 0;
        for entry in std::fs::read_dir(&crates).unwrap() {
            let src = entry.unwrap().path().join("src");
            if !src.is_dir() {
                continue;
            }
            let graph = graph(&src).unwrap();
            assert_eq!(
                circle(&graph),
                None,
                "{} has modules in a circle: break it",
                src.display()
            );
            checked += 1;
        }
        assert!(checked >= 7, "only {checked} crates found");
    }

    #[test]
    fn a_circle_is_found_through_grouped_and_nested_uses() {
        let text = "use crate::{a::X, b};\nfn f() { crate::c::go(); }";
        let found: Vec<String> = uses(text).into_iter().collect();
        assert_eq!(found, ["a", "b", "c"]);
        let graph: Graph = [
            ("a", &["b"][..]),
            ("b", &["c"][..]),
            ("c", &["a"][..]),
            ("d", &[][..]),
        ]
        .into_iter()
        .map(|(m, to)| (m.into(), to.iter().map(|s| s.to_string()).collect()))
        .collect();
        assert_eq!(circle(&graph).unwrap(), ["a", "b", "c", "a"]);
        let mut broken = graph.clone();
        broken.get_mut("c").unwrap().clear();
        assert_eq!(circle(&broken), None);
    }
}
