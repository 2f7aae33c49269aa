//! The bits of keys at a mask, packed low, by tables (what BMI2's `pext` computes): the
//! sieve's keys and parts, and the cut's column sets.

/// Bytes of a key a [`Gather`] reads by table at most: keys have at most 2N bits, 56 at
/// N = 28, of which at most 54 are kept (at even N no upper key has two of the bits, at odd
/// N the middle queen's two diagonals are never kept). The bytes read are those the mask
/// reaches (the sieve's `with_gather_bytes`): reading 8 bytes for every key made the count
/// of N = 18 some 5 % slower.
pub(super) const GATHER_BYTES: usize = 7;

/// Where a [`Gather`] set by [`Gather::set_split`] puts its second mask's bits (the sieve's
/// part code, at most 10 of them) above the first's (the rest of the key, at most 54
/// bits at N = 28).
pub(super) const CODE_SHIFT: u32 = 54;

/// The bits of keys at a mask, packed low in their order (what BMI2's `pext` computes), by
/// tables where `pext` is slow or missing: one table per byte of a key gives the bits the
/// mask keeps of that byte, already in their places (a load and an OR a byte; the bit-by-bit
/// loop, and the shifts of dropped runs before it, cost 3 % more CPU time at N = 18). Two
/// keys meet exactly where their gathered bits meet, when the bits dropped are in neither key
/// or irrelevant to the pairs compared. Where `pext` is fast the callers use it instead, each
/// in a loop of its own (a test of the two ways in every key cost 5 %).
pub(super) struct Gather {
    tables: Box<GatherTables>,
}

/// The tables of a [`Gather`], one per key byte.
pub(super) type GatherTables = [[u64; 256]; GATHER_BYTES];

impl Default for Gather {
    fn default() -> Self {
        Gather {
            tables: Box::new([[0; 256]; GATHER_BYTES]),
        }
    }
}

impl Gather {
    /// Makes the tables gather the bits of `mask` (at most [`CODE_SHIFT`] of them, below bit
    /// 56).
    pub(super) fn set(&mut self, mask: u64) {
        self.set_split(mask, 0);
    }

    /// Makes the tables gather the bits of `low` packed from bit 0 and, in the same value,
    /// those of `high` packed from bit [`CODE_SHIFT`] (masks below bit 56, without a common
    /// bit, `low` of at most [`CODE_SHIFT`] bits and `high` of at most 10): one pass gives a
    /// key's part code and its rest.
    pub(super) fn set_split(&mut self, low: u64, high: u64) {
        debug_assert!(
            low & high == 0 && (low | high) >> (8 * GATHER_BYTES) == 0,
            "{low:x} {high:x}"
        );
        debug_assert!(low.count_ones() <= CODE_SHIFT, "{low:x}");
        debug_assert!(high.count_ones() <= 64 - CODE_SHIFT, "{high:x}");
        let (mut below_low, mut below_high) = (0, 0);
        for (j, table) in self.tables.iter_mut().enumerate() {
            let (low_byte, high_byte) = ((low >> (8 * j)) & 0xff, (high >> (8 * j)) & 0xff);
            for v in 1..256usize {
                let lowest = v & v.wrapping_neg();
                table[v] = if lowest == v {
                    // One bit: its place among the kept bits of its mask, if one keeps it.
                    let bit = v.trailing_zeros() as u64;
                    let rank = |byte: u64| (byte & ((1 << bit) - 1)).count_ones();
                    (low_byte >> bit & 1) << (below_low + rank(low_byte))
                        | (high_byte >> bit & 1) << (CODE_SHIFT + below_high + rank(high_byte))
                } else {
                    table[lowest] | table[v ^ lowest]
                };
            }
            below_low += low_byte.count_ones();
            below_high += high_byte.count_ones();
        }
    }

    /// The tables, for [`by_table`].
    pub(super) fn tables(&self) -> &GatherTables {
        &self.tables
    }
}

/// The bits of `x` gathered by `tables` (of a [`Gather`]) reading its `B` low bytes: the
/// whole gather when the masks have no bit above them (the tables of higher bytes are
/// zero).
#[inline(always)]
pub(super) fn by_table<const B: usize>(tables: &GatherTables, x: u64) -> u64 {
    let mut out = 0u64;
    for (j, table) in tables.iter().enumerate().take(B) {
        out |= table[(x >> (8 * j)) as usize & 0xff];
    }
    out
}
