//! The plan of a sharded guard refutation: the units of
//! [`crate::guard::units::RefutationUnits`] ("k queens cannot guard this board", cut a fixed
//! depth below the root of the exact search) as a [`WorkPlan`], so that the ledgers, shards,
//! `merge`, estimates and MPI of a count serve it unchanged.
//!
//! A unit's result is a [`UnitCount`] read as [`Tallies::Guard`](super::Tallies::Guard): `covers` (in `solutions`) is 1
//! when a cover with at most k queens lies below the unit, 0 when the unit is refuted; `nodes`
//! (in `unique_x8`) is the number of search nodes it took. A complete merge with `covers` 0 proves
//! that k queens cannot guard the board, so at least k + 1 are needed; any record with `covers`
//! 1 shows that k suffice, and [`GuardPlan::witness`] searches that unit again for the cover.

use super::checksum::checksum_words;
use super::plan::{
    equal_work, equal_work_batches, listed_range_checksums, GuardJob, Job, PlannedUnit, UnitCount,
    UnitSpec, WorkPlan,
};
use super::shard::Shard;
use crate::board::Square;
use crate::guard::units::{default_depth, RefutationUnits};
use crate::guard::{GuardError, MarkGrid, Rule};
use crate::Deadline;

/// Marks the spec and plan checksums of guard refutations ("guards", version 1).
const GUARD_TAG: u64 = 0x6775_6172_6473_0001;

/// A guard refutation as a work plan (see the module documentation).
pub struct GuardPlan {
    job: GuardJob,
    units: RefutationUnits,
    specs: Vec<UnitSpec>,
    checksum: u64,
}

impl GuardPlan {
    /// The plan of "`queens` queens cannot guard `marks`" under `rule`, cut `depth` levels below
    /// the root (`None`: [`default_depth`]).
    ///
    /// Each unit's spec checksum covers the tag, the board's size, the rule, `queens`, `depth`
    /// and the unit's queens; the plan's checksum covers the tag, the same words, the marks and
    /// every unit's spec, so a ledger of another board, number, rule or cut is refused.
    ///
    /// # Errors
    /// As [`RefutationUnits::new`].
    pub fn new(
        marks: &MarkGrid,
        rule: Rule,
        queens: usize,
        depth: Option<usize>,
    ) -> Result<Self, GuardError> {
        let depth = depth.unwrap_or_else(|| default_depth(queens));
        let units = RefutationUnits::new(marks, rule, queens, depth)?;
        let job = GuardJob {
            rows: marks.rows as u32,
            cols: marks.cols as u32,
            queens: queens as u32,
            independent: rule == Rule::Independent,
            depth: units.depth() as u32,
        };
        let head = [
            GUARD_TAG,
            u64::from(job.rows),
            u64::from(job.cols),
            u64::from(job.independent),
            u64::from(job.queens),
            u64::from(job.depth),
        ];
        let specs: Vec<UnitSpec> = (0..units.len())
            .map(|id| UnitSpec {
                id: id as u64,
                checksum: checksum_words(
                    head.into_iter().chain(
                        units
                            .unit_squares(id)
                            .unwrap_or_default()
                            .iter()
                            .map(|&s| s as u64),
                    ),
                ),
            })
            .collect();
        let marks_words = marks
            .marked
            .chunks(64)
            .map(|chunk| chunk.iter().rev().fold(0u64, |w, &m| w << 1 | u64::from(m)));
        let checksum = checksum_words(
            head.into_iter()
                .chain([specs.len() as u64])
                .chain(marks_words)
                .chain(specs.iter().flat_map(|u| [u.id, u.checksum])),
        );
        Ok(GuardPlan {
            job,
            units,
            specs,
            checksum,
        })
    }

    /// The plan of a job on the full board (what a ledger's header names).
    ///
    /// # Errors
    /// As [`GuardPlan::new`].
    pub fn full(job: GuardJob) -> Result<Self, GuardError> {
        let rule = if job.independent {
            Rule::Independent
        } else {
            Rule::Any
        };
        GuardPlan::new(
            &MarkGrid::full(job.rows as usize, job.cols as usize),
            rule,
            job.queens as usize,
            Some(job.depth as usize),
        )
    }

    /// The job: board, queens, rule, depth.
    pub fn guard_job(&self) -> GuardJob {
        self.job
    }

    /// The units behind the plan.
    pub fn units(&self) -> &RefutationUnits {
        &self.units
    }

    /// The cover below unit `id` (searched again, on the calling thread), if there is one.
    pub fn witness(&self, id: u64) -> Option<Vec<Square>> {
        self.units
            .refute(usize::try_from(id).ok()?, &Deadline::never())?
            .cover
    }

    fn tally(&self, id: u64, deadline: &Deadline) -> Option<UnitCount> {
        let outcome = self.units.refute(usize::try_from(id).ok()?, deadline)?;
        Some(UnitCount {
            solutions: u128::from(outcome.cover.is_some()),
            unique_x8: u128::from(outcome.nodes),
        })
    }
}

impl WorkPlan for GuardPlan {
    fn n(&self) -> u32 {
        self.job.rows
    }

    fn job(&self) -> Job {
        Job::Guard(self.job)
    }

    fn unit_count(&self) -> u64 {
        self.specs.len() as u64
    }

    fn checksum(&self) -> u64 {
        self.checksum
    }

    fn spec(&self, id: u64) -> Option<UnitSpec> {
        self.specs.get(usize::try_from(id).ok()?).copied()
    }

    fn range_checksums(&self, ranges: &[(u64, u64)]) -> Vec<Option<u64>> {
        listed_range_checksums(&self.specs, ranges)
    }

    /// In id order (depth-first order of the search), every unit's work 1: the units have no
    /// cheap weight estimate, so a sample of every K-th id is a uniform one.
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
        self.tally(id, &Deadline::never())
            .expect("a unit of the plan")
    }

    fn count_unit_until(&self, id: u64, deadline: &Deadline) -> Option<UnitCount> {
        self.tally(id, deadline)
    }

    fn describe_unit(&self, id: u64) -> String {
        let Some(queens) = usize::try_from(id).ok().and_then(|i| self.units.unit(i)) else {
            return String::new();
        };
        let squares: Vec<String> = queens
            .iter()
            .map(|q| format!("[{}, {}]", q.row, q.col))
            .collect();
        format!("queens {}", squares.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scale::{merge, plan_for_job, Header, LedgerContents};

    #[test]
    fn a_guard_plan_is_a_work_plan() {
        let job = GuardJob {
            rows: 8,
            cols: 8,
            queens: 4,
            independent: false,
            depth: 2,
        };
        let plan = GuardPlan::full(job).unwrap();
        assert_eq!(plan.job(), Job::Guard(job));
        assert!(plan.unit_count() > 5);
        let again = plan_for_job(8, Job::Guard(job), &crate::Options::default()).unwrap();
        assert_eq!(again.checksum(), plan.checksum());
        let other = GuardPlan::full(GuardJob { queens: 5, ..job }).unwrap();
        assert_ne!(other.checksum(), plan.checksum());
        assert_ne!(other.spec(0), plan.spec(0));
        // Four queens cannot guard 8 x 8: every unit refuted.
        let results: Vec<(u64, UnitCount)> = (0..plan.unit_count())
            .map(|id| (id, plan.count_unit(id)))
            .collect();
        assert!(results
            .iter()
            .all(|(_, c)| c.solutions == 0 && c.unique_x8 > 0));
        let contents = crate::scale::contents_in_memory(&plan, &results);
        assert_eq!(contents.header.unwrap().1, Header::for_plan(&plan));
        let report = merge(&plan, None, &[("memory".to_string(), contents)]);
        assert!(report.is_complete());
        assert_eq!(report.total.solutions, 0);
        // Five can: some unit holds a cover, and its witness guards the board.
        let id = (0..other.unit_count())
            .find(|&id| other.count_unit(id).solutions == 1)
            .expect("a unit with a cover");
        let cover = other.witness(id).unwrap();
        assert!(cover.len() <= 5);
        assert!(crate::verify::guard(&MarkGrid::full(8, 8), &cover).is_ok());
        // A count's records do not fit a guard ledger.
        let count = crate::scale::plan_for(8).unwrap();
        let mut contents =
            crate::scale::contents_in_memory(count.as_ref(), &[(0, UnitCount::default())]);
        contents.header = Some((1, Header::for_plan(&plan)));
        let report = merge(&plan, None, &[("mixed".to_string(), contents)]);
        assert!(report
            .problems
            .iter()
            .any(|p| p.message.contains("covers and nodes")));
        let _ = LedgerContents::default();
    }
}
