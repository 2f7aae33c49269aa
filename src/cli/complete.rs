//! `queens complete`: n-queens completion, blocked n-queens and excluded diagonals.

use super::ledger_run::LedgerArgs;
use super::progress::Progress;
use super::Status;
use super::{emit, emit_line, interrupted, located, read_input, Failure, OutputFormat, SearchArgs};
use super::{EXIT_INTERRUPTED, EXIT_NO_ANSWER};
use clap::Args;
use queens::complete::{self, CompleteError, PartialBoard};
use queens::format::complete as output;
use queens::format::scale::{complete_run_json, complete_run_text, RunPlace};
use queens::format::{svg, RunInfo};
use queens::scale::{read_contents, CompletePlan, Job, RunReport};
use queens::Options;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Arguments of `queens complete`.
#[derive(Args, Debug)]
#[command(
    long_about = "Complete a board: place a queen in every row and column that has none, so \
                  that no two queens attack each other, off the blocked squares and closed \
                  diagonals. The input is a board (n lines of n characters: '.' free, 'Q' a \
                  placed queen, 'x' blocked) or a CSPLib prob079 .param file (excluded \
                  diagonals; --diagonals D closes its first D).\n\nExit status: 0 a completion \
                  (or a count), 1 no completion exists, 2 bad input, 130 interrupted."
)]
pub struct CompleteArgs {
    /// Input file (default: standard input; `-` is standard input too).
    pub file: Option<PathBuf>,
    /// For a CSPLib .param file: close only its first D diagonals (default: all listed).
    #[arg(long, value_name = "D")]
    pub diagonals: Option<usize>,
    /// Count all completions instead of finding one.
    #[arg(long, conflicts_with = "all")]
    pub count: bool,
    /// List every completion (then their number).
    #[arg(long)]
    pub all: bool,
    /// With --count and --ledger: cut the units D branching decisions below the root
    /// (default: the shallowest cut with 4096 units or more; a ledger that exists keeps its own).
    #[arg(long, value_name = "D", requires = "ledger", value_parser = clap::value_parser!(u32).range(0..=16))]
    pub depth: Option<u32>,
    /// A resumable, sharded count (with --count) through --ledger FILE; total the shards'
    /// ledgers with `queens merge`.
    #[command(flatten)]
    pub ledger: LedgerArgs,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// Reads the board, decides (or counts, or lists) its completions and prints the answer.
pub fn run(args: &CompleteArgs) -> Result<Status, Failure> {
    let format = args.search.output()?;
    if args.all && format == OutputFormat::Svg {
        return Err(Failure::bad_input(
            "--all lists completions as text or JSON; --format svg draws one completion",
        ));
    }
    let (name, text) = read_input(&args.file)?;
    let board = output::parse_input(&text, args.diagonals).map_err(|e| located(&name, &e))?;
    let mut options = args.search.options();
    let started = Instant::now();
    let bad = |e: CompleteError| Failure::bad_input(format!("{name}: {e}"));
    if args.ledger.wanted() {
        if !args.count {
            return Err(Failure::bad_input(
                "--ledger goes with --count (a sharded count of the completions)",
            ));
        }
        if format == OutputFormat::Svg {
            return Err(Failure::bad_input(
                "a count has no SVG output (text or json)",
            ));
        }
        complete::check(&board).map_err(bad)?;
        return run_ledger_count(args, &board, &options, format == OutputFormat::Json);
    }
    let n = board.n;
    if args.count || args.all {
        let progress = Arc::new(Progress::new(
            args.search.shows_progress(),
            &format!("counting the completions of the {n}x{n} board"),
        ));
        if progress.active() && args.count {
            let progress = progress.clone();
            options.progress = Some(Arc::new(move |done, total| {
                progress.units(done, total, "subtrees", done as f64, total as f64);
            }));
        }
        let mut listed = Vec::new();
        let mut text_out = Ok(());
        let tally = if args.count {
            complete::count(&board, &options).map_err(bad)?
        } else {
            complete::list(&board, &options, |queens| match format {
                OutputFormat::Text => {
                    text_out = emit(&format!("{}\n", output::draw(&board, queens)));
                    text_out.is_ok()
                }
                _ => {
                    listed.push(queens.to_vec());
                    true
                }
            })
            .map_err(bad)?
        };
        text_out?;
        drop(options.progress.take());
        drop(progress);
        let info = RunInfo::measured(started, &options);
        let listed = args.all.then_some(listed.as_slice());
        match format {
            OutputFormat::Json => emit_line(&output::json_tally(&board, &tally, listed, info))?,
            _ => emit(&output::text_tally(&board, &tally))?,
        }
        return Ok(if interrupted() {
            Status::from(EXIT_INTERRUPTED)
        } else {
            Status::SUCCESS
        });
    }
    let progress = Progress::new(
        args.search.shows_progress(),
        &format!("searching for a completion of the {n}x{n} board"),
    );
    let decision = complete::decide(&board, &options).map_err(bad)?;
    drop(progress);
    let info = RunInfo::measured(started, &options);
    match format {
        OutputFormat::Json => emit_line(&output::json_decision(&board, &decision, info))?,
        OutputFormat::Svg => emit(&svg::complete(
            &board,
            decision.completion.as_deref(),
            decision.stopped,
        ))?,
        OutputFormat::Text => emit(&output::text_decision(&board, &decision))?,
    }
    if interrupted() {
        return Ok(Status::from(EXIT_INTERRUPTED));
    }
    if decision.completion.is_none() && !decision.stopped {
        return Ok(Status::from(EXIT_NO_ANSWER));
    }
    Ok(Status::SUCCESS)
}

/// `queens complete BOARD --count --ledger FILE [--shard I/K] [--depth D]`: counts the units of
/// the board's completion plan that the ledger lacks (see docs/complete.md). A ledger that
/// exists for the same board keeps the depth it was started with.
fn run_ledger_count(
    args: &CompleteArgs,
    board: &PartialBoard,
    options: &Options,
    json: bool,
) -> Result<Status, Failure> {
    let key = board.key();
    let depth = args.depth.or_else(|| {
        let bytes = std::fs::read(args.ledger.ledger.as_ref()?).ok()?;
        match read_contents(&bytes).header?.1.job {
            Job::Complete(job) if job.board == key => Some(job.depth),
            _ => None,
        }
    });
    let started = std::time::Instant::now();
    let plan = CompletePlan::new(board, depth).map_err(|e| Failure::bad_input(e.to_string()))?;
    let job = plan.complete_job();
    let render = |report: &RunReport, place: &RunPlace<'_>, json: bool| {
        if json {
            complete_run_json(report, place, job) + "\n"
        } else {
            complete_run_text(report, place, job)
        }
    };
    super::ledger_run::run_plan(
        &plan,
        &args.ledger,
        options,
        (json, args.search.quiet),
        started,
        &render,
    )
}
