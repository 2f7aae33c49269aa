//! Fewest guards: the fewest queens that occupy or attack every marked square of an n x m board
//! (with every square marked, the queen domination number). Queens may stand on any square and
//! do not block one another's lines. The independent variant also requires that no two queens
//! attack each other.
//!
//! ```
//! use queens::guard::{cover, MarkGrid};
//! let placement = cover(&MarkGrid::full(8, 8), &queens::Options::default()).unwrap();
//! assert_eq!(placement.queens.len(), 5);
//! assert!(placement.optimal);
//! ```

mod bits;
mod frontier;
mod local;
mod measure;
mod search;
mod witness;

use crate::board::{Square, MAX_SIDE};
use crate::options::SearchEvent;
pub use crate::problem::MarkGrid;
use crate::Options;
use search::{Board, Level};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use thiserror::Error;

/// The largest number of rows and of columns [`solve`] accepts.
pub const MAX_GUARD_SIDE: usize = MAX_SIDE;

/// Which queen sets count as guards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rule {
    /// Any set of queens on distinct squares (the domination number).
    #[default]
    Any,
    /// Queens that do not attack one another (the independent domination number).
    Independent,
}

impl Rule {
    /// [`Rule::Independent`] when `independent`, else [`Rule::Any`] (the one conversion of an
    /// `--independent` flag).
    pub fn from_independent(independent: bool) -> Rule {
        if independent {
            Rule::Independent
        } else {
            Rule::Any
        }
    }
}

/// Choices of the guard search that [`Options`] (threads, time, cancel, progress) does not
/// cover. `GuardOptions::default()`: published theorems may supply lower bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GuardOptions {
    /// Start fully marked boards from the published lower bounds of [`full_board_bound`]
    /// (`true` by default). With `false` every bound is proven by the exhaustive search
    /// (`lower_bound_source` is then always [`BoundSource::Search`]).
    pub theorems: bool,
}

impl Default for GuardOptions {
    fn default() -> Self {
        GuardOptions { theorems: true }
    }
}

impl GuardOptions {
    /// Every bound proven by search, none taken from a theorem.
    pub fn without_theorems() -> Self {
        GuardOptions { theorems: false }
    }
}

/// The strongest published lower bound on the queens needed to guard a fully marked
/// `rows x cols` board (for either rule: independent guards are guards), with its source:
///
/// - square boards, n other than 3 and 11: at least ceil(n / 2) (Finozhenok and Weakley 2007,
///   as OEIS A075458 states it);
/// - n = 3 and 11: at least ceil((n - 1) / 2) (Spencer);
/// - m x n with m < n: at least min(m, ceil((m + n - 2) / 4)) (Bozoki, Gal, Marosi and Weakley
///   2019).
///
/// `None` when the bound is 0 (it says nothing). The tests check every bound against every
/// value they know.
///
/// ```
/// use queens::guard::{full_board_bound, BoundSource};
/// assert_eq!(full_board_bound(25, 25), Some((13, BoundSource::Theorem("Finozhenok and Weakley 2007"))));
/// assert_eq!(full_board_bound(11, 11), Some((5, BoundSource::Theorem("Spencer"))));
/// ```
pub fn full_board_bound(rows: usize, cols: usize) -> Option<(usize, BoundSource)> {
    let (m, n) = (rows.min(cols), rows.max(cols));
    let (bound, source) = if m == n {
        if n == 3 || n == 11 {
            (n / 2, "Spencer")
        } else {
            (n.div_ceil(2), "Finozhenok and Weakley 2007")
        }
    } else {
        (
            m.min((m + n).saturating_sub(2).div_ceil(4)),
            "Bozoki, Gal, Marosi and Weakley 2019",
        )
    };
    (bound > 0).then_some((bound, BoundSource::Theorem(source)))
}

/// Where a proven lower bound comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoundSource {
    /// The exhaustive search refuted every smaller number (or the bound is trivial).
    Search,
    /// A published theorem, named (e.g. `"Spencer"`: a full n x n board needs at least
    /// `(n - 1) / 2` queens, rounded up); see [`full_board_bound`].
    Theorem(&'static str),
}

impl std::fmt::Display for BoundSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoundSource::Search => f.write_str("search"),
            BoundSource::Theorem(name) => write!(f, "theorem: {name}"),
        }
    }
}

/// A guarding set of queens with its proof status.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GuardSet {
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// The queens, sorted by square; every marked square holds one or shares a line with one.
    pub queens: Vec<Square>,
    /// Whether no smaller placement exists (proven by exhaustive search).
    pub optimal: bool,
    /// A proven lower bound on the number of queens; equals `queens.len()` when optimal.
    pub lower_bound: usize,
    /// Where `lower_bound` comes from.
    pub lower_bound_source: BoundSource,
    /// Whether the queens were required not to attack one another.
    pub independent: bool,
    /// Search nodes visited (statistics; may vary with the thread count).
    pub nodes: u64,
}

/// Why [`solve`] could not start.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum GuardError {
    /// The board is outside the supported sizes.
    #[error("a {rows}x{cols} board is not supported: rows and columns must be from 1 to {max}")]
    UnsupportedSize {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
        /// The largest side supported.
        max: usize,
    },
    /// A sharded refutation's cut would give too many units ([`units::RefutationUnits`]).
    #[error("cutting the search {depth} levels below the root gives too many units (at most {} and depth 6); choose a smaller depth", units::MAX_UNITS)]
    TooManyUnits {
        /// The depth asked for.
        depth: usize,
    },
    /// A refutation of more queens than the board has squares.
    #[error("{queens} queens do not fit on a board of {squares} squares")]
    TooManyQueens {
        /// The queens asked for.
        queens: usize,
        /// The board's squares.
        squares: usize,
    },
    /// `marked` does not have `rows * cols` entries.
    #[error("the mark grid has {found} squares where {rows}x{cols} needs {}", rows * cols)]
    Malformed {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
        /// Length of `marked`.
        found: usize,
    },
}

/// Calls `$f::<K>(args..)` with `K` the number of 64-bit words a bitset of `$squares` needs
/// (rounded up to one of the sizes compiled).
macro_rules! with_words {
    ($squares:expr, $f:ident, $($arg:expr),*) => {
        match ($squares).div_ceil(64) {
            1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            3 => $f::<3>($($arg),*),
            4 => $f::<4>($($arg),*),
            5..=6 => $f::<6>($($arg),*),
            7..=8 => $f::<8>($($arg),*),
            9..=16 => $f::<16>($($arg),*),
            17..=32 => $f::<32>($($arg),*),
            _ => $f::<64>($($arg),*),
        }
    };
}

pub mod units;

/// Refuses boards outside 1..=64 x 1..=64 and flag vectors of the wrong length.
fn check_size(marks: &MarkGrid) -> Result<(), GuardError> {
    let (rows, cols) = (marks.rows, marks.cols);
    if rows == 0 || cols == 0 || rows > MAX_GUARD_SIDE || cols > MAX_GUARD_SIDE {
        return Err(GuardError::UnsupportedSize {
            rows,
            cols,
            max: MAX_GUARD_SIDE,
        });
    }
    if marks.marked.len() != rows * cols {
        return Err(GuardError::Malformed {
            rows,
            cols,
            found: marks.marked.len(),
        });
    }
    Ok(())
}

/// How many minimum guard sets a board has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MinimumSets {
    /// The fewest queens that guard the marks (proven).
    pub queens: usize,
    /// The number of distinct sets of that many squares that guard the marks (non-attacking
    /// ones under the independent rule); 1 for a board without marks (the empty set).
    pub sets: u128,
}

/// The fewest guards and the number of guard sets of that size (e.g. 4860 for the full 8 x 8
/// board, OEIS A002564). `Ok(None)` when the time limit or cancel flag stops the work first
/// (the time limit applies to finding the minimum and to counting, each). The count does not
/// depend on the thread count.
///
/// # Errors
/// As [`solve`].
pub fn count_minimum(
    marks: &MarkGrid,
    rule: Rule,
    options: &Options,
) -> Result<Option<MinimumSets>, GuardError> {
    check_size(marks)?;
    let placement = solve(marks, rule, options)?;
    if !placement.optimal {
        return Ok(None);
    }
    let queens = placement.queens.len();
    let sets = with_words!(
        marks.rows * marks.cols,
        count_sets,
        marks,
        rule == Rule::Independent,
        queens,
        options
    );
    Ok(sets.map(|sets| MinimumSets { queens, sets }))
}

/// The number of covers with `k` queens, `k` being the minimum.
fn count_sets<const K: usize>(
    marks: &MarkGrid,
    independent: bool,
    k: usize,
    options: &Options,
) -> Option<u128> {
    let deadline = options.deadline();
    let board = Board::<K>::new(marks.rows, marks.cols, &marks.marked, independent);
    let nodes = AtomicU64::new(0);
    options.run_in_pool(|| board.count_level(k, &deadline, &nodes))
}

/// The fewest queens, on any squares, that occupy or attack every marked square.
///
/// Returns an optimal placement (`optimal == true`) unless the options' time limit or cancel
/// flag stops the search first; then the best placement found (at worst the greedy one) with
/// `optimal == false` and a proven `lower_bound`. The placement does not depend on the thread
/// count when the search is not stopped. Progress, if the options ask for it, is reported as
/// `(k, greedy)` when the search for a cover with `k` queens starts, `greedy` being the size of
/// the fallback cover.
///
/// # Errors
/// [`GuardError::UnsupportedSize`] for a side of 0 or above [`MAX_GUARD_SIDE`];
/// [`GuardError::Malformed`] when `marked` does not hold `rows * cols` flags.
pub fn cover(marks: &MarkGrid, options: &Options) -> Result<GuardSet, GuardError> {
    solve(marks, Rule::Any, options)
}

/// The fewest mutually non-attacking queens that occupy or attack every marked square; the same
/// promises as [`cover`].
///
/// # Errors
/// As [`cover`].
pub fn cover_independent(marks: &MarkGrid, options: &Options) -> Result<GuardSet, GuardError> {
    solve(marks, Rule::Independent, options)
}

/// [`cover`] or [`cover_independent`] according to `rule`.
///
/// ```
/// use queens::guard::{solve, MarkGrid, Rule};
/// let answer = solve(&MarkGrid::full(4, 6), Rule::Independent, &queens::Options::default());
/// let answer = answer.unwrap();
/// assert!(answer.optimal && answer.independent);
/// assert!(queens::verify::independent_guard(&MarkGrid::full(4, 6), &answer.queens).is_ok());
/// ```
///
/// # Errors
/// As [`cover`].
pub fn solve(marks: &MarkGrid, rule: Rule, options: &Options) -> Result<GuardSet, GuardError> {
    solve_with(marks, rule, &GuardOptions::default(), options)
}

/// [`solve`] with the guard search's own choices (e.g. [`GuardOptions::without_theorems`]).
///
/// ```
/// use queens::guard::{solve_with, BoundSource, GuardOptions, MarkGrid, Rule};
/// let marks = MarkGrid::full(9, 9);
/// let options = queens::Options::default();
/// let cited = solve_with(&marks, Rule::Any, &GuardOptions::default(), &options).unwrap();
/// assert_eq!(cited.lower_bound_source, BoundSource::Theorem("Finozhenok and Weakley 2007"));
/// let searched = solve_with(&marks, Rule::Any, &GuardOptions::without_theorems(), &options);
/// let searched = searched.unwrap();
/// assert_eq!((searched.queens.len(), searched.lower_bound_source), (5, BoundSource::Search));
/// ```
///
/// # Errors
/// As [`cover`].
pub fn solve_with(
    marks: &MarkGrid,
    rule: Rule,
    guard: &GuardOptions,
    options: &Options,
) -> Result<GuardSet, GuardError> {
    check_size(marks)?;
    let (rows, cols) = (marks.rows, marks.cols);
    let independent = rule == Rule::Independent;
    let Outcome {
        queens,
        optimal,
        lower_bound,
        lower_bound_source,
        nodes,
    } = with_words!(rows * cols, run, marks, independent, guard, options);
    let mut queens: Vec<Square> = queens
        .into_iter()
        .map(|s| Square::new(s / cols, s % cols))
        .collect();
    queens.sort();
    Ok(GuardSet {
        rows,
        cols,
        queens,
        optimal,
        lower_bound,
        lower_bound_source,
        independent,
        nodes,
    })
}

/// What [`run`] found, on square indices.
struct Outcome {
    queens: Vec<usize>,
    optimal: bool,
    lower_bound: usize,
    lower_bound_source: BoundSource,
    nodes: u64,
}

/// Boards from this many squares on (15 x 15) look for a witness of the theorem's bound before
/// the exact search (which takes tens of seconds there).
const WITNESS_SQUARES: usize = 225;

/// How long the witness search may take when no time limit is given, from 19 x 19 on (where
/// the exact search cannot settle the theorem's bound itself).
const WITNESS_BUDGET: Duration = Duration::from_secs(120);

/// The same below 19 x 19 squares, where the exact search can finish and a witness search that
/// fails (the theorem's bound is below the answer, as on most rectangles) only costs time.
const WITNESS_BUDGET_SMALL: Duration = Duration::from_secs(10);

/// Boards from this many squares on (19 x 19) get [`WITNESS_BUDGET`].
const WITNESS_LARGE_SQUARES: usize = 361;

/// Boards from this many squares on (10 x 10) run [`UPPER_STEPS`] of the local search for a
/// smaller cover than the greedy one before the exact search.
const UPPER_SQUARES: usize = 100;

/// Swaps of that local search (well under a second).
const UPPER_STEPS: u64 = 200_000;

/// Whether `queens` cover the board's marks.
fn covers<const K: usize>(board: &Board<K>, queens: &[usize]) -> bool {
    board.marks.is_subset(
        &queens
            .iter()
            .fold(search::Bits::EMPTY, |acc, &q| acc.or(&board.attack[q])),
    )
}

/// Swaps of the local search in the witness search.
const WITNESS_LOCAL_STEPS: u64 = 50_000_000;

/// Iterative deepening from the root bound (or a theorem's, see [`full_board_bound`]) up to one
/// below the size of the best cover known (the greedy one, or on a large full board a witness
/// from [`witness::find`]). With a time limit, the exact search gets three quarters of it; if
/// it does not finish, the rest goes to a local search for a smaller cover.
fn run<const K: usize>(
    marks: &MarkGrid,
    independent: bool,
    guard: &GuardOptions,
    options: &Options,
) -> Outcome {
    let deadline = options.deadline();
    let started = Instant::now();
    let exact_deadline = match options.time_limit {
        Some(limit) => Options {
            time_limit: Some(limit.mul_f64(0.75)),
            ..options.clone()
        }
        .deadline(),
        None => deadline.clone(),
    };
    let board = Board::<K>::new(marks.rows, marks.cols, &marks.marked, independent);
    let mut upper = board.greedy();
    let nodes = AtomicU64::new(0);
    let mut k = board.root_bound();
    let mut theorem = None;
    let full = marks.marked.iter().all(|&m| m);
    if guard.theorems && full {
        if let Some((bound, source)) = full_board_bound(marks.rows, marks.cols) {
            if bound > k {
                k = bound;
                theorem = Some((bound, source));
            }
        }
    }
    if theorem.is_some() && board.squares >= WITNESS_SQUARES && k < upper.len() {
        // A witness of the theorem's bound proves the answer at once; one of the next size
        // leaves a single level to refute.
        let budget = match options.time_limit {
            Some(limit) => limit.mul_f64(0.7),
            None if board.squares >= WITNESS_LARGE_SQUARES => WITNESS_BUDGET,
            None => WITNESS_BUDGET_SMALL,
        };
        // Three quarters of the budget for the bound itself, the rest for one more queen.
        for (target, share) in [(k, budget.mul_f64(0.75)), (k + 1, budget)] {
            if target >= upper.len() {
                break;
            }
            let left = share.saturating_sub(started.elapsed());
            if let Some((cover, _)) =
                witness::find(&board, &upper, target, &deadline, left, WITNESS_LOCAL_STEPS)
            {
                upper = cover;
                break;
            }
        }
    }
    if board.squares >= UPPER_SQUARES && k + 1 < upper.len() && !deadline.reached() {
        // A short local search for a smaller cover first: where it finds one of the answer's
        // size the exact search only refutes the sizes below, instead of also searching, depth
        // first, for a cover that can be rare. A fixed number of steps keeps it repeatable.
        let better = local::improve(&board, &upper, k, &deadline, None, UPPER_STEPS);
        if better.len() < upper.len() && covers(&board, &better) {
            upper = better;
        }
    }
    let (queens, optimal, lower_bound) = options.run_in_pool(|| {
        while k < upper.len() {
            options.report_search(SearchEvent::Level {
                k: k as u64,
                best: upper.len() as u64,
            });
            match board.level(k, &exact_deadline, &nodes) {
                Level::Found(queens) => return (queens, true, k),
                Level::Infeasible => k += 1,
                Level::Stopped => {
                    let better = local::improve(&board, &upper, k, &deadline, None, u64::MAX);
                    let queens = if covers(&board, &better) {
                        better
                    } else {
                        upper.clone()
                    };
                    let optimal = queens.len() <= k;
                    return (queens, optimal, k);
                }
            }
        }
        (upper.clone(), true, upper.len())
    });
    let lower_bound = if optimal { queens.len() } else { lower_bound };
    let lower_bound_source = match theorem {
        Some((start, source)) if start == lower_bound => source,
        _ => BoundSource::Search,
    };
    Outcome {
        queens,
        optimal,
        lower_bound,
        lower_bound_source,
        nodes: nodes.load(Ordering::Relaxed),
    }
}
