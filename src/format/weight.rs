//! Output of `queens weight`: the board with its queens, the sum and its proof status, as text
//! or as the JSON object of the command-line contract.

use super::{json_answer, text_board, RunInfo};
use crate::board::Square;
use crate::problem::WeightGrid;
use crate::weight::Placement;
use serde::Serialize;

/// The text answer: the board (`Q` a queen, `.` empty), the queens, each queen's weight in
/// `grid`, the sum, and "proven optimal" or the proven bound (upper when maximised, lower when
/// minimised) with the gap.
pub fn text(grid: &WeightGrid, placement: &Placement) -> String {
    let n = placement.n;
    let mut out = text_board(n, n, |s| {
        if placement.queens.get(s.row).is_some_and(|q| q.col == s.col) {
            'Q'
        } else {
            '.'
        }
    });
    let columns: Vec<String> = placement
        .queens
        .iter()
        .map(|q| format!("[{},{}]", q.row, q.col))
        .collect();
    out.push_str(&format!("queens: {}\n", columns.join(" ")));
    // Each queen's weight, in the order above, adding up to the sum.
    let weights: Vec<String> = placement
        .queens
        .iter()
        .map(|q| match grid.cells.get(q.row * grid.n + q.col) {
            Some(w) if *w < 0 => format!("({w})"),
            Some(w) => w.to_string(),
            None => "?".to_string(),
        })
        .collect();
    out.push_str(&format!(
        "weights: {} = {}\n",
        weights.join(" + "),
        placement.sum
    ));
    let label = placement.sense.sum_label();
    if placement.optimal {
        out.push_str(&format!("{label}: {} (proven optimal)\n", placement.sum));
    } else {
        out.push_str(&format!(
            "{label}: {} (best found, {} {} (gap {:.2}%))\n",
            placement.sum,
            placement.sense.bound_label(),
            placement.bound,
            placement.gap_percent()
        ));
    }
    out
}

/// The JSON answer on one line: `{"problem":"weight","n","sum","queens","optimal","bound",
/// "sense","nodes","seconds","threads"}`; `"sense"` is `"max"` (the bound is an upper bound) or
/// `"min"` (a lower bound). Sums are written exactly, however large.
pub fn json(placement: &Placement, info: RunInfo) -> String {
    #[derive(Serialize)]
    struct Fields<'a> {
        n: usize,
        sum: i128,
        queens: &'a [Square],
        optimal: bool,
        bound: i128,
        sense: &'static str,
        nodes: u64,
    }
    let fields = Fields {
        n: placement.n,
        sum: placement.sum,
        queens: &placement.queens,
        optimal: placement.optimal,
        bound: placement.bound,
        sense: placement.sense.name(),
        nodes: placement.nodes,
    };
    json_answer("weight", &fields, info)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(optimal: bool) -> Placement {
        Placement {
            n: 4,
            sum: 10,
            queens: vec![
                Square::new(0, 1),
                Square::new(1, 3),
                Square::new(2, 0),
                Square::new(3, 2),
            ],
            optimal,
            bound: if optimal { 10 } else { 12 },
            nodes: 3,
            cancelled: false,
            sense: crate::weight::Sense::Max,
        }
    }

    /// A grid under `sample`'s queens: 1, 2, 3, 4 on them (row by row), -5 elsewhere.
    fn grid() -> WeightGrid {
        let mut cells = vec![-5; 16];
        for (k, (r, c)) in [(0, 1), (1, 3), (2, 0), (3, 2)].into_iter().enumerate() {
            cells[r * 4 + c] = k as i64 + 1;
        }
        WeightGrid { n: 4, cells }
    }

    #[test]
    fn text_draws_the_board() {
        let text = text(&grid(), &sample(true));
        assert!(text.starts_with(".Q..\n...Q\nQ...\n..Q.\n"));
        assert!(text.contains("best sum: 10 (proven optimal)"));
        assert!(text.contains("\nweights: 1 + 2 + 3 + 4 = 10\n"), "{text}");
        assert!(super::text(&grid(), &sample(false)).contains("upper bound 12 (gap 16.67%)"));
    }

    #[test]
    fn minimised_answers_say_smallest_and_lower_bound() {
        let mut p = sample(false);
        p.sense = crate::weight::Sense::Min;
        p.bound = 8;
        let text = text(&grid(), &p);
        assert!(
            text.contains("smallest sum: 10 (best found, lower bound 8 (gap 25.00%))"),
            "{text}"
        );
        let info = RunInfo {
            seconds: 0.5,
            threads: 1,
        };
        let v: serde_json::Value = serde_json::from_str(&json(&p, info)).unwrap();
        assert_eq!((&v["sense"], &v["bound"]), (&"min".into(), &8.into()));
    }

    #[test]
    fn json_keeps_huge_sums_exact() {
        let mut p = sample(true);
        p.sum = i128::from(i64::MAX) * 4;
        p.bound = p.sum;
        let info = RunInfo {
            seconds: 0.5,
            threads: 1,
        };
        let v: serde_json::Value = serde_json::from_str(&json(&p, info)).unwrap();
        assert_eq!(v["queens"][1], serde_json::json!([1, 3]));
        assert_eq!(v["problem"], "weight");
        assert!(json(&p, info).contains("\"sum\":36893488147419103228"));
    }
}
