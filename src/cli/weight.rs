//! `queens weight`: the best-sum placement of N queens on a weight grid.

use super::progress::Progress;
use super::{answer, located, read_input, Failure, SearchArgs, Status};
use clap::Args;
use queens::puzzle::{self, Puzzle, Weight};
use queens::weight::Sense;
use queens::SearchEvent;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Arguments of `queens weight`.
#[derive(Args, Debug)]
pub struct WeightArgs {
    /// Input file (default: standard input; `-` is standard input too).
    pub file: Option<PathBuf>,
    /// Find the smallest sum instead of the largest (the bound is then a lower bound).
    #[arg(long)]
    pub minimize: bool,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// Reads the grid, solves it, prints the answer. Exit 1 when N = 2 or 3 (no placement), 2 on
/// bad input or an unsupported size, 130 after Ctrl-C (the best placement so far is printed).
pub fn run(args: &WeightArgs) -> Result<Status, Failure> {
    let format = args.search.output()?;
    let (name, text) = read_input(&args.file)?;
    let grid = Weight::read(&text).map_err(|e| located(&name, &e))?;
    let sense = Sense::from_minimize(args.minimize);
    let mut options = args.search.options();
    let progress = Arc::new(Progress::new(args.search.shows_progress(), "searching"));
    if progress.active() {
        // The status line: the sums and the gap as they move, after the subproblems done.
        let latest = Arc::new(Mutex::new(String::new()));
        let (units, seen) = (progress.clone(), latest.clone());
        options.progress = Some(Arc::new(move |done, total| {
            let sums = seen.lock().map(|s| s.clone()).unwrap_or_default();
            let unit = format!("subproblems; {sums}");
            units.units(done, total, &unit, done as f64, total as f64);
        }));
        let sums = progress.clone();
        options.search_progress = Some(Arc::new(move |event| {
            if let SearchEvent::Sums { best, bound } = event {
                let text = sums_status(sense, best, bound);
                if let Ok(mut l) = latest.lock() {
                    l.clone_from(&text);
                }
                sums.status(text);
            }
        }));
    }
    let outcome = puzzle::solve::<Weight>(grid, &sense, &options);
    drop(options.progress.take());
    drop(options.search_progress.take());
    drop(progress);
    answer::print(outcome, format, Some(&name))
}

/// The status line for a report of the best sum so far and the proven bound.
fn sums_status(sense: Sense, best: i128, bound: i128) -> String {
    let gap = if bound == best {
        0.0
    } else {
        (bound - best).unsigned_abs() as f64 * 100.0 / bound.unsigned_abs().max(1) as f64
    };
    format!(
        "{} {best}, {} {bound}, gap {gap:.2}%",
        sense.sum_label(),
        sense.bound_label()
    )
}
