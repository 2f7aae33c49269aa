//! `queens merge LEDGER...`: checks ledgers against the plan and prints the total, or exactly
//! what is missing or inconsistent (exit 1).

use super::Status;
use super::{emit, Failure, EXIT_NO_ANSWER};
use clap::Args;
use queens::format::scale::{guard_merge_json, guard_merge_text, merge_json, merge_text, Verdict};
use queens::scale::{merge, plan_for_job, read_contents, GuardPlan, Job};
use std::path::PathBuf;

/// Arguments of `queens merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Ledger files written by `queens count N --ledger FILE` or `queens guard --full N
    /// --queens K --ledger FILE` (any number, any shards; the first header names the job).
    #[arg(required = true, value_name = "LEDGER")]
    pub files: Vec<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Checks and totals the ledgers: exit 0 with the total (for a guard refutation: every unit
/// refuted, or a cover found), 1 when units are missing or records inconsistent, 2 when a file
/// cannot be read or no file has a ledger header.
pub fn run(args: &MergeArgs) -> Result<Status, Failure> {
    let mut files = Vec::new();
    for path in &args.files {
        let bytes = std::fs::read(path)
            .map_err(|e| Failure::bad_input(format!("cannot read {}: {e}", path.display())))?;
        files.push((path.display().to_string(), read_contents(&bytes)));
    }
    let (n, job) = files
        .iter()
        .find_map(|(_, c)| c.header.map(|(_, h)| (h.n, h.job)))
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
    if let Job::Guard(g) = job {
        let plan = GuardPlan::full(g).map_err(|e| Failure::bad_input(e.to_string()))?;
        let report = merge(&plan, None, &files);
        let verdict = Verdict::of(&report);
        let cover = match verdict {
            Verdict::Cover(id) => plan.witness(id),
            _ => None,
        };
        let text = if args.json {
            guard_merge_json(&report, files.len(), g, cover.as_deref())
        } else {
            guard_merge_text(&report, files.len(), g, cover.as_deref())
        };
        emit(&text)?;
        return Ok(if verdict == Verdict::Open {
            Status::from(EXIT_NO_ANSWER)
        } else {
            Status::SUCCESS
        });
    }
    let plan = plan_for_job(n, job, &queens::Options::default())
        .map_err(|e| Failure::bad_input(e.to_string()))?;
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
