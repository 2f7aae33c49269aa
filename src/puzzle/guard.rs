//! The guard problem: the fewest queens occupying or attacking every marked square.

use super::{verdict, CheckError, Puzzle, Solved, Style, Unwritable, Verdict};
use crate::format::answer::{read_answer, GuardCertificate};
use crate::format::{self, svg, ParseError};
use crate::guard::{count_minimum, solve_with, GuardError, GuardOptions, GuardSet, Rule};
use crate::problem::MarkGrid;
use crate::{verify, Options};

/// `queens guard`: read a mark grid, find the fewest guarding queens.
#[derive(Debug, Clone, Copy)]
pub struct Guard;

/// What a guard solve is asked for besides the marks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GuardChoices {
    /// Which queen sets count as guards.
    pub rule: Rule,
    /// The guard search's own choices (theorems or search for the lower bounds).
    pub search: GuardOptions,
    /// Also count the guard sets of the minimum size (when the minimum is proven).
    pub count_sets: bool,
}

/// A guard set, and the number of guard sets of its size when they were asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardAnswer {
    /// The fewest guards found, with the proven lower bound.
    pub guards: GuardSet,
    /// `None`: not asked; `Some(None)`: asked, but the minimum was not proven or the count
    /// was stopped; `Some(Some(k))`: `k` sets of the minimum size.
    pub minimum_sets: Option<Option<u128>>,
}

impl Puzzle for Guard {
    const NAME: &'static str = "guard";
    type Input = MarkGrid;
    type Choices = GuardChoices;
    type Answer = GuardAnswer;
    type Error = GuardError;

    fn read(text: &str) -> Result<MarkGrid, ParseError> {
        format::parse_mark_grid(text)
    }

    fn solve(
        marks: &MarkGrid,
        choices: &GuardChoices,
        options: &Options,
    ) -> Result<GuardAnswer, GuardError> {
        let guards = solve_with(marks, choices.rule, &choices.search, options)?;
        // The count needs the proven minimum; it is absent when the time limit stops either
        // part.
        let minimum_sets = if !choices.count_sets {
            None
        } else if guards.optimal {
            Some(count_minimum(marks, choices.rule, options)?.map(|m| m.sets))
        } else {
            Some(None)
        };
        Ok(GuardAnswer {
            guards,
            minimum_sets,
        })
    }

    fn write(solved: &Solved<Self>, style: Style) -> Result<String, Unwritable> {
        let (marks, answer) = (&solved.input, &solved.answer);
        Ok(match style {
            Style::Json => {
                format::guard::json(&answer.guards, answer.minimum_sets.flatten(), solved.info)
            }
            Style::Svg => svg::guard(marks, &answer.guards),
            Style::Text => format::guard::text(marks, &answer.guards, answer.minimum_sets),
        })
    }

    fn check(marks: &MarkGrid, answer: &str) -> Result<Verdict, CheckError> {
        let a: GuardCertificate = read_answer(Self::NAME, answer)?;
        let covered = if a.independent {
            verify::independent_guard(marks, &a.queens)
        } else {
            verify::guard(marks, &a.queens)
        };
        Ok(verdict(
            covered
                .and_then(|()| verify::claimed_count(a.guards, a.queens.len()))
                .map(|()| a.valid_text(marks.rows, marks.cols)),
        ))
    }
}
