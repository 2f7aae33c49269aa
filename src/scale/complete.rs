//! The plan of a sharded completion count: the [`CompletionUnits`] of a board (its search's
//! subtrees a fixed number of decisions below the root) as a [`WorkPlan`], so that the
//! ledgers, shards, `merge`, estimates and MPI of a count serve it unchanged.
//!
//! A unit's result is a [`UnitCount`] read as [`Tallies::Complete`](super::Tallies::Complete):
//! `completions` (in `solutions`) the completions below it, `nodes` (in `unique_x8`) the search
//! nodes it took. The ledger's header holds the board itself ([`PartialBoard::key`]), so that
//! `merge` needs nothing but the ledgers.

use super::checksum::{checksum_bytes, checksum_words};
use super::plan::{
    equal_work, equal_work_batches, listed_range_checksums, CompleteJob, Job, PlannedUnit,
    UnitCount, UnitSpec, WorkPlan,
};
use super::shard::Shard;
use crate::complete::{CompleteError, CompletionUnits, PartialBoard};
use crate::Deadline;
use std::collections::HashSet;
use std::sync::Mutex;

/// Marks the spec and plan checksums of completion counts ("complete", version 1).
const COMPLETE_TAG: u64 = 0x636f_6d70_6c65_0001;

/// How many units a plan's cut aims at when no depth is given: enough for shards over a few
/// hundred cores, few enough to keep the plan quick to make.
pub const DEFAULT_UNITS: usize = 4096;

/// The board key of a job, kept for the life of the process so that [`Job`] stays `Copy`
/// (one copy per distinct board).
pub fn intern_board(key: String) -> &'static str {
    static KEYS: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut keys = KEYS.lock().unwrap_or_else(|e| e.into_inner());
    let keys = keys.get_or_insert_with(HashSet::new);
    if let Some(&known) = keys.get(key.as_str()) {
        return known;
    }
    let leaked: &'static str = Box::leak(key.into_boxed_str());
    keys.insert(leaked);
    leaked
}

/// A completion count as a work plan (see the module documentation).
pub struct CompletePlan {
    job: CompleteJob,
    units: CompletionUnits,
    specs: Vec<UnitSpec>,
    checksum: u64,
}

impl CompletePlan {
    /// The plan of counting the completions of `board`, cut `depth` decisions below the root
    /// (`None`: the shallowest cut with [`DEFAULT_UNITS`] units or more).
    ///
    /// Each unit's spec checksum covers the tag, the side, the depth and the queens the unit
    /// starts from; the plan's checksum covers the tag, the side, the depth, the board and
    /// every unit's spec, so a ledger of another board or cut is refused.
    ///
    /// # Errors
    /// As [`crate::complete::count`], for a board that cannot be searched.
    pub fn new(board: &PartialBoard, depth: Option<u32>) -> Result<Self, CompleteError> {
        crate::complete::check(board)?;
        // The plan is made from the board's key, so that every board with that key (and the
        // header's board) makes the same units.
        let board = PartialBoard::from_key(&board.key()).expect("a checked board's key reads back");
        let units = match depth {
            Some(depth) => CompletionUnits::new(&board, depth as usize)?,
            None => CompletionUnits::at_least(&board, DEFAULT_UNITS)?,
        };
        let job = CompleteJob {
            n: board.n as u32,
            depth: units.depth() as u32,
            board: intern_board(board.key()),
        };
        let head = [COMPLETE_TAG, u64::from(job.n), u64::from(job.depth)];
        let n = board.n;
        let specs: Vec<UnitSpec> = (0..units.len())
            .map(|id| {
                let mut squares: Vec<u64> = units
                    .queens(id)
                    .unwrap_or_default()
                    .iter()
                    .map(|&(r, c)| (r * n + c) as u64)
                    .collect();
                squares.sort_unstable();
                UnitSpec {
                    id: id as u64,
                    checksum: checksum_words(head.into_iter().chain(squares)),
                }
            })
            .collect();
        let checksum = checksum_words(
            head.into_iter()
                .chain([specs.len() as u64, checksum_bytes(job.board.as_bytes())])
                .chain(specs.iter().flat_map(|u| [u.id, u.checksum])),
        );
        Ok(CompletePlan {
            job,
            units,
            specs,
            checksum,
        })
    }

    /// The plan a ledger's header names, or `None` when its board does not read back.
    pub fn for_job(job: CompleteJob) -> Option<Self> {
        let board = PartialBoard::from_key(job.board)?;
        if board.n != job.n as usize {
            return None;
        }
        CompletePlan::new(&board, Some(job.depth)).ok()
    }

    /// The job: side, depth and board.
    pub fn complete_job(&self) -> CompleteJob {
        self.job
    }

    /// The units behind the plan.
    pub fn units(&self) -> &CompletionUnits {
        &self.units
    }

    fn tally(&self, id: u64, deadline: &Deadline) -> Option<UnitCount> {
        let (completions, nodes) = self.units.count(usize::try_from(id).ok()?, deadline)?;
        Some(UnitCount {
            solutions: completions,
            unique_x8: u128::from(nodes),
        })
    }
}

impl WorkPlan for CompletePlan {
    fn n(&self) -> u32 {
        self.job.n
    }

    fn job(&self) -> Job {
        Job::Complete(self.job)
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

    /// In id order (the search's order), every unit's work 1: the units have no cheap weight
    /// estimate, so a sample of every K-th id is a uniform one.
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
        let Some(queens) = usize::try_from(id).ok().and_then(|i| self.units.queens(i)) else {
            return String::new();
        };
        let squares: Vec<String> = queens.iter().map(|(r, c)| format!("[{r}, {c}]")).collect();
        format!("queens {}", squares.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::scale::{
        contents_in_memory, header_line, merge, parse_line, plan_for, plan_for_job, Header, Line,
    };

    /// The 9x9 board with a queen at (0, 2), two blocked squares and a closed diagonal.
    fn board() -> PartialBoard {
        let mut board = PartialBoard::empty(9);
        board.queens = vec![Square { row: 0, col: 2 }];
        board.blocked = vec![false; 81];
        board.blocked[4 * 9 + 4] = true;
        board.blocked[7 * 9 + 1] = true;
        board.closed_sums = vec![9];
        board
    }

    #[test]
    fn shards_of_a_completion_plan_merge_to_the_count() {
        let board = board();
        let expected = crate::complete::count(&board, &crate::Options::with_threads(1))
            .unwrap()
            .completions;
        assert!(expected > 0);
        for depth in [None, Some(2)] {
            let plan = CompletePlan::new(&board, depth).unwrap();
            assert!(plan.unit_count() > 1);
            let results: Vec<(u64, UnitCount)> = (0..plan.unit_count())
                .map(|id| (id, plan.count_unit(id)))
                .collect();
            for shards in [1u64, 2, 3, 7] {
                let files: Vec<(String, crate::scale::LedgerContents)> = (0..shards)
                    .map(|i| {
                        let mine: Vec<(u64, UnitCount)> = results
                            .iter()
                            .copied()
                            .filter(|(id, _)| id % shards == i)
                            .collect();
                        (format!("shard {i}"), contents_in_memory(&plan, &mine))
                    })
                    .collect();
                let report = merge(&plan, None, &files);
                assert!(report.is_complete(), "{:?}", report.problems);
                assert_eq!(report.total.solutions, expected);
                // One shard's ledger alone is incomplete.
                if shards > 1 {
                    assert!(!merge(&plan, None, &files[..1]).is_complete());
                }
            }
        }
    }

    #[test]
    fn the_header_names_the_board_and_rebuilds_the_plan() {
        let plan = CompletePlan::new(&board(), None).unwrap();
        let header = Header::for_plan(&plan);
        let line = header_line(&header);
        assert!(line.contains("\"job\":\"complete\"") && line.contains(&board().key()));
        let Ok(Line::Header(read)) = parse_line(line.trim_end().as_bytes()) else {
            panic!("the header does not read back: {line}");
        };
        assert_eq!(read, header);
        let again = plan_for_job(read.n, read.job, &crate::Options::default()).unwrap();
        assert_eq!(again.checksum(), plan.checksum());
        // Another board, or another cut, is another plan.
        let mut other = board();
        other.blocked[80] = true;
        let other = CompletePlan::new(&other, None).unwrap();
        assert_ne!(other.checksum(), plan.checksum());
        let shallower = CompletePlan::new(&board(), Some(plan.complete_job().depth - 1)).unwrap();
        assert_ne!(shallower.checksum(), plan.checksum());
        // A count's records do not fit a completion ledger, nor its header a count's plan.
        let count = plan_for(9).unwrap();
        let mut contents = contents_in_memory(count.as_ref(), &[(0, UnitCount::default())]);
        contents.header = Some((1, header));
        let report = merge(&plan, None, &[("mixed".to_string(), contents)]);
        assert!(!report.problems.is_empty());
        let mut contents = contents_in_memory(&plan, &[(0, plan.count_unit(0))]);
        contents.header = Some((1, Header::for_plan(count.as_ref())));
        let report = merge(&plan, None, &[("foreign".to_string(), contents)]);
        assert!(!report.problems.is_empty());
    }

    #[test]
    fn a_board_given_in_another_order_makes_the_same_plan() {
        let mut a = PartialBoard::empty(8);
        a.queens = vec![Square { row: 3, col: 5 }, Square { row: 4, col: 1 }];
        let mut b = a.clone();
        b.queens.reverse();
        // A closed diagonal and the blocked squares along it are the same board.
        a.closed_differences = vec![7];
        b.blocked = (0..64).map(|i| i / 8 == i % 8).collect();
        let (pa, pb) = (
            CompletePlan::new(&a, None).unwrap(),
            CompletePlan::new(&b, None).unwrap(),
        );
        assert_eq!(pa.checksum(), pb.checksum());
        assert_eq!(pa.complete_job(), pb.complete_job());
    }
}
