//! The one scheduler for exhaustive searches cut into independent units: the plain count, the
//! ledger run and the MPI coordinator's own counting all go through [`run_units`].
//!
//! Units come heaviest first. Each worker of a rayon pool (`Options::threads` of them, 0: the
//! global pool) takes the next unit nobody has started, so a slow unit never holds up the others
//! (dynamic scheduling). Finished units travel to the calling thread, which hands them to a
//! callback in batches: all the units that finished while the callback was busy with the
//! previous batch. A ledger writes one batch with one `write` and one `fsync` (group commit),
//! and no worker ever waits for the disk.
//!
//! The deadline of the options (time limit, cancel flag) is polled before each unit starts and
//! is handed to the unit's own work, which may poll it too and give up (the unit then counts as
//! not done). What a caller adds up from the results does not depend on the number of threads or
//! the order in which units finish, as long as its sum is exact (integers).

use crate::{Deadline, Options};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// How far a schedule got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finished {
    /// Units whose results reached the callback.
    pub done: u64,
    /// Units given.
    pub total: u64,
}

impl Finished {
    /// Whether some units were left undone (the deadline passed, or the callback failed).
    pub fn stopped(&self) -> bool {
        self.done < self.total
    }
}

/// A pool of workers for units: `threads` rayon threads (0: the global pool, one per core).
///
/// Made once per request so that planning (which may use rayon itself, see [`Workers::install`])
/// and counting share one pool.
pub struct Workers {
    pool: Option<rayon::ThreadPool>,
}

impl Workers {
    /// Workers for `threads` threads; 0 means the global rayon pool (one thread per core). A
    /// dedicated pool is also made when the caller is itself a rayon worker, whose pool could
    /// otherwise be left without a free thread while the caller waits for results.
    pub fn new(threads: usize) -> Self {
        if threads == 0 && rayon::current_thread_index().is_none() {
            return Workers { pool: None };
        }
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .ok();
        Workers { pool }
    }

    /// Number of worker threads.
    pub fn threads(&self) -> usize {
        match &self.pool {
            Some(pool) => pool.current_num_threads(),
            None => rayon::current_num_threads(),
        }
    }

    /// Runs `work` inside the pool: rayon calls in it (`par_iter` ...) use these workers.
    pub fn install<R: Send>(&self, work: impl FnOnce() -> R + Send) -> R {
        match &self.pool {
            Some(pool) => pool.install(work),
            None => work(),
        }
    }

    /// [`run_units`] on these workers, against a deadline already running (e.g. one that also
    /// covered the planning).
    ///
    /// `work(unit, deadline)` computes one unit on a worker thread: `None` means the deadline
    /// stopped it (the unit is not done and that worker takes no other). `on_done` gets the
    /// finished units as `(position in units, result)` in batches, on the calling thread; then
    /// the progress callback of `options` hears `(done, total)`. If `on_done` fails, no unit
    /// starts any more, the units in flight are dropped and its error is returned.
    pub fn run<T, R, E>(
        &self,
        units: &[T],
        options: &Options,
        deadline: &Deadline,
        work: impl Fn(&T, &Deadline) -> Option<R> + Sync,
        mut on_done: impl FnMut(Vec<(usize, R)>) -> Result<(), E>,
    ) -> Result<Finished, E>
    where
        T: Sync,
        R: Send,
    {
        let total = units.len() as u64;
        let workers = self.threads().clamp(1, units.len().max(1));
        let next = AtomicUsize::new(0);
        let abort = AtomicBool::new(false);
        let (work, next_ref, abort_ref) = (&work, &next, &abort);
        let mut done = 0u64;
        in_place_scope(self.pool.as_ref(), |scope| -> Result<(), E> {
            let (tx, rx) = mpsc::channel::<(usize, R)>();
            for _ in 0..workers {
                let tx = tx.clone();
                scope.spawn(move |_| loop {
                    if abort_ref.load(Ordering::Relaxed) || deadline.reached() {
                        break;
                    }
                    let i = next_ref.fetch_add(1, Ordering::Relaxed);
                    let Some(unit) = units.get(i) else { break };
                    let Some(result) = work(unit, deadline) else {
                        break;
                    };
                    if tx.send((i, result)).is_err() {
                        break;
                    }
                });
            }
            drop(tx);
            while let Ok(first) = rx.recv() {
                let mut batch = vec![first];
                batch.extend(rx.try_iter());
                let size = batch.len() as u64;
                if let Err(e) = on_done(batch) {
                    abort_ref.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                done += size;
                options.report(done, total);
            }
            Ok(())
        })?;
        Ok(Finished { done, total })
    }
}

/// A rayon scope whose closure runs on the calling thread and whose spawned jobs run on `pool`
/// (the global pool for `None`).
fn in_place_scope<'scope, X>(
    pool: Option<&rayon::ThreadPool>,
    op: impl FnOnce(&rayon::Scope<'scope>) -> X,
) -> X {
    match pool {
        Some(pool) => pool.in_place_scope(op),
        None => rayon::in_place_scope(op),
    }
}

/// Runs independent `units` (heaviest first) over `options.threads` workers, dynamically, and
/// hands each finished unit's result to `on_done` on the calling thread; see [`Workers::run`].
/// The deadline of `options` starts now.
pub fn run_units<T, R, E>(
    units: &[T],
    options: &Options,
    work: impl Fn(&T, &Deadline) -> Option<R> + Sync,
    on_done: impl FnMut(Vec<(usize, R)>) -> Result<(), E>,
) -> Result<Finished, E>
where
    T: Sync,
    R: Send,
{
    Workers::new(options.threads).run(units, options, &options.deadline(), work, on_done)
}

/// The number of worker threads that `threads` in [`Options`] stands for (0: one per core, the
/// size of the global pool).
pub fn thread_count(threads: usize) -> usize {
    Options::with_threads(threads).thread_count()
}

/// [`run_units`] that keeps the results: `results[i]` is unit `i`'s, `None` for a unit the
/// deadline left undone. The same vector for any number of threads (when nothing stops it).
pub fn collect_units<T, R>(
    units: &[T],
    options: &Options,
    work: impl Fn(&T, &Deadline) -> Option<R> + Sync,
) -> Vec<Option<R>>
where
    T: Sync,
    R: Send,
{
    let mut results: Vec<Option<R>> = std::iter::repeat_with(|| None).take(units.len()).collect();
    let outcome = run_units(units, options, work, |batch| {
        for (i, r) in batch {
            results[i] = Some(r);
        }
        Ok::<(), std::convert::Infallible>(())
    });
    match outcome {
        Ok(_) => results,
        Err(never) => match never {},
    }
}

/// The CPU time (user + system) of this process so far, from /proc/self/stat (Linux; clock
/// ticks of 1/100 s); `None` elsewhere.
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let user: f64 = fields.get(11)?.parse().ok()?;
    let system: f64 = fields.get(12)?.parse().ok()?;
    Some((user + system) / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;
    use std::sync::Arc;

    fn square(x: &u64, _: &Deadline) -> Option<u64> {
        Some(x * x)
    }

    #[test]
    fn results_do_not_depend_on_threads() {
        let units: Vec<u64> = (0..500).rev().collect();
        let one = collect_units(&units, &Options::with_threads(1), square);
        assert!(one.iter().all(Option::is_some));
        for threads in [0, 2, 3, 8] {
            assert_eq!(
                collect_units(&units, &Options::with_threads(threads), square),
                one
            );
        }
        assert_eq!(one[0], Some(499 * 499));
    }

    #[test]
    fn progress_reaches_the_total_and_every_unit_arrives_once() {
        let seen = Arc::new(AtomicU64::new(0));
        let last = seen.clone();
        let options = Options {
            threads: 3,
            progress: Some(Arc::new(move |done, total| {
                assert!(done <= total);
                last.store(done, Ordering::Relaxed);
            })),
            ..Options::default()
        };
        let units: Vec<u64> = (0..200).collect();
        let mut arrived = vec![0u32; units.len()];
        let finished = run_units(&units, &options, square, |batch| {
            for (i, r) in batch {
                assert_eq!(r, units[i] * units[i]);
                arrived[i] += 1;
            }
            Ok::<_, ()>(())
        })
        .unwrap();
        assert_eq!(
            finished,
            Finished {
                done: 200,
                total: 200
            }
        );
        assert!(!finished.stopped());
        assert!(arrived.iter().all(|&a| a == 1));
        assert_eq!(seen.load(Ordering::Relaxed), 200);
        let empty: [u64; 0] = [];
        let none = run_units(&empty, &options, square, |_| Ok::<_, ()>(())).unwrap();
        assert_eq!(none, Finished { done: 0, total: 0 });
    }

    #[test]
    fn a_failing_callback_stops_the_schedule() {
        let units: Vec<u64> = (0..1000).collect();
        let slow = |x: &u64, _: &Deadline| {
            std::thread::sleep(std::time::Duration::from_micros(200));
            Some(*x)
        };
        let mut calls = 0;
        let outcome = run_units(&units, &Options::with_threads(2), slow, |_| {
            calls += 1;
            if calls == 3 {
                Err("disk full")
            } else {
                Ok(())
            }
        });
        assert_eq!(outcome, Err("disk full"));
        assert_eq!(calls, 3);
    }

    #[test]
    fn the_deadline_stops_between_and_inside_units() {
        let flag = Arc::new(AtomicBool::new(true));
        let options = Options {
            threads: 2,
            cancel: Some(flag.clone()),
            ..Options::default()
        };
        let units: Vec<u64> = (0..50).collect();
        let results = collect_units(&units, &options, square);
        assert!(
            results.iter().all(Option::is_none),
            "cancelled before the start"
        );
        // A unit that gives up when the deadline passes is not done.
        flag.store(false, Ordering::Relaxed);
        let gives_up = |x: &u64, d: &Deadline| {
            if *x == 10 {
                flag.store(true, Ordering::Relaxed);
            }
            (!d.reached()).then_some(*x)
        };
        let results = collect_units(&units, &options, gives_up);
        assert_eq!(results[10], None);
        assert!(results.iter().flatten().count() < units.len());
    }

    #[test]
    fn a_caller_inside_a_one_thread_pool_does_not_wait_forever() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let units: Vec<u64> = (0..20).collect();
        let results = pool.install(|| collect_units(&units, &Options::default(), square));
        assert!(results.iter().all(Option::is_some));
    }
}
