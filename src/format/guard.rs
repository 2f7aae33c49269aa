//! Output of `queens guard`: the board drawn as text, and the JSON answer.

use super::{text_board, RunInfo};
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
