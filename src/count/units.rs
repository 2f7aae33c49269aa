//! The work plan of a count: one unit per class of border constellations (the queens on the
//! first and last row and column), optionally split further by the queens of the next rows.

use super::kernel::{self, Start};
use crate::board::{share_line, Square, Symmetry};
use crate::Deadline;
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
/// [`work_units`]'s deterministic order (estimated heaviest first).
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

/// The split depth [`work_units`] uses for size `n`: enough units to balance many threads and
/// to keep each unit short (about 3000 to 60000 units up to n = 27).
pub fn default_split(n: u32) -> usize {
    match n {
        0..=21 => 0,
        22..=27 => 1,
        _ => 2,
    }
}

/// The canonical constellations of size `n`, each with the size of its class, sorted.
pub fn constellations(n: u32) -> Vec<(Constellation, u8)> {
    let mut out = Vec::new();
    if !(1..=32).contains(&n) {
        return out;
    }
    let m = n as u8 - 1;
    // Every border queen of a constellation becomes the top queen of some image, at its
    // distance from either end of its line; the smallest image has the smallest top, so each
    // border queen of a class representative lies in top..=m-top.
    for top in 0..=m / 2 {
        for bottom in top..=m - top {
            for left in top..=m - top {
                for right in top..=m - top {
                    let c = Constellation {
                        top,
                        bottom,
                        left,
                        right,
                    };
                    if !c.is_consistent(n) {
                        continue;
                    }
                    let (canon, orbit) = c.canonical(n);
                    if canon == c {
                        out.push((c, orbit));
                    }
                }
            }
        }
    }
    out
}

/// The plan of a count of size `n` at the default split depth (see [`work_units_split`]).
pub fn work_units(n: u32) -> Vec<WorkUnit> {
    work_units_split(n, default_split(n))
}

/// How many free rows the work estimate looks ahead for size `n` (deeper is more accurate
/// and costs more, which pays off only where the count itself takes minutes).
fn estimate_depth(n: u32) -> usize {
    match n {
        0..=16 => 3,
        17..=21 => 4,
        _ => 3,
    }
}

/// A unit for constellation `c` (any image of its class) with no prefix.
fn bare_unit(n: u32, c: Constellation, orbit: u8) -> WorkUnit {
    WorkUnit {
        id: 0,
        n: n as u8,
        constellation: c,
        orbit,
        prefix_len: 0,
        prefix: [0; MAX_PREFIX],
    }
}

/// Of the images of a canonical constellation, the one whose search is estimated cheapest (all
/// images have the same number of solutions, of the same class sizes; the row-by-row search
/// costs differ by up to several times). Ties go to the smallest image.
fn cheapest_image(n: u32, c: Constellation, orbit: u8) -> Constellation {
    let depth = estimate_depth(n);
    let mut images: Vec<Constellation> = Symmetry::ALL.iter().map(|&s| c.transform(n, s)).collect();
    images.sort();
    images.dedup();
    images
        .into_iter()
        .map(|image| {
            let start = Start::new(&bare_unit(n, image, orbit));
            let depth = depth.min(start.free_rows());
            (kernel::placements(&start, depth), image)
        })
        .min()
        .map_or(c, |(_, image)| image)
}

/// The plan of a count of size `n`: one unit per class of constellations (searched from its
/// cheapest image), split by every valid placement of the queens on its first `split` free
/// rows (capped at [`MAX_PREFIX`] and at the number of free rows). The order is deterministic:
/// by an estimate of the work, largest first, then by constellation and prefix; `id`s number
/// the units in that order. Empty for n outside 1..=32.
pub fn work_units_split(n: u32, split: usize) -> Vec<WorkUnit> {
    plan(n, split, &Deadline::never()).unwrap_or_default()
}

/// [`work_units_split`], or `None` if `deadline` passes while the plan is being made (it takes
/// seconds from n = 20 on).
pub fn plan(n: u32, split: usize, deadline: &Deadline) -> Option<Vec<WorkUnit>> {
    use rayon::prelude::*;
    let split = split.min(MAX_PREFIX);
    let parts: Vec<Vec<(u64, WorkUnit)>> = constellations(n)
        .into_par_iter()
        .map(|(c, orbit)| {
            if deadline.reached() {
                return None;
            }
            let base = bare_unit(n, cheapest_image(n, c, orbit), orbit);
            let start = Start::new(&base);
            let split = split.min(start.free_rows());
            let mut units = Vec::new();
            let mut prefix = [0u8; MAX_PREFIX];
            // Sub-units only need an order, which a shallower look-ahead gives well enough.
            let depth = if split == 0 { estimate_depth(n) } else { 3 };
            kernel::for_each_prefix(&start, split, &mut prefix, 0, &mut |p| {
                let mut unit = base;
                unit.prefix_len = split as u8;
                unit.prefix = *p;
                let start = Start::new(&unit);
                let depth = depth.min(start.free_rows());
                units.push((kernel::placements(&start, depth), unit));
            });
            Some(units)
        })
        .collect::<Option<Vec<_>>>()?;
    let mut weighted: Vec<(u64, WorkUnit)> = parts.into_iter().flatten().collect();
    weighted.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(a.1.constellation.cmp(&b.1.constellation))
            .then(a.1.prefix.cmp(&b.1.prefix))
    });
    Some(
        weighted
            .into_iter()
            .enumerate()
            .map(|(id, (_, mut unit))| {
                unit.id = id as u64;
                unit
            })
            .collect(),
    )
}
