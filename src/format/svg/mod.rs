//! Every answer as a picture: self-contained SVG documents (no external references, no
//! scripts, no fonts beyond the generic `sans-serif`), drawn by pure functions.
//!
//! - [`weight`]: the numbers on the squares, shaded by value, and the queens.
//! - [`repair`]: the start board with the moves as numbered arrows, beside the final board.
//! - [`guard`]: the marked squares, the queens, and every square they cover shaded by how many
//!   queens cover it.
//! - [`solutions`]: N-queens solutions, a grid of small boards.
//! - [`complete`]: a completion, with the blocked squares and closed lines shaded.
//!
//! Each picture starts with a title line stating the value and whether it is proven. Boards
//! carry coordinates on their edges: files `a..` below and ranks `1..` on the left (rank 1 =
//! the last row, as in chess) on boards of at most 26 columns, 0-based row and column numbers
//! otherwise. Elements carry class names a program can count: `queen` on every queen, `mark` on
//! every marked square, `move` on every move arrow (with `id="move-K"`, K from 1), and each board
//! is a `<g class="board ...">`. Boards of 8 x 8 are drawn with large squares; squares shrink
//! for larger boards, and numbers on squares are left out above 24 x 24.

use crate::board::Square;
use crate::guard::{GuardSet, MarkGrid};
use crate::problem::{Position, WeightGrid};
use crate::repair::Repair;
use crate::weight::Placement;
use std::fmt::Write;

mod complete;
mod guard;
mod repair;
mod solutions;
mod weight;

pub use complete::complete;
pub use guard::guard;
pub use repair::repair;
pub use solutions::solutions;
pub use weight::weight;

/// The widest a single board is drawn, in pixels (before clamping the square size).
const BOARD_PIXELS: f64 = 480.0;
/// The largest and smallest square sizes, in pixels.
const MAX_CELL: f64 = 56.0;
const MIN_CELL: f64 = 6.0;
/// Above this many rows or columns, squares carry no numbers.
const MAX_NUMBERED_SIDE: usize = 24;
/// Space around everything, and the height of the title line.
const PAD: f64 = 12.0;
const TITLE: f64 = 28.0;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const INK: &str = "#1b1b1b";
const MOVE_COLORS: [&str; 6] = [
    "#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
];

/// The crown of a queen, in a 100 x 100 box: five points with balls, the body and a base bar.
const CROWN: &str = "M20 78L12 38L27 58L31 28L41 55L50 20L59 55L69 28L73 58L88 38L80 78Z\
M18 83H82V92H18Z\
M6 38a6 6 0 1 0 12 0a6 6 0 1 0-12 0Z\
M25 28a6 6 0 1 0 12 0a6 6 0 1 0-12 0Z\
M44 20a6 6 0 1 0 12 0a6 6 0 1 0-12 0Z\
M63 28a6 6 0 1 0 12 0a6 6 0 1 0-12 0Z\
M82 38a6 6 0 1 0 12 0a6 6 0 1 0-12 0Z";

/// A bolder crown with three points, for small squares where the detailed one blurs.
const SMALL_CROWN: &str = "M12 86L4 28L30 52L50 10L70 52L96 28L88 86Z";

/// How wide a digit (or a minus sign) of `sans-serif` is at most, as a fraction of the font size
/// (0.64 in DejaVu Sans, 0.56 in Arial and Liberation Sans).
const DIGIT_WIDTH: f64 = 0.64;
/// The part of a square's width a number may take.
const NUMBER_ROOM: f64 = 0.86;

/// The smallest square of a board that carries numbers, in pixels: room for a two-digit
/// number at 11 px.
const MIN_NUMBERED_CELL: f64 = 24.0;
/// The height of a square's number: this part of the square, up to [`NUMBER_PIXELS`] (and never
/// less than [`NUMBER_HEIGHT_MIN`] of the square), within the square's width.
const NUMBER_HEIGHT: f64 = 0.46;
const NUMBER_HEIGHT_MIN: f64 = 0.34;
const NUMBER_PIXELS: f64 = 18.0;

/// Squares smaller than this (in pixels) get the bolder crown.
const SMALL_QUEEN_CELL: f64 = 24.0;

/// A number for an SVG attribute: at most 2 decimals, no trailing zeros.
fn num(x: f64) -> String {
    let s = format!("{:.2}", x);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// A scale factor with up to 4 decimals, no trailing zeros.
fn scale_number(x: f64) -> String {
    let s = format!("{:.4}", x);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `text` with the XML special characters escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(ch),
        }
    }
    out
}

/// Where one board lies in the picture and how large its squares are.
#[derive(Clone, Copy, Debug)]
struct Frame {
    rows: usize,
    cols: usize,
    cell: f64,
    /// Top-left corner of square (0, 0).
    x: f64,
    y: f64,
    /// Whether coordinates are drawn around the board.
    labels: bool,
}

impl Frame {
    /// The square size for a board of `rows` x `cols` drawn at most `pixels` wide.
    /// Large boards get at least 16-pixel squares up to 40 x 40 (so that a 32 x 32 board stays
    /// legible), shrinking to 6 pixels at 107 x 107 and beyond.
    fn cell_for(rows: usize, cols: usize, pixels: f64) -> f64 {
        let side = rows.max(cols).max(1) as f64;
        let legible = (640.0 / side).floor().clamp(MIN_CELL, 16.0);
        (pixels / side)
            .floor()
            .max(legible)
            .clamp(MIN_CELL, MAX_CELL)
    }

    /// Room kept on the left of and below the board for coordinates.
    fn margin(cell: f64, labels: bool) -> f64 {
        if labels {
            (cell * 0.45).clamp(9.0, 16.0) + 8.0
        } else {
            0.0
        }
    }

    fn label_size(&self) -> f64 {
        (self.cell * 0.45).clamp(8.0, 15.0)
    }

    fn width(&self) -> f64 {
        self.cols as f64 * self.cell
    }

    fn height(&self) -> f64 {
        self.rows as f64 * self.cell
    }

    /// Width and height of the board with its coordinate margins.
    fn outer(&self) -> (f64, f64) {
        let m = Self::margin(self.cell, self.labels);
        (self.width() + m, self.height() + m)
    }

    /// The centre of `square`.
    fn centre(&self, s: Square) -> (f64, f64) {
        (
            self.x + (s.col as f64 + 0.5) * self.cell,
            self.y + (s.row as f64 + 0.5) * self.cell,
        )
    }

    fn corner(&self, s: Square) -> (f64, f64) {
        (
            self.x + s.col as f64 * self.cell,
            self.y + s.row as f64 * self.cell,
        )
    }

    fn numbered(&self) -> bool {
        self.rows.max(self.cols) <= MAX_NUMBERED_SIDE
    }
}

/// A picture under construction: the elements, and the size they need.
struct Picture {
    body: String,
    width: f64,
    height: f64,
    title: String,
}

impl Picture {
    fn new(title: String) -> Self {
        Picture {
            body: String::new(),
            width: 0.0,
            height: 0.0,
            title,
        }
    }

    /// The finished document.
    fn finish(self) -> String {
        let title_width = PAD * 2.0 + self.title.chars().count() as f64 * 8.6;
        let width = self.width.max(title_width).ceil();
        let height = self.height.ceil();
        let mut out = String::with_capacity(self.body.len() + 600);
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">",
            w = num(width),
            h = num(height)
        );
        let title = escape(&self.title);
        let _ = writeln!(out, "<title>{title}</title>");
        let _ = writeln!(
            out,
            "<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
            num(width),
            num(height)
        );
        let _ = writeln!(
            out,
            "<text class=\"title\" x=\"{}\" y=\"{}\" font-size=\"16\" font-weight=\"bold\" \
             fill=\"{INK}\">{title}</text>",
            num(PAD),
            num(PAD + 15.0)
        );
        out.push_str(&self.body);
        out.push_str("</svg>\n");
        out
    }
}

/// The plain board: checkered squares (or `fill(square)` when given), then a frame.
fn squares(out: &mut String, f: &Frame, fill: Option<&dyn Fn(Square) -> String>) {
    let _ = writeln!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{LIGHT}\"/>",
        num(f.x),
        num(f.y),
        num(f.width()),
        num(f.height())
    );
    for r in 0..f.rows {
        for c in 0..f.cols {
            let s = Square::new(r, c);
            let colour = match fill {
                Some(fill) => fill(s),
                None if (r + c) % 2 == 1 => DARK.to_string(),
                None => continue,
            };
            let (x, y) = f.corner(s);
            let _ = writeln!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{colour}\"/>",
                num(x),
                num(y),
                num(f.cell),
                num(f.cell)
            );
        }
    }
}

/// Thin lines between the squares, for boards whose squares are not checkered.
fn grid_lines(out: &mut String, f: &Frame) {
    let stroke = if f.cell >= 16.0 { 0.6 } else { 0.3 };
    let mut d = String::new();
    for r in 1..f.rows {
        let y = f.y + r as f64 * f.cell;
        let _ = write!(d, "M{} {}h{}", num(f.x), num(y), num(f.width()));
    }
    for c in 1..f.cols {
        let x = f.x + c as f64 * f.cell;
        let _ = write!(d, "M{} {}v{}", num(x), num(f.y), num(f.height()));
    }
    if !d.is_empty() {
        let _ = writeln!(
            out,
            "<path d=\"{d}\" stroke=\"#7a7a7a\" stroke-width=\"{stroke}\" fill=\"none\"/>"
        );
    }
}

/// The frame around the board and its coordinates: files `a..` below and ranks on the left on
/// boards of at most 26 columns, else 0-based column numbers below and row numbers on the left.
/// On boards with small squares only every k-th coordinate is written.
fn edges(out: &mut String, f: &Frame) {
    let _ = writeln!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#404040\" \
         stroke-width=\"1\"/>",
        num(f.x),
        num(f.y),
        num(f.width()),
        num(f.height())
    );
    if !f.labels {
        return;
    }
    let size = f.label_size();
    let chess = f.cols <= 26;
    // Write every coordinate when the labels fit in their square, else every 2nd, 5th, ...
    let step = [1usize, 2, 5, 10]
        .into_iter()
        .find(|&k| f.cell * k as f64 >= size * 1.9)
        .unwrap_or(10);
    let _ = writeln!(
        out,
        "<g class=\"coords\" font-size=\"{}\" fill=\"#505050\" text-anchor=\"middle\">",
        num(size)
    );
    for c in 0..f.cols {
        let name = if chess && c % step == 0 {
            ((b'a' + c as u8) as char).to_string()
        } else if !chess && c % step == 0 {
            c.to_string()
        } else {
            continue;
        };
        let x = f.x + (c as f64 + 0.5) * f.cell;
        let y = f.y + f.height() + size + 3.0;
        let _ = writeln!(out, "<text x=\"{}\" y=\"{}\">{name}</text>", num(x), num(y));
    }
    for r in 0..f.rows {
        let name = if chess {
            let rank = f.rows - r;
            if !(rank - 1).is_multiple_of(step) {
                continue;
            }
            rank.to_string()
        } else if r % step == 0 {
            r.to_string()
        } else {
            continue;
        };
        let x = f.x - 4.0;
        let y = f.y + (r as f64 + 0.5) * f.cell + size * 0.35;
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{name}</text>",
            num(x),
            num(y)
        );
    }
    out.push_str("</g>\n");
}

/// The queen standing on `square`, drawn `scale` of the square's size and centred at `(cx, cy)`
/// (for the weight board, a little above the square's centre). It carries `class="queen"` and
/// `data-square="row,col"`.
fn queen_at(out: &mut String, f: &Frame, square: Square, (cx, cy): (f64, f64), scale: f64) {
    let small = f.cell < SMALL_QUEEN_CELL;
    let size = f.cell
        * if f.cell < 10.0 {
            1.0
        } else if small {
            scale.max(0.8) + 0.08
        } else {
            scale
        };
    let k = size / 100.0;
    let (path, stroke) = if small {
        (SMALL_CROWN, 6.0)
    } else {
        (CROWN, 3.5)
    };
    let _ = writeln!(
        out,
        "<path class=\"queen\" data-square=\"{},{}\" transform=\"translate({} {}) scale({})\" \
         d=\"{path}\" fill=\"{INK}\" stroke=\"#ffffff\" stroke-width=\"{}\" \
         stroke-linejoin=\"round\"/>",
        square.row,
        square.col,
        num(cx - size / 2.0),
        num(cy - size / 2.0),
        scale_number(k),
        num(stroke)
    );
}

/// The queen on `s`, centred on its square.
fn queen(out: &mut String, f: &Frame, s: Square) {
    queen_at(out, f, s, f.centre(s), 0.82);
}

/// A board frame placed at `(x, y)` of the picture (the top-left of its coordinate margin).
fn frame_at(rows: usize, cols: usize, cell: f64, x: f64, y: f64, labels: bool) -> Frame {
    let m = Frame::margin(cell, labels);
    Frame {
        rows,
        cols,
        cell,
        x: x + m,
        y,
        labels,
    }
}

/// A caption centred above a board.
fn caption(out: &mut String, f: &Frame, text: &str) {
    let _ = writeln!(
        out,
        "<text class=\"caption\" x=\"{}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\" \
         fill=\"#303030\">{}</text>",
        num(f.x + f.width() / 2.0),
        num(f.y - 6.0),
        escape(text)
    );
}

/// The `i`-th of `k` colours between a pale and a strong one, for weights: `t` in 0..=1.
fn ramp(t: f64) -> String {
    let t = t.clamp(0.0, 1.0);
    // From a pale cream (low) through orange to a deep red (high).
    let stops = [
        (0.0, (255.0, 250.0, 235.0)),
        (0.5, (253.0, 187.0, 132.0)),
        (1.0, (215.0, 48.0, 31.0)),
    ];
    let (a, b) = if t <= 0.5 {
        (stops[0], stops[1])
    } else {
        (stops[1], stops[2])
    };
    let u = (t - a.0) / (b.0 - a.0);
    let mix = |p: f64, q: f64| (p + (q - p) * u).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.1 .0, b.1 .0),
        mix(a.1 .1, b.1 .1),
        mix(a.1 .2, b.1 .2)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(1.239), "1.24");
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }

    #[test]
    fn the_colour_ramp_runs_from_pale_to_deep() {
        assert_eq!(ramp(0.0), "#fffaeb");
        assert_eq!(ramp(1.0), "#d7301f");
        assert_eq!(ramp(7.0), ramp(1.0));
    }

    #[test]
    fn one_queen_per_solution_row() {
        let doc = solutions(&[vec![1, 3, 0, 2], vec![2, 0, 3, 1]], 1);
        assert_eq!(doc.matches("class=\"queen\"").count(), 8);
        assert_eq!(doc.matches("<g ").count(), doc.matches("</g>").count());
        assert!(doc.trim_end().ends_with("</svg>"));
    }
}
