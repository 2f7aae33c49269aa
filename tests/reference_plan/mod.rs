//! The reference plan the fast counter's plan is tested against: one unit per non-attacking
//! placement of the queens of the first two rows (the first row alone for N = 1), each counted
//! by plain bitmask backtracking. A solution counts as unique in the unit that holds the
//! lexicographically smallest of its 8 images (as column lists), so the units' unique counts
//! sum exactly to the number of classes.
//!
//! Slow but simple; it shares nothing with the counter but the plan interface of
//! `queens::scale`.

use queens::scale::{
    checksum_words, list_checksum, PlannedUnit, Shard, UnitCount, UnitSpec, WorkPlan,
};

/// The reference plan for one board size (N from 1 to 32).
#[derive(Clone, Debug)]
pub struct TwoRowPlan {
    n: u32,
    prefixes: Vec<[u8; 2]>,
    depth: usize,
    specs: Vec<UnitSpec>,
}

impl TwoRowPlan {
    /// The plan for N (1 to 32); `None` outside that range.
    pub fn new(n: u32) -> Option<Self> {
        if !(1..=32).contains(&n) {
            return None;
        }
        let depth = if n == 1 { 1 } else { 2 };
        let mut prefixes: Vec<([u8; 2], u64)> = Vec::new();
        for c0 in 0..n {
            if depth == 1 {
                prefixes.push(([c0 as u8, 0], 1));
                continue;
            }
            for c1 in 0..n {
                if c0.abs_diff(c1) > 1 {
                    let p = [c0 as u8, c1 as u8];
                    prefixes.push((p, weight_estimate(n, &p)));
                }
            }
        }
        // Heaviest first; ties in column order, so the order is the same everywhere.
        prefixes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let specs = prefixes
            .iter()
            .enumerate()
            .map(|(id, (p, _))| UnitSpec {
                id: id as u64,
                checksum: checksum_words([u64::from(n), p[0] as u64, p[1] as u64, depth as u64]),
            })
            .collect();
        Some(TwoRowPlan {
            n,
            prefixes: prefixes.into_iter().map(|(p, _)| p).collect(),
            depth,
            specs,
        })
    }
}

/// Masks (columns, diagonals shifted to the next row) after placing `cols` in rows 0.. .
fn place(n: u32, cols: &[u8]) -> Option<(u64, u64, u64)> {
    let (mut c, mut d, mut a) = (0u64, 0u64, 0u64);
    let full = (1u64 << n) - 1;
    for &col in cols {
        let bit = 1u64 << col;
        if (c | d | a) & bit != 0 {
            return None;
        }
        c |= bit;
        d = ((d | bit) << 1) & full;
        a = (a | bit) >> 1;
    }
    Some((c, d, a))
}

/// Partial placements of the next few rows extending a prefix: a cheap, deterministic estimate
/// of the unit's search effort (five rows, which ranks units by their true node counts with a
/// rank correlation of about 0.6 at N = 11; fewer rows on large boards, to stay cheap).
fn weight_estimate(n: u32, prefix: &[u8; 2]) -> u64 {
    fn partial(n: u32, rows_left: u32, c: u64, d: u64, a: u64) -> u64 {
        if rows_left == 0 {
            return 1;
        }
        let full = (1u64 << n) - 1;
        let mut free = full & !(c | d | a);
        let mut total = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            total += partial(
                n,
                rows_left - 1,
                c | bit,
                ((d | bit) << 1) & full,
                (a | bit) >> 1,
            );
        }
        total
    }
    match place(n, prefix) {
        Some((c, d, a)) => {
            let rows = match n {
                0..=16 => 5,
                17..=24 => 4,
                _ => 3,
            };
            partial(n, n.saturating_sub(2).min(rows), c, d, a)
        }
        None => 0,
    }
}

impl WorkPlan for TwoRowPlan {
    fn n(&self) -> u32 {
        self.n
    }

    fn unit_count(&self) -> u64 {
        self.specs.len() as u64
    }

    fn checksum(&self) -> u64 {
        list_checksum(self.n, &self.specs)
    }

    fn spec(&self, id: u64) -> Option<UnitSpec> {
        self.specs.get(id as usize).copied()
    }

    fn for_each_batch(
        &self,
        shard: Option<Shard>,
        batch: &mut dyn FnMut(Vec<PlannedUnit>) -> bool,
    ) {
        // One batch, in id order (heaviest first); one unit of work each.
        let units = (0..self.specs.len() as u64)
            .filter(|&id| shard.is_none_or(|s| s.contains(id)))
            .map(|id| PlannedUnit { id, work: 1.0 })
            .collect();
        batch(units);
    }

    fn estimated_work(&self, shard: Option<Shard>) -> f64 {
        let units = self.specs.len() as u64;
        shard.map_or(units, |s| s.size(units)) as f64
    }

    fn count_unit(&self, id: u64) -> UnitCount {
        let n = self.n as usize;
        let prefix = &self.prefixes[id as usize][..self.depth];
        let mut cols = [0u8; 32];
        cols[..self.depth].copy_from_slice(prefix);
        let Some((c, d, a)) = place(self.n, prefix) else {
            return UnitCount::default();
        };
        let mut count = UnitCount::default();
        extend(n, self.depth, c, d, a, &mut cols, &mut count);
        count
    }

    fn describe_unit(&self, id: u64) -> String {
        let p = &self.prefixes[id as usize][..self.depth];
        let cols: Vec<String> = p.iter().map(|c| c.to_string()).collect();
        match self.depth {
            1 => format!("column {} in the first row", cols[0]),
            d => format!("columns {} in the first {d} rows", cols.join(",")),
        }
    }
}

fn extend(n: usize, row: usize, c: u64, d: u64, a: u64, cols: &mut [u8; 32], out: &mut UnitCount) {
    if row == n {
        out.solutions += 1;
        if is_smallest_image(&cols[..n]) {
            out.unique_x8 += 8;
        }
        return;
    }
    let full = (1u64 << n) - 1;
    let mut free = full & !(c | d | a);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        cols[row] = bit.trailing_zeros() as u8;
        extend(
            n,
            row + 1,
            c | bit,
            ((d | bit) << 1) & full,
            (a | bit) >> 1,
            cols,
            out,
        );
    }
}

/// Whether a solution (one column per row) is the lexicographically smallest of its 8 images.
pub fn is_smallest_image(cols: &[u8]) -> bool {
    let n = cols.len();
    let m = (n - 1) as u8;
    let mut image = [0u8; 32];
    for sym in 1..8 {
        for (r, &c) in cols.iter().enumerate() {
            let r = r as u8;
            // (r, c) -> (r', c') for the 7 non-identity symmetries of the square.
            let (r2, c2) = match sym {
                1 => (c, m - r),     // quarter turn clockwise
                2 => (m - r, m - c), // half turn
                3 => (m - c, r),     // quarter turn counter-clockwise
                4 => (m - r, c),     // mirror top to bottom
                5 => (r, m - c),     // mirror left to right
                6 => (c, r),         // main diagonal
                _ => (m - c, m - r), // anti-diagonal
            };
            image[r2 as usize] = c2;
        }
        if image[..n] < *cols {
            return false;
        }
    }
    true
}
