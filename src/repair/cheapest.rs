//! The search for a cheapest target: an incumbent from a short exact search, then rounds of
//! large-neighbourhood search (freed rows, stay sets) until the bound is met, the rounds go
//! stale or the deadline passes; and the strongest bound found without the proof passes.

use super::dfs::{new_dfs, search_capped, search_in, Context, Mode};
use super::square::{lines_meet, mask, Sq};
use super::targets::{
    cost_with_assignment, explicit_solution, line_bound, root_bound, LISTED_UP_TO,
};
use crate::primitive::rng::splitmix64;
use crate::Deadline;
use rayon::prelude::*;

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
