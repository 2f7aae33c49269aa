//! The bitset search: for every open row the columns still free in it, and for every open
//! column the rows still free in it (the same squares, seen both ways, so that a row and a
//! column are equally cheap to look at). A queen placed clears its row, its column and both
//! diagonals from the open lines; a line with one free square forces it, a line with none
//! fails; otherwise the search branches on a line with the fewest free squares, trying its
//! first square and then, with that square removed, propagating again (two-way branching).

use crate::primitive::cpu::{level_copies, on_level, Level};
use crate::Deadline;

/// A search state: `2 * n` masks (the open rows' free columns, then the open columns' free
/// rows), the open rows and columns, and the queens placed so far (given ones first).
#[derive(Clone, Debug)]
pub(crate) struct State {
    pub lines: Vec<u64>,
    pub open_rows: u64,
    pub open_cols: u64,
    pub queens: Vec<(usize, usize)>,
}

/// Clears from the open lines every square that a queen on `(r, c)` attacks, and closes its
/// row and column.
#[inline(always)]
fn place(
    lines: &mut [u64],
    n: usize,
    open_rows: &mut u64,
    open_cols: &mut u64,
    r: usize,
    c: usize,
) {
    *open_rows &= !(1u64 << r);
    *open_cols &= !(1u64 << c);
    let (rows, cols) = lines.split_at_mut(n);
    let col_bit = 1u64 << c;
    let mut m = *open_rows;
    while m != 0 {
        let r2 = m.trailing_zeros() as usize;
        m &= m - 1;
        let d = r2.abs_diff(r);
        rows[r2] &= !(col_bit | col_bit << d | col_bit >> d);
    }
    let row_bit = 1u64 << r;
    let mut m = *open_cols;
    while m != 0 {
        let c2 = m.trailing_zeros() as usize;
        m &= m - 1;
        let d = c2.abs_diff(c);
        cols[c2] &= !(row_bit | row_bit << d | row_bit >> d);
    }
}

impl State {
    /// The state of an n x n board whose free squares are `free(r, c)`, with the rows and
    /// columns in `open_rows` and `open_cols` needing a queen, after placing `given` (which the
    /// caller has checked to be on the board and mutually non-attacking).
    pub fn new(
        n: usize,
        free: impl Fn(usize, usize) -> bool,
        mut open_rows: u64,
        mut open_cols: u64,
        given: &[(usize, usize)],
    ) -> State {
        let mut lines = vec![0u64; 2 * n];
        for r in 0..n {
            for c in 0..n {
                if open_rows >> r & 1 == 1 && open_cols >> c & 1 == 1 && free(r, c) {
                    lines[r] |= 1 << c;
                    lines[n + c] |= 1 << r;
                }
            }
        }
        for &(r, c) in given {
            place(&mut lines, n, &mut open_rows, &mut open_cols, r, c);
        }
        State {
            lines,
            open_rows,
            open_cols,
            queens: given.to_vec(),
        }
    }
}

/// What the search does with a completion: `true` to go on, `false` to stop.
pub(crate) type Visit<'v> = &'v mut dyn FnMut(&[(usize, usize)]) -> bool;

/// One depth-first search over a [`State`].
pub(crate) struct Search<'a, 'v> {
    n: usize,
    /// One block of `2 * n` masks per level.
    stack: Vec<u64>,
    queens: Vec<(usize, usize)>,
    /// Branching decisions taken (left branches), plus one for the root.
    pub nodes: u64,
    next_poll: u64,
    deadline: &'a Deadline,
    /// Whether the deadline or the cancel flag ended the search.
    pub stopped: bool,
    visit: Visit<'v>,
    /// The level at which the search records its states instead of searching them.
    split_at: usize,
    /// The states recorded at `split_at`.
    pub pieces: Vec<State>,
    /// The instruction-set level whose copy of the search runs ([`Level::current`]).
    level: Level,
}

/// One copy of the search, recursing into itself; compiled once per instruction-set level.
macro_rules! search_copy {
    ($(#[$attribute:meta])* fn $name:ident) => {
        $(#[$attribute])*
        fn $name(&mut self, level: usize, mut open_rows: u64, mut open_cols: u64) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.next_poll = self.nodes + 4096;
            if self.deadline.reached() {
                self.stopped = true;
            }
        }
        if self.stopped {
            return true;
        }
        let n = self.n;
        let w = 2 * n;
        let base = level * w;
        if level == self.split_at {
            self.pieces.push(State {
                lines: self.stack[base..base + w].to_vec(),
                open_rows,
                open_cols,
                queens: self.queens.clone(),
            });
            return false;
        }
        let given = self.queens.len();
        let stop = loop {
            if open_rows == 0 {
                if self.split_at != usize::MAX {
                    // Above the cut, a completion is a piece of its own (searching it visits it
                    // once), so that the pieces hold every completion.
                    self.pieces.push(State {
                        lines: self.stack[base..base + w].to_vec(),
                        open_rows,
                        open_cols,
                        queens: self.queens.clone(),
                    });
                    break false;
                }
                break !(self.visit)(&self.queens);
            }
            let lines = &self.stack[base..base + w];
            let mut best = (u32::MAX, 0usize);
            let mut forced = None;
            let mut failed = false;
            let mut m = open_rows;
            while m != 0 {
                let r = m.trailing_zeros() as usize;
                m &= m - 1;
                let free = lines[r];
                let k = free.count_ones();
                if k <= 1 {
                    failed = k == 0;
                    forced = Some((r, free.trailing_zeros() as usize));
                    break;
                }
                let score = k << 8 | r.abs_diff(n - 1 - r) as u32;
                if score < best.0 {
                    best = (score, r);
                }
            }
            if forced.is_none() {
                let mut m = open_cols;
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let free = lines[n + c];
                    let k = free.count_ones();
                    if k <= 1 {
                        failed = k == 0;
                        forced = Some((free.trailing_zeros() as usize, c));
                        break;
                    }
                    let score = k << 8 | c.abs_diff(n - 1 - c) as u32;
                    if score <= best.0 {
                        best = (score, n + c);
                    }
                }
            }
            if failed {
                break false;
            }
            if let Some((r, c)) = forced {
                let lines = &mut self.stack[base..base + w];
                place(lines, n, &mut open_rows, &mut open_cols, r, c);
                self.queens.push((r, c));
                continue;
            }
            let line = best.1;
            // The free square nearest the middle of the line first.
            let mut first = 0;
            let mut m = lines[line];
            let mut nearest = usize::MAX;
            while m != 0 {
                let v = m.trailing_zeros() as usize;
                m &= m - 1;
                let d = v.abs_diff(n - 1 - v);
                if d < nearest {
                    (nearest, first) = (d, v);
                }
            }
            let (r, c) = if line < n {
                (line, first)
            } else {
                (first, line - n)
            };
            let (here, below) = self.stack[base..base + 2 * w].split_at_mut(w);
            below.copy_from_slice(here);
            let (mut rows_below, mut cols_below) = (open_rows, open_cols);
            place(below, n, &mut rows_below, &mut cols_below, r, c);
            self.queens.push((r, c));
            if self.$name(level + 1, rows_below, cols_below) {
                break true;
            }
            self.queens.pop();
            self.stack[base + r] &= !(1u64 << c);
            self.stack[base + n + c] &= !(1u64 << r);
        };
        self.queens.truncate(given);
        stop
    }
    };
}

impl<'a, 'v> Search<'a, 'v> {
    /// A search of boards of side `n` calling `visit` on every completion.
    pub fn new(n: usize, deadline: &'a Deadline, visit: Visit<'v>) -> Self {
        Search {
            n,
            stack: vec![0; (n + 2) * 2 * n],
            queens: Vec::with_capacity(n),
            nodes: 0,
            next_poll: 0,
            deadline,
            stopped: false,
            visit,
            split_at: usize::MAX,
            pieces: Vec::new(),
            level: Level::current(),
        }
    }

    /// Records the states reached after `level` branching decisions in [`Search::pieces`]
    /// instead of searching below them, and each completion found above that level as a piece
    /// of its own (in the order the search meets them): the pieces then hold every completion,
    /// and the visitor is never called.
    pub fn split_at(mut self, level: usize) -> Self {
        self.split_at = level;
        self
    }

    /// Searches below `state`; `true` when the visitor or the deadline stopped the search.
    pub fn run(&mut self, state: &State) -> bool {
        let w = 2 * self.n;
        self.stack[..w].copy_from_slice(&state.lines);
        self.queens.clear();
        self.queens.extend_from_slice(&state.queens);
        self.search(0, state.open_rows, state.open_cols)
    }

    /// Searches below the state at `level`: the copy compiled for x86-64-v3 where the CPU
    /// has it (popcount in one instruction), else the portable one.
    fn search(&mut self, level: usize, open_rows: u64, open_cols: u64) -> bool {
        on_level!(
            self.level,
            self.search_baseline(level, open_rows, open_cols),
            self.search_v3(level, open_rows, open_cols)
        )
    }

    level_copies!(search_copy, search_baseline, search_v3);
}
