//! Best-sum placement: N mutually non-attacking queens on an N x N grid of integers, with the
//! largest possible sum of the numbers under them, proven largest.

/// An N x N grid of 64-bit weights, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightGrid {
    /// Side length.
    pub n: usize,
    /// `n * n` weights, row-major: the weight of `(r, c)` is `cells[r * n + c]`.
    pub cells: Vec<i64>,
}

impl WeightGrid {
    /// The weight of the square at `row`, `col`.
    pub fn get(&self, row: usize, col: usize) -> i64 {
        self.cells[row * self.n + col]
    }
}
