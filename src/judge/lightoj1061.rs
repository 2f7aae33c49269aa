//! LightOJ 1061, "N Queen Again": T boards of 8 tokens of 8 characters; each answer is the
//! relaxed move count (blocking ignored), as the judge expects, printed as `Case i: m`.

use super::{Cases, JudgeError};
use crate::board::Square;
use crate::format::{ParseError, Tokens};
use crate::repair::{self, Position};
use std::io::Write;

const SIDE: usize = 8;

/// Reads one board of eight 8-character tokens from `tokens`.
fn read_board(tokens: &mut Tokens<'_>) -> Result<Position, ParseError> {
    let mut queens = Vec::with_capacity(SIDE);
    let mut first = None;
    for row in 0..SIDE {
        let token = tokens.expect(&format!("row {} of a board", row + 1))?;
        first.get_or_insert(token);
        for (col, ch) in token.text.chars().enumerate() {
            match ch {
                '.' => {}
                'q' | 'Q' => queens.push(Square::new(row, col)),
                _ => {
                    return Err(ParseError::at(
                        token.line,
                        token.col + col,
                        format!(
                            "unexpected character {} in a board (allowed: '.', 'q')",
                            crate::format::describe_char(ch)
                        ),
                    ))
                }
            }
        }
        let width = token.text.chars().count();
        if width != SIDE {
            return Err(token.error(format!(
                "row {} has {}; a board row has {SIDE}",
                row + 1,
                crate::format::count_of(width, "square")
            )));
        }
    }
    if queens.len() != SIDE {
        let at = first.expect("eight rows were read");
        return Err(at.error(format!(
            "the board has {}; exactly {SIDE} are required",
            crate::format::count_of(queens.len(), "queen")
        )));
    }
    Ok(Position { n: SIDE, queens })
}

pub(super) fn run(text: &str, out: &mut dyn Write, cases: &mut Cases) -> Result<(), JudgeError> {
    let mut tokens = Tokens::new(text);
    let header = tokens
        .expect("the number of boards")
        .map_err(|source| JudgeError::BadCase { case: 0, source })?;
    let count = header
        .parse_i64()
        .and_then(|t| {
            if t < 0 {
                Err(header.error(format!("{t} boards: the count cannot be negative")))
            } else {
                Ok(t as u64)
            }
        })
        .map_err(|source| JudgeError::BadCase { case: 0, source })?;
    for case in 1..=count {
        let case_no = case as usize;
        let position = read_board(&mut tokens).map_err(|source| JudgeError::BadCase {
            case: case_no,
            source,
        })?;
        let answer =
            repair::relaxed(&position, &cases.options()).map_err(|e| JudgeError::BadCase {
                case: case_no,
                source: ParseError::at(header.line, header.col, e.to_string()),
            })?;
        cases.solved(case_no, answer.optimal)?;
        writeln!(out, "Case {case}: {}", answer.value)?;
    }
    Ok(())
}
