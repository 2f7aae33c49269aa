//! `queens plan N`: the independent work units of `queens count N`, heaviest first.

use super::Failure;
use clap::Args;
use queens::ledger::{counter_plan, plan_checksum, Shard, WorkPlan};
use serde::Serialize;
use std::io::Write;
use std::process::ExitCode;

/// The work plan that `count --ledger`, `count --shard`, MPI runs and `merge` use for board size
/// `n`. Swapping the counting engine is this one function.
pub fn plan_for(n: u32) -> Result<Box<dyn WorkPlan>, Failure> {
    counter_plan(n)
        .ok_or_else(|| Failure::bad_input(format!("N = {n} is out of range: N must be 1 to 32")))
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

#[derive(Serialize)]
struct UnitJson {
    id: u64,
    checksum: String,
    unit: String,
}

#[derive(Serialize)]
struct PlanJson {
    n: u32,
    units: usize,
    plan: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    list: Option<Vec<UnitJson>>,
}

/// Prints the plan for N (or one shard of it).
pub fn run(args: &PlanArgs) -> Result<ExitCode, Failure> {
    let plan = plan_for(args.n)?;
    let checksum = format!("{:016x}", plan_checksum(plan.as_ref()));
    let listed: Vec<usize> = (0..plan.units().len())
        .filter(|&i| args.shard.map_or(true, |s| s.contains(i as u64)))
        .collect();
    let mut text = String::new();
    if args.json {
        let list = (!args.summary).then(|| {
            listed
                .iter()
                .map(|&i| UnitJson {
                    id: plan.units()[i].id,
                    checksum: format!("{:016x}", plan.units()[i].checksum),
                    unit: plan.describe_unit(i),
                })
                .collect()
        });
        let out = PlanJson {
            n: args.n,
            units: plan.units().len(),
            plan: checksum,
            shard: args.shard.map(|s| s.to_string()),
            list,
        };
        text = serde_json::to_string(&out).expect("plan JSON");
        text.push('\n');
    } else {
        let shard_words = match args.shard {
            Some(s) => format!(
                ", shard {s}: {} units (ids = {} mod {})",
                listed.len(),
                s.index,
                s.count
            ),
            None => String::new(),
        };
        text += &format!(
            "N = {}: {} units, plan {checksum}, heaviest first{shard_words}\n",
            args.n,
            plan.units().len()
        );
        if !args.summary {
            text += &format!("{:>8}  {:<16}  unit\n", "id", "checksum");
            for &i in &listed {
                let u = plan.units()[i];
                text += &format!(
                    "{:>8}  {:016x}  {}\n",
                    u.id,
                    u.checksum,
                    plan.describe_unit(i)
                );
            }
        }
    }
    emit(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// Writes `text` to stdout. Output is often piped into `head`: a closed pipe ends it quietly
/// instead of panicking; other write errors are failures (exit 2).
pub fn emit(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure::bad_input(format!("cannot write to stdout: {e}")))
        }
        _ => Ok(()),
    }
}
