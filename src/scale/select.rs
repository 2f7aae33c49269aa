//! Which plan a count runs: the join's or the constellation search's for a new count
//! ([`plan_for_count`]), the one a ledger's header names for a run that resumes it or a merge
//! ([`plan_for_job`]).

use super::complete::CompletePlan;
use super::guard::GuardPlan;
use super::join::JoinPlan;
use super::plan::{counter_plan, Job, PlanError, WorkPlan};
use crate::count::MAX_N;

/// The work plan that `count --ledger`, `count --shard`, MPI runs, `plan` and `merge` use for
/// board size `n` with default options: [`plan_for_count`].
pub fn plan_for(n: u32) -> Result<Box<dyn WorkPlan>, PlanError> {
    plan_for_count(n, &crate::Options::default())
}

/// The work plan of a count of board size `n`: the join's ([`JoinPlan`], its units cut
/// for the memory cap of `options`, [`crate::count::memory_cap`]) where the join is the faster
/// kernel (N = 16..=28, [`crate::count::join_is_chosen`]), the constellation search's
/// ([`counter_plan`]) elsewhere. Making a join plan samples each context's walk (seconds at
/// N = 21, 15 s at 28 and 60 s at 27 on 2 threads; its deadline stops it).
pub fn plan_for_count(n: u32, options: &crate::Options) -> Result<Box<dyn WorkPlan>, PlanError> {
    if (1..=MAX_N).contains(&n) && crate::count::join_is_chosen(n) {
        let memory_mib = crate::count::memory_cap(n, options) >> 20;
        return JoinPlan::new(n, memory_mib, options).map(|p| Box::new(p) as Box<dyn WorkPlan>);
    }
    counter_plan(n).ok_or(PlanError::UnsupportedSize { n })
}

/// The plan of a ledger's job (the header's `n` and `job`): the constellation search's for a
/// count without a kernel ([`counter_plan`], what every ledger before the join's plans holds),
/// the join's with the header's memory cap, the [`GuardPlan`] of the full board for a
/// guard refutation, the [`CompletePlan`] of the header's board for a completion count.
/// `options` give the threads and deadline for making a join plan.
pub fn plan_for_job(
    n: u32,
    job: Job,
    options: &crate::Options,
) -> Result<Box<dyn WorkPlan>, PlanError> {
    match job {
        Job::Count => counter_plan(n).ok_or(PlanError::UnsupportedSize { n }),
        Job::JoinCount { memory_mib } => {
            JoinPlan::new(n, memory_mib, options).map(|p| Box::new(p) as Box<dyn WorkPlan>)
        }
        Job::Guard(g) => GuardPlan::full(g)
            .map(|p| Box::new(p) as Box<dyn WorkPlan>)
            .map_err(|e| PlanError::Guard(e.to_string())),
        Job::Complete(c) => CompletePlan::for_job(c)
            .map(|p| Box::new(p) as Box<dyn WorkPlan>)
            .ok_or(PlanError::CompleteBoard),
    }
}
