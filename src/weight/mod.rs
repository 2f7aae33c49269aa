//! Best-sum placement: N mutually non-attacking queens on an N x N grid of integers, with the
//! largest possible sum of the numbers under them, proven largest.
//!
//! [`best`] runs a depth-first branch and bound over rows on `u64`/`u128` bitboards. Its bound is
//! an assignment relaxation (every free row gets a distinct free column on a square no placed
//! queen attacks; the mutual diagonal constraints of the free queens are dropped) solved exactly
//! by the Hungarian method and re-optimised incrementally at every node, on weights adjusted by
//! Lagrange multipliers for the "at most one queen per diagonal" constraints (tuned at the root
//! by subgradient steps). A constructive solution, improved by pairwise swaps and a short
//! depth-first dive, gives the first incumbent; the tree is then split into a fixed frontier of
//! subproblems searched on all threads with a shared incumbent. Ties between equal sums are
//! broken so that the answer never depends on the thread count (see `search`).
//!
//! Sides up to [`MAX_WEIGHT_SIDE`] = 128 are supported: the search is generic over the width of
//! its row and column sets (`lanes`: `u64` for N <= 64, `u128` above), chosen once from N. On
//! boards wider than 40 a large-neighbourhood search improves the placement before the split.
//!
//! ```
//! use queens::weight::{best, WeightGrid};
//! use queens::Options;
//! let grid = WeightGrid { n: 4, cells: (1..=16).collect() };
//! let answer = best(&grid, &Options::default()).unwrap();
//! assert_eq!((answer.sum, answer.optimal), (34, true));
//! assert!(queens::verify::weight(&grid, &answer.queens, answer.sum).is_ok());
//! ```

mod heuristic;
mod search;

use crate::board::Square;
use crate::primitive::assign::{Cost, Duals};
use crate::primitive::lanes::Lanes;
pub use crate::problem::WeightGrid;
use crate::Options;
use search::{Incumbent, Neighbourhood, Node, PricedCosts, Shared, Worker};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use thiserror::Error;

/// The answer of [`best`]: a placement with its sum, and how far it is proven.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Placement {
    /// Side length of the grid.
    pub n: usize,
    /// Sum of the weights under the queens.
    pub sum: i128,
    /// One queen per row, in row order; no two attack each other.
    pub queens: Vec<Square>,
    /// Whether `sum` is proven to be the best possible (largest, or smallest for [`Sense::Min`]).
    pub optimal: bool,
    /// Proven bound on the best sum: an upper bound on the largest sum ([`Sense::Max`]), a
    /// lower bound on the smallest ([`Sense::Min`]); equals `sum` when `optimal`.
    pub bound: i128,
    /// Search nodes visited (varies with the thread count; the answer does not).
    pub nodes: u64,
    /// Whether the cancel flag (not the clock) stopped the search before the proof.
    pub cancelled: bool,
    /// Whether the sum was maximised or minimised (and so whether `bound` is an upper or a
    /// lower bound).
    pub sense: Sense,
}

/// Which way [`optimum`] optimises the sum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Sense {
    /// The largest sum; the bound is an upper bound.
    #[default]
    Max,
    /// The smallest sum; the bound is a lower bound.
    Min,
}

impl Sense {
    /// The sense a `--minimize` (or `?minimize`, or `minimize=`) flag asks for.
    pub fn from_minimize(minimize: bool) -> Sense {
        if minimize {
            Sense::Min
        } else {
            Sense::Max
        }
    }

    /// `"max"` or `"min"`, as the JSON answer and the API write it.
    pub fn name(self) -> &'static str {
        match self {
            Sense::Max => "max",
            Sense::Min => "min",
        }
    }

    /// How answers name the sum: `"best sum"` or `"smallest sum"`.
    pub fn sum_label(self) -> &'static str {
        match self {
            Sense::Max => "best sum",
            Sense::Min => "smallest sum",
        }
    }

    /// How answers name the bound: `"upper bound"` or `"lower bound"`.
    pub fn bound_label(self) -> &'static str {
        match self {
            Sense::Max => "upper bound",
            Sense::Min => "lower bound",
        }
    }

    /// Whether sum `a` is better than sum `b` in this sense.
    pub fn better(self, a: i128, b: i128) -> bool {
        match self {
            Sense::Max => a > b,
            Sense::Min => a < b,
        }
    }
}

impl Placement {
    /// The gap between the proven bound and the sum, relative to the bound's magnitude, in
    /// percent (0 when optimal).
    pub fn gap_percent(&self) -> f64 {
        if self.bound == self.sum {
            return 0.0;
        }
        let scale = self.bound.unsigned_abs().max(1) as f64;
        (self.bound - self.sum).unsigned_abs() as f64 * 100.0 / scale
    }
}

/// Why [`best`] gave no placement.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum WeightError {
    /// The grid's side is outside `1..=`[`MAX_WEIGHT_SIDE`].
    #[error("a {n}x{n} grid is not supported: the side must be from 1 to {MAX_WEIGHT_SIDE}")]
    UnsupportedSize {
        /// The side given.
        n: usize,
    },
    /// The grid does not hold `n * n` weights.
    #[error("the grid holds {cells} weights where {n}x{n} needs {}", .n * .n)]
    Malformed {
        /// The side given.
        n: usize,
        /// The number of weights.
        cells: usize,
    },
    /// No N non-attacking queens exist on the board (N = 2 and 3).
    #[error("no placement of {n} non-attacking queens exists on a {n}x{n} board")]
    NoPlacement {
        /// The side given.
        n: usize,
    },
}

/// Small boards (N <= [`crate::board::LISTED_UP_TO`], at most 724 solutions): the best of all
/// solutions, the lexicographically first on ties, with no thread, table or search set-up.
fn best_listed(
    grid: &WeightGrid,
    sense: Sense,
    solutions: crate::board::ListedSolutions,
) -> Result<Placement, WeightError> {
    let n = grid.n;
    let sum_of = |cols: &[u8]| -> i128 {
        cols.iter()
            .enumerate()
            .map(|(r, &c)| grid.cells[r * n + c as usize] as i128)
            .sum()
    };
    let mut best: Option<(i128, &[u8])> = None;
    for cols in solutions {
        let sum = sum_of(cols);
        if best.is_none_or(|(b, _)| sense.better(sum, b)) {
            best = Some((sum, cols));
        }
    }
    let (sum, cols) = best.ok_or(WeightError::NoPlacement { n })?;
    Ok(Placement {
        n,
        sum,
        queens: cols
            .iter()
            .enumerate()
            .map(|(r, &c)| Square::new(r, c as usize))
            .collect(),
        optimal: true,
        bound: sum,
        nodes: solutions.len() as u64,
        cancelled: false,
        sense,
    })
}

/// The placement of `grid.n` mutually non-attacking queens with the largest sum of weights.
///
/// Returns it with `optimal = true` and `bound = sum` once proven. When `options` stop the
/// search first (time limit or cancel flag), returns the best placement found with
/// `optimal = false` and a proven upper `bound`. The placement returned with `optimal = true`
/// is the same for every thread count. Sums are exact for any `i64` weights.
///
/// ```
/// use queens::weight::{best, WeightGrid};
/// let grid = WeightGrid { n: 5, cells: vec![1; 25] };
/// let answer = best(&grid, &queens::Options::with_threads(1)).unwrap();
/// assert_eq!((answer.sum, answer.optimal, answer.bound), (5, true, 5));
/// ```
///
/// # Errors
/// [`WeightError::UnsupportedSize`] for N = 0 or N > [`MAX_WEIGHT_SIDE`],
/// [`WeightError::NoPlacement`] for N = 2 and 3, [`WeightError::Malformed`] when
/// `cells.len() != n * n`.
pub fn best(grid: &WeightGrid, options: &Options) -> Result<Placement, WeightError> {
    optimum(grid, Sense::Max, options)
}

/// The placement of `grid.n` mutually non-attacking queens with the best sum in `sense`: as
/// [`best`] for [`Sense::Max`]; for [`Sense::Min`] the smallest sum, with a proven lower
/// `bound` when a limit stops the search first.
///
/// ```
/// use queens::weight::{optimum, Sense, WeightGrid};
/// let grid = WeightGrid { n: 4, cells: (1..=16).collect() };
/// let answer = optimum(&grid, Sense::Min, &queens::Options::default()).unwrap();
/// assert_eq!((answer.sum, answer.optimal, answer.bound), (34, true, 34));
/// ```
///
/// # Errors
/// As [`best`].
pub fn optimum(
    grid: &WeightGrid,
    sense: Sense,
    options: &Options,
) -> Result<Placement, WeightError> {
    let n = grid.n;
    if n == 0 || n > MAX_WEIGHT_SIDE {
        return Err(WeightError::UnsupportedSize { n });
    }
    if grid.cells.len() != n * n {
        return Err(WeightError::Malformed {
            n,
            cells: grid.cells.len(),
        });
    }
    if let Some(solutions) = crate::board::listed_solutions(n) {
        return best_listed(grid, sense, solutions);
    }
    match n {
        1 => {
            let sum = grid.cells[0] as i128;
            return Ok(Placement {
                n,
                sum,
                queens: vec![Square::new(0, 0)],
                optimal: true,
                bound: sum,
                nodes: 1,
                cancelled: false,
                sense,
            });
        }
        2 | 3 => return Err(WeightError::NoPlacement { n }),
        _ => {}
    }
    // Costs to minimise, in 0..2^64: the row maximum minus the weight (the largest sum), or the
    // weight minus the row minimum (the smallest sum). The sum is `base - cost` or
    // `base + cost`.
    let row_best: Vec<i128> = grid
        .cells
        .chunks(n)
        .map(|row| match sense {
            Sense::Max => row.iter().copied().max().unwrap_or(0) as i128,
            Sense::Min => row.iter().copied().min().unwrap_or(0) as i128,
        })
        .collect();
    let costs: Vec<i128> = (0..n * n)
        .map(|i| (row_best[i / n] - grid.cells[i] as i128).abs())
        .collect();
    let widest = costs.iter().copied().max().unwrap_or(0);
    let tuning = if n <= PROOF_SIDE {
        Tuning::proof(n)
    } else {
        Tuning::wide(n)
    };
    let narrow_costs = widest <= 1 << 36;
    let base: i128 = row_best.iter().sum();
    let sum_of_cost = |cost: i128| match sense {
        Sense::Max => base - cost,
        Sense::Min => base + cost,
    };
    let report = |cost: i128, proven: i128| {
        options.report_search(crate::SearchEvent::Sums {
            best: sum_of_cost(cost),
            bound: sum_of_cost(proven),
        });
    };
    let outcome = if n <= <u64 as Lanes>::WIDTH {
        if narrow_costs {
            solve::<i64, u64>(n, &costs, options, tuning, &report)
        } else {
            solve::<i128, u64>(n, &costs, options, tuning, &report)
        }
    } else if narrow_costs {
        solve_wide::<i64>(n, &costs, options, tuning, &report)
    } else {
        solve_wide::<i128>(n, &costs, options, tuning, &report)
    };
    let queens: Vec<Square> = outcome
        .cols
        .iter()
        .enumerate()
        .map(|(r, &c)| Square::new(r, c as usize))
        .collect();
    let sum = sum_of_cost(outcome.cost);
    let optimal = outcome.proven_cost >= outcome.cost;
    Ok(Placement {
        n,
        sum,
        queens,
        optimal,
        bound: if optimal {
            sum
        } else {
            sum_of_cost(outcome.proven_cost)
        },
        nodes: outcome.nodes,
        cancelled: outcome.cancelled && !optimal,
        sense,
    })
}

/// The largest side [`best`] accepts. Boards up to 64 are searched on 64-bit row and column
/// sets, wider ones (up to 128) on 128-bit sets.
pub const MAX_WEIGHT_SIDE: usize = 128;

/// Boards up to this side go straight to the proof (the split search after a short dive);
/// wider ones, where random weights are not proven within minutes, first improve the placement
/// by large-neighbourhood search ([`Tuning::wide`]). On the issue's random boards (weights
/// 1..99, 20 s, 2 threads) the neighbourhoods raised N = 48 board 3 from 4440 to 4500 and
/// N = 64 board 2 from 6049 to 6078, and the minimum of N = 64 board 2 from 475 to 377; at
/// N = 40 (not proven in 60 s either way) they left the sums as they were.
const PROOF_SIDE: usize = 40;

/// From this side on the proof splits its tree into a wider frontier ([`Tuning::proof`]): more
/// subproblems whose multipliers are re-tuned. Measured 2026-12-07 (random weights 1..99, 2
/// threads, one run each): N = 32 boards 1 and 2 53.0 -> 38.6 s and 6.3 -> 5.4 s, N = 36 board
/// 2 46.1 -> 19.9 s; at N = 28 and 30 the re-tuning cost more than the nodes it saved (N = 30:
/// 3.5 -> 4.9 s and 1.6 -> 1.9 s).
const WIDE_FRONTIER_SIDE: usize = 32;

/// Scale of the costs inside the search, so that integer multipliers can take small steps.
const SCALE: i128 = 64;
/// Sizes of the search phases. They must not depend on the thread count (the answer's
/// tie-breaking depends on them).
#[derive(Clone, Copy, Debug)]
struct Tuning {
    /// Nodes of the first, sequential dive (it proves small instances alone).
    dive_nodes: u64,
    /// The tree is split until this many subproblems exist.
    frontier: usize,
    /// Simulated-annealing moves per row for the first incumbent.
    anneal_moves_per_row: u64,
    /// Subgradient steps re-tuning the multipliers of each subproblem.
    retune_steps: usize,
    /// Rounds of large-neighbourhood search after the annealing (0: none).
    neighbourhoods: usize,
    /// Rows freed in each neighbourhood.
    neighbourhood_rows: usize,
    /// How each neighbourhood is searched.
    neighbourhood: Neighbourhood,
    /// A second tuning of the root's multipliers, aimed at a fixed fraction of the bound
    /// ([`StepTarget::Fraction`]), whose bound is certified when it is the stronger.
    second_root_pass: bool,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            dive_nodes: 20_000,
            frontier: 256,
            anneal_moves_per_row: 20_000,
            retune_steps: 60,
            neighbourhoods: 0,
            neighbourhood_rows: 0,
            neighbourhood: Neighbourhood::DepthFirst(0),
            second_root_pass: false,
        }
    }
}

impl Tuning {
    /// For boards up to [`PROOF_SIDE`]: from side [`WIDE_FRONTIER_SIDE`] on the tree is split
    /// into about 4,096 subproblems instead of 256, each with its multipliers re-tuned.
    fn proof(n: usize) -> Self {
        Tuning {
            frontier: if n >= WIDE_FRONTIER_SIDE { 4096 } else { 256 },
            ..Tuning::default()
        }
    }

    /// For boards wider than [`PROOF_SIDE`], where a proof is out of reach: most of the effort
    /// goes into improving the placement by large-neighbourhood search before the tree is split.
    /// Each neighbourhood frees 90% of the rows: in effect a dive guided by the assignment
    /// relaxation around a few of the incumbent's queens. Up to side 64 the dive is the
    /// depth-first search with 1,000 nodes of backtracking, 20,000 times. On wider boards (the
    /// 128-bit ones) it is a beam search of width 16, 4,000 times (a beam costs far more than
    /// a dive: at N = 128 about 1,300 fit in 60 s on 2 threads, so 4,000 take 3 minutes): on the
    /// three 128 x 128 and two 100 x 100 boards of bench/weight-peers.sh (random weights
    /// 1..99, 2 threads, 30 s) beams over scattered rows found 12393, 12392, 12351, 9667, 9610
    /// where 300-node depth-first dives found 12396, 12331, 12314, 9623, 9627 (+122 in all;
    /// 60 s: +140). Beams gained less when half the neighbourhoods were bands (+75).
    fn wide(n: usize) -> Self {
        let beam = n > <u64 as Lanes>::WIDTH;
        Tuning {
            neighbourhoods: if beam { 4_000 } else { 20_000 },
            neighbourhood_rows: n * 9 / 10,
            neighbourhood: if beam {
                Neighbourhood::Beam(16)
            } else {
                Neighbourhood::DepthFirst(1_000)
            },
            second_root_pass: true,
            ..Tuning::default()
        }
    }
}

/// What [`solve`] found, in unscaled costs (row maximum minus weight).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Outcome {
    /// Cost of the placement.
    cost: i128,
    /// Proven lower bound on the optimal cost (at most `cost`; equal when proven optimal).
    proven_cost: i128,
    /// Column per row.
    cols: Vec<u8>,
    /// Search nodes visited.
    nodes: u64,
    /// Whether the cancel flag was raised.
    cancelled: bool,
}

/// Called with the best cost found and the proven lower bound on the optimal cost (unscaled) as
/// they move.
type Report<'a> = dyn Fn(i128, i128) + Sync + 'a;

/// The proven lower bound on the true (unscaled) cost of every completion from a bound `lb` on
/// the adjusted, scaled cost (true costs are whole multiples of [`SCALE`]).
fn proven_from<T: Cost>(lb: T, lambda_total: T) -> i128 {
    unscaled_ceiling(lb.to_i128() - lambda_total.to_i128())
}

/// The least whole (unscaled) cost at or above a scaled bound.
fn unscaled_ceiling(scaled: i128) -> i128 {
    scaled.div_euclid(SCALE) + i128::from(scaled.rem_euclid(SCALE) != 0)
}

/// Raises the shared proven bound to `value` if that is higher.
fn raise(proven: &Mutex<i128>, value: i128) {
    let mut p = proven.lock().unwrap_or_else(|e| e.into_inner());
    *p = (*p).max(value);
}

/// Minimises the cost of a placement with costs held in type `T` (wide enough for the grid) and
/// row and column sets held in `L` (at least `n` bits).
fn solve<T: Cost, L: Lanes>(
    n: usize,
    costs: &[i128],
    options: &Options,
    tuning: Tuning,
    report: &Report<'_>,
) -> Outcome {
    let deadline = options.deadline();
    let scale = T::from_i128(SCALE);
    let true_cost: Vec<T> = costs.iter().map(|&c| T::from_i128(c * SCALE)).collect();
    let cost_of = |cols: &[u8]| -> i128 {
        cols.iter()
            .enumerate()
            .map(|(r, &c)| costs[r * n + c as usize])
            .sum()
    };
    let mut start: Vec<u8> = crate::board::construction(n)
        .expect("n >= 4 has a solution")
        .into_iter()
        .map(|c| c as u8)
        .collect();
    heuristic::swap_descent(&mut start, |r, c| costs[r * n + c], 64);
    let tuned = |target| multipliers::<T, L>(n, &true_cost, &start, costs, target, &deadline);
    let Multipliers { lambda, found, .. } = tuned(StepTarget::Incumbent);
    let mut met = vec![found];
    // A proven lower bound on the unscaled cost from a second tuning of the root's multipliers.
    // It only certifies: the search keeps the first tuning's prices, which guided it better
    // (with the second's, the three 128 x 128 maxima moved by +10, -24 and -17 in 60 s).
    let mut second_bound = i128::MIN;
    if tuning.second_root_pass {
        let second = tuned(StepTarget::Fraction(ROOT_TARGET_FRACTION));
        if second.lower > i128::MIN {
            second_bound = unscaled_ceiling(second.lower);
        }
        met.push(second.found);
    }
    // The cheapest placement met while tuning (the first on a tie) replaces a dearer start.
    let mut improved = false;
    for cols in met.into_iter().flatten() {
        if cost_of(&cols) < cost_of(&start) {
            start = cols;
            improved = true;
        }
    }
    if improved {
        heuristic::swap_descent(&mut start, |r, c| costs[r * n + c], 64);
    }
    let mut cost = true_cost.clone();
    let mut lambda_total = T::default();
    for r in 0..n {
        for c in 0..n {
            cost[r * n + c] = cost[r * n + c] + lambda[c + n - 1 - r] + lambda[2 * n - 1 + r + c];
        }
    }
    for &l in &lambda {
        lambda_total = lambda_total + l;
    }
    let priced = PricedCosts {
        n,
        full: L::low(n),
        cost,
        true_cost,
        lambda_total,
        lambda,
        scale,
    };
    let shared = Shared {
        best: Mutex::new(Incumbent {
            cost: T::from_i128(cost_of(&start) * SCALE),
            rank: 0,
            cols: start,
        }),
        stop: AtomicBool::new(false),
        deadline: deadline.clone(),
    };
    let proven = Mutex::new(0i128);
    let finished = AtomicBool::new(false);
    let run = || -> Outcome {
        let finish = |open: Option<T>, nodes: u64| {
            let best = shared.best.lock().unwrap_or_else(|e| e.into_inner());
            let best_cost = best.cost.to_i128() / SCALE;
            let proven = match open {
                None => best_cost,
                Some(lb) => proven_from(lb, lambda_total).max(second_bound),
            };
            Outcome {
                cost: best_cost,
                proven_cost: proven.min(best_cost),
                cols: best.cols.clone(),
                nodes,
                cancelled: deadline.cancelled(),
            }
        };
        let Some(root) = Node::root(&priced) else {
            return finish(None, 1);
        };
        raise(
            &proven,
            proven_from(root.lb, lambda_total).max(second_bound),
        );
        // A sequential dive: a good incumbent early, and the whole proof for small boards.
        let mut dive = Worker::new(&priced, &shared, 0, tuning.dive_nodes);
        let open = dive.search(&root);
        let mut nodes = dive.nodes;
        if open.is_none() || shared.stop.load(Ordering::Relaxed) {
            return finish(open, nodes);
        }
        // The dive did not finish: a harder instance, worth a better incumbent before splitting.
        {
            let mut best = shared.best.lock().unwrap_or_else(|e| e.into_inner());
            let mut cols = best.cols.clone();
            heuristic::anneal(
                &mut cols,
                costs,
                tuning.anneal_moves_per_row * n as u64,
                0x5EED,
            );
            heuristic::swap_descent(&mut cols, |r, c| costs[r * n + c], 64);
            let improved = T::from_i128(cost_of(&cols) * SCALE);
            if improved < best.cost {
                best.cost = improved;
                best.cols = cols;
            }
        }
        if tuning.neighbourhoods > 0 {
            nodes += in_pool::<L, _>(options, || {
                search::neighbourhoods(
                    &priced,
                    &shared,
                    &root,
                    tuning.neighbourhoods,
                    tuning.neighbourhood_rows,
                    tuning.neighbourhood,
                )
            });
            if shared.stop.load(Ordering::Relaxed) {
                return finish(Some(root.lb), nodes);
            }
        }
        // Split the tree into a frontier that does not depend on the thread count.
        let mut splitter = Worker::new(&priced, &shared, 1, u64::MAX);
        let mut frontier = vec![root];
        while frontier.len() < tuning.frontier {
            if deadline.reached() {
                let open = frontier.iter().map(|node| node.lb).min();
                return finish(open, nodes + splitter.nodes);
            }
            let mut next = Vec::new();
            for node in &frontier {
                next.extend(splitter.expand(node));
            }
            let grew = next.len() > frontier.len();
            frontier = next;
            if !grew {
                break;
            }
        }
        nodes += splitter.nodes;
        frontier.sort_by_key(|node| node.lb);
        let total = frontier.len();
        let next_index = AtomicUsize::new(0);
        let done = AtomicUsize::new(0);
        let node_count = AtomicU64::new(nodes);
        let open_bounds: Mutex<Option<T>> = Mutex::new(None);
        // For progress: which subproblems are done, and the first one that is not.
        let completed: Vec<AtomicBool> = (0..total).map(|_| AtomicBool::new(false)).collect();
        let first_open = Mutex::new(0usize);
        // The Polyak target of the subproblems' multipliers: fixed now, so that they do not depend
        // on timing.
        let target = shared.best.lock().unwrap_or_else(|e| e.into_inner()).cost;
        in_pool::<L, _>(options, || {
            let threads = rayon::current_num_threads().max(1);
            rayon::scope(|scope| {
                for _ in 0..threads {
                    scope.spawn(|_| loop {
                        let i = next_index.fetch_add(1, Ordering::Relaxed);
                        if i >= total {
                            break;
                        }
                        let mut worker = Worker::new(&priced, &shared, i + 1, u64::MAX);
                        let open = if worker.can_prune(&frontier[i]) {
                            None
                        } else if shared.stop.load(Ordering::Relaxed) || deadline.reached() {
                            shared.stop.store(true, Ordering::Relaxed);
                            Some(frontier[i].lb)
                        } else if let Some((sub, node)) = search::retune(
                            &priced,
                            &frontier[i],
                            target,
                            tuning.retune_steps,
                            &deadline,
                        ) {
                            let mut inner = Worker::new(&sub, &shared, i + 1, u64::MAX);
                            let open = inner.search(&node);
                            worker.nodes += inner.nodes;
                            // Express an open bound in the outer problem's terms.
                            open.map(|lb| {
                                T::from_i128(
                                    lb.to_i128() - sub.lambda_total.to_i128()
                                        + priced.lambda_total.to_i128(),
                                )
                            })
                        } else {
                            worker.search(&frontier[i])
                        };
                        node_count.fetch_add(worker.nodes, Ordering::Relaxed);
                        let open_so_far = {
                            let mut o = open_bounds.lock().unwrap_or_else(|e| e.into_inner());
                            if let Some(lb) = open {
                                *o = Some(o.map_or(lb, |x: T| x.min(lb)));
                            }
                            *o
                        };
                        // The proven bound: the least of the open bounds of stopped
                        // subproblems and the bound of the first subproblem not done (the
                        // frontier is sorted by bound).
                        completed[i].store(true, Ordering::Release);
                        let mut low = first_open.lock().unwrap_or_else(|e| e.into_inner());
                        while *low < total && completed[*low].load(Ordering::Acquire) {
                            *low += 1;
                        }
                        let pending = frontier.get(*low).map(|node| node.lb);
                        drop(low);
                        let least = match (open_so_far, pending) {
                            (Some(a), Some(b)) => Some(a.min(b)),
                            (a, b) => a.or(b),
                        };
                        if let Some(lb) = least {
                            raise(&proven, proven_from(lb, lambda_total));
                        }
                        let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                        options.report(finished as u64, total as u64);
                    });
                }
            });
        });
        let open = *open_bounds.lock().unwrap_or_else(|e| e.into_inner());
        finish(open, node_count.load(Ordering::Relaxed))
    };
    if options.search_progress.is_none() {
        return run();
    }
    // Progress: a watcher reports the best cost and the proven bound whenever they move.
    std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            let mut last = None;
            loop {
                let stop = finished.load(Ordering::Acquire);
                let best = shared.best.lock().unwrap_or_else(|e| e.into_inner()).cost;
                let best = best.to_i128() / SCALE;
                let bound = (*proven.lock().unwrap_or_else(|e| e.into_inner())).min(best);
                if last != Some((best, bound)) {
                    report(best, bound);
                    last = Some((best, bound));
                }
                if stop {
                    break;
                }
                std::thread::park_timeout(std::time::Duration::from_millis(100));
            }
        });
        let outcome = run();
        finished.store(true, Ordering::Release);
        watcher.thread().unpark();
        outcome
    })
}

/// Stack size of the threads that search boards wider than 64: a search node then holds
/// 128-entry arrays (about 7 KiB) and the depth-first search nests up to 128 of them.
const WIDE_STACK: usize = 256 << 20;

/// [`solve`] on 128-bit row and column sets, on a thread with a stack deep enough for it (the
/// caller's may be small, e.g. a test thread's).
fn solve_wide<T: Cost>(
    n: usize,
    costs: &[i128],
    options: &Options,
    tuning: Tuning,
    report: &Report<'_>,
) -> Outcome {
    std::thread::scope(|scope| {
        let solver = std::thread::Builder::new()
            .name("queens-weight".into())
            .stack_size(WIDE_STACK)
            .spawn_scoped(scope, || {
                solve::<T, u128>(n, costs, options, tuning, report)
            });
        match solver {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread to be had: try on this one.
            Err(_) => solve::<T, u128>(n, costs, options, tuning, report),
        }
    })
}

/// Runs the parallel phase of [`solve`] on `options.threads` workers. Boards that fit 64 bits
/// use [`Options::run_in_pool`]; wider ones get a pool of the same size whose threads have
/// [`WIDE_STACK`] (rayon's default size when `options.threads` is 0).
fn in_pool<L: Lanes, R: Send>(options: &Options, work: impl FnOnce() -> R + Send) -> R {
    if L::WIDTH <= 64 {
        return options.run_in_pool(work);
    }
    match rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .stack_size(WIDE_STACK)
        .build()
    {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    }
}

/// What a subgradient step of [`multipliers`] aims at (the Polyak step's target).
#[derive(Clone, Copy, Debug, PartialEq)]
enum StepTarget {
    /// The cost of the best placement known (the start, then any non-attacking assignment met).
    Incumbent,
    /// This fraction of the best bound's magnitude above it (at most the incumbent's gap): the
    /// far incumbent of a wide board makes the first kind overshoot.
    Fraction(f64),
}

/// The second root tuning's target on boards wider than [`PROOF_SIDE`]. Measured 2026-12-08
/// (boards of bench/weight-peers.sh): its bound is 1 unit stronger on N = 100 boards 1 and 2
/// and N = 128 boards 1-3, the same at N = 64, 2 units weaker at N = 48.
const ROOT_TARGET_FRACTION: f64 = 0.1;

/// Tuned multipliers with the bound they give and the best placement met on the way.
struct Multipliers<T> {
    /// As [`PricedCosts::lambda`].
    lambda: Vec<T>,
    /// The Lagrangian bound they give, on the scaled cost (larger is stronger).
    lower: i128,
    /// The cheapest non-attacking assignment met, if cheaper than the start.
    found: Option<Vec<u8>>,
}

/// Lagrange multipliers for the diagonal constraints (indices `0..2n-1`: diagonals
/// `c - r + n - 1`; `2n-1..4n-2`: anti-diagonals `r + c`), tuned by projected subgradient steps
/// on the assignment relaxation toward `target`.
fn multipliers<T: Cost, L: Lanes>(
    n: usize,
    true_cost: &[T],
    start: &[u8],
    costs: &[i128],
    target: StepTarget,
    deadline: &crate::Deadline,
) -> Multipliers<T> {
    let scale = T::from_i128(SCALE);
    let lines = 2 * n - 1;
    let mut lambda = vec![T::default(); 2 * lines];
    let mut best_lambda = lambda.clone();
    let widest = costs.iter().copied().max().unwrap_or(0).max(1);
    let cap = widest * SCALE * 2;
    let mut upper = start
        .iter()
        .enumerate()
        .map(|(r, &c)| costs[r * n + c as usize])
        .sum::<i128>()
        * SCALE;
    let mut found: Option<Vec<u8>> = None;
    let mut best_lower = i128::MIN;
    let mut theta = 2.0f64;
    let mut stale = 0;
    let full = L::low(n);
    let mut allowed = L::array(L::EMPTY);
    for r in 0..n {
        allowed[r] = full;
    }
    let iterations = 40 + 4 * n;
    let mut cost = true_cost.to_vec();
    let mut count = vec![0i64; 2 * lines];
    for _ in 0..iterations {
        if deadline.reached() {
            break;
        }
        for r in 0..n {
            for c in 0..n {
                cost[r * n + c] =
                    true_cost[r * n + c] + lambda[c + n - 1 - r] + lambda[lines + r + c];
            }
        }
        let total_lambda: i128 = lambda.iter().map(|l| l.to_i128()).sum();
        let Some((duals, value)) = Duals::<T, L>::solve(full, &allowed, &cost, n) else {
            break;
        };
        let lower = value.to_i128() - total_lambda;
        if lower > best_lower {
            best_lower = lower;
            best_lambda.clone_from(&lambda);
            stale = 0;
        } else {
            stale += 1;
            if stale >= 8 {
                theta /= 2.0;
                stale = 0;
            }
        }
        count.iter_mut().for_each(|x| *x = 0);
        for r in 0..n {
            let c = duals.row_match[r] as usize;
            count[c + n - 1 - r] += 1;
            count[lines + r + c] += 1;
        }
        if count.iter().all(|&k| k <= 1) {
            let cols: Vec<u8> = duals.row_match.as_ref()[..n].to_vec();
            let c: i128 = (0..n)
                .map(|r| costs[r * n + cols[r] as usize])
                .sum::<i128>()
                * SCALE;
            if c < upper {
                upper = c;
                found = Some(cols);
            }
        }
        if best_lower > upper - SCALE || theta < 1e-3 {
            break;
        }
        let mut norm = 0.0f64;
        for (k, &l) in count.iter().zip(&lambda) {
            let g = k - 1;
            if g > 0 || l > T::default() {
                norm += (g * g) as f64;
            }
        }
        if norm == 0.0 {
            break;
        }
        let aim = match target {
            StepTarget::Incumbent => upper - lower,
            StepTarget::Fraction(f) => ((best_lower.abs() as f64 * f) as i128).min(upper - lower),
        };
        let step = theta * aim.max(scale.to_i128()) as f64 / norm;
        for (l, &k) in lambda.iter_mut().zip(&count) {
            let moved = l.to_i128() + (step * (k - 1) as f64).round() as i128;
            *l = T::from_i128(moved.clamp(0, cap));
        }
    }
    Multipliers {
        lambda: best_lambda,
        lower: best_lower,
        found,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The least cost over all N-queens placements, by plain enumeration of permutations.
    fn brute_cost(n: usize, costs: &[i128]) -> Option<i128> {
        fn go(n: usize, row: usize, used: &mut Vec<usize>, costs: &[i128]) -> Option<i128> {
            if row == n {
                return Some(0);
            }
            let mut best: Option<i128> = None;
            for c in 0..n {
                let clash = used
                    .iter()
                    .enumerate()
                    .any(|(r, &k)| k == c || row - r == c.abs_diff(k));
                if clash {
                    continue;
                }
                used.push(c);
                if let Some(rest) = go(n, row + 1, used, costs) {
                    let total = costs[row * n + c] + rest;
                    best = Some(best.map_or(total, |b| b.min(total)));
                }
                used.pop();
            }
            best
        }
        go(n, 0, &mut Vec::new(), costs)
    }

    /// [`solve`] on row and column sets of type `L`, with small phases so that the split and
    /// the parallel search are exercised on small boards; on 128-bit sets with a few rounds of
    /// large-neighbourhood search too (half the rows freed).
    fn run_split<L: Lanes>(
        n: usize,
        costs: &[i128],
        threads: usize,
        frontier: usize,
    ) -> (i128, i128, Vec<u8>) {
        let tuning = Tuning {
            dive_nodes: 1,
            frontier,
            anneal_moves_per_row: 100,
            retune_steps: 10,
            neighbourhoods: if L::WIDTH > 64 { 20 } else { 0 },
            neighbourhood_rows: n / 2,
            neighbourhood: if n.is_multiple_of(2) {
                Neighbourhood::Beam(3)
            } else {
                Neighbourhood::DepthFirst(50)
            },
            second_root_pass: L::WIDTH > 64,
        };
        let options = Options::with_threads(threads);
        let outcome = if costs.iter().all(|&c| c <= 1 << 36) {
            solve::<i64, L>(n, costs, &options, tuning, &|_, _| {})
        } else {
            solve::<i128, L>(n, costs, &options, tuning, &|_, _| {})
        };
        (outcome.cost, outcome.proven_cost, outcome.cols)
    }

    /// A random `n x n` instance (costs 0..50) as drawn, and scaled on 64-bit sets with all
    /// multipliers 0.
    fn small_instance(
        rng: &mut crate::primitive::rng::Xorshift64,
        n: usize,
    ) -> (Vec<i128>, PricedCosts<i64, u64>) {
        let costs: Vec<i128> = (0..n * n).map(|_| (rng.next_u64() % 50) as i128).collect();
        let true_cost: Vec<i64> = costs.iter().map(|&c| (c * SCALE) as i64).collect();
        let priced = PricedCosts {
            n,
            full: (1u64 << n) - 1,
            cost: true_cost.clone(),
            true_cost,
            lambda_total: 0,
            lambda: vec![0; 2 * (2 * n - 1)],
            scale: SCALE as i64,
        };
        (costs, priced)
    }

    /// A beam wide enough to hold every partial placement is an exhaustive search: it finds
    /// the optimum. A narrow one finds a legal placement (or none) no cheaper than the optimum,
    /// at the cost it reports.
    #[test]
    fn beam_search_offers_legal_placements_and_the_optimum_when_wide() {
        let mut rng = crate::primitive::rng::Xorshift64::new(7);
        let mut found_narrow = 0;
        for trial in 0..60 {
            let n = 4 + trial % 4;
            let (costs, priced) = small_instance(&mut rng, n);
            let want = brute_cost(n, &costs).map(|c| c * SCALE);
            let root = Node::root(&priced).unwrap();
            for width in [1, 2, 5_040] {
                let shared = Shared {
                    best: Mutex::new(Incumbent {
                        cost: i64::MAX / 4,
                        rank: 0,
                        cols: Vec::new(),
                    }),
                    stop: AtomicBool::new(false),
                    deadline: crate::Deadline::never(),
                };
                Worker::new(&priced, &shared, 1, u64::MAX).beam(&root, width);
                let best = shared.best.into_inner().unwrap();
                if best.cols.is_empty() {
                    assert!(
                        width < 5_040 || want.is_none(),
                        "trial {trial}: nothing found"
                    );
                    continue;
                }
                let placement: Vec<usize> = best.cols.iter().map(|&c| c as usize).collect();
                let queens: Vec<Square> = (0..n)
                    .map(|row| Square {
                        row,
                        col: placement[row],
                    })
                    .collect();
                assert!(
                    crate::board::non_attacking(&queens),
                    "trial {trial}: {placement:?}"
                );
                let cost: i128 = (0..n).map(|r| costs[r * n + placement[r]] * SCALE).sum();
                assert_eq!(i128::from(best.cost), cost, "trial {trial}");
                let want = want.expect("a placement exists");
                if width == 5_040 {
                    assert_eq!(cost, want, "trial {trial}");
                } else {
                    assert!(cost >= want, "trial {trial}");
                    found_narrow += 1;
                }
            }
        }
        assert!(
            found_narrow > 20,
            "narrow beams found {found_narrow} placements"
        );
    }

    /// Both step targets give multipliers >= 0 whose bound is at most the optimum (and at
    /// least the bound without multipliers), and any placement they report is legal and
    /// cheaper than the start.
    #[test]
    fn root_multipliers_bound_the_optimum_for_both_targets() {
        let mut rng = crate::primitive::rng::Xorshift64::new(31);
        let never = crate::Deadline::never();
        let mut fraction_stronger = 0;
        for trial in 0..80 {
            let n = 5 + trial % 4;
            let (costs, priced) = small_instance(&mut rng, n);
            let want = brute_cost(n, &costs).unwrap() * SCALE;
            let plain = i128::from(Node::root(&priced).unwrap().lb);
            let start: Vec<u8> = crate::board::construction(n)
                .unwrap()
                .into_iter()
                .map(|c| c as u8)
                .collect();
            let start_cost: i128 = (0..n).map(|r| costs[r * n + start[r] as usize]).sum();
            let mut lowers = Vec::new();
            for target in [StepTarget::Incumbent, StepTarget::Fraction(0.1)] {
                let m =
                    multipliers::<i64, u64>(n, &priced.true_cost, &start, &costs, target, &never);
                assert!(m.lambda.iter().all(|&l| l >= 0));
                assert!(
                    m.lower <= want,
                    "trial {trial} {target:?}: {} > {want}",
                    m.lower
                );
                assert!(m.lower >= plain, "trial {trial} {target:?}");
                if let Some(cols) = &m.found {
                    let queens: Vec<Square> = (0..n)
                        .map(|row| Square {
                            row,
                            col: cols[row] as usize,
                        })
                        .collect();
                    assert!(crate::board::non_attacking(&queens));
                    let cost: i128 = (0..n).map(|r| costs[r * n + cols[r] as usize]).sum();
                    assert!(cost < start_cost && cost * SCALE >= want);
                }
                lowers.push(m.lower);
            }
            fraction_stronger += usize::from(lowers[1] > lowers[0]);
        }
        // The second target is there because it sometimes bounds better.
        assert!(fraction_stronger > 0);
    }

    #[test]
    fn retuned_bounds_rise_but_stay_below_the_optimum() {
        let mut rng = crate::primitive::rng::Xorshift64::new(99);
        let mut raised = 0;
        for trial in 0..80 {
            let n = 5 + trial % 4;
            let (costs, priced) = small_instance(&mut rng, n);
            let want = brute_cost(n, &costs).unwrap() * SCALE;
            let root = Node::root(&priced).unwrap();
            assert!(i128::from(root.lb) <= want);
            let never = crate::Deadline::never();
            if let Some((sub, node)) = search::retune(&priced, &root, (want * 2) as i64, 50, &never)
            {
                let lower = i128::from(node.lb - sub.lambda_total);
                assert!(lower <= want, "trial {trial}: {lower} > {want}");
                assert!(lower > i128::from(root.lb));
                raised += 1;
            }
        }
        assert!(raised > 10, "the re-tuning should usually help: {raised}");
    }

    /// `n * n` pseudo-random costs in `0..spread` (all 0 when `spread` is 0), from `seed`.
    fn random_costs(n: usize, seed: u64, spread: i128) -> Vec<i128> {
        let mut rng = crate::primitive::rng::Xorshift64::new(seed | 1);
        (0..n * n)
            .map(|_| {
                let x = rng.next_u64();
                if spread == 0 {
                    0
                } else {
                    (x as i128).rem_euclid(spread)
                }
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// The split, multi-threaded search agrees with enumeration, proves its answer, and
        /// returns the same placement on 1 and 2 threads.
        #[test]
        fn split_search_matches_enumeration(
            n in 4usize..=9,
            seed in any::<u64>(),
            spread in prop_oneof![Just(0i128), Just(3), Just(100), Just(1i128 << 40), Just(1i128 << 64)],
            frontier in prop_oneof![1usize..40, Just(4096)],
        ) {
            let costs = random_costs(n, seed, spread);
            let want = brute_cost(n, &costs);
            let (cost, bound, cols) = run_split::<u64>(n, &costs, 1, frontier);
            prop_assert_eq!(Some(cost), want);
            prop_assert_eq!(bound, cost);
            let recomputed: i128 = cols.iter().enumerate().map(|(r, &c)| costs[r * n + c as usize]).sum();
            prop_assert_eq!(recomputed, cost);
            let two = run_split::<u64>(n, &costs, 2, frontier);
            prop_assert_eq!(two, (cost, bound, cols));
        }

        /// The search on 128-bit sets (the one for boards wider than 64, here with the
        /// neighbourhood search) agrees with enumeration and with the 64-bit search, and
        /// returns the same placement on 1 and 2 threads.
        #[test]
        fn wide_search_matches_enumeration_and_the_narrow_search(
            n in 4usize..=9,
            seed in any::<u64>(),
            spread in prop_oneof![Just(0i128), Just(3), Just(100), Just(1i128 << 64)],
            frontier in 1usize..40,
        ) {
            let costs = random_costs(n, seed, spread);
            let want = brute_cost(n, &costs);
            let wide = run_split::<u128>(n, &costs, 1, frontier);
            prop_assert_eq!(Some(wide.0), want);
            prop_assert_eq!(wide.1, wide.0);
            let narrow = run_split::<u64>(n, &costs, 1, frontier);
            prop_assert_eq!((wide.0, wide.1), (narrow.0, narrow.1));
            let recomputed: i128 = wide.2.iter().enumerate().map(|(r, &c)| costs[r * n + c as usize]).sum();
            prop_assert_eq!(recomputed, wide.0);
            prop_assert_eq!(&wide, &run_split::<u128>(n, &costs, 2, frontier));
        }
    }
}
