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
//! set per key bit of the blocks' members that lack that bit, and ANDed five key bits at a
//! time from precomputed tables, so one key of the other side is tested against 512 at once.
//!
//! Symmetry: the reflections across the middle row and the middle column and the half turn
//! map units to units (`S` to its complement, its mirror image, or both), so one unit per
//! class is counted and weighted by the size of its class (its *orbit*, 1, 2 or 4), which
//! keeps [`super::Tally`]'s exact unique count valid. Only solutions symmetric under the half
//! turn lie in classes of fewer than 8; they can only be in units that the half turn maps to
//! themselves, where a small search over the upper half finds and classifies them.
//!
//! Files, bottom up (each imports only those above it): `units` (the units, their classes,
//! the half-turn search), `gather` (bits at a mask by tables), `walk` (the walk over the
//! halves and its sample), `table` (records,
//! buckets, filling and sorting), `matcher` (the bit-sliced pair count), `sieve` (the split in
//! front of it and a unit's total), this file (one unit's count, a run's state) and `batches`
//! (units cut to a memory cap, run over threads).

use super::UnitCounts;
use crate::options::WorkProgress;
use crate::primitive::cpu::Level;
use crate::schedule::Workers;
use crate::{Deadline, Options};
use std::convert::Infallible;

pub(crate) mod batches;
mod gather;
mod matcher;
mod sieve;
mod table;
mod units;
mod walk;

use sieve::*;
use table::*;
use units::*;
pub(crate) use units::{applies, join_units, JoinUnit};
use walk::*;

/// The solutions of one unit made of the given upper and lower halves; `None` when
/// `scratch`'s deadline stopped the count.
fn total_of_unit(
    level: Level,
    unit: &JoinUnit,
    upper: &[u64],
    lower: &[u64],
    scratch: &mut Scratch,
) -> Option<u64> {
    scratch.stopped = false;
    let total = total_at(level, unit, upper, lower, scratch);
    (!scratch.stopped).then_some(total)
}

/// The counts by the size of their class of a unit with `total` solutions.
fn unit_counts(unit: &JoinUnit, total: u64) -> UnitCounts {
    let mut counts = UnitCounts::default();
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
    static SORTING: std::cell::RefCell<Sorting> = std::cell::RefCell::new(Sorting::default());
}

/// Two coarse buckets, each as (table, bucket): the first the smaller.
type BucketKeys = ((usize, usize), (usize, usize));

/// Buffers for sorting the two buckets of a pair, reused between pairs on one thread.
#[derive(Default)]
struct Sorting {
    first: Sorted,
    second: Sorted,
}

/// What a run of [`count_all`] did: its units counted and in all, and the CPU time of the
/// batches it counted, from which a sampled run projects the whole count.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct JoinRun {
    pub(crate) done: u64,
    pub(crate) total: u64,
    /// Batches in all (over every context counted in batches) and those counted.
    pub(crate) batches: u64,
    pub(crate) batches_counted: u64,
    /// CPU seconds (this process's) outside the batches counted.
    pub(crate) other_cpu: f64,
    /// CPU seconds in the batches counted: in filling their tables and in matching.
    pub(crate) fill_cpu: f64,
    pub(crate) match_cpu: f64,
    /// The sampled sizes of the batches' work, in all and in the batches counted: halves in
    /// their tables, and pairs of halves (the product of a unit's two sides) in their units.
    pub(crate) halves: [f64; 2],
    pub(crate) pairs: [f64; 2],
}

impl JoinRun {
    /// The CPU seconds in the batches counted.
    pub(crate) fn batch_cpu(&self) -> f64 {
        self.fill_cpu + self.match_cpu
    }

    /// The CPU seconds of the whole count: the rest, plus the batches' filling and matching
    /// times each scaled by the share of the halves and of the pairs (by the sample) that the
    /// batches counted hold. Exact when every batch was counted.
    pub(crate) fn projected_cpu(&self) -> f64 {
        let scale = |[all, counted]: [f64; 2]| {
            if counted > 0.0 {
                all / counted
            } else {
                self.batches as f64 / self.batches_counted.max(1) as f64
            }
        };
        self.other_cpu + self.fill_cpu * scale(self.halves) + self.match_cpu * scale(self.pairs)
    }
}

/// The columns that the middle queen (in column `middle` of row `n / 2`) attacks, row by row
/// (none without a middle queen).
fn middle_attacks(n: u32, middle: u8) -> [u32; 32] {
    let mut fixed = [0u32; 32];
    if middle != NO_MIDDLE {
        let (c, h) = (middle as i32, (n / 2) as i32);
        for (r, f) in fixed.iter_mut().enumerate().take(n as usize) {
            let d = r as i32 - h;
            for col in [c - d, c + d] {
                if (0..n as i32).contains(&col) {
                    *f |= 1 << col;
                }
            }
        }
    }
    fixed
}

/// The most central columns a batch is cut by (N = 24 needs about 15 under a 4 GiB cap).
const MAX_BATCH_COLUMNS: u32 = 26;

/// The batch columns for one context: the fewest central columns (the middle one left out)
/// such that every batch's two tables fit in `budget` bytes.
fn choose_batch_columns(n: u32, middle: u8, sample: &Sample, record: u64, budget: u64) -> u32 {
    let mid_bit = middle_bit(middle);
    // Columns from the centre outwards.
    let mut order: Vec<u32> = (0..n).filter(|&c| mid_bit >> c & 1 == 0).collect();
    order.sort_by_key(|&c| ((2 * c as i32 - (n as i32 - 1)).abs(), c));
    // The first `k` columns of the order fit when the worst pair of parts does (or when
    // they are the most allowed); adding a column never makes a pair larger, so the least
    // such `k` is found by halving (the sample's sums over 2^N sets cost a second at N = 28).
    let mask_of = |k: usize| order[..k].iter().fold(0u32, |m, &c| m | 1 << c);
    let fits = |k: usize| -> bool {
        let mask = mask_of(k);
        let m = mask.count_ones();
        if m >= MAX_BATCH_COLUMNS || k == order.len() {
            return true;
        }
        let size = sample.by_part(mask);
        let worst = (0..1usize << m)
            .map(|p| size[p] + size[!p & ((1 << m) - 1)])
            .max()
            .unwrap_or(0);
        // Records plus the offsets of both tables.
        sample.scaled(worst) * record + batches::table_slack(n) <= budget
    };
    let (mut low, mut high) = (0, order.len());
    while low < high {
        let mid = (low + high) / 2;
        if fits(mid) {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    mask_of(low)
}

#[cfg(test)]
mod tests {
    use super::batches::{count_all, JoinCut, LARGE_BOARD_MEMORY_MIB};
    use super::gather::*;
    use super::matcher::*;
    use super::*;
    use crate::count::kernel::stabilizer_order;
    use crate::count::Tally;
    use crate::primitive::cpu::pext;

    /// A000170 and A002562 for N = 1..=14.
    const SOLUTIONS: [u128; 14] = [
        1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
    ];
    const UNIQUE: [u128; 14] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752];

    /// Counts by the join with the given table budget, and the counts of every unit.
    fn join_count(n: u32, budget: u64, threads: usize) -> (Tally, Vec<(JoinUnit, UnitCounts)>) {
        let options = Options::with_threads(threads);
        let workers = Workers::new(threads);
        let mut tally = Tally::default();
        let mut seen = Vec::new();
        let cut = JoinCut::new(n, budget, &workers, &Deadline::never()).unwrap();
        let run = count_all(&cut, 1, &workers, &options, &Deadline::never(), |u, c| {
            tally.add_orbit(u.orbit, c);
            seen.push((*u, *c));
        });
        assert_eq!(run.done, run.total);
        assert_eq!(run.batches, run.batches_counted);
        (tally, seen)
    }

    #[test]
    fn join_counts_match_oeis_with_any_batching() {
        for n in 4..=14u32 {
            let i = n as usize - 1;
            // The default budget (no batches), a small one and a tiny one (the most batches).
            for budget in [LARGE_BOARD_MEMORY_MIB << 20, 1 << 16, 1] {
                for threads in [1, 2] {
                    let (tally, _) = join_count(n, budget, threads);
                    assert_eq!(tally.solutions, SOLUTIONS[i], "N = {n}, budget {budget}");
                    assert_eq!(tally.unique(), UNIQUE[i], "N = {n}, budget {budget}");
                }
            }
        }
    }

    /// A sampled run counts exactly every `every`-th batch, and their units are counted as in
    /// the whole run.
    #[test]
    fn a_sampled_run_counts_every_kth_batch_exactly() {
        let n = 13;
        let (_, whole) = join_count(n, 1, 2);
        let whole: std::collections::BTreeMap<JoinUnit, UnitCounts> = whole.into_iter().collect();
        let workers = Workers::new(2);
        for every in [2u64, 3, 7] {
            let mut seen = Vec::new();
            let cut = JoinCut::new(n, 1, &workers, &Deadline::never()).unwrap();
            let run = count_all(
                &cut,
                every,
                &workers,
                &Options::with_threads(2),
                &Deadline::never(),
                |u, c| seen.push((*u, *c)),
            );
            assert!(run.batches > every, "{run:?}");
            assert_eq!(run.batches_counted, run.batches.div_ceil(every), "{run:?}");
            assert_eq!(run.done, seen.len() as u64);
            assert!(0 < run.done && run.done < run.total, "{run:?}");
            for (u, c) in &seen {
                assert_eq!(whole[u], *c, "{u:?}");
            }
            assert!(run.projected_cpu() >= run.batch_cpu() + run.other_cpu - 1e-9);
        }
    }

    /// Every solution of the board by a plain search, with its class size.
    fn all_solutions(n: usize) -> Vec<([u8; 32], usize)> {
        fn go(n: usize, r: usize, board: &mut [u8; 32], out: &mut Vec<([u8; 32], usize)>) {
            if r == n {
                out.push((*board, 8 / stabilizer_order(n, board)));
                return;
            }
            for c in 0..n as u8 {
                let clash = (0..r)
                    .any(|i| board[i] == c || (board[i] as i32 - c as i32).abs() == (r - i) as i32);
                if !clash {
                    board[r] = c;
                    go(n, r + 1, board, out);
                }
            }
        }
        let mut out = Vec::new();
        go(n, 0, &mut [0; 32], &mut out);
        out
    }

    /// Each unit's counts equal those of a plain search restricted to the unit (the upper
    /// half on its columns, its middle queen), class by class, and the orbits add up.
    #[test]
    fn every_unit_matches_the_plain_search() {
        for n in 4..=10u32 {
            let solutions = all_solutions(n as usize);
            let (_, seen) = join_count(n, 1, 2);
            let h = n as usize / 2;
            for (unit, counts) in &seen {
                let mut expected = UnitCounts::default();
                for (board, class) in &solutions {
                    let upper = board[..h].iter().fold(0u32, |s, &c| s | 1 << c);
                    let middle_ok = unit.middle == NO_MIDDLE || board[h] == unit.middle;
                    if upper == unit.upper && middle_ok {
                        expected.found[class.trailing_zeros() as usize] += 1;
                    }
                }
                assert_eq!(*counts, expected, "N = {n}, {unit:?}");
            }
            // The units' classes cover every column set once.
            let orbits: u64 = seen.iter().map(|(u, _)| u.orbit as u64).sum();
            let middles = if n % 2 == 1 { n as u64 } else { 1 };
            let sets = (0..1u64 << (n - (n % 2)))
                .filter(|s| s.count_ones() == h as u32)
                .count();
            assert_eq!(orbits, middles * sets as u64, "N = {n}");
        }
    }

    /// The next value of a small deterministic generator (xorshift).
    fn xorshift(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// Random keys of `bits` bits, each set with `density` per cent, by [`xorshift`].
    fn keys(seed: &mut u64, len: usize, bits: u32, density: u32) -> Vec<u64> {
        (0..len)
            .map(|_| {
                let mut k = 0u64;
                for b in 0..bits {
                    if xorshift(seed) % 100 < density as u64 {
                        k |= 1 << b;
                    }
                }
                k
            })
            .collect()
    }

    /// The matcher that looks at a stop between runs of items counts what the one that does
    /// not counts, on narrow and wide tables, and gives up when told to stop.
    #[test]
    fn polled_matching_counts_the_same_and_stops() {
        let mut seed = 0x0005_eed0_fa11_b0a7_u64;
        for (bits, density) in [(12u32, 20u32), (24, 30), (40, 45)] {
            let items = keys(&mut seed, (1 << 18) + 3000, bits, density);
            let patterns = keys(&mut seed, 700, bits, density);
            for level in [Level::Baseline, Level::current()] {
                let mut tables = Tables::default();
                let whole = match_group(level, &items, &patterns, bits, &mut tables);
                let polled =
                    match_group_until(level, &items, &patterns, bits, &mut tables, || false);
                assert_eq!(polled, Some(whole), "{bits} bits, {level:?}");
                let stopped =
                    match_group_until(level, &items, &patterns, bits, &mut tables, || true);
                assert_eq!(stopped, None);
            }
        }
    }

    /// The sieved, bit-sliced matcher counts the same pairs as the plain loop, on random keys
    /// of every size class (plain, one block, many blocks, narrow and wide tables, sieved with
    /// 1 to 7 cut bits).
    #[test]
    fn matcher_counts_like_the_plain_loop() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut scratch = Scratch::default();
        for &(items, patterns) in &[
            (0, 10),
            (10, 0),
            (5, 700),
            (100, 50),
            (100, 600),
            (300, 2100),
            (70, 5000),
            (900, 9000),
            (2000, 17000),
            // Wide tables (items times the tables they save past `WIDE_FROM`).
            (9000, 1100),
            // A large cut (more than `SMALL_CUT` bits).
            (200, 70000),
        ] {
            for &(bits, density) in &[
                (0, 0),
                (2, 30),
                (3, 20),
                (8, 20),
                (36, 15),
                (42, 12),
                (46, 12),
                (48, 8),
            ] {
                let a = keys(&mut seed, items, bits, density);
                let b = keys(&mut seed, patterns, bits, density);
                let expected = disjoint_pairs_plain(&a, &b);
                // Keys made from the words as they are gathered, and a mask of the bits
                // that count (as a unit's two sides make and squeeze theirs).
                let keep = keys(&mut seed, 1, bits, 60).first().copied().unwrap_or(0);
                let masked = |words: &[u64], shift: u32| -> Vec<u64> {
                    words.iter().map(|&w| (w >> shift) & keep).collect()
                };
                let expected_kept = disjoint_pairs_plain(&masked(&a, 0), &masked(&b, 1));
                for level in Level::ALL.into_iter().filter(|l| l.supported()) {
                    scratch.level = level;
                    assert_eq!(
                        pairs_of(&a, |w| w, &b, |w| w >> 1, keep, &mut scratch),
                        expected_kept,
                        "{items} x {patterns}, {bits} bits, keep {keep:x}, {level:?}"
                    );
                    assert_eq!(
                        disjoint_pairs(&a, &b, bits, &mut scratch),
                        expected,
                        "{items} x {patterns}, {bits} bits, {level:?}"
                    );
                    assert_eq!(
                        match_group(level, &a, &b, bits, &mut scratch.tables),
                        expected,
                        "{items} x {patterns}, {bits} bits, {level:?}"
                    );
                }
            }
        }
    }

    /// The bits of `x` under `mask`, packed low in order (a plain parallel-extract).
    fn extract_bits(x: u64, mask: u64) -> u64 {
        let (mut out, mut i) = (0, 0);
        for b in 0..64 {
            if mask >> b & 1 == 1 {
                out |= (x >> b & 1) << i;
                i += 1;
            }
        }
        out
    }

    /// The contexts of board size `n`: each middle queen's column (or none) and its bit.
    fn contexts(n: u32) -> Vec<(u8, u32)> {
        if n % 2 == 1 {
            return (0..n as u8).map(|m| (m, 1u32 << m)).collect();
        }
        vec![(NO_MIDDLE, 0)]
    }

    /// The sample's starts are every `step`-th of all the walk's starts of a depth, in order,
    /// in every context and for parts' walks with a first row, whatever the step.
    #[test]
    fn every_start_keeps_every_kth_start() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        for n in 6..=14u32 {
            let full = u32::MAX >> (32 - n);
            for (middle, mid_bit) in contexts(n) {
                let symmetric = middle == NO_MIDDLE || 2 * middle as u32 == n - 1;
                let whole = Upper::context(n, &middle_attacks(n, middle), mid_bit, symmetric);
                let seed = xorshift(&mut seed);
                let mask = seed as u32 & full & !mid_bit;
                let mut walks = whole.with_part(mask, (seed >> 32) as u32 & mask);
                walks.push(whole.clone());
                let mut first = whole.clone();
                first.first_row = (seed >> 16) as u32 | 1;
                walks.push(first);
                for walk in &walks {
                    for depth in 0..walk.h as usize {
                        let all = walk.starts(depth);
                        for step in [1u64, 2, 3, 7, 64] {
                            let want: Vec<Start> =
                                all.iter().step_by(step as usize).copied().collect();
                            let (kept, count) = walk.every_start(walk.root(), depth, step);
                            assert_eq!(count, all.len() as u64, "n = {n}, depth {depth}");
                            assert_eq!(kept, want, "n = {n}, depth {depth}, step {step}");
                        }
                    }
                }
            }
        }
    }

    /// The batch columns found by halving are the fewest central columns, as adding them one
    /// at a time finds.
    #[test]
    fn batch_columns_are_the_fewest_that_fit() {
        let workers = Workers::new(2);
        for n in 10..=16u32 {
            for (middle, _) in contexts(n) {
                let walk = batches::context_walk(n, middle);
                let sample = sample_halves(Level::current(), &walk, &workers, &Deadline::never());
                let total = sample.total().max(1);
                for budget in [u64::MAX >> 1, total * 8, total, total / 16, 1] {
                    let mid_bit = middle_bit(middle);
                    let mut order: Vec<u32> = (0..n).filter(|&c| mid_bit >> c & 1 == 0).collect();
                    order.sort_by_key(|&c| ((2 * c as i32 - (n as i32 - 1)).abs(), c));
                    // One column at a time, from none.
                    let mut want = 0u32;
                    for k in 0..=order.len() {
                        want = order[..k].iter().fold(0, |m, &c| m | 1 << c);
                        let m = want.count_ones();
                        let size = sample.by_part(want);
                        let worst = (0..1usize << m)
                            .map(|p| size[p] + size[!p & ((1 << m) - 1)])
                            .max()
                            .unwrap_or(0);
                        let fits = sample.scaled(worst) * 8 + batches::table_slack(n) <= budget;
                        if fits || m >= MAX_BATCH_COLUMNS {
                            break;
                        }
                    }
                    let got = choose_batch_columns(n, middle, &sample, 8, budget);
                    assert_eq!(got, want, "n = {n}, middle {middle}, budget {budget}");
                }
            }
        }
    }

    /// A sample's halves by part, as the sum of its counts by the bits of each set.
    #[test]
    fn sample_sizes_by_part_are_the_sums_of_its_counts() {
        let mut seed = 0x0dd_ba11_cafe_f00du64;
        for n in [5u32, 13, 15, 16] {
            let counts: Vec<u32> = (0..1u32 << n)
                .map(|_| (xorshift(&mut seed) % 5) as u32)
                .collect();
            let sample = Sample {
                counts,
                sampled: 1,
                walks: 1,
            };
            for _ in 0..4 {
                let mask = xorshift(&mut seed) as u32 & (u32::MAX >> (32 - n));
                let mut want = vec![0u64; 1 << mask.count_ones()];
                for (set, &c) in sample.counts.iter().enumerate() {
                    want[extract(set as u32, mask) as usize] += u64::from(c);
                }
                assert_eq!(sample.by_part(mask), want, "n = {n}, mask {mask:b}");
            }
        }
    }

    /// The walks of a part hear exactly the halves of the whole walk that meet the mask in
    /// that part, in every context, mirrored or not, whether its columns are placed or
    /// required.
    #[test]
    fn the_walks_of_a_part_hear_its_halves() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut nonempty = 0;
        for n in 5..=13u32 {
            let full = u32::MAX >> (32 - n);
            for (middle, mid_bit) in contexts(n) {
                let symmetric = middle == NO_MIDDLE || 2 * middle as u32 == n - 1;
                let whole = Upper::context(n, &middle_attacks(n, middle), mid_bit, symmetric);
                let mut heard: Vec<(u32, u64)> = Vec::new();
                whole.walk_from(whole.root(), &mut |c, w| heard.push((c, w)));
                for _ in 0..6 {
                    let seed = xorshift(&mut seed);
                    let mask = seed as u32 & full & !mid_bit;
                    let part = (seed >> 32) as u32 & mask;
                    let mut want: Vec<(u32, u64)> = heard
                        .iter()
                        .filter(|&&(c, _)| c & mask == part)
                        .copied()
                        .collect();
                    want.sort_unstable();
                    // Every column placed, none (every one required), and a few placed.
                    for max_walks in [MAX_PART_WALKS, 0, 1, 5, 40] {
                        let walks = whole.with_part_within(mask, part, false, max_walks);
                        assert!(walks.len() <= max_walks.max(1));
                        let pieces = Pieces::new(walks, START_DEPTH);
                        let mut got: Vec<(u32, u64)> = Vec::new();
                        for &(i, s) in &pieces.starts {
                            pieces.walks[i as usize].walk_from(s, &mut |c, w| got.push((c, w)));
                        }
                        got.sort_unstable();
                        assert_eq!(
                            got, want,
                            "n = {n}, middle {middle}, {mask:b} / {part:b}, {max_walks} walks"
                        );
                    }
                    nonempty += !want.is_empty() as usize;
                }
            }
        }
        assert!(nonempty > 100, "{nonempty}");
    }

    /// In a context that the mirror maps onto itself, the walks of a part, its complement in
    /// a mirror-closed mask and their images, keeping the left-half trick, hear each needed
    /// half of those parts once, whether the parts' columns are placed or required.
    #[test]
    fn mirrored_walks_of_paired_parts_hear_each_half_once() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut nonempty = 0;
        for n in 6..=13u32 {
            let full = u32::MAX >> (32 - n);
            let middle = if n % 2 == 1 { (n / 2) as u8 } else { NO_MIDDLE };
            let mid_bit = if middle == NO_MIDDLE { 0 } else { 1 << middle };
            let whole = Upper::context(n, &middle_attacks(n, middle), mid_bit, true);
            let mut heard: Vec<(u32, u64)> = Vec::new();
            whole.walk_from(whole.root(), &mut |c, w| heard.push((c, w)));
            for _ in 0..6 {
                let seed = xorshift(&mut seed);
                let half = seed as u32 & full & !mid_bit;
                let mask = half | units::mirror(n, half);
                let part = (seed >> 32) as u32 & mask;
                let mut parts = vec![
                    part,
                    mask & !part,
                    units::mirror(n, part),
                    mask & !units::mirror(n, part),
                ];
                parts.sort_unstable();
                parts.dedup();
                let mut want: Vec<(u32, u64)> = heard
                    .iter()
                    .filter(|&&(c, _)| parts.contains(&(c & mask)))
                    .copied()
                    .collect();
                want.sort_unstable();
                for max_walks in [MAX_PART_WALKS, 0, 3] {
                    let mut got: Vec<(u32, u64)> = Vec::new();
                    for &q in &parts {
                        for walk in whole.with_part_within(mask, q, true, max_walks) {
                            walk.walk_from(walk.root(), &mut |c, w| got.push((c, w)));
                        }
                    }
                    got.sort_unstable();
                    assert_eq!(got, want, "n = {n}, {mask:b} / {part:b}, {max_walks} walks");
                }
                nonempty += !want.is_empty() as usize;
            }
        }
        assert!(nonempty > 10, "{nonempty}");
    }

    /// A table holds, for every column set, exactly the words the walk hears with those
    /// columns, whatever its layout; a table past its limit is not filled.
    #[test]
    fn tables_hold_every_half_the_walk_hears() {
        let workers = Workers::new(2);
        for n in 5..=13u32 {
            let fixed = [0u32; 32];
            let full = u32::MAX >> (32 - n);
            for mirror in [false, true] {
                let walk = Upper::context(n, &fixed, 0, mirror);
                let pieces = Pieces::new(vec![walk.clone()], START_DEPTH);
                let mut heard: Vec<(u32, u64)> = Vec::new();
                for &(_, s) in &pieces.starts {
                    walk.walk_from(s, &mut |c, w| heard.push((c, w)));
                }
                heard.sort_unstable();
                for tag in [0, 1, n / 2, n] {
                    for per in [256, 1024] {
                        let shift = 1 - n % 2;
                        let layout = Layout {
                            n,
                            tag,
                            shift,
                            raw: (2 * n - 2 * shift + tag).div_ceil(8) as usize,
                            chunk: per * (2 * n).div_ceil(8) as usize,
                        };
                        let table = fill_table(
                            Level::current(),
                            &layout,
                            &pieces,
                            usize::MAX,
                            &workers,
                            &Deadline::never(),
                        )
                        .expect("no limit");
                        let mut held: Vec<(u32, u64)> = Vec::new();
                        let mut sorted = Sorted::default();
                        for (b, parts) in table.buckets.iter().enumerate() {
                            sort_bucket(&layout, parts, &mut sorted);
                            for t in 0..1u32 << tag {
                                let cols = (b as u32) << tag | t;
                                assert_eq!(table.bucket_of(cols), b);
                                let words = sorted.of(cols, tag);
                                held.extend(words.iter().map(|&w| (cols, w)));
                            }
                        }
                        held.sort_unstable();
                        // A packed word keeps every bit that a key looks at.
                        let mut stored: Vec<(u32, u64)> = heard
                            .iter()
                            .map(|&(c, w)| {
                                let kept = layout.unpack(layout.pack(w));
                                let clear = if layout.shift == 1 {
                                    1 | 1 << (2 * n - 1)
                                } else {
                                    0
                                };
                                assert_eq!(kept, w & !clear, "n = {n}");
                                let odd = n % 2 == 1;
                                let key = upper_key(n, full, odd, w);
                                assert_eq!(upper_key(n, full, odd, kept), key);
                                let lower = lower_key(n, full, w) ^ lower_key(n, full, kept);
                                assert_eq!(lower & upper_key(n, full, odd, u64::MAX), 0);
                                (c, kept)
                            })
                            .collect();
                        stored.sort_unstable();
                        assert_eq!(held, stored, "n = {n}, mirror {mirror}, {layout:?}");
                    }
                }
                if heard.len() > 1024 {
                    let layout = Layout::new(n, 2, heard.len() as u64);
                    let stopped = fill_table(
                        Level::current(),
                        &layout,
                        &pieces,
                        1,
                        &workers,
                        &Deadline::never(),
                    );
                    assert!(stopped.is_none(), "n = {n}: filled past its limit");
                }
            }
        }
    }

    /// A gather packs the bits of its mask low, in order, by tables and by `pext` (where the
    /// CPU has it) alike.
    #[test]
    fn gathers_pack_the_kept_bits() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // Keys have at most 56 bits (N = 28), of which masks keep at most 54.
        let low56 = u64::MAX >> 8;
        let mut masks = vec![0, low56, 1, 1 << 47, 1 << 55, 0x5555_5555_5555, 0xff00_ff00];
        for _ in 0..200 {
            // Masks of every density and width.
            let (a, b, c) = (next() & low56, next() & low56, next());
            masks.extend([a, a & b, a | b, a & b & c, a >> (c % 56)]);
        }
        for mask in &mut masks {
            while mask.count_ones() > 54 {
                *mask &= *mask - 1;
            }
        }
        let bmi2 = Level::current().fast_pext();
        let (mut whole, mut split) = (Gather::default(), Gather::default());
        for &mask in &masks {
            // A code has at most 10 bits (it sits above the rest), here some of the mask's.
            let codes = mask & (u64::MAX >> CODE_SHIFT) << (next() % 40);
            let rest = mask & !codes;
            whole.set(mask);
            split.set_split(rest, codes);
            let bytes = (64 - mask.leading_zeros()).div_ceil(8);
            for _ in 0..20 {
                let x = next() & low56;
                assert_eq!(pext(x, mask, None), extract_bits(x, mask));
                if bmi2.is_some() {
                    assert_eq!(pext(x, mask, bmi2), extract_bits(x, mask));
                }
                let expected = extract_bits(x, rest) | extract_bits(x, codes) << CODE_SHIFT;
                assert_eq!(
                    by_table::<GATHER_BYTES>(whole.tables(), x),
                    extract_bits(x, mask),
                    "{mask:x} {x:x}"
                );
                assert_eq!(
                    by_table::<GATHER_BYTES>(split.tables(), x),
                    expected,
                    "{codes:x} {x:x}"
                );
                // Reading only the bytes the mask reaches gives the same.
                if bytes <= 6 {
                    assert_eq!(by_table::<6>(split.tables(), x), expected, "{mask:x} {x:x}");
                }
                if bytes <= 5 {
                    assert_eq!(by_table::<5>(split.tables(), x), expected, "{mask:x} {x:x}");
                }
                if bytes <= 4 {
                    assert_eq!(by_table::<4>(whole.tables(), x), extract_bits(x, mask));
                }
            }
        }
    }

    /// The bit transpose moves bit `b` of row `i` to bit `i` of row `b`.
    #[test]
    #[allow(clippy::needless_range_loop)]
    fn transpose_moves_every_bit() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut m = [0u64; 64];
        for row in m.iter_mut() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            *row = seed;
        }
        let before = m;
        transpose64(&mut m);
        for i in 0..64 {
            for b in 0..64 {
                assert_eq!(m[b] >> i & 1, before[i] >> b & 1, "row {i}, bit {b}");
            }
        }
    }

    /// In a context that the mirror maps onto itself, the sets the walk keeps are exactly the
    /// upper and lower columns of the context's units; in any other context every set is one.
    #[test]
    fn the_needed_sets_are_the_units_columns() {
        for n in 4..=15u32 {
            let full = u32::MAX >> (32 - n);
            let units = join_units(n);
            for (middle, mid_bit) in contexts(n) {
                let others = full & !mid_bit;
                let mut from_units = std::collections::BTreeSet::new();
                for u in units.iter().filter(|u| u.middle == middle) {
                    from_units.insert(u.upper);
                    from_units.insert(others & !u.upper);
                }
                let symmetric = middle == NO_MIDDLE || 2 * middle as u32 == n - 1;
                let sets = (0..=full).filter(|&c| c & mid_bit == 0 && c.count_ones() == n / 2);
                let kept: std::collections::BTreeSet<u32> = if symmetric {
                    sets.filter(|&c| needed_in_mirrored(n, others, c)).collect()
                } else if from_units.is_empty() {
                    // A context right of the centre: its units are its mirror image's.
                    continue;
                } else {
                    sets.collect()
                };
                assert_eq!(kept, from_units, "n = {n}, middle {middle}");
            }
        }
    }

    /// Every record holds its word and tag and is read as one 8-byte word, for every board
    /// the join counts and any table size.
    #[test]
    fn records_fit_a_word_on_every_board() {
        for n in 4..=units::MAX_JOIN_N {
            for fillers in [1, 2, 16] {
                for expected in (0..=44).map(|e| 1u64 << e) {
                    let layout = Layout::new(n, fillers, expected);
                    let bits = layout.word_bits() + layout.tag;
                    assert!(bits <= 64, "N = {n}, {expected} halves: {layout:?}");
                    assert!(
                        layout.raw <= 8 && 8 * layout.raw as u32 >= bits,
                        "{layout:?}"
                    );
                    assert!(layout.tag <= n && layout.buckets() <= 1 << n, "{layout:?}");
                }
            }
        }
    }

    /// Keys of 56 bits, as N = 28's words are (N = 25's reach bit 49), with 54 of them kept,
    /// bits 48 to 55 among them: every level counts the pairs of the plain loop, sieved or
    /// not (the byte tables of the levels without a fast `pext` read a seventh byte for
    /// them, and a sieve's rest of up to 53 bits stays below its part code).
    #[test]
    fn keys_above_bit_48_count_on_every_level() {
        let mut seed = 0x0bad_5eed_1234_5678u64;
        let keep = (u64::MAX >> 8) & !(1 << 7 | 1 << 30);
        assert_eq!((keep.count_ones(), keep >> 48), (54, 255));
        let mut scratch = Scratch::default();
        for &(items, patterns) in &[(100, 600), (300, 2100), (200, 70000)] {
            let a = keys(&mut seed, items, 56, 12);
            let b = keys(&mut seed, patterns, 56, 12);
            let kept = |words: &[u64]| -> Vec<u64> { words.iter().map(|&w| w & keep).collect() };
            let expected = disjoint_pairs_plain(&kept(&a), &kept(&b));
            for level in Level::ALL.into_iter().filter(|l| l.supported()) {
                scratch.level = level;
                let got = pairs_of(&a, |w| w, &b, |w| w, keep, &mut scratch);
                assert_eq!(got, expected, "{items} x {patterns}, {level:?}");
            }
        }
    }

    /// A sieve stops between its parts once the deadline has passed (a unit of N = 24
    /// matches for seconds), and says so; without a deadline it counts every pair.
    #[test]
    fn a_sieve_stops_at_the_deadline() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let a = keys(&mut seed, 200, 36, 15);
        let b = keys(&mut seed, 70000, 36, 15);
        let keep = u64::MAX >> 28;
        let mut scratch = Scratch::default();
        let passed = Options {
            time_limit: Some(std::time::Duration::ZERO),
            ..Options::default()
        };
        scratch.deadline = passed.deadline();
        pairs_of(&a, |w| w, &b, |w| w, keep, &mut scratch);
        assert!(scratch.stopped);
        scratch.deadline = Deadline::never();
        scratch.stopped = false;
        let total = pairs_of(&a, |w| w, &b, |w| w, keep, &mut scratch);
        assert!(!scratch.stopped);
        assert_eq!(total, disjoint_pairs_plain(&a, &b));
    }

    /// The units are the least member of each class of (upper columns, middle queen) under
    /// the four symmetries that keep the cut, with the class's size, found here by brute
    /// force over every column set.
    #[test]
    fn units_are_the_least_of_their_classes() {
        for n in 4..=15u32 {
            let full = u32::MAX >> (32 - n);
            let mut expected = Vec::new();
            for middle in middles(n) {
                let mid_bit = if middle == NO_MIDDLE { 0 } else { 1 << middle };
                for upper in (0..=full).filter(|&c| c & mid_bit == 0 && c.count_ones() == n / 2) {
                    let class: std::collections::BTreeSet<(u8, u32)> = images(n, upper, middle)
                        .iter()
                        .map(|&(u, m)| (m, u))
                        .collect();
                    if class.first() == Some(&(middle, upper)) {
                        expected.push((middle, upper, class.len() as u8));
                    }
                }
            }
            let got: Vec<(u8, u32, u8)> = join_units(n)
                .iter()
                .map(|u| (u.middle, u.upper, u.orbit))
                .collect();
            assert_eq!(got, expected, "n = {n}");
        }
    }

    /// Every supported level's copies give the same counts.
    #[test]
    fn every_level_counts_the_same() {
        let units = join_units(11);
        for level in Level::ALL.into_iter().filter(|l| l.supported()) {
            let mut counts = vec![0u32; 1 << 11];
            let walk = Upper::context(10, &[0u32; 32], 0, false);
            let starts = walk.starts(START_DEPTH);
            count_halves(level, &walk, &starts, &mut counts[..1 << 10]);
            let mut base = vec![0u32; 1 << 10];
            count_halves_with(&walk, &starts, &mut base);
            assert_eq!(&counts[..1 << 10], &base[..], "{level:?}");
        }
        assert!(!units.is_empty());
    }
}
