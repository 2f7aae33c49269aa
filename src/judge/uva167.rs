//! UVa 167, "The Sultan's Successors": `k`, then `k` boards of 64 integers in any whitespace
//! layout; for each board the best sum of eight non-attacking queens, as C's `%5d` and a newline.
//!
//! The judge promises weights from 1 to 99; any 64-bit integer is accepted and solved exactly
//! (a sum wider than five characters simply widens the field, as `%5d` does). Tokens after the
//! `k`-th board are ignored.

use super::{Cases, JudgeError};
use crate::format::Tokens;
use crate::weight::{best, WeightGrid};
use std::io::Write;

/// Squares on the judge's board.
const SIDE: usize = 8;

pub(super) fn run(text: &str, out: &mut dyn Write, cases: &mut Cases) -> Result<(), JudgeError> {
    let mut tokens = Tokens::new(text);
    let header = |source| JudgeError::BadCase { case: 0, source };
    let count_token = tokens.expect("the number of boards").map_err(header)?;
    let count = count_token.parse_i64().map_err(header)?;
    if count < 0 {
        return Err(header(count_token.error(format!(
            "the number of boards must not be negative, not {count}"
        ))));
    }
    for case in 1..=count as usize {
        let bad = |source| JudgeError::BadCase { case, source };
        let mut cells = Vec::with_capacity(SIDE * SIDE);
        for _ in 0..SIDE * SIDE {
            let token = tokens.expect("a number of the board").map_err(bad)?;
            cells.push(token.parse_i64().map_err(bad)?);
        }
        let grid = WeightGrid { n: SIDE, cells };
        let placement = best(&grid, &cases.options()).map_err(|e| {
            let at = count_token.error(e.to_string());
            bad(at)
        })?;
        cases.solved(case, placement.optimal)?;
        writeln!(out, "{:5}", placement.sum)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(text: &str) -> (String, Result<(), JudgeError>) {
        let mut out = Vec::new();
        let options = crate::Options::default();
        let result = run(text, &mut out, &mut Cases::new(&options));
        (String::from_utf8(out).unwrap(), result)
    }

    #[test]
    fn compact_and_spread_layouts_agree() {
        let board: Vec<String> = (1..=64).map(|v| v.to_string()).collect();
        let compact = format!("2 {} {}", board.join(" "), board.join("\n"));
        let (out, result) = answer(&compact);
        assert!(result.is_ok());
        assert_eq!(out, "  260\n  260\n");
    }

    #[test]
    fn bad_and_missing_cases_are_numbered() {
        let board: Vec<String> = (1..=64).map(|v| v.to_string()).collect();
        let (out, result) = answer(&format!("2\n{}\n1 2 x", board.join(" ")));
        assert_eq!(out, "  260\n");
        match result {
            Err(JudgeError::BadCase { case, source }) => {
                assert_eq!(case, 2);
                assert_eq!((source.line, source.col), (3, 5));
            }
            other => panic!("{other:?}"),
        }
        let (out, result) = answer("1\n1 2 3");
        assert_eq!(out, "");
        assert!(matches!(result, Err(JudgeError::BadCase { case: 1, .. })));
        assert!(matches!(
            answer("").1,
            Err(JudgeError::BadCase { case: 0, .. })
        ));
        assert!(matches!(
            answer("-1").1,
            Err(JudgeError::BadCase { case: 0, .. })
        ));
        assert_eq!(answer("0").0, "");
    }
}
