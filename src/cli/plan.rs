//! `queens plan N`: the independent work units of `queens count N`, heaviest first.

use super::{emit, Failure};
use clap::Args;
use queens::format::scale::{plan_json, plan_text};
use queens::scale::{plan_for, Shard, WorkPlan};
use std::process::ExitCode;

/// The library's plan for `n` ([`queens::scale::plan_for`]), or bad input (exit 2).
pub fn plan_or_fail(n: u32) -> Result<Box<dyn WorkPlan>, Failure> {
    plan_for(n).map_err(|e| Failure::bad_input(e.to_string()))
}

/// Parses a shard `I/K` (0-based I) for clap.
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse()
}

/// Arguments of `queens plan`.
#[derive(Args, Debug)]
pub struct PlanArgs {
    /// Board size.
    pub n: u32,
    /// List only the units of shard I of K (0-based: 0/K .. K-1/K).
    #[arg(long, value_name = "I/K", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Print only the number of units and the plan checksum.
    #[arg(long)]
    pub summary: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Prints the plan for N (or one shard of it).
pub fn run(args: &PlanArgs) -> Result<ExitCode, Failure> {
    let plan = plan_or_fail(args.n)?;
    let text = if args.json {
        plan_json(plan.as_ref(), args.shard, args.summary)
    } else {
        plan_text(plan.as_ref(), args.shard, args.summary)
    };
    emit(&text)?;
    Ok(ExitCode::SUCCESS)
}
