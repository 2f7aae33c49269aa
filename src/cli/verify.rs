//! `queens verify KIND INPUT ANSWER`: reads the input and the `--json` answer, has
//! `queens::puzzle` re-check the certificate (with `queens::verify`, which shares no code with
//! the solvers) and prints the verdict. Optimality is not checked.

use super::Status;
use super::{emit_line, located, read_input, Failure, EXIT_NO_ANSWER};
use clap::{Args, ValueEnum};
use queens::puzzle::count::check_solutions;
use queens::puzzle::{Complete, CompleteChoices, Guard, Puzzle, Repair, Verdict, Weight};
use std::path::PathBuf;

/// Arguments of `queens verify`.
#[derive(Args, Debug)]
#[command(
    about = "Re-check the certificate of a --json answer",
    long_about = "Re-check the certificate of a --json answer with code independent of the \
                  solvers: queens non-attacking and the claimed sum (weight), every move legal \
                  and the end position non-attacking (repair), every mark covered (guard), a \
                  valid N-queens solution per JSON line (count-solution). Optimality claims are \
                  NOT checked: a valid certificate proves the value is attainable, not that it is \
                  the best.\n\nExit status: 0 valid, 1 the first violation is printed, 2 unreadable \
                  input or answer."
)]
pub struct VerifyArgs {
    /// What the answer is for.
    #[arg(value_enum)]
    pub kind: Kind,
    /// The problem: the input file given to the solver (for count-solution, the board size N).
    pub input: String,
    /// The answer: the solver's --json output (`-` for standard input). For count-solution,
    /// JSON lines from `queens solutions N --format json`, each checked.
    pub answer: PathBuf,
    /// For `complete` with a CSPLib .param input: the number of its diagonals the answer
    /// was for (default: all).
    #[arg(long, value_name = "D")]
    pub diagonals: Option<usize>,
}

/// The kinds of answer `verify` checks.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A `queens weight --json` answer.
    Weight,
    /// A `queens repair --json` answer.
    Repair,
    /// A `queens guard --json` answer.
    Guard,
    /// `queens solutions N --format json` lines.
    CountSolution,
    /// A `queens complete --json` answer (a completion).
    Complete,
}

/// The problem input named `path`, read by `P`; a JSON text there gets the hint that the
/// arguments may be swapped.
fn input<P: Puzzle>(path: &str) -> Result<P::Input, Failure> {
    let (name, text) = read_input(&Some(PathBuf::from(path)))?;
    P::read(&text).map_err(|e| {
        let mut failure = located(&name, &e);
        if text.trim_start().starts_with('{') {
            failure.message.push_str(
                " (this looks like a JSON answer: did you swap them? INPUT comes first, then \
                 ANSWER)",
            );
        }
        failure
    })
}

/// Runs `queens verify`.
pub fn run(args: &VerifyArgs) -> Result<Status, Failure> {
    let (answer_name, answer) = read_input(&Some(args.answer.clone()))?;
    let verdict = match args.kind {
        Kind::Weight => Weight::check(&input::<Weight>(&args.input)?, &answer),
        Kind::Repair => Repair::check(&input::<Repair>(&args.input)?, &answer),
        Kind::Guard => Guard::check(&input::<Guard>(&args.input)?, &answer),
        Kind::Complete => {
            let (name, text) = read_input(&Some(PathBuf::from(&args.input)))?;
            let choices = CompleteChoices {
                diagonals: args.diagonals,
                ..CompleteChoices::default()
            };
            let board = Complete::read_with(&text, &choices).map_err(|e| located(&name, &e))?;
            Complete::check(&board, &answer)
        }
        Kind::CountSolution => {
            let n: usize = args.input.trim().parse().map_err(|_| {
                Failure::bad_input(format!(
                    "count-solution takes the board size N as INPUT, not '{}'",
                    args.input
                ))
            })?;
            check_solutions(n, &answer)
        }
    };
    match verdict.map_err(|e| Failure::bad_input(format!("{answer_name}: {e}")))? {
        Verdict::Valid(message) => {
            emit_line(&message)?;
            Ok(Status::SUCCESS)
        }
        Verdict::Invalid(why) => {
            emit_line(&format!("invalid: {why}"))?;
            Ok(Status::from(EXIT_NO_ANSWER))
        }
    }
}
