//! Output of `queens guard`: the board drawn as text, and the JSON answer.

use super::{text_board, ParseError, RunInfo};
use crate::guard::{BoundSource, GuardSet, MarkGrid};
use serde_json::json;

/// The board with `Q` for a queen, `X` for an unoccupied mark and `.` for anything else, one
/// line per row, each ending in a newline.
pub fn draw_board(marks: &MarkGrid, guards: &GuardSet) -> String {
    text_board(marks.rows, marks.cols, |s| {
        if guards.queens.binary_search(&s).is_ok() {
            'Q'
        } else if marks.is_marked(s.row, s.col) {
            'X'
        } else {
            '.'
        }
    })
}

/// The text answer: the board, then the count and whether it is proven; with `sets`, a line
/// with the number of guard sets of the minimum size (`Some(None)`: asked for but not counted,
/// because the search was stopped).
pub fn text(marks: &MarkGrid, placement: &GuardSet, sets: Option<Option<u128>>) -> String {
    let count = placement.queens.len();
    let kind = if placement.independent {
        "mutually non-attacking queens"
    } else {
        "queens"
    };
    let kind = if count == 1 {
        kind.replace("queens", "queen")
    } else {
        kind.to_string()
    };
    let status = match (placement.optimal, placement.lower_bound_source) {
        (true, BoundSource::Search) => "optimal (proven)".to_string(),
        (true, source) => format!("optimal (proven; lower bound by {source})"),
        (false, source) => format!(
            "not proven optimal: at least {} needed (by {source})",
            placement.lower_bound
        ),
    };
    let verb = if count == 1 { "guards" } else { "guard" };
    let sets = match sets {
        Some(Some(sets)) => format!("{sets} guard sets of this size\n"),
        Some(None) => "guard sets of this size: not counted (stopped)\n".to_string(),
        None => String::new(),
    };
    format!(
        "{}{count} {kind} {verb} the {}x{} board: {status}\n{sets}",
        draw_board(marks, placement),
        placement.rows,
        placement.cols
    )
}

/// The JSON answer of the command-line contract: `{"problem":"guard","rows","cols","guards",
/// "queens","optimal","lower_bound","lower_bound_source","independent","nodes",
/// ["minimum_sets"],"seconds","threads"}`; `minimum_sets` (the number of guard sets of the
/// minimum size) only when counted, as a number below 2^64 and a string above.
pub fn json(guards: &GuardSet, minimum_sets: Option<u128>, info: RunInfo) -> String {
    let mut fields = json!({
        "rows": guards.rows,
        "cols": guards.cols,
        "guards": guards.queens.len(),
        "queens": guards.queens,
        "optimal": guards.optimal,
        "lower_bound": guards.lower_bound,
        "lower_bound_source": guards.lower_bound_source.to_string(),
        "independent": guards.independent,
        "nodes": guards.nodes,
    });
    if let Some(sets) = minimum_sets {
        fields["minimum_sets"] = match u64::try_from(sets) {
            Ok(small) => small.into(),
            Err(_) => sets.to_string().into(),
        };
    }
    super::json_answer("guard", &fields, info)
}

/// One line of `queens guard --table`: `rows cols value` and where the value's lower bound
/// comes from (`search` or `theorem: ...`), with `?` after the value when it is not proven
/// (then the proven lower bound follows).
pub fn table_line(guards: &GuardSet) -> String {
    if guards.optimal {
        format!(
            "{} {} {} {}",
            guards.rows,
            guards.cols,
            guards.queens.len(),
            guards.lower_bound_source
        )
    } else {
        format!(
            "{} {} {}? at least {} ({})",
            guards.rows,
            guards.cols,
            guards.queens.len(),
            guards.lower_bound,
            guards.lower_bound_source
        )
    }
}

/// A proven entry of a table ledger: the board `(rows, cols)` and its line.
pub type TableEntry = ((usize, usize), String);

/// The first line of a `guard --table` ledger: what the table is of, so that a ledger is never
/// resumed for another rule or bound policy.
pub fn table_ledger_header(independent: bool, theorems: bool) -> String {
    format!(
        "# queens guard --table ledger: rule {}, theorems {}",
        if independent { "independent" } else { "any" },
        if theorems { "yes" } else { "no" }
    )
}

/// The proven entries of a `guard --table` ledger (its header, then [`table_line`]s as the
/// table printed them, later lines replacing earlier ones), as `((rows, cols), line)`.
/// Unproven lines (`value?`) are skipped: those boards are solved again. An empty text is an
/// empty ledger; a text with another header, or a line that is not a table line, is an error.
pub fn parse_table_ledger(text: &str, header: &str) -> Result<Vec<TableEntry>, ParseError> {
    let text = super::strip_bom(text);
    let mut entries: Vec<TableEntry> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        if i == 0 {
            if line != header {
                return Err(ParseError::at(
                    1,
                    1,
                    format!("this ledger is not for this table: expected `{header}`"),
                ));
            }
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let mut col = 1;
        let mut fields = Vec::new();
        for field in line.splitn(4, ' ') {
            fields.push((col, field));
            col += field.chars().count() + 1;
        }
        if fields.len() < 4 {
            return Err(ParseError::at(
                number,
                col.saturating_sub(1).max(1),
                "expected `rows cols value source`",
            ));
        }
        let side = |k: usize| -> Result<usize, ParseError> {
            let (c, f) = fields[k];
            f.parse::<usize>()
                .ok()
                .filter(|&v| v >= 1)
                .ok_or_else(|| ParseError::at(number, c, format!("`{f}` is not a board side")))
        };
        let board = (side(0)?, side(1)?);
        let (c, value) = fields[2];
        if value.ends_with('?') {
            continue;
        }
        if value.parse::<usize>().is_err() {
            return Err(ParseError::at(
                number,
                c,
                format!("`{value}` is not a number of queens"),
            ));
        }
        entries.retain(|(b, _)| *b != board);
        entries.push((board, line.to_string()));
    }
    Ok(entries)
}
