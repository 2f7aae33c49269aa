//! The exhaustive refutation "k queens cannot guard these marks" cut into deterministic units,
//! for runs that outgrow one machine (the plans, shards and ledgers of `crate::scale`).
//!
//! The units are the nodes of the exact search (the one behind [`super::solve`]) a fixed
//! `depth` below the root, after the root's symmetry reduction, in depth-first order, with the
//! dense ids `0..len()`. A branch ends above that depth where the search would stop expanding
//! it (a node that already covers the marks, or with fewer than two queens left), and branches
//! that the search's bound cuts on the way are refuted while the units are made. Each unit
//! keeps the squares that its earlier siblings forbid, so the units split the search tree:
//! every set of queens that the search would meet lies below exactly one unit. Hence `k`
//! queens cannot guard the marks exactly when every unit is refuted, and a unit that finds a
//! cover ends the refutation with a witness. The same marks, rule, `k` and `depth` give the
//! same units, in the same order, on every machine and every run (the search is deterministic
//! and single-threaded below a unit).

use super::frontier::Below;
use super::search::Board;
use super::{check_size, GuardError, MarkGrid, Rule};
use crate::board::Square;
use crate::Deadline;

/// What refuting one unit gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitOutcome {
    /// A cover with at most `k` queens found below the unit (the first in the search's
    /// order), sorted by square; `None`: the unit is refuted.
    pub cover: Option<Vec<Square>>,
    /// Search nodes visited below the unit (deterministic: one thread, a fixed order).
    pub nodes: u64,
}

/// The units of one refutation (see the module documentation).
pub struct RefutationUnits {
    marks: MarkGrid,
    rule: Rule,
    queens: usize,
    depth: usize,
    /// Each unit's queens, as square indices (row-major), in placing order.
    paths: Vec<Vec<usize>>,
    engine: Box<dyn Engine>,
}

/// The search behind the units, for the bitset width the board needs.
trait Engine: Send + Sync {
    fn frontier(&self, k: usize, depth: usize, limit: usize) -> Option<Vec<Vec<usize>>>;
    fn refute(
        &self,
        k: usize,
        path: &[usize],
        deadline: &Deadline,
    ) -> Option<(bool, Vec<usize>, u64)>;
}

impl<const K: usize> Engine for Board<K> {
    fn frontier(&self, k: usize, depth: usize, limit: usize) -> Option<Vec<Vec<usize>>> {
        Board::frontier(self, k, depth, true, limit)
    }

    fn refute(
        &self,
        k: usize,
        path: &[usize],
        deadline: &Deadline,
    ) -> Option<(bool, Vec<usize>, u64)> {
        let (outcome, nodes) = self.search_below(k, path, true, false, deadline);
        Some(match outcome? {
            Below::Cover(queens) => (true, queens, nodes),
            _ => (false, Vec::new(), nodes),
        })
    }
}

fn engine<const K: usize>(marks: &MarkGrid, independent: bool) -> Box<dyn Engine> {
    Box::new(Board::<K>::new(
        marks.rows,
        marks.cols,
        &marks.marked,
        independent,
    ))
}

/// The depth that [`RefutationUnits::new`] uses when asked for none: 3 levels below the root
/// (about 10^4 to 10^5 units on full boards of 18 to 25 squares a side), fewer for small `k`.
pub fn default_depth(queens: usize) -> usize {
    queens.saturating_sub(3).clamp(1, 3)
}

/// The most units a refutation may have (its plan holds each unit's queens).
pub const MAX_UNITS: usize = 1 << 23;

impl RefutationUnits {
    /// The units of "`queens` queens cannot guard `marks`" under `rule`, cut `depth >= 1`
    /// levels below the root.
    ///
    /// # Errors
    /// As [`super::solve`]; [`GuardError::TooManyUnits`] when the cut would give more than
    /// [`MAX_UNITS`] units.
    pub fn new(
        marks: &MarkGrid,
        rule: Rule,
        queens: usize,
        depth: usize,
    ) -> Result<Self, GuardError> {
        check_size(marks)?;
        let squares = marks.rows * marks.cols;
        if queens > squares {
            return Err(GuardError::TooManyQueens { queens, squares });
        }
        let independent = rule == Rule::Independent;
        let depth = depth.max(1);
        let engine = with_words!(marks.rows * marks.cols, engine, marks, independent);
        if depth > 6 {
            return Err(GuardError::TooManyUnits { depth });
        }
        let paths = engine
            .frontier(queens, depth, MAX_UNITS)
            .ok_or(GuardError::TooManyUnits { depth })?;
        Ok(RefutationUnits {
            marks: marks.clone(),
            rule,
            queens,
            depth,
            paths,
            engine,
        })
    }

    /// The marks.
    pub fn marks(&self) -> &MarkGrid {
        &self.marks
    }

    /// The rule.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The number of queens refuted.
    pub fn queens(&self) -> usize {
        self.queens
    }

    /// The depth of the cut.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The number of units (ids `0..len()`).
    pub fn len(&self) -> usize {
        self.paths.len()
    }

    /// Whether there are no units (the refutation was settled while cutting: `k = 0`, or the
    /// bound cut every branch).
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    /// The queens that unit `id` places, in placing order (`None` outside the units).
    pub fn unit(&self, id: usize) -> Option<Vec<Square>> {
        let cols = self.marks.cols;
        self.paths
            .get(id)
            .map(|p| p.iter().map(|&s| Square::new(s / cols, s % cols)).collect())
    }

    /// The queens of unit `id` as square indices (row-major), in placing order.
    pub fn unit_squares(&self, id: usize) -> Option<&[usize]> {
        self.paths.get(id).map(Vec::as_slice)
    }

    /// Searches below unit `id` on the calling thread. `None` when `deadline` passed first or
    /// `id` is not a unit. Pure: the same unit gives the same outcome.
    pub fn refute(&self, id: usize, deadline: &Deadline) -> Option<UnitOutcome> {
        let path = self.paths.get(id)?;
        let (found, queens, nodes) = self.engine.refute(self.queens, path, deadline)?;
        let cols = self.marks.cols;
        let cover = found.then(|| {
            let mut cover: Vec<Square> = queens
                .into_iter()
                .map(|s| Square::new(s / cols, s % cols))
                .collect();
            cover.sort();
            cover
        });
        Some(UnitOutcome { cover, nodes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::search::{Bits, Level};
    use std::sync::atomic::AtomicU64;

    /// Random marks on a `rows x cols` board (about two in three squares).
    fn random_marks(rows: usize, cols: usize, seed: &mut u64) -> MarkGrid {
        let marked = (0..rows * cols)
            .map(|_| {
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                !seed.is_multiple_of(3)
            })
            .collect();
        MarkGrid { rows, cols, marked }
    }

    /// The fewest queens guarding the marks, by trying every set of squares (tiny boards).
    fn brute_minimum(marks: &MarkGrid, independent: bool) -> usize {
        let (rows, cols) = (marks.rows, marks.cols);
        let n = rows * cols;
        let sees = |a: usize, b: usize| {
            let (r1, c1, r2, c2) = (a / cols, a % cols, b / cols, b % cols);
            r1 == r2 || c1 == c2 || r1 + c2 == r2 + c1 || r1 + c1 == r2 + c2
        };
        (0u64..1 << n)
            .filter(|set| {
                let queens: Vec<usize> = (0..n).filter(|&s| set >> s & 1 == 1).collect();
                let guards = (0..n)
                    .filter(|&s| marks.marked[s])
                    .all(|s| queens.iter().any(|&q| sees(q, s)));
                let apart = !independent
                    || queens
                        .iter()
                        .all(|&a| queens.iter().all(|&b| a == b || !sees(a, b)));
                guards && apart
            })
            .map(|set| set.count_ones() as usize)
            .min()
            .unwrap_or(0)
    }

    fn covers(marks: &MarkGrid, queens: &[Square], independent: bool) -> bool {
        if independent {
            crate::verify::independent_guard(marks, queens).is_ok()
        } else {
            crate::verify::guard(marks, queens).is_ok()
        }
    }

    /// Whether `k` queens guard the marks, by the units: the first unit that finds a cover.
    fn by_units(marks: &MarkGrid, rule: Rule, k: usize, depth: usize) -> Option<Vec<Square>> {
        let units = RefutationUnits::new(marks, rule, k, depth).unwrap();
        let never = Deadline::never();
        (0..units.len()).find_map(|id| units.refute(id, &never).unwrap().cover)
    }

    /// On tiny boards (full, rectangles, random marks; both rules) the units refute one queen
    /// fewer than brute force's minimum at every depth, and find a cover that `verify` accepts
    /// with the minimum.
    #[test]
    fn units_agree_with_brute_force() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut boards = vec![
            MarkGrid::full(4, 4),
            MarkGrid::full(3, 5),
            MarkGrid::full(5, 4),
        ];
        for _ in 0..6 {
            boards.push(random_marks(4, 5, &mut seed));
        }
        for marks in &boards {
            for rule in [Rule::Any, Rule::Independent] {
                let independent = rule == Rule::Independent;
                let min = brute_minimum(marks, independent);
                for depth in 1..=4 {
                    if min > 0 {
                        assert_eq!(by_units(marks, rule, min - 1, depth), None, "{marks:?}");
                    }
                    let cover = by_units(marks, rule, min, depth).expect("a minimum cover");
                    assert!(cover.len() <= min && covers(marks, &cover, independent));
                }
            }
        }
    }

    /// On larger boards the units give the plain search's answer at each level (found or
    /// refuted, and the same first cover as [`Board::level`] at depth 2), and, with the root
    /// not reduced, they count every minimum cover exactly once ([`Board::count_level`]).
    #[test]
    fn units_split_the_search_exactly() {
        let mut seed = 0x243F_6A88_85A3_08D3u64;
        let mut boards = vec![
            MarkGrid::full(7, 7),
            MarkGrid::full(6, 9),
            MarkGrid::full(8, 8),
        ];
        for _ in 0..3 {
            boards.push(random_marks(8, 8, &mut seed));
        }
        let never = Deadline::never();
        for marks in &boards {
            for independent in [false, true] {
                let board = Board::<1>::new(marks.rows, marks.cols, &marks.marked, independent);
                let nodes = AtomicU64::new(0);
                let mut k = board.root_bound();
                let minimum = loop {
                    let plain = board.level(k, &never, &nodes);
                    for depth in 1..=4 {
                        let paths = board.frontier(k, depth, true, usize::MAX).unwrap();
                        let first = paths.iter().find_map(|p| {
                            match board.search_below(k, p, true, false, &never).0.unwrap() {
                                Below::Cover(queens) => Some(queens),
                                _ => None,
                            }
                        });
                        match &plain {
                            Level::Found(queens) => {
                                let cover = first.expect("the units find a cover");
                                let covered = cover
                                    .iter()
                                    .fold(Bits::<1>::EMPTY, |a, &q| a.or(&board.attack[q]));
                                assert!(board.marks.is_subset(&covered));
                                if depth == 2 {
                                    assert_eq!(&cover, queens);
                                }
                            }
                            Level::Infeasible => assert!(first.is_none(), "{marks:?} k={k}"),
                            Level::Stopped => unreachable!("no deadline"),
                        }
                    }
                    if matches!(plain, Level::Found(_)) {
                        break k;
                    }
                    k += 1;
                };
                let sets = board.count_level(minimum, &never, &nodes).unwrap();
                for depth in 1..=4 {
                    let total: u128 = board
                        .frontier(minimum, depth, false, usize::MAX)
                        .unwrap()
                        .iter()
                        .map(|p| {
                            let (found, _) = board.search_below(minimum, p, false, true, &never);
                            match found {
                                Some(Below::Counted(count)) => count,
                                other => panic!("not counted: {other:?}"),
                            }
                        })
                        .sum();
                    assert_eq!(total, sets, "{marks:?} depth {depth}");
                }
            }
        }
    }

    #[test]
    fn units_are_deterministic_and_bad_input_is_refused() {
        let marks = MarkGrid::full(9, 9);
        let a = RefutationUnits::new(&marks, Rule::Any, 4, 3).unwrap();
        let b = RefutationUnits::new(&marks, Rule::Any, 4, 3).unwrap();
        assert_eq!(a.len(), b.len());
        assert!(a.len() > 10);
        let never = Deadline::never();
        for id in 0..a.len() {
            assert_eq!(a.unit(id), b.unit(id));
            assert_eq!(a.unit(id).unwrap().len(), 3);
            assert_eq!(a.refute(id, &never), b.refute(id, &never));
        }
        assert_eq!(a.unit(a.len()), None);
        assert_eq!(a.refute(a.len(), &never), None);
        assert!(RefutationUnits::new(&MarkGrid::full(0, 3), Rule::Any, 2, 2).is_err());
        assert!(RefutationUnits::new(&marks, Rule::Any, 4, 9).is_err());
        assert!(RefutationUnits::new(&marks, Rule::Any, 82, 2).is_err());
        assert!(RefutationUnits::new(&marks, Rule::Any, 81, 2).is_ok());
        assert!(RefutationUnits::new(&marks, Rule::Any, 0, 2)
            .unwrap()
            .is_empty());
        let empty = MarkGrid {
            rows: 2,
            cols: 2,
            marked: vec![false; 4],
        };
        let units = RefutationUnits::new(&empty, Rule::Any, 0, 2).unwrap();
        assert_eq!(units.len(), 1);
        assert_eq!(units.refute(0, &never).unwrap().cover, Some(Vec::new()));
    }
}
