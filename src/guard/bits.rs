//! A fixed-size bitset over the squares of a board, `K` words of 64 bits, square `i` at bit
//! `i % 64` of word `i / 64`. Copyable, so search states live on the stack.

/// A set of square indices below `64 * K`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bits<const K: usize>(pub(crate) [u64; K]);

impl<const K: usize> Bits<K> {
    /// The empty set.
    pub(crate) const EMPTY: Self = Bits([0; K]);

    /// The set `{0, 1, .., len - 1}`.
    pub(crate) fn first_n(len: usize) -> Self {
        let mut out = Self::EMPTY;
        for i in 0..len {
            out.insert(i);
        }
        out
    }

    /// Adds square `i`.
    #[inline(always)]
    pub(crate) fn insert(&mut self, i: usize) {
        self.0[i >> 6] |= 1u64 << (i & 63);
    }

    /// Intersection.
    #[inline(always)]
    pub(crate) fn and(&self, other: &Self) -> Self {
        let mut out = *self;
        for k in 0..K {
            out.0[k] &= other.0[k];
        }
        out
    }

    /// Squares of `self` not in `other`.
    #[inline(always)]
    pub(crate) fn and_not(&self, other: &Self) -> Self {
        let mut out = *self;
        for k in 0..K {
            out.0[k] &= !other.0[k];
        }
        out
    }

    /// Union.
    #[inline(always)]
    pub(crate) fn or(&self, other: &Self) -> Self {
        let mut out = *self;
        for k in 0..K {
            out.0[k] |= other.0[k];
        }
        out
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub(crate) fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Size of the intersection with `other`.
    #[inline(always)]
    pub(crate) fn count_and(&self, other: &Self) -> u32 {
        let mut total = 0;
        for k in 0..K {
            total += (self.0[k] & other.0[k]).count_ones();
        }
        total
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Whether every square of `self` is in `other`.
    #[inline(always)]
    pub(crate) fn is_subset(&self, other: &Self) -> bool {
        (0..K).all(|k| self.0[k] & !other.0[k] == 0)
    }

    /// The squares of the set in increasing order.
    #[inline(always)]
    pub(crate) fn ones(&self) -> Ones<'_, K> {
        Ones {
            bits: self,
            word: 0,
            current: self.0.first().copied().unwrap_or(0),
        }
    }
}

/// Iterator over the members of a [`Bits`], smallest first.
pub(crate) struct Ones<'a, const K: usize> {
    bits: &'a Bits<K>,
    word: usize,
    current: u64,
}

impl<const K: usize> Iterator for Ones<'_, K> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        loop {
            if self.current != 0 {
                let bit = self.current.trailing_zeros() as usize;
                self.current &= self.current - 1;
                return Some(self.word * 64 + bit);
            }
            self.word += 1;
            if self.word >= K {
                return None;
            }
            self.current = self.bits.0[self.word];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Bits;

    #[test]
    fn set_operations() {
        let mut a = Bits::<3>::EMPTY;
        for i in [0, 5, 63, 64, 130] {
            a.insert(i);
        }
        assert_eq!(a.ones().collect::<Vec<_>>(), vec![0, 5, 63, 64, 130]);
        assert_eq!(a.count(), 5);
        let b = Bits::<3>::first_n(64);
        assert_eq!(a.and(&b).ones().collect::<Vec<_>>(), vec![0, 5, 63]);
        assert_eq!(a.and_not(&b).ones().collect::<Vec<_>>(), vec![64, 130]);
        assert_eq!(a.count_and(&b), 3);
        assert!(a.and(&b).is_subset(&b));
        assert!(!a.is_subset(&b));
        assert!(Bits::<3>::EMPTY.is_empty());
        assert_eq!(a.or(&b).count(), 66);
    }
}
