//! Counting over MPI (cargo feature `mpi`): rank 0 hands out units one at a time, heaviest
//! first, to whichever rank asks, and records each result (in the ledger when one is given);
//! the other ranks count. Started as `mpirun -np P queens count N --ledger FILE`.
//!
//! Protocol (all messages are 5 words of `u64`): rank 0 first broadcasts `[n, units, plan
//! checksum, 0, 0]`, and a rank whose own plan differs aborts the job. A worker then sends
//! `[index, solutions lo, solutions hi, unique lo, unique hi]` (index `u64::MAX` in its first
//! message: "ready, no result") and receives `[index, ..]`, the next unit, or `u64::MAX`: stop.

use crate::ledger::{
    check_ledger, contents_in_memory, count_units, finished_units, merge, open_ledger,
    plan_checksum, record_line, LedgerError, Record, RunReport, Shard, UnitCount, WorkPlan,
};
use crate::Options;
use mpi::traits::*;
use std::path::Path;

/// What this process did in an MPI count.
#[derive(Debug)]
pub enum MpiOutcome {
    /// Rank 0: the run's report, as from [`crate::ledger::run`] (without a ledger, the check
    /// of the results held in memory).
    Coordinator {
        /// The report.
        report: Box<RunReport>,
        /// Number of ranks in the job.
        ranks: usize,
    },
    /// Another rank: how many units it counted. It prints nothing.
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

/// Runs `plan` (only `shard`, if given) over all ranks of the MPI job this process belongs to.
///
/// Rank 0 opens and checks the ledger (if any), skips the units it holds, hands out the others
/// dynamically and appends one record (one write and `fsync`) per finished unit, then re-reads
/// and checks the ledger. With a single rank it counts on `options.threads` threads itself.
/// The deadline in `options` is polled on rank 0 before each unit is handed out.
///
/// Fails if MPI was already initialised in this process, or as [`crate::ledger::run`] does.
pub fn run_mpi(
    plan: &dyn WorkPlan,
    ledger: Option<&Path>,
    shard: Option<Shard>,
    options: &Options,
) -> Result<MpiOutcome, LedgerError> {
    let universe = mpi::initialize().ok_or_else(|| {
        LedgerError::Refused("MPI was already initialised in this process".to_string())
    })?;
    let world = universe.world();
    let rank = world.rank() as usize;
    let ranks = world.size() as usize;
    let root = world.process_at_rank(0);

    let mut agreement = [
        u64::from(plan.n()),
        plan.units().len() as u64,
        plan_checksum(plan),
        0,
        0,
    ];
    let mine = agreement;
    root.broadcast_into(&mut agreement[..]);
    if agreement != mine {
        eprintln!(
            "error: rank {rank}: its plan (N = {}, {} units) differs from rank 0's (N = {}, {} \
             units); are all ranks running the same build?",
            mine[0], mine[1], agreement[0], agreement[1]
        );
        world.abort(2);
    }

    if rank != 0 {
        let mut counted = 0;
        let mut message = [STOP, 0, 0, 0, 0];
        loop {
            root.send(&message[..]);
            let mut order = [0u64; 5];
            root.receive_into(&mut order[..]);
            if order[0] == STOP {
                break;
            }
            let c = plan.count_unit(order[0] as usize);
            message = [
                order[0],
                c.solutions as u64,
                (c.solutions >> 64) as u64,
                c.unique_x8 as u64,
                (c.unique_x8 >> 64) as u64,
            ];
            counted += 1;
        }
        return Ok(MpiOutcome::Worker { rank, counted });
    }

    // Rank 0.
    let in_shard = |id: u64| shard.map_or(true, |s| s.contains(id));
    let shard_size = (0..plan.units().len() as u64)
        .filter(|&i| in_shard(i))
        .count() as u64;
    let deadline = options.deadline();
    let mut results: Vec<(usize, UnitCount)> = Vec::new();
    let mut notes = Vec::new();
    let mut writer = None;
    let done = match ledger {
        Some(path) => {
            let (w, contents, n) = open_ledger(plan, path)?;
            notes = n;
            let done = finished_units(plan, &contents);
            writer = Some(w);
            done
        }
        None => vec![false; plan.units().len()],
    };
    let todo: Vec<usize> = (0..plan.units().len())
        .filter(|&i| in_shard(i as u64) && !done[i])
        .collect();
    let done_before = shard_size - todo.len() as u64;
    let mut counted_now = 0u64;
    // Appends a batch of results (one write and fsync for all of them) or keeps them in memory.
    let mut record = |batch: &[(usize, UnitCount)]| -> Result<(), LedgerError> {
        if batch.is_empty() {
            return Ok(());
        }
        if let Some(w) = writer.as_mut() {
            let lines: String = batch
                .iter()
                .map(|&(i, c)| record_line(&Record::new(plan, i as u64, i as u64, c)))
                .collect();
            w.append(&lines)?;
        } else {
            results.extend_from_slice(batch);
        }
        counted_now += batch.len() as u64;
        options.report(done_before + counted_now, shard_size);
        Ok(())
    };

    if ranks == 1 {
        count_units(plan, &todo, options.threads, &deadline, &mut record)?;
    } else {
        // The MPI loop answers requests; a writer thread appends results in batches (all that
        // arrived during the previous write + fsync), so no rank ever waits for the disk.
        std::thread::scope(|scope| -> Result<(), LedgerError> {
            let (tx, rx) = std::sync::mpsc::channel::<(usize, UnitCount)>();
            let writer_thread = scope.spawn(move || -> Result<(), LedgerError> {
                while let Ok(first) = rx.recv() {
                    let mut batch = vec![first];
                    batch.extend(rx.try_iter());
                    record(&batch)?;
                }
                Ok(())
            });
            let mut next = todo.iter();
            let mut active = ranks - 1;
            let mut writer_failed = false;
            while active > 0 {
                let mut message = [0u64; 5];
                let status = world.any_process().receive_into(&mut message[..]);
                let source = status.source_rank();
                if message[0] != STOP && !writer_failed {
                    let count = UnitCount {
                        solutions: u128::from(message[1]) | (u128::from(message[2]) << 64),
                        unique_x8: u128::from(message[3]) | (u128::from(message[4]) << 64),
                    };
                    // A closed channel means the writer failed: hand out nothing more.
                    writer_failed = tx.send((message[0] as usize, count)).is_err();
                }
                let order = match next.next() {
                    Some(&i) if !writer_failed && !deadline.reached() => i as u64,
                    _ => STOP,
                };
                if order == STOP {
                    active -= 1;
                }
                world.process_at_rank(source).send(&[order, 0, 0, 0, 0][..]);
            }
            drop(tx);
            writer_thread
                .join()
                .expect("the ledger writer does not panic")
        })?;
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
        return Err(LedgerError::Inconsistent(merged.problems));
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
