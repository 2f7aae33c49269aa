//! `queens weight` and `queens judge uva167`: answers against enumeration, certificates through
//! `queens::verify`, determinism across thread counts, and the command line's formats and exit
//! codes.

use proptest::prelude::*;
use queens::board::Square;
use queens::weight::{best, optimum, Placement, Sense, WeightError, WeightGrid};
use queens::Options;
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

mod support;

/// The largest sum over all placements of n non-attacking queens, by enumerating the
/// permutations row by row (a column and a diagonal clash end a branch).
fn brute_force(grid: &WeightGrid) -> Option<i128> {
    brute_force_in(grid, Sense::Max)
}

/// The best sum in `sense` over all placements, by the same enumeration.
fn brute_force_in(grid: &WeightGrid, sense: Sense) -> Option<i128> {
    fn go(grid: &WeightGrid, sense: Sense, cols: &mut Vec<usize>) -> Option<i128> {
        let row = cols.len();
        if row == grid.n {
            return Some(0);
        }
        let mut best: Option<i128> = None;
        for c in 0..grid.n {
            if cols
                .iter()
                .enumerate()
                .any(|(r, &k)| k == c || row - r == c.abs_diff(k))
            {
                continue;
            }
            cols.push(c);
            if let Some(rest) = go(grid, sense, cols) {
                let total = grid.get(row, c) as i128 + rest;
                best = Some(best.map_or(total, |b| match sense {
                    Sense::Max => b.max(total),
                    Sense::Min => b.min(total),
                }));
            }
            cols.pop();
        }
        best
    }
    go(grid, sense, &mut Vec::new())
}

/// A grid of pseudo-random weights (xorshift from `seed`) in `lo..=hi`.
fn random_grid(n: usize, seed: u64, lo: i64, hi: i64) -> WeightGrid {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let span = (hi as i128 - lo as i128 + 1) as u128;
    let cells = (0..n * n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (lo as i128 + (x as u128 % span) as i128) as i64
        })
        .collect();
    WeightGrid { n, cells }
}

fn solve_checked(grid: &WeightGrid, options: &Options) -> Placement {
    solve_checked_in(grid, Sense::Max, options)
}

/// [`optimum`] in `sense`, its certificate through the verifier and its bound on the right side
/// of its sum.
fn solve_checked_in(grid: &WeightGrid, sense: Sense, options: &Options) -> Placement {
    let answer = optimum(grid, sense, options).expect("a placement exists");
    assert_eq!(
        queens::verify::weight(grid, &answer.queens, answer.sum),
        Ok(())
    );
    assert_eq!(answer.n, grid.n);
    assert_eq!(answer.sense, sense);
    match sense {
        Sense::Max => assert!(answer.bound >= answer.sum),
        Sense::Min => assert!(answer.bound <= answer.sum),
    }
    assert_eq!(answer.optimal, answer.bound == answer.sum);
    answer
}

fn weights() -> impl Strategy<Value = i64> {
    prop_oneof![
        -9i64..=9,
        1i64..=99,
        any::<i64>(),
        Just(i64::MAX),
        Just(i64::MIN),
        -1_000_000_000_000i64..=1_000_000_000_000,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Best sum = the enumerated maximum, proven, with a valid certificate; N = 2, 3 refuse.
    #[test]
    fn matches_brute_force(n in 1usize..=9, cells in prop::collection::vec(weights(), 81), uniform in any::<bool>()) {
        let mut cells: Vec<i64> = cells[..n * n].to_vec();
        if uniform {
            let v = cells[0];
            cells.iter_mut().for_each(|c| *c = v);
        }
        let grid = WeightGrid { n, cells };
        match brute_force(&grid) {
            None => prop_assert_eq!(best(&grid, &Options::default()), Err(WeightError::NoPlacement { n })),
            Some(want) => {
                let got = solve_checked(&grid, &Options::default());
                prop_assert_eq!(got.sum, want);
                prop_assert!(got.optimal);
                prop_assert_eq!(got.bound, want);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Smallest sum = the enumerated minimum, proven, with a valid certificate.
    #[test]
    fn minimum_matches_brute_force(n in 4usize..=8, cells in prop::collection::vec(weights(), 64)) {
        let grid = WeightGrid { n, cells: cells[..n * n].to_vec() };
        let want = brute_force_in(&grid, Sense::Min).unwrap();
        let got = solve_checked_in(&grid, Sense::Min, &Options::default());
        prop_assert_eq!(got.sum, want);
        prop_assert!(got.optimal);
    }
}

#[test]
fn minimum_on_medium_boards_matches_enumeration_and_thread_counts() {
    for (n, seed) in [(11, 5), (12, 6)] {
        for (lo, hi) in [(1, 99), (i64::MIN / 2, i64::MAX / 2)] {
            let grid = random_grid(n, seed, lo, hi);
            let want = brute_force_in(&grid, Sense::Min).unwrap();
            let one = solve_checked_in(&grid, Sense::Min, &Options::with_threads(1));
            let two = solve_checked_in(&grid, Sense::Min, &Options::with_threads(2));
            assert_eq!(one.sum, want);
            assert!(one.optimal);
            assert_eq!((one.queens, one.sum), (two.queens, two.sum));
        }
    }
}

/// On boards the exact search proves, an answer cut short by a time limit carries a legal
/// placement and a bound on the right side of the proven optimum, in both senses; the progress
/// reports move the same way.
#[test]
fn time_limited_bounds_never_cross_the_proven_optimum() {
    for (n, seed) in [(14, 21), (16, 22), (18, 23)] {
        let grid = random_grid(n, seed, 1, 99);
        for sense in [Sense::Max, Sense::Min] {
            let exact = solve_checked_in(&grid, sense, &Options::default());
            assert!(exact.optimal, "n = {n}");
            let events = Arc::new(std::sync::Mutex::new(Vec::new()));
            let seen = events.clone();
            let options = Options {
                time_limit: Some(Duration::from_millis(1)),
                search_progress: Some(Arc::new(move |event| {
                    if let queens::SearchEvent::Sums { best, bound } = event {
                        seen.lock().unwrap().push((best, bound));
                    }
                })),
                ..Options::default()
            };
            let cut = solve_checked_in(&grid, sense, &options);
            let reports = events.lock().unwrap().clone();
            assert!(!reports.is_empty());
            for (sum, bound) in reports.into_iter().chain([(cut.sum, cut.bound)]) {
                match sense {
                    Sense::Max => assert!(sum <= exact.sum && exact.sum <= bound, "n = {n}"),
                    Sense::Min => assert!(sum >= exact.sum && exact.sum >= bound, "n = {n}"),
                }
            }
        }
    }
}

#[test]
fn medium_boards_match_enumeration_and_thread_counts() {
    // N = 10..=12 random grids: enumeration takes well under a second each.
    for (n, seed) in [(10, 1), (11, 2), (12, 3), (12, 4)] {
        for (lo, hi) in [(1, 99), (-50, 50), (i64::MIN / 2, i64::MAX / 2)] {
            let grid = random_grid(n, seed, lo, hi);
            let want = brute_force(&grid).unwrap();
            let one = solve_checked(&grid, &Options::with_threads(1));
            let two = solve_checked(&grid, &Options::with_threads(2));
            assert_eq!(one.sum, want);
            assert!(one.optimal);
            assert_eq!(one.queens, two.queens);
            assert_eq!(one.sum, two.sum);
        }
    }
}

#[test]
fn sizes_one_to_three_and_out_of_range() {
    let one = solve_checked(
        &WeightGrid {
            n: 1,
            cells: vec![-7],
        },
        &Options::default(),
    );
    assert_eq!(
        (one.sum, one.optimal, one.queens.clone()),
        (-7, true, vec![Square::new(0, 0)])
    );
    for n in [2, 3] {
        let grid = WeightGrid {
            n,
            cells: vec![1; n * n],
        };
        assert_eq!(
            best(&grid, &Options::default()),
            Err(WeightError::NoPlacement { n })
        );
    }
    for n in [0, 129, 200] {
        let grid = WeightGrid {
            n,
            cells: vec![0; n * n],
        };
        assert_eq!(
            best(&grid, &Options::default()),
            Err(WeightError::UnsupportedSize { n })
        );
    }
}

#[test]
fn extreme_weights_do_not_overflow() {
    // Every square i64::MAX: the sum is 8 * i64::MAX, beyond 64 bits.
    let grid = WeightGrid {
        n: 8,
        cells: vec![i64::MAX; 64],
    };
    let answer = solve_checked(&grid, &Options::default());
    assert_eq!(answer.sum, 8 * i64::MAX as i128);
    let grid = WeightGrid {
        n: 6,
        cells: vec![i64::MIN; 36],
    };
    assert_eq!(
        solve_checked(&grid, &Options::default()).sum,
        6 * i64::MIN as i128
    );
    // One huge square among tiny ones must be taken.
    let mut grid = random_grid(9, 7, 0, 5);
    grid.cells[4 * 9 + 4] = i64::MAX;
    let answer = solve_checked(&grid, &Options::default());
    assert!(answer.queens.contains(&Square::new(4, 4)));
    assert_eq!(Some(answer.sum), brute_force(&grid));
}

#[test]
fn uniform_large_boards_are_proven_at_once() {
    for n in [20, 47, 64] {
        let grid = WeightGrid {
            n,
            cells: vec![5; n * n],
        };
        let answer = solve_checked(&grid, &Options::default());
        assert!(answer.optimal);
        assert_eq!(answer.sum, 5 * n as i128);
    }
}

#[test]
fn time_limit_returns_a_certified_bound() {
    let grid = random_grid(64, 11, 1, 99);
    let options = Options {
        time_limit: Some(Duration::from_millis(300)),
        ..Options::default()
    };
    let started = Instant::now();
    let answer = solve_checked(&grid, &options);
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(answer.bound >= answer.sum);
    // The bound can be no larger than the sum of the row maxima.
    let rows: i128 = grid
        .cells
        .chunks(64)
        .map(|r| *r.iter().max().unwrap() as i128)
        .sum();
    assert!(answer.bound <= rows);
    // The quality of the gap is measured by bench/weight.sh, not asserted on a busy machine.
    assert_eq!(answer.optimal, answer.bound == answer.sum);
    assert!(answer.optimal || answer.gap_percent() > 0.0);
}

// ---------- wide boards (neighbourhood search first above 40, 128-bit sets above 64) ----------

#[test]
fn uniform_wide_boards_are_proven_at_once() {
    assert_eq!(queens::weight::MAX_WEIGHT_SIDE, 128);
    for n in [48, 65, 100, 128] {
        let grid = WeightGrid {
            n,
            cells: vec![-7; n * n],
        };
        let answer = solve_checked(&grid, &Options::default());
        assert!(answer.optimal, "n = {n}");
        assert_eq!(answer.sum, -7 * n as i128);
    }
}

/// A grid whose best placement is known by construction: weight 1000 on the toroidal N-queens
/// solution `c = (2r + 1) mod n` (valid when gcd(n, 6) = 1) and 0..=9 elsewhere. Any other
/// placement differs from it in at least two rows, so it sums to at most 1000 (n - 2) + 18.
#[test]
fn wide_boards_with_a_planted_best_placement_are_proven() {
    // 49: past the side where the neighbourhood search runs first, on 64-bit sets.
    for (n, seed) in [(49, 4), (65, 1), (101, 2), (127, 3)] {
        let mut grid = random_grid(n, seed, 0, 9);
        let planted: Vec<Square> = (0..n).map(|r| Square::new(r, (2 * r + 1) % n)).collect();
        assert_eq!(queens::verify::n_queens_solution(n, &planted), Ok(()));
        for q in &planted {
            grid.cells[q.row * n + q.col] = 1000;
        }
        let started = Instant::now();
        let answer = solve_checked(&grid, &Options::default());
        assert!(answer.optimal, "n = {n}");
        assert_eq!(answer.sum, 1000 * n as i128);
        assert_eq!(answer.queens, planted);
        assert!(started.elapsed() < Duration::from_secs(20), "n = {n}");
    }
}

#[test]
fn hundred_board_under_a_time_limit_is_certified_within_a_few_percent() {
    let grid = random_grid(100, 100, 1, 99);
    let options = Options {
        time_limit: Some(Duration::from_secs(2)),
        ..Options::default()
    };
    let started = Instant::now();
    let answer = solve_checked(&grid, &options);
    assert!(started.elapsed() < Duration::from_secs(15));
    assert_eq!(answer.queens.len(), 100);
    assert!(answer.bound >= answer.sum);
    let rows: i128 = grid
        .cells
        .chunks(100)
        .map(|r| *r.iter().max().unwrap() as i128)
        .sum();
    assert!(answer.bound <= rows);
    // About 2-4% on this machine (bench/weight.sh measures it); 10% leaves room for a busy one.
    assert!(answer.gap_percent() < 10.0, "gap {}%", answer.gap_percent());
}

#[test]
fn cancel_flag_stops_the_search() {
    let grid = random_grid(60, 5, 1, 99);
    let options = Options {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..Options::default()
    };
    let answer = solve_checked(&grid, &options);
    assert!(!answer.optimal);
    assert!(answer.cancelled);
}

// ---------- the binary ----------

fn queens(args: &[&str], stdin: &str) -> Output {
    support::queens_output(args, stdin.as_bytes())
}

fn grid_text(grid: &WeightGrid) -> String {
    grid.cells
        .chunks(grid.n)
        .map(|row| {
            row.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect()
}

#[test]
fn judge_example_file_byte_for_byte() {
    // The example input (boards of our own), answered by brute force over all placements.
    let path = support::example("judge/uva167.in");
    let input = std::fs::read_to_string(&path).unwrap();
    let numbers: Vec<i64> = input
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let boards = numbers[0] as usize;
    let mut expected = Vec::new();
    for b in 0..boards {
        let cells = numbers[1 + 64 * b..1 + 64 * (b + 1)].to_vec();
        let grid = WeightGrid { n: 8, cells };
        expected.extend(format!("{:5}\n", brute_force(&grid).unwrap()).into_bytes());
    }
    let out = queens(&["judge", "uva167"], &input);
    assert!(out.status.success());
    assert_eq!(out.stdout, expected);
    // The same boards squeezed onto one line, and read from a file argument.
    let squeezed = input.split_whitespace().collect::<Vec<_>>().join(" ");
    let out = queens(&["judge", "uva167", "-"], &squeezed);
    assert_eq!(out.stdout, expected);
    let out = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(["judge", "uva167"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.stdout, expected);
}

#[test]
fn judge_answers_each_board_with_percent_5d() {
    let boards: Vec<WeightGrid> = (0..3).map(|s| random_grid(8, 100 + s, 1, 99)).collect();
    let mut input = format!("{}\n", boards.len());
    let mut expected = String::new();
    for b in &boards {
        input.push_str(&grid_text(b));
        expected.push_str(&format!("{:5}\n", brute_force(b).unwrap()));
    }
    let out = queens(&["judge", "uva167"], &input);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
    // Wide sums widen the field, as %5d does.
    let big = WeightGrid {
        n: 8,
        cells: vec![-1_000_000; 64],
    };
    let out = queens(&["judge", "uva167"], &format!("1\n{}", grid_text(&big)));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "-8000000\n");
}

#[test]
fn judge_bad_case_after_good_answers() {
    let board = grid_text(&random_grid(8, 9, 1, 99));
    let want = format!("{:5}\n", brute_force(&random_grid(8, 9, 1, 99)).unwrap());
    let out = queens(&["judge", "uva167"], &format!("2\n{board}1 2 three\n"));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), want);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("error:") && err.contains("case 2") && err.contains("line 10, column 5"),
        "{err}"
    );
    // The input ends in the middle of case 2.
    let out = queens(&["judge", "uva167"], &format!("2\n{board}1 2 3\n"));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), want);
    assert!(String::from_utf8(out.stderr).unwrap().contains("case 2"));
    let out = queens(&["judge", "uva167"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn cli_text_and_json() {
    let grid = random_grid(10, 21, -20, 99);
    let want = brute_force(&grid).unwrap();
    let out = queens(&["weight"], &grid_text(&grid));
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!("best sum: {want} (proven optimal)")),
        "{text}"
    );
    assert_eq!(
        text.lines()
            .take(10)
            .filter(|l| l.matches('Q').count() == 1 && l.len() == 10)
            .count(),
        10
    );
    let out = queens(&["weight", "--json", "-"], &grid_text(&grid));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["n"], 10);
    assert_eq!(v["sum"].as_i64(), Some(want as i64));
    assert_eq!(v["bound"].as_i64(), Some(want as i64));
    assert_eq!(v["optimal"], true);
    let queens_at: Vec<Square> = serde_json::from_value(v["queens"].clone()).unwrap();
    assert_eq!(queens::verify::weight(&grid, &queens_at, want), Ok(()));
}

#[test]
fn cli_minimize_text_and_json() {
    let grid = random_grid(10, 22, -20, 99);
    let want = brute_force_in(&grid, Sense::Min).unwrap();
    let out = queens(&["weight", "--minimize"], &grid_text(&grid));
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!("smallest sum: {want} (proven optimal)")),
        "{text}"
    );
    let out = queens(&["weight", "--minimize", "--json"], &grid_text(&grid));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["sum"].as_i64(), v["bound"].as_i64()),
        (Some(want as i64), Some(want as i64))
    );
    assert_eq!((&v["sense"], &v["optimal"]), (&"min".into(), &true.into()));
    let queens_at: Vec<Square> = serde_json::from_value(v["queens"].clone()).unwrap();
    assert_eq!(queens::verify::weight(&grid, &queens_at, want), Ok(()));
    // A time-limited minimum on a board too large to prove carries a lower bound.
    let big = random_grid(60, 23, 1, 99);
    let out = queens(
        &["weight", "--minimize", "--json", "-t", "0.3"],
        &grid_text(&big),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["bound"].as_i64().unwrap() <= v["sum"].as_i64().unwrap(),
        "{v}"
    );
    let rows: i64 = big.cells.chunks(60).map(|r| *r.iter().min().unwrap()).sum();
    assert!(v["bound"].as_i64().unwrap() >= rows);
}

#[test]
fn cli_json_sums_beyond_64_bits() {
    let mut grid = random_grid(9, 5, i64::MAX - 1000, i64::MAX);
    grid.cells[0] = i64::MIN;
    let want = brute_force(&grid).unwrap();
    assert!(want > i64::MAX as i128);
    let out = queens(&["weight", "--json"], &grid_text(&grid));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(&format!("\"sum\":{want},")), "{text}");
    assert!(text.contains(&format!("\"bound\":{want},")), "{text}");
}

#[test]
fn cli_same_json_on_one_and_two_threads() {
    // N = 20 needs more nodes than the sequential dive, so the split, shared-incumbent search
    // runs; the 1..3 grid is full of ties.
    for grid in [
        random_grid(20, 3, 1, 99),
        random_grid(24, 4, 1, 3),
        WeightGrid {
            n: 30,
            cells: vec![7; 900],
        },
    ] {
        let text = grid_text(&grid);
        let strip = |out: Output| {
            let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let obj = v.as_object_mut().unwrap();
            obj.remove("seconds");
            obj.remove("nodes");
            obj.remove("threads");
            v
        };
        let one = strip(queens(&["weight", "--json", "--threads", "1"], &text));
        let two = strip(queens(&["weight", "--json", "--threads", "2"], &text));
        assert_eq!(one, two);
        assert_eq!(one["optimal"], true);
    }
}

#[test]
fn cli_time_limit_reports_bound() {
    let grid = random_grid(64, 8, 1, 99);
    let out = queens(
        &["weight", "--json", "--time-limit", "0.3"],
        &grid_text(&grid),
    );
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (best_sum, bound) = (v["sum"].as_i64().unwrap(), v["bound"].as_i64().unwrap());
    assert!(bound >= best_sum);
    assert_eq!(v["optimal"] == true, bound == best_sum);
    // The text answer says exactly one of "proven" and "bound", and a bound with its gap.
    let out = queens(&["weight", "--time-limit", "0.2"], &grid_text(&grid));
    let text = String::from_utf8(out.stdout).unwrap();
    let last = text.lines().last().unwrap();
    let proven = last.ends_with("(proven optimal)");
    let bounded = last.contains("(best found, upper bound ") && last.contains("(gap ");
    assert!(proven != bounded, "{last}");
}

#[test]
fn cli_no_placement_and_bad_input() {
    for text in ["1 2\n3 4\n", "1 1 1\n1 1 1\n1 1 1\n"] {
        let out = queens(&["weight"], text);
        assert_eq!(out.status.code(), Some(1));
        assert!(String::from_utf8(out.stderr).unwrap().starts_with("error:"));
    }
    let out = queens(&["weight", "--json"], "42\n");
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("\"sum\":42"));
    let cases = [
        ("1 2 3\n4 5\n6 7 8\n", "line 2"),                     // ragged
        ("1 2 3\n4 5 6\n", "line 3"),                          // not square
        ("1 2\n3 x\n", "line 2, column 3"),                    // not a number
        ("1 2\n3 99999999999999999999\n", "line 2, column 3"), // overflow
        ("", "line 1, column 1"),                              // empty
        ("\n  \n", "line"),                                    // blank
    ];
    for (text, place) in cases {
        let out = queens(&["weight"], text);
        assert_eq!(out.status.code(), Some(2), "{text:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.starts_with("error:") && err.contains(place),
            "{text:?}: {err}"
        );
    }
    let wide: String = (0..129).map(|_| "1 ".repeat(129) + "\n").collect();
    let out = queens(&["weight"], &wide);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("error:") && err.contains("from 1 to 128"),
        "{err}"
    );
}

#[test]
fn cli_solves_a_hundred_board_under_a_time_limit() {
    let grid = random_grid(100, 4, 1, 99);
    let out = queens(
        &["weight", "--json", "--time-limit", "1"],
        &grid_text(&grid),
    );
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["n"], 100);
    let placed: Vec<Square> = serde_json::from_value(v["queens"].clone()).unwrap();
    let (best_sum, bound) = (v["sum"].as_i64().unwrap(), v["bound"].as_i64().unwrap());
    assert_eq!(
        queens::verify::weight(&grid, &placed, best_sum as i128),
        Ok(())
    );
    assert!(bound >= best_sum);
    assert_eq!(v["optimal"] == true, bound == best_sum);
}
