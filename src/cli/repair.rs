//! `queens repair`.

use super::progress::Progress;
use super::Status;
use super::{emit, emit_line, interrupted, located, read_input, Failure, OutputFormat, SearchArgs};
use super::{EXIT_INTERRUPTED, EXIT_NO_ANSWER};
use clap::Args;
use queens::format::{parse_position, repair as output, svg, RunInfo};
use queens::repair::{self, RepairError};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Arguments of `queens repair`.
#[derive(Args, Debug)]
pub struct RepairArgs {
    /// Input file (default: standard input; `-` is standard input too).
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// Reads the position, finds the fewest real moves and prints the answer (text, JSON or SVG).
pub fn run(args: &RepairArgs) -> Result<Status, Failure> {
    let format = args.search.output()?;
    let (name, text) = read_input(&args.file)?;
    let position = parse_position(&text).map_err(|e| located(&name, &e))?;
    let mut options = args.search.options();
    let started = Instant::now();
    let progress = Arc::new(Progress::new(
        args.search.shows_progress(),
        &format!(
            "searching for the fewest moves on the {0}x{0} board",
            position.n
        ),
    ));
    if progress.active() {
        let progress = progress.clone();
        options.progress = Some(Arc::new(move |lower, best| {
            progress.status(bound_status(lower, best));
        }));
    }
    let plan = repair::solve(&position, &options).map_err(|e| match e {
        RepairError::NoPlacement { .. } => Failure {
            code: EXIT_NO_ANSWER,
            message: format!("{name}: {e}"),
        },
        _ => Failure::bad_input(format!("{name}: {e}")),
    })?;
    drop(options.progress.take());
    drop(progress);
    let info = RunInfo::measured(started, &options);
    match format {
        OutputFormat::Json => emit_line(&output::json(&plan, info))?,
        OutputFormat::Svg => emit(&svg::repair(&position, &plan))?,
        OutputFormat::Text => emit(&output::text(&position, &plan))?,
    }
    if interrupted() {
        return Ok(Status::from(EXIT_INTERRUPTED));
    }
    Ok(Status::SUCCESS)
}

/// The status line for a report of the relaxed count's proven lower bound and best plan so far.
fn bound_status(lower: u64, best: u64) -> String {
    if best >= lower && best < u64::from(u32::MAX) {
        format!(
            "relaxed count: best plan {best} moves, lower bound {lower}, gap {}",
            best - lower
        )
    } else {
        format!("relaxed count: lower bound {lower}, no plan yet")
    }
}
