//! The repair picture: the start board with the moves as numbered arrows (side by side where
//! they share a line), beside the final board.

use super::*;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
