//! Depth-first branch and bound over rows with bitboards, bounded by an incrementally
//! re-optimised assignment relaxation (see [`super::assign`]) on Lagrangian-adjusted costs.
//!
//! Costs are minimised here: `cost(r, c) = scale * (rowmax(r) - w(r, c))`, so the best placement
//! is the one of least cost. The search runs on `cost' = cost + lambda(diagonal) +
//! lambda(anti-diagonal)` with `lambda >= 0`; for any placement `cost' - Lambda <= cost` where
//! `Lambda` is the sum of all multipliers, so `lb' - Lambda` bounds the true cost from below.
//!
//! Determinism: each worker owns a *rank* (the heuristic is rank 0, subproblem `i` of the
//! frontier is rank `i + 1`). A leaf replaces the incumbent when it is cheaper, or equally cheap
//! with a smaller rank; a node is pruned when it cannot be cheaper, or can only tie and the
//! incumbent's rank is at most the worker's. Child order depends only on the node. So the final
//! answer is the heuristic's when nothing beats it, otherwise the first leaf (in its depth-first
//! order) of the lowest-ranked subproblem holding the optimum, whatever the thread count.

use crate::options::Deadline;
use crate::primitive::assign::{Cost, Duals, NONE};
use crate::primitive::lanes::{bits, Lanes};
use crate::primitive::rng::Xorshift64;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The costs a weight search runs on: scaled to integers and adjusted by the diagonal prices
/// (Lagrangian multipliers), with the true costs beside them.
pub(crate) struct PricedCosts<T, L> {
    /// Side length, 4..=`L::WIDTH`.
    pub n: usize,
    /// Mask of the `n` columns.
    pub full: L,
    /// `cost'`: row-major, stride `n`.
    pub cost: Vec<T>,
    /// The true scaled cost, row-major, stride `n` (multiples of `scale`).
    pub true_cost: Vec<T>,
    /// `Lambda`, the sum of all multipliers.
    pub lambda_total: T,
    /// The multipliers: diagonals (`c - r + n - 1`), then anti-diagonals (`2n - 1 + r + c`).
    pub lambda: Vec<T>,
    /// The scale of the true costs.
    pub scale: T,
}

/// A node: the queens placed so far, what is still allowed, and the assignment relaxation of
/// the rest (all free rows matched, duals feasible).
#[derive(Clone)]
pub(crate) struct Node<T: Cost, L: Lanes> {
    rows_free: L,
    cols_free: L,
    diag: L::Lines,
    anti: L::Lines,
    /// Lower bound on `cost'` of every completion: placed `cost'` plus the free duals.
    pub lb: T,
    placed_cost: T,
    cols: L::Array<u8>,
    allowed: L::Array<L>,
    duals: Duals<T, L>,
}

impl<T: Cost, L: Lanes> Node<T, L> {
    /// The empty board with its assignment relaxation solved, or `None` if (impossibly) no
    /// perfect matching exists.
    pub fn root(p: &PricedCosts<T, L>) -> Option<Self> {
        let mut allowed = L::array(L::EMPTY);
        for r in 0..p.n {
            allowed[r] = p.full;
        }
        let (duals, lb) = Duals::solve(p.full, &allowed, &p.cost, p.n)?;
        Some(Node {
            rows_free: p.full,
            cols_free: p.full,
            diag: L::NO_LINES,
            anti: L::NO_LINES,
            lb,
            placed_cost: T::default(),
            cols: L::array(NONE),
            allowed,
            duals,
        })
    }

    /// Columns still open to row `r`: free column, free diagonal, free anti-diagonal.
    #[inline]
    fn open_columns(&self, r: usize, n: usize) -> L {
        self.cols_free & !L::window(self.diag, n - 1 - r) & !L::window(self.anti, r)
    }
}

/// The best placement found so far, shared by all workers.
pub(crate) struct Incumbent<T> {
    /// Its true scaled cost.
    pub cost: T,
    /// Rank of the worker that found it (0: the heuristic).
    pub rank: usize,
    /// Column per row.
    pub cols: Vec<u8>,
}

/// State shared by the workers.
pub(crate) struct Shared<T> {
    /// The incumbent.
    pub best: Mutex<Incumbent<T>>,
    /// Set when the deadline passes: every worker unwinds.
    pub stop: AtomicBool,
    /// The caller's deadline.
    pub deadline: Deadline,
}

impl<T: Cost> Shared<T> {
    /// Offers a placement; it is taken when cheaper, or as cheap with a smaller rank.
    pub fn offer(&self, cost: T, rank: usize, cols: &[u8]) {
        let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        if cost < best.cost || (cost == best.cost && rank < best.rank) {
            best.cost = cost;
            best.rank = rank;
            best.cols.clear();
            best.cols.extend_from_slice(cols);
        }
    }

    fn snapshot(&self) -> (T, usize) {
        let best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        (best.cost, best.rank)
    }
}

/// One depth-first searcher with its cached view of the incumbent.
pub(crate) struct Worker<'a, T, L> {
    p: &'a PricedCosts<T, L>,
    shared: &'a Shared<T>,
    rank: usize,
    best: T,
    holder: usize,
    strict_threshold: T,
    tie_threshold: T,
    /// Nodes visited.
    pub nodes: u64,
    node_limit: u64,
    stopped: bool,
}

const POLL_EVERY: u64 = 1024;

impl<'a, T: Cost, L: Lanes> Worker<'a, T, L> {
    /// A worker of the given rank; it stops by itself after `node_limit` nodes.
    pub fn new(
        p: &'a PricedCosts<T, L>,
        shared: &'a Shared<T>,
        rank: usize,
        node_limit: u64,
    ) -> Self {
        let mut w = Worker {
            p,
            shared,
            rank,
            best: T::default(),
            holder: 0,
            strict_threshold: T::default(),
            tie_threshold: T::default(),
            nodes: 0,
            node_limit,
            stopped: false,
        };
        w.refresh();
        w
    }

    fn refresh(&mut self) {
        let (best, holder) = self.shared.snapshot();
        self.best = best;
        self.holder = holder;
        // A completion costs at least lb - Lambda; true costs are multiples of `scale`.
        self.strict_threshold = best - self.p.scale + self.p.lambda_total;
        self.tie_threshold = best + self.p.lambda_total;
    }

    fn poll(&mut self) {
        self.refresh();
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        } else if self.shared.deadline.reached() {
            self.shared.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
        } else if self.nodes >= self.node_limit {
            self.stopped = true;
        }
    }

    /// Whether nothing under a node with this bound can replace the incumbent.
    #[inline]
    fn prunable(&self, lb: T) -> bool {
        lb > self.ceiling()
    }

    /// The largest bound of a node that may still hold a replacement of the incumbent: a
    /// strictly cheaper placement, or an equal one when the incumbent's holder ranks after
    /// this worker.
    #[inline]
    fn ceiling(&self) -> T {
        if self.holder > self.rank {
            self.tie_threshold
        } else {
            self.strict_threshold
        }
    }

    fn leaf(&mut self, node: &Node<T, L>) {
        let cost = node.placed_cost;
        if cost < self.best || (cost == self.best && self.rank < self.holder) {
            self.shared
                .offer(cost, self.rank, &node.cols.as_ref()[..self.p.n]);
            self.refresh();
        }
    }

    /// The row to branch on and its children as `(bound, column)`, best bound first (lowest
    /// column on ties). The row is the first with at most one open square, else the one of
    /// largest regret: the second-least reduced cost among its open squares (the least is 0, on
    /// its matched partner), i.e. what the bound loses when the row cannot have its partner.
    /// Ties go to the lowest row.
    fn branch(&self, node: &Node<T, L>, kids: &mut L::Array<(T, u8)>) -> (usize, usize) {
        let n = self.p.n;
        let mut chosen: Option<(T, usize)> = None;
        for r in bits(node.rows_free) {
            if node.allowed[r].count() <= 1 {
                chosen = Some((T::default(), r));
                break;
            }
            let cost = &self.p.cost[r * n..r * n + n];
            let ur = node.duals.u[r];
            let partner = node.duals.row_match[r] as usize;
            let mut regret: Option<T> = None;
            for c in bits(node.allowed[r] & !L::bit(partner)) {
                let reduced = cost[c] - ur - node.duals.v[c];
                regret = Some(regret.map_or(reduced, |s: T| s.min(reduced)));
            }
            let regret = regret.unwrap_or_default();
            if chosen.is_none_or(|(widest, _)| regret > widest) {
                chosen = Some((regret, r));
            }
        }
        let row = chosen.map_or(0, |(_, r)| r);
        let cost = &self.p.cost[row * n..row * n + n];
        let ur = node.duals.u[row];
        let mut len = 0;
        for c in bits(node.allowed[row]) {
            let item = (node.lb + (cost[c] - ur - node.duals.v[c]), c as u8);
            let mut i = len;
            while i > 0 && kids[i - 1] > item {
                kids[i] = kids[i - 1];
                i -= 1;
            }
            kids[i] = item;
            len += 1;
        }
        (row, len)
    }

    /// The child placing a queen on `(r, c)` with relaxation re-optimised, or `None` when it is
    /// infeasible or pruned.
    fn child(&mut self, node: &Node<T, L>, r: usize, c: usize, lb: T) -> Option<Node<T, L>> {
        debug_assert!(
            !self.prunable(lb),
            "a child's bound is checked before it is made"
        );
        let n = self.p.n;
        let mut ch = node.clone();
        ch.rows_free &= !L::bit(r);
        ch.cols_free &= !L::bit(c);
        L::mark(&mut ch.diag, c + n - 1 - r);
        L::mark(&mut ch.anti, r + c);
        ch.cols[r] = c as u8;
        ch.placed_cost = ch.placed_cost + self.p.true_cost[r * n + c];
        ch.lb = lb;
        let d = &mut ch.duals;
        let partner = d.row_match[r];
        if partner as usize != c {
            let k = d.col_match[c];
            d.row_match[k as usize] = NONE;
            d.col_match[partner as usize] = NONE;
        }
        d.row_match[r] = NONE;
        d.col_match[c] = NONE;
        let mut unmatched = L::EMPTY;
        for k in bits(ch.rows_free) {
            let open = ch.open_columns(k, n);
            if open == L::EMPTY {
                return None;
            }
            ch.allowed[k] = open;
            let m = ch.duals.row_match[k];
            if m == NONE {
                unmatched |= L::bit(k);
            } else if !open.has(m as usize) {
                ch.duals.row_match[k] = NONE;
                ch.duals.col_match[m as usize] = NONE;
                unmatched |= L::bit(k);
            }
        }
        ch.allowed[r] = L::EMPTY;
        // Each re-augmentation gives up once the bound would pass the ceiling, so a child
        // returned has its bound within it (as `lb`, checked by the caller, is).
        let ceiling = self.ceiling();
        for k in bits(unmatched) {
            let slack = ceiling - ch.lb;
            ch.lb = ch.lb
                + ch.duals
                    .augment_within(k, &ch.allowed, &self.p.cost, n, Some(slack))?;
        }
        Some(ch)
    }

    /// Searches the subtree of `node`. Returns `None` when it was searched completely, or the
    /// least bound of the nodes left open when the worker stopped.
    pub fn search(&mut self, node: &Node<T, L>) -> Option<T> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_EVERY) || self.nodes >= self.node_limit {
            self.poll();
        }
        if self.stopped {
            return Some(node.lb);
        }
        if node.rows_free == L::EMPTY {
            self.leaf(node);
            return None;
        }
        if self.prunable(node.lb) {
            return None;
        }
        let mut kids = L::array((T::default(), 0u8));
        let (row, len) = self.branch(node, &mut kids);
        for i in 0..len {
            let (lb, c) = kids[i];
            if self.prunable(lb) {
                break;
            }
            if let Some(child) = self.child(node, row, c as usize, lb) {
                if let Some(open) = self.search(&child) {
                    let rest = if i + 1 < len { kids[i + 1].0 } else { open };
                    return Some(open.min(rest));
                }
            }
        }
        None
    }

    /// Beam search below `start`: level by level, the `width` nodes of least bound, each one
    /// queen deeper than the last level's. Each level's candidates are the children of the
    /// level's nodes on their branching rows (at most `width` from each node), taken in order of
    /// the cheap bound (parent bound plus reduced cost; ties by node and column, so the search
    /// is deterministic); the first `2 * width` that survive re-optimisation are made and the
    /// `width` of least bound kept. Complete placements are offered as leaves. Stops early when
    /// the search is stopped or the node limit passed (both looked at once a level).
    pub fn beam(&mut self, start: &Node<T, L>, width: usize) {
        let mut level = vec![start.clone()];
        let mut kids = L::array((T::default(), 0u8));
        let mut candidates: Vec<(T, usize, u8, usize)> = Vec::new();
        while !level.is_empty() {
            self.poll();
            if self.stopped {
                return;
            }
            candidates.clear();
            for (i, node) in level.iter().enumerate() {
                if node.rows_free == L::EMPTY {
                    self.leaf(node);
                    continue;
                }
                let (row, len) = self.branch(node, &mut kids);
                for &(lb, c) in &kids.as_ref()[..len.min(width)] {
                    if self.prunable(lb) {
                        break;
                    }
                    candidates.push((lb, i, c, row));
                }
            }
            candidates.sort_unstable();
            let mut next = Vec::with_capacity(2 * width);
            for &(lb, i, c, row) in &candidates {
                if next.len() == 2 * width {
                    break;
                }
                if self.prunable(lb) {
                    continue;
                }
                self.nodes += 1;
                if let Some(child) = self.child(&level[i], row, c as usize, lb) {
                    next.push(child);
                }
            }
            next.sort_by_key(|node| node.lb);
            next.truncate(width);
            level = next;
        }
    }

    /// The children of `node` that survive pruning, in search order (for splitting the tree).
    pub fn expand(&mut self, node: &Node<T, L>) -> Vec<Node<T, L>> {
        self.nodes += 1;
        if node.rows_free == L::EMPTY {
            return vec![node.clone()];
        }
        let mut kids = L::array((T::default(), 0u8));
        let (row, len) = self.branch(node, &mut kids);
        let mut out = Vec::with_capacity(len);
        for &(lb, c) in &kids.as_ref()[..len] {
            if self.prunable(lb) {
                break;
            }
            if let Some(child) = self.child(node, row, c as usize, lb) {
                out.push(child);
            }
        }
        out
    }

    /// The child placing a queen on `(r, c)` (an open square of a free row), or `None` when it
    /// cannot hold a placement better than the incumbent.
    pub fn place(&mut self, node: &Node<T, L>, r: usize, c: usize) -> Option<Node<T, L>> {
        if !node.rows_free.has(r) || !node.allowed[r].has(c) {
            return None;
        }
        let reduced = self.p.cost[r * self.p.n + c] - node.duals.u[r] - node.duals.v[c];
        let lb = node.lb + reduced;
        if self.prunable(lb) {
            return None;
        }
        self.child(node, r, c, lb)
    }

    /// Whether a node (e.g. a frontier node) can be dropped without search.
    pub fn can_prune(&self, node: &Node<T, L>) -> bool {
        node.rows_free != L::EMPTY && self.prunable(node.lb)
    }
}

/// How [`neighbourhoods`] searches the freed rows of each neighbourhood.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Neighbourhood {
    /// This module's branch and bound, depth first, for at most this many nodes.
    DepthFirst(u64),
    /// [`Worker::beam`] of this width.
    Beam(usize),
}

/// Large-neighbourhood search around the incumbent, for boards too large to prove: `rounds`
/// times, keep the incumbent's queens outside `free` chosen rows (for depth-first search a band
/// of consecutive rows or a scattered set, alternately; for beams a scattered set), and search
/// the placements of the freed rows as `how` says, against the incumbent's cost. A better
/// placement found becomes the incumbent (rank 0). The rounds go in pairs that start from the
/// same incumbent and are searched side by side (with `rayon::join`, so on two threads when the
/// caller's pool has them), each against its own copy of the incumbent; the better result (the
/// first on a tie) is kept. So the outcome does not depend on the thread count or timing,
/// unless the deadline stops it. Returns the nodes visited.
pub(crate) fn neighbourhoods<T: Cost, L: Lanes>(
    p: &PricedCosts<T, L>,
    shared: &Shared<T>,
    root: &Node<T, L>,
    rounds: usize,
    free: usize,
    how: Neighbourhood,
) -> u64 {
    let n = p.n;
    let free = free.min(n);
    let mut rng = Xorshift64::new(0x9E37_79B9_7F4A_7C15);
    let mut random = move |bound: usize| rng.below(bound);
    let mut choose = |round: usize| {
        let mut freed = L::EMPTY;
        // Beams do better on scattered rows alone (docs/weight.md).
        let band = matches!(how, Neighbourhood::DepthFirst(_)) && round.is_multiple_of(2);
        if band {
            let start = random(n);
            for i in 0..free {
                freed |= L::bit((start + i) % n);
            }
        } else {
            while (freed.count() as usize) < free {
                freed |= L::bit(random(n));
            }
        }
        freed
    };
    let mut nodes = 0;
    for round in (0..rounds).step_by(2) {
        if shared.stop.load(Ordering::Relaxed) {
            break;
        }
        if shared.deadline.reached() {
            shared.stop.store(true, Ordering::Relaxed);
            break;
        }
        let (cost, cols) = {
            let best = shared.best.lock().unwrap_or_else(|e| e.into_inner());
            (best.cost, best.cols.clone())
        };
        let (first, second) = (choose(round), choose(round + 1));
        let explore = |freed: L| {
            let local = Shared {
                best: Mutex::new(Incumbent {
                    cost,
                    rank: 0,
                    cols: cols.clone(),
                }),
                stop: AtomicBool::new(false),
                deadline: shared.deadline.clone(),
            };
            let node_limit = match how {
                Neighbourhood::DepthFirst(nodes) => nodes,
                Neighbourhood::Beam(_) => u64::MAX,
            };
            let mut worker = Worker::new(p, &local, 0, node_limit);
            let mut node = Some(root.clone());
            for (r, &c) in cols.iter().enumerate() {
                if !freed.has(r) {
                    node = node.and_then(|at| worker.place(&at, r, c as usize));
                }
            }
            match (node, how) {
                (Some(node), Neighbourhood::DepthFirst(_)) => {
                    worker.search(&node);
                }
                (Some(node), Neighbourhood::Beam(width)) => worker.beam(&node, width),
                (None, _) => {}
            }
            let visited = worker.nodes;
            let found = local.best.into_inner().unwrap_or_else(|e| e.into_inner());
            (found, visited)
        };
        let ((a, a_nodes), (b, b_nodes)) = rayon::join(|| explore(first), || explore(second));
        nodes += a_nodes + b_nodes;
        let better = if b.cost < a.cost { b } else { a };
        if better.cost < cost {
            shared.offer(better.cost, 0, &better.cols);
        }
    }
    nodes
}

/// Re-tunes the multipliers for the subtree of `node` by `iterations` projected subgradient
/// steps on its own assignment relaxation (lines held by placed queens get multiplier 0), with
/// `upper` (a true scaled cost) as the Polyak target. Returns the subproblem with its own costs
/// and the node re-solved under them, when that bound is stronger than the inherited one.
/// Depends only on its arguments, so it keeps the search deterministic, unless `deadline`
/// passes first: then it gives up (`None`), as the search that follows stops at once anyway.
pub(crate) fn retune<T: Cost, L: Lanes>(
    p: &PricedCosts<T, L>,
    node: &Node<T, L>,
    upper: T,
    iterations: usize,
    deadline: &Deadline,
) -> Option<(PricedCosts<T, L>, Node<T, L>)> {
    let n = p.n;
    let lines = 2 * n - 1;
    if node.rows_free == L::EMPTY || iterations == 0 {
        return None;
    }
    let mut lambda = p.lambda.clone();
    for d in 0..lines {
        if L::marked(node.diag, d) {
            lambda[d] = T::default();
        }
        if L::marked(node.anti, d) {
            lambda[lines + d] = T::default();
        }
    }
    let inherited = node.lb.to_i128() - p.lambda_total.to_i128();
    let remaining = upper.to_i128() - node.placed_cost.to_i128();
    let cap = p
        .lambda
        .iter()
        .map(|l| l.to_i128())
        .max()
        .unwrap_or(0)
        .max(p.scale.to_i128())
        * 2;
    let mut cost = p.true_cost.clone();
    let mut best: Option<(i128, Vec<T>)> = None;
    let mut count = vec![0i64; 2 * lines];
    let mut theta = 1.0f64;
    let mut stale = 0;
    for _ in 0..iterations {
        if deadline.reached() {
            return None;
        }
        for r in bits(node.rows_free) {
            for c in bits(node.allowed[r]) {
                cost[r * n + c] =
                    p.true_cost[r * n + c] + lambda[c + n - 1 - r] + lambda[lines + r + c];
            }
        }
        let (duals, value) = Duals::solve(node.rows_free, &node.allowed, &cost, n)?;
        let total: i128 = lambda.iter().map(|l| l.to_i128()).sum();
        let lower = value.to_i128() - total;
        if best.as_ref().is_none_or(|(b, _)| lower > *b) {
            best = Some((lower, lambda.clone()));
            stale = 0;
        } else {
            stale += 1;
            if stale >= 5 {
                theta /= 2.0;
                stale = 0;
            }
        }
        if lower > remaining - p.scale.to_i128() {
            break;
        }
        count.iter_mut().for_each(|k| *k = 0);
        for r in bits(node.rows_free) {
            let c = duals.row_match[r] as usize;
            count[c + n - 1 - r] += 1;
            count[lines + r + c] += 1;
        }
        let mut norm = 0.0f64;
        for d in 0..2 * lines {
            let held = if d < lines {
                L::marked(node.diag, d)
            } else {
                L::marked(node.anti, d - lines)
            };
            let g = count[d] - 1;
            if !held && (g > 0 || lambda[d] > T::default()) {
                norm += (g * g) as f64;
            }
        }
        if norm == 0.0 {
            break;
        }
        let step = theta * (remaining - lower).max(p.scale.to_i128()) as f64 / norm;
        for d in 0..2 * lines {
            let held = if d < lines {
                L::marked(node.diag, d)
            } else {
                L::marked(node.anti, d - lines)
            };
            if !held {
                let moved = lambda[d].to_i128() + (step * (count[d] - 1) as f64).round() as i128;
                lambda[d] = T::from_i128(moved.clamp(0, cap));
            }
        }
    }
    let (lower, lambda) = best?;
    if lower + node.placed_cost.to_i128() <= inherited {
        return None;
    }
    let mut cost = p.true_cost.clone();
    for r in 0..n {
        for c in 0..n {
            cost[r * n + c] = cost[r * n + c] + lambda[c + n - 1 - r] + lambda[lines + r + c];
        }
    }
    let (duals, value) = Duals::solve(node.rows_free, &node.allowed, &cost, n)?;
    let mut lambda_total = T::default();
    for &l in &lambda {
        lambda_total = lambda_total + l;
    }
    let priced = PricedCosts {
        n,
        full: p.full,
        cost,
        true_cost: p.true_cost.clone(),
        lambda_total,
        lambda,
        scale: p.scale,
    };
    let mut node = node.clone();
    node.duals = duals;
    node.lb = node.placed_cost + value;
    Some((priced, node))
}
