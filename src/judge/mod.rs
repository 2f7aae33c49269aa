//! The three classic judge problems, read and answered in the judges' exact formats. Each
//! adapter composes `format` and a solver; none adds an algorithm of its own. Answers are written
//! as each case is solved, so the cases before a bad one are already out when the error returns.

mod lightoj1061;
mod uva11214;
mod uva167;

use crate::format::ParseError;
use crate::Options;
use std::io::Write;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Why a judge run stopped early.
#[derive(Debug, Error)]
pub enum JudgeError {
    /// Case `case` (1-based; 0 for the header before any case) is malformed.
    #[error("case {case}: {source}")]
    BadCase {
        /// 1-based case number (0: the count line before the first case).
        case: usize,
        /// What is wrong, and where.
        source: ParseError,
    },
    /// Writing the answers failed (e.g. a closed pipe).
    #[error("cannot write the answers: {0}")]
    Output(#[from] std::io::Error),
    /// The cancel flag (Ctrl-C) stopped the run; the cases before were answered.
    #[error("interrupted after {answered} answered cases")]
    Interrupted {
        /// Cases answered (and written) before the stop.
        answered: usize,
    },
}

/// What a whole judge run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Cases answered.
    pub answered: usize,
    /// The 1-based cases whose answer is the best found but not proven, because the time
    /// limit stopped their search (empty without a time limit).
    pub unproven: Vec<usize>,
}

/// The run-wide limits of one judge input: each case's search gets what is left of the time
/// limit, and the cancel flag ends the run after the cases already answered.
struct Cases<'a> {
    options: &'a Options,
    end: Option<Instant>,
    summary: Summary,
}

impl<'a> Cases<'a> {
    fn new(options: &'a Options) -> Self {
        Cases {
            options,
            end: options.time_limit.map(|limit| Instant::now() + limit),
            summary: Summary::default(),
        }
    }

    /// The options for the next case's search.
    fn options(&self) -> Options {
        Options {
            time_limit: self.end.map(|end| {
                end.saturating_duration_since(Instant::now())
                    .max(Duration::ZERO)
            }),
            ..self.options.clone()
        }
    }

    /// Records case `case`, whose search ended `proven` or not, before its answer is written;
    /// fails when the cancel flag was set (the answer is then not written).
    fn solved(&mut self, case: usize, proven: bool) -> Result<(), JudgeError> {
        if self.options.deadline().cancelled() {
            return Err(JudgeError::Interrupted {
                answered: self.summary.answered,
            });
        }
        if !proven {
            self.summary.unproven.push(case);
        }
        self.summary.answered += 1;
        Ok(())
    }
}

/// The judge problems this crate answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JudgeProblem {
    /// LightOJ 1061, "N Queen Again": fewest moves, blocking ignored, `Case i: m`.
    LightOj1061,
    /// UVa 167, "The Sultan's Successors": best sum on 8x8, `%5d`.
    Uva167,
    /// UVa 11214, "Guarding the Chessboard": fewest guards, `Case i: q`.
    Uva11214,
}

impl JudgeProblem {
    /// Every judge problem with its command-line name.
    pub const ALL: [(&'static str, JudgeProblem); 3] = [
        ("lightoj1061", JudgeProblem::LightOj1061),
        ("uva167", JudgeProblem::Uva167),
        ("uva11214", JudgeProblem::Uva11214),
    ];

    /// The problem with this command-line name.
    pub fn from_name(name: &str) -> Option<JudgeProblem> {
        JudgeProblem::ALL
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, p)| p)
    }
}

/// Reads the judge input `text` of `problem` and writes the judge's expected output to `out`,
/// each case's line as soon as it is solved. A leading byte-order mark is skipped.
///
/// With a time limit in `options`, the limit bounds the whole run: once it passes, each
/// remaining case gets the best answer its solver finds at once, and [`Summary::unproven`]
/// lists those cases. Ctrl-C (the cancel flag) ends the run after the cases already written.
///
/// ```
/// use queens::judge::{run, JudgeProblem};
/// let mut out = Vec::new();
/// run(JudgeProblem::Uva11214, "8 8\nXXXXXXXX\nXXXXXXXX\nXXXXXXXX\nXXXXXXXX\nXXXXXXXX\nXXXXXXXX\nXXXXXXXX\nXXXXXXXX\n0\n", &mut out, &queens::Options::default()).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), "Case 1: 5\n");
/// ```
///
/// # Errors
/// [`JudgeError::BadCase`] with the case number and the line and column of the first problem
/// (the cases before it are answered), [`JudgeError::Output`] when writing fails,
/// [`JudgeError::Interrupted`] after Ctrl-C.
pub fn run(
    problem: JudgeProblem,
    text: &str,
    out: &mut dyn Write,
    options: &Options,
) -> Result<Summary, JudgeError> {
    let text = crate::format::strip_bom(text);
    let mut cases = Cases::new(options);
    match problem {
        JudgeProblem::LightOj1061 => lightoj1061::run(text, out, &mut cases),
        JudgeProblem::Uva167 => uva167::run(text, out, &mut cases),
        JudgeProblem::Uva11214 => uva11214::run(text, out, &mut cases),
    }?;
    Ok(cases.summary)
}
