//! The completion problem: finish a board with queens placed and squares, lines or diagonals
//! closed, or show that no completion exists; or count the completions.

use super::{verdict, CheckError, Puzzle, Solved, Style, Unwritable, Verdict};
use crate::complete::{count, decide, CompleteError, Decision, Tally};
use crate::format::answer::read_answer;
use crate::format::complete::{
    json_decision, json_tally, parse_input, text_decision, text_tally, valid_completion_text,
    CompletionCertificate,
};
use crate::format::{svg, ParseError};
use crate::problem::PartialBoard;
use crate::{verify, Options};

/// `queens complete`: read a board (or a CSPLib `.param` instance), decide or count.
#[derive(Debug, Clone, Copy)]
pub struct Complete;

/// What a completion solve is asked for besides the board.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CompleteChoices {
    /// Count the completions instead of finding one.
    pub count: bool,
    /// For a `.param` input: its first `D` diagonals (all when `None`).
    pub diagonals: Option<usize>,
}

/// A decision (a completion, or none) or a count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompleteAnswer {
    /// A completion, or proof that none exists.
    Decision(Decision),
    /// The number of completions.
    Count(Tally),
}

impl Puzzle for Complete {
    const NAME: &'static str = "complete";
    type Input = PartialBoard;
    type Choices = CompleteChoices;
    type Answer = CompleteAnswer;
    type Error = CompleteError;

    fn read(text: &str) -> Result<PartialBoard, ParseError> {
        parse_input(text, None)
    }

    fn read_with(text: &str, choices: &CompleteChoices) -> Result<PartialBoard, ParseError> {
        parse_input(text, choices.diagonals)
    }

    fn solve(
        board: &PartialBoard,
        choices: &CompleteChoices,
        options: &Options,
    ) -> Result<CompleteAnswer, CompleteError> {
        if choices.count {
            count(board, options).map(CompleteAnswer::Count)
        } else {
            decide(board, options).map(CompleteAnswer::Decision)
        }
    }

    fn write(solved: &Solved<Self>, style: Style) -> Result<String, Unwritable> {
        let board = &solved.input;
        Ok(match (&solved.answer, style) {
            (CompleteAnswer::Decision(d), Style::Json) => json_decision(board, d, solved.info),
            (CompleteAnswer::Decision(d), Style::Text) => text_decision(board, d),
            (CompleteAnswer::Decision(d), Style::Svg) => {
                svg::complete(board, d.completion.as_deref(), d.stopped)
            }
            (CompleteAnswer::Count(t), Style::Json) => json_tally(board, t, None, solved.info),
            (CompleteAnswer::Count(t), Style::Text) => text_tally(board, t),
            (CompleteAnswer::Count(_), Style::Svg) => {
                return Err(Unwritable("a count has no picture: ask for json or text"))
            }
        })
    }

    fn check(board: &PartialBoard, answer: &str) -> Result<Verdict, CheckError> {
        let a: CompletionCertificate = read_answer(Self::NAME, answer)?;
        Ok(match (a.completed, a.queens) {
            (true, Some(q)) => verdict(
                verify::completion(board, &q)
                    .map(|()| valid_completion_text(board.n, q.len(), board.queens.len())),
            ),
            _ => Verdict::Invalid(
                "the answer claims no completion, so there is none to check".to_string(),
            ),
        })
    }
}
