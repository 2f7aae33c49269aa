//! Counting by a meet-in-the-middle join of the upper and lower halves of the board.
//!
//! The board is cut into its upper `h = n / 2` rows and its lower rows (for odd `n` the
//! middle row `h` is set apart and holds the unit's fixed *middle queen*). A solution puts the
//! queens of the upper half on some set `S` of `h` columns and those of the lower half on the
//! other columns, so the solutions fall into independent [`JoinUnit`]s by `S` (and the middle
//! queen's column). Within a unit, every placement of the upper half on exactly the columns
//! `S` and every placement of the lower half on the rest are listed once, each reduced to its
//! *key*: the columns at which its queens' two kinds of diagonals cross the meeting row `h`,
//! `n` bits for each kind. An upper and a lower half make a solution exactly when their keys
//! are disjoint (the columns already are, rows never meet, and only diagonals that cross row
//! `h` can hold a queen of each half). The pairs are counted by a bit-sliced matcher
//! ([`disjoint_pairs`]): the keys of one side are transposed into blocks of 512, one 512-bit
//! set per key bit of the blocks' members that lack that bit, and ANDed five key bits at a
//! time from precomputed tables, so one key of the other side is tested against 512 at once.
//!
//! Symmetry: the reflections across the middle row and the middle column and the half turn
//! map units to units (`S` to its complement, its mirror image, or both), so one unit per
//! class is counted and weighted by the size of its class (its *orbit*, 1, 2 or 4), which
//! keeps [`super::Tally`]'s exact unique count valid. Only solutions symmetric under the half
//! turn lie in classes of fewer than 8; they can only be in units that the half turn maps to
//! themselves, where a small search over the upper half finds and classifies them.

use super::kernel::stabilizer_order;
use super::UnitCounts;
use crate::options::WorkProgress;
use crate::primitive::cpu::{level_copies, on_level, pext, Bmi2, Level};
use crate::schedule::Workers;
use crate::{Deadline, Options};
use rayon::prelude::*;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

pub(crate) mod batches;

/// No middle queen (even `n`).
const NO_MIDDLE: u8 = u8::MAX;

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
fn mirror(n: u32, cols: u32) -> u32 {
    cols.reverse_bits() >> (32 - n)
}

/// Whether column set `cols` of a context that the mirror maps onto itself (`others`: its
/// columns but the middle queen's) holds upper or lower halves of some unit: when it or its
/// complement is the least of the four images (see [`join_units`]). In the other contexts
/// (a middle queen left of the centre) every set does: the units are the sets below their
/// complements.
#[cfg(test)]
fn needed_in_mirrored(n: u32, others: u32, cols: u32) -> bool {
    let (own, image) = image_ranks(others, cols, mirror(n, cols));
    own <= image
}

/// The less of `cols` and its complement in `others`, and the same for its mirror image
/// `image`: the set is needed when the first is at most the second.
#[inline(always)]
fn image_ranks(others: u32, cols: u32, image: u32) -> (u32, u32) {
    (cols.min(others & !cols), image.min(others & !image))
}

/// The images of unit `(upper, middle)` under the four symmetries that keep the cut.
fn images(n: u32, upper: u32, middle: u8) -> [(u32, u8); 4] {
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

/// One unit per class, in increasing order of `(middle, upper)`.
pub(crate) fn join_units(n: u32) -> Vec<JoinUnit> {
    let h = n / 2;
    let middles: Vec<u8> = if n % 2 == 1 {
        (0..n as u8).collect()
    } else {
        vec![NO_MIDDLE]
    };
    let mut units = Vec::new();
    for &middle in &middles {
        let mid_bit = if middle == NO_MIDDLE {
            0
        } else {
            1u32 << middle
        };
        // Every h-subset of the columns except the middle one, in increasing order.
        let full = u32::MAX >> (32 - n);
        let allowed = full & !mid_bit;
        let mut s: u64 = (1u64 << h) - 1;
        while s < 1 << (n - (middle != NO_MIDDLE) as u32) {
            let upper = deposit(s as u32, allowed);
            let mut im = images(n, upper, middle);
            let me = (upper, middle);
            if im.iter().all(|&i| (i.1, i.0) >= (me.1, me.0)) {
                im.sort_unstable();
                let orbit = 1 + im.windows(2).filter(|w| w[0] != w[1]).count();
                units.push(JoinUnit {
                    n: n as u8,
                    upper,
                    middle,
                    orbit: orbit as u8,
                });
            }
            // Next subset with the same number of bits (Gosper's hack).
            let c = s & s.wrapping_neg();
            let r = s + c;
            s = (((r ^ s) >> 2) / c) | r;
        }
    }
    units
}

/// The bits of `x` placed, lowest first, on the set bits of `mask`.
fn deposit(mut x: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    while x != 0 && mask != 0 {
        let bit = mask & mask.wrapping_neg();
        if x & 1 == 1 {
            out |= bit;
        }
        x >>= 1;
        mask ^= bit;
    }
    out
}

/// How the halves of one context are stored. A half is its word `w` (see [`upper_key`] and
/// [`lower_key`]): the columns at which its two kinds of diagonals cross the last upper row
/// (its queen included) for even `n`, or the middle row for odd `n`, `n` bits each. A table
/// stores each half as a *record* of `raw` bytes: its word and the
/// low `tag` bits of its column set, the high `n - tag` bits naming its *coarse bucket*.
#[derive(Clone, Copy, Debug)]
struct Layout {
    n: u32,
    tag: u32,
    raw: usize,
    /// Bytes of records per chunk; a chunk has 8 more of slack, so that every record is read
    /// and written as one unaligned 8-byte word.
    chunk: usize,
}

impl Layout {
    /// The layout for board size `n`, `fillers` filling workers and about `expected` halves:
    /// coarse buckets of some 32768 halves (256 to 4096 of them), and chunks of a quarter of
    /// a bucket's share of one worker (so that the partly filled ones stay a small part of
    /// the table).
    fn new(n: u32, fillers: usize, expected: u64) -> Layout {
        let key = 2 * n;
        let sized = (expected >> 15).max(1).ilog2() + 1;
        let coarse = sized.clamp(8, 12).min(n);
        let share = (expected >> coarse) / fillers.max(1) as u64;
        let per = (share / 4).clamp(1 << 8, 1 << 13).next_power_of_two() as usize;
        Layout {
            n,
            tag: n - coarse,
            raw: (key + n - coarse).div_ceil(8) as usize,
            chunk: per * key.div_ceil(8) as usize,
        }
    }

    fn buckets(&self) -> usize {
        1 << (self.n - self.tag)
    }

    /// Bytes of one chunk.
    fn chunk_bytes(&self) -> usize {
        self.chunk + 8
    }
}

/// The 8 bytes at `at` of `chunk` as a little-endian word.
#[inline(always)]
fn read_word(chunk: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&chunk[at..at + 8]);
    u64::from_le_bytes(b)
}

/// The halves of one context (a middle queen or none) whose column sets meet the batch
/// columns in a given part: each coarse bucket's records, in the order the walks wrote them.
struct Table {
    layout: Layout,
    buckets: Vec<Chunks>,
    /// The bytes of its chunks.
    bytes: usize,
}

impl Table {
    /// The coarse bucket of column set `cols`.
    fn bucket_of(&self, cols: u32) -> usize {
        (cols >> self.layout.tag) as usize
    }
}

/// One coarse bucket's words in column-set order: `offsets[t]..offsets[t + 1]` are those of
/// the set with low bits `t`.
#[derive(Default)]
struct Sorted {
    words: Vec<u64>,
    offsets: Vec<u32>,
    /// The sort's cursors (see [`sort_bucket`]).
    cursors: Vec<u32>,
}

impl Sorted {
    /// The words of column set `cols` (of this bucket).
    fn of(&self, cols: u32, tag: u32) -> &[u64] {
        let t = (cols & ((1 << tag) - 1)) as usize;
        &self.words[self.offsets[t] as usize..self.offsets[t + 1] as usize]
    }
}

/// Which placements a walk passes on to its leaf.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kept {
    /// Every placement (a context that the mirror moves: every set is needed there).
    Every,
    /// The needed ones (a context that the mirror maps onto itself: a set is needed when it
    /// or its complement is the least of the four images of its unit, see
    /// [`needed_in_mirrored`]).
    Needed,
    /// The needed ones, walking only the placements whose first queen is in the left half:
    /// each stands for itself and its mirror image.
    NeededByMirror,
}

/// The walk over the upper rows `0..h` of one context, each queen on a column outside
/// `forbidden` and not attacked by those above, nor by the fixed queens (`blocked[row]`: the
/// middle queen's attacks, and those of the batch's placed queens); a row that holds a placed
/// queen (`placed[row]`, a column bit) takes it and nothing else. `leaf` hears the column set
/// and word of every placement that `kept` passes on.
#[derive(Clone, Debug)]
struct Upper {
    n: u32,
    h: u32,
    full: u32,
    blocked: [u32; 16],
    placed: [u32; 16],
    forbidden: u32,
    /// The context's columns (all but the middle queen's).
    others: u32,
    odd: bool,
    kept: Kept,
}

impl Upper {
    /// The walk of a context: `fixed[row]` the middle queen's attacks (none for even `n`),
    /// `forbidden` its column; `mirrored` when the mirror maps the context onto itself.
    fn context(n: u32, fixed: &[u32; 32], forbidden: u32, mirrored: bool) -> Upper {
        let mut blocked = [0u32; 16];
        blocked.copy_from_slice(&fixed[..16]);
        let full = u32::MAX >> (32 - n);
        Upper {
            n,
            h: n / 2,
            full,
            blocked,
            placed: [0; 16],
            forbidden,
            others: full & !forbidden,
            odd: n % 2 == 1,
            kept: if mirrored {
                Kept::NeededByMirror
            } else {
                Kept::Every
            },
        }
    }

    /// The walks of the placements of this (context) walk whose columns meet `mask` in
    /// exactly `part`: one for each way of placing a queen on every column of `part` in
    /// distinct rows, none attacked by another or by the fixed queens; the other queens then
    /// keep off `mask`. Together they walk each such placement once.
    fn with_part(&self, mask: u32, part: u32) -> Vec<Upper> {
        self.with_part_keeping(mask, part, false)
    }

    /// [`Upper::with_part`], keeping the left-half trick where the context has it
    /// (`by_mirror`): the walks then take only the placements whose first queen is in the
    /// left half, each standing for its mirror image too, so that walks of a set of parts
    /// closed under the mirror hear each half of those parts once.
    fn with_part_keeping(&self, mask: u32, part: u32, by_mirror: bool) -> Vec<Upper> {
        let cols: Vec<u32> = (0..self.n).filter(|&c| part >> c & 1 == 1).collect();
        let mut out = Vec::new();
        if cols.len() > self.h as usize {
            return out;
        }
        let base = Upper {
            forbidden: self.forbidden | mask,
            kept: match self.kept {
                Kept::Every => Kept::Every,
                Kept::NeededByMirror if by_mirror => Kept::NeededByMirror,
                _ => Kept::Needed,
            },
            ..self.clone()
        };
        self.place(&cols, base, &mut out);
        out
    }

    /// Places a queen on each of `cols` in turn, in every free row of `walk`.
    fn place(&self, cols: &[u32], walk: Upper, out: &mut Vec<Upper>) {
        let Some((&c, rest)) = cols.split_first() else {
            out.push(walk);
            return;
        };
        let bit = 1u32 << c;
        for r in 0..self.h as usize {
            if walk.placed[r] != 0 || walk.blocked[r] & bit != 0 {
                continue;
            }
            let mut next = walk.clone();
            next.placed[r] = bit;
            next.blocked[r] = self.full;
            for (r2, b) in next.blocked.iter_mut().enumerate().take(self.h as usize) {
                let d = r2.abs_diff(r) as u32;
                if d > 0 {
                    *b |= (bit << d | bit >> d) & self.full;
                }
            }
            self.place(rest, next, out);
        }
    }

    /// The free columns of `row` below the queens `cols`, `a`, `b`.
    #[inline(always)]
    fn free(&self, row: usize, cols: u32, a: u32, b: u32) -> u32 {
        (!(cols | a | b | self.blocked[row] | self.forbidden) & self.full) | self.placed[row]
    }

    /// The free columns of the first row (the left half only, when walking by the mirror).
    fn first_free(&self, row: usize, cols: u32, a: u32, b: u32) -> u32 {
        let free = self.free(row, cols, a, b);
        if row == 0 && self.kept == Kept::NeededByMirror {
            free & ((1 << (self.n / 2)) - 1)
        } else {
            free
        }
    }

    /// The start of the whole walk.
    fn root(&self) -> Start {
        Start {
            row: 0,
            cols: 0,
            a: 0,
            b: 0,
        }
    }

    /// The placements of the first `depth` rows (below `h`), the starts of the walks that
    /// together make the whole walk.
    fn starts(&self, depth: usize) -> Vec<Start> {
        let mut out = Vec::new();
        let mut stack = vec![self.root()];
        while let Some(s) = stack.pop() {
            if s.row == depth {
                out.push(s);
                continue;
            }
            let mut free = self.first_free(s.row, s.cols, s.a, s.b);
            // Pushed in reverse, so that the starts come out in the walk's own order.
            let mut bits = Vec::new();
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                bits.push(bit);
            }
            for &bit in bits.iter().rev() {
                stack.push(Start {
                    row: s.row + 1,
                    cols: s.cols | bit,
                    a: (s.a | bit) >> 1,
                    b: ((s.b | bit) << 1) & self.full,
                });
            }
        }
        out
    }

    /// Calls `leaf` on every placement that extends `start` (a depth-first walk with an
    /// explicit stack, so that it inlines into the copies compiled per instruction-set level).
    #[inline(always)]
    fn walk_from(&self, start: Start, leaf: &mut impl FnMut(u32, u64)) {
        match self.kept {
            Kept::Every => self.walk_keeping::<EVERY>(start, leaf),
            Kept::Needed => self.walk_keeping::<NEEDED>(start, leaf),
            Kept::NeededByMirror => self.walk_keeping::<BY_MIRROR>(start, leaf),
        }
    }

    /// [`Upper::walk_from`] for one [`Kept`] (`KEPT`, as a number). Where the needed sets
    /// matter, the walk follows the placement's mirror image alongside (its columns and
    /// diagonals, which the same steps give from the mirrored queens).
    #[inline(always)]
    fn walk_keeping<const KEPT: u8>(&self, start: Start, leaf: &mut impl FnMut(u32, u64)) {
        let last = self.h as usize - 1;
        let (n, full, odd) = (self.n, self.full, self.odd);
        let top = 1u32 << (n - 1);
        let mut stack = [(0u32, 0u32, 0u32, 0u32); 16];
        let mut images = [(0u32, 0u32, 0u32); 16];
        let (mut cols, mut a, mut b) = (start.cols, start.a, start.b);
        // The mirror image's columns and diagonals (the mirror swaps the two kinds).
        let (mut mc, mut ma, mut mb) = (mirror(n, cols), mirror(n, b), mirror(n, a));
        let mut row = start.row;
        let mut free = self.first_free(row, cols, a, b);
        let others = self.others;
        // The word of a placement from its diagonals before its last queen `bit`.
        let word = |a: u32, b: u32, bit: u32| {
            let (a, b) = (a | bit, b | bit);
            let (a, b) = if odd {
                (a >> 1, (b << 1) & full)
            } else {
                (a, b)
            };
            a as u64 | (b as u64) << n
        };
        loop {
            if row == last {
                while free != 0 {
                    let bit = free & free.wrapping_neg();
                    free ^= bit;
                    let c = cols | bit;
                    let w = word(a, b, bit);
                    if KEPT == EVERY {
                        leaf(c, w);
                        continue;
                    }
                    let mbit = top >> bit.trailing_zeros();
                    let m = mc | mbit;
                    let (own, image) = image_ranks(others, c, m);
                    if KEPT == NEEDED {
                        if own <= image {
                            leaf(c, w);
                        }
                        continue;
                    }
                    // The placement or its image is needed, chosen without a branch; both
                    // when they tie.
                    let mw = word(ma, mb, mbit);
                    let first = own <= image;
                    let (x, wx) = if first { (c, w) } else { (m, mw) };
                    leaf(x, wx);
                    if own == image {
                        let (y, wy) = if first { (m, mw) } else { (c, w) };
                        leaf(y, wy);
                    }
                }
            } else if free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                stack[row & 15] = (free, cols, a, b);
                cols |= bit;
                a = (a | bit) >> 1;
                b = ((b | bit) << 1) & full;
                if KEPT != EVERY {
                    images[row & 15] = (mc, ma, mb);
                    let mbit = top >> bit.trailing_zeros();
                    mc |= mbit;
                    ma = (ma | mbit) >> 1;
                    mb = ((mb | mbit) << 1) & full;
                }
                row += 1;
                free = self.free(row, cols, a, b);
                continue;
            }
            if row == start.row {
                break;
            }
            row -= 1;
            (free, cols, a, b) = stack[row & 15];
            if KEPT != EVERY {
                (mc, ma, mb) = images[row & 15];
            }
        }
    }
}

/// [`Kept`] as the numbers that [`Upper::walk_keeping`] is compiled for.
const EVERY: u8 = 0;
const NEEDED: u8 = 1;
const BY_MIRROR: u8 = 2;

/// The state of a walk after its first rows.
#[derive(Clone, Copy, Debug)]
struct Start {
    row: usize,
    cols: u32,
    a: u32,
    b: u32,
}

/// Rows placed before the walks are shared out (fine enough that the workers finish filling
/// together).
const START_DEPTH: usize = 3;

/// Walks cut into pieces to share out among workers: each piece is one walk from one start.
struct Pieces {
    walks: Vec<Upper>,
    /// The pieces: a walk (its index in `walks`) and a start of it.
    starts: Vec<(u32, Start)>,
}

impl Pieces {
    /// The walks from the placements of their first `depth` rows; from their roots alone when
    /// they are enough to share out by themselves.
    fn new(walks: Vec<Upper>, depth: usize) -> Pieces {
        let starts = if walks.len() >= 1024 {
            (0..walks.len() as u32)
                .map(|i| (i, walks[i as usize].root()))
                .collect()
        } else {
            let mut starts = Vec::new();
            for (i, w) in walks.iter().enumerate() {
                let depth = depth.min(w.h as usize - 1);
                starts.extend(w.starts(depth).into_iter().map(|s| (i as u32, s)));
            }
            starts
        };
        Pieces { walks, starts }
    }

    /// Every `step`-th piece.
    fn every(&self, step: usize) -> Pieces {
        Pieces {
            walks: self.walks.clone(),
            starts: self.starts.iter().step_by(step).copied().collect(),
        }
    }
}

/// Runs each piece of `pieces` on the workers: each worker makes its state with `new` and
/// takes the next piece until none is left or `stop` says so. Returns the workers' states
/// (in no fixed order: their callers only add them up).
fn share_pieces<S: Send>(
    workers: &Workers,
    pieces: &Pieces,
    stop: impl Fn() -> bool + Sync,
    new: impl Fn() -> S + Sync,
    walk: impl Fn(&mut S, &Upper, &[Start]) + Sync,
) -> Vec<S> {
    let next = AtomicUsize::new(0);
    workers.install(|| {
        (0..workers.threads().max(1))
            .into_par_iter()
            .map(|_| {
                let mut state = new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= pieces.starts.len() || stop() {
                        break;
                    }
                    let (w, start) = &pieces.starts[i];
                    walk(
                        &mut state,
                        &pieces.walks[*w as usize],
                        std::slice::from_ref(start),
                    );
                }
                state
            })
            .collect()
    })
}

/// Adds the number of halves of each column set, from the walks from `starts`, to `counts`.
#[inline(always)]
fn count_halves_with(walk: &Upper, starts: &[Start], counts: &mut [u32]) {
    for &start in starts {
        walk.walk_from(start, &mut |cols, _| counts[cols as usize] += 1);
    }
}

/// The shared stop of the walks filling one table: set once their chunks pass `max` bytes.
struct Limit {
    bytes: AtomicUsize,
    max: usize,
    stop: AtomicBool,
}

impl Limit {
    fn new(max: usize) -> Limit {
        Limit {
            bytes: AtomicUsize::new(0),
            max,
            stop: AtomicBool::new(false),
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Chunks of records, each with the number of records it holds.
type Chunks = Vec<(Box<[u8]>, u32)>;

/// One filling worker's records, bucket by bucket: the full chunks and the one being filled.
struct Fillings {
    full: Vec<Chunks>,
    /// The chunk being filled and where its next record goes (`layout.chunk`: a new chunk
    /// is needed), side by side so that a record's write reads one place.
    current: Vec<(Box<[u8]>, u32)>,
}

impl Fillings {
    fn new(layout: &Layout) -> Fillings {
        let buckets = layout.buckets();
        Fillings {
            full: (0..buckets).map(|_| Vec::new()).collect(),
            current: (0..buckets)
                .map(|_| (Box::default(), layout.chunk as u32))
                .collect(),
        }
    }

    /// Sets bucket `b`'s current chunk aside and starts a new one.
    #[cold]
    #[inline(never)]
    fn next_chunk(&mut self, b: usize, layout: &Layout, limit: &Limit) {
        let bytes = layout.chunk_bytes();
        let fresh = (vec![0u8; bytes].into_boxed_slice(), 0);
        let (current, at) = std::mem::replace(&mut self.current[b], fresh);
        if !current.is_empty() {
            self.full[b].push((current, at / layout.raw as u32));
        }
        let bytes = limit.bytes.fetch_add(bytes, Ordering::Relaxed) + bytes;
        if bytes > limit.max {
            limit.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Every bucket's chunks.
    fn into_chunks(self, layout: &Layout) -> impl Iterator<Item = Chunks> {
        let raw = layout.raw as u32;
        self.full
            .into_iter()
            .zip(self.current)
            .map(move |(mut full, (current, at))| {
                if !current.is_empty() && at > 0 {
                    full.push((current, at / raw));
                }
                full
            })
    }
}

/// Appends the record of each half from the walks from `starts` (its word and the low bits of
/// its column set) to its coarse bucket in `out`, counting the chunks it takes in `limit`
/// (whose stop [`fill_table`] checks between starts).
#[inline(always)]
fn fill_buckets_with(
    layout: &Layout,
    walk: &Upper,
    starts: &[Start],
    limit: &Limit,
    out: &mut Fillings,
) {
    let (tag, raw) = (layout.tag, layout.raw);
    let tag_mask = (1u32 << tag) - 1;
    let key_bits = 2 * layout.n;
    let end = layout.chunk;
    for &start in starts {
        walk.walk_from(start, &mut |cols, w| {
            let b = (cols >> tag) as usize;
            if out.current[b].1 as usize + raw > end {
                out.next_chunk(b, layout, limit);
            }
            let (chunk, at) = &mut out.current[b];
            let record = w | ((cols & tag_mask) as u64) << key_bits;
            let i = *at as usize;
            chunk[i..i + 8].copy_from_slice(&record.to_le_bytes());
            *at = (i + raw) as u32;
        });
    }
}

/// Sorts one coarse bucket's records (from every filling worker) by column set into `out`: a
/// counting pass and a placing pass over the chunks (the second reads them in cache). Each
/// chunk is read as two streams ([`two_streams`]) with cursors of their own: records of one
/// set often come in runs, and one stream of increments to the same cursor would wait on
/// itself.
fn sort_bucket(layout: &Layout, parts: &Chunks, out: &mut Sorted) {
    let key_bits = 2 * layout.n;
    let raw_mask = u64::MAX >> (64 - key_bits - layout.tag);
    let key_mask = u64::MAX >> (64 - key_bits);
    let sets = 1usize << layout.tag;
    // `cursors[2 * t + s]`: stream `s`'s count of set `t`, then where its next one goes.
    let cursors = &mut out.cursors;
    cursors.clear();
    cursors.resize(2 * sets, 0);
    let mut total = 0;
    for (chunk, count) in parts {
        total += *count as usize;
        two_streams(layout, chunk, *count, |s, r| {
            cursors[2 * ((r & raw_mask) >> key_bits) as usize + s] += 1;
        });
    }
    let offsets = &mut out.offsets;
    offsets.clear();
    offsets.resize(sets + 1, 0);
    let mut sum = 0u32;
    for t in 0..sets {
        offsets[t] = sum;
        let (first, second) = (cursors[2 * t], cursors[2 * t + 1]);
        cursors[2 * t] = sum;
        cursors[2 * t + 1] = sum + first;
        sum += first + second;
    }
    offsets[sets] = sum;
    // Every word up to `total` is written below (what lies past it is never read).
    let words = &mut out.words;
    if words.len() < total {
        words.resize(total, 0);
    }
    for (chunk, count) in parts {
        two_streams(layout, chunk, *count, |s, r| {
            let r = r & raw_mask;
            let cursor = &mut cursors[2 * (r >> key_bits) as usize + s];
            words[*cursor as usize] = r & key_mask;
            *cursor += 1;
        });
    }
}

/// Calls `record(s, r)` on the `count` records `r` of `chunk` (unmasked), as two streams `s`
/// taken in turn: stream 0 the first half, stream 1 the second (and the odd one out).
#[inline(always)]
fn two_streams(layout: &Layout, chunk: &[u8], count: u32, mut record: impl FnMut(usize, u64)) {
    let count = count as usize;
    let half = count / 2;
    for i in 0..half {
        record(0, read_word(chunk, i * layout.raw));
        record(1, read_word(chunk, (half + i) * layout.raw));
    }
    if count % 2 == 1 {
        record(1, read_word(chunk, (count - 1) * layout.raw));
    }
}

/// The table of the halves that the walks of `pieces` hear, filled by the workers (each
/// into chunks of its own, [`share_pieces`]), or `None` if its chunks would pass `max_bytes`
/// or `deadline` stopped the walks. Its buckets are sorted later, by the workers that count
/// their units ([`sort_bucket`]), so that the words are read in cache.
fn fill_table(
    level: Level,
    layout: &Layout,
    pieces: &Pieces,
    max_bytes: usize,
    workers: &Workers,
    deadline: &Deadline,
) -> Option<Table> {
    let limit = Limit::new(max_bytes);
    let buckets = layout.buckets();
    let fillings = share_pieces(
        workers,
        pieces,
        || limit.stopped() || deadline.reached(),
        || Fillings::new(layout),
        |out, walk, starts| fill_buckets(level, layout, walk, starts, &limit, out),
    );
    if limit.stopped() || deadline.reached() {
        return None;
    }
    // Each bucket's chunks, worker by worker.
    let mut per_bucket: Vec<Chunks> = (0..buckets).map(|_| Vec::new()).collect();
    for group in fillings {
        for (all, chunks) in per_bucket.iter_mut().zip(group.into_chunks(layout)) {
            all.extend(chunks);
        }
    }
    Some(Table {
        layout: *layout,
        buckets: per_bucket,
        bytes: limit.bytes.load(Ordering::Relaxed),
    })
}

/// Walks out of which one is sampled by [`sample_halves`] (when there are many).
const SAMPLE_STEP: usize = 16;

/// The numbers of halves a walk hears, by column set, counted on a sample of its walks.
struct Sample {
    counts: Vec<u32>,
    /// The walks sampled, out of `walks`.
    sampled: u64,
    walks: u64,
}

impl Sample {
    /// `x` halves of the sample scaled to the whole walk.
    fn scaled(&self, x: u64) -> u64 {
        (x as u128 * self.walks as u128 / self.sampled.max(1) as u128) as u64
    }

    /// The sampled halves of each part of `mask`: those whose column sets meet it in the
    /// part (as a number of `mask.count_ones()` bits).
    fn by_part(&self, mask: u32) -> Vec<u64> {
        let mut size = vec![0u64; 1 << mask.count_ones()];
        for (set, &c) in self.counts.iter().enumerate() {
            if c != 0 {
                size[extract(set as u32, mask) as usize] += c as u64;
            }
        }
        size
    }

    /// The estimated number of halves of the whole walk.
    fn total(&self) -> u64 {
        self.scaled(self.counts.iter().map(|&c| c as u64).sum())
    }
}

/// The rows placed before the sample's walks, and the share of them it walks (one in so
/// many), for board size `n`: every [`SAMPLE_STEP`]th walk from the first four rows up to
/// N = 19, then a four times sparser sample for each size above (from deeper starts, so that
/// a sparse sample still holds thousands of walks): its cost stays near a second of CPU time
/// (N = 21: 0.6 s rather than 10 s).
fn sample_shape(n: u32) -> (usize, usize) {
    let above = n.saturating_sub(19) as usize;
    (4 + above.div_ceil(2), SAMPLE_STEP << (2 * above))
}

/// Counts the halves of every so many walks from the placements of a few rows
/// ([`sample_shape`]; every walk when they are few), unless `deadline` stops it first.
fn sample_halves(level: Level, walk: &Upper, workers: &Workers, deadline: &Deadline) -> Sample {
    let (depth, sparse) = sample_shape(walk.n);
    let all = Pieces::new(vec![walk.clone()], depth);
    let step = if all.starts.len() >= 64 * sparse {
        sparse
    } else {
        1
    };
    let sample = all.every(step);
    let sets = 1usize << walk.n;
    let parts = share_pieces(
        workers,
        &sample,
        || deadline.reached(),
        || vec![0u32; sets],
        |counts, walk, starts| count_halves(level, walk, starts, counts),
    );
    let mut counts = vec![0u32; sets];
    for part in parts {
        for (x, y) in counts.iter_mut().zip(part) {
            *x += y;
        }
    }
    Sample {
        counts,
        sampled: sample.starts.len() as u64,
        walks: all.starts.len() as u64,
    }
}

/// [`count_halves_with`] compiled for the best level that `level` allows and the CPU has.
fn count_halves(level: Level, walk: &Upper, starts: &[Start], counts: &mut [u32]) {
    on_level!(
        level,
        count_halves_baseline(walk, starts, counts),
        count_halves_v3(walk, starts, counts),
        count_halves_v4(walk, starts, counts)
    )
}

/// Defines `$name`, [`count_halves_with`] compiled for one instruction-set level.
macro_rules! count_halves_copy {
    ($(#[$attribute:meta])* fn $name:ident) => {
        $(#[$attribute])*
        fn $name(walk: &Upper, starts: &[Start], counts: &mut [u32]) {
            count_halves_with(walk, starts, counts)
        }
    };
}

level_copies!(
    count_halves_copy,
    count_halves_baseline,
    count_halves_v3,
    count_halves_v4
);

/// [`fill_buckets_with`] compiled for the best level that `level` allows and the CPU has.
fn fill_buckets(
    level: Level,
    layout: &Layout,
    walk: &Upper,
    starts: &[Start],
    limit: &Limit,
    out: &mut Fillings,
) {
    on_level!(
        level,
        fill_buckets_baseline(layout, walk, starts, limit, out),
        fill_buckets_v3(layout, walk, starts, limit, out),
        fill_buckets_v4(layout, walk, starts, limit, out)
    )
}

/// Defines `$name`, [`fill_buckets_with`] compiled for one instruction-set level.
macro_rules! fill_buckets_copy {
    ($(#[$attribute:meta])* fn $name:ident) => {
        $(#[$attribute])*
        fn $name(layout: &Layout, walk: &Upper, starts: &[Start], limit: &Limit, out: &mut Fillings) {
            fill_buckets_with(layout, walk, starts, limit, out)
        }
    };
}

level_copies!(
    fill_buckets_copy,
    fill_buckets_baseline,
    fill_buckets_v3,
    fill_buckets_v4
);

/// The key of an upper half at the meeting row (`r + c` diagonals in the low `n` bits,
/// `c - r` ones above them).
#[inline(always)]
fn upper_key(n: u32, full: u32, odd: bool, w: u64) -> u64 {
    if odd {
        return w;
    }
    let (a, b) = (w as u32 & full, (w >> n) as u32);
    ((a >> 1) as u64) | (((b << 1) & full) as u64) << n
}

/// The key, at the meeting row, of the lower half that is the mirror image (across the
/// middle row) of the upper half with word `w`: the mirror swaps the two kinds of diagonal.
#[inline(always)]
fn lower_key(n: u32, full: u32, w: u64) -> u64 {
    let (a, b) = (w as u32 & full, (w >> n) as u32);
    b as u64 | (a as u64) << n
}

/// Patterns per block of the matcher (one 512-bit set per table entry).
const BLOCK: usize = 512;
/// 64-bit words per block.
const LANES: usize = BLOCK / 64;
/// Key bits per table (`ENTRIES` entries each).
const CHUNK: u32 = 5;
/// Entries per table.
const ENTRIES: usize = 1 << CHUNK;
/// The key bits of one chunk.
const CHUNK_MASK: u64 = ENTRIES as u64 - 1;

type Set = [u64; LANES];

/// The number of pairs (a, b), a in `items`, b in `patterns`, with `a & b == 0`, by a plain
/// loop.
#[inline(always)]
fn disjoint_pairs_plain(items: &[u64], patterns: &[u64]) -> u64 {
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
fn transpose64(m: &mut [u64; 64]) {
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
fn transpose_round<const J: usize>(m: &mut [u64; 64], mask: u64) {
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

/// Sets the tables of the bit-sliced matcher for `patterns` (keys of at most `bits` bits):
/// per block of [`BLOCK`] patterns, `chunks` tables of [`ENTRIES`] sets, table `ch` entry `v` holding
/// the members that have none of the bits `v << (CHUNK * ch)`. Each block is first transposed
/// (one 512-bit set per key bit: the members without it), and each entry is then the
/// intersection of one entry with fewer bits and one such set. The tables are the first ones of
/// `tables` (which only grows, since every entry is written before it is read): returns how
/// many.
#[inline(always)]
fn build_tables(patterns: &[u64], bits: u32, tables: &mut Vec<[Set; ENTRIES]>) -> usize {
    let chunks = bits.div_ceil(CHUNK) as usize;
    let used = patterns.len().div_ceil(BLOCK) * chunks;
    if tables.len() < used {
        tables.resize(used, [[0u64; LANES]; ENTRIES]);
    }
    for (b, block) in patterns.chunks(BLOCK).enumerate() {
        let mut members: Set = [0; LANES];
        // Key bits past 64 (in the last chunk) are lacked by every member.
        let mut lacking = [[0u64; LANES]; 64 + CHUNK as usize];
        for (w, rows) in block.chunks(64).enumerate() {
            let mut m = [0u64; 64];
            m[..rows.len()].copy_from_slice(rows);
            transpose64(&mut m);
            let valid = u64::MAX >> (64 - rows.len());
            members[w] = valid;
            for (k, lack) in lacking.iter_mut().enumerate().take(chunks * CHUNK as usize) {
                lack[w] = if k < 64 { valid & !m[k] } else { valid };
            }
        }
        let base = b * chunks;
        for (ch, table) in tables[base..base + chunks].iter_mut().enumerate() {
            table[0] = members;
            for v in 1..ENTRIES {
                let lack = &lacking[ch * CHUNK as usize + v.trailing_zeros() as usize];
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
fn count_with_tables(level: Level, items: &[u64], bits: u32, tables: &[[Set; ENTRIES]]) -> u64 {
    // A copy per table count up to 11 (keys of up to 55 bits, so every size the join
    // counts), fully unrolled; the plain loop beyond.
    match bits.div_ceil(CHUNK) {
        1 => count_with_chunks::<1>(level, items, tables),
        2 => count_with_chunks::<2>(level, items, tables),
        3 => count_with_chunks::<3>(level, items, tables),
        4 => count_with_chunks::<4>(level, items, tables),
        5 => count_with_chunks::<5>(level, items, tables),
        6 => count_with_chunks::<6>(level, items, tables),
        7 => count_with_chunks::<7>(level, items, tables),
        8 => count_with_chunks::<8>(level, items, tables),
        9 => count_with_chunks::<9>(level, items, tables),
        10 => count_with_chunks::<10>(level, items, tables),
        11 => count_with_chunks::<11>(level, items, tables),
        chunks => count_with_any(items, chunks as usize, tables),
    }
}

/// [`count_with_tables`] for `C` tables per block (the block length known at compile time).
#[inline(always)]
fn count_with_chunks<const C: usize>(
    level: Level,
    items: &[u64],
    tables: &[[Set; ENTRIES]],
) -> u64 {
    // Plain loops, not iterator adapters: their `fold` would be compiled apart from the
    // instruction-set copy that calls it (and so without its vector instructions).
    let mut total = 0;
    let mut start = 0;
    while start + C <= tables.len() {
        let block: &[[Set; ENTRIES]; C] = tables[start..start + C].try_into().unwrap();
        total += count_block_at(level, items, block);
        start += C;
    }
    total
}

/// [`count_with_tables`] for any number of tables per block, by the plain loop.
#[inline(always)]
fn count_with_any(items: &[u64], chunks: usize, tables: &[[Set; ENTRIES]]) -> u64 {
    let mut total = 0;
    let mut start = 0;
    while start < tables.len() {
        let end = (start + chunks).min(tables.len());
        total += count_block(items, &tables[start..end]);
        start = end;
    }
    total
}

/// The patterns of one block of tables that each of `items` meets nowhere, summed over `items`.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // index loops, so that nothing is compiled apart
fn count_block(items: &[u64], block: &[[Set; ENTRIES]]) -> u64 {
    let mut total = 0u64;
    let mut i = 0;
    while i < items.len() {
        let x = items[i];
        i += 1;
        let mut acc = block[0][(x & CHUNK_MASK) as usize];
        let mut ch = 1;
        while ch < block.len() {
            let t = &block[ch][(x >> (ch as u32 * CHUNK) & CHUNK_MASK) as usize];
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
fn count_block_at<const C: usize>(level: Level, items: &[u64], block: &[[Set; ENTRIES]; C]) -> u64 {
    // (The vector copies need AVX2, part of every `_v3` level, and AVX-512 F with VPOPCNTDQ,
    // part of every `_v4` level.)
    on_level!(
        level,
        count_block(items, block),
        count_block_v3(items, block),
        count_block_v4(items, block)
    )
}

/// [`count_block`] with AVX-512: one load and AND per table entry, the counts summed per lane.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq")]
fn count_block_v4<const C: usize>(items: &[u64], block: &[[Set; ENTRIES]; C]) -> u64 {
    use std::arch::x86_64::*;
    #[allow(unsafe_code)]
    // SAFETY: every load reads one whole `Set` (64 bytes) of `block` (unaligned loads).
    unsafe {
        let load = |set: &Set| _mm512_loadu_si512(set.as_ptr().cast());
        let mut sums = _mm512_setzero_si512();
        for &x in items {
            let mut acc = load(&block[0][(x & CHUNK_MASK) as usize]);
            for (ch, table) in block.iter().enumerate().skip(1) {
                let t = load(&table[(x >> (ch as u32 * CHUNK) & CHUNK_MASK) as usize]);
                acc = _mm512_and_si512(acc, t);
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
fn count_block_v3<const C: usize>(items: &[u64], block: &[[Set; ENTRIES]; C]) -> u64 {
    use std::arch::x86_64::*;
    #[allow(unsafe_code)]
    // SAFETY: every load reads 32 bytes inside one `Set` of `block` (unaligned loads).
    unsafe {
        let load = |set: &Set, half: usize| _mm256_loadu_si256(set.as_ptr().add(4 * half).cast());
        let nibbles = _mm256_setr_epi8(
            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2,
            3, 3, 4,
        );
        let low = _mm256_set1_epi8(0x0f);
        let mut sums = _mm256_setzero_si256();
        for &x in items {
            let first = &block[0][(x & CHUNK_MASK) as usize];
            let (mut a0, mut a1) = (load(first, 0), load(first, 1));
            for (ch, table) in block.iter().enumerate().skip(1) {
                let t = &table[(x >> (ch as u32 * CHUNK) & CHUNK_MASK) as usize];
                a0 = _mm256_and_si256(a0, load(t, 0));
                a1 = _mm256_and_si256(a1, load(t, 1));
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

/// The pairs of `items` and `patterns` by the matcher, without sieving.
#[inline(always)]
fn match_group(
    level: Level,
    items: &[u64],
    patterns: &[u64],
    bits: u32,
    tables: &mut Vec<[Set; ENTRIES]>,
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
    let used = build_tables(patterns, bits, tables);
    count_with_tables(level, items, bits, &tables[..used])
}

/// BMI2 where the matcher's bit gathers use `pext` at `level` (a level with fast `pext`, on a
/// CPU that has it); `None` gathers one bit at a time ([`crate::primitive::cpu::pext`]).
fn fast_pext(level: Level) -> Option<Bmi2> {
    if level >= Level::V3Pext {
        Bmi2::detect()
    } else {
        None
    }
}

/// Most key bits a sieve splits by.
const MAX_CUT: usize = 6;

/// Most runs of bits a [`Squeeze`] drops.
const MAX_RUNS: usize = 24;

/// A compaction of keys that drops the bits outside a mask: the bits kept, packed low in their
/// order. Two keys meet exactly where their kept bits meet, when the bits dropped are in
/// neither key or irrelevant to the pairs compared.
#[derive(Clone, Copy)]
struct Squeeze {
    keep: u64,
    /// The runs of dropped bits below the highest kept one, `(position, length)`, highest
    /// first.
    runs: [(u32, u32); MAX_RUNS],
    len: usize,
    /// Squeezed by `pext` (see [`crate::primitive::cpu::pext`]) where set.
    pext: Option<Bmi2>,
}

impl Squeeze {
    /// Keeps the bits of `keep` (all of them up to its highest one if its gaps are too many and
    /// `pext` is not used).
    fn keeping(keep: u64, pext: Option<Bmi2>) -> Squeeze {
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
    fn bits(&self) -> u32 {
        self.keep.count_ones()
    }

    #[inline(always)]
    fn apply(&self, x: u64) -> u64 {
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
fn disjoint_pairs(items: &[u64], patterns: &[u64], bits: u32, scratch: &mut Scratch) -> u64 {
    let k = match patterns.len() / 512 {
        0 => 0,
        q => (q.ilog2() as usize + 1).min(MAX_CUT).min(bits as usize),
    };
    if k == 0 || items.len() < 64 {
        return match_group(scratch.level, items, patterns, bits, &mut scratch.tables);
    }
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
    let pext = fast_pext(scratch.level);
    let rest = Squeeze::keeping((u64::MAX >> (64 - bits)) & !cut, pext);
    let parts = 1usize << k;
    let mut codes = std::mem::take(&mut scratch.codes);
    let mut item_starts = [0usize; 1 << MAX_CUT | 1];
    let mut pattern_starts = [0usize; 1 << MAX_CUT | 1];
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
        // The items that can meet this part: codes without a bit of y.
        gathered.clear();
        for z in 0..parts {
            if z & y == 0 {
                gathered.extend_from_slice(&sorted_items[item_starts[z]..item_starts[z + 1]]);
            }
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
fn sort_by_code(
    keys: &[u64],
    cut: u64,
    rest: &Squeeze,
    codes: &mut Vec<u8>,
    out: &mut Vec<u64>,
    starts: &mut [usize; 1 << MAX_CUT | 1],
) {
    let parts = 1usize << cut.count_ones();
    let mut sizes = [0usize; 1 << MAX_CUT];
    // (Grown only: every entry up to `keys.len()` is written before it is read.)
    if codes.len() < keys.len() {
        codes.resize(keys.len(), 0);
    }
    for i in 0..keys.len() {
        let c = pext(keys[i], cut, rest.pext) as usize;
        codes[i] = c as u8;
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
struct Scratch {
    upper: Vec<u64>,
    lower: Vec<u64>,
    tables: Vec<[Set; ENTRIES]>,
    sorted_items: Vec<u64>,
    sorted_patterns: Vec<u64>,
    gathered: Vec<u64>,
    codes: Vec<u8>,
    /// The instruction-set level of the matcher.
    level: Level,
}

/// The number of solutions of `unit`, all of them: its upper halves `ups` (the words of the
/// upper half on its columns), its lower halves `lows` (the words of the upper halves on the
/// other columns, whose mirror images they are).
#[inline(always)]
fn total_of(unit: &JoinUnit, ups: &[u64], lows: &[u64], scratch: &mut Scratch) -> u64 {
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
    let squeeze = Squeeze::keeping(keep, fast_pext(scratch.level));
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
fn total_at(
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

/// Whether the half turn maps the unit onto itself (only then can it hold solutions that the
/// half turn fixes).
fn half_turn_fixed(unit: &JoinUnit) -> bool {
    let n = unit.n as u32;
    let im = images(n, unit.upper, unit.middle);
    im[3] == (unit.upper, unit.middle)
}

/// Finds the unit's solutions that the half turn fixes, records their classes in `counts`
/// and returns how many there are. Such a solution is its upper half (and middle queen) plus
/// that half turned, so a search over the upper half finds them all.
fn classify_symmetric(unit: &JoinUnit, counts: &mut UnitCounts) -> u64 {
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

/// Counts one unit's solutions by the size of their class.
fn count_unit_with(
    level: Level,
    unit: &JoinUnit,
    upper: &[u64],
    lower: &[u64],
    scratch: &mut Scratch,
) -> UnitCounts {
    let mut counts = UnitCounts::default();
    let total = total_at(level, unit, upper, lower, scratch);
    let symmetric = if half_turn_fixed(unit) {
        classify_symmetric(unit, &mut counts)
    } else {
        0
    };
    counts.found[3] += total - symmetric;
    counts
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
    static SORTING: std::cell::RefCell<Sorting> = std::cell::RefCell::new(Sorting::default());
}

/// Two coarse buckets, each as (table, bucket): the first the smaller.
type BucketKeys = ((usize, usize), (usize, usize));

/// Buffers for sorting the two buckets of a pair, reused between pairs on one thread.
#[derive(Default)]
struct Sorting {
    first: Sorted,
    second: Sorted,
}

/// The largest board the join counts (projected from samples at N = 22 and 23; nothing above
/// is measured).
pub(crate) const MAX_JOIN_N: u32 = 23;

/// What a run of [`count_all`] did: its units counted and in all, and the CPU time of the
/// batches it counted, from which a sampled run projects the whole count.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct JoinRun {
    pub(crate) done: u64,
    pub(crate) total: u64,
    /// Batches in all (over every context counted in batches) and those counted.
    pub(crate) batches: u64,
    pub(crate) batches_counted: u64,
    /// CPU seconds (this process's) outside the batches counted.
    pub(crate) other_cpu: f64,
    /// CPU seconds in the batches counted: in filling their tables and in matching.
    pub(crate) fill_cpu: f64,
    pub(crate) match_cpu: f64,
    /// The sampled sizes of the batches' work, in all and in the batches counted: halves in
    /// their tables, and pairs of halves (the product of a unit's two sides) in their units.
    pub(crate) halves: [f64; 2],
    pub(crate) pairs: [f64; 2],
}

impl JoinRun {
    /// The CPU seconds in the batches counted.
    pub(crate) fn batch_cpu(&self) -> f64 {
        self.fill_cpu + self.match_cpu
    }

    /// The CPU seconds of the whole count: the rest, plus the batches' filling and matching
    /// times each scaled by the share of the halves and of the pairs (by the sample) that the
    /// batches counted hold. Exact when every batch was counted.
    pub(crate) fn projected_cpu(&self) -> f64 {
        let scale = |[all, counted]: [f64; 2]| {
            if counted > 0.0 {
                all / counted
            } else {
                self.batches as f64 / self.batches_counted.max(1) as f64
            }
        };
        self.other_cpu + self.fill_cpu * scale(self.halves) + self.match_cpu * scale(self.pairs)
    }
}

/// The columns that the middle queen (in column `middle` of row `n / 2`) attacks, row by row
/// (none without a middle queen).
fn middle_attacks(n: u32, middle: u8) -> [u32; 32] {
    let mut fixed = [0u32; 32];
    if middle != NO_MIDDLE {
        let (c, h) = (middle as i32, (n / 2) as i32);
        for (r, f) in fixed.iter_mut().enumerate().take(n as usize) {
            let d = r as i32 - h;
            for col in [c - d, c + d] {
                if (0..n as i32).contains(&col) {
                    *f |= 1 << col;
                }
            }
        }
    }
    fixed
}

/// The batch columns for one context: the fewest central columns (the middle one left out)
/// such that every batch's two tables fit in `budget` bytes.
fn choose_batch_columns(n: u32, middle: u8, sample: &Sample, record: u64, budget: u64) -> u32 {
    let mid_bit = if middle == NO_MIDDLE {
        0
    } else {
        1u32 << middle
    };
    // Columns from the centre outwards.
    let mut order: Vec<u32> = (0..n).filter(|&c| mid_bit >> c & 1 == 0).collect();
    order.sort_by_key(|&c| ((2 * c as i32 - (n as i32 - 1)).abs(), c));
    let mut mask = 0u32;
    for &next in std::iter::once(&u32::MAX).chain(order.iter()) {
        if next != u32::MAX {
            mask |= 1 << next;
        }
        let m = mask.count_ones();
        let size = sample.by_part(mask);
        let worst = (0..1usize << m)
            .map(|p| size[p] + size[!p & ((1 << m) - 1)])
            .max()
            .unwrap_or(0);
        // Records plus the offsets of both tables.
        if sample.scaled(worst) * record + 2 * 4 * (1u64 << n) <= budget || m >= 12 {
            return mask;
        }
    }
    mask
}

/// The bits of `x` at the set bits of `mask`, packed low.
fn extract(x: u32, mask: u32) -> u32 {
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

#[cfg(test)]
mod tests {
    use super::batches::{count_all, JoinCut, DEFAULT_MEMORY_MIB};
    use super::*;
    use crate::count::Tally;

    /// A000170 and A002562 for N = 1..=14.
    const SOLUTIONS: [u128; 14] = [
        1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
    ];
    const UNIQUE: [u128; 14] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752];

    /// Counts by the join with the given table budget, and the counts of every unit.
    fn join_count(n: u32, budget: u64, threads: usize) -> (Tally, Vec<(JoinUnit, UnitCounts)>) {
        let options = Options::with_threads(threads);
        let workers = Workers::new(threads);
        let mut tally = Tally::default();
        let mut seen = Vec::new();
        let cut = JoinCut::new(n, budget, &workers, &Deadline::never()).unwrap();
        let run = count_all(&cut, 1, &workers, &options, &Deadline::never(), |u, c| {
            tally.add_orbit(u.orbit, c);
            seen.push((*u, *c));
        });
        assert_eq!(run.done, run.total);
        assert_eq!(run.batches, run.batches_counted);
        (tally, seen)
    }

    #[test]
    fn join_counts_match_oeis_with_any_batching() {
        for n in 4..=14u32 {
            let i = n as usize - 1;
            // The default budget (no batches), a small one and a tiny one (the most batches).
            for budget in [DEFAULT_MEMORY_MIB << 20, 1 << 16, 1] {
                for threads in [1, 2] {
                    let (tally, _) = join_count(n, budget, threads);
                    assert_eq!(tally.solutions, SOLUTIONS[i], "N = {n}, budget {budget}");
                    assert_eq!(tally.unique(), UNIQUE[i], "N = {n}, budget {budget}");
                }
            }
        }
    }

    /// A sampled run counts exactly every `every`-th batch, and their units are counted as in
    /// the whole run.
    #[test]
    fn a_sampled_run_counts_every_kth_batch_exactly() {
        let n = 13;
        let (_, whole) = join_count(n, 1, 2);
        let whole: std::collections::BTreeMap<JoinUnit, UnitCounts> = whole.into_iter().collect();
        let workers = Workers::new(2);
        for every in [2u64, 3, 7] {
            let mut seen = Vec::new();
            let cut = JoinCut::new(n, 1, &workers, &Deadline::never()).unwrap();
            let run = count_all(
                &cut,
                every,
                &workers,
                &Options::with_threads(2),
                &Deadline::never(),
                |u, c| seen.push((*u, *c)),
            );
            assert!(run.batches > every, "{run:?}");
            assert_eq!(run.batches_counted, run.batches.div_ceil(every), "{run:?}");
            assert_eq!(run.done, seen.len() as u64);
            assert!(0 < run.done && run.done < run.total, "{run:?}");
            for (u, c) in &seen {
                assert_eq!(whole[u], *c, "{u:?}");
            }
            assert!(run.projected_cpu() >= run.batch_cpu() + run.other_cpu - 1e-9);
        }
    }

    /// Every solution of the board by a plain search, with its class size.
    fn all_solutions(n: usize) -> Vec<([u8; 32], usize)> {
        fn go(n: usize, r: usize, board: &mut [u8; 32], out: &mut Vec<([u8; 32], usize)>) {
            if r == n {
                out.push((*board, 8 / stabilizer_order(n, board)));
                return;
            }
            for c in 0..n as u8 {
                let clash = (0..r)
                    .any(|i| board[i] == c || (board[i] as i32 - c as i32).abs() == (r - i) as i32);
                if !clash {
                    board[r] = c;
                    go(n, r + 1, board, out);
                }
            }
        }
        let mut out = Vec::new();
        go(n, 0, &mut [0; 32], &mut out);
        out
    }

    /// Each unit's counts equal those of a plain search restricted to the unit (the upper
    /// half on its columns, its middle queen), class by class, and the orbits add up.
    #[test]
    fn every_unit_matches_the_plain_search() {
        for n in 4..=10u32 {
            let solutions = all_solutions(n as usize);
            let (_, seen) = join_count(n, 1, 2);
            let h = n as usize / 2;
            for (unit, counts) in &seen {
                let mut expected = UnitCounts::default();
                for (board, class) in &solutions {
                    let upper = board[..h].iter().fold(0u32, |s, &c| s | 1 << c);
                    let middle_ok = unit.middle == NO_MIDDLE || board[h] == unit.middle;
                    if upper == unit.upper && middle_ok {
                        expected.found[class.trailing_zeros() as usize] += 1;
                    }
                }
                assert_eq!(*counts, expected, "N = {n}, {unit:?}");
            }
            // The units' classes cover every column set once.
            let orbits: u64 = seen.iter().map(|(u, _)| u.orbit as u64).sum();
            let middles = if n % 2 == 1 { n as u64 } else { 1 };
            let sets = (0..1u64 << (n - (n % 2)))
                .filter(|s| s.count_ones() == h as u32)
                .count();
            assert_eq!(orbits, middles * sets as u64, "N = {n}");
        }
    }

    /// A small deterministic generator (xorshift).
    fn keys(seed: &mut u64, len: usize, bits: u32, density: u32) -> Vec<u64> {
        (0..len)
            .map(|_| {
                let mut k = 0u64;
                for b in 0..bits {
                    *seed ^= *seed << 13;
                    *seed ^= *seed >> 7;
                    *seed ^= *seed << 17;
                    if *seed % 100 < density as u64 {
                        k |= 1 << b;
                    }
                }
                k
            })
            .collect()
    }

    /// The sieved, bit-sliced matcher counts the same pairs as the plain loop, on random keys
    /// of every size class (plain, one block, many blocks, sieved with 1 to 4 cut bits).
    #[test]
    fn matcher_counts_like_the_plain_loop() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut scratch = Scratch::default();
        for &(items, patterns) in &[
            (0, 10),
            (10, 0),
            (5, 700),
            (100, 50),
            (100, 600),
            (300, 2100),
            (70, 5000),
            (900, 9000),
            (2000, 17000),
        ] {
            for &(bits, density) in &[
                (0, 0),
                (2, 30),
                (3, 20),
                (8, 20),
                (36, 15),
                (42, 12),
                (46, 12),
                (64, 6),
            ] {
                let a = keys(&mut seed, items, bits, density);
                let b = keys(&mut seed, patterns, bits, density);
                let expected = disjoint_pairs_plain(&a, &b);
                for level in Level::ALL.into_iter().filter(|l| l.supported()) {
                    scratch.level = level;
                    assert_eq!(
                        disjoint_pairs(&a, &b, bits, &mut scratch),
                        expected,
                        "{items} x {patterns}, {bits} bits, {level:?}"
                    );
                    assert_eq!(
                        match_group(level, &a, &b, bits, &mut scratch.tables),
                        expected,
                        "{items} x {patterns}, {bits} bits, {level:?}"
                    );
                }
            }
        }
    }

    /// The bits of `x` under `mask`, packed low in order (a plain parallel-extract).
    fn extract_bits(x: u64, mask: u64) -> u64 {
        let (mut out, mut i) = (0, 0);
        for b in 0..64 {
            if mask >> b & 1 == 1 {
                out |= (x >> b & 1) << i;
                i += 1;
            }
        }
        out
    }

    /// The contexts of board size `n`: each middle queen's column (or none) and its bit.
    fn contexts(n: u32) -> Vec<(u8, u32)> {
        if n % 2 == 1 {
            return (0..n as u8).map(|m| (m, 1u32 << m)).collect();
        }
        vec![(NO_MIDDLE, 0)]
    }

    /// The walks of a part hear exactly the halves of the whole walk that meet the mask in
    /// that part, in every context, mirrored or not.
    #[test]
    fn the_walks_of_a_part_hear_its_halves() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut nonempty = 0;
        for n in 5..=13u32 {
            let full = u32::MAX >> (32 - n);
            for (middle, mid_bit) in contexts(n) {
                let symmetric = middle == NO_MIDDLE || 2 * middle as u32 == n - 1;
                let whole = Upper::context(n, &middle_attacks(n, middle), mid_bit, symmetric);
                let mut heard: Vec<(u32, u64)> = Vec::new();
                whole.walk_from(whole.root(), &mut |c, w| heard.push((c, w)));
                for _ in 0..6 {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let mask = seed as u32 & full & !mid_bit;
                    let part = (seed >> 32) as u32 & mask;
                    let mut want: Vec<(u32, u64)> = heard
                        .iter()
                        .filter(|&&(c, _)| c & mask == part)
                        .copied()
                        .collect();
                    want.sort_unstable();
                    let pieces = Pieces::new(whole.with_part(mask, part), START_DEPTH);
                    let mut got: Vec<(u32, u64)> = Vec::new();
                    for &(i, s) in &pieces.starts {
                        pieces.walks[i as usize].walk_from(s, &mut |c, w| got.push((c, w)));
                    }
                    got.sort_unstable();
                    assert_eq!(got, want, "n = {n}, middle {middle}, {mask:b} / {part:b}");
                    nonempty += !want.is_empty() as usize;
                }
            }
        }
        assert!(nonempty > 100, "{nonempty}");
    }

    /// A table holds, for every column set, exactly the words the walk hears with those
    /// columns, whatever its layout; a table past its limit is not filled.
    #[test]
    fn tables_hold_every_half_the_walk_hears() {
        let workers = Workers::new(2);
        for n in 5..=13u32 {
            let fixed = [0u32; 32];
            for mirror in [false, true] {
                let walk = Upper::context(n, &fixed, 0, mirror);
                let pieces = Pieces::new(vec![walk.clone()], START_DEPTH);
                let mut heard: Vec<(u32, u64)> = Vec::new();
                for &(_, s) in &pieces.starts {
                    walk.walk_from(s, &mut |c, w| heard.push((c, w)));
                }
                heard.sort_unstable();
                for tag in [0, 1, n / 2, n] {
                    for per in [256, 1024] {
                        let layout = Layout {
                            n,
                            tag,
                            raw: (3 * n + tag - n).div_ceil(8) as usize,
                            chunk: per * (2 * n).div_ceil(8) as usize,
                        };
                        let table = fill_table(
                            Level::current(),
                            &layout,
                            &pieces,
                            usize::MAX,
                            &workers,
                            &Deadline::never(),
                        )
                        .expect("no limit");
                        let mut held: Vec<(u32, u64)> = Vec::new();
                        let mut sorted = Sorted::default();
                        for (b, parts) in table.buckets.iter().enumerate() {
                            sort_bucket(&layout, parts, &mut sorted);
                            for t in 0..1u32 << tag {
                                let cols = (b as u32) << tag | t;
                                assert_eq!(table.bucket_of(cols), b);
                                let words = sorted.of(cols, tag);
                                held.extend(words.iter().map(|&w| (cols, w)));
                            }
                        }
                        held.sort_unstable();
                        assert_eq!(held, heard, "n = {n}, mirror {mirror}, {layout:?}");
                    }
                }
                if heard.len() > 1024 {
                    let layout = Layout::new(n, 2, heard.len() as u64);
                    let stopped = fill_table(
                        Level::current(),
                        &layout,
                        &pieces,
                        1,
                        &workers,
                        &Deadline::never(),
                    );
                    assert!(stopped.is_none(), "n = {n}: filled past its limit");
                }
            }
        }
    }

    /// A squeeze packs the kept bits low, in order (or keeps every bit up to the highest when
    /// the mask has too many gaps).
    #[test]
    fn squeeze_packs_the_kept_bits() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut masks = vec![0, u64::MAX, 1, 1 << 63, 0x5555_5555_5555_5555, 0xff00_ff00];
        for _ in 0..200 {
            // Masks of every density, many with more gaps than a squeeze keeps runs.
            let (a, b, c) = (next(), next(), next());
            masks.extend([a, a & b, a | b, a & b & c, a >> (c % 64)]);
        }
        let mut fallbacks = 0;
        let bmi2 = fast_pext(Level::current());
        for &mask in &masks {
            let squeeze = Squeeze::keeping(mask, None);
            let top = 64 - mask.leading_zeros();
            let exact = squeeze.keep == mask;
            fallbacks += !exact as u32;
            for _ in 0..20 {
                let x = next();
                // The gather (by `pext` where the CPU has it, and one bit at a time).
                assert_eq!(pext(x, mask, None), extract_bits(x, mask));
                if bmi2.is_some() {
                    assert_eq!(pext(x, mask, bmi2), extract_bits(x, mask));
                    let exact = Squeeze::keeping(mask, bmi2);
                    assert_eq!(exact.bits(), mask.count_ones());
                    assert_eq!(exact.apply(x), extract_bits(x, mask));
                }
                let got = squeeze.apply(x);
                if exact {
                    assert_eq!(squeeze.bits(), mask.count_ones(), "{mask:x}");
                    assert_eq!(got, extract_bits(x, mask), "{mask:x} {x:x}");
                } else {
                    assert_eq!(squeeze.bits(), top, "{mask:x}");
                    assert_eq!(got, x & (u64::MAX >> (64 - top)), "{mask:x} {x:x}");
                }
            }
        }
        assert!(fallbacks > 0 && fallbacks < masks.len() as u32 / 2);
    }

    /// The bit transpose moves bit `b` of row `i` to bit `i` of row `b`.
    #[test]
    #[allow(clippy::needless_range_loop)]
    fn transpose_moves_every_bit() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut m = [0u64; 64];
        for row in m.iter_mut() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            *row = seed;
        }
        let before = m;
        transpose64(&mut m);
        for i in 0..64 {
            for b in 0..64 {
                assert_eq!(m[b] >> i & 1, before[i] >> b & 1, "row {i}, bit {b}");
            }
        }
    }

    /// In a context that the mirror maps onto itself, the sets the walk keeps are exactly the
    /// upper and lower columns of the context's units; in any other context every set is one.
    #[test]
    fn the_needed_sets_are_the_units_columns() {
        for n in 4..=15u32 {
            let full = u32::MAX >> (32 - n);
            let units = join_units(n);
            for (middle, mid_bit) in contexts(n) {
                let others = full & !mid_bit;
                let mut from_units = std::collections::BTreeSet::new();
                for u in units.iter().filter(|u| u.middle == middle) {
                    from_units.insert(u.upper);
                    from_units.insert(others & !u.upper);
                }
                let symmetric = middle == NO_MIDDLE || 2 * middle as u32 == n - 1;
                let sets = (0..=full).filter(|&c| c & mid_bit == 0 && c.count_ones() == n / 2);
                let kept: std::collections::BTreeSet<u32> = if symmetric {
                    sets.filter(|&c| needed_in_mirrored(n, others, c)).collect()
                } else if from_units.is_empty() {
                    // A context right of the centre: its units are its mirror image's.
                    continue;
                } else {
                    sets.collect()
                };
                assert_eq!(kept, from_units, "n = {n}, middle {middle}");
            }
        }
    }

    /// Every supported level's copies give the same counts.
    #[test]
    fn every_level_counts_the_same() {
        let units = join_units(11);
        for level in Level::ALL.into_iter().filter(|l| l.supported()) {
            let mut counts = vec![0u32; 1 << 11];
            let walk = Upper::context(10, &[0u32; 32], 0, false);
            let starts = walk.starts(START_DEPTH);
            count_halves(level, &walk, &starts, &mut counts[..1 << 10]);
            let mut base = vec![0u32; 1 << 10];
            count_halves_with(&walk, &starts, &mut base);
            assert_eq!(&counts[..1 << 10], &base[..], "{level:?}");
        }
        assert!(!units.is_empty());
    }
}
