//! The crate's one N-queens enumerator ([`Solutions`], lazy, in lexicographic order) and its
//! one explicit construction ([`construction`], one solution for every size in constant time
//! per queen).

use super::{is_canonical, Columns};
use crate::Deadline;

/// Board sizes whose complete solution lists [`listed_solutions`] keeps (at most 724 solutions).
pub const LISTED_UP_TO: usize = 10;

/// Every N-queens solution of size `n <= LISTED_UP_TO`, as one byte per row (the column), in
/// lexicographic order: the compact form of [`Solutions`] for solvers that scan all of them.
/// The tables are built at compile time by the same walk as [`Solutions`], so a call costs
/// nothing at run time; `None` above [`LISTED_UP_TO`] and for `n = 0`.
///
/// ```
/// let eight = queens::board::listed_solutions(8).unwrap();
/// assert_eq!(eight.len(), 92);
/// assert_eq!(eight.iter().next(), Some(&[0u8, 4, 7, 5, 2, 6, 1, 3][..]));
/// ```
pub fn listed_solutions(n: usize) -> Option<ListedSolutions> {
    let cells: &'static [u8] = match n {
        1 => &LIST_1,
        2 => &LIST_2,
        3 => &LIST_3,
        4 => &LIST_4,
        5 => &LIST_5,
        6 => &LIST_6,
        7 => &LIST_7,
        8 => &LIST_8,
        9 => &LIST_9,
        10 => &LIST_10,
        _ => return None,
    };
    Some(ListedSolutions { n, cells })
}

/// The solutions of one listed size ([`listed_solutions`]): `len()` of them, each `n` bytes.
#[derive(Clone, Copy, Debug)]
pub struct ListedSolutions {
    n: usize,
    cells: &'static [u8],
}

impl ListedSolutions {
    /// How many solutions there are.
    pub fn len(&self) -> usize {
        self.cells.len() / self.n
    }

    /// Whether there is none (N = 2, 3).
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The `i`-th solution in lexicographic order, one column per row.
    pub fn get(&self, i: usize) -> Option<&'static [u8]> {
        self.cells.get(i * self.n..(i + 1) * self.n)
    }

    /// The solutions in lexicographic order, one column per row.
    pub fn iter(&self) -> std::slice::ChunksExact<'static, u8> {
        self.cells.chunks_exact(self.n)
    }
}

impl IntoIterator for ListedSolutions {
    type Item = &'static [u8];
    type IntoIter = std::slice::ChunksExact<'static, u8>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The number of solutions of size `n`, by the walk, at compile time.
const fn listed_count(n: usize) -> usize {
    let mut walk = Walk::new(n, full_row(n));
    let mut count = 0;
    loop {
        match walk.step(u32::MAX) {
            Step::Solution => count += 1,
            Step::Exhausted => return count,
            Step::Paused => {}
        }
    }
}

/// The solutions of size `n` laid end to end (`LEN = n * listed_count(n)`), at compile time.
const fn listed_table<const LEN: usize>(n: usize) -> [u8; LEN] {
    let mut table = [0u8; LEN];
    let mut walk = Walk::new(n, full_row(n));
    let mut at = 0;
    loop {
        match walk.step(u32::MAX) {
            Step::Solution => {
                let mut row = 0;
                while row < n {
                    table[at] = walk.board[row] as u8;
                    at += 1;
                    row += 1;
                }
            }
            Step::Exhausted => return table,
            Step::Paused => {}
        }
    }
}

/// One compile-time table per listed size.
macro_rules! listed {
    ($($list:ident $count:ident $n:literal),*) => {$(
        const $count: usize = listed_count($n);
        static $list: [u8; $n * $count] = listed_table::<{ $n * $count }>($n);
    )*};
}
listed!(
    LIST_1 COUNT_1 1, LIST_2 COUNT_2 2, LIST_3 COUNT_3 3, LIST_4 COUNT_4 4, LIST_5 COUNT_5 5,
    LIST_6 COUNT_6 6, LIST_7 COUNT_7 7, LIST_8 COUNT_8 8, LIST_9 COUNT_9 9, LIST_10 COUNT_10 10
);
const _: () = assert!(LISTED_UP_TO == 10, "listed! builds the tables for 1..=10");

/// One N-queens solution for every `n` except 2 and 3 (`None` there), as the column of each
/// row, by the classical explicit construction: the even columns (1-based) first, then the odd
/// ones, with the fixes for `n mod 6` = 2 (swap 1 and 3, move 5 last) and 3 (move 2 last among
/// the evens, 1 and 3 last among the odds).
///
/// ```
/// let cols = queens::board::construction(8).unwrap();
/// let squares = queens::board::columns_to_squares(&cols);
/// assert!(queens::board::non_attacking(&squares) && squares.len() == 8);
/// assert!(queens::board::construction(3).is_none());
/// ```
pub fn construction(n: usize) -> Option<Columns> {
    match n {
        0 | 2 | 3 => return None,
        1 => return Some(vec![0]),
        _ => {}
    }
    let evens = (1..=n).filter(|c| c % 2 == 0);
    let odds = (1..=n).filter(|c| c % 2 == 1);
    let (evens, odds): (Vec<usize>, Vec<usize>) = match n % 6 {
        2 => {
            let mut o = vec![3, 1];
            o.extend(odds.filter(|&c| c > 5));
            o.push(5);
            (evens.collect(), o)
        }
        3 => {
            let mut e: Vec<usize> = evens.filter(|&c| c != 2).collect();
            e.push(2);
            let mut o: Vec<usize> = odds.filter(|&c| c > 3).collect();
            o.extend([1, 3]);
            (e, o)
        }
        _ => (evens.collect(), odds.collect()),
    };
    Some(evens.into_iter().chain(odds).map(|c| c - 1).collect())
}

/// Backtracks between two deadline polls.
const POLL_INTERVAL: u32 = 1 << 12;

/// An iterator over the solutions of the N-queens problem (N in 1..=32), in increasing
/// lexicographic order of their columns; with `unique`, only the canonical representative of
/// each symmetry class (its lexicographically smallest image, [`super::canonical_columns`]). Lazy: each call to `next` resumes
/// the search. A deadline, when given, ends the iteration early; [`Solutions::stopped`] then
/// says so.
#[derive(Clone, Debug)]
pub struct Solutions {
    walk: Walk,
    unique: bool,
    stopped: bool,
    deadline: Deadline,
}

/// All columns of a row of `n` squares (`n` in 1..=32).
const fn full_row(n: usize) -> u32 {
    u32::MAX >> (32 - n as u32)
}

/// What [`Walk::step`] stopped at.
enum Step {
    /// A solution is in `board[..n]`.
    Solution,
    /// Every solution has been produced.
    Exhausted,
    /// The backtrack budget ran out; call again to go on.
    Paused,
}

/// The one depth-first walk over non-attacking placements, row by row, columns in increasing
/// order, so solutions come in lexicographic order. `const`, so the listed tables are built by
/// it at compile time.
#[derive(Clone, Copy, Debug)]
struct Walk {
    n: usize,
    full: u32,
    depth: usize,
    free: [u32; 32],
    cols: [u32; 32],
    ld: [u32; 32],
    rd: [u32; 32],
    board: [usize; 32],
    done: bool,
}

impl Walk {
    /// The walk over boards of side `n` (1..=32) whose first queen stands in `first_row`.
    const fn new(n: usize, first_row: u32) -> Self {
        let mut free = [0u32; 32];
        free[0] = first_row;
        Walk {
            n,
            full: full_row(n),
            depth: 0,
            free,
            cols: [0; 32],
            ld: [0; 32],
            rd: [0; 32],
            board: [0; 32],
            done: false,
        }
    }

    /// Walks on to the next solution, or pauses after `backtracks` backtracks.
    const fn step(&mut self, backtracks: u32) -> Step {
        let mut budget = backtracks;
        while !self.done {
            let d = self.depth & 31;
            let here = self.free[d];
            if here == 0 {
                if d == 0 {
                    self.done = true;
                    break;
                }
                self.depth -= 1;
                budget -= 1;
                if budget == 0 {
                    return Step::Paused;
                }
                continue;
            }
            let bit = here & here.wrapping_neg();
            self.free[d] = here ^ bit;
            self.board[d] = bit.trailing_zeros() as usize;
            if d + 1 == self.n {
                return Step::Solution;
            }
            let cols = self.cols[d] | bit;
            let ld = (self.ld[d] | bit) << 1;
            let rd = (self.rd[d] | bit) >> 1;
            let free = !(cols | ld | rd) & self.full;
            if free != 0 {
                let e = (d + 1) & 31;
                self.cols[e] = cols;
                self.ld[e] = ld;
                self.rd[e] = rd;
                self.free[e] = free;
                self.depth += 1;
            }
        }
        Step::Exhausted
    }
}

impl Solutions {
    /// All solutions of size `n` (or one per class with `unique`). Yields nothing for `n`
    /// outside 1..=32.
    pub fn new(n: u32, unique: bool) -> Self {
        let valid = (1..=32).contains(&n);
        let nn = if valid { n as usize } else { 1 };
        let full = full_row(nn);
        // A canonical solution is no larger than its mirror image, so its first queen stands in
        // the left half (middle column included).
        let first_row = if unique {
            full & (u32::MAX >> (31 - (nn as u32 - 1) / 2))
        } else {
            full
        };
        let mut walk = Walk::new(nn, first_row);
        walk.done = !valid;
        Solutions {
            walk,
            unique,
            stopped: false,
            deadline: Deadline::never(),
        }
    }

    /// The same iterator, ending early once `deadline` is reached.
    pub fn with_deadline(mut self, deadline: Deadline) -> Self {
        self.deadline = deadline;
        self
    }

    /// Whether the deadline ended the iteration before every solution was produced.
    pub fn stopped(&self) -> bool {
        self.stopped
    }
}

impl Iterator for Solutions {
    type Item = Columns;

    fn next(&mut self) -> Option<Columns> {
        loop {
            match self.walk.step(POLL_INTERVAL) {
                Step::Solution => {
                    let solution = &self.walk.board[..self.walk.n];
                    if !self.unique || is_canonical(solution) {
                        return Some(solution.to_vec());
                    }
                }
                Step::Exhausted => return None,
                Step::Paused => {
                    if self.deadline.reached() {
                        self.walk.done = true;
                        self.stopped = true;
                        return None;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{canonical_columns, columns_to_squares, non_attacking};

    #[test]
    fn compile_time_lists_are_the_enumerators_solutions() {
        for n in 0..=LISTED_UP_TO + 1 {
            let Some(listed) = listed_solutions(n) else {
                assert!(n == 0 || n > LISTED_UP_TO);
                continue;
            };
            let enumerated: Vec<Vec<u8>> = Solutions::new(n as u32, false)
                .map(|cols| cols.into_iter().map(|c| c as u8).collect())
                .collect();
            let listed_rows: Vec<Vec<u8>> = listed.iter().map(<[u8]>::to_vec).collect();
            assert_eq!(listed_rows, enumerated, "n = {n}");
            assert_eq!(listed.len(), enumerated.len());
            assert_eq!(listed.is_empty(), enumerated.is_empty());
            for (i, cols) in enumerated.iter().enumerate() {
                assert_eq!(listed.get(i), Some(&cols[..]));
                let columns: Vec<usize> = cols.iter().map(|&c| c as usize).collect();
                n_queens_solution(n, &columns_to_squares(&columns)).unwrap();
            }
            assert_eq!(listed.get(listed.len()), None);
        }
    }

    fn n_queens_solution(n: usize, squares: &[crate::board::Square]) -> Result<(), ()> {
        (squares.len() == n && non_attacking(squares))
            .then_some(())
            .ok_or(())
    }

    #[test]
    fn construction_solves_every_size() {
        for n in 1..=200 {
            match construction(n) {
                Some(cols) => n_queens_solution(n, &columns_to_squares(&cols)).unwrap(),
                None => assert!(n == 2 || n == 3),
            }
        }
        assert!(construction(0).is_none());
    }

    #[test]
    fn eight_queens_streams_92_and_12() {
        let all: Vec<Columns> = Solutions::new(8, false).collect();
        assert_eq!(all.len(), 92);
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        for s in &all {
            n_queens_solution(8, &columns_to_squares(s)).unwrap();
        }
        let unique: Vec<Columns> = Solutions::new(8, true).collect();
        assert_eq!(unique.len(), 12);
        for s in &unique {
            assert_eq!(canonical_columns(s).0, *s);
        }
        let from_all: Vec<Columns> = all.into_iter().filter(|s| is_canonical(s)).collect();
        assert_eq!(from_all, unique);
    }

    #[test]
    fn no_solution_sizes_yield_nothing() {
        assert_eq!(Solutions::new(2, false).count(), 0);
        assert_eq!(Solutions::new(3, true).count(), 0);
        assert_eq!(Solutions::new(0, false).count(), 0);
        assert_eq!(Solutions::new(33, false).count(), 0);
        assert_eq!(Solutions::new(1, true).collect::<Vec<_>>(), vec![vec![0]]);
    }
}
