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
    let out = support::interrupt_when_ready(child);
    assert_eq!(out.status.code(), Some(130));
    let text = String::from_utf8(out.stdout).unwrap();
    let answered = text.lines().count();
    assert!(answered < 400, "{answered}");
    for (i, line) in text.lines().enumerate() {
        assert_eq!(line, format!("Case {}: 6", i + 1));
    }
}

/// Runs `queens ARGS` with stdout into a pipe whose reader takes `keep` bytes and closes it.
#[cfg(unix)]
fn with_reader_closing_after(args: &[&str], stdin: &[u8], keep: usize) -> (i32, String) {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let bytes = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let mut out = child.stdout.take().unwrap();
    let mut first = vec![0u8; keep];
    let _ = out.read_exact(&mut first);
    drop(out);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    let _ = writer.join();
    (status.code().unwrap_or(-1), err)
}

#[cfg(unix)]
#[test]
fn a_closed_output_pipe_ends_every_command_quietly() {
    let weights: String = (0..40)
        .map(|r| {
            (0..40)
                .map(|c| ((r * 7 + c * 13) % 97).to_string())
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect();
    let board = support::fixture_text("../../examples/board.txt");
    let judge = std::fs::read(support::example("judge/lightoj1061.in")).unwrap();
    let cases: Vec<(Vec<&str>, Vec<u8>)> = vec![
        (vec!["solutions", "12"], vec![]),
        (vec!["solutions", "10", "--json"], vec![]),
        (vec!["count", "10"], vec![]),
        (vec!["weight", "-"], weights.into_bytes()),
        (vec!["repair"], board.clone().into_bytes()),
        (vec!["guard", "--full", "9"], vec![]),
        (vec!["judge", "lightoj1061"], judge),
        (vec!["plan", "14"], vec![]),
        (vec!["completions", "bash"], vec![]),
        (vec!["man"], vec![]),
    ];
    for (args, stdin) in cases {
        // The reader closes its end before anything is written, so every write meets a closed pipe.
        let (code, err) = with_reader_closing_after(&args, &stdin, 0);
        assert!(code == 0 || code == 141, "{args:?}: exit {code}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn thread_counts_above_the_maximum_are_refused() {
    for command in [&["count", "8"][..], &["weight", "examples/weights.txt"][..]] {
        let mut args = command.to_vec();
        args.extend(["--threads", "100000"]);
        let run = queens(&args);
        assert_eq!(run.code, 2, "{args:?}");
        assert!(
            run.stderr.contains("more than the 256 allowed"),
            "{}",
            run.stderr
        );
    }
    let short = queens(&["count", "10", "-j", "256", "-q", "--json"]);
    assert_eq!(short.code, 0, "{}", short.stderr);
    assert!(short.stdout.contains("\"solutions\":724") && short.stdout.contains("\"threads\":256"));
}

#[test]
fn completions_and_the_manual_page() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef queens"),
        ("fish", "complete -c queens"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let run = queens(&["completions", shell]);
        assert_eq!(run.code, 0, "{shell}");
        assert!(
            run.stdout.contains(marker),
            "{shell}: {}",
            &run.stdout[..run.stdout.len().min(200)]
        );
        assert!(run.stdout.contains("repair"), "{shell}");
    }
    let man = queens(&["man"]);
    assert_eq!(man.code, 0);
    assert!(
        man.stdout.starts_with(".ie") || man.stdout.contains(".TH queens 1"),
        "{}",
        &man.stdout[..200]
    );
    let help = queens(&["--help"]);
    assert!(help.stdout.contains("Examples:") && help.stdout.contains("queens count 12"));
}

#[cfg(unix)]
#[test]
fn ctrl_c_ends_a_read_from_a_pipe_that_never_ends() {
    use std::process::{Command, Stdio};
    // The writer end stays open and silent: only Ctrl-C can end the read.
    let mut child = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(["repair"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _keep_open = child.stdin.take();
    let started = std::time::Instant::now();
    let out = support::interrupt_when_ready(child);
    assert!(started.elapsed() < std::time::Duration::from_secs(3));
    assert_eq!(out.status.code(), Some(130));
    assert!(String::from_utf8_lossy(&out.stderr).contains("interrupted while reading"));
}

#[test]
fn solutions_take_json_as_a_shorthand() {
    let long = queens(&["solutions", "6", "--format", "json"]);
    let short = queens(&["solutions", "6", "--json"]);
    assert_eq!((short.code, &short.stdout), (0, &long.stdout));
    assert_eq!(short.stdout.lines().count(), 4);
}

#[test]
fn a_size_error_points_at_its_own_field() {
    // The bad "0" also occurs inside "10": the column is the second field's.
    let run = queens_with_input(&["judge", "uva11214"], b"10 0\n");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("case 1: line 1, column 4: '0' is not a board side"),
        "{}",
        run.stderr
    );
}
