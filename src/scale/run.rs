//! Running a plan (or one shard of it) into a ledger: skip what the ledger holds, count the rest
//! with the crate's scheduler ([`crate::schedule`]), append each batch of finished units, then
//! re-read and check the ledger.

use super::ledger::{finished_units, open_ledger, read_contents, LedgerError};
use super::merge::{merge, MergeReport};
use super::plan::{PlannedUnit, UnitCount, WorkPlan};
use super::shard::{in_shard, Shard};
use crate::options::WorkProgress;
use crate::schedule::{Finished, Workers};
use crate::{Deadline, Options};
use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

/// What a ledger run did and what the ledger now holds.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// The check of the ledger after the run, restricted to the shard: its `total` is the count
    /// of the shard (of the whole board without a shard) when `is_complete()`.
    pub merged: MergeReport,
    /// Units of the shard that the ledger already held before this run.
    pub done_before: u64,
    /// Units counted by this run.
    pub counted_now: u64,
    /// Whether the run stopped early (time limit or cancel) with units left to count.
    pub stopped: bool,
    /// Notes for the user: a torn last line removed, unusable lines ignored.
    pub notes: Vec<String>,
}

/// Re-reads the ledger at `path` and checks it against `plan` (restricted to `shard`).
pub fn check_ledger(
    plan: &dyn WorkPlan,
    path: &Path,
    shard: Option<Shard>,
) -> Result<MergeReport, LedgerError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| LedgerError::Io {
        path: name.clone(),
        source,
    })?;
    Ok(merge(plan, shard, &[(name, read_contents(&bytes))]))
}

/// The units still to count: the ids of the plan's units in `shard` that `done` does not hold,
/// heaviest first batch by batch ([`WorkPlan::for_each_batch`]); and how many units the shard
/// has in all. (For the MPI coordinator, which hands out ids; a local run streams the batches.)
pub fn units_to_count(
    plan: &dyn WorkPlan,
    shard: Option<Shard>,
    done: &HashSet<u64>,
) -> (Vec<u64>, u64) {
    let mut todo = Vec::new();
    plan.for_each_batch(shard, &mut |batch| {
        todo.extend(
            batch
                .into_iter()
                .map(|u| u.id)
                .filter(|id| !done.contains(id)),
        );
        true
    });
    (todo, shard_size(plan, shard))
}

/// The number of units of `shard` (of the plan without one).
pub fn shard_size(plan: &dyn WorkPlan, shard: Option<Shard>) -> u64 {
    let units = plan.unit_count();
    shard.map_or(units, |s| s.size(units))
}

/// `options` whose progress reports count `before` more units done and in all: for a schedule
/// of the units left when `before` were done earlier.
pub fn progress_after(options: &Options, before: u64) -> Options {
    let mut options = options.clone();
    if let Some(report) = options.progress.take() {
        options.progress = Some(Arc::new(move |done, total| {
            report(before + done, before + total)
        }));
    }
    options
}

/// `options` whose unit progress reports say `before + done` of `total`: for one batch of a
/// run when `before` units of `total` were done before it.
fn progress_within(options: &Options, before: u64, total: u64) -> Options {
    let mut options = options.clone();
    if let Some(report) = options.progress.take() {
        options.progress = Some(Arc::new(move |done, _| report(before + done, total)));
    }
    options
}

/// Counts `units` of `plan` (heaviest first; `id` gives a unit's id) on `workers` until the
/// deadline passes: side by side, each on one worker ([`Workers::run`]), or, for a plan whose
/// units share the workers ([`WorkPlan::units_share_workers`]), one after another on all of
/// them. A unit that the deadline interrupts is given up (not handed on). `on_done` hears the
/// finished units as `(position in units, count)`, a few at a time, on the calling thread; the
/// progress callback of `options` then hears `(done, total)`.
pub fn count_planned<T: Sync, E>(
    plan: &dyn WorkPlan,
    units: &[T],
    id: impl Fn(&T) -> u64 + Sync,
    workers: &Workers,
    options: &Options,
    deadline: &Deadline,
    mut on_done: impl FnMut(Vec<(usize, UnitCount)>) -> Result<(), E>,
) -> Result<Finished, E> {
    if !plan.units_share_workers() {
        return workers.run(
            units,
            options,
            deadline,
            |u, d| plan.count_unit_until(id(u), d),
            on_done,
        );
    }
    let total = units.len() as u64;
    let mut done = 0;
    for (k, u) in units.iter().enumerate() {
        if deadline.reached() {
            break;
        }
        let Some(count) = plan.count_unit_on(id(u), workers, deadline) else {
            break;
        };
        on_done(vec![(k, count)])?;
        done += 1;
        options.report(done, total);
    }
    Ok(Finished { done, total })
}

/// Counts the units of `plan` (of `shard` only, if given) that the ledger at `path` does not
/// hold yet, appending one record per finished unit, then re-reads and checks the ledger.
///
/// The shard's units come from the plan a batch at a time ([`WorkPlan::for_each_batch`]), so a
/// shard of a huge plan starts at once and holds only one batch. Units run `options.threads`
/// at a time (0: one per core), heaviest first, each on one thread, or one at a time on all
/// threads where the plan's units share them ([`count_planned`]); finished units are written
/// in batches with one write and one `fsync` each, so a kill at any moment loses at most the
/// units in flight. The deadline in `options` (time limit, cancel) stops the units in flight
/// too (the counters poll it inside a unit): they are given up, not recorded, and the report
/// says `stopped`. Progress
/// reports count the shard's units, those done earlier included; the work reports
/// ([`Options::report_work`]) carry the plan's work estimates, those of units done earlier
/// counted as they are met. Returns [`LedgerError::Inconsistent`] if the ledger does not check
/// out afterwards (e.g. it held conflicting records before the run).
pub fn run(
    plan: &dyn WorkPlan,
    path: &Path,
    shard: Option<Shard>,
    options: &Options,
) -> Result<RunReport, LedgerError> {
    let (mut writer, contents, notes) = open_ledger(plan, path)?;
    let done = finished_units(plan, &contents);
    drop(contents);
    let total = shard_size(plan, shard);
    let done_before = done.iter().filter(|&&id| in_shard(shard, id)).count() as u64;
    let mut progress = WorkProgress {
        done: done_before,
        total,
        done_work: 0.0,
        total_work: plan.estimated_work(shard),
    };
    let deadline = options.deadline();
    let workers = Workers::new(options.threads);
    let mut counted_now = 0;
    let mut failed = None;
    plan.for_each_batch(shard, &mut |batch| {
        let (old, todo): (Vec<PlannedUnit>, Vec<PlannedUnit>) =
            batch.into_iter().partition(|u| done.contains(&u.id));
        progress.done_work += old.iter().map(|u| u.work).sum::<f64>();
        if todo.is_empty() {
            return true;
        }
        options.report_work(progress);
        let batch_options = progress_within(options, progress.done, total);
        let finished = count_planned(
            plan,
            &todo,
            |u| u.id,
            &workers,
            &batch_options,
            &deadline,
            |results| {
                let work: f64 = results.iter().map(|&(k, _)| todo[k].work).sum();
                let results: Vec<(u64, UnitCount)> =
                    results.into_iter().map(|(k, c)| (todo[k].id, c)).collect();
                writer.append_units(plan, &results)?;
                progress.done += results.len() as u64;
                progress.done_work += work;
                options.report_work(progress);
                Ok(())
            },
        );
        match finished {
            Ok(f) => {
                counted_now += f.done;
                !f.stopped()
            }
            Err(e) => {
                failed = Some(e);
                false
            }
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    let merged = check_ledger(plan, path, shard)?;
    if !merged.problems.is_empty() {
        return Err(LedgerError::Inconsistent(merged.problems));
    }
    let stopped = !merged.missing.is_empty();
    Ok(RunReport {
        merged,
        done_before,
        counted_now,
        stopped,
        notes,
    })
}
