//! A count of completions cut into units: the search's subtrees a fixed number of branching
//! decisions below the root, in the search's (deterministic) order. [`super::count`] shares
//! them among threads; `crate::scale::CompletePlan` makes them the units of a sharded count.

use super::search::{Search, State, Visit};
use super::{start, CompleteError, PartialBoard};
use crate::Deadline;

/// The deepest cut [`CompletionUnits::at_least`] tries.
pub const MAX_DEPTH: usize = 16;

/// The subtrees of a board's completion search `depth` branching decisions below its root
/// (a completion met above the cut is a unit of its own). The units' counts add up to the
/// board's number of completions.
pub struct CompletionUnits {
    n: usize,
    depth: usize,
    pieces: Vec<State>,
    /// Search nodes above the cut.
    nodes: u64,
}

impl CompletionUnits {
    /// The units of `board` cut `depth` decisions below the root (none when the board's open
    /// rows and columns differ in number: it has no completion).
    ///
    /// # Errors
    /// As [`super::count`], for a board that cannot be searched.
    pub fn new(board: &PartialBoard, depth: usize) -> Result<Self, CompleteError> {
        let state = start(board)?;
        Ok(Self::cut(board.n, state.as_ref(), depth))
    }

    /// The units of the shallowest cut (at most [`MAX_DEPTH`] deep) that gives at least
    /// `wanted` units, or of the deepest one when none does (or of the one where every unit is
    /// a completion, below which the units stay the same).
    ///
    /// # Errors
    /// As [`CompletionUnits::new`].
    pub fn at_least(board: &PartialBoard, wanted: usize) -> Result<Self, CompleteError> {
        let state = start(board)?;
        let mut units = Self::cut(board.n, state.as_ref(), 0);
        for depth in 1..=MAX_DEPTH {
            // When every unit is a completion, a deeper cut makes the same units.
            if units.len() >= wanted || units.pieces.iter().all(|p| p.open_rows == 0) {
                break;
            }
            units = Self::cut(board.n, state.as_ref(), depth);
        }
        Ok(units)
    }

    fn cut(n: usize, state: Option<&State>, depth: usize) -> Self {
        let Some(state) = state else {
            return CompletionUnits {
                n,
                depth,
                pieces: Vec::new(),
                nodes: 0,
            };
        };
        if depth == 0 {
            return CompletionUnits {
                n,
                depth,
                pieces: vec![state.clone()],
                nodes: 0,
            };
        }
        let never = Deadline::never();
        let mut visit = |_: &[(usize, usize)]| true;
        let mut search = Search::new(n, &never, &mut visit).split_at(depth);
        search.run(state);
        let nodes = search.nodes;
        let pieces = std::mem::take(&mut search.pieces);
        CompletionUnits {
            n,
            depth,
            pieces,
            nodes,
        }
    }

    /// The number of units.
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    /// Whether there is no unit (the board has no completion).
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// Branching decisions above the cut.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Search nodes spent above the cut.
    pub fn nodes_above(&self) -> u64 {
        self.nodes
    }

    /// The queens that unit `i` starts from (the given ones and those placed above the cut),
    /// as (row, column).
    pub fn queens(&self, i: usize) -> Option<&[(usize, usize)]> {
        self.pieces.get(i).map(|p| p.queens.as_slice())
    }

    /// Counts the completions below unit `i`: (completions, search nodes), or `None` when the
    /// deadline passed first (or `i` is not a unit).
    pub fn count(&self, i: usize, deadline: &Deadline) -> Option<(u128, u64)> {
        let searched = self.search(i, deadline, &mut |_| true)?;
        (!searched.deadline_passed).then_some((searched.completions, searched.nodes))
    }

    /// Calls `visit` on each completion below unit `i` (as (row, column) pairs, unsorted) until
    /// it returns `false` or the deadline passes (`None`: `i` is not a unit).
    pub(crate) fn search(
        &self,
        i: usize,
        deadline: &Deadline,
        visit: Visit<'_>,
    ) -> Option<UnitSearch> {
        self.search_until(i, deadline, None, visit)
    }

    /// [`CompletionUnits::search`], ending (as at the deadline) also when `give_up`, polled
    /// with the deadline, returns `true`.
    pub(crate) fn search_until(
        &self,
        i: usize,
        deadline: &Deadline,
        give_up: Option<&(dyn Fn() -> bool + Sync)>,
        visit: Visit<'_>,
    ) -> Option<UnitSearch> {
        let piece = self.pieces.get(i)?;
        let mut completions = 0u128;
        let mut on_completion = |queens: &[(usize, usize)]| {
            completions += 1;
            visit(queens)
        };
        let mut search = Search::new(self.n, deadline, &mut on_completion);
        if let Some(give_up) = give_up {
            search = search.give_up_when(give_up);
        }
        search.run(piece);
        let (nodes, deadline_passed) = (search.nodes, search.stopped);
        drop(search);
        Some(UnitSearch {
            completions,
            nodes,
            deadline_passed,
        })
    }
}

/// What [`CompletionUnits::count`] and the crate's unit searches find in one unit: its
/// completions, its nodes, and whether the search was cut short.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnitSearch {
    /// Completions visited (all of the unit's, unless the visitor or the deadline stopped it).
    pub completions: u128,
    /// Search nodes.
    pub nodes: u64,
    /// Whether the deadline (or the cancel flag) ended the search.
    pub deadline_passed: bool,
}
