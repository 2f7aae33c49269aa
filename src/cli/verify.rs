//! `queens verify KIND INPUT ANSWER`: re-checks the certificate in a `--json` answer with
//! `queens::verify`, which shares no code with the solvers. It checks what the answer *is* (a
//! valid placement with the claimed sum, a legal move sequence, a covering), not that it is
//! optimal.

use super::{located, read_input, Failure, EXIT_NO_ANSWER};
use clap::{Args, ValueEnum};
use queens::board::Square;
use queens::format::{parse_mark_grid, parse_position, parse_weight_grid, ParseError};
use queens::repair::Move;
use queens::verify::{self, Violation};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::path::PathBuf;
use std::process::ExitCode;

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
}

#[derive(Deserialize)]
struct WeightAnswer {
    best: i128,
    queens: Vec<Square>,
}

#[derive(Deserialize)]
struct RepairAnswer {
    moves: usize,
    plan: Vec<Move>,
    #[serde(rename = "final")]
    final_queens: Vec<Square>,
}

#[derive(Deserialize)]
struct GuardAnswer {
    queens: usize,
    placement: Vec<Square>,
    #[serde(default)]
    independent: bool,
}

#[derive(Deserialize)]
struct SolutionLine {
    n: usize,
    queens: Vec<Square>,
}

fn parse_answer<T: DeserializeOwned>(name: &str, text: &str) -> Result<T, Failure> {
    serde_json::from_str(text).map_err(|e| {
        let error = ParseError::at(
            e.line().max(1),
            e.column().max(1),
            format!("not a valid answer: {e}"),
        );
        located(name, &error)
    })
}

fn input_file(path: &str) -> Result<(String, String), Failure> {
    read_input(&Some(PathBuf::from(path)))
}

/// Runs `queens verify`.
pub fn run(args: &VerifyArgs) -> Result<ExitCode, Failure> {
    let (answer_name, answer) = read_input(&Some(args.answer.clone()))?;
    let verdict: Result<String, Violation> = match args.kind {
        Kind::Weight => {
            let (name, text) = input_file(&args.input)?;
            let grid = parse_weight_grid(&text).map_err(|e| located(&name, &e))?;
            let a: WeightAnswer = parse_answer(&answer_name, &answer)?;
            verify::weight(&grid, &a.queens, a.best).map(|()| {
                format!(
                    "valid: {} non-attacking queens on the {}x{} grid, sum {} as claimed",
                    a.queens.len(),
                    grid.n,
                    grid.n,
                    a.best
                )
            })
        }
        Kind::Repair => {
            let (name, text) = input_file(&args.input)?;
            let start = parse_position(&text).map_err(|e| located(&name, &e))?;
            let a: RepairAnswer = parse_answer(&answer_name, &answer)?;
            let replay = verify::repair(&start, &a.plan, &a.final_queens);
            match replay {
                Ok(()) if a.plan.len() != a.moves => Err(Violation::WrongValue {
                    claimed: a.moves as i128,
                    actual: a.plan.len() as i128,
                }),
                Ok(()) => Ok(format!(
                    "valid: {} legal moves lead to {} non-attacking queens",
                    a.plan.len(),
                    a.final_queens.len()
                )),
                Err(v) => Err(v),
            }
        }
        Kind::Guard => {
            let (name, text) = input_file(&args.input)?;
            let marks = parse_mark_grid(&text).map_err(|e| located(&name, &e))?;
            let a: GuardAnswer = parse_answer(&answer_name, &answer)?;
            let checked = if a.independent {
                verify::independent_guard(&marks, &a.placement)
            } else {
                verify::guard(&marks, &a.placement)
            };
            match checked {
                Ok(()) if a.placement.len() != a.queens => Err(Violation::WrongValue {
                    claimed: a.queens as i128,
                    actual: a.placement.len() as i128,
                }),
                Ok(()) => Ok(format!(
                    "valid: {} {}queens guard every marked square of the {}x{} board",
                    a.queens,
                    if a.independent {
                        "mutually non-attacking "
                    } else {
                        ""
                    },
                    marks.rows,
                    marks.cols
                )),
                Err(v) => Err(v),
            }
        }
        Kind::CountSolution => {
            let n: usize = args.input.trim().parse().map_err(|_| {
                Failure::bad_input(format!(
                    "count-solution takes the board size N as INPUT, not '{}'",
                    args.input
                ))
            })?;
            let mut checked = 0usize;
            let mut seen: std::collections::HashMap<Vec<Square>, usize> = Default::default();
            let mut verdict = Ok(());
            for (i, line) in answer.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let s: SolutionLine = serde_json::from_str(line).map_err(|e| {
                    located(
                        &answer_name,
                        &ParseError::at(i + 1, e.column().max(1), format!("not a solution: {e}")),
                    )
                })?;
                let result = if s.n != n {
                    Err(Violation::WrongCount {
                        expected: n,
                        found: s.n,
                    })
                } else {
                    verify::n_queens_solution(n, &s.queens)
                };
                if let Err(v) = result {
                    verdict = Err((i + 1, v.to_string()));
                    break;
                }
                let mut key = s.queens.clone();
                key.sort();
                if let Some(first) = seen.insert(key, i + 1) {
                    verdict = Err((i + 1, format!("the same solution as line {first}")));
                    break;
                }
                checked += 1;
            }
            match verdict {
                Err((line, v)) => {
                    println!("invalid: line {line}: {v}");
                    return Ok(ExitCode::from(EXIT_NO_ANSWER));
                }
                Ok(()) if checked == 0 => {
                    return Err(Failure::bad_input(format!(
                        "{answer_name}: no solution line to check"
                    )))
                }
                Ok(()) => Ok(format!("valid: {checked} distinct {n}-queens solutions")),
            }
        }
    };
    match verdict {
        Ok(message) => {
            println!("{message}");
            Ok(ExitCode::SUCCESS)
        }
        Err(v) => {
            println!("invalid: {v}");
            Ok(ExitCode::from(EXIT_NO_ANSWER))
        }
    }
}
