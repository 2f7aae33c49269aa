//! Counting N-queens solutions, all of them (OEIS A000170) and up to the 8 symmetries of the
//! board (OEIS A002562), for N = 1..=32.
//!
//! Every solution has exactly one queen in each of the four border lines (top and bottom row,
//! left and right column). Those border queens form its *constellation*; the search counts,
//! for one constellation per symmetry class, the ways to fill the free rows (a bitmask
//! depth-first search), and weights each by the size of the class. A solution's own symmetry
//! group is a subgroup of its constellation's, so only solutions whose constellation is
//! half-turn symmetric can form smaller classes, and only when they are half-turn symmetric
//! themselves; a small search over half the rows finds and classifies those. All others form
//! classes of 8.
//!
//! The constellations (optionally split by the queens of the next free rows) are independent
//! [`WorkUnit`]s with stable ids, scheduled dynamically over the threads by
//! [`crate::schedule`].
//!
//! For N = 16..=28, [`count`] instead joins the upper and lower halves of the board (`join`,
//! see docs/count.md): it lists every upper half once, grouped by its columns, and counts the
//! pairs of halves on complementary columns whose diagonals do not meet. The work plans
//! ([`work_units`], [`count_unit`]) keep the constellation units for every N.

mod join;
mod kernel;
mod tail;
mod unit;
mod units;

pub use crate::board::{is_canonical, Solutions};
pub use units::{
    constellations, default_split, plan, unit_weight, work_units, work_units_split, Constellation,
    Group, Skeleton, WorkUnit, MAX_PREFIX,
};

use crate::options::WorkProgress;
use crate::schedule::Workers;
use crate::{Deadline, Options};
use serde::{Deserialize, Serialize};
use std::convert::Infallible;
use thiserror::Error;

/// The largest board the counter accepts (one `u32` bit per column).
pub const MAX_N: u32 = 32;

/// Why a count could not start.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CountError {
    /// The board size is outside `1..=MAX_N`.
    #[error("N = {n} is not supported: N must be from 1 to {MAX_N}")]
    UnsupportedSize {
        /// The size given.
        n: u32,
    },
    /// A work unit that no plan contains (see [`WorkUnit::is_valid`]).
    #[error("work unit {0} is not valid")]
    InvalidUnit(u64),
    /// The memory cap is below what the join's largest unit needs at its finest cut.
    #[error(
        "a memory cap of {cap_mib} MiB is too small for N = {n}: the join's largest unit needs \
         about {needed_mib} MiB (give --memory {needed_mib} or more)"
    )]
    MemoryTooSmall {
        /// The board size.
        n: u32,
        /// The cap given, MiB.
        cap_mib: u64,
        /// About what the largest unit needs, MiB (its tables and the reserve).
        needed_mib: u64,
    },
}

/// The solutions found in one work unit, by the size of their symmetry class: `found[i]` holds
/// those whose class has `1 << i` members (1, 2, 4 or 8 solutions). Only the unit's own
/// solutions are counted here (not their images); see [`Tally::add`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UnitCounts {
    /// Solutions of the unit by class size 1, 2, 4, 8.
    pub found: [u64; 4],
}

impl UnitCounts {
    /// All solutions found in the unit.
    pub fn total(&self) -> u128 {
        self.found.iter().map(|&f| f as u128).sum()
    }
}

/// Exact running totals over finished units. The unique count is kept times 8 so that every
/// unit adds an integer (a split constellation's units each hold a fraction of its classes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// All solutions (images included).
    pub solutions: u128,
    /// Eight times the number of symmetry classes of each size 1, 2, 4, 8.
    pub classes_times_8: [u128; 4],
    /// Units added.
    pub units: u64,
}

impl Tally {
    /// Adds the counts of a finished unit: each solution found stands for `orbit` solutions
    /// (its images under the symmetries that move the constellation), and a class of size `m`
    /// meets the unit in `m * unit.orbit / 8` of its members.
    pub fn add(&mut self, unit: &WorkUnit, counts: &UnitCounts) {
        self.add_orbit(unit.orbit, counts);
    }

    /// [`Tally::add`] for a unit whose class has `orbit` members.
    fn add_orbit(&mut self, orbit: u8, counts: &UnitCounts) {
        let orbit = orbit as u128;
        for (i, &f) in counts.found.iter().enumerate() {
            let class_size = 1u128 << i;
            self.solutions += f as u128 * orbit;
            self.classes_times_8[i] += f as u128 * (8 / class_size) * orbit;
        }
        self.units += 1;
    }

    /// Sums two tallies.
    pub fn merge(mut self, other: Tally) -> Tally {
        self.solutions += other.solutions;
        for i in 0..4 {
            self.classes_times_8[i] += other.classes_times_8[i];
        }
        self.units += other.units;
        self
    }

    /// Number of symmetry classes of each size 1, 2, 4, 8 (exact once every unit of a plan
    /// is in).
    pub fn classes(&self) -> [u128; 4] {
        self.classes_times_8.map(|c| c / 8)
    }

    /// Number of solutions up to rotation and reflection (exact once every unit is in).
    pub fn unique(&self) -> u128 {
        self.classes_times_8.iter().sum::<u128>() / 8
    }
}

/// The answer of [`count`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Board size.
    pub n: u32,
    /// Number of solutions (A000170) over the finished units: the exact total when `complete`.
    pub solutions: u128,
    /// Number of solutions up to rotation and reflection (A002562), over the finished units.
    pub unique: u128,
    /// Number of symmetry classes with 1, 2, 4 and 8 members.
    pub classes_by_size: [u128; 4],
    /// Work units finished.
    pub units_done: u64,
    /// Work units in the plan.
    pub units_total: u64,
    /// Whether every unit was counted (false when the deadline stopped the count).
    pub complete: bool,
}

/// Checks that `n` is a board size the counter supports.
pub fn check_size(n: u32) -> Result<(), CountError> {
    if (1..=MAX_N).contains(&n) {
        Ok(())
    } else {
        Err(CountError::UnsupportedSize { n })
    }
}

/// Counts the solutions of one work unit by class size; `Ok(None)` if `deadline` passed first
/// (the unit then counts as not done), an error for a unit that is not valid.
pub fn count_unit(unit: &WorkUnit, deadline: &Deadline) -> Result<Option<UnitCounts>, CountError> {
    if !unit.is_valid() {
        return Err(CountError::InvalidUnit(unit.id));
    }
    Ok(count_valid_unit(unit, deadline))
}

/// [`count_unit`] for a unit known to be valid.
fn count_valid_unit(unit: &WorkUnit, deadline: &Deadline) -> Option<UnitCounts> {
    kernel::count_start(&kernel::Start::new(unit), deadline)
}

/// Counts the given units of one plan on `options`' threads with the crate's one scheduler
/// ([`crate::schedule`]): heaviest first as given, each worker taking the next unit not yet
/// started; `on_done` hears every finished unit on the calling thread. Units that the deadline
/// interrupts are left out of the tally. The result does not depend on the number of threads.
/// Every unit is checked first; an invalid one is an error and nothing is counted.
pub fn count_units(
    units: &[WorkUnit],
    options: &Options,
    on_done: impl FnMut(&WorkUnit, &UnitCounts),
) -> Result<Tally, CountError> {
    if let Some(bad) = units.iter().find(|u| !u.is_valid()) {
        return Err(CountError::InvalidUnit(bad.id));
    }
    let workers = Workers::new(options.threads);
    Ok(tally_units(
        &workers,
        units,
        &[],
        options,
        &options.deadline(),
        on_done,
    ))
}

/// [`count_units`] of valid units on `workers`, against a deadline already running. `work[i]`
/// is the estimated work of `units[i]` (empty: one per unit), reported with the progress.
fn tally_units(
    workers: &Workers,
    units: &[WorkUnit],
    work: &[f64],
    options: &Options,
    deadline: &Deadline,
    mut on_done: impl FnMut(&WorkUnit, &UnitCounts),
) -> Tally {
    let mut tally = Tally::default();
    let work_of = |i: usize| work.get(i).copied().unwrap_or(1.0);
    let mut progress = WorkProgress {
        done: 0,
        total: units.len() as u64,
        done_work: 0.0,
        total_work: (0..units.len()).map(work_of).sum(),
    };
    let finished = workers.run(units, options, deadline, count_valid_unit, |batch| {
        for (i, counts) in batch {
            tally.add(&units[i], &counts);
            on_done(&units[i], &counts);
            progress.done += 1;
            progress.done_work += work_of(i);
        }
        options.report_work(progress);
        Ok::<(), Infallible>(())
    });
    match finished {
        Ok(_) => tally,
        Err(never) => match never {},
    }
}

/// Counts all N-queens solutions and the solutions up to symmetry for `n` in `1..=32`. When
/// the time limit or the cancel flag stops it (planning included), the counts of the finished
/// units are returned with `complete: false`. Same answer for any thread count.
///
/// The units run heaviest first by their estimated work, which the progress reports of
/// `options` carry ([`Options::report_work`]).
pub fn count(n: u32, options: &Options) -> Result<Counts, CountError> {
    check_size(n)?;
    let deadline = options.deadline();
    let workers = Workers::new(options.threads);
    if use_join(n) {
        return count_by_join(n, &workers, options, &deadline);
    }
    let weighted = workers
        .install(|| {
            use rayon::prelude::*;
            let skeleton = Skeleton::new(n, default_split(n), &deadline)?;
            let mut all: Vec<(f64, WorkUnit)> = (0..skeleton.groups().len())
                .into_par_iter()
                .flat_map_iter(|g| skeleton.weighted_units(g, None))
                .collect();
            all.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.id.cmp(&b.1.id)));
            Some(all)
        })
        .unwrap_or_default();
    let (work, units): (Vec<f64>, Vec<WorkUnit>) = weighted.into_iter().unzip();
    let tally = tally_units(&workers, &units, &work, options, &deadline, |_, _| {});
    let planned = !units.is_empty() || constellations(n).is_empty();
    Ok(Counts {
        n,
        solutions: tally.solutions,
        unique: tally.unique(),
        classes_by_size: tally.classes(),
        units_done: tally.units,
        units_total: units.len() as u64,
        complete: planned && tally.units == units.len() as u64,
    })
}

/// The memory cap of a count of board size `n`, in bytes: `options.memory`, else the
/// environment's `QUEENS_MEMORY_MIB` (or its older name `QUEENS_JOIN_MIB`), else 256 MiB up
/// to N = 19 and 4096 MiB above. The join keeps its tables within it
/// ([`join_reserved_bytes`] of it go to everything else); the constellation search needs
/// little memory of any size.
pub fn memory_cap(n: u32, options: &Options) -> u64 {
    options.memory.unwrap_or_else(|| {
        let env = |name: &str| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
                .filter(|&m| m > 0)
        };
        env("QUEENS_MEMORY_MIB")
            .or_else(|| env("QUEENS_JOIN_MIB"))
            .unwrap_or_else(|| join::batches::default_memory_mib(n))
            << 20
    })
}

/// The memory the join sets aside, under the cap, for everything but the tables of the batch
/// in hand, for board size `n` (about 100 MiB; more for large `n`).
pub fn join_reserved_bytes(n: u32) -> u64 {
    join::batches::reserved_bytes(n)
}

/// The join's work for one board size cut into deterministic units (batches) whose tables fit
/// a memory cap: the units of the join's work plans (`crate::scale::JoinPlan`). Unit `i`
/// holds the join units of one context (middle queen) whose columns meet a set of central
/// columns in one part or its complement; counting it builds only its own tables.
#[derive(Clone, Debug)]
pub struct JoinBatches {
    cut: join::batches::JoinCut,
    memory: u64,
}

impl JoinBatches {
    /// The cut of board size `n` (in [`join_applies`]) under a cap of `memory` bytes, chosen
    /// from a deterministic sample of each context's walk (the same on every machine);
    /// `Ok(None)` if `deadline` stopped the sampling, an error if the cap is too small for the
    /// finest cut.
    pub fn new(
        n: u32,
        memory: u64,
        workers: &Workers,
        deadline: &Deadline,
    ) -> Result<Option<JoinBatches>, CountError> {
        check_size(n)?;
        if !join::applies(n) {
            return Err(CountError::UnsupportedSize { n });
        }
        let budget = join::batches::table_bytes(n, memory);
        let Some(cut) = join::batches::JoinCut::new(n, budget, workers, deadline) else {
            return Ok(None);
        };
        if cut.needed > cut.budget {
            let needed = cut.needed + (budget - cut.budget);
            return Err(too_small(n, memory, needed));
        }
        Ok(Some(JoinBatches { cut, memory }))
    }

    /// Board size.
    pub fn n(&self) -> u32 {
        self.cut.n
    }

    /// The memory cap, bytes.
    pub fn memory(&self) -> u64 {
        self.memory
    }

    /// Number of units.
    pub fn len(&self) -> usize {
        self.cut.batches.len()
    }

    /// Whether there are no units (never, for a size the join applies to).
    pub fn is_empty(&self) -> bool {
        self.cut.batches.is_empty()
    }

    /// The words that identify unit `i`: its middle queen's column (`u8::MAX`: none), batch
    /// columns, part, number of join units and their column sets.
    pub fn key(&self, i: usize) -> Vec<u64> {
        let b = &self.cut.batches[i];
        let members = b.members(self.cut.n);
        [
            u64::from(b.middle),
            u64::from(b.cols),
            u64::from(b.part),
            members.len() as u64,
        ]
        .into_iter()
        .chain(members.iter().map(|u| u64::from(u.upper)))
        .collect()
    }

    /// The estimated work of unit `i` (sampled pairs of halves, in a measure of its own).
    pub fn work(&self, i: usize) -> f64 {
        self.cut.batches[i].pairs.max(1.0)
    }

    /// The estimated peak memory of counting unit `i`, bytes: its tables (by the sample)
    /// and the reserve.
    pub fn unit_bytes(&self, i: usize) -> u64 {
        let n = self.cut.n;
        let b = &self.cut.batches[i];
        let record = u64::from(2 * n + 12).div_ceil(8);
        // A batch whose tables pass the budget is counted in pieces within it; the plan
        // holds what the cap leaves beyond the tables' budget and the reserve.
        let budget = self.cut.budget;
        let plan = join::batches::table_bytes(n, self.memory) - budget;
        ((b.halves * record as f64) as u64).min(budget)
            + join::batches::table_slack(n)
            + join::batches::reserved_bytes(n)
            + plan
    }

    /// The most threads, up to `most`, whose workers' own memory (sort and matcher buffers,
    /// some 300 MiB a worker at N = 24) takes at most three quarters of what the cap leaves
    /// the tables (at least 1): a unit runs on no more, whatever the threads given.
    pub fn threads_within_cap(&self, most: usize) -> usize {
        let n = self.cut.n;
        join::batches::threads_fitting(n, join::batches::table_bytes(n, self.memory))
            .min(most.max(1))
    }

    /// Unit `i` in words, for `queens plan`.
    pub fn describe(&self, i: usize) -> String {
        let b = &self.cut.batches[i];
        let members = b.members(self.cut.n).len();
        let cols = |set: u32| -> String {
            let list: Vec<String> = (0..32)
                .filter(|c| set >> c & 1 == 1)
                .map(|c: u32| c.to_string())
                .collect();
            format!("{{{}}}", list.join(","))
        };
        let context = if b.middle == u8::MAX {
            String::new()
        } else {
            format!("middle queen in column {}; ", b.middle)
        };
        if b.cols == 0 {
            format!("{context}the whole context; {members} join units")
        } else {
            format!(
                "{context}batch columns {}, part {} or {}; {} join units",
                cols(b.cols),
                cols(b.part),
                cols(b.cols & !b.part),
                members
            )
        }
    }

    /// Counts a share of unit `i` on `workers` for a projection: all of it, or where its
    /// tables are split by first rows one upper run of columns in seven. The share counted
    /// (its counts are not kept), or `None` if `deadline` passed first.
    pub fn count_share(&self, i: usize, workers: &Workers, deadline: &Deadline) -> Option<f64> {
        let batch = &self.cut.batches[i];
        join::batches::count_sampled_batch(self.cut.n, batch, self.cut.budget, workers, deadline)
    }

    /// Counts unit `i` on `workers`: its [`Tally`], or `None` if `deadline` passed first (the
    /// unit is then not counted at all; it stops within a fraction of a second).
    pub fn count(&self, i: usize, workers: &Workers, deadline: &Deadline) -> Option<Tally> {
        join::batches::tally_batch(
            self.cut.n,
            &self.cut.batches[i],
            self.cut.budget,
            workers,
            deadline,
        )
    }
}

/// Whether the join counts boards of size `n` at all (N = 4..=28).
pub fn join_applies(n: u32) -> bool {
    join::applies(n)
}

/// Whether [`count`], and the work plans (`crate::scale::plan_for`), count boards of size `n`
/// with the join: by default N = 16..=28, where it is measured faster, unless
/// `QUEENS_KERNEL=dfs` (or `=join`) forces one counter where it applies.
pub fn join_is_chosen(n: u32) -> bool {
    use_join(n)
}

/// The smallest board [`count`] counts with the join by default: below it the
/// constellation search is faster (measured, see docs/count.md).
const JOIN_FROM: u32 = 16;

/// The largest board [`count`] counts with the join by default: all it reaches since
/// 2026-12-07, when its plans of N = 27 and 28 came down to 60 and 15 s on 2 threads
/// (1.5 and 2.2 GB while they are made; from 409 s and 5.0 GB, 150 s and 3.5 GB). The
/// constellation search is some 70 times costlier there (docs/scale.md, "Projections").
const JOIN_TO: u32 = 28;

/// Whether [`count`] counts boards of size `n` with the join (see [`join`]):
/// `JOIN_FROM..=JOIN_TO` by default; `QUEENS_KERNEL=join` or `=dfs` forces one counter where
/// it applies (for comparisons).
fn use_join(n: u32) -> bool {
    static CHOICE: std::sync::OnceLock<Option<bool>> = std::sync::OnceLock::new();
    let forced = *CHOICE.get_or_init(|| match std::env::var("QUEENS_KERNEL").as_deref() {
        Ok("join") => Some(true),
        Ok("dfs") => Some(false),
        _ => None,
    });
    join::applies(n) && forced.unwrap_or((JOIN_FROM..=JOIN_TO).contains(&n))
}

/// [`count`] by the join's units. `QUEENS_JOIN_SAMPLE=K` (K > 1, for benchmarks) counts
/// only every K-th batch of the join and writes the projected CPU time of the whole count
/// to stderr ([`join::JoinRun::projected_cpu`]; the count itself is then incomplete).
fn count_by_join(
    n: u32,
    workers: &Workers,
    options: &Options,
    deadline: &Deadline,
) -> Result<Counts, CountError> {
    let mut tally = Tally::default();
    let units_total = join::join_units(n).len() as u64;
    let memory = memory_cap(n, options);
    let budget = join::batches::table_bytes(n, memory);
    let Some(cut) = join::batches::JoinCut::new(n, budget, workers, deadline) else {
        return Ok(Counts {
            n,
            solutions: 0,
            unique: 0,
            classes_by_size: [0; 4],
            units_done: 0,
            units_total,
            complete: false,
        });
    };
    if cut.needed > budget {
        return Err(too_small(n, memory, cut.needed));
    }
    let every = std::env::var("QUEENS_JOIN_SAMPLE")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&k| k > 1)
        .unwrap_or(1);
    let run = join::batches::count_all(&cut, every, workers, options, deadline, |unit, counts| {
        tally.add_orbit(unit.orbit, counts)
    });
    if every > 1 {
        let projected = run.projected_cpu();
        eprintln!(
            "join sample for N = {n}: {} of {} batches counted in {:.1} CPU s ({:.1} filling, \
             {:.1} matching), {:.1} CPU s besides; projected {:.0} CPU s ({:.2} core-hours) \
             for the whole count",
            run.batches_counted,
            run.batches,
            run.batch_cpu(),
            run.fill_cpu,
            run.match_cpu,
            run.other_cpu,
            projected,
            projected / 3600.0
        );
    }
    Ok(Counts {
        n,
        solutions: tally.solutions,
        unique: tally.unique(),
        classes_by_size: tally.classes(),
        units_done: run.done,
        units_total: run.total,
        complete: run.done == run.total,
    })
}

/// The error for a cap of `memory` bytes that the join's finest cut of `n` passes (its largest
/// batch's tables need `needed` bytes).
fn too_small(n: u32, memory: u64, needed: u64) -> CountError {
    CountError::MemoryTooSmall {
        n,
        cap_mib: memory >> 20,
        needed_mib: (needed + join::batches::reserved_bytes(n)).div_ceil(1 << 20),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOTAL: [u128; 14] = [
        1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
    ];
    const UNIQUE: [u128; 14] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752];

    #[test]
    fn small_counts_match_oeis() {
        for n in 1..=12u32 {
            let c = count(n, &Options::with_threads(1)).unwrap();
            assert!(c.complete);
            assert_eq!(c.solutions, TOTAL[n as usize - 1], "n = {n}");
            assert_eq!(c.unique, UNIQUE[n as usize - 1], "n = {n}");
        }
    }

    #[test]
    fn split_plans_give_the_same_counts() {
        for n in [8u32, 9, 10, 11] {
            let base = count(n, &Options::with_threads(1)).unwrap();
            for split in 1..=3 {
                let units = work_units_split(n, split);
                let tally = count_units(&units, &Options::with_threads(2), |_, _| {}).unwrap();
                assert_eq!(tally.solutions, base.solutions, "n = {n}, split {split}");
                assert_eq!(tally.unique(), base.unique, "n = {n}, split {split}");
                assert_eq!(tally.classes(), base.classes_by_size);
            }
        }
    }

    #[test]
    fn malformed_units_are_refused_without_panic() {
        let good = work_units(9)[3];
        let mut bad = Vec::new();
        let mut u = good;
        u.n = 40;
        bad.push(u);
        let mut u = good;
        u.orbit = if good.orbit == 8 { 4 } else { 8 };
        bad.push(u);
        let mut u = good;
        u.constellation.top = 9;
        bad.push(u);
        let mut u = good;
        u.prefix_len = 2;
        u.prefix = [0, 0, 0, 0];
        bad.push(u);
        let mut u = good;
        u.prefix_len = 9;
        bad.push(u);
        for u in bad {
            assert_eq!(
                count_unit(&u, &Deadline::never()),
                Err(CountError::InvalidUnit(u.id))
            );
        }
        assert!(count_unit(&good, &Deadline::never()).unwrap().is_some());
    }

    #[test]
    fn constellation_classes_cover_every_consistent_constellation() {
        // Brute force over all n^4 tuples: the classes found equal the representatives listed,
        // and the orbit sizes add up to the number of consistent constellations.
        for n in 1..=9u32 {
            let mut all = 0u64;
            let mut reps = std::collections::BTreeSet::new();
            for t in 0..n as u8 {
                for b in 0..n as u8 {
                    for l in 0..n as u8 {
                        for r in 0..n as u8 {
                            let c = Constellation {
                                top: t,
                                bottom: b,
                                left: l,
                                right: r,
                            };
                            if c.is_consistent(n) {
                                all += 1;
                                reps.insert(c.canonical(n).0);
                            }
                        }
                    }
                }
            }
            let listed = constellations(n);
            let listed_set: std::collections::BTreeSet<_> = listed.iter().map(|x| x.0).collect();
            assert_eq!(listed_set, reps, "n = {n}");
            assert_eq!(
                listed.iter().map(|x| x.1 as u64).sum::<u64>(),
                all,
                "n = {n}"
            );
        }
    }

    #[test]
    fn out_of_range_sizes_are_refused() {
        assert_eq!(
            count(0, &Options::default()),
            Err(CountError::UnsupportedSize { n: 0 })
        );
        assert_eq!(
            count(33, &Options::default()),
            Err(CountError::UnsupportedSize { n: 33 })
        );
    }

    #[test]
    fn unit_ids_are_dense_and_ordered() {
        let units = work_units(10);
        let mut classes = std::collections::HashSet::new();
        for (i, u) in units.iter().enumerate() {
            assert_eq!(u.id, i as u64);
            let (canon, orbit) = u.constellation.canonical(10);
            assert_eq!(orbit, u.orbit);
            assert!(classes.insert(canon), "one unit per class");
        }
        assert_eq!(classes.len(), constellations(10).len());
        assert!(units.iter().all(WorkUnit::is_valid));
        for split in 1..=2 {
            assert!(work_units_split(10, split).iter().all(WorkUnit::is_valid));
        }
        assert_eq!(units, work_units(10));
    }
}
