//! Tests of `queens complete` and `queens verify complete` against brute force written here:
//! every permutation of small boards checked square by square (Nauck's 1850 puzzle, the
//! `.param` fixtures of tests/fixtures/ for every number of diagonals), every completion
//! re-checked by `queens verify`, and the bad inputs of tests/malformed/.

use queens::board::Square;
use queens::complete;
use queens::format::complete::{parse_board, parse_param};
use queens::problem::PartialBoard;
use queens::Options;
use std::collections::BTreeSet;

mod support;

use support::{fixture, queens, queens_with_input, scratch};

/// Every completion of `board`, by trying every permutation (row r holds a queen in column
/// `perm[r]`) of the board's columns, with closed rows and columns left out: written plainly,
/// for boards without closed rows or columns.
fn brute(board: &PartialBoard) -> BTreeSet<Vec<Square>> {
    assert!(board.closed_rows.is_empty() && board.closed_cols.is_empty());
    let n = board.n;
    let mut perm: Vec<usize> = (0..n).collect();
    let mut out = BTreeSet::new();
    permutations(&mut perm, 0, &mut |p| {
        let queens: Vec<Square> = p
            .iter()
            .enumerate()
            .map(|(r, &c)| Square::new(r, c))
            .collect();
        let safe = (0..n).all(|i| {
            (i + 1..n).all(|j| {
                queens[i].row.abs_diff(queens[j].row) != queens[i].col.abs_diff(queens[j].col)
            })
        });
        let allowed = queens.iter().all(|q| {
            board.queens.contains(q)
                || (!board.is_blocked(q.row, q.col)
                    && !board.closed_sums.contains(&(q.row + q.col))
                    && !board.closed_differences.contains(&(q.row + n - 1 - q.col)))
        });
        let keeps = board.queens.iter().all(|g| queens.contains(g));
        if safe && allowed && keeps {
            out.insert(queens);
        }
    });
    out
}

fn permutations(p: &mut Vec<usize>, k: usize, visit: &mut dyn FnMut(&[usize])) {
    if k == p.len() {
        visit(p);
        return;
    }
    for i in k..p.len() {
        p.swap(k, i);
        permutations(p, k + 1, visit);
        p.swap(k, i);
    }
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn squares(value: &serde_json::Value) -> Vec<Square> {
    serde_json::from_value(value.clone()).unwrap()
}

/// Checks `queens complete ARGS` (decision, count and listing) against `expected` for the
/// input file `path`, and every listed completion with `queens verify complete`.
fn check_cli(path: &str, extra: &[&str], expected: &BTreeSet<Vec<Square>>, tag: &str) {
    let mut args = vec!["complete", path, "--json"];
    args.extend_from_slice(extra);
    let decided = queens(&args);
    let answer = json(&decided.stdout);
    assert_eq!(answer["problem"], "complete");
    if expected.is_empty() {
        assert_eq!(decided.code, 1, "{tag}: {}", decided.stderr);
        assert_eq!(
            (answer["completed"].as_bool(), answer["proven"].as_bool()),
            (Some(false), Some(true))
        );
    } else {
        assert_eq!(decided.code, 0, "{tag}: {}", decided.stderr);
        assert!(expected.contains(&squares(&answer["queens"])), "{tag}");
        let dir = scratch(tag);
        let file = dir.join("answer.json");
        std::fs::write(&file, &decided.stdout).unwrap();
        let mut verify = vec!["verify", "complete", path, file.to_str().unwrap()];
        verify.extend_from_slice(extra);
        let verdict = queens(&verify);
        assert_eq!(verdict.code, 0, "{tag}: {}", verdict.stdout);
        assert!(verdict.stdout.starts_with("valid:"));
    }
    let mut count_args = args.clone();
    count_args.push("--count");
    let counted = json(&queens(&count_args).stdout);
    assert_eq!(
        counted["completions"].as_u64(),
        Some(expected.len() as u64),
        "{tag}"
    );
    assert_eq!(counted["complete"], true);
    let mut all_args = args.clone();
    all_args.push("--all");
    let listed = json(&queens(&all_args).stdout);
    let got: BTreeSet<Vec<Square>> = listed["listed"]
        .as_array()
        .unwrap()
        .iter()
        .map(squares)
        .collect();
    assert_eq!(&got, expected, "{tag}");
}

#[test]
fn nauck_1850_has_the_completions_brute_force_finds() {
    // Nauck's puzzle (1850), as CSPLib prob079 draws it: queens on d5 and b4 of 8 x 8.
    let path = fixture("../../examples/nauck.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let board = parse_board(&text).unwrap();
    assert_eq!(board.queens, vec![Square::new(3, 3), Square::new(4, 1)]);
    let expected = brute(&board);
    assert_eq!(
        expected.len(),
        2,
        "the puzzle's published answer: two completions"
    );
    check_cli(path.to_str().unwrap(), &[], &expected, "nauck");
    let picture = queens(&["complete", path.to_str().unwrap(), "--format", "svg"]);
    assert_eq!(picture.code, 0);
    assert_eq!(picture.stdout.matches("class=\"queen\"").count(), 8);
    let text = queens(&["complete", path.to_str().unwrap(), "--all"]);
    assert_eq!(text.stdout.matches('Q').count(), 4);
    assert!(
        text.stdout.contains("\n2 completions of the 8x8 board ("),
        "{}",
        text.stdout
    );
}

#[test]
fn param_fixtures_agree_with_brute_force_for_every_d() {
    for name in ["complete-diag-7.param", "complete-diag-6-lines.param"] {
        let path = fixture(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let all = parse_param(&text, None).unwrap();
        let listed = all.closed_sums.len() + all.closed_differences.len();
        let mut outcomes = BTreeSet::new();
        for d in 0..=listed {
            let board = parse_param(&text, Some(d)).unwrap();
            let expected = brute(&board);
            outcomes.insert(expected.is_empty());
            let d_text = d.to_string();
            check_cli(
                path.to_str().unwrap(),
                &["--diagonals", &d_text],
                &expected,
                &format!("{name}-{d}"),
            );
        }
        assert_eq!(outcomes.len(), 2, "{name}: both SAT and UNSAT prefixes");
    }
}

#[test]
fn blocked_board_agrees_with_brute_force() {
    let path = fixture("complete-6.txt");
    let board = parse_board(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let expected = brute(&board);
    check_cli(path.to_str().unwrap(), &[], &expected, "blocked-6");
    // And through the library, on two threads.
    let tally = complete::count(&board, &Options::with_threads(2)).unwrap();
    assert_eq!(tally.completions, expected.len() as u128);
}

#[test]
fn a_wrong_completion_is_refused() {
    let path = fixture("../../examples/nauck.txt");
    let dir = scratch("wrong-completion");
    let file = dir.join("answer.json");
    // The 8-queens solution 0 4 7 5 2 6 1 3 lacks the given queen on [3, 3].
    std::fs::write(
        &file,
        r#"{"problem":"complete","completed":true,"queens":[[0,0],[1,4],[2,7],[3,5],[4,2],[5,6],[6,1],[7,3]]}"#,
    )
    .unwrap();
    let verdict = queens(&[
        "verify",
        "complete",
        path.to_str().unwrap(),
        file.to_str().unwrap(),
    ]);
    assert_eq!(verdict.code, 1);
    assert!(
        verdict.stdout.contains("[3, 3] is missing"),
        "{}",
        verdict.stdout
    );
}

#[test]
fn a_time_limit_stops_a_count_and_says_so() {
    let board = ".".repeat(22) + "\n";
    let out = queens_with_input(
        &["complete", "--count", "-t", "0.2", "--json"],
        board.repeat(22).as_bytes(),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let answer = json(&out.stdout);
    assert_eq!(answer["complete"], false);
    let text = queens_with_input(
        &["complete", "--count", "-t", "0.1"],
        board.repeat(22).as_bytes(),
    );
    assert!(text.stdout.starts_with("at least"), "{}", text.stdout);
}

#[test]
fn bad_inputs_are_located_errors() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/malformed/");
    let cases: [(&[&str], &str); 6] = [
        (
            &["complete-bad-char.txt"],
            "line 2, column 3: 'k' is not a square",
        ),
        (
            &["complete-not-square.txt"],
            "line 5, column 1: the board has 4 rows but is 5 squares wide",
        ),
        (
            &["complete-attack.txt"],
            "line 4, column 4: the queen at [3, 3] attacks the queen at [0, 0]",
        ),
        (
            &["complete-off-board.param"],
            "line 3, column 11: diagonal 11 is off a board of side 5",
        ),
        (
            &["complete-off-board.param", "--diagonals", "2"],
            "2 diagonals asked for, but the file lists 1",
        ),
        (
            &["complete-bad-char.txt", "--diagonals", "2"],
            "--diagonals applies to CSPLib .param files",
        ),
    ];
    for (args, message) in cases {
        let path = format!("{dir}{}", args[0]);
        let mut all = vec!["complete", path.as_str()];
        all.extend_from_slice(&args[1..]);
        let out = queens(&all);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stdout.is_empty());
        assert!(
            out.stderr.starts_with("error:") && out.stderr.contains(message),
            "{args:?}: {}",
            out.stderr
        );
    }
    let svg_all = queens_with_input(
        &["complete", "--all", "--format", "svg"],
        b"....\n....\n....\n....\n",
    );
    assert_eq!(svg_all.code, 2);
}

#[test]
fn sharded_counts_through_ledgers_merge_to_brute_force() {
    // 9 x 9, a queen given, two squares blocked: the plain count, every split into shards and a
    // resumed ledger all give brute force's number.
    let text = "..Q......\n.........\n.........\n.........\n....x....\n\
                .........\n.........\n.x.......\n.........\n";
    let expected = brute(&parse_board(text).unwrap()).len() as u64;
    assert!(expected > 10, "{expected}");
    let dir = scratch("complete-shards");
    let board = dir.join("board.txt");
    std::fs::write(&board, text).unwrap();
    let board = board.to_str().unwrap();
    let plain = json(&queens(&["complete", board, "--count", "--json"]).stdout);
    assert_eq!(plain["completions"].as_u64(), Some(expected));
    for shards in [1, 2, 3, 7] {
        let mut ledgers = Vec::new();
        for i in 0..shards {
            let ledger = dir.join(format!("k{shards}-{i}.ledger"));
            let ledger = ledger.to_str().unwrap().to_string();
            let shard = format!("{i}/{shards}");
            let run = queens(&[
                "complete", board, "--count", "--ledger", &ledger, "--shard", &shard, "--depth",
                "3", "--json", "-j", "2",
            ]);
            assert_eq!(run.code, 0, "{}", run.stderr);
            let answer = json(&run.stdout);
            assert_eq!(
                (answer["problem"].as_str(), answer["complete"].as_bool()),
                (Some("complete"), Some(true))
            );
            ledgers.push(ledger);
        }
        let mut args = vec!["merge", "--json"];
        args.extend(ledgers.iter().map(String::as_str));
        let merged = queens(&args);
        assert_eq!(merged.code, 0, "{}", merged.stdout);
        let merged = json(&merged.stdout);
        assert_eq!(
            merged["completions"].as_u64(),
            Some(expected),
            "K = {shards}"
        );
        assert_eq!(merged["complete"], true);
        if shards > 1 {
            // One shard alone is not the board's count.
            let partial = queens(&["merge", &ledgers[0]]);
            assert_eq!(partial.code, 1, "{}", partial.stdout);
            assert!(partial.stdout.contains("units left"), "{}", partial.stdout);
        }
    }
    // A ledger of shard 0/2, run again without the shard, resumes to the whole count; its
    // depth (3) is kept although none is given now.
    let ledger = dir.join("k2-0.ledger");
    let ledger = ledger.to_str().unwrap();
    let resumed = queens(&["complete", board, "--count", "--ledger", ledger, "--json"]);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    let resumed = json(&resumed.stdout);
    assert_eq!(resumed["completions"].as_u64(), Some(expected));
    assert!(resumed["ledger"]["resumed"].as_u64().unwrap() > 0);
    assert_eq!(resumed["depth"].as_u64(), Some(3));
    // The ledger of another board is refused.
    let other = dir.join("other.txt");
    std::fs::write(&other, text.replacen('x', ".", 1)).unwrap();
    let refused = queens(&[
        "complete",
        other.to_str().unwrap(),
        "--count",
        "--ledger",
        ledger,
    ]);
    assert_eq!(refused.code, 2, "{}", refused.stdout);
    assert!(refused.stderr.starts_with("error:"), "{}", refused.stderr);
    // A ledger needs --count; a count's ledger is not a completion's.
    assert_eq!(queens(&["complete", board, "--ledger", ledger]).code, 2);
    let count_ledger = dir.join("count.ledger");
    let count_ledger = count_ledger.to_str().unwrap();
    assert_eq!(queens(&["count", "9", "--ledger", count_ledger]).code, 0);
    let mixed = queens(&["merge", ledger, count_ledger]);
    assert_eq!(mixed.code, 1, "{}", mixed.stdout);
}
