//! Independent checks of certificates. This module shares nothing with the solvers but the
//! board geometry and the plain input types; it is written to be obviously right, not fast
//! (quadratic loops, no bitboards). It checks what an answer claims to *be* (a valid placement,
//! a legal move sequence, a covering), never that it is optimal.

use crate::board::{share_line, squares_between, Square};
use crate::problem::{MarkGrid, Move, PartialBoard, Position, WeightGrid};
use thiserror::Error;

/// The first thing wrong with a certificate.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Violation {
    /// A queen stands outside the board.
    #[error("queen {index} at [{}, {}] is off the {rows}x{cols} board", .square.row, .square.col)]
    OffBoard {
        /// Position of the queen in the list.
        index: usize,
        /// Its square.
        square: Square,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// Two queens on one square.
    #[error("two queens on [{}, {}]", .0.row, .0.col)]
    SameSquare(Square),
    /// Two queens share a line.
    #[error("queens at [{}, {}] and [{}, {}] attack each other", .0.row, .0.col, .1.row, .1.col)]
    Attack(Square, Square),
    /// The number of queens is not what the problem asks for.
    #[error("{found} queens where {expected} are required")]
    WrongCount {
        /// Required number.
        expected: usize,
        /// Number given.
        found: usize,
    },
    /// The claimed value does not match the certificate.
    #[error("claimed {claimed} but the certificate gives {actual}")]
    WrongValue {
        /// What the answer says.
        claimed: i128,
        /// What the certificate adds up to.
        actual: i128,
    },
    /// A move starts from a square without a queen.
    #[error("move {index}: no queen on [{}, {}]", .from.row, .from.col)]
    NoQueen {
        /// 1-based move number.
        index: usize,
        /// The empty square.
        from: Square,
    },
    /// A move is not along a row, column or diagonal.
    #[error("move {index}: [{}, {}] to [{}, {}] is not a straight queen line", .from.row, .from.col, .to.row, .to.col)]
    NotALine {
        /// 1-based move number.
        index: usize,
        /// Start square.
        from: Square,
        /// End square.
        to: Square,
    },
    /// A move passes over or lands on a queen.
    #[error("move {index}: blocked by the queen on [{}, {}]", .at.row, .at.col)]
    Blocked {
        /// 1-based move number.
        index: usize,
        /// The blocking queen.
        at: Square,
    },
    /// The position after the plan differs from the claimed final position.
    #[error("after the plan the queens are not where the answer says (e.g. [{}, {}])", .0.row, .0.col)]
    FinalMismatch(Square),
    /// A marked square is neither occupied nor attacked.
    #[error("marked square [{}, {}] is not guarded", .0.row, .0.col)]
    Unguarded(Square),
    /// A solution in a list appears a second time.
    #[error("the same solution as number {first}")]
    Duplicate {
        /// 1-based place of its first appearance in the list.
        first: usize,
    },
    /// A placed queen of a completion's input is missing from the completion.
    #[error("the placed queen at [{}, {}] is missing", .0.row, .0.col)]
    MissingPlaced(Square),
    /// A new queen stands where the input allows none.
    #[error("the queen at [{}, {}] stands on {}", .0.row, .0.col, .1)]
    Forbidden(Square, &'static str),
    /// An open row or column of a completion's input holds no queen.
    #[error("{0} holds no queen")]
    Empty(String),
}

fn on_board(queens: &[Square], rows: usize, cols: usize) -> Result<(), Violation> {
    for (index, &square) in queens.iter().enumerate() {
        if square.row >= rows || square.col >= cols {
            return Err(Violation::OffBoard {
                index,
                square,
                rows,
                cols,
            });
        }
    }
    Ok(())
}

/// Checks that `queens` lie on an `n x n` board, on distinct squares, and that no two share a
/// row, column or diagonal.
pub fn non_attacking(n: usize, queens: &[Square]) -> Result<(), Violation> {
    on_board(queens, n, n)?;
    for (i, &a) in queens.iter().enumerate() {
        for &b in &queens[i + 1..] {
            if a == b {
                return Err(Violation::SameSquare(a));
            }
            if share_line(a, b) {
                return Err(Violation::Attack(a, b));
            }
        }
    }
    Ok(())
}

/// Checks that `queens` is a solution of the N-queens problem: exactly `n` non-attacking queens.
pub fn n_queens_solution(n: usize, queens: &[Square]) -> Result<(), Violation> {
    if queens.len() != n {
        return Err(Violation::WrongCount {
            expected: n,
            found: queens.len(),
        });
    }
    non_attacking(n, queens)
}

/// Checks a list of N-queens solutions: each is a solution of size `n` and no two are equal
/// (as sets of squares). On failure, gives the 0-based index of the first bad one.
pub fn distinct_solutions(n: usize, solutions: &[Vec<Square>]) -> Result<(), (usize, Violation)> {
    let mut seen: std::collections::HashMap<Vec<Square>, usize> = Default::default();
    for (i, queens) in solutions.iter().enumerate() {
        n_queens_solution(n, queens).map_err(|v| (i, v))?;
        let mut key = queens.clone();
        key.sort();
        if let Some(first) = seen.insert(key, i + 1) {
            return Err((i, Violation::Duplicate { first }));
        }
    }
    Ok(())
}

/// Checks that `queens` completes `board`: the placed queens are all there, no two queens
/// attack each other, every new queen stands on a free square off every closed diagonal, row
/// and column, and every open row and column holds a queen.
pub fn completion(board: &PartialBoard, queens: &[Square]) -> Result<(), Violation> {
    let n = board.n;
    non_attacking(n, queens)?;
    for &p in &board.queens {
        if !queens.contains(&p) {
            return Err(Violation::MissingPlaced(p));
        }
    }
    for &q in queens {
        if board.queens.contains(&q) {
            continue;
        }
        let (r, c) = (q.row, q.col);
        let reason = if !board.blocked.is_empty() && board.blocked[r * n + c] {
            Some("a blocked square")
        } else if board.closed_sums.contains(&(r + c)) {
            Some("a closed sum diagonal")
        } else if board.closed_differences.contains(&(r + n - 1 - c)) {
            Some("a closed difference diagonal")
        } else if board.closed_rows.contains(&r) {
            Some("a closed row")
        } else if board.closed_cols.contains(&c) {
            Some("a closed column")
        } else {
            None
        };
        if let Some(reason) = reason {
            return Err(Violation::Forbidden(q, reason));
        }
    }
    for i in 0..n {
        if !board.closed_rows.contains(&i) && !queens.iter().any(|q| q.row == i) {
            return Err(Violation::Empty(format!("row {i}")));
        }
        if !board.closed_cols.contains(&i) && !queens.iter().any(|q| q.col == i) {
            return Err(Violation::Empty(format!("column {i}")));
        }
    }
    Ok(())
}

/// Checks that a claimed count matches the length of its certificate (moves in a plan, queens
/// in a guard set).
pub fn claimed_count(claimed: usize, actual: usize) -> Result<(), Violation> {
    if claimed == actual {
        Ok(())
    } else {
        Err(Violation::WrongValue {
            claimed: claimed as i128,
            actual: actual as i128,
        })
    }
}

/// Checks a best-sum certificate: `queens` is an N-queens solution on the grid and the weights
/// under it add up to `claimed`.
pub fn weight(grid: &WeightGrid, queens: &[Square], claimed: i128) -> Result<(), Violation> {
    n_queens_solution(grid.n, queens)?;
    let actual: i128 = queens.iter().map(|q| grid.get(q.row, q.col) as i128).sum();
    if actual != claimed {
        return Err(Violation::WrongValue { claimed, actual });
    }
    Ok(())
}

/// Replays a move plan from `start`: every move takes an existing queen along a straight line
/// over empty squares to an empty square; the end position must equal `final_queens` (in any
/// order) and be non-attacking.
pub fn repair(start: &Position, plan: &[Move], final_queens: &[Square]) -> Result<(), Violation> {
    let n = start.n;
    on_board(&start.queens, n, n)?;
    let mut queens: Vec<Square> = start.queens.clone();
    for (i, mv) in plan.iter().enumerate() {
        let index = i + 1;
        on_board(&[mv.from, mv.to], n, n)?;
        let Some(slot) = queens.iter().position(|&q| q == mv.from) else {
            return Err(Violation::NoQueen {
                index,
                from: mv.from,
            });
        };
        let Some(path) = squares_between(mv.from, mv.to) else {
            return Err(Violation::NotALine {
                index,
                from: mv.from,
                to: mv.to,
            });
        };
        for square in path.into_iter().chain(std::iter::once(mv.to)) {
            if queens.contains(&square) {
                return Err(Violation::Blocked { index, at: square });
            }
        }
        queens[slot] = mv.to;
    }
    for &q in final_queens {
        if !queens.contains(&q) {
            return Err(Violation::FinalMismatch(q));
        }
    }
    for &q in &queens {
        if !final_queens.contains(&q) {
            return Err(Violation::FinalMismatch(q));
        }
    }
    n_queens_solution(n, &queens)
}

/// Checks a guard certificate: every queen is on the board, no two on one square, and every
/// marked square holds a queen or shares a line with one.
pub fn guard(marks: &MarkGrid, placement: &[Square]) -> Result<(), Violation> {
    on_board(placement, marks.rows, marks.cols)?;
    for (i, &a) in placement.iter().enumerate() {
        if placement[i + 1..].contains(&a) {
            return Err(Violation::SameSquare(a));
        }
    }
    for row in 0..marks.rows {
        for col in 0..marks.cols {
            let square = Square::new(row, col);
            if marks.is_marked(row, col)
                && !placement
                    .iter()
                    .any(|&q| q == square || share_line(q, square))
            {
                return Err(Violation::Unguarded(square));
            }
        }
    }
    Ok(())
}

/// Checks an independent guard certificate: a guard certificate whose queens do not attack one
/// another.
pub fn independent_guard(marks: &MarkGrid, placement: &[Square]) -> Result<(), Violation> {
    guard(marks, placement)?;
    for (i, &a) in placement.iter().enumerate() {
        for &b in &placement[i + 1..] {
            if share_line(a, b) {
                return Err(Violation::Attack(a, b));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(r: usize, c: usize) -> Square {
        Square::new(r, c)
    }

    #[test]
    fn accepts_and_rejects_placements() {
        let four = [sq(0, 1), sq(1, 3), sq(2, 0), sq(3, 2)];
        assert!(n_queens_solution(4, &four).is_ok());
        assert!(matches!(
            n_queens_solution(4, &[sq(0, 0), sq(1, 2), sq(2, 1), sq(3, 3)]),
            Err(Violation::Attack(..))
        ));
        assert!(matches!(
            n_queens_solution(4, &four[..3]),
            Err(Violation::WrongCount { .. })
        ));
        assert!(matches!(
            non_attacking(4, &[sq(0, 4)]),
            Err(Violation::OffBoard { .. })
        ));
    }

    #[test]
    fn replays_moves_with_blocking() {
        let start = Position {
            n: 4,
            queens: vec![sq(0, 0), sq(0, 1), sq(2, 0), sq(3, 2)],
        };
        // The queen on a-file cannot jump over (0,1) to reach (0,3).
        let blocked = [Move {
            from: sq(0, 0),
            to: sq(0, 3),
        }];
        assert!(matches!(
            repair(&start, &blocked, &[]),
            Err(Violation::Blocked { index: 1, .. })
        ));
        let plan = [
            Move {
                from: sq(0, 1),
                to: sq(1, 1),
            },
            Move {
                from: sq(1, 1),
                to: sq(1, 3),
            },
            Move {
                from: sq(0, 0),
                to: sq(0, 1),
            },
        ];
        let goal = [sq(0, 1), sq(1, 3), sq(2, 0), sq(3, 2)];
        assert!(repair(&start, &plan, &goal).is_ok());
        assert!(matches!(
            repair(&start, &plan[..2], &goal),
            Err(Violation::FinalMismatch(_))
        ));
    }

    #[test]
    fn guard_checks_every_mark() {
        let marks = MarkGrid::full(4, 4);
        assert!(guard(&marks, &[sq(1, 1), sq(2, 2)]).is_err());
        assert!(guard(&marks, &[sq(0, 0), sq(1, 2)]).is_err());
        let all_rows: Vec<Square> = (0..4).map(|r| sq(r, 0)).collect();
        assert!(guard(&marks, &all_rows).is_ok());
        assert!(matches!(
            independent_guard(&marks, &all_rows),
            Err(Violation::Attack(..))
        ));
    }
}
