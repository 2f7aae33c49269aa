//! The join cut into batches: the deterministic units of the join's work plans, and the one
//! way every count by the join (plain, ledger, shard, MPI) counts them.
//!
//! A *batch* of a context (middle queen) is the set of its units whose upper columns meet a
//! fixed set `M` of central columns in a part `P` or in its complement `M \ P`; its tables
//! hold only the halves whose columns meet `M` in `P` or in `M \ P`, made by walks of those
//! parts alone, so the batches of a context together walk its tree once. A context whose
//! table fits the memory budget whole is one batch (`M` empty). The cut ([`JoinCut`]) picks
//! each context's `M` from a deterministic sample of its walk, so it is the same on every
//! machine for the same board size and budget. While a batch is counted its tables are held
//! to the budget: a table that passes it is dropped and the batch is split by one more
//! central column and counted in two halves (same units, same counts).

use super::*;
use crate::count::Tally;
use crate::primitive::cpu::{pdep, pext};

/// The default memory cap of a count by the join above N = [`SMALL_BOARD_MAX_N`], in MiB
/// (`--memory` or `QUEENS_MEMORY_MIB` may say otherwise).
pub(crate) const LARGE_BOARD_MEMORY_MIB: u64 = 4096;

/// The default cap up to N = [`SMALL_BOARD_MAX_N`]: there a cut into a few paired batches
/// costs a few per cent (N = 18: 6 units, about 220 MB peak on 2 threads, 4 to 5 % more
/// time than the whole 0.8 GB table, 2026-12-07), so the plain count stays within it.
pub(crate) const SMALL_BOARD_MEMORY_MIB: u64 = 256;

/// The largest board size with the [`SMALL_BOARD_MEMORY_MIB`] default.
pub(crate) const SMALL_BOARD_MAX_N: u32 = 19;

/// The default memory cap of a count of board size `n`, MiB: [`SMALL_BOARD_MEMORY_MIB`] up to
/// N = [`SMALL_BOARD_MAX_N`], [`LARGE_BOARD_MEMORY_MIB`] above.
pub(crate) fn default_memory_mib(n: u32) -> u64 {
    if n <= SMALL_BOARD_MAX_N {
        SMALL_BOARD_MEMORY_MIB
    } else {
        LARGE_BOARD_MEMORY_MIB
    }
}

/// What the process needs besides the tables of the batch in hand, for board size `n`: the
/// program, the plan, the allocator's slack, and `4 << n` bytes for each of the sample's
/// per-set counts (four of them up to N = 25, one from 26 on, where the sample runs on as
/// few workers as the budget allows and is added up into the first one's counts). Up to N = 19
/// measured at about 10 MB besides the counts (N = 18: 86 MB peak on one thread with 76 MB of
/// tables), so 32 MiB; above, 96 MiB, the allowance measured on 16 threads at N = 20 to 22.
pub(crate) fn reserved_bytes(n: u32) -> u64 {
    let base: u64 = if n <= SMALL_BOARD_MAX_N { 32 } else { 96 };
    (base << 20) + sample_reserve(n)
}

/// The part of [`reserved_bytes`] for the sample's per-set counts, which the plan takes over
/// once they are freed.
fn sample_reserve(n: u32) -> u64 {
    let counts = if n <= LAST_OLD_RESERVE_N { 4 } else { 1 };
    counts * (4u64 << n)
}

/// The bytes a plan holds for each of its batches while they are counted: the batch, and a
/// work plan's checksum of it.
const PLAN_BYTES_PER_BATCH: u64 = std::mem::size_of::<JoinBatch>() as u64 + 8;

/// What the plan of `batches` batches holds beyond [`sample_reserve`], which the tables then
/// go without: nothing up to N = 26 and at 28, some 270 MB at 27 (20 million batches).
fn plan_excess(n: u32, batches: usize) -> u64 {
    (batches as u64 * PLAN_BYTES_PER_BATCH).saturating_sub(sample_reserve(n))
}

/// The largest board size whose cut keeps the reserve and slack of the tables' former
/// per-set offsets ([`reserved_bytes`], [`table_slack`]), so that its plans stay as they were.
const LAST_OLD_RESERVE_N: u32 = 25;

/// Bytes the cut and the batches leave free beside a batch's tables: up to N = 25, the two
/// arrays of `4 << n` bytes that the tables once held (kept in the sums so that those plans
/// stay as they were: at N = 26 they would take 512 MiB); none from 26 on.
pub(crate) fn table_slack(n: u32) -> u64 {
    if n <= LAST_OLD_RESERVE_N {
        2 * (4u64 << n)
    } else {
        0
    }
}

/// The memory one counting worker holds besides the shared tables, by board size: its sort
/// buffers and the matcher's tables and sieve, which grow with the largest side of a unit.
/// Up to N = 19, 8 MiB (measured at N = 18: 2 to 5 MB a worker, 27 MB peak on 8 threads and
/// 44 MB on 16 with tables of a few MB); above, 20 MiB << ((N - 16) / 2) (40 MiB at N = 20;
/// at N = 22 with 16 workers a budget of 128 MiB a worker left the process 6 % over its
/// cap).
fn worker_bytes(n: u32) -> u64 {
    if n <= SMALL_BOARD_MAX_N {
        8 << 20
    } else {
        (20 << 20) << (n.saturating_sub(16) / 2)
    }
}

/// The most threads whose own memory ([`worker_bytes`]) takes at most three quarters of a
/// table budget of `budget` bytes (at least 1): a batch is counted on no more, so that its
/// tables keep near the size the cut gave them (16 workers at N = 24 would take 5 GiB of
/// a 4 GiB cap and leave the tables nothing).
pub(crate) fn threads_fitting(n: u32, budget: u64) -> usize {
    ((budget / 4 * 3 / worker_bytes(n)) as usize).max(1)
}

/// `workers`, or when they are more than `fit` threads a pool of `fit` made in `fewer`.
fn at_most<'a>(workers: &'a Workers, fit: usize, fewer: &'a mut Option<Workers>) -> &'a Workers {
    if workers.threads() > fit {
        fewer.insert(Workers::new(fit))
    } else {
        workers
    }
}

/// The bytes a batch's tables may take while `threads` workers count it: the cut's budget
/// less the workers' own memory ([`worker_bytes`]). A batch the cut sized for more is split
/// further while it is counted, so the cap holds for any thread count.
fn running_budget(n: u32, budget: u64, threads: usize) -> u64 {
    budget.saturating_sub(threads as u64 * worker_bytes(n))
}

/// Gives the memory freed by a batch's tables back to the system, so that the next batch's
/// (filled by other threads, from other allocator arenas) does not add to it.
fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[allow(unsafe_code)]
    // SAFETY: `malloc_trim` only returns free memory of glibc's heaps to the system; it reads
    // and writes no memory of ours and may be called at any time from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The bytes the tables of one batch may take under a cap of `memory` bytes for the whole
/// process (0 when the cap does not even cover [`reserved_bytes`]).
pub(crate) fn table_bytes(n: u32, memory: u64) -> u64 {
    memory.saturating_sub(reserved_bytes(n))
}

/// One batch: the units of one context whose upper columns meet `cols` in `part` or in
/// `cols \ part`, with the sampled size of its work.
#[derive(Clone, Debug)]
pub(crate) struct JoinBatch {
    /// The context's middle queen ([`NO_MIDDLE`] for even `n`).
    pub(crate) middle: u8,
    /// The batch columns `M` (empty: the whole context).
    pub(crate) cols: u32,
    /// The part `P` of `M` (a column set; the least of the batch's parts, see `paired`).
    pub(crate) part: u32,
    /// Whether the batch also holds the mirror images of its parts: in a context that the
    /// mirror maps onto itself, its parts are `P`, `M \ P` and their mirror images, and its
    /// table is filled by walks that keep the left-half trick ([`Kept::NeededByMirror`]).
    pub(crate) paired: bool,
    /// Sampled halves in its tables and pairs of halves in its units (for order, progress and
    /// projections).
    pub(crate) halves: f64,
    pub(crate) pairs: f64,
}

impl JoinBatch {
    /// Its units, in increasing order: the least units of their classes (board size `n`)
    /// whose upper columns meet the batch columns in one of its parts. Listed from the
    /// columns rather than stored (N = 27's 70 million units took 560 MB in the plan).
    pub(crate) fn members(&self, n: u32) -> Vec<JoinUnit> {
        let h = n / 2;
        let full = u32::MAX >> (32 - n);
        let rest = full & !middle_bit(self.middle) & !self.cols;
        let bmi2 = Level::current().fast_pext();
        let mut members = Vec::new();
        for part in parts_of(n, self.cols, self.part, self.paired) {
            let Some(k) = h.checked_sub(part.count_ones()) else {
                continue;
            };
            if k > rest.count_ones() {
                continue;
            }
            // Every k-subset of the other columns, spread onto them.
            let mut s: u64 = (1u64 << k) - 1;
            while s < 1 << rest.count_ones() {
                let upper = part | pdep(s, rest.into(), bmi2) as u32;
                if let Some(orbit) = unit_orbit(n, upper, self.middle) {
                    members.push(JoinUnit {
                        n: n as u8,
                        upper,
                        middle: self.middle,
                        orbit,
                    });
                }
                if s == 0 {
                    break;
                }
                s = next_subset(s);
            }
        }
        members.sort_unstable();
        members
    }
}

/// The join of board size `n` cut into batches under a table budget: contexts in order, each
/// context's batches largest first (by sampled pairs). Deterministic for `n` and the budget.
#[derive(Clone, Debug)]
pub(crate) struct JoinCut {
    pub(crate) n: u32,
    /// The bytes the tables of one batch may take.
    pub(crate) budget: u64,
    pub(crate) batches: Vec<JoinBatch>,
    /// The sampled bytes of the largest batch's tables: above `budget` when even the finest
    /// cut does not fit (its batches are then filled without a limit).
    pub(crate) needed: u64,
}

/// The most central column of board size `n` outside `taken` (the left one of two equally
/// central), or `None` when every column is taken: the batch columns are cut in this order.
fn central_column(n: u32, taken: u32) -> Option<u32> {
    (0..n)
        .filter(|&c| taken >> c & 1 == 0)
        .min_by_key(|&c| ((2 * c as i32 - (n as i32 - 1)).abs(), c))
}

/// The walk of the upper halves of the context of `middle`.
pub(super) fn context_walk(n: u32, middle: u8) -> Upper {
    let symmetric = middle == NO_MIDDLE || 2 * middle as u32 == n - 1;
    Upper::context(n, &middle_attacks(n, middle), middle_bit(middle), symmetric)
}

impl JoinCut {
    /// The cut of `n` whose batches' tables fit `budget` bytes by a sample of each context's
    /// walk (see `needed` for a budget that even the finest cut passes); `None` if `deadline`
    /// stopped the sampling.
    pub(crate) fn new(
        n: u32,
        budget: u64,
        workers: &Workers,
        deadline: &Deadline,
    ) -> Option<JoinCut> {
        let level = Level::current();
        let full = u32::MAX >> (32 - n);
        let mut batches = Vec::new();
        let mut needed = 0u64;
        for middle in middles(n) {
            // Listed a context at a time (N = 27 has 70 million units, 560 MB).
            let context = &context_units(n, middle)[..];
            if context.is_empty() {
                continue;
            }
            let mid_bit = middle_bit(middle);
            let whole = context_walk(n, middle);
            // Each sampling worker holds a count per column set (`4 << n` bytes: 128 MiB at
            // N = 25, 1 GiB at 28), so no more of them than three quarters of the budget hold
            // (two at N = 28 under the default cap; the plan made so far takes the rest).
            let fit = ((budget / 4 * 3 / (4u64 << n)) as usize).max(1);
            let mut fewer = None;
            let sampling = at_most(workers, fit, &mut fewer);
            let sample = sample_halves(level, &whole, sampling, deadline);
            if deadline.reached() {
                return None;
            }
            let estimate = sample.total();
            let offsets = table_slack(n);
            let fits = budget.saturating_sub(offsets);
            let fits = fits - fits / 16;
            let record = Layout::new(n, 1, estimate).raw as u64;
            let sides = |u: &JoinUnit| {
                let lower = full & !u.upper & !mid_bit;
                sample.counts[u.upper as usize] as f64 * sample.counts[lower as usize] as f64
            };
            if estimate * record <= fits {
                needed = needed.max(estimate * record + offsets);
                batches.push(JoinBatch {
                    middle,
                    cols: 0,
                    part: 0,
                    paired: false,
                    halves: estimate as f64,
                    pairs: context.iter().map(sides).sum(),
                });
                continue;
            }
            let symmetric = whole.kept == Kept::NeededByMirror;
            let mut cols = choose_batch_columns(n, middle, &sample, record, fits);
            // In a context the mirror maps onto itself, the batch columns come in mirror
            // pairs and a batch holds the parts of a mirror image too, so that its walks keep
            // the left-half trick (each placement stands for its image).
            let grow =
                |cols: u32| central_column(n, cols | mid_bit).map_or(cols, |c| cols | 1 << c);
            if symmetric && cols.count_ones() % 2 == 1 {
                cols = grow(cols);
            }
            // Each unit's pairs of halves, in the context's order (the sample's counts are
            // read in order of the upper columns, and of the lower ones backwards).
            let unit_pairs: Vec<f64> = context.iter().map(sides).collect();
            let mut here: Vec<JoinBatch> = loop {
                // (The grouping takes seconds at N = 27 and 28: a short time limit stops it.)
                if deadline.reached() {
                    return None;
                }
                let keyed = by_least_part(n, cols, symmetric, context);
                let groups: Vec<&[(u32, u32)]> = keyed.chunk_by(|x, y| x.0 == y.0).collect();
                let m = cols.count_ones();
                // Each part's sampled halves, then in place each part with its complement
                // (`i` and `i ^ all` in the parts' numbering): their sum at the lower of the two
                // and the larger of them at the upper. A group is one such pair or two.
                let mut pair_halves = sample.by_part(cols);
                let all = (1usize << m) - 1;
                for i in 0..pair_halves.len() {
                    let j = i ^ all;
                    if i < j {
                        let (a, b) = (pair_halves[i], pair_halves[j]);
                        (pair_halves[i], pair_halves[j]) = (a + b, a.max(b));
                    }
                }
                let bmi2 = level.fast_pext();
                let index = |q: u32| pext(q.into(), cols.into(), bmi2) as usize;
                // A part and its complement: their halves and the larger one's.
                let pair = |i: usize| {
                    let j = i ^ all;
                    if i == j {
                        (pair_halves[i], pair_halves[i])
                    } else {
                        (pair_halves[i.min(j)], pair_halves[i.max(j)])
                    }
                };
                // Each table's records have the layout of its own size, as when it is filled.
                let bytes = |halves: u64| halves * Layout::new(n, 1, halves.max(1)).raw as u64;
                // Each group's halves (scaled) and its largest part's (sampled): its part and
                // complement, and in a mirrored context their images when they are others
                // (groups come in the order of their least part, so the first pair is read in
                // order, the images' at random).
                let sizes: Vec<(u64, u64)> = groups
                    .iter()
                    .map(|run| {
                        let i = index(run[0].0);
                        let (mut sum, mut most) = pair(i);
                        if symmetric {
                            let k = index(mirror(n, run[0].0));
                            if k != i && k != i ^ all {
                                let (s, m) = pair(k);
                                sum += s;
                                most = most.max(m);
                            }
                        }
                        (sample.scaled(sum), most)
                    })
                    .collect();
                let worst = sizes.iter().map(|&(h, _)| bytes(h)).max().unwrap_or(0);
                let wider = grow(grow(cols));
                if worst <= fits
                    || m + 2 > MAX_BATCH_COLUMNS
                    || !symmetric
                    || wider.count_ones() < m + 2
                {
                    // A batch that passes the budget at the finest cut is counted in pieces by
                    // first rows, two of them (about 2 / N of a part's table each) at a time.
                    let worst = if worst > fits {
                        let most = sizes.iter().map(|&(_, most)| most).max().unwrap_or(0);
                        let largest_part = bytes(sample.scaled(most));
                        worst.min(4 * largest_part / n as u64)
                    } else {
                        worst
                    };
                    needed = needed.max(worst + offsets);
                    break groups
                        .iter()
                        .zip(sizes)
                        .map(|(run, (halves, _))| JoinBatch {
                            middle,
                            cols,
                            part: run[0].0,
                            paired: symmetric,
                            pairs: run.iter().map(|&(_, i)| unit_pairs[i as usize]).sum(),
                            halves: halves as f64,
                        })
                        .collect();
                }
                cols = wider;
            };
            // The largest first: the batches a sampled run counts (every K-th in this order)
            // then have every size in their share.
            here.sort_by(|x, y| y.pairs.total_cmp(&x.pairs).then(x.part.cmp(&y.part)));
            batches.extend(here);
        }
        batches.shrink_to_fit();
        // The plan stays while its batches are counted: the tables get what it leaves.
        let budget = budget.saturating_sub(plan_excess(n, batches.len()));
        Some(JoinCut {
            n,
            budget,
            batches,
            needed,
        })
    }
}

/// Hears finished units with their counts, a few at a time.
pub(crate) type OnDone<'a> = dyn FnMut(&[(JoinUnit, UnitCounts)]) + 'a;

/// The distinct parts of the batch columns `cols` that a batch with part `part` holds, the
/// least first: `part` and its complement in `cols`, and with `symmetric` their mirror
/// images too.
fn parts_of(n: u32, cols: u32, part: u32, symmetric: bool) -> Vec<u32> {
    let (parts, count) = part_array(n, cols, part, symmetric);
    parts[..count].to_vec()
}

/// [`parts_of`] in an array: the parts, and how many there are.
fn part_array(n: u32, cols: u32, part: u32, symmetric: bool) -> ([u32; 4], usize) {
    let mut parts = [part, cols & !part, u32::MAX, u32::MAX];
    if symmetric {
        parts[2] = mirror(n, part);
        parts[3] = cols & !parts[2];
    }
    parts.sort_unstable();
    let mut count = 0;
    for i in 0..4 {
        if parts[i] != u32::MAX && (count == 0 || parts[i] != parts[count - 1]) {
            parts[count] = parts[i];
            count += 1;
        }
    }
    (parts, count)
}

/// The units of a context grouped by the parts of the batch columns `cols` their upper
/// columns meet: a part and its complement in `cols`, and with `symmetric` their mirror images
/// too. Each group's units, the groups in the order of their least part.
fn group_parts(n: u32, cols: u32, symmetric: bool, context: &[JoinUnit]) -> Vec<Vec<JoinUnit>> {
    by_least_part(n, cols, symmetric, context)
        .chunk_by(|x, y| x.0 == y.0)
        .map(|run| run.iter().map(|&(_, i)| context[i as usize]).collect())
        .collect()
}

/// Each unit's least part of `cols` (see [`parts_of`]) with its index in `context`, ordered
/// by the part and then the index: the groups of [`group_parts`], as runs.
fn by_least_part(n: u32, cols: u32, symmetric: bool, context: &[JoinUnit]) -> Vec<(u32, u32)> {
    let least_part = |part: u32| part_array(n, cols, part, symmetric).0[0];
    let mut keyed: Vec<(u32, u32)> = context
        .iter()
        .enumerate()
        .map(|(i, u)| (least_part(u.upper & cols), i as u32))
        .collect();
    keyed.sort_unstable();
    keyed
}

/// How counting a batch ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BatchEnd {
    /// Every unit of the batch was handed on.
    Counted,
    /// The deadline stopped it; the units handed on before are exact, the others not counted.
    Stopped,
}

/// Counts the units of `batch` of a board of size `n` on `workers` under a table budget of
/// `budget` bytes, handing each finished unit's counts to `on_done` on the calling thread
/// (a few at a time, as they finish). `quiet` are the options the workers run under.
/// Also returns the CPU seconds (this process's) spent filling tables.
pub(crate) fn count_batch(
    n: u32,
    batch: &JoinBatch,
    budget: u64,
    workers: &Workers,
    quiet: &Options,
    deadline: &Deadline,
    on_done: &mut OnDone<'_>,
) -> (BatchEnd, f64) {
    let first_rows = FirstRows::every(FIRST_ROW_SPLIT_FROM);
    let (end, fill_cpu, _) = count_batch_with(
        n, batch, budget, workers, quiet, deadline, first_rows, on_done,
    );
    (end, fill_cpu)
}

/// How the finest cut counts its largest tables in pieces by their first rows.
#[derive(Clone, Copy, Debug)]
struct FirstRows {
    /// The least table bytes (by the sample) that are split; below, they are filled without a
    /// limit.
    split_from: u64,
    /// Which upper pieces are counted: every `stride`-th of the runs of columns they start as
    /// (1: all; more only for a projection, whose counts are void).
    stride: u32,
}

impl FirstRows {
    /// Every piece, splitting tables of `split_from` bytes and more.
    fn every(split_from: u64) -> FirstRows {
        FirstRows {
            split_from,
            stride: 1,
        }
    }
}

/// The upper pieces that [`count_sampled_batch`] counts of a unit split by first rows: one
/// run of columns in so many (at N = 28 the runs are single columns, 28 of them, and a unit
/// takes hours).
pub(crate) const PROJECTION_STRIDE: u32 = 7;

/// Counts a share of `batch` for a projection: where it is split by first rows, the upper
/// pieces of every [`PROJECTION_STRIDE`]-th run only (its counts are then void). The share of
/// the runs counted (1 when it is not split), or `None` if `deadline` stopped it first.
pub(crate) fn count_sampled_batch(
    n: u32,
    batch: &JoinBatch,
    budget: u64,
    workers: &Workers,
    deadline: &Deadline,
) -> Option<f64> {
    let quiet = Options::with_threads(workers.threads());
    let first_rows = FirstRows {
        split_from: FIRST_ROW_SPLIT_FROM,
        stride: PROJECTION_STRIDE,
    };
    let (end, _, (counted, runs)) = count_batch_with(
        n,
        batch,
        budget,
        workers,
        &quiet,
        deadline,
        first_rows,
        &mut |_| {},
    );
    (end == BatchEnd::Counted).then(|| {
        if runs == 0 {
            1.0
        } else {
            counted as f64 / runs as f64
        }
    })
}

/// [`count_batch`], splitting the halves of the finest cut by their first rows as
/// `first_rows` says; also gives the upper runs of those it counted, and of all.
#[allow(clippy::too_many_arguments)]
fn count_batch_with(
    n: u32,
    batch: &JoinBatch,
    budget: u64,
    workers: &Workers,
    quiet: &Options,
    deadline: &Deadline,
    first_rows: FirstRows,
    on_done: &mut OnDone<'_>,
) -> (BatchEnd, f64, (u64, u64)) {
    let mut fewer = None;
    let workers = at_most(workers, threads_fitting(n, budget), &mut fewer);
    let group = Group {
        n,
        middle: batch.middle,
        whole: context_walk(n, batch.middle),
        budget: running_budget(n, budget, workers.threads()),
        first_rows,
        workers,
        quiet,
        deadline,
        fill_cpu: std::cell::Cell::new(0.0),
        runs: std::cell::Cell::new((0, 0)),
    };
    let end = group.count(
        batch.cols,
        batch.part,
        batch.paired,
        &batch.members(n),
        batch.halves as u64,
        on_done,
    );
    release_freed_memory();
    (end, group.fill_cpu.get(), group.runs.get())
}

/// The units of `batch` counted to one [`Tally`], or `None` if `deadline` stopped them first
/// (no unit of the batch is then counted): a join plan's unit.
pub(crate) fn tally_batch(
    n: u32,
    batch: &JoinBatch,
    budget: u64,
    workers: &Workers,
    deadline: &Deadline,
) -> Option<Tally> {
    let mut tally = Tally::default();
    let quiet = Options::with_threads(workers.threads());
    let (end, _) = count_batch(n, batch, budget, workers, &quiet, deadline, &mut |done| {
        for (u, c) in done {
            tally.add_orbit(u.orbit, c);
        }
    });
    (end == BatchEnd::Counted).then_some(tally)
}

/// Whether a table of about `expected` halves already passes `max` bytes (within a sixteenth,
/// the sample's error): then the group is split at once rather than filled in vain.
fn too_large(layout: &Layout, expected: u64, max: usize) -> bool {
    let max = max as u64;
    expected.saturating_mul(layout.raw as u64) > max - max / 16
}

/// What counting the groups of one batch shares.
struct Group<'a> {
    n: u32,
    middle: u8,
    whole: Upper,
    budget: u64,
    /// How the finest cut splits its largest tables by first rows.
    first_rows: FirstRows,
    workers: &'a Workers,
    quiet: &'a Options,
    deadline: &'a Deadline,
    /// CPU seconds spent filling tables.
    fill_cpu: std::cell::Cell<f64>,
    /// Upper runs of the tables split by first rows: counted, and in all.
    runs: std::cell::Cell<(u64, u64)>,
}

impl Group<'_> {
    /// Counts `members` (units whose upper columns meet `cols` in `part` or in
    /// `cols \ part`), about `expected` halves: fills the two tables within the budget and
    /// matches, or, when a table passes the budget, splits the group by the next central
    /// column and counts both halves.
    fn count(
        &self,
        cols: u32,
        part: u32,
        paired: bool,
        members: &[JoinUnit],
        expected: u64,
        on_done: &mut OnDone<'_>,
    ) -> BatchEnd {
        if members.is_empty() {
            return BatchEnd::Counted;
        }
        if paired {
            return self.count_paired(cols, members, expected, on_done);
        }
        let n = self.n;
        let layout = Layout::new(n, self.workers.threads(), expected.max(1));
        let offsets = table_slack(n);
        let next = self.next_column(cols);
        // The finest cut fills a small batch without a limit, and splits a large one by
        // first rows when it passes the budget.
        let max = if next.is_none()
            && expected.saturating_mul(layout.raw as u64) < self.first_rows.split_from
        {
            usize::MAX
        } else {
            self.budget.saturating_sub(offsets) as usize
        };
        let other = cols & !part;
        let fill = |walks: Vec<Upper>, max: usize| self.fill(&layout, walks, max);
        let over = too_large(&layout, expected, max);
        let tables = if over {
            None
        } else if cols == 0 {
            fill(vec![self.whole.clone()], max).map(|t| (t, None))
        } else {
            fill(self.whole.with_part(cols, part), max).and_then(|p| {
                if other == part {
                    Some((p, None))
                } else {
                    let left = max.saturating_sub(p.bytes);
                    fill(self.whole.with_part(cols, other), left).map(|o| (p, Some(o)))
                }
            })
        };
        if self.deadline.reached() {
            return BatchEnd::Stopped;
        }
        let Some((table_p, table_o)) = tables else {
            // Over the budget: one more central column, and the two halves of the group; at
            // the finest cut, the halves split by their first row.
            let Some(c) = next else {
                let batch = (cols, part);
                return self.count_by_first_rows(&layout, batch, members, expected, on_done);
            };
            let wider = cols | 1 << c;
            let (with_c, without_c): (Vec<JoinUnit>, Vec<JoinUnit>) = members
                .iter()
                .partition(|u| (u.upper & wider == part | 1 << c) || (u.upper & wider == other));
            let end = self.count(wider, part | 1 << c, false, &with_c, expected / 2, on_done);
            if end == BatchEnd::Stopped {
                return end;
            }
            return self.count(wider, part, false, &without_c, expected / 2, on_done);
        };
        let same = table_o.is_none();
        let table_o = table_o.as_ref().unwrap_or(&table_p);
        self.match_members(members, (cols, part), [&table_p, table_o], same, on_done)
    }

    /// Counts a paired group (`members` meet `cols` in a part, its complement or their mirror
    /// images): one table of all those parts, filled by walks that keep the left-half trick;
    /// when it passes the budget, the group is counted as its two unpaired batches (a part
    /// and its complement, then their images).
    fn count_paired(
        &self,
        cols: u32,
        members: &[JoinUnit],
        expected: u64,
        on_done: &mut OnDone<'_>,
    ) -> BatchEnd {
        let n = self.n;
        let part = members[0].upper & cols;
        let parts = parts_of(n, cols, part, true);
        let layout = Layout::new(n, self.workers.threads(), expected.max(1));
        let max = self.budget.saturating_sub(table_slack(n)) as usize;
        let table = if too_large(&layout, expected, max) {
            None
        } else {
            let walks = parts
                .iter()
                .flat_map(|&q| self.whole.with_part_keeping(cols, q, true))
                .collect();
            self.fill(&layout, walks, max)
        };
        if self.deadline.reached() {
            return BatchEnd::Stopped;
        }
        let Some(table) = table else {
            // Over the budget: the groups of a cut by one more mirror pair of central columns,
            // paired too (their walks keep the left-half trick), each expected to hold its
            // share of the halves by its units; at the finest cut, the two unpaired batches
            // (a part with its complement).
            if let Some(wider) = self.next_pair(cols) {
                let total = members.len() as u64;
                for group in group_parts(n, wider, true, members) {
                    let share = expected * group.len() as u64 / total;
                    if self.count_paired(wider, &group, share, on_done) == BatchEnd::Stopped {
                        return BatchEnd::Stopped;
                    }
                }
                return BatchEnd::Counted;
            }
            let low = parts[0];
            let (first, second): (Vec<JoinUnit>, Vec<JoinUnit>) = members
                .iter()
                .partition(|u| u.upper & cols == low || u.upper & cols == cols & !low);
            for (group, expected) in [(first, expected / 2), (second, expected / 2)] {
                let Some(u) = group.first() else { continue };
                let p = u.upper & cols;
                let p = p.min(cols & !p);
                if self.count(cols, p, false, &group, expected, on_done) == BatchEnd::Stopped {
                    return BatchEnd::Stopped;
                }
            }
            return BatchEnd::Counted;
        };
        self.match_members(members, (cols, part), [&table, &table], true, on_done)
    }

    /// The table of the halves `walks` hear, within `max` bytes (`None`: it passed them, or the
    /// deadline stopped it), its CPU time added to `fill_cpu`.
    fn fill(&self, layout: &Layout, walks: Vec<Upper>, max: usize) -> Option<Table> {
        let cpu = || crate::schedule::cpu_seconds().unwrap_or(0.0);
        let started = cpu();
        let table = fill_table(
            Level::current(),
            layout,
            &Pieces::new(walks, START_DEPTH),
            max,
            self.workers,
            self.deadline,
        );
        self.fill_cpu.set(self.fill_cpu.get() + cpu() - started);
        table
    }

    /// `cols` with the next two central columns to cut by, when they are mirror images of each
    /// other (in a context that the mirror maps onto itself they come in such pairs), or
    /// `None` at the finest cut.
    fn next_pair(&self, cols: u32) -> Option<u32> {
        let c = self.next_column(cols)?;
        let d = self.next_column(cols | 1 << c)?;
        (mirror(self.n, 1 << c) == 1 << d).then_some(cols | 1 << c | 1 << d)
    }

    /// The next central column to cut by, outside `cols` and the middle queen's, or `None` at
    /// the finest cut.
    fn next_column(&self, cols: u32) -> Option<u32> {
        if cols.count_ones() >= MAX_BATCH_COLUMNS {
            return None;
        }
        central_column(self.n, cols | middle_bit(self.middle))
    }

    /// Counts `members` (about `expected` halves) at the finest cut when their two tables pass
    /// the budget: the halves of each table are split by the column of their first row's
    /// queen, into runs of columns that by `expected` fit [`FIRST_ROW_SHARE`] of the budget
    /// each (a run that does not is halved; a single column is filled without a limit), every
    /// piece of one table is matched with every piece of the other, and each unit's total,
    /// added up over the pieces, is handed on once they are all matched. A unit's upper and
    /// lower halves have their first rows at the board's first and last row, so each
    /// solution is in exactly one pair of pieces.
    fn count_by_first_rows(
        &self,
        layout: &Layout,
        (cols, part): (u32, u32),
        members: &[JoinUnit],
        expected: u64,
        on_done: &mut OnDone<'_>,
    ) -> BatchEnd {
        let n = self.n;
        let other = cols & !part;
        let max = (self.budget.saturating_sub(table_slack(n)) / FIRST_ROW_SHARE) as usize;
        // Runs of columns, the first on top of the stack.
        let pieces = (expected.saturating_mul(layout.raw as u64) / 2)
            .div_ceil(max.max(1) as u64)
            .clamp(2, n as u64) as u32;
        let run = |i: u32| {
            let (from, to) = (i * n / pieces, (i + 1) * n / pieces);
            (u32::MAX >> (32 - to)) & !((1u32 << from) - 1)
        };
        let runs: Vec<u32> = (0..pieces).rev().map(run).collect();
        let mut totals = vec![0u64; members.len()];
        // The upper runs counted: every one, or every `stride`-th for a projection.
        let stride = self.first_rows.stride.max(1);
        let mut uppers: Vec<u32> = (0..pieces)
            .rev()
            .filter(|i| i.is_multiple_of(stride))
            .map(run)
            .collect();
        let (counted, all) = self.runs.get();
        self.runs
            .set((counted + uppers.len() as u64, all + runs.len() as u64));
        while let Some(rows_p) = uppers.pop() {
            let Some(table_p) = self.fill_first_row(layout, (cols, part), rows_p, max, &mut uppers)
            else {
                if self.deadline.reached() {
                    return BatchEnd::Stopped;
                }
                continue;
            };
            let mut lowers = runs.clone();
            while let Some(rows_o) = lowers.pop() {
                let Some(table_o) =
                    self.fill_first_row(layout, (cols, other), rows_o, max, &mut lowers)
                else {
                    if self.deadline.reached() {
                        return BatchEnd::Stopped;
                    }
                    continue;
                };
                let end = self.match_totals(
                    members,
                    (cols, part),
                    [&table_p, &table_o],
                    false,
                    Finish::Raw,
                    &mut |done| {
                        for (i, c) in done {
                            totals[*i] += c.found[3];
                        }
                    },
                );
                if end == BatchEnd::Stopped {
                    return end;
                }
            }
        }
        // A projection's share is handed on raw (its solutions found, not classified).
        let counted: Vec<(JoinUnit, UnitCounts)> = members
            .iter()
            .zip(totals)
            .map(|(u, total)| {
                let counts = if stride > 1 {
                    UnitCounts {
                        found: [0, 0, 0, total],
                    }
                } else {
                    unit_counts(u, total)
                };
                (*u, counts)
            })
            .collect();
        on_done(&counted);
        BatchEnd::Counted
    }

    /// The table of the halves that meet `cols` in `part` and whose first row's queen is on a
    /// column of `rows`, within `max` bytes; `None` when the deadline stopped it, or when it
    /// passed them: then `rows` goes onto `pending` in two halves (a single column is filled
    /// without a limit).
    fn fill_first_row(
        &self,
        layout: &Layout,
        (cols, part): (u32, u32),
        rows: u32,
        max: usize,
        pending: &mut Vec<u32>,
    ) -> Option<Table> {
        let mut walks = self.whole.with_part(cols, part);
        for w in &mut walks {
            w.first_row = rows;
        }
        let single = rows.count_ones() <= 1;
        let table = self.fill(layout, walks, if single { usize::MAX } else { max });
        if table.is_none() && !single && !self.deadline.reached() {
            // The lower half of the columns (by count), then the upper.
            let mut low = 0u32;
            for _ in 0..rows.count_ones() / 2 {
                low |= (rows & !low) & (rows & !low).wrapping_neg();
            }
            pending.extend([rows & !low, low]);
        }
        table
    }

    /// Counts `members` from their tables (`tables[0]` holds the halves that meet the batch
    /// columns in `part`, `tables[1]` those in the rest; the same table when `same`), handing
    /// each finished unit's counts to `on_done`.
    fn match_members(
        &self,
        members: &[JoinUnit],
        batch: (u32, u32),
        tables: [&Table; 2],
        same: bool,
        on_done: &mut OnDone<'_>,
    ) -> BatchEnd {
        let mut finished = Vec::new();
        self.match_totals(members, batch, tables, same, Finish::Counts, &mut |done| {
            finished.clear();
            finished.extend(done.iter().map(|(i, c)| (members[*i], *c)));
            on_done(&finished);
        })
    }

    /// Matches `members` (see [`Group::match_members`]) by pairs of coarse buckets (their
    /// upper and lower columns'), each pair's buckets sorted by the worker that counts its
    /// units, handing on each unit's index in `members` and its counts as `finish` says.
    fn match_totals(
        &self,
        members: &[JoinUnit],
        (batch_cols, part): (u32, u32),
        tables: [&Table; 2],
        same: bool,
        finish: Finish,
        on_done: &mut OnMatched<'_>,
    ) -> BatchEnd {
        let level = Level::current();
        let full = u32::MAX >> (32 - self.n);
        let mid_bit = middle_bit(self.middle);
        // The tables of a unit's upper and lower halves.
        let sides = |u: &JoinUnit| match (same, u.upper & batch_cols == part) {
            (true, _) => (0, 0),
            (false, true) => (0, 1),
            (false, false) => (1, 0),
        };
        let lower_cols = |u: &JoinUnit| full & !u.upper & !mid_bit;
        let mut by_pair: std::collections::BTreeMap<BucketKeys, Vec<usize>> =
            std::collections::BTreeMap::new();
        for (i, u) in members.iter().enumerate() {
            let (up, low) = sides(u);
            let a = (up, tables[up].bucket_of(u.upper));
            let b = (low, tables[low].bucket_of(lower_cols(u)));
            by_pair.entry((a.min(b), a.max(b))).or_default().push(i);
        }
        // The largest pairs first (by the product of their buckets' halves, ties in key
        // order), so that the workers end the batch together rather than one of them alone.
        let halves = |(t, b): (usize, usize)| -> u64 {
            tables[t].buckets[b].iter().map(|(_, c)| *c as u64).sum()
        };
        let mut pairs: Vec<(BucketKeys, Vec<usize>)> = by_pair.into_iter().collect();
        pairs.sort_by_cached_key(|&((a, b), _)| std::cmp::Reverse(halves(a) * halves(b)));
        let count_pair = |(keys, units): &(BucketKeys, Vec<usize>), d: &Deadline| {
            if d.reached() {
                return None;
            }
            SORTING.with(|sorting| {
                let sorting = &mut *sorting.borrow_mut();
                let Sorting { first, second } = sorting;
                let (a, b) = *keys;
                sort_bucket(&tables[a.0].layout, &tables[a.0].buckets[a.1], first);
                if b != a {
                    sort_bucket(&tables[b.0].layout, &tables[b.0].buckets[b.1], second);
                }
                let words = |t: usize, cols: u32| {
                    let sorted = if (t, tables[t].bucket_of(cols)) == a {
                        &*first
                    } else {
                        &*second
                    };
                    sorted.of(cols, tables[t].layout.tag)
                };
                SCRATCH.with(|s| {
                    let scratch = &mut *s.borrow_mut();
                    scratch.deadline = d.clone();
                    // A unit that the deadline stops voids its pair's units (none recorded).
                    units
                        .iter()
                        .map(|&i| {
                            let u = &members[i];
                            let (up, low) = sides(u);
                            let (ups, lows) = (words(up, u.upper), words(low, lower_cols(u)));
                            let total = total_of_unit(level, u, ups, lows, scratch)?;
                            let counts = match finish {
                                Finish::Counts => unit_counts(u, total),
                                Finish::Raw => UnitCounts {
                                    found: [0, 0, 0, total],
                                },
                            };
                            Some((i, counts))
                        })
                        .collect::<Option<Vec<_>>>()
                })
            })
        };
        let finished = self
            .workers
            .run(&pairs, self.quiet, self.deadline, count_pair, |batch| {
                for (_, counted) in batch {
                    on_done(&counted);
                }
                Ok::<(), Infallible>(())
            });
        match finished {
            Ok(f) if !f.stopped() => BatchEnd::Counted,
            Ok(_) => BatchEnd::Stopped,
            Err(never) => match never {},
        }
    }
}

/// Hears matched units as their indices among a group's members, with their counts.
type OnMatched<'a> = dyn FnMut(&[(usize, UnitCounts)]) + 'a;

/// What [`Group::match_totals`] hands on for a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Finish {
    /// Its counts by the size of their class.
    Counts,
    /// Its total alone (in `found[3]`), to be added up with the unit's other pieces first.
    Raw,
}

/// The share of a batch's table budget that each piece of a table split by first rows may
/// take ([`Group::count_by_first_rows`]): one piece of each table is held at a time, and the
/// workers' sort buffers and matcher keys grow with them.
const FIRST_ROW_SHARE: u64 = 8;

/// The least table bytes that the finest cut splits by first rows: a batch smaller than that
/// is filled without a limit (a split costs a fill and a match for each pair of pieces).
const FIRST_ROW_SPLIT_FROM: u64 = 64 << 20;

/// Counts every unit of the join of `cut`, calling `on_done` with each finished unit on the
/// calling thread. The units are counted batch by batch, so memory stays within the cut's
/// budget whatever `n` (the cut comes from a sample, and a batch whose tables pass the budget
/// is split further; a cut whose `needed` passes it fills its finest batches without limit). With `every` above 1 only every `every`-th batch of the contexts that need
/// batches is counted (the others are counted whole), for a projection of the cost
/// ([`JoinRun::projected_cpu`]).
pub(crate) fn count_all(
    cut: &JoinCut,
    every: u64,
    workers: &Workers,
    options: &Options,
    deadline: &Deadline,
    mut on_done: impl FnMut(&JoinUnit, &UnitCounts),
) -> JoinRun {
    let cpu = || crate::schedule::cpu_seconds().unwrap_or(0.0);
    let started_cpu = cpu();
    let mut run = JoinRun::default();
    let (n, budget) = (cut.n, cut.budget);
    let total_units = join_units(n).len() as u64;
    let mut progress = WorkProgress {
        done: 0,
        total: total_units,
        done_work: 0.0,
        total_work: total_units as f64,
    };
    // The batches report nothing themselves: progress counts over all the units.
    let quiet = Options {
        progress: None,
        work_progress: None,
        ..options.clone()
    };
    for batch in &cut.batches {
        if deadline.reached() {
            break;
        }
        let counted = batch.cols == 0 || {
            run.batches += 1;
            run.halves[0] += batch.halves;
            run.pairs[0] += batch.pairs;
            (run.batches - 1) % every.max(1) == 0
        };
        if !counted {
            continue;
        }
        let batch_started = cpu();
        let (end, fill_cpu) =
            count_batch(n, batch, budget, workers, &quiet, deadline, &mut |done| {
                for (u, c) in done {
                    on_done(u, c);
                    progress.done += 1;
                    progress.done_work += 1.0;
                }
                options.report(progress.done, total_units);
                options.report_work(progress);
            });
        if batch.cols != 0 {
            run.halves[1] += batch.halves;
            run.pairs[1] += batch.pairs;
            run.batches_counted += 1;
            run.fill_cpu += fill_cpu;
            run.match_cpu += cpu() - batch_started - fill_cpu;
        }
        if end == BatchEnd::Stopped {
            break;
        }
    }
    run.other_cpu = cpu() - started_cpu - run.batch_cpu();
    run.done = progress.done;
    run.total = total_units;
    run
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Solutions;

    /// The four images of a join unit's class that [`join_units`] picks its least from.
    fn class_of(n: u32, columns: &[usize]) -> (u8, u32) {
        let h = (n / 2) as usize;
        let upper = columns[..h].iter().fold(0u32, |s, &c| s | 1 << c);
        let middle = if n % 2 == 1 {
            columns[h] as u8
        } else {
            NO_MIDDLE
        };
        images(n, upper, middle)
            .into_iter()
            .map(|(u, m)| (m, u))
            .min()
            .expect("four images")
    }

    /// Every batch of the cut, at the default budget and at budgets that cut every context,
    /// counts exactly the solutions (found by the board's own enumerator) whose class of join
    /// units it holds; the batches hold every join unit once.
    #[test]
    fn each_batch_counts_the_solutions_of_its_units() {
        let workers = Workers::new(2);
        for n in 8..=14u32 {
            let mut by_class: std::collections::HashMap<(u8, u32), u128> = Default::default();
            for columns in Solutions::new(n, false) {
                *by_class.entry(class_of(n, &columns)).or_default() += 1;
            }
            for budget in [u64::MAX >> 1, 1 << 14, 1] {
                let cut = JoinCut::new(n, budget, &workers, &Deadline::never()).unwrap();
                let mut seen = std::collections::HashSet::new();
                for batch in &cut.batches {
                    let tally = tally_batch(n, batch, budget, &workers, &Deadline::never())
                        .expect("no deadline");
                    let expected: u128 = batch
                        .members(n)
                        .iter()
                        .map(|u| {
                            assert!(seen.insert((u.middle, u.upper)), "a unit in two batches");
                            by_class.get(&(u.middle, u.upper)).copied().unwrap_or(0)
                        })
                        .sum();
                    assert_eq!(
                        tally.solutions, expected,
                        "N = {n}, budget {budget}, {batch:?}"
                    );
                }
                assert_eq!(seen.len(), join_units(n).len(), "N = {n}, budget {budget}");
            }
        }
    }

    /// A batch's units, listed from its columns, are the units of its context whose upper
    /// columns meet the batch columns in one of its parts, in order.
    #[test]
    fn a_batch_lists_the_units_of_its_parts() {
        let workers = Workers::new(2);
        for n in 8..=14u32 {
            let units = join_units(n);
            for budget in [u64::MAX >> 1, 1 << 16, 1 << 12, 1] {
                let cut = JoinCut::new(n, budget, &workers, &Deadline::never()).unwrap();
                let mut listed = 0;
                for b in &cut.batches {
                    let parts = parts_of(n, b.cols, b.part, b.paired);
                    let want: Vec<JoinUnit> = units
                        .iter()
                        .filter(|u| u.middle == b.middle && parts.contains(&(u.upper & b.cols)))
                        .copied()
                        .collect();
                    assert_eq!(b.members(n), want, "N = {n}, budget {budget}, {b:?}");
                    listed += want.len();
                }
                assert_eq!(listed, units.len(), "N = {n}, budget {budget}");
            }
        }
    }

    /// Batches whose finest cut passes the budget, their halves split by their first rows into
    /// pieces of every size down to single columns, count the same as without the split (the
    /// totals added up over the pieces, each unit handed on once), and the whole count is
    /// A000170's and A002562's.
    #[test]
    fn first_row_pieces_add_up_to_each_unit() {
        const SOLUTIONS: [u128; 4] = [352, 724, 2680, 14200];
        const UNIQUE: [u128; 4] = [46, 92, 341, 1787];
        let workers = Workers::new(2);
        let quiet = Options::with_threads(2);
        for n in 9..=12u32 {
            let cut = JoinCut::new(n, 1, &workers, &Deadline::never()).unwrap();
            for (budget, split_from) in [(1, 0), (4 << 10, 0), (1, u64::MAX)] {
                let mut whole = Tally::default();
                let mut seen = std::collections::HashSet::new();
                let mut split_runs = 0;
                for batch in &cut.batches {
                    let (end, _, (counted, runs)) = count_batch_with(
                        n,
                        batch,
                        budget,
                        &workers,
                        &quiet,
                        &Deadline::never(),
                        FirstRows::every(split_from),
                        &mut |done| {
                            for (u, c) in done {
                                assert!(seen.insert((u.middle, u.upper)), "{u:?} twice");
                                whole.add_orbit(u.orbit, c);
                            }
                        },
                    );
                    assert_eq!(end, BatchEnd::Counted);
                    assert_eq!(counted, runs, "every run of every split table");
                    assert!(split_from == 0 || runs == 0);
                    split_runs += runs;
                }
                assert_eq!(split_runs > 0, split_from == 0, "N = {n}, budget {budget}");
                let i = n as usize - 9;
                let label = format!("N = {n}, budget {budget}, split from {split_from}");
                assert_eq!(seen.len(), join_units(n).len(), "{label}");
                assert_eq!(whole.solutions, SOLUTIONS[i], "{label}");
                assert_eq!(whole.unique(), UNIQUE[i], "{label}");
            }
        }
    }

    /// A projection's share of a unit split by first rows counts every third run of upper
    /// pieces: the share is those runs of all, and each unit's solutions found are some of its
    /// solutions (never more), all of them where the unit is not split.
    #[test]
    fn a_projection_counts_a_share_of_the_first_row_runs() {
        let workers = Workers::new(2);
        let quiet = Options::with_threads(2);
        for n in 10..=12u32 {
            let cut = JoinCut::new(n, 1, &workers, &Deadline::never()).unwrap();
            let mut some_share = false;
            for batch in &cut.batches {
                let count = |first_rows: FirstRows| {
                    let mut found = std::collections::BTreeMap::new();
                    let (end, _, runs) = count_batch_with(
                        n,
                        batch,
                        1,
                        &workers,
                        &quiet,
                        &Deadline::never(),
                        first_rows,
                        &mut |done| {
                            for (u, c) in done {
                                found.insert(u.upper, c.found);
                            }
                        },
                    );
                    assert_eq!(end, BatchEnd::Counted);
                    (found, runs)
                };
                let (all, (counted, runs)) = count(FirstRows::every(0));
                assert_eq!(counted, runs);
                let (some, (share, of)) = count(FirstRows {
                    split_from: 0,
                    stride: 3,
                });
                assert_eq!(of, runs);
                assert!(3 * share >= of && (of == 0 || share > 0), "{share} of {of}");
                some_share |= share < of;
                assert_eq!(
                    some.keys().collect::<Vec<_>>(),
                    all.keys().collect::<Vec<_>>()
                );
                for (upper, found) in &some {
                    let whole: u64 = all[upper].iter().sum();
                    let part: u64 = found.iter().sum();
                    assert!(part <= whole, "N = {n}, {upper:b}: {part} > {whole}");
                }
            }
            assert!(some_share, "N = {n}: no unit counted in part");
        }
    }
}
