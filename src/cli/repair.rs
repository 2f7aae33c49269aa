//! `queens repair`.

use super::progress::Progress;
use super::{answer, located, read_input, Failure, SearchArgs, Status};
use clap::Args;
use queens::puzzle::{self, Puzzle, Repair};
use queens::SearchEvent;
use std::path::PathBuf;
use std::sync::Arc;

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
    let position = Repair::read(&text).map_err(|e| located(&name, &e))?;
    let mut options = args.search.options();
    let progress = Arc::new(Progress::new(
        args.search.shows_progress(),
        &format!(
            "searching for the fewest moves on the {0}x{0} board",
            position.n
        ),
    ));
    if progress.active() {
        let progress = progress.clone();
        options.search_progress = Some(Arc::new(move |event| {
            if let SearchEvent::Bounds { lower, best } = event {
                progress.status(bound_status(lower, best));
            }
        }));
    }
    let outcome = puzzle::solve::<Repair>(position, &(), &options);
    drop(options.search_progress.take());
    drop(progress);
    answer::print(outcome, format, Some(&name))
}

/// The status line for a report of the relaxed count's proven lower bound and best plan so far.
fn bound_status(lower: u64, best: Option<u64>) -> String {
    match best {
        Some(best) if best >= lower => format!(
            "relaxed count: best plan {best} moves, lower bound {lower}, gap {}",
            best - lower
        ),
        _ => format!("relaxed count: lower bound {lower}, no plan yet"),
    }
}
