//! `queens merge LEDGER...`: checks ledgers against the plan and prints the total, or exactly
//! what is missing or inconsistent (exit 1).

use super::plan::{emit, plan_for};
use super::{Failure, EXIT_NO_ANSWER};
use clap::Args;
use queens::ledger::{format_ranges, merge, missing_shards, read_contents, MergeReport};
use serde::Serialize;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `queens merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Ledger files written by `queens count N --ledger FILE` (any number, any shards).
    #[arg(required = true, value_name = "LEDGER")]
    pub files: Vec<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct ProblemJson<'a> {
    file: &'a str,
    line: usize,
    message: &'a str,
}

fn problems_json(problems: &[queens::ledger::Problem]) -> Vec<ProblemJson<'_>> {
    problems
        .iter()
        .map(|p| ProblemJson {
            file: &p.file,
            line: p.line,
            message: &p.message,
        })
        .collect()
}

#[derive(Serialize)]
struct TornJson<'a> {
    file: &'a str,
    line: usize,
}

#[derive(Serialize)]
struct MergeJson<'a> {
    n: u32,
    complete: bool,
    solutions: Option<u128>,
    unique: Option<u128>,
    units: u64,
    present: u64,
    agreeing_duplicates: u64,
    ledgers: usize,
    missing: &'a [(u64, u64)],
    problems: Vec<ProblemJson<'a>>,
    torn: Vec<TornJson<'a>>,
    ignored: Vec<ProblemJson<'a>>,
}

/// Checks and totals the ledgers.
pub fn run(args: &MergeArgs) -> Result<ExitCode, Failure> {
    let mut files = Vec::new();
    for path in &args.files {
        let bytes = std::fs::read(path)
            .map_err(|e| Failure::bad_input(format!("cannot read {}: {e}", path.display())))?;
        files.push((path.display().to_string(), read_contents(&bytes)));
    }
    let n = files
        .iter()
        .find_map(|(_, c)| c.header.map(|(_, h)| h.n))
        .ok_or_else(|| {
            let (name, contents) = &files[0];
            let why = contents
                .bad_lines
                .first()
                .map_or("empty or unfinished header".to_string(), |b| {
                    b.reason.clone()
                });
            Failure::bad_input(format!("no ledger header in any file ({name}:1: {why})"))
        })?;
    let plan = plan_for(n)?;
    let report = merge(plan.as_ref(), None, &files);
    if args.json {
        emit(&json_text(&report, files.len()))?;
    } else {
        emit(&text(&report, files.len()))?;
    }
    Ok(if report.is_complete() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_NO_ANSWER)
    })
}

fn json_text(report: &MergeReport, ledgers: usize) -> String {
    let complete = report.is_complete();
    let out = MergeJson {
        n: report.n,
        complete,
        solutions: complete.then_some(report.total.solutions),
        unique: complete.then_some(report.total.unique()),
        units: report.plan_units,
        present: report.units_present,
        agreeing_duplicates: report.agreeing_duplicates,
        ledgers,
        missing: &report.missing,
        problems: problems_json(&report.problems),
        torn: report
            .torn
            .iter()
            .map(|(file, line)| TornJson { file, line: *line })
            .collect(),
        ignored: problems_json(&report.ignored),
    };
    serde_json::to_string(&out).expect("merge JSON") + "\n"
}

/// At most this many missing ranges are listed in the text output (JSON lists them all).
const SHOWN_RANGES: usize = 40;

fn text(report: &MergeReport, ledgers: usize) -> String {
    let mut out = String::new();
    let plural = if ledgers == 1 { "" } else { "s" };
    if report.is_complete() {
        let _ = writeln!(
            out,
            "N = {}: {} solutions, {} unique",
            report.n,
            report.total.solutions,
            report.total.unique()
        );
        let _ = writeln!(
            out,
            "checked {ledgers} ledger{plural}: all {} units present ({} duplicate records \
             agree); spec checksums and residues mod 13 and 15 agree",
            report.plan_units, report.agreeing_duplicates
        );
    } else {
        let _ = writeln!(
            out,
            "N = {}: no total: the ledger{plural} {}",
            report.n,
            match (report.missing.is_empty(), report.problems.is_empty()) {
                (false, false) => "are incomplete and inconsistent",
                (false, true) => "are incomplete",
                _ => "are inconsistent",
            }
        );
        if !report.missing.is_empty() {
            let missing_units: u64 = report.missing.iter().map(|(a, b)| b - a + 1).sum();
            let shown = &report.missing[..report.missing.len().min(SHOWN_RANGES)];
            let more = if report.missing.len() > shown.len() {
                format!(", ... ({} more ranges)", report.missing.len() - shown.len())
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "missing {missing_units} of {} units: {}{more}",
                report.plan_units,
                format_ranges(shown)
            );
            if let Some(shards) = missing_shards(&report.missing, report.plan_units) {
                let names: Vec<String> = shards.iter().map(|s| s.to_string()).collect();
                let _ = writeln!(out, "that is: all the units of shard {}", names.join(", "));
            }
        }
        for p in &report.problems {
            let _ = writeln!(out, "{p}");
        }
    }
    for p in &report.ignored {
        let _ = writeln!(out, "ignored {p}");
    }
    for (file, line) in &report.torn {
        let _ = writeln!(
            out,
            "note: {file}:{line}: unfinished last line ignored (a run was cut short)"
        );
    }
    out
}
