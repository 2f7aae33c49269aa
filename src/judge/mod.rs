//! The three classic judge problems, read and answered in the judges' exact formats. Each
//! adapter composes `format` and a solver; none adds an algorithm of its own. Answers are written
//! as each case is solved, so the cases before a bad one are already out when the error returns.

mod lightoj1061;
mod uva11214;
mod uva167;

use crate::format::ParseError;
use std::io::Write;
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
}

/// The judge problems this crate answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// LightOJ 1061, "N Queen Again": fewest moves, blocking ignored, `Case i: m`.
    LightOj1061,
    /// UVa 167, "The Sultan's Successors": best sum on 8x8, `%5d`.
    Uva167,
    /// UVa 11214, "Guarding the Chessboard": fewest guards, `Case i: q`.
    Uva11214,
}

impl Problem {
    /// Every judge problem with its command-line name.
    pub const ALL: [(&'static str, Problem); 3] = [
        ("lightoj1061", Problem::LightOj1061),
        ("uva167", Problem::Uva167),
        ("uva11214", Problem::Uva11214),
    ];

    /// The problem with this command-line name.
    pub fn from_name(name: &str) -> Option<Problem> {
        Problem::ALL
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, p)| p)
    }
}

/// Reads the judge input `text` of `problem` and writes the judge's expected output to `out`.
pub fn run(problem: Problem, text: &str, out: &mut dyn Write) -> Result<(), JudgeError> {
    match problem {
        Problem::LightOj1061 => lightoj1061::run(text, out),
        Problem::Uva167 => uva167::run(text, out),
        Problem::Uva11214 => uva11214::run(text, out),
    }
}
