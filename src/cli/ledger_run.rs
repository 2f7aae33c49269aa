//! `queens count N --ledger FILE [--shard I/K]`: resumable, sharded (and, with the `mpi`
//! feature, distributed) counting through a ledger; see docs/scale.md.
//!
//! `count` calls [`run_count`] when [`LedgerArgs::wanted`].

use super::plan::{emit, parse_shard, plan_for};
use super::{Failure, EXIT_INTERRUPTED, EXIT_NO_ANSWER};
use clap::Args;
use queens::ledger::{format_ranges, LedgerError, RunReport, Shard, WorkPlan};
use queens::Options;
use serde::Serialize;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The ledger options of `queens count`, to be flattened into its arguments.
#[derive(Args, Debug, Clone, Default)]
pub struct LedgerArgs {
    /// Append each finished unit to FILE and skip the units it already holds: a killed count
    /// resumes where it stopped when run again with the same FILE.
    #[arg(long, value_name = "FILE")]
    pub ledger: Option<PathBuf>,
    /// Count only shard I of K (0-based: 0/K .. K-1/K, units whose id is I mod K); needs
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
        self.mpi || queens::mpi_run::launched_by_mpi()
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
) -> Result<ExitCode, Failure> {
    if args.shard.is_some() && args.ledger.is_none() {
        return Err(Failure::bad_input("--shard needs --ledger FILE"));
    }
    let plan = plan_for(n)?;
    let start = Instant::now();
    let options = &with_progress(options);
    #[cfg(feature = "mpi")]
    if args.uses_mpi() {
        use queens::mpi_run::{run_mpi, MpiOutcome};
        let outcome =
            run_mpi(plan.as_ref(), args.ledger.as_deref(), args.shard, options).map_err(failure)?;
        return Ok(match outcome {
            MpiOutcome::Coordinator { report, ranks } => print_report(
                &report,
                args.ledger.as_deref(),
                start.elapsed(),
                json,
                Some(ranks),
            )?,
            MpiOutcome::Worker { .. } => ExitCode::SUCCESS,
        });
    }
    let ledger = args
        .ledger
        .as_deref()
        .ok_or_else(|| Failure::bad_input("a ledger count needs --ledger FILE"))?;
    let report = run_with_ledger(plan.as_ref(), ledger, args.shard, options)?;
    print_report(&report, Some(ledger), start.elapsed(), json, None)
}

/// `options` with a progress line on stderr (units done of the shard) when stderr is a terminal
/// and no other progress report is set.
fn with_progress(options: &Options) -> Options {
    let mut options = options.clone();
    if options.progress.is_none() && super::stderr_is_terminal() {
        options.progress = Some(Arc::new(|done: u64, total: u64| {
            eprint!("\r{done} of {total} units counted");
            if done == total {
                eprintln!();
            }
        }));
    }
    options
}

/// Runs `plan` (or one shard of it) into the ledger at `ledger`; see [`queens::ledger::run`].
/// Errors: exit 2 for a ledger of another N or plan, a file that is not a ledger or cannot be
/// written; exit 1 for a ledger that does not check out after the run.
pub fn run_with_ledger(
    plan: &dyn WorkPlan,
    ledger: &Path,
    shard: Option<Shard>,
    options: &Options,
) -> Result<RunReport, Failure> {
    queens::ledger::run(plan, ledger, shard, options).map_err(failure)
}

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

#[derive(Serialize)]
struct RunJson {
    n: u32,
    solutions: Option<u128>,
    unique: Option<u128>,
    complete: bool,
    shard: Option<String>,
    ledger: Option<String>,
    units: u64,
    done_before: u64,
    counted_now: u64,
    missing: Vec<(u64, u64)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ranks: Option<usize>,
    seconds: f64,
}

/// Prints a run's outcome (notes on stderr) and returns its exit status: 0, or 130 when
/// Ctrl-C stopped it before the end; fails only if stdout cannot be written.
pub fn print_report(
    report: &RunReport,
    ledger: Option<&Path>,
    elapsed: Duration,
    json: bool,
    ranks: Option<usize>,
) -> Result<ExitCode, Failure> {
    for note in &report.notes {
        eprintln!("note: {note}");
    }
    let m = &report.merged;
    let mut text = String::new();
    let complete = m.is_complete();
    let shard = m.shard.map(|s| s.to_string());
    if json {
        let out = RunJson {
            n: m.n,
            solutions: complete.then_some(m.total.solutions),
            unique: complete.then_some(m.total.unique()),
            complete,
            shard,
            ledger: ledger.map(|p| p.display().to_string()),
            units: m.units_expected,
            done_before: report.done_before,
            counted_now: report.counted_now,
            missing: m.missing.clone(),
            ranks,
            seconds: elapsed.as_secs_f64(),
        };
        text = serde_json::to_string(&out).expect("run JSON") + "\n";
    } else {
        let what = match &shard {
            Some(s) => format!("N = {}, shard {s}", m.n),
            None => format!("N = {}", m.n),
        };
        if complete {
            let tail = if m.shard.is_some() {
                format!(" in its {} of {} units", m.units_expected, m.plan_units)
            } else {
                String::new()
            };
            let _ = writeln!(
                text,
                "{what}: {} solutions, {} unique{tail}",
                m.total.solutions,
                m.total.unique()
            );
        } else {
            let missing: u64 = m.missing.iter().map(|(a, b)| b - a + 1).sum();
            let _ =
                writeln!(text,
                "{what}: stopped with {missing} of {} units left (ids {}); run the same command \
                 again to go on",
                m.units_expected,
                format_ranges(&m.missing[..m.missing.len().min(20)])
            );
        }
        let ranks = ranks.map_or(String::new(), |r| format!(", {r} MPI ranks"));
        let place = ledger.map_or("no ledger".to_string(), |p| {
            format!("ledger {}", p.display())
        });
        let mut line = format!(
            "{place}: {} units from earlier runs, {} counted now in {:.2} s{ranks}",
            report.done_before,
            report.counted_now,
            elapsed.as_secs_f64()
        );
        if m.shard.is_some() && complete {
            line.push_str("; total the shards with `queens merge`");
        }
        let _ = writeln!(text, "{line}");
    }
    emit(&text)?;
    Ok(if report.stopped && super::interrupted() {
        ExitCode::from(EXIT_INTERRUPTED)
    } else {
        ExitCode::SUCCESS
    })
}
