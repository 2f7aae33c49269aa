//! Running a plan (or one shard of it) into a ledger: skip what the ledger holds, count the rest
//! with the crate's scheduler ([`crate::schedule`]), append each batch of finished units, then
//! re-read and check the ledger.

use super::ledger::{finished_units, open_ledger, read_contents, LedgerError};
use super::merge::{merge, MergeReport};
use super::plan::WorkPlan;
use super::shard::{in_shard, Shard};
use crate::schedule::run_units;
use crate::Options;
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

/// The units still to count: indices of the plan's units in `shard` that `done` does not hold,
/// heaviest first; and how many units the shard has in all.
pub fn units_to_count(
    plan: &dyn WorkPlan,
    shard: Option<Shard>,
    done: &[bool],
) -> (Vec<usize>, u64) {
    let units = plan.units().len();
    let todo = (0..units)
        .filter(|&i| in_shard(shard, i as u64) && !done[i])
        .collect();
    let size = shard.map_or(units as u64, |s| s.size(units as u64));
    (todo, size)
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

/// Counts the units of `plan` (of `shard` only, if given) that the ledger at `path` does not
/// hold yet, appending one record per finished unit, then re-reads and checks the ledger.
///
/// Units run `options.threads` at a time (0: one per core), heaviest first, each on one thread;
/// finished units are written in batches with one write and one `fsync` each, so a kill at any
/// moment loses at most the units in flight. The deadline in `options` (time limit, cancel) is
/// polled between units: units already started are finished and recorded, and the report says
/// `stopped`. Progress reports count the shard's units, those done earlier included. Returns
/// [`LedgerError::Inconsistent`] if the ledger does not check out afterwards (e.g. it held
/// conflicting records before the run).
pub fn run(
    plan: &dyn WorkPlan,
    path: &Path,
    shard: Option<Shard>,
    options: &Options,
) -> Result<RunReport, LedgerError> {
    let (mut writer, contents, notes) = open_ledger(plan, path)?;
    let (todo, shard_size) = units_to_count(plan, shard, &finished_units(plan, &contents));
    let done_before = shard_size - todo.len() as u64;
    let options = progress_after(options, done_before);
    let finished = run_units(
        &todo,
        &options,
        |&index, _| Some(plan.count_unit(index)),
        |batch| {
            let batch: Vec<_> = batch.into_iter().map(|(k, c)| (todo[k], c)).collect();
            writer.append_units(plan, &batch)
        },
    )?;
    let merged = check_ledger(plan, path, shard)?;
    if !merged.problems.is_empty() {
        return Err(LedgerError::Inconsistent(merged.problems));
    }
    let stopped = !merged.missing.is_empty();
    Ok(RunReport {
        merged,
        done_before,
        counted_now: finished.done,
        stopped,
        notes,
    })
}
