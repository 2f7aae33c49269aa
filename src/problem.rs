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

    /// The board in one line of text, the same for boards with the same completions in the
    /// same search: the rows joined by `/`, each square `q` (a placed queen), `x` (no queen
    /// may stand there: blocked, or on a closed diagonal) or `.`, then `|rows:R,R..` and
    /// `|cols:C,C..` for closed rows and columns. Off-board entries are left out (check the
    /// board first); [`PartialBoard::from_key`] reads it back.
    pub fn key(&self) -> String {
        let n = self.n;
        let mut grid = vec![b'.'; n * n];
        for r in 0..n {
            for c in 0..n {
                let closed = self.is_blocked(r, c)
                    || self.closed_sums.contains(&(r + c))
                    || self.closed_differences.contains(&(r + n - 1 - c));
                if closed {
                    grid[r * n + c] = b'x';
                }
            }
        }
        for q in self.queens.iter().filter(|q| q.row < n && q.col < n) {
            grid[q.row * n + q.col] = b'q';
        }
        let mut key = grid
            .chunks(n.max(1))
            .map(|row| String::from_utf8_lossy(row).into_owned())
            .collect::<Vec<_>>()
            .join("/");
        for (name, lines) in [("rows", &self.closed_rows), ("cols", &self.closed_cols)] {
            let mut lines: Vec<usize> = lines.iter().copied().filter(|&k| k < n).collect();
            lines.sort_unstable();
            lines.dedup();
            if !lines.is_empty() {
                let list: Vec<String> = lines.iter().map(usize::to_string).collect();
                key.push_str(&format!("|{name}:{}", list.join(",")));
            }
        }
        key
    }

    /// The board that [`PartialBoard::key`] wrote (closed diagonals as blocked squares, the
    /// queens in row-major order), or `None` for text it does not write.
    pub fn from_key(key: &str) -> Option<PartialBoard> {
        let mut parts = key.split('|');
        let rows: Vec<&str> = parts.next()?.split('/').collect();
        let n = rows.len();
        let mut board = PartialBoard::empty(n);
        board.blocked = vec![false; n * n];
        for (r, row) in rows.iter().enumerate() {
            if row.len() != n {
                return None;
            }
            for (c, square) in row.bytes().enumerate() {
                match square {
                    b'.' => {}
                    b'x' => board.blocked[r * n + c] = true,
                    b'q' => board.queens.push(Square { row: r, col: c }),
                    _ => return None,
                }
            }
        }
        if !board.blocked.contains(&true) {
            board.blocked.clear();
        }
        for part in parts {
            let (name, list) = part.split_once(':')?;
            let lines = list
                .split(',')
                .map(|k| k.parse::<usize>().ok().filter(|&k| k < n))
                .collect::<Option<Vec<usize>>>()?;
            match name {
                "rows" if board.closed_rows.is_empty() => board.closed_rows = lines,
                "cols" if board.closed_cols.is_empty() => board.closed_cols = lines,
                _ => return None,
            }
        }
        (board.key() == key).then_some(board)
    }
}
