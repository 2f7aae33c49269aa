//! `queens weight`: the best-sum placement of N queens on a weight grid.

use super::progress::Progress;
use super::Status;
use super::{emit, emit_line, located, read_input, Failure, OutputFormat, SearchArgs};
use super::{EXIT_INTERRUPTED, EXIT_NO_ANSWER};
use clap::Args;
use queens::format::{parse_weight_grid, svg, weight as output, RunInfo};
use queens::weight::{best, WeightError};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Arguments of `queens weight`.
#[derive(Args, Debug)]
pub struct WeightArgs {
    /// Input file (default: standard input; `-` is standard input too).
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// Reads the grid, solves it, prints the answer. Exit 1 when N = 2 or 3 (no placement), 2 on
/// bad input or an unsupported size, 130 after Ctrl-C (the best placement so far is printed).
pub fn run(args: &WeightArgs) -> Result<Status, Failure> {
    let format = args.search.output()?;
    let (name, text) = read_input(&args.file)?;
    let grid = parse_weight_grid(&text).map_err(|e| located(&name, &e))?;
    let started = Instant::now();
    let mut options = args.search.options();
    let progress = Arc::new(Progress::new(args.search.shows_progress(), "searching"));
    if progress.active() {
        let progress = progress.clone();
        options.progress = Some(Arc::new(move |done, total| {
            progress.units(done, total, "subproblems", done as f64, total as f64);
        }));
    }
    let outcome = best(&grid, &options);
    drop(options.progress.take());
    drop(progress);
    let placement = match outcome {
        Ok(p) => p,
        Err(e @ WeightError::NoPlacement { .. }) => {
            return Err(Failure {
                code: EXIT_NO_ANSWER,
                message: format!("{name}: {e}"),
            })
        }
        Err(e) => return Err(Failure::bad_input(format!("{name}: {e}"))),
    };
    let info = RunInfo::measured(started, &options);
    match format {
        OutputFormat::Json => emit_line(&output::to_json(&placement, info))?,
        OutputFormat::Svg => emit(&svg::weight(&grid, &placement))?,
        OutputFormat::Text => emit(&output::write_text(&placement))?,
    }
    if super::interrupted() {
        return Ok(Status::from(EXIT_INTERRUPTED));
    }
    Ok(Status::SUCCESS)
}
