//! `queens verify` on hand-written answers: valid certificates pass (exit 0), each kind of
//! violation is reported with the offending move or square (exit 1), unreadable files exit 2.

mod support;

use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A file in the temporary directory with `contents`, removed when dropped.
fn temp_file(contents: &str) -> support::Scratch {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let path = std::env::temp_dir().join(format!(
        "queens-verify-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, contents).unwrap();
    support::Scratch::new(path)
}

fn verify(kind: &str, input: &str, answer: &str) -> Output {
    let answer = temp_file(answer);
    Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(["verify", kind, input])
        .arg(&answer)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const GRID4: &str = "1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 16\n";

#[test]
fn weight_answers() {
    let grid = temp_file(GRID4);
    let grid = grid.to_str().unwrap();
    // (0,1)=2 (1,3)=8 (2,0)=9 (3,2)=15 -> 34
    let ok = verify(
        "weight",
        grid,
        r#"{"problem":"weight","n":4,"sum":34,"queens":[[0,1],[1,3],[2,0],[3,2]],"optimal":true,"bound":34}"#,
    );
    assert_eq!(ok.status.code(), Some(0), "{}", stdout(&ok));
    assert!(stdout(&ok).starts_with("valid:"));
    let wrong_sum = verify(
        "weight",
        grid,
        r#"{"problem":"weight","sum":35,"queens":[[0,1],[1,3],[2,0],[3,2]]}"#,
    );
    assert_eq!(wrong_sum.status.code(), Some(1));
    assert!(stdout(&wrong_sum).contains("claimed 35"));
    let attack = verify(
        "weight",
        grid,
        r#"{"problem":"weight","sum":34,"queens":[[0,0],[1,3],[2,1],[3,2]]}"#,
    );
    assert_eq!(attack.status.code(), Some(1));
    assert!(stdout(&attack).contains("attack"));
    let garbage = verify("weight", grid, "{\"sum\": 34,\n \"queens\": [[0,1],");
    assert_eq!(garbage.status.code(), Some(2));
    let err = String::from_utf8_lossy(&garbage.stderr).into_owned();
    assert!(err.starts_with("error:") && err.contains("line 2"), "{err}");
    // The answer of another problem, and the two files swapped.
    let other = verify(
        "weight",
        grid,
        r#"{"problem":"guard","guards":0,"queens":[]}"#,
    );
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("answer of `guard`"));
    let answer = temp_file(r#"{"problem":"weight","sum":34,"queens":[]}"#);
    let swapped = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(["verify", "weight"])
        .arg(&answer)
        .arg(grid)
        .output()
        .unwrap();
    assert_eq!(swapped.status.code(), Some(2));
    let err = String::from_utf8_lossy(&swapped.stderr).into_owned();
    assert!(
        err.starts_with("error:") && err.contains("did you swap them?"),
        "{err}"
    );
}

#[test]
fn repair_answers() {
    let start = temp_file("qq..\n....\nq...\n..q.\n");
    let start = start.to_str().unwrap();
    let legal = r#"{"problem":"repair","n":4,"moves":3,"relaxed":3,"optimal":true,
        "plan":[{"from":[0,1],"to":[1,1]},{"from":[1,1],"to":[1,3]},{"from":[0,0],"to":[0,1]}],
        "final":[[0,1],[1,3],[2,0],[3,2]]}"#;
    let ok = verify("repair", start, legal);
    assert_eq!(ok.status.code(), Some(0), "{}", stdout(&ok));
    let jump = r#"{"problem":"repair","moves":1,"plan":[{"from":[0,0],"to":[0,3]}],"final":[[0,3],[0,1],[2,0],[3,2]]}"#;
    let blocked = verify("repair", start, jump);
    assert_eq!(blocked.status.code(), Some(1));
    assert!(stdout(&blocked).contains("move 1: blocked by the queen on [0, 1]"));
    let miscounted = legal.replace("\"moves\":3", "\"moves\":2");
    assert_eq!(verify("repair", start, &miscounted).status.code(), Some(1));
}

#[test]
fn guard_answers() {
    let marks = temp_file("XXXX\nXXXX\nXXXX\nXXXX\n");
    let marks = marks.to_str().unwrap();
    let missed = verify(
        "guard",
        marks,
        r#"{"problem":"guard","rows":4,"cols":4,"guards":2,"queens":[[1,1],[2,2]]}"#,
    );
    assert_eq!(missed.status.code(), Some(1));
    assert!(stdout(&missed).contains("marked square [0, 3] is not guarded"));
    let two = verify(
        "guard",
        marks,
        r#"{"problem":"guard","guards":2,"queens":[[0,0],[2,2]],"optimal":true}"#,
    );
    assert_eq!(two.status.code(), Some(0), "{}", stdout(&two));
    let miscounted = verify(
        "guard",
        marks,
        r#"{"problem":"guard","guards":1,"queens":[[0,0],[2,2]]}"#,
    );
    assert_eq!(miscounted.status.code(), Some(1));
    let rows = verify(
        "guard",
        marks,
        r#"{"problem":"guard","guards":4,"queens":[[0,0],[1,0],[2,0],[3,0]]}"#,
    );
    assert_eq!(rows.status.code(), Some(0));
    let independent = verify(
        "guard",
        marks,
        r#"{"problem":"guard","guards":4,"queens":[[0,0],[1,0],[2,0],[3,0]],"independent":true}"#,
    );
    assert_eq!(independent.status.code(), Some(1));
}

#[test]
fn count_solution_lines() {
    let lines = "{\"n\":4,\"queens\":[[0,1],[1,3],[2,0],[3,2]]}\n{\"n\":4,\"queens\":[[0,2],[1,0],[2,3],[3,1]]}\n";
    let ok = verify("count-solution", "4", lines);
    assert_eq!(ok.status.code(), Some(0));
    assert!(stdout(&ok).contains("2 distinct 4-queens solutions"));
    let repeated = format!("{lines}{}", lines.lines().next().unwrap());
    let dup = verify("count-solution", "4", &repeated);
    assert_eq!(dup.status.code(), Some(1));
    assert!(stdout(&dup).contains("line 3"));
    let bad = verify(
        "count-solution",
        "4",
        "{\"n\":4,\"queens\":[[0,1],[1,2],[2,0],[3,2]]}\n",
    );
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(
        verify("count-solution", "four", lines).status.code(),
        Some(2)
    );
}

#[test]
fn verify_placement_checks_a_text_board() {
    let valid = support::queens(&[
        "verify",
        "placement",
        support::fixture("placement-8-valid.txt").to_str().unwrap(),
    ]);
    assert_eq!(
        (valid.code, valid.stdout.as_str()),
        (0, "valid: 8 queens on the 8x8 board, no two attacking\n"),
        "{}",
        valid.stderr
    );
    let spaced = support::queens(&[
        "verify",
        "placement",
        support::fixture("placement-4-spaced.txt").to_str().unwrap(),
    ]);
    assert_eq!(spaced.code, 0, "{}", spaced.stderr);
    // The README's board: e4 and g2 are the first pair in reading order that attack.
    let attacking = support::queens(&[
        "verify",
        "placement",
        support::fixture("placement-8-attacking.txt")
            .to_str()
            .unwrap(),
    ]);
    assert_eq!(
        (attacking.code, attacking.stdout.as_str()),
        (
            1,
            "invalid: the queens on [4, 4] (e4) and [6, 6] (g2) attack each other\n"
        )
    );
    // Not N queens: a located error, exit 2; an answer file is one too many.
    let short = support::queens_with_input(&["verify", "placement", "-"], b"q..\n...\n..q\n");
    assert_eq!(short.code, 2);
    assert!(
        short.stderr.contains("line 3, column 1"),
        "{}",
        short.stderr
    );
    let extra = support::queens(&["verify", "placement", "a.txt", "b.json"]);
    assert_eq!(extra.code, 2);
    assert!(extra.stderr.contains("one too many"), "{}", extra.stderr);
}

#[test]
fn the_weight_text_answer_lists_each_queens_weight() {
    let grid = support::example("weights.txt");
    let run = support::queens(&["weight", grid.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&grid).unwrap();
    let cells: Vec<Vec<i64>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
        .collect();
    let line = |prefix: &str| {
        run.stdout
            .lines()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} line in {}", run.stdout))
            .to_string()
    };
    let queens: Vec<(usize, usize)> = line("queens: ")
        .split(' ')
        .map(|q| {
            let (r, c) = q.trim_matches(['[', ']']).split_once(',').unwrap();
            (r.parse().unwrap(), c.parse().unwrap())
        })
        .collect();
    let weights = line("weights: ");
    let (terms, total) = weights.split_once(" = ").unwrap();
    let listed: Vec<i64> = terms.split(" + ").map(|t| t.parse().unwrap()).collect();
    let expected: Vec<i64> = queens.iter().map(|&(r, c)| cells[r][c]).collect();
    assert_eq!(listed, expected);
    assert_eq!(total.parse::<i64>().unwrap(), expected.iter().sum::<i64>());
    assert!(run
        .stdout
        .contains(&format!("best sum: {total} (proven optimal)")));
}
