//! Parsers for the three grid files of the general commands (see the command-line contract):
//! weight grids, queen positions and mark grids. Blank lines are ignored everywhere; a line's
//! trailing `\r` and surrounding blanks (spaces and tabs) are ignored too. Any other invisible
//! character (a no-break space, a zero-width space) is an error at its line and column.

use super::{count_of, ParseError, Tokens};
use crate::board::Square;
use crate::problem::{MarkGrid, Position, WeightGrid};

/// The non-blank lines of `text`: 1-based line number, 1-based column of the first non-blank
/// character, and the trimmed content.
fn content_lines(text: &str) -> impl Iterator<Item = (usize, usize, &str)> {
    text.split('\n').enumerate().filter_map(|(i, raw)| {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let trimmed = raw.trim_start_matches(super::BLANKS);
        let lead = raw.chars().count() - trimmed.chars().count();
        let trimmed = trimmed.trim_end_matches(super::BLANKS);
        (!trimmed.is_empty()).then_some((i + 1, lead + 1, trimmed))
    })
}

fn end_of_input(text: &str) -> (usize, usize) {
    let line = text.matches('\n').count() + 1;
    let col = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Parses N lines of N integers (any sign, 64-bit, separated by blanks) into a square grid.
pub fn parse_weight_grid(text: &str) -> Result<WeightGrid, ParseError> {
    let text = super::strip_bom(text);
    super::reject_invisible(text)?;
    let mut n = 0;
    let mut rows = 0;
    let mut cells = Vec::new();
    let mut last_line = 0;
    for (line, first_col, content) in content_lines(text) {
        // Blanks before the line's first number (computed once a line: a search of the text
        // per number made large grids slow to read).
        let lead = first_col - 1;
        let mut count = 0;
        for token in Tokens::new(content) {
            let located = super::Token {
                line,
                col: token.col + lead,
                ..token
            };
            if rows > 0 && count == n {
                return Err(located.error(format!(
                    "row {} has more than {}",
                    rows + 1,
                    count_of(n, "number")
                )));
            }
            cells.push(located.parse_i64()?);
            count += 1;
        }
        if rows == 0 {
            n = count;
        } else if count != n {
            let col = lead + content.chars().count();
            return Err(ParseError::at(
                line,
                col,
                format!(
                    "row {} has {}, the first row has {n}",
                    rows + 1,
                    count_of(count, "number")
                ),
            ));
        }
        rows += 1;
        last_line = line;
        if rows > n {
            return Err(ParseError::at(
                line,
                1,
                format!(
                    "more rows than the {} of a row: the grid must be square",
                    count_of(n, "number")
                ),
            ));
        }
    }
    if rows == 0 {
        let (line, col) = end_of_input(text);
        return Err(ParseError::at(
            line,
            col,
            "empty input: expected a grid of numbers",
        ));
    }
    if rows < n {
        return Err(ParseError::at(
            last_line + 1,
            1,
            format!(
                "{} of {}: the grid must be square ({n} rows)",
                count_of(rows, "row"),
                count_of(n, "number")
            ),
        ));
    }
    Ok(WeightGrid { n, cells })
}

/// A rectangular grid of flags read from characters, with where each row stood in the text.
struct CharGrid {
    rows: usize,
    cols: usize,
    cells: Vec<bool>,
    /// For each row, its 1-based line and the column of its first character.
    places: Vec<(usize, usize)>,
    /// Characters from one square to the next: 1, or 2 when single spaces separate them.
    step: usize,
}

impl CharGrid {
    /// The 1-based line and column of square (`row`, `col`).
    fn place(&self, row: usize, col: usize) -> (usize, usize) {
        let (line, col0) = self.places[row];
        (line, col0 + self.step * col)
    }
}

/// Reads rows of squares, one character each, written either side by side (`q...`) or separated
/// by single spaces (`q . . .`), as the first row does; every row must do the same.
fn parse_char_grid(
    text: &str,
    what: &str,
    accept: impl Fn(char) -> Option<bool>,
    allowed: &str,
) -> Result<CharGrid, ParseError> {
    let mut cols = 0;
    let mut rows = 0;
    let mut cells = Vec::new();
    let mut places: Vec<(usize, usize)> = Vec::new();
    let mut spaced = false;
    for (line, col0, content) in content_lines(text) {
        if rows == 0 {
            spaced = content.chars().nth(1) == Some(' ');
        }
        let first = places.first().map_or(line, |p| p.0);
        let mut width = 0;
        for (k, ch) in content.chars().enumerate() {
            let at = |message: String| ParseError::at(line, col0 + k, message);
            if spaced && k % 2 == 1 {
                if ch != ' ' {
                    return Err(at(format!(
                        "expected one space between squares, as in the first row (line {first})"
                    )));
                }
                continue;
            }
            if ch == ' ' {
                return Err(at(if spaced {
                    format!("two spaces between squares; the first row (line {first}) has one")
                } else {
                    format!(
                        "a space between squares, but the first row (line {first}) has none: \
                         separate all squares by one space or none"
                    )
                }));
            }
            match accept(ch) {
                Some(flag) => cells.push(flag),
                None => {
                    let shown = super::describe_char(ch);
                    return Err(at(format!(
                        "unexpected character {shown} in a {what} (allowed: {allowed})"
                    )));
                }
            }
            width += 1;
        }
        if rows == 0 {
            cols = width;
        } else if width != cols {
            let step = if spaced { 2 } else { 1 };
            let col = if width > cols {
                col0 + step * cols
            } else {
                col0 + content.chars().count()
            };
            return Err(ParseError::at(
                line,
                col,
                format!(
                    "row {} has {}, the first row has {cols}",
                    rows + 1,
                    count_of(width, "square")
                ),
            ));
        }
        places.push((line, col0));
        rows += 1;
    }
    if rows == 0 {
        let (line, col) = end_of_input(text);
        return Err(ParseError::at(
            line,
            col,
            format!("empty input: expected a {what}"),
        ));
    }
    Ok(CharGrid {
        rows,
        cols,
        cells,
        places,
        step: if spaced { 2 } else { 1 },
    })
}

/// Parses N lines of N characters, `.` empty and `q` or `Q` a queen, with exactly N queens.
pub fn parse_position(text: &str) -> Result<Position, ParseError> {
    let text = super::strip_bom(text);
    let grid = parse_char_grid(
        text,
        "board",
        |ch| match ch {
            '.' => Some(false),
            'q' | 'Q' => Some(true),
            _ => None,
        },
        "'.', 'q', 'Q'",
    )?;
    let (rows, cols, cells) = (grid.rows, grid.cols, &grid.cells);
    if rows != cols {
        let (line, _) = grid.places[rows.min(cols) - 1];
        return Err(ParseError::at(
            line,
            1,
            format!(
                "the board is {} by {}; it must be square",
                count_of(rows, "row"),
                count_of(cols, "column")
            ),
        ));
    }
    let n = rows;
    let queens: Vec<Square> = (0..n * n)
        .filter(|&i| cells[i])
        .map(|i| Square::new(i / n, i % n))
        .collect();
    if queens.len() != n {
        let (line, col) = match queens.get(n) {
            Some(extra) => grid.place(extra.row, extra.col),
            None => (grid.places[n - 1].0, 1),
        };
        return Err(ParseError::at(
            line,
            col,
            format!(
                "{} on a {n}x{n} board: exactly {n} are required",
                count_of(queens.len(), "queen")
            ),
        ));
    }
    Ok(Position { n, queens })
}

/// Parses n lines of m characters (all lines the same length): `X` or `x` marked, `.` not, and
/// `Q` or `q` (a queen, as `queens guard` draws its answer) not marked either, so that an
/// answer's board reads back as the marks it left unoccupied.
pub fn parse_mark_grid(text: &str) -> Result<MarkGrid, ParseError> {
    let text = super::strip_bom(text);
    let CharGrid {
        rows,
        cols,
        cells: marked,
        ..
    } = parse_char_grid(
        text,
        "mark grid",
        |ch| match ch {
            '.' | 'Q' | 'q' => Some(false),
            'X' | 'x' => Some(true),
            _ => None,
        },
        "'X', 'x', '.', 'Q', 'q'",
    )?;
    Ok(MarkGrid { rows, cols, marked })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn where_(e: ParseError) -> (usize, usize) {
        (e.line, e.col)
    }

    #[test]
    fn weight_grids() {
        let g = parse_weight_grid("1 2\n\n -3  4\n").unwrap();
        assert_eq!(g.n, 2);
        assert_eq!(g.cells, vec![1, 2, -3, 4]);
        assert_eq!(where_(parse_weight_grid("1 2\n3 x\n").unwrap_err()), (2, 3));
        assert_eq!(where_(parse_weight_grid("1 2\n3\n").unwrap_err()), (2, 1));
        assert_eq!(
            where_(parse_weight_grid("1 2\n3 4 5\n").unwrap_err()),
            (2, 5)
        );
        assert_eq!(
            where_(parse_weight_grid("1 2\n3 4\n5 6\n").unwrap_err()),
            (3, 1)
        );
        assert_eq!(where_(parse_weight_grid("1 2\n").unwrap_err()), (2, 1));
        assert!(parse_weight_grid("  \n\n").is_err());
        assert!(parse_weight_grid("").unwrap_err().message.contains("empty"));
        let huge = parse_weight_grid("99999999999999999999").unwrap_err();
        assert!(huge.message.contains("64 bits"));
        assert_eq!(
            parse_weight_grid("-9223372036854775808").unwrap().cells[0],
            i64::MIN
        );
    }

    #[test]
    fn positions() {
        let one = parse_position("q.\n").unwrap_err();
        assert!(
            one.message.starts_with("the board is 1 row by 2 columns"),
            "{}",
            one.message
        );
        let p = parse_position(".q\n..\n").unwrap_err();
        assert!(p.message.starts_with("1 queen on a 2x2 board"));
        let p = parse_position("q...\n...q\n.Q..\n..q.\r\n").unwrap();
        assert_eq!(p.n, 4);
        assert_eq!(p.queens[2], Square::new(2, 1));
        assert_eq!(
            where_(parse_position("q..\n.x.\n..q\n").unwrap_err()),
            (2, 2)
        );
        assert_eq!(
            where_(parse_position("q..\n.q\n..q\n").unwrap_err()),
            (2, 3)
        );
        assert_eq!(
            where_(parse_position("qqq\n...\n..q\n").unwrap_err()),
            (3, 3)
        );
        assert!(parse_position("q..\n.q.\n").is_err());
        assert!(parse_position("\n\n").is_err());
    }

    #[test]
    fn mark_grids() {
        let m = parse_mark_grid("X..\n.X.\n").unwrap();
        assert_eq!((m.rows, m.cols), (2, 3));
        assert!(m.is_marked(1, 1) && !m.is_marked(0, 1));
        assert_eq!(where_(parse_mark_grid("X..\n.X\n").unwrap_err()), (2, 3));
        assert_eq!(where_(parse_mark_grid("X..\n.Y.\n").unwrap_err()), (2, 2));
        assert!(parse_mark_grid("").is_err());
    }

    #[test]
    fn squares_separated_by_single_spaces() {
        let spaced = parse_position(". q . .\n. . . q\nq . . .\n. . q .\n").unwrap();
        let plain = parse_position(".q..\n...q\nq...\n..q.\n").unwrap();
        assert_eq!(spaced.queens, plain.queens);
        let m = parse_mark_grid("X . x\n. Q .\n").unwrap();
        assert_eq!((m.rows, m.cols), (2, 3));
        assert!(m.is_marked(0, 2) && !m.is_marked(1, 1));
        // Every row as the first: one space or none, never a mix.
        assert_eq!(where_(parse_mark_grid("X . X\nX.X\n").unwrap_err()), (2, 2));
        assert_eq!(where_(parse_mark_grid("X.X\nX .\n").unwrap_err()), (2, 2));
        assert_eq!(
            where_(parse_mark_grid("X . X\nX  X\n").unwrap_err()),
            (2, 3)
        );
        // A short or long spaced row is located in characters.
        assert_eq!(where_(parse_mark_grid("X . X\nX .\n").unwrap_err()), (2, 4));
        assert_eq!(
            where_(parse_mark_grid("X . X\nX . X . X\n").unwrap_err()),
            (2, 7)
        );
        // An extra queen on a spaced board: its own column.
        let extra = parse_position("q . .\n. q .\n. q q\n").unwrap_err();
        assert_eq!(where_(extra), (3, 5));
    }

    #[test]
    fn invisible_characters_are_errors_where_they_stand() {
        let nbsp = parse_mark_grid("X.\n\u{a0}.X\n").unwrap_err();
        assert_eq!(where_(nbsp.clone()), (2, 1));
        assert!(nbsp.message.contains("U+00A0"), "{}", nbsp.message);
        assert_eq!(where_(parse_position("q.\u{a0}\n").unwrap_err()), (1, 3));
        assert_eq!(
            where_(parse_weight_grid("1 2\n3\u{a0}4\n").unwrap_err()),
            (2, 2)
        );
        assert_eq!(
            where_(parse_weight_grid("1 2\u{200b}\n3 4\n").unwrap_err()),
            (1, 4)
        );
        assert_eq!(where_(parse_weight_grid("1 2\r3 4\n").unwrap_err()), (1, 4));
        // Tabs, spaces and CRLF line ends stay blanks.
        assert!(parse_weight_grid("\t1 2\t\r\n3\t4\r\n").is_ok());
        assert!(parse_position(" \tq.\r\n").is_err_and(|e| !e.message.contains("unexpected")));
    }
}
