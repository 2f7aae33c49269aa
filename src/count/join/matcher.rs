//! The bit-sliced matcher: the pairs of keys with no bit in common, one key against 512 at a
//! time from precomputed tables (with AVX2 and AVX-512 copies).

use crate::primitive::cpu::{on_level, Level};

/// Patterns per block of the matcher (one 512-bit set per table entry).
pub(super) const BLOCK: usize = 512;
/// 64-bit words per block.
pub(super) const LANES: usize = BLOCK / 64;
/// Key bits per table for few items: tables of 32 entries, cheap to build.
pub(super) const NARROW: u32 = 5;
/// Key bits per table for many items: tables of 128 entries (a block's tables, 40 KB for the
/// keys of up to 35 bits the join mostly meets, still fit the first-level cache), so a key
/// needs fewer loads.
pub(super) const WIDE: u32 = 7;
/// How many loads [`WIDE`] tables must save (items times the tables fewer per block) to pay
/// for their building, four times the entries of [`NARROW`] ones, where a table entry is one
/// 512-bit load (`V4`): measured at N = 18 (where the keys have some 30 bits, so wide tables
/// save one load in six) and N = 22 (some 33 bits, two in seven; 7 % less matching time
/// there).
pub(super) const WIDE_FROM: usize = 16_384;
/// [`WIDE_FROM`] where an entry takes two 256-bit loads or more (`V3`, `Baseline`): the
/// loads saved weigh more against the building (at N = 18 on an AMD Zen 1 host, which runs
/// each 256-bit operation as two, 2,048 and 512 matched 2 to 4 % faster than 16,384).
pub(super) const WIDE_FROM_NARROW_LOADS: usize = 2048;

/// One 512-bit set of a table entry, aligned to a cache line: a 512-bit load of a set that
/// straddled two lines cost the matcher about 19 % at N = 18 (where the allocator happened to
/// place the tables 16 bytes off a line).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(64))]
pub(super) struct Set(pub(super) [u64; LANES]);

impl Set {
    /// The empty set.
    pub(super) const EMPTY: Set = Set([0; LANES]);
}

impl std::ops::Deref for Set {
    type Target = [u64; LANES];
    fn deref(&self) -> &[u64; LANES] {
        &self.0
    }
}

impl std::ops::DerefMut for Set {
    fn deref_mut(&mut self) -> &mut [u64; LANES] {
        &mut self.0
    }
}

/// The number of pairs (a, b), a in `items`, b in `patterns`, with `a & b == 0`, by a plain
/// loop.
#[inline(always)]
pub(super) fn disjoint_pairs_plain(items: &[u64], patterns: &[u64]) -> u64 {
    let mut total = 0u64;
    for &b in items {
        let mut here = 0u32;
        for &a in patterns {
            here += (a & b == 0) as u32;
        }
        total += here as u64;
    }
    total
}

/// Transposes the 64 x 64 bit matrix `m` (row `i`, bit `b`): afterwards bit `b` of `m[i]` is
/// what bit `i` of `m[b]` was. Six rounds, each swapping the off-diagonal blocks of half the
/// size of the round before's (each round its own copy, so that its rows are a fixed stride
/// apart and the wide rounds run on vector registers).
#[inline(always)]
pub(super) fn transpose64(m: &mut [u64; 64]) {
    transpose_round::<32>(m, 0x0000_0000_FFFF_FFFF);
    transpose_round::<16>(m, 0x0000_FFFF_0000_FFFF);
    transpose_round::<8>(m, 0x00FF_00FF_00FF_00FF);
    transpose_round::<4>(m, 0x0F0F_0F0F_0F0F_0F0F);
    transpose_round::<2>(m, 0x3333_3333_3333_3333);
    transpose_round::<1>(m, 0x5555_5555_5555_5555);
}

/// One round of [`transpose64`]: swaps the `J x J` blocks of bits off its diagonal (`mask` the
/// low `J` bits of each `2J`).
#[inline(always)]
pub(super) fn transpose_round<const J: usize>(m: &mut [u64; 64], mask: u64) {
    let mut base = 0;
    while base < 64 {
        for k in base..base + J {
            let t = ((m[k] >> J) ^ m[k + J]) & mask;
            m[k] ^= t << J;
            m[k + J] ^= t;
        }
        base += 2 * J;
    }
}

/// The key bits per table for `items` keys of `bits` bits matched at `level`: [`WIDE`] when
/// they save enough loads (see [`WIDE_FROM`]), [`NARROW`] otherwise.
#[inline(always)]
pub(super) fn table_width(level: Level, items: usize, bits: u32) -> u32 {
    let saved = (bits.div_ceil(NARROW) - bits.div_ceil(WIDE)) as usize;
    let from = if level >= Level::V4 {
        WIDE_FROM
    } else {
        WIDE_FROM_NARROW_LOADS
    };
    if items * saved >= from {
        WIDE
    } else {
        NARROW
    }
}

/// The matcher's reused table buffers, one for each table width.
#[derive(Default)]
pub(super) struct Tables {
    narrow: Vec<[Set; 1 << NARROW]>,
    wide: Vec<[Set; 1 << WIDE]>,
}

/// Sets the tables of the bit-sliced matcher for `patterns` (keys of at most `bits` bits), with
/// `E` entries per table (a power of two: `W = log2 E` key bits): per block of [`BLOCK`]
/// patterns, `bits / W` (rounded up) tables, table `ch` entry `v` holding the members that
/// have none of the bits `v << (W * ch)`. Each block is first transposed (one 512-bit set per
/// key bit: the members without it), and each entry is then the intersection of one entry
/// with fewer bits and one such set. The tables are the first ones of `tables` (which only
/// grows, since every entry is written before it is read): returns how many.
#[inline(always)]
pub(super) fn build_tables<const E: usize>(
    patterns: &[u64],
    bits: u32,
    tables: &mut Vec<[Set; E]>,
) -> usize {
    let width = E.trailing_zeros();
    let chunks = bits.div_ceil(width) as usize;
    let used = patterns.len().div_ceil(BLOCK) * chunks;
    if tables.len() < used {
        tables.resize(used, [Set::EMPTY; E]);
    }
    for (b, block) in patterns.chunks(BLOCK).enumerate() {
        let mut members = Set::EMPTY;
        // Key bits past 64 (in the last chunk) are lacked by every member.
        let mut lacking = [[0u64; LANES]; 64 + WIDE as usize];
        for (w, rows) in block.chunks(64).enumerate() {
            let mut m = [0u64; 64];
            m[..rows.len()].copy_from_slice(rows);
            transpose64(&mut m);
            let valid = u64::MAX >> (64 - rows.len());
            members[w] = valid;
            for (k, lack) in lacking.iter_mut().enumerate().take(chunks * width as usize) {
                lack[w] = if k < 64 { valid & !m[k] } else { valid };
            }
        }
        let base = b * chunks;
        for (ch, table) in tables[base..base + chunks].iter_mut().enumerate() {
            table[0] = members;
            for v in 1..E {
                let lack = &lacking[ch * width as usize + v.trailing_zeros() as usize];
                let fewer = table[v & (v - 1)];
                for w in 0..LANES {
                    table[v][w] = fewer[w] & lack[w];
                }
            }
        }
    }
    used
}

/// The pairs of `items` with the patterns whose tables [`build_tables`] made.
#[inline(always)]
pub(super) fn count_with_tables<const E: usize>(
    level: Level,
    items: &[u64],
    bits: u32,
    tables: &[[Set; E]],
) -> u64 {
    // A copy per table count up to 11 (keys of up to 55 bits in narrow tables, so every
    // size the join counts), fully unrolled; the plain loop beyond.
    match bits.div_ceil(E.trailing_zeros()) {
        1 => count_with_chunks::<1, E>(level, items, tables),
        2 => count_with_chunks::<2, E>(level, items, tables),
        3 => count_with_chunks::<3, E>(level, items, tables),
        4 => count_with_chunks::<4, E>(level, items, tables),
        5 => count_with_chunks::<5, E>(level, items, tables),
        6 => count_with_chunks::<6, E>(level, items, tables),
        7 => count_with_chunks::<7, E>(level, items, tables),
        8 => count_with_chunks::<8, E>(level, items, tables),
        9 => count_with_chunks::<9, E>(level, items, tables),
        10 => count_with_chunks::<10, E>(level, items, tables),
        11 => count_with_chunks::<11, E>(level, items, tables),
        chunks => count_with_any::<E>(items, chunks as usize, tables),
    }
}

/// [`count_with_tables`] for `C` tables per block (the block length known at compile time).
#[inline(always)]
pub(super) fn count_with_chunks<const C: usize, const E: usize>(
    level: Level,
    items: &[u64],
    tables: &[[Set; E]],
) -> u64 {
    // Plain loops, not iterator adapters: their `fold` would be compiled apart from the
    // instruction-set copy that calls it (and so without its vector instructions).
    let mut total = 0;
    let mut start = 0;
    while start + C <= tables.len() {
        let block: &[[Set; E]; C] = tables[start..start + C].try_into().unwrap();
        total += count_block_at::<C, E>(level, items, block);
        start += C;
    }
    total
}

/// [`count_with_tables`] for any number of tables per block, by the plain loop.
#[inline(always)]
pub(super) fn count_with_any<const E: usize>(
    items: &[u64],
    chunks: usize,
    tables: &[[Set; E]],
) -> u64 {
    let mut total = 0;
    let mut start = 0;
    while start < tables.len() {
        let end = (start + chunks).min(tables.len());
        total += count_block::<E>(items, &tables[start..end]);
        start = end;
    }
    total
}

/// The patterns of one block of tables that each of `items` meets nowhere, summed over `items`.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // index loops, so that nothing is compiled apart
pub(super) fn count_block<const E: usize>(items: &[u64], block: &[[Set; E]]) -> u64 {
    let (width, mask) = (E.trailing_zeros(), E as u64 - 1);
    let mut total = 0u64;
    let mut i = 0;
    while i < items.len() {
        let x = items[i];
        i += 1;
        let mut acc = block[0][(x & mask) as usize];
        let mut ch = 1;
        while ch < block.len() {
            let t = &block[ch][(x >> (ch as u32 * width) & mask) as usize];
            for w in 0..LANES {
                acc[w] &= t[w];
            }
            ch += 1;
        }
        let mut here = 0u64;
        for w in 0..LANES {
            here += acc[w].count_ones() as u64;
        }
        total += here;
    }
    total
}

/// [`count_block`] by the vector instructions of `level` where the CPU has them. (Left to
/// itself the compiler vectorises the plain loop across items, with a gather per table word,
/// which runs at about half the speed of one 512-bit load per table entry.)
#[inline(always)]
pub(super) fn count_block_at<const C: usize, const E: usize>(
    level: Level,
    items: &[u64],
    block: &[[Set; E]; C],
) -> u64 {
    // (The vector copies need AVX2, part of every `_v3` level, and AVX-512 F with VPOPCNTDQ,
    // part of every `_v4` level.)
    on_level!(
        level,
        count_block::<E>(items, block),
        count_block_v3::<C, E>(items, block),
        count_block_v4::<C, E>(items, block)
    )
}

/// [`count_block`] with AVX-512: one load per table entry, three sets intersected by one
/// ternary-logic instruction, the counts summed per lane.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq")]
pub(super) fn count_block_v4<const C: usize, const E: usize>(
    items: &[u64],
    block: &[[Set; E]; C],
) -> u64 {
    use std::arch::x86_64::*;
    let (width, mask) = (E.trailing_zeros(), E as u64 - 1);
    #[allow(unsafe_code)]
    // SAFETY: every load reads one whole `Set` (64 bytes, aligned to 64) of `block`.
    unsafe {
        let load = |ch: usize, x: u64| {
            let set = &block[ch][((x >> (ch as u32 * width)) & mask) as usize];
            _mm512_load_si512(set.as_ptr().cast())
        };
        let mut sums = _mm512_setzero_si512();
        for &x in items {
            let mut acc = load(0, x);
            let mut ch = 1;
            // Two tables a step, ANDed into the running set by one `vpternlogq`.
            while ch + 1 < C {
                acc = _mm512_ternarylogic_epi64::<0x80>(acc, load(ch, x), load(ch + 1, x));
                ch += 2;
            }
            if ch < C {
                acc = _mm512_and_si512(acc, load(ch, x));
            }
            sums = _mm512_add_epi64(sums, _mm512_popcnt_epi64(acc));
        }
        _mm512_reduce_add_epi64(sums) as u64
    }
}

/// [`count_block`] with AVX2: two 256-bit loads and ANDs per table entry, the bits counted by
/// nibble lookups summed per byte and then per lane.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn count_block_v3<const C: usize, const E: usize>(
    items: &[u64],
    block: &[[Set; E]; C],
) -> u64 {
    use std::arch::x86_64::*;
    let (width, mask) = (E.trailing_zeros(), E as u64 - 1);
    #[allow(unsafe_code)]
    // SAFETY: every load reads 32 bytes inside one `Set` of `block` (aligned to 32).
    unsafe {
        let load = |ch: usize, x: u64, half: usize| {
            let set = &block[ch][((x >> (ch as u32 * width)) & mask) as usize];
            _mm256_load_si256(set.as_ptr().add(4 * half).cast())
        };
        let nibbles = _mm256_setr_epi8(
            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2,
            3, 3, 4,
        );
        let low = _mm256_set1_epi8(0x0f);
        let mut sums = _mm256_setzero_si256();
        for &x in items {
            let (mut a0, mut a1) = (load(0, x, 0), load(0, x, 1));
            for ch in 1..C {
                a0 = _mm256_and_si256(a0, load(ch, x, 0));
                a1 = _mm256_and_si256(a1, load(ch, x, 1));
            }
            let bytes = |v: __m256i| {
                let lo = _mm256_shuffle_epi8(nibbles, _mm256_and_si256(v, low));
                let hi =
                    _mm256_shuffle_epi8(nibbles, _mm256_and_si256(_mm256_srli_epi16(v, 4), low));
                _mm256_add_epi8(lo, hi)
            };
            // At most 16 per byte from the two halves: no overflow before the lane sums.
            let per_byte = _mm256_add_epi8(bytes(a0), bytes(a1));
            sums = _mm256_add_epi64(sums, _mm256_sad_epu8(per_byte, _mm256_setzero_si256()));
        }
        let mut lanes = [0u64; 4];
        _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sums);
        lanes.iter().sum()
    }
}

/// The items [`match_group_until`] matches between two looks at `stop`.
const POLLED_ITEMS: usize = 1 << 18;

/// [`match_group`], looking at `stop` between runs of [`POLLED_ITEMS`] items (a part of an
/// N = 28 sieve matched for minutes): `None` once it says stop.
#[inline(always)]
pub(super) fn match_group_until(
    level: Level,
    items: &[u64],
    patterns: &[u64],
    bits: u32,
    tables: &mut Tables,
    stop: impl Fn() -> bool,
) -> Option<u64> {
    if items.len() <= POLLED_ITEMS || bits == 0 || patterns.len() < 64 {
        return Some(match_group(level, items, patterns, bits, tables));
    }
    if table_width(level, items.len(), bits) == WIDE {
        count_in_runs::<{ 1 << WIDE }>(level, items, patterns, bits, &mut tables.wide, stop)
    } else {
        count_in_runs::<{ 1 << NARROW }>(level, items, patterns, bits, &mut tables.narrow, stop)
    }
}

/// [`match_group_until`] with tables of `E` entries: the pattern tables once, the items a run
/// at a time (each item's pairs are its own).
#[inline(always)]
fn count_in_runs<const E: usize>(
    level: Level,
    items: &[u64],
    patterns: &[u64],
    bits: u32,
    tables: &mut Vec<[Set; E]>,
    stop: impl Fn() -> bool,
) -> Option<u64> {
    let used = build_tables::<E>(patterns, bits, tables);
    let mut total = 0;
    for run in items.chunks(POLLED_ITEMS) {
        if stop() {
            return None;
        }
        total += count_with_tables::<E>(level, run, bits, &tables[..used]);
    }
    Some(total)
}

/// The pairs of `items` and `patterns` by the matcher, without sieving.
#[inline(always)]
pub(super) fn match_group(
    level: Level,
    items: &[u64],
    patterns: &[u64],
    bits: u32,
    tables: &mut Tables,
) -> u64 {
    if items.is_empty() || patterns.is_empty() {
        return 0;
    }
    if bits == 0 {
        // No bit left to meet on: every pair is disjoint.
        return items.len() as u64 * patterns.len() as u64;
    }
    if patterns.len() < 64 || items.len() < 16 {
        return disjoint_pairs_plain(items, patterns);
    }
    if table_width(level, items.len(), bits) == WIDE {
        let used = build_tables::<{ 1 << WIDE }>(patterns, bits, &mut tables.wide);
        count_with_tables::<{ 1 << WIDE }>(level, items, bits, &tables.wide[..used])
    } else {
        let used = build_tables::<{ 1 << NARROW }>(patterns, bits, &mut tables.narrow);
        count_with_tables::<{ 1 << NARROW }>(level, items, bits, &tables.narrow[..used])
    }
}
