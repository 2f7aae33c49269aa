//! The exact search behind [`super::solve`]: iterative deepening on the number of queens `k`,
//! each level a depth-first set-cover search over bitsets of the board's squares.
//!
//! A node is (queens placed, squares covered, squares forbidden). Its *live* squares
//! ([`Board::live`]) are the allowed ones that can still be in a cover by the count of gains;
//! the others are forbidden in the whole subtree. It branches on the smallest set that every
//! cover must meet ([`Board::branch`]): the live attackers of the uncovered mark with the
//! fewest, or the live squares of a line that must hold a queen; after the branch that places
//! candidate `a` fails, `a` is forbidden in the later sibling branches, so every set of queens
//! is met at most once. With two queens left the search is
//! a direct check (for each candidate, intersect the attack sets of what it leaves uncovered),
//! with one left a single intersection. The root branches only
//! over one representative of each orbit of the symmetries that fix the marks and the
//! branching mark (the orbits of earlier representatives are forbidden in later branches); see
//! `root_children` for why that keeps every answer.

pub(crate) use super::bits::Bits;
use crate::board::{lines_meet, Square, Symmetry};
use crate::primitive::cpu::Level as Isa;
#[cfg(target_arch = "x86_64")]
use crate::primitive::cpu::{level_copies, on_level};
use crate::Deadline;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The board in bitset form: for each square, the squares a queen there occupies or attacks.
pub(crate) struct Board<const K: usize> {
    /// Number of squares, `rows * cols`.
    pub(crate) squares: usize,
    /// `attack[s]`: `s` itself and every square sharing a line with `s`.
    pub(crate) attack: Vec<Bits<K>>,
    /// The marked squares.
    pub(crate) marks: Bits<K>,
    /// Every square of the board.
    all: Bits<K>,
    /// Whether queens must not attack each other.
    pub(crate) independent: bool,
    /// Nodes between two looks at the clock: fewer on big boards, whose nodes cost more.
    poll_interval: u32,
    /// The board symmetries (identity excluded) that map marks to marks, as permutations of
    /// square indices. They form a group together with the identity.
    pub(crate) symmetries: Vec<Vec<u32>>,
    /// The instruction-set level the search runs at ([`Isa::current`] unless a test sets it).
    pub(crate) isa: Isa,
    /// The board's lines (rows, columns, diagonals, anti-diagonals) of at least 4 squares,
    /// longest first: see [`Board::branch`].
    lines: Vec<Line<K>>,
}

/// One line of the board: its squares, its family (0 rows, 1 columns, 2 diagonals, 3
/// anti-diagonals; the lines of one family are disjoint and every square lies on one of each)
/// and its length.
struct Line<const K: usize> {
    squares: Bits<K>,
    family: usize,
    len: u32,
}

/// Result of the search for a cover with exactly `k` queens (or fewer).
pub(crate) enum Level {
    /// A covering set of at most `k` squares.
    Found(Vec<usize>),
    /// Proven: no `k` queens cover the marks.
    Infeasible,
    /// The deadline passed before the level was settled.
    Stopped,
}

impl<const K: usize> Board<K> {
    /// The bitset board of `rows x cols` with `marked` (row-major) and the rule.
    pub(crate) fn new(rows: usize, cols: usize, marked: &[bool], independent: bool) -> Self {
        let squares = rows * cols;
        debug_assert!(squares <= 64 * K);
        let mut attack = vec![Bits::<K>::EMPTY; squares];
        for (s, set) in attack.iter_mut().enumerate() {
            let (r, c) = (s / cols, s % cols);
            for t in 0..squares {
                let (r2, c2) = (t / cols, t % cols);
                if lines_meet(r, c, r2, c2) {
                    set.insert(t);
                }
            }
        }
        let mut marks = Bits::EMPTY;
        for (s, &m) in marked.iter().enumerate() {
            if m {
                marks.insert(s);
            }
        }
        let symmetries = symmetries(rows, cols)
            .into_iter()
            .filter(|p| (0..squares).all(|s| marked[s] == marked[p[s] as usize]))
            .collect();
        let poll_interval = ((1usize << 20) / (squares * K).max(1)).clamp(1, 1024) as u32;
        Board {
            lines: lines(rows, cols),
            poll_interval,
            squares,
            attack,
            marks,
            all: Bits::first_n(squares),
            independent,
            symmetries,
            isa: Isa::current(),
        }
    }

    /// Squares a new queen may stand on, given what is covered and what is forbidden.
    #[inline(always)]
    fn allowed(&self, covered: &Bits<K>, forbidden: &Bits<K>) -> Bits<K> {
        let allowed = self.all.and_not(forbidden);
        if self.independent {
            allowed.and_not(covered)
        } else {
            allowed
        }
    }

    /// A cover by the greedy rule, without redundant queens: see [`Board::greedy_steps`]; then
    /// each queen, last first, is dropped when the others still cover every mark (dropping a
    /// queen keeps the rest non-attacking).
    pub(crate) fn greedy(&self) -> Vec<usize> {
        let mut queens = self.greedy_steps();
        let mut i = queens.len();
        while i > 0 {
            i -= 1;
            let mut others = Bits::EMPTY;
            for (j, &q) in queens.iter().enumerate() {
                if j != i {
                    others = others.or(&self.attack[q]);
                }
            }
            if self.marks.is_subset(&others) {
                queens.remove(i);
            }
        }
        queens
    }

    /// Coverage by the greedy rule: repeatedly the allowed square covering the most uncovered
    /// marks (the lowest index on ties). Always succeeds: an uncovered mark is itself allowed.
    fn greedy_steps(&self) -> Vec<usize> {
        let mut covered = Bits::EMPTY;
        let mut queens = Vec::new();
        loop {
            let uncovered = self.marks.and_not(&covered);
            if uncovered.is_empty() {
                return queens;
            }
            let allowed = self.allowed(&covered, &Bits::EMPTY);
            let mut best = (0, usize::MAX);
            for a in allowed.ones() {
                let gain = self.attack[a].count_and(&uncovered);
                if gain > best.0 {
                    best = (gain, a);
                }
            }
            let a = best.1;
            queens.push(a);
            covered = covered.or(&self.attack[a]);
        }
    }

    /// A lower bound on the queens needed at the root: the fewest `t` whose `t` best squares
    /// together cover at least as many squares as there are marks.
    pub(crate) fn root_bound(&self) -> usize {
        let need = self.marks.count() as usize;
        if need == 0 {
            return 0;
        }
        let mut gains: Vec<usize> = (0..self.squares)
            .map(|a| self.attack[a].count_and(&self.marks) as usize)
            .collect();
        gains.sort_unstable_by(|a, b| b.cmp(a));
        let mut sum = 0;
        for (t, g) in gains.iter().enumerate() {
            sum += g;
            if sum >= need {
                return t + 1;
            }
        }
        gains.len()
    }

    /// The uncovered mark with the fewest allowed attackers and that number (0 means dead end).
    #[inline(always)]
    fn pick(&self, uncovered: &Bits<K>, allowed: &Bits<K>) -> (usize, u32) {
        let mut best = (usize::MAX, u32::MAX);
        for u in uncovered.ones() {
            let n = self.attack[u].count_and(allowed);
            if n < best.1 {
                best = (u, n);
                if n <= 1 {
                    break;
                }
            }
        }
        best
    }

    /// The squares to branch on at a node with `r >= 1` queens left, `None` when the node is
    /// cut. Every cover of `uncovered` by at most `r` allowed squares holds one of them.
    ///
    /// By default they are the allowed attackers of the uncovered mark with the fewest
    /// ([`Board::pick`]). The line rule can cut the node or give a smaller set: a queen off a
    /// line (row, column or diagonal) occupies or attacks at most 3 of its squares (where its
    /// column or row and its two diagonals, or its row, column and other diagonal, cross it),
    /// so a line with more than `3 r` uncovered marks needs one of the `r` queens on it. Lines of
    /// one family are disjoint and each queen stands on one of each family, so more than `r`
    /// such lines in a family, or one without an allowed square, cut the node; otherwise the
    /// allowed squares of such a line are a branching set too, and the smallest set is taken.
    #[inline(always)]
    fn branch(&self, uncovered: &Bits<K>, allowed: &Bits<K>, r: usize) -> Option<Bits<K>> {
        let (u, n) = self.pick(uncovered, allowed);
        if n == 0 {
            return None;
        }
        let mut cands = self.attack[u].and(allowed);
        let mut best = n;
        let limit = 3 * r as u32;
        let mut forced = [0usize; 4];
        for line in &self.lines {
            if line.len <= limit {
                break;
            }
            if line.squares.count_and(uncovered) > limit {
                forced[line.family] += 1;
                if forced[line.family] > r {
                    return None;
                }
                let on = line.squares.and(allowed);
                let count = on.count();
                if count == 0 {
                    return None;
                }
                if count < best {
                    best = count;
                    cands = on;
                }
            }
        }
        Some(cands)
    }

    /// The allowed squares that can still be in a cover of `uncovered` by at most `r >= 1`
    /// queens, `None` when no such cover exists by this count. A square's *gain* is the number
    /// of uncovered marks it occupies or attacks; gains only shrink further down. `r` queens
    /// cover at most the sum of the `r` largest gains, so that sum must reach the number of
    /// uncovered marks; and a cover that holds `a` has at most the `r - 1` largest gains besides
    /// `a`'s, so a square whose gain plus those `r - 1` falls short is in no cover (here or
    /// below: it stays *dead* in the whole subtree, which forbids it). `gains` is scratch space
    /// (one entry per square) and ends holding the gains of the allowed squares.
    #[inline(always)]
    fn live(
        &self,
        uncovered: &Bits<K>,
        allowed: &Bits<K>,
        r: usize,
        gains: &mut [u32],
    ) -> Option<Bits<K>> {
        let need = uncovered.count();
        let keep = r.min(TOP_GAINS);
        // `top[..keep]`: the largest gains seen, in decreasing order.
        let mut top = [0u32; TOP_GAINS];
        for a in allowed.ones() {
            let gain = self.attack[a].count_and(uncovered);
            gains[a] = gain;
            if gain > top[keep - 1] {
                let mut i = keep - 1;
                while i > 0 && top[i - 1] < gain {
                    top[i] = top[i - 1];
                    i -= 1;
                }
                top[i] = gain;
            }
        }
        // The sum of the `t` largest gains (beyond the ones kept, the smallest kept stands in).
        let top_sum = |t: usize| -> u32 {
            if t == 0 {
                return 0;
            }
            let kept = t.min(TOP_GAINS);
            top[..kept].iter().sum::<u32>() + (t - kept) as u32 * top[kept - 1]
        };
        if top_sum(r) < need {
            return None;
        }
        let others = top_sum(r - 1);
        if others >= need {
            return Some(*allowed);
        }
        let least = need - others;
        let mut good = Bits::EMPTY;
        for a in allowed.ones() {
            if gains[a] >= least {
                good.insert(a);
            }
        }
        Some(good)
    }

    /// The children of a node with `r >= 1` queens to place: one per square of the branching set
    /// ([`Board::branch`] over the live squares of [`Board::live`]), each forbidding the dead
    /// squares and the earlier siblings. Empty when the node is cut.
    pub(super) fn children(&self, node: &Node<K>, r: usize) -> Vec<Node<K>> {
        let uncovered = self.marks.and_not(&node.covered);
        let allowed = self.allowed(&node.covered, &node.forbidden);
        let mut gains = vec![0; self.squares];
        let Some(good) = self.live(&uncovered, &allowed, r, &mut gains) else {
            return Vec::new();
        };
        let Some(cands) = self.branch(&uncovered, &good, r) else {
            return Vec::new();
        };
        let mut forbidden = node.forbidden.or(&allowed.and_not(&good));
        let mut out = Vec::new();
        for a in cands.ones() {
            let mut queens = node.queens.clone();
            queens.push(a);
            out.push(Node {
                queens,
                covered: node.covered.or(&self.attack[a]),
                forbidden,
            });
            forbidden.insert(a);
        }
        out
    }

    /// The children of the root (`k >= 1` queens, some marks): branch on the mark whose live
    /// attackers (see [`Board::live`]) fall into the fewest orbits under the symmetries fixing the marks and that
    /// mark, and place one representative (the smallest square) of each orbit, forbidding the
    /// orbits of earlier representatives.
    ///
    /// Why nothing is lost: let `G` be that group and `S` any covering set. `S` holds an
    /// attacker of the branching mark `u`; take the first orbit `O` (in the order of the
    /// representatives) that meets `S`, `a` in `S` and `O`, and `g` in `G` with `g(a)` the
    /// representative of `O`. Then `g(S)` covers the marks (g maps marks to marks and preserves
    /// lines), has as many queens, is independent when `S` is, contains the representative and
    /// misses every earlier orbit (orbits are `G`-invariant), so the branch of `O` finds it or
    /// another cover of the same size.
    pub(super) fn root_children(&self, k: usize) -> Vec<Node<K>> {
        let root = Node {
            queens: Vec::new(),
            covered: Bits::EMPTY,
            forbidden: Bits::EMPTY,
        };
        if self.symmetries.is_empty() {
            return self.children(&root, k);
        }
        let uncovered = self.marks;
        let mut gains = vec![0; self.squares];
        // The live squares: the dead ones are in no cover, and they are a union of orbits
        // (gains are invariant under the symmetries).
        let Some(allowed) = self.live(&uncovered, &self.all, k, &mut gains) else {
            return Vec::new();
        };
        // (orbits, attackers, mark): the smallest wins.
        let mut best: Option<(usize, u32, usize)> = None;
        for u in uncovered.ones() {
            let stabilizer: Vec<&Vec<u32>> = self
                .symmetries
                .iter()
                .filter(|p| p[u] as usize == u)
                .collect();
            let cands = self.attack[u].and(&allowed);
            let orbits = cands
                .ones()
                .filter(|&a| stabilizer.iter().all(|p| p[a] as usize >= a))
                .count();
            let key = (orbits, cands.count(), u);
            if best.is_none_or(|b| key < b) {
                best = Some(key);
            }
        }
        let Some((_, _, u)) = best else {
            return Vec::new();
        };
        let cands = self.attack[u].and(&allowed);
        let stabilizer: Vec<&Vec<u32>> = self
            .symmetries
            .iter()
            .filter(|p| p[u] as usize == u)
            .collect();
        let mut forbidden = self.all.and_not(&allowed);
        let mut out = Vec::new();
        for a in cands.ones() {
            if stabilizer.iter().any(|p| (p[a] as usize) < a) {
                continue;
            }
            out.push(Node {
                queens: vec![a],
                covered: self.attack[a],
                forbidden,
            });
            forbidden.insert(a);
            for p in &stabilizer {
                forbidden.insert(p[a] as usize);
            }
        }
        out
    }

    /// The nodes two levels below the root (or shallower leaves), in depth-first order: the
    /// independent pieces of work of one level. `symmetric`: reduce the root by symmetry.
    fn tasks(&self, k: usize, symmetric: bool) -> Vec<Node<K>> {
        let root = self.first_level(k, symmetric);
        let mut tasks = Vec::new();
        for child in root {
            let r = k - 1;
            if r >= 2 && !self.marks.is_subset(&child.covered) {
                tasks.extend(self.children(&child, r));
            } else {
                tasks.push(child);
            }
        }
        tasks
    }

    /// The number of sets of `k` squares (non-attacking ones under the independent rule) that
    /// cover the marks, each counted once, provided no set of `k - 1` squares covers them (`k`
    /// is the minimum). `None` when the deadline stops the count.
    pub(crate) fn count_level(
        &self,
        k: usize,
        deadline: &Deadline,
        nodes: &AtomicU64,
    ) -> Option<u128> {
        if self.marks.is_empty() {
            return Some(1);
        }
        let shared = Shared {
            deadline,
            stop: AtomicBool::new(false),
            first_found: AtomicUsize::new(usize::MAX),
        };
        let total: u128 = self
            .tasks(k, false)
            .par_iter()
            .map(|task| {
                let mut worker = Worker {
                    board: self,
                    shared: &shared,
                    task: 0,
                    queens: task.queens.clone(),
                    nodes: 0,
                    poll: 0,
                    halted: false,
                    counting: true,
                    count: 0,
                    gains: vec![0; self.squares],
                };
                worker.search(task.covered, task.forbidden, k - task.queens.len());
                nodes.fetch_add(worker.nodes, Ordering::Relaxed);
                worker.count
            })
            .sum();
        (!shared.stop.load(Ordering::Relaxed)).then_some(total)
    }

    /// Searches for a cover with at most `k` queens. The work is split into the nodes two levels
    /// below the root, searched in parallel; the cover reported is the one of the first such
    /// node (in depth-first order) that has one, so it does not depend on the thread count.
    pub(crate) fn level(&self, k: usize, deadline: &Deadline, nodes: &AtomicU64) -> Level {
        if self.marks.is_empty() {
            return Level::Found(Vec::new());
        }
        if k == 0 {
            return Level::Infeasible;
        }
        if deadline.reached() {
            return Level::Stopped;
        }
        let tasks = self.tasks(k, true);
        let shared = Shared {
            deadline,
            stop: AtomicBool::new(false),
            first_found: AtomicUsize::new(usize::MAX),
        };
        let found: Mutex<Vec<(usize, Vec<usize>)>> = Mutex::new(Vec::new());
        tasks.par_iter().enumerate().for_each(|(index, task)| {
            if shared.first_found.load(Ordering::Relaxed) < index
                || shared.stop.load(Ordering::Relaxed)
            {
                return;
            }
            if deadline.reached() {
                shared.stop.store(true, Ordering::Relaxed);
                return;
            }
            let mut worker = Worker {
                board: self,
                shared: &shared,
                task: index,
                queens: task.queens.clone(),
                nodes: 0,
                poll: 0,
                halted: false,
                counting: false,
                count: 0,
                gains: vec![0; self.squares],
            };
            let r = k - task.queens.len();
            let hit = worker.search(task.covered, task.forbidden, r);
            nodes.fetch_add(worker.nodes, Ordering::Relaxed);
            if hit {
                shared.first_found.fetch_min(index, Ordering::Relaxed);
                if let Ok(mut list) = found.lock() {
                    list.push((index, worker.queens));
                }
            }
        });
        let mut list = found.into_inner().unwrap_or_default();
        list.sort();
        match list.into_iter().next() {
            Some((_, queens)) => Level::Found(queens),
            None if shared.stop.load(Ordering::Relaxed) => Level::Stopped,
            None => Level::Infeasible,
        }
    }
}

/// How many of the largest gains [`Board::live`] keeps; beyond them the smallest kept one
/// stands in.
const TOP_GAINS: usize = 16;

/// A search node: the queens placed, what they cover, and the squares excluded by earlier
/// sibling branches.
pub(super) struct Node<const K: usize> {
    pub(super) queens: Vec<usize>,
    pub(super) covered: Bits<K>,
    pub(super) forbidden: Bits<K>,
}

/// State shared by the workers of one level.
pub(super) struct Shared<'a> {
    pub(super) deadline: &'a Deadline,
    /// Set once the deadline has passed.
    pub(super) stop: AtomicBool,
    /// The smallest task index that found a cover (`usize::MAX`: none yet).
    pub(super) first_found: AtomicUsize,
}

/// One depth-first search of one task.
pub(super) struct Worker<'a, const K: usize> {
    pub(super) board: &'a Board<K>,
    pub(super) shared: &'a Shared<'a>,
    pub(super) task: usize,
    /// The queens of the current path (the cover, once found).
    pub(super) queens: Vec<usize>,
    pub(super) nodes: u64,
    /// Nodes left until the next look at the clock.
    pub(super) poll: u32,
    pub(super) halted: bool,
    /// Count every cover instead of stopping at the first (see [`Board::count_level`]).
    pub(super) counting: bool,
    /// Covers counted so far.
    pub(super) count: u128,
    /// Scratch space for [`Board::live`], one entry per square.
    pub(super) gains: Vec<u32>,
}

/// Defines `$name`, the depth-first search of [`Worker::search`]: a recursion, so each
/// instruction-set level gets its own copy of the whole function (attributes included), with
/// the helpers it calls (all `#[inline(always)]`) compiled into it.
macro_rules! search_copy {
    ($(#[$attribute:meta])* fn $name:ident) => {
        $(#[$attribute])*
        fn $name(&mut self, covered: Bits<K>, forbidden: Bits<K>, r: usize) -> bool {
        self.nodes += 1;
        if self.should_halt() {
            return false;
        }
        let board = self.board;
        let uncovered = board.marks.and_not(&covered);
        if uncovered.is_empty() {
            if self.counting {
                self.count += 1;
                return false;
            }
            return true;
        }
        if r == 0 {
            return false;
        }
        let allowed = board.allowed(&covered, &forbidden);
        if r == 1 {
            // One queen left: it must attack every uncovered mark.
            let mut common = allowed;
            for u in uncovered.ones() {
                common = common.and(&board.attack[u]);
                if common.is_empty() {
                    return false;
                }
            }
            if self.counting {
                self.count += u128::from(common.count());
                return false;
            }
            if let Some(a) = common.ones().next() {
                self.queens.push(a);
                return true;
            }
            return false;
        }
        let Some(good) = board.live(&uncovered, &allowed, r, &mut self.gains) else {
            return false;
        };
        let Some(cands) = board.branch(&uncovered, &good, r) else {
            return false;
        };
        if r == 2 {
            return self.last_two(&uncovered, good, &cands);
        }
        // The dead squares are forbidden below, like the earlier siblings.
        let mut forbidden = forbidden.or(&allowed.and_not(&good));
        for a in cands.ones() {
            self.queens.push(a);
            if self.$name(covered.or(&board.attack[a]), forbidden, r - 1) {
                return true;
            }
            self.queens.pop();
            if self.halted {
                return false;
            }
            forbidden.insert(a);
        }
        false
    }
    };
}

impl<const K: usize> Worker<'_, K> {
    /// Whether to give up: polled every node, looks at the clock every 1024 nodes.
    #[inline(always)]
    fn should_halt(&mut self) -> bool {
        if self.poll == 0 {
            self.poll = self.board.poll_interval;
            if self.shared.stop.load(Ordering::Relaxed)
                || self.shared.first_found.load(Ordering::Relaxed) < self.task
            {
                self.halted = true;
            } else if self.shared.deadline.reached() {
                self.shared.stop.store(true, Ordering::Relaxed);
                self.halted = true;
            }
        } else {
            self.poll -= 1;
        }
        self.halted
    }

    /// Whether two queens, one of them in `cands`, cover `uncovered`: for each candidate `a`,
    /// whether some live square (see [`Board::live`]; not attacked by `a` in the independent
    /// rule) attacks every mark that `a` leaves uncovered. On success `self.queens` ends with
    /// the pair.
    #[inline(always)]
    fn last_two(&mut self, uncovered: &Bits<K>, good: Bits<K>, cands: &Bits<K>) -> bool {
        let board = self.board;
        // Earlier candidates, excluded as partners when counting (each pair once).
        let mut earlier = Bits::EMPTY;
        for a in cands.ones() {
            let attack = &board.attack[a];
            let rest = uncovered.and_not(attack);
            let mut common = if board.independent {
                good.and_not(attack)
            } else {
                good
            };
            if self.counting {
                common = common.and_not(&earlier);
                earlier.insert(a);
                if rest.is_empty() {
                    continue; // fewer than the minimum: excluded by the precondition
                }
            }
            for u in rest.ones() {
                common = common.and(&board.attack[u]);
                if common.is_empty() {
                    break;
                }
            }
            if self.counting {
                self.count += u128::from(common.count());
                continue;
            }
            if rest.is_empty() {
                self.queens.push(a);
                return true;
            }
            if let Some(b) = common.ones().next() {
                self.queens.push(a);
                self.queens.push(b);
                return true;
            }
        }
        false
    }

    /// Whether `r` more queens, on allowed squares, cover every mark not in `covered`. On
    /// success `self.queens` holds the cover. Runs the copy of the search compiled for the
    /// board's instruction-set level (or the best one below it that the CPU has).
    pub(super) fn search(&mut self, covered: Bits<K>, forbidden: Bits<K>, r: usize) -> bool {
        on_level!(
            self.board.isa,
            self.search_baseline(covered, forbidden, r),
            self.search_v3(covered, forbidden, r),
            self.search_v4(covered, forbidden, r)
        )
    }

    level_copies!(search_copy, search_baseline, search_v3, search_v4);
}

/// The lines of a `rows x cols` board with at least 4 squares (shorter ones never hold more
/// than `3 r` marks), longest first (ties: rows, columns, diagonals, anti-diagonals, each in
/// order).
fn lines<const K: usize>(rows: usize, cols: usize) -> Vec<Line<K>> {
    let mut out = Vec::new();
    let mut add = |family: usize, squares: &mut dyn Iterator<Item = usize>| {
        let mut bits = Bits::<K>::EMPTY;
        let mut len = 0;
        for s in squares {
            bits.insert(s);
            len += 1;
        }
        if len >= 4 {
            out.push(Line {
                squares: bits,
                family,
                len,
            });
        }
    };
    for r in 0..rows {
        add(0, &mut (0..cols).map(|c| r * cols + c));
    }
    for c in 0..cols {
        add(1, &mut (0..rows).map(|r| r * cols + c));
    }
    // Diagonal d: c - r = d - (rows - 1); anti-diagonal d: r + c = d.
    for d in 0..rows + cols - 1 {
        add(
            2,
            &mut (0..rows).filter_map(|r| {
                let c = (d + r).checked_sub(rows - 1)?;
                (c < cols).then_some(r * cols + c)
            }),
        );
    }
    for d in 0..rows + cols - 1 {
        add(
            3,
            &mut (0..rows).filter_map(|r| {
                let c = d.checked_sub(r)?;
                (c < cols).then_some(r * cols + c)
            }),
        );
    }
    out.sort_by_key(|line| std::cmp::Reverse(line.len));
    out
}

/// The symmetries of a `rows x cols` board other than the identity
/// ([`crate::board::Symmetry::of_board`]), as square permutations: the two mirrors and the half
/// turn of any rectangle, and on a square board the two diagonal mirrors and the quarter turns
/// too.
fn symmetries(rows: usize, cols: usize) -> Vec<Vec<u32>> {
    Symmetry::of_board(rows, cols)[1..]
        .iter()
        .map(|&symmetry| {
            (0..rows * cols)
                .map(|s| {
                    let t = symmetry.apply_rect(rows, cols, Square::new(s / cols, s % cols));
                    (t.row * cols + t.col) as u32
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
