//! n-queens completion, blocked n-queens and excluded diagonals (CSPLib problems 079 and
//! 080): given a [`PartialBoard`] (queens already placed, blocked squares, closed diagonals,
//! rows and columns), [`decide`] finds a completion or proves that none exists, [`count`]
//! counts all completions and [`list`] hands each to a callback.
//!
//! The search keeps, for every open row and every open column, the mask of its squares still
//! free; a placed queen clears its lines from the others, a line with one free square forces
//! it and a line with none fails, and the search branches on a line with the fewest free
//! squares (first its first square, then, with that square removed, the rest). Boards up to
//! 64 x 64.
//!
//! ```
//! use queens::{board::Square, complete, problem::PartialBoard, Options};
//! // With nothing placed, the completions are the 92 solutions of 8-queens.
//! let tally = complete::count(&PartialBoard::empty(8), &Options::default()).unwrap();
//! assert_eq!((tally.completions, tally.stopped), (92, false));
//! // A queen in a corner, and the c1-h6 diagonal closed: is there still a way?
//! let mut board = PartialBoard::empty(8);
//! board.queens = vec![Square { row: 0, col: 0 }];
//! board.closed_sums = vec![7];
//! let found = complete::decide(&board, &Options::default()).unwrap();
//! if let Some(queens) = &found.completion {
//!     assert!(queens::verify::completion(&board, queens).is_ok());
//! }
//! ```

mod search;
pub mod units;

use crate::board::Square;
pub use crate::problem::PartialBoard;
use crate::Options;
use rayon::prelude::*;
use search::{Search, State};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use thiserror::Error;
pub use units::CompletionUnits;
use units::UnitSearch;

/// The largest board side the solver takes.
pub const MAX_N: usize = 64;

/// Why a board cannot be searched.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CompleteError {
    /// The side is 0 or above [`MAX_N`].
    #[error("the board side must be 1 to {MAX_N}, not {0}")]
    Size(usize),
    /// The blocked flags do not cover the board.
    #[error("{found} blocked flags for a {n}x{n} board (need {} or none)", .n * .n)]
    BlockedSize {
        /// Side.
        n: usize,
        /// Number of flags given.
        found: usize,
    },
    /// A placed queen, or a closed line, is off the board.
    #[error("{0} is off the board")]
    OffBoard(String),
    /// Two placed queens attack each other (or stand on one square).
    #[error("the placed queens at [{}, {}] and [{}, {}] attack each other", .0.row, .0.col, .1.row, .1.col)]
    Attack(Square, Square),
    /// A placed queen stands where no queen may stand.
    #[error("the placed queen at [{}, {}] stands on {}", .0.row, .0.col, .1)]
    Closed(Square, &'static str),
}

/// The answer of [`decide`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// A completion: every queen of the board, the placed ones included, in row-major order;
    /// `None` when none exists (proven unless `stopped`).
    pub completion: Option<Vec<Square>>,
    /// Whether the time limit or the cancel flag ended the search before it decided.
    pub stopped: bool,
    /// Search nodes (branching decisions, plus one per searched subproblem).
    pub nodes: u64,
}

/// The answer of [`count`] and [`list`] (`Tally::default()`: no completion, proven).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Completions found: all of them unless `stopped` (then a lower bound).
    pub completions: u128,
    /// Whether the time limit, the cancel flag or the callback ended the search early.
    pub stopped: bool,
    /// Search nodes (0 when `counter`).
    pub nodes: u64,
    /// Whether the N-queens counter counted it (the board is empty), not the completion search.
    pub counter: bool,
}

/// Checks the board and builds the search's starting state (`None`: no completion, because
/// the open rows and columns differ in number).
fn start(board: &PartialBoard) -> Result<Option<State>, CompleteError> {
    let n = board.n;
    if n == 0 || n > MAX_N {
        return Err(CompleteError::Size(n));
    }
    if !board.blocked.is_empty() && board.blocked.len() != n * n {
        return Err(CompleteError::BlockedSize {
            n,
            found: board.blocked.len(),
        });
    }
    let lines = [
        ("closed sum diagonal", &board.closed_sums, 2 * n - 1),
        (
            "closed difference diagonal",
            &board.closed_differences,
            2 * n - 1,
        ),
        ("closed row", &board.closed_rows, n),
        ("closed column", &board.closed_cols, n),
    ];
    for (what, list, limit) in lines {
        if let Some(k) = list.iter().find(|&&k| k >= limit) {
            return Err(CompleteError::OffBoard(format!("{what} {k}")));
        }
    }
    let mut sums = vec![false; 2 * n - 1];
    let mut differences = vec![false; 2 * n - 1];
    board.closed_sums.iter().for_each(|&k| sums[k] = true);
    board
        .closed_differences
        .iter()
        .for_each(|&k| differences[k] = true);
    let mut open_rows = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut open_cols = open_rows;
    board
        .closed_rows
        .iter()
        .for_each(|&r| open_rows &= !(1 << r));
    board
        .closed_cols
        .iter()
        .for_each(|&c| open_cols &= !(1 << c));
    let free =
        |r: usize, c: usize| !board.is_blocked(r, c) && !sums[r + c] && !differences[r + n - 1 - c];
    for (i, &q) in board.queens.iter().enumerate() {
        if q.row >= n || q.col >= n {
            return Err(CompleteError::OffBoard(format!(
                "the placed queen at [{}, {}]",
                q.row, q.col
            )));
        }
        for &p in &board.queens[..i] {
            if p.row == q.row || p.col == q.col || p.row.abs_diff(q.row) == p.col.abs_diff(q.col) {
                return Err(CompleteError::Attack(p, q));
            }
        }
        let why = if board.is_blocked(q.row, q.col) {
            Some("a blocked square")
        } else if !free(q.row, q.col) {
            Some("a closed diagonal")
        } else if open_rows >> q.row & 1 == 0 {
            Some("a closed row")
        } else if open_cols >> q.col & 1 == 0 {
            Some("a closed column")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(CompleteError::Closed(q, why));
        }
    }
    let given: Vec<(usize, usize)> = board.queens.iter().map(|q| (q.row, q.col)).collect();
    for &(r, c) in &given {
        open_rows &= !(1 << r);
        open_cols &= !(1 << c);
    }
    if open_rows.count_ones() != open_cols.count_ones() {
        return Ok(None);
    }
    // The state is built on all lines, then the given queens are placed on it.
    for &(r, c) in &given {
        open_rows |= 1 << r;
        open_cols |= 1 << c;
    }
    Ok(Some(State::new(n, free, open_rows, open_cols, &given)))
}

/// Checks that `board` can be searched: the errors of [`decide`], [`count`] and [`list`].
///
/// # Errors
/// A side of 0 or above [`MAX_N`], blocked flags of the wrong size, an off-board line or
/// queen, two placed queens attacking each other, a placed queen on a blocked square or a
/// closed line.
pub fn check(board: &PartialBoard) -> Result<(), CompleteError> {
    start(board).map(|_| ())
}

/// The queens of a completion as squares, in row-major order.
fn squares(queens: &[(usize, usize)]) -> Vec<Square> {
    let mut out: Vec<Square> = queens
        .iter()
        .map(|&(row, col)| Square { row, col })
        .collect();
    out.sort_unstable();
    out
}

/// The units a decision is cut into, whatever the thread count (so that its answer and its
/// node count do not depend on the threads).
const DECIDE_UNITS: usize = 4096;

/// Finds a completion of `board`, or proves that none exists, on `options.threads` threads;
/// honours the time limit and the cancel flag of `options`. The search is cut into
/// [`CompletionUnits`] taken in order; the answer is the first completion in that order (the
/// one a single thread finds first), and the nodes are those of the units up to it, so that
/// neither depends on the threads (unless a time limit ends the search).
pub fn decide(board: &PartialBoard, options: &Options) -> Result<Decision, CompleteError> {
    let units = CompletionUnits::at_least(board, DECIDE_UNITS)?;
    let deadline = options.deadline();
    let threads = options.thread_count().clamp(1, units.len().max(1));
    let next = AtomicUsize::new(0);
    // The lowest unit known to hold a completion: units after it are not needed.
    let first_found = AtomicUsize::new(usize::MAX);
    let done = AtomicU64::new(0);
    let total = units.len() as u64;
    let worker = || {
        let mut results: Vec<(usize, UnitSearch, Option<Vec<Square>>)> = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= units.len() || i > first_found.load(Ordering::Acquire) {
                break;
            }
            let give_up = || first_found.load(Ordering::Relaxed) < i;
            let mut found = None;
            let mut visit = |queens: &[(usize, usize)]| {
                found = Some(squares(queens));
                false
            };
            let searched = units
                .search_until(i, &deadline, Some(&give_up), &mut visit)
                .unwrap_or_default();
            if found.is_some() {
                first_found.fetch_min(i, Ordering::AcqRel);
            }
            options.report(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            results.push((i, searched, found));
        }
        results
    };
    let mut results: Vec<(usize, UnitSearch, Option<Vec<Square>>)> = if threads == 1 {
        worker()
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|_| scope.spawn(worker)).collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("a decision worker panicked"))
                .collect()
        })
    };
    results.sort_unstable_by_key(|r| r.0);
    let last = first_found.load(Ordering::Acquire);
    let mut decision = Decision {
        completion: None,
        stopped: false,
        nodes: units.nodes_above(),
    };
    for (i, searched, found) in results {
        if i > last {
            break;
        }
        decision.nodes += searched.nodes;
        if found.is_some() {
            decision.completion = found;
            break;
        }
        decision.stopped |= searched.deadline_passed;
    }
    if decision.completion.is_some() {
        decision.stopped = false;
    }
    Ok(decision)
}

/// Calls `visit` on every completion of `board` (all its queens, in row-major order), in a
/// fixed order, until it returns `false`. Single-threaded.
pub fn list(
    board: &PartialBoard,
    options: &Options,
    mut visit: impl FnMut(&[Square]) -> bool,
) -> Result<Tally, CompleteError> {
    let Some(state) = start(board)? else {
        return Ok(Tally::default());
    };
    let deadline = options.deadline();
    let mut listed = 0u128;
    let mut on_completion = |queens: &[(usize, usize)]| {
        listed += 1;
        visit(&squares(queens))
    };
    let mut search = Search::new(board.n, &deadline, &mut on_completion);
    let stopped = search.run(&state);
    let nodes = search.nodes;
    drop(search);
    Ok(Tally {
        completions: listed,
        stopped,
        nodes,
        counter: false,
    })
}

/// Counts the completions of `board` on `options.threads` threads (the [`CompletionUnits`]
/// of a cut with enough units for the threads are shared among them); the count does not
/// depend on the threads. A board with nothing placed, blocked or closed is counted by the
/// N-queens counter ([`crate::count::count`], which then reports no search nodes).
pub fn count(board: &PartialBoard, options: &Options) -> Result<Tally, CompleteError> {
    if let Some(tally) = count_empty(board, options) {
        return Ok(tally);
    }
    let threads = options.thread_count();
    let units = if threads <= 1 {
        CompletionUnits::new(board, 0)?
    } else {
        CompletionUnits::at_least(board, 32 * threads)?
    };
    let deadline = options.deadline();
    let total = units.len() as u64;
    let done = AtomicU64::new(0);
    let run_unit = |i: usize| -> UnitSearch {
        let searched = units
            .search(i, &deadline, &mut |_| true)
            .unwrap_or_default();
        options.report(done.fetch_add(1, Ordering::Relaxed) + 1, total);
        searched
    };
    let below: Vec<UnitSearch> = if threads <= 1 {
        (0..units.len()).map(run_unit).collect()
    } else {
        options.run_in_pool(|| (0..units.len()).into_par_iter().map(run_unit).collect())
    };
    Ok(below.into_iter().fold(
        Tally {
            nodes: units.nodes_above(),
            ..Tally::default()
        },
        |t, u| Tally {
            completions: t.completions + u.completions,
            stopped: t.stopped || u.deadline_passed,
            nodes: t.nodes + u.nodes,
            counter: false,
        },
    ))
}

/// The count of an empty board (nothing placed, blocked or closed) by the N-queens counter,
/// where it takes the size; `None` for any other board.
fn count_empty(board: &PartialBoard, options: &Options) -> Option<Tally> {
    let empty = board.queens.is_empty()
        && !board.blocked.iter().any(|&b| b)
        && board.closed_sums.is_empty()
        && board.closed_differences.is_empty()
        && board.closed_rows.is_empty()
        && board.closed_cols.is_empty();
    let n = u32::try_from(board.n).ok()?;
    if !empty || crate::count::check_size(n).is_err() {
        return None;
    }
    let counts = crate::count::count(n, options).ok()?;
    Some(Tally {
        completions: counts.solutions,
        stopped: !counts.complete,
        nodes: 0,
        counter: true,
    })
}

/// A plain, slow counter for the tests: every row in turn, every free column.
#[cfg(test)]
fn brute_count(board: &PartialBoard) -> u128 {
    let n = board.n;
    let closed_row = |r| board.closed_rows.contains(&r);
    let closed_col = |c| board.closed_cols.contains(&c);
    let may = |r: usize, c: usize, queens: &[Square]| {
        !board.is_blocked(r, c)
            && !board.closed_sums.contains(&(r + c))
            && !board.closed_differences.contains(&(r + n - 1 - c))
            && !closed_col(c)
            && queens
                .iter()
                .all(|q| q.row != r && q.col != c && q.row.abs_diff(r) != q.col.abs_diff(c))
    };
    fn go(
        r: usize,
        n: usize,
        queens: &mut Vec<Square>,
        board: &PartialBoard,
        may: &dyn Fn(usize, usize, &[Square]) -> bool,
        closed_row: &dyn Fn(usize) -> bool,
    ) -> u128 {
        if r == n {
            return 1;
        }
        if closed_row(r) || board.queens.iter().any(|q| q.row == r) {
            return go(r + 1, n, queens, board, may, closed_row);
        }
        let mut total = 0;
        for c in 0..n {
            if may(r, c, queens) {
                queens.push(Square { row: r, col: c });
                total += go(r + 1, n, queens, board, may, closed_row);
                queens.pop();
            }
        }
        total
    }
    let open_cols = (0..n)
        .filter(|&c| !closed_col(c) && !board.queens.iter().any(|q| q.col == c))
        .count();
    let open_rows = (0..n)
        .filter(|&r| !closed_row(r) && !board.queens.iter().any(|q| q.row == r))
        .count();
    if open_rows != open_cols {
        return 0;
    }
    let mut queens = board.queens.clone();
    go(0, n, &mut queens, board, &may, &closed_row)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify;

    use crate::primitive::rng::Xorshift64 as Rng;

    /// A random board of side 1..=9: some placed queens (mutually non-attacking), blocked
    /// squares, closed diagonals, and now and then a closed row and column.
    fn random_board(rng: &mut Rng) -> PartialBoard {
        let n = 1 + rng.below(9);
        let mut board = PartialBoard::empty(n);
        let placed = rng.below(3);
        for _ in 0..placed * 3 {
            if board.queens.len() == placed {
                break;
            }
            let q = Square {
                row: rng.below(n),
                col: rng.below(n),
            };
            if board.queens.iter().all(|p| {
                p.row != q.row && p.col != q.col && p.row.abs_diff(q.row) != p.col.abs_diff(q.col)
            }) {
                board.queens.push(q);
            }
        }
        if rng.below(2) == 0 {
            board.blocked = (0..n * n).map(|_| rng.below(8) == 0).collect();
        }
        for _ in 0..rng.below(n + 1) {
            if rng.below(2) == 0 {
                board.closed_sums.push(rng.below(2 * n - 1));
            } else {
                board.closed_differences.push(rng.below(2 * n - 1));
            }
        }
        if rng.below(4) == 0 {
            board.closed_rows.push(rng.below(n));
            board.closed_cols.push(rng.below(n));
        }
        // Drop placed queens that now stand where no queen may.
        let b = board.clone();
        board.queens.retain(|q| {
            !b.is_blocked(q.row, q.col)
                && !b.closed_sums.contains(&(q.row + q.col))
                && !b.closed_differences.contains(&(q.row + n - 1 - q.col))
                && !b.closed_rows.contains(&q.row)
                && !b.closed_cols.contains(&q.col)
        });
        board
    }

    #[test]
    fn decide_count_and_list_agree_with_brute_force() {
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        let options = Options::with_threads(1);
        let two = Options::with_threads(2);
        let (mut decided, mut refuted) = (0, 0);
        for _ in 0..1500 {
            let board = random_board(&mut rng);
            let expected = brute_count(&board);
            let tally = count(&board, &options).unwrap();
            assert_eq!(tally.completions, expected, "{board:?}");
            assert!(!tally.stopped);
            assert_eq!(count(&board, &two).unwrap().completions, expected);
            let decision = decide(&board, &options).unwrap();
            assert!(!decision.stopped);
            let on_two = decide(&board, &two).unwrap();
            assert_eq!(on_two.completion, decision.completion, "{board:?}");
            assert_eq!(on_two.nodes, decision.nodes, "{board:?}");
            match &decision.completion {
                Some(queens) => {
                    decided += 1;
                    verify::completion(&board, queens).unwrap();
                }
                None => {
                    refuted += 1;
                    assert_eq!(expected, 0, "{board:?}");
                }
            }
            let mut all = Vec::new();
            let listed = list(&board, &options, |q| {
                all.push(q.to_vec());
                true
            })
            .unwrap();
            assert_eq!(listed.completions, expected);
            assert_eq!(all.len() as u128, expected);
            for queens in &all {
                verify::completion(&board, queens).unwrap();
            }
            all.sort();
            all.dedup();
            assert_eq!(all.len() as u128, expected, "a completion listed twice");
        }
        assert!(decided > 200 && refuted > 200, "{decided} {refuted}");
    }

    #[test]
    fn empty_boards_count_the_n_queens_solutions() {
        // OEIS A000170, by the N-queens counter (`count`) and by the completion search's units.
        let known = [1u128, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
        let never = crate::Deadline::never();
        for (i, &k) in known.iter().enumerate() {
            let board = PartialBoard::empty(i + 1);
            let tally = count(&board, &Options::with_threads(2)).unwrap();
            assert_eq!((tally.completions, tally.counter), (k, true));
            let units = CompletionUnits::at_least(&board, 50).unwrap();
            let searched: u128 = (0..units.len())
                .map(|u| units.count(u, &never).unwrap().0)
                .sum();
            assert_eq!(searched, k, "n = {}", i + 1);
        }
    }

    #[test]
    fn units_at_every_depth_hold_every_completion_once() {
        let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
        let never = crate::Deadline::never();
        for _ in 0..300 {
            let board = random_board(&mut rng);
            let expected = brute_count(&board);
            for depth in 0..6 {
                let units = CompletionUnits::new(&board, depth).unwrap();
                let mut seen = Vec::new();
                for u in 0..units.len() {
                    let searched = units
                        .search(u, &never, &mut |q| {
                            let mut q = q.to_vec();
                            q.sort_unstable();
                            seen.push(q);
                            true
                        })
                        .unwrap();
                    assert!(!searched.deadline_passed);
                }
                assert_eq!(seen.len() as u128, expected, "{board:?} at depth {depth}");
                seen.sort();
                seen.dedup();
                assert_eq!(seen.len() as u128, expected, "a completion in two units");
            }
            let wanted = 1 + rng.below(40);
            let units = CompletionUnits::at_least(&board, wanted).unwrap();
            let total: u128 = (0..units.len())
                .map(|u| units.count(u, &never).unwrap().0)
                .sum();
            assert_eq!(total, expected);
            // The key reads back to a board with the same completions.
            let again = PartialBoard::from_key(&board.key()).unwrap();
            assert_eq!(again.key(), board.key());
            assert_eq!(brute_count(&again), expected, "{}", board.key());
        }
    }

    #[test]
    fn keys_that_no_board_writes_are_refused() {
        for key in [
            "",
            "..",
            "../.",
            "q./.a",
            "../..|rows:2",
            "../..|rows:0|rows:1",
            "../..|cols:",
            "../..|diags:1",
            "x./..|cols:1,0",
        ] {
            assert_eq!(PartialBoard::from_key(key), None, "{key}");
        }
        let board = PartialBoard::from_key("q../..x/...|rows:2|cols:1").unwrap();
        assert_eq!(board.queens, vec![Square { row: 0, col: 0 }]);
        assert!(board.is_blocked(1, 2));
        assert_eq!(
            (board.closed_rows.as_slice(), board.closed_cols.as_slice()),
            (&[2][..], &[1][..])
        );
    }

    #[test]
    fn a_listing_stops_when_asked() {
        let board = PartialBoard::empty(8);
        let mut seen = 0;
        let tally = list(&board, &Options::default(), |_| {
            seen += 1;
            seen < 5
        })
        .unwrap();
        assert_eq!((seen, tally.completions, tally.stopped), (5, 5, true));
    }

    #[test]
    fn a_cancelled_search_says_so() {
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let options = Options {
            cancel: Some(flag),
            ..Options::default()
        };
        let board = PartialBoard::empty(30);
        assert!(count(&board, &options).unwrap().stopped);
        let decision = decide(&board, &options).unwrap();
        assert!(decision.stopped && decision.completion.is_none());
    }

    #[test]
    fn bad_boards_are_errors() {
        let mut board = PartialBoard::empty(8);
        board.queens = vec![Square { row: 0, col: 0 }, Square { row: 3, col: 3 }];
        assert!(matches!(
            decide(&board, &Options::default()),
            Err(CompleteError::Attack(..))
        ));
        board.queens = vec![Square { row: 9, col: 0 }];
        assert!(matches!(
            count(&board, &Options::default()),
            Err(CompleteError::OffBoard(_))
        ));
        assert!(matches!(
            count(&PartialBoard::empty(65), &Options::default()),
            Err(CompleteError::Size(65))
        ));
        let mut board = PartialBoard::empty(4);
        board.closed_sums = vec![7];
        assert!(count(&board, &Options::default()).is_err());
        board.closed_sums = vec![0];
        board.queens = vec![Square { row: 0, col: 0 }];
        assert!(matches!(
            count(&board, &Options::default()),
            Err(CompleteError::Closed(..))
        ));
    }

    #[test]
    fn large_boards_are_decided() {
        for n in [24, 32, 40] {
            let decision = decide(&PartialBoard::empty(n), &Options::default()).unwrap();
            verify::completion(&PartialBoard::empty(n), &decision.completion.unwrap()).unwrap();
        }
        // Every third queen of the explicit 64-queens solution given: the rest must follow.
        let mut board = PartialBoard::empty(64);
        let columns = crate::board::construction(64).unwrap();
        board.queens = (0..64)
            .step_by(3)
            .map(|row| Square::new(row, columns[row]))
            .collect();
        let decision = decide(&board, &Options::default()).unwrap();
        verify::completion(&board, &decision.completion.unwrap()).unwrap();
    }
}
