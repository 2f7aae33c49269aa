//! Output of `queens count`: the JSON answer, written by the command line and the web API alike.

use super::answer::seconds_value;
use super::RunInfo;
use crate::count::Counts;
use serde::Serialize;

/// The JSON answer of `queens count N --json` on one line: `{"n","solutions","unique",
/// "seconds","threads","complete","units_done","units_total"}`; a partial count has
/// `"complete": false` and its numbers are lower bounds.
pub fn to_json(counts: &Counts, info: RunInfo) -> String {
    #[derive(Serialize)]
    struct CountJson {
        n: u32,
        solutions: u128,
        unique: u128,
        seconds: serde_json::Value,
        threads: usize,
        complete: bool,
        units_done: u64,
        units_total: u64,
    }
    let answer = CountJson {
        n: counts.n,
        solutions: counts.solutions,
        unique: counts.unique,
        seconds: seconds_value(info.seconds),
        threads: info.threads,
        complete: counts.complete,
        units_done: counts.units_done,
        units_total: counts.units_total,
    };
    serde_json::to_string(&answer).unwrap_or_default()
}
