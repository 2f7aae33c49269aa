//! Checking ledgers against a plan and totalling them, one check at a time: each file's header
//! and damaged lines ([`check_file`]), each record against the plan ([`check_record`]), the
//! units covered once or by agreeing duplicates ([`Coverage`]), and the total with its residue
//! sums ([`Totals`]). [`merge`] runs them in that order.

use super::checksum::hex;
use super::guard::GuardPlan;
use super::ledger::{read_contents, LineError};
use super::ledger::{residues, Header, LedgerContents, LedgerProblem, Record};
use super::plan::{CompleteJob, GuardJob, Job, PlanError, Tallies, UnitCount, WorkPlan};
use super::select::plan_for_job;
use super::shard::Shard;
use crate::board::Square;
use crate::guard::GuardError;
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use thiserror::Error;

/// The outcome of checking ledgers against a plan.
#[derive(Clone, Debug)]
pub struct MergeReport {
    /// Board size.
    pub n: u32,
    /// Units in the plan.
    pub plan_units: u64,
    /// The shard checked (`None`: the whole plan).
    pub shard: Option<Shard>,
    /// Units of the shard (or plan) that the checked records cover.
    pub units_present: u64,
    /// Units of the shard (or plan) expected.
    pub units_expected: u64,
    /// Records that repeat an earlier record with equal results.
    pub agreeing_duplicates: u64,
    /// Unit id ranges (inclusive) of the shard or plan that no usable record covers.
    pub missing: Vec<(u64, u64)>,
    /// Inconsistencies, each at a file and line.
    pub problems: Vec<LedgerProblem>,
    /// Torn last lines that were ignored (their units count as missing), as file and line.
    pub torn: Vec<(String, usize)>,
    /// Complete record lines that could not be used (changed, corrupted, malformed), ignored:
    /// the units they held count only if another record covers them.
    pub ignored: Vec<LedgerProblem>,
    /// The sum over the covered units.
    pub total: UnitCount,
    /// The smallest first id of a summed record whose first number is not 0: for a guard
    /// refutation, the first unit below which a cover was found.
    pub first_hit: Option<u64>,
}

impl MergeReport {
    /// Whether every expected unit is present and nothing is inconsistent: `total` is then the
    /// exact count of the shard (or of the whole board).
    pub fn is_complete(&self) -> bool {
        self.missing.is_empty() && self.problems.is_empty()
    }

    /// For a guard refutation: the first unit whose record found a cover, when the records
    /// are consistent (a cover counts even when units are missing).
    pub fn cover_unit(&self) -> Option<u64> {
        self.first_hit.filter(|_| self.problems.is_empty())
    }
}

/// Checks ledgers (file name, decoded contents) against `plan` and totals them. With a shard,
/// only that shard's units are expected (records of other units are checked but not summed).
///
/// Checks: every file has a header equal to the plan's; record lines that are not intact are
/// listed in `ignored` (a torn last line in `torn`) and not used; each record's range lies in
/// the plan, its spec checksum matches the plan's units, its residues match its counts; a unit
/// covered twice is covered by records with the same range and equal counts; every expected
/// unit is covered; the total does not overflow and agrees with the sums of the residues.
pub fn merge(
    plan: &dyn WorkPlan,
    shard: Option<Shard>,
    files: &[(String, LedgerContents)],
) -> MergeReport {
    let plan_units = plan.unit_count();
    let expected_header = Header::for_plan(plan);
    let mut problems = Vec::new();
    let mut torn = Vec::new();
    let mut ignored = Vec::new();
    let at = |file: usize, line: usize, message: String| LedgerProblem {
        file: files[file].0.clone(),
        line,
        message,
    };
    // The records of usable files, in reading order.
    let mut owners = Vec::new();
    for (file, (name, contents)) in files.iter().enumerate() {
        let checked = check_file(contents, &expected_header);
        torn.extend(checked.torn.map(|line| (name.clone(), line)));
        problems.extend(checked.problems.into_iter().map(|(l, m)| at(file, l, m)));
        ignored.extend(checked.ignored.into_iter().map(|(l, m)| at(file, l, m)));
        if checked.usable {
            owners.extend(contents.records.iter().map(|&(line, record)| Owner {
                file,
                line,
                record,
            }));
        }
    }
    // The plan's spec checksums of all their ranges at once (the plan makes each part of
    // itself once, in id order).
    let ranges: Vec<(u64, u64)> = owners
        .iter()
        .map(|o| (o.record.first, o.record.last.min(plan_units)))
        .collect();
    let specs = plan.range_checksums(&ranges);
    let mut coverage = Coverage::new();
    let tallies = plan.job().tallies();
    for (owner, spec) in owners.into_iter().zip(specs) {
        let outcome = check_tallies(&owner.record, tallies)
            .and_then(|()| check_record(plan_units, &owner.record, spec))
            .and_then(|()| coverage.add(files, owner));
        if let Err(e) = outcome {
            problems.push(at(owner.file, owner.line, e.to_string()));
        }
    }
    let totals = Totals::over(&coverage, shard, files, plan_units);
    problems.extend(totals.problems.iter().cloned());
    problems.extend(totals.check(shard, tallies));
    MergeReport {
        n: plan.n(),
        plan_units,
        shard,
        units_present: totals.present,
        units_expected: shard.map_or(plan_units, |s| s.size(plan_units)),
        agreeing_duplicates: coverage.agreeing_duplicates,
        missing: totals.missing,
        problems,
        torn,
        ignored,
        total: totals.total,
        first_hit: totals.first_hit,
    }
}

/// What a set of ledgers holds, checked against the plan their first header names and
/// totalled ([`merge_ledgers`]).
#[derive(Clone, Debug)]
pub enum MergedLedgers {
    /// A count (by either kernel).
    Count(MergeReport),
    /// A guard refutation on a full board.
    Guard {
        /// The merge.
        report: MergeReport,
        /// The refutation: board, queens, rule, depth.
        job: GuardJob,
        /// The cover below [`MergeReport::cover_unit`], searched again, if a unit holds one.
        cover: Option<Vec<Square>>,
    },
    /// A completion count of the board in the header.
    Complete {
        /// The merge.
        report: MergeReport,
        /// The count: side, depth, board.
        job: CompleteJob,
    },
}

impl MergedLedgers {
    /// The merge, whatever the job.
    pub fn report(&self) -> &MergeReport {
        match self {
            MergedLedgers::Count(report)
            | MergedLedgers::Guard { report, .. }
            | MergedLedgers::Complete { report, .. } => report,
        }
    }

    /// Whether the ledgers answer their job: a count complete and consistent; a guard
    /// refutation refuted in every unit, or a cover found.
    pub fn is_answered(&self) -> bool {
        match self {
            MergedLedgers::Count(report) | MergedLedgers::Complete { report, .. } => {
                report.is_complete()
            }
            MergedLedgers::Guard { report, .. } => {
                report.is_complete() || report.cover_unit().is_some()
            }
        }
    }
}

/// Why ledgers could not be merged at all.
#[derive(Debug, Error)]
pub enum MergeError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file's name as given.
        path: String,
        /// The system error.
        source: std::io::Error,
    },
    /// No ledger was given.
    #[error("no ledger to merge")]
    NoFiles,
    /// No file starts with a ledger header, so the job is unknown.
    #[error(
        "no ledger header in any file ({file}:1: {})",
        .reason.as_ref().map_or("empty or unfinished header".to_string(), LineError::to_string)
    )]
    NoHeader {
        /// The first file's name.
        file: String,
        /// Why its first line is not a header, if it is a broken line.
        reason: Option<LineError>,
    },
    /// The header names a count that this build cannot plan.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// The header names a guard refutation that this build cannot plan.
    #[error(transparent)]
    Guard(#[from] GuardError),
}

/// Reads ledger files and [`merge_ledgers`] them (each named as its path is written).
pub fn merge_ledger_files(paths: &[PathBuf]) -> Result<MergedLedgers, MergeError> {
    let mut files = Vec::new();
    for path in paths {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| MergeError::Read {
            path: name.clone(),
            source,
        })?;
        files.push((name, read_contents(&bytes)));
    }
    merge_ledgers(&files)
}

/// Checks ledgers (file name, decoded contents) against the plan of the job that the first
/// file with a header names, and totals them ([`merge`]); for a guard refutation whose units
/// hold a cover, the cover too.
pub fn merge_ledgers(files: &[(String, LedgerContents)]) -> Result<MergedLedgers, MergeError> {
    let (first_name, first) = files.first().ok_or(MergeError::NoFiles)?;
    let (n, job) = files
        .iter()
        .find_map(|(_, c)| c.header.map(|(_, h)| (h.n, h.job)))
        .ok_or_else(|| MergeError::NoHeader {
            file: first_name.clone(),
            reason: first.bad_lines.first().map(|b| b.reason.clone()),
        })?;
    if let Job::Guard(g) = job {
        let plan = GuardPlan::full(g)?;
        let report = merge(&plan, None, files);
        let cover = report.cover_unit().and_then(|id| plan.witness(id));
        return Ok(MergedLedgers::Guard {
            report,
            job: g,
            cover,
        });
    }
    let plan = plan_for_job(n, job, &crate::Options::default())?;
    let report = merge(plan.as_ref(), None, files);
    Ok(match job {
        Job::Complete(job) => MergedLedgers::Complete { report, job },
        _ => MergedLedgers::Count(report),
    })
}

/// What [`check_file`] found in one file: problems and ignored lines as (line, message).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileCheck {
    /// Whether its records may be used (it has the plan's header).
    pub usable: bool,
    /// Inconsistencies: a broken or foreign header, no header at all.
    pub problems: Vec<(usize, String)>,
    /// Damaged record lines, not used.
    pub ignored: Vec<(usize, String)>,
    /// The line number of an unfinished last line.
    pub torn: Option<usize>,
}

/// Checks one file's header against the plan's and sorts its damaged lines: a broken header
/// makes the whole file unusable (a problem); a broken record is only ignored (its units must
/// then be covered by another record, or they are missing).
pub fn check_file(contents: &LedgerContents, expected: &Header) -> FileCheck {
    let mut out = FileCheck {
        torn: contents.torn_line,
        ..FileCheck::default()
    };
    for bad in &contents.bad_lines {
        let entry = (bad.line, bad.reason.to_string());
        if bad.line == 1 {
            out.problems.push(entry);
        } else {
            out.ignored.push(entry);
        }
    }
    match contents.header {
        None => {
            if !contents.bad_lines.iter().any(|b| b.line == 1) {
                out.problems
                    .push((0, "no ledger header (empty file?)".to_string()));
            }
        }
        Some((line, h)) if h != *expected => {
            out.problems.push((line, h.mismatch(expected).to_string()))
        }
        Some(_) => out.usable = true,
    }
    out
}

/// Checks one intact record against a plan of `plan_units` units whose spec checksum for the
/// record's range is `plan_spec` ([`WorkPlan::range_checksums`]): its range lies in the plan, its
/// spec checksum is the plan's for that range, and its residues agree with its counts.
pub fn check_record(
    plan_units: u64,
    rec: &Record,
    plan_spec: Option<u64>,
) -> Result<(), RecordError> {
    let units = UnitRange {
        first: rec.first,
        last: rec.last,
    };
    let spec = match plan_spec {
        Some(spec) if rec.last < plan_units => spec,
        _ => return Err(RecordError::OutsidePlan { units, plan_units }),
    };
    if spec != rec.spec {
        return Err(RecordError::Spec {
            units,
            written: rec.spec,
            plan: spec,
        });
    }
    if !rec.residues_agree() {
        return Err(RecordError::Residues { record: *rec });
    }
    Ok(())
}

/// Checks that a record's numbers are named as the plan's job names them (a count's
/// `solutions` in a guard ledger is an inconsistency).
fn check_tallies(rec: &Record, tallies: Tallies) -> Result<(), RecordError> {
    if rec.tallies == tallies {
        return Ok(());
    }
    Err(RecordError::Tallies {
        units: UnitRange {
            first: rec.first,
            last: rec.last,
        },
        found: rec.tallies,
        wanted: tallies,
    })
}

/// An inclusive range of unit ids, written `unit 5` or `units 5-9`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitRange {
    /// The first id.
    pub first: u64,
    /// The last id (inclusive).
    pub last: u64,
}

fn units_of(record: &Record) -> UnitRange {
    UnitRange {
        first: record.first,
        last: record.last,
    }
}

impl fmt::Display for UnitRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "unit {}", self.first)
        } else {
            write!(f, "units {}-{}", self.first, self.last)
        }
    }
}

/// Why a record of a ledger cannot be used for the plan ([`check_record`], [`Coverage::add`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordError {
    /// Its range reaches past the plan's last unit.
    #[error(
        "units {}-{} lie outside the plan (ids 0-{})",
        .units.first, .units.last, .plan_units.saturating_sub(1)
    )]
    OutsidePlan {
        /// The record's range.
        units: UnitRange,
        /// The plan's number of units.
        plan_units: u64,
    },
    /// Its spec checksum is not the plan's for its range.
    #[error("{units}: spec checksum {} differs from the plan's {}", hex(*.written), hex(*.plan))]
    Spec {
        /// The record's range.
        units: UnitRange,
        /// The checksum written.
        written: u64,
        /// The plan's.
        plan: u64,
    },
    /// Its residues are not those of its numbers.
    #[error(
        "{}: residues mod 13 {:?} / mod 15 {:?} disagree with {} {} and {} {}",
        units_of(.record),
        .record.mod13, .record.mod15,
        .record.tallies.names()[0], .record.count.solutions,
        .record.tallies.names()[1], .record.count.unique_x8
    )]
    Residues {
        /// The record.
        record: Record,
    },
    /// Its numbers are another job's (a count's in a guard ledger, or the reverse).
    #[error(
        "{units}: a record of {} and {} in a ledger whose records carry {} and {}",
        .found.names()[0], .found.names()[1], .wanted.names()[0], .wanted.names()[1]
    )]
    Tallies {
        /// The record's range.
        units: UnitRange,
        /// What the record's numbers are.
        found: Tallies,
        /// What the plan's job counts.
        wanted: Tallies,
    },
    /// Its range overlaps an earlier record's without being the same range.
    #[error("{units} overlap {earlier} at {at} with a different id range")]
    Overlap {
        /// The record's range.
        units: UnitRange,
        /// The earlier record's range.
        earlier: UnitRange,
        /// Where the earlier record is: `file:line`.
        at: String,
    },
    /// The same range as an earlier record, with other numbers.
    #[error(
        "{units}: {a} {}, {b} {} conflict with {a} {}, {b} {} at {at}",
        .count.solutions, .count.unique_x8, .earlier.solutions, .earlier.unique_x8,
        a = .tallies.names()[0], b = .tallies.names()[1]
    )]
    Conflict {
        /// The record's range.
        units: UnitRange,
        /// What its numbers are.
        tallies: Tallies,
        /// Its numbers.
        count: UnitCount,
        /// The earlier record's numbers.
        earlier: UnitCount,
        /// Where the earlier record is: `file:line`.
        at: String,
    },
}

/// A record and where it was read: file index and line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Owner {
    /// Index of the file in the list given to [`merge`].
    pub file: usize,
    /// 1-based line in that file.
    pub line: usize,
    /// The record.
    pub record: Record,
}

/// Which record covers each unit of the plan (the first one read), and how many later records
/// repeated one with equal results. Its size follows the records, not the plan.
#[derive(Clone, Debug, Default)]
pub struct Coverage {
    /// The accepted records by their first id; their ranges are disjoint.
    owners: BTreeMap<u64, Owner>,
    /// Records that repeat an earlier record with equal results.
    pub agreeing_duplicates: u64,
}

impl Coverage {
    /// Nothing covered yet.
    pub fn new() -> Self {
        Coverage::default()
    }

    /// The accepted record covering the smallest id of `first..=last`, if any.
    fn clash(&self, first: u64, last: u64) -> Option<Owner> {
        if let Some((_, o)) = self.owners.range(..=first).next_back() {
            if o.record.last >= first {
                return Some(*o);
            }
        }
        if first >= last {
            return None;
        }
        self.owners.range(first + 1..=last).next().map(|(_, o)| *o)
    }

    /// Adds a checked record (its range lies in the plan). A unit covered before must be
    /// covered by a record of the same range with equal counts (an agreeing duplicate); anything
    /// else is an error naming the earlier record (`files` gives its file's name).
    pub fn add(
        &mut self,
        files: &[(String, LedgerContents)],
        new: Owner,
    ) -> Result<(), RecordError> {
        let rec = new.record;
        let Some(old) = self.clash(rec.first, rec.last) else {
            self.owners.insert(rec.first, new);
            return Ok(());
        };
        let orec = old.record;
        let at = format!("{}:{}", files[old.file].0, old.line);
        let units = UnitRange {
            first: rec.first,
            last: rec.last,
        };
        if orec.first != rec.first || orec.last != rec.last {
            Err(RecordError::Overlap {
                units,
                earlier: UnitRange {
                    first: orec.first,
                    last: orec.last,
                },
                at,
            })
        } else if orec.count != rec.count {
            Err(RecordError::Conflict {
                units,
                tallies: rec.tallies,
                count: rec.count,
                earlier: orec.count,
                at,
            })
        } else {
            self.agreeing_duplicates += 1;
            Ok(())
        }
    }
}

/// How many ids of `first..=last` belong to `shard` (all of them without one).
fn in_shard_count(shard: Option<Shard>, first: u64, last: u64) -> u64 {
    match shard {
        None => last - first + 1,
        Some(s) => {
            // Ids below x in the shard: ceil((x - index) / count) for x > index.
            let below = |x: u64| {
                if x <= s.index {
                    0
                } else {
                    (x - s.index).div_ceil(s.count)
                }
            };
            below(last + 1) - below(first)
        }
    }
}

/// Appends to `out` the id ranges of `first..end` that belong to `shard`.
fn push_missing(out: &mut Vec<(u64, u64)>, shard: Option<Shard>, first: u64, end: u64) {
    if first >= end {
        return;
    }
    match shard {
        None | Some(Shard { count: 1, .. }) => out.push((first, end - 1)),
        Some(s) => {
            let offset = (s.index + s.count - first % s.count) % s.count;
            let mut id = first.saturating_add(offset);
            while id < end {
                out.push((id, id));
                id = id.saturating_add(s.count);
            }
        }
    }
}

/// The sum over the expected units (of a shard, or of the whole plan) that records cover.
#[derive(Clone, Debug, Default)]
pub struct Totals {
    /// Expected unit id ranges (inclusive) that no record covers, ascending.
    pub missing: Vec<(u64, u64)>,
    /// Expected units covered.
    pub present: u64,
    /// The sum of the covering records (as far as it did not overflow).
    pub total: UnitCount,
    /// Sums of the written residues: solutions and unique_x8 mod 13, then mod 15.
    pub residue_sums: [u64; 4],
    /// Whether the sum overflowed 128 bits.
    pub overflow: bool,
    /// Records that cover units of the shard and of other shards: they cannot be totalled.
    pub problems: Vec<LedgerProblem>,
    /// The smallest first id of a summed record whose first number is not 0.
    pub first_hit: Option<u64>,
}

impl Totals {
    /// Walks the covering records in id order (a plan of `plan_units` units), adding each once
    /// and noting the gaps.
    pub fn over(
        coverage: &Coverage,
        shard: Option<Shard>,
        files: &[(String, LedgerContents)],
        plan_units: u64,
    ) -> Self {
        let mut out = Totals::default();
        let mut next = 0;
        for owner in coverage.owners.values() {
            let rec = owner.record;
            push_missing(&mut out.missing, shard, next, rec.first);
            next = rec.last + 1;
            // A record counts toward a shard only if all its units belong to that shard.
            let covered = in_shard_count(shard, rec.first, rec.last);
            if covered == rec.last - rec.first + 1 {
                out.present += covered;
                out.add(&rec);
            } else if covered > 0 {
                out.present += covered;
                out.problems.push(LedgerProblem {
                    file: files[owner.file].0.clone(),
                    line: owner.line,
                    message: format!(
                        "{} straddle shards; cannot total shard {}",
                        UnitRange {
                            first: rec.first,
                            last: rec.last
                        },
                        shard.map(|s| s.to_string()).unwrap_or_default()
                    ),
                });
            }
        }
        push_missing(&mut out.missing, shard, next, plan_units);
        out
    }

    fn add(&mut self, rec: &Record) {
        if rec.count.solutions > 0 && self.first_hit.is_none() {
            // Records come in id order.
            self.first_hit = Some(rec.first);
        }
        match self.total.checked_add(rec.count) {
            Some(t) => self.total = t,
            None => self.overflow = true,
        }
        let written = [rec.mod13[0], rec.mod13[1], rec.mod15[0], rec.mod15[1]];
        for (sum, r) in self.residue_sums.iter_mut().zip(written) {
            *sum += u64::from(r);
        }
    }

    /// Checks the total: no overflow, agreement with the residue sums, and (for a complete
    /// whole plan of a count) unique shares adding up to whole classes.
    pub fn check(&self, shard: Option<Shard>, tallies: Tallies) -> Option<LedgerProblem> {
        let sums = self.residue_sums;
        if self.overflow {
            Some(LedgerProblem::overall("the total overflows 128 bits"))
        } else if residues(self.total, 13) != [(sums[0] % 13) as u8, (sums[1] % 13) as u8]
            || residues(self.total, 15) != [(sums[2] % 15) as u8, (sums[3] % 15) as u8]
        {
            Some(LedgerProblem::overall(
                "the total disagrees with the sum of the residues",
            ))
        } else if shard.is_none()
            && tallies == Tallies::Count
            && self.missing.is_empty()
            && !self.total.unique_x8.is_multiple_of(8)
        {
            // The shares of every symmetry class add up to whole classes over a whole plan.
            Some(LedgerProblem::overall(format!(
                "the unique shares add up to {}/8, not a whole number of classes",
                self.total.unique_x8
            )))
        } else {
            None
        }
    }
}

/// Inclusive id ranges of the ids in `ids` (sorted ascending).
pub fn id_ranges(ids: impl IntoIterator<Item = u64>) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    for id in ids {
        match out.last_mut() {
            Some((_, last)) if *last + 1 == id => *last = id,
            _ => out.push((id, id)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scale::ledger::contents_in_memory;
    use crate::scale::ledger::HeaderMismatch;
    use crate::scale::plan_for;

    #[test]
    fn shard_counts_and_gaps_are_arithmetic() {
        for count in 1..=7u64 {
            for index in 0..count {
                let shard = Some(Shard { index, count });
                for first in 0..20u64 {
                    for last in first..20 {
                        let want = (first..=last).filter(|id| id % count == index).count();
                        assert_eq!(in_shard_count(shard, first, last), want as u64);
                        let mut gaps = Vec::new();
                        push_missing(&mut gaps, shard, first, last);
                        let ids: Vec<u64> = gaps.iter().flat_map(|&(a, b)| a..=b).collect();
                        let want: Vec<u64> =
                            (first..last).filter(|id| id % count == index).collect();
                        assert_eq!(ids, want);
                    }
                }
            }
        }
    }

    #[test]
    fn ranges_compress() {
        assert_eq!(id_ranges([0, 1, 2, 5, 7, 8]), vec![(0, 2), (5, 5), (7, 8)]);
        assert_eq!(id_ranges([]), vec![]);
    }

    #[test]
    fn checks_one_at_a_time() {
        let plan = plan_for(8).unwrap();
        let plan = plan.as_ref();
        let len = plan.unit_count();
        let results: Vec<(u64, UnitCount)> = (0..len).map(|i| (i, plan.count_unit(i))).collect();
        let contents = contents_in_memory(plan, &results);
        let header = Header::for_plan(plan);
        let ok = check_file(&contents, &header);
        assert!(ok.usable && ok.problems.is_empty() && ok.ignored.is_empty());
        let other = Header { n: 9, ..header };
        let foreign = check_file(&contents, &other);
        assert!(!foreign.usable);
        assert!(foreign.problems[0]
            .1
            .contains("ledger is for N = 8, not N = 9"));
        assert_eq!(
            header.mismatch(&other),
            HeaderMismatch::Size {
                found: 8,
                wanted: 9
            }
        );

        let (_, rec) = contents.records[3];
        let spec = |r: &Record| plan.range_checksums(&[(r.first, r.last.min(len))])[0];
        assert_eq!(check_record(len, &rec, spec(&rec)), Ok(()));
        let mut bad = rec;
        bad.mod13[0] = (bad.mod13[0] + 1) % 13;
        assert_eq!(
            check_record(len, &bad, spec(&bad)),
            Err(RecordError::Residues { record: bad })
        );
        bad = rec;
        bad.last = len;
        assert_eq!(
            check_record(len, &bad, spec(&bad)).unwrap_err().to_string(),
            format!("units 3-{len} lie outside the plan (ids 0-{})", len - 1)
        );

        let files = vec![("a".to_string(), contents.clone())];
        let mut coverage = Coverage::new();
        let owner = |record| Owner {
            file: 0,
            line: 5,
            record,
        };
        assert_eq!(coverage.add(&files, owner(rec)), Ok(()));
        assert_eq!(coverage.add(&files, owner(rec)), Ok(()));
        assert_eq!(coverage.agreeing_duplicates, 1);
        let mut changed = rec;
        changed.count.solutions += 1;
        assert_eq!(
            coverage.add(&files, owner(changed)).unwrap_err().to_string(),
            format!(
                "unit 3: solutions {}, unique_x8 {} conflict with solutions {}, unique_x8 {} at a:5",
                changed.count.solutions,
                changed.count.unique_x8,
                rec.count.solutions,
                rec.count.unique_x8
            )
        );

        let totals = Totals::over(&coverage, None, &files, len);
        assert_eq!(totals.present, 1);
        let missing: u64 = totals.missing.iter().map(|(a, b)| b - a + 1).sum();
        assert_eq!(missing, len - 1);
        assert_eq!(totals.total, rec.count);
        assert_eq!(totals.check(None, Tallies::Count), None);

        let report = merge(plan, None, &files);
        assert!(report.is_complete(), "{:?}", report.problems);
        assert_eq!(
            report.total,
            UnitCount {
                solutions: 92,
                unique_x8: 96
            }
        );
    }
}
