//! One unit of the constellation search's plan: its border queens (the constellation), its
//! orbit and the columns of the free rows it fixes.

use crate::board::{share_line, Square, Symmetry};
use serde::{Deserialize, Serialize};

/// The queens that every solution has on the border of the board: one in the top row, one in
/// the bottom row, one in the left column and one in the right column. A corner queen is shared
/// by a row and a column, so a constellation holds 3 or 4 distinct queens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Constellation {
    /// Column of the queen in row 0.
    pub top: u8,
    /// Column of the queen in row n-1.
    pub bottom: u8,
    /// Row of the queen in column 0.
    pub left: u8,
    /// Row of the queen in column n-1.
    pub right: u8,
}

impl Constellation {
    /// The (up to four, possibly repeated) border squares, in the order top, bottom, left, right.
    pub fn squares(&self, n: u32) -> [Square; 4] {
        let m = n as usize - 1;
        [
            Square::new(0, self.top as usize),
            Square::new(m, self.bottom as usize),
            Square::new(self.left as usize, 0),
            Square::new(self.right as usize, m),
        ]
    }

    /// The distinct queens of the constellation, sorted.
    pub fn queens(&self, n: u32) -> Vec<Square> {
        let mut q = self.squares(n).to_vec();
        q.sort();
        q.dedup();
        q
    }

    /// Whether the border squares can all belong to one solution: where a row and a column
    /// share a queen it is the same square, and the distinct queens attack no one.
    pub fn is_consistent(&self, n: u32) -> bool {
        let q = self.squares(n);
        q.iter().all(|s| s.row < n as usize && s.col < n as usize)
            && (0..4).all(|i| (i + 1..4).all(|j| q[i] == q[j] || !share_line(q[i], q[j])))
    }

    /// The image of the constellation under `symmetry` (the border maps onto itself).
    pub fn transform(&self, n: u32, symmetry: Symmetry) -> Constellation {
        let m = n as usize - 1;
        let mut out = *self;
        for s in self.squares(n) {
            let t = symmetry.apply(n as usize, s);
            if t.row == 0 {
                out.top = t.col as u8;
            }
            if t.row == m {
                out.bottom = t.col as u8;
            }
            if t.col == 0 {
                out.left = t.row as u8;
            }
            if t.col == m {
                out.right = t.row as u8;
            }
        }
        out
    }

    /// The smallest of the 8 images (the representative of the class) and the number of
    /// distinct images (the size of the class: 8 divided by the order of its stabilizer).
    pub fn canonical(&self, n: u32) -> (Constellation, u8) {
        let mut images = Symmetry::ALL.map(|s| self.transform(n, s));
        images.sort_unstable();
        let distinct = 1 + images.windows(2).filter(|w| w[0] != w[1]).count();
        (images[0], distinct as u8)
    }

    /// Whether the constellation is mapped onto itself by the half turn, which is the only case
    /// where solutions extending it can be symmetric (no solution for n > 1 is symmetric under
    /// a reflection, and a quarter-turn symmetric one is half-turn symmetric too).
    pub fn has_half_turn_symmetry(&self, n: u32) -> bool {
        self.transform(n, Symmetry::Rotate180) == *self
    }
}

/// One independent piece of a count: a border constellation (one per class) plus the queens of its
/// first `prefix_len` free rows (top to bottom). Units of one plan are disjoint and together
/// cover every solution exactly once up to symmetry. `id` is the unit's place in
/// [`work_units`](super::work_units)'s deterministic order (estimated heaviest first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WorkUnit {
    /// Place in the plan, 0-based.
    pub id: u64,
    /// Board size.
    pub n: u8,
    /// The border queens: one image of a class of constellations, the one whose search is
    /// estimated cheapest (`constellation.canonical(n)` names the class).
    pub constellation: Constellation,
    /// How many solutions stand for each one found in this unit: the number of distinct
    /// images of the constellation (8, 4, 2 or 1).
    pub orbit: u8,
    /// How many of the free rows, from the top, have their queen fixed by `prefix`.
    pub prefix_len: u8,
    /// Columns of the queens of the first `prefix_len` free rows.
    pub prefix: [u8; MAX_PREFIX],
}

impl WorkUnit {
    /// Whether the unit is well formed: n in 1..=32, a consistent constellation on that board
    /// with the right `orbit`, and a prefix of at most [`MAX_PREFIX`] queens on the first free
    /// rows that attack neither each other nor the border queens. Every unit of a plan is; a
    /// unit read from outside must pass this before it is counted.
    pub fn is_valid(&self) -> bool {
        let n = self.n as u32;
        if !(1..=32).contains(&n) || !self.constellation.is_consistent(n) {
            return false;
        }
        if self.constellation.canonical(n).1 != self.orbit {
            return false;
        }
        let mut queens = self.constellation.queens(n);
        let mut taken = [false; 32];
        for q in &queens {
            taken[q.row] = true;
        }
        let free_rows: Vec<usize> = (0..n as usize).filter(|&r| !taken[r]).collect();
        let prefix_len = self.prefix_len as usize;
        if prefix_len > MAX_PREFIX || prefix_len > free_rows.len() {
            return false;
        }
        for (&row, &col) in free_rows.iter().zip(&self.prefix[..prefix_len]) {
            if col as u32 >= n {
                return false;
            }
            queens.push(Square::new(row, col as usize));
        }
        crate::board::non_attacking(&queens)
    }
}

/// The most free rows a unit may fix beyond its constellation.
pub const MAX_PREFIX: usize = 4;
