//! How the halves of one context are stored: the layout of a record, the coarse buckets, and
//! the tables filled from the walk and sorted for the matcher.

use super::walk::{share_pieces, Pieces, Start, Upper};
use crate::primitive::cpu::{level_copies, on_level, Level};
use crate::schedule::Workers;
use crate::Deadline;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// How the halves of one context are stored. A half is its word `w` (see [`upper_key`] and
/// [`lower_key`]): the columns at which its two kinds of diagonals cross the last upper row
/// (its queen included) for even `n`, or the middle row for odd `n`, `n` bits each. A table
/// stores each half as a *record* of `raw` bytes: its word and the
/// low `tag` bits of its column set, the high `n - tag` bits naming its *coarse bucket*. For
/// even `n` the word may be stored without two of its `2n` bits that never decide a match
/// ([`Layout::pack`]): at N = 18 that makes a record 5 bytes rather than 6.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout {
    pub(super) n: u32,
    pub(super) tag: u32,
    /// 1 where the word's end bits are dropped (see [`Layout::pack`]), else 0.
    pub(super) shift: u32,
    pub(super) raw: usize,
    /// Bytes of records per chunk; a chunk has 8 more of slack, so that every record is read
    /// and written as one unaligned 8-byte word.
    pub(super) chunk: usize,
}

impl Layout {
    /// The layout for board size `n`, `fillers` filling workers and about `expected` halves:
    /// coarse buckets of some 32768 halves (256 to 4096 of them; up to 4 times smaller where
    /// that, with the packed word, saves a byte of every record), and chunks of a quarter of
    /// a bucket's share of one worker (so that the partly filled ones stay a small part of
    /// the table).
    pub(super) fn new(n: u32, fillers: usize, expected: u64) -> Layout {
        let key = 2 * n;
        let sized = (expected >> 15).max(1).ilog2() + 1;
        // A record is read as one 8-byte word, so from N = 25 on the tag is kept short enough
        // by more coarse bits (N = 25: at least 11).
        let least = (3 * n).saturating_sub(64).max(8);
        let most = least.max(12).min(n);
        let coarse = sized.clamp(least, least.max(12)).min(n);
        // For even `n`, the word's two end bits are dropped ([`Layout::pack`]) where that, with
        // up to two more coarse bits, makes the record a byte shorter (it always does when the
        // packed record then ends on a byte).
        let over = (key - 2 + n - coarse) % 8;
        let (coarse, shift) = if n.is_multiple_of(2) && over <= 2 && coarse + over <= most {
            (coarse + over, 1)
        } else {
            (coarse, 0)
        };
        let share = (expected >> coarse) / fillers.max(1) as u64;
        let per = (share / 4).clamp(1 << 8, 1 << 13).next_power_of_two() as usize;
        Layout {
            n,
            tag: n - coarse,
            shift,
            raw: (key - 2 * shift + n - coarse).div_ceil(8) as usize,
            chunk: per * key.div_ceil(8) as usize,
        }
    }

    /// The bits of a stored word ([`Layout::pack`]).
    pub(super) fn word_bits(&self) -> u32 {
        2 * self.n - 2 * self.shift
    }

    /// Word `w` as stored: for even `n` where `shift` is 1, without bits 0 and `2n - 1`,
    /// which no match depends on ([`upper_key`] shifts them out, and [`lower_key`] puts them on
    /// the two key bits that no upper key has); else whole.
    #[inline(always)]
    pub(super) fn pack(&self, w: u64) -> u64 {
        (w >> self.shift) & ((1 << self.word_bits()) - 1)
    }

    /// The word that [`Layout::pack`] stored as `p` (the dropped bits clear).
    #[inline(always)]
    pub(super) fn unpack(&self, p: u64) -> u64 {
        p << self.shift
    }

    pub(super) fn buckets(&self) -> usize {
        1 << (self.n - self.tag)
    }

    /// Bytes of one chunk.
    pub(super) fn chunk_bytes(&self) -> usize {
        self.chunk + 8
    }
}

/// The 8 bytes at `at` of `chunk` as a little-endian word.
#[inline(always)]
pub(super) fn read_word(chunk: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&chunk[at..at + 8]);
    u64::from_le_bytes(b)
}

/// The halves of one context (a middle queen or none) whose column sets meet the batch
/// columns in a given part: each coarse bucket's records, in the order the walks wrote them.
pub(super) struct Table {
    pub(super) layout: Layout,
    pub(super) buckets: Vec<Chunks>,
    /// The bytes of its chunks.
    pub(super) bytes: usize,
}

impl Table {
    /// The coarse bucket of column set `cols`.
    pub(super) fn bucket_of(&self, cols: u32) -> usize {
        (cols >> self.layout.tag) as usize
    }
}

/// One coarse bucket's words in column-set order: `offsets[t]..offsets[t + 1]` are those of
/// the set with low bits `t`.
#[derive(Default)]
pub(super) struct Sorted {
    pub(super) words: Vec<u64>,
    pub(super) offsets: Vec<u32>,
    /// The sort's cursors (see [`sort_bucket`]).
    pub(super) cursors: Vec<u32>,
}

impl Sorted {
    /// The words of column set `cols` (of this bucket).
    pub(super) fn of(&self, cols: u32, tag: u32) -> &[u64] {
        let t = (cols & ((1 << tag) - 1)) as usize;
        &self.words[self.offsets[t] as usize..self.offsets[t + 1] as usize]
    }
}

/// The shared stop of the walks filling one table: set once their chunks pass `max` bytes.
pub(super) struct Limit {
    pub(super) bytes: AtomicUsize,
    pub(super) max: usize,
    pub(super) stop: AtomicBool,
}

impl Limit {
    pub(super) fn new(max: usize) -> Limit {
        Limit {
            bytes: AtomicUsize::new(0),
            max,
            stop: AtomicBool::new(false),
        }
    }

    pub(super) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Chunks of records, each with the number of records it holds.
pub(super) type Chunks = Vec<(Box<[u8]>, u32)>;

/// One filling worker's records, bucket by bucket: the full chunks and the one being filled.
pub(super) struct Fillings {
    pub(super) full: Vec<Chunks>,
    /// The chunk being filled and where its next record goes (`layout.chunk`: a new chunk
    /// is needed), side by side so that a record's write reads one place.
    pub(super) current: Vec<(Box<[u8]>, u32)>,
}

impl Fillings {
    pub(super) fn new(layout: &Layout) -> Fillings {
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
    pub(super) fn next_chunk(&mut self, b: usize, layout: &Layout, limit: &Limit) {
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
    pub(super) fn into_chunks(self, layout: &Layout) -> impl Iterator<Item = Chunks> {
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
pub(super) fn fill_buckets_with(
    layout: &Layout,
    walk: &Upper,
    starts: &[Start],
    limit: &Limit,
    out: &mut Fillings,
) {
    let (tag, raw) = (layout.tag, layout.raw);
    let tag_mask = (1u32 << tag) - 1;
    let key_bits = layout.word_bits();
    let end = layout.chunk;
    for &start in starts {
        walk.walk_from(start, &mut |cols, w| {
            let b = (cols >> tag) as usize;
            if out.current[b].1 as usize + raw > end {
                out.next_chunk(b, layout, limit);
            }
            let (chunk, at) = &mut out.current[b];
            let record = layout.pack(w) | ((cols & tag_mask) as u64) << key_bits;
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
pub(super) fn sort_bucket(layout: &Layout, parts: &Chunks, out: &mut Sorted) {
    let key_bits = layout.word_bits();
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
            words[*cursor as usize] = layout.unpack(r & key_mask);
            *cursor += 1;
        });
    }
}

/// Calls `record(s, r)` on the `count` records `r` of `chunk` (unmasked), as two streams `s`
/// taken in turn: stream 0 the first half, stream 1 the second (and the odd one out).
#[inline(always)]
pub(super) fn two_streams(
    layout: &Layout,
    chunk: &[u8],
    count: u32,
    mut record: impl FnMut(usize, u64),
) {
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
pub(super) fn fill_table(
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

/// [`fill_buckets_with`] compiled for the best level that `level` allows and the CPU has.
pub(super) fn fill_buckets(
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
pub(super) fn upper_key(n: u32, full: u32, odd: bool, w: u64) -> u64 {
    if odd {
        return w;
    }
    let (a, b) = (w as u32 & full, (w >> n) as u32);
    ((a >> 1) as u64) | (((b << 1) & full) as u64) << n
}

/// The key, at the meeting row, of the lower half that is the mirror image (across the
/// middle row) of the upper half with word `w`: the mirror swaps the two kinds of diagonal.
#[inline(always)]
pub(super) fn lower_key(n: u32, full: u32, w: u64) -> u64 {
    let (a, b) = (w as u32 & full, (w >> n) as u32);
    b as u64 | (a as u64) << n
}
