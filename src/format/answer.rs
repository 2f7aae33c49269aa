//! The one JSON answer shape of the command-line contract, and its readers.
//!
//! Every answer is one JSON object with `"problem"` first, then the problem's own fields, then
//! `"seconds"` (rounded to 6 decimals) and `"threads"`. The readers take such an object back
//! into the certificate that [`crate::verify`] checks; they accept any extra fields.

use super::ParseError;
use crate::board::Square;
use crate::problem::Move;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What every answer says about the run that produced it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunInfo {
    /// Wall-clock seconds the solver took.
    pub seconds: f64,
    /// Worker threads it ran on.
    pub threads: usize,
}

impl RunInfo {
    /// The time since `started` and the thread count of `options`.
    pub fn measured(started: std::time::Instant, options: &crate::Options) -> Self {
        RunInfo {
            seconds: started.elapsed().as_secs_f64(),
            threads: options.thread_count(),
        }
    }
}

/// The JSON object `{"problem": problem, ..fields.., "seconds", "threads"}` on one line.
/// `fields` must serialize as a JSON object (a struct or a `serde_json` object); its keys keep
/// their order, and 128-bit integers are written exactly.
pub fn json_answer<T: Serialize + ?Sized>(problem: &str, fields: &T, info: RunInfo) -> String {
    #[derive(Serialize)]
    struct Answer<'a, T: Serialize + ?Sized> {
        problem: &'a str,
        #[serde(flatten)]
        fields: &'a T,
        seconds: Box<serde_json::value::RawValue>,
        threads: usize,
    }
    super::json_text(&Answer {
        problem,
        fields,
        seconds: seconds_value(info.seconds),
        threads: info.threads,
    })
}

/// Seconds as a JSON number in plain decimals, exactly 6 of them (`0.000007`, never `7e-6`).
pub fn seconds_value(seconds: f64) -> Box<serde_json::value::RawValue> {
    let text = super::count::seconds_json(seconds);
    serde_json::value::RawValue::from_string(text).expect("a decimal number is valid JSON")
}

/// The certificate in a `weight` answer.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct WeightCertificate {
    /// The claimed sum.
    pub sum: i128,
    /// The queens.
    pub queens: Vec<Square>,
}

/// The certificate in a `repair` answer.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct RepairCertificate {
    /// The claimed number of moves.
    pub moves: usize,
    /// The moves, in order.
    pub plan: Vec<Move>,
    /// The claimed final position.
    #[serde(rename = "final")]
    pub final_queens: Vec<Square>,
}

/// The certificate in a `guard` answer.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct GuardCertificate {
    /// The claimed number of guards.
    pub guards: usize,
    /// The queens.
    pub queens: Vec<Square>,
    /// Whether the queens are claimed not to attack one another.
    #[serde(default)]
    pub independent: bool,
}

impl WeightCertificate {
    /// What `queens verify` says of it once checked on an `n x n` grid.
    pub fn valid_text(&self, n: usize) -> String {
        format!(
            "valid: {} non-attacking queens on the {n}x{n} grid, sum {} as claimed",
            self.queens.len(),
            self.sum
        )
    }
}

impl RepairCertificate {
    /// What `queens verify` says of it once checked.
    pub fn valid_text(&self) -> String {
        format!(
            "valid: {} legal moves lead to {} non-attacking queens",
            self.plan.len(),
            self.final_queens.len()
        )
    }
}

impl GuardCertificate {
    /// What `queens verify` says of it once checked on a `rows x cols` board.
    pub fn valid_text(&self, rows: usize, cols: usize) -> String {
        let kind = if self.independent {
            "mutually non-attacking queens"
        } else {
            "queens"
        };
        format!(
            "valid: {} {kind} guard every marked square of the {rows}x{cols} board",
            self.guards
        )
    }
}

/// What `queens verify count-solution` says of `count` checked solutions of size `n`.
pub fn valid_solutions_text(n: usize, count: usize) -> String {
    format!("valid: {count} distinct {n}-queens solutions")
}

/// One line of `queens solutions N --format json`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct SolutionLine {
    /// Board size.
    pub n: usize,
    /// The queens.
    pub queens: Vec<Square>,
}

/// Reads the answer of `problem` (`weight`, `repair`, `guard`) from its JSON text: an error
/// with line and column when it is not JSON of that shape, or when its `"problem"` says it is
/// the answer of another problem.
pub fn read_answer<T: DeserializeOwned>(problem: &str, text: &str) -> Result<T, ParseError> {
    let value: Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
        .map_err(|e| json_error(&e, "not a JSON answer"))?;
    match value.get("problem").and_then(Value::as_str) {
        Some(p) if p == problem => {}
        Some(other) => {
            return Err(ParseError::at(
                1,
                1,
                format!("this is the answer of `{other}`, not of `{problem}`"),
            ))
        }
        None => {
            return Err(ParseError::at(
                1,
                1,
                format!("not a `{problem}` answer: it has no \"problem\" field"),
            ))
        }
    }
    serde_json::from_value(value)
        .map_err(|e| ParseError::at(1, 1, format!("not a valid `{problem}` answer: {e}")))
}

/// Reads the JSON lines of `queens solutions N --format json`, skipping blank lines; each
/// solution comes with its 1-based line number.
pub fn read_solution_lines(text: &str) -> Result<Vec<(usize, SolutionLine)>, ParseError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_start_matches('\u{feff}');
        if line.trim().is_empty() {
            continue;
        }
        let solution: SolutionLine = serde_json::from_str(line).map_err(|e| {
            let mut error = json_error(&e, "not a solution line");
            error.line = i + 1;
            error
        })?;
        out.push((i + 1, solution));
    }
    Ok(out)
}

fn json_error(e: &serde_json::Error, what: &str) -> ParseError {
    ParseError::at(e.line().max(1), e.column().max(1), format!("{what}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_lead_with_the_problem_and_end_with_the_run() {
        let text = json_answer(
            "weight",
            &serde_json::json!({"n": 4, "sum": 10}),
            RunInfo {
                seconds: 0.123_456_789,
                threads: 2,
            },
        );
        assert_eq!(
            text,
            r#"{"problem":"weight","n":4,"sum":10,"seconds":0.123457,"threads":2}"#
        );
    }

    #[test]
    fn readers_check_the_problem_and_locate_errors() {
        let ok: WeightCertificate =
            read_answer("weight", r#"{"problem":"weight","sum":3,"queens":[[0,0]]}"#).unwrap();
        assert_eq!(ok.queens, vec![Square::new(0, 0)]);
        let other = read_answer::<WeightCertificate>("weight", r#"{"problem":"guard"}"#);
        assert!(other.unwrap_err().message.contains("answer of `guard`"));
        let broken = read_answer::<WeightCertificate>("weight", "{\n  \"problem\": ").unwrap_err();
        assert_eq!(broken.line, 2);
        let lines = read_solution_lines("\n{\"n\":1,\"queens\":[[0,0]]}\nnope").unwrap_err();
        assert_eq!(lines.line, 3);
    }

    #[test]
    fn seconds_are_plain_decimals() {
        let info = RunInfo {
            seconds: 0.000_007,
            threads: 1,
        };
        let text = json_answer("weight", &serde_json::json!({"n": 1}), info);
        assert!(text.contains(r#""seconds":0.000007,"#), "{text}");
        let info = RunInfo {
            seconds: 1e-9,
            threads: 1,
        };
        let text = json_answer("weight", &serde_json::json!({"n": 1}), info);
        assert!(text.contains(r#""seconds":0.000000,"#), "{text}");
    }
}
