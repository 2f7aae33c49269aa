//! Squares and bit rows as the repair search holds them, shared by its files.

/// A queen or square as `(row, col)`, both below 64.
pub(crate) type Sq = (u8, u8);

/// Whether two squares share a row, column or diagonal ([`crate::board::lines_meet`]).
#[inline]
pub(crate) fn lines_meet(a: Sq, b: Sq) -> bool {
    crate::board::lines_meet(a.0 as usize, a.1 as usize, b.0 as usize, b.1 as usize)
}

/// The low `n` bits set.
#[inline]
pub(crate) fn mask(n: usize) -> u64 {
    if n == 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The low `n` bits in reverse order (bit `i` goes to bit `n - 1 - i`).
pub(crate) trait ReverseLow {
    /// The low `n` bits of `self`, reversed; `n` from 1 to 64.
    fn reverse_bits_n(self, n: usize) -> u64;
}

impl ReverseLow for u64 {
    #[inline]
    fn reverse_bits_n(self, n: usize) -> u64 {
        (self & mask(n)).reverse_bits() >> (64 - n)
    }
}
