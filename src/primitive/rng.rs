//! Seeded pseudo-random numbers, so that every randomised heuristic repeats exactly from run to
//! run. None of them is for cryptography.

/// Marsaglia's xorshift generator on 64 bits (shifts 13, 7, 17). A zero state stays zero: seed
/// it with a non-zero value (e.g. `seed | 1`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Xorshift64(u64);

impl Xorshift64 {
    /// The generator with state `seed` (non-zero).
    pub const fn new(seed: u64) -> Self {
        Xorshift64(seed)
    }

    /// The next state, which is also the number drawn.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..bound` (`bound` > 0), by the remainder of [`Xorshift64::next_u64`].
    #[inline]
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }

    /// A number in `[0, 1)` with 53 random bits.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The xorshift64* generator (shifts 12, 25, 27, then a multiply): better low bits than
/// [`Xorshift64`]. A zero state stays zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Xorshift64Star(u64);

impl Xorshift64Star {
    /// The generator with state `seed` (non-zero).
    pub const fn new(seed: u64) -> Self {
        Xorshift64Star(seed)
    }

    /// A number in `0..bound` from the high 31 bits of the product (`0` when `bound` is 0).
    #[inline]
    pub fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % bound.max(1)
    }
}

/// The SplitMix64 step: a well-mixed 64-bit value from `seed` (distinct seeds give unrelated
/// values; iterate it for a stream).
#[inline]
pub fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_the_published_ones() {
        // SplitMix64 seeded with 0 starts 0xE220A8397B1DCDAF (Vigna's reference code).
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
        let mut x = Xorshift64::new(1);
        // 1 -> (1 ^ 1 << 13) = 0x2001 -> ^ >> 7 = 0x2001 ^ 0x40 = 0x2041 -> ^ << 17.
        assert_eq!(x.next_u64(), 0x2041 ^ (0x2041 << 17));
        let draws: Vec<usize> = (0..1000).map(|_| x.below(10)).collect();
        assert!((0..10).all(|d| draws.contains(&d)));
        let mut star = Xorshift64Star::new(7);
        assert!((0..1000).all(|_| star.below(3) < 3));
        assert!((0..1000).all(|_| (0.0..1.0).contains(&x.unit())));
    }
}
