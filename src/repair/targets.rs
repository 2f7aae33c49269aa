//! Target solutions and their relaxed costs.
//!
//! The relaxed cost of reaching an N-queens solution `S` from queens `Q` (blocking ignored) is
//! `2m - M`: `m` queens stand off `S` (each needs one or two moves; the queens on `S` stay,
//! which is never worse), and `M` is a maximum matching between those queens and the `m` free
//! squares of `S`, an edge joining a queen to a square on one of its lines (one move instead of
//! two).

use super::square::{lines_meet, mask, ReverseLow, Sq};
use crate::primitive::rng::splitmix64;
use crate::Deadline;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

pub(crate) use crate::board::LISTED_UP_TO;

/// Every N-queens solution of side `n` (`n <= LISTED_UP_TO`), one byte per row, in
/// lexicographic order ([`crate::board::listed_solutions`]).
pub(crate) fn all_solutions(n: usize) -> crate::board::ListedSolutions {
    crate::board::listed_solutions(n).expect("n <= LISTED_UP_TO")
}

/// [`crate::board::construction`], one byte per row; `None` for `n` = 2, 3.
pub(crate) fn explicit_solution(n: usize) -> Option<Vec<u8>> {
    let cols = crate::board::construction(n)?;
    Some(cols.into_iter().map(|c| c as u8).collect())
}

/// Reusable buffers for [`cost`].
pub(crate) struct Scratch {
    misplaced: [Sq; 64],
    free: [Sq; 64],
    adj: [u64; 64],
    owner: [u8; 64],
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            misplaced: [(0, 0); 64],
            free: [(0, 0); 64],
            adj: [0; 64],
            owner: [u8::MAX; 64],
        }
    }
}

fn augment(i: usize, adj: &[u64], owner: &mut [u8], visited: &mut u64) -> bool {
    let mut cand = adj[i] & !*visited;
    while cand != 0 {
        let j = cand.trailing_zeros() as usize;
        cand &= cand - 1;
        *visited |= 1 << j;
        if owner[j] == u8::MAX || augment(owner[j] as usize, adj, owner, visited) {
            owner[j] = i as u8;
            return true;
        }
    }
    false
}

/// The relaxed cost of reaching the solution `cols` from `queens`, or `None` when it exceeds
/// `budget`. Allocation-free.
pub(crate) fn cost(queens: &[Sq], cols: &[u8], budget: u32, s: &mut Scratch) -> Option<u32> {
    let mut on_rows = 0u64;
    let mut m = 0usize;
    for &q in queens {
        if cols[q.0 as usize] == q.1 {
            on_rows |= 1 << q.0;
        } else {
            s.misplaced[m] = q;
            m += 1;
        }
    }
    if m as u32 > budget {
        return None;
    }
    if m == 0 {
        return Some(0);
    }
    let mut k = 0;
    for (r, &c) in cols.iter().enumerate() {
        if on_rows >> r & 1 == 0 {
            s.free[k] = (r as u8, c);
            k += 1;
        }
    }
    debug_assert_eq!(k, m);
    for i in 0..m {
        let q = s.misplaced[i];
        let mut bits = 0u64;
        for j in 0..m {
            if lines_meet(q, s.free[j]) {
                bits |= 1 << j;
            }
        }
        s.adj[i] = bits;
        s.owner[i] = u8::MAX;
    }
    let mut matched = 0usize;
    for i in 0..m {
        let mut visited = 0u64;
        if s.adj[i] != 0 && augment(i, &s.adj[..m], &mut s.owner[..m], &mut visited) {
            matched += 1;
        }
        // Even if every later queen were matched, is the cost still over budget?
        let best_possible = matched + (m - i - 1);
        if (2 * m - best_possible) as u32 > budget {
            return None;
        }
    }
    Some((2 * m - matched) as u32)
}

/// The relaxed cost of reaching `cols` and a queen-to-square assignment achieving it.
pub(crate) fn cost_with_assignment(queens: &[Sq], cols: &[u8]) -> (u32, Vec<(Sq, Sq)>) {
    let mut s = Scratch::default();
    let value = cost(queens, cols, u32::MAX, &mut s).expect("no budget");
    let mut pairs: Vec<(Sq, Sq)> = queens
        .iter()
        .filter(|q| cols[q.0 as usize] == q.1)
        .map(|&q| (q, q))
        .collect();
    let m = queens.len() - pairs.len();
    if m > 0 {
        let mut used_queen = [false; 64];
        for j in 0..m {
            if s.owner[j] != u8::MAX {
                pairs.push((s.misplaced[s.owner[j] as usize], s.free[j]));
                used_queen[s.owner[j] as usize] = true;
            }
        }
        let mut free_left = (0..m).filter(|&j| s.owner[j] == u8::MAX);
        for (i, &used) in used_queen.iter().enumerate().take(m) {
            if !used {
                let j = free_left.next().expect("as many free squares as queens");
                pairs.push((s.misplaced[i], s.free[j]));
            }
        }
    }
    pairs.sort();
    (value, pairs)
}

/// A lower bound on the moves of any repair: on every row (column, diagonal, anti-diagonal) all
/// queens but one must move, so the larger of the four family totals.
pub(crate) fn line_bound(n: usize, queens: &[Sq]) -> u32 {
    let mut best = 0;
    for family in 0..4 {
        let mut counts = [0u32; 128];
        for &(r, c) in queens {
            let line = match family {
                0 => r as usize,
                1 => c as usize,
                2 => r as usize + n - 1 - c as usize,
                _ => r as usize + c as usize,
            };
            counts[line] += 1;
        }
        best = best.max(counts.iter().map(|&k| k.saturating_sub(1)).sum());
    }
    best
}

/// The bound every search starts from: the larger of [`line_bound`] and `n - alpha`, `alpha` the
/// most queens that attack no one another ([`super::stays`]).
pub(crate) fn root_bound(n: usize, queens: &[Sq]) -> u32 {
    let adj = super::stays::attack_graph(queens);
    let alpha = super::stays::largest(&adj, mask(queens.len()));
    line_bound(n, queens).max(n as u32 - alpha)
}

/// The strongest bound on the relaxed value found without the proof passes: the exact value for
/// listed sides; otherwise the larger of [`root_bound`] and the Lagrangian bound, its steps
/// aimed at the cost of a target from a short search.
pub(crate) fn proven_bound(n: usize, queens: &[Sq]) -> u32 {
    let never = Deadline::never();
    let mut ctx = Context::new(n, queens);
    if n <= LISTED_UP_TO {
        let f = search_capped(&ctx, 2 * n as u32, Mode::Best, &never, u64::MAX);
        return f.solutions.first().map_or(0, |b| b.0);
    }
    let root = root_bound(n, queens);
    let quick = search_capped(&ctx, 2 * n as u32, Mode::Best, &never, INCUMBENT_NODES);
    let upper = match quick.solutions.first() {
        Some(&(c, _)) if quick.complete => return c,
        Some(&(c, _)) => c,
        None => cost_with_assignment(queens, &explicit_solution(n).expect("n > LISTED_UP_TO")).0,
    };
    if root >= upper {
        return root;
    }
    root.max(ctx.tighten(upper))
}

/// A cheapest target found by [`cheapest`].
pub(crate) struct Cheapest {
    /// The solution (column of each row) and its relaxed cost, when one was found.
    pub best: Option<(u32, Vec<u8>)>,
    /// A proven lower bound on the relaxed value (equal to the cost when `complete`).
    pub lower: u32,
    /// Whether the best cost is proven minimal.
    pub complete: bool,
}

/// Nodes spent looking for a first cheap target before the neighbourhood search.
const INCUMBENT_NODES: u64 = 20_000;

/// Nodes allowed to the dive along the Lagrangian rises after the bound.
const DIVE_NODES: u64 = 50_000;

/// Nodes allowed to the exact re-solution of one neighbourhood.
const NEIGHBOURHOOD_NODES: u64 = 20_000;

/// Neighbourhoods tried per round (fixed, so that the result does not depend on the threads).
const NEIGHBOURHOODS_PER_ROUND: usize = 4;

/// Rounds without improvement after which the neighbourhood search ends.
const STALE_ROUNDS: u32 = 10;

/// Fresh neighbourhood searches on big boards before the proof passes, while the gap is open
/// (measured: the cheaper target of two 8-displaced boards came after 4 and 52).
const RESTARTS: u64 = 100;

/// Nodes allowed to a proof pass between the restarts.
const PROBE_NODES: u64 = 100_000;

/// Sides from which the neighbourhood search restarts ([`RESTARTS`]; with a time limit, until
/// half of it while the gap is wider than two).
const WIDE_SIDE: usize = 40;

/// Called with (proven lower bound, best cost found) whenever either changes.
pub(crate) type Report<'a> = &'a (dyn Fn(u32, u32) + Sync);

/// The relaxed value: a cheapest solution from `queens` and its cost. Small sides evaluate every
/// solution. Larger ones start from the bound `n - alpha` ([`super::stays`]), find a cheap
/// solution (a short search, then large-neighbourhood search: rows of the best solution are
/// freed and re-solved exactly), then run depth-first passes that admit only solutions of cost
/// at most `L` for `L` = the bound, +1, ... below the best cost (each refuted pass proves the
/// value above `L`; the first success is the minimum).
pub(crate) fn cheapest(
    n: usize,
    queens: &[Sq],
    deadline: &Deadline,
    primal_until: Option<&Deadline>,
    parallel: bool,
    report: Report,
) -> Cheapest {
    let mut ctx = Context::new(n, queens);
    if n <= LISTED_UP_TO {
        let f = search_capped(&ctx, 2 * n as u32, Mode::Best, deadline, u64::MAX);
        let best = f.solutions.into_iter().next();
        let lower = best.as_ref().map_or(0, |b| b.0);
        return Cheapest {
            best,
            lower,
            complete: true,
        };
    }
    let alpha = super::stays::largest(&ctx.adj, mask(n));
    let mut lower = line_bound(n, queens).max(n as u32 - alpha);
    let quick = search_capped(&ctx, 2 * n as u32, Mode::Best, deadline, INCUMBENT_NODES);
    let mut best = quick.solutions.into_iter().next();
    if quick.complete {
        let lower = best.as_ref().map_or(lower, |b| b.0);
        return Cheapest {
            best,
            lower,
            complete: true,
        };
    }
    let mut current = match best.take() {
        Some(b) => b,
        None => {
            let cols = explicit_solution(n).expect("n > LISTED_UP_TO");
            let (c, _) = cost_with_assignment(queens, &cols);
            (c, cols)
        }
    };
    report(lower, current.0);
    seeded(&ctx, &mut current, alpha, deadline, parallel);
    report(lower, current.0);
    if !deadline.reached() {
        let priced = ctx.tighten(current.0);
        if priced > lower {
            lower = priced;
            report(lower, current.0);
        }
    }
    if current.0 > lower && ctx.duals.is_some() {
        let mut dfs = new_dfs(&ctx, current.0 - 1, Mode::Best, deadline, DIVE_NODES);
        dfs.by_rise = true;
        dfs.start();
        if let Some(found) = dfs.found().solutions.into_iter().next() {
            current = found;
            report(lower, current.0);
        }
    }
    improve(&ctx, &mut current, lower, deadline, parallel, report, 0);
    // On big boards the proof passes are slow to find a cheaper target when one exists: fresh
    // neighbourhood searches first (a fixed number, so the answer does not depend on the
    // threads or the machine). With a time limit and a wide gap, the passes are unlikely to
    // close it: fresh neighbourhoods go on until `primal_until`.
    // Every tenth restart, a proof pass at the bound with a node cap (once per value of the
    // bound): a refutation raises the bound, a success is the minimum.
    let mut restart = 1;
    let mut probed = None;
    while n >= WIDE_SIDE && current.0 > lower && restart <= RESTARTS && !deadline.reached() {
        if restart % 10 == 0 && probed != Some(lower) {
            probed = Some(lower);
            let pass = search_capped(&ctx, lower, Mode::First, deadline, PROBE_NODES);
            if let Some(found) = pass.solutions.into_iter().next() {
                current = found;
                report(lower, current.0);
                break;
            }
            if pass.complete {
                lower += 1;
                report(lower, current.0);
                continue;
            }
        }
        improve(
            &ctx,
            &mut current,
            lower,
            deadline,
            parallel,
            report,
            restart << 32,
        );
        restart += 1;
    }
    if let Some(until) = primal_until {
        while n >= WIDE_SIDE && current.0 > lower + 2 && !until.reached() {
            improve(
                &ctx,
                &mut current,
                lower,
                until,
                parallel,
                report,
                restart << 32,
            );
            restart += 1;
        }
    }
    let best = Some(current);
    loop {
        if best.as_ref().is_some_and(|b| b.0 <= lower) {
            return Cheapest {
                best,
                lower,
                complete: true,
            };
        }
        let pass = search_in(&ctx, lower, Mode::First, deadline, parallel);
        if let Some(found) = pass.solutions.into_iter().next() {
            report(found.0, found.0);
            return Cheapest {
                lower: found.0,
                best: Some(found),
                complete: true,
            };
        }
        if !pass.complete {
            return Cheapest {
                best,
                lower,
                complete: false,
            };
        }
        lower += 1;
        report(lower, best.as_ref().map_or(u32::MAX, |b| b.0));
    }
}

/// Targets built around large sets of queens that can stay: for each of a few largest
/// independent sets of the attack graph (and the sets one smaller), those queens are kept and the
/// other rows completed by the exact search (cheapest completion, within a node cap). Keeps any
/// improvement of `best`; the sets tried are fixed, so the result does not depend on the threads.
fn seeded(
    ctx: &Context,
    best: &mut (u32, Vec<u8>),
    alpha: u32,
    deadline: &Deadline,
    parallel: bool,
) {
    let n = ctx.n;
    let all = mask(n);
    // Sets of size alpha and alpha - 1: the largest one, then ones avoiding each of its queens.
    let mut sets: Vec<u64> = Vec::new();
    if let Some(top) = super::stays::find(&ctx.adj, all, alpha, &mut 10_000) {
        sets.push(top);
        let mut bits = top;
        while bits != 0 && sets.len() < 2 * NEIGHBOURHOODS_PER_ROUND {
            let v = bits.trailing_zeros();
            bits &= bits - 1;
            let without = all & !(1u64 << v);
            let other = super::stays::find(&ctx.adj, without, alpha, &mut 1_000)
                .or_else(|| super::stays::find(&ctx.adj, without, alpha - 1, &mut 1_000));
            if let Some(s) = other {
                if !sets.contains(&s) {
                    sets.push(s);
                }
            }
        }
    }
    let limit = best.0 - 1;
    let one = |set: &u64| -> Option<(u32, Vec<u8>)> {
        let mut dfs = new_dfs(ctx, limit, Mode::Best, deadline, 4 * NEIGHBOURHOOD_NODES);
        let mut fixed: Vec<u8> = Vec::with_capacity(n);
        let mut open: Vec<u8> = Vec::with_capacity(n);
        for &r in &ctx.order {
            let kept = ctx.row_queens[r as usize] & set;
            if kept != 0 {
                let (_, c) = ctx.queens[kept.trailing_zeros() as usize];
                dfs.allowed[r as usize] = 1 << c;
                fixed.push(r);
            } else {
                open.push(r);
            }
        }
        fixed.extend(open);
        dfs.order = fixed;
        dfs.start();
        let by_rows = dfs.found().solutions.into_iter().next();
        let bar = by_rows.as_ref().map_or(best.0, |b| b.0);
        covered(ctx, *set, bar).or(by_rows)
    };
    let results: Vec<Option<(u32, Vec<u8>)>> = if parallel {
        sets.par_iter().map(one).collect()
    } else {
        sets.iter().map(one).collect()
    };
    if let Some(w) = results
        .into_iter()
        .flatten()
        .min_by_key(|(c, _)| *c)
        .filter(|(c, _)| *c < best.0)
    {
        *best = w;
    }
}

/// Nodes allowed to one completion of a stay set ([`super::cover::complete`]).
const COVER_NODES: u64 = 50_000;

/// A target keeping the queens of `set` and cheaper than `bar`, by completions with 0, 1, ...
/// movers two moves away ([`super::cover`]), the first found.
fn covered(ctx: &Context, set: u64, bar: u32) -> Option<(u32, Vec<u8>)> {
    let movers = ctx.n as u32 - set.count_ones();
    let mut far = 0;
    while movers + far < bar {
        if let Some(cols) = super::cover::complete(ctx.n, ctx.queens, set, far, COVER_NODES) {
            let (c, _) = cost_with_assignment(ctx.queens, &cols);
            return (c < bar).then_some((c, cols));
        }
        far += 1;
    }
    None
}

/// The cheapest target cheaper than `bar` among neighbourhoods `0..NEIGHBOURHOODS_PER_ROUND`
/// of one round (the first on ties, so the threads do not change it), in parallel when asked.
fn round_winner(
    parallel: bool,
    one: impl Fn(usize) -> Option<(u32, Vec<u8>)> + Sync + Send,
    bar: u32,
) -> Option<(u32, Vec<u8>)> {
    let results: Vec<Option<(u32, Vec<u8>)>> = if parallel {
        (0..NEIGHBOURHOODS_PER_ROUND)
            .into_par_iter()
            .map(one)
            .collect()
    } else {
        (0..NEIGHBOURHOODS_PER_ROUND).map(one).collect()
    };
    results
        .into_iter()
        .flatten()
        .min_by_key(|(c, _)| *c)
        .filter(|(c, _)| *c < bar)
}

/// Stay-set neighbourhood `k` of round `round` of the target `base`: its staying queens less
/// one to three (seeded), then every other queen that fits, in a seeded order, the set
/// completed by [`covered`].
fn stay_neighbourhood(
    ctx: &Context,
    round: u64,
    base: &(u32, Vec<u8>),
    k: usize,
) -> Option<(u32, Vec<u8>)> {
    let n = ctx.n;
    let mut x = splitmix64(round * NEIGHBOURHOODS_PER_ROUND as u64 + k as u64 + 0x5157);
    let mut next = move |m: usize| {
        x = splitmix64(x);
        (x % m as u64) as usize
    };
    let mut set: u64 = (0..n)
        .filter(|&i| base.1[ctx.queens[i].0 as usize] == ctx.queens[i].1)
        .fold(0, |m, i| m | 1 << i);
    let mut dropped = 0u64;
    for _ in 0..=next(3) {
        if set != 0 {
            let ones: Vec<usize> = (0..n).filter(|&i| set >> i & 1 == 1).collect();
            let i = ones[next(ones.len())];
            set &= !(1 << i);
            dropped |= 1 << i;
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&i| (set | dropped) >> i & 1 == 0).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, next(i + 1));
    }
    for i in order {
        if ctx.adj[i] & set == 0 {
            set |= 1 << i;
        }
    }
    covered(ctx, set, base.0)
}

/// The loop of a neighbourhood search: rounds of `one(round, best, grown, k)` for the
/// neighbourhoods `k` of a round ([`round_winner`]), keeping any improvement, until `floor`,
/// the deadline, or [`STALE_ROUNDS`] rounds in a row without one; `grown` counts every third
/// failed round of a streak (how far a neighbourhood may widen).
fn rounds(
    best: &mut (u32, Vec<u8>),
    floor: u32,
    deadline: &Deadline,
    parallel: bool,
    report: Report,
    first_round: u64,
    one: impl Fn(u64, &(u32, Vec<u8>), usize, usize) -> Option<(u32, Vec<u8>)> + Sync + Send,
) {
    let mut stale = 0;
    let mut grown = 0;
    let mut round = first_round;
    while best.0 > floor && stale < STALE_ROUNDS && !deadline.reached() {
        let base = &*best;
        match round_winner(parallel, |k| one(round, base, grown, k), best.0) {
            Some(w) => {
                *best = w;
                stale = 0;
                report(floor, best.0);
            }
            None => {
                stale += 1;
                if stale % 3 == 0 {
                    grown += 1;
                }
            }
        }
        round += 1;
    }
}

/// The rows freed in neighbourhood `seed` of the solution `cols`: about half of them rows where
/// the solution and the queens disagree, the rest any rows; sometimes one band of rows.
fn freed_rows(ctx: &Context, cols: &[u8], size: usize, seed: u64) -> u64 {
    let n = ctx.n;
    let mut x = splitmix64(seed);
    let mut next = move |k: usize| {
        x = splitmix64(x);
        (x % k as u64) as usize
    };
    let kind = next(4);
    if kind == 3 {
        // Keep the queens that stay but one to three of them; everything else is open.
        let stays: Vec<usize> = (0..n).filter(|&r| ctx.occ[r] >> cols[r] & 1 == 1).collect();
        let mut rows = mask(n);
        for &r in &stays {
            rows &= !(1u64 << r);
        }
        for _ in 0..=next(3) {
            if !stays.is_empty() {
                rows |= 1 << stays[next(stays.len())];
            }
        }
        return rows;
    }
    if kind == 0 {
        let start = next(n);
        return (0..size).fold(0u64, |m, i| m | 1 << ((start + i) % n));
    }
    let mut rows = 0u64;
    if kind == 1 {
        let unsettled: Vec<usize> = (0..n).filter(|&r| ctx.occ[r] != 1u64 << cols[r]).collect();
        let mut tries = 0;
        while (rows.count_ones() as usize) < size / 2 && !unsettled.is_empty() && tries < 4 * n {
            rows |= 1 << unsettled[next(unsettled.len())];
            tries += 1;
        }
    } else {
        // Room for one or two queens off the solution to stay: their rows and the rows of the
        // solution's squares that attack them.
        let off: Vec<Sq> = ctx
            .queens
            .iter()
            .copied()
            .filter(|q| cols[q.0 as usize] != q.1)
            .collect();
        for _ in 0..kind {
            if off.is_empty() {
                break;
            }
            let q = off[next(off.len())];
            rows |= 1 << q.0;
            for (r, &c) in cols.iter().enumerate() {
                if lines_meet((r as u8, c), q) {
                    rows |= 1 << r;
                }
            }
        }
    }
    while (rows.count_ones() as usize) < size {
        rows |= 1 << next(n);
    }
    rows
}

/// Large-neighbourhood search, in two passes of [`rounds`]: first a few rows of the best
/// solution are freed and re-solved exactly (the cheapest completion, within a node cap), then
/// its stay sets are varied ([`stay_neighbourhood`]); any improvement is kept. Rounds of a
/// fixed number of neighbourhoods run in parallel; the best of a round (the first on ties) is
/// kept, so the result does not depend on the threads. Each pass ends at `floor`, at the
/// deadline, or after [`STALE_ROUNDS`] rounds without improvement.
fn improve(
    ctx: &Context,
    best: &mut (u32, Vec<u8>),
    floor: u32,
    deadline: &Deadline,
    parallel: bool,
    report: Report,
    first_round: u64,
) {
    let n = ctx.n;
    let one = |round: u64, base: &(u32, Vec<u8>), grown: usize, k: usize| {
        let size = n.min(10 + 3 * grown);
        let seed = round * NEIGHBOURHOODS_PER_ROUND as u64 + k as u64;
        let free = freed_rows(ctx, &base.1, size, seed);
        let mut dfs = new_dfs(ctx, base.0 - 1, Mode::Best, deadline, NEIGHBOURHOOD_NODES);
        let mut fixed: Vec<u8> = Vec::with_capacity(n);
        let mut open: Vec<u8> = Vec::with_capacity(n);
        for &r in &ctx.order {
            if free >> r & 1 == 1 {
                open.push(r);
            } else {
                dfs.allowed[r as usize] = 1 << base.1[r as usize];
                fixed.push(r);
            }
        }
        fixed.extend(open);
        dfs.order = fixed;
        dfs.start();
        dfs.found().solutions.into_iter().next()
    };
    rounds(best, floor, deadline, parallel, report, first_round, one);
    let stays = |round: u64, base: &(u32, Vec<u8>), _grown: usize, k: usize| {
        stay_neighbourhood(ctx, round, base, k)
    };
    rounds(best, floor, deadline, parallel, report, first_round, stays);
}

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
    occ: [u64; 64],
    /// The attack graph of the queens ([`super::stays::attack_graph`]).
    pub adj: Vec<u64>,
    /// The queens sharing a line with each square (`r * n + c`), as a set of queen indices.
    hits: Vec<u64>,
    /// The queens of each row, as a set of queen indices.
    row_queens: [u64; 64],
    /// The default row order: rows holding more queens first, then the empty rows.
    order: Vec<u8>,
    /// The Lagrangian bound and its per-square rises ([`super::lagrange`]), once computed.
    duals: Option<super::lagrange::Duals>,
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn listed_solution_counts() {
        let counts: Vec<usize> = (1..=10).map(|n| all_solutions(n).len()).collect();
        assert_eq!(counts, [1, 0, 0, 2, 10, 4, 40, 92, 352, 724]);
    }

    /// The cheapest target by the plain search (line-count bound only, rows in order).
    fn plain_minimum(n: usize, queens: &[Sq]) -> u32 {
        let mut ctx = Context::new(n, queens);
        ctx.order = (0..n as u8).collect();
        let never = Deadline::never();
        let mut dfs = new_dfs(&ctx, 2 * n as u32, Mode::Best, &never, u64::MAX);
        dfs.plain = true;
        dfs.start();
        dfs.found().solutions[0].0
    }

    pub(crate) fn random_queens(n: usize, seed: u64) -> Vec<Sq> {
        let mut rng = crate::primitive::rng::Xorshift64::new(seed | 1);
        let mut queens: Vec<Sq> = Vec::new();
        while queens.len() < n {
            let x = rng.next_u64();
            let s = ((x % n as u64) as u8, (x / 64 % n as u64) as u8);
            if !queens.contains(&s) {
                queens.push(s);
            }
        }
        queens
    }

    #[test]
    fn the_bounded_search_agrees_with_the_plain_search() {
        for (k, n) in [11usize, 12, 13, 14, 15, 16]
            .into_iter()
            .cycle()
            .take(18)
            .enumerate()
        {
            let queens = random_queens(n, 0xAB5 + k as u64);
            let plain = plain_minimum(n, &queens);
            assert!(root_bound(n, &queens) <= plain);
            let proven = proven_bound(n, &queens);
            assert!(root_bound(n, &queens) <= proven && proven <= plain);
            let mut ctx = Context::new(n, &queens);
            assert!(ctx.tighten(plain) <= plain);
            let got = cheapest(n, &queens, &Deadline::never(), None, k % 2 == 0, &|_, _| {});
            assert!(got.complete);
            assert_eq!(got.best.unwrap().0, plain, "n = {n}, board {k}");
        }
    }

    #[test]
    #[ignore = "the plain search takes seconds to minutes per 24 x 24 board"]
    fn on_24_by_24_boards_the_relaxed_value_equals_the_plain_search() {
        for k in 0..4 {
            let queens = random_queens(24, 0x2424 + k);
            let plain = plain_minimum(24, &queens);
            assert!(root_bound(24, &queens) <= plain);
            let got = cheapest(24, &queens, &Deadline::never(), None, true, &|_, _| {});
            assert!(got.complete);
            assert_eq!(got.best.unwrap().0, plain, "board {k}");
        }
    }

    #[test]
    fn bounded_passes_find_the_minimum_over_all_solutions() {
        // n = 11, 12: the pruned search against the minimum over every solution (enumerated by
        // the same search with no effective bound, so every solution is a leaf).
        let mut rng = crate::primitive::rng::Xorshift64::new(0x1234_5678);
        let mut next = move || rng.next_u64();
        for n in [11usize, 12] {
            for round in 0..8 {
                let mut queens: Vec<Sq> = Vec::new();
                if round % 2 == 1 {
                    // A solution with two queens moved: the near-solved case.
                    let sol = explicit_solution(n).unwrap();
                    queens = sol.iter().enumerate().map(|(r, &c)| (r as u8, c)).collect();
                    for _ in 0..2 {
                        let i = (next() % n as u64) as usize;
                        loop {
                            let s = ((next() % n as u64) as u8, (next() % n as u64) as u8);
                            if !queens.contains(&s) {
                                queens[i] = s;
                                break;
                            }
                        }
                    }
                }
                while queens.len() < n {
                    let s = ((next() % n as u64) as u8, (next() % n as u64) as u8);
                    if !queens.contains(&s) {
                        queens.push(s);
                    }
                }
                let every = search(
                    n,
                    &queens,
                    2 * n as u32,
                    Mode::All,
                    &Deadline::never(),
                    true,
                );
                assert!(every.complete);
                assert_eq!(every.solutions.len(), if n == 11 { 2680 } else { 14200 });
                let min = every.solutions.iter().map(|s| s.0).min().unwrap();
                let got = cheapest(
                    n,
                    &queens,
                    &Deadline::never(),
                    None,
                    round % 4 < 2,
                    &|_, _| {},
                );
                assert!(got.complete);
                assert_eq!(got.best.unwrap().0, min);
                assert!(line_bound(n, &queens) <= min);
            }
        }
    }
}
