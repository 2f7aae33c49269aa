//! Depth-first search with a move budget over real queen moves (one IDA* iteration).
//!
//! The heuristic of a position is the smallest relaxed cost to any candidate target. It is
//! admissible (blocking only adds moves) and consistent (one move changes a relaxed cost by at
//! most one), so a budget of `B` moves only explores moves that keep `moves made + heuristic`
//! within `B`. Every solution reachable in `B` moves has relaxed cost at most `B` from the start,
//! so the candidates are exactly the solutions of start cost at most `B`. Positions already
//! refuted with at least the remaining budget are skipped (a transposition table keyed by a
//! 128-bit Zobrist hash of the occupied squares).

use super::square::Sq;
use super::targets::{cost, Scratch};
use super::Move;
use crate::board::Square;
use crate::Deadline;
use std::collections::HashMap;

/// The result of one budgeted search.
pub(crate) enum Outcome {
    /// A plan within the budget, and the index of the target it reaches.
    Found(Vec<(Sq, Sq)>),
    /// No plan within the budget exists.
    Refuted,
    /// The deadline or the node cap stopped the search.
    Stopped,
}

/// Refuted positions remembered at most (then the table starts afresh).
const MAX_REMEMBERED: usize = 1 << 22;

use crate::board::QUEEN_DIRECTIONS as DIRS;

fn zobrist(seed: u64) -> Vec<u128> {
    let mut x = seed;
    let mut next = || {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    (0..64 * 64)
        .map(|_| (next() as u128) << 64 | next() as u128)
        .collect()
}

struct State<'a> {
    n: usize,
    targets: &'a [Vec<u8>],
    queens: Vec<Sq>,
    occ: [u64; 64],
    keys: Vec<u128>,
    key: u128,
    refuted: HashMap<u128, u32>,
    path: Vec<(Sq, Sq)>,
    scratch: Scratch,
    deadline: &'a Deadline,
    nodes: u64,
    node_cap: u64,
    stopped: bool,
    /// Per depth: the active targets and the children, reused to avoid allocation.
    active: Vec<Vec<u32>>,
    children: Vec<Vec<(u32, u8, Sq)>>,
}

/// Searches for a plan of at most `budget` moves from `queens` to any of `targets`. A refutation
/// proves that no plan of `budget` moves exists only when `targets` holds every solution of
/// relaxed start cost at most `budget`. Stops (as for the deadline) after `node_cap` nodes.
pub(crate) fn within(
    n: usize,
    queens: &[Sq],
    targets: &[Vec<u8>],
    budget: u32,
    deadline: &Deadline,
    node_cap: u64,
) -> (Outcome, u64) {
    let keys = zobrist(0x05EE_D0F0_E1E5_u64);
    let mut occ = [0u64; 64];
    let mut key = 0u128;
    for &(r, c) in queens {
        occ[r as usize] |= 1 << c;
        key ^= keys[r as usize * 64 + c as usize];
    }
    let mut st = State {
        n,
        targets,
        queens: queens.to_vec(),
        occ,
        keys,
        key,
        refuted: HashMap::new(),
        path: Vec::new(),
        scratch: Scratch::default(),
        deadline,
        nodes: 0,
        node_cap,
        stopped: false,
        active: vec![Vec::new(); budget as usize + 2],
        children: vec![Vec::new(); budget as usize + 2],
    };
    let mut root = std::mem::take(&mut st.active[0]);
    let mut h = u32::MAX;
    for (t, cols) in targets.iter().enumerate() {
        if let Some(c) = cost(&st.queens, cols, budget, &mut st.scratch) {
            root.push(t as u32);
            h = h.min(c);
        }
    }
    if root.is_empty() {
        return (Outcome::Refuted, 0);
    }
    st.active[0] = root;
    let found = st.dfs(0, budget, h);
    let outcome = if found {
        Outcome::Found(std::mem::take(&mut st.path))
    } else if st.stopped {
        Outcome::Stopped
    } else {
        Outcome::Refuted
    };
    (outcome, st.nodes)
}

impl State<'_> {
    fn apply(&mut self, i: usize, to: Sq) {
        let from = self.queens[i];
        self.occ[from.0 as usize] &= !(1 << from.1);
        self.occ[to.0 as usize] |= 1 << to.1;
        self.key ^= self.keys[from.0 as usize * 64 + from.1 as usize]
            ^ self.keys[to.0 as usize * 64 + to.1 as usize];
        self.queens[i] = to;
    }

    /// The smallest cost over the targets of `active` that is at most `limit`.
    fn heuristic(&mut self, active: &[u32], limit: u32, floor: u32) -> Option<u32> {
        let mut best: Option<u32> = None;
        let mut limit = limit;
        for &t in active {
            if let Some(c) = cost(
                &self.queens,
                &self.targets[t as usize],
                limit,
                &mut self.scratch,
            ) {
                best = Some(c);
                if c <= floor {
                    break;
                }
                limit = c - 1;
            }
        }
        best
    }

    /// Position at `depth` with heuristic `h`, `budget` moves left; true when a plan was found
    /// (then `path` holds it).
    fn dfs(&mut self, depth: usize, budget: u32, h: u32) -> bool {
        if h == 0 {
            return true;
        }
        self.nodes += 1;
        if self.nodes >= self.node_cap || (self.nodes & 7 == 0 && self.deadline.reached()) {
            self.stopped = true;
        }
        if self.stopped || h > budget {
            return false;
        }
        if self.refuted.get(&self.key).is_some_and(|&b| b >= budget) {
            return false;
        }
        let active = std::mem::take(&mut self.active[depth]);
        let mut children = std::mem::take(&mut self.children[depth]);
        children.clear();
        let n = self.n as i32;
        let floor = h.saturating_sub(1);
        for i in 0..self.queens.len() {
            let from = self.queens[i];
            for (dr, dc) in DIRS {
                let (mut r, mut c) = (from.0 as i32 + dr, from.1 as i32 + dc);
                while r >= 0 && r < n && c >= 0 && c < n && self.occ[r as usize] >> c & 1 == 0 {
                    let to = (r as u8, c as u8);
                    self.apply(i, to);
                    if let Some(hc) = self.heuristic(&active, budget - 1, floor) {
                        children.push((hc, i as u8, to));
                    }
                    self.apply(i, from);
                    r += dr;
                    c += dc;
                }
            }
        }
        // Most promising first; ties in generation order (deterministic).
        children.sort_by_key(|&(hc, _, _)| hc);
        let mut found = false;
        for &(hc, i, to) in children.iter() {
            let i = i as usize;
            let from = self.queens[i];
            self.apply(i, to);
            // The child's active targets: those still within its budget.
            let mut next = std::mem::take(&mut self.active[depth + 1]);
            next.clear();
            for &t in &active {
                if cost(
                    &self.queens,
                    &self.targets[t as usize],
                    budget - 1,
                    &mut self.scratch,
                )
                .is_some()
                {
                    next.push(t);
                }
            }
            self.active[depth + 1] = next;
            self.path.push((from, to));
            if self.dfs(depth + 1, budget - 1, hc) {
                found = true;
            } else {
                self.path.pop();
            }
            self.apply(i, from);
            if found || self.stopped {
                break;
            }
        }
        self.active[depth] = active;
        self.children[depth] = children;
        if !found && !self.stopped {
            if self.refuted.len() >= MAX_REMEMBERED {
                // Memory stays bounded; forgetting only costs repeated work.
                self.refuted.clear();
            }
            let entry = self.refuted.entry(self.key).or_insert(0);
            *entry = (*entry).max(budget);
        }
        found
    }
}

/// Converts internal move pairs to public moves.
pub(crate) fn to_moves(path: &[(Sq, Sq)]) -> Vec<Move> {
    path.iter()
        .map(|&(f, t)| Move {
            from: Square::new(f.0 as usize, f.1 as usize),
            to: Square::new(t.0 as usize, t.1 as usize),
        })
        .collect()
}
