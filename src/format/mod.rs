//! Reading and writing the project's text formats. Parse errors are values that carry the line
//! and column (1-based) where the input went wrong; nothing here panics on any input.

pub mod answer;
pub mod complete;
pub mod count;
pub mod guard;
mod input;
pub mod repair;
pub mod scale;
pub mod solutions;
pub mod svg;
pub mod weight;

pub use answer::{json_answer, RunInfo};
pub use input::{parse_mark_grid, parse_position, parse_weight_grid};

use crate::board::Square;

use thiserror::Error;

/// Input that could not be read, with the 1-based line and column of the first problem.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}, column {col}: {message}")]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (in characters).
    pub col: usize,
    /// What is wrong there.
    pub message: String,
}

impl ParseError {
    /// An error at `line`, `col` (1-based).
    pub fn at(line: usize, col: usize, message: impl Into<String>) -> Self {
        ParseError {
            line,
            col,
            message: message.into(),
        }
    }
}

/// `value` (a serde-derived answer struct) as JSON on one line: the one way the writers turn
/// their structs into text.
///
/// # Panics
/// Never for the writers' structs: their keys are strings and none has a `Serialize` impl that
/// fails, which are serde_json's only reasons to fail on a value held in memory.
pub(crate) fn json_text<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("an answer struct serializes to JSON")
}

/// `text` without a leading UTF-8 byte-order mark (U+FEFF), if it has one.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// A character as error messages show it: `'x'` when it is visible ASCII, else its code point,
/// with the character and a name where that helps (`U+FEFF (a byte-order mark)`, `'é'
/// (U+00E9)`).
pub fn describe_char(ch: char) -> String {
    let code = format!("U+{:04X}", ch as u32);
    match ch {
        '!'..='~' => format!("'{ch}'"),
        '\t' => format!("{code} (a tab)"),
        '\u{feff}' => format!("{code} (a byte-order mark)"),
        '\u{a0}' => format!("{code} (a no-break space)"),
        '\u{200b}' => format!("{code} (a zero-width space)"),
        c if c.is_control() || c.is_whitespace() => format!("{code} (invisible)"),
        c if (c as u32) >= 0x2000 && (c as u32) <= 0x206f => format!("{code} (invisible)"),
        c => format!("'{c}' ({code})"),
    }
}

/// The blanks that may separate and surround entries in the input formats: space and tab.
pub const BLANKS: [char; 2] = [' ', '\t'];

/// Whether `ch` is invisible on a page and not a blank of [`BLANKS`] or a line end: a no-break
/// space, a zero-width space, a control character, a direction mark.
fn is_stray_invisible(ch: char) -> bool {
    !matches!(ch, ' ' | '\t' | '\n' | '\r')
        && (ch.is_whitespace()
            || ch.is_control()
            || matches!(ch as u32, 0xad | 0x200b..=0x200f | 0x202a..=0x202e | 0x2060..=0x2064 | 0xfeff))
}

/// The error for the invisible character `ch` at `line`, `col`.
fn invisible_error(line: usize, col: usize, ch: char) -> ParseError {
    ParseError::at(
        line,
        col,
        format!(
            "unexpected character {}: only spaces and tabs may separate entries",
            describe_char(ch)
        ),
    )
}

/// An error at the first invisible character of `text` other than blanks and line ends (a
/// carriage return only before a line feed), so that such a character is never dropped unseen.
pub fn reject_invisible(text: &str) -> Result<(), ParseError> {
    let (mut line, mut col) = (1, 1);
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        let lone_return = ch == '\r' && !matches!(chars.peek(), None | Some('\n'));
        if is_stray_invisible(ch) || lone_return {
            return Err(invisible_error(line, col, ch));
        }
        if ch == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    Ok(())
}

/// Decodes `bytes` as UTF-8 (a leading byte-order mark is skipped), or says where the first
/// invalid byte is.
pub fn decode_utf8(bytes: &[u8]) -> Result<&str, ParseError> {
    std::str::from_utf8(bytes).map(strip_bom).map_err(|e| {
        let valid = &bytes[..e.valid_up_to()];
        let text = std::str::from_utf8(valid).unwrap_or_default();
        let line = text.matches('\n').count() + 1;
        let col = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        ParseError::at(line, col, "the input is not valid UTF-8 text")
    })
}

/// A whitespace-separated token and where it starts (1-based line and column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    /// The token's text (no whitespace inside).
    pub text: &'a str,
    /// 1-based line of its first character.
    pub line: usize,
    /// 1-based column of its first character.
    pub col: usize,
}

impl Token<'_> {
    /// An error located at this token.
    pub fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError::at(self.line, self.col, message)
    }

    /// The token as a signed 64-bit integer, or an error naming it (an invisible character in
    /// it is named at its own column).
    pub fn parse_i64(&self) -> Result<i64, ParseError> {
        if let Some((k, ch)) = self
            .text
            .chars()
            .enumerate()
            .find(|&(_, c)| is_stray_invisible(c))
        {
            return Err(invisible_error(self.line, self.col + k, ch));
        }
        parse_integer(self.text).map_err(|why| self.error(why))
    }
}

fn parse_integer(text: &str) -> Result<i64, String> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("'{}' is not an integer", shorten(text)));
    }
    text.parse::<i64>()
        .map_err(|_| format!("{} does not fit in 64 bits", shorten(text)))
}

/// A board drawn as text, one line per row ending in a newline, with `cell(square)` on each
/// square (`Q` a queen, `X` a mark, `.` empty, by the contract).
pub fn text_board(rows: usize, cols: usize, cell: impl Fn(Square) -> char) -> String {
    let mut out = String::with_capacity(rows * (cols + 1));
    for row in 0..rows {
        for col in 0..cols {
            out.push(cell(Square::new(row, col)));
        }
        out.push('\n');
    }
    out
}

/// `k` and the noun, singular or plural: `1 number`, `3 numbers`, `1 queen`.
pub fn count_of(k: usize, noun: &str) -> String {
    if k == 1 {
        format!("1 {noun}")
    } else {
        format!("{k} {noun}s")
    }
}

/// At most 20 characters of `text`, for error messages about arbitrary input.
pub fn shorten(text: &str) -> String {
    if text.chars().count() <= 20 {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(20).collect::<String>())
    }
}

/// Splits text into tokens separated by ASCII whitespace, with their positions. Any other
/// invisible character stays inside a token, where [`Token::parse_i64`] (or the reader of a
/// board row) reports it at its own column.
#[derive(Debug, Clone)]
pub struct Tokens<'a> {
    rest: &'a str,
    line: usize,
    col: usize,
}

impl<'a> Tokens<'a> {
    /// Tokens of `text`, starting at line 1, column 1.
    pub fn new(text: &'a str) -> Self {
        Tokens {
            rest: text,
            line: 1,
            col: 1,
        }
    }

    /// Where the reader stands now (after the last token taken): for "unexpected end" errors.
    pub fn position(&self) -> (usize, usize) {
        (self.line, self.col)
    }

    /// An error at the current position, e.g. for input that ends too early.
    pub fn error_here(&self, message: impl Into<String>) -> ParseError {
        ParseError::at(self.line, self.col, message)
    }

    /// The next token, or an error saying that `what` was expected when the input ends.
    pub fn expect(&mut self, what: &str) -> Result<Token<'a>, ParseError> {
        self.next()
            .ok_or_else(|| self.error_here(format!("the input ends where {what} was expected")))
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let mut chars = self.rest.char_indices();
        let start = loop {
            let (i, ch) = chars.next()?;
            if !ch.is_ascii_whitespace() {
                break i;
            }
            if ch == '\n' {
                self.line += 1;
                self.col = 1;
            } else {
                self.col += 1;
            }
        };
        let end = self.rest[start..]
            .find(|c: char| c.is_ascii_whitespace())
            .map_or(self.rest.len(), |k| start + k);
        let token = Token {
            text: &self.rest[start..end],
            line: self.line,
            col: self.col,
        };
        self.col += token.text.chars().count();
        self.rest = &self.rest[end..];
        Some(token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invisible_character_stays_in_its_token_and_is_named_there() {
        let toks: Vec<_> = Tokens::new("1\u{a0}2 3").collect();
        assert_eq!(toks.len(), 2);
        let e = toks[0].parse_i64().unwrap_err();
        assert_eq!((e.line, e.col), (1, 2));
        assert!(
            e.message.contains("U+00A0 (a no-break space)"),
            "{}",
            e.message
        );
        assert_eq!(toks[1].parse_i64(), Ok(3));
    }

    #[test]
    fn tokens_know_where_they_are() {
        let toks: Vec<_> = Tokens::new(" 12 x\n\n  -3\t4").collect();
        let got: Vec<_> = toks.iter().map(|t| (t.text, t.line, t.col)).collect();
        assert_eq!(
            got,
            vec![("12", 1, 2), ("x", 1, 5), ("-3", 3, 3), ("4", 3, 6)]
        );
        assert!(toks[1].parse_i64().is_err());
        assert_eq!(toks[2].parse_i64().unwrap(), -3);
        let big = Token {
            text: "99999999999999999999",
            line: 1,
            col: 1,
        };
        assert!(big.parse_i64().unwrap_err().message.contains("64 bits"));
    }

    #[test]
    fn utf8_errors_are_located() {
        let err = decode_utf8(b"ab\ncd\xffe").unwrap_err();
        assert_eq!((err.line, err.col), (2, 3));
    }
}
