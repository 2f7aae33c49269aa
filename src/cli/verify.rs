//! `queens verify KIND INPUT ANSWER`: reads the input and the `--json` answer, has
//! `queens::puzzle` re-check the certificate (with `queens::verify`, which shares no code with
//! the solvers) and prints the verdict. Optimality is not checked.

use super::Status;
use super::{emit_line, located, read_input, Failure, EXIT_NO_ANSWER};
use clap::{Args, ValueEnum};
use queens::puzzle::count::{check_placement, check_solutions};
use queens::puzzle::{Complete, CompleteChoices, Guard, Puzzle, Repair, Verdict, Weight};
use std::path::PathBuf;

/// Arguments of `queens verify`.
#[derive(Args, Debug)]
#[command(
    about = "Re-check the certificate of a --json answer",
    long_about = "Re-check the certificate of a --json answer with code independent of the \
                  solvers: queens non-attacking and the claimed sum (weight), every move legal \
                  and the end position non-attacking (repair), every mark covered (guard), a \
                  valid N-queens solution per JSON line (count-solution), and a text board of N \
                  queens (placement: `queens verify placement FILE`, no answer file; the first \
                  attacking pair is named). Optimality claims are \
                  NOT checked: a valid certificate proves the value is attainable, not that it is \
                  the best.\n\nExit status: 0 valid, 1 the first violation is printed, 2 unreadable \
                  input or answer."
)]
pub struct VerifyArgs {
    /// What the answer is for.
    #[arg(value_enum)]
    pub kind: Kind,
    /// The problem: the input file given to the solver (for count-solution, the board size N;
    /// for placement, the text board to check).
    pub input: String,
    /// The answer: the solver's --json output (`-` for standard input). For count-solution,
    /// JSON lines from `queens solutions N --format json`, each checked. None for placement.
    pub answer: Option<PathBuf>,
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
    /// A text board of N queens (`.` and `q`, as repair reads it): no two may attack.
    Placement,
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
    if args.kind == Kind::Placement {
        if let Some(extra) = &args.answer {
            return Err(Failure::bad_input(format!(
                "verify placement takes one FILE, the board; '{}' is one too many",
                extra.display()
            )));
        }
        let (name, text) = read_input(&Some(PathBuf::from(&args.input)))?;
        let verdict = check_placement(&text).map_err(|e| located(&name, &e))?;
        return report(verdict);
    }
    let Some(answer_path) = &args.answer else {
        return Err(Failure::bad_input(
            "verify needs the ANSWER file after INPUT (the solver's --json output)",
        ));
    };
    let (answer_name, answer) = read_input(&Some(answer_path.clone()))?;
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
        Kind::Placement => unreachable!("answered above"),
    };
    report(verdict.map_err(|e| Failure::bad_input(format!("{answer_name}: {e}")))?)
}

/// Prints a verdict: `valid: ...` (exit 0) or `invalid: ...` (exit 1).
fn report(verdict: Verdict) -> Result<Status, Failure> {
    match verdict {
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
