//! Work plans: a count cut into independent units with stable ids, heaviest first (the choice
//! of the plan behind `count --ledger`, shards, MPI and `merge` is in [`super::select`]).

use super::checksum::checksum_words;
use super::shard::{in_shard, Shard};
use crate::count::{count_unit, default_split, Skeleton, Tally, WorkUnit, MAX_N};
use crate::schedule::Workers;
use crate::Deadline;
use std::fmt;
use thiserror::Error;

/// One independent piece of a count: its stable id (its index in the plan) and a checksum of
/// what it computes (e.g. of the pre-placed queens), so that a ledger written by another build
/// or another plan is recognised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnitSpec {
    /// Stable id: the unit's index in its plan ([`WorkPlan`]).
    pub id: u64,
    /// Checksum of the unit's definition.
    pub checksum: u64,
}

/// What one unit (or a range of units) contributes to a count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct UnitCount {
    /// Solutions found in the unit.
    pub solutions: u128,
    /// Eight times the unit's share of the solutions up to rotation and reflection. A unit may
    /// hold only part of a symmetry class (a class of 8 split over two units gives each 4/8),
    /// so shares are kept in eighths: the sum over all units is 8 times A002562.
    pub unique_x8: u128,
}

impl UnitCount {
    /// The number of solutions up to symmetry these units hold: exact for a whole plan (whose
    /// `unique_x8` is a multiple of 8), rounded down for a part of one.
    pub fn unique(&self) -> u128 {
        self.unique_x8 / 8
    }

    /// The sum of two counts, or `None` on overflow.
    pub fn checked_add(self, other: UnitCount) -> Option<UnitCount> {
        Some(UnitCount {
            solutions: self.solutions.checked_add(other.solutions)?,
            unique_x8: self.unique_x8.checked_add(other.unique_x8)?,
        })
    }
}

/// What a plan's units compute, as its ledger's header names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Job {
    /// Counting the N-queens solutions (the header has no `job` field).
    #[default]
    Count,
    /// Refuting "`queens` queens guard the full `rows x cols` board" (`"job":"guard"`).
    Guard(GuardJob),
    /// Counting the N-queens solutions by the half-board join, its units cut to fit a memory
    /// cap of `memory_mib` MiB (`"job":"count","kernel":"join","memory_mib":..`).
    JoinCount {
        /// The memory cap the units were cut for, MiB.
        memory_mib: u64,
    },
    /// Counting the completions of a board (`"job":"complete"`, the board in the header).
    Complete(CompleteJob),
}

/// A sharded completion count: the board and the depth of the cut
/// ([`crate::complete::CompletionUnits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CompleteJob {
    /// Board side.
    pub n: u32,
    /// Branching decisions above the units.
    pub depth: u32,
    /// The board, as [`crate::problem::PartialBoard::key`] writes it (interned:
    /// [`super::complete::intern_board`]).
    pub board: &'static str,
}

/// A sharded guard refutation: the board, the number of queens refuted, the rule and the depth
/// of the cut ([`crate::guard::units::RefutationUnits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GuardJob {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// The number of queens refuted.
    pub queens: u32,
    /// Whether the queens must not attack one another.
    pub independent: bool,
    /// Levels of the search below the root where the units are cut.
    pub depth: u32,
}

impl Job {
    /// The names of the two numbers its records carry.
    pub fn tallies(self) -> Tallies {
        match self {
            Job::Count | Job::JoinCount { .. } => Tallies::Count,
            Job::Guard(_) => Tallies::Guard,
            Job::Complete(_) => Tallies::Complete,
        }
    }
}

/// What the two numbers of a [`UnitCount`] (and of a ledger record) are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tallies {
    /// `solutions` and `unique_x8` of a count.
    #[default]
    Count,
    /// `covers` and `nodes` of a guard refutation: `covers` is 1 for a unit below which a cover
    /// exists (its search stops at the first) and 0 for a refuted one, `nodes` the search
    /// nodes it visited. They are kept in [`UnitCount::solutions`] and
    /// [`UnitCount::unique_x8`].
    Guard,
    /// `completions` and `nodes` of a completion count: the completions below the unit and the
    /// search nodes it visited (in [`UnitCount::solutions`] and [`UnitCount::unique_x8`]).
    Complete,
}

impl Tallies {
    /// The ledger's field names of the two numbers.
    pub fn names(self) -> [&'static str; 2] {
        match self {
            Tallies::Count => ["solutions", "unique_x8"],
            Tallies::Guard => ["covers", "nodes"],
            Tallies::Complete => ["completions", "nodes"],
        }
    }
}

/// A unit as a plan hands it out to be counted: its id and its estimated work (in a measure of
/// the plan's own, the same for all its units; 1 per unit when the plan has no estimate).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlannedUnit {
    /// The unit's id.
    pub id: u64,
    /// Its estimated work.
    pub work: f64,
}

/// The most units [`WorkPlan::for_each_batch`] hands out at once by default.
pub const BATCH_UNITS: usize = 1 << 16;

/// A deterministic work plan for counting the N-queens solutions of one board size.
///
/// Promises: the units, their ids `0..unit_count()` and their specs are the same on every
/// machine and every run for the same `n()`; `count_unit(id)` is pure, and the counts of all
/// units sum to the full count (solutions and unique). A plan need not hold its units in
/// memory: a shard's units come from [`WorkPlan::for_each_batch`] and a range's spec checksum
/// from [`WorkPlan::range_checksums`], so that a shard of a plan of 10^7 units starts at once
/// in little memory.
pub trait WorkPlan: Sync {
    /// Board size (the rows of a guard board).
    fn n(&self) -> u32;
    /// What the units compute (a count unless the plan says otherwise).
    fn job(&self) -> Job {
        Job::Count
    }
    /// Number of units; their ids are `0..unit_count()`.
    fn unit_count(&self) -> u64;
    /// The checksum of the whole plan (the ledger header's `plan`): two plans with the same
    /// checksum cut the count the same way.
    fn checksum(&self) -> u64;
    /// The spec of unit `id`, `None` outside the plan.
    fn spec(&self, id: u64) -> Option<UnitSpec>;
    /// [`range_checksum`] of the specs of units `first..=last` for each range, `None` for a
    /// range outside the plan. Quickest with the ranges in increasing order.
    fn range_checksums(&self, ranges: &[(u64, u64)]) -> Vec<Option<u64>> {
        ranges
            .iter()
            .map(|&(first, last)| {
                let specs: Option<Vec<UnitSpec>> = (first..=last).map(|id| self.spec(id)).collect();
                specs.map(|s| range_checksum(&s))
            })
            .collect()
    }
    /// Hands the units of `shard` (all units without one) to `batch`, a batch at a time, each
    /// batch heaviest first, the heaviest batches first, until `batch` returns false. Each
    /// unit comes exactly once.
    fn for_each_batch(&self, shard: Option<Shard>, batch: &mut dyn FnMut(Vec<PlannedUnit>) -> bool);
    /// The estimated work of the units of `shard` (of all without one): the sum of their
    /// [`PlannedUnit::work`].
    fn estimated_work(&self, shard: Option<Shard>) -> f64;
    /// Counts unit `id`. Pure; may take seconds to minutes.
    fn count_unit(&self, id: u64) -> UnitCount;
    /// [`WorkPlan::count_unit`], or `None` if the plan gave up on the unit because `deadline`
    /// passed (by default it never gives up: the deadline is only polled between units).
    fn count_unit_until(&self, id: u64, deadline: &Deadline) -> Option<UnitCount> {
        let _ = deadline;
        Some(self.count_unit(id))
    }
    /// Whether a unit is counted on all the workers at once (units then run one after
    /// another, each through [`WorkPlan::count_unit_on`]); by default each unit runs on one
    /// thread and the workers take units side by side.
    fn units_share_workers(&self) -> bool {
        false
    }
    /// The threads a shard process of this plan should run (`plan --estimate --cores`): by
    /// default 16 where units share the workers and 1 where each unit runs on one thread.
    fn suggested_shard_threads(&self) -> u64 {
        if self.units_share_workers() {
            16
        } else {
            1
        }
    }
    /// Counts unit `id` on `workers` (for plans whose [`WorkPlan::units_share_workers`]), or
    /// `None` if `deadline` passed first; by default [`WorkPlan::count_unit_until`] on the
    /// calling thread.
    fn count_unit_on(&self, id: u64, workers: &Workers, deadline: &Deadline) -> Option<UnitCount> {
        let _ = workers;
        self.count_unit_until(id, deadline)
    }
    /// Counts a share of unit `id` on `workers` for a projection (`plan --estimate`), its
    /// counts not kept: the share of the unit's work counted, or `None` if `deadline` passed
    /// first. By default the whole unit ([`WorkPlan::count_unit_on`]), share 1.
    fn count_share_on(&self, id: u64, workers: &Workers, deadline: &Deadline) -> Option<f64> {
        self.count_unit_on(id, workers, deadline).map(|_| 1.0)
    }
    /// The estimated peak memory of counting unit `id`, bytes (`None`: small, not estimated).
    fn unit_memory(&self, id: u64) -> Option<u64> {
        let _ = id;
        None
    }
    /// The counting kernel behind the units, in a word (`queens plan` says it).
    fn kernel(&self) -> &'static str {
        ""
    }
    /// A short human description of unit `id` (e.g. its pre-placed queens), for `queens plan`.
    fn describe_unit(&self, id: u64) -> String {
        let _ = id;
        String::new()
    }
    /// Calls `f` with the spec and description of every unit of `shard` (all without one), in
    /// id order, for `queens plan`.
    fn for_each_unit(&self, shard: Option<Shard>, f: &mut dyn FnMut(UnitSpec, String)) {
        for id in 0..self.unit_count() {
            if in_shard(shard, id) {
                if let Some(spec) = self.spec(id) {
                    f(spec, self.describe_unit(id));
                }
            }
        }
    }
}

/// Checksum of the specs of a contiguous run of units (ids and checksums, in order): the `spec`
/// field of a ledger record.
pub fn range_checksum(units: &[UnitSpec]) -> u64 {
    checksum_words(units.iter().flat_map(|u| [u.id, u.checksum]))
}

/// For plans that list their units: the checksums of the id ranges `first..=last`, `None` for
/// a range outside the plan.
pub(crate) fn listed_range_checksums(
    specs: &[UnitSpec],
    ranges: &[(u64, u64)],
) -> Vec<Option<u64>> {
    ranges
        .iter()
        .map(|&(first, last)| {
            let (first, last) = (usize::try_from(first).ok()?, usize::try_from(last).ok()?);
            (first <= last && last < specs.len()).then(|| range_checksum(&specs[first..=last]))
        })
        .collect()
}

/// For plans whose `units` all weigh 1: the shard's ids in order, in batches.
pub(crate) fn equal_work_batches(
    units: u64,
    shard: Option<Shard>,
    batch: &mut dyn FnMut(Vec<PlannedUnit>) -> bool,
) {
    let ids: Vec<PlannedUnit> = (0..units)
        .filter(|&id| in_shard(shard, id))
        .map(|id| PlannedUnit { id, work: 1.0 })
        .collect();
    for chunk in ids.chunks(BATCH_UNITS) {
        if !batch(chunk.to_vec()) {
            return;
        }
    }
}

/// For plans whose `units` all weigh 1: the shard's work.
pub(crate) fn equal_work(units: u64, shard: Option<Shard>) -> f64 {
    shard.map_or(units, |s| s.size(units)) as f64
}

/// Checksum of a whole plan ([`WorkPlan::checksum`]).
pub fn plan_checksum(plan: &dyn WorkPlan) -> u64 {
    plan.checksum()
}

/// The checksum of a plan given as a list of specs: its N, its size and every unit's spec (the
/// checksum of [`UnitsPlan`]).
pub fn list_checksum(n: u32, units: &[UnitSpec]) -> u64 {
    checksum_words(
        [u64::from(n), units.len() as u64]
            .into_iter()
            .chain(units.iter().flat_map(|u| [u.id, u.checksum])),
    )
}

/// A [`WorkPlan`] made of any list of units (heaviest first) and a function counting one: the
/// adapter that connects a counting engine to ledgers, shards and MPI.
///
/// Each unit's spec checksum is [`checksum_words`] of N followed by `key(unit)` (e.g. the
/// pre-placed queens' squares), so that a ledger written with another cut of the work is
/// refused. The plan's checksum is [`list_checksum`]; every unit's estimated work is 1.
pub struct UnitsPlan<U, F> {
    n: u32,
    units: Vec<U>,
    specs: Vec<UnitSpec>,
    count: F,
}

impl<U, F> UnitsPlan<U, F>
where
    U: fmt::Debug + Sync,
    F: Fn(&U) -> UnitCount + Sync,
{
    /// The plan for board size `n` whose unit `i` is `units[i]`, identified by `key(&units[i])`
    /// and counted by `count(&units[i])`.
    pub fn new(n: u32, units: Vec<U>, key: impl Fn(&U) -> Vec<u64>, count: F) -> Self {
        let specs = units
            .iter()
            .enumerate()
            .map(|(id, u)| UnitSpec {
                id: id as u64,
                checksum: checksum_words(std::iter::once(u64::from(n)).chain(key(u))),
            })
            .collect();
        UnitsPlan {
            n,
            units,
            specs,
            count,
        }
    }

    /// The units' specs, in id order.
    pub fn specs(&self) -> &[UnitSpec] {
        &self.specs
    }
}

impl<U, F> WorkPlan for UnitsPlan<U, F>
where
    U: fmt::Debug + Sync,
    F: Fn(&U) -> UnitCount + Sync,
{
    fn n(&self) -> u32 {
        self.n
    }

    fn unit_count(&self) -> u64 {
        self.specs.len() as u64
    }

    fn checksum(&self) -> u64 {
        list_checksum(self.n, &self.specs)
    }

    fn spec(&self, id: u64) -> Option<UnitSpec> {
        self.specs.get(usize::try_from(id).ok()?).copied()
    }

    fn range_checksums(&self, ranges: &[(u64, u64)]) -> Vec<Option<u64>> {
        listed_range_checksums(&self.specs, ranges)
    }

    fn for_each_batch(
        &self,
        shard: Option<Shard>,
        batch: &mut dyn FnMut(Vec<PlannedUnit>) -> bool,
    ) {
        equal_work_batches(self.specs.len() as u64, shard, batch);
    }

    fn estimated_work(&self, shard: Option<Shard>) -> f64 {
        equal_work(self.specs.len() as u64, shard)
    }

    fn count_unit(&self, id: u64) -> UnitCount {
        (self.count)(&self.units[id as usize])
    }

    fn describe_unit(&self, id: u64) -> String {
        format!("{:?}", self.units[id as usize])
    }
}

/// Why no plan could be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlanError {
    /// The board size is outside 1..=32.
    #[error("N = {n} is not supported: N must be from 1 to {MAX_N}")]
    UnsupportedSize {
        /// The size given.
        n: u32,
    },
    /// A guard refutation's units could not be made (the message says why).
    #[error("{0}")]
    Guard(String),
    /// The join's units could not be made (the memory cap is too small, the message says).
    #[error("{0}")]
    Join(String),
    /// A ledger names a completion count whose board this build cannot read.
    #[error("the board in the ledger's header is not one this build reads")]
    CompleteBoard,
    /// The deadline passed while the plan was being made.
    #[error("stopped while making the plan")]
    Stopped,
}

/// The plan of the fast counter: the units of [`crate::count::work_units`] in their order (ids
/// equal), each counted by [`crate::count::count_unit`]; a unit's key is its border
/// constellation, orbit and pre-placed prefix. `None` for N outside 1..=32.
///
/// Only the plan's outline ([`Skeleton`]: one entry per constellation class) is made; a
/// shard's units are made from it a batch at a time, and the plan's checksum covers the
/// outline (see [`CounterPlan`]).
pub fn counter_plan(n: u32) -> Option<Box<dyn WorkPlan>> {
    counter_plan_split(n, default_split(n)).map(|p| Box::new(p) as Box<dyn WorkPlan>)
}

/// The fast counter's plan with its constellations split by the queens of their first `split`
/// free rows (the CLI's plan is [`counter_plan`], at [`default_split`]).
pub fn counter_plan_split(n: u32, split: usize) -> Option<CounterPlan> {
    if !(1..=MAX_N).contains(&n) {
        return None;
    }
    let skeleton = Skeleton::new(n, split, &Deadline::never())?;
    Some(CounterPlan::new(skeleton))
}

/// Marks the checksums of outline-based plans, so that they never equal a list checksum.
const OUTLINE_PLAN_TAG: u64 = 0x7175_6565_6e73_0002; // "queens", version 2

/// The fast counter's plan, held as its outline: the constellation classes heaviest first,
/// each with its image, orbit, prefix depth and block of unit ids.
///
/// Its checksum is hierarchical: [`checksum_words`] of a version tag, N, the number of units,
/// the split depth, the number of groups, and for every group its image's four border queens,
/// orbit, prefix depth and number of units. A group's units follow from those words by a fixed
/// rule (every placement of its prefix rows, in increasing column order), and each record's
/// spec checksum still covers its own units (id, border queens, orbit, prefix), so a ledger of
/// another cut is refused either way.
pub struct CounterPlan {
    skeleton: Skeleton,
    checksum: u64,
}

impl CounterPlan {
    /// The plan of an outline.
    pub fn new(skeleton: Skeleton) -> Self {
        let groups = skeleton.groups();
        let head = [
            OUTLINE_PLAN_TAG,
            u64::from(skeleton.n()),
            skeleton.units(),
            skeleton.split() as u64,
            groups.len() as u64,
        ];
        let checksum = checksum_words(head.into_iter().chain(groups.iter().flat_map(|g| {
            let c = g.constellation;
            [
                u64::from(c.top),
                u64::from(c.bottom),
                u64::from(c.left),
                u64::from(c.right),
                u64::from(g.orbit),
                u64::from(g.split),
                g.units,
            ]
        })));
        CounterPlan { skeleton, checksum }
    }

    /// The outline.
    pub fn skeleton(&self) -> &Skeleton {
        &self.skeleton
    }

    fn unit_spec(&self, unit: &WorkUnit) -> UnitSpec {
        UnitSpec {
            id: unit.id,
            checksum: checksum_words(
                std::iter::once(u64::from(self.skeleton.n())).chain(counter_key(unit)),
            ),
        }
    }

    /// The members of `shard` in group `g` (index and count; the whole group without a shard).
    fn members(&self, g: usize, shard: Option<Shard>) -> u64 {
        let group = self.skeleton.groups()[g];
        match shard {
            None => group.units,
            Some(s) => {
                if !self.skeleton.group_meets(g, s.index, s.count) {
                    return 0;
                }
                let count = u128::from(s.count);
                let offset =
                    (u128::from(s.index) + count - u128::from(group.first_id) % count) % count;
                ((u128::from(group.units) - offset - 1) / count + 1) as u64
            }
        }
    }
}

impl WorkPlan for CounterPlan {
    fn n(&self) -> u32 {
        self.skeleton.n()
    }

    fn unit_count(&self) -> u64 {
        self.skeleton.units()
    }

    fn checksum(&self) -> u64 {
        self.checksum
    }

    fn spec(&self, id: u64) -> Option<UnitSpec> {
        self.skeleton.unit(id).map(|u| self.unit_spec(&u))
    }

    fn range_checksums(&self, ranges: &[(u64, u64)]) -> Vec<Option<u64>> {
        // Ranges in increasing order, each group's specs made once.
        let mut order: Vec<usize> = (0..ranges.len()).collect();
        order.sort_by_key(|&k| ranges[k]);
        let mut out = vec![None; ranges.len()];
        let mut cached: Option<(usize, Vec<UnitSpec>)> = None;
        for k in order {
            let (first, last) = ranges[k];
            if first > last || last >= self.skeleton.units() {
                continue;
            }
            let mut words = Vec::new();
            for id in first..=last {
                let g = self.skeleton.group_of(id).expect("id in the plan");
                if cached.as_ref().is_none_or(|(c, _)| *c != g) {
                    let specs = self
                        .skeleton
                        .expand(g, None)
                        .iter()
                        .map(|u| self.unit_spec(u))
                        .collect();
                    cached = Some((g, specs));
                }
                let (_, specs) = cached.as_ref().expect("just cached");
                let spec = specs[(id - self.skeleton.groups()[g].first_id) as usize];
                words.extend([spec.id, spec.checksum]);
            }
            out[k] = Some(checksum_words(words));
        }
        out
    }

    fn for_each_batch(
        &self,
        shard: Option<Shard>,
        batch: &mut dyn FnMut(Vec<PlannedUnit>) -> bool,
    ) {
        let filter = shard.map(|s| (s.index, s.count));
        let mut current: Vec<PlannedUnit> = Vec::new();
        let flush = |current: &mut Vec<PlannedUnit>,
                     batch: &mut dyn FnMut(Vec<PlannedUnit>) -> bool| {
            current.sort_by(|a, b| b.work.total_cmp(&a.work).then(a.id.cmp(&b.id)));
            batch(std::mem::take(current))
        };
        for g in 0..self.skeleton.groups().len() {
            if self.members(g, shard) == 0 {
                continue;
            }
            current.extend(
                self.skeleton
                    .weighted_units(g, filter)
                    .into_iter()
                    .map(|(work, u)| PlannedUnit { id: u.id, work }),
            );
            if current.len() >= BATCH_UNITS && !flush(&mut current, batch) {
                return;
            }
        }
        if !current.is_empty() {
            flush(&mut current, batch);
        }
    }

    fn estimated_work(&self, shard: Option<Shard>) -> f64 {
        self.skeleton
            .groups()
            .iter()
            .enumerate()
            .map(|(g, group)| {
                group.weight as f64 * self.members(g, shard) as f64 / group.units.max(1) as f64
            })
            .sum()
    }

    fn count_unit(&self, id: u64) -> UnitCount {
        let unit = self.skeleton.unit(id).expect("a unit of the plan");
        counter_count(&unit, &Deadline::never()).expect("no deadline")
    }

    fn count_unit_until(&self, id: u64, deadline: &Deadline) -> Option<UnitCount> {
        let unit = self.skeleton.unit(id).expect("a unit of the plan");
        counter_count(&unit, deadline)
    }

    fn describe_unit(&self, id: u64) -> String {
        self.skeleton
            .unit(id)
            .map(|u| format!("{:?}", CounterUnit(u)))
            .unwrap_or_default()
    }

    fn for_each_unit(&self, shard: Option<Shard>, f: &mut dyn FnMut(UnitSpec, String)) {
        let filter = shard.map(|s| (s.index, s.count));
        for g in 0..self.skeleton.groups().len() {
            if self.members(g, shard) == 0 {
                continue;
            }
            for u in self.skeleton.expand(g, filter) {
                f(self.unit_spec(&u), format!("{:?}", CounterUnit(u)));
            }
        }
    }
}

/// The identifying words of a counter unit: border queens, orbit, prefix length and prefix.
fn counter_key(u: &WorkUnit) -> Vec<u64> {
    let c = u.constellation;
    let mut words = vec![
        u64::from(c.top),
        u64::from(c.bottom),
        u64::from(c.left),
        u64::from(c.right),
        u64::from(u.orbit),
        u64::from(u.prefix_len),
    ];
    words.extend(
        u.prefix[..u.prefix_len as usize]
            .iter()
            .map(|&p| u64::from(p)),
    );
    words
}

/// A counter unit's contribution: its solutions with their images, and its shares of classes.
/// `None` if `deadline` passed first.
fn counter_count(u: &WorkUnit, deadline: &Deadline) -> Option<UnitCount> {
    let found = count_unit(u, deadline).expect("every unit of a plan is valid")?;
    let mut tally = Tally::default();
    tally.add(u, &found);
    Some(UnitCount {
        solutions: tally.solutions,
        unique_x8: tally.classes_times_8.iter().sum(),
    })
}

/// A unit of the fast counter, described for people in `queens plan`.
struct CounterUnit(WorkUnit);

impl fmt::Debug for CounterUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let u = &self.0;
        let c = u.constellation;
        write!(
            f,
            "border queens: row 0 col {}, row {} col {}, col 0 row {}, col {} row {}; orbit {}",
            c.top,
            u.n - 1,
            c.bottom,
            c.left,
            u.n - 1,
            c.right,
            u.orbit
        )?;
        if u.prefix_len > 0 {
            let cols: Vec<String> = u.prefix[..u.prefix_len as usize]
                .iter()
                .map(|c| c.to_string())
                .collect();
            write!(f, "; next rows' columns {}", cols.join(","))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::work_units_split;
    use crate::scale::plan_for;

    #[test]
    fn the_counter_plan_sums_to_the_count() {
        for n in 1..=10 {
            let plan = plan_for(n).unwrap();
            let total = (0..plan.unit_count())
                .map(|i| plan.count_unit(i))
                .fold(UnitCount::default(), |a, b| a.checked_add(b).unwrap());
            let counts = crate::count::count(n, &crate::Options::with_threads(1)).unwrap();
            assert_eq!(total.solutions, counts.solutions, "N = {n}");
            assert_eq!(total.unique_x8, 8 * counts.unique, "N = {n}");
        }
        assert_eq!(plan_for(0).err(), Some(PlanError::UnsupportedSize { n: 0 }));
        assert!(plan_for(33).is_err());
    }

    #[test]
    fn plan_checksums_tell_plans_apart() {
        let a = plan_for(9).unwrap();
        let b = plan_for(10).unwrap();
        assert_ne!(plan_checksum(a.as_ref()), plan_checksum(b.as_ref()));
        assert_eq!(
            plan_checksum(a.as_ref()),
            plan_checksum(plan_for(9).unwrap().as_ref())
        );
        let specs = [a.spec(0).unwrap(), a.spec(1).unwrap()];
        assert_ne!(range_checksum(&specs[0..1]), range_checksum(&specs[1..2]));
        let split = counter_plan_split(9, 1).unwrap();
        assert_ne!(split.checksum(), a.checksum());
    }

    /// The outline-based plan agrees with its units made in full: ids, specs, range
    /// checksums, shards (every unit once, in batches heaviest first) and estimated work.
    #[test]
    fn the_outline_gives_every_unit_and_shard() {
        for n in [1u32, 4, 7, 9, 11] {
            for split in 0..=2 {
                let plan = counter_plan_split(n, split).unwrap();
                let units = work_units_split(n, split);
                assert_eq!(plan.unit_count(), units.len() as u64);
                let specs: Vec<UnitSpec> = units.iter().map(|u| plan.unit_spec(u)).collect();
                for (i, u) in units.iter().enumerate() {
                    assert_eq!(u.id, i as u64);
                    assert_eq!(plan.spec(i as u64), Some(specs[i]));
                }
                assert_eq!(plan.spec(units.len() as u64), None);
                let len = units.len() as u64;
                let ranges: Vec<(u64, u64)> = (0..len)
                    .flat_map(|a| [(a, a), (a, (a + 3).min(len - 1)), (0, a)])
                    .chain([(0, len), (len, len)])
                    .rev()
                    .collect();
                let got = plan.range_checksums(&ranges);
                for (&(a, b), got) in ranges.iter().zip(got) {
                    let want = (b < len).then(|| range_checksum(&specs[a as usize..=b as usize]));
                    assert_eq!(got, want, "N = {n}, split {split}, {a}..={b}");
                }
                let whole = plan.estimated_work(None);
                for k in [1u64, 2, 3, 7, 64] {
                    let mut seen = vec![0u32; units.len()];
                    let mut work = 0.0;
                    for index in 0..k {
                        let shard = Shard { index, count: k };
                        let mut shard_work = 0.0;
                        plan.for_each_batch(Some(shard), &mut |batch| {
                            assert!(batch.windows(2).all(|w| w[0].work >= w[1].work));
                            for u in batch {
                                assert!(shard.contains(u.id));
                                seen[u.id as usize] += 1;
                                shard_work += u.work;
                            }
                            true
                        });
                        let expected = plan.estimated_work(Some(shard));
                        assert!((shard_work - expected).abs() <= 1e-6 * expected.max(1.0));
                        work += shard_work;
                    }
                    assert!(
                        seen.iter().all(|&s| s == 1),
                        "N = {n}, split {split}, K = {k}"
                    );
                    assert!((work - whole).abs() <= 1e-6 * whole.max(1.0));
                }
            }
        }
    }
}
