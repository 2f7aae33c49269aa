//! The join's work plan: the half-board join ([`crate::count::JoinBatches`]) cut into units
//! that fit a memory cap, for ledgers, shards, MPI and `merge`.
//!
//! A unit is one batch of the join: the join units of one context (middle queen) whose columns
//! meet a set of central columns in one part or its complement. Counting it builds only its
//! own tables and runs on all the workers at once ([`WorkPlan::units_share_workers`]), so a
//! process holds one unit's tables at a time and stays within its cap. The cut comes from a
//! deterministic sample of each context's walk: the same board size and cap give the same
//! plan on every machine, and the ledger header names the cap (`"memory_mib"`) so that a
//! resumed run or a merge rebuilds the same plan.

use super::checksum::checksum_words;
use super::plan::{Job, PlanError, PlannedUnit, UnitCount, UnitSpec, WorkPlan, BATCH_UNITS};
use super::shard::{in_shard, Shard};
use crate::count::{JoinBatches, Tally};
use crate::schedule::Workers;
use crate::{Deadline, Options};

/// Marks the checksums of the join's plans, so that they never equal another plan's.
const JOIN_PLAN_TAG: u64 = 0x7175_6565_6e73_4a01; // "queens" J, version 1

/// The join's plan of one board size under one memory cap.
pub struct JoinPlan {
    batches: JoinBatches,
    memory_mib: u64,
    /// The units' checksums, by id (8 bytes a unit: N = 27 has 20 million).
    unit_checksums: Vec<u64>,
    checksum: u64,
}

impl JoinPlan {
    /// The plan of board size `n` (N = 4..=28) for a cap of `memory_mib` MiB per process,
    /// sampled on `options`' threads (its deadline stops the sampling).
    pub fn new(n: u32, memory_mib: u64, options: &Options) -> Result<JoinPlan, PlanError> {
        let workers = Workers::new(options.threads);
        let batches = JoinBatches::new(n, memory_mib << 20, &workers, &options.deadline())
            .map_err(|e| match e {
                crate::count::CountError::UnsupportedSize { n } => PlanError::UnsupportedSize { n },
                other => PlanError::Join(other.to_string()),
            })?
            .ok_or(PlanError::Stopped)?;
        // On all the threads, a million units at a time (N = 27 has 20 million: seconds),
        // so that Ctrl-C stops them.
        let deadline = options.deadline();
        let mut unit_checksums = Vec::with_capacity(batches.len());
        for from in (0..batches.len()).step_by(1 << 20) {
            if deadline.reached() {
                return Err(PlanError::Stopped);
            }
            let to = batches.len().min(from + (1 << 20));
            let mut chunk = Vec::new();
            workers.install(|| {
                use rayon::prelude::*;
                (from..to)
                    .into_par_iter()
                    .map(|i| checksum_words(std::iter::once(u64::from(n)).chain(batches.key(i))))
                    .collect_into_vec(&mut chunk)
            });
            unit_checksums.extend_from_slice(&chunk);
        }
        let checksum = checksum_words(
            [
                JOIN_PLAN_TAG,
                u64::from(n),
                memory_mib,
                unit_checksums.len() as u64,
            ]
            .into_iter()
            .chain(
                unit_checksums
                    .iter()
                    .enumerate()
                    .flat_map(|(id, &c)| [id as u64, c]),
            ),
        );
        Ok(JoinPlan {
            batches,
            memory_mib,
            unit_checksums,
            checksum,
        })
    }

    /// The memory cap the units were cut for, MiB.
    pub fn memory_mib(&self) -> u64 {
        self.memory_mib
    }

    /// The index of unit `id` in the plan, if it is one of its units.
    fn index(&self, id: u64) -> Option<usize> {
        usize::try_from(id)
            .ok()
            .filter(|&i| i < self.unit_checksums.len())
    }
}

/// A unit's tally as a ledger's count.
fn ledger_count(tally: Tally) -> UnitCount {
    UnitCount {
        solutions: tally.solutions,
        unique_x8: tally.classes_times_8.iter().sum(),
    }
}

impl WorkPlan for JoinPlan {
    fn n(&self) -> u32 {
        self.batches.n()
    }

    fn job(&self) -> Job {
        Job::JoinCount {
            memory_mib: self.memory_mib,
        }
    }

    fn unit_count(&self) -> u64 {
        self.unit_checksums.len() as u64
    }

    fn checksum(&self) -> u64 {
        self.checksum
    }

    fn spec(&self, id: u64) -> Option<UnitSpec> {
        let checksum = *self.unit_checksums.get(usize::try_from(id).ok()?)?;
        Some(UnitSpec { id, checksum })
    }

    fn range_checksums(&self, ranges: &[(u64, u64)]) -> Vec<Option<u64>> {
        ranges
            .iter()
            .map(|&(first, last)| {
                (first <= last && last < self.unit_count()).then(|| {
                    let specs: Vec<UnitSpec> =
                        (first..=last).filter_map(|id| self.spec(id)).collect();
                    super::plan::range_checksum(&specs)
                })
            })
            .collect()
    }

    fn for_each_batch(
        &self,
        shard: Option<Shard>,
        batch: &mut dyn FnMut(Vec<PlannedUnit>) -> bool,
    ) {
        let mut units: Vec<PlannedUnit> = (0..self.unit_checksums.len())
            .filter(|&i| in_shard(shard, i as u64))
            .map(|i| PlannedUnit {
                id: i as u64,
                work: self.batches.work(i),
            })
            .collect();
        units.sort_by(|a, b| b.work.total_cmp(&a.work).then(a.id.cmp(&b.id)));
        for chunk in units.chunks(BATCH_UNITS) {
            if !batch(chunk.to_vec()) {
                return;
            }
        }
    }

    fn estimated_work(&self, shard: Option<Shard>) -> f64 {
        (0..self.unit_checksums.len())
            .filter(|&i| in_shard(shard, i as u64))
            .map(|i| self.batches.work(i))
            .sum()
    }

    fn count_unit(&self, id: u64) -> UnitCount {
        let workers = Workers::new(1);
        self.count_unit_on(id, &workers, &Deadline::never())
            .expect("no deadline")
    }

    fn count_unit_until(&self, id: u64, deadline: &Deadline) -> Option<UnitCount> {
        self.count_unit_on(id, &Workers::new(1), deadline)
    }

    fn units_share_workers(&self) -> bool {
        true
    }

    fn suggested_shard_threads(&self) -> u64 {
        self.batches.threads_within_cap(16) as u64
    }

    fn count_unit_on(&self, id: u64, workers: &Workers, deadline: &Deadline) -> Option<UnitCount> {
        let i = self.index(id)?;
        self.batches.count(i, workers, deadline).map(ledger_count)
    }

    fn count_share_on(&self, id: u64, workers: &Workers, deadline: &Deadline) -> Option<f64> {
        let i = self.index(id)?;
        self.batches.count_share(i, workers, deadline)
    }

    fn unit_memory(&self, id: u64) -> Option<u64> {
        let i = self.index(id)?;
        Some(self.batches.unit_bytes(i))
    }

    fn kernel(&self) -> &'static str {
        "join"
    }

    fn describe_unit(&self, id: u64) -> String {
        self.index(id)
            .map(|i| self.batches.describe(i))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scale::plan::counter_plan;

    /// A000170 and A002562 for N = 12..=16.
    const COUNTS: [(u32, u128, u128); 5] = [
        (12, 14200, 1787),
        (13, 73712, 9233),
        (14, 365596, 45752),
        (15, 2279184, 285053),
        (16, 14772512, 1846955),
    ];

    fn total(plan: &dyn WorkPlan, ids: impl Iterator<Item = u64>) -> UnitCount {
        let workers = Workers::new(2);
        ids.map(|id| {
            plan.count_unit_on(id, &workers, &Deadline::never())
                .unwrap()
        })
        .fold(UnitCount::default(), |a, b| a.checked_add(b).unwrap())
    }

    /// The join's plan, whole and cut into shards, sums to the known counts, under the
    /// default cap and under caps small enough to cut every context into batches.
    #[test]
    fn join_plans_and_their_shards_sum_to_the_count() {
        for &(n, solutions, unique) in &COUNTS {
            let reserved = crate::count::join_reserved_bytes(n).div_ceil(1 << 20);
            for memory_mib in [4096, reserved + 4, reserved + 1] {
                let plan = match JoinPlan::new(n, memory_mib, &Options::with_threads(2)) {
                    Ok(plan) => plan,
                    Err(PlanError::Join(_)) if memory_mib == reserved + 1 => continue,
                    Err(e) => panic!("N = {n}, {memory_mib} MiB: {e}"),
                };
                if n == 16 && memory_mib < 4096 {
                    assert!(
                        plan.unit_count() > 1,
                        "the small cap cuts N = 16 into batches"
                    );
                }
                assert_eq!(plan.job(), Job::JoinCount { memory_mib });
                for k in [1u64, 2, 3, 7] {
                    let mut sum = UnitCount::default();
                    for index in 0..k {
                        let shard = Shard { index, count: k };
                        let mut ids = Vec::new();
                        plan.for_each_batch(Some(shard), &mut |b| {
                            ids.extend(b.iter().map(|u| u.id));
                            true
                        });
                        sum = sum.checked_add(total(&plan, ids.into_iter())).unwrap();
                    }
                    assert_eq!(
                        sum.solutions, solutions,
                        "N = {n}, {memory_mib} MiB, K = {k}"
                    );
                    assert_eq!(
                        sum.unique_x8,
                        8 * unique,
                        "N = {n}, {memory_mib} MiB, K = {k}"
                    );
                }
            }
        }
    }

    /// Same size and cap, same plan; another cap or kernel, another checksum.
    #[test]
    fn join_plans_are_deterministic_and_told_apart() {
        let a = JoinPlan::new(14, 4096, &Options::with_threads(1)).unwrap();
        let b = JoinPlan::new(14, 4096, &Options::with_threads(2)).unwrap();
        assert_eq!(a.checksum(), b.checksum());
        assert_eq!(a.unit_checksums, b.unit_checksums);
        let reserved = crate::count::join_reserved_bytes(14).div_ceil(1 << 20);
        let c = JoinPlan::new(14, reserved + 4, &Options::with_threads(2)).unwrap();
        assert_ne!(a.checksum(), c.checksum());
        assert_ne!(a.checksum(), counter_plan(14).unwrap().checksum());
    }

    /// A cap below what the finest cut needs is refused before any unit is counted.
    #[test]
    fn a_cap_too_small_is_an_error() {
        match JoinPlan::new(14, 1, &Options::with_threads(1)) {
            Err(PlanError::Join(message)) => {
                assert!(message.contains("too small"), "{message}")
            }
            other => panic!("{:?}", other.map(|p| p.unit_count())),
        }
    }

    /// A deadline inside a unit gives it up (nothing counted), quickly.
    #[test]
    fn a_deadline_gives_a_unit_up() {
        let plan = JoinPlan::new(16, 4096, &Options::with_threads(1)).unwrap();
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let options = Options {
            cancel: Some(cancel),
            ..Options::with_threads(1)
        };
        let started = std::time::Instant::now();
        assert_eq!(
            plan.count_unit_on(0, &Workers::new(1), &options.deadline()),
            None
        );
        assert!(started.elapsed().as_secs_f64() < 2.0);
    }
}
