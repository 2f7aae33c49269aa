//! Work plans: a count cut into independent units with stable ids, heaviest first, and the
//! choice of the counting engine behind `count --ledger`, shards, MPI and `merge` ([`plan_for`]).

use super::checksum::checksum_words;
use crate::count::{count_unit, work_units, Tally, WorkUnit, MAX_N};
use crate::Deadline;
use std::fmt;
use thiserror::Error;

/// One independent piece of a count: its stable id (its index in the plan) and a checksum of
/// what it computes (e.g. of the pre-placed queens), so that a ledger written by another build
/// or another plan is recognised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnitSpec {
    /// Stable id: the unit's index in [`WorkPlan::units`].
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

/// A deterministic work plan for counting the N-queens solutions of one board size.
///
/// Promises: `units()` is the same on every machine and every run for the same `n()`; unit `i`
/// has id `i`; units are ordered heaviest first (an estimate); `count_unit(i)` is pure, and the
/// counts of all units sum to the full count (solutions and unique).
pub trait WorkPlan: Sync {
    /// Board size.
    fn n(&self) -> u32;
    /// The units, in id order (`units()[i].id == i`), heaviest first.
    fn units(&self) -> &[UnitSpec];
    /// Counts unit `index`. Pure; may take seconds to minutes.
    fn count_unit(&self, index: usize) -> UnitCount;
    /// A short human description of unit `index` (e.g. its pre-placed queens), for `queens plan`.
    fn describe_unit(&self, index: usize) -> String {
        let _ = index;
        String::new()
    }
}

/// Checksum of the specs of a contiguous run of units (ids and checksums, in order): the `spec`
/// field of a ledger record.
pub fn range_checksum(units: &[UnitSpec]) -> u64 {
    checksum_words(units.iter().flat_map(|u| [u.id, u.checksum]))
}

/// Checksum of a whole plan: its N, its size and every unit's spec. Two plans with the same
/// checksum cut the count the same way.
pub fn plan_checksum(plan: &dyn WorkPlan) -> u64 {
    let units = plan.units();
    checksum_words(
        [u64::from(plan.n()), units.len() as u64]
            .into_iter()
            .chain(units.iter().flat_map(|u| [u.id, u.checksum])),
    )
}

/// A [`WorkPlan`] made of any list of units (heaviest first) and a function counting one: the
/// adapter that connects a counting engine to ledgers, shards and MPI.
///
/// Each unit's spec checksum is [`checksum_words`] of N followed by `key(unit)` (e.g. the
/// pre-placed queens' squares), so that a ledger written with another cut of the work is
/// refused.
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
}

impl<U, F> WorkPlan for UnitsPlan<U, F>
where
    U: fmt::Debug + Sync,
    F: Fn(&U) -> UnitCount + Sync,
{
    fn n(&self) -> u32 {
        self.n
    }

    fn units(&self) -> &[UnitSpec] {
        &self.specs
    }

    fn count_unit(&self, index: usize) -> UnitCount {
        (self.count)(&self.units[index])
    }

    fn describe_unit(&self, index: usize) -> String {
        format!("{:?}", self.units[index])
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
}

/// The work plan that `count --ledger`, `count --shard`, MPI runs, `plan` and `merge` use for
/// board size `n`: the fast counter's ([`counter_plan`]). Swapping the counting engine is this
/// one function.
pub fn plan_for(n: u32) -> Result<Box<dyn WorkPlan>, PlanError> {
    counter_plan(n).ok_or(PlanError::UnsupportedSize { n })
}

/// The plan of the fast counter: the units of [`crate::count::work_units`] in their order (ids
/// equal), each counted by [`crate::count::count_unit`]; a unit's key is its border
/// constellation, orbit and pre-placed prefix. `None` for N outside 1..=32.
pub fn counter_plan(n: u32) -> Option<Box<dyn WorkPlan>> {
    if !(1..=MAX_N).contains(&n) {
        return None;
    }
    let units = work_units(n).into_iter().map(CounterUnit).collect();
    Some(Box::new(UnitsPlan::new(
        n,
        units,
        |u| counter_key(&u.0),
        |u| counter_count(&u.0),
    )))
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
fn counter_count(u: &WorkUnit) -> UnitCount {
    let found = count_unit(u, &Deadline::never())
        .ok()
        .flatten()
        .expect("every unit of a plan is valid, and a unit without deadline finishes");
    let mut tally = Tally::default();
    tally.add(u, &found);
    UnitCount {
        solutions: tally.solutions,
        unique_x8: tally.classes_times_8.iter().sum(),
    }
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

    #[test]
    fn the_counter_plan_sums_to_the_count() {
        for n in 1..=10 {
            let plan = plan_for(n).unwrap();
            let total = (0..plan.units().len())
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
        let units = a.units();
        assert_ne!(range_checksum(&units[0..1]), range_checksum(&units[1..2]));
    }
}
