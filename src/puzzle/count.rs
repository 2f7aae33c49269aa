//! The count problem: the number of N-queens solutions, all and up to symmetry; and the one
//! listing of the solutions themselves ([`Listing`]).

use super::{CheckError, Puzzle, Solved, Style, Unwritable, Verdict};
use crate::board::{Columns, Solutions};
use crate::count::{check_size, count, CountError, Counts, MAX_N};
use crate::format::answer::{read_solution_lines, valid_solutions_text};
use crate::format::{self, ParseError};
use crate::verify::{self, Violation};
use crate::{Deadline, Options};

/// `queens count`: the solutions of N-queens, counted.
#[derive(Debug, Clone, Copy)]
pub struct Count;

/// What a count is asked for besides N.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CountChoices {
    /// Also find the first solution in lexicographic order (the text answer draws it), when
    /// the count is complete and not zero.
    pub first_solution: bool,
}

/// The counts, and the first solution when it was asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountOutcome {
    /// The counts (partial when the deadline stopped them).
    pub counts: Counts,
    /// The first solution in lexicographic order, when asked for and found.
    pub first: Option<Columns>,
}

impl Puzzle for Count {
    const NAME: &'static str = "count";
    type Input = u32;
    type Choices = CountChoices;
    type Answer = CountOutcome;
    type Error = CountError;

    /// The board size N, a whole number from 1 to [`MAX_N`] (blanks around it allowed).
    fn read(text: &str) -> Result<u32, ParseError> {
        let col = text.chars().take_while(|c| c.is_whitespace()).count() + 1;
        let word = text.trim();
        let n: u32 = word.parse().map_err(|_| {
            ParseError::at(
                1,
                col,
                format!(
                    "'{}' is not a board size (a whole number from 1 to {MAX_N})",
                    format::shorten(word)
                ),
            )
        })?;
        check_size(n).map_err(|e| ParseError::at(1, col, e.to_string()))?;
        Ok(n)
    }

    fn solve(
        n: &u32,
        choices: &CountChoices,
        options: &Options,
    ) -> Result<CountOutcome, CountError> {
        let counts = count(*n, options)?;
        let first = if choices.first_solution && counts.complete && counts.solutions > 0 {
            Solutions::new(*n, true)
                .with_deadline(options.deadline())
                .next()
        } else {
            None
        };
        Ok(CountOutcome { counts, first })
    }

    fn writes(style: Style) -> Result<(), Unwritable> {
        match style {
            Style::Svg => Err(Unwritable(
                "a count has no picture: `queens solutions N --format svg` draws the solutions",
            )),
            Style::Text | Style::Json => Ok(()),
        }
    }

    fn write(solved: &Solved<Self>, style: Style) -> Result<String, Unwritable> {
        Self::writes(style)?;
        let (outcome, info) = (&solved.answer, solved.info);
        Ok(match style {
            Style::Json => {
                format::count::json(&(&outcome.counts).into(), info.seconds, info.threads)
            }
            _ => format::count::text(&outcome.counts, info.seconds, outcome.first.as_deref()),
        })
    }

    /// Checks JSON lines of `queens solutions N --format json`: each a distinct solution of
    /// size N.
    fn check(n: &u32, answer: &str) -> Result<Verdict, CheckError> {
        check_solutions(*n as usize, answer)
    }
}

/// Checks the JSON lines of `queens solutions N --format json` in `answer`: each a valid
/// `n`-queens solution, none twice. The verdict names the line of the first violation.
///
/// # Errors
/// A line that is not a solution line, or no line at all.
pub fn check_solutions(n: usize, answer: &str) -> Result<Verdict, CheckError> {
    let lines = read_solution_lines(answer)?;
    if lines.is_empty() {
        return Err(CheckError::Empty);
    }
    let mut solutions = Vec::with_capacity(lines.len());
    for (line, s) in &lines {
        if s.n != n {
            return Ok(Verdict::Invalid(format!(
                "line {line}: a solution of size {} where {n} was given",
                s.n
            )));
        }
        solutions.push(s.queens.clone());
    }
    if let Err((i, v)) = verify::distinct_solutions(n, &solutions) {
        let why = match v {
            Violation::Duplicate { first } => {
                format!("the same solution as line {}", lines[first - 1].0)
            }
            v => v.to_string(),
        };
        return Ok(Verdict::Invalid(format!("line {}: {why}", lines[i].0)));
    }
    Ok(Verdict::Valid(valid_solutions_text(n, lines.len())))
}

/// Checks a text board of N queens (the repair input format): valid when no two attack, else
/// the first attacking pair in reading order, both squares named. A board that is not N x N
/// with N queens is a [`ParseError`] at its line and column.
pub fn check_placement(board: &str) -> Result<Verdict, ParseError> {
    let position = format::parse_position(board)?;
    let n = position.n;
    Ok(match verify::n_queens_solution(n, &position.queens) {
        Ok(()) => Verdict::Valid(format!(
            "valid: {} on the {n}x{n} board, no two attacking",
            format::count_of(n, "queen")
        )),
        Err(Violation::Attack(a, b)) => Verdict::Invalid(format!(
            "the queens on [{}, {}] ({}) and [{}, {}] ({}) attack each other",
            a.row,
            a.col,
            chess_name(a, n),
            b.row,
            b.col,
            chess_name(b, n)
        )),
        Err(other) => Verdict::Invalid(other.to_string()),
    })
}

/// A square's chess name on an `n x n` board (files from `a`, rank 1 the last row), or its
/// coordinates beyond 26 files.
fn chess_name(square: crate::board::Square, n: usize) -> String {
    if n <= 26 {
        format!("{}{}", (b'a' + square.col as u8) as char, n - square.row)
    } else {
        format!("row {}, column {}", square.row, square.col)
    }
}

/// The N-queens solutions in enumeration order, numbered from 1, from number `skip + 1` on and
/// at most `limit` of them: the one listing loop of `queens solutions` and the web API.
pub struct Listing {
    n: u32,
    solutions: Solutions,
    /// The number of the last solution taken from `solutions`.
    index: u64,
    skip: u64,
    listed: u64,
    limit: u64,
}

impl Listing {
    /// The solutions of `n`-queens (one per symmetry class when `unique`), stopping at
    /// `deadline`.
    pub fn new(n: u32, unique: bool, skip: u64, limit: u64, deadline: Deadline) -> Self {
        Listing {
            n,
            solutions: Solutions::new(n, unique).with_deadline(deadline),
            index: 0,
            skip,
            listed: 0,
            limit,
        }
    }

    /// Whether the deadline (or the cancel flag) stopped the listing.
    pub fn stopped(&self) -> bool {
        self.solutions.stopped()
    }

    /// Whether a solution exists beyond the ones listed (searches for it).
    pub fn has_more(&mut self) -> bool {
        self.solutions.next().is_some()
    }

    /// How many solutions were listed.
    pub fn listed(&self) -> u64 {
        self.listed
    }

    /// After the listing: the message that no placement exists, when it was asked for solutions
    /// from the first on and found none without being stopped (the board has no solution).
    pub fn none_exists(&self) -> Option<String> {
        (self.listed == 0 && self.skip == 0 && self.limit > 0 && !self.stopped()).then(|| {
            format!(
                "no placement of {0} non-attacking queens exists on a {0}x{0} board",
                self.n
            )
        })
    }
}

impl Iterator for Listing {
    /// The solution's number (from 1) and its columns.
    type Item = (u64, Columns);

    fn next(&mut self) -> Option<(u64, Columns)> {
        if self.listed >= self.limit {
            return None;
        }
        loop {
            let columns = self.solutions.next()?;
            self.index += 1;
            if self.index > self.skip {
                self.listed += 1;
                return Some((self.index, columns));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listings_skip_and_stop() {
        let all: Vec<(u64, Columns)> =
            Listing::new(6, false, 0, u64::MAX, Deadline::never()).collect();
        assert_eq!(all.len(), 4);
        let mut some = Listing::new(6, false, 1, 2, Deadline::never());
        let listed: Vec<(u64, Columns)> = some.by_ref().collect();
        assert_eq!(listed, all[1..3].to_vec());
        assert_eq!(some.listed(), 2);
        assert!(some.has_more());
        assert!(!some.stopped());
    }

    #[test]
    fn sizes_are_read_with_where() {
        assert_eq!(Count::read(" 8\n"), Ok(8));
        let e = Count::read("  x").unwrap_err();
        assert_eq!((e.line, e.col), (1, 3));
        assert!(Count::read("33")
            .unwrap_err()
            .message
            .contains("from 1 to 32"));
    }

    #[test]
    fn placements_are_checked_by_their_first_attacking_pair() {
        let valid = check_placement(".q..\n...q\nq...\n..q.\n").unwrap();
        assert_eq!(
            valid,
            Verdict::Valid("valid: 4 queens on the 4x4 board, no two attacking".into())
        );
        // Rows 1 and 2 attack along a diagonal; rows 3 and 4 share a column, found later.
        let invalid = check_placement(".q..\n..q.\nq...\nq...\n").unwrap();
        assert_eq!(
            invalid,
            Verdict::Invalid("the queens on [0, 1] (b4) and [1, 2] (c3) attack each other".into())
        );
        assert_eq!(check_placement("q.\n..\n").unwrap_err().line, 2);
    }
}
