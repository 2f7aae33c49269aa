//! `queens guard`.

use super::{Failure, SearchArgs};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `queens guard`.
#[derive(Args, Debug)]
pub struct GuardArgs {
    /// Input file (default: standard input; `-` is standard input too).
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
}

pub fn run(args: &GuardArgs) -> Result<ExitCode, Failure> {
    let _ = args;
    todo!("guard")
}
