//! A Lagrangian lower bound on the relaxed value.
//!
//! The relaxed value is the least total cost of choosing a target solution (one square per row,
//! one per column, at most one per diagonal) and assigning the queens to its squares one to
//! one, a queen costing 0 on its own square, 1 on a square of its lines and 2 elsewhere. Price
//! each column, diagonal and anti-diagonal (`lambda`, free for the columns, whose constraint is
//! an equality; `mu`, `nu >= 0` for the diagonals, at most one each) and drop those
//! constraints: each row then takes any square, and a queen sent to row `r` costs the cheapest
//! `cost + price` over the squares of `r`. What is left is an assignment of queens to rows
//! (solved exactly, Hungarian method), and its value minus the sum of the prices is a lower
//! bound on the relaxed value for every choice of prices (weak duality). The prices are tuned by
//! subgradient steps. Everything is in integers (prices in units of `1 / SCALE`), so the bound
//! is exact arithmetic: `ceil(value / SCALE)`.
//!
//! The last assignment's dual values also give, for each square `(r, c)`, how much the bound
//! rises when row `r` is fixed to column `c` ([`Duals::extra`]): the branch and bound adds those
//! rises along a branch (a valid bound for the branch, by the same weak duality).

use crate::primitive::assign::Duals as Matching;
use crate::primitive::lanes::Lanes;

/// Prices are multiples of `1 / SCALE` of a move.
const SCALE: i64 = 1 << 12;

/// Steps without a better bound after which the step size is halved (it starts at 2 times
/// the gap to the known cost; measured on 32 x 32 and 64 x 64 boards, 10 steps reach within
/// about 0.05 of what 40 or 50 do, in a third of the time).
const PATIENCE: u32 = 10;

/// The bound and what a search needs to reuse it.
pub(crate) struct Duals {
    /// The bound in units of `1 / SCALE` (the Lagrangian value of the best prices found).
    pub base: i64,
    /// For square `r * n + c`: how much fixing row `r` to column `c` raises `base` (`>= 0`).
    pub extra: Vec<i64>,
}

impl Duals {
    /// The proven bound (whole moves) when rows are fixed with the given total extra.
    pub(crate) fn moves(&self, extra: i64) -> u32 {
        let v = self.base + extra;
        if v <= 0 {
            0
        } else {
            ((v + SCALE - 1) / SCALE) as u32
        }
    }

    /// The largest total extra that still allows a cost of `limit` moves.
    pub(crate) fn slack(&self, limit: u32) -> i64 {
        limit as i64 * SCALE - self.base
    }
}

/// Minimum-cost assignment of the `n` rows of `cost` (row-major, `n x n`, `n <= 64`) to its
/// columns, by the crate's one assignment solver ([`crate::primitive::assign`]). Returns the
/// value, the column of each row, and dual values `u` (per row) such that
/// `cost[i][j] - u[i] >= v[j]` with `v[j]` the least of those over `i` and
/// `sum u + sum v = value`.
fn assign(n: usize, cost: &[i64]) -> (i64, Vec<usize>, Vec<i64>) {
    let all = u64::low(n);
    let allowed = [all; 64];
    let (duals, value) =
        Matching::<i64, u64>::solve(all, &allowed, cost, n).expect("every square is allowed");
    let col = (0..n).map(|r| duals.row_match[r] as usize).collect();
    (value, col, duals.u[..n].to_vec())
}

/// One evaluation of the Lagrangian at integer prices.
struct Eval {
    /// The Lagrangian value (units of `1 / SCALE`).
    value: i64,
    /// The square chosen for each row by the optimal assignment.
    chosen: Vec<u8>,
    /// The queen-to-row cost matrix and the assignment's row duals (per queen).
    cost: Vec<i64>,
    u: Vec<i64>,
}

struct Prices {
    col: Vec<i64>,
    diag: Vec<i64>,
    anti: Vec<i64>,
}

impl Prices {
    fn at(&self, n: usize, r: usize, c: usize) -> i64 {
        self.col[c] + self.diag[r + n - 1 - c] + self.anti[r + c]
    }

    fn total(&self) -> i64 {
        self.col.iter().sum::<i64>() + self.diag.iter().sum::<i64>() + self.anti.iter().sum::<i64>()
    }
}

/// The cost of queen `q` on square `(r, c)`: 0, 1 or 2 moves.
fn moves(q: (u8, u8), r: usize, c: usize) -> i64 {
    let (qr, qc) = (q.0 as usize, q.1 as usize);
    if qr == r && qc == c {
        0
    } else if qr == r || qc == c || qr.abs_diff(r) == qc.abs_diff(c) {
        1
    } else {
        2
    }
}

/// The cheapest square of row `r` for queen `q` at `prices`, with its reduced cost.
fn cheapest_in_row(
    n: usize,
    q: (u8, u8),
    r: usize,
    prices: &Prices,
    row_min: &[(i64, u8)],
) -> (i64, u8) {
    let (qr, qc) = (q.0 as usize, q.1 as usize);
    let (m, mc) = row_min[r];
    let mut best = (2 * SCALE + m, mc);
    if qr == r {
        // Every square of its own row is one move away; its own square none.
        if SCALE + m < best.0 {
            best = (SCALE + m, mc);
        }
        let own = prices.at(n, r, qc);
        if own < best.0 {
            best = (own, qc as u8);
        }
        return best;
    }
    let d = qr.abs_diff(r);
    let mut try_col = |c: usize| {
        let v = SCALE + prices.at(n, r, c);
        if v < best.0 {
            best = (v, c as u8);
        }
    };
    try_col(qc);
    if qc + d < n {
        try_col(qc + d);
    }
    if qc >= d {
        try_col(qc - d);
    }
    best
}

fn evaluate(n: usize, queens: &[(u8, u8)], prices: &Prices) -> Eval {
    let mut row_min = vec![(i64::MAX, 0u8); n];
    for (r, slot) in row_min.iter_mut().enumerate() {
        for c in 0..n {
            let v = prices.at(n, r, c);
            if v < slot.0 {
                *slot = (v, c as u8);
            }
        }
    }
    let mut cost = vec![0i64; n * n];
    let mut choice = vec![0u8; n * n];
    for (i, &q) in queens.iter().enumerate() {
        for r in 0..n {
            let (v, c) = cheapest_in_row(n, q, r, prices, &row_min);
            cost[i * n + r] = v;
            choice[i * n + r] = c;
        }
    }
    let (value, row_of, u) = assign(n, &cost);
    let mut chosen = vec![0u8; n];
    for (i, &r) in row_of.iter().enumerate() {
        chosen[r] = choice[i * n + r];
    }
    Eval {
        value: value - prices.total(),
        chosen,
        cost,
        u,
    }
}

/// The Lagrangian bound on the relaxed value of `queens`, tuned for at most `iterations`
/// subgradient steps aimed at `upper` (a known cost; the search stops early once the bound
/// reaches it). Returns the best bound's duals.
pub(crate) fn bound(n: usize, queens: &[(u8, u8)], upper: u32, iterations: u32) -> Duals {
    let mut lam = vec![0f64; n];
    let mut mu = vec![0f64; 2 * n - 1];
    let mut nu = vec![0f64; 2 * n - 1];
    let to_int = |x: &[f64]| -> Vec<i64> {
        x.iter()
            .map(|&v| (v * SCALE as f64).round() as i64)
            .collect()
    };
    let mut best: Option<(i64, Prices, Eval)> = None;
    let mut theta = 2.0f64;
    let mut since = 0;
    for _ in 0..iterations {
        let prices = Prices {
            col: to_int(&lam),
            diag: to_int(&mu),
            anti: to_int(&nu),
        };
        let eval = evaluate(n, queens, &prices);
        let value = eval.value;
        // Subgradient: how often each line is used minus its capacity.
        let mut gc = vec![-1f64; n];
        let mut gd = vec![-1f64; 2 * n - 1];
        let mut ga = vec![-1f64; 2 * n - 1];
        for (r, &c) in eval.chosen.iter().enumerate() {
            let c = c as usize;
            gc[c] += 1.0;
            gd[r + n - 1 - c] += 1.0;
            ga[r + c] += 1.0;
        }
        for (g, &m) in gd.iter_mut().zip(&mu).chain(ga.iter_mut().zip(&nu)) {
            if m <= 0.0 && *g < 0.0 {
                *g = 0.0;
            }
        }
        let improved = best.as_ref().is_none_or(|b| value > b.0);
        if improved {
            best = Some((value, prices, eval));
            since = 0;
        } else {
            since += 1;
            if since >= PATIENCE {
                theta /= 2.0;
                since = 0;
            }
        }
        let b = best.as_ref().expect("set above");
        if (b.0 + SCALE - 1) / SCALE >= upper as i64 || theta < 1e-4 {
            break;
        }
        let norm: f64 = gc.iter().chain(&gd).chain(&ga).map(|g| g * g).sum();
        if norm == 0.0 {
            break;
        }
        let gap = (upper as f64 - value as f64 / SCALE as f64).max(0.05);
        let step = theta * gap / norm;
        for (x, g) in lam.iter_mut().zip(&gc) {
            *x += step * g;
        }
        for (x, g) in mu.iter_mut().zip(&gd).chain(nu.iter_mut().zip(&ga)) {
            *x = (*x + step * g).max(0.0);
        }
    }
    let (base, prices, eval) = best.expect("at least one iteration");
    // Fixing row r to column c replaces column r of the assignment's costs by the cost of
    // each queen on (r, c) at the prices: the dual bound rises by the rise of column r's dual.
    let mut extra = vec![0i64; n * n];
    for r in 0..n {
        let v_r = (0..n)
            .map(|i| eval.cost[i * n + r] - eval.u[i])
            .min()
            .expect("n >= 1");
        for c in 0..n {
            let p = prices.at(n, r, c);
            let fixed = queens
                .iter()
                .enumerate()
                .map(|(i, &q)| moves(q, r, c) * SCALE + p - eval.u[i])
                .min()
                .expect("n >= 1");
            extra[r * n + c] = (fixed - v_r).max(0);
        }
    }
    // The dual of the unfixed problem: sum u + sum v (equal to the assignment value).
    let dual: i64 = eval.u.iter().sum::<i64>()
        + (0..n)
            .map(|r| {
                (0..n)
                    .map(|i| eval.cost[i * n + r] - eval.u[i])
                    .min()
                    .expect("n >= 1")
            })
            .sum::<i64>()
        - prices.total();
    debug_assert!(dual <= base);
    Duals { base: dual, extra }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::primitive::rng::Xorshift64 as Rng;

    fn permutations(k: usize) -> Vec<Vec<usize>> {
        if k == 0 {
            return vec![Vec::new()];
        }
        let mut out = Vec::new();
        for p in permutations(k - 1) {
            for at in 0..=p.len() {
                let mut q = p.clone();
                q.insert(at, k - 1);
                out.push(q);
            }
        }
        out
    }

    #[test]
    fn assignments_match_brute_force_and_their_duals() {
        let mut rng = Rng::new(0xA551);
        for round in 0..300 {
            let n = 1 + round % 6;
            let cost: Vec<i64> = (0..n * n)
                .map(|_| (rng.next_u64() % 50) as i64 - 10)
                .collect();
            let brute = permutations(n)
                .iter()
                .map(|p| (0..n).map(|i| cost[i * n + p[i]]).sum::<i64>())
                .min()
                .unwrap();
            let (value, col, u) = assign(n, &cost);
            assert_eq!(value, brute);
            let mut seen = vec![false; n];
            col.iter().for_each(|&j| seen[j] = true);
            assert!(seen.iter().all(|&s| s));
            let dual: i64 = u.iter().sum::<i64>()
                + (0..n)
                    .map(|j| (0..n).map(|i| cost[i * n + j] - u[i]).min().unwrap())
                    .sum::<i64>();
            assert_eq!(dual, value);
        }
    }

    /// Every N-queens solution of side `n`, by plain backtracking.
    fn solutions(n: usize) -> Vec<Vec<usize>> {
        fn rec(n: usize, cols: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            let r = cols.len();
            if r == n {
                out.push(cols.clone());
                return;
            }
            for c in 0..n {
                if cols
                    .iter()
                    .enumerate()
                    .all(|(r2, &c2)| c2 != c && r.abs_diff(r2) != c.abs_diff(c2))
                {
                    cols.push(c);
                    rec(n, cols, out);
                    cols.pop();
                }
            }
        }
        let mut out = Vec::new();
        rec(n, &mut Vec::new(), &mut out);
        out
    }

    /// The relaxed cost of reaching `sol` from `queens`: a cheapest assignment at 0/1/2 moves.
    fn cost_to(queens: &[(u8, u8)], sol: &[usize]) -> i64 {
        let n = sol.len();
        let mut cost = vec![0i64; n * n];
        for (i, &q) in queens.iter().enumerate() {
            for (r, &c) in sol.iter().enumerate() {
                cost[i * n + r] = moves(q, r, c);
            }
        }
        assign(n, &cost).0
    }

    /// The bound, with the rises of every row fixed to a solution, never exceeds the cost of
    /// reaching that solution; in particular the bound never exceeds the relaxed value.
    fn check(n: usize, queens: &[(u8, u8)], sols: &[Vec<usize>]) -> (u32, i64) {
        let costs: Vec<i64> = sols.iter().map(|s| cost_to(queens, s)).collect();
        let relaxed = *costs.iter().min().unwrap();
        let duals = bound(n, queens, relaxed as u32, 40);
        for (sol, &cost) in sols.iter().zip(&costs) {
            let extra: i64 = sol
                .iter()
                .enumerate()
                .map(|(r, &c)| duals.extra[r * n + c])
                .sum();
            assert!(
                duals.moves(extra) as i64 <= cost,
                "{queens:?} to {sol:?}: bound {} over cost {cost}",
                duals.moves(extra)
            );
        }
        (duals.moves(0), relaxed)
    }

    #[test]
    fn the_bound_never_exceeds_the_cost_of_any_solution_on_every_5x5_board() {
        let sols = solutions(5);
        let mut tight = 0;
        let mut boards = 0;
        let cells = 25usize;
        let mut pick = [0usize; 5];
        fn rec(
            at: usize,
            start: usize,
            cells: usize,
            pick: &mut [usize; 5],
            f: &mut dyn FnMut(&[usize; 5]),
        ) {
            if at == 5 {
                f(pick);
                return;
            }
            for k in start..cells {
                pick[at] = k;
                rec(at + 1, k + 1, cells, pick, f);
            }
        }
        rec(0, 0, cells, &mut pick, &mut |p| {
            let queens: Vec<(u8, u8)> = p.iter().map(|&k| ((k / 5) as u8, (k % 5) as u8)).collect();
            let (b, r) = check(5, &queens, &sols);
            boards += 1;
            tight += usize::from(b as i64 == r);
        });
        assert_eq!(boards, 53_130);
        // The bound is not vacuous: it reaches the relaxed value on most boards.
        assert!(tight * 2 > boards, "{tight} of {boards}");
    }

    #[test]
    fn the_bound_never_exceeds_the_cost_of_any_solution_on_random_6x6_to_9x9_boards() {
        let mut rng = Rng::new(0x6789);
        for n in 6..=9 {
            let sols = solutions(n);
            for _ in 0..300 {
                let mut queens: Vec<(u8, u8)> = Vec::new();
                while queens.len() < n {
                    let s = (
                        (rng.next_u64() % n as u64) as u8,
                        (rng.next_u64() % n as u64) as u8,
                    );
                    if !queens.contains(&s) {
                        queens.push(s);
                    }
                }
                check(n, &queens, &sols);
            }
        }
    }
}
