//! Projections of a whole count's cost from a deterministic sample of its units: the units of
//! shard `0/stride` (every stride-th id), counted in an order fixed by their ids, give the
//! time per unit of estimated work; times the plan's estimated work, that is the projection.
//!
//! [`count_sample`] counts the sample (or as much of it as the deadline of its options allows)
//! and times each finished unit on its thread; the caller may time the whole (e.g. in CPU
//! time), which is the better measure when the sample finished.

use super::checksum::checksum_words;
use super::plan::{PlannedUnit, WorkPlan};
use super::shard::Shard;
use crate::schedule::{run_units, Workers};
use crate::Options;

/// A deterministic sample of a plan's units.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The shard whose units form the sample (every `count`-th id, from 0).
    pub shard: Shard,
    /// The sample's units in counting order: shuffled by a hash of their ids, so that a sample
    /// cut short by a time limit is still a fair one.
    pub units: Vec<PlannedUnit>,
    /// The plan's estimated work in all.
    pub plan_work: f64,
}

/// About `target` units of `plan`, every `stride`-th by id (at least 1), in a fixed shuffled order.
pub fn sample(plan: &dyn WorkPlan, target: u64) -> Sample {
    let stride = (plan.unit_count() / target.max(1)).max(1);
    let shard = Shard {
        index: 0,
        count: stride,
    };
    let mut units = Vec::new();
    plan.for_each_batch(Some(shard), &mut |batch| {
        units.extend(batch);
        true
    });
    units.sort_by_key(|u| (checksum_words([u.id]), u.id));
    Sample {
        shard,
        units,
        plan_work: plan.estimated_work(None),
    }
}

/// What counting a sample gave.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SampleCount {
    /// Units counted (all of the sample unless the deadline stopped it).
    pub units: u64,
    /// Their estimated work.
    pub work: f64,
    /// Units in the sample.
    pub sample_units: u64,
    /// Wall seconds of the finished units, each on its own thread, added up (units given up at
    /// the deadline are not in it).
    pub unit_seconds: f64,
    /// Wall seconds spent on units given up at the deadline, added up likewise.
    pub given_up_seconds: f64,
    /// The shares of the finished units counted, added up (as many as `units` unless some
    /// were counted in part, [`WorkPlan::count_share_on`]).
    pub shares: f64,
}

impl SampleCount {
    /// The projected cost of the whole plan in the measure `cost` of counting the sample (e.g.
    /// its CPU seconds): `cost` per unit of estimated work, times the plan's work. `None` when
    /// no unit finished.
    pub fn project(&self, sample: &Sample, cost: f64) -> Option<f64> {
        (self.work > 0.0).then(|| cost / self.work * sample.plan_work)
    }
}

/// Counts the sample's units in its order on `options`' threads until the deadline of
/// `options` passes (units in flight are given up where the plan can stop inside a unit, as
/// the counter's can).
pub fn count_sample(plan: &dyn WorkPlan, sample: &Sample, options: &Options) -> SampleCount {
    let mut out = SampleCount {
        sample_units: sample.units.len() as u64,
        ..SampleCount::default()
    };
    let given_up = std::sync::atomic::AtomicU64::new(0);
    let workers = Workers::new(options.threads);
    let count_one = |u: &PlannedUnit, deadline: &crate::Deadline| {
        let started = std::time::Instant::now();
        let count = if plan.units_share_workers() {
            plan.count_share_on(u.id, &workers, deadline)
        } else {
            plan.count_unit_until(u.id, deadline).map(|_| 1.0)
        };
        let seconds = started.elapsed().as_secs_f64();
        if count.is_none() {
            let nanos = (seconds * 1e9) as u64;
            given_up.fetch_add(nanos, std::sync::atomic::Ordering::Relaxed);
        }
        Some((count?, seconds))
    };
    if plan.units_share_workers() {
        // One unit at a time on all the workers, each timed whole.
        let deadline = options.deadline();
        for u in &sample.units {
            if deadline.reached() {
                break;
            }
            match count_one(u, &deadline) {
                Some((share, seconds)) => {
                    out.units += 1;
                    out.work += u.work * share;
                    out.shares += share;
                    out.unit_seconds += seconds;
                }
                None => break,
            }
        }
        out.given_up_seconds = given_up.into_inner() as f64 / 1e9;
        return out;
    }
    let finished = run_units(&sample.units, options, count_one, |batch| {
        for (k, (share, seconds)) in batch {
            out.units += 1;
            out.work += sample.units[k].work * share;
            out.shares += share;
            out.unit_seconds += seconds;
        }
        Ok::<(), std::convert::Infallible>(())
    });
    out.given_up_seconds = given_up.into_inner() as f64 / 1e9;
    match finished {
        Ok(_) => out,
        Err(never) => match never {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scale::plan_for;

    #[test]
    fn samples_are_deterministic_and_project_the_whole() {
        let plan = plan_for(12).unwrap();
        let a = sample(plan.as_ref(), 20);
        assert_eq!(a, sample(plan.as_ref(), 20));
        assert!(a.units.iter().all(|u| a.shard.contains(u.id)));
        assert!(a.units.len() as u64 >= 20 && a.units.len() < 40);
        let counted = count_sample(plan.as_ref(), &a, &Options::with_threads(2));
        assert_eq!(counted.units, a.units.len() as u64);
        // Cost in units of work: the projection is the plan's work.
        let p = counted.project(&a, counted.work).unwrap();
        assert!((p - a.plan_work).abs() < 1e-6 * p);
        let whole = sample(plan.as_ref(), u64::MAX);
        assert_eq!(whole.units.len() as u64, plan.unit_count());
    }
}
