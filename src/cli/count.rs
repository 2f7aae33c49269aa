//! `queens count` and `queens solutions`.

use super::progress::Progress;
use super::Status;
use super::{answer, interrupted, solver_options, Failure, OutputFormat};
use super::{EXIT_INTERRUPTED, EXIT_NO_ANSWER};
use clap::{Args, ValueEnum};
use queens::count::MAX_N;
use queens::format::count::listed_solution;
use queens::format::solutions::json_line;
use queens::format::svg;
use queens::puzzle::{self, Count, CountChoices, Listing};
use std::io::Write;
use std::sync::Arc;

/// Arguments of `queens count`.
#[derive(Args, Debug)]
pub struct CountArgs {
    /// Board size, from 1 to 32.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=MAX_N as i64))]
    pub n: u32,
    /// `--json`, `--time-limit S` (the partial count, marked partial) and `--threads T`; no
    /// SVG (a count has no picture).
    #[command(flatten)]
    pub search: super::SearchArgs<super::flags::PlainFormat>,
    /// Resumable and sharded counting.
    #[command(flatten)]
    pub ledger: super::ledger_run::LedgerArgs,
    /// The most memory the count may take, in MiB (default 256 up to N = 19 and 4096 above, or
    /// QUEENS_MEMORY_MIB): the join (N = 16..23) cuts its work into units whose tables fit it.
    /// A new ledger's plan is cut for it (every shard of one count must give the same); a
    /// ledger that exists keeps the cap its header names.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub memory: Option<u64>,
}

/// How `queens solutions` draws the solutions.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolutionFormat {
    /// Text boards, `Q` and `.`, separated by blank lines.
    Text,
    /// One JSON object per line: {"n":8,"index":1,"queens":[[0,0],[1,4],...]}.
    Json,
    /// One SVG document drawing the boards in a grid.
    Svg,
}

/// Arguments of `queens solutions`.
#[derive(Args, Debug)]
pub struct SolutionsArgs {
    /// Board size, from 1 to 32.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=MAX_N as i64))]
    pub n: u32,
    /// Print at most K solutions.
    #[arg(long, value_name = "K")]
    pub limit: Option<u64>,
    /// One solution per class of rotations and reflections (the lexicographically smallest).
    #[arg(long)]
    pub unique: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SolutionFormat::Text)]
    pub format: SolutionFormat,
    /// Short for `--format json`.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
}

/// The most boards one SVG drawing holds when no `--limit` is given.
const SVG_DEFAULT_LIMIT: u64 = 1000;

/// `queens count N`.
pub fn run_count(args: &CountArgs) -> Result<Status, Failure> {
    let search = &args.search;
    let format = search.output()?;
    answer::check_format::<Count>(format)?;
    let json = format == OutputFormat::Json;
    let mut options = search.options();
    options.memory = args.memory.map(|mib| mib << 20);
    if args.ledger.wanted() {
        return super::ledger_run::run_count(args.n, &args.ledger, &options, json, search.quiet);
    }
    let progress = Arc::new(Progress::new(
        search.shows_progress(),
        &format!("planning the work units of {}-queens", args.n),
    ));
    if progress.active() {
        let progress = progress.clone();
        // Units run heaviest first: the time left is projected from their estimated work.
        options.work_progress = Some(Arc::new(move |p| progress.work(p, "units")));
    }
    let choices = CountChoices {
        first_solution: !json,
    };
    let outcome = puzzle::solve::<Count>(args.n, &choices, &options);
    drop(options.work_progress.take());
    drop(progress);
    answer::print(outcome, format, None)
}

/// `queens solutions N`.
pub fn run_solutions(args: &SolutionsArgs) -> Result<Status, Failure> {
    let options = solver_options(0, None);
    let format = if args.json {
        SolutionFormat::Json
    } else {
        args.format
    };
    if format == SolutionFormat::Svg && args.limit == Some(0) {
        return Err(Failure::bad_input(
            "--limit 0 leaves no solution to draw: an SVG needs --limit 1 or more",
        ));
    }
    let limit = match (args.limit, format) {
        (Some(k), _) => k,
        (None, SolutionFormat::Svg) => SVG_DEFAULT_LIMIT,
        (None, _) => u64::MAX,
    };
    let mut solutions = Listing::new(args.n, args.unique, 0, limit, options.deadline());
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut boards = Vec::new();
    // A closed pipe (e.g. `| head`) ends the listing quietly.
    let mut pipe_closed = false;
    for (index, columns) in solutions.by_ref() {
        let written = match format {
            SolutionFormat::Text => write!(out, "{}", listed_solution(index, &columns)),
            SolutionFormat::Json => writeln!(out, "{}", json_line(index, &columns)),
            SolutionFormat::Svg => {
                boards.push(columns);
                Ok(())
            }
        };
        if written.is_err() {
            pipe_closed = true;
            break;
        }
    }
    let emitted = solutions.listed();
    if format == SolutionFormat::Svg && !pipe_closed {
        if args.limit.is_none() && emitted == limit && solutions.has_more() {
            eprintln!(
                "note: the drawing holds the first {limit} solutions; use --limit to change that"
            );
        }
        if emitted > 0 {
            pipe_closed = out
                .write_all(svg::solutions(&boards, 1).as_bytes())
                .is_err();
        }
    }
    if !pipe_closed {
        let _ = out.flush();
    }
    drop(out);
    if solutions.stopped() || interrupted() {
        eprintln!("interrupted after {emitted} solutions");
        return Ok(Status::from(EXIT_INTERRUPTED));
    }
    if let Some(message) = solutions.none_exists() {
        return Err(Failure {
            code: EXIT_NO_ANSWER,
            message,
        });
    }
    Ok(Status::SUCCESS)
}
