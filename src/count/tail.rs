//! Closing the last five free rows of a unit at once, without branches.
//!
//! With five rows left exactly five columns are free. Each of the 120 ways to give those
//! columns to the rows is one bit of a `u128`. A way is allowed when every queen stands on a
//! free square of its row (what the queens above leave, looked up per row from the row's free
//! columns) and no two of the five share a diagonal (which depends only on the distances
//! between the free columns, looked up from their gaps). The number of solutions below is the
//! number of allowed ways.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Rows (and free columns) the tail closes.
pub(crate) const TAIL_ROWS: usize = 5;

/// The 120 orderings of five columns, `PERMUTATIONS[i][row]` = the column index (0..5, left to
/// right among the free columns) given to the row.
const PERMUTATIONS: [[u8; TAIL_ROWS]; 120] = permutations();

const fn permutations() -> [[u8; TAIL_ROWS]; 120] {
    let mut out = [[0u8; TAIL_ROWS]; 120];
    let mut count = 0;
    let mut code = 0;
    // All 5-digit base-5 numbers whose digits are distinct, in increasing order.
    while code < 3125 {
        let mut digits = [0u8; TAIL_ROWS];
        let mut rest = code;
        let mut seen = 0u32;
        let mut distinct = true;
        let mut row = TAIL_ROWS;
        while row > 0 {
            row -= 1;
            let digit = (rest % 5) as u8;
            rest /= 5;
            digits[row] = digit;
            if seen & (1 << digit) != 0 {
                distinct = false;
            }
            seen |= 1 << digit;
        }
        if distinct {
            out[count] = digits;
            count += 1;
        }
        code += 1;
    }
    out
}

/// `ROW_WAYS[row][m]`: the orderings that give `row` one of the columns in the 5-bit set `m`.
static ROW_WAYS: [[u128; 32]; TAIL_ROWS] = row_ways();

const fn row_ways() -> [[u128; 32]; TAIL_ROWS] {
    let mut out = [[0u128; 32]; TAIL_ROWS];
    let mut row = 0;
    while row < TAIL_ROWS {
        let mut m = 0;
        while m < 32 {
            let mut ways = 0u128;
            let mut i = 0;
            while i < 120 {
                if m & (1 << PERMUTATIONS[i][row]) != 0 {
                    ways |= 1 << i;
                }
                i += 1;
            }
            out[row][m] = ways;
            m += 1;
        }
        row += 1;
    }
    out
}

/// The diagonal clashes among the five tail queens for one set of row offsets: for every gap
/// pattern of the free columns (each gap capped at `cap`, beyond which no two tail rows are
/// that far apart), the orderings that put two queens on a diagonal.
#[derive(Debug)]
pub(crate) struct Clashes {
    offsets: [u32; TAIL_ROWS],
    cap: u32,
    by_gaps: Vec<u128>,
}

impl Clashes {
    /// The clash table for tail rows at `offsets` below the first (`offsets[0] == 0`,
    /// increasing), shared by every unit with the same offsets.
    pub(crate) fn for_offsets(offsets: [u32; TAIL_ROWS]) -> Arc<Clashes> {
        static CACHE: OnceLock<Mutex<HashMap<[u32; TAIL_ROWS], Arc<Clashes>>>> = OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .entry(offsets)
            .or_insert_with(|| Arc::new(Clashes::build(offsets)))
            .clone()
    }

    fn build(offsets: [u32; TAIL_ROWS]) -> Clashes {
        let cap = offsets[TAIL_ROWS - 1] + 1;
        // by_distance[a][b][d]: the orderings that give columns a < b to two rows d apart.
        let mut by_distance = [[[0u128; 32]; TAIL_ROWS]; TAIL_ROWS];
        for (i, perm) in PERMUTATIONS.iter().enumerate() {
            for r in 0..TAIL_ROWS {
                for s in r + 1..TAIL_ROWS {
                    let (a, b) = (perm[r].min(perm[s]), perm[r].max(perm[s]));
                    let d = (offsets[s] - offsets[r]) as usize;
                    by_distance[a as usize][b as usize][d] |= 1 << i;
                }
            }
        }
        let size = (cap as usize).pow(4);
        let mut by_gaps = vec![0u128; size];
        for (index, clashes) in by_gaps.iter_mut().enumerate() {
            // Column positions from the gaps (each 1..=cap).
            let mut position = [0u32; TAIL_ROWS];
            let mut rest = index;
            for k in 1..TAIL_ROWS {
                position[k] = position[k - 1] + (rest % cap as usize) as u32 + 1;
                rest /= cap as usize;
            }
            for a in 0..TAIL_ROWS {
                for b in a + 1..TAIL_ROWS {
                    let d = position[b] - position[a];
                    if d < cap {
                        *clashes |= by_distance[a][b][d as usize];
                    }
                }
            }
        }
        Clashes {
            offsets,
            cap,
            by_gaps,
        }
    }

    /// The number of ways to finish the five tail rows from the masks at the first of them
    /// (`cols` with exactly five free columns below `full`; `ld`, `rd` as in the kernel).
    #[inline(always)]
    pub(crate) fn count(&self, full: u32, cols: u32, ld: u64, rd: u64) -> u64 {
        let free = !cols & full;
        let o = &self.offsets;
        let row = |k: usize| !((ld >> o[k]) as u32 | ((rd << o[k]) >> 32) as u32) & free;
        let allowed = ROW_WAYS[0][compress(row(0), free)]
            & ROW_WAYS[1][compress(row(1), free)]
            & ROW_WAYS[2][compress(row(2), free)]
            & ROW_WAYS[3][compress(row(3), free)]
            & ROW_WAYS[4][compress(row(4), free)];
        let p0 = free.trailing_zeros();
        let f1 = free & (free - 1);
        let p1 = f1.trailing_zeros();
        let f2 = f1 & (f1 - 1);
        let p2 = f2.trailing_zeros();
        let f3 = f2 & (f2 - 1);
        let p3 = f3.trailing_zeros();
        let p4 = 31 - free.leading_zeros();
        let cap = self.cap;
        let gap = |a: u32, b: u32| (b - a).min(cap) - 1;
        let index = gap(p0, p1) + cap * (gap(p1, p2) + cap * (gap(p2, p3) + cap * gap(p3, p4)));
        let ways = allowed & !self.by_gaps[index as usize];
        ways.count_ones() as u64
    }
}

/// The bits of `mask` at the positions of the five bits of `free`, packed into bits 0..5
/// (BMI2's `pext`, one instruction, where the target has it).
#[inline(always)]
fn compress(mask: u32, free: u32) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // The one unsafe block of the crate: `_pext_u32` is marked unsafe only because it needs
        // BMI2, and the cfg above compiles this line only for targets that have it.
        #[allow(unsafe_code)]
        // SAFETY: BMI2 is enabled for the whole build (checked at compile time above).
        unsafe {
            core::arch::x86_64::_pext_u32(mask, free) as usize
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        compress_portable(mask, free)
    }
}

/// [`compress`] without BMI2.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
fn compress_portable(mask: u32, free: u32) -> usize {
    let mut out = 0;
    let mut rest = free;
    let mut k = 0;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        rest ^= bit;
        out |= ((mask & bit != 0) as usize) << k;
        k += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift64*).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    #[test]
    fn orderings_are_the_120_permutations() {
        let mut seen = std::collections::HashSet::new();
        for perm in PERMUTATIONS {
            let mut sorted = perm;
            sorted.sort();
            assert_eq!(sorted, [0, 1, 2, 3, 4]);
            assert!(seen.insert(perm));
        }
        assert_eq!(seen.len(), 120);
    }

    #[test]
    fn compress_packs_the_selected_bits() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..10_000 {
            let (mask, free) = (rng.next() as u32, rng.next() as u32);
            let mut expected = 0;
            let mut k = 0;
            for bit in 0..32 {
                if free >> bit & 1 == 1 {
                    expected |= ((mask >> bit & 1) as usize) << k;
                    k += 1;
                }
            }
            assert_eq!(compress_portable(mask, free), expected);
            assert_eq!(compress(mask, free), expected);
        }
    }

    /// The tail count checked against trying all 120 placements one by one, on random masks:
    /// five free columns among `n`, random diagonals from queens above, random row offsets.
    #[test]
    fn tail_count_matches_trying_every_placement() {
        let mut rng = Rng(12345);
        for _ in 0..20_000 {
            let n = 5 + rng.below(28) as u32;
            let full = u32::MAX >> (32 - n);
            let mut free = 0u32;
            while free.count_ones() < 5 {
                free |= 1 << rng.below(n as u64);
            }
            let cols = !free & full;
            // Sparse random diagonals, so that solutions are not rare.
            let ld = rng.next() & rng.next() & rng.next();
            let rd = rng.next() & rng.next() & rng.next();
            let mut offsets = [0u32; TAIL_ROWS];
            for k in 1..TAIL_ROWS {
                offsets[k] = offsets[k - 1] + 1 + (rng.below(4) == 0) as u32;
            }
            let columns: Vec<u32> = (0..32).filter(|c| free >> c & 1 == 1).collect();
            let mut expected = 0;
            for perm in PERMUTATIONS {
                let column = |row: usize| columns[perm[row] as usize];
                let on_free_squares = (0..TAIL_ROWS).all(|row| {
                    let o = offsets[row];
                    let blocked = (ld >> o) as u32 | ((rd << o) >> 32) as u32;
                    blocked >> column(row) & 1 == 0
                });
                let apart = (0..TAIL_ROWS).all(|a| {
                    (a + 1..TAIL_ROWS)
                        .all(|b| column(a).abs_diff(column(b)) != offsets[b] - offsets[a])
                });
                expected += (on_free_squares && apart) as u64;
            }
            let clashes = Clashes::for_offsets(offsets);
            assert_eq!(
                clashes.count(full, cols, ld, rd),
                expected,
                "{offsets:?} {free:b}"
            );
        }
    }
}
