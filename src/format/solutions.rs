//! N-queens solutions drawn as text boards, JSON lines and SVG. A solution is given as its
//! columns, one per row (`columns[row] = col`).

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

/// A standalone SVG document drawing the boards in a grid (up to 6 per line), each captioned
/// with its 1-based index (`first_index` for the first board). Boards must all have the same
/// size; an empty list gives an empty drawing.
pub fn svg(boards: &[Vec<usize>], first_index: u64) -> String {
    let n = boards.first().map_or(1, |b| b.len().max(1));
    let cell = (320 / n).clamp(8, 40);
    let side = cell * n;
    let gap = 16;
    let caption = 18;
    let per_line = match boards.len() {
        0 => 1,
        k => k.min(6),
    };
    let lines = boards.len().div_ceil(per_line).max(1);
    let width = gap + per_line * (side + gap);
    let height = gap + lines * (side + caption + gap);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\">"
    );
    let _ = writeln!(
        out,
        "<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>"
    );
    for (k, columns) in boards.iter().enumerate() {
        let x0 = gap + (k % per_line) * (side + gap);
        let y0 = gap + (k / per_line) * (side + caption + gap);
        let _ = writeln!(out, "<g transform=\"translate({x0},{y0})\">");
        let _ = writeln!(
            out,
            "<rect width=\"{side}\" height=\"{side}\" fill=\"#f0d9b5\"/>"
        );
        for r in 0..n {
            for c in 0..n {
                if (r + c) % 2 == 1 {
                    let _ = writeln!(
                        out,
                        "<rect x=\"{}\" y=\"{}\" width=\"{cell}\" height=\"{cell}\" fill=\"#b58863\"/>",
                        c * cell,
                        r * cell
                    );
                }
            }
        }
        for (r, &c) in columns.iter().enumerate() {
            let cx = c * cell * 2 + cell;
            let cy = r * cell * 2 + cell;
            let _ = writeln!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#202020\" stroke=\"#ffffff\" stroke-width=\"1\"/>",
                cx as f64 / 2.0,
                cy as f64 / 2.0,
                cell as f64 * 0.35
            );
        }
        let _ = writeln!(
            out,
            "<rect width=\"{side}\" height=\"{side}\" fill=\"none\" stroke=\"#404040\" stroke-width=\"1\"/>"
        );
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"12\" text-anchor=\"middle\" fill=\"#202020\">#{}</text>",
            side / 2,
            side + 14,
            first_index + k as u64
        );
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
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

    #[test]
    fn svg_has_one_circle_per_queen_and_balanced_tags() {
        let boards = vec![vec![1, 3, 0, 2], vec![2, 0, 3, 1]];
        let doc = svg(&boards, 1);
        assert!(doc.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(doc.matches("<circle").count(), 8);
        assert_eq!(doc.matches("<g ").count(), doc.matches("</g>").count());
        assert!(doc.trim_end().ends_with("</svg>"));
    }
}
