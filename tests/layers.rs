//! The layering of DESIGN: imports only point down. Each library module may name only the
//! modules listed for it (test modules, `#[cfg(test)] mod tests`, may also use `verify`).

use std::collections::BTreeSet;
use std::path::Path;

/// For each top-level module, the crate modules its non-test code may use.
const ALLOWED: &[(&str, &[&str])] = &[
    ("options", &[]),
    ("cpu", &[]),
    ("schedule", &["options"]),
    ("board", &["options"]),
    ("problem", &["board"]),
    ("verify", &["board", "problem"]),
    ("count", &["board", "options", "schedule", "cpu"]),
    ("weight", &["board", "problem", "options", "schedule"]),
    ("repair", &["board", "problem", "options", "schedule"]),
    ("guard", &["board", "problem", "options", "schedule", "cpu"]),
    (
        "complete",
        &["board", "problem", "options", "schedule", "cpu"],
    ),
    (
        "scale",
        &["board", "options", "schedule", "count", "guard", "problem"],
    ),
    (
        "format",
        &[
            "board", "problem", "options", "verify", "count", "weight", "repair", "guard", "scale",
            "complete",
        ],
    ),
    (
        "judge",
        &[
            "board", "problem", "options", "format", "weight", "repair", "guard",
        ],
    ),
];

/// The crate modules named as `crate::NAME` in the code of `text` (comments, and so doc
/// links, aside), outside its test module.
fn named_modules(text: &str) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    let body: String = code
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect();
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
