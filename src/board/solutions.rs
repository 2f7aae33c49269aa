//! The crate's one N-queens enumerator ([`Solutions`], lazy, in lexicographic order) and its
//! one explicit construction ([`construction`], one solution for every size in constant time
//! per queen).

use super::{is_canonical, Columns};
use crate::Deadline;

/// Board sizes whose complete solution lists [`listed_solutions`] keeps (at most 724 solutions).
pub const LISTED_UP_TO: usize = 10;

/// Every N-queens solution of size `n <= LISTED_UP_TO`, as one byte per row (the column), in
/// lexicographic order: the compact, cached form of [`Solutions`] for solvers that scan all of
/// them. Computed once per size; `None` above [`LISTED_UP_TO`].
pub fn listed_solutions(n: usize) -> Option<&'static [Vec<u8>]> {
    static LISTS: [std::sync::OnceLock<Vec<Vec<u8>>>; LISTED_UP_TO + 1] =
        [const { std::sync::OnceLock::new() }; LISTED_UP_TO + 1];
    let list = LISTS.get(n)?.get_or_init(|| {
        Solutions::new(n as u32, false)
            .map(|cols| cols.into_iter().map(|c| c as u8).collect())
            .collect()
    });
    Some(list)
}

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
    n: usize,
    unique: bool,
    full: u32,
    depth: usize,
    free: [u32; 32],
    cols: [u32; 32],
    ld: [u32; 32],
    rd: [u32; 32],
    board: [usize; 32],
    done: bool,
    stopped: bool,
    deadline: Deadline,
}

impl Solutions {
    /// All solutions of size `n` (or one per class with `unique`). Yields nothing for `n`
    /// outside 1..=32.
    pub fn new(n: u32, unique: bool) -> Self {
        let valid = (1..=32).contains(&n);
        let nn = if valid { n as usize } else { 1 };
        let full = u32::MAX >> (32 - nn as u32);
        let mut free = [0u32; 32];
        // A canonical solution is no larger than its mirror image, so its first queen stands in
        // the left half (middle column included).
        free[0] = if unique {
            full & (u32::MAX >> (31 - (nn as u32 - 1) / 2))
        } else {
            full
        };
        Solutions {
            n: nn,
            unique,
            full,
            depth: 0,
            free,
            cols: [0; 32],
            ld: [0; 32],
            rd: [0; 32],
            board: [0; 32],
            done: !valid,
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
        let n = self.n;
        let mut poll = POLL_INTERVAL;
        while !self.done {
            let d = self.depth & 31;
            let here = self.free[d];
            if here == 0 {
                if d == 0 {
                    self.done = true;
                    break;
                }
                self.depth -= 1;
                poll -= 1;
                if poll == 0 {
                    poll = POLL_INTERVAL;
                    if self.deadline.reached() {
                        self.done = true;
                        self.stopped = true;
                    }
                }
                continue;
            }
            let bit = here & here.wrapping_neg();
            self.free[d] = here ^ bit;
            self.board[d] = bit.trailing_zeros() as usize;
            if d + 1 == n {
                let solution = &self.board[..n];
                if !self.unique || is_canonical(solution) {
                    return Some(solution.to_vec());
                }
                continue;
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
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{canonical_columns, columns_to_squares, non_attacking};

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
