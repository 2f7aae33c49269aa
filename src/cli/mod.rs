//! Argument parsing, input reading, exit codes and the dispatch to one handler per command.
//!
//! Exit status: 0 answered (also when a time limit left the answer unproven), 1 the question
//! has no answer, 2 bad usage or bad input (`error:` on stderr, with where), 130 interrupted.

mod count;
mod guard;
mod judge;
mod ledger_run;
mod merge;
mod plan;
mod repair;
#[cfg(feature = "serve")]
mod serve;
mod verify;
mod weight;

use clap::{Args, Parser, Subcommand};
use queens::format::{decode_utf8, ParseError};
use queens::Options;
use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// Exact, certified answers to chessboard queen problems.
#[derive(Parser, Debug)]
#[command(name = "queens", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the N-queens solutions, all and up to rotation and reflection.
    Count(count::CountArgs),
    /// Print N-queens solutions as text boards, JSON lines or SVG.
    Solutions(count::SolutionsArgs),
    /// Best-sum placement of N non-attacking queens on a grid of integers.
    Weight(weight::WeightArgs),
    /// Fewest real queen moves to a non-attacking position, with the moves.
    Repair(repair::RepairArgs),
    /// Fewest queens that occupy or attack every marked square.
    Guard(guard::GuardArgs),
    /// Answer a judge problem's input in the judge's exact output format.
    Judge(judge::JudgeArgs),
    /// Re-check the certificate of a --json answer (not its optimality).
    Verify(verify::VerifyArgs),
    /// List the independent work units of `count N` (stable ids, heaviest first).
    Plan(plan::PlanArgs),
    /// Check ledgers of `count --ledger` runs and print the total, or what is missing.
    Merge(merge::MergeArgs),
    /// Serve the web page with an interactive board and its JSON API (127.0.0.1:8080).
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
}

/// Exit status for "the question has no answer".
pub const EXIT_NO_ANSWER: u8 = 1;
/// Exit status for bad usage or bad input.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status after Ctrl-C.
pub const EXIT_INTERRUPTED: u8 = 130;

/// A command that could not answer: the message goes to stderr after `error: `.
#[derive(Debug)]
pub struct Failure {
    /// Exit status.
    pub code: u8,
    /// What went wrong, and where.
    pub message: String,
}

impl Failure {
    /// Bad usage or bad input (exit 2).
    pub fn bad_input(message: impl Into<String>) -> Self {
        Failure {
            code: EXIT_BAD_INPUT,
            message: message.into(),
        }
    }
}

/// How a search command writes its answer.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// A short human answer with the board drawn.
    Text,
    /// One JSON object (the command-line contract's answer shape).
    Json,
    /// A self-contained SVG picture of the answer.
    Svg,
}

/// Options shared by the search commands.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Print one JSON object instead of the text answer (short for `--format json`).
    #[arg(long)]
    pub json: bool,
    /// Output format: text (default), json or svg.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<OutputFormat>,
    /// Stop after S seconds with the best answer found and its proven bound.
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Worker threads (default: one per core). The answer does not depend on it.
    #[arg(long, value_name = "T", default_value_t = 0)]
    pub threads: usize,
}

impl SearchArgs {
    /// The output format asked for: `--format`, or JSON for `--json`; both must agree.
    pub fn output(&self) -> Result<OutputFormat, Failure> {
        match (self.json, self.format) {
            (true, Some(f)) if f != OutputFormat::Json => Err(Failure::bad_input(
                "--json (short for --format json) conflicts with --format given another value",
            )),
            (true, _) => Ok(OutputFormat::Json),
            (false, f) => Ok(f.unwrap_or(OutputFormat::Text)),
        }
    }

    /// Solver options for these arguments, wired to Ctrl-C.
    pub fn options(&self) -> Options {
        Options {
            threads: self.threads,
            time_limit: self.time_limit,
            cancel: Some(cancel_flag()),
            progress: None,
        }
    }
}

/// Parses a non-negative, finite number of seconds.
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !secs.is_finite() || !(0.0..=1e9).contains(&secs) {
        return Err(format!("'{text}' is not a number of seconds from 0 to 1e9"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// The process-wide flag that Ctrl-C sets; solvers poll it through their options.
pub fn cancel_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| Arc::new(AtomicBool::new(false)))
        .clone()
}

/// Whether Ctrl-C was pressed.
pub fn interrupted() -> bool {
    cancel_flag().load(Ordering::Relaxed)
}

/// Whether progress may be drawn on stderr (it is a terminal).
pub fn stderr_is_terminal() -> bool {
    std::io::stderr().is_terminal()
}

/// Reads a whole input (a file, or standard input for `None` or `-`) as bytes, with the name to
/// use in messages.
pub fn read_bytes(path: &Option<PathBuf>) -> Result<(String, Vec<u8>), Failure> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            let bytes = std::fs::read(p)
                .map_err(|e| Failure::bad_input(format!("cannot read {}: {e}", p.display())))?;
            Ok((p.display().to_string(), bytes))
        }
        _ => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| Failure::bad_input(format!("cannot read standard input: {e}")))?;
            Ok(("<stdin>".to_string(), bytes))
        }
    }
}

/// Reads a whole input (a file, or standard input for `None` or `-`) as UTF-8 text; errors name
/// the file and the line and column of an invalid byte.
pub fn read_input(path: &Option<PathBuf>) -> Result<(String, String), Failure> {
    let (name, bytes) = read_bytes(path)?;
    let text = decode_utf8(&bytes).map_err(|e| located(&name, &e))?;
    Ok((name, text.to_string()))
}

/// A bad-input failure for a parse error in the input called `name`.
pub fn located(name: &str, error: &ParseError) -> Failure {
    Failure::bad_input(format!("{name}: {error}"))
}

/// Runs the command line and maps the outcome to an exit status.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_BAD_INPUT } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let flag = cancel_flag();
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            // A second Ctrl-C: the user does not want to wait for the partial answer.
            std::process::exit(EXIT_INTERRUPTED as i32);
        }
    });
    let outcome = match &cli.command {
        Command::Count(args) => count::run_count(args),
        Command::Solutions(args) => count::run_solutions(args),
        Command::Weight(args) => weight::run(args),
        Command::Repair(args) => repair::run(args),
        Command::Guard(args) => guard::run(args),
        Command::Judge(args) => judge::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Plan(args) => plan::run(args),
        Command::Merge(args) => merge::run(args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(args),
    };
    match outcome {
        Ok(code) => code,
        Err(failure) => {
            eprintln!("error: {}", failure.message);
            ExitCode::from(failure.code)
        }
    }
}
