//! The weight picture: the numbers on the squares, shaded by value, and the queens.

use super::*;

/// The best-sum placement on its weight grid: the numbers on the squares (up to 24 x 24),
/// each square shaded by its value (pale low, deep red high), the queens' squares outlined, and
/// the title "best sum S (proven optimal)" or "best sum S (best found; upper bound B)" ("smallest
/// sum" and "lower bound" when minimised).
pub fn weight(grid: &WeightGrid, placement: &Placement) -> String {
    let n = grid.n;
    let status = if placement.optimal {
        "proven optimal".to_string()
    } else {
        format!(
            "best found; {} {}",
            placement.sense.bound_label(),
            placement.bound
        )
    };
    let mut pic = Picture::new(format!(
        "weight {n}x{n}: {} {} ({status})",
        placement.sense.sum_label(),
        placement.sum
    ));
    let mut cell = Frame::cell_for(n, n, BOARD_PIXELS);
    if n <= MAX_NUMBERED_SIDE {
        cell = cell.max(MIN_NUMBERED_CELL);
    }
    let f = frame_at(n, n, cell, PAD, PAD + TITLE, true);
    let (lo, hi) = grid
        .cells
        .iter()
        .fold((i64::MAX, i64::MIN), |(lo, hi), &w| (lo.min(w), hi.max(w)));
    let shade = |s: Square| -> f64 {
        if hi <= lo {
            0.35
        } else {
            (grid.get(s.row, s.col) as f64 - lo as f64) / (hi as f64 - lo as f64)
        }
    };
    let body = &mut pic.body;
    body.push_str("<g class=\"board weight\">\n");
    // On tiny squares the colours are paler, so that the queens stand out.
    let strength = if cell < 10.0 { 0.55 } else { 1.0 };
    let fill = |s: Square| ramp(shade(s) * strength);
    squares(body, &f, Some(&fill));
    grid_lines(body, &f);
    let is_queen = |s: Square| placement.queens.contains(&s);
    if f.numbered() {
        let longest = grid
            .cells
            .iter()
            .map(|w| w.to_string().len())
            .max()
            .unwrap_or(1) as f64;
        // The longest number fits its square: a digit is at most 0.64 of the font size wide.
        let height = (cell * NUMBER_HEIGHT)
            .min(NUMBER_PIXELS)
            .max(cell * NUMBER_HEIGHT_MIN);
        let size = height.min(cell * NUMBER_ROOM / (longest.max(1.0) * DIGIT_WIDTH));
        if size >= 4.0 {
            let _ = writeln!(
                body,
                "<g class=\"weights\" font-size=\"{}\" text-anchor=\"middle\">",
                num(size)
            );
            for r in 0..n {
                for c in 0..n {
                    let s = Square::new(r, c);
                    let (cx, cy) = f.centre(s);
                    let (y, size_attr) = if is_queen(s) {
                        // Under the queen, small, at the bottom of the square.
                        let small = size.min(cell * 0.29);
                        (
                            cy + cell * 0.5 - small * 0.3,
                            format!(" font-size=\"{}\" font-weight=\"bold\"", num(small)),
                        )
                    } else {
                        (cy + size * 0.36, String::new())
                    };
                    let colour = if shade(s) > 0.62 {
                        "#ffffff"
                    } else {
                        "#333333"
                    };
                    let _ = writeln!(
                        body,
                        "<text x=\"{}\" y=\"{}\" fill=\"{colour}\"{size_attr}>{}</text>",
                        num(cx),
                        num(y),
                        grid.get(r, c)
                    );
                }
            }
            body.push_str("</g>\n");
        }
    }
    let numbers = f.numbered();
    for &s in &placement.queens {
        let (x, y) = f.corner(s);
        let inset = (cell * 0.05).max(1.0);
        let _ = writeln!(
            body,
            "<rect class=\"chosen\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" \
             stroke=\"{INK}\" stroke-width=\"{}\"/>",
            num(x + inset / 2.0),
            num(y + inset / 2.0),
            num(cell - inset),
            num(cell - inset),
            num(inset)
        );
        let (cx, cy) = f.centre(s);
        if numbers {
            queen_at(body, &f, s, (cx, cy - cell * 0.12), 0.62);
        } else {
            queen(body, &f, s);
        }
    }
    edges(body, &f);
    body.push_str("</g>\n");
    let (w, h) = f.outer();
    pic.width = PAD + w + PAD;
    pic.height = PAD + TITLE + h + PAD;
    pic.finish()
}
