//! The exact depth-first search over target solutions, bounded by the relaxed cost: one start
//! position's fixed facts ([`Context`]), the search itself ([`Dfs`]), split over threads.

use super::square::{lines_meet, mask, ReverseLow, Sq};
use super::targets::{all_solutions, cost, Scratch, LISTED_UP_TO};
use crate::Deadline;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What [`search`] did.
pub(crate) struct Found {
    /// The solutions found, with their costs (see [`search`] for which).
    pub solutions: Vec<(u32, Vec<u8>)>,
    /// Whether the search ran to the end (false: stopped by the deadline).
    pub complete: bool,
}

/// How [`search`] keeps solutions.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Keep one cheapest solution (the first in search order among the cheapest), starting from
    /// the incumbent cost `limit + 1`: only solutions of cost at most `limit` are accepted.
    Best,
    /// Keep every solution of cost at most `limit`, in search order.
    All,
    /// Keep the first solution found of cost at most `limit` and stop.
    First,
}

/// Cap on the number of solutions [`Mode::All`] keeps; more are cut off (the search result is
/// then marked incomplete).
pub(crate) const MAX_KEPT: usize = 200_000;

/// Branches allowed to one test of the independent-set bound (beyond them the test passes).
const STAY_BRANCHES: u64 = 64;

/// The fixed facts of one start position that every search over targets uses.
pub(crate) struct Context<'a> {
    pub n: usize,
    pub queens: &'a [Sq],
    pub(super) occ: [u64; 64],
    /// The attack graph of the queens ([`super::stays::attack_graph`]).
    pub adj: Vec<u64>,
    /// The queens sharing a line with each square (`r * n + c`), as a set of queen indices.
    hits: Vec<u64>,
    /// The queens of each row, as a set of queen indices.
    pub(super) row_queens: [u64; 64],
    /// The default row order: rows holding more queens first, then the empty rows.
    pub(super) order: Vec<u8>,
    /// The Lagrangian bound and its per-square rises ([`super::lagrange`]), once computed.
    pub(super) duals: Option<super::lagrange::Duals>,
    /// For each row, its columns by rise, least first (row-major, `n` per row; with `duals`).
    rise_order: Vec<u8>,
    /// For each column, its rows by rise, least first (`n` per column; with `duals`).
    rise_rows: Vec<u8>,
}

impl<'a> Context<'a> {
    pub(crate) fn new(n: usize, queens: &'a [Sq]) -> Self {
        if n <= LISTED_UP_TO {
            // Listed solutions are scored directly; the search tables are not needed.
            return Context {
                n,
                queens,
                occ: occupancy(queens),
                adj: Vec::new(),
                hits: Vec::new(),
                row_queens: [0; 64],
                order: (0..n as u8).collect(),
                duals: None,
                rise_order: Vec::new(),
                rise_rows: Vec::new(),
            };
        }
        let mut row_queens = [0u64; 64];
        for (i, &(r, _)) in queens.iter().enumerate() {
            row_queens[r as usize] |= 1 << i;
        }
        let mut hits = vec![0u64; n * n];
        for r in 0..n {
            for c in 0..n {
                let s = (r as u8, c as u8);
                let mut bits = 0u64;
                for (i, &q) in queens.iter().enumerate() {
                    if q != s && lines_meet(q, s) {
                        bits |= 1 << i;
                    }
                }
                hits[r * n + c] = bits;
            }
        }
        let mut order: Vec<u8> = (0..n as u8).collect();
        order.sort_by_key(|&r| std::cmp::Reverse(row_queens[r as usize].count_ones()));
        Context {
            n,
            queens,
            occ: occupancy(queens),
            adj: super::stays::attack_graph(queens),
            hits,
            row_queens,
            order,
            duals: None,
            rise_order: Vec::new(),
            rise_rows: Vec::new(),
        }
    }

    /// Computes the Lagrangian bound (aimed at `upper`, a known cost) for the searches that
    /// follow, and returns it.
    pub(crate) fn tighten(&mut self, upper: u32) -> u32 {
        let duals = super::lagrange::bound(self.n, self.queens, upper, LAGRANGE_STEPS);
        let moves = duals.moves(0);
        let n = self.n;
        self.rise_order = (0..n)
            .flat_map(|r| {
                let mut cols: Vec<u8> = (0..n as u8).collect();
                cols.sort_by_key(|&c| (duals.extra[r * n + c as usize], c));
                cols
            })
            .collect();
        self.rise_rows = (0..n)
            .flat_map(|c| {
                let mut rows: Vec<u8> = (0..n as u8).collect();
                rows.sort_by_key(|&r| (duals.extra[r as usize * n + c], r));
                rows
            })
            .collect();
        self.duals = Some(duals);
        moves
    }
}

/// Subgradient steps allowed to the Lagrangian bound.
const LAGRANGE_STEPS: u32 = 1_000;

/// Solutions of cost at most `limit` from `queens` (see [`Mode`]). With `parallel`, modes
/// [`Mode::First`] and [`Mode::All`] split the search by the column of the first row and run
/// the parts on the current rayon pool; the result is the same as the sequential one (the
/// first part in search order wins), unless the deadline stops the search.
pub(crate) fn search(
    n: usize,
    queens: &[Sq],
    limit: u32,
    mode: Mode,
    deadline: &Deadline,
    parallel: bool,
) -> Found {
    let ctx = Context::new(n, queens);
    search_in(&ctx, limit, mode, deadline, parallel)
}

/// [`search`] over a prepared context.
pub(crate) fn search_in(
    ctx: &Context,
    limit: u32,
    mode: Mode,
    deadline: &Deadline,
    parallel: bool,
) -> Found {
    if parallel && mode != Mode::Best && ctx.n > LISTED_UP_TO {
        return search_split(ctx, limit, mode, deadline);
    }
    search_capped(ctx, limit, mode, deadline, u64::MAX)
}

fn occupancy(queens: &[Sq]) -> [u64; 64] {
    let mut occ = [0u64; 64];
    for &(r, c) in queens {
        occ[r as usize] |= 1 << c;
    }
    occ
}

pub(crate) fn new_dfs<'a>(
    ctx: &'a Context<'a>,
    limit: u32,
    mode: Mode,
    deadline: &'a Deadline,
    node_cap: u64,
) -> Dfs<'a> {
    Dfs {
        ctx,
        cols: vec![0; ctx.n],
        limit,
        mode,
        out: Vec::new(),
        scratch: Scratch::default(),
        deadline,
        nodes: 0,
        node_cap,
        stopped: false,
        first_cols: u64::MAX,
        abandon: None,
        order: ctx.order.clone(),
        allowed: [u64::MAX; 64],
        plain: false,
        by_rise: false,
    }
}

/// What one part of a split search found: (cost, target columns) pairs, and whether it stopped
/// early.
type PartResult = (Vec<(u32, Vec<u8>)>, bool);

/// [`search`] in parallel parts, one per column of the first row, in search order.
fn search_split(ctx: &Context, limit: u32, mode: Mode, deadline: &Deadline) -> Found {
    let n = ctx.n;
    let first = ctx.order[0] as usize;
    let own = ctx.occ[first];
    let all = mask(n);
    let order: Vec<usize> = (0..n)
        .filter(|&c| own >> c & 1 == 1)
        .chain((0..n).filter(|&c| own >> c & 1 == 0 && all >> c & 1 == 1))
        .collect();
    // In first-solution mode, parts after the earliest successful one are abandoned.
    let earliest = AtomicUsize::new(usize::MAX);
    let parts: Vec<PartResult> = order
        .par_iter()
        .enumerate()
        .map(|(index, &c)| {
            if deadline.reached() {
                return (Vec::new(), true);
            }
            let mut dfs = new_dfs(ctx, limit, mode, deadline, u64::MAX);
            dfs.first_cols = 1 << c;
            if mode == Mode::First {
                dfs.abandon = Some((&earliest, index));
            }
            dfs.start();
            if mode == Mode::First && !dfs.out.is_empty() {
                earliest.fetch_min(index, Ordering::Relaxed);
            }
            (dfs.out, dfs.stopped)
        })
        .collect();
    let mut solutions = Vec::new();
    let mut complete = true;
    for (out, stopped) in parts {
        if mode == Mode::First {
            if !out.is_empty() {
                return Found {
                    solutions: out,
                    complete: true,
                };
            }
            complete &= !stopped;
        } else {
            complete &= !stopped;
            solutions.extend(out);
        }
    }
    if solutions.len() > MAX_KEPT {
        solutions.truncate(MAX_KEPT);
        complete = false;
    }
    Found {
        solutions,
        complete,
    }
}

/// [`search`], sequential, giving up (incomplete) after `node_cap` nodes.
pub(crate) fn search_capped(
    ctx: &Context,
    limit: u32,
    mode: Mode,
    deadline: &Deadline,
    node_cap: u64,
) -> Found {
    let n = ctx.n;
    if n <= LISTED_UP_TO {
        let mut scratch = Scratch::default();
        let mut out: Vec<(u32, Vec<u8>)> = Vec::new();
        let mut limit = limit;
        for cols in all_solutions(n) {
            if let Some(c) = cost(ctx.queens, cols, limit, &mut scratch) {
                match mode {
                    Mode::Best => {
                        out.clear();
                        out.push((c, cols.to_vec()));
                        if c == 0 {
                            break;
                        }
                        limit = c - 1;
                    }
                    Mode::All => out.push((c, cols.to_vec())),
                    Mode::First => {
                        out.push((c, cols.to_vec()));
                        break;
                    }
                }
            }
        }
        return Found {
            solutions: out,
            complete: true,
        };
    }
    let mut dfs = new_dfs(ctx, limit, mode, deadline, node_cap);
    dfs.start();
    dfs.found()
}

pub(crate) struct Dfs<'a> {
    ctx: &'a Context<'a>,
    cols: Vec<u8>,
    limit: u32,
    mode: Mode,
    out: Vec<(u32, Vec<u8>)>,
    scratch: Scratch,
    deadline: &'a Deadline,
    pub nodes: u64,
    node_cap: u64,
    stopped: bool,
    /// The columns allowed in the first row (a part of a split search).
    first_cols: u64,
    /// A shared earliest successful part and this part's index: stop when an earlier part
    /// has succeeded.
    abandon: Option<(&'a AtomicUsize, usize)>,
    /// The rows in the order they are placed.
    pub order: Vec<u8>,
    /// The columns allowed in each row (a neighbourhood of a known solution).
    pub allowed: [u64; 64],
    /// Only the line-count bound, rows in order, no forward checking (the reference search of
    /// the tests).
    pub plain: bool,
    /// Columns in the order of their Lagrangian rise (cheapest first), the row's own queens
    /// first among equals: a dive towards the targets the prices favour.
    pub by_rise: bool,
}

/// Counts behind the bound of a partial solution (rows `0..row` placed).
///
/// A queen is *live* when it stands in an unplaced row and is not yet known to be off the
/// solution. The misplaced queens number `n - (placed rows whose square holds a queen) - (live
/// queens that end on the solution)`, and the live queens that end on it do not attack one
/// another: at most one per unplaced row, unused column, unused diagonal and unused
/// anti-diagonal, and at most a largest independent set of the live queens' attack graph. So
/// `m >= n - on_placed - min(live rows, columns, diagonals, anti-diagonals)`, and the same with
/// that largest set.
#[derive(Clone, Copy)]
struct Live {
    row_live: [u8; 64],
    col_live: [u8; 64],
    diag_live: [u8; 128],
    anti_live: [u8; 128],
    live_rows: u32,
    live_cols: u32,
    live_diags: u32,
    live_antis: u32,
    on_placed: u32,
    /// The live queens, by index.
    set: u64,
}

/// The lines already used by the placed rows.
#[derive(Clone, Copy)]
struct Used {
    cols: u64,
    diags: u128,
    antis: u128,
}

impl Live {
    fn bound(&self, n: usize) -> u32 {
        let lines = self
            .live_rows
            .min(self.live_cols)
            .min(self.live_diags)
            .min(self.live_antis);
        n as u32 - self.on_placed - lines
    }

    /// The live queen at `(r, c)`, of index `index`, is no longer live.
    fn kill(&mut self, n: usize, r: usize, c: usize, index: u8, used: &Used) {
        let (d, a) = (r + n - 1 - c, r + c);
        self.set &= !(1u64 << index);
        self.row_live[r] -= 1;
        if self.row_live[r] == 0 {
            self.live_rows -= 1;
        }
        self.col_live[c] -= 1;
        if self.col_live[c] == 0 && used.cols >> c & 1 == 0 {
            self.live_cols -= 1;
        }
        self.diag_live[d] -= 1;
        if self.diag_live[d] == 0 && used.diags >> d & 1 == 0 {
            self.live_diags -= 1;
        }
        self.anti_live[a] -= 1;
        if self.anti_live[a] == 0 && used.antis >> a & 1 == 0 {
            self.live_antis -= 1;
        }
    }
}

impl Dfs<'_> {
    /// The search result so far.
    pub(crate) fn found(self) -> Found {
        let complete = !self.stopped || (self.mode == Mode::First && !self.out.is_empty());
        Found {
            solutions: self.out,
            complete,
        }
    }

    pub(crate) fn start(&mut self) {
        let n = self.ctx.n;
        let mut live = Live {
            row_live: [0; 64],
            col_live: [0; 64],
            diag_live: [0; 128],
            anti_live: [0; 128],
            live_rows: 0,
            live_cols: 0,
            live_diags: 0,
            live_antis: 0,
            on_placed: 0,
            set: mask(self.ctx.queens.len()),
        };
        for &(r, c) in self.ctx.queens {
            let (r, c) = (r as usize, c as usize);
            live.row_live[r] += 1;
            live.col_live[c] += 1;
            live.diag_live[r + n - 1 - c] += 1;
            live.anti_live[r + c] += 1;
        }
        let count = |v: &[u8]| v.iter().filter(|&&k| k > 0).count() as u32;
        live.live_rows = count(&live.row_live);
        live.live_cols = count(&live.col_live);
        live.live_diags = count(&live.diag_live);
        live.live_antis = count(&live.anti_live);
        if live.bound(n) <= self.limit
            && self.stays_fit(&live)
            && self.priced_fit(0, 0, None).is_some()
        {
            self.row(0, &live, 0, 0, 0, 0);
        }
    }

    /// Whether enough live queens can stay for the limit: `n - on_placed - alpha(live) <=
    /// limit` may hold (false only when proven impossible).
    fn stays_fit(&self, live: &Live) -> bool {
        let n = self.ctx.n as u32;
        let Some(need) = n.checked_sub(live.on_placed + self.limit) else {
            return true;
        };
        if self.plain {
            return true;
        }
        let mut budget = STAY_BRANCHES;
        super::stays::at_least(&self.ctx.adj, live.set, need, &mut budget)
    }

    /// Whether the Lagrangian bound allows the limit when the placed rows add `extra` and each
    /// row after `depth` takes its cheapest square still free (`used`; all rows when `None`):
    /// `None` when it does not, else the position in `order` of the row with the fewest squares
    /// the bound still allows (`None` inside when there are no prices).
    fn priced_fit(&self, depth: usize, extra: i64, used: Option<&Used>) -> Option<Option<usize>> {
        let Some(duals) = self.ctx.duals.as_ref().filter(|_| !self.plain) else {
            return Some(None);
        };
        let slack = duals.slack(self.limit);
        if extra > slack {
            return None;
        }
        let Some(used) = used else {
            return Some(None);
        };
        let n = self.ctx.n;
        let mut total = extra;
        let mut least = [0i64; 64];
        let mut first = [0u8; 64];
        let mut free = [0u64; 64];
        let mut open_rows = 0u64;
        for j in depth + 1..n {
            let r = self.order[j] as usize;
            open_rows |= 1 << r;
            let f = !used.cols
                & !((used.diags >> r) as u64).reverse_bits_n(n)
                & !((used.antis >> r) as u64)
                & self.allowed[r]
                & mask(n);
            if f == 0 {
                return None;
            }
            // The least rise of a free square: the first free column in the row's rise order.
            let by_rise = &self.ctx.rise_order[r * n..(r + 1) * n];
            let k = by_rise
                .iter()
                .position(|&c| f >> c & 1 == 1)
                .expect("f has a column below n");
            let low = duals.extra[r * n + by_rise[k] as usize];
            least[j] = low;
            first[j] = k as u8;
            free[j] = f;
            total += low;
            if total > slack {
                return None;
            }
        }
        // Each unused column goes to one open row: the least rise of a free square of each
        // column adds up to a bound as well.
        let mut by_cols = extra;
        let mut cols = !used.cols & mask(n);
        while cols != 0 {
            let c = cols.trailing_zeros() as usize;
            cols &= cols - 1;
            let by_rise = &self.ctx.rise_rows[c * n..(c + 1) * n];
            let r = by_rise.iter().map(|&r| r as usize).find(|&r| {
                open_rows >> r & 1 == 1
                    && used.diags >> (r + n - 1 - c) & 1 == 0
                    && used.antis >> (r + c) & 1 == 0
                    && self.allowed[r] >> c & 1 == 1
            })?;
            by_cols += duals.extra[r * n + c];
            if by_cols > slack {
                return None;
            }
        }
        // With each row's least rise taken off, each unused column still adds the least
        // remaining rise of its free squares (a dual solution of the open rows' assignment).
        let mut v = [i64::MAX; 64];
        for j in depth + 1..n {
            let r = self.order[j] as usize;
            let mut bits = free[j];
            while bits != 0 {
                let c = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                v[c] = v[c].min(duals.extra[r * n + c] - least[j]);
            }
        }
        let mut reduced = total;
        let mut cols = !used.cols & mask(n);
        while cols != 0 {
            let c = cols.trailing_zeros() as usize;
            cols &= cols - 1;
            reduced += v[c];
        }
        if reduced > slack {
            return None;
        }
        // A square of row j is allowed when it fits with every other row at its cheapest. Only
        // the first row left with one allowed square goes first (a wider choice of row order
        // measured no better than the fixed one).
        let room = slack - total;
        for j in depth + 1..n {
            let r = self.order[j] as usize;
            let by_rise = &self.ctx.rise_order[r * n..(r + 1) * n];
            let mut k = 0;
            for &c in &by_rise[first[j] as usize..] {
                if duals.extra[r * n + c as usize] - least[j] > room {
                    break;
                }
                if free[j] >> c & 1 == 1 {
                    k += 1;
                    if k > 1 {
                        break;
                    }
                }
            }
            if k == 1 {
                return Some(Some(j));
            }
        }
        Some(None)
    }

    /// Forward checking: `None` when some row after `depth` has no free square left or some
    /// unused column no free square in those rows; otherwise the position in `order` of the row
    /// to place next (the first with a single free square, else the next in order).
    fn fillable(&self, depth: usize, used: &Used) -> Option<usize> {
        let n = self.ctx.n;
        if self.plain {
            return Some(depth + 1);
        }
        let open_cols = !used.cols & mask(n);
        let mut reach = 0u64;
        let mut forced = None;
        for j in depth + 1..n {
            let r = self.order[j] as usize;
            let free = open_cols
                & !((used.diags >> r) as u64).reverse_bits_n(n)
                & !((used.antis >> r) as u64)
                & self.allowed[r];
            if free == 0 {
                return None;
            }
            if forced.is_none() && free & (free - 1) == 0 {
                forced = Some(j);
            }
            reach |= free;
        }
        if reach != open_cols {
            return None;
        }
        Some(forced.unwrap_or(depth + 1))
    }

    /// Places the row `order[depth]` given the live counts of the rows placed before.
    fn row(&mut self, depth: usize, live: &Live, cm: u64, dm: u128, am: u128, extra: i64) {
        if self.stopped {
            return;
        }
        self.nodes += 1;
        if self.nodes >= self.node_cap
            || (self.nodes & 255 == 0
                && (self.deadline.reached()
                    || self
                        .abandon
                        .is_some_and(|(e, i)| e.load(Ordering::Relaxed) < i)))
        {
            self.stopped = true;
            return;
        }
        let ctx = self.ctx;
        let n = ctx.n;
        if depth == n {
            if let Some(c) = cost(ctx.queens, &self.cols, self.limit, &mut self.scratch) {
                match self.mode {
                    Mode::Best => {
                        self.out.clear();
                        self.out.push((c, self.cols.clone()));
                        // Only strictly cheaper solutions from now on.
                        if c == 0 {
                            self.stopped = true;
                        } else {
                            self.limit = c - 1;
                        }
                    }
                    Mode::First => {
                        self.out.push((c, self.cols.clone()));
                        self.stopped = true;
                    }
                    Mode::All => {
                        if self.out.len() >= MAX_KEPT {
                            self.stopped = true;
                            return;
                        }
                        self.out.push((c, self.cols.clone()));
                    }
                }
            }
            return;
        }
        let row = self.order[depth] as usize;
        let free = !cm
            & !((dm >> row) as u64).reverse_bits_n(n)
            & !((am >> row) as u64)
            & mask(n)
            & self.allowed[row];
        let free = if depth == 0 {
            free & self.first_cols
        } else {
            free
        };
        if free == 0 {
            return;
        }
        // The queens of this row first (keeping a queen in place is usually cheap), then the
        // other columns, those that rule out the fewest live queens first.
        let own = if self.by_rise && ctx.duals.is_some() {
            0
        } else {
            ctx.occ[row] & free
        };
        let mut others = [(0i64, 0u8); 64];
        let mut k = 0;
        let mut bits = free & !own;
        let leaving = ctx.row_queens[row];
        while bits != 0 {
            let c = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let kills = (ctx.hits[row * n + c] & live.set & !leaving).count_ones() as i64;
            let key = match ctx.duals.as_ref().filter(|_| self.by_rise) {
                Some(d) => d.extra[row * n + c] * 128 + kills,
                None => kills,
            };
            others[k] = (key, c as u8);
            k += 1;
        }
        others[..k].sort_unstable();
        let mut own_bits = own;
        let mut next_other = 0;
        loop {
            let c = if own_bits != 0 {
                let c = own_bits.trailing_zeros() as usize;
                own_bits &= own_bits - 1;
                c
            } else if next_other < k {
                next_other += 1;
                others[next_other - 1].1 as usize
            } else {
                break;
            };
            let (d, a) = (row + n - 1 - c, row + c);
            let before = Used {
                cols: cm,
                diags: dm,
                antis: am,
            };
            let used = Used {
                cols: cm | 1 << c,
                diags: dm | 1u128 << d,
                antis: am | 1u128 << a,
            };
            let mut next = *live;
            // The queens of this row leave the live pool; the one on (row, c) stays put.
            let mut bits = ctx.row_queens[row] & live.set;
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let c2 = ctx.queens[i].1 as usize;
                next.kill(n, row, c2, i as u8, &before);
                if c2 == c {
                    next.on_placed += 1;
                }
            }
            // Its column and diagonals become used: no longer live lines.
            if next.col_live[c] > 0 {
                next.live_cols -= 1;
            }
            if next.diag_live[d] > 0 {
                next.live_diags -= 1;
            }
            if next.anti_live[a] > 0 {
                next.live_antis -= 1;
            }
            // The live queens of the other open rows on a line of (row, c) are off the target.
            let mut fresh = ctx.hits[row * n + c] & next.set;
            while fresh != 0 {
                let i = fresh.trailing_zeros() as usize;
                fresh &= fresh - 1;
                let (r2, c2) = ctx.queens[i];
                next.kill(n, r2 as usize, c2 as usize, i as u8, &used);
            }
            let extra = extra + ctx.duals.as_ref().map_or(0, |d| d.extra[row * n + c]);
            if next.bound(n) <= self.limit {
                let fits = self
                    .fillable(depth, &used)
                    .and_then(|j| Some((j, self.priced_fit(depth, extra, Some(&used))?)));
                if let Some((j, pick)) = fits {
                    let j = pick.unwrap_or(j);
                    if self.stays_fit(&next) {
                        self.cols[row] = c as u8;
                        if j < n {
                            self.order.swap(depth + 1, j);
                        }
                        self.row(depth + 1, &next, used.cols, used.diags, used.antis, extra);
                        if j < n {
                            self.order.swap(depth + 1, j);
                        }
                    }
                }
            }
            if self.stopped {
                return;
            }
        }
    }
}
