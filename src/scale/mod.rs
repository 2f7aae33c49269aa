//! Counts that outgrow one run: deterministic work plans, shards, and the append-only ledger
//! that makes a count resumable after any kill and checkable after a split over many machines.
//!
//! - [`plan`]: a [`WorkPlan`] cuts a count into independent units with stable ids, heaviest
//!   first; [`plan_for`] picks the counting engine behind it (the fast counter's
//!   [`counter_plan`]); [`UnitsPlan`] adapts any engine.
//! - [`shard`]: a [`Shard`] `I/K` (0-based) takes the units whose id is `I` modulo `K`.
//! - [`ledger`]: the file, a header line and one self-checking line per finished unit;
//!   [`open_ledger`] checks it and drops a torn last line, [`LedgerWriter`] appends with one
//!   write and one `fsync` per batch.
//! - [`run()`]: counts what a ledger does not hold yet (with [`crate::schedule`]) into it.
//! - [`merge()`]: checks ledgers against the plan (every unit exactly once or duplicated with
//!   equal results, residues, spec checksums, headers) and totals them; [`merge_ledgers`]
//!   first finds the job (and so the plan) that the ledgers' headers name.
//! - [`checksum`]: the checksums of lines, units and plans.
//! - [`estimate`]: the cost of a whole count projected from a deterministic sample of units.
//! - [`guard`]: the same machinery for a guard refutation ("k queens cannot guard this
//!   board"): a [`GuardPlan`] is a [`WorkPlan`] whose [`Job`] is [`Job::Guard`].
//! - [`complete`]: the same machinery for counting a board's completions: a [`CompletePlan`]
//!   is a [`WorkPlan`] whose [`Job`] is [`Job::Complete`], its board in the ledger's header.
//! - [`table`]: the same ledger for `queens guard --table` ([`open_table_ledger`]): the table's
//!   lines, each sealed, so a killed table resumes and a changed line is solved again.
//! - `mpi` (cargo feature `mpi`): the same run over the ranks of an MPI job.
//!
//! Nothing here prints: reports and errors are values, progress goes through [`crate::Options`],
//! and `crate::format::scale` writes them for people and machines.

pub mod checksum;
pub mod complete;
pub mod estimate;
pub mod guard;
pub mod join;
pub mod ledger;
pub mod merge;
#[cfg(feature = "mpi")]
#[cfg_attr(docsrs, doc(cfg(feature = "mpi")))]
pub mod mpi;
pub mod plan;
pub mod run;
pub mod select;
pub mod shard;
pub mod table;

pub use checksum::{checksum_bytes, checksum_words};
pub use complete::CompletePlan;
pub use guard::GuardPlan;
pub use join::JoinPlan;
pub use ledger::{
    contents_in_memory, finished_units, header_line, job_words, open_ledger, parse_line,
    read_contents, read_sealed, record_line, seal, unseal, BadLine, Header, HeaderMismatch,
    LedgerContents, LedgerError, LedgerProblem, LedgerWriter, Line, LineError, Record, Refusal,
    SealedLines, TableJob, LEDGER_VERSION,
};
pub use merge::{
    id_ranges, merge, merge_ledger_files, merge_ledgers, MergeError, MergeReport, MergedLedgers,
    RecordError, UnitRange,
};
pub use plan::{
    counter_plan, counter_plan_split, list_checksum, plan_checksum, range_checksum, CompleteJob,
    CounterPlan, GuardJob, Job, PlanError, PlannedUnit, Tallies, UnitCount, UnitSpec, UnitsPlan,
    WorkPlan, BATCH_UNITS,
};
pub use run::{check_ledger, run, shard_size, RunReport};
pub use select::{plan_for, plan_for_count, plan_for_job};
pub use shard::{missing_shards, Shard, ShardError};
pub use table::{open_table_ledger, TableEntry, TableLedger};
