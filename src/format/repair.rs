//! Output of `queens repair`: the text answer (boards before and after, the moves in chess
//! notation and 0-based coordinates) and the JSON object of the command-line contract.

use super::{json_answer, text_board, RunInfo};
use crate::board::Square;
use crate::repair::{Move, Position, Repair};
use serde_json::json;
use std::fmt::Write;

/// The board with `Q` on the given squares and `.` elsewhere, one line per row.
pub fn board_text(n: usize, queens: &[Square]) -> String {
    text_board(n, n, |s| if queens.contains(&s) { 'Q' } else { '.' })
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
pub fn text(position: &Position, plan: &Repair) -> String {
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

/// The JSON answer of the command-line contract: `{"problem":"repair","n","moves","relaxed",
/// "relaxed_optimal","optimal","lower_bound","plan","final","nodes","seconds","threads"}`.
pub fn json(repair: &Repair, info: RunInfo) -> String {
    let fields = json!({
        "n": repair.n,
        "moves": repair.moves,
        "relaxed": repair.relaxed,
        "relaxed_optimal": repair.relaxed_optimal,
        "optimal": repair.optimal,
        "lower_bound": repair.lower_bound,
        "plan": repair.plan,
        "final": repair.final_queens,
        "nodes": repair.nodes,
    });
    json_answer("repair", &fields, info)
}
