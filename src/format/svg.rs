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

/// The move numbers of a repair picture: their elements, drawn after every arrow (and so over
/// the queens), where their discs are, and the queens' boxes they keep clear of.
struct Numbers {
    svg: String,
    taken: Vec<(f64, f64)>,
    /// The squares of the start position's queens.
    queens: Vec<Square>,
}

/// How far a queen's crown reaches from its square's centre, as a fraction of the square
/// (the crown drawn by [`queen`] on a square of `cell` pixels; a little more than it covers).
fn crown_reach(cell: f64) -> f64 {
    if cell < 10.0 {
        0.5
    } else if cell < SMALL_QUEEN_CELL {
        0.46
    } else {
        0.4
    }
}

/// The distance from `(x, y)` to the nearest point of the crown on `square` (0 inside it).
fn distance_to_crown(f: &Frame, square: Square, (x, y): (f64, f64)) -> f64 {
    let (cx, cy) = f.centre(square);
    let reach = crown_reach(f.cell) * f.cell;
    let dx = ((x - cx).abs() - reach).max(0.0);
    let dy = ((y - cy).abs() - reach).max(0.0);
    (dx * dx + dy * dy).sqrt()
}

/// A straight arrow numbered `k` from beside the queen on `from` to a ring on `to`. The shaft
/// starts at the edge of the queen's crown (so that a one-square move shows its whole length
/// outside the queen) and has a white halo, so that it reads on dark squares. The number, written
/// to `numbers` (drawn after every arrow), sits on a disc on the shaft where it keeps clear of
/// every queen and of the numbers already placed, else beside the shaft, else on the nearest free
/// square. `lane` shifts the arrow sideways (see [`lanes`]).
fn arrow(
    out: &mut String,
    f: &Frame,
    k: usize,
    (from, to): (Square, Square),
    colour: &str,
    lane: i32,
    numbers: &mut Numbers,
) {
    let (x1, y1) = f.centre(from);
    let (x2, y2) = f.centre(to);
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / len, dy / len);
    let width = (f.cell * 0.09).clamp(1.0, 5.0);
    // Arrows that share a stretch of line with an earlier one run beside it, in their own lane.
    // Sideways from the line, not from the move, so that moves along it either way share lanes.
    let side = f64::from(lane) * (width * 2.2).min(f.cell * 0.16);
    let forward = if (from.row, from.col) < (to.row, to.col) {
        1.0
    } else {
        -1.0
    };
    let (ox, oy) = (-uy * side * forward, ux * side * forward);
    // From the edge of the queen (a ring's width into the square for tiny squares) ...
    let gap = (crown_reach(f.cell) * f.cell * 0.75).min(len * 0.3);
    let (sx, sy) = (x1 + ux * gap + ox, y1 + uy * gap + oy);
    // ... to a little short of the target's centre, inside its ring.
    let tip = (f.cell * 0.12).min(len * 0.15);
    let (tx, ty) = (x2 - ux * tip + ox, y2 - uy * tip + oy);
    let reach = len - gap - tip;
    let head = (width * 3.2).max(5.0).min(reach * 0.55);
    let (bx, by) = (tx - ux * head, ty - uy * head);
    let (px, py) = (-uy * head * 0.5, ux * head * 0.5);
    let ring = (f.cell * 0.2).max(2.5);
    let halo = width + (width * 0.6).clamp(1.0, 2.5);
    let _ = writeln!(
        out,
        "<g class=\"move\" id=\"move-{k}\" data-from=\"{},{}\" data-to=\"{},{}\">",
        from.row, from.col, to.row, to.col
    );
    let _ = writeln!(
        out,
        "<circle class=\"landing\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{colour}\" \
         stroke-width=\"{}\" opacity=\"0.9\"/>",
        num(x2 + ox),
        num(y2 + oy),
        num(ring),
        num((width * 0.55).max(0.8))
    );
    let _ = writeln!(
        out,
        "<path d=\"M{} {}L{} {}\" stroke=\"#ffffff\" stroke-width=\"{}\" stroke-linecap=\"round\" \
         opacity=\"0.75\"/>",
        num(sx),
        num(sy),
        num(bx),
        num(by),
        num(halo)
    );
    let _ = writeln!(
        out,
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\" stroke-width=\"{}\" \
         stroke-linecap=\"round\"/>",
        num(sx),
        num(sy),
        num(bx),
        num(by),
        num(width)
    );
    let _ = writeln!(
        out,
        "<polygon points=\"{},{} {},{} {},{}\" fill=\"{colour}\" stroke=\"#ffffff\" \
         stroke-width=\"{}\" stroke-linejoin=\"round\" paint-order=\"stroke\"/>",
        num(tx),
        num(ty),
        num(bx + px),
        num(by + py),
        num(bx - px),
        num(by - py),
        num((width * 0.5).max(0.8))
    );
    out.push_str("</g>\n");

    let radius = (f.cell * 0.2).clamp(6.0, 11.0);
    let (nx, ny) = badge_place(f, numbers, radius, (sx, sy), (bx, by), (from, to));
    numbers.taken.push((nx, ny));
    let labels = &mut numbers.svg;
    let _ = writeln!(labels, "<g class=\"move-number\" id=\"move-number-{k}\">");
    let _ = writeln!(
        labels,
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#ffffff\" stroke=\"{colour}\" \
         stroke-width=\"{}\"/>",
        num(nx),
        num(ny),
        num(radius),
        num((width * 0.5).max(0.8))
    );
    let size = radius
        * if k >= 100 {
            0.85
        } else if k >= 10 {
            1.05
        } else {
            1.25
        };
    let _ = writeln!(
        labels,
        "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" text-anchor=\"middle\" \
         fill=\"{colour}\">{k}</text>",
        num(nx),
        num(ny + size * 0.36),
        num(size)
    );
    labels.push_str("</g>\n");
}

/// Where the number of the arrow from `(sx, sy)` to `(bx, by)` (its shaft) goes: the first
/// place whose disc of `radius` keeps clear of every queen's crown, stays on the board and keeps
/// clear of the numbers placed before: on the shaft, then beside it, then the free squares
/// (neither end of the move) nearest the shaft's middle; failing all, the first place on the
/// shaft clear of the other numbers, or the shaft's middle.
fn badge_place(
    f: &Frame,
    numbers: &Numbers,
    radius: f64,
    (sx, sy): (f64, f64),
    (bx, by): (f64, f64),
    (from, to): (Square, Square),
) -> (f64, f64) {
    let along = |t: f64| (sx + (bx - sx) * t, sy + (by - sy) * t);
    let (dx, dy) = (bx - sx, by - sy);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (nx, ny) = (-dy / len, dx / len);
    let beside = radius * 1.4;
    let mut places: Vec<(f64, f64)> = [0.5, 0.35, 0.65, 0.2, 0.8].into_iter().map(along).collect();
    for t in [0.5, 0.3, 0.7] {
        let (x, y) = along(t);
        places.push((x + nx * beside, y + ny * beside));
        places.push((x - nx * beside, y - ny * beside));
    }
    let (mx, my) = along(0.5);
    let mut free: Vec<(f64, (f64, f64))> = (0..f.rows)
        .flat_map(|r| (0..f.cols).map(move |c| Square::new(r, c)))
        .filter(|&s| s != from && s != to && !numbers.queens.contains(&s))
        .map(|s| {
            let (x, y) = f.centre(s);
            ((x - mx).powi(2) + (y - my).powi(2), (x, y))
        })
        .collect();
    free.sort_by(|a, b| a.0.total_cmp(&b.0));
    let clear_of_numbers = |p: (f64, f64)| {
        numbers
            .taken
            .iter()
            .all(|q| (p.0 - q.0).powi(2) + (p.1 - q.1).powi(2) >= (2.1 * radius).powi(2))
    };
    let on_board = |p: (f64, f64)| {
        p.0 >= f.x + radius * 0.5
            && p.0 <= f.x + f.width() - radius * 0.5
            && p.1 >= f.y + radius * 0.5
            && p.1 <= f.y + f.height() - radius * 0.5
    };
    let clear_of_queens = |p: (f64, f64)| {
        numbers
            .queens
            .iter()
            .all(|&q| distance_to_crown(f, q, p) >= radius)
    };
    places
        .iter()
        .copied()
        .chain(free.into_iter().map(|(_, p)| p))
        .find(|&p| clear_of_queens(p) && on_board(p) && clear_of_numbers(p))
        .or_else(|| places.iter().copied().find(|&p| clear_of_numbers(p)))
        .unwrap_or((mx, my))
}

/// The line a move runs along (0 row, 1 column, 2 diagonal, 3 anti-diagonal, with its index)
/// and the stretch of it the move covers.
fn line_of(mv: &crate::problem::Move) -> ((u8, isize), (usize, usize)) {
    let (a, b) = (mv.from, mv.to);
    let span = |p: usize, q: usize| (p.min(q), p.max(q));
    if a.row == b.row {
        ((0, a.row as isize), span(a.col, b.col))
    } else if a.col == b.col {
        ((1, a.col as isize), span(a.row, b.row))
    } else if a.row + b.col == b.row + a.col {
        ((2, a.row as isize - a.col as isize), span(a.row, b.row))
    } else {
        ((3, (a.row + a.col) as isize), span(a.row, b.row))
    }
}

/// The lane of each move's arrow: 0, or when earlier moves share a stretch of the same line,
/// the first of 1, -1, 2, -2, ... that none of those uses, so that no two arrows lie on top of
/// each other.
fn lanes(plan: &[crate::problem::Move]) -> Vec<i32> {
    let mut lanes: Vec<i32> = Vec::with_capacity(plan.len());
    for (i, mv) in plan.iter().enumerate() {
        let (line, (lo, hi)) = line_of(mv);
        let used: Vec<i32> = plan[..i]
            .iter()
            .zip(&lanes)
            .filter(|(earlier, _)| {
                let (l, (a, b)) = line_of(earlier);
                l == line && a.max(lo) < b.min(hi)
            })
            .map(|(_, &lane)| lane)
            .collect();
        let lane = (0..)
            .map(|k: i32| if k % 2 == 1 { (k + 1) / 2 } else { -k / 2 })
            .find(|lane| !used.contains(lane))
            .unwrap_or(0);
        lanes.push(lane);
    }
    lanes
}

/// A repair plan: the start position with every move drawn as a numbered arrow (in the order
/// of the plan; a queen that moves twice gets two arrows), beside the final position, whose
/// squares that the plan filled are tinted. Title: "K moves (proven optimal)" or "K moves (best
/// found; at least L needed)", and the relaxed count.
pub fn repair(position: &Position, plan: &Repair) -> String {
    let n = plan.n;
    let plural = |k: usize| if k == 1 { "" } else { "s" };
    let status = if plan.optimal {
        "proven optimal".to_string()
    } else {
        format!("best found; at least {} needed", plan.lower_bound)
    };
    let mut pic = Picture::new(format!(
        "repair {n}x{n}: {} move{} ({status}); relaxed {}",
        plan.moves,
        plural(plan.moves),
        plan.relaxed
    ));
    let cell = Frame::cell_for(n, n, BOARD_PIXELS * 0.8);
    let caption_room = 20.0;
    let left = frame_at(n, n, cell, PAD, PAD + TITLE + caption_room, true);
    let (w, h) = left.outer();
    let right = frame_at(n, n, cell, PAD + w + 28.0, PAD + TITLE + caption_room, true);
    let body = &mut pic.body;

    body.push_str("<g class=\"board start\">\n");
    caption(body, &left, "start, with the moves");
    squares(body, &left, None);
    edges(body, &left);
    for &s in &position.queens {
        queen(body, &left, s);
    }
    let mut numbers = Numbers {
        svg: String::new(),
        taken: Vec::new(),
        queens: position.queens.clone(),
    };
    let lanes = lanes(&plan.plan);
    for (i, (mv, &lane)) in plan.plan.iter().zip(&lanes).enumerate() {
        let colour = MOVE_COLORS[i % MOVE_COLORS.len()];
        arrow(
            body,
            &left,
            i + 1,
            (mv.from, mv.to),
            colour,
            lane,
            &mut numbers,
        );
    }
    body.push_str(&numbers.svg);
    body.push_str("</g>\n");

    body.push_str("<g class=\"board final\">\n");
    caption(body, &right, "after");
    squares(body, &right, None);
    for &s in &plan.final_queens {
        if !position.queens.contains(&s) {
            let (x, y) = right.corner(s);
            let _ = writeln!(
                body,
                "<rect class=\"arrived\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" \
                 fill=\"#7fc97f\" opacity=\"0.7\"/>",
                num(x),
                num(y),
                num(cell),
                num(cell)
            );
        }
    }
    edges(body, &right);
    for &s in &plan.final_queens {
        queen(body, &right, s);
    }
    body.push_str("</g>\n");

    let (w2, _) = right.outer();
    pic.width = PAD + w + 28.0 + w2 + PAD;
    pic.height = PAD + TITLE + caption_room + h + PAD;
    pic.finish()
}

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

/// N-queens solutions (each given as its columns, `columns[row] = col`) drawn in a grid of
/// boards, up to 6 a line, each captioned with its 1-based index (`first_index` for the first).
/// Boards must all have the same size; an empty list gives a picture with its title only.
pub fn solutions(boards: &[Vec<usize>], first_index: u64) -> String {
    let n = boards.first().map_or(1, |b| b.len().max(1));
    let title = match boards.len() {
        1 => format!("{n}-queens: solution {first_index}"),
        k => format!(
            "{n}-queens: {k} solutions, {first_index} to {}",
            first_index + k.max(1) as u64 - 1
        ),
    };
    let mut pic = Picture::new(title);
    let single = boards.len() == 1;
    let cell = if single {
        Frame::cell_for(n, n, BOARD_PIXELS)
    } else {
        Frame::cell_for(n, n, 240.0).min(30.0)
    };
    let labels = single || cell >= 14.0;
    let probe = frame_at(n, n, cell, 0.0, 0.0, labels);
    let (w, h) = probe.outer();
    let gap = 18.0;
    let caption_room = 18.0;
    let per_line = boards.len().clamp(1, 6);
    let lines = boards.len().div_ceil(per_line).max(1);
    let body = &mut pic.body;
    for (k, columns) in boards.iter().enumerate() {
        let x = PAD + (k % per_line) as f64 * (w + gap);
        let y = PAD + TITLE + caption_room + (k / per_line) as f64 * (h + caption_room + gap);
        let f = frame_at(n, n, cell, x, y, labels);
        let _ = writeln!(
            body,
            "<g class=\"board solution\" id=\"solution-{}\">",
            first_index + k as u64
        );
        caption(body, &f, &format!("#{}", first_index + k as u64));
        squares(body, &f, None);
        edges(body, &f);
        for (row, &col) in columns.iter().enumerate() {
            queen(body, &f, Square::new(row, col));
        }
        body.push_str("</g>\n");
    }
    pic.width = PAD + per_line as f64 * (w + gap) - gap + PAD;
    pic.height = PAD + TITLE + lines as f64 * (h + caption_room + gap) - gap + PAD;
    pic.finish()
}

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
    fn overlapping_moves_on_one_line_get_their_own_lanes() {
        let mv = |a: (usize, usize), b: (usize, usize)| crate::problem::Move {
            from: Square::new(a.0, a.1),
            to: Square::new(b.0, b.1),
        };
        let plan = [
            mv((6, 6), (3, 6)),
            mv((7, 7), (6, 6)),
            mv((6, 6), (4, 6)),
            mv((5, 6), (0, 6)),
            mv((3, 0), (3, 5)),
        ];
        // The third and fourth share column 6 with the first (and each other); the last is alone.
        assert_eq!(lanes(&plan), [0, 0, 1, -1, 0]);
        // A move that shares a stretch only with one in lane 1 takes lane 0, not lane 1.
        let chain = [mv((0, 7), (4, 7)), mv((2, 7), (6, 7)), mv((5, 7), (7, 7))];
        assert_eq!(lanes(&chain), [0, 1, 0]);
    }

    #[test]
    fn one_queen_per_solution_row() {
        let doc = solutions(&[vec![1, 3, 0, 2], vec![2, 0, 3, 1]], 1);
        assert_eq!(doc.matches("class=\"queen\"").count(), 8);
        assert_eq!(doc.matches("<g ").count(), doc.matches("</g>").count());
        assert!(doc.trim_end().ends_with("</svg>"));
    }
}
