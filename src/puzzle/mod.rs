//! One pipeline per problem: read the input text, solve it, write the answer, check a
//! certificate. The command line, the web API and `queens verify` are adapters over this layer:
//! each reads its own transport (argv and files, HTTP) and maps the errors to its own codes
//! (exit statuses, HTTP statuses), nothing more.
//!
//! Each problem is one type implementing [`Puzzle`]: [`Weight`], [`Repair`], [`Guard`],
//! [`Count`]. A new problem plugs in by implementing the trait over its `format` parser and
//! writers, its solver, and its `verify` check.
//!
//! ```
//! use queens::puzzle::{self, Puzzle, Style, Verdict, Weight};
//! let grid = Weight::read("7\n").unwrap();
//! let sense = queens::weight::Sense::Max;
//! let solved = puzzle::solve::<Weight>(grid, &sense, &queens::Options::default()).unwrap();
//! let json = solved.write(Style::Json).unwrap();
//! assert!(json.starts_with(r#"{"problem":"weight","n":1,"sum":7,"#));
//! let verdict = Weight::check(&solved.input, &json).unwrap();
//! assert!(matches!(verdict, Verdict::Valid(_)));
//! ```

mod complete;
pub mod count;
mod guard;
mod repair;
mod weight;

pub use complete::{Complete, CompleteAnswer, CompleteChoices};
pub use count::{Count, CountChoices, CountOutcome, Listing};
pub use guard::{Guard, GuardAnswer, GuardChoices};
pub use repair::Repair;
pub use weight::{Sense, Weight};

use crate::format::{ParseError, RunInfo};
use crate::Options;
use std::time::Instant;
use thiserror::Error;

/// How an answer is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A short human answer with the board drawn.
    Text,
    /// One JSON object on one line (the command-line contract's answer shape), no newline.
    Json,
    /// A self-contained SVG picture.
    Svg,
}

/// A style a problem has no writer for, with what to use instead.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct Unwritable(pub &'static str);

/// What checking a certificate found (its optimality is never checked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The certificate holds; the sentence says what it proves.
    Valid(String),
    /// The first violation found, as a sentence.
    Invalid(String),
}

/// An answer text that could not be checked at all.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CheckError {
    /// The answer is not of the expected shape, with the line and column where it goes wrong.
    #[error("{0}")]
    Unreadable(#[from] ParseError),
    /// The answer holds nothing to check.
    #[error("no solution line to check")]
    Empty,
}

/// One chessboard problem, from its input text to its checked certificate.
pub trait Puzzle: 'static {
    /// The problem's name: the `"problem"` of its JSON answer.
    const NAME: &'static str;
    /// The parsed input.
    type Input: Send + Sync + 'static;
    /// The problem's own choices besides [`Options`] (`()` when there are none).
    type Choices: Clone + Default + Send + Sync + 'static;
    /// The certified answer.
    type Answer: Send + Sync + 'static;
    /// Why the solver gave no answer.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Reads the input text; errors carry the line and column.
    ///
    /// # Errors
    /// The first problem in the text.
    fn read(text: &str) -> Result<Self::Input, ParseError>;

    /// Reads the input text for a solve with `choices` (for a problem whose input depends on
    /// them, such as a completion's first `D` diagonals); by default [`Puzzle::read`].
    ///
    /// # Errors
    /// As [`Puzzle::read`].
    fn read_with(text: &str, choices: &Self::Choices) -> Result<Self::Input, ParseError> {
        let _ = choices;
        Self::read(text)
    }

    /// Solves `input`.
    ///
    /// # Errors
    /// The solver's: an unsupported size, or an input with no answer (see
    /// [`Puzzle::unanswerable`]).
    fn solve(
        input: &Self::Input,
        choices: &Self::Choices,
        options: &Options,
    ) -> Result<Self::Answer, Self::Error>;

    /// Whether `error` means the question has no answer (the command line's exit 1), rather
    /// than an input the solver does not take (exit 2).
    fn unanswerable(_error: &Self::Error) -> bool {
        false
    }

    /// Whether answers can be written in `style`; the error says what to do instead.
    ///
    /// # Errors
    /// A style with no writer.
    fn writes(_style: Style) -> Result<(), Unwritable> {
        Ok(())
    }

    /// The answer in `style`: text ends in a newline, JSON is one line without one.
    ///
    /// # Errors
    /// As [`Puzzle::writes`].
    fn write(solved: &Solved<Self>, style: Style) -> Result<String, Unwritable>;

    /// Checks the certificate in `answer`, the JSON answer text, against `input`.
    ///
    /// # Errors
    /// An answer that cannot be read as this problem's.
    fn check(input: &Self::Input, answer: &str) -> Result<Verdict, CheckError>;
}

/// A solved problem: its input, its answer, and the run that found it.
pub struct Solved<P: Puzzle + ?Sized> {
    /// The input.
    pub input: P::Input,
    /// The certified answer.
    pub answer: P::Answer,
    /// Seconds and threads of the solve.
    pub info: RunInfo,
}

impl<P: Puzzle + ?Sized> Solved<P> {
    /// The answer in `style` ([`Puzzle::write`]).
    ///
    /// # Errors
    /// As [`Puzzle::writes`].
    pub fn write(&self, style: Style) -> Result<String, Unwritable> {
        P::write(self, style)
    }
}

/// A solved problem of any kind, as a cache of answers keeps it.
pub trait Answered: Send + Sync {
    /// The answer in `style`.
    ///
    /// # Errors
    /// As [`Puzzle::writes`].
    fn write(&self, style: Style) -> Result<String, Unwritable>;
}

impl<P: Puzzle + ?Sized> Answered for Solved<P> {
    fn write(&self, style: Style) -> Result<String, Unwritable> {
        P::write(self, style)
    }
}

/// Solves `input` and measures the run.
///
/// # Errors
/// As [`Puzzle::solve`].
pub fn solve<P: Puzzle + ?Sized>(
    input: P::Input,
    choices: &P::Choices,
    options: &Options,
) -> Result<Solved<P>, P::Error> {
    let started = Instant::now();
    let answer = P::solve(&input, choices, options)?;
    Ok(Solved {
        input,
        answer,
        info: RunInfo::measured(started, options),
    })
}

/// The certificate check of the weight, repair and guard answers: a verdict from `check`, or
/// the violation's sentence.
fn verdict(check: Result<String, crate::verify::Violation>) -> Verdict {
    match check {
        Ok(valid) => Verdict::Valid(valid),
        Err(v) => Verdict::Invalid(v.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads, solves and writes `text` as `P`, checks its JSON answer, then the answer with
    /// `tamper` applied to its JSON, which must be invalid.
    fn round_trip<P: Puzzle>(text: &str, choices: P::Choices, tamper: (&str, &str)) {
        let input = P::read(text).unwrap();
        let solved = solve::<P>(input, &choices, &Options::with_threads(1)).unwrap_or_else(|_| {
            panic!("{} has an answer", P::NAME);
        });
        let json = solved.write(Style::Json).unwrap();
        assert!(
            json.starts_with(&format!("{{\"problem\":\"{}\",", P::NAME)),
            "{json}"
        );
        assert!(!json.contains('\n'));
        assert!(solved.write(Style::Text).unwrap().ends_with('\n'));
        assert!(solved.write(Style::Svg).unwrap().starts_with("<svg"));
        let verdict = P::check(&solved.input, &json).unwrap();
        assert!(matches!(verdict, Verdict::Valid(_)), "{verdict:?}");
        assert!(json.contains(tamper.0), "{json}");
        let forged = json.replacen(tamper.0, tamper.1, 1);
        let verdict = P::check(&solved.input, &forged).unwrap();
        assert!(
            matches!(verdict, Verdict::Invalid(_)),
            "{forged}: {verdict:?}"
        );
    }

    #[test]
    fn every_problem_reads_solves_writes_and_checks() {
        for sense in [crate::weight::Sense::Max, crate::weight::Sense::Min] {
            round_trip::<Weight>(
                "1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 16\n",
                sense,
                ("\"sum\":34", "\"sum\":35"),
            );
        }
        round_trip::<Repair>(
            "qqqq\n....\n....\n....\n",
            (),
            ("\"moves\":", "\"moves\":9"),
        );
        round_trip::<Guard>(
            "XX\nXX\n",
            GuardChoices::default(),
            ("\"guards\":1", "\"guards\":0"),
        );
    }

    #[test]
    fn errors_say_where_and_whether_an_answer_exists() {
        let bad = Weight::read("1 2\n3 x\n").unwrap_err();
        assert_eq!((bad.line, bad.col), (2, 3));
        let none = solve::<Weight>(
            Weight::read("1 2\n3 4\n").unwrap(),
            &crate::weight::Sense::Max,
            &Options::default(),
        );
        assert!(Weight::unanswerable(&none.err().unwrap()));
        let unreadable = Guard::check(&Guard::read("X\n").unwrap(), r#"{"problem":"weight"}"#);
        assert!(matches!(unreadable, Err(CheckError::Unreadable(_))));
        assert_eq!(
            Count::writes(Style::Svg).unwrap_err().to_string(),
            "a count has no picture: `queens solutions N --format svg` draws the solutions"
        );
        assert!(matches!(
            count::check_solutions(4, "\n"),
            Err(CheckError::Empty)
        ));
    }

    #[test]
    fn guard_sets_are_counted_only_when_asked() {
        let marks = Guard::read("XXX\nXXX\nXXX\n").unwrap();
        let asked = GuardChoices {
            count_sets: true,
            ..GuardChoices::default()
        };
        let solved = solve::<Guard>(marks, &asked, &Options::default()).unwrap();
        // The 3 x 3 board: one queen in the centre guards it, and no other square does.
        assert_eq!(solved.answer.minimum_sets, Some(Some(1)));
        assert!(solved
            .write(Style::Json)
            .unwrap()
            .contains("\"minimum_sets\":1"));
        assert!(solved
            .write(Style::Text)
            .unwrap()
            .contains("1 guard sets of this size"));
    }
}
