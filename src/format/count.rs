//! Output of `queens count` and `queens solutions`: the count as text or as the JSON answer of
//! the command-line contract, and the boards of listed solutions.
//!
//! The JSON answer (revision 2 of the contract):
//! `{"problem":"count","n":8,"solutions":92,"unique":12,"complete":true,
//! "units":{"done":78,"total":78},"seconds":0.001234,"threads":2}`, from a serde struct:
//! counts as exact integers however large (they are 128-bit), `seconds` with exactly 6
//! decimals. A ledger run adds its own object (see `format::scale`).

use super::solutions::board_text;
use crate::count::Counts;
use serde::Serialize;
use serde_json::value::RawValue;

/// The fields every count answer has, with or without a ledger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountAnswer {
    /// Board size.
    pub n: u32,
    /// Solutions over the units done (the exact count when `complete`, else a lower bound).
    pub solutions: u128,
    /// Solutions up to rotation and reflection over the units done.
    pub unique: u128,
    /// Whether every unit was counted.
    pub complete: bool,
    /// Units counted.
    pub units_done: u64,
    /// Units in the plan (or in the shard).
    pub units_total: u64,
}

impl From<&Counts> for CountAnswer {
    fn from(c: &Counts) -> Self {
        CountAnswer {
            n: c.n,
            solutions: c.solutions,
            unique: c.unique,
            complete: c.complete,
            units_done: c.units_done,
            units_total: c.units_total,
        }
    }
}

/// The JSON answer on one line (no newline):
/// `{"problem":"count","n","solutions","unique","complete","units":{"done","total"},"seconds",
/// "threads"}`.
pub fn json(answer: &CountAnswer, seconds: f64, threads: usize) -> String {
    to_json_with(answer, seconds, threads, &[])
}

/// The count answer's fields, in the contract's order.
#[derive(Serialize)]
struct CountJson<'a> {
    problem: &'static str,
    n: u32,
    solutions: u128,
    unique: u128,
    complete: bool,
    units: UnitsJson,
    /// Exactly 6 decimals, which a float cannot promise: written by [`seconds_json`].
    seconds: Box<RawValue>,
    threads: usize,
    #[serde(flatten)]
    more: InOrder<'a>,
}

/// Fields already written as JSON, kept in their order.
struct InOrder<'a>(Vec<(&'a str, Box<RawValue>)>);

impl Serialize for InOrder<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(key, value)| (key, value)))
    }
}

#[derive(Serialize)]
struct UnitsJson {
    done: u64,
    total: u64,
}

/// [`json`] with more fields after the common ones: each a key and its value, already
/// written as JSON (an object, a number...), in their order.
///
/// # Panics
/// When a value of `more` is not JSON text (a bug of the caller).
pub fn to_json_with(
    answer: &CountAnswer,
    seconds: f64,
    threads: usize,
    more: &[(&str, String)],
) -> String {
    let raw = |text: String| RawValue::from_string(text).expect("a JSON value");
    let json = CountJson {
        problem: "count",
        n: answer.n,
        solutions: answer.solutions,
        unique: answer.unique,
        complete: answer.complete,
        units: UnitsJson {
            done: answer.units_done,
            total: answer.units_total,
        },
        seconds: raw(seconds_json(seconds)),
        threads,
        more: InOrder(
            more.iter()
                .map(|(key, value)| (*key, raw(value.clone())))
                .collect(),
        ),
    };
    super::json_text(&json)
}

/// Seconds as a JSON number with exactly 6 decimals (0 for a negative or non-finite value).
pub fn seconds_json(seconds: f64) -> String {
    let s = if seconds.is_finite() && seconds > 0.0 {
        seconds
    } else {
        0.0
    };
    format!("{s:.6}")
}

/// A JSON string literal for `text`, escaped.
pub fn json_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_string())
}

/// The one-line text answer: `8-queens: 92 solutions, 12 unique up to rotation and reflection
/// (0.011 s)`, or a PARTIAL count that says its numbers are lower bounds.
pub fn summary_line(counts: &Counts, seconds: f64) -> String {
    let n = counts.n;
    if counts.complete {
        format!(
            "{n}-queens: {} solution{}, {} unique up to rotation and reflection ({seconds:.3} s)",
            counts.solutions,
            if counts.solutions == 1 { "" } else { "s" },
            counts.unique
        )
    } else if counts.units_total == 0 {
        format!(
            "{n}-queens: PARTIAL count, stopped while planning the work units: nothing counted \
             ({seconds:.3} s)"
        )
    } else {
        format!(
            "{n}-queens: PARTIAL count, stopped after {} of {} work units: {} solutions and {} \
             unique so far (lower bounds, not the answer) ({seconds:.3} s)",
            counts.units_done, counts.units_total, counts.solutions, counts.unique
        )
    }
}

/// The whole text answer of `queens count N`: the summary line and, when given, the first
/// solution in lexicographic order drawn as a board.
pub fn text(counts: &Counts, seconds: f64, first_solution: Option<&[usize]>) -> String {
    let mut out = summary_line(counts, seconds);
    out.push('\n');
    if let Some(columns) = first_solution {
        out.push_str("\nThe first solution in lexicographic order:\n\n");
        out.push_str(&board_text(columns));
    }
    out
}

/// One solution of a text listing (`queens solutions N`): `Solution 3:` and its board, after a
/// blank line from the second on.
pub fn listed_solution(index: u64, columns: &[usize]) -> String {
    let gap = if index > 1 { "\n" } else { "" };
    format!("{gap}Solution {index}:\n{}", board_text(columns))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(complete: bool) -> Counts {
        Counts {
            n: 8,
            solutions: 92,
            unique: 12,
            classes_by_size: [0, 1, 0, 11],
            units_done: if complete { 78 } else { 5 },
            units_total: 78,
            complete,
        }
    }

    #[test]
    fn json_has_the_contract_fields_in_order() {
        let json = json(&(&counts(true)).into(), 0.001_234_4, 2);
        assert_eq!(
            json,
            "{\"problem\":\"count\",\"n\":8,\"solutions\":92,\"unique\":12,\"complete\":true,\
             \"units\":{\"done\":78,\"total\":78},\"seconds\":0.001234,\"threads\":2}"
        );
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["units"]["done"], 78);
        let with = to_json_with(
            &(&counts(false)).into(),
            1.5,
            1,
            &[("ledger", "{\"path\":\"a\\\"b\"}".to_string())],
        );
        let v: serde_json::Value = serde_json::from_str(&with).unwrap();
        assert_eq!(v["complete"], false);
        assert_eq!(v["ledger"]["path"], "a\"b");
        assert!(with.contains("\"seconds\":1.500000,"));
        assert!(super::json(&(&counts(true)).into(), f64::NAN, 1).contains("\"seconds\":0.000000"));
    }

    #[test]
    fn text_says_partial_counts_are_lower_bounds() {
        let done = text(&counts(true), 0.5, Some(&[0, 2, 1]));
        assert!(done.starts_with("8-queens: 92 solutions, 12 unique up to rotation"));
        assert!(done.ends_with("lexicographic order:\n\nQ..\n..Q\n.Q.\n"));
        let partial = text(&counts(false), 0.5, None);
        assert!(partial.contains("PARTIAL count, stopped after 5 of 78 work units"));
        assert!(partial.contains("lower bounds"));
        assert_eq!(listed_solution(1, &[0]), "Solution 1:\nQ\n");
        assert_eq!(listed_solution(2, &[0]), "\nSolution 2:\nQ\n");
    }
}
