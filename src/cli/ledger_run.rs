//! `queens count N --ledger FILE [--shard I/K]` and `queens guard --full N --queens K --ledger
//! FILE [--shard I/K]`: resumable, sharded (and, with the `mpi` feature, distributed) runs of a
//! plan through a ledger; see docs/scale.md.
//!
//! `count` calls [`run_count`] when [`LedgerArgs::wanted`], `guard` calls [`run_plan`] with its
//! refutation's plan and output.

use super::plan::parse_shard;
use super::progress::Progress;
use super::Status;
use super::{emit, Failure, EXIT_INTERRUPTED, EXIT_NO_ANSWER};
use clap::Args;
use queens::format::scale::{notes_text, run_json, run_text, RunPlace};
use queens::scale::{
    plan_for_count, plan_for_job, read_contents, Job, LedgerError, PlanError, RunReport, Shard,
    WorkPlan,
};
use queens::schedule::thread_count;
use queens::Options;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// The ledger options of `queens count`, to be flattened into its arguments.
#[derive(Args, Debug, Clone, Default)]
pub struct LedgerArgs {
    /// Append each finished unit to FILE and skip the units it already holds: a killed count
    /// resumes where it stopped when run again with the same FILE.
    #[arg(long, value_name = "FILE")]
    pub ledger: Option<PathBuf>,
    /// Run only shard I of K (0-based: 0/K .. K-1/K, units whose id is I mod K); needs
    /// --ledger. Total the shards' ledgers with `queens merge`.
    #[arg(long, value_name = "I/K", value_parser = parse_shard, requires = "ledger")]
    pub shard: Option<Shard>,
    /// Schedule the units over the ranks of an MPI job; rank 0 writes the ledger, if one is
    /// given. Implied when the process was started by mpirun/mpiexec.
    #[cfg(feature = "mpi")]
    #[arg(long)]
    pub mpi: bool,
}

impl LedgerArgs {
    /// Whether the count must go through the ledger runner (a ledger, a shard, or MPI).
    pub fn wanted(&self) -> bool {
        #[cfg(feature = "mpi")]
        if self.uses_mpi() {
            return true;
        }
        self.ledger.is_some() || self.shard.is_some()
    }

    /// Whether the count runs over MPI: `--mpi`, or the process was started by mpirun.
    #[cfg(feature = "mpi")]
    pub fn uses_mpi(&self) -> bool {
        self.mpi || queens::scale::mpi::launched_by_mpi()
    }
}

/// The whole `count N` with ledger options: builds the plan, runs it (locally or over MPI),
/// prints the outcome (text or JSON) and gives the exit status: 0 counted (or stopped by the
/// time limit, which the output says), 1 the ledger is inconsistent, 2 a ledger for another N
/// or plan or an unusable file, 130 interrupted.
pub fn run_count(
    n: u32,
    args: &LedgerArgs,
    options: &Options,
    json: bool,
    quiet: bool,
) -> Result<Status, Failure> {
    if args.shard.is_some() && args.ledger.is_none() {
        return Err(Failure::bad_input("--shard needs --ledger FILE"));
    }
    // The plan is made whatever the time limit (only Ctrl-C or SIGTERM stop it); the count
    // then gets what is left of the limit.
    let started = Instant::now();
    let plan_options = Options {
        time_limit: None,
        ..options.clone()
    };
    let plan = count_plan(n, args, &plan_options)?;
    let options = &Options {
        time_limit: options
            .time_limit
            .map(|t| t.saturating_sub(started.elapsed())),
        ..options.clone()
    };
    run_plan(
        plan.as_ref(),
        args,
        options,
        (json, quiet),
        started,
        &|report, place, json| {
            if json {
                run_json(report, place) + "\n"
            } else {
                run_text(report, place)
            }
        },
    )
}

/// The plan of a ledger count of `n`: the one its ledger's header names when the file exists
/// (its kernel and memory cap, so that a run resumes the plan it started), otherwise the
/// library's choice for the options ([`queens::scale::plan_for_count`]).
fn count_plan(n: u32, args: &LedgerArgs, options: &Options) -> Result<Box<dyn WorkPlan>, Failure> {
    let header = args
        .ledger
        .as_deref()
        .and_then(|path| std::fs::read(path).ok())
        .and_then(|bytes| read_contents(&bytes).header)
        .map(|(_, h)| h);
    let plan = match header {
        Some(h) if h.n == n && matches!(h.job, Job::Count | Job::JoinCount { .. }) => {
            plan_for_job(n, h.job, options)
        }
        _ => plan_for_count(n, options),
    };
    plan.map_err(|e| match e {
        PlanError::Stopped => Failure {
            code: EXIT_INTERRUPTED,
            message: "interrupted while making the plan: nothing was counted".to_string(),
        },
        other => Failure::bad_input(other.to_string()),
    })
}

/// How a run's outcome is written: the report, where it ran, JSON or text.
pub type Render<'a> = &'a dyn Fn(&RunReport, &RunPlace<'_>, bool) -> String;

/// Runs any plan with ledger options (locally or over MPI), prints the outcome with `render`
/// and gives the exit status, as [`run_count`] describes. `(json, quiet)` say how; the
/// seconds reported are those since `start` (the command's, so that they hold the plan's
/// making: 13 s at N = 28).
pub fn run_plan(
    plan: &dyn WorkPlan,
    args: &LedgerArgs,
    options: &Options,
    (json, quiet): (bool, bool),
    start: Instant,
    render: Render<'_>,
) -> Result<Status, Failure> {
    if args.shard.is_some() && args.ledger.is_none() {
        return Err(Failure::bad_input("--shard needs --ledger FILE"));
    }
    let options = &with_progress(options, !json && !quiet);
    let ledger_name = args.ledger.as_ref().map(|p| p.display().to_string());
    #[cfg(feature = "mpi")]
    if args.uses_mpi() {
        use queens::scale::mpi::{Mpi, MpiError, MpiOutcome};
        let mpi = Mpi::init().map_err(|e| Failure::bad_input(e.to_string()))?;
        let outcome = mpi.run(plan, args.ledger.as_deref(), args.shard, options);
        return match outcome {
            Ok(MpiOutcome::Coordinator { report, ranks }) => {
                let place = RunPlace {
                    ledger: ledger_name.as_deref(),
                    seconds: start.elapsed().as_secs_f64(),
                    threads: thread_count(options.threads),
                    ranks: Some(ranks),
                };
                print_report(&report, &place, json, render)
            }
            Ok(MpiOutcome::Worker { .. }) => Ok(Status::SUCCESS),
            Err(e) => {
                let failure = match e {
                    MpiError::Ledger(e) => failure(e),
                    other => Failure::bad_input(other.to_string()),
                };
                if mpi.ranks() > 1 {
                    // The other ranks would wait for this one forever: end the whole job.
                    eprintln!("error: {}", failure.message);
                    mpi.abort(i32::from(failure.code));
                }
                Err(failure)
            }
        };
    }
    let ledger = args
        .ledger
        .as_deref()
        .ok_or_else(|| Failure::bad_input("a ledger count needs --ledger FILE"))?;
    let report = queens::scale::run(plan, ledger, args.shard, options).map_err(failure)?;
    let place = RunPlace {
        ledger: ledger_name.as_deref(),
        seconds: start.elapsed().as_secs_f64(),
        threads: thread_count(options.threads),
        ranks: None,
    };
    print_report(&report, &place, json, render)
}

/// `options` with progress on stderr (units done of the shard) when `wanted`, stderr is a
/// terminal and no other progress report is set; the display goes when the options do.
fn with_progress(options: &Options, wanted: bool) -> Options {
    let mut options = options.clone();
    let progress = Arc::new(Progress::new(wanted, "opening the ledger"));
    if options.progress.is_none() && options.work_progress.is_none() && progress.active() {
        // Units run heaviest first: the time left is projected from their estimated work.
        options.work_progress = Some(Arc::new(move |p| progress.work(p, "units")));
    }
    options
}

/// Exit 2 for a ledger of another N or plan, a file that is not a ledger or cannot be written;
/// exit 1 for a ledger that does not check out after the run.
fn failure(e: LedgerError) -> Failure {
    match e {
        LedgerError::Inconsistent(problems) => Failure {
            code: EXIT_NO_ANSWER,
            message: format!(
                "the ledger does not check out:\n{}",
                problems
                    .iter()
                    .map(|p| format!("  {p}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
        },
        other => Failure::bad_input(other.to_string()),
    }
}

/// Prints a run's outcome (notes on stderr) and returns its exit status: 0, or 130 when
/// Ctrl-C stopped it before the end; fails only if stdout cannot be written.
fn print_report(
    report: &RunReport,
    place: &RunPlace<'_>,
    json: bool,
    render: Render<'_>,
) -> Result<Status, Failure> {
    eprint!("{}", notes_text(&report.notes));
    emit(&render(report, place, json))?;
    Ok(if report.stopped && super::interrupted() {
        Status::from(EXIT_INTERRUPTED)
    } else {
        Status::SUCCESS
    })
}
