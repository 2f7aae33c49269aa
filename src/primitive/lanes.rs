//! Bit sets sized to the board, so that one search serves two widths: `u64` row and column
//! masks with `u128` diagonal masks for N <= 64 (the fast, common case), and `u128` masks with
//! 256-bit diagonal masks for N <= 128. The search is generic over [`Lanes`] and monomorphized
//! once per width; the width is chosen once, before the search, from N.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Index, IndexMut, Not};

/// The bounds every per-row (or per-column) array element satisfies.
pub(crate) trait Item: Copy + Debug + Send + Sync + 'static {}
impl<X: Copy + Debug + Send + Sync + 'static> Item for X {}

/// A set of rows or columns of a board of side at most [`Lanes::WIDTH`] (bit `i`: row or
/// column `i`), with its matching diagonal set and fixed-size per-row arrays.
pub(crate) trait Lanes:
    Item
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// The largest side this width holds.
    const WIDTH: usize;
    /// The empty set.
    const EMPTY: Self;
    /// A set of diagonals (`2 * WIDTH - 1` of them, bit `d`: diagonal `d`).
    type Lines: Item;
    /// No diagonal.
    const NO_LINES: Self::Lines;
    /// One `X` per row or column (`WIDTH` of them).
    type Array<X: Item>: Item + Index<usize, Output = X> + IndexMut<usize> + AsRef<[X]>;

    /// An array with every entry `fill`.
    fn array<X: Item>(fill: X) -> Self::Array<X>;
    /// The set `{i}` (`i < WIDTH`).
    fn bit(i: usize) -> Self;
    /// The set `{0, .., n - 1}` (`n <= WIDTH`).
    fn low(n: usize) -> Self;
    /// Whether `i` is in the set.
    fn has(self, i: usize) -> bool;
    /// The number of members.
    fn count(self) -> u32;
    /// The least member of a non-empty set.
    fn lowest(self) -> usize;
    /// The set without its least member.
    fn without_lowest(self) -> Self;
    /// Adds diagonal `i` to `lines`.
    fn mark(lines: &mut Self::Lines, i: usize);
    /// Whether diagonal `i` is in `lines`.
    fn marked(lines: Self::Lines, i: usize) -> bool;
    /// Diagonals `shift .. shift + WIDTH` of `lines`, as a set of `WIDTH` bits.
    fn window(lines: Self::Lines, shift: usize) -> Self;
}

/// The set operations of a lane type that is one unsigned integer (bit `i` = member `i`).
macro_rules! single_word_set_ops {
    () => {
        #[inline]
        fn bit(i: usize) -> Self {
            1 << i
        }
        #[inline]
        fn low(n: usize) -> Self {
            if n >= Self::WIDTH {
                Self::MAX
            } else {
                (1 << n) - 1
            }
        }
        #[inline]
        fn has(self, i: usize) -> bool {
            self >> i & 1 == 1
        }
        #[inline]
        fn count(self) -> u32 {
            self.count_ones()
        }
        #[inline]
        fn lowest(self) -> usize {
            self.trailing_zeros() as usize
        }
        #[inline]
        fn without_lowest(self) -> Self {
            self & (self - 1)
        }
    };
}

impl Lanes for u64 {
    const WIDTH: usize = 64;
    const EMPTY: Self = 0;
    type Lines = u128;
    const NO_LINES: u128 = 0;
    type Array<X: Item> = [X; 64];

    #[inline]
    fn array<X: Item>(fill: X) -> [X; 64] {
        [fill; 64]
    }
    single_word_set_ops!();
    #[inline]
    fn mark(lines: &mut u128, i: usize) {
        *lines |= 1 << i;
    }
    #[inline]
    fn marked(lines: u128, i: usize) -> bool {
        lines >> i & 1 == 1
    }
    #[inline]
    fn window(lines: u128, shift: usize) -> Self {
        (lines >> shift) as u64
    }
}

impl Lanes for u128 {
    const WIDTH: usize = 128;
    const EMPTY: Self = 0;
    /// Diagonals `0..128` in the first word, `128..256` in the second.
    type Lines = [u128; 2];
    const NO_LINES: [u128; 2] = [0; 2];
    type Array<X: Item> = [X; 128];

    #[inline]
    fn array<X: Item>(fill: X) -> [X; 128] {
        [fill; 128]
    }
    single_word_set_ops!();
    #[inline]
    fn mark(lines: &mut [u128; 2], i: usize) {
        lines[i >> 7] |= 1 << (i & 127);
    }
    #[inline]
    fn marked(lines: [u128; 2], i: usize) -> bool {
        lines[i >> 7] >> (i & 127) & 1 == 1
    }
    #[inline]
    fn window(lines: [u128; 2], shift: usize) -> Self {
        let [low, high] = lines;
        if shift == 0 {
            low
        } else if shift < 128 {
            (low >> shift) | (high << (128 - shift))
        } else {
            high >> (shift - 128)
        }
    }
}

/// Iterates over the members of a set, least first.
#[inline]
pub(crate) fn bits<L: Lanes>(mut mask: L) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == L::EMPTY {
            None
        } else {
            let i = mask.lowest();
            mask = mask.without_lowest();
            Some(i)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 256-bit diagonal set agrees with a plain list of booleans on marks and windows.
    #[test]
    fn wide_lines_match_a_boolean_model() {
        let mut rng = crate::primitive::rng::Xorshift64::new(7);
        for _ in 0..200 {
            let mut lines = <u128 as Lanes>::NO_LINES;
            let mut model = [false; 256];
            for _ in 0..40 {
                let d = (rng.next_u64() % 255) as usize;
                <u128 as Lanes>::mark(&mut lines, d);
                model[d] = true;
            }
            for (d, &want) in model.iter().enumerate().take(255) {
                assert_eq!(<u128 as Lanes>::marked(lines, d), want);
            }
            for shift in 0..=127 {
                let got = <u128 as Lanes>::window(lines, shift);
                for i in 0..128 {
                    assert_eq!(got.has(i), model[shift + i], "shift {shift}, bit {i}");
                }
            }
        }
    }

    #[test]
    fn narrow_and_wide_sets_agree() {
        for n in 0..=64 {
            assert_eq!(<u64 as Lanes>::low(n) as u128, <u128 as Lanes>::low(n));
        }
        assert_eq!(<u128 as Lanes>::low(128), u128::MAX);
        let members: Vec<usize> =
            bits(<u128 as Lanes>::bit(3) | <u128 as Lanes>::bit(127)).collect();
        assert_eq!(members, vec![3, 127]);
        assert_eq!((<u128 as Lanes>::bit(100) | 1).count(), 2);
    }
}
