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
