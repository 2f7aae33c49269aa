//! The counting kernel: a bitmask depth-first search over the free rows of one work unit, with
//! an explicit fixed-size stack (no allocation, no recursion), down to the last six free rows,
//! which [`super::tail`] closes by table look-ups.
//!
//! Masks: `cols` has bit c set when column c is taken. Diagonals are kept in 64-bit masks that
//! also hold lines which reach the board only further down, so queens below the current row
//! (the border queens) are encoded once at the start: `ld` (lines whose column decreases by one
//! per row, bit c = column c) shifts right each row; `rd` (column increases by one per row, bit
//! c + 32 = column c) shifts left. A step over rows that already hold a queen shifts by more.
//!
//! The search and the tail it inlines are compiled several times, once per [`Level`] of x86-64
//! instruction set, and the best level the running CPU has is chosen once, at the first count
//! (see [`crate::primitive::cpu::Level::current`]); the build itself targets plain x86-64, so the binary
//! runs on any.

#[cfg(target_arch = "x86_64")]
use super::tail::Pext;
use super::tail::{Gather, Shifts, Tail, TAIL_ROWS};
use super::unit::{WorkUnit, MAX_PREFIX};
use super::UnitCounts;
use crate::board::{Square, Symmetry};
use crate::primitive::cpu::{level_copies, on_level, Level};
use crate::Deadline;

/// No column (the marker for a row whose queen is not placed yet).
const EMPTY: u8 = u8::MAX;

/// Backtracks between two deadline polls.
const POLL_INTERVAL: u32 = 1 << 14;

/// The start of one unit's search: its fixed queens and the masks at its first free row.
#[derive(Clone, Debug)]
pub(crate) struct Start {
    n: u32,
    full: u32,
    cols: u32,
    ld: u64,
    rd: u64,
    /// The free rows, top to bottom; only the first `len` are meaningful.
    rows: [u8; 32],
    len: usize,
    /// Column of the queen of each row fixed so far, or EMPTY.
    board: [u8; 32],
    half_turn: bool,
}

impl Start {
    /// The start of `unit`'s search (its constellation and prefix placed).
    pub(crate) fn new(unit: &WorkUnit) -> Self {
        let n = unit.n as u32;
        let c = unit.constellation;
        let mut board = [EMPTY; 32];
        for s in c.queens(n) {
            board[s.row] = s.col as u8;
        }
        let mut rows = [0u8; 32];
        let mut len = 0;
        for (r, &col) in board[..n as usize].iter().enumerate() {
            if col == EMPTY {
                rows[len] = r as u8;
                len += 1;
            }
        }
        let prefix = (unit.prefix_len as usize).min(MAX_PREFIX).min(len);
        for (i, &col) in unit.prefix[..prefix].iter().enumerate() {
            board[rows[i] as usize] = col;
        }
        rows.copy_within(prefix..len, 0);
        len -= prefix;
        let mut start = Start {
            n,
            full: u32::MAX >> (32 - n),
            cols: 0,
            ld: 0,
            rd: 0,
            rows,
            len,
            board,
            half_turn: c.has_half_turn_symmetry(n),
        };
        start.encode_board();
        start
    }

    /// Sets the masks at the first free row from the queens on the board.
    fn encode_board(&mut self) {
        let r0 = if self.len > 0 { self.rows[0] as i32 } else { 0 };
        let (mut cols, mut ld, mut rd) = (0u32, 0u64, 0u64);
        for (r, &c) in self.board[..self.n as usize].iter().enumerate() {
            if c == EMPTY {
                continue;
            }
            let (r, c) = (r as i32, c as i32);
            cols |= 1 << c;
            let down = c + r0 - r; // column of its r - c diagonal at row r0
            if (-32..self.n as i32).contains(&down) {
                rd |= 1u64 << (down + 32);
            }
            let anti = c + r - r0; // column of its r + c diagonal at row r0
            if anti >= 0 {
                ld |= 1u64 << anti;
            }
        }
        self.cols = cols;
        self.ld = ld;
        self.rd = rd;
    }

    /// Number of rows still without a queen.
    pub(crate) fn free_rows(&self) -> usize {
        self.len
    }

    fn free_mask(&self, cols: u32, ld: u64, rd: u64) -> u32 {
        !(cols | ld as u32 | (rd >> 32) as u32) & self.full
    }
}

/// Calls `f` with every placement of non-attacking queens on the first `depth` free rows of
/// `start` (columns, top to bottom), in increasing column order.
pub(crate) fn for_each_prefix(
    start: &Start,
    depth: usize,
    prefix: &mut [u8; MAX_PREFIX],
    level: usize,
    f: &mut dyn FnMut(&[u8; MAX_PREFIX]),
) {
    fn go(
        start: &Start,
        depth: usize,
        prefix: &mut [u8; MAX_PREFIX],
        level: usize,
        (cols, ld, rd): (u32, u64, u64),
        f: &mut dyn FnMut(&[u8; MAX_PREFIX]),
    ) {
        if level == depth {
            f(prefix);
            return;
        }
        let mut free = start.free_mask(cols, ld, rd);
        let step = if level + 1 < start.len {
            (start.rows[level + 1] - start.rows[level]) as u32
        } else {
            1
        };
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            prefix[level] = bit.trailing_zeros() as u8;
            let next = (
                cols | bit,
                (ld | bit as u64) >> step,
                (rd | (bit as u64) << 32) << step,
            );
            go(start, depth, prefix, level + 1, next, f);
        }
    }
    go(
        start,
        depth.min(start.len),
        prefix,
        level,
        (start.cols, start.ld, start.rd),
        f,
    );
}

/// The number of placements of non-attacking queens on the next `depth` free rows of a unit
/// (the last of them counted by a popcount): a deterministic estimate of its work, and with
/// `depth = start.free_rows()` its number of solutions.
pub(crate) fn placements(start: &Start, depth: usize) -> u64 {
    placements_at(Level::current(), start, depth)
}

/// [`placements`] with the walk compiled for `level` (the popcount and bit scans of x86-64-v3
/// from `V3` on, where the CPU has them).
fn placements_at(level: Level, start: &Start, depth: usize) -> u64 {
    let depth = depth.min(start.len);
    if depth == 0 {
        return 1;
    }
    let masks = (start.cols, start.ld, start.rd);
    on_level!(
        level,
        placements_baseline(start, depth, 0, masks),
        placements_v3(start, depth, 0, masks)
    )
}

/// Defines `$name`, the walk of [`placements`] from free row `level` (a recursion, so each
/// instruction-set level gets its own copy of the whole function, attributes included).
macro_rules! placements_walk {
    ($(#[$attribute:meta])* fn $name:ident) => {
        $(#[$attribute])*
        fn $name(start: &Start, depth: usize, level: usize, (cols, ld, rd): (u32, u64, u64)) -> u64 {
            let mut free = start.free_mask(cols, ld, rd);
            if level + 1 == depth {
                return free.count_ones() as u64;
            }
            let step = (start.rows[level + 1] - start.rows[level]) as u32;
            let mut total = 0;
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                let next = (
                    cols | bit,
                    (ld | bit as u64) >> step,
                    (rd | (bit as u64) << 32) << step,
                );
                total += $name(start, depth, level + 1, next);
            }
            total
        }
    };
}

level_copies!(placements_walk, placements_baseline, placements_v3);

/// The order of the group of symmetries that map the full placement `board` onto itself.
pub(super) fn stabilizer_order(n: usize, board: &[u8; 32]) -> usize {
    Symmetry::ALL
        .iter()
        .filter(|&&s| {
            (0..n).all(|r| {
                let t = s.apply(n, Square::new(r, board[r] as usize));
                board[t.row] as usize == t.col
            })
        })
        .count()
}

/// Adds one full solution (`board`) to `counts`, by the size of its symmetry class.
fn classify(n: usize, board: &[u8; 32], counts: &mut UnitCounts) {
    let class = 8 / stabilizer_order(n, board);
    counts.found[class.trailing_zeros() as usize] += 1;
}

/// Counts the solutions of one unit, by the size of their symmetry class. `None` when the
/// deadline passed before the unit was done.
pub(crate) fn count_start(start: &Start, deadline: &Deadline) -> Option<UnitCounts> {
    count_start_at(Level::current(), start, deadline)
}

/// [`count_start`] with the search compiled for `level` (or the best level below it that the
/// CPU has).
fn count_start_at(level: Level, start: &Start, deadline: &Deadline) -> Option<UnitCounts> {
    let mut counts = UnitCounts::default();
    let n = start.n as usize;
    let free0 = start.free_mask(start.cols, start.ld, start.rd);
    match start.len {
        0 => {
            if start.cols == start.full {
                classify(n, &start.board, &mut counts);
            }
        }
        1 => {
            if free0 != 0 {
                let mut board = start.board;
                board[start.rows[0] as usize] = free0.trailing_zeros() as u8;
                classify(n, &board, &mut counts);
            }
        }
        _ if start.half_turn => {
            // Only solutions that are themselves half-turn symmetric lie in classes below 8:
            // find and classify those, and count all of them with the fast search.
            let all = search(level, start, deadline)?;
            let symmetric = classify_half_turn_symmetric(start, deadline, &mut counts)?;
            counts.found[3] += all - symmetric;
        }
        _ => {
            counts.found[3] += search(level, start, deadline)?;
        }
    }
    Some(counts)
}

/// Finds the solutions of a unit with a half-turn symmetric constellation that are themselves
/// symmetric under the half turn, records each one's class in `counts` and returns how many
/// there are. Such a solution is fixed by its top half (the queen of row `n - 1 - r` is the
/// image of that of row `r`), so the search places the queens in pairs over half the rows.
fn classify_half_turn_symmetric(
    start: &Start,
    deadline: &Deadline,
    counts: &mut UnitCounts,
) -> Option<u64> {
    /// Lines taken: columns, `r + c` diagonals, `r - c + n - 1` diagonals.
    #[derive(Clone, Copy, Default)]
    struct Taken {
        cols: u32,
        sums: u64,
        diffs: u64,
    }
    impl Taken {
        /// `self` with a queen on (r, c) added.
        fn add(self, n: usize, r: usize, c: usize) -> Taken {
            Taken {
                cols: self.cols | 1 << c,
                sums: self.sums | 1 << (r + c),
                diffs: self.diffs | 1 << (r + n - 1 - c),
            }
        }

        /// `self` with a queen on (r, c) added, or `None` if a line of it is taken.
        fn with(self, n: usize, r: usize, c: usize) -> Option<Taken> {
            let free = self.cols >> c & 1 == 0
                && self.sums >> (r + c) & 1 == 0
                && self.diffs >> (r + n - 1 - c) & 1 == 0;
            free.then(|| self.add(n, r, c))
        }
    }
    struct Walk<'a> {
        n: usize,
        board: [u8; 32],
        counts: &'a mut UnitCounts,
        deadline: &'a Deadline,
        poll: u32,
    }
    impl Walk<'_> {
        /// Fills the row pairs (r, n - 1 - r) from `r` on; `None` when the deadline passed.
        fn go(&mut self, r: usize, taken: Taken) -> Option<u64> {
            let n = self.n;
            let m = n - 1 - r;
            if r > m {
                classify(n, &self.board, self.counts);
                return Some(1);
            }
            self.poll -= 1;
            if self.poll == 0 {
                self.poll = POLL_INTERVAL;
                if self.deadline.reached() {
                    return None;
                }
            }
            let (fixed_top, fixed_bottom) = (self.board[r], self.board[m]);
            let mut candidates = if fixed_top == EMPTY {
                !taken.cols & (u32::MAX >> (32 - n))
            } else {
                1 << fixed_top
            };
            let mut found = 0;
            while candidates != 0 {
                let c = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                let image = n - 1 - c;
                if (r == m && c != image)
                    || (fixed_bottom != EMPTY && fixed_bottom as usize != image)
                {
                    continue;
                }
                let mut next = Some(taken);
                if fixed_top == EMPTY {
                    next = next.and_then(|t| t.with(n, r, c));
                }
                if fixed_bottom == EMPTY && r != m {
                    next = next.and_then(|t| t.with(n, m, image));
                }
                let Some(next) = next else { continue };
                self.board[r] = c as u8;
                self.board[m] = image as u8;
                let below = self.go(r + 1, next);
                self.board[r] = fixed_top;
                self.board[m] = fixed_bottom;
                found += below?;
            }
            Some(found)
        }
    }
    let n = start.n as usize;
    // The fixed queens do not attack each other (the unit is valid).
    let taken = start.board[..n]
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c != EMPTY)
        .fold(Taken::default(), |taken, (r, &c)| {
            taken.add(n, r, c as usize)
        });
    let mut walk = Walk {
        n,
        board: start.board,
        counts,
        deadline,
        poll: POLL_INTERVAL,
    };
    walk.go(0, taken)
}

/// The depth-first search over `start.len >= TAIL_ROWS` free rows of a unit whose solutions all lie in
/// classes of 8; returns the number of solutions. The current row's masks live in registers;
/// the stack holds those of the rows above, with the squares still to try there. A queen that
/// leaves six rows is not placed at all: [`Tail::count`] counts the ways to finish.
///
/// Always inlined, into one copy per [`Level`] (see [`search`]).
#[inline(always)]
fn search_with<G: Gather>(gather: G, start: &Start, deadline: &Deadline) -> Option<u64> {
    let full = start.full;
    let len = start.len;
    let (mut cols, mut ld, mut rd) = (start.cols, start.ld, start.rd);
    debug_assert!(
        len >= TAIL_ROWS,
        "fewer free rows than the tail: see `search`"
    );
    // The tail: the last six free rows, closed by table look-ups.
    let tail_first = len - TAIL_ROWS;
    let mut offsets = [0u32; TAIL_ROWS];
    for (k, offset) in offsets.iter_mut().enumerate() {
        *offset = (start.rows[tail_first + k] - start.rows[tail_first]) as u32;
    }
    let tail = Tail::for_offsets(offsets);
    if len == TAIL_ROWS {
        return Some(tail.count(gather, full, cols, ld, rd));
    }
    let mut step = [0u32; 32];
    for (d, pair) in start.rows[..len].windows(2).enumerate() {
        step[d] = (pair[1] - pair[0]) as u32;
    }
    // At depth `last` the children are the tail's first row.
    let last = tail_first - 1;
    let mut stack_free = [0u32; 32];
    let mut stack_cols = [0u32; 32];
    let mut stack_ld = [0u64; 32];
    let mut stack_rd = [0u64; 32];
    let mut here = start.free_mask(cols, ld, rd);
    let mut shift = step[0];
    let mut found = 0u64;
    let mut d = 0usize;
    let mut poll = POLL_INTERVAL;
    loop {
        if d == last {
            while here != 0 {
                let bit = here & here.wrapping_neg();
                here ^= bit;
                let next_ld = (ld | bit as u64) >> shift;
                let next_rd = (rd | (bit as u64) << 32) << shift;
                found += tail.count(gather, full, cols | bit, next_ld, next_rd);
            }
        }
        if here == 0 {
            if d == 0 {
                break;
            }
            d -= 1;
            here = stack_free[d & 31];
            cols = stack_cols[d & 31];
            ld = stack_ld[d & 31];
            rd = stack_rd[d & 31];
            shift = step[d & 31];
            poll -= 1;
            if poll == 0 {
                poll = POLL_INTERVAL;
                if deadline.reached() {
                    return None;
                }
            }
            continue;
        }
        let bit = here & here.wrapping_neg();
        here ^= bit;
        let next_cols = cols | bit;
        let next_ld = (ld | bit as u64) >> shift;
        let next_rd = (rd | (bit as u64) << 32) << shift;
        let next_free = !(next_cols | next_ld as u32 | (next_rd >> 32) as u32) & full;
        if next_free != 0 {
            stack_free[d & 31] = here;
            stack_cols[d & 31] = cols;
            stack_ld[d & 31] = ld;
            stack_rd[d & 31] = rd;
            d += 1;
            here = next_free;
            cols = next_cols;
            ld = next_ld;
            rd = next_rd;
            shift = step[d & 31];
        }
    }
    Some(found)
}

/// [`search_with`] compiled for `level`, or for the best level below it that the CPU has
/// (the tail's gathers by `pext` from `V3Pext` on, where the CPU has BMI2).
fn search(level: Level, start: &Start, deadline: &Deadline) -> Option<u64> {
    if start.len < TAIL_ROWS {
        return Some(placements_at(level, start, start.len));
    }
    match level.fast_pext().map(Pext) {
        Some(pext) => on_level!(
            level,
            search_baseline(pext, start, deadline),
            search_v3(pext, start, deadline),
            search_v4(pext, start, deadline)
        ),
        None => on_level!(
            level,
            search_baseline(Shifts, start, deadline),
            search_v3(Shifts, start, deadline),
            search_v4(Shifts, start, deadline)
        ),
    }
}

/// Defines `$name`, [`search_with`] compiled for one instruction-set level.
macro_rules! search_copy {
    ($(#[$attribute:meta])* fn $name:ident) => {
        $(#[$attribute])*
        fn $name<G: Gather>(gather: G, start: &Start, deadline: &Deadline) -> Option<u64> {
            search_with(gather, start, deadline)
        }
    };
}

level_copies!(search_copy, search_baseline, search_v3, search_v4);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::{work_units, Tally};

    /// A000170 and A002562 for N = 1..=13.
    const SOLUTIONS: [u128; 13] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712];
    const UNIQUE: [u128; 13] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233];

    /// Every level the CPU has counts N = 1..=13 right (and `count` with the chosen one).
    #[test]
    fn every_supported_level_counts_right() {
        let levels: Vec<Level> = Level::ALL.into_iter().filter(|l| l.supported()).collect();
        assert_eq!(levels.first(), Some(&Level::Baseline));
        assert!(levels.contains(&Level::detected()));
        assert!(levels.contains(&Level::current()));
        // Shown with `--nocapture`: which levels this CPU (or emulator) runs.
        eprintln!(
            "supported {levels:?}, detected {:?}, current {:?}",
            Level::detected(),
            Level::current()
        );
        for level in levels {
            for n in 1..=13u32 {
                let mut tally = Tally::default();
                for unit in work_units(n) {
                    let start = Start::new(&unit);
                    let counts = count_start_at(level, &start, &Deadline::never()).unwrap();
                    tally.add(&unit, &counts);
                }
                let i = n as usize - 1;
                assert_eq!(tally.solutions, SOLUTIONS[i], "{level:?}, N = {n}");
                assert_eq!(tally.unique(), UNIQUE[i], "{level:?}, N = {n}");
            }
        }
    }

    /// The placements walk of every supported level agrees with the baseline one.
    #[test]
    fn every_supported_level_counts_placements_alike() {
        for n in 6..=12u32 {
            for unit in work_units(n) {
                let start = Start::new(&unit);
                for depth in 0..=start.free_rows() {
                    let expected = placements_at(Level::Baseline, &start, depth);
                    for level in Level::ALL.into_iter().filter(|l| l.supported()) {
                        assert_eq!(placements_at(level, &start, depth), expected, "{level:?}");
                    }
                }
            }
        }
    }

    /// Every level gives the same count; a level the CPU lacks is never run (the search falls
    /// back to one it has). The levels themselves are checked in `crate::primitive::cpu`.
    #[test]
    fn every_level_counts_the_same() {
        let start = Start::new(&work_units(12)[0]);
        let counts: Vec<_> = Level::ALL
            .into_iter()
            .map(|l| count_start_at(l, &start, &Deadline::never()))
            .collect();
        assert!(counts.windows(2).all(|w| w[0] == w[1]));
    }
}
