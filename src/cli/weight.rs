//! `queens weight`: the best-sum placement of N queens on a weight grid.

use super::progress::Progress;
use super::{answer, located, read_input, Failure, SearchArgs, Status};
use clap::Args;
use queens::puzzle::{self, Puzzle, Weight};
use std::path::PathBuf;
use std::sync::Arc;

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
    let grid = Weight::read(&text).map_err(|e| located(&name, &e))?;
    let mut options = args.search.options();
    let progress = Arc::new(Progress::new(args.search.shows_progress(), "searching"));
    if progress.active() {
        let progress = progress.clone();
        options.progress = Some(Arc::new(move |done, total| {
            progress.units(done, total, "subproblems", done as f64, total as f64);
        }));
    }
    let outcome = puzzle::solve::<Weight>(grid, &(), &options);
    drop(options.progress.take());
    drop(progress);
    answer::print(outcome, format, Some(&name))
}
