//! Fewest queen moves from any N queens on an N x N board to a non-attacking position, under
//! the real rule: a queen slides along a row, column or diagonal and never passes over or lands
//! on another queen.

use crate::board::Square;
use serde::{Deserialize, Serialize};

/// N queens on an N x N board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Side length.
    pub n: usize,
    /// The queens' squares, distinct, in row-major order.
    pub queens: Vec<Square>,
}

/// One queen move: the queen on `from` slides to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// Where the queen stands before the move.
    pub from: Square,
    /// Where it stands after.
    pub to: Square,
}
