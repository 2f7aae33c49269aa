//! Target solutions and their relaxed costs.
//!
//! The relaxed cost of reaching an N-queens solution `S` from queens `Q` (blocking ignored) is
//! `2m - M`: `m` queens stand off `S` (each needs one or two moves; the queens on `S` stay,
//! which is never worse), and `M` is a maximum matching between those queens and the `m` free
//! squares of `S`, an edge joining a queen to a square on one of its lines (one move instead of
//! two).

use super::square::{lines_meet, mask, Sq};

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

#[cfg(test)]
pub(crate) mod tests {
    use super::super::cheapest::*;
    use super::super::dfs::*;
    use super::super::square::Sq;
    use super::*;
    use crate::Deadline;

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
