//! Argument parsing, input reading, exit codes and the dispatch to one handler per command.
//!
//! Exit status: 0 answered (also when a time limit left the answer unproven), 1 the question
//! has no answer, 2 bad usage or bad input (`error:` on stderr, with where), 130 interrupted.

mod complete;
mod count;
mod guard;
mod judge;
mod ledger_run;
mod merge;
mod plan;
mod progress;
mod repair;
#[cfg(feature = "serve")]
mod serve;
mod verify;
mod weight;

use clap::{Args, CommandFactory, Parser, Subcommand};
use queens::format::{decode_utf8, ParseError};
use queens::Options;
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;

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
    #[arg(short = 't', long, value_name = "S", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Worker threads, at most 256 (default: one per core). The answer does not depend on it.
    #[arg(short = 'j', long, value_name = "T", default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// Draw no progress on stderr.
    #[arg(short = 'q', long)]
    pub quiet: bool,
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
        solver_options(self.threads, self.time_limit)
    }

    /// Whether progress may be drawn (not with `--quiet`, JSON or SVG; [`progress::Progress`]
    /// also checks that stderr is a terminal).
    pub fn shows_progress(&self) -> bool {
        !self.quiet && matches!(self.output(), Ok(OutputFormat::Text))
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

/// The most worker threads a command accepts.
pub const MAX_THREADS: usize = 256;

/// Parses a thread count from 0 (one per core) to [`MAX_THREADS`].
pub fn parse_threads(text: &str) -> Result<usize, String> {
    let threads: usize = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of threads"))?;
    if threads > MAX_THREADS {
        return Err(format!(
            "{threads} threads is more than the {MAX_THREADS} allowed (0 means one per core)"
        ));
    }
    Ok(threads)
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

/// Reads a whole input (a file, or standard input for `None` or `-`) as bytes, with the name to
/// use in messages. Reading standard input says so on stderr when it is a terminal, and
/// Ctrl-C ends the read at once (exit 130).
pub fn read_bytes(path: &Option<PathBuf>) -> Result<(String, Vec<u8>), Failure> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            let bytes = std::fs::read(p)
                .map_err(|e| Failure::bad_input(format!("cannot read {}: {e}", p.display())))?;
            Ok((p.display().to_string(), bytes))
        }
        _ => {
            if std::io::stdin().is_terminal() {
                eprintln!("reading the input from standard input; end it with Ctrl-D");
            }
            read_stdin().map(|bytes| ("<stdin>".to_string(), bytes))
        }
    }
}

/// All of standard input: directly when it is a regular file (which cannot hang), else in
/// reads that wait for data at most 50 ms at a time, so that Ctrl-C ends the wait.
fn read_stdin() -> Result<Vec<u8>, Failure> {
    let cannot = |e: std::io::Error| Failure::bad_input(format!("cannot read standard input: {e}"));
    if let Some(size) = stdin_file_size() {
        let mut bytes = Vec::with_capacity(size.saturating_add(1).min(1 << 30) as usize);
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .map_err(cannot)?;
        return Ok(bytes);
    }
    let mut stdin = std::io::stdin().lock();
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let ready = stdin_ready_within(Duration::from_millis(50));
        if interrupted() {
            return Err(Failure {
                code: EXIT_INTERRUPTED,
                message: "interrupted while reading standard input".into(),
            });
        }
        if !ready {
            continue;
        }
        match stdin.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(k) => bytes.extend_from_slice(&chunk[..k]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(cannot(e)),
        }
    }
}

/// Whether standard input has data, an end or an error to read within `wait` (so that a read
/// does not block); `false` when the wait ran out or a signal ended it.
#[cfg(unix)]
fn stdin_ready_within(wait: Duration) -> bool {
    let mut watched = libc::pollfd {
        fd: libc::STDIN_FILENO,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: `poll` reads and writes exactly the one `pollfd` passed, which lives on this
    // stack frame for the whole call.
    #[allow(unsafe_code)]
    let ready = unsafe { libc::poll(&mut watched, 1, wait.as_millis() as libc::c_int) };
    ready != 0
        && !(ready < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted)
}

/// Off Unix a read may block; it is always attempted.
#[cfg(not(unix))]
fn stdin_ready_within(_wait: Duration) -> bool {
    true
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
        Command::Man => {
            let mut text = Vec::new();
            match clap_mangen::Man::new(Cli::command()).render(&mut text) {
                Ok(()) => emit(&String::from_utf8_lossy(&text)).map(|()| Status::SUCCESS),
                Err(e) => Err(Failure::bad_input(format!("cannot write the manual: {e}"))),
            }
        }
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

/// The size of standard input when it is a regular file (`< file`), not a pipe or a terminal.
#[cfg(unix)]
fn stdin_file_size() -> Option<u64> {
    use std::os::fd::AsFd;
    let fd = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
    let meta = std::fs::File::from(fd).metadata().ok()?;
    meta.file_type().is_file().then_some(meta.len())
}

/// Standard input is never assumed to be a regular file off Unix.
#[cfg(not(unix))]
fn stdin_file_size() -> Option<u64> {
    None
}

/// Ctrl-C sets the cancel flag (the solvers stop and the best answer so far is printed); a
/// second Ctrl-C exits at once with status 130. No thread is started for it.
#[cfg(unix)]
fn catch_ctrl_c() {
    use signal_hook::consts::SIGINT;
    let flag = cancel_flag();
    // The conditional exit is registered first, so it sees the flag as the previous Ctrl-C
    // left it.
    let _ = signal_hook::flag::register_conditional_shutdown(
        SIGINT,
        EXIT_INTERRUPTED as i32,
        flag.clone(),
    );
    let _ = signal_hook::flag::register(SIGINT, flag);
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
