//! Tests of `queens::count` and the `count` / `solutions` commands against independent facts:
//! OEIS A000170 and A002562, a brute-force counter, and `queens::verify` on every solution.

mod support;

use queens::board::{canonical_columns, columns_to_squares, share_line, Square};
use queens::count::{count, count_unit, work_units, Counts, Solutions, UnitCounts};
use queens::format::count::{json as to_json, CountAnswer};
use queens::verify::n_queens_solution;
use queens::{Deadline, Options};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use support::{queens, A000170 as TOTAL, A002562 as UNIQUE};

/// Independent counter: tries every permutation (one queen per row and column) and checks the
/// diagonals square by square with `board::share_line`; the classes come from
/// `board::canonical_columns`. Returns (solutions, classes).
fn brute_force(n: usize) -> (u128, u128) {
    fn extend(n: usize, placed: &mut Vec<usize>, used: &mut Vec<bool>, out: &mut (u128, u128)) {
        if placed.len() == n {
            let squares = columns_to_squares(placed);
            for (i, &a) in squares.iter().enumerate() {
                for &b in &squares[i + 1..] {
                    if share_line(a, b) {
                        return;
                    }
                }
            }
            out.0 += 1;
            if canonical_columns(placed).0 == *placed {
                out.1 += 1;
            }
            return;
        }
        for c in 0..n {
            if !used[c] {
                used[c] = true;
                placed.push(c);
                extend(n, placed, used, out);
                placed.pop();
                used[c] = false;
            }
        }
    }
    let mut out = (0, 0);
    extend(n, &mut Vec::new(), &mut vec![false; n], &mut out);
    out
}

/// N = 16 and 17 take about 2.5 s on 2 idle cores (release), more on busy ones.
#[test]
fn counts_match_oeis_for_1_to_17() {
    for n in 1..=17u32 {
        let c = count(n, &Options::default()).unwrap();
        assert!(c.complete, "n = {n}");
        assert_eq!(c.units_done, c.units_total);
        assert_eq!(c.solutions, TOTAL[n as usize - 1], "solutions, n = {n}");
        assert_eq!(c.unique, UNIQUE[n as usize - 1], "unique, n = {n}");
    }
}

/// About 2 min on 2 idle cores (release), more on busy ones.
#[test]
#[ignore]
fn counts_match_oeis_for_18_to_19() {
    for n in 18..=19u32 {
        let c = count(n, &Options::default()).unwrap();
        assert!(c.complete);
        assert_eq!(c.solutions, TOTAL[n as usize - 1], "solutions, n = {n}");
        assert_eq!(c.unique, UNIQUE[n as usize - 1], "unique, n = {n}");
    }
}

#[test]
fn progress_reports_carry_the_estimated_work() {
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    let options = Options {
        threads: 2,
        work_progress: Some(Arc::new(move |p| log.lock().unwrap().push(p))),
        ..Options::default()
    };
    let c = count(13, &options).unwrap();
    let seen = seen.lock().unwrap();
    let last = *seen.last().unwrap();
    assert_eq!((last.done, last.total), (c.units_total, c.units_total));
    assert!((last.done_work - last.total_work).abs() <= 1e-6 * last.total_work);
    assert!(seen
        .windows(2)
        .all(|w| w[0].done < w[1].done && w[0].done_work <= w[1].done_work));
    // Heaviest first: the first unit holds more than its share of the work.
    let first = seen[0];
    assert!(first.done_work / first.total_work >= first.done as f64 / first.total as f64);
}

#[test]
fn counts_match_brute_force_up_to_9() {
    for n in 1..=9usize {
        let (solutions, classes) = brute_force(n);
        let c = count(n as u32, &Options::with_threads(2)).unwrap();
        assert_eq!(c.solutions, solutions, "n = {n}");
        assert_eq!(c.unique, classes, "n = {n}");
    }
}

#[test]
fn class_sizes_match_brute_force() {
    // The classes by size (1, 2, 4, 8 members), from every solution's canonical form.
    for n in 1..=10usize {
        let mut by_size = [0u128; 4];
        for s in Solutions::new(n as u32, false) {
            let (canon, size) = canonical_columns(&s);
            if canon == s {
                by_size[size.trailing_zeros() as usize] += 1;
            }
        }
        let c = count(n as u32, &Options::with_threads(1)).unwrap();
        assert_eq!(c.classes_by_size, by_size, "n = {n}");
    }
}

#[test]
fn same_counts_for_1_2_and_4_threads() {
    for n in [10u32, 12, 13] {
        let one = count(n, &Options::with_threads(1)).unwrap();
        for threads in [2, 4] {
            assert_eq!(
                count(n, &Options::with_threads(threads)).unwrap(),
                one,
                "n = {n}"
            );
        }
    }
}

#[test]
fn units_sum_to_the_count_and_are_stable() {
    let n = 11;
    let units = work_units(n);
    assert_eq!(units, work_units(n));
    let mut total = 0u128;
    for unit in &units {
        let counts: UnitCounts = count_unit(unit, &Deadline::never()).unwrap().unwrap();
        total += counts.total() * unit.orbit as u128;
    }
    assert_eq!(total, TOTAL[n as usize - 1]);
}

#[test]
fn a_cancelled_count_is_partial() {
    // Cancelled before it starts: not even the plan is made.
    let flag = Arc::new(AtomicBool::new(true));
    let options = Options {
        cancel: Some(flag),
        ..Options::default()
    };
    let c = count(14, &options).unwrap();
    assert!(!c.complete);
    assert_eq!((c.units_done, c.solutions), (0, 0));

    // Cancelled after a few units: those units and no others are counted.
    let flag = Arc::new(AtomicBool::new(false));
    let raise = flag.clone();
    let options = Options {
        threads: 2,
        cancel: Some(flag),
        progress: Some(Arc::new(move |done, _| {
            if done >= 5 {
                raise.store(true, Ordering::Relaxed);
            }
        })),
        ..Options::default()
    };
    let c = count(15, &options).unwrap();
    assert!(!c.complete);
    assert!(c.units_done >= 5 && c.units_done < c.units_total, "{c:?}");
    assert!(c.solutions > 0 && c.solutions < TOTAL[14]);

    let quick = Options {
        time_limit: Some(Duration::from_millis(1)),
        ..Options::default()
    };
    let c = count(18, &quick).unwrap();
    assert!(!c.complete);
    assert!(c.solutions < 666_090_624);
}

#[test]
fn every_enumerated_solution_verifies() {
    for n in 1..=10u32 {
        let all: Vec<_> = Solutions::new(n, false).collect();
        assert_eq!(all.len() as u128, TOTAL[n as usize - 1], "n = {n}");
        assert!(all.windows(2).all(|w| w[0] < w[1]), "lexicographic order");
        for s in &all {
            n_queens_solution(n as usize, &columns_to_squares(s)).unwrap();
        }
        let unique: Vec<_> = Solutions::new(n, true).collect();
        assert_eq!(unique.len() as u128, UNIQUE[n as usize - 1], "n = {n}");
        for s in &unique {
            n_queens_solution(n as usize, &columns_to_squares(s)).unwrap();
            assert_eq!(canonical_columns(s).0, *s);
        }
    }
    for n in [20u32, 27, 32] {
        let first: Vec<_> = Solutions::new(n, true).take(3).collect();
        assert_eq!(first.len(), 3);
        for s in &first {
            n_queens_solution(n as usize, &columns_to_squares(s)).unwrap();
        }
    }
}

#[test]
fn cli_refuses_bad_sizes_with_exit_2() {
    for bad in ["-3", "abc", "3.5", "0", "33", ""] {
        let support::Run {
            code,
            stdout,
            stderr,
        } = queens(&["count", bad]);
        assert_eq!(code, 2, "count {bad:?}: {stderr}");
        assert!(stderr.starts_with("error:"), "count {bad:?}: {stderr}");
        assert!(stdout.is_empty());
    }
    let support::Run { code, stderr, .. } = queens(&["count", "33"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("1..=32"), "{stderr}");
    let support::Run { code, stderr, .. } = queens(&["solutions", "40"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error:"));
}

#[test]
fn cli_count_json_and_text() {
    let support::Run { code, stdout, .. } = queens(&["count", "8", "--json", "--threads", "2"]);
    assert_eq!(code, 0);
    assert_eq!(stdout.lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["problem"], "count");
    assert_eq!(v["n"], 8);
    assert_eq!(v["solutions"], 92);
    assert_eq!(v["unique"], 12);
    assert_eq!(v["threads"], 2);
    assert_eq!(v["complete"], true);
    let units = v["units"]["total"].as_u64().unwrap();
    assert!(units > 0);
    assert_eq!(v["units"]["done"], units);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    // Seconds with exactly 6 decimals, and the fields in the contract's order.
    let seconds = stdout.split("\"seconds\":").nth(1).unwrap();
    let seconds = &seconds[..seconds.find(',').unwrap()];
    assert_eq!(seconds.split('.').nth(1).map(str::len), Some(6), "{stdout}");
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let mut order: Vec<(usize, &str)> = keys
        .iter()
        .map(|k| (stdout.find(&format!("\"{k}\":")).unwrap(), *k))
        .collect();
    order.sort();
    let order: Vec<&str> = order.into_iter().map(|(_, k)| k).collect();
    assert_eq!(
        order,
        [
            "problem",
            "n",
            "solutions",
            "unique",
            "complete",
            "units",
            "seconds",
            "threads"
        ]
    );

    let support::Run { code, stdout, .. } = queens(&["count", "12"]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("12-queens: 14200 solutions, 1787 unique"));
    let board: Vec<&str> = stdout
        .lines()
        .filter(|l| !l.is_empty() && l.chars().all(|c| c == 'Q' || c == '.'))
        .collect();
    assert_eq!(board.len(), 12);
    let squares: Vec<Square> = board
        .iter()
        .enumerate()
        .map(|(r, l)| Square::new(r, l.find('Q').unwrap()))
        .collect();
    n_queens_solution(12, &squares).unwrap();

    let support::Run { code, stdout, .. } = queens(&["count", "3", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["solutions"], 0);
}

#[test]
fn cli_solutions_formats() {
    let support::Run { code, stdout, .. } = queens(&["solutions", "8", "--format", "json"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 92);
    for (i, line) in lines.iter().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["n"], 8);
        assert_eq!(v["index"], i as u64 + 1);
        let squares: Vec<Square> = serde_json::from_value(v["queens"].clone()).unwrap();
        for (row, s) in squares.iter().enumerate() {
            assert_eq!(s.row, row, "row order");
        }
        n_queens_solution(8, &squares).unwrap();
    }

    let support::Run { code, stdout, .. } =
        queens(&["solutions", "10", "--unique", "--limit", "5"]);
    assert_eq!(code, 0);
    assert_eq!(stdout.matches("Solution ").count(), 5);

    let support::Run { code, stdout, .. } = queens(&["solutions", "6", "--format", "svg"]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("<svg"));
    assert_eq!(stdout.matches("class=\"queen\"").count(), 4 * 6);
    assert!(stdout.trim_end().ends_with("</svg>"));

    for n in ["2", "3"] {
        let support::Run {
            code,
            stdout,
            stderr,
        } = queens(&["solutions", n]);
        assert_eq!(code, 1);
        assert!(stdout.is_empty());
        assert!(stderr.starts_with("error:"));
    }
}

#[test]
fn cli_ctrl_c_prints_a_partial_count_and_exits_130() {
    let child = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(["count", "21", "--threads", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run queens");
    let out = support::interrupt_when_ready(child);
    assert_eq!(out.status.code(), Some(130));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("21-queens: PARTIAL count"), "{stdout}");
}

#[test]
fn cli_time_limit_gives_a_partial_json_count() {
    let support::Run { code, stdout, .. } =
        queens(&["count", "19", "--json", "--time-limit", "0.5"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["complete"], false);
    assert_eq!(v["n"], 19);
    // The plan itself may not be finished on a busy machine (then both are 0).
    assert!(
        v["units"]["done"].as_u64().unwrap() < v["units"]["total"].as_u64().unwrap()
            || v["units"]["total"] == 0
    );
    let support::Run { code, stdout, .. } = queens(&["count", "19", "--time-limit", "0.5"]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("19-queens: PARTIAL count"), "{stdout}");
}

#[test]
fn json_writes_counts_beyond_64_bits_as_numbers() {
    // The crate's own writer of the count answer, with counts past u64::MAX (N = 27 already
    // has 2.3e17 solutions; larger boards or sums of shards go beyond 64 bits).
    let big = u64::MAX as u128 + 1;
    let counts = Counts {
        n: 32,
        solutions: big * 3 + 7,
        unique: big + 1,
        classes_by_size: [0; 4],
        units_done: 5,
        units_total: 9,
        complete: false,
    };
    let json = to_json(&CountAnswer::from(&counts), 12.5, 4);
    assert_eq!(
        json,
        "{\"problem\":\"count\",\"n\":32,\"solutions\":55340232221128654855,\
         \"unique\":18446744073709551617,\"complete\":false,\"units\":{\"done\":5,\"total\":9},\
         \"seconds\":12.500000,\"threads\":4}"
    );
    // Still one valid JSON object (a reader without 128-bit integers sees a float).
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["units"]["total"], 9);
    assert!(v["solutions"].is_number());
}

/// Every N-queens solution of size `n`, by plain backtracking with `board::share_line`.
fn all_solutions(n: usize) -> Vec<Vec<usize>> {
    fn extend(n: usize, placed: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        let row = placed.len();
        if row == n {
            out.push(placed.clone());
            return;
        }
        for c in 0..n {
            let here = Square::new(row, c);
            if placed
                .iter()
                .enumerate()
                .all(|(r, &pc)| !share_line(Square::new(r, pc), here))
            {
                placed.push(c);
                extend(n, placed, out);
                placed.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(n, &mut Vec::new(), &mut out);
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

    /// Any work unit of any board from 5 to 10: its counts by class size equal those of the
    /// brute-force solutions with exactly the unit's border queens (row 0, row n-1, column 0,
    /// column n-1), classified with `board::canonical_columns`.
    #[test]
    fn any_unit_matches_brute_force(n in 5u32..=10, pick in proptest::prelude::any::<usize>()) {
        let units = work_units(n);
        let unit = units[pick % units.len()];
        proptest::prop_assert_eq!(unit.prefix_len, 0);
        let c = unit.constellation;
        let last = n as usize - 1;
        let mut expected = [0u64; 4];
        for s in all_solutions(n as usize) {
            let left = s.iter().position(|&col| col == 0).unwrap();
            let right = s.iter().position(|&col| col == last).unwrap();
            if (s[0], s[last], left, right)
                == (c.top as usize, c.bottom as usize, c.left as usize, c.right as usize)
            {
                let class = canonical_columns(&s).1;
                expected[class.trailing_zeros() as usize] += 1;
            }
        }
        let got = count_unit(&unit, &Deadline::never()).unwrap().unwrap();
        proptest::prop_assert_eq!(got.found, expected);
    }
}
