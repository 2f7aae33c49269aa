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
mod local;
mod search;

use crate::board::{Square, MAX_SIDE};
pub use crate::problem::MarkGrid;
use crate::Options;
use search::{Board, Level};
use std::sync::atomic::{AtomicU64, Ordering};
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

/// Where a proven lower bound comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoundSource {
    /// The exhaustive search refuted every smaller number (or the bound is trivial).
    Search,
    /// A published theorem, named (e.g. `"Spencer"`: a full n x n board needs at least
    /// `(n - 1) / 2` queens).
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
    check_size(marks)?;
    let (rows, cols) = (marks.rows, marks.cols);
    let independent = rule == Rule::Independent;
    let Outcome {
        queens,
        optimal,
        lower_bound,
        lower_bound_source,
        nodes,
    } = with_words!(rows * cols, run, marks, independent, options);
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

/// Iterative deepening from the root bound up to one below the greedy cover's size. With a time
/// limit, the exact search gets three quarters of it; if it does not finish, the rest goes to a
/// local search for a smaller cover than the greedy one.
fn run<const K: usize>(marks: &MarkGrid, independent: bool, options: &Options) -> Outcome {
    let deadline = options.deadline();
    let exact_deadline = match options.time_limit {
        Some(limit) => Options {
            time_limit: Some(limit.mul_f64(0.75)),
            ..options.clone()
        }
        .deadline(),
        None => deadline.clone(),
    };
    let board = Board::<K>::new(marks.rows, marks.cols, &marks.marked, independent);
    let greedy = board.greedy();
    let nodes = AtomicU64::new(0);
    let mut k = board.root_bound();
    let mut theorem = None;
    if marks.rows == marks.cols && marks.marked.iter().all(|&m| m) && marks.rows / 2 > k {
        // Spencer's theorem: a full n x n board needs at least (n - 1) / 2 queens, rounded up
        // (independent ones at least as many). Tested against A075458 for n <= 25.
        k = marks.rows / 2;
        theorem = Some(k);
    }
    let (queens, optimal, lower_bound) = options.run_in_pool(|| {
        while k < greedy.len() {
            options.report(k as u64, greedy.len() as u64);
            match board.level(k, &exact_deadline, &nodes) {
                Level::Found(queens) => return (queens, true, k),
                Level::Infeasible => k += 1,
                Level::Stopped => {
                    let better = local::improve(&board, &greedy, k, &deadline, u64::MAX);
                    let covers = board.marks.is_subset(
                        &better
                            .iter()
                            .fold(search::Bits::EMPTY, |acc, &q| acc.or(&board.attack[q])),
                    );
                    let queens = if covers { better } else { greedy.clone() };
                    let optimal = queens.len() <= k;
                    return (queens, optimal, k);
                }
            }
        }
        (greedy.clone(), true, greedy.len())
    });
    let lower_bound = if optimal { queens.len() } else { lower_bound };
    let lower_bound_source = match theorem {
        Some(start) if start == lower_bound => BoundSource::Theorem("Spencer"),
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
