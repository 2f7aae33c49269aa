//! Completing a set of staying queens into a target.
//!
//! Given queens that stay, every other queen (a *mover*) takes one square of the target: one on
//! its own lines costs one move, any other square two. A target where `w` movers pay two costs
//! at most `movers + w`. The search assigns each mover a free square on its lines, or marks it
//! far while fewer than `w` are; the item with the fewest choices goes first (a mover, or with
//! no far mover allowed, also an open row, which some mover must reach). The far movers then
//! take whatever rows and columns are left, on free diagonals.
//!
//! Measured on a random 48 x 48 board whose relaxed value is 27 (every mover one move away):
//! given the stays of an optimal target, the row search finds no completion better than 29 in
//! 2,000,000 nodes, while this search finds the cost-27 one in about 11,000.

use super::square::{mask, ReverseLow, Sq};

/// A completion found by [`complete`]: the column of each row.
pub(crate) type Cols = Vec<u8>;

/// A target holding every queen of `stays` (a set of queen indices that attack no one another),
/// whose other queens all reach it in one move but at most `far` of them, within `node_cap`
/// nodes. `None` when none was found (not proven absent when the cap was reached).
pub(crate) fn complete(
    n: usize,
    queens: &[Sq],
    stays: u64,
    far: u32,
    node_cap: u64,
) -> Option<Cols> {
    let mut s = State {
        n,
        queens,
        cols: vec![u8::MAX; n],
        nodes: 0,
        node_cap,
        far_allowed: far,
    };
    let mut free_rows = mask(n);
    let mut free_cols = mask(n);
    let mut diags = 0u128;
    let mut antis = 0u128;
    for (i, &(r, c)) in queens.iter().enumerate() {
        if stays >> i & 1 == 1 {
            let (r, c) = (r as usize, c as usize);
            let d = r + n - 1 - c;
            if free_rows >> r & 1 == 0
                || free_cols >> c & 1 == 0
                || diags >> d & 1 == 1
                || antis >> (r + c) & 1 == 1
            {
                return None;
            }
            free_rows &= !(1 << r);
            free_cols &= !(1 << c);
            diags |= 1 << d;
            antis |= 1 << (r + c);
            s.cols[r] = c as u8;
        }
    }
    let movers = mask(queens.len()) & !stays;
    let board = Board {
        rows: free_rows,
        cols: free_cols,
        diags,
        antis,
    };
    if s.assign(board, movers, 0) {
        Some(s.cols)
    } else {
        None
    }
}

#[derive(Clone, Copy)]
struct Board {
    rows: u64,
    cols: u64,
    diags: u128,
    antis: u128,
}

impl Board {
    /// The free columns of row `r`.
    fn free_in(&self, n: usize, r: usize) -> u64 {
        if self.rows >> r & 1 == 0 {
            return 0;
        }
        self.cols & !((self.diags >> r) as u64).reverse_bits_n(n) & !((self.antis >> r) as u64)
    }

    fn place(&self, n: usize, r: usize, c: usize) -> Board {
        Board {
            rows: self.rows & !(1 << r),
            cols: self.cols & !(1 << c),
            diags: self.diags | 1 << (r + n - 1 - c),
            antis: self.antis | 1 << (r + c),
        }
    }
}

struct State<'a> {
    n: usize,
    queens: &'a [Sq],
    cols: Vec<u8>,
    nodes: u64,
    node_cap: u64,
    far_allowed: u32,
}

impl State<'_> {
    /// The free squares of row `r` on the lines of queen `q` (its own square excluded).
    fn reach(&self, free_row: u64, q: Sq, r: usize) -> u64 {
        let (qr, qc) = (q.0 as usize, q.1 as usize);
        if qr == r {
            return free_row & !(1u64 << qc);
        }
        let d = qr.abs_diff(r);
        let mut m = 1u64 << qc;
        if qc + d < self.n {
            m |= 1 << (qc + d);
        }
        if qc >= d {
            m |= 1 << (qc - d);
        }
        free_row & m
    }

    /// Puts mover `j` on each column of `cols` in row `r` in turn and assigns the other movers;
    /// true at the first that succeeds (row `r` is left open otherwise).
    fn place_in_row(
        &mut self,
        b: Board,
        r: usize,
        cols: u64,
        movers: u64,
        j: usize,
        far: u32,
    ) -> bool {
        let mut cs = cols;
        while cs != 0 {
            let c = cs.trailing_zeros() as usize;
            cs &= cs - 1;
            self.cols[r] = c as u8;
            if self.assign(b.place(self.n, r, c), movers & !(1 << j), far) {
                return true;
            }
        }
        self.cols[r] = u8::MAX;
        false
    }

    /// Assigns the `movers` (`far` of the others are marked far, to be placed last).
    fn assign(&mut self, b: Board, movers: u64, far: u32) -> bool {
        self.nodes += 1;
        if self.nodes > self.node_cap {
            return false;
        }
        let n = self.n;
        if movers == 0 {
            return self.fill(b);
        }
        let free: Vec<(usize, u64)> = (0..n)
            .filter(|&r| b.rows >> r & 1 == 1)
            .map(|r| (r, b.free_in(n, r)))
            .collect();
        let may_far = far < self.far_allowed;
        // Choices of each mover, and how many movers reach each open row and column.
        let mut best_mover: Option<(u32, usize)> = None;
        let mut row_reach = [0u32; 64];
        let mut col_reach = [0u32; 64];
        let mut bits = movers;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let q = self.queens[i];
            let mut count = 0;
            for &(r, f) in &free {
                let m = self.reach(f, q, r);
                let k = m.count_ones();
                count += k;
                row_reach[r] += k;
                let mut cs = m;
                while cs != 0 {
                    let c = cs.trailing_zeros() as usize;
                    cs &= cs - 1;
                    col_reach[c] += 1;
                }
            }
            if count == 0 && !may_far {
                return false;
            }
            let choices = count + may_far as u32;
            if best_mover.is_none_or(|(k, _)| choices < k) {
                best_mover = Some((choices, i));
            }
        }
        let unreached_rows = free.iter().filter(|&&(r, _)| row_reach[r] == 0).count() as u32;
        let mut unreached_cols = 0;
        let mut cs = b.cols;
        while cs != 0 {
            let c = cs.trailing_zeros() as usize;
            cs &= cs - 1;
            if col_reach[c] == 0 {
                unreached_cols += 1;
            }
        }
        // The far movers, those marked and those to come, fill the rows no mover reaches.
        if unreached_rows.max(unreached_cols) > self.far_allowed {
            return false;
        }
        let (mover_choices, i) = best_mover.expect("movers is not empty");
        if !may_far {
            // Exact cover (no far mover at all): an open row reached by fewer movers goes
            // first.
            let row = free
                .iter()
                .map(|&(r, _)| (row_reach[r], r))
                .min()
                .filter(|&(k, _)| far == 0 && k < mover_choices);
            if let Some((_, r)) = row {
                let f = free.iter().find(|&&(r2, _)| r2 == r).expect("open row").1;
                let mut bits = movers;
                while bits != 0 {
                    let j = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if self.place_in_row(b, r, self.reach(f, self.queens[j], r), movers, j, far) {
                        return true;
                    }
                }
                return false;
            }
        }
        let q = self.queens[i];
        for &(r, f) in &free {
            if self.place_in_row(b, r, self.reach(f, q, r), movers, i, far) {
                return true;
            }
        }
        may_far && self.assign(b, movers & !(1 << i), far + 1)
    }

    /// Places the open rows (as many as the far movers) on free squares, fewest choices first.
    fn fill(&mut self, b: Board) -> bool {
        self.nodes += 1;
        if self.nodes > self.node_cap {
            return false;
        }
        let n = self.n;
        if b.rows == 0 {
            return true;
        }
        let mut best: Option<(u32, usize, u64)> = None;
        let mut bits = b.rows;
        while bits != 0 {
            let r = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let f = b.free_in(n, r);
            if f == 0 {
                return false;
            }
            if best.is_none_or(|(k, _, _)| f.count_ones() < k) {
                best = Some((f.count_ones(), r, f));
            }
        }
        let (_, r, mut f) = best.expect("rows is not empty");
        while f != 0 {
            let c = f.trailing_zeros() as usize;
            f &= f - 1;
            self.cols[r] = c as u8;
            if self.fill(b.place(n, r, c)) {
                return true;
            }
        }
        self.cols[r] = u8::MAX;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::targets::tests::random_queens;
    use super::super::targets::{all_solutions, cost_with_assignment};
    use super::*;

    fn is_solution(cols: &[u8]) -> bool {
        (0..cols.len()).all(|a| {
            (a + 1..cols.len()).all(|b| {
                cols[a] != cols[b] && (cols[a] as usize).abs_diff(cols[b] as usize) != b - a
            })
        })
    }

    /// On random boards of side 6 to 9: the stays of a cheapest target (every solution scored)
    /// complete, with as many far movers as that target needs, to a target of the same cost;
    /// with one fewer, to none.
    #[test]
    fn the_stays_of_a_cheapest_target_complete_to_its_cost() {
        for n in 6..=9 {
            let solutions: Vec<Vec<u8>> =
                all_solutions(n).into_iter().map(|s| s.to_vec()).collect();
            for seed in 0..40 {
                let queens = random_queens(n, seed * 31 + n as u64);
                let (best, target) = solutions
                    .iter()
                    .map(|s| (cost_with_assignment(&queens, s).0, s))
                    .min_by_key(|&(c, _)| c)
                    .expect("n >= 6 has solutions");
                let mut stays = 0u64;
                for (i, &(r, c)) in queens.iter().enumerate() {
                    if target[r as usize] == c {
                        stays |= 1 << i;
                    }
                }
                let movers = n as u32 - stays.count_ones();
                let far = best - movers;
                let got = complete(n, &queens, stays, far, u64::MAX)
                    .unwrap_or_else(|| panic!("n {n} seed {seed}: no completion"));
                assert!(is_solution(&got), "n {n} seed {seed}: {got:?}");
                for (i, &(r, c)) in queens.iter().enumerate() {
                    if stays >> i & 1 == 1 {
                        assert_eq!(got[r as usize], c);
                    }
                }
                assert_eq!(
                    cost_with_assignment(&queens, &got).0,
                    best,
                    "n {n} seed {seed}"
                );
                if far > 0 {
                    assert!(complete(n, &queens, stays, far - 1, u64::MAX).is_none());
                }
            }
        }
    }

    #[test]
    fn attacking_stays_have_no_completion() {
        let queens: Vec<Sq> = vec![
            (0, 0),
            (1, 1),
            (2, 4),
            (3, 6),
            (4, 3),
            (5, 5),
            (6, 2),
            (7, 7),
        ];
        assert!(complete(8, &queens, 0b11, 8, u64::MAX).is_none());
    }
}
