//! `queens verify KIND INPUT ANSWER`: reads the input and the `--json` answer with
//! `queens::format`, re-checks the certificate with `queens::verify` (which shares no code with
//! the solvers) and prints the verdict. Optimality is not checked.

use super::Status;
use super::{emit_line, located, read_input, Failure, EXIT_NO_ANSWER};
use clap::{Args, ValueEnum};
use queens::format::answer::{
    read_answer, read_solution_lines, GuardCertificate, RepairCertificate, WeightCertificate,
};
use queens::format::{parse_mark_grid, parse_position, parse_weight_grid, ParseError};
use queens::verify::{self, Violation};
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

/// The problem input named `path`, parsed by `parse`; a JSON text there gets the hint that the
/// arguments may be swapped.
fn input<T>(path: &str, parse: impl Fn(&str) -> Result<T, ParseError>) -> Result<T, Failure> {
    let (name, text) = read_input(&Some(PathBuf::from(path)))?;
    parse(&text).map_err(|e| {
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
    let in_answer = |e: ParseError| located(&answer_name, &e);
    let verdict: Result<String, Violation> = match args.kind {
        Kind::Weight => {
            let grid = input(&args.input, parse_weight_grid)?;
            let a: WeightCertificate = read_answer("weight", &answer).map_err(in_answer)?;
            verify::weight(&grid, &a.queens, a.sum).map(|()| a.valid_text(grid.n))
        }
        Kind::Repair => {
            let start = input(&args.input, parse_position)?;
            let a: RepairCertificate = read_answer("repair", &answer).map_err(in_answer)?;
            verify::repair(&start, &a.plan, &a.final_queens)
                .and_then(|()| verify::claimed_count(a.moves, a.plan.len()))
                .map(|()| a.valid_text())
        }
        Kind::Guard => {
            let marks = input(&args.input, parse_mark_grid)?;
            let a: GuardCertificate = read_answer("guard", &answer).map_err(in_answer)?;
            let covered = if a.independent {
                verify::independent_guard(&marks, &a.queens)
            } else {
                verify::guard(&marks, &a.queens)
            };
            covered
                .and_then(|()| verify::claimed_count(a.guards, a.queens.len()))
                .map(|()| a.valid_text(marks.rows, marks.cols))
        }
        Kind::Complete => {
            let board = input(&args.input, |t| {
                queens::format::complete::parse_input(t, args.diagonals)
            })?;
            let a: queens::format::complete::CompletionCertificate =
                read_answer("complete", &answer).map_err(in_answer)?;
            match (a.completed, a.queens) {
                (true, Some(q)) => verify::completion(&board, &q).map(|()| {
                    queens::format::complete::valid_completion_text(
                        board.n,
                        q.len(),
                        board.queens.len(),
                    )
                }),
                _ => {
                    emit_line(
                        "invalid: the answer claims no completion, so there is none to check",
                    )?;
                    return Ok(Status::from(EXIT_NO_ANSWER));
                }
            }
        }
        Kind::CountSolution => {
            let n: usize = args.input.trim().parse().map_err(|_| {
                Failure::bad_input(format!(
                    "count-solution takes the board size N as INPUT, not '{}'",
                    args.input
                ))
            })?;
            let lines = read_solution_lines(&answer).map_err(in_answer)?;
            if lines.is_empty() {
                return Err(Failure::bad_input(format!(
                    "{answer_name}: no solution line to check"
                )));
            }
            let mut solutions = Vec::with_capacity(lines.len());
            for (line, s) in &lines {
                if s.n != n {
                    emit_line(&format!(
                        "invalid: line {line}: a solution of size {} where {n} was given",
                        s.n
                    ))?;
                    return Ok(Status::from(EXIT_NO_ANSWER));
                }
                solutions.push(s.queens.clone());
            }
            if let Err((i, v)) = verify::distinct_solutions(n, &solutions) {
                let why = match v {
                    Violation::Duplicate { first } => {
                        format!("the same solution as line {}", lines[first - 1].0)
                    }
                    v => v.to_string(),
                };
                emit_line(&format!("invalid: line {}: {why}", lines[i].0))?;
                return Ok(Status::from(EXIT_NO_ANSWER));
            }
            Ok(queens::format::answer::valid_solutions_text(n, lines.len()))
        }
    };
    match verdict {
        Ok(message) => {
            emit_line(&message)?;
            Ok(Status::SUCCESS)
        }
        Err(v) => {
            emit_line(&format!("invalid: {v}"))?;
            Ok(Status::from(EXIT_NO_ANSWER))
        }
    }
}
