//! Argument parsing, input reading, exit codes and the dispatch to one handler per command.
//!
//! Exit status: 0 answered (also when a time limit left the answer unproven), 1 the question
//! has no answer, 2 bad usage or bad input (`error:` on stderr, with where), 130 interrupted.

mod answer;
mod complete;
mod count;
mod flags;
mod guard;
mod input;
mod judge;
mod ledger_run;
mod manual;
mod merge;
mod plan;
mod progress;
mod repair;
#[cfg(feature = "serve")]
mod serve;
mod verify;
mod weight;

use clap::{CommandFactory, Parser, Subcommand};
pub use flags::{parse_seconds, parse_size, parse_threads, LimitArgs, OutputFormat, SearchArgs};
pub use input::{located, read_bytes, read_input};
use queens::Options;
use std::io::{IsTerminal, Write};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// Examples shown under `queens --help`.
const EXAMPLES: &str = "\
Examples:
  queens count 12                          14200 solutions, 1787 unique
  queens solutions 8 --limit 3             three boards as text
  queens weight examples/weights.txt       the best-sum placement, proven
  queens repair examples/board.txt         the fewest real moves, with the moves
  queens guard --full 8 --json             5 queens guard the 8 x 8 board
  queens complete examples/nauck.txt       Nauck's 1850 puzzle, completed
  queens judge uva167 examples/judge/uva167.in
  queens repair --json board.txt > a.json && queens verify repair board.txt a.json";

/// Exact, certified answers to chessboard queen problems.
#[derive(Parser, Debug)]
#[command(name = "queens", version, about, long_about = None, after_help = EXAMPLES)]
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
    /// Complete a partial board (placed queens, blocked squares, closed diagonals), or count
    /// its completions.
    Complete(complete::CompleteArgs),
    /// Answer a judge problem's input in the judge's exact output format.
    Judge(judge::JudgeArgs),
    /// Re-check the certificate of a --json answer (not its optimality).
    Verify(verify::VerifyArgs),
    /// List the independent work units of `count N` (stable ids, heaviest first).
    Plan(plan::PlanArgs),
    /// Check ledgers of `count --ledger` runs and print the total, or what is missing.
    Merge(merge::MergeArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish) on stdout.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) on stdout, e.g. `queens man | man -l -`.
    Man,
    /// Serve the web page with an interactive board and its JSON API (127.0.0.1:8080).
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
}

/// The command line of `queens judge` alone (see [`main`]).
#[derive(Parser, Debug)]
#[command(name = "queens", version)]
struct JudgeCli {
    #[command(subcommand)]
    command: JudgeOnly,
}

#[derive(Subcommand, Debug)]
enum JudgeOnly {
    /// Answer a judge problem's input in the judge's exact output format.
    Judge(judge::JudgeArgs),
}

impl JudgeOnly {
    fn into_args(self) -> judge::JudgeArgs {
        match self {
            JudgeOnly::Judge(args) => args,
        }
    }
}

/// Exit status for "the question has no answer".
pub const EXIT_NO_ANSWER: u8 = 1;
/// Exit status for bad usage or bad input.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status after Ctrl-C.
pub const EXIT_INTERRUPTED: u8 = 130;

/// A command's exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status(pub u8);

impl Status {
    /// Exit status 0.
    pub const SUCCESS: Status = Status(0);
}

impl From<u8> for Status {
    fn from(code: u8) -> Self {
        Status(code)
    }
}

/// A command that could not answer: the message goes to stderr after `error: `.
#[derive(Debug)]
pub struct Failure {
    /// Exit status.
    pub code: u8,
    /// What went wrong, and where.
    pub message: String,
}

impl Failure {
    /// The output pipe was closed by the reader (`| head`): end quietly, with what was printed.
    pub fn closed_pipe() -> Self {
        Failure {
            code: 0,
            message: String::new(),
        }
    }

    /// Bad usage or bad input (exit 2).
    pub fn bad_input(message: impl Into<String>) -> Self {
        Failure {
            code: EXIT_BAD_INPUT,
            message: message.into(),
        }
    }
}

/// The one place solver options are built: the thread count and time limit asked for, and the
/// cancel flag that Ctrl-C sets.
pub fn solver_options(threads: usize, time_limit: Option<Duration>) -> Options {
    Options {
        threads,
        time_limit,
        cancel: Some(cancel_flag()),
        ..Options::default()
    }
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

/// Writes `text` to stdout and flushes it; a closed pipe becomes [`Failure::closed_pipe`].
pub fn emit(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(Failure::closed_pipe()),
        Err(e) => Err(Failure::bad_input(format!("cannot write the answer: {e}"))),
    }
}

/// [`emit`] with a newline after `text`.
pub fn emit_line(text: &str) -> Result<(), Failure> {
    emit(&format!("{text}\n"))
}

/// Runs the command line and maps the outcome to an exit status.
pub fn main() -> u8 {
    run().0
}

/// The command line's outcome as a [`Status`].
fn run() -> Status {
    // Judge runs are often many tiny processes: their arguments are parsed by a command tree
    // holding only `judge`, which clap builds in a fraction of the time of the whole tree.
    let parsed = if std::env::args_os().nth(1).is_some_and(|a| a == "judge") {
        JudgeCli::try_parse().map(|j| Cli {
            command: Command::Judge(j.command.into_args()),
        })
    } else {
        Cli::try_parse()
    };
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_BAD_INPUT } else { 0 };
            let _ = e.print();
            return Status::from(code);
        }
    };
    catch_ctrl_c();
    let outcome = match &cli.command {
        Command::Count(args) => count::run_count(args),
        Command::Solutions(args) => count::run_solutions(args),
        Command::Weight(args) => weight::run(args),
        Command::Repair(args) => repair::run(args),
        Command::Guard(args) => guard::run(args),
        Command::Complete(args) => complete::run(args),
        Command::Judge(args) => judge::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Plan(args) => plan::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Completions { shell } => {
            let mut text = Vec::new();
            clap_complete::generate(*shell, &mut Cli::command(), "queens", &mut text);
            emit(&String::from_utf8_lossy(&text)).map(|()| Status::SUCCESS)
        }
        Command::Man => match manual::render(Cli::command()) {
            Ok(text) => emit(&text).map(|()| Status::SUCCESS),
            Err(e) => Err(Failure::bad_input(format!("cannot write the manual: {e}"))),
        },
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(args),
    };
    match outcome {
        Ok(code) => code,
        Err(failure) if failure.message.is_empty() => Status::from(failure.code),
        Err(failure) => {
            eprintln!("error: {}", failure.message);
            Status::from(failure.code)
        }
    }
}

/// Writes to a closed pipe or socket return an error (the commands then end quietly) instead
/// of killing the process: SIGPIPE is caught and otherwise ignored, as Rust's start-up would.
#[cfg(unix)]
pub fn ignore_closed_pipes() {
    let _ = signal_hook::flag::register(
        signal_hook::consts::SIGPIPE,
        Arc::new(AtomicBool::new(false)),
    );
}

/// Nothing to do where there is no SIGPIPE.
#[cfg(not(unix))]
pub fn ignore_closed_pipes() {}

/// Ctrl-C (SIGINT) and SIGTERM (what a cluster's scheduler sends at a job's wall time) set the
/// cancel flag (the solvers stop and the best answer so far is printed); a second one exits at
/// once with status 130. No thread is started for it.
#[cfg(unix)]
fn catch_ctrl_c() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let flag = cancel_flag();
    for signal in [SIGINT, SIGTERM] {
        // The conditional exit is registered first, so it sees the flag as the previous
        // signal left it.
        let _ = signal_hook::flag::register_conditional_shutdown(
            signal,
            EXIT_INTERRUPTED as i32,
            flag.clone(),
        );
        let _ = signal_hook::flag::register(signal, flag.clone());
    }
}

/// Ctrl-C sets the cancel flag; a second Ctrl-C exits at once with status 130.
#[cfg(not(unix))]
fn catch_ctrl_c() {
    let flag = cancel_flag();
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_INTERRUPTED as i32);
        }
    });
}
