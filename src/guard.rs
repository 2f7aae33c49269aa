//! Fewest guards: the fewest queens that occupy or attack every marked square of an n x m board
//! (with every square marked, the queen domination number).

/// An n x m board whose squares are marked or not.
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

    /// Whether the square at `row`, `col` is marked.
    pub fn is_marked(&self, row: usize, col: usize) -> bool {
        self.marked[row * self.cols + col]
    }
}
