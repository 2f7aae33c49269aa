//! The bitset search: for every open row the columns still free in it, and for every open
//! column the rows still free in it (the same squares, seen both ways, so that a row and a
//! column are equally cheap to look at). A queen placed clears its row, its column and both
//! diagonals from the open lines; a line with one free square forces it, a line with none
//! fails; otherwise the search branches on a line with the fewest free squares, trying its
//! first square and then, with that square removed, propagating again (two-way branching).

use crate::primitive::cpu::{level_copies, on_level, pdep, Bmi2, Level};
use crate::Deadline;

/// A search state: `2 * n` masks (the open rows' free columns, then the open columns' free
/// rows), the open rows and columns, and the queens placed so far (given ones first).
#[derive(Clone, Debug)]
pub(crate) struct State {
    pub lines: Vec<u64>,
    pub open_rows: u64,
    pub open_cols: u64,
    pub queens: Vec<(usize, usize)>,
}

/// Clears from the open lines every square that a queen on `(r, c)` attacks, and closes its
/// row and column.
#[inline(always)]
fn place(
    lines: &mut [u64],
    n: usize,
    open_rows: &mut u64,
    open_cols: &mut u64,
    r: usize,
    c: usize,
) {
    *open_rows &= !(1u64 << r);
    *open_cols &= !(1u64 << c);
    let (rows, cols) = lines.split_at_mut(n);
    let col_bit = 1u64 << c;
    let mut m = *open_rows;
    while m != 0 {
        let r2 = m.trailing_zeros() as usize;
        m &= m - 1;
        let d = r2.abs_diff(r);
        rows[r2] &= !(col_bit | col_bit << d | col_bit >> d);
    }
    let row_bit = 1u64 << r;
    let mut m = *open_cols;
    while m != 0 {
        let c2 = m.trailing_zeros() as usize;
        m &= m - 1;
        let d = c2.abs_diff(c);
        cols[c2] &= !(row_bit | row_bit << d | row_bit >> d);
    }
}

/// The diagonals that the queens still to place may use, as far as their totals tell: `None`
/// when no completion exists below; `Some(None)` when every diagonal that holds a free square
/// may be used; else the sum diagonals (`r + c`, bit per index) and the difference diagonals
/// (`r - c + n - 1`) that some completion could still use, fewer than hold a free square.
///
/// Every completion puts one queen on each open row and each open column, so the sum
/// diagonals of the `k` queens still to place add up to the open rows' indices plus the open
/// columns', and their difference diagonals to the rows' minus the columns' plus `k (n - 1)`;
/// in each family they are `k` distinct diagonals that hold a free square. A diagonal that
/// cannot be among `k` such that reach the total (with the largest or the smallest of the
/// others) is left out.
#[inline(always)]
fn usable_diagonals(
    lines: &[u64],
    n: usize,
    open_rows: u64,
    open_cols: u64,
    bmi2: Option<Bmi2>,
) -> Option<Option<(u128, u128)>> {
    let k = open_rows.count_ones();
    let (row_total, col_total) = (index_sum(open_rows), index_sum(open_cols));
    let (all_sums, all_differences) = if n <= 32 {
        // The 2n - 1 diagonals of a family fit one word.
        let (mut sums, mut differences) = (0u64, 0u64);
        let mut m = open_rows;
        while m != 0 {
            let r = m.trailing_zeros();
            m &= m - 1;
            sums |= lines[r as usize] << r;
        }
        let mut m = open_cols;
        while m != 0 {
            let c = m.trailing_zeros();
            m &= m - 1;
            differences |= lines[n + c as usize] << (n as u32 - 1 - c);
        }
        (sums as u128, differences as u128)
    } else {
        let (mut sums, mut differences) = (0u128, 0u128);
        let mut m = open_rows;
        while m != 0 {
            let r = m.trailing_zeros();
            m &= m - 1;
            sums |= (lines[r as usize] as u128) << r;
        }
        let mut m = open_cols;
        while m != 0 {
            let c = m.trailing_zeros();
            m &= m - 1;
            differences |= (lines[n + c as usize] as u128) << (n as u32 - 1 - c);
        }
        (sums, differences)
    };
    let sums = usable_for_total(all_sums, k, row_total + col_total, bmi2)?;
    let differences = usable_for_total(
        all_differences,
        k,
        row_total + k * (n as u32 - 1) - col_total,
        bmi2,
    )?;
    Some((sums != all_sums || differences != all_differences).then_some((sums, differences)))
}

/// The indices in `available` that can be among `k` distinct ones adding up to `total`, as far
/// as the `k` largest and the `k` smallest tell; `None` when no `k` of them can. (`bmi2`: the
/// `k` smallest are picked by one `pdep`.)
#[inline(always)]
fn usable_for_total(available: u128, k: u32, total: u32, bmi2: Option<Bmi2>) -> Option<u128> {
    let count = available.count_ones();
    if count < k {
        return None;
    }
    if k == 0 {
        return Some(available);
    }
    let (smallest, largest, kth_smallest, kth_largest) = if available >> 64 == 0 {
        // Boards up to 32 x 32: the diagonals fit one word.
        let a = available as u64;
        let lowest = |j: u32| if j >= 64 { u64::MAX } else { (1u64 << j) - 1 };
        let low = pdep(lowest(k), a, bmi2);
        let high = a & !pdep(lowest(count - k), a, bmi2);
        (
            index_sum(low),
            index_sum(high),
            63 - low.leading_zeros(),
            high.trailing_zeros(),
        )
    } else {
        let (mut smallest, mut largest) = (0u32, 0u32);
        let (mut low, mut high) = (available, available);
        let (mut kth_smallest, mut kth_largest) = (0, 0);
        for _ in 0..k {
            kth_smallest = low.trailing_zeros();
            smallest += kth_smallest;
            low &= low - 1;
            kth_largest = 127 - high.leading_zeros();
            largest += kth_largest;
            high &= !(1u128 << kth_largest);
        }
        (smallest, largest, kth_smallest, kth_largest)
    };
    if total < smallest || total > largest {
        return None;
    }
    // Used with the k - 1 largest others, index a reaches `largest - kth_largest + a`: below
    // `total` when a < total - largest + kth_largest; likewise from the smallest side.
    let from = (total + kth_largest).saturating_sub(largest);
    let to = total + kth_smallest - smallest;
    let mut usable = available & (u128::MAX << from);
    if to < 127 {
        usable &= (1u128 << (to + 1)) - 1;
    }
    Some(usable)
}

/// The sum of the indices of the set bits of `mask`.
#[inline(always)]
fn index_sum(mask: u64) -> u32 {
    const BIT: [u64; 6] = [
        0xaaaa_aaaa_aaaa_aaaa,
        0xcccc_cccc_cccc_cccc,
        0xf0f0_f0f0_f0f0_f0f0,
        0xff00_ff00_ff00_ff00,
        0xffff_0000_ffff_0000,
        0xffff_ffff_0000_0000,
    ];
    (0..6).map(|j| (mask & BIT[j]).count_ones() << j).sum()
}

/// Clears from the open lines every square off the usable `sums` and `differences`
/// diagonals ([`usable_diagonals`]).
#[inline(always)]
fn narrow_to_diagonals(
    lines: &mut [u64],
    n: usize,
    open_rows: u64,
    open_cols: u64,
    sums: u128,
    differences: u128,
) {
    let (rows, cols) = lines.split_at_mut(n);
    let mut m = open_rows;
    while m != 0 {
        let r = m.trailing_zeros() as usize;
        m &= m - 1;
        // Column c of row r lies on difference diagonal r + (n - 1 - c): bit n - 1 - c of
        // `differences >> r`, so that mask is read backwards.
        let reversed = ((differences >> r) as u64).reverse_bits() >> (64 - n);
        rows[r] &= (sums >> r) as u64 & reversed;
    }
    let mut m = open_cols;
    while m != 0 {
        let c = m.trailing_zeros() as usize;
        m &= m - 1;
        cols[c] &= (sums >> c) as u64 & (differences >> (n - 1 - c)) as u64;
    }
}

impl State {
    /// The state of an n x n board whose free squares are `free(r, c)`, with the rows and
    /// columns in `open_rows` and `open_cols` needing a queen, after placing `given` (which the
    /// caller has checked to be on the board and mutually non-attacking).
    pub fn new(
        n: usize,
        free: impl Fn(usize, usize) -> bool,
        mut open_rows: u64,
        mut open_cols: u64,
        given: &[(usize, usize)],
    ) -> State {
        let mut lines = vec![0u64; 2 * n];
        for r in 0..n {
            for c in 0..n {
                if open_rows >> r & 1 == 1 && open_cols >> c & 1 == 1 && free(r, c) {
                    lines[r] |= 1 << c;
                    lines[n + c] |= 1 << r;
                }
            }
        }
        for &(r, c) in given {
            place(&mut lines, n, &mut open_rows, &mut open_cols, r, c);
        }
        State {
            lines,
            open_rows,
            open_cols,
            queens: given.to_vec(),
        }
    }
}

/// What the search does with a completion: `true` to go on, `false` to stop.
pub(crate) type Visit<'v> = &'v mut dyn FnMut(&[(usize, usize)]) -> bool;

/// One depth-first search over a [`State`].
pub(crate) struct Search<'a, 'v> {
    n: usize,
    /// One block of `2 * n` masks per level.
    stack: Vec<u64>,
    queens: Vec<(usize, usize)>,
    /// Branching decisions taken (left branches), plus one for the root.
    pub nodes: u64,
    next_poll: u64,
    deadline: &'a Deadline,
    /// Polled with the deadline: `true` ends the search as the deadline would.
    give_up: Option<&'a (dyn Fn() -> bool + Sync)>,
    /// Whether the deadline, the cancel flag or `give_up` ended the search.
    pub stopped: bool,
    visit: Visit<'v>,
    /// The level at which the search records its states instead of searching them.
    split_at: usize,
    /// The states recorded at `split_at`.
    pub pieces: Vec<State>,
    /// The instruction-set level whose copy of the search runs ([`Level::current`]).
    level: Level,
    /// BMI2 where the level uses `pdep` ([`Level::fast_pext`]).
    bmi2: Option<Bmi2>,
}

/// One copy of the search, recursing into itself; compiled once per instruction-set level.
macro_rules! search_copy {
    ($(#[$attribute:meta])* fn $name:ident) => {
        $(#[$attribute])*
        fn $name(&mut self, level: usize, mut open_rows: u64, mut open_cols: u64) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.next_poll = self.nodes + 4096;
            if self.deadline.reached() || self.give_up.is_some_and(|give_up| give_up()) {
                self.stopped = true;
            }
        }
        if self.stopped {
            return true;
        }
        let n = self.n;
        let w = 2 * n;
        let base = level * w;
        if level == self.split_at {
            self.pieces.push(State {
                lines: self.stack[base..base + w].to_vec(),
                open_rows,
                open_cols,
                queens: self.queens.clone(),
            });
            return false;
        }
        let given = self.queens.len();
        let stop = loop {
            if open_rows == 0 {
                if self.split_at != usize::MAX {
                    // Above the cut, a completion is a piece of its own (searching it visits it
                    // once), so that the pieces hold every completion.
                    self.pieces.push(State {
                        lines: self.stack[base..base + w].to_vec(),
                        open_rows,
                        open_cols,
                        queens: self.queens.clone(),
                    });
                    break false;
                }
                break !(self.visit)(&self.queens);
            }
            let lines = &self.stack[base..base + w];
            let mut best = (u32::MAX, 0usize);
            let mut forced = None;
            let mut failed = false;
            let mut m = open_rows;
            while m != 0 {
                let r = m.trailing_zeros() as usize;
                m &= m - 1;
                let free = lines[r];
                let k = free.count_ones();
                if k <= 1 {
                    failed = k == 0;
                    forced = Some((r, free.trailing_zeros() as usize));
                    break;
                }
                let score = k << 8 | r.abs_diff(n - 1 - r) as u32;
                if score < best.0 {
                    best = (score, r);
                }
            }
            if forced.is_none() {
                let mut m = open_cols;
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let free = lines[n + c];
                    let k = free.count_ones();
                    if k <= 1 {
                        failed = k == 0;
                        forced = Some((free.trailing_zeros() as usize, c));
                        break;
                    }
                    let score = k << 8 | c.abs_diff(n - 1 - c) as u32;
                    if score <= best.0 {
                        best = (score, n + c);
                    }
                }
            }
            if failed {
                break false;
            }
            if let Some((r, c)) = forced {
                let lines = &mut self.stack[base..base + w];
                place(lines, n, &mut open_rows, &mut open_cols, r, c);
                self.queens.push((r, c));
                continue;
            }
            let Some(narrowed) = usable_diagonals(lines, n, open_rows, open_cols, self.bmi2)
            else {
                break false;
            };
            if let Some((sums, differences)) = narrowed {
                let lines = &mut self.stack[base..base + w];
                narrow_to_diagonals(lines, n, open_rows, open_cols, sums, differences);
                continue;
            }
            let line = best.1;
            // The free square nearest the middle of the line first.
            let mut first = 0;
            let mut m = self.stack[base + line];
            let mut nearest = usize::MAX;
            while m != 0 {
                let v = m.trailing_zeros() as usize;
                m &= m - 1;
                let d = v.abs_diff(n - 1 - v);
                if d < nearest {
                    (nearest, first) = (d, v);
                }
            }
            let (r, c) = if line < n {
                (line, first)
            } else {
                (first, line - n)
            };
            let (here, below) = self.stack[base..base + 2 * w].split_at_mut(w);
            below.copy_from_slice(here);
            let (mut rows_below, mut cols_below) = (open_rows, open_cols);
            place(below, n, &mut rows_below, &mut cols_below, r, c);
            self.queens.push((r, c));
            if self.$name(level + 1, rows_below, cols_below) {
                break true;
            }
            self.queens.pop();
            self.stack[base + r] &= !(1u64 << c);
            self.stack[base + n + c] &= !(1u64 << r);
        };
        self.queens.truncate(given);
        stop
    }
    };
}

impl<'a, 'v> Search<'a, 'v> {
    /// A search of boards of side `n` calling `visit` on every completion.
    pub fn new(n: usize, deadline: &'a Deadline, visit: Visit<'v>) -> Self {
        Search {
            n,
            stack: vec![0; (n + 2) * 2 * n],
            queens: Vec::with_capacity(n),
            nodes: 0,
            next_poll: 0,
            deadline,
            give_up: None,
            stopped: false,
            visit,
            split_at: usize::MAX,
            pieces: Vec::new(),
            level: Level::current(),
            bmi2: Level::current().fast_pext(),
        }
    }

    /// Records the states reached after `level` branching decisions in [`Search::pieces`]
    /// instead of searching below them, and each completion found above that level as a piece
    /// of its own (in the order the search meets them): the pieces then hold every completion,
    /// and the visitor is never called.
    pub fn split_at(mut self, level: usize) -> Self {
        self.split_at = level;
        self
    }

    /// Ends the search (as the deadline would) when `give_up`, polled with the deadline,
    /// returns `true`.
    pub fn give_up_when(mut self, give_up: &'a (dyn Fn() -> bool + Sync)) -> Self {
        self.give_up = Some(give_up);
        self
    }

    /// Searches below `state`; `true` when the visitor or the deadline stopped the search.
    pub fn run(&mut self, state: &State) -> bool {
        let w = 2 * self.n;
        self.stack[..w].copy_from_slice(&state.lines);
        self.queens.clear();
        self.queens.extend_from_slice(&state.queens);
        self.search(0, state.open_rows, state.open_cols)
    }

    /// Searches below the state at `level`: the copy compiled for x86-64-v3 where the CPU
    /// has it (popcount in one instruction), else the portable one.
    fn search(&mut self, level: usize, open_rows: u64, open_cols: u64) -> bool {
        on_level!(
            self.level,
            self.search_baseline(level, open_rows, open_cols),
            self.search_v3(level, open_rows, open_cols)
        )
    }

    level_copies!(search_copy, search_baseline, search_v3);
}

#[cfg(test)]
mod tests {
    use super::usable_for_total;
    use crate::primitive::rng::Xorshift64 as Rng;

    /// Every index that is one of `k` distinct indices of `available` adding up to `total`.
    fn used_by_some(available: u128, k: u32, total: u32) -> Option<u128> {
        let bits: Vec<u32> = (0..128).filter(|&b| available >> b & 1 == 1).collect();
        let mut used = 0u128;
        let mut any = false;
        for subset in 0u32..1 << bits.len() {
            if subset.count_ones() != k {
                continue;
            }
            let picked = (0..bits.len()).filter(|&i| subset >> i & 1 == 1);
            if picked.clone().map(|i| bits[i]).sum::<u32>() == total {
                any = true;
                picked.for_each(|i| used |= 1 << bits[i]);
            }
        }
        any.then_some(used)
    }

    #[test]
    fn diagonal_totals_keep_every_index_a_subset_uses() {
        let mut rng = Rng::new(79);
        let (mut refuted, mut narrowed) = (0, 0);
        for _ in 0..4000 {
            let width = 1 + rng.below(12) as u32;
            let available = rng.next_u64() as u128 & ((1u128 << width) - 1);
            let k = rng.below(6) as u32;
            let total = rng.below(4 * width as usize) as u32;
            let exact = used_by_some(available, k, total);
            let bmi2 = crate::primitive::cpu::Bmi2::detect();
            let wide = available << 64;
            let shifted = usable_for_total(wide, k, total + 64 * k, None).map(|u| u >> 64);
            assert_eq!(
                usable_for_total(available, k, total, bmi2),
                usable_for_total(available, k, total, None)
            );
            assert_eq!(shifted, usable_for_total(available, k, total, None));
            match usable_for_total(available, k, total, None) {
                None => {
                    refuted += 1;
                    assert_eq!(exact, None, "{available:b} k {k} total {total}");
                }
                Some(usable) => {
                    assert_eq!(usable & !available, 0);
                    if let Some(exact) = exact {
                        assert_eq!(exact & !usable, 0, "{available:b} k {k} total {total}");
                    }
                    narrowed += (usable != available) as u32;
                }
            }
        }
        assert!(refuted > 100 && narrowed > 100, "{refuted} {narrowed}");
    }
}
