//! Fewest queen moves from any N queens on an N x N board to a non-attacking position, under
//! the real rule: a queen slides along a row, column or diagonal and never passes over or lands
//! on another queen ([`solve`]), and the judges' relaxed count that ignores blocking
//! ([`relaxed`]).
//!
//! ```
//! use queens::board::Square;
//! use queens::repair::{solve, Position};
//! // Four queens on the first row of a 4 x 4 board.
//! let start = Position { n: 4, queens: (0..4).map(|c| Square::new(0, c)).collect() };
//! let answer = solve(&start, &queens::Options::default()).unwrap();
//! assert!(answer.optimal && answer.moves >= answer.relaxed);
//! assert!(queens::verify::repair(&start, &answer.plan, &answer.final_queens).is_ok());
//! ```

use crate::board::Square;
pub use crate::problem::{Move, Position};

mod cheapest;
mod cover;
mod dfs;
mod fallback;
mod lagrange;
mod search;
mod square;
mod stays;
mod targets;

use crate::board::MAX_SIDE;
use crate::options::SearchEvent;
use crate::Options;
use dfs::Mode;
use square::Sq;
use thiserror::Error;

/// Why a position cannot be repaired.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RepairError {
    /// The side is 0 or larger than [`MAX_SIDE`].
    #[error("a {n}x{n} board is not supported: the side must be from 1 to {MAX_SIDE}")]
    UnsupportedSize {
        /// The side given.
        n: usize,
    },
    /// The position does not hold exactly N queens.
    #[error("{found} queens on the {n}x{n} board, where {n} are required")]
    WrongQueenCount {
        /// Side length.
        n: usize,
        /// Queens given.
        found: usize,
    },
    /// A queen stands off the board.
    #[error("the queen on [{}, {}] is off the {n}x{n} board", .square.row, .square.col)]
    OffBoard {
        /// Side length.
        n: usize,
        /// The queen's square.
        square: Square,
    },
    /// Two queens stand on one square.
    #[error("two queens on [{}, {}]", .square.row, .square.col)]
    SameSquare {
        /// The square.
        square: Square,
    },
    /// No N non-attacking queens exist on this board (N = 2 or 3).
    #[error("no placement of {n} non-attacking queens exists on a {n}x{n} board")]
    NoPlacement {
        /// The side given.
        n: usize,
    },
}

/// The relaxed answer (blocking ignored, as the judges compute it): the fewest moves when every
/// queen reaches a square on its lines in one move and any other square in two.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relaxed {
    /// The relaxed move count (the best found when `optimal` is false).
    pub value: usize,
    /// Whether `value` is proven minimal (false only when the deadline stopped the search).
    pub optimal: bool,
    /// The N-queens solution reached, in row order.
    pub target: Vec<Square>,
    /// Each queen's square paired with its square in `target`, sorted; a queen counts 0 if the
    /// two are equal, 1 if they share a line, 2 otherwise, and the counts add up to `value`.
    pub assignment: Vec<(Square, Square)>,
}

/// A repair plan: legal moves, in order, from the position to a non-attacking one.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Repair {
    /// Side length.
    pub n: usize,
    /// Number of moves in `plan`; the true minimum when `optimal` is true.
    pub moves: usize,
    /// The relaxed value (blocking ignored), a lower bound on the true minimum.
    pub relaxed: usize,
    /// Whether `relaxed` is proven (false only when the deadline stopped its search).
    pub relaxed_optimal: bool,
    /// Whether `moves` is proven minimal under the real rule.
    pub optimal: bool,
    /// A proven lower bound on the true minimum (equal to `moves` when `optimal`).
    pub lower_bound: usize,
    /// The moves, each legal in the position left by the ones before it.
    pub plan: Vec<Move>,
    /// The queens after the plan: a solution of the N-queens problem, in row-major order.
    pub final_queens: Vec<Square>,
    /// Search nodes visited by the real-move search (for benchmarks).
    pub nodes: u64,
}

/// Nodes allowed to the first search aimed at the relaxed target alone.
const AIMED_NODES: u64 = 2_000;

fn to_sq(s: Square) -> Sq {
    (s.row as u8, s.col as u8)
}

fn to_square(s: Sq) -> Square {
    Square::new(s.0 as usize, s.1 as usize)
}

fn cols_to_squares(cols: &[u8]) -> Vec<Square> {
    cols.iter()
        .enumerate()
        .map(|(r, &c)| Square::new(r, c as usize))
        .collect()
}

/// Checks the position and returns its queens, sorted; `Ok(None)` for N = 1.
fn checked(position: &Position) -> Result<Option<Vec<Sq>>, RepairError> {
    let n = position.n;
    if n == 0 || n > MAX_SIDE {
        return Err(RepairError::UnsupportedSize { n });
    }
    if position.queens.len() != n {
        return Err(RepairError::WrongQueenCount {
            n,
            found: position.queens.len(),
        });
    }
    let mut queens = Vec::with_capacity(n);
    for &square in &position.queens {
        if square.row >= n || square.col >= n {
            return Err(RepairError::OffBoard { n, square });
        }
        queens.push(to_sq(square));
    }
    queens.sort_unstable();
    if let Some(w) = queens.windows(2).find(|w| w[0] == w[1]) {
        return Err(RepairError::SameSquare {
            square: to_square(w[0]),
        });
    }
    match n {
        1 => Ok(None),
        2 | 3 => Err(RepairError::NoPlacement { n }),
        _ => Ok(Some(queens)),
    }
}

/// The relaxed value R (what the judges compute): the minimum, over all N-queens solutions and
/// all queen-to-square assignments, of the sum of 0 (stays), 1 (shares a line with its square)
/// or 2 (anything else). Exact unless `options` stop the search first (`optimal` says which).
///
/// # Errors
/// As [`solve`].
pub fn relaxed(position: &Position, options: &Options) -> Result<Relaxed, RepairError> {
    let Some(queens) = checked(position)? else {
        return Ok(Relaxed {
            value: 0,
            optimal: true,
            target: position.queens.clone(),
            assignment: vec![(position.queens[0], position.queens[0])],
        });
    };
    let n = position.n;
    let deadline = options.deadline();
    let parallel = options.threads != 1;
    let report = |lower: u32, upper: u32| report_bounds(options, lower, upper);
    let found =
        options.run_in_pool(|| cheapest::cheapest(n, &queens, &deadline, None, parallel, &report));
    let cols = match found.best {
        Some((_, cols)) => cols,
        None => targets::explicit_solution(n).expect("n >= 4"),
    };
    let (value, pairs) = targets::cost_with_assignment(&queens, &cols);
    Ok(Relaxed {
        value: value as usize,
        optimal: found.complete,
        target: cols_to_squares(&cols),
        assignment: pairs
            .into_iter()
            .map(|(a, b)| (to_square(a), to_square(b)))
            .collect(),
    })
}

/// A proven lower bound on the relaxed value R (and so on the true minimum), without the proof
/// passes of [`relaxed`]. For sides up to 10 it is R itself (every solution is scored). Larger
/// boards: the best of three bounds. Every queen that does not stay moves at least once, and
/// the queens that stay attack no one another, so `R >= n - alpha` with `alpha` the size of a
/// largest set of mutually non-attacking queens (computed exactly); at least the queens beyond
/// the first on each row, column or diagonal of one family; and the Lagrangian bound (prices on
/// the columns and diagonals of the target, an exact assignment of the queens to the rows,
/// subgradient steps aimed at the cost of a target from a short search). It takes a fraction
/// of a second on 64 x 64 boards.
///
/// # Errors
/// As [`solve`].
pub fn lower_bound(position: &Position) -> Result<usize, RepairError> {
    let Some(queens) = checked(position)? else {
        return Ok(0);
    };
    Ok(cheapest::proven_bound(position.n, &queens) as usize)
}

/// The fewest real queen moves (a queen never passes over or lands on another) from `position`
/// to N non-attacking queens, with the moves. The plan always replays legally; when `options`
/// stop the search early, it is the best plan found, `optimal` is false and `lower_bound` is
/// proven.
///
/// Method: the relaxed value R is a lower bound; plans of R, R + 1, ... moves are searched in
/// turn (depth-first over real moves, pruned by the relaxed cost to the solutions still within
/// reach), starting from a quick greedy plan as the upper bound.
///
/// # Errors
/// [`RepairError::UnsupportedSize`] for a side of 0 or above [`MAX_SIDE`];
/// [`RepairError::WrongQueenCount`], [`RepairError::OffBoard`] or [`RepairError::SameSquare`]
/// when the position is not N queens on distinct squares of the board;
/// [`RepairError::NoPlacement`] for N = 2 and 3.
pub fn solve(position: &Position, options: &Options) -> Result<Repair, RepairError> {
    let Some(queens) = checked(position)? else {
        return Ok(Repair {
            n: 1,
            moves: 0,
            relaxed: 0,
            relaxed_optimal: true,
            optimal: true,
            lower_bound: 0,
            plan: Vec::new(),
            final_queens: position.queens.clone(),
            nodes: 0,
        });
    };
    let deadline = options.deadline();
    let parallel = options.threads != 1;
    options.run_in_pool(|| plan_from(position, &queens, &deadline, parallel, options))
}

/// [`solve`] for a checked position of side at least 4, on the caller's rayon pool.
fn plan_from(
    position: &Position,
    queens: &[Sq],
    deadline: &crate::Deadline,
    parallel: bool,
    options: &Options,
) -> Result<Repair, RepairError> {
    let n = position.n;
    let queens = queens.to_vec();
    let report = |lower: u32, upper: u32| report_bounds(options, lower, upper);
    // Half the time limit may go to improving the target when the gap is wide.
    let half = options.time_limit.map(|limit| {
        Options {
            time_limit: Some(limit / 2),
            cancel: options.cancel.clone(),
            ..Options::default()
        }
        .deadline()
    });
    let found = cheapest::cheapest(n, &queens, deadline, half.as_ref(), parallel, &report);
    let relaxed_complete = found.complete;
    let relaxed_lower = found.lower;
    let explicit = targets::explicit_solution(n).expect("n >= 4");
    let best_cols = match found.best {
        Some((_, cols)) => cols,
        None => explicit.clone(),
    };
    let (relaxed_value, pairs) = targets::cost_with_assignment(&queens, &best_cols);

    // An upper bound: the relaxed assignment scheduled legally move for move, or else a greedy
    // legal plan to the relaxed target (or another solution).
    let mut best_plan = fallback::schedule(n, &queens, &pairs)
        .or_else(|| fallback::plan_to(n, &queens, &best_cols))
        .or_else(|| fallback::plan_to(n, &queens, &explicit));
    if best_plan.is_none() {
        // Any solution will do; the greedy method almost never needs this.
        let limit = 2 * n as u32;
        let never = crate::Deadline::never();
        let any = dfs::search(n, &queens, limit, Mode::All, &never, parallel);
        best_plan = any
            .solutions
            .iter()
            .take(64)
            .find_map(|(_, cols)| fallback::plan_to(n, &queens, cols));
    }
    let mut lower = if relaxed_complete {
        relaxed_value
    } else {
        relaxed_lower
    };
    let mut nodes = 0;
    let mut proven = false;
    // `lower` is proven; `budget` runs ahead of it only in the (never observed) case where no
    // legal plan is known yet and a refutation could not be trusted.
    let mut budget = lower;
    loop {
        let upper = best_plan.as_ref().map_or(u32::MAX, |p| p.len() as u32);
        if lower >= upper {
            proven = true;
            break;
        }
        if best_plan.is_some() && (!relaxed_complete || deadline.reached() || budget >= upper) {
            break;
        }
        let stop = if best_plan.is_some() {
            deadline.clone()
        } else {
            crate::Deadline::never()
        };
        if budget == relaxed_value {
            // Most positions have a plan of R moves to the relaxed target itself: a short
            // search aimed at it alone usually finds one, and then it is optimal.
            let aimed = std::slice::from_ref(&best_cols);
            let (outcome, visited) = search::within(n, &queens, aimed, budget, &stop, AIMED_NODES);
            nodes += visited;
            if let search::Outcome::Found(path) = outcome {
                best_plan = Some(path);
                proven = budget == lower;
                break;
            }
        }
        let reach = dfs::search(n, &queens, budget, Mode::All, &stop, parallel);
        let cols: Vec<Vec<u8>> = reach.solutions.into_iter().map(|(_, c)| c).collect();
        let (outcome, visited) = search::within(n, &queens, &cols, budget, &stop, u64::MAX);
        nodes += visited;
        match outcome {
            search::Outcome::Found(path) => {
                best_plan = Some(path);
                // Every smaller budget was refuted (or is below R): the plan is shortest.
                proven = budget == lower;
                break;
            }
            search::Outcome::Refuted if reach.complete && budget == lower => {
                lower += 1;
                budget += 1;
            }
            _ if best_plan.is_none() => budget += 1,
            _ => break,
        }
    }
    let path = best_plan.expect("a plan exists for n >= 4");
    let mut board: Vec<Sq> = queens.clone();
    for &(from, to) in &path {
        let k = board
            .iter()
            .position(|&q| q == from)
            .expect("plan moves a queen");
        board[k] = to;
    }
    board.sort_unstable();
    let moves = path.len();
    let optimal = proven && moves as u32 <= lower;
    Ok(Repair {
        n,
        moves,
        relaxed: relaxed_value as usize,
        relaxed_optimal: relaxed_complete,
        optimal,
        lower_bound: if optimal { moves } else { lower as usize },
        plan: search::to_moves(&path),
        final_queens: board.into_iter().map(to_square).collect(),
        nodes,
    })
}
/// Reports the proven lower bound and the best plan's moves (`u32::MAX`: no plan yet, the
/// search's own marker) as a [`SearchEvent::Bounds`].
fn report_bounds(options: &Options, lower: u32, upper: u32) {
    options.report_search(SearchEvent::Bounds {
        lower: lower.into(),
        best: (upper < u32::MAX).then_some(upper.into()),
    });
}
