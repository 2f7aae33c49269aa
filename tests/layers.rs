//! The layering of DESIGN: imports only point down. Each library module may name only the
//! modules listed for it (test modules, `#[cfg(test)] mod tests`, may also use `verify`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// For each top-level module, the crate modules its non-test code may use.
const ALLOWED: &[(&str, &[&str])] = &[
    ("options", &[]),
    ("primitive", &[]),
    ("schedule", &["options"]),
    ("board", &["options"]),
    ("problem", &["board"]),
    ("verify", &["board", "problem"]),
    ("count", &["board", "options", "schedule", "primitive"]),
    (
        "weight",
        &["board", "problem", "options", "schedule", "primitive"],
    ),
    (
        "repair",
        &["board", "problem", "options", "schedule", "primitive"],
    ),
    (
        "guard",
        &["board", "problem", "options", "schedule", "primitive"],
    ),
    // Completion counts an empty board with the N-queens counter, through its public interface.
    (
        "complete",
        &[
            "board",
            "problem",
            "options",
            "schedule",
            "primitive",
            "count",
        ],
    ),
    (
        "scale",
        &[
            "board", "options", "schedule", "count", "guard", "complete", "problem",
        ],
    ),
    (
        "format",
        &[
            "board", "problem", "options", "verify", "count", "weight", "repair", "guard", "scale",
            "complete",
        ],
    ),
    (
        "puzzle",
        &[
            "board", "problem", "options", "verify", "count", "weight", "repair", "guard",
            "complete", "format",
        ],
    ),
    (
        "serve",
        &[
            "board", "problem", "options", "count", "guard", "format", "puzzle",
        ],
    ),
    (
        "judge",
        &[
            "board", "problem", "options", "format", "weight", "repair", "guard", "puzzle",
        ],
    ),
];

/// The crate modules named as `crate::NAME` in the code of `text` (comments, and so doc
/// links, aside), outside its test module.
fn named_modules(text: &str) -> BTreeSet<String> {
    let body = code_of(text);
    let mut out = BTreeSet::new();
    let first_segment = |path: &str| -> String {
        path.trim()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in body.match_indices("crate::") {
        let rest = &body[i + 7..];
        let names: Vec<String> = match rest.strip_prefix('{') {
            // `crate::{a::X, b::{Y, Z}}`: the first segment of each top-level path.
            Some(group) => {
                let (mut depth, mut start, mut names) = (0, 0, Vec::new());
                for (k, c) in group.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => {
                            names.push(first_segment(&group[start..k]));
                            break;
                        }
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            names.push(first_segment(&group[start..k]));
                            start = k + 1;
                        }
                        _ => {}
                    }
                }
                names
            }
            None => vec![first_segment(rest)],
        };
        for name in names {
            if name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
                out.insert(name);
            }
        }
    }
    out
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn imports_point_down() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let top: BTreeSet<&str> = ALLOWED.iter().map(|(m, _)| *m).collect();
    let mut checked = 0;
    for &(module, allowed) in ALLOWED {
        let mut paths = Vec::new();
        let folder = src.join(module);
        if folder.is_dir() {
            files(&folder, &mut paths);
        }
        let single = src.join(format!("{module}.rs"));
        if single.is_file() {
            paths.push(single);
        }
        assert!(!paths.is_empty(), "module {module} has no source");
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap();
            for name in named_modules(&text) {
                if name == module || !top.contains(name.as_str()) {
                    continue;
                }
                assert!(
                    allowed.contains(&name.as_str()),
                    "{} uses crate::{name}, which is not below {module}",
                    path.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 30, "only {checked} files checked");
}

#[test]
fn the_checker_sees_imports_and_skips_tests() {
    let text = "/// [`crate::count`]\nuse crate::board::Square;\nuse crate::{problem::{A, B}, scale::C};\nfn f() { crate::verify::guard(); }\n#[cfg(test)]\nmod tests {\n use crate::weight::best;\n}\n";
    let names: Vec<String> = named_modules(text).into_iter().collect();
    assert_eq!(names, ["board", "problem", "scale", "verify"]);
}

/// Folders whose files still import one another in a cycle, skipped by
/// [`no_cycles_between_files_of_a_folder`]: none (keep it so).
const FOLDERS_WITH_KNOWN_CYCLES: &[&str] = &[];

/// `text`'s code before its test module (`#[cfg(test)]` then `mod tests`, `pub(...) mod
/// tests`), without comment lines; nothing for a file of tests only (`#![cfg(test)]`).
fn code_of(text: &str) -> String {
    if text.contains("\n#![cfg(test)]\n") {
        // A file of tests only.
        return String::new();
    }
    let mut end = text.len();
    for (i, _) in text.match_indices("#[cfg(test)]\n") {
        let next = text[i + 13..].lines().next().unwrap_or("");
        if next.starts_with("mod tests") || next.starts_with("pub") && next.contains(" mod tests") {
            end = i;
            break;
        }
    }
    text[..end]
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The first segment of each path at the start of `rest` (`a::X` gives `a`; `{a::X, b}` gives
/// `a` and `b`).
fn first_segments(rest: &str) -> Vec<String> {
    let first_segment = |path: &str| -> String {
        path.trim()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    match rest.strip_prefix('{') {
        Some(group) => {
            let (mut depth, mut start, mut names) = (0, 0, Vec::new());
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        names.push(first_segment(&group[start..k]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        names.push(first_segment(&group[start..k]));
                        start = k + 1;
                    }
                    _ => {}
                }
            }
            names
        }
        None => vec![first_segment(rest)],
    }
}

/// The sibling files (or sub-folders) of a folder that `code`, of the file `own` there, uses:
/// named through `super::` or the folder's `crate::` path, directly or through an item the
/// folder's mod.rs re-exports from them (`reexports`: item -> file). Items that mod.rs itself
/// defines are not edges: mod.rs is the folder's face, and its files may use it.
fn uses_in_folder(
    code: &str,
    own: &str,
    folder_path: &str,
    nodes: &BTreeSet<String>,
    reexports: &BTreeMap<String, String>,
) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for prefix in [format!("crate::{folder_path}::"), "super::".to_string()] {
        for (i, _) in code.match_indices(prefix.as_str()) {
            let before = code[..i].chars().last();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            for name in first_segments(&code[i + prefix.len()..]) {
                if nodes.contains(&name) {
                    out.insert(name);
                } else if let Some(file) = reexports.get(&name) {
                    out.insert(file.clone());
                }
            }
        }
    }
    out.remove(own);
    out
}

/// The items mod.rs's `code` imports from its files (`[pub] use file::{A, b::C};`), each with
/// the file it comes from.
fn reexports_of(code: &str, nodes: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for statement in code.split(';') {
        let statement = statement.trim();
        let Some(path) = statement
            .strip_prefix("pub use ")
            .or_else(|| statement.strip_prefix("pub(crate) use "))
            .or_else(|| statement.strip_prefix("use "))
        else {
            continue;
        };
        let path = path.trim_start_matches("self::");
        let file: String = path
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !nodes.contains(&file) {
            continue;
        }
        for word in path[file.len()..].split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if !word.is_empty() && word != "self" && word != "as" {
                out.insert(word.to_string(), file.clone());
            }
        }
    }
    out
}

/// The groups of nodes of `edges` that reach one another (strongly connected, more than one).
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_string()];
        while let Some(node) = stack.pop() {
            for next in edges.get(&node).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        edges.keys().map(|k| (k, reach(k))).collect();
    let mut groups: Vec<Vec<String>> = Vec::new();
    for (node, from_node) in &reached {
        let group: Vec<String> = from_node
            .iter()
            .filter(|other| reached.get(other).is_some_and(|r| r.contains(*node)))
            .cloned()
            .collect();
        if group.len() > 1 && !groups.contains(&group) {
            groups.push(group);
        }
    }
    groups
}

/// The files (and sub-folders) of the folder `dir`, mod.rs aside, each with the ones it uses.
fn folder_graph(dir: &Path, folder_path: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut nodes = BTreeSet::new();
    let mut texts = Vec::new();
    let mut face = String::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            // A sub-folder with a mod.rs is one node, which its mod.rs speaks for (`super::` is
            // this folder); one without (assets, or `name/` beside `name.rs`) is not a node.
            let Ok(text) = std::fs::read_to_string(path.join("mod.rs")) else {
                continue;
            };
            nodes.insert(name.clone());
            texts.push((name, text));
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            if name == "mod" {
                face = code_of(&text);
            } else {
                nodes.insert(name.clone());
                texts.push((name, text));
            }
        }
    }
    let reexports = reexports_of(&face, &nodes);
    texts
        .iter()
        .map(|(name, text)| {
            let used = uses_in_folder(&code_of(text), name, folder_path, &nodes, &reexports);
            (name.clone(), used)
        })
        .collect()
}

#[test]
fn no_cycles_between_files_of_a_folder() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut folders = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path.clone());
                stack.push(path);
            }
        }
    }
    assert!(folders.len() > 8, "only {} folders found", folders.len());
    let mut found = Vec::new();
    for dir in folders {
        let relative = dir.strip_prefix(&src).unwrap();
        let top = relative.components().next().unwrap().as_os_str();
        if FOLDERS_WITH_KNOWN_CYCLES.contains(&top.to_string_lossy().as_ref()) {
            continue;
        }
        let folder_path = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().to_string())
            .collect::<Vec<_>>()
            .join("::");
        for group in cycles(&folder_graph(&dir, &folder_path)) {
            found.push(format!(
                "src/{}: {}",
                relative.display(),
                group.join(" <-> ")
            ));
        }
    }
    assert!(
        found.is_empty(),
        "import cycles between files of a folder (move what they share into a leaf file):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_cycle_checker_sees_siblings_and_reexports() {
    let nodes: BTreeSet<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let face = "mod a;\nmod b;\npub use b::{Z, inner::W as V};\npub struct Shared;\n";
    let reexports = reexports_of(&code_of(face), &nodes);
    assert_eq!(reexports.get("W").map(String::as_str), Some("b"));
    let child = "use super::a::X;\nuse super::{Shared, Z};\nfn f() { crate::p::a::g(); }\n#[cfg(test)]\nmod tests {\n use super::super::c;\n}\n";
    let used: Vec<String> = uses_in_folder(&code_of(child), "c", "p", &nodes, &reexports)
        .into_iter()
        .collect();
    assert_eq!(used, ["a", "b"]);
    let mut edges = BTreeMap::new();
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")] {
        edges
            .entry(from.to_string())
            .or_insert_with(BTreeSet::new)
            .insert(to.to_string());
    }
    assert_eq!(
        cycles(&edges),
        vec![vec!["a".to_string(), "b".into(), "c".into()]]
    );
}
