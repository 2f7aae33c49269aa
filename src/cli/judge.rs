//! `queens judge NAME [FILE|-]`.

use super::Status;
use super::{located, read_bytes, Failure, LimitArgs, EXIT_INTERRUPTED};
use clap::Args;
use queens::format::decode_utf8;
use queens::judge::{self, JudgeError, JudgeProblem};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `queens judge`.
#[derive(Args, Debug)]
pub struct JudgeArgs {
    /// The judge problem: lightoj1061, uva167 or uva11214.
    #[arg(value_parser = ProblemParser)]
    pub problem: JudgeProblem,
    /// Input file (default: standard input; `-` is standard input too).
    pub file: Option<PathBuf>,
    /// `-t S` bounds the whole run: once S seconds pass, each remaining case gets the best
    /// answer found at once, and stderr names the cases whose answer is not proven.
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Reads a judge problem's name and offers the names to help and shell completions.
#[derive(Clone, Copy, Debug)]
struct ProblemParser;

impl clap::builder::TypedValueParser for ProblemParser {
    type Value = JudgeProblem;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<JudgeProblem, clap::Error> {
        let text = value.to_string_lossy();
        parse_problem(&text).map_err(|why| {
            let arg = arg.map_or_else(|| "PROBLEM".to_string(), |a| a.get_id().to_string());
            let message = format!(
                "invalid value '{text}' for '<{}>': {why}\n",
                arg.to_uppercase()
            );
            clap::Error::raw(clap::error::ErrorKind::ValueValidation, message).with_cmd(cmd)
        })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            JudgeProblem::ALL
                .iter()
                .map(|(name, _)| clap::builder::PossibleValue::new(*name)),
        ))
    }
}

fn parse_problem(name: &str) -> Result<JudgeProblem, String> {
    JudgeProblem::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = JudgeProblem::ALL.iter().map(|(n, _)| *n).collect();
        format!(
            "unknown judge problem '{name}' (known: {})",
            names.join(", ")
        )
    })
}

pub fn run(args: &JudgeArgs) -> Result<Status, Failure> {
    let (name, bytes) = read_bytes(&args.file)?;
    // Input with an invalid byte: the cases wholly before it are still answered, then the
    // byte is reported (with the case it falls in, when the judge reader names one).
    let (text, bad_byte) = match decode_utf8(&bytes) {
        Ok(text) => (text, None),
        Err(error) => {
            let valid = std::str::from_utf8(&bytes).map_or_else(|e| e.valid_up_to(), |t| t.len());
            let prefix = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
            (prefix, Some(error))
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let options = args.limits.options();
    let result = judge::run(args.problem, text, &mut out, &options);
    // The answers of the cases before a bad one stay printed.
    let flushed = out.flush();
    if let Some(error) = bad_byte {
        return Err(match result {
            Err(JudgeError::BadCase { case, .. }) if case > 0 => {
                Failure::bad_input(format!("{name}: case {case}: {error}"))
            }
            _ => located(&name, &error),
        });
    }
    match result {
        Ok(summary) => {
            flushed.map_err(|e| match e.kind() {
                std::io::ErrorKind::BrokenPipe => Failure::closed_pipe(),
                _ => Failure::bad_input(format!("cannot write the answers: {e}")),
            })?;
            if !summary.unproven.is_empty() {
                let cases: Vec<String> = summary.unproven.iter().map(|c| c.to_string()).collect();
                eprintln!(
                    "warning: {name}: the time limit stopped the search before the answer of \
                     case{} {} was proven; the best found is printed",
                    if cases.len() == 1 { "" } else { "s" },
                    cases.join(", ")
                );
            }
            Ok(Status::SUCCESS)
        }
        Err(JudgeError::Interrupted { .. }) => Ok(Status::from(EXIT_INTERRUPTED)),
        Err(JudgeError::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            Err(Failure::closed_pipe())
        }
        Err(JudgeError::BadCase { case, source }) => {
            Err(Failure::bad_input(format!("{name}: case {case}: {source}")))
        }
        Err(e) => Err(Failure::bad_input(e.to_string())),
    }
}
