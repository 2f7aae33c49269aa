//! The sieve in front of the matcher: keys split by a few of their bits so that only groups
//! that can meet are matched, squeezed to the bits left; a unit's total from its two sides.

use super::gather::{by_table, Gather, CODE_SHIFT, GATHER_BYTES};
use super::matcher::{match_group, match_group_until, Tables};
use super::table::{lower_key, upper_key};
use super::units::JoinUnit;
use crate::primitive::cpu::{level_copies, on_level, pext, Level};

/// Patterns from which a group is sieved, by one bit, and one more each time they double:
/// 1,024 matched 7-10 % faster than 512 at N = 22 and 23 (the same at N = 18 and 19).
pub(super) const SIEVE_FROM: usize = 1024;

/// Most key bits a sieve splits by.
pub(super) const MAX_CUT: usize = 10;
/// Most key bits of a small cut, whose part offsets fit arrays of 65 entries (the larger
/// arrays of [`MAX_CUT`], zeroed on every call, cost the many small sieves of N = 18 to 20
/// a few per cent).
pub(super) const SMALL_CUT: usize = 6;

/// Runs `$body` with `$bytes` a constant: the key bytes a gather of `$mask` must read (4 to
/// [`GATHER_BYTES`]; fewer loads per key at N <= 20, whose keys fit five bytes, and six up to
/// N = 24).
macro_rules! with_gather_bytes {
    ($mask:expr, $bytes:ident => $body:expr) => {
        match (64 - ($mask).leading_zeros()).div_ceil(8) {
            0..=4 => {
                const $bytes: usize = 4;
                $body
            }
            5 => {
                const $bytes: usize = 5;
                $body
            }
            6 => {
                const $bytes: usize = 6;
                $body
            }
            _ => {
                const $bytes: usize = GATHER_BYTES;
                $body
            }
        }
    };
}

/// The number of pairs (a, b), a in `items`, b in `patterns`, with `a & b == 0`; keys have
/// at most `bits` bits, 48 at most (see [`pairs_of`]; for tests).
#[cfg(test)]
pub(super) fn disjoint_pairs(
    items: &[u64],
    patterns: &[u64],
    bits: u32,
    scratch: &mut Scratch,
) -> u64 {
    let keep = if bits == 0 {
        0
    } else {
        u64::MAX >> (64 - bits)
    };
    pairs_of(items, |x| x, patterns, |x| x, keep, scratch)
}

/// The bits of a sieve's cut for `items` against `patterns`, keys of `bits` bits: none for
/// small groups, one from [`SIEVE_FROM`] patterns and one more each time they double.
#[inline(always)]
pub(super) fn cut_bits(items: usize, patterns: usize, bits: u32) -> usize {
    if items < 64 || patterns < SIEVE_FROM {
        return 0;
    }
    ((patterns / SIEVE_FROM).ilog2() as usize + 1)
        .min(MAX_CUT)
        .min(bits as usize)
}

/// The number of pairs (a, b), a in `items`, b in `patterns`, whose keys (`item_key(a)` and
/// `pattern_key(b)`, below bit 56) have no bit of `keep` (at most 54 bits) in common. Large
/// groups are first sieved: both sides are split by the values of a few key bits (the ones
/// that rule out the most pairs), and only parts that can match (no cut bit in both) are
/// compared. The keys
/// are gathered to the bits of `keep` (or, in a sieve, split into their part code and the
/// rest) as they are made, in one pass.
#[inline(always)]
pub(super) fn pairs_of(
    items: &[u64],
    item_key: impl Fn(u64) -> u64,
    patterns: &[u64],
    pattern_key: impl Fn(u64) -> u64,
    keep: u64,
    scratch: &mut Scratch,
) -> u64 {
    let bits = keep.count_ones();
    let k = cut_bits(items.len(), patterns.len(), bits);
    let sides = ((items, &item_key), (patterns, &pattern_key));
    if k > SMALL_CUT {
        return sieve::<{ 1 << MAX_CUT | 1 }>(sides, keep, k, scratch);
    } else if k > 0 {
        return sieve::<{ 1 << SMALL_CUT | 1 }>(sides, keep, k, scratch);
    }
    let (mut a, mut b) = (
        std::mem::take(&mut scratch.items),
        std::mem::take(&mut scratch.patterns),
    );
    let bmi2 = scratch.level.fast_pext();
    if bmi2.is_some() {
        squeeze(items, |w| pext(item_key(w), keep, bmi2), &mut a);
        squeeze(patterns, |w| pext(pattern_key(w), keep, bmi2), &mut b);
    } else {
        scratch.keep.set(keep);
        let tables = scratch.keep.tables();
        with_gather_bytes!(keep, B => {
            squeeze(items, |w| by_table::<B>(tables, item_key(w)), &mut a);
            squeeze(patterns, |w| by_table::<B>(tables, pattern_key(w)), &mut b);
        });
    }
    let total = match_group(
        scratch.level,
        &a[..items.len()],
        &b[..patterns.len()],
        bits,
        &mut scratch.tables,
    );
    (scratch.items, scratch.patterns) = (a, b);
    total
}

/// Writes `gather(w)` for each of `words` to the start of `out` (grown, never shrunk: the
/// caller reads the first `words.len()`). A plain loop, so that it inlines into the
/// instruction-set copy.
#[inline(always)]
pub(super) fn squeeze(words: &[u64], gather: impl Fn(u64) -> u64, out: &mut Vec<u64>) {
    if out.len() < words.len() {
        out.resize(words.len(), 0);
    }
    let out = &mut out[..words.len()];
    for i in 0..words.len() {
        out[i] = gather(words[i]);
    }
}

/// One side of a pair of groups: its words, and how a word's key is made.
pub(super) type Side<'a, F> = (&'a [u64], &'a F);

/// [`pairs_of`] by a cut of `k` bits, with the part offsets in arrays of `S` entries
/// (more than `1 << k`).
#[inline(always)]
pub(super) fn sieve<const S: usize>(
    ((items, item_key), (patterns, pattern_key)): (
        Side<impl Fn(u64) -> u64>,
        Side<impl Fn(u64) -> u64>,
    ),
    keep: u64,
    k: usize,
    scratch: &mut Scratch,
) -> u64 {
    // The cut: the k bits that rule out the largest share of the pairs, from a sample of
    // each side (any cut gives the same count).
    let mut in_items = [0u32; 64];
    let mut in_patterns = [0u32; 64];
    for (words, key, counts) in [
        (items, item_key as &dyn Fn(u64) -> u64, &mut in_items),
        (patterns, pattern_key, &mut in_patterns),
    ] {
        for &w in words.iter().step_by((words.len() / 128).max(1)) {
            let mut x = key(w) & keep;
            while x != 0 {
                counts[x.trailing_zeros() as usize] += 1;
                x &= x - 1;
            }
        }
    }
    let mut by_score = [(0u64, 0u32); 64];
    let mut scored = 0;
    let mut rest_bits = keep;
    while rest_bits != 0 {
        let b = rest_bits.trailing_zeros();
        by_score[scored] = (
            in_items[b as usize] as u64 * in_patterns[b as usize] as u64,
            b,
        );
        scored += 1;
        rest_bits &= rest_bits - 1;
    }
    let by_score = &mut by_score[..scored];
    by_score.sort_unstable_by(|a, b| b.cmp(a));
    let cut = by_score[..k].iter().fold(0u64, |m, &(_, b)| m | 1 << b);
    // Within a part no pair meets on a cut bit (a part's items lack the bits its patterns
    // have), so the parts are compared without them.
    let rest = keep & !cut;
    let bmi2 = scratch.level.fast_pext();
    let parts = 1usize << k;
    let mut split = std::mem::take(&mut scratch.split);
    let mut item_starts = [0usize; S];
    let mut pattern_starts = [0usize; S];
    let mut sorted_items = std::mem::take(&mut scratch.sorted_items);
    let mut sorted_patterns = std::mem::take(&mut scratch.sorted_patterns);
    if bmi2.is_some() {
        let gather = |x| pext(x, rest, bmi2) | pext(x, cut, bmi2) << CODE_SHIFT;
        sort_by_code(
            items,
            |w| gather(item_key(w)),
            parts,
            &mut split,
            &mut sorted_items,
            &mut item_starts,
        );
        sort_by_code(
            patterns,
            |w| gather(pattern_key(w)),
            parts,
            &mut split,
            &mut sorted_patterns,
            &mut pattern_starts,
        );
    } else {
        scratch.code_rest.set_split(rest, cut);
        let tables = scratch.code_rest.tables();
        with_gather_bytes!(keep, B => {
            let gather = |x| by_table::<B>(tables, x);
            let (items_out, patterns_out) = (&mut sorted_items, &mut sorted_patterns);
            let item_split = |w| gather(item_key(w));
            sort_by_code(items, item_split, parts, &mut split, items_out, &mut item_starts);
            let pattern_split = |w| gather(pattern_key(w));
            let starts = &mut pattern_starts;
            sort_by_code(patterns, pattern_split, parts, &mut split, patterns_out, starts);
        });
    }
    let mut total = 0;
    let mut gathered = std::mem::take(&mut scratch.gathered);
    let mut matched = 0usize;
    for y in 0..parts {
        let group = &sorted_patterns[pattern_starts[y]..pattern_starts[y + 1]];
        if group.is_empty() {
            continue;
        }
        matched += 1;
        if matched.is_multiple_of(4) && scratch.deadline.reached() {
            scratch.stopped = true;
            break;
        }
        // The items that can meet this part: codes without a bit of y (the subsets of its
        // complement, largest first: 3^k pairs of parts in all, not 4^k).
        gathered.clear();
        let free = !y & (parts - 1);
        let mut z = free;
        loop {
            gathered.extend_from_slice(&sorted_items[item_starts[z]..item_starts[z + 1]]);
            if z == 0 {
                break;
            }
            z = (z - 1) & free;
        }
        let deadline = &scratch.deadline;
        let bits = rest.count_ones();
        let tables = &mut scratch.tables;
        let stop = || deadline.reached();
        match match_group_until(scratch.level, &gathered, group, bits, tables, stop) {
            Some(pairs) => total += pairs,
            None => {
                scratch.stopped = true;
                break;
            }
        }
    }
    scratch.sorted_items = sorted_items;
    scratch.sorted_patterns = sorted_patterns;
    scratch.gathered = gathered;
    scratch.split = split;
    total
}

/// Lanes of [`sort_by_code`]: neighbouring keys often share a code, so keys are counted and
/// placed by `i % SORT_LANES` with counters of their own, and one lane's increments need not
/// wait on another's.
const SORT_LANES: usize = 4;

/// A counting sort of `words` into `out` by their part codes: `split(w)` is a key's rest
/// with its code (below `parts`, at most `1 << MAX_CUT`) from bit [`CODE_SHIFT`]; `out`
/// gets the rests, and `starts[c]` is where code `c` begins (and `starts[parts]` the end).
/// `split_buffer` holds the split keys between the counting and the placing pass. A
/// function of its own, with plain loops, so that it inlines into the instruction-set
/// copies. Within a code the keys come in no particular order: each of [`SORT_LANES`] lanes
/// has its own counts and its own stretch of each code.
#[inline(always)]
pub(super) fn sort_by_code<const S: usize>(
    words: &[u64],
    split: impl Fn(u64) -> u64,
    parts: usize,
    split_buffer: &mut Vec<u64>,
    out: &mut Vec<u64>,
    starts: &mut [usize; S],
) {
    let len = words.len();
    let mut cursor = [[0usize; S]; SORT_LANES];
    // (Grown only: every entry up to `len` is written before it is read.)
    if split_buffer.len() < len {
        split_buffer.resize(len, 0);
    }
    let buffer = &mut split_buffer[..len];
    for i in 0..len {
        let v = split(words[i]);
        buffer[i] = v;
        cursor[i % SORT_LANES][(v >> CODE_SHIFT) as usize] += 1;
    }
    // Each lane's stretch of a code follows the lanes' before it.
    let mut sum = 0;
    for c in 0..parts {
        starts[c] = sum;
        for lane in cursor.iter_mut() {
            let size = lane[c];
            lane[c] = sum;
            sum += size;
        }
    }
    starts[parts] = sum;
    if out.len() < len {
        out.resize(len, 0);
    }
    let out = &mut out[..len];
    for (i, &v) in buffer.iter().enumerate() {
        let at = &mut cursor[i % SORT_LANES][(v >> CODE_SHIFT) as usize];
        out[*at] = v & ((1 << CODE_SHIFT) - 1);
        *at += 1;
    }
}

/// Buffers reused between units on one thread.
#[derive(Default)]
pub(super) struct Scratch {
    /// The gathered keys of an unsieved pair of groups.
    pub(super) items: Vec<u64>,
    pub(super) patterns: Vec<u64>,
    pub(super) tables: Tables,
    pub(super) sorted_items: Vec<u64>,
    pub(super) sorted_patterns: Vec<u64>,
    pub(super) gathered: Vec<u64>,
    /// The split keys of a sieve, between its two passes.
    pub(super) split: Vec<u64>,
    /// The gathers of a unit's keys (the bits both sides have) and of a sieve's split (the
    /// cut's code above the bits left).
    pub(super) keep: Gather,
    pub(super) code_rest: Gather,
    /// The instruction-set level of the matcher.
    pub(super) level: Level,
    /// The deadline of the unit in hand, polled between the parts of a sieve (a unit of
    /// N = 24 matches for seconds); `stopped` once it stopped one (its total is then void).
    pub(super) deadline: crate::Deadline,
    pub(super) stopped: bool,
}

/// The number of solutions of `unit`, all of them: its upper halves `ups` (the words of the
/// upper half on its columns), its lower halves `lows` (the words of the upper halves on the
/// other columns, whose mirror images they are).
#[inline(always)]
pub(super) fn total_of(unit: &JoinUnit, ups: &[u64], lows: &[u64], scratch: &mut Scratch) -> u64 {
    let n = unit.n as u32;
    let full = u32::MAX >> (32 - n);
    let odd = n % 2 == 1;
    if ups.is_empty() || lows.is_empty() {
        return 0;
    }
    // Only the bits that keys of both sides have can make a pair meet: the others (the
    // diagonals that no half of one side crosses, such as the middle queen's) are dropped.
    // (The keys are shifts and masks of the words, so the union of the keys is the key of
    // the union of the words.)
    let any = |words: &[u64]| {
        let mut acc = 0;
        for &w in words {
            acc |= w;
        }
        acc
    };
    let keep = upper_key(n, full, odd, any(ups)) & lower_key(n, full, any(lows));
    let (up_key, low_key) = (|w| upper_key(n, full, odd, w), |w| lower_key(n, full, w));
    if ups.len() <= lows.len() {
        pairs_of(ups, up_key, lows, low_key, keep, scratch)
    } else {
        pairs_of(lows, low_key, ups, up_key, keep, scratch)
    }
}

/// [`total_of`] compiled for `level` (or the best level below it the CPU has).
pub(super) fn total_at(
    level: Level,
    unit: &JoinUnit,
    upper: &[u64],
    lower: &[u64],
    scratch: &mut Scratch,
) -> u64 {
    scratch.level = level;
    on_level!(
        level,
        total_baseline(unit, upper, lower, scratch),
        total_v3(unit, upper, lower, scratch),
        total_v4(unit, upper, lower, scratch)
    )
}

/// Defines `$name`, [`total_of`] compiled for one instruction-set level.
macro_rules! total_copy {
    ($(#[$attribute:meta])* fn $name:ident) => {
        $(#[$attribute])*
        fn $name(unit: &JoinUnit, upper: &[u64], lower: &[u64], scratch: &mut Scratch) -> u64 {
            total_of(unit, upper, lower, scratch)
        }
    };
}

level_copies!(total_copy, total_baseline, total_v3, total_v4);
