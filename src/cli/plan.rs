//! `queens plan N`: the independent work units of `queens count N`, heaviest first; `queens
//! plan guard --full N --queens K`: those of the refutation "K queens cannot guard N x N".

use super::Status;
use super::{emit, parse_seconds, parse_threads, solver_options, Failure};
use clap::{Args, Subcommand};
use queens::format::scale::{
    estimate_json, estimate_text, plan_json, plan_text, Projection, ShardAdvice,
};
use queens::guard::{GuardError, MarkGrid, Rule};
use queens::scale::estimate::{count_sample, sample};
use queens::scale::{plan_for_count, GuardPlan, Shard, ShardError, WorkPlan};
use queens::schedule::{cpu_seconds, thread_count};
use queens::Options;
use std::time::{Duration, Instant};

/// The library's plan of a count of `n` for `options` (its memory cap, threads and deadline;
/// [`queens::scale::plan_for_count`]), or bad input (exit 2).
pub fn plan_or_fail(n: u32, options: &Options) -> Result<Box<dyn WorkPlan>, Failure> {
    plan_for_count(n, options).map_err(|e| Failure::bad_input(e.to_string()))
}

/// Parses a shard `I/K` (0-based I) for clap.
pub fn parse_shard(text: &str) -> Result<Shard, ShardError> {
    text.parse()
}

/// The sharded guard refutation's options, shared by `queens plan guard` and `queens guard
/// --ledger`.
#[derive(Args, Debug, Clone)]
pub struct RefutationArgs {
    /// The number of queens K to refute ("K queens cannot guard the board").
    #[arg(long, value_name = "K")]
    pub queens: Option<usize>,
    /// Cut the search into units this many levels below the root (default: 3, fewer for
    /// K < 6); part of the plan, so every shard and merge must use the same.
    #[arg(long, value_name = "D")]
    pub depth: Option<usize>,
}

/// The plan of refuting `queens` guards on the full `rows x cols` board, or bad input.
pub fn guard_plan_or_fail(
    (rows, cols): (usize, usize),
    rule: Rule,
    args: &RefutationArgs,
) -> Result<GuardPlan, Failure> {
    let queens = args
        .queens
        .ok_or_else(|| Failure::bad_input("a guard refutation needs --queens K"))?;
    GuardPlan::new(&MarkGrid::full(rows, cols), rule, queens, args.depth)
        .map_err(|e: GuardError| Failure::bad_input(e.to_string()))
}

/// `queens plan guard`: the units of a guard refutation.
#[derive(Subcommand, Debug)]
pub enum PlanJob {
    /// The units of the refutation "K queens cannot guard the full board" (see docs/scale.md).
    Guard(PlanGuardArgs),
}

/// Arguments of `queens plan guard`.
#[derive(Args, Debug)]
pub struct PlanGuardArgs {
    /// The full N x N (`N`) or R x C (`RxC`) board.
    #[arg(long, value_name = "N|RxC", value_parser = super::parse_size, required = true)]
    pub full: Option<(usize, usize)>,
    /// Require the queens not to attack one another (independent domination).
    #[arg(long)]
    pub independent: bool,
    #[command(flatten)]
    pub refutation: RefutationArgs,
    #[command(flatten)]
    pub listing: PlanListing,
}

/// Arguments of `queens plan`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct PlanArgs {
    /// Another job's plan than a count's.
    #[command(subcommand)]
    pub job: Option<PlanJob>,
    /// Board size.
    #[arg(required = true)]
    pub n: Option<u32>,
    /// The memory cap the plan is cut for, in MiB (as `count --memory`; default 256 up to
    /// N = 19, 4096 above).
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub memory: Option<u64>,
    #[command(flatten)]
    pub listing: PlanListing,
}

/// What `queens plan` prints, for every job.
#[derive(Args, Debug)]
pub struct PlanListing {
    /// List only the units of shard I of K (0-based: 0/K .. K-1/K).
    #[arg(long, value_name = "I/K", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Print only the number of units and the plan checksum.
    #[arg(long)]
    pub summary: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Project the whole count's cost in core-hours: count a deterministic sample of the
    /// units (every K-th id), time it, and scale by the plan's estimated work.
    #[arg(long)]
    pub estimate: bool,
    /// With --estimate: about how many units to sample.
    #[arg(
        long,
        value_name = "UNITS",
        default_value_t = 256,
        requires = "estimate"
    )]
    pub sample: u64,
    /// With --estimate: stop sampling after S seconds and project from the units finished.
    #[arg(short = 't', long, value_name = "S", value_parser = parse_seconds, default_value = "60", requires = "estimate")]
    pub time_limit: Duration,
    /// Worker threads for making the plan and counting the sample (default: one per core).
    #[arg(short = 'j', long, value_name = "T", default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// With --estimate: also suggest how to shard the count over a cluster of C cores.
    #[arg(long, value_name = "C", requires = "estimate", value_parser = clap::value_parser!(u64).range(1..))]
    pub cores: Option<u64>,
    /// With --cores: threads per shard (one process each; default for the join, whose units
    /// run on all of a process's threads, 16, or fewer where their buffers would crowd the
    /// memory cap (8 at N = 24 and 25, 4 at 26 and 27, 1 at 28 under 4096 MiB); 1 for the
    /// constellation search).
    #[arg(long, value_name = "T", requires = "cores", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub shard_threads: Option<u64>,
}

/// Prints the plan for N (or one shard of it), or its projected cost.
pub fn run(args: &PlanArgs) -> Result<Status, Failure> {
    let started = Instant::now();
    let (plan, args): (Box<dyn WorkPlan>, &PlanListing) = match (&args.job, args.n) {
        (Some(PlanJob::Guard(guard)), _) => {
            let rule = if guard.independent {
                Rule::Independent
            } else {
                Rule::Any
            };
            let full = guard
                .full
                .ok_or_else(|| Failure::bad_input("plan guard needs --full N|RxC"))?;
            (
                Box::new(guard_plan_or_fail(full, rule, &guard.refutation)?),
                &guard.listing,
            )
        }
        (None, Some(n)) => {
            let options = Options {
                memory: args.memory.map(|mib| mib << 20),
                ..solver_options(args.listing.threads, None)
            };
            (plan_or_fail(n, &options)?, &args.listing)
        }
        (None, None) => return Err(Failure::bad_input("plan needs N, or `guard ...`")),
    };
    if args.estimate {
        return estimate(args, plan.as_ref(), started);
    }
    let text = if args.json {
        plan_json(plan.as_ref(), args.shard, args.summary)
    } else {
        plan_text(plan.as_ref(), args.shard, args.summary)
    };
    emit(&text)?;
    Ok(Status::SUCCESS)
}

/// `queens plan N --estimate`: counts the sample and prints the projection.
fn estimate(args: &PlanListing, plan: &dyn WorkPlan, started: Instant) -> Result<Status, Failure> {
    let plan_seconds = started.elapsed().as_secs_f64();
    let chosen = sample(plan, args.sample);
    let options = solver_options(args.threads, Some(args.time_limit));
    let (cpu0, wall0) = (cpu_seconds(), Instant::now());
    let counted = count_sample(plan, &chosen, &options);
    let wall = wall0.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
    let unit_memory = (0..plan.unit_count())
        .filter_map(|id| plan.unit_memory(id))
        .max();
    let advice = args.cores.map(|cores| {
        let threads = args
            .shard_threads
            .unwrap_or_else(|| plan.suggested_shard_threads());
        // The plan lists its units heaviest first: unit 0 is the heaviest.
        let heaviest = plan.estimated_work(Some(Shard {
            index: 0,
            count: plan.unit_count().max(1),
        }));
        ShardAdvice {
            cores,
            threads,
            heaviest_share: heaviest / plan.estimated_work(None).max(f64::MIN_POSITIVE),
        }
    });
    let projection = Projection {
        advice,
        unit_memory,
        n: plan.n(),
        job: plan.job(),
        plan_units: plan.unit_count(),
        plan_seconds,
        sample: &chosen,
        counted,
        wall_seconds: wall,
        cpu_seconds: cpu,
        threads: thread_count(args.threads),
    };
    let text = if args.json {
        estimate_json(&projection)
    } else {
        estimate_text(&projection)
    };
    emit(&text)?;
    Ok(Status::SUCCESS)
}
