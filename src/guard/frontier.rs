//! The search cut into units for a sharded refutation (see `super::units`): the nodes a fixed
//! number of levels below the root, each named by its queens, and the search below one of them.

use super::search::{Bits, Board, Node, Shared, Worker};
use crate::Deadline;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// What [`Board::search_below`] found below a node.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Below {
    /// A cover: the node's queens and the rest.
    Cover(Vec<usize>),
    /// No cover below the node.
    Refuted,
    /// The number of covers below the node (when counting).
    Counted(u128),
}

/// The search cut into units for a sharded refutation (see `super::units`): the nodes a fixed
/// number of levels below the root, each named by its queens, and the search below one of them.
impl<const K: usize> Board<K> {
    /// The nodes `depth >= 1` levels below the root of the search for `k` queens, in
    /// depth-first order, each as the queens placed on the way (the root reduced by symmetry
    /// when `symmetric`, as in [`Board::level`]). A branch stops early where `tasks` stops: at a
    /// node that covers the marks or has fewer than two queens left; nodes cut on the way (no
    /// child passes the bound) are left out, being refuted. With `depth` 2 and `symmetric` these
    /// are the tasks of [`Board::level`]. With no marks the root is the one unit; with `k = 0`
    /// and marks there is none. `None` as soon as there are more than `limit` nodes.
    pub(crate) fn frontier(
        &self,
        k: usize,
        depth: usize,
        symmetric: bool,
        limit: usize,
    ) -> Option<Vec<Vec<usize>>> {
        if self.marks.is_empty() {
            return Some(vec![Vec::new()]);
        }
        if k == 0 {
            return Some(Vec::new());
        }
        let root = self.first_level(k, symmetric);
        let mut out = Vec::new();
        for child in root {
            if !self.expand(child, k - 1, depth.max(1) - 1, &mut out, limit) {
                return None;
            }
        }
        Some(out)
    }

    /// The root's children: by symmetry or plain.
    pub(super) fn first_level(&self, k: usize, symmetric: bool) -> Vec<Node<K>> {
        if symmetric {
            self.root_children(k)
        } else {
            let root = Node {
                queens: Vec::new(),
                covered: Bits::EMPTY,
                forbidden: Bits::EMPTY,
            };
            self.children(&root, k)
        }
    }

    /// Appends to `out` the queens of the nodes `levels` below `node` (which has `r` queens
    /// left), in depth-first order; false (stopping) once `out` holds more than `limit`.
    fn expand(
        &self,
        node: Node<K>,
        r: usize,
        levels: usize,
        out: &mut Vec<Vec<usize>>,
        limit: usize,
    ) -> bool {
        if levels == 0 || r < 2 || self.marks.is_subset(&node.covered) {
            out.push(node.queens);
            return out.len() <= limit;
        }
        for child in self.children(&node, r) {
            if !self.expand(child, r - 1, levels - 1, out, limit) {
                return false;
            }
        }
        true
    }

    /// The node reached from the root by placing `path` in order, following the branching
    /// rule (so with the forbidden squares of the earlier siblings); `None` when `path` is not a
    /// branch of the search for `k` queens.
    fn replay(&self, k: usize, path: &[usize], symmetric: bool) -> Option<Node<K>> {
        let Some((&first, rest)) = path.split_first() else {
            return Some(Node {
                queens: Vec::new(),
                covered: Bits::EMPTY,
                forbidden: Bits::EMPTY,
            });
        };
        if k == 0 {
            return None;
        }
        let mut node = self
            .first_level(k, symmetric)
            .into_iter()
            .find(|c| c.queens == [first])?;
        for &q in rest {
            let r = k - node.queens.len();
            if r == 0 {
                return None;
            }
            node = self
                .children(&node, r)
                .into_iter()
                .find(|c| c.queens.last() == Some(&q))?;
        }
        Some(node)
    }

    /// Searches below the node of `path` (see [`Board::frontier`]) for a cover with at most
    /// `k` queens on one thread: what it found, `None` when the deadline passed first or
    /// `path` is no branch; and the nodes visited. With `counting`, the covers below the node
    /// are counted instead (for `k` the minimum, as in [`Board::count_level`]).
    pub(crate) fn search_below(
        &self,
        k: usize,
        path: &[usize],
        symmetric: bool,
        counting: bool,
        deadline: &Deadline,
    ) -> (Option<Below>, u64) {
        let Some(node) = self.replay(k, path, symmetric) else {
            return (None, 0);
        };
        let shared = Shared {
            deadline,
            stop: AtomicBool::new(false),
            first_found: AtomicUsize::new(usize::MAX),
        };
        let mut worker = Worker {
            board: self,
            shared: &shared,
            task: 0,
            queens: node.queens.clone(),
            nodes: 0,
            poll: 0,
            halted: false,
            counting,
            count: 0,
            gains: vec![0; self.squares],
        };
        let hit = worker.search(node.covered, node.forbidden, k - node.queens.len());
        let nodes = worker.nodes;
        if shared.stop.load(Ordering::Relaxed) {
            return (None, nodes);
        }
        let outcome = if counting {
            Below::Counted(worker.count)
        } else if hit {
            Below::Cover(worker.queens)
        } else {
            Below::Refuted
        };
        (Some(outcome), nodes)
    }
}
