//! Output of `queens guard`: the board drawn as text, and the JSON answer.

use crate::guard::{MarkGrid, Placement};
use serde_json::{json, Value};

/// The board with `Q` for a queen, `X` for an unoccupied mark and `.` for anything else, one
/// line per row, each ending in a newline.
pub fn draw_board(marks: &MarkGrid, placement: &Placement) -> String {
    let mut out = String::with_capacity(marks.rows * (marks.cols + 1));
    for row in 0..marks.rows {
        for col in 0..marks.cols {
            let queen = placement
                .queens
                .binary_search(&crate::board::Square::new(row, col))
                .is_ok();
            out.push(if queen {
                'Q'
            } else if marks.is_marked(row, col) {
                'X'
            } else {
                '.'
            });
        }
        out.push('\n');
    }
    out
}

/// The text answer: the board, then the count and whether it is proven.
pub fn text_answer(marks: &MarkGrid, placement: &Placement) -> String {
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
    let status = if placement.optimal {
        "optimal (proven)".to_string()
    } else {
        format!(
            "not proven optimal: at least {} needed",
            placement.lower_bound
        )
    };
    let verb = if count == 1 { "guards" } else { "guard" };
    format!(
        "{}{count} {kind} {verb} the {}x{} board: {status}\n",
        draw_board(marks, placement),
        placement.rows,
        placement.cols
    )
}

/// The JSON answer of the command-line contract: `rows`, `cols`, `queens` (the count),
/// `placement`, `optimal`, `independent`, `seconds`, `nodes`, and `lower_bound` when not optimal.
pub fn json_answer(placement: &Placement, seconds: f64) -> Value {
    let mut value = json!({
        "rows": placement.rows,
        "cols": placement.cols,
        "queens": placement.queens.len(),
        "placement": placement.queens,
        "optimal": placement.optimal,
        "independent": placement.independent,
        "seconds": seconds,
        "nodes": placement.nodes,
    });
    if !placement.optimal {
        value["lower_bound"] = json!(placement.lower_bound);
    }
    value
}
