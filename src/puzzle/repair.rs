//! The repair problem: the fewest real queen moves to a non-attacking position.

use super::{verdict, CheckError, Puzzle, Solved, Style, Unwritable, Verdict};
use crate::format::answer::{read_answer, RepairCertificate};
use crate::format::{self, svg, ParseError};
use crate::problem::Position;
use crate::repair::{self, RepairError};
use crate::{verify, Options};

/// `queens repair`: read a position, find the fewest real moves, with the moves.
#[derive(Debug, Clone, Copy)]
pub struct Repair;

impl Puzzle for Repair {
    const NAME: &'static str = "repair";
    type Input = Position;
    type Choices = ();
    type Answer = repair::Repair;
    type Error = RepairError;

    fn read(text: &str) -> Result<Position, ParseError> {
        format::parse_position(text)
    }

    fn solve(
        position: &Position,
        _: &(),
        options: &Options,
    ) -> Result<repair::Repair, RepairError> {
        repair::solve(position, options)
    }

    fn unanswerable(error: &RepairError) -> bool {
        matches!(error, RepairError::NoPlacement { .. })
    }

    fn write(solved: &Solved<Self>, style: Style) -> Result<String, Unwritable> {
        let (position, plan) = (&solved.input, &solved.answer);
        Ok(match style {
            Style::Json => format::repair::json(plan, solved.info),
            Style::Svg => svg::repair(position, plan),
            Style::Text => format::repair::text(position, plan),
        })
    }

    fn check(start: &Position, answer: &str) -> Result<Verdict, CheckError> {
        let a: RepairCertificate = read_answer(Self::NAME, answer)?;
        Ok(verdict(
            verify::repair(start, &a.plan, &a.final_queens)
                .and_then(|()| verify::claimed_count(a.moves, a.plan.len()))
                .map(|()| a.valid_text()),
        ))
    }
}
