//! Output of `queens repair`: the text answer (boards before and after, the moves in chess
//! notation and 0-based coordinates) and the JSON object of the command-line contract.

use crate::board::Square;
use crate::repair::{Move, Plan, Position};
use serde_json::json;
use std::fmt::Write;

/// The board with `Q` on the given squares and `.` elsewhere, one line per row.
pub fn board_text(n: usize, queens: &[Square]) -> String {
    let mut cells = vec![b'.'; n * n];
    for q in queens {
        cells[q.row * n + q.col] = b'Q';
    }
    let mut out = String::with_capacity(n * (n + 1));
    for row in cells.chunks(n) {
        out.push_str(std::str::from_utf8(row).expect("ASCII"));
        out.push('\n');
    }
    out
}

/// A move in chess notation (`Qg2-b2`) on boards of at most 26 columns, else `None`.
pub fn chess_move(n: usize, mv: &Move) -> Option<String> {
    Some(format!(
        "Q{}-{}",
        mv.from.chess_name(n, n)?,
        mv.to.chess_name(n, n)?
    ))
}

/// The text answer for `plan` from `position`.
pub fn text(position: &Position, plan: &Plan) -> String {
    let n = plan.n;
    let mut out = String::new();
    let _ = writeln!(out, "Start ({n}x{n}):");
    out.push_str(&board_text(n, &position.queens));
    let moves = plan.moves;
    let plural = |k: usize| if k == 1 { "" } else { "s" };
    if plan.optimal {
        let _ = writeln!(out, "Fewest moves: {moves} (proven optimal)");
    } else {
        let _ = writeln!(
            out,
            "Best found: {moves} move{} (not proven optimal: the search was stopped; at least {} needed)",
            plural(moves),
            plan.lower_bound
        );
    }
    let proven = if plan.relaxed_optimal {
        ""
    } else {
        " (best found, not proven)"
    };
    let _ = writeln!(
        out,
        "Relaxed count (blocking ignored, the judges' answer): {}{proven}",
        plan.relaxed
    );
    if plan.optimal && moves > plan.relaxed {
        let extra = moves - plan.relaxed;
        let _ = writeln!(
            out,
            "Blocking forces {extra} extra move{}: no plan of {} move{} exists in which every queen \
             passes only over empty squares, although one does if queens could jump.",
            plural(extra),
            plan.relaxed,
            plural(plan.relaxed)
        );
    }
    if !plan.plan.is_empty() {
        out.push_str("Moves:\n");
        for (i, mv) in plan.plan.iter().enumerate() {
            let coords = format!(
                "[{}, {}] -> [{}, {}]",
                mv.from.row, mv.from.col, mv.to.row, mv.to.col
            );
            match chess_move(n, mv) {
                Some(chess) => {
                    let _ = writeln!(out, "{:>4}. {chess:<12} {coords}", i + 1);
                }
                None => {
                    let _ = writeln!(out, "{:>4}. {coords}", i + 1);
                }
            }
        }
    }
    out.push_str("After:\n");
    out.push_str(&board_text(n, &plan.final_queens));
    out
}

/// The JSON object of the command-line contract for `plan`, found in `seconds`.
pub fn json(plan: &Plan, seconds: f64) -> serde_json::Value {
    let mut value = json!({
        "n": plan.n,
        "moves": plan.moves,
        "relaxed": plan.relaxed,
        "optimal": plan.optimal,
        "plan": plan.plan,
        "final": plan.final_queens,
        "seconds": seconds,
    });
    if !plan.optimal {
        value["lower_bound"] = json!(plan.lower_bound);
    }
    if !plan.relaxed_optimal {
        value["relaxed_optimal"] = json!(false);
    }
    value
}
