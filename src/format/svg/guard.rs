//! The guard picture: the marked squares, the queens, and every square they cover shaded by
//! how many queens cover it, with its legend.

use super::*;

/// Every square on a line of `queen` (its own square included).
fn covers(queen: Square, s: Square) -> bool {
    queen.row == s.row
        || queen.col == s.col
        || queen.row + s.col == s.row + queen.col
        || queen.row + queen.col == s.row + s.col
}

/// A guard answer: the squares covered by the queens shaded green, darker where more queens
/// cover them; the marked squares with a small cross in a corner; the queens. Title: "G queens guard the M marked
/// squares (proven optimal)" or "(best found; at least L needed)".
pub fn guard(marks: &MarkGrid, guards: &GuardSet) -> String {
    let (rows, cols) = (marks.rows, marks.cols);
    let marked = marks.marked.iter().filter(|&&m| m).count();
    let count = guards.queens.len();
    let status = if guards.optimal {
        "proven optimal".to_string()
    } else {
        format!("best found; at least {} needed", guards.lower_bound)
    };
    let kind = if guards.independent {
        " non-attacking"
    } else {
        ""
    };
    let mut pic = Picture::new(format!(
        "guard {rows}x{cols}: {count}{kind} queen{} guard{} {marked} marked square{} ({status})",
        if count == 1 { "" } else { "s" },
        if count == 1 { "s" } else { "" },
        if marked == 1 { "" } else { "s" },
    ));
    let cell = Frame::cell_for(rows, cols, BOARD_PIXELS);
    let f = frame_at(rows, cols, cell, PAD, PAD + TITLE, true);
    let coverage = |s: Square| guards.queens.iter().filter(|&&q| covers(q, s)).count();
    let most = (0..rows * cols)
        .map(|i| coverage(Square::new(i / cols.max(1), i % cols.max(1))))
        .max()
        .unwrap_or(0)
        .max(1);
    // One flat colour per coverage (no checkerboard tint on covered squares, which would blur
    // the levels); the uncovered squares a faint grey checkerboard.
    let fill = |s: Square| match coverage(s) {
        0 if (s.row + s.col) % 2 == 1 => "#e4e4e4".to_string(),
        0 => "#f6f6f6".to_string(),
        k => coverage_colour(k, most),
    };
    let body = &mut pic.body;
    body.push_str("<g class=\"board guard\">\n");
    squares(body, &f, Some(&fill));
    grid_lines(body, &f);
    // A mark is a small cross in the top-right corner of its square, clear of a queen there.
    // Where most squares are marked the marks tell little and are drawn faint and thin, so that
    // the coverage shading stays readable; also on small squares, where thousands of them would
    // drown the queens.
    let marked_share = marked as f64 / (rows * cols).max(1) as f64;
    let crowded = marked_share > 0.5;
    let width = (cell * 0.05).clamp(0.6, 2.2) * if crowded { 0.6 } else { 1.0 };
    let faint = if crowded {
        " opacity=\"0.35\""
    } else if cell < 16.0 {
        " opacity=\"0.45\""
    } else {
        ""
    };
    let size = cell * if crowded { 0.14 } else { 0.2 };
    let inset = cell * 0.07;
    for r in 0..rows {
        for c in 0..cols {
            if !marks.is_marked(r, c) {
                continue;
            }
            let (x, y) = f.corner(Square::new(r, c));
            let (x0, y0) = (x + cell - inset - size, y + inset);
            let _ = writeln!(
                body,
                "<path class=\"mark\" data-square=\"{r},{c}\" d=\"M{} {}l{} {}m0 -{}l-{} {}\" stroke=\"#3c3c3c\" \
                 stroke-width=\"{}\" stroke-linecap=\"round\"{faint}/>",
                num(x0),
                num(y0),
                num(size),
                num(size),
                num(size),
                num(size),
                num(size),
                num(width)
            );
        }
    }
    edges(body, &f);
    for &q in &guards.queens {
        queen(body, &f, q);
    }
    body.push_str("</g>\n");
    let (w, h) = f.outer();
    let levels = if guards.queens.is_empty() { 0 } else { most };
    let legend_height = coverage_legend(body, levels, PAD, PAD + TITLE + h + 10.0);
    pic.width = PAD + w + PAD;
    pic.height = PAD + TITLE + h + legend_height + PAD;
    pic.finish()
}

/// The colour of a square covered by `k` of the queens (1 <= k <= `most`): from a pale green
/// (one queen) to a deep green (the most), evenly spaced in lightness so that neighbouring
/// levels differ clearly.
fn coverage_colour(k: usize, most: usize) -> String {
    let t = if most > 1 {
        (k.clamp(1, most) - 1) as f64 / (most - 1) as f64
    } else {
        0.0
    };
    let pale = (214.0, 239.0, 205.0);
    let deep = (27.0, 110.0, 45.0);
    let mix = |p: f64, q: f64| (p + (q - p) * t).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(pale.0, deep.0),
        mix(pale.1, deep.1),
        mix(pale.2, deep.2)
    )
}

/// The key of the coverage shading below a guard board: one swatch per number of covering queens
/// from 1 to `most` (at most 12 written; beyond, the ends and the middle), in a `<g
/// class="legend">`. Returns the height it takes (0 when `most` is 0).
fn coverage_legend(out: &mut String, most: usize, x: f64, y: f64) -> f64 {
    if most == 0 {
        return 0.0;
    }
    let shown: Vec<usize> = if most <= 12 {
        (1..=most).collect()
    } else {
        vec![1, most.div_ceil(2), most]
    };
    let swatch = 18.0;
    let _ = writeln!(
        out,
        "<g class=\"legend\" font-size=\"12\" fill=\"#303030\">"
    );
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\">covered by</text>",
        num(x),
        num(y + swatch * 0.7)
    );
    let mut at = x + 72.0;
    for k in shown {
        let _ = writeln!(
            out,
            "<rect class=\"level\" data-level=\"{k}\" x=\"{}\" y=\"{}\" width=\"{}\" \
             height=\"{}\" fill=\"{}\" stroke=\"#7a7a7a\" stroke-width=\"0.6\"/>",
            num(at),
            num(y),
            num(swatch),
            num(swatch),
            coverage_colour(k, most)
        );
        let dark = k > 1 && (k - 1) * 2 >= most;
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{}\">{k}</text>",
            num(at + swatch / 2.0),
            num(y + swatch * 0.7),
            if dark { "#ffffff" } else { "#303030" }
        );
        at += swatch + 4.0;
    }
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\">{}</text>",
        num(at + 2.0),
        num(y + swatch * 0.7),
        if most == 1 { "queen" } else { "queens" }
    );
    out.push_str("</g>\n");
    swatch + 10.0
}
