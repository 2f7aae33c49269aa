//! The sieve in front of the matcher: keys split by a few of their bits so that only groups
//! that can meet are matched, squeezed to the bits left; a unit's total from its two sides.

use super::matcher::{match_group, Tables};
use super::table::{lower_key, upper_key};
use super::units::JoinUnit;
use crate::primitive::cpu::{level_copies, on_level, pext, Bmi2, Level};

/// Patterns from which a group is sieved, by one bit, and one more each time they double:
/// 1,024 matched 7-10 % faster than 512 at N = 22 and 23 (the same at N = 18 and 19).
pub(super) const SIEVE_FROM: usize = 1024;

/// Most key bits a sieve splits by.
pub(super) const MAX_CUT: usize = 10;
/// Most key bits of a small cut, whose part offsets fit arrays of 65 entries (the larger
/// arrays of [`MAX_CUT`], zeroed on every call, cost the many small sieves of N = 18 to 20
/// a few per cent).
pub(super) const SMALL_CUT: usize = 6;

/// Most runs of bits a [`Squeeze`] drops.
pub(super) const MAX_RUNS: usize = 24;

/// A compaction of keys that drops the bits outside a mask: the bits kept, packed low in their
/// order. Two keys meet exactly where their kept bits meet, when the bits dropped are in
/// neither key or irrelevant to the pairs compared.
#[derive(Clone, Copy)]
pub(super) struct Squeeze {
    pub(super) keep: u64,
    /// The runs of dropped bits below the highest kept one, `(position, length)`, highest
    /// first.
    pub(super) runs: [(u32, u32); MAX_RUNS],
    pub(super) len: usize,
    /// Squeezed by `pext` (see [`crate::primitive::cpu::pext`]) where set.
    pub(super) pext: Option<Bmi2>,
}

impl Squeeze {
    /// Keeps the bits of `keep` (all of them up to its highest one if its gaps are too many and
    /// `pext` is not used).
    pub(super) fn keeping(keep: u64, pext: Option<Bmi2>) -> Squeeze {
        if pext.is_some() {
            return Squeeze {
                keep,
                runs: [(0, 0); MAX_RUNS],
                len: 0,
                pext,
            };
        }
        let below_top = match keep {
            0 => 0,
            k => u64::MAX >> k.leading_zeros(),
        };
        let mut runs = [(0, 0); MAX_RUNS];
        let mut len = 0;
        let mut gaps = below_top & !keep;
        while gaps != 0 {
            if len == MAX_RUNS {
                return Squeeze {
                    keep: below_top,
                    runs,
                    len: 0,
                    pext,
                };
            }
            let p = gaps.trailing_zeros();
            let l = (!(gaps >> p)).trailing_zeros();
            runs[len] = (p, l);
            len += 1;
            gaps &= !((u64::MAX >> (64 - l)) << p);
        }
        runs[..len].reverse();
        Squeeze {
            keep,
            runs,
            len,
            pext,
        }
    }

    /// The number of bits a squeezed key may have.
    pub(super) fn bits(&self) -> u32 {
        self.keep.count_ones()
    }

    #[inline(always)]
    pub(super) fn apply(&self, x: u64) -> u64 {
        if self.pext.is_some() {
            return pext(x, self.keep, self.pext);
        }
        let mut x = x & self.keep;
        let mut i = 0;
        while i < self.len {
            let (p, l) = self.runs[i];
            x = (x & ((1u64 << p) - 1)) | ((x >> (p + l)) << p);
            i += 1;
        }
        x
    }
}

/// The number of pairs (a, b), a in `items`, b in `patterns`, with `a & b == 0`; keys have
/// at most `bits` bits. Large groups are first sieved: both sides are split by the values of
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
    let pext = scratch.level.fast_pext();
    let rest = Squeeze::keeping((u64::MAX >> (64 - bits)) & !cut, pext);
    let parts = 1usize << k;
    let mut codes = std::mem::take(&mut scratch.codes);
    let mut item_starts = [0usize; S];
    let mut pattern_starts = [0usize; S];
    let mut sorted_items = std::mem::take(&mut scratch.sorted_items);
    let mut sorted_patterns = std::mem::take(&mut scratch.sorted_patterns);
    sort_by_code(
        items,
        cut,
        &rest,
        &mut codes,
        &mut sorted_items,
        &mut item_starts,
    );
    sort_by_code(
        patterns,
        cut,
        &rest,
        &mut codes,
        &mut sorted_patterns,
        &mut pattern_starts,
    );
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
            rest.bits(),
            &mut scratch.tables,
        );
    }
    scratch.sorted_items = sorted_items;
    scratch.sorted_patterns = sorted_patterns;
    scratch.gathered = gathered;
    scratch.codes = codes;
    total
}

/// A counting sort of `keys` into `out` by their bits at `cut` (at most [`MAX_CUT`], gathered
/// low), each squeezed by `rest`; `starts[c]` is where code `c` begins (and
/// `starts[1 << cut.count_ones()]` the end). A function of
/// its own, with plain loops, so that it inlines into the instruction-set copies.
#[inline(always)]
pub(super) fn sort_by_code<const S: usize>(
    keys: &[u64],
    cut: u64,
    rest: &Squeeze,
    codes: &mut Vec<u16>,
    out: &mut Vec<u64>,
    starts: &mut [usize; S],
) {
    let parts = 1usize << cut.count_ones();
    let mut sizes = [0usize; S];
    // (Grown only: every entry up to `keys.len()` is written before it is read.)
    if codes.len() < keys.len() {
        codes.resize(keys.len(), 0);
    }
    for i in 0..keys.len() {
        let c = pext(keys[i], cut, rest.pext) as usize;
        codes[i] = c as u16;
        sizes[c] += 1;
    }
    let mut sum = 0;
    for c in 0..parts {
        starts[c] = sum;
        sum += sizes[c];
    }
    starts[parts] = sum;
    let mut cursor = *starts;
    if out.len() < keys.len() {
        out.resize(keys.len(), 0);
    }
    for i in 0..keys.len() {
        let c = codes[i] as usize;
        out[cursor[c]] = rest.apply(keys[i]);
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
    let squeeze = Squeeze::keeping(keep, scratch.level.fast_pext());
    let bits = squeeze.bits();
    let mut upper = std::mem::take(&mut scratch.upper);
    let mut lower = std::mem::take(&mut scratch.lower);
    // Plain loops, so that the squeeze's `pext` inlines into the instruction-set copy.
    upper.clear();
    for &w in ups {
        upper.push(squeeze.apply(upper_key(n, full, odd, w)));
    }
    lower.clear();
    for &w in lows {
        lower.push(squeeze.apply(lower_key(n, full, w)));
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
