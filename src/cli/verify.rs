//! `queens verify`.

use super::Failure;
use clap::Args;
use std::process::ExitCode;

/// Arguments of `queens verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {}

pub fn run(args: &VerifyArgs) -> Result<ExitCode, Failure> {
    let _ = args;
    todo!("verify")
}
