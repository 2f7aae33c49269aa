//! Counting by a meet-in-the-middle join of the upper and lower halves of the board.
//!
//! The board is cut into its upper `h = n / 2` rows and its lower rows (for odd `n` the
//! middle row `h` is set apart and holds the unit's fixed *middle queen*). A solution puts the
//! queens of the upper half on some set `S` of `h` columns and those of the lower half on the
//! other columns, so the solutions fall into independent [`JoinUnit`]s by `S` (and the middle
//! queen's column). Within a unit, every placement of the upper half on exactly the columns
//! `S` and every placement of the lower half on the rest are listed once, each reduced to its
//! *key*: the columns at which its queens' two kinds of diagonals cross the meeting row `h`,
//! `n` bits for each kind. An upper and a lower half make a solution exactly when their keys
//! are disjoint (the columns already are, rows never meet, and only diagonals that cross row
//! `h` can hold a queen of each half). The pairs are counted by a bit-sliced matcher
//! ([`disjoint_pairs`]): the keys of one side are transposed into blocks of 512, one 512-bit
//! set per key bit of the blocks' members that lack that bit, and ANDed four key bits at a
//! time from precomputed tables, so one key of the other side is tested against 512 at once.
//!
//! Symmetry: the reflections across the middle row and the middle column and the half turn
//! map units to units (`S` to its complement, its mirror image, or both), so one unit per
//! class is counted and weighted by the size of its class (its *orbit*, 1, 2 or 4), which
//! keeps [`super::Tally`]'s exact unique count valid. Only solutions symmetric under the half
//! turn lie in classes of fewer than 8; they can only be in units that the half turn maps to
//! themselves, where a small search over the upper half finds and classifies them.

use super::kernel::stabilizer_order;
use super::UnitCounts;
use crate::cpu::{has_v3, has_v4, Level};
use crate::Deadline;

/// No middle queen (even `n`).
const NO_MIDDLE: u8 = u8::MAX;

/// One unit of the join: the solutions whose upper half takes the columns `upper` (and, for
/// odd `n`, whose middle row holds its queen in column `middle`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct JoinUnit {
    /// Board size.
    pub(crate) n: u8,
    /// Columns of the upper half's queens.
    pub(crate) upper: u32,
    /// Column of the middle row's queen (odd `n`), or [`NO_MIDDLE`].
    pub(crate) middle: u8,
    /// Units in its class (each solution found stands for `orbit`).
    pub(crate) orbit: u8,
}

/// The columns mirrored left to right.
fn mirror(n: u32, cols: u32) -> u32 {
    cols.reverse_bits() >> (32 - n)
}

/// The images of unit `(upper, middle)` under the four symmetries that keep the cut.
fn images(n: u32, upper: u32, middle: u8) -> [(u32, u8); 4] {
    let full = u32::MAX >> (32 - n);
    let (mid_bit, mid_mirror) = if middle == NO_MIDDLE {
        (0, NO_MIDDLE)
    } else {
        (1u32 << middle, (n - 1) as u8 - middle)
    };
    let lower = full & !upper & !mid_bit;
    [
        (upper, middle),
        (lower, middle),
        (mirror(n, upper), mid_mirror),
        (mirror(n, lower), mid_mirror),
    ]
}

/// Whether the join counts boards of size `n` (it needs at least two rows in each half).
pub(crate) fn applies(n: u32) -> bool {
    (4..=32).contains(&n)
}

/// One unit per class, in increasing order of `(middle, upper)`.
pub(crate) fn join_units(n: u32) -> Vec<JoinUnit> {
    let h = n / 2;
    let middles: Vec<u8> = if n % 2 == 1 {
        (0..n as u8).collect()
    } else {
        vec![NO_MIDDLE]
    };
    let mut units = Vec::new();
    for &middle in &middles {
        let mid_bit = if middle == NO_MIDDLE { 0 } else { 1u32 << middle };
        // Every h-subset of the columns except the middle one, in increasing order.
        let full = u32::MAX >> (32 - n);
        let allowed = full & !mid_bit;
        let mut s: u64 = (1u64 << h) - 1;
        while s < 1 << (n - (middle != NO_MIDDLE) as u32) {
            let upper = deposit(s as u32, allowed);
            let mut im = images(n, upper, middle);
            let me = (upper, middle);
            if im.iter().all(|&i| (i.1, i.0) >= (me.1, me.0)) {
                im.sort_unstable();
                let orbit = 1 + im.windows(2).filter(|w| w[0] != w[1]).count();
                units.push(JoinUnit {
                    n: n as u8,
                    upper,
                    middle,
                    orbit: orbit as u8,
                });
            }
            // Next subset with the same number of bits (Gosper's hack).
            let c = s & s.wrapping_neg();
            let r = s + c;
            s = (((r ^ s) >> 2) / c) | r;
        }
    }
    units
}

/// The bits of `x` placed, lowest first, on the set bits of `mask`.
fn deposit(mut x: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    while x != 0 && mask != 0 {
        let bit = mask & mask.wrapping_neg();
        if x & 1 == 1 {
            out |= bit;
        }
        x >>= 1;
        mask ^= bit;
    }
    out
}

/// The search of one half: rows `first`, `first + step`, ... (`rows` of them), each queen on
/// a column of `allowed` not attacked by the queens above it in this half nor by `fixed[row]`.
struct HalfSearch<'a> {
    n: u32,
    full: u32,
    allowed: u32,
    fixed: &'a [u32; 32],
    first: u32,
    rows: u32,
    down: bool,
    /// Shift the masks once more after the last row (to the meeting row), or key them at
    /// the last row itself (its queen included).
    shift_last: bool,
}

impl HalfSearch<'_> {
    /// Appends the key of every placement to `out`.
    #[inline(always)]
    fn keys(&self, out: &mut Vec<u64>) {
        self.go(0, 0, 0, 0, out);
    }

    #[inline(always)]
    fn go(&self, level: u32, cols: u32, a: u32, b: u32, out: &mut Vec<u64>) {
        let row = if self.down {
            self.first + level
        } else {
            self.first - level
        };
        let mut free =
            self.allowed & !(cols | a | b | self.fixed[row as usize]) & self.full;
        let last = level + 1 == self.rows;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let (na, nb) = (a | bit, b | bit);
            let (na, nb) = if last && !self.shift_last {
                (na, nb)
            } else if self.down {
                (na >> 1, (nb << 1) & self.full)
            } else {
                ((na << 1) & self.full, nb >> 1)
            };
            if last {
                out.push(na as u64 | (nb as u64) << self.n);
            } else {
                self.go(level + 1, cols | bit, na, nb, out);
            }
        }
    }
}

/// Patterns per block of the matcher (one 512-bit set per table entry).
const BLOCK: usize = 512;
/// 64-bit words per block.
const LANES: usize = BLOCK / 64;
/// Key bits per table (16 entries each).
const CHUNK: u32 = 4;

type Set = [u64; LANES];

/// The number of pairs (a, b), a in `items`, b in `patterns`, with `a & b == 0`; keys have
/// at most `bits` bits.
#[inline(always)]
fn disjoint_pairs(items: &[u64], patterns: &[u64], bits: u32, tables: &mut Vec<[Set; 16]>) -> u64 {
    if items.is_empty() || patterns.is_empty() {
        return 0;
    }
    if patterns.len() < 64 || items.len() < 16 {
        let mut total = 0u64;
        for &b in items {
            let mut here = 0u32;
            for &a in patterns {
                here += (a & b == 0) as u32;
            }
            total += here as u64;
        }
        return total;
    }
    let chunks = bits.div_ceil(CHUNK) as usize;
    tables.clear();
    tables.resize(chunks, [[0; LANES]; 16]);
    let mut total = 0u64;
    for block in patterns.chunks(BLOCK) {
        // by_bit[b]: members of the block without key bit b.
        let mut by_bit = [[0u64; LANES]; 64];
        let mut present = [0u64; LANES];
        for (i, &p) in block.iter().enumerate() {
            present[i / 64] |= 1 << (i % 64);
            let mut absent = !p & (u64::MAX >> (64 - bits));
            while absent != 0 {
                let b = absent.trailing_zeros() as usize;
                absent &= absent - 1;
                by_bit[b][i / 64] |= 1 << (i % 64);
            }
        }
        for (ch, table) in tables.iter_mut().enumerate() {
            table[0] = if ch == 0 { present } else { [u64::MAX; LANES] };
            for v in 1..16usize {
                let low = v.trailing_zeros() as usize;
                let b = ch * CHUNK as usize + low;
                let prev = table[v & (v - 1)];
                let with = if b < 64 { by_bit[b] } else { [0; LANES] };
                for w in 0..LANES {
                    table[v][w] = prev[w] & with[w];
                }
            }
        }
        for &x in items {
            let mut acc = tables[0][(x & 15) as usize];
            for (ch, table) in tables.iter().enumerate().skip(1) {
                let t = &table[(x >> (ch as u32 * CHUNK) & 15) as usize];
                for w in 0..LANES {
                    acc[w] &= t[w];
                }
            }
            let mut here = 0u64;
            for word in acc {
                here += word.count_ones() as u64;
            }
            total += here;
        }
    }
    total
}

/// Buffers reused between units on one thread.
#[derive(Default)]
struct Scratch {
    upper: Vec<u64>,
    lower: Vec<u64>,
    tables: Vec<[Set; 16]>,
}

/// The number of solutions of `unit`, all of them (the join).
#[inline(always)]
fn total_of(unit: &JoinUnit, scratch: &mut Scratch) -> u64 {
    let n = unit.n as u32;
    let h = n / 2;
    let full = u32::MAX >> (32 - n);
    let mut fixed = [0u32; 32];
    let mut mid_bit = 0;
    if unit.middle != NO_MIDDLE {
        let c = unit.middle as i32;
        mid_bit = 1u32 << c;
        for (r, f) in fixed.iter_mut().enumerate().take(n as usize) {
            let d = r as i32 - h as i32;
            for col in [c - d, c + d] {
                if (0..n as i32).contains(&col) {
                    *f |= 1 << col;
                }
            }
        }
    }
    let lower_cols = full & !unit.upper & !mid_bit;
    let odd = n % 2 == 1;
    scratch.upper.clear();
    scratch.lower.clear();
    HalfSearch {
        n,
        full,
        allowed: unit.upper,
        fixed: &fixed,
        first: 0,
        rows: h,
        down: true,
        shift_last: true,
    }
    .keys(&mut scratch.upper);
    if scratch.upper.is_empty() {
        return 0;
    }
    HalfSearch {
        n,
        full,
        allowed: lower_cols,
        fixed: &fixed,
        first: n - 1,
        rows: n - h - odd as u32,
        down: false,
        shift_last: odd,
    }
    .keys(&mut scratch.lower);
    let (items, patterns) = if scratch.upper.len() <= scratch.lower.len() {
        (&scratch.upper, &scratch.lower)
    } else {
        (&scratch.lower, &scratch.upper)
    };
    disjoint_pairs(items, patterns, 2 * n, &mut scratch.tables)
}

/// [`total_of`] compiled for `level` (or the best level below it the CPU has).
fn total_at(level: Level, unit: &JoinUnit, scratch: &mut Scratch) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        if level == Level::V4 && has_v4() {
            #[allow(unsafe_code)]
            // SAFETY: the CPU has every feature `total_v4` is compiled with (has_v4 was just
            // checked at run time).
            return unsafe { total_v4(unit, scratch) };
        }
        if level >= Level::V3 && has_v3() {
            #[allow(unsafe_code)]
            // SAFETY: the CPU has every feature `total_v3` is compiled with (has_v3 was just
            // checked at run time).
            return unsafe { total_v3(unit, scratch) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = level;
    total_of(unit, scratch)
}

/// [`total_of`] for x86-64-v3: to be called only where the CPU has its features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,sse3,ssse3,sse4.1,sse4.2,avx,avx2,bmi1,bmi2,lzcnt,fma")]
fn total_v3(unit: &JoinUnit, scratch: &mut Scratch) -> u64 {
    total_of(unit, scratch)
}

/// [`total_of`] for x86-64-v4 with VPOPCNTDQ: to be called only where the CPU has them.
#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "popcnt,sse3,ssse3,sse4.1,sse4.2,avx,avx2,bmi1,bmi2,lzcnt,fma,avx512f,avx512vl,avx512bw,avx512dq,avx512cd,avx512vpopcntdq"
)]
fn total_v4(unit: &JoinUnit, scratch: &mut Scratch) -> u64 {
    total_of(unit, scratch)
}

/// Whether the half turn maps the unit onto itself (only then can it hold solutions that the
/// half turn fixes).
fn half_turn_fixed(unit: &JoinUnit) -> bool {
    let n = unit.n as u32;
    let im = images(n, unit.upper, unit.middle);
    im[3] == (unit.upper, unit.middle)
}

/// Finds the unit's solutions that the half turn fixes, records their classes in `counts`
/// and returns how many there are. Such a solution is its upper half (and middle queen) plus
/// that half turned, so a search over the upper half finds them all.
fn classify_symmetric(unit: &JoinUnit, counts: &mut UnitCounts) -> u64 {
    let n = unit.n as usize;
    let h = n / 2;
    let mut board = [0u8; 32];
    let mut found = 0;
    if unit.middle != NO_MIDDLE {
        board[h] = unit.middle;
    }
    fn go(
        n: usize,
        r: usize,
        h: usize,
        upper: u32,
        board: &mut [u8; 32],
        counts: &mut UnitCounts,
        found: &mut u64,
    ) {
        if r == h {
            for i in 0..h {
                board[n - 1 - i] = (n - 1) as u8 - board[i];
            }
            let ok = (0..n).all(|i| {
                (i + 1..n).all(|j| {
                    let (a, b) = (board[i] as i32, board[j] as i32);
                    a != b && (a - b).abs() != (j - i) as i32
                })
            });
            if ok {
                *found += 1;
                let class = 8 / stabilizer_order(n, board);
                counts.found[class.trailing_zeros() as usize] += 1;
            }
            return;
        }
        let mut free = upper;
        while free != 0 {
            let c = free.trailing_zeros();
            free &= free - 1;
            if (0..r).any(|i| board[i] as u32 == c || (board[i] as i32 - c as i32).abs() == (r - i) as i32) {
                continue;
            }
            board[r] = c as u8;
            go(n, r + 1, h, upper, board, counts, found);
        }
    }
    go(n, 0, h, unit.upper, &mut board, counts, &mut found);
    found
}

/// Counts one unit's solutions by the size of their class.
fn count_unit_with(level: Level, unit: &JoinUnit, scratch: &mut Scratch) -> UnitCounts {
    let mut counts = UnitCounts::default();
    let total = total_at(level, unit, scratch);
    let symmetric = if half_turn_fixed(unit) {
        classify_symmetric(unit, &mut counts)
    } else {
        0
    };
    counts.found[3] += total - symmetric;
    counts
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// Counts one unit's solutions by the size of their class (`None` if the deadline passed
/// before it started).
pub(crate) fn count_join_unit(unit: &JoinUnit, deadline: &Deadline) -> Option<UnitCounts> {
    if deadline.reached() {
        return None;
    }
    Some(SCRATCH.with(|s| count_unit_with(Level::current(), unit, &mut s.borrow_mut())))
}
