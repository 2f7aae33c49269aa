//! The work plan of a count: one unit per class of border constellations (the queens on the
//! first and last row and column), optionally split further by the queens of the next rows.

use super::kernel::{self, Start};
pub use super::unit::{Constellation, WorkUnit, MAX_PREFIX};
use crate::board::Symmetry;
use crate::Deadline;

/// The split depth [`work_units`] uses for size `n`: enough units to balance many threads and
/// to keep each unit short (about 3000 to 60000 units up to n = 27).
pub fn default_split(n: u32) -> usize {
    match n {
        0..=21 => 0,
        22..=27 => 1,
        _ => 2,
    }
}

/// The canonical constellations of size `n`, each with the size of its class, sorted.
pub fn constellations(n: u32) -> Vec<(Constellation, u8)> {
    let mut out = Vec::new();
    if !(1..=32).contains(&n) {
        return out;
    }
    let m = n as u8 - 1;
    // Every border queen of a constellation becomes the top queen of some image, at its
    // distance from either end of its line; the smallest image has the smallest top, so each
    // border queen of a class representative lies in top..=m-top.
    for top in 0..=m / 2 {
        for bottom in top..=m - top {
            for left in top..=m - top {
                for right in top..=m - top {
                    let c = Constellation {
                        top,
                        bottom,
                        left,
                        right,
                    };
                    if !c.is_consistent(n) {
                        continue;
                    }
                    let (canon, orbit) = c.canonical(n);
                    if canon == c {
                        out.push((c, orbit));
                    }
                }
            }
        }
    }
    out
}

/// How many free rows the work estimate looks ahead for size `n` (deeper is more accurate
/// and costs more, which pays off only where the count itself takes minutes).
fn estimate_depth(n: u32) -> usize {
    match n {
        0..=16 => 3,
        17..=21 => 4,
        _ => 3,
    }
}

/// A unit for constellation `c` (any image of its class) with no prefix.
fn bare_unit(n: u32, c: Constellation, orbit: u8) -> WorkUnit {
    WorkUnit {
        id: 0,
        n: n as u8,
        constellation: c,
        orbit,
        prefix_len: 0,
        prefix: [0; MAX_PREFIX],
    }
}

/// Of the images of a canonical constellation, the one whose search is estimated cheapest (all
/// images have the same number of solutions, of the same class sizes; the row-by-row search
/// costs differ by up to several times), with that estimate. Ties go to the smallest image.
fn cheapest_image(n: u32, c: Constellation, orbit: u8) -> (u64, Constellation) {
    let depth = estimate_depth(n);
    let mut images: Vec<Constellation> = Symmetry::ALL.iter().map(|&s| c.transform(n, s)).collect();
    images.sort();
    images.dedup();
    images
        .into_iter()
        .map(|image| {
            let start = Start::new(&bare_unit(n, image, orbit));
            let depth = depth.min(start.free_rows());
            (kernel::placements(&start, depth), image)
        })
        .min()
        .unwrap_or((1, c))
}

/// One class of constellations in a plan: the image searched, and the block of consecutive
/// unit ids its units take (one unit per placement of the queens on its first `split` free
/// rows, in increasing column order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Group {
    /// The image of the class that its units search (the cheapest one).
    pub constellation: Constellation,
    /// Size of the class (8, 4, 2 or 1).
    pub orbit: u8,
    /// Free rows fixed by each unit's prefix: the plan's split, capped by the free rows.
    pub split: u8,
    /// Estimated work: the placements on the image's next few free rows (3, or 4 for
    /// N = 17..21).
    pub weight: u64,
    /// Id of the group's first unit.
    pub first_id: u64,
    /// Number of units (0 when no placement of the prefix rows exists).
    pub units: u64,
}

/// The outline of a plan: its groups (constellation classes) heaviest first, each with its
/// block of unit ids. Small (one entry per class, about 10^5 at N = 32) and quick to make, it
/// gives any unit from its id and any shard's units without making the others.
///
/// Ids are group by group: the groups in decreasing order of estimated work (ties by
/// constellation), and within a group in the order of its prefixes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skeleton {
    n: u32,
    split: usize,
    groups: Vec<Group>,
    units: u64,
}

impl Skeleton {
    /// The outline of the plan of size `n` split by `split` free rows (capped at
    /// [`MAX_PREFIX`]); `None` if `deadline` passes first. Empty for n outside 1..=32. Uses
    /// the current rayon pool.
    pub fn new(n: u32, split: usize, deadline: &Deadline) -> Option<Skeleton> {
        use rayon::prelude::*;
        let split = split.min(MAX_PREFIX);
        let mut groups: Vec<Group> = constellations(n)
            .into_par_iter()
            .map(|(c, orbit)| {
                if deadline.reached() {
                    return None;
                }
                let (weight, image) = cheapest_image(n, c, orbit);
                let start = Start::new(&bare_unit(n, image, orbit));
                let split = split.min(start.free_rows());
                Some(Group {
                    constellation: image,
                    orbit,
                    split: split as u8,
                    weight,
                    first_id: 0,
                    units: kernel::placements(&start, split),
                })
            })
            .collect::<Option<Vec<_>>>()?;
        groups.sort_by(|a, b| {
            b.weight
                .cmp(&a.weight)
                .then(a.constellation.cmp(&b.constellation))
        });
        let mut next = 0;
        for g in &mut groups {
            g.first_id = next;
            next += g.units;
        }
        Some(Skeleton {
            n,
            split,
            groups,
            units: next,
        })
    }

    /// Board size.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The split depth asked for.
    pub fn split(&self) -> usize {
        self.split
    }

    /// The groups, in id order.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// Number of units in the plan.
    pub fn units(&self) -> u64 {
        self.units
    }

    /// The index of the group holding unit `id`.
    pub fn group_of(&self, id: u64) -> Option<usize> {
        if id >= self.units {
            return None;
        }
        // The last group starting at or before `id` (an empty group shares its first id with
        // the group after it, so it is never the last one).
        Some(self.groups.partition_point(|g| g.first_id <= id) - 1)
    }

    /// Whether group `g` has a unit whose id is `index` modulo `count`.
    pub fn group_meets(&self, g: usize, index: u64, count: u64) -> bool {
        let group = &self.groups[g];
        let count = u128::from(count);
        let offset = (u128::from(index) + count - u128::from(group.first_id) % count) % count;
        offset < u128::from(group.units)
    }

    /// The units of group `g` in id order, or only those whose id is `shard.0` modulo
    /// `shard.1`.
    pub fn expand(&self, g: usize, shard: Option<(u64, u64)>) -> Vec<WorkUnit> {
        let group = self.groups[g];
        let base = bare_unit(self.n, group.constellation, group.orbit);
        let start = Start::new(&base);
        let mut units = Vec::new();
        let mut prefix = [0u8; MAX_PREFIX];
        let mut id = group.first_id;
        kernel::for_each_prefix(&start, group.split as usize, &mut prefix, 0, &mut |p| {
            if shard.is_none_or(|(index, count)| id % count == index) {
                let mut unit = base;
                unit.id = id;
                unit.prefix_len = group.split;
                unit.prefix = *p;
                units.push(unit);
            }
            id += 1;
        });
        units
    }

    /// Unit `id`, if the plan has it.
    pub fn unit(&self, id: u64) -> Option<WorkUnit> {
        let g = self.group_of(id)?;
        let group = self.groups[g];
        if group.units == 1 && group.split == 0 {
            let mut unit = bare_unit(self.n, group.constellation, group.orbit);
            unit.id = id;
            return Some(unit);
        }
        self.expand(g, Some((id, u64::MAX)))
            .into_iter()
            .find(|u| u.id == id)
    }

    /// The units of group `g` (of shard `shard.0 / shard.1` only, if given) with their share
    /// of the group's estimated work, heaviest first: the group's weight spread over its
    /// units by their own estimates (placements on their next three free rows), so that the
    /// shares of all a group's units add up to its weight.
    pub fn weighted_units(&self, g: usize, shard: Option<(u64, u64)>) -> Vec<(f64, WorkUnit)> {
        let group = self.groups[g];
        let units = self.expand(g, shard);
        let share = group.weight as f64 * units.len() as f64 / group.units.max(1) as f64;
        let mut out: Vec<(f64, WorkUnit)> = if group.split == 0 {
            units.into_iter().map(|u| (share, u)).collect()
        } else {
            // (Plus one, so that a group whose units all die within three rows still spreads
            // its weight.)
            let own: Vec<u64> = units.iter().map(|u| unit_weight(u) + 1).collect();
            let sum = own.iter().sum::<u64>() as f64;
            own.into_iter()
                .zip(units)
                .map(|(w, u)| (share * w as f64 / sum, u))
                .collect()
        };
        out.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.id.cmp(&b.1.id)));
        out
    }
}

/// A unit's own estimate of its work: the placements on its next three free rows.
pub fn unit_weight(unit: &WorkUnit) -> u64 {
    let start = Start::new(unit);
    kernel::placements(&start, 3.min(start.free_rows()))
}

/// The plan of a count of size `n` at the default split depth (see [`work_units_split`]).
pub fn work_units(n: u32) -> Vec<WorkUnit> {
    work_units_split(n, default_split(n))
}

/// The plan of a count of size `n`: one group of units per class of constellations (searched
/// from its cheapest image), split by every valid placement of the queens on its first `split`
/// free rows (capped at [`MAX_PREFIX`] and at the number of free rows). The order is
/// deterministic ([`Skeleton`]): groups by an estimate of their work, largest first, then by
/// constellation; within a group by prefix. `id`s number the units in that order. Empty for
/// n outside 1..=32.
pub fn work_units_split(n: u32, split: usize) -> Vec<WorkUnit> {
    plan(n, split, &Deadline::never()).unwrap_or_default()
}

/// [`work_units_split`], or `None` if `deadline` passes while the plan is being made (it takes
/// seconds from n = 20 on).
pub fn plan(n: u32, split: usize, deadline: &Deadline) -> Option<Vec<WorkUnit>> {
    let skeleton = Skeleton::new(n, split, deadline)?;
    Some(
        (0..skeleton.groups().len())
            .flat_map(|g| skeleton.expand(g, None))
            .collect(),
    )
}
