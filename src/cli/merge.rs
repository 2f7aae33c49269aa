//! `queens merge LEDGER...`: checks ledgers against the plan and prints the total, or exactly
//! what is missing or inconsistent (exit 1).

use super::plan::plan_or_fail;
use super::Status;
use super::{emit, Failure, EXIT_NO_ANSWER};
use clap::Args;
use queens::format::scale::{merge_json, merge_text};
use queens::scale::{merge, read_contents};
use std::path::PathBuf;

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

/// Checks and totals the ledgers: exit 0 with the total, 1 when units are missing or records
/// inconsistent, 2 when a file cannot be read or no file has a ledger header.
pub fn run(args: &MergeArgs) -> Result<Status, Failure> {
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
    let plan = plan_or_fail(n)?;
    let report = merge(plan.as_ref(), None, &files);
    if args.json {
        emit(&merge_json(&report, files.len()))?;
    } else {
        emit(&merge_text(&report, files.len()))?;
    }
    Ok(if report.is_complete() {
        Status::SUCCESS
    } else {
        Status::from(EXIT_NO_ANSWER)
    })
}
