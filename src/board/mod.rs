//! Board geometry shared by every problem: squares, the lines through them, attack tests, the
//! symmetries of square and rectangular boards with the one canonical form of a placement
//! ([`symmetry`]), and the one N-queens enumerator and explicit construction ([`solutions`]).
//!
//! Nothing here knows about any particular problem. Coordinates are 0-based `(row, col)`, row 0
//! being the first line of an input file. Two squares *share a line* when they are in the same
//! row, column, diagonal (`row - col` equal) or anti-diagonal (`row + col` equal); that is the
//! queen's attack relation when nothing stands in between.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub mod solutions;
pub mod symmetry;

pub use solutions::{construction, listed_solutions, ListedSolutions, Solutions, LISTED_UP_TO};
pub use symmetry::{canonical_columns, is_canonical, transform_columns, Symmetry};

/// The largest side length any solver in this crate accepts (one `u64` per row or column).
pub const MAX_SIDE: usize = 64;

/// A square of a board, 0-based. Serializes as the JSON array `[row, col]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// Row index, 0 = the first input line.
    pub row: usize,
    /// Column index, 0 = the first character of a line.
    pub col: usize,
}

impl Square {
    /// The square at `row`, `col`.
    pub const fn new(row: usize, col: usize) -> Self {
        Square { row, col }
    }

    /// Index of the diagonal through this square on a board with `cols` columns:
    /// `row - col + cols - 1`, in `0..rows + cols - 1`.
    pub const fn diagonal(self, cols: usize) -> usize {
        self.row + cols - 1 - self.col
    }

    /// Index of the anti-diagonal through this square: `row + col`, in `0..rows + cols - 1`.
    pub const fn anti_diagonal(self) -> usize {
        self.row + self.col
    }

    /// Chess name of the square on a board of `rows` rows and at most 26 columns: files `a..`
    /// from the left, rank 1 = the last row. `None` when the board is wider than 26 columns.
    pub fn chess_name(self, rows: usize, cols: usize) -> Option<String> {
        if cols > 26 || self.row >= rows || self.col >= cols {
            return None;
        }
        let file = (b'a' + self.col as u8) as char;
        Some(format!("{}{}", file, rows - self.row))
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        [self.row, self.col].serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let [row, col] = <[usize; 2]>::deserialize(deserializer)?;
        Ok(Square { row, col })
    }
}

/// The 8 directions a queen slides in, as (row step, column step).
pub const QUEEN_DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// Whether `(r1, c1)` and `(r2, c2)` lie on a common row, column, diagonal or anti-diagonal
/// (true for equal squares too). The raw-coordinate form of [`share_line`], for hot loops.
#[inline]
pub const fn lines_meet(r1: usize, c1: usize, r2: usize, c2: usize) -> bool {
    r1 == r2 || c1 == c2 || r1 + c2 == r2 + c1 || r1 + c1 == r2 + c2
}

/// Whether `a` and `b` are distinct squares on a common row, column or diagonal (a queen on one
/// attacks the other when nothing stands between them).
pub fn share_line(a: Square, b: Square) -> bool {
    a != b && lines_meet(a.row, a.col, b.row, b.col)
}

/// Whether the queens on `squares` stand on distinct squares and no two share a line.
pub fn non_attacking(squares: &[Square]) -> bool {
    squares.iter().enumerate().all(|(i, &a)| {
        squares[i + 1..]
            .iter()
            .all(|&b| a != b && !share_line(a, b))
    })
}

/// The squares strictly between `a` and `b` along their common line, in order from `a`;
/// `None` when the two do not share a line (or are equal).
pub fn squares_between(a: Square, b: Square) -> Option<Vec<Square>> {
    if !share_line(a, b) {
        return None;
    }
    let step_row = (b.row as isize - a.row as isize).signum();
    let step_col = (b.col as isize - a.col as isize).signum();
    let mut out = Vec::new();
    let (mut r, mut c) = (a.row as isize + step_row, a.col as isize + step_col);
    while (r, c) != (b.row as isize, b.col as isize) {
        out.push(Square::new(r as usize, c as usize));
        r += step_row;
        c += step_col;
    }
    Some(out)
}

/// A placement with exactly one queen per row, written as the column of the queen in each row
/// (`columns[row] = col`). This is the natural shape of an N-queens solution.
pub type Columns = Vec<usize>;

/// The squares of a one-per-row placement, in row order.
pub fn columns_to_squares(columns: &[usize]) -> Vec<Square> {
    columns
        .iter()
        .enumerate()
        .map(|(row, &col)| Square::new(row, col))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn between_walks_the_line() {
        let got = squares_between(Square::new(0, 0), Square::new(3, 3)).unwrap();
        assert_eq!(got, vec![Square::new(1, 1), Square::new(2, 2)]);
        assert!(squares_between(Square::new(0, 0), Square::new(1, 2)).is_none());
        assert_eq!(
            squares_between(Square::new(2, 5), Square::new(2, 3)).unwrap(),
            vec![Square::new(2, 4)]
        );
    }

    #[test]
    fn chess_names() {
        assert_eq!(Square::new(7, 0).chess_name(8, 8).unwrap(), "a1");
        assert_eq!(Square::new(0, 7).chess_name(8, 8).unwrap(), "h8");
        assert!(Square::new(0, 0).chess_name(30, 30).is_none());
    }
}
