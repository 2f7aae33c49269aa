//! docs/json.md lists every field of every JSON answer: for each answer kind, the fields the
//! tool writes (over runs that bring out its optional fields) are exactly the fields its row of
//! the table names, plus the common `problem`, `seconds` and `threads`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Stdio};

/// The field names of each row of docs/json.md's table: the backticked names of its "fields"
/// cell, leaving out what stands in parentheses (values and notes).
fn documented() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("docs/json.md")).expect("docs/json.md");
    let mut rows = BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 || cells[1] == "problem" || cells[1].starts_with("---") {
            continue;
        }
        let mut kept = String::new();
        let mut depth = 0;
        for ch in cells[2].chars() {
            match ch {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ if depth == 0 => kept.push(ch),
                _ => {}
            }
        }
        let names: BTreeSet<String> = kept
            .split('`')
            .skip(1)
            .step_by(2)
            .map(|name| {
                name.split([':', ' '])
                    .next()
                    .unwrap_or_default()
                    .to_string()
            })
            .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
            .collect();
        rows.insert(cells[1].to_string(), names);
    }
    rows
}

/// The top-level fields of the JSON answer of `queens ARGS`, with its `problem`.
fn written(args: &[&str]) -> (String, BTreeSet<String>) {
    let out = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .expect("run queens");
    let text = String::from_utf8_lossy(&out.stdout);
    let value: serde_json::Value = serde_json::from_str(text.trim())
        .unwrap_or_else(|e| panic!("queens {args:?}: {e}: {text}"));
    let object = value.as_object().expect("an object");
    let problem = object["problem"].as_str().expect("problem").to_string();
    (problem, object.keys().cloned().collect())
}

#[test]
fn json_md_lists_exactly_the_fields_written() {
    let scratch = std::env::temp_dir().join(format!("queens-json-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    let ledger = scratch.join("n8.ledger");
    let guard_ledger = scratch.join("g.ledger");
    let complete_ledger = scratch.join("c.ledger");
    let (ledger, guard_ledger) = (ledger.to_str().unwrap(), guard_ledger.to_str().unwrap());
    let complete_ledger = complete_ledger.to_str().unwrap();
    let runs: Vec<Vec<&str>> = vec![
        vec!["count", "8", "--json"],
        vec!["count", "8", "--json", "--ledger", ledger],
        vec!["weight", "--json", "examples/weights.txt"],
        vec!["repair", "--json", "examples/board.txt"],
        vec!["guard", "--full", "6", "--json"],
        vec!["guard", "--full", "6", "--json", "--count-sets"],
        vec!["complete", "examples/nauck.txt", "--json"],
        vec!["complete", "examples/nauck.txt", "--count", "--json"],
        vec!["complete", "examples/nauck.txt", "--all", "--json"],
        vec![
            "complete",
            "examples/nauck.txt",
            "--count",
            "--ledger",
            complete_ledger,
            "--json",
        ],
        vec!["merge", complete_ledger, "--json"],
        vec![
            "guard",
            "--full",
            "6",
            "--queens",
            "2",
            "--ledger",
            guard_ledger,
            "--json",
        ],
        vec!["merge", guard_ledger, "--json"],
    ];
    let mut seen: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for args in &runs {
        let (problem, fields) = written(args);
        seen.entry(problem).or_default().extend(fields);
    }
    let _ = std::fs::remove_dir_all(&scratch);
    let common: BTreeSet<String> = ["problem", "seconds", "threads"].map(String::from).into();
    // Fields only an MPI build writes.
    let not_run: BTreeSet<String> = ["mpi"].map(String::from).into();
    let documented = documented();
    assert_eq!(
        documented.keys().collect::<Vec<_>>(),
        seen.keys().collect::<Vec<_>>(),
        "the answer kinds"
    );
    for (problem, fields) in &seen {
        let listed: BTreeSet<String> = documented[problem].union(&common).cloned().collect();
        let unlisted: Vec<&String> = fields.difference(&listed).collect();
        let unwritten: Vec<&String> = listed
            .difference(fields)
            .filter(|f| !not_run.contains(*f))
            .collect();
        assert!(
            unlisted.is_empty() && unwritten.is_empty(),
            "{problem}: written but not in docs/json.md: {unlisted:?}; listed but never written: {unwritten:?}"
        );
    }
}
