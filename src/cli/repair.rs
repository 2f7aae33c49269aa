//! `queens repair`.

use super::{Failure, SearchArgs};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `queens repair`.
#[derive(Args, Debug)]
pub struct RepairArgs {
    /// Input file (default: standard input; `-` is standard input too).
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
}

pub fn run(args: &RepairArgs) -> Result<ExitCode, Failure> {
    let _ = args;
    todo!("repair")
}
