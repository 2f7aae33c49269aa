//! The answers of a sharded completion count (`queens complete BOARD --count --ledger FILE`)
//! and of `queens merge` over its ledgers, as text and JSON.

use super::{format_ranges, merge_details, missing_units, problems_json, seconds_json};
use super::{LedgerJson, ProblemJson, RunPlace, UnitsJson};
use crate::scale::{CompleteJob, MergeReport, RunReport};
use serde::Serialize;
use std::fmt::Write;

/// The first line of a completion count's run or merge: the total, or what is left.
fn total_line(m: &MergeReport, job: CompleteJob) -> String {
    let n = job.n;
    let what = match m.shard {
        Some(s) => format!("the {n}x{n} board, shard {s}"),
        None => format!("the {n}x{n} board"),
    };
    if m.is_complete() {
        let noun = if m.total.solutions == 1 {
            "completion"
        } else {
            "completions"
        };
        let tail = if m.shard.is_some() {
            format!(" in its {} of {} units", m.units_expected, m.plan_units)
        } else {
            format!(" ({} units of depth {})", m.plan_units, job.depth)
        };
        format!(
            "{} {noun} of {what}{tail}, {} search node{}\n",
            m.total.solutions,
            m.total.unique_x8,
            if m.total.unique_x8 == 1 { "" } else { "s" }
        )
    } else {
        format!(
            "{what}: at least {} completions so far; {} of {} units left (ids {})\n",
            m.total.solutions,
            missing_units(&m.missing),
            m.units_expected,
            format_ranges(&m.missing[..m.missing.len().min(20)])
        )
    }
}

/// A completion count's ledger run as text: the count of the board or shard (or what is left),
/// then a line on the ledger and the run.
pub fn complete_run_text(report: &RunReport, place: &RunPlace<'_>, job: CompleteJob) -> String {
    let m = &report.merged;
    let mut text = total_line(m, job);
    if !m.is_complete() {
        text.push_str("run the same command again to go on\n");
    }
    let ledger = place
        .ledger
        .map_or("no ledger".to_string(), |p| format!("ledger {p}"));
    let ranks = place
        .ranks
        .map_or(String::new(), |r| format!(", {r} MPI ranks"));
    let _ = write!(
        text,
        "{ledger}: {} units from earlier runs, {} counted now in {:.2} s{ranks}",
        report.done_before, report.counted_now, place.seconds
    );
    if m.shard.is_some() && m.is_complete() {
        text.push_str("; total the shards with `queens merge`");
    }
    text.push('\n');
    text
}

#[derive(Serialize)]
struct CompletionCountJson<'a> {
    problem: &'static str,
    n: u32,
    depth: u32,
    /// All of them when `complete` (of the shard, if one), else those of the units present;
    /// a string above 2^64.
    completions: serde_json::Value,
    complete: bool,
    units: UnitsJson,
    nodes: u128,
    #[serde(skip_serializing_if = "Option::is_none")]
    ledger: Option<LedgerJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ledgers: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    missing: Option<&'a [(u64, u64)]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    problems: Option<Vec<ProblemJson<'a>>>,
}

fn count_json(m: &MergeReport, job: CompleteJob) -> CompletionCountJson<'_> {
    CompletionCountJson {
        problem: "complete",
        n: job.n,
        depth: job.depth,
        completions: crate::format::complete::count_value(m.total.solutions),
        complete: m.is_complete(),
        units: UnitsJson {
            done: m.units_present,
            total: m.units_expected,
        },
        nodes: m.total.unique_x8,
        ledger: None,
        ledgers: None,
        missing: None,
        problems: None,
    }
}

/// A completion count's ledger run as one JSON line (no newline): `{"problem":"complete","n",
/// "depth","completions","complete","units":{"done","total"},"nodes","seconds","threads",
/// "ledger":{..}}`.
pub fn complete_run_json(report: &RunReport, place: &RunPlace<'_>, job: CompleteJob) -> String {
    let m = &report.merged;
    let mut out = count_json(m, job);
    out.ledger = place.ledger.map(|path| LedgerJson {
        path,
        shard: m.shard.map(|s| s.to_string()),
        plan_units: m.plan_units,
        resumed: report.done_before,
        counted: report.counted_now,
        missing: &m.missing,
    });
    let mut text = serde_json::to_string(&out).unwrap_or_default();
    text.pop();
    let _ = write!(
        text,
        ",\"seconds\":{},\"threads\":{}}}",
        seconds_json(place.seconds),
        place.threads
    );
    text
}

/// `queens merge` of a completion count's ledgers as text.
pub fn complete_merge_text(report: &MergeReport, ledgers: usize, job: CompleteJob) -> String {
    let mut out = total_line(report, job);
    let plural = if ledgers == 1 { "" } else { "s" };
    if report.is_complete() {
        let _ = writeln!(
            out,
            "checked {ledgers} ledger{plural}: all {} units present ({} duplicate records \
             agree); spec checksums and residues mod 13 and 15 agree",
            report.plan_units, report.agreeing_duplicates
        );
    }
    merge_details(report, &mut out);
    out
}

/// `queens merge` of a completion count's ledgers as one JSON line with its newline: the fields
/// of [`complete_run_json`] without the run's, with `"ledgers"`, `"missing"` and `"problems"`.
pub fn complete_merge_json(report: &MergeReport, ledgers: usize, job: CompleteJob) -> String {
    let mut out = count_json(report, job);
    out.ledgers = Some(ledgers);
    out.missing = Some(&report.missing);
    out.problems = Some(problems_json(&report.problems));
    serde_json::to_string(&out).unwrap_or_default() + "\n"
}
