//! A completion, with the blocked squares and closed lines shaded.

use super::*;

/// A completion answer: the board with its blocked squares dark grey and the squares of
/// closed diagonals, rows and columns tinted red, the given queens (in `<g class="given">`)
/// and the queens of the completion, if any. Title: "complete NxN: a completion, G given, P
/// placed" or "no completion (proven)" or "(not proven: stopped)".
pub fn complete(
    board: &crate::problem::PartialBoard,
    queens: Option<&[Square]>,
    stopped: bool,
) -> String {
    let n = board.n;
    let given = board.queens.len();
    let title = match queens {
        Some(q) => format!(
            "complete {n}x{n}: a completion, {given} given, {} placed",
            q.len() - given
        ),
        None if stopped => format!("complete {n}x{n}: no completion found (not proven: stopped)"),
        None => format!("complete {n}x{n}: no completion (proven)"),
    };
    let mut pic = Picture::new(title);
    let cell = Frame::cell_for(n, n, BOARD_PIXELS);
    let f = frame_at(n, n, cell, PAD, PAD + TITLE, true);
    let closed = |s: Square| {
        board.closed_sums.contains(&(s.row + s.col))
            || board.closed_differences.contains(&(s.row + n - 1 - s.col))
            || board.closed_rows.contains(&s.row)
            || board.closed_cols.contains(&s.col)
    };
    let fill = |s: Square| {
        let dark = (s.row + s.col) % 2 == 1;
        if board.is_blocked(s.row, s.col) {
            "#6b6b6b".to_string()
        } else if closed(s) {
            if dark { "#d98b7e" } else { "#f2c2b8" }.to_string()
        } else if dark {
            DARK.to_string()
        } else {
            LIGHT.to_string()
        }
    };
    let body = &mut pic.body;
    body.push_str("<g class=\"board complete\">\n");
    squares(body, &f, Some(&fill));
    edges(body, &f);
    body.push_str("<g class=\"given\">\n");
    for &q in &board.queens {
        queen(body, &f, q);
    }
    body.push_str("</g>\n");
    for &q in queens.unwrap_or(&[]) {
        if !board.queens.contains(&q) {
            queen(body, &f, q);
        }
    }
    body.push_str("</g>\n");
    let (w, h) = f.outer();
    pic.width = PAD + w + PAD;
    pic.height = PAD + TITLE + h + PAD;
    pic.finish()
}
