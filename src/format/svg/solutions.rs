//! N-queens solutions as a grid of small boards.

use super::*;

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
