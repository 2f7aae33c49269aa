//! A quick legal plan to a given solution (not necessarily shortest): repeatedly move the
//! misplaced queen that is fewest real moves from a free target square along its shortest path
//! (breadth-first search around the other queens). When no misplaced queen can reach a free
//! target square, a queen is first stepped aside so that one can. It gives the search an upper
//! bound and the answer when a time limit stops the search.

use super::square::{lines_meet, Sq};
use std::collections::VecDeque;

use crate::board::QUEEN_DIRECTIONS as DIRS;

struct Board {
    n: usize,
    occ: Vec<bool>,
}

impl Board {
    fn new(n: usize, queens: &[Sq]) -> Self {
        let mut occ = vec![false; n * n];
        for &(r, c) in queens {
            occ[r as usize * n + c as usize] = true;
        }
        Board { n, occ }
    }

    /// Squares reachable in one move from `from`.
    fn moves(&self, from: Sq, out: &mut Vec<Sq>) {
        out.clear();
        let n = self.n as i32;
        for (dr, dc) in DIRS {
            let (mut r, mut c) = (from.0 as i32 + dr, from.1 as i32 + dc);
            while r >= 0 && r < n && c >= 0 && c < n && !self.occ[(r * n + c) as usize] {
                out.push((r as u8, c as u8));
                r += dr;
                c += dc;
            }
        }
    }

    /// Shortest real path (list of squares after `from`) from `from` to any square with
    /// `goal` set, moving only the queen on `from`.
    fn path(&mut self, from: Sq, goal: &[bool]) -> Option<Vec<Sq>> {
        let n = self.n;
        let idx = |s: Sq| s.0 as usize * n + s.1 as usize;
        self.occ[idx(from)] = false;
        let mut prev = vec![u32::MAX; n * n];
        prev[idx(from)] = idx(from) as u32;
        let mut queue = VecDeque::from([from]);
        let mut buf = Vec::new();
        let mut hit = None;
        'bfs: while let Some(s) = queue.pop_front() {
            self.moves(s, &mut buf);
            for &t in &buf {
                if prev[idx(t)] == u32::MAX {
                    prev[idx(t)] = idx(s) as u32;
                    if goal[idx(t)] {
                        hit = Some(t);
                        break 'bfs;
                    }
                    queue.push_back(t);
                }
            }
        }
        self.occ[idx(from)] = true;
        let mut at = idx(hit?);
        let mut out = Vec::new();
        while at != idx(from) {
            out.push(((at / n) as u8, (at % n) as u8));
            at = prev[at] as usize;
        }
        out.reverse();
        Some(out)
    }
}

/// A legal plan from `queens` to the solution `cols`, or `None` if this greedy method gets
/// stuck (it gives up after `4 n^2` moves).
pub(crate) fn plan_to(n: usize, queens: &[Sq], cols: &[u8]) -> Option<Vec<(Sq, Sq)>> {
    let mut queens = queens.to_vec();
    let mut board = Board::new(n, &queens);
    let mut plan: Vec<(Sq, Sq)> = Vec::new();
    let cap = 4 * n * n + 8;
    let mut buf = Vec::new();
    while plan.len() <= cap {
        let on = |q: Sq| cols[q.0 as usize] == q.1;
        let mut goal = vec![false; n * n];
        for (r, &c) in cols.iter().enumerate() {
            goal[r * n + c as usize] = !board.occ[r * n + c as usize];
        }
        let misplaced: Vec<usize> = (0..queens.len()).filter(|&i| !on(queens[i])).collect();
        if misplaced.is_empty() {
            return Some(plan);
        }
        let mut best: Option<(usize, Vec<Sq>)> = None;
        for &i in &misplaced {
            if let Some(p) = board.path(queens[i], &goal) {
                if !matches!(&best, Some((_, b)) if b.len() <= p.len()) {
                    best = Some((i, p));
                }
            }
        }
        if let Some((i, path)) = best {
            for to in path {
                let from = queens[i];
                board.occ[from.0 as usize * n + from.1 as usize] = false;
                board.occ[to.0 as usize * n + to.1 as usize] = true;
                queens[i] = to;
                plan.push((from, to));
            }
            continue;
        }
        // Stuck: step one queen aside so that some misplaced queen reaches a free target.
        let mut step: Option<(usize, Sq)> = None;
        'outer: for i in 0..queens.len() {
            let from = queens[i];
            board.moves(from, &mut buf);
            for &to in buf.clone().iter() {
                board.occ[from.0 as usize * n + from.1 as usize] = false;
                board.occ[to.0 as usize * n + to.1 as usize] = true;
                queens[i] = to;
                let mut goal2 = goal.clone();
                goal2[from.0 as usize * n + from.1 as usize] = on(from);
                goal2[to.0 as usize * n + to.1 as usize] = false;
                let ok = (0..queens.len())
                    .filter(|&k| !on(queens[k]) && k != i)
                    .any(|k| board.path(queens[k], &goal2).is_some());
                board.occ[to.0 as usize * n + to.1 as usize] = false;
                board.occ[from.0 as usize * n + from.1 as usize] = true;
                queens[i] = from;
                if ok {
                    step = Some((i, to));
                    break 'outer;
                }
            }
        }
        let (i, to) = step?;
        let from = queens[i];
        board.occ[from.0 as usize * n + from.1 as usize] = false;
        board.occ[to.0 as usize * n + to.1 as usize] = true;
        queens[i] = to;
        plan.push((from, to));
    }
    None
}

/// Whether every square strictly between `a` and `b` (on one line) is empty.
fn clear(n: usize, occ: &[bool], a: Sq, b: Sq) -> bool {
    let dr = (b.0 as i32 - a.0 as i32).signum();
    let dc = (b.1 as i32 - a.1 as i32).signum();
    let (mut r, mut c) = (a.0 as i32 + dr, a.1 as i32 + dc);
    while (r, c) != (b.0 as i32, b.1 as i32) {
        if occ[r as usize * n + c as usize] {
            return false;
        }
        r += dr;
        c += dc;
    }
    true
}

/// A legal plan that realises a relaxed assignment move for move: each queen paired with a
/// square on one of its lines goes there in one move, each other one in two (through an empty
/// square where a line of each meets), in an order in which no path is blocked. `None` when
/// some queen is walled in for good (the caller then uses [`plan_to`] or the search).
pub(crate) fn schedule(n: usize, queens: &[Sq], pairs: &[(Sq, Sq)]) -> Option<Vec<(Sq, Sq)>> {
    let mut occ = vec![false; n * n];
    for &(r, c) in queens {
        occ[r as usize * n + c as usize] = true;
    }
    let idx = |s: Sq| s.0 as usize * n + s.1 as usize;
    let mut pending: Vec<(Sq, Sq)> = pairs.iter().copied().filter(|(a, b)| a != b).collect();
    let mut plan = Vec::new();
    while !pending.is_empty() {
        let mut progress = false;
        let mut k = 0;
        while k < pending.len() {
            let (q, t) = pending[k];
            let mut done = false;
            if !occ[idx(t)] {
                if lines_meet(q, t) {
                    if clear(n, &occ, q, t) {
                        plan.push((q, t));
                        done = true;
                    }
                } else {
                    // Two moves: through a square on a line of each.
                    occ[idx(q)] = false;
                    let via = (0..n * n)
                        .map(|i| ((i / n) as u8, (i % n) as u8))
                        .find(|&x| {
                            x != q
                                && !occ[idx(x)]
                                && lines_meet(q, x)
                                && lines_meet(x, t)
                                && clear(n, &occ, q, x)
                                && clear(n, &occ, x, t)
                        });
                    occ[idx(q)] = true;
                    if let Some(x) = via {
                        plan.push((q, x));
                        plan.push((x, t));
                        done = true;
                    }
                }
            }
            if done {
                occ[idx(q)] = false;
                occ[idx(t)] = true;
                pending.remove(k);
                progress = true;
            } else {
                k += 1;
            }
        }
        if !progress {
            return None;
        }
    }
    Some(plan)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::repair::targets::all_solutions;
    use crate::repair::{Move, Position};
    use crate::verify;

    #[test]
    fn greedy_plans_replay_legally_to_every_kind_of_target() {
        let mut rng = crate::primitive::rng::Xorshift64::new(0xFEED);
        let mut next = move |k: usize| rng.below(k);
        for n in 4..=9 {
            for _ in 0..300 {
                let mut queens: Vec<Sq> = Vec::new();
                while queens.len() < n {
                    let s = (next(n) as u8, next(n) as u8);
                    if !queens.contains(&s) {
                        queens.push(s);
                    }
                }
                let sols = all_solutions(n);
                let cols = sols.get(next(sols.len())).expect("in range");
                let plan = plan_to(n, &queens, cols).expect("greedy plan");
                let start = Position {
                    n,
                    queens: queens
                        .iter()
                        .map(|&(r, c)| Square::new(r as usize, c as usize))
                        .collect(),
                };
                let moves: Vec<Move> = plan
                    .iter()
                    .map(|&(f, t)| Move {
                        from: Square::new(f.0 as usize, f.1 as usize),
                        to: Square::new(t.0 as usize, t.1 as usize),
                    })
                    .collect();
                let goal: Vec<Square> = cols
                    .iter()
                    .enumerate()
                    .map(|(r, &c)| Square::new(r, c as usize))
                    .collect();
                verify::repair(&start, &moves, &goal).unwrap();
            }
        }
    }
}
