//! Output of ledger runs (`queens count N --ledger FILE`), `queens merge` and `queens plan`, as
//! text and as JSON.
//!
//! A ledger run's JSON is the count answer of `format::count` (the same fields as without a
//! ledger; for a shard, its numbers are the shard's) followed by
//! `"ledger":{"path","shard","plan_units","resumed","counted","missing":[[first,last],..]}` and,
//! for an MPI job, `"mpi":{"ranks"}`.

mod complete;

pub use complete::{
    complete_merge_json, complete_merge_text, complete_run_json, complete_run_text,
};

use crate::board::Square;
use crate::format::count::{seconds_json, to_json_with, CountAnswer};
use crate::scale::checksum::hex;
use crate::scale::{
    job_words, missing_shards, plan_checksum, GuardJob, Job, LedgerProblem, MergeReport, RunReport,
    Shard, WorkPlan,
};
use serde::Serialize;
use std::fmt::Write;

/// Formats id ranges as `0-3, 7, 9-12`.
pub fn format_ranges(ranges: &[(u64, u64)]) -> String {
    ranges
        .iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn missing_units(ranges: &[(u64, u64)]) -> u64 {
    ranges.iter().map(|(a, b)| b - a + 1).sum()
}

/// Where and how a ledger run ran, for its output.
#[derive(Clone, Copy, Debug)]
pub struct RunPlace<'a> {
    /// The ledger's path as given (`None`: an MPI run without a ledger).
    pub ledger: Option<&'a str>,
    /// Seconds the run took.
    pub seconds: f64,
    /// Worker threads (of rank 0 under MPI).
    pub threads: usize,
    /// Ranks of the MPI job, if it was one.
    pub ranks: Option<usize>,
}

/// The count answer of a run: the shard's (or the board's) numbers over the units present.
pub fn run_answer(report: &RunReport) -> CountAnswer {
    let m = &report.merged;
    CountAnswer {
        n: m.n,
        solutions: m.total.solutions,
        unique: m.total.unique(),
        complete: m.is_complete(),
        units_done: m.units_present,
        units_total: m.units_expected,
    }
}

#[derive(Serialize)]
struct LedgerJson<'a> {
    path: &'a str,
    shard: Option<String>,
    plan_units: u64,
    resumed: u64,
    counted: u64,
    missing: &'a [(u64, u64)],
}

/// A ledger run's JSON answer on one line (no newline).
pub fn run_json(report: &RunReport, place: &RunPlace<'_>) -> String {
    let m = &report.merged;
    let mut more = Vec::new();
    if let Some(path) = place.ledger {
        let ledger = LedgerJson {
            path,
            shard: m.shard.map(|s| s.to_string()),
            plan_units: m.plan_units,
            resumed: report.done_before,
            counted: report.counted_now,
            missing: &m.missing,
        };
        more.push(("ledger", serde_json::to_string(&ledger).unwrap_or_default()));
    }
    if let Some(ranks) = place.ranks {
        more.push(("mpi", format!("{{\"ranks\":{ranks}}}")));
    }
    to_json_with(&run_answer(report), place.seconds, place.threads, &more)
}

/// A ledger run's text answer: the count of the board or shard (or what is left to count), then
/// a line on the ledger and the run.
pub fn run_text(report: &RunReport, place: &RunPlace<'_>) -> String {
    let m = &report.merged;
    let mut text = String::new();
    let what = match m.shard {
        Some(s) => format!("N = {}, shard {s}", m.n),
        None => format!("N = {}", m.n),
    };
    let complete = m.is_complete();
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
        let _ = writeln!(
            text,
            "{what}: stopped with {} of {} units left (ids {}); run the same command again to \
             go on",
            missing_units(&m.missing),
            m.units_expected,
            format_ranges(&m.missing[..m.missing.len().min(20)])
        );
    }
    let ranks = place
        .ranks
        .map_or(String::new(), |r| format!(", {r} MPI ranks"));
    let ledger = place
        .ledger
        .map_or("no ledger".to_string(), |p| format!("ledger {p}"));
    let _ = write!(
        text,
        "{ledger}: {} units from earlier runs, {} counted now in {:.2} s{ranks}",
        report.done_before, report.counted_now, place.seconds
    );
    if m.shard.is_some() && complete {
        text.push_str("; total the shards with `queens merge`");
    }
    text.push('\n');
    text
}

/// At most this many missing ranges are listed in the text of `merge` (JSON lists them all).
const SHOWN_RANGES: usize = 40;

/// The text answer of `queens merge` over `ledgers` files.
pub fn merge_text(report: &MergeReport, ledgers: usize) -> String {
    let mut out = String::new();
    let plural = if ledgers == 1 { "" } else { "s" };
    if report.is_complete() {
        let _ = writeln!(
            out,
            "N = {}: {} solutions, {} unique",
            report.n,
            report.total.solutions,
            report.total.unique()
        );
        let _ = writeln!(
            out,
            "checked {ledgers} ledger{plural}: all {} units present ({} duplicate records \
             agree); spec checksums and residues mod 13 and 15 agree",
            report.plan_units, report.agreeing_duplicates
        );
    } else {
        let _ = writeln!(
            out,
            "N = {}: no total: the ledger{plural} {} {}",
            report.n,
            if ledgers == 1 { "is" } else { "are" },
            match (report.missing.is_empty(), report.problems.is_empty()) {
                (false, false) => "incomplete and inconsistent",
                (false, true) => "incomplete",
                _ => "inconsistent",
            }
        );
    }
    merge_details(report, &mut out);
    out
}

/// The lines of a merge after its verdict: what is missing (and which shards), the problems,
/// the ignored lines and torn last lines.
fn merge_details(report: &MergeReport, out: &mut String) {
    if !report.is_complete() {
        if !report.missing.is_empty() {
            let shown = &report.missing[..report.missing.len().min(SHOWN_RANGES)];
            let more = if report.missing.len() > shown.len() {
                format!(", ... ({} more ranges)", report.missing.len() - shown.len())
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "missing {} of {} units: {}{more}",
                missing_units(&report.missing),
                report.plan_units,
                format_ranges(shown)
            );
            if let Some(shards) = missing_shards(&report.missing, report.plan_units) {
                let names: Vec<String> = shards.iter().map(|s| s.to_string()).collect();
                let _ = writeln!(out, "that is: all the units of shard {}", names.join(", "));
            }
        }
        for p in &report.problems {
            let _ = writeln!(out, "{p}");
        }
    }
    for p in &report.ignored {
        let _ = writeln!(out, "ignored {p}");
    }
    for (file, line) in &report.torn {
        let _ = writeln!(
            out,
            "note: {file}:{line}: unfinished last line ignored (a run was cut short)"
        );
    }
}

#[derive(Serialize)]
struct ProblemJson<'a> {
    file: &'a str,
    line: usize,
    message: &'a str,
}

fn problems_json(problems: &[LedgerProblem]) -> Vec<ProblemJson<'_>> {
    problems
        .iter()
        .map(|p| ProblemJson {
            file: &p.file,
            line: p.line,
            message: &p.message,
        })
        .collect()
}

#[derive(Serialize)]
struct TornJson<'a> {
    file: &'a str,
    line: usize,
}

#[derive(Serialize)]
struct MergeJson<'a> {
    n: u32,
    complete: bool,
    solutions: Option<u128>,
    unique: Option<u128>,
    units: u64,
    present: u64,
    agreeing_duplicates: u64,
    ledgers: usize,
    missing: &'a [(u64, u64)],
    problems: Vec<ProblemJson<'a>>,
    torn: Vec<TornJson<'a>>,
    ignored: Vec<ProblemJson<'a>>,
}

/// The JSON answer of `queens merge` on one line, with its newline: `{"n","complete",
/// "solutions","unique","units","present","agreeing_duplicates","ledgers","missing","problems",
/// "torn","ignored"}` (`solutions` and `unique` are `null` unless complete).
pub fn merge_json(report: &MergeReport, ledgers: usize) -> String {
    let complete = report.is_complete();
    let out = MergeJson {
        n: report.n,
        complete,
        solutions: complete.then_some(report.total.solutions),
        unique: complete.then_some(report.total.unique()),
        units: report.plan_units,
        present: report.units_present,
        agreeing_duplicates: report.agreeing_duplicates,
        ledgers,
        missing: &report.missing,
        problems: problems_json(&report.problems),
        torn: report
            .torn
            .iter()
            .map(|(file, line)| TornJson { file, line: *line })
            .collect(),
        ignored: problems_json(&report.ignored),
    };
    serde_json::to_string(&out).unwrap_or_default() + "\n"
}

/// The number of units `queens plan` lists: all, or those of `shard`.
fn listed_count(plan: &dyn WorkPlan, shard: Option<Shard>) -> u64 {
    let units = plan.unit_count();
    shard.map_or(units, |s| s.size(units))
}

/// The text of `queens plan`: a summary line and (unless `summary`) one line per unit.
pub fn plan_text(plan: &dyn WorkPlan, shard: Option<Shard>, summary: bool) -> String {
    let shard_words = match shard {
        Some(s) => format!(
            ", shard {s}: {} (ids = {} mod {})",
            plural(listed_count(plan, shard), "unit"),
            s.index,
            s.count
        ),
        None => String::new(),
    };
    let order = match plan.job() {
        Job::Count | Job::JoinCount { .. } => "heaviest first",
        Job::Guard(_) | Job::Complete(_) => "in search order",
    };
    let kernel = match plan.job() {
        Job::Count => " by the constellation search",
        _ => "",
    };
    let mut text = format!(
        "{}{kernel}: {}, plan {}, {order}{shard_words}\n",
        job_words(plan.n(), plan.job()),
        super::count_of(
            usize::try_from(plan.unit_count()).unwrap_or(usize::MAX),
            "unit"
        ),
        hex(plan_checksum(plan))
    );
    if !summary {
        let _ = writeln!(text, "{:>8}  {:<16}  unit", "id", "checksum");
        plan.for_each_unit(shard, &mut |u, description| {
            let _ = writeln!(text, "{:>8}  {}  {}", u.id, hex(u.checksum), description);
        });
    }
    text
}

#[derive(Serialize)]
struct UnitJson {
    id: u64,
    checksum: String,
    unit: String,
}

#[derive(Serialize)]
struct PlanJson {
    n: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    guard: Option<GuardJobJson>,
    units: u64,
    plan: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    list: Option<Vec<UnitJson>>,
}

/// The JSON of `queens plan` on one line, with its newline: `{"n","units","plan","shard",
/// "list":[{"id","checksum","unit"},..]}` (`shard` only with one, `list` unless `summary`).
pub fn plan_json(plan: &dyn WorkPlan, shard: Option<Shard>, summary: bool) -> String {
    let list = (!summary).then(|| {
        let mut list = Vec::new();
        plan.for_each_unit(shard, &mut |u, description| {
            list.push(UnitJson {
                id: u.id,
                checksum: hex(u.checksum),
                unit: description,
            });
        });
        list
    });
    let out = PlanJson {
        n: plan.n(),
        guard: guard_job_json(plan.job()),
        units: plan.unit_count(),
        plan: hex(plan_checksum(plan)),
        shard: shard.map(|s| s.to_string()),
        list,
    };
    serde_json::to_string(&out).unwrap_or_default() + "\n"
}

/// A projection of a whole count's cost from a timed sample of its units
/// ([`crate::scale::estimate`]), for `queens plan N --estimate`.
#[derive(Clone, Debug)]
pub struct Projection<'a> {
    /// Board size.
    pub n: u32,
    /// What the plan computes.
    pub job: Job,
    /// Units in the plan.
    pub plan_units: u64,
    /// Seconds taken to make the plan.
    pub plan_seconds: f64,
    /// The sample.
    pub sample: &'a crate::scale::estimate::Sample,
    /// What counting it gave.
    pub counted: crate::scale::estimate::SampleCount,
    /// Wall seconds of counting the sample.
    pub wall_seconds: f64,
    /// CPU seconds (user + system) of counting it, where known.
    pub cpu_seconds: Option<f64>,
    /// Worker threads.
    pub threads: usize,
    /// The largest estimated peak memory of one unit, bytes (`None`: not estimated, small).
    pub unit_memory: Option<u64>,
    /// The cluster to suggest a sharding for, if any.
    pub advice: Option<ShardAdvice>,
}

/// A cluster to shard a count over: `cores` in all, `threads` per shard (one process each).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShardAdvice {
    /// Cores in all.
    pub cores: u64,
    /// Threads of each shard's process.
    pub threads: u64,
    /// Share of the plan's estimated work in its heaviest unit (no shard ends sooner).
    pub heaviest_share: f64,
}

/// Bytes of one ledger record at most (a record covers one unit or a run of them).
const LEDGER_RECORD_BYTES: u64 = 200;

/// What [`ShardAdvice`] suggests for a projected count.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ShardSuggestion {
    /// Shards (`--shard I/K`).
    pub shards: u64,
    /// Threads per shard (`-j T`).
    pub threads: u64,
    /// Projected wall hours of the whole count with every shard running at once: the work
    /// spread evenly, but never less than the heaviest unit on one shard's threads.
    pub wall_hours: f64,
    /// Projected wall hours of the heaviest unit on one shard's threads.
    pub heaviest_unit_hours: f64,
    /// The ledgers' size in all, at most (one record per unit), bytes.
    pub ledger_bytes: u64,
}

impl ShardAdvice {
    /// The suggestion for `units` units and `core_seconds` of work: as many shards as the
    /// cores hold (never more than the units).
    pub fn suggest(&self, units: u64, core_seconds: f64) -> ShardSuggestion {
        let threads = self.threads.min(self.cores).max(1);
        let shards = (self.cores / threads).clamp(1, units.max(1));
        let heaviest = self.heaviest_share * core_seconds / threads as f64;
        let spread = core_seconds / (shards * threads) as f64;
        ShardSuggestion {
            shards,
            threads,
            wall_hours: spread.max(heaviest) / 3600.0,
            heaviest_unit_hours: heaviest / 3600.0,
            ledger_bytes: units * LEDGER_RECORD_BYTES,
        }
    }
}

impl Projection<'_> {
    /// Projected core-seconds of the whole count: from the CPU time of the sample when all of
    /// it was counted and the CPU time is known; otherwise (a sample cut short, whose CPU time
    /// includes units given up) from the wall seconds of the finished units on their threads.
    pub fn core_seconds(&self) -> Option<f64> {
        self.counted.project(self.sample, self.cost().0)
    }

    /// The measured cost of the sample and what it is.
    pub fn cost(&self) -> (f64, &'static str) {
        let c = &self.counted;
        match self.cpu_seconds {
            Some(cpu) if c.given_up_seconds == 0.0 => (cpu, "CPU time"),
            Some(cpu) => (
                cpu * c.unit_seconds / (c.unit_seconds + c.given_up_seconds).max(f64::MIN_POSITIVE),
                "their share of the CPU time",
            ),
            None => (c.unit_seconds, "the finished units' thread times"),
        }
    }

    /// Share of the plan's estimated work that the counted units hold.
    pub fn work_share(&self) -> f64 {
        self.counted.work / self.sample.plan_work.max(f64::MIN_POSITIVE)
    }
}

/// A duration in core time for people: seconds, minutes, hours or years.
fn core_time(seconds: f64) -> String {
    if seconds < 120.0 {
        format!("{seconds:.1} core-seconds")
    } else if seconds < 7200.0 {
        format!("{:.1} core-minutes", seconds / 60.0)
    } else if seconds < 3.0e8 {
        format!("{:.1} core-hours", seconds / 3600.0)
    } else {
        format!(
            "{:.3e} core-hours ({:.0} core-years)",
            seconds / 3600.0,
            seconds / 3.156e7
        )
    }
}

/// `count` and `word`, plural unless the count is 1.
fn plural(count: u64, word: &str) -> String {
    if count == 1 {
        format!("1 {word}")
    } else {
        format!("{count} {word}s")
    }
}

/// Wall time for people: hours, or days past two.
fn hours_or_days(hours: f64) -> String {
    if hours < 48.0 {
        format!("{hours:.2} h")
    } else {
        format!("{:.1} days", hours / 24.0)
    }
}

/// A size in bytes for people (KiB, MiB or GiB).
fn bytes_words(bytes: u64) -> String {
    match bytes {
        b if b < 1 << 20 => format!("{} KiB", b.div_ceil(1 << 10)),
        b if b < 1 << 30 => format!("{} MiB", b.div_ceil(1 << 20)),
        b => format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64),
    }
}

/// The text of `queens plan N --estimate`.
pub fn estimate_text(p: &Projection<'_>) -> String {
    let cpu = p
        .cpu_seconds
        .map_or("CPU time unknown".to_string(), |c| format!("{c:.2} s CPU"));
    let mut text = format!(
        "{}: {} (plan made in {:.2} s); sample: shard {} ({}), {} counted in \
         {:.2} s wall, {cpu} on {}, {:.4}% of the estimated work\n",
        job_words(p.n, p.job),
        plural(p.plan_units, "unit"),
        p.plan_seconds,
        p.sample.shard,
        plural(p.counted.sample_units, "unit"),
        p.counted.units,
        p.wall_seconds,
        plural(p.threads as u64, "thread"),
        100.0 * p.work_share()
    );
    match p.core_seconds() {
        Some(s) => {
            let _ = writeln!(
                text,
                "projected: {} for the whole {} ({:.0} s wall on {} such {})",
                core_time(s),
                match p.job {
                    Job::Count | Job::JoinCount { .. } => "count",
                    Job::Guard(_) => "refutation",
                    Job::Complete(_) => "completion count",
                },
                s / p.threads.max(1) as f64,
                p.threads,
                if p.threads == 1 { "core" } else { "cores" }
            );
        }
        None => text.push_str(
            "projected: unknown, no unit of the sample finished within the time limit (raise \
             --time-limit)\n",
        ),
    }
    if let (Some(advice), Some(core)) = (p.advice, p.core_seconds()) {
        let s = advice.suggest(p.plan_units, core);
        let _ = writeln!(
            text,
            "for {} cores: {} shard{} of {} thread{} (--shard I/{} -j {}), about {} wall with \
             all running at once (the heaviest unit alone: {}); ledgers at most {} in all",
            advice.cores,
            s.shards,
            if s.shards == 1 { "" } else { "s" },
            s.threads,
            if s.threads == 1 { "" } else { "s" },
            s.shards,
            s.threads,
            hours_or_days(s.wall_hours),
            hours_or_days(s.heaviest_unit_hours),
            bytes_words(s.ledger_bytes)
        );
    }
    if let Some(bytes) = p.unit_memory {
        let _ = writeln!(
            text,
            "memory: at most about {} MiB for one unit (the largest; units run one at a time on \
             all of a process's threads)",
            bytes.div_ceil(1 << 20)
        );
    }
    if p.counted.shares < p.counted.units as f64 - 1e-9 {
        let _ = writeln!(
            text,
            "note: the units split by their first rows were counted on a share of those rows \
             (the {} counted add up to {:.2} units); the projection scales them by it",
            p.counted.units, p.counted.shares
        );
    }
    if p.counted.units < p.counted.sample_units {
        let _ = writeln!(
            text,
            "note: the time limit cut the sample short; the projection uses the {} units \
             finished and {} ({:.2} s)",
            p.counted.units,
            p.cost().1,
            p.cost().0
        );
    }
    text
}

#[derive(Serialize)]
struct ProjectionJson {
    n: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    guard: Option<GuardJobJson>,
    units: u64,
    plan_seconds: f64,
    sample_shard: String,
    sample_units: u64,
    counted_units: u64,
    /// The shares of the counted units (below `counted_units` where some were counted in part).
    counted_shares: f64,
    work_share: f64,
    wall_seconds: f64,
    cpu_seconds: Option<f64>,
    threads: usize,
    core_seconds: Option<f64>,
    core_hours: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kernel: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unit_memory_mib: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cores: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    suggestion: Option<ShardSuggestion>,
}

/// The JSON of `queens plan N --estimate` on one line, with its newline.
pub fn estimate_json(p: &Projection<'_>) -> String {
    let core = p.core_seconds();
    let out = ProjectionJson {
        n: p.n,
        guard: guard_job_json(p.job),
        units: p.plan_units,
        plan_seconds: p.plan_seconds,
        sample_shard: p.sample.shard.to_string(),
        sample_units: p.counted.sample_units,
        counted_units: p.counted.units,
        counted_shares: p.counted.shares,
        work_share: p.work_share(),
        wall_seconds: p.wall_seconds,
        cpu_seconds: p.cpu_seconds,
        threads: p.threads,
        core_seconds: core,
        core_hours: core.map(|s| s / 3600.0),
        kernel: match p.job {
            Job::Count => Some("constellation search"),
            Job::JoinCount { .. } => Some("join"),
            Job::Guard(_) | Job::Complete(_) => None,
        },
        unit_memory_mib: p.unit_memory.map(|b| b.div_ceil(1 << 20)),
        cores: p.advice.map(|a| a.cores),
        suggestion: p.advice.zip(core).map(|(a, c)| a.suggest(p.plan_units, c)),
    };
    serde_json::to_string(&out).unwrap_or_default() + "\n"
}

#[derive(Serialize)]
struct GuardJobJson {
    rows: u32,
    cols: u32,
    guards: u32,
    independent: bool,
    depth: u32,
}

fn guard_job_json(job: Job) -> Option<GuardJobJson> {
    match job {
        Job::Count | Job::JoinCount { .. } | Job::Complete(_) => None,
        Job::Guard(g) => Some(GuardJobJson {
            rows: g.rows,
            cols: g.cols,
            guards: g.queens,
            independent: g.independent,
            depth: g.depth,
        }),
    }
}

/// What the ledgers of a guard refutation (or of one shard of it) settle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every unit (of the shard, or of the plan) is refuted: no cover with that many queens
    /// below them. For the whole plan: the number of queens is too few, one more is a proven
    /// lower bound.
    Refuted,
    /// The unit with this id holds a cover with at most that many queens.
    Cover(u64),
    /// Units are missing (or records inconsistent) and none found a cover.
    Open,
}

impl Verdict {
    /// The verdict of checked ledgers (a cover counts even when units are missing, as long as
    /// the records are consistent).
    pub fn of(report: &MergeReport) -> Verdict {
        match report.cover_unit() {
            Some(id) => Verdict::Cover(id),
            None if report.is_complete() => Verdict::Refuted,
            None => Verdict::Open,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Verdict::Refuted => "refuted",
            Verdict::Cover(_) => "cover",
            Verdict::Open => "open",
        }
    }
}

fn squares_text(squares: &[Square]) -> String {
    squares
        .iter()
        .map(|q| format!("[{}, {}]", q.row, q.col))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The verdict line of a guard refutation's run or merge.
fn guard_verdict_line(m: &MergeReport, job: GuardJob, cover: Option<&[Square]>) -> String {
    let what = match m.shard {
        Some(s) => format!("{}, shard {s}", job_words(m.n, Job::Guard(job))),
        None => job_words(m.n, Job::Guard(job)),
    };
    let kind = if job.independent { "independent " } else { "" };
    match Verdict::of(m) {
        Verdict::Cover(id) => format!(
            "{what}: {} {kind}queens can guard the {}x{} board: unit {id} holds the cover {}\n",
            job.queens,
            job.rows,
            job.cols,
            cover.map_or("(not searched again)".to_string(), squares_text)
        ),
        Verdict::Refuted if m.shard.is_some() => format!(
            "{what}: all its {} of {} units refuted ({} search nodes); total the shards with \
             `queens merge`\n",
            m.units_expected, m.plan_units, m.total.unique_x8
        ),
        Verdict::Refuted => format!(
            "{what}: proven: {} {kind}queens cannot guard the {}x{} board (all {} units refuted, \
             {} search nodes), so at least {} are needed\n",
            job.queens,
            job.rows,
            job.cols,
            m.plan_units,
            m.total.unique_x8,
            job.queens + 1
        ),
        Verdict::Open => format!(
            "{what}: no verdict yet: {} of {} units refuted, {} left (ids {})\n",
            m.units_present,
            m.units_expected,
            missing_units(&m.missing),
            format_ranges(&m.missing[..m.missing.len().min(20)])
        ),
    }
}

/// A guard refutation's ledger run as text: the verdict, then a line on the ledger and the run.
pub fn guard_run_text(
    report: &RunReport,
    place: &RunPlace<'_>,
    job: GuardJob,
    cover: Option<&[Square]>,
) -> String {
    let mut text = guard_verdict_line(&report.merged, job, cover);
    if Verdict::of(&report.merged) == Verdict::Open {
        text.push_str("run the same command again to go on\n");
    }
    let ledger = place
        .ledger
        .map_or("no ledger".to_string(), |p| format!("ledger {p}"));
    let ranks = place
        .ranks
        .map_or(String::new(), |r| format!(", {r} MPI ranks"));
    let _ = writeln!(
        text,
        "{ledger}: {} units from earlier runs, {} searched now in {:.2} s{ranks}",
        report.done_before, report.counted_now, place.seconds
    );
    text
}

#[derive(Serialize)]
struct GuardRefutationJson<'a> {
    problem: &'static str,
    rows: u32,
    cols: u32,
    guards: u32,
    independent: bool,
    depth: u32,
    verdict: &'static str,
    /// For the whole plan refuted: queens + 1.
    lower_bound: Option<u32>,
    cover_unit: Option<u64>,
    cover: Option<Vec<[usize; 2]>>,
    complete: bool,
    units: UnitsJson,
    nodes: u128,
    #[serde(skip_serializing_if = "Option::is_none")]
    ledger: Option<LedgerJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ledgers: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    missing: Option<&'a [(u64, u64)]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    problems: Option<Vec<ProblemJson<'a>>>,
}

#[derive(Serialize)]
struct UnitsJson {
    done: u64,
    total: u64,
}

fn guard_refutation<'a>(
    m: &'a MergeReport,
    job: GuardJob,
    cover: Option<&[Square]>,
) -> GuardRefutationJson<'a> {
    let verdict = Verdict::of(m);
    GuardRefutationJson {
        problem: "guard_refutation",
        rows: job.rows,
        cols: job.cols,
        guards: job.queens,
        independent: job.independent,
        depth: job.depth,
        verdict: verdict.name(),
        lower_bound: (verdict == Verdict::Refuted && m.shard.is_none()).then_some(job.queens + 1),
        cover_unit: match verdict {
            Verdict::Cover(id) => Some(id),
            _ => None,
        },
        cover: cover.map(|c| c.iter().map(|q| [q.row, q.col]).collect()),
        complete: m.is_complete(),
        units: UnitsJson {
            done: m.units_present,
            total: m.units_expected,
        },
        nodes: m.total.unique_x8,
        ledger: None,
        ledgers: None,
        missing: None,
        problems: None,
    }
}

/// A guard refutation's ledger run as one JSON line (no newline): `{"problem":
/// "guard_refutation","rows","cols","guards","independent","depth","verdict":"refuted"|"cover"|
/// "open","lower_bound","cover_unit","cover":[[r,c],..],"complete","units":{"done","total"},
/// "nodes","seconds","threads","ledger":{..}}`.
pub fn guard_run_json(
    report: &RunReport,
    place: &RunPlace<'_>,
    job: GuardJob,
    cover: Option<&[Square]>,
) -> String {
    let m = &report.merged;
    let mut out = guard_refutation(m, job, cover);
    out.ledger = place.ledger.map(|path| LedgerJson {
        path,
        shard: m.shard.map(|s| s.to_string()),
        plan_units: m.plan_units,
        resumed: report.done_before,
        counted: report.counted_now,
        missing: &m.missing,
    });
    let mut text = serde_json::to_string(&out).unwrap_or_default();
    text.pop();
    let _ = write!(
        text,
        ",\"seconds\":{},\"threads\":{}}}",
        seconds_json(place.seconds),
        place.threads
    );
    text
}

/// `queens merge` of a guard refutation's ledgers as text.
pub fn guard_merge_text(
    report: &MergeReport,
    ledgers: usize,
    job: GuardJob,
    cover: Option<&[Square]>,
) -> String {
    let mut out = guard_verdict_line(report, job, cover);
    let plural = if ledgers == 1 { "" } else { "s" };
    if report.is_complete() {
        let _ = writeln!(
            out,
            "checked {ledgers} ledger{plural}: all {} units present ({} duplicate records \
             agree); spec checksums and residues mod 13 and 15 agree",
            report.plan_units, report.agreeing_duplicates
        );
    }
    merge_details(report, &mut out);
    out
}

/// `queens merge` of a guard refutation's ledgers as one JSON line with its newline: the
/// fields of [`guard_run_json`] without the run's, with `"ledgers"`, `"missing"` and
/// `"problems"`.
pub fn guard_merge_json(
    report: &MergeReport,
    ledgers: usize,
    job: GuardJob,
    cover: Option<&[Square]>,
) -> String {
    let mut out = guard_refutation(report, job, cover);
    out.ledgers = Some(ledgers);
    out.missing = Some(&report.missing);
    out.problems = Some(problems_json(&report.problems));
    serde_json::to_string(&out).unwrap_or_default() + "\n"
}

/// The note lines a run prints on stderr (`note: ...`), one per note.
pub fn notes_text(notes: &[String]) -> String {
    notes.iter().map(|n| format!("note: {n}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_written_compactly() {
        assert_eq!(format_ranges(&[(0, 2), (5, 5), (7, 8)]), "0-2, 5, 7-8");
        assert_eq!(format_ranges(&[]), "");
    }

    #[test]
    fn shard_advice_fills_the_cores_but_no_shard_beats_the_heaviest_unit() {
        let hour = 3600.0;
        // 1,000 cores in shards of 16 threads: 62 shards; 1,000 core-hours spread over 992
        // cores, the heaviest unit (1% of the work) alone 0.625 h on 16 threads.
        let advice = ShardAdvice {
            cores: 1000,
            threads: 16,
            heaviest_share: 0.01,
        };
        let s = advice.suggest(272, 1000.0 * hour);
        assert_eq!((s.shards, s.threads), (62, 16));
        assert!((s.wall_hours - 1000.0 / 992.0).abs() < 1e-9);
        assert!((s.heaviest_unit_hours - 0.625).abs() < 1e-9);
        assert_eq!(s.ledger_bytes, 272 * LEDGER_RECORD_BYTES);
        // Fewer units than the cores hold: one shard per unit (1,000 core-hours on 160 cores).
        let s = advice.suggest(10, 1000.0 * hour);
        assert_eq!(s.shards, 10);
        assert!((s.wall_hours - 6.25).abs() < 1e-9);
        // A unit heavier than the spread sets the wall time.
        let heavy = ShardAdvice {
            heaviest_share: 0.5,
            ..advice
        };
        assert!((heavy.suggest(272, 1000.0 * hour).wall_hours - 31.25).abs() < 1e-9);
        // More threads per shard than cores: one shard on every core.
        let small = ShardAdvice {
            cores: 4,
            threads: 16,
            heaviest_share: 0.0,
        };
        assert_eq!(small.suggest(100, hour).shards, 1);
        assert_eq!(small.suggest(100, hour).threads, 4);
    }
}
