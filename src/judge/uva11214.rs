//! UVa 11214, "Guarding the Chessboard": cases of `n m` and n rows of m characters (`X` marked,
//! `.` not) until a line `0`; one line `Case i: q` per case, q the fewest guarding queens.
//!
//! Input that ends without the final `0` is accepted: the cases read so far are answered and the
//! run ends normally (the `0` only marks the end; `0 0`, as many C solutions read it, does too);
//! anything after the end is ignored. Blank lines
//! and blanks around a line are skipped. Input with no line at all is an error (case 1). Sides
//! from 1 to 12 are accepted, beyond the judge's 2 to 9.

use super::{Cases, JudgeError};
use crate::format::{count_of, parse_mark_grid, ParseError, BLANKS};
use crate::guard::{cover, MarkGrid};
use std::io::Write;

/// The largest side accepted: beyond the judge's 9, but small enough that every case is
/// answered exactly in milliseconds (the judge has no time limit to fall back on).
const MAX_SIDE: usize = 12;

/// A non-blank line: 1-based number, 1-based column of its first non-blank character, the
/// trimmed text.
struct Line<'a> {
    number: usize,
    col: usize,
    text: &'a str,
}

fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    text.split('\n').enumerate().filter_map(|(i, raw)| {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let trimmed = raw.trim_start_matches(BLANKS);
        let col = raw.chars().count() - trimmed.chars().count() + 1;
        let trimmed = trimmed.trim_end_matches(BLANKS);
        (!trimmed.is_empty()).then_some(Line {
            number: i + 1,
            col,
            text: trimmed,
        })
    })
}

/// Parses a size line `n m` (or the terminating `0`): `Ok(None)` for the end marker.
fn size_line(line: &Line<'_>) -> Result<Option<(usize, usize)>, ParseError> {
    // Each field with its own column (a later field equal to an earlier one is found after it).
    let mut fields: Vec<(usize, &str)> = Vec::new();
    let mut searched = 0;
    for field in line.text.split(BLANKS).filter(|f| !f.is_empty()) {
        let offset = searched + line.text[searched..].find(field).unwrap_or(0);
        fields.push((line.col + line.text[..offset].chars().count(), field));
        searched = offset + field.len();
    }
    if fields.iter().all(|f| f.1 == "0") && fields.len() <= 2 {
        return Ok(None);
    }
    if fields.len() != 2 {
        return Err(ParseError::at(
            line.number,
            line.col,
            format!(
                "expected a size line 'n m' (or '0' to end), found '{}'",
                crate::format::shorten(line.text)
            ),
        ));
    }
    let mut sides = [0usize; 2];
    for (slot, &(col, field)) in sides.iter_mut().zip(&fields) {
        *slot = match field.parse::<usize>() {
            Ok(v) if (1..=MAX_SIDE).contains(&v) => v,
            _ => {
                return Err(ParseError::at(
                    line.number,
                    col,
                    format!(
                        "'{}' is not a board side from 1 to {}",
                        crate::format::shorten(field),
                        MAX_SIDE
                    ),
                ))
            }
        };
    }
    Ok(Some((sides[0], sides[1])))
}

pub(super) fn run(text: &str, out: &mut dyn Write, cases: &mut Cases) -> Result<(), JudgeError> {
    let all: Vec<Line<'_>> = lines(text).collect();
    if all.is_empty() {
        return Err(JudgeError::BadCase {
            case: 1,
            source: ParseError::at(1, 1, "empty input: expected a size line 'n m'"),
        });
    }
    let mut next = 0;
    let mut case = 0;
    while next < all.len() {
        case += 1;
        let bad = |source| JudgeError::BadCase { case, source };
        let Some((rows, cols)) = size_line(&all[next]).map_err(bad)? else {
            return Ok(());
        };
        let size_at = all[next].number;
        next += 1;
        let body = &all[next..(next + rows).min(all.len())];
        // Stop the board at a line that is not a board row (e.g. the next size line), so that
        // a missing row is reported as missing rather than as bad characters.
        if body.len() < rows || body.iter().any(looks_like_size_line) {
            let have = body.iter().take_while(|l| !looks_like_size_line(l)).count();
            if have < rows {
                let (line, col) = match body.get(have) {
                    Some(l) => (l.number, l.col),
                    None => (all.last().map_or(size_at, |l| l.number) + 1, 1),
                };
                return Err(bad(ParseError::at(
                    line,
                    col,
                    format!(
                        "the board has {} where the size line (line {size_at}) says {rows}",
                        count_of(have, "row")
                    ),
                )));
            }
        }
        let grid = parse_rows(body, cols).map_err(bad)?;
        next += rows;
        let placement = cover(&grid, &cases.options())
            .map_err(|e| bad(ParseError::at(size_at, 1, e.to_string())))?;
        cases.solved(case, placement.optimal)?;
        writeln!(out, "Case {case}: {}", placement.queens.len())?;
    }
    Ok(())
}

/// Whether a line is made of numbers only (a size line or the final `0`), not a board row.
fn looks_like_size_line(line: &Line<'_>) -> bool {
    line.text
        .split(BLANKS)
        .filter(|f| !f.is_empty())
        .all(|field| field.bytes().all(|b| b.is_ascii_digit()))
}

/// The rows of one board, each exactly `cols` characters of `X` and `.`.
fn parse_rows(body: &[Line<'_>], cols: usize) -> Result<MarkGrid, ParseError> {
    let mut marked = Vec::with_capacity(body.len() * cols);
    for (i, line) in body.iter().enumerate() {
        // The general parser locates a bad character (it reads one row here).
        let row = parse_mark_grid(line.text)
            .map_err(|e| ParseError::at(line.number, line.col + e.col - 1, e.message))?;
        let width = line.text.chars().count();
        if width != cols {
            return Err(ParseError::at(
                line.number,
                line.col + width.min(cols),
                format!(
                    "row {} has {} where the size line says {cols}",
                    i + 1,
                    count_of(width, "square")
                ),
            ));
        }
        marked.extend(row.marked);
    }
    Ok(MarkGrid {
        rows: body.len(),
        cols,
        marked,
    })
}
