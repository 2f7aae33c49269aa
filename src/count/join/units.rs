//! The units of the join (a column set for the upper half, and the middle queen for odd
//! `n`), their classes under the board's symmetries, and the solutions the half turn fixes.

use crate::count::kernel::stabilizer_order;
use crate::count::UnitCounts;

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
pub(super) fn mirror(n: u32, cols: u32) -> u32 {
    cols.reverse_bits() >> (32 - n)
}

/// Whether column set `cols` of a context that the mirror maps onto itself (`others`: its
/// columns but the middle queen's) holds upper or lower halves of some unit: when it or its
/// complement is the least of the four images (see [`join_units`]). In the other contexts
/// (a middle queen left of the centre) every set does: the units are the sets below their
/// complements.
#[cfg(test)]
pub(super) fn needed_in_mirrored(n: u32, others: u32, cols: u32) -> bool {
    let (own, image) = image_ranks(others, cols, mirror(n, cols));
    own <= image
}

/// The less of `cols` and its complement in `others`, and the same for its mirror image
/// `image`: the set is needed when the first is at most the second.
#[inline(always)]
pub(super) fn image_ranks(others: u32, cols: u32, image: u32) -> (u32, u32) {
    (cols.min(others & !cols), image.min(others & !image))
}

/// The images of unit `(upper, middle)` under the four symmetries that keep the cut.
pub(super) fn images(n: u32, upper: u32, middle: u8) -> [(u32, u8); 4] {
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
    (4..=MAX_JOIN_N).contains(&n)
}

/// The middle queens of board size `n`, in increasing order: every column for odd `n`,
/// [`NO_MIDDLE`] alone for even `n`.
pub(super) fn middles(n: u32) -> Vec<u8> {
    if n % 2 == 1 {
        (0..n as u8).collect()
    } else {
        vec![NO_MIDDLE]
    }
}

/// The column bit of a middle queen (none for [`NO_MIDDLE`]).
pub(super) fn middle_bit(middle: u8) -> u32 {
    if middle == NO_MIDDLE {
        0
    } else {
        1u32 << middle
    }
}

/// The orbit of unit `(upper, middle)` when it is the least of its class (the one the join
/// counts), else `None`. `upper` holds `n / 2` columns, none of them the middle queen's.
pub(crate) fn unit_orbit(n: u32, upper: u32, middle: u8) -> Option<u8> {
    let full = u32::MAX >> (32 - n);
    let mid_bit = middle_bit(middle);
    // A middle queen right of the centre has a mirror image with a smaller one, so its
    // context holds no least unit; left of the centre the mirror images all have a larger
    // one, so a unit is least when it is below its complement, in a class of 4.
    let central = middle == NO_MIDDLE || 2 * middle as u32 == n - 1;
    if !central {
        let left = 2 * (middle as u32) < n - 1;
        return (left && full & !upper & !mid_bit > upper).then_some(4);
    }
    let mut im = images(n, upper, middle);
    let me = (upper, middle);
    im.iter().all(|&i| (i.1, i.0) >= (me.1, me.0)).then(|| {
        im.sort_unstable();
        1 + im.windows(2).filter(|w| w[0] != w[1]).count() as u8
    })
}

/// One unit per class, in increasing order of `(middle, upper)`.
pub(crate) fn join_units(n: u32) -> Vec<JoinUnit> {
    middles(n)
        .into_iter()
        .flat_map(|middle| context_units(n, middle))
        .collect()
}

/// The units of the context of `middle` (one per class, in increasing order of `upper`):
/// none for a middle queen right of the centre.
pub(crate) fn context_units(n: u32, middle: u8) -> Vec<JoinUnit> {
    let h = n / 2;
    let mut units = Vec::new();
    if middle != NO_MIDDLE && 2 * middle as u32 > n - 1 {
        return units;
    }
    let mid_bit = middle_bit(middle);
    // Every h-subset of the columns except the middle one, in increasing order: the
    // subsets `s` of `n - 1` bits with the middle column's bit spread in.
    let below = mid_bit.wrapping_sub(1) & !mid_bit;
    let spread = |s: u32| {
        if middle == NO_MIDDLE {
            s
        } else {
            (s & below) | (s & !below) << 1
        }
    };
    let mut s: u64 = (1u64 << h) - 1;
    while s < 1 << (n - (middle != NO_MIDDLE) as u32) {
        let upper = spread(s as u32);
        if let Some(orbit) = unit_orbit(n, upper, middle) {
            units.push(JoinUnit {
                n: n as u8,
                upper,
                middle,
                orbit,
            });
        }
        s = next_subset(s);
    }
    units
}

/// The next number with as many set bits as `s` (Gosper's hack), for `s > 0`.
pub(super) fn next_subset(s: u64) -> u64 {
    let c = s & s.wrapping_neg();
    let r = s + c;
    (((r ^ s) >> 2) / c) | r
}

/// Whether the half turn maps the unit onto itself (only then can it hold solutions that the
/// half turn fixes).
pub(super) fn half_turn_fixed(unit: &JoinUnit) -> bool {
    let n = unit.n as u32;
    let im = images(n, unit.upper, unit.middle);
    im[3] == (unit.upper, unit.middle)
}

/// Finds the unit's solutions that the half turn fixes, records their classes in `counts`
/// and returns how many there are. Such a solution is its upper half (and middle queen) plus
/// that half turned, so a search over the upper half finds them all.
pub(super) fn classify_symmetric(unit: &JoinUnit, counts: &mut UnitCounts) -> u64 {
    let n = unit.n as usize;
    let h = n / 2;
    let mut board = [0u8; 32];
    let mut found = 0;
    if unit.middle != NO_MIDDLE {
        board[h] = unit.middle;
    }
    /// The walk state: columns used, and the two kinds of diagonals (`r + c` and
    /// `r - c + n - 1`) taken by the queens placed, their images and the middle queen.
    struct Taken {
        cols: u32,
        sum: u64,
        diff: u64,
    }
    #[allow(clippy::too_many_arguments)]
    fn go(
        n: usize,
        r: usize,
        h: usize,
        upper: u32,
        taken: &Taken,
        board: &mut [u8; 32],
        counts: &mut UnitCounts,
        found: &mut u64,
    ) {
        if r == h {
            for i in 0..h {
                board[n - 1 - i] = (n - 1) as u8 - board[i];
            }
            *found += 1;
            let class = 8 / stabilizer_order(n, board);
            counts.found[class.trailing_zeros() as usize] += 1;
            return;
        }
        let last = 2 * (n - 1);
        let mut free = upper & !taken.cols;
        while free != 0 {
            let c = free.trailing_zeros() as usize;
            free &= free - 1;
            // The queen's diagonals and its image's (the half turn maps diagonal d to
            // 2(n - 1) - d of the same kind); a queen on a long diagonal meets its image.
            let (sum, diff) = (r + c, r + n - 1 - c);
            let bits = (
                1u64 << sum | 1u64 << (last - sum),
                1u64 << diff | 1u64 << (last - diff),
            );
            if sum == n - 1 || diff == n - 1 || taken.sum & bits.0 != 0 || taken.diff & bits.1 != 0
            {
                continue;
            }
            board[r] = c as u8;
            let next = Taken {
                cols: taken.cols | 1 << c,
                sum: taken.sum | bits.0,
                diff: taken.diff | bits.1,
            };
            go(n, r + 1, h, upper, &next, board, counts, found);
        }
    }
    let mut taken = Taken {
        cols: 0,
        sum: 0,
        diff: 0,
    };
    if unit.middle != NO_MIDDLE {
        let m = unit.middle as usize;
        taken.sum |= 1 << (h + m);
        taken.diff |= 1 << (h + n - 1 - m);
    }
    go(n, 0, h, unit.upper, &taken, &mut board, counts, &mut found);
    found
}

/// The bits of `x` at the set bits of `mask`, packed low, one at a time (the tests' reference).
#[cfg(test)]
pub(super) fn extract(x: u32, mask: u32) -> u32 {
    let (mut out, mut i, mut m) = (0, 0, mask);
    while m != 0 {
        let bit = m & m.wrapping_neg();
        if x & bit != 0 {
            out |= 1 << i;
        }
        i += 1;
        m ^= bit;
    }
    out
}

/// No middle queen (even `n`).
pub(super) const NO_MIDDLE: u8 = u8::MAX;

/// The largest board the join counts (N = 26 to 28 since 2026-12-07: a batch that passes the
/// cap at the finest cut is counted in pieces split by the halves' first rows; see
/// docs/scale.md for what they cost).
pub(crate) const MAX_JOIN_N: u32 = 28;
