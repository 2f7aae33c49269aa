//! Checking ledgers against a plan and totalling them, one check at a time: each file's header
//! and damaged lines ([`check_file`]), each record against the plan ([`check_record`]), the
//! units covered once or by agreeing duplicates ([`Coverage`]), and the total with its residue
//! sums ([`Totals`]). [`merge`] runs them in that order.

use super::checksum::hex;
use super::ledger::{residues, Header, LedgerContents, Problem, Record};
use super::plan::{Tallies, UnitCount, WorkPlan};
use super::shard::Shard;
use std::collections::BTreeMap;

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
    pub problems: Vec<Problem>,
    /// Torn last lines that were ignored (their units count as missing), as file and line.
    pub torn: Vec<(String, usize)>,
    /// Complete record lines that could not be used (changed, corrupted, malformed), ignored:
    /// the units they held count only if another record covers them.
    pub ignored: Vec<Problem>,
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
    let at = |file: usize, line: usize, message: String| Problem {
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
        if let Err(message) = outcome {
            problems.push(at(owner.file, owner.line, message));
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
        let entry = (bad.line, bad.reason.clone());
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
        Some((line, h)) if h != *expected => out.problems.push((line, h.mismatch(expected))),
        Some(_) => out.usable = true,
    }
    out
}

/// Checks one intact record against a plan of `plan_units` units whose spec checksum for the
/// record's range is `plan_spec` ([`WorkPlan::range_checksums`]): its range lies in the plan, its
/// spec checksum is the plan's for that range, and its residues agree with its counts.
pub fn check_record(plan_units: u64, rec: &Record, plan_spec: Option<u64>) -> Result<(), String> {
    let spec = match plan_spec {
        Some(spec) if rec.last < plan_units => spec,
        _ => {
            return Err(format!(
                "units {}-{} lie outside the plan (ids 0-{})",
                rec.first,
                rec.last,
                plan_units.saturating_sub(1)
            ))
        }
    };
    if spec != rec.spec {
        return Err(format!(
            "{}: spec checksum {} differs from the plan's {}",
            unit_words(rec.first, rec.last),
            hex(rec.spec),
            hex(spec)
        ));
    }
    if !rec.residues_agree() {
        let [a, b] = rec.tallies.names();
        return Err(format!(
            "{}: residues mod 13 {:?} / mod 15 {:?} disagree with {a} {} and {b} {}",
            unit_words(rec.first, rec.last),
            rec.mod13,
            rec.mod15,
            rec.count.solutions,
            rec.count.unique_x8
        ));
    }
    Ok(())
}

/// Checks that a record's numbers are named as the plan's job names them (a count's
/// `solutions` in a guard ledger is an inconsistency).
fn check_tallies(rec: &Record, tallies: Tallies) -> Result<(), String> {
    if rec.tallies == tallies {
        return Ok(());
    }
    Err(format!(
        "{}: a record of {} and {} in a ledger whose records carry {} and {}",
        unit_words(rec.first, rec.last),
        rec.tallies.names()[0],
        rec.tallies.names()[1],
        tallies.names()[0],
        tallies.names()[1]
    ))
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
    pub fn add(&mut self, files: &[(String, LedgerContents)], new: Owner) -> Result<(), String> {
        let rec = new.record;
        let Some(old) = self.clash(rec.first, rec.last) else {
            self.owners.insert(rec.first, new);
            return Ok(());
        };
        let orec = old.record;
        let at = format!("{}:{}", files[old.file].0, old.line);
        if orec.first != rec.first || orec.last != rec.last {
            Err(format!(
                "{} overlap {} at {at} with a different id range",
                unit_words(rec.first, rec.last),
                unit_words(orec.first, orec.last)
            ))
        } else if orec.count != rec.count {
            let [a, b] = rec.tallies.names();
            Err(format!(
                "{}: {a} {}, {b} {} conflict with {a} {}, {b} {} at {at}",
                unit_words(rec.first, rec.last),
                rec.count.solutions,
                rec.count.unique_x8,
                orec.count.solutions,
                orec.count.unique_x8
            ))
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
    pub problems: Vec<Problem>,
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
                out.problems.push(Problem {
                    file: files[owner.file].0.clone(),
                    line: owner.line,
                    message: format!(
                        "{} straddle shards; cannot total shard {}",
                        unit_words(rec.first, rec.last),
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
    pub fn check(&self, shard: Option<Shard>, tallies: Tallies) -> Option<Problem> {
        let sums = self.residue_sums;
        if self.overflow {
            Some(Problem::overall("the total overflows 128 bits"))
        } else if residues(self.total, 13) != [(sums[0] % 13) as u8, (sums[1] % 13) as u8]
            || residues(self.total, 15) != [(sums[2] % 15) as u8, (sums[3] % 15) as u8]
        {
            Some(Problem::overall(
                "the total disagrees with the sum of the residues",
            ))
        } else if shard.is_none()
            && tallies == Tallies::Count
            && self.missing.is_empty()
            && !self.total.unique_x8.is_multiple_of(8)
        {
            // The shares of every symmetry class add up to whole classes over a whole plan.
            Some(Problem::overall(format!(
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

fn unit_words(first: u64, last: u64) -> String {
    if first == last {
        format!("unit {first}")
    } else {
        format!("units {first}-{last}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scale::ledger::contents_in_memory;
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

        let (_, rec) = contents.records[3];
        let spec = |r: &Record| plan.range_checksums(&[(r.first, r.last.min(len))])[0];
        assert_eq!(check_record(len, &rec, spec(&rec)), Ok(()));
        let mut bad = rec;
        bad.mod13[0] = (bad.mod13[0] + 1) % 13;
        assert!(check_record(len, &bad, spec(&bad))
            .unwrap_err()
            .contains("residues"));
        bad = rec;
        bad.last = len;
        assert!(check_record(len, &bad, spec(&bad))
            .unwrap_err()
            .contains("outside the plan"));

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
        assert!(coverage
            .add(&files, owner(changed))
            .unwrap_err()
            .contains("conflict"));

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
