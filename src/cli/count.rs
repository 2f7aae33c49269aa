//! `queens count` and `queens solutions`.

use super::Failure;
use clap::Args;
use std::process::ExitCode;

/// Arguments of `queens count`.
#[derive(Args, Debug)]
pub struct CountArgs {
    /// Board size.
    pub n: u32,
    /// Worker threads (default: one per core). The counts do not depend on it.
    #[arg(long, value_name = "T", default_value_t = 0)]
    pub threads: usize,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `queens solutions`.
#[derive(Args, Debug)]
pub struct SolutionsArgs {
    /// Board size.
    pub n: u32,
}

pub fn run_count(args: &CountArgs) -> Result<ExitCode, Failure> {
    let _ = args;
    todo!("count")
}

pub fn run_solutions(args: &SolutionsArgs) -> Result<ExitCode, Failure> {
    let _ = args;
    todo!("solutions")
}
