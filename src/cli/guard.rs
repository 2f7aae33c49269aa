//! `queens guard`: the fewest queens occupying or attacking every marked square.

use super::progress::Progress;
use super::{answer, emit_line, interrupted, located, read_input, Failure, OutputFormat};
use super::{SearchArgs, Status, EXIT_INTERRUPTED};
use clap::Args;
use queens::format::guard::table_line;
use queens::format::scale::{guard_run_json, guard_run_text, notes_text, RunPlace, Verdict};
use queens::guard::{solve_with, GuardOptions, MarkGrid, Rule, MAX_GUARD_SIDE};
use queens::puzzle::{self, Guard, GuardChoices, Puzzle};
use queens::scale::{open_table_ledger, RunReport, TableEntry, TableJob};
use queens::SearchEvent;
use std::path::PathBuf;
use std::sync::Arc;

/// Arguments of `queens guard`.
#[derive(Args, Debug)]
pub struct GuardArgs {
    /// Input file (default: standard input; `-` is standard input too): n lines of m
    /// characters, `X` marked and `.` not.
    pub file: Option<PathBuf>,
    /// Mark every square of an N x N (`N`) or R x C (`RxC`) board instead of reading a file.
    #[arg(long, value_name = "N|RxC", value_parser = super::parse_size, conflicts_with = "file")]
    pub full: Option<(usize, usize)>,
    /// Require the queens not to attack one another (independent domination).
    #[arg(long)]
    pub independent: bool,
    /// Also count the distinct guard sets of the minimum size (`minimum_sets` in JSON).
    #[arg(long)]
    pub count_sets: bool,
    /// Prove every lower bound by search, citing no theorem (`lower_bound_source: search`).
    #[arg(long)]
    pub no_theorems: bool,
    /// Print the table of full m x n boards, 1 <= m <= n <= N (OEIS order: `n m value source`
    /// per line), instead of one answer; with `--ledger FILE` it resumes from FILE's proven
    /// lines and appends each new one.
    #[arg(long, value_name = "N", conflicts_with_all = ["file", "full", "count_sets"])]
    pub table: Option<usize>,
    /// A sharded refutation of `--queens K` on the `--full` board through `--ledger FILE`
    /// (resumable; `--shard I/K`; total the shards with `queens merge`).
    #[command(flatten)]
    pub refutation: super::plan::RefutationArgs,
    #[command(flatten)]
    pub ledger: super::ledger_run::LedgerArgs,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// Runs `queens guard`.
pub fn run(args: &GuardArgs) -> Result<Status, Failure> {
    if let Some(n) = args.table {
        return run_table(args, n);
    }
    if args.refutation.queens.is_some() || args.ledger.wanted() {
        return run_refutation(args);
    }
    if args.refutation.depth.is_some() {
        return Err(Failure::bad_input(
            "--depth needs --queens K and --ledger FILE",
        ));
    }
    let format = args.search.output()?;
    let marks = match args.full {
        Some((rows, cols)) => MarkGrid::full(rows, cols),
        None => {
            let (name, text) = read_input(&args.file)?;
            Guard::read(&text).map_err(|e| located(&name, &e))?
        }
    };
    let choices = GuardChoices {
        rule: Rule::from_independent(args.independent),
        search: guard_options(args),
        count_sets: args.count_sets,
    };
    let mut options = args.search.options();
    let progress = Arc::new(Progress::new(args.search.shows_progress(), "searching"));
    if progress.active() {
        let progress = progress.clone();
        options.search_progress = Some(Arc::new(move |event| {
            if let SearchEvent::Level { k, best } = event {
                progress.status(format!(
                    "proving or finding a cover with {k} queens (best so far: {best})"
                ));
            }
        }));
    }
    let outcome = puzzle::solve::<Guard>(marks, &choices, &options);
    drop(options.search_progress.take());
    drop(progress);
    answer::print(outcome, format, None)
}

/// `queens guard --full N --queens K --ledger FILE [--shard I/K]`: runs the units of the
/// refutation "K queens cannot guard the board" that the ledger lacks (see docs/scale.md).
fn run_refutation(args: &GuardArgs) -> Result<Status, Failure> {
    let full = args
        .full
        .ok_or_else(|| Failure::bad_input("a sharded refutation needs --full N|RxC"))?;
    if args.refutation.queens.is_none() {
        return Err(Failure::bad_input("--ledger with guard needs --queens K"));
    }
    if !args.ledger.wanted() {
        return Err(Failure::bad_input("--queens needs --ledger FILE"));
    }
    if args.count_sets {
        return Err(Failure::bad_input("--count-sets does not go with --queens"));
    }
    let format = args.search.output()?;
    if format == OutputFormat::Svg {
        return Err(Failure::bad_input(
            "a refutation has no SVG output (text or json)",
        ));
    }
    let rule = Rule::from_independent(args.independent);
    let started = std::time::Instant::now();
    let plan = super::plan::guard_plan_or_fail(full, rule, &args.refutation)?;
    let job = plan.guard_job();
    let render = |report: &RunReport, place: &RunPlace<'_>, json: bool| {
        let cover = match Verdict::of(&report.merged) {
            Verdict::Cover(id) => plan.witness(id),
            _ => None,
        };
        if json {
            guard_run_json(report, place, job, cover.as_deref()) + "\n"
        } else {
            guard_run_text(report, place, job, cover.as_deref())
        }
    };
    super::ledger_run::run_plan(
        &plan,
        &args.ledger,
        &args.search.options(),
        (format == OutputFormat::Json, args.search.quiet),
        started,
        &render,
    )
}

/// The guard search's choices from the flags.
fn guard_options(args: &GuardArgs) -> GuardOptions {
    if args.no_theorems {
        GuardOptions::without_theorems()
    } else {
        GuardOptions::default()
    }
}

/// `queens guard --table N`: one line per full board n x m, 1 <= m <= n <= N, rows in order
/// (the time limit applies to each board).
fn run_table(args: &GuardArgs, n: usize) -> Result<Status, Failure> {
    if n == 0 || n > MAX_GUARD_SIDE {
        return Err(Failure::bad_input(format!(
            "a table of side {n} is not supported: sides must be from 1 to {MAX_GUARD_SIDE}"
        )));
    }
    let rule = Rule::from_independent(args.independent);
    if args.ledger.shard.is_some() {
        return Err(Failure::bad_input(
            "--shard does not apply to --table (its ledger is the table itself)",
        ));
    }
    // A ledger resumes the table: its proven lines are printed again, the rest solved and
    // appended as they come.
    let mut known = Vec::new();
    let mut ledger = None;
    if let Some(path) = &args.ledger.ledger {
        let job = TableJob {
            independent: args.independent,
            theorems: !args.no_theorems,
        };
        let (opened, entries, notes) =
            open_table_ledger(path, job).map_err(|e| Failure::bad_input(e.to_string()))?;
        eprint!("{}", notes_text(&notes));
        known = entries;
        ledger = Some(opened);
    }
    let options = args.search.options();
    for rows in 1..=n {
        for cols in 1..=rows {
            if let Some(entry) = known.iter().find(|e| (e.rows, e.cols) == (rows, cols)) {
                emit_line(&entry.line)?;
                continue;
            }
            let answer = solve_with(
                &MarkGrid::full(rows, cols),
                rule,
                &guard_options(args),
                &options,
            )
            .map_err(|e| Failure::bad_input(e.to_string()))?;
            let line = table_line(&answer);
            if let Some(ledger) = &mut ledger {
                let entry = TableEntry {
                    rows,
                    cols,
                    proven: answer.optimal,
                    line: line.clone(),
                };
                ledger
                    .append(&entry)
                    .map_err(|e| Failure::bad_input(e.to_string()))?;
            }
            emit_line(&line)?;
            if interrupted() {
                return Ok(Status::from(EXIT_INTERRUPTED));
            }
        }
    }
    Ok(Status::SUCCESS)
}
