//! `queens merge LEDGER...`: checks ledgers against the plan and prints the total, or exactly
//! what is missing or inconsistent (exit 1).

use super::Status;
use super::{emit, Failure, EXIT_NO_ANSWER};
use clap::Args;
use queens::format::scale::{
    complete_merge_json, complete_merge_text, guard_merge_json, guard_merge_text, merge_json,
    merge_text,
};
use queens::scale::{merge_ledger_files, MergedLedgers};
use std::path::PathBuf;

/// Arguments of `queens merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Ledger files written by `queens count N --ledger FILE`, `queens guard --full N
    /// --queens K --ledger FILE` or `queens complete BOARD --count --ledger FILE` (any number,
    /// any shards; the first header names the job).
    #[arg(required = true, value_name = "LEDGER")]
    pub files: Vec<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Checks and totals the ledgers: exit 0 with the total (for a guard refutation: every unit
/// refuted, or a cover found; for a completion count: the number of completions), 1 when units are missing or records inconsistent, 2 when a file
/// cannot be read or no file has a ledger header.
pub fn run(args: &MergeArgs) -> Result<Status, Failure> {
    let merged = merge_ledger_files(&args.files).map_err(|e| Failure::bad_input(e.to_string()))?;
    let ledgers = args.files.len();
    let text = match (&merged, args.json) {
        (MergedLedgers::Count(report), true) => merge_json(report, ledgers),
        (MergedLedgers::Count(report), false) => merge_text(report, ledgers),
        (MergedLedgers::Guard { report, job, cover }, true) => {
            guard_merge_json(report, ledgers, *job, cover.as_deref())
        }
        (MergedLedgers::Guard { report, job, cover }, false) => {
            guard_merge_text(report, ledgers, *job, cover.as_deref())
        }
        (MergedLedgers::Complete { report, job }, true) => {
            complete_merge_json(report, ledgers, *job)
        }
        (MergedLedgers::Complete { report, job }, false) => {
            complete_merge_text(report, ledgers, *job)
        }
    };
    emit(&text)?;
    Ok(if merged.is_answered() {
        Status::SUCCESS
    } else {
        Status::from(EXIT_NO_ANSWER)
    })
}
