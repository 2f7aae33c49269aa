//! The plain inputs of the problems, shared by the parsers ([`crate::format`]), the solvers and
//! the independent checker ([`crate::verify`]): a weight grid, a position of queens and a queen
//! move, a grid of marked squares. They hold data only; the solvers check sizes themselves.

use crate::board::Square;
use serde::{Deserialize, Serialize};

/// An N x N grid of 64-bit weights, row-major (the input of [`crate::weight`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightGrid {
    /// Side length.
    pub n: usize,
    /// `n * n` weights, row-major: the weight of `(r, c)` is `cells[r * n + c]`.
    pub cells: Vec<i64>,
}

impl WeightGrid {
    /// The weight of the square at `row`, `col`. Panics off the grid.
    pub fn get(&self, row: usize, col: usize) -> i64 {
        self.cells[row * self.n + col]
    }
}

/// N queens on an N x N board (the input of [`crate::repair`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Side length.
    pub n: usize,
    /// The queens' squares, distinct, in row-major order.
    pub queens: Vec<Square>,
}

/// One queen move: the queen on `from` slides to `to`. Serializes as `{"from": [r, c], "to":
/// [r, c]}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// Where the queen stands before the move.
    pub from: Square,
    /// Where it stands after.
    pub to: Square,
}

/// An n x m board whose squares are marked or not (the input of [`crate::guard`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkGrid {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// `rows * cols` flags, row-major: whether `(r, c)` must be guarded.
    pub marked: Vec<bool>,
}

impl MarkGrid {
    /// A board with every square marked.
    pub fn full(rows: usize, cols: usize) -> Self {
        MarkGrid {
            rows,
            cols,
            marked: vec![true; rows * cols],
        }
    }

    /// Whether the square at `row`, `col` is marked. Panics off the board.
    pub fn is_marked(&self, row: usize, col: usize) -> bool {
        self.marked[row * self.cols + col]
    }
}

/// An n x n board to complete (the input of [`crate::complete`]): some queens already placed,
/// and squares, diagonals, rows and columns on which no further queen may stand. A completion
/// puts one queen in every open row and every open column (a row or column is open when it is
/// not closed and holds no placed queen), so that no two queens, placed ones included, attack
/// each other and no new queen stands on a blocked square or a closed line.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PartialBoard {
    /// Side length.
    pub n: usize,
    /// The queens already placed.
    pub queens: Vec<Square>,
    /// `n * n` flags, row-major (or empty: nothing blocked): whether `(r, c)` may not hold a
    /// queen.
    pub blocked: Vec<bool>,
    /// Closed sum diagonals, by `row + col` (0 to 2n - 2).
    pub closed_sums: Vec<usize>,
    /// Closed difference diagonals, by `row - col + n - 1` (0 to 2n - 2; CSPLib prob079's
    /// numbering).
    pub closed_differences: Vec<usize>,
    /// Closed rows: they need no queen and may hold none.
    pub closed_rows: Vec<usize>,
    /// Closed columns: they need no queen and may hold none.
    pub closed_cols: Vec<usize>,
}

impl PartialBoard {
    /// An empty n x n board: nothing placed, nothing closed (its completions are the N-queens
    /// solutions).
    pub fn empty(n: usize) -> Self {
        PartialBoard {
            n,
            ..PartialBoard::default()
        }
    }

    /// Whether the square at `row`, `col` is blocked (not whether a closed line covers it).
    pub fn is_blocked(&self, row: usize, col: usize) -> bool {
        !self.blocked.is_empty() && self.blocked[row * self.n + col]
    }
}
