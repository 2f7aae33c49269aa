//! Counting over MPI (cargo feature `mpi`): rank 0 hands out units one at a time, heaviest
//! first, to whichever rank asks, and records each result (in the ledger when one is given);
//! the other ranks count. Started as `mpirun -np P queens count N --ledger FILE`.
//!
//! Protocol (all messages are 5 words of `u64`): rank 0 first broadcasts `[n, units, plan
//! checksum, 0, 0]`, and a rank whose own plan differs returns [`MpiError::PlanMismatch`] (the
//! caller then ends the job with [`Mpi::abort`]). A worker then sends `[index, solutions lo,
//! solutions hi, unique lo, unique hi]` (index `u64::MAX` in its first message: "ready, no
//! result") and receives `[index, ..]`, the next unit, or `u64::MAX`: stop.
//!
//! Nothing here prints or exits: errors are values, progress goes to the options' callback.

use super::ledger::{contents_in_memory, finished_units, open_ledger, LedgerError, LedgerWriter};
use super::merge::merge;
use super::plan::{UnitCount, WorkPlan};
use super::run::{check_ledger, count_planned, progress_after, units_to_count, RunReport};
use super::shard::Shard;
use crate::schedule::Workers;
use crate::{Deadline, Options};
use mpi::traits::*;
use std::collections::HashSet;
use std::path::Path;
use thiserror::Error;

/// Why an MPI count could not proceed.
#[derive(Debug, Error)]
pub enum MpiError {
    /// `MPI_Init` had already run in this process.
    #[error("MPI was already initialised in this process")]
    AlreadyInitialised,
    /// This rank's plan is not rank 0's: the ranks run different builds (or different N).
    #[error(
        "rank {rank}: its plan (N = {n}, {units} units) differs from rank 0's (N = {root_n}, \
         {root_units} units); are all ranks running the same build?"
    )]
    PlanMismatch {
        /// This process's rank.
        rank: usize,
        /// This rank's N.
        n: u64,
        /// This rank's number of units.
        units: u64,
        /// Rank 0's N.
        root_n: u64,
        /// Rank 0's number of units.
        root_units: u64,
    },
    /// The ledger could not be used, or does not check out (as for [`super::run()`]).
    #[error(transparent)]
    Ledger(#[from] LedgerError),
}

/// What this process did in an MPI count.
#[derive(Debug)]
pub enum MpiOutcome {
    /// Rank 0: the run's report, as from [`super::run()`] (without a ledger, the check of the
    /// results held in memory).
    Coordinator {
        /// The report.
        report: Box<RunReport>,
        /// Number of ranks in the job.
        ranks: usize,
    },
    /// Another rank: how many units it counted. It has nothing to print.
    Worker {
        /// This process's rank.
        rank: usize,
        /// Units it counted.
        counted: u64,
    },
}

const STOP: u64 = u64::MAX;

/// Whether this process was started by an MPI launcher (`mpirun`, `mpiexec`, `srun` with PMI):
/// one of the variables they set is present (Open MPI's `OMPI_COMM_WORLD_SIZE`, PMIx's
/// `PMIX_RANK`, MPICH's and Slurm's `PMI_SIZE`).
pub fn launched_by_mpi() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"]
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

/// This process's membership in an MPI job: MPI is initialised by [`Mpi::init`] and finalised
/// when the value is dropped.
pub struct Mpi {
    universe: mpi::environment::Universe,
}

impl Mpi {
    /// Initialises MPI; fails if it already was in this process.
    pub fn init() -> Result<Self, MpiError> {
        mpi::initialize()
            .map(|universe| Mpi { universe })
            .ok_or(MpiError::AlreadyInitialised)
    }

    /// This process's rank (0: the coordinator).
    pub fn rank(&self) -> usize {
        self.universe.world().rank() as usize
    }

    /// Number of ranks in the job.
    pub fn ranks(&self) -> usize {
        self.universe.world().size() as usize
    }

    /// Ends every rank of the job with exit status `code` (after an error on one rank, the
    /// others would otherwise wait for it forever).
    pub fn abort(&self, code: i32) -> ! {
        self.universe.world().abort(code)
    }

    /// Runs `plan` (only `shard`, if given) over all ranks of the job.
    ///
    /// Rank 0 opens and checks the ledger (if any), skips the units it holds, hands out the
    /// others dynamically and appends one record (one write and `fsync`) per finished unit,
    /// then re-reads and checks the ledger. With a single rank it counts on `options.threads`
    /// threads itself, with the crate's scheduler. The deadline in `options` is polled on rank
    /// 0 before each unit is handed out.
    pub fn run(
        &self,
        plan: &dyn WorkPlan,
        ledger: Option<&Path>,
        shard: Option<Shard>,
        options: &Options,
    ) -> Result<MpiOutcome, MpiError> {
        let world = self.universe.world();
        let rank = self.rank();
        let root = world.process_at_rank(0);
        let mine = [
            u64::from(plan.n()),
            plan.unit_count(),
            plan.checksum(),
            0,
            0,
        ];
        let mut agreement = mine;
        root.broadcast_into(&mut agreement[..]);
        if agreement != mine {
            return Err(MpiError::PlanMismatch {
                rank,
                n: mine[0],
                units: mine[1],
                root_n: agreement[0],
                root_units: agreement[1],
            });
        }
        if rank != 0 {
            return Ok(MpiOutcome::Worker {
                rank,
                counted: self.count_for_root(plan),
            });
        }
        self.coordinate(plan, ledger, shard, options)
    }

    /// A worker rank: asks rank 0 for units and counts them until told to stop.
    fn count_for_root(&self, plan: &dyn WorkPlan) -> u64 {
        let world = self.universe.world();
        let root = world.process_at_rank(0);
        let mut counted = 0;
        let mut message = [STOP, 0, 0, 0, 0];
        // A plan whose units share the workers counts each on all of this rank's cores.
        let workers = Workers::new(if plan.units_share_workers() { 0 } else { 1 });
        loop {
            root.send(&message[..]);
            let mut order = [0u64; 5];
            root.receive_into(&mut order[..]);
            if order[0] == STOP {
                return counted;
            }
            let c = plan
                .count_unit_on(order[0], &workers, &Deadline::never())
                .expect("no deadline");
            message = [
                order[0],
                c.solutions as u64,
                (c.solutions >> 64) as u64,
                c.unique_x8 as u64,
                (c.unique_x8 >> 64) as u64,
            ];
            counted += 1;
        }
    }

    /// Rank 0: opens the ledger, hands out (or counts) the units left, checks the result.
    fn coordinate(
        &self,
        plan: &dyn WorkPlan,
        ledger: Option<&Path>,
        shard: Option<Shard>,
        options: &Options,
    ) -> Result<MpiOutcome, MpiError> {
        let ranks = self.ranks();
        let mut results: Vec<(u64, UnitCount)> = Vec::new();
        let mut notes = Vec::new();
        let mut writer: Option<LedgerWriter> = None;
        let done = match ledger {
            Some(path) => {
                let (w, contents, n) = open_ledger(plan, path)?;
                notes = n;
                writer = Some(w);
                finished_units(plan, &contents)
            }
            None => HashSet::new(),
        };
        let (todo, shard_size) = units_to_count(plan, shard, &done);
        let done_before = shard_size - todo.len() as u64;
        let options = progress_after(options, done_before);
        let mut counted_now = 0u64;
        // Appends a batch of results (one write and fsync for all of them) or keeps them in
        // memory.
        let mut record = |batch: Vec<(u64, UnitCount)>| -> Result<(), LedgerError> {
            match writer.as_mut() {
                Some(w) => w.append_units(plan, &batch)?,
                None => results.extend_from_slice(&batch),
            }
            counted_now += batch.len() as u64;
            Ok(())
        };
        if ranks == 1 {
            count_planned(
                plan,
                &todo,
                |&id| id,
                &Workers::new(options.threads),
                &options,
                &options.deadline(),
                |batch| record(batch.into_iter().map(|(k, c)| (todo[k], c)).collect()),
            )?;
        } else {
            self.hand_out(&todo, &options, &mut record)?;
        }
        let merged = match ledger {
            Some(path) => check_ledger(plan, path, shard)?,
            None => merge(
                plan,
                shard,
                &[("<memory>".to_string(), contents_in_memory(plan, &results))],
            ),
        };
        if !merged.problems.is_empty() {
            return Err(LedgerError::Inconsistent(merged.problems).into());
        }
        let stopped = !merged.missing.is_empty();
        Ok(MpiOutcome::Coordinator {
            report: Box::new(RunReport {
                merged,
                done_before,
                counted_now,
                stopped,
                notes,
            }),
            ranks,
        })
    }

    /// Rank 0 of a job of several ranks: answers the workers' requests with the units of
    /// `todo`, one at a time, while a writer thread hands the results to `record` in batches
    /// (all that arrived during the previous call: one write and `fsync` for all of them, so no
    /// rank waits for the disk) and reports progress. Stops handing out units when the
    /// deadline passes or `record` fails (its error is returned).
    fn hand_out(
        &self,
        todo: &[u64],
        options: &Options,
        record: &mut (dyn FnMut(Vec<(u64, UnitCount)>) -> Result<(), LedgerError> + Send),
    ) -> Result<(), LedgerError> {
        let world = self.universe.world();
        let deadline = options.deadline();
        let total = todo.len() as u64;
        std::thread::scope(|scope| {
            let (tx, rx) = std::sync::mpsc::channel::<(u64, UnitCount)>();
            let writer_thread = scope.spawn(move || -> Result<(), LedgerError> {
                let mut recorded = 0;
                while let Ok(first) = rx.recv() {
                    let mut batch = vec![first];
                    batch.extend(rx.try_iter());
                    recorded += batch.len() as u64;
                    record(batch)?;
                    options.report(recorded, total);
                    // Units only: the coordinator hands out ids, not work estimates.
                    options.report_work(crate::options::WorkProgress {
                        done: recorded,
                        total,
                        done_work: recorded as f64,
                        total_work: total as f64,
                    });
                }
                Ok(())
            });
            let mut next = todo.iter();
            let mut active = self.ranks() - 1;
            let mut writer_failed = false;
            while active > 0 {
                let mut message = [0u64; 5];
                let status = world.any_process().receive_into(&mut message[..]);
                if message[0] != STOP && !writer_failed {
                    let count = UnitCount {
                        solutions: u128::from(message[1]) | (u128::from(message[2]) << 64),
                        unique_x8: u128::from(message[3]) | (u128::from(message[4]) << 64),
                    };
                    // A closed channel means the writer failed: hand out nothing more.
                    writer_failed = tx.send((message[0], count)).is_err();
                }
                let order = match next.next() {
                    Some(&id) if !writer_failed && !deadline.reached() => id,
                    _ => STOP,
                };
                if order == STOP {
                    active -= 1;
                }
                world
                    .process_at_rank(status.source_rank())
                    .send(&[order, 0, 0, 0, 0][..]);
            }
            drop(tx);
            writer_thread
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    }
}
