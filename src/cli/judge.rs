//! `queens judge NAME [FILE|-]`.

use super::{read_input, Failure};
use clap::Args;
use queens::judge::{self, JudgeError, Problem};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `queens judge`.
#[derive(Args, Debug)]
pub struct JudgeArgs {
    /// The judge problem: lightoj1061, uva167 or uva11214.
    #[arg(value_parser = parse_problem)]
    pub problem: Problem,
    /// Input file (default: standard input; `-` is standard input too).
    pub file: Option<PathBuf>,
}

fn parse_problem(name: &str) -> Result<Problem, String> {
    Problem::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Problem::ALL.iter().map(|(n, _)| *n).collect();
        format!(
            "unknown judge problem '{name}' (known: {})",
            names.join(", ")
        )
    })
}

pub fn run(args: &JudgeArgs) -> Result<ExitCode, Failure> {
    let (name, text) = read_input(&args.file)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = judge::run(args.problem, &text, &mut out);
    // The answers of the cases before a bad one stay printed.
    let flushed = out.flush();
    match result {
        Ok(()) => {
            flushed.map_err(|e| Failure::bad_input(format!("cannot write the answers: {e}")))?;
            Ok(ExitCode::SUCCESS)
        }
        Err(JudgeError::BadCase { case, source }) => {
            Err(Failure::bad_input(format!("{name}: case {case}: {source}")))
        }
        Err(e) => Err(Failure::bad_input(e.to_string())),
    }
}
