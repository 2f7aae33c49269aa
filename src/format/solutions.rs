//! N-queens solutions drawn as text boards, JSON lines and SVG (the picture is drawn by
//! [`super::svg`]). A solution is given as its columns, one per row (`columns[row] = col`).

use std::fmt::Write;

/// The board as text: one line per row, `Q` for a queen and `.` for an empty square, each line
/// ending in a newline (the same shape `queens repair` reads).
pub fn board_text(columns: &[usize]) -> String {
    let n = columns.len();
    let mut out = String::with_capacity(n * (n + 1));
    for &col in columns {
        for c in 0..n {
            out.push(if c == col { 'Q' } else { '.' });
        }
        out.push('\n');
    }
    out
}

/// One JSON object on one line (no newline at the end):
/// `{"n":8,"index":1,"queens":[[0,0],[1,4],...]}`, the queens as `[row, column]` in row order.
pub fn json_line(index: u64, columns: &[usize]) -> String {
    let mut out = format!("{{\"n\":{},\"index\":{},\"queens\":[", columns.len(), index);
    for (row, &col) in columns.iter().enumerate() {
        if row > 0 {
            out.push(',');
        }
        let _ = write!(out, "[{row},{col}]");
    }
    out.push_str("]}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_json_shapes() {
        let s = vec![1, 3, 0, 2];
        assert_eq!(board_text(&s), ".Q..\n...Q\nQ...\n..Q.\n");
        assert_eq!(
            json_line(1, &s),
            r#"{"n":4,"index":1,"queens":[[0,1],[1,3],[2,0],[3,2]]}"#
        );
        let v: serde_json::Value = serde_json::from_str(&json_line(7, &s)).unwrap();
        assert_eq!(v["queens"][3], serde_json::json!([3, 2]));
    }
}
