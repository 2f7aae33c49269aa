//! `queens weight`.

use super::{Failure, SearchArgs};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `queens weight`.
#[derive(Args, Debug)]
pub struct WeightArgs {
    /// Input file (default: standard input; `-` is standard input too).
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
}

pub fn run(args: &WeightArgs) -> Result<ExitCode, Failure> {
    let _ = args;
    todo!("weight")
}
