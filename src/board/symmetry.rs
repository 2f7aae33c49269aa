//! The symmetries of a board and the one canonical form of a placement under them.
//!
//! A square board has the 8 symmetries of the dihedral group; a rectangle that is not square
//! keeps 4 of them (the identity, the two mirrors and the half turn). Every map here preserves
//! "shares a line", so it maps solutions to solutions and guard sets to guard sets.

use super::{Columns, Square};

/// One of the 8 symmetries of the square board (the dihedral group of order 8). On an `n x m`
/// rectangle, `m` is written for the columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Leaves every square in place.
    Identity,
    /// Quarter turn clockwise: `(r, c) -> (c, n-1-r)` (square boards only).
    Rotate90,
    /// Half turn: `(r, c) -> (n-1-r, m-1-c)`.
    Rotate180,
    /// Quarter turn counter-clockwise: `(r, c) -> (m-1-c, r)` (square boards only).
    Rotate270,
    /// Mirror top to bottom: `(r, c) -> (n-1-r, c)`.
    FlipRows,
    /// Mirror left to right: `(r, c) -> (r, m-1-c)`.
    FlipCols,
    /// Mirror in the main diagonal: `(r, c) -> (c, r)` (square boards only).
    Transpose,
    /// Mirror in the anti-diagonal: `(r, c) -> (m-1-c, n-1-r)` (square boards only).
    AntiTranspose,
}

impl Symmetry {
    /// All 8 symmetries of a square board, the identity first.
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

    /// The 4 symmetries of a rectangle that is not square, the identity first.
    pub const RECTANGLE: [Symmetry; 4] = [
        Symmetry::Identity,
        Symmetry::Rotate180,
        Symmetry::FlipRows,
        Symmetry::FlipCols,
    ];

    /// The symmetries of a `rows x cols` board: [`Symmetry::ALL`] when it is square, else
    /// [`Symmetry::RECTANGLE`].
    pub fn of_board(rows: usize, cols: usize) -> &'static [Symmetry] {
        if rows == cols {
            &Symmetry::ALL
        } else {
            &Symmetry::RECTANGLE
        }
    }

    /// Whether this map sends the rows onto columns (and so needs a square board).
    pub const fn swaps_axes(self) -> bool {
        matches!(
            self,
            Symmetry::Rotate90
                | Symmetry::Rotate270
                | Symmetry::Transpose
                | Symmetry::AntiTranspose
        )
    }

    /// The image of `square` on an `n x n` board. `square` must lie on the board.
    pub fn apply(self, n: usize, square: Square) -> Square {
        self.apply_rect(n, n, square)
    }

    /// The image of `square` on a `rows x cols` board. `square` must lie on the board, and the
    /// board must be square when [`Symmetry::swaps_axes`].
    pub fn apply_rect(self, rows: usize, cols: usize, square: Square) -> Square {
        let (r, c, mr, mc) = (square.row, square.col, rows - 1, cols - 1);
        let (row, col) = match self {
            Symmetry::Identity => (r, c),
            Symmetry::Rotate90 => (c, mr - r),
            Symmetry::Rotate180 => (mr - r, mc - c),
            Symmetry::Rotate270 => (mc - c, r),
            Symmetry::FlipRows => (mr - r, c),
            Symmetry::FlipCols => (r, mc - c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (mc - c, mr - r),
        };
        Square { row, col }
    }
}

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
/// lexicographically smallest image) and the size of that class (1, 2, 4 or 8). This is the
/// crate's one canonical form; [`is_canonical`] tests it without allocating.
pub fn canonical_columns(columns: &[usize]) -> (Columns, usize) {
    let mut images: Vec<Columns> = Symmetry::ALL
        .iter()
        .map(|&s| transform_columns(columns, s))
        .collect();
    images.sort();
    images.dedup();
    (images[0].clone(), images.len())
}

/// Whether a one-per-row placement is its own canonical form ([`canonical_columns`]): no image
/// under the 8 symmetries is lexicographically smaller. Allocation-free up to 32 rows.
pub fn is_canonical(columns: &[usize]) -> bool {
    let n = columns.len();
    if n > 32 {
        return canonical_columns(columns).0 == columns;
    }
    let mut image = [0usize; 32];
    for s in Symmetry::ALL {
        for (row, &col) in columns.iter().enumerate() {
            let t = s.apply(n, Square::new(row, col));
            image[t.row] = t.col;
        }
        if image[..n] < *columns {
            return false;
        }
    }
    true
}

/// The canonical form of a set of squares on a `rows x cols` board under the board's
/// symmetries ([`Symmetry::of_board`]): the lexicographically smallest sorted image.
pub fn canonical_squares(rows: usize, cols: usize, squares: &[Square]) -> Vec<Square> {
    Symmetry::of_board(rows, cols)
        .iter()
        .map(|s| {
            let mut image: Vec<Square> = squares
                .iter()
                .map(|&q| s.apply_rect(rows, cols, q))
                .collect();
            image.sort();
            image
        })
        .min()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::share_line;

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
    fn rectangle_maps_stay_on_the_board_and_keep_lines() {
        let (rows, cols) = (3, 5);
        for &s in Symmetry::of_board(rows, cols) {
            assert!(!s.swaps_axes());
            let mut seen = Vec::new();
            for r in 0..rows {
                for c in 0..cols {
                    let a = Square::new(r, c);
                    let t = s.apply_rect(rows, cols, a);
                    assert!(t.row < rows && t.col < cols);
                    seen.push(t);
                    for r2 in 0..rows {
                        for c2 in 0..cols {
                            let b = Square::new(r2, c2);
                            let u = s.apply_rect(rows, cols, b);
                            assert_eq!(share_line(a, b), share_line(t, u));
                        }
                    }
                }
            }
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), rows * cols, "{s:?} is a permutation");
        }
    }

    #[test]
    fn canonical_forms_agree() {
        let sol = [1, 3, 0, 2];
        let (canon, size) = canonical_columns(&sol);
        assert_eq!(size, 2);
        assert!(is_canonical(&canon));
        assert_eq!(is_canonical(&sol), canon == sol);
        let squares = crate::board::columns_to_squares(&sol);
        let via_squares = canonical_squares(4, 4, &squares);
        assert_eq!(via_squares, crate::board::columns_to_squares(&canon));
    }
}
