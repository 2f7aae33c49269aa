//! The command line at its edges: byte-order marks, invisible characters, lenient mark grids,
//! judge runs bounded by a time limit or stopped by Ctrl-C.

mod support;

use support::{fixture, queens, queens_with_input};

#[test]
fn a_byte_order_mark_is_skipped_everywhere() {
    let weight = queens(&[
        "weight",
        "--json",
        fixture("weight-bom.txt").to_str().unwrap(),
    ]);
    assert_eq!(weight.code, 0, "{}", weight.stderr);
    assert!(weight.stdout.contains("\"sum\":34"), "{}", weight.stdout);
    let judge = queens(&[
        "judge",
        "lightoj1061",
        fixture("lightoj1061-bom.txt").to_str().unwrap(),
    ]);
    assert_eq!(
        (judge.code, judge.stdout.as_str()),
        (0, "Case 1: 7\n"),
        "{}",
        judge.stderr
    );
    let piped = queens_with_input(&["repair", "--json"], "\u{feff}q.\n.q\n".as_bytes());
    // A 2 x 2 board has no solution: the mark was skipped and the board read.
    assert_eq!(piped.code, 1, "{}", piped.stderr);
    assert!(
        piped.stderr.contains("no placement of 2"),
        "{}",
        piped.stderr
    );
}

#[test]
fn mark_grids_take_lowercase_marks_and_read_queens_as_unmarked() {
    let lenient = queens(&[
        "guard",
        fixture("guard-bom-lowercase.txt").to_str().unwrap(),
    ]);
    assert_eq!(lenient.code, 0, "{}", lenient.stderr);
    let strict = queens_with_input(&["guard", "-"], b"X.X\n.X.\n...\n");
    assert_eq!(lenient.stdout, strict.stdout);
    // The text answer reads back: its queens are unmarked squares, its marks still marks.
    let again = queens_with_input(
        &["guard", "-"],
        strict
            .stdout
            .lines()
            .take(3)
            .collect::<Vec<_>>()
            .join("\n")
            .as_bytes(),
    );
    assert_eq!(again.code, 0, "{}", again.stderr);
}

#[test]
fn invisible_characters_are_named_by_code_point() {
    let run = queens_with_input(&["repair"], "q.\u{200b}\n".as_bytes());
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("line 1, column 3: unexpected character U+200B (a zero-width space)"),
        "{}",
        run.stderr
    );
    let run = queens_with_input(&["weight"], "1 2\n3 \u{e9}\n".as_bytes());
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("line 2, column 3"), "{}", run.stderr);
}

/// A judge input that takes long to prove: full boards of UVa 11214 at the largest size.
fn slow_guard_input(cases: usize) -> String {
    let board = format!("12 12\n{}", "XXXXXXXXXXXX\n".repeat(12));
    format!("{}0\n", board.repeat(cases))
}

#[test]
fn judge_time_limit_bounds_the_run_and_names_unproven_cases() {
    // Eight 12 x 12 boards (about 0.05 s each to prove); with a zero limit every case gets its
    // best-found answer at once and stderr names them.
    let input = slow_guard_input(8);
    let proven = queens_with_input(&["judge", "uva11214"], input.as_bytes());
    assert_eq!(proven.code, 0);
    assert_eq!(proven.stdout.lines().count(), 8);
    assert!(proven.stderr.is_empty(), "{}", proven.stderr);
    let bounded = queens_with_input(
        &["judge", "uva11214", "--time-limit", "0"],
        input.as_bytes(),
    );
    assert_eq!(bounded.code, 0, "{}", bounded.stderr);
    assert_eq!(bounded.stdout.lines().count(), 8);
    assert!(
        bounded.stderr.starts_with("warning:") && bounded.stderr.contains("1, 2, 3"),
        "{}",
        bounded.stderr
    );
    for (p, b) in proven.stdout.lines().zip(bounded.stdout.lines()) {
        let value = |line: &str| line.rsplit(' ').next().unwrap().parse::<usize>().unwrap();
        assert!(value(b) >= value(p), "{p} / {b}");
    }
    let threads = queens_with_input(&["judge", "uva11214", "--threads", "1"], input.as_bytes());
    assert_eq!(threads.stdout, proven.stdout);
}

#[cfg(unix)]
#[test]
fn ctrl_c_during_a_judge_run_keeps_the_answered_cases() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    // Many 12 x 12 full boards take seconds; Ctrl-C after a moment stops at a case boundary.
    let input = slow_guard_input(400);
    let mut child = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(["judge", "uva11214"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(600));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let text = String::from_utf8(out.stdout).unwrap();
    let answered = text.lines().count();
    assert!(answered < 400, "{answered}");
    for (i, line) in text.lines().enumerate() {
        assert_eq!(line, format!("Case {}: 6", i + 1));
    }
}
