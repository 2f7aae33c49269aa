//! The sieve in front of the matcher: keys split by a few of their bits so that only groups
//! that can meet are matched, squeezed to the bits left; a unit's total from its two sides.

use super::matcher::{match_group, Tables};
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

/// Bytes of a key a [`Gather`] reads by table: keys have at most 48 bits (the join's 2N, at most
/// 46; reading 8 bytes made the count of N = 18 some 5 % slower).
pub(super) const GATHER_BYTES: usize = 6;

/// The bits of keys at a mask, packed low in their order (what BMI2's `pext` computes), by
/// tables where `pext` is slow or missing: one table per byte of a key gives the bits the
/// mask keeps of that byte, already in their places (a load and an OR a byte; the bit-by-bit
/// loop, and the shifts of dropped runs before it, cost 3 % more CPU time at N = 18). Two
/// keys meet exactly where their gathered bits meet, when the bits dropped are in neither key
/// or irrelevant to the pairs compared. `T` holds a gathered key. Where `pext` is fast the
/// callers use it instead, each in a loop of its own (a test of the two ways in every key
/// cost 5 %).
pub(super) struct Gather<T> {
    tables: Box<[[T; 256]; GATHER_BYTES]>,
}

impl<T: Copy + Default> Default for Gather<T> {
    fn default() -> Self {
        Gather {
            tables: Box::new([[T::default(); 256]; GATHER_BYTES]),
        }
    }
}

impl<T: Copy + Default + Into<u64> + TryFrom<u64>> Gather<T> {
    /// Makes the tables gather the bits of `mask` (below bit 48, as many as `T` holds).
    pub(super) fn set(&mut self, mask: u64) {
        debug_assert!(mask >> (8 * GATHER_BYTES) == 0, "{mask:x}");
        let mut below = 0;
        for (j, table) in self.tables.iter_mut().enumerate() {
            let byte = (mask >> (8 * j)) & 0xff;
            for v in 1..256usize {
                let low = v & v.wrapping_neg();
                let entry = if low == v {
                    // One bit: its place among the kept bits, if the mask keeps it.
                    let bit = v.trailing_zeros() as u64;
                    (byte >> bit & 1) << (below + (byte & ((1 << bit) - 1)).count_ones())
                } else {
                    table[low].into() | table[v ^ low].into()
                };
                table[v] = T::try_from(entry).unwrap_or_default();
            }
            below += byte.count_ones();
        }
    }

    /// The bits of `x` at the mask, packed low in their order.
    #[inline(always)]
    pub(super) fn by_table(&self, x: u64) -> u64 {
        let mut out = 0u64;
        for j in 0..GATHER_BYTES {
            out |= self.tables[j][(x >> (8 * j)) as usize & 0xff].into();
        }
        out
    }
}

/// The number of pairs (a, b), a in `items`, b in `patterns`, with `a & b == 0`; keys have
/// at most `bits` bits, 48 at most. Large groups are first sieved: both sides are split by the values of
/// a few key bits (the ones that rule out the most pairs), and only parts that can match
/// (no cut bit in both) are compared.
#[inline(always)]
pub(super) fn disjoint_pairs(
    items: &[u64],
    patterns: &[u64],
    bits: u32,
    scratch: &mut Scratch,
) -> u64 {
    let k = match patterns.len() / SIEVE_FROM {
        0 => 0,
        q => (q.ilog2() as usize + 1).min(MAX_CUT).min(bits as usize),
    };
    if k == 0 || items.len() < 64 {
        return match_group(scratch.level, items, patterns, bits, &mut scratch.tables);
    }
    if k <= SMALL_CUT {
        sieve::<{ 1 << SMALL_CUT | 1 }>(items, patterns, bits, k, scratch)
    } else {
        sieve::<{ 1 << MAX_CUT | 1 }>(items, patterns, bits, k, scratch)
    }
}

/// [`disjoint_pairs`] by a cut of `k` bits, with the part offsets in arrays of `S` entries
/// (more than `1 << k`).
#[inline(always)]
pub(super) fn sieve<const S: usize>(
    items: &[u64],
    patterns: &[u64],
    bits: u32,
    k: usize,
    scratch: &mut Scratch,
) -> u64 {
    // The cut: the k bits that rule out the largest share of the pairs.
    let mut in_items = [0u32; 64];
    let mut in_patterns = [0u32; 64];
    // From a sample of each side (any cut gives the same count).
    for &x in items.iter().step_by((items.len() / 128).max(1)) {
        let mut x = x;
        while x != 0 {
            in_items[x.trailing_zeros() as usize] += 1;
            x &= x - 1;
        }
    }
    for &x in patterns.iter().step_by((patterns.len() / 128).max(1)) {
        let mut x = x;
        while x != 0 {
            in_patterns[x.trailing_zeros() as usize] += 1;
            x &= x - 1;
        }
    }
    let mut by_score: Vec<(u64, u32)> = (0..bits)
        .map(|b| {
            (
                in_items[b as usize] as u64 * in_patterns[b as usize] as u64,
                b,
            )
        })
        .collect();
    by_score.sort_unstable_by(|a, b| b.cmp(a));
    let cut = by_score[..k].iter().fold(0u64, |m, &(_, b)| m | 1 << b);
    // Within a part no pair meets on a cut bit (a part's items lack the bits its patterns
    // have), so the parts are compared without them.
    let bmi2 = scratch.level.fast_pext();
    let keep = (u64::MAX >> (64 - bits)) & !cut;
    if bmi2.is_none() {
        scratch.cut.set(cut);
        scratch.rest.set(keep);
    }
    let parts = 1usize << k;
    let mut codes = std::mem::take(&mut scratch.codes);
    let mut item_starts = [0usize; S];
    let mut pattern_starts = [0usize; S];
    let mut sorted_items = std::mem::take(&mut scratch.sorted_items);
    let mut sorted_patterns = std::mem::take(&mut scratch.sorted_patterns);
    let (code, rest) = (&scratch.cut, &scratch.rest);
    let sides = [
        (items, &mut sorted_items, &mut item_starts),
        (patterns, &mut sorted_patterns, &mut pattern_starts),
    ];
    for (keys, out, starts) in sides {
        if bmi2.is_some() {
            let (code, rest) = (|x| pext(x, cut, bmi2), |x| pext(x, keep, bmi2));
            sort_by_code(keys, parts, code, rest, &mut codes, out, starts);
        } else {
            let (code, rest) = (|x| code.by_table(x), |x| rest.by_table(x));
            sort_by_code(keys, parts, code, rest, &mut codes, out, starts);
        }
    }
    let mut total = 0;
    let mut gathered = std::mem::take(&mut scratch.gathered);
    for y in 0..parts {
        let group = &sorted_patterns[pattern_starts[y]..pattern_starts[y + 1]];
        if group.is_empty() {
            continue;
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
        total += match_group(
            scratch.level,
            &gathered,
            group,
            keep.count_ones(),
            &mut scratch.tables,
        );
    }
    scratch.sorted_items = sorted_items;
    scratch.sorted_patterns = sorted_patterns;
    scratch.gathered = gathered;
    scratch.codes = codes;
    total
}

/// A counting sort of `keys` into `out` by `code` (below `parts`, at most `1 << MAX_CUT`),
/// each gathered by `squeeze`; `starts[c]` is where code `c` begins (and `starts[parts]` the
/// end). A function of its own, with plain loops, so that it inlines into the instruction-set
/// copies. The sizes are counted in two arrays, even and odd keys apart: neighbouring keys
/// often share a code, and one array's increments would wait on each other.
#[inline(always)]
pub(super) fn sort_by_code<const S: usize>(
    keys: &[u64],
    parts: usize,
    code: impl Fn(u64) -> u64,
    squeeze: impl Fn(u64) -> u64,
    codes: &mut Vec<u16>,
    out: &mut Vec<u64>,
    starts: &mut [usize; S],
) {
    let mut sizes = [[0usize; S]; 2];
    // (Grown only: every entry up to `keys.len()` is written before it is read.)
    if codes.len() < keys.len() {
        codes.resize(keys.len(), 0);
    }
    for i in 0..keys.len() {
        let c = code(keys[i]) as usize;
        codes[i] = c as u16;
        sizes[i & 1][c] += 1;
    }
    let mut sum = 0;
    for c in 0..parts {
        starts[c] = sum;
        sum += sizes[0][c] + sizes[1][c];
    }
    starts[parts] = sum;
    let mut cursor = *starts;
    if out.len() < keys.len() {
        out.resize(keys.len(), 0);
    }
    for i in 0..keys.len() {
        let c = codes[i] as usize;
        out[cursor[c]] = squeeze(keys[i]);
        cursor[c] += 1;
    }
}

/// Buffers reused between units on one thread.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) upper: Vec<u64>,
    pub(super) lower: Vec<u64>,
    pub(super) tables: Tables,
    pub(super) sorted_items: Vec<u64>,
    pub(super) sorted_patterns: Vec<u64>,
    pub(super) gathered: Vec<u64>,
    pub(super) codes: Vec<u16>,
    /// The gathers of a unit's keys (the bits both sides have), of the sieve's cut and of the
    /// bits it leaves.
    pub(super) keep: Gather<u64>,
    pub(super) cut: Gather<u16>,
    pub(super) rest: Gather<u64>,
    /// The instruction-set level of the matcher.
    pub(super) level: Level,
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
    let bmi2 = scratch.level.fast_pext();
    let bits = keep.count_ones();
    let mut upper = std::mem::take(&mut scratch.upper);
    let mut lower = std::mem::take(&mut scratch.lower);
    // Plain loops, so that the gather inlines into the instruction-set copy.
    upper.clear();
    lower.clear();
    if bmi2.is_some() {
        let squeeze = |x| pext(x, keep, bmi2);
        for &w in ups {
            upper.push(squeeze(upper_key(n, full, odd, w)));
        }
        for &w in lows {
            lower.push(squeeze(lower_key(n, full, w)));
        }
    } else {
        scratch.keep.set(keep);
        let squeeze = &scratch.keep;
        for &w in ups {
            upper.push(squeeze.by_table(upper_key(n, full, odd, w)));
        }
        for &w in lows {
            lower.push(squeeze.by_table(lower_key(n, full, w)));
        }
    }
    let total = if upper.len() <= lower.len() {
        disjoint_pairs(&upper, &lower, bits, scratch)
    } else {
        disjoint_pairs(&lower, &upper, bits, scratch)
    };
    std::mem::swap(&mut scratch.upper, &mut upper);
    std::mem::swap(&mut scratch.lower, &mut lower);
    total
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
