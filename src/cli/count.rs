//! `queens count` and `queens solutions`.

use super::{cancel_flag, interrupted, stderr_is_terminal, Failure, EXIT_INTERRUPTED};
use super::{parse_seconds, EXIT_NO_ANSWER};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use queens::count::{count, Counts, Solutions, MAX_N};
use queens::format::solutions::{board_text, json_line};
use queens::format::{svg, RunInfo};
use queens::Options;
use std::io::Write;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Arguments of `queens count`.
#[derive(Args, Debug)]
pub struct CountArgs {
    /// Board size, from 1 to 32.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=MAX_N as i64))]
    pub n: u32,
    /// Worker threads (default: one per core). The counts do not depend on it.
    #[arg(long, value_name = "T", default_value_t = 0)]
    pub threads: usize,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Stop after S seconds and print the partial count (marked partial).
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Resumable and sharded counting.
    #[command(flatten)]
    pub ledger: super::ledger_run::LedgerArgs,
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
}

/// The most boards one SVG drawing holds when no `--limit` is given.
const SVG_DEFAULT_LIMIT: u64 = 1000;

/// Progress on stderr, drawn only on a terminal and only once the count has run a second.
fn progress_callback(start: Instant) -> Option<queens::options::ProgressFn> {
    if !stderr_is_terminal() {
        return None;
    }
    let bar: Arc<Mutex<Option<ProgressBar>>> = Arc::new(Mutex::new(None));
    let callback = move |done: u64, total: u64| {
        if start.elapsed() < Duration::from_secs(1) {
            return;
        }
        let Ok(mut slot) = bar.lock() else { return };
        let pb = slot.get_or_insert_with(|| {
            let pb = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
                .with_elapsed(start.elapsed());
            if let Ok(style) = ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} units, eta {eta}",
            ) {
                pb.set_style(style.progress_chars("=> "));
            }
            pb
        });
        pb.set_position(done);
        if done == total {
            pb.finish_and_clear();
        }
    };
    Some(Arc::new(callback))
}

fn threads_used(requested: usize) -> usize {
    if requested == 0 {
        rayon::current_num_threads()
    } else {
        requested
    }
}

fn text_answer(counts: &Counts, seconds: f64) -> String {
    let n = counts.n;
    if counts.complete {
        format!(
            "{n}-queens: {} solution{}, {} unique up to rotation and reflection ({seconds:.3} s)",
            counts.solutions,
            if counts.solutions == 1 { "" } else { "s" },
            counts.unique
        )
    } else if counts.units_total == 0 {
        format!(
            "{n}-queens: PARTIAL count, stopped while planning the work units: nothing counted \
             ({seconds:.3} s)"
        )
    } else {
        format!(
            "{n}-queens: PARTIAL count, stopped after {} of {} work units: {} solutions and {} \
             unique so far (lower bounds, not the answer) ({seconds:.3} s)",
            counts.units_done, counts.units_total, counts.solutions, counts.unique
        )
    }
}

/// `queens count N`.
pub fn run_count(args: &CountArgs) -> Result<ExitCode, Failure> {
    if args.ledger.wanted() {
        let options = Options {
            threads: args.threads,
            time_limit: args.time_limit,
            cancel: Some(cancel_flag()),
            progress: None,
        };
        return super::ledger_run::run_count(args.n, &args.ledger, &options, args.json);
    }
    let start = Instant::now();
    let options = Options {
        threads: args.threads,
        time_limit: args.time_limit,
        cancel: Some(cancel_flag()),
        progress: progress_callback(start),
    };
    let counts = count(args.n, &options).map_err(|e| Failure::bad_input(e.to_string()))?;
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        let info = RunInfo {
            seconds,
            threads: threads_used(args.threads),
        };
        println!("{}", queens::format::count::to_json(&counts, info));
    } else {
        println!("{}", text_answer(&counts, seconds));
        if counts.complete && counts.solutions > 0 {
            let deadline = options.deadline();
            if let Some(first) = Solutions::new(args.n, true).with_deadline(deadline).next() {
                println!("\nThe first solution in lexicographic order:\n");
                print!("{}", board_text(&first));
            }
        }
    }
    if interrupted() {
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    Ok(ExitCode::SUCCESS)
}

/// `queens solutions N`.
pub fn run_solutions(args: &SolutionsArgs) -> Result<ExitCode, Failure> {
    let options = Options {
        cancel: Some(cancel_flag()),
        ..Options::default()
    };
    let mut solutions = Solutions::new(args.n, args.unique).with_deadline(options.deadline());
    let limit = match (args.limit, args.format) {
        (Some(k), _) => k,
        (None, SolutionFormat::Svg) => SVG_DEFAULT_LIMIT,
        (None, _) => u64::MAX,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut emitted = 0u64;
    let mut boards = Vec::new();
    // A closed pipe (e.g. `| head`) ends the listing quietly.
    let mut pipe_closed = false;
    while emitted < limit {
        let Some(columns) = solutions.next() else {
            break;
        };
        emitted += 1;
        let written = match args.format {
            SolutionFormat::Text => {
                let sep = if emitted > 1 { "\n" } else { "" };
                write!(out, "{sep}Solution {emitted}:\n{}", board_text(&columns))
            }
            SolutionFormat::Json => writeln!(out, "{}", json_line(emitted, &columns)),
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
    if args.format == SolutionFormat::Svg && !pipe_closed {
        if args.limit.is_none() && emitted == limit && solutions.next().is_some() {
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
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    if emitted == 0 && args.limit != Some(0) {
        return Err(Failure {
            code: EXIT_NO_ANSWER,
            message: format!(
                "no placement of {0} non-attacking queens on a {0}x{0} board exists",
                args.n
            ),
        });
    }
    Ok(ExitCode::SUCCESS)
}
