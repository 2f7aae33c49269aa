//! Board geometry shared by every problem: squares, the lines through them, attack tests, and
//! the symmetry group of the square board.
//!
//! Nothing here knows about any particular problem. Coordinates are 0-based `(row, col)`, row 0
//! being the first line of an input file. Two squares *share a line* when they are in the same
//! row, column, diagonal (`row - col` equal) or anti-diagonal (`row + col` equal); that is the
//! queen's attack relation when nothing stands in between.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

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

/// Whether `a` and `b` are distinct squares on a common row, column or diagonal (a queen on one
/// attacks the other when nothing stands between them).
pub fn share_line(a: Square, b: Square) -> bool {
    a != b
        && (a.row == b.row
            || a.col == b.col
            || a.row + b.col == b.row + a.col
            || a.row + a.col == b.row + b.col)
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

/// One of the 8 symmetries of the square board (the dihedral group of order 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Leaves every square in place.
    Identity,
    /// Quarter turn clockwise: `(r, c) -> (c, n-1-r)`.
    Rotate90,
    /// Half turn: `(r, c) -> (n-1-r, n-1-c)`.
    Rotate180,
    /// Quarter turn counter-clockwise: `(r, c) -> (n-1-c, r)`.
    Rotate270,
    /// Mirror top to bottom: `(r, c) -> (n-1-r, c)`.
    FlipRows,
    /// Mirror left to right: `(r, c) -> (r, n-1-c)`.
    FlipCols,
    /// Mirror in the main diagonal: `(r, c) -> (c, r)`.
    Transpose,
    /// Mirror in the anti-diagonal: `(r, c) -> (n-1-c, n-1-r)`.
    AntiTranspose,
}

impl Symmetry {
    /// All 8 symmetries, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipRows,
        Symmetry::FlipCols,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The image of `square` on an `n x n` board. `square` must lie on the board.
    pub fn apply(self, n: usize, square: Square) -> Square {
        let (r, c, m) = (square.row, square.col, n - 1);
        let (row, col) = match self {
            Symmetry::Identity => (r, c),
            Symmetry::Rotate90 => (c, m - r),
            Symmetry::Rotate180 => (m - r, m - c),
            Symmetry::Rotate270 => (m - c, r),
            Symmetry::FlipRows => (m - r, c),
            Symmetry::FlipCols => (r, m - c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (m - c, m - r),
        };
        Square { row, col }
    }
}

/// A placement with exactly one queen per row, written as the column of the queen in each row
/// (`columns[row] = col`). This is the natural shape of an N-queens solution.
pub type Columns = Vec<usize>;

/// The image of a one-per-row placement under `symmetry`; still one queen per row.
pub fn transform_columns(columns: &[usize], symmetry: Symmetry) -> Columns {
    let n = columns.len();
    let mut out = vec![0; n];
    for (row, &col) in columns.iter().enumerate() {
        let image = symmetry.apply(n, Square::new(row, col));
        out[image.row] = image.col;
    }
    out
}

/// The canonical representative of the symmetry class of a one-per-row placement (the
/// lexicographically smallest image) and the size of that class (1, 2, 4 or 8).
pub fn canonical_columns(columns: &[usize]) -> (Columns, usize) {
    let mut images: Vec<Columns> = Symmetry::ALL
        .iter()
        .map(|&s| transform_columns(columns, s))
        .collect();
    images.sort();
    images.dedup();
    (images[0].clone(), images.len())
}

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
    fn symmetries_form_a_group_of_eight_distinct_maps() {
        let n = 5;
        let probe = Square::new(0, 1);
        let mut images: Vec<Square> = Symmetry::ALL.iter().map(|s| s.apply(n, probe)).collect();
        images.sort();
        images.dedup();
        assert_eq!(images.len(), 8);
        for s in Symmetry::ALL {
            for r in 0..n {
                for c in 0..n {
                    let a = Square::new(r, c);
                    let b = Square::new(c, (r + 2) % n);
                    assert_eq!(share_line(a, b), share_line(s.apply(n, a), s.apply(n, b)));
                }
            }
        }
    }

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
