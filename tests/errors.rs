//! The error table of the README, one test per row: every malformed input under
//! tests/malformed/ (and every bad argument) gets the documented exit status and a located
//! `error:` line on stderr, never a panic; judge commands keep the answers of earlier cases.

use std::process::Command;

mod support;

/// Runs `queens ARGS` (a file name is taken relative to tests/malformed/) and checks the exit
/// status, that stdout is exactly `stdout`, and that stderr starts with `error:` and contains
/// `located`.
fn check(args: &[&str], code: i32, stdout: &str, located: &str) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/malformed");
    let out = Command::new(env!("CARGO_BIN_EXE_queens"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "queens {args:?}: {err}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        stdout,
        "queens {args:?}"
    );
    if code != 0 {
        assert!(err.starts_with("error:"), "queens {args:?}: {err}");
    }
    assert!(
        err.contains(located),
        "queens {args:?}: {err:?} lacks {located:?}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

macro_rules! rows {
    ($($name:ident: [$($arg:expr),*] => $code:expr, $stdout:expr, $located:expr;)*) => {
        $(#[test] fn $name() { check(&[$($arg),*], $code, $stdout, $located); })*
    };
}

rows! {
    count_negative: ["count", "-3"] => 2, "", "unexpected argument '-3' found";
    solutions_svg_none: ["solutions", "8", "--format", "svg", "--limit", "0"] => 2, "", "--limit 0 leaves no solution to draw";
    count_word: ["count", "abc"] => 2, "", "invalid value 'abc'";
    count_fraction: ["count", "3.5"] => 2, "", "invalid value '3.5'";
    count_zero: ["count", "0"] => 2, "", "1..=32";
    count_too_large: ["count", "33"] => 2, "", "1..=32";
    solutions_none: ["solutions", "3"] => 1, "", "no placement of 3 non-attacking queens";
    weight_empty: ["weight", "weight-empty.txt"] => 2, "", "line 1, column 1: empty input";
    weight_ragged: ["weight", "weight-ragged.txt"] => 2, "", "line 2, column 3: row 2 has 2 numbers";
    weight_not_square: ["weight", "weight-not-square.txt"] => 2, "", "line 3, column 1:";
    weight_not_a_number: ["weight", "weight-not-a-number.txt"] => 2, "", "line 2, column 3: 'x' is not an integer";
    weight_decimal: ["weight", "weight-decimal.txt"] => 2, "", "line 1, column 1: '1.5' is not an integer";
    weight_overflow: ["weight", "weight-overflow.txt"] => 2, "", "line 1, column 3: 99999999999999999999 does not fit in 64 bits";
    weight_non_utf8: ["weight", "weight-non-utf8.txt"] => 2, "", "line 2, column 3: the input is not valid UTF-8";
    weight_too_large: ["weight", "weight-too-large.txt"] => 2, "", "129x129";
    weight_two: ["weight", "weight-two-by-two.txt"] => 1, "", "weight-two-by-two.txt: no placement of 2 non-attacking queens exists on a 2x2 board";
    weight_three: ["weight", "weight-three-by-three.txt"] => 1, "", "weight-three-by-three.txt: no placement of 3 non-attacking queens exists on a 3x3 board";
    weight_missing_file: ["weight", "no-such-file.txt"] => 2, "", "cannot read no-such-file.txt";
    repair_empty: ["repair", "repair-empty.txt"] => 2, "", "line 1, column 1: empty input";
    repair_not_square: ["repair", "repair-not-square.txt"] => 2, "", "line 2, column 1: the board is 2 rows by 3 columns";
    repair_wrong_count: ["repair", "repair-wrong-count.txt"] => 2, "", "line 4, column 1: 2 queens on a 4x4 board";
    repair_bad_char: ["repair", "repair-bad-char.txt"] => 2, "", "line 2, column 2: unexpected character 'x'";
    repair_ragged: ["repair", "repair-ragged.txt"] => 2, "", "line 2, column 4: row 2 has 3 squares";
    repair_non_utf8: ["repair", "repair-non-utf8.txt"] => 2, "", "line 3, column 3: the input is not valid UTF-8";
    repair_too_large: ["repair", "repair-too-large.txt"] => 2, "", "from 1 to 64";
    repair_three: ["repair", "repair-three-by-three.txt"] => 1, "", "repair-three-by-three.txt: no placement of 3 non-attacking queens exists on a 3x3 board";
    guard_empty: ["guard", "guard-empty.txt"] => 2, "", "line 1, column 1: empty input";
    guard_ragged: ["guard", "guard-ragged.txt"] => 2, "", "line 2, column 3: row 2 has 2 squares";
    guard_bad_char: ["guard", "guard-bad-char.txt"] => 2, "", "line 2, column 2: unexpected character 'Y'";
    guard_invisible: ["guard", "guard-invisible.txt"] => 2, "", "line 2, column 2: unexpected character U+00A0 (a no-break space)";
    guard_nbsp_start: ["guard", "guard-nbsp-start.txt"] => 2, "", "line 2, column 1: unexpected character U+00A0 (a no-break space)";
    guard_nbsp_end: ["guard", "guard-nbsp-end.txt"] => 2, "", "line 2, column 4: unexpected character U+00A0 (a no-break space)";
    repair_nbsp_start: ["repair", "repair-nbsp-start.txt"] => 2, "", "line 1, column 1: unexpected character U+00A0 (a no-break space)";
    weight_nbsp_end: ["weight", "weight-nbsp-end.txt"] => 2, "", "line 2, column 6: unexpected character U+00A0 (a no-break space)";
    repair_spaced_twice: ["repair", "repair-spaced-twice.txt"] => 2, "", "line 4, column 3: two spaces between squares";
    repair_spaced_mixed: ["repair", "repair-spaced-mixed.txt"] => 2, "", "line 2, column 2: expected one space between squares";
    guard_gigantic: ["guard", "guard-gigantic.txt"] => 2, "", "300x300";
    guard_full_gigantic: ["guard", "--full", "100000x100000"] => 2, "", "error:";
    uva167_truncated: ["judge", "uva167", "uva167-truncated.txt"] => 2, "  260\n", "case 2: line 11, column 1:";
    uva167_bad_token: ["judge", "uva167", "uva167-bad-token.txt"] => 2, "  260\n", "case 2: line 14, column 1: '3x' is not an integer";
    uva167_nbsp: ["judge", "uva167", "uva167-nbsp.txt"] => 2, "", "case 1: line 3, column 9: unexpected character U+00A0 (a no-break space)";
    lightoj1061_nbsp: ["judge", "lightoj1061", "lightoj1061-nbsp.txt"] => 2, "", "case 1: line 3, column 1: unexpected character U+00A0 (a no-break space)";
    uva167_huge_count: ["judge", "uva167", "uva167-huge-count.txt"] => 2, "", "case 0: line 1, column 1:";
    lightoj1061_truncated: ["judge", "lightoj1061", "lightoj1061-truncated.txt"] => 2, "Case 1: 7\n", "case 2: line 14, column 1:";
    lightoj1061_wrong_count: ["judge", "lightoj1061", "lightoj1061-wrong-count.txt"] => 2, "Case 1: 7\n", "case 2: line 12, column 1: the board has 7 queens";
    lightoj1061_bad_char: ["judge", "lightoj1061", "lightoj1061-bad-char.txt"] => 2, "Case 1: 7\n", "case 2: line 16, column 5: unexpected character 'k'";
    uva11214_bad_char: ["judge", "uva11214", "uva11214-bad-char.txt"] => 2, "Case 1: 1\n", "case 2: line 6, column 2: unexpected character '?'";
    uva11214_ragged: ["judge", "uva11214", "uva11214-ragged.txt"] => 2, "Case 1: 1\n", "case 2: line 7, column 3:";
    uva11214_gigantic: ["judge", "uva11214", "uva11214-gigantic-size.txt"] => 2, "Case 1: 1\n", "case 2: line 5, column 1: '100000' is not a board side";
    uva11214_no_size: ["judge", "uva11214", "uva11214-no-size.txt"] => 2, "Case 1: 1\n", "case 2: line 5, column 1: 'three'";
    uva11214_size_mismatch: ["judge", "uva11214", "uva11214-size-mismatch.txt"] => 2, "Case 1: 1\nCase 2: 1\n", "case 3: line 8, column 1:";
    guard_non_utf8: ["guard", "guard-non-utf8.txt"] => 2, "", "line 2, column 1: the input is not valid UTF-8";
    uva167_non_utf8: ["judge", "uva167", "uva167-non-utf8.txt"] => 2, "  260\n", "case 2: line 10, column 6: the input is not valid UTF-8";
    lightoj1061_non_utf8: ["judge", "lightoj1061", "lightoj1061-non-utf8.txt"] => 2, "Case 1: 7\n", "case 2: line 15, column 4: the input is not valid UTF-8";
    uva11214_non_utf8: ["judge", "uva11214", "uva11214-non-utf8.txt"] => 2, "Case 1: 1\n", "case 2: line 6, column 2: the input is not valid UTF-8";
    uva167_empty: ["judge", "uva167", "uva167-empty.txt"] => 2, "", "case 0: line 1, column 1: the input ends";
    lightoj1061_empty: ["judge", "lightoj1061", "lightoj1061-empty.txt"] => 2, "", "case 0: line 1, column 1: the input ends";
    uva11214_empty: ["judge", "uva11214", "uva11214-empty.txt"] => 2, "", "case 1: line 1, column 1: empty input";
    judge_unknown: ["judge", "uva999"] => 2, "", "unknown judge problem 'uva999'";
    verify_bad_kind: ["verify", "sudoku", "a", "b"] => 2, "", "error:";
}

/// Starts `queens ARGS`, sends it SIGINT (as Ctrl-C does) once its handler is installed, and
/// returns its exit status and stdout.
fn interrupted(args: &[&str]) -> (Option<i32>, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = support::interrupt_when_ready(child);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn ctrl_c_prints_the_partial_count_and_exits_130() {
    let (code, stdout) = interrupted(&["count", "22", "--json"]);
    assert_eq!(code, Some(130), "{stdout}");
    assert!(stdout.contains("\"complete\":false"), "{stdout}");
}

#[test]
fn ctrl_c_prints_the_best_guard_so_far_and_exits_130() {
    let (code, stdout) = interrupted(&["guard", "--full", "24", "--json"]);
    assert_eq!(code, Some(130), "{stdout}");
    assert!(stdout.contains("\"optimal\":false"), "{stdout}");
    assert!(stdout.contains("\"lower_bound\""), "{stdout}");
}
