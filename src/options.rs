//! What every solver takes besides its problem: threads, a time limit, a cancel flag and a
//! progress callback. Solvers read the clock and the outside world only through these.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Called with `(done, total)` work units as a long computation advances. Must be cheap.
pub type ProgressFn = Arc<dyn Fn(u64, u64) + Send + Sync>;

/// How far a computation cut into units has got, by units and by estimated work (any measure,
/// e.g. estimated search nodes; units may differ in size by orders of magnitude, so the work is
/// the better guide to the time left).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WorkProgress {
    /// Units finished.
    pub done: u64,
    /// Units in all.
    pub total: u64,
    /// Estimated work of the finished units.
    pub done_work: f64,
    /// Estimated work of all the units.
    pub total_work: f64,
}

/// Called with a [`WorkProgress`] as a long computation advances. Must be cheap.
pub type WorkProgressFn = Arc<dyn Fn(WorkProgress) + Send + Sync>;

/// A step of a search that closes the gap between a proven bound and the best answer found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SearchEvent {
    /// Repair: the relaxed count's proven lower bound, and the moves of the best plan so far
    /// (`None` before the first plan).
    Bounds {
        /// Proven lower bound.
        lower: u64,
        /// The best plan's moves, once there is one.
        best: Option<u64>,
    },
    /// Weight: the best sum found so far and the proven bound on the best sum (an upper bound
    /// when maximising, a lower bound when minimising); the gap closes as they move.
    Sums {
        /// The best placement's sum.
        best: i128,
        /// Proven bound on the optimum.
        bound: i128,
    },
    /// Guard: a cover of `k` queens is being sought (refuted or found); the best cover known
    /// has `best` queens.
    Level {
        /// The size being searched.
        k: u64,
        /// The size of the best cover known.
        best: u64,
    },
}

/// Called with each [`SearchEvent`]. Must be cheap.
pub type SearchProgressFn = Arc<dyn Fn(SearchEvent) + Send + Sync>;

/// Limits and hooks for one solver call. `Options::default()` means: all cores, no time limit,
/// no cancel flag, no progress reports.
#[derive(Clone, Default)]
pub struct Options {
    /// Worker threads; 0 means one per available core. Results never depend on this.
    pub threads: usize,
    /// Stop searching after this long and return the best answer found with its proven bound.
    pub time_limit: Option<Duration>,
    /// Set from outside (e.g. on Ctrl-C) to stop the search as if the time limit had passed.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Progress reports, for long runs.
    pub progress: Option<ProgressFn>,
    /// Progress reports by units and estimated work, from computations that estimate their
    /// units' work (counting); heard besides `progress`.
    pub work_progress: Option<WorkProgressFn>,
    /// Reports of the searches that close a gap between a bound and an answer (repair,
    /// guard); they report nothing through `progress`.
    pub search_progress: Option<SearchProgressFn>,
    /// The most memory, in bytes, a solver that holds large tables may take (counting by the
    /// join); `None`: its default.
    pub memory: Option<u64>,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("threads", &self.threads)
            .field("time_limit", &self.time_limit)
            .field("cancel", &self.cancel.is_some())
            .field("progress", &self.progress.is_some())
            .field("work_progress", &self.work_progress.is_some())
            .field("search_progress", &self.search_progress.is_some())
            .field("memory", &self.memory)
            .finish()
    }
}

impl Options {
    /// Options with the given thread count and nothing else set.
    pub fn with_threads(threads: usize) -> Self {
        Options {
            threads,
            ..Options::default()
        }
    }

    /// The number of worker threads these options run on: `threads`, or the size of the global
    /// rayon pool (one per core) when it is 0.
    pub fn thread_count(&self) -> usize {
        if self.threads == 0 {
            rayon::current_num_threads()
        } else {
            self.threads
        }
    }

    /// A stop condition that starts counting now.
    pub fn deadline(&self) -> Deadline {
        Deadline {
            end: self.time_limit.map(|d| Instant::now() + d),
            cancel: self.cancel.clone(),
        }
    }

    /// Runs `work` on a rayon pool with `threads` workers (the global pool when 0).
    pub fn run_in_pool<R: Send>(&self, work: impl FnOnce() -> R + Send) -> R {
        if self.threads == 0 {
            return work();
        }
        match rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
        {
            Ok(pool) => pool.install(work),
            Err(_) => work(),
        }
    }

    /// Reports progress if a callback is set.
    pub fn report(&self, done: u64, total: u64) {
        if let Some(p) = &self.progress {
            p(done, total);
        }
    }

    /// Reports a search step if a search callback is set.
    pub fn report_search(&self, event: SearchEvent) {
        if let Some(p) = &self.search_progress {
            p(event);
        }
    }

    /// Reports progress by units and estimated work if a work callback is set.
    pub fn report_work(&self, progress: WorkProgress) {
        if let Some(p) = &self.work_progress {
            p(progress);
        }
    }
}

/// When a search must stop: a point in time, a cancel flag, both or neither. Cheap to clone and
/// to poll (poll it every few thousand nodes, not at every node).
#[derive(Clone, Debug, Default)]
pub struct Deadline {
    end: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
}

impl Deadline {
    /// A deadline that never passes.
    pub fn never() -> Self {
        Deadline::default()
    }

    /// Whether the time is up or the run was cancelled.
    pub fn reached(&self) -> bool {
        if let Some(flag) = &self.cancel {
            if flag.load(Ordering::Relaxed) {
                return true;
            }
        }
        matches!(self.end, Some(end) if Instant::now() >= end)
    }

    /// Whether the cancel flag (not the clock) stopped the run.
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }
}
