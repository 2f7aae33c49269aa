//! The walk over the upper (and, mirrored, lower) halves of the board: starts, shared pieces,
//! the count of halves per bucket and the sample that sizes the batches.

use super::gather::{by_table, Gather};
use super::units::{image_ranks, mirror};
use crate::primitive::cpu::{level_copies, on_level, Level};
use crate::schedule::Workers;
use crate::Deadline;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The walk over the upper rows `0..h` of one context, each queen on a column outside
/// `forbidden` and not attacked by those above, nor by the fixed queens (`blocked[row]`: the
/// middle queen's attacks, and those of the batch's placed queens); a row that holds a placed
/// queen (`placed[row]`, a column bit) takes it and nothing else, and the placements take
/// every column of `required`. `leaf` hears the column set and word of every placement that
/// `kept` passes on.
#[derive(Clone, Debug)]
pub(super) struct Upper {
    pub(super) n: u32,
    pub(super) h: u32,
    pub(super) full: u32,
    pub(super) blocked: [u32; 16],
    pub(super) placed: [u32; 16],
    /// The rows from each row on without a placed queen (set where `required` is).
    pub(super) open: [u8; 16],
    pub(super) forbidden: u32,
    /// The columns the first row's queen may take (all but where a unit's halves are split
    /// by it, see `Group::count_by_first_rows`).
    pub(super) first_row: u32,
    /// Columns every placement takes (a batch's part); the walk prunes where too few rows are
    /// left for those still unused.
    pub(super) required: u32,
    /// The context's columns (all but the middle queen's).
    pub(super) others: u32,
    pub(super) odd: bool,
    pub(super) kept: Kept,
}

impl Upper {
    /// The walk of a context: `fixed[row]` the middle queen's attacks (none for even `n`),
    /// `forbidden` its column; `mirrored` when the mirror maps the context onto itself.
    pub(super) fn context(n: u32, fixed: &[u32; 32], forbidden: u32, mirrored: bool) -> Upper {
        let mut blocked = [0u32; 16];
        blocked.copy_from_slice(&fixed[..16]);
        let full = u32::MAX >> (32 - n);
        Upper {
            n,
            h: n / 2,
            full,
            blocked,
            placed: [0; 16],
            open: [0; 16],
            forbidden,
            first_row: full,
            required: 0,
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
    /// exactly `part`: together they walk each such placement once.
    pub(super) fn with_part(&self, mask: u32, part: u32) -> Vec<Upper> {
        self.with_part_keeping(mask, part, false)
    }

    /// [`Upper::with_part`], keeping the left-half trick where the context has it
    /// (`by_mirror`): the walks then take only the placements whose first queen is in the
    /// left half, each standing for its mirror image too, so that walks of a set of parts
    /// closed under the mirror hear each half of those parts once.
    ///
    /// The part's columns are placed one by one in every row where the queen fits, each way a
    /// walk of its own that keeps the rest of `mask` clear, as long as the walks stay within
    /// [`MAX_PART_WALKS`]; the columns left are required of the walks' placements.
    pub(super) fn with_part_keeping(&self, mask: u32, part: u32, by_mirror: bool) -> Vec<Upper> {
        self.with_part_within(mask, part, by_mirror, MAX_PART_WALKS)
    }

    /// [`Upper::with_part_keeping`] listing at most `max_walks` walks.
    pub(super) fn with_part_within(
        &self,
        mask: u32,
        part: u32,
        by_mirror: bool,
        max_walks: usize,
    ) -> Vec<Upper> {
        if part.count_ones() > self.h {
            return Vec::new();
        }
        let mut base = Upper {
            forbidden: self.forbidden | (mask & !part),
            required: self.required | part,
            kept: match self.kept {
                Kept::Every => Kept::Every,
                Kept::NeededByMirror if by_mirror => Kept::NeededByMirror,
                _ => Kept::Needed,
            },
            ..self.clone()
        };
        base.count_open();
        let mut walks = vec![base];
        for c in (0..self.n).filter(|&c| part >> c & 1 == 1) {
            let Some(next) = self.placing(&walks, 1 << c, max_walks) else {
                break;
            };
            walks = next;
        }
        walks
    }

    /// The walks of `walks` with a queen on column `bit` in each free row that it fits, or
    /// `None` when they would be more than `max_walks`.
    fn placing(&self, walks: &[Upper], bit: u32, max_walks: usize) -> Option<Vec<Upper>> {
        let mut out = Vec::new();
        for walk in walks {
            for r in 0..self.h as usize {
                if walk.placed[r] != 0 || walk.blocked[r] & bit != 0 {
                    continue;
                }
                if out.len() == max_walks {
                    return None;
                }
                let mut next = walk.clone();
                next.placed[r] = bit;
                next.blocked[r] = self.full;
                next.required &= !bit;
                next.forbidden |= bit;
                for (r2, b) in next.blocked.iter_mut().enumerate().take(self.h as usize) {
                    let d = r2.abs_diff(r) as u32;
                    if d > 0 {
                        *b |= (bit << d | bit >> d) & self.full;
                    }
                }
                next.count_open();
                out.push(next);
            }
        }
        Some(out)
    }

    /// Sets `open[row]`: the rows from `row` on that hold no placed queen.
    fn count_open(&mut self) {
        let mut open = 0;
        for row in (0..self.h as usize).rev() {
            open += (self.placed[row] == 0) as u8;
            self.open[row] = open;
        }
    }

    /// The free columns of `row` below the queens `cols`, `a`, `b` (its placed queen alone,
    /// if it has one): when the open rows from this one on are no more than the required
    /// columns still unused, only those, and none when they are fewer.
    #[inline(always)]
    pub(super) fn free(&self, row: usize, cols: u32, a: u32, b: u32) -> u32 {
        let free =
            (!(cols | a | b | self.blocked[row] | self.forbidden) & self.full) | self.placed[row];
        if self.required == 0 {
            return free;
        }
        let missing = self.required & !cols;
        let (need, open) = (missing.count_ones(), self.open[row] as u32);
        if need < open {
            free
        } else if need == open {
            free & (missing | self.placed[row])
        } else {
            0
        }
    }

    /// The free columns of `row`, and for the first row only those of `first_row` (of the left
    /// half, when walking by the mirror).
    pub(super) fn first_free(&self, row: usize, cols: u32, a: u32, b: u32) -> u32 {
        let free = self.free(row, cols, a, b);
        if row != 0 {
            free
        } else if self.kept == Kept::NeededByMirror {
            free & self.first_row & ((1 << (self.n / 2)) - 1)
        } else {
            free & self.first_row
        }
    }

    /// The start of the whole walk.
    pub(super) fn root(&self) -> Start {
        Start {
            row: 0,
            cols: 0,
            a: 0,
            b: 0,
        }
    }

    /// The placements of the first `depth` rows (below `h`), the starts of the walks that
    /// together make the whole walk.
    pub(super) fn starts(&self, depth: usize) -> Vec<Start> {
        let mut out = Vec::new();
        self.for_each_start(self.root(), depth, &mut |s| out.push(s));
        out
    }

    /// Calls `visit` on each placement of the first `depth` rows that extends `from`, in the
    /// walk's own order, without listing them.
    pub(super) fn for_each_start(&self, from: Start, depth: usize, visit: &mut impl FnMut(Start)) {
        if from.row == depth {
            visit(from);
            return;
        }
        let mut free = self.first_free(from.row, from.cols, from.a, from.b);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.for_each_start(from.child(bit, self.full), depth, visit);
        }
    }

    /// Every `step`-th placement of the first `depth` rows that extends `from`, in the walk's
    /// own order (the first one included), and how many there are in all: what
    /// [`Upper::for_each_start`] would visit, kept by their index, but counting the last row's
    /// placements by their number rather than one by one (N = 28's 8-row starts took 45 s).
    pub(super) fn every_start(&self, from: Start, depth: usize, step: u64) -> (Vec<Start>, u64) {
        let (mut kept, mut all) = (Vec::new(), 0u64);
        self.every_start_into(from, depth, step.max(1), &mut kept, &mut all);
        (kept, all)
    }

    fn every_start_into(
        &self,
        from: Start,
        depth: usize,
        step: u64,
        kept: &mut Vec<Start>,
        all: &mut u64,
    ) {
        let child = |bit: u32| from.child(bit, self.full);
        if from.row == depth {
            if all.is_multiple_of(step) {
                kept.push(from);
            }
            *all += 1;
            return;
        }
        let mut free = self.first_free(from.row, from.cols, from.a, from.b);
        if from.row + 1 == depth {
            // The children's indices are `all..all + count`; keep the multiples of `step`.
            let count = u64::from(free.count_ones());
            let mut index = all.next_multiple_of(step);
            let mut skipped = *all;
            while index < *all + count {
                while skipped < index {
                    free &= free - 1;
                    skipped += 1;
                }
                kept.push(child(free & free.wrapping_neg()));
                index += step;
            }
            *all += count;
            return;
        }
        let two_above = from.row + 2 == depth;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let next = child(bit);
            if two_above {
                // Its children are `all..all + count`: walked into only when one is kept.
                let count = u64::from(
                    self.first_free(next.row, next.cols, next.a, next.b)
                        .count_ones(),
                );
                if all.next_multiple_of(step) >= *all + count {
                    *all += count;
                    continue;
                }
            }
            self.every_start_into(next, depth, step, kept, all);
        }
    }

    /// Calls `leaf` on every placement that extends `start` (a depth-first walk with an
    /// explicit stack, so that it inlines into the copies compiled per instruction-set level).
    #[inline(always)]
    pub(super) fn walk_from(&self, start: Start, leaf: &mut impl FnMut(u32, u64)) {
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
    pub(super) fn walk_keeping<const KEPT: u8>(
        &self,
        start: Start,
        leaf: &mut impl FnMut(u32, u64),
    ) {
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
pub(super) const EVERY: u8 = 0;
pub(super) const NEEDED: u8 = 1;
pub(super) const BY_MIRROR: u8 = 2;

/// The state of a walk after its first rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Start {
    pub(super) row: usize,
    pub(super) cols: u32,
    pub(super) a: u32,
    pub(super) b: u32,
}

impl Start {
    /// The start one row deeper with a queen on column `bit` (a board of columns `full`).
    fn child(self, bit: u32, full: u32) -> Start {
        Start {
            row: self.row + 1,
            cols: self.cols | bit,
            a: (self.a | bit) >> 1,
            b: ((self.b | bit) << 1) & full,
        }
    }
}

/// The most walks [`Upper::with_part`] lists by placing a part's columns (N = 26 would need
/// billions); the columns left are required of their placements instead, a pruned walk that
/// costs more per placement (filling N = 22 took 55 % more time with every column required).
pub(super) const MAX_PART_WALKS: usize = 1 << 16;

/// Rows placed before the walks are shared out (fine enough that the workers finish filling
/// together).
pub(super) const START_DEPTH: usize = 3;

/// Walks cut into pieces to share out among workers: each piece is one walk from one start.
pub(super) struct Pieces {
    pub(super) walks: Vec<Upper>,
    /// The pieces: a walk (its index in `walks`) and a start of it.
    pub(super) starts: Vec<(u32, Start)>,
}

impl Pieces {
    /// The walks from the placements of their first `depth` rows; from their roots alone when
    /// they are enough to share out by themselves.
    pub(super) fn new(walks: Vec<Upper>, depth: usize) -> Pieces {
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
}

/// Runs each piece of `pieces` on the workers: each worker makes its state with `new` and
/// takes the next piece until none is left or `stop` says so. Returns the workers' states
/// (in no fixed order: their callers only add them up).
pub(super) fn share_pieces<S: Send>(
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
pub(super) fn count_halves_with(walk: &Upper, starts: &[Start], counts: &mut [u32]) {
    for &start in starts {
        walk.walk_from(start, &mut |cols, _| counts[cols as usize] += 1);
    }
}

/// Walks out of which one is sampled by [`sample_halves`] (when there are many).
pub(super) const SAMPLE_STEP: usize = 16;

/// The numbers of halves a walk hears, by column set, counted on a sample of its walks.
pub(super) struct Sample {
    pub(super) counts: Vec<u32>,
    /// The walks sampled, out of `walks`.
    pub(super) sampled: u64,
    pub(super) walks: u64,
}

impl Sample {
    /// `x` halves of the sample scaled to the whole walk.
    pub(super) fn scaled(&self, x: u64) -> u64 {
        (x as u128 * self.walks as u128 / self.sampled.max(1) as u128) as u64
    }

    /// The sampled halves of each part of `mask`: those whose column sets meet it in the
    /// part (as a number of `mask.count_ones()` bits).
    pub(super) fn by_part(&self, mask: u32) -> Vec<u64> {
        let mut size = vec![0u64; 1 << mask.count_ones()];
        // A set's part by the tables of a gather (sets of at most 28 bits: 4 bytes).
        let mut gather = Gather::default();
        gather.set(mask.into());
        let tables = gather.tables();
        for (set, &c) in self.counts.iter().enumerate() {
            if c != 0 {
                size[by_table::<4>(tables, set as u64) as usize] += c as u64;
            }
        }
        size
    }

    /// The estimated number of halves of the whole walk.
    pub(super) fn total(&self) -> u64 {
        self.scaled(self.counts.iter().map(|&c| c as u64).sum())
    }
}

/// The rows placed before the sample's walks, and the share of them it walks (one in so
/// many), for board size `n`: every [`SAMPLE_STEP`]th walk from the first four rows up to
/// N = 19, then a four times sparser sample for each size above (from deeper starts, so that
/// a sparse sample still holds thousands of walks): its cost stays near a second of CPU time
/// (N = 21: 0.6 s rather than 10 s). The starts are at most 8 rows deep: listing those of 9
/// rows at N = 28 took more than 3 minutes.
pub(super) fn sample_shape(n: u32) -> (usize, usize) {
    let above = n.saturating_sub(19) as usize;
    ((4 + above.div_ceil(2)).min(8), SAMPLE_STEP << (2 * above))
}

/// Counts the halves of every so many walks from the placements of a few rows
/// ([`sample_shape`]; every walk when they are few), unless `deadline` stops it first.
pub(super) fn sample_halves(
    level: Level,
    walk: &Upper,
    workers: &Workers,
    deadline: &Deadline,
) -> Sample {
    let (depth, sparse) = sample_shape(walk.n);
    let depth = depth.min(walk.h as usize - 1);
    // The starts are counted and every `sparse`-th kept in one pass (at N = 24 there are
    // hundreds of millions of them); all are kept when they are too few for that.
    let (mut kept, all) = walk.every_start(walk.root(), depth, sparse as u64);
    if all < 64 * sparse as u64 {
        kept = walk.starts(depth);
    }
    let sample = Pieces {
        walks: vec![walk.clone()],
        starts: kept.into_iter().map(|s| (0, s)).collect(),
    };
    let sets = 1usize << walk.n;
    let parts = share_pieces(
        workers,
        &sample,
        || deadline.reached(),
        || vec![0u32; sets],
        |counts, walk, starts| count_halves(level, walk, starts, counts),
    );
    // Added up into the first worker's counts (at N = 28 each takes 1 GiB).
    let mut parts = parts.into_iter();
    let mut counts = parts.next().unwrap_or_else(|| vec![0u32; sets]);
    for part in parts {
        for (x, y) in counts.iter_mut().zip(part) {
            *x += y;
        }
    }
    Sample {
        counts,
        sampled: sample.starts.len() as u64,
        walks: all,
    }
}

/// [`count_halves_with`] compiled for the best level that `level` allows and the CPU has.
pub(super) fn count_halves(level: Level, walk: &Upper, starts: &[Start], counts: &mut [u32]) {
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

/// Which placements a walk passes on to its leaf.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kept {
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
