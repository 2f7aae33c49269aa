//! Input and output of `queens complete`: the board text and CSPLib prob079's `.param`
//! instances in, the drawn board and the JSON answer out.
//!
//! A board is n lines of n characters: `.` a free square, `q` or `Q` a placed queen, `x` or
//! `X` a blocked square (blank lines and blanks around a line are ignored). A `.param` file
//! (CSPLib problem 079, excluded diagonals) gives `n = N`, `numdiags = K` and `diags = [[k, t],
//! ...]`: pair `[k, 1]` closes the sum diagonal `row + col = k`, pair `[k, 0]` the difference
//! diagonal `row - col + n - 1 = k`; an instance is the file and a number d, its first d pairs.

use super::{describe_char, json_answer, text_board, ParseError, RunInfo};
use crate::board::Square;
use crate::complete::{Decision, Tally, MAX_N};
use crate::problem::PartialBoard;
use serde_json::json;

/// Parses a board text into a [`PartialBoard`] (blocked squares and placed queens; nothing
/// closed). Errors name the line and column of a bad character, of a row of the wrong length,
/// of a missing or extra row, and of a placed queen that attacks an earlier one.
pub fn parse_board(text: &str) -> Result<PartialBoard, ParseError> {
    let text = super::strip_bom(text);
    let mut rows: Vec<(usize, usize, Vec<char>)> = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let lead = raw.chars().take_while(|c| *c == ' ' || *c == '\t').count();
        let content: Vec<char> = raw.trim_matches([' ', '\t']).chars().collect();
        if !content.is_empty() {
            rows.push((i + 1, lead + 1, content));
        }
    }
    let Some(first) = rows.first() else {
        return Err(ParseError::at(1, 1, "the board is empty"));
    };
    let n = first.2.len();
    if n > MAX_N {
        return Err(ParseError::at(
            first.0,
            first.1,
            format!("the board is {n} squares wide; at most {MAX_N} are supported"),
        ));
    }
    let mut board = PartialBoard::empty(n);
    board.blocked = vec![false; n * n];
    for (r, (line, col, content)) in rows.iter().enumerate() {
        if r == n {
            return Err(ParseError::at(
                *line,
                *col,
                format!("row {} is one too many: the first row has {n} squares, so the board has {n} rows", r + 1),
            ));
        }
        for (c, &ch) in content.iter().enumerate() {
            let at = || ParseError::at(*line, col + c, "");
            if c == n {
                return Err(ParseError {
                    message: format!("row {} is longer than the first row ({n} squares)", r + 1),
                    ..at()
                });
            }
            match ch {
                '.' => {}
                'x' | 'X' => board.blocked[r * n + c] = true,
                'q' | 'Q' => {
                    let q = Square { row: r, col: c };
                    if let Some(p) = board.queens.iter().find(|p| {
                        p.row == r || p.col == c || p.row.abs_diff(r) == p.col.abs_diff(c)
                    }) {
                        return Err(ParseError {
                            message: format!(
                                "the queen at [{r}, {c}] attacks the queen at [{}, {}]",
                                p.row, p.col
                            ),
                            ..at()
                        });
                    }
                    board.queens.push(q);
                }
                other => {
                    return Err(ParseError {
                        message: format!(
                            "{} is not a square ('.' free, 'Q' a queen, 'x' blocked)",
                            describe_char(other)
                        ),
                        ..at()
                    })
                }
            }
        }
        if content.len() < n {
            return Err(ParseError::at(
                *line,
                col + content.len(),
                format!(
                    "row {} has {} squares, the first row has {n}",
                    r + 1,
                    content.len()
                ),
            ));
        }
    }
    if rows.len() < n {
        let line = text.matches('\n').count() + 1;
        return Err(ParseError::at(
            line,
            1,
            format!(
                "the board has {} rows but is {n} squares wide (it must be square)",
                rows.len()
            ),
        ));
    }
    Ok(board)
}

/// A number in the `.param` text and where it starts.
struct Number {
    value: usize,
    line: usize,
    col: usize,
}

/// The numbers of a value (`N`, or `[[a, b], ...]`), or an error at the first other character.
fn numbers(value: &str, line: usize, col: usize) -> Result<Vec<Number>, ParseError> {
    let mut out = Vec::new();
    let mut digits = String::new();
    let mut start = col;
    for (k, ch) in value.chars().chain(std::iter::once(' ')).enumerate() {
        if ch.is_ascii_digit() {
            if digits.is_empty() {
                start = col + k;
            }
            digits.push(ch);
            continue;
        }
        if !digits.is_empty() {
            let value = digits
                .parse()
                .map_err(|_| ParseError::at(line, start, format!("{digits} is too large")))?;
            out.push(Number {
                value,
                line,
                col: start,
            });
            digits.clear();
        }
        if !matches!(ch, '[' | ']' | ',' | ' ' | '\t' | '\r') {
            return Err(ParseError::at(
                line,
                col + k,
                format!("{} is not part of a list of numbers", describe_char(ch)),
            ));
        }
    }
    Ok(out)
}

/// Parses a CSPLib prob079 `.param` file (`n = N`, `numdiags = K`, `diags = [[k, t], ...]`,
/// lines in any order, `#` or `$` comments) into a board with the first `diagonals` pairs
/// closed (all `K` when `None`). Asking for more diagonals than the file lists is an error.
pub fn parse_param(text: &str, diagonals: Option<usize>) -> Result<PartialBoard, ParseError> {
    let text = super::strip_bom(text);
    let mut n: Option<Number> = None;
    let mut numdiags: Option<Number> = None;
    let mut diags: Option<(usize, Vec<Number>)> = None;
    // Unclosed `[` of a `diags` list that goes on over more lines.
    let mut depth = 0i64;
    for (i, raw) in text.split('\n').enumerate() {
        let line = i + 1;
        let content = raw.split(['#', '$']).next().unwrap_or("");
        if content.trim().is_empty() {
            continue;
        }
        let lead = |s: &str| s.len() - s.trim_start().len();
        if depth > 0 {
            let more = numbers(content.trim(), line, lead(content) + 1)?;
            if let Some((_, list)) = diags.as_mut() {
                list.extend(more);
            }
            depth += bracket_depth(content);
            continue;
        }
        let Some((key, value)) = content.split_once('=') else {
            return Err(ParseError::at(
                line,
                lead(content) + 1,
                "expected 'n = N', 'numdiags = K' or 'diags = [[k, t], ...]'",
            ));
        };
        let key_text = key
            .trim()
            .strip_prefix("letting")
            .unwrap_or(key.trim())
            .trim();
        let value_col = key.chars().count() + 2 + lead(value);
        let found = numbers(value.trim(), line, value_col)?;
        match key_text {
            "n" | "numdiags" => {
                let [number] = <[Number; 1]>::try_from(found).map_err(|_| {
                    ParseError::at(line, value_col, format!("'{key_text}' takes one number"))
                })?;
                if key_text == "n" {
                    n = Some(number);
                } else {
                    numdiags = Some(number);
                }
            }
            "diags" => {
                diags = Some((line, found));
                depth = bracket_depth(value);
            }
            other => {
                return Err(ParseError::at(
                    line,
                    lead(content) + 1,
                    format!(
                        "unknown key '{}' (expected n, numdiags or diags)",
                        super::shorten(other)
                    ),
                ))
            }
        }
    }
    let end = (text.matches('\n').count() + 1, 1);
    let Some(n) = n else {
        return Err(ParseError::at(end.0, end.1, "the file has no 'n = N' line"));
    };
    if n.value == 0 || n.value > MAX_N {
        return Err(ParseError::at(
            n.line,
            n.col,
            format!("n = {} is outside 1 to {MAX_N}", n.value),
        ));
    }
    let Some((diags_line, list)) = diags else {
        return Err(ParseError::at(
            end.0,
            end.1,
            "the file has no 'diags = [...]' line",
        ));
    };
    if list.len() % 2 == 1 {
        return Err(ParseError::at(
            diags_line,
            1,
            "the diagonals are not all [k, t] pairs (an odd count of numbers)",
        ));
    }
    let listed = list.len() / 2;
    if let Some(k) = numdiags {
        if k.value != listed {
            return Err(ParseError::at(
                k.line,
                k.col,
                format!("numdiags = {} but the list has {listed} diagonals", k.value),
            ));
        }
    }
    let take = diagonals.unwrap_or(listed);
    if take > listed {
        return Err(ParseError::at(
            diags_line,
            1,
            format!("{take} diagonals asked for, but the file lists {listed}"),
        ));
    }
    let mut board = PartialBoard::empty(n.value);
    for pair in list.chunks(2).take(take) {
        let (k, kind) = (&pair[0], &pair[1]);
        if k.value > 2 * n.value - 2 {
            return Err(ParseError::at(
                k.line,
                k.col,
                format!("diagonal {} is off a board of side {}", k.value, n.value),
            ));
        }
        match kind.value {
            1 => board.closed_sums.push(k.value),
            0 => board.closed_differences.push(k.value),
            _ => {
                return Err(ParseError::at(
                    kind.line,
                    kind.col,
                    "a diagonal's kind is 1 (sum) or 0 (difference)",
                ))
            }
        }
    }
    Ok(board)
}

/// The `[` less the `]` in `text`.
fn bracket_depth(text: &str) -> i64 {
    text.matches('[').count() as i64 - text.matches(']').count() as i64
}

/// Parses either input of `queens complete`: a `.param` file when the text has an `=` (board
/// texts never do), with its first `diagonals` diagonals closed (all when `None`), else a board
/// (then `diagonals` must be `None`).
pub fn parse_input(text: &str, diagonals: Option<usize>) -> Result<PartialBoard, ParseError> {
    if text.contains('=') {
        parse_param(text, diagonals)
    } else if diagonals.is_some() {
        Err(ParseError::at(
            1,
            1,
            "--diagonals applies to CSPLib .param files ('n = N', 'diags = [...]'), not to boards",
        ))
    } else {
        parse_board(text)
    }
}

/// The certificate in a `complete` answer: whether it claims a completion, and the queens.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
pub struct CompletionCertificate {
    /// Whether the answer claims a completion.
    #[serde(default)]
    pub completed: bool,
    /// The completion's queens (null when none).
    #[serde(default)]
    pub queens: Option<Vec<Square>>,
}

/// The verdict line for a valid completion of an n x n board.
pub fn valid_completion_text(n: usize, queens: usize, given: usize) -> String {
    format!(
        "valid: {queens} non-attacking queens complete the {n}x{n} board ({given} given, {} placed)",
        queens - given
    )
}

/// The board with a completion drawn: `Q` the placed queens, `q` the queens the completion
/// adds, `x` the blocked squares, `.` every other square. Read back as a board it is the
/// input with the completion placed.
pub fn draw(board: &PartialBoard, queens: &[Square]) -> String {
    text_board(board.n, board.n, |s| {
        if board.queens.contains(&s) {
            'Q'
        } else if queens.contains(&s) {
            'q'
        } else if board.is_blocked(s.row, s.col) {
            'x'
        } else {
            '.'
        }
    })
}

/// A few words on what is closed besides blocked squares, for the text answers.
fn closed_summary(board: &PartialBoard) -> String {
    let mut parts = Vec::new();
    let diagonals = board.closed_sums.len() + board.closed_differences.len();
    if diagonals > 0 {
        parts.push(format!("{diagonals} closed diagonals"));
    }
    if !board.closed_rows.is_empty() {
        parts.push(format!("{} closed rows", board.closed_rows.len()));
    }
    if !board.closed_cols.is_empty() {
        parts.push(format!("{} closed columns", board.closed_cols.len()));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// The text answer of a decision: the completed board and a line saying so, or why there is
/// none ("no completion", proven, or not found before the search stopped).
pub fn text_decision(board: &PartialBoard, decision: &Decision) -> String {
    let n = board.n;
    let given = board.queens.len();
    match &decision.completion {
        Some(queens) => format!(
            "{}completion of the {n}x{n} board{}: {} queens given, {} placed ({} nodes)\n",
            draw(board, queens),
            closed_summary(board),
            given,
            queens.len() - given,
            decision.nodes
        ),
        None if decision.stopped => format!(
            "no completion found of the {n}x{n} board{}: the search stopped after {} nodes (not proven)\n",
            closed_summary(board),
            decision.nodes
        ),
        None => format!(
            "no completion of the {n}x{n} board{} exists (proven by a search of {} nodes)\n",
            closed_summary(board),
            decision.nodes
        ),
    }
}

/// The line that ends a count or a listing: the number of completions, and whether the search
/// stopped before finishing.
pub fn text_tally(board: &PartialBoard, tally: &Tally) -> String {
    let n = board.n;
    let noun = if tally.completions == 1 {
        "completion"
    } else {
        "completions"
    };
    if tally.counter {
        let how = if tally.stopped {
            "; stopped: not all counted"
        } else {
            ""
        };
        let at_least = if tally.stopped { "at least " } else { "" };
        format!(
            "{at_least}{} {noun} of the empty {n}x{n} board (the N-queens counter{how})\n",
            tally.completions
        )
    } else if tally.stopped {
        format!(
            "at least {} {noun} of the {n}x{n} board{} (stopped after {} nodes; not all counted)\n",
            tally.completions,
            closed_summary(board),
            tally.nodes
        )
    } else {
        format!(
            "{} {noun} of the {n}x{n} board{} ({} nodes)\n",
            tally.completions,
            closed_summary(board),
            tally.nodes
        )
    }
}

/// A 128-bit count as JSON: a number below 2^64, a string above.
pub(crate) fn count_value(k: u128) -> serde_json::Value {
    match u64::try_from(k) {
        Ok(small) => small.into(),
        Err(_) => k.to_string().into(),
    }
}

/// The JSON answer of a decision: `{"problem":"complete","n","given","completed","queens",
/// "proven","nodes","seconds","threads"}`. `completed` says whether a completion was found,
/// `queens` is it (all queens, in row-major order) or null, and `proven` whether the answer is
/// final (false only when the search stopped without finding one).
pub fn json_decision(board: &PartialBoard, decision: &Decision, info: RunInfo) -> String {
    let fields = json!({
        "n": board.n,
        "given": board.queens,
        "completed": decision.completion.is_some(),
        "queens": decision.completion,
        "proven": !decision.stopped,
        "nodes": decision.nodes,
    });
    json_answer("complete", &fields, info)
}

/// The JSON answer of a count or listing: `{"problem":"complete","n","given","completions",
/// "complete","nodes",["listed"],"seconds","threads"}`; `completions` is a number below 2^64
/// and a string above, a lower bound when `complete` is false. With `--all` the completions
/// come in `listed`, as lists of squares.
pub fn json_tally(
    board: &PartialBoard,
    tally: &Tally,
    listed: Option<&[Vec<Square>]>,
    info: RunInfo,
) -> String {
    let mut fields = json!({
        "n": board.n,
        "given": board.queens,
        "completions": count_value(tally.completions),
        "complete": !tally.stopped,
        "nodes": tally.nodes,
    });
    if let Some(listed) = listed {
        fields["listed"] = json!(listed);
    }
    json_answer("complete", &fields, info)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_read_queens_and_blocks() {
        let board = parse_board("Q...\n..x.\n\n...X\n.x..\n").unwrap();
        assert_eq!(board.n, 4);
        assert_eq!(board.queens, vec![Square { row: 0, col: 0 }]);
        assert!(board.is_blocked(1, 2) && board.is_blocked(2, 3) && board.is_blocked(3, 1));
        assert_eq!(board.blocked.iter().filter(|&&b| b).count(), 3);
    }

    #[test]
    fn bad_boards_are_located() {
        let at = |text: &str| {
            let e = parse_board(text).unwrap_err();
            (e.line, e.col)
        };
        assert_eq!(at("....\n..k.\n....\n....\n"), (2, 3));
        assert_eq!(at("....\n...\n....\n....\n"), (2, 4));
        assert_eq!(at("....\n.....\n....\n....\n"), (2, 5));
        assert_eq!(at("....\n....\n....\n"), (4, 1));
        assert_eq!(at("...\n...\n...\n...\n"), (4, 1));
        assert_eq!(at("Q...\n....\n..Q.\n....\n"), (3, 3));
        assert!(parse_board("Q...\n....\n..Q.\n....\n")
            .unwrap_err()
            .message
            .contains("[0, 0]"));
        assert_eq!(at(""), (1, 1));
    }

    #[test]
    fn param_files_close_the_first_d_diagonals() {
        let text = "n =  5\nnumdiags =  3\ndiags =  [[2, 1], [6, 0], [0, 1]]\n";
        let board = parse_param(text, Some(2)).unwrap();
        assert_eq!(
            (
                board.n,
                board.closed_sums.clone(),
                board.closed_differences.clone()
            ),
            (5, vec![2], vec![6])
        );
        let all = parse_param(text, None).unwrap();
        assert_eq!(all.closed_sums, vec![2, 0]);
        assert!(parse_param(text, Some(4))
            .unwrap_err()
            .message
            .contains("lists 3"));
        let split = "n = 5\ndiags = [[2, 1],\n  [6, 0]]\n";
        assert_eq!(
            parse_param(split, None).unwrap().closed_differences,
            vec![6]
        );
    }

    #[test]
    fn bad_param_files_are_located() {
        let at = |text: &str| {
            let e = parse_param(text, None).unwrap_err();
            (e.line, e.col)
        };
        assert_eq!(at("n = 5\nnumdiags = 1\ndiags = [[9, 1]]\n"), (3, 11));
        assert_eq!(at("n = 5\nnumdiags = 1\ndiags = [[2, 7]]\n"), (3, 14));
        assert_eq!(at("n = 5\nnumdiags = 2\ndiags = [[2, 1]]\n"), (2, 12));
        assert_eq!(at("n = 5\ndiags = [[2; 1]]\n"), (2, 12));
        assert_eq!(at("m = 5\n"), (1, 1));
        assert_eq!(at("diags = []\n").0, 2);
    }
}
