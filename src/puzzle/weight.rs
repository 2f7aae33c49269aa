//! The weight problem: the best-sum placement of N queens on a grid of integers.

use super::{verdict, CheckError, Puzzle, Solved, Style, Unwritable, Verdict};
use crate::format::answer::{read_answer, WeightCertificate};
use crate::format::{self, svg, ParseError};
use crate::problem::WeightGrid;
pub use crate::weight::Sense;
use crate::weight::{optimum, Placement, WeightError};
use crate::{verify, Options};

/// `queens weight`: read a weight grid, place N non-attacking queens of the best sum (the
/// largest, or the smallest when the choice is [`Sense::Min`]).
#[derive(Debug, Clone, Copy)]
pub struct Weight;

impl Puzzle for Weight {
    const NAME: &'static str = "weight";
    type Input = WeightGrid;
    type Choices = Sense;
    type Answer = Placement;
    type Error = WeightError;

    fn read(text: &str) -> Result<WeightGrid, ParseError> {
        format::parse_weight_grid(text)
    }

    fn solve(
        grid: &WeightGrid,
        sense: &Sense,
        options: &Options,
    ) -> Result<Placement, WeightError> {
        optimum(grid, *sense, options)
    }

    fn unanswerable(error: &WeightError) -> bool {
        matches!(error, WeightError::NoPlacement { .. })
    }

    fn write(solved: &Solved<Self>, style: Style) -> Result<String, Unwritable> {
        let placement = &solved.answer;
        Ok(match style {
            Style::Json => format::weight::json(placement, solved.info),
            Style::Svg => svg::weight(&solved.input, placement),
            Style::Text => format::weight::text(&solved.input, placement),
        })
    }

    fn check(grid: &WeightGrid, answer: &str) -> Result<Verdict, CheckError> {
        let a: WeightCertificate = read_answer(Self::NAME, answer)?;
        Ok(verdict(
            verify::weight(grid, &a.queens, a.sum).map(|()| a.valid_text(grid.n)),
        ))
    }
}
