//! How a solve runs under Python: off the interpreter's lock, on a worker thread, while the
//! calling thread watches for signals (Ctrl-C) and turns one into the solver's cancel flag.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use queens::Options;
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// The most worker threads a solve may ask for (as on the command line).
const MAX_THREADS: usize = 256;

/// How often the calling thread looks for a signal while a solve runs.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Stack of the thread a solve runs on: the command line runs solvers on the main thread,
/// whose stack is 8 MiB on Linux; a spawned thread gets 2 MiB unless asked.
const WORKER_STACK: usize = 16 << 20;

/// Solver options from the Python arguments: `threads` (None or 0: one per core) and
/// `time_limit` in seconds (None: no limit), checked as the command line checks them.
pub fn options(threads: Option<i64>, time_limit: Option<f64>) -> PyResult<Options> {
    let threads = threads.unwrap_or(0);
    if threads < 0 {
        return Err(PyValueError::new_err(format!(
            "{threads} is not a number of threads (0 means one per core)"
        )));
    }
    let threads = threads as usize;
    if threads > MAX_THREADS {
        return Err(PyValueError::new_err(format!(
            "{threads} threads is more than the {MAX_THREADS} allowed (0 means one per core)"
        )));
    }
    let time_limit = match time_limit {
        None => None,
        Some(s) if s.is_finite() && (0.0..=1e9).contains(&s) => Some(Duration::from_secs_f64(s)),
        Some(s) => {
            return Err(PyValueError::new_err(format!(
                "time_limit {s} is not a number of seconds from 0 to 1e9"
            )))
        }
    };
    Ok(Options {
        threads,
        time_limit,
        ..Options::default()
    })
}

/// What a solve run under [`interruptible`] gave: its result, and the exception a signal
/// raised while it ran (Ctrl-C: `KeyboardInterrupt`), if one did. The solver was then
/// cancelled, so the result is its best answer so far.
pub struct Outcome<T> {
    pub result: T,
    pub interrupt: Option<PyErr>,
}

/// Runs `work` with `options` without the interpreter's lock, so that Ctrl-C stops it.
///
/// Most calls are short (a judge's board, a 12 x 12 grid: microseconds), and a thread per call
/// would cost more than the solve. So `work` first runs on the calling thread, watched by the
/// one [`budget`] ticker: if it is still running after [`INLINE_BUDGET`], the ticker sets its
/// cancel flag, its answer is dropped, and `work` runs again from the start on a worker thread
/// with what is left of the time limit, while the calling thread looks for signals every
/// [`SIGNAL_POLL`]. When a signal handler raises (Ctrl-C), the solver's cancel flag is set, its
/// answer so far is awaited, and both are handed back. A solve that ends within the budget was
/// never stopped by it (its flag is still clear), so its answer is the one the command line
/// gives. A panic in `work` becomes a Python exception, never an abort.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    options: Options,
    work: impl Fn(&Options) -> T + Sync,
) -> PyResult<Outcome<T>> {
    let started = Instant::now();
    let flag = Arc::new(AtomicBool::new(false));
    let inline = Options {
        cancel: Some(flag.clone()),
        ..options.clone()
    };
    let ticket = budget::watch(&flag);
    let first = py.allow_threads(|| catch_unwind(AssertUnwindSafe(|| work(&inline))));
    budget::unwatch(ticket);
    let first = first.map_err(panic_error)?;
    if !flag.load(Ordering::SeqCst) {
        return Ok(Outcome {
            result: first,
            interrupt: None,
        });
    }
    drop(first);
    let left = options
        .time_limit
        .map(|limit| limit.saturating_sub(started.elapsed()));
    let options = Options {
        time_limit: left,
        ..options
    };
    on_worker(py, options, &work)
}

/// Runs `work` with `options` at once on the calling thread, holding the interpreter's lock:
/// for solves that take microseconds whatever the input ([`crate::answers::IntoAnswer::quick`]),
/// where giving up the lock and watching the budget would cost more than the solve. Nothing
/// interrupts it (a signal is handled when it returns). A panic becomes a Python exception.
pub fn at_once<T>(options: Options, work: impl FnOnce(&Options) -> T) -> PyResult<Outcome<T>> {
    let result = catch_unwind(AssertUnwindSafe(|| work(&options))).map_err(panic_error)?;
    Ok(Outcome {
        result,
        interrupt: None,
    })
}

/// Runs `work` on a worker thread while the calling thread looks for signals (see
/// [`interruptible`]).
fn on_worker<T: Send>(
    py: Python<'_>,
    mut options: Options,
    work: &(impl Fn(&Options) -> T + Sync),
) -> PyResult<Outcome<T>> {
    let cancel = Arc::new(AtomicBool::new(false));
    options.cancel = Some(cancel.clone());
    let (done_tx, mut done_rx) = mpsc::sync_channel::<()>(1);
    std::thread::scope(|scope| {
        let options = &options;
        let worker = std::thread::Builder::new()
            .name("queens-solve".into())
            .stack_size(WORKER_STACK)
            .spawn_scoped(scope, move || {
                let result = catch_unwind(AssertUnwindSafe(|| work(options)));
                let _ = done_tx.send(());
                result
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a solver thread: {e}")))?;
        let mut interrupt = None;
        loop {
            let rx = &mut done_rx;
            let finished = py.allow_threads(move || match rx.recv_timeout(SIGNAL_POLL) {
                Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => true,
                Err(mpsc::RecvTimeoutError::Timeout) => false,
            });
            if finished {
                break;
            }
            if interrupt.is_none() {
                if let Err(raised) = py.check_signals() {
                    cancel.store(true, Ordering::Relaxed);
                    interrupt = Some(raised);
                }
            }
        }
        let joined = py.allow_threads(|| worker.join());
        match joined {
            Ok(Ok(result)) => Ok(Outcome { result, interrupt }),
            Ok(Err(payload)) | Err(payload) => Err(panic_error(payload)),
        }
    })
}

/// How long a solve runs on the calling thread before it moves to a worker thread (where
/// Ctrl-C can stop it). The work of the first try is lost: at most this much.
pub const INLINE_BUDGET: Duration = Duration::from_millis(10);

/// The one ticker thread that ends the calling-thread tries of [`interruptible`] after
/// [`INLINE_BUDGET`]: it sets their cancel flags. It wakes every [`budget::TICK`] while tries
/// were running in the last second, and sleeps otherwise.
mod budget {
    use super::INLINE_BUDGET;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::{Arc, Mutex, PoisonError};
    use std::thread::Thread;
    use std::time::{Duration, Instant};

    /// How often the ticker looks at the running tries.
    pub const TICK: Duration = Duration::from_millis(2);

    /// Ticks without a try after which the ticker sleeps until the next one.
    const IDLE_TICKS: u32 = 500;

    struct Ticker {
        /// The tries running: ticket, start, cancel flag.
        tries: Mutex<Tries>,
        /// The ticker thread, to wake it.
        thread: Thread,
    }

    #[derive(Default)]
    struct Tries {
        running: Vec<(u64, Instant, Arc<AtomicBool>)>,
        /// Whether the ticker sleeps (set and read under the lock).
        asleep: bool,
    }

    static NEXT: AtomicU64 = AtomicU64::new(0);
    static TICKER: Mutex<Option<Arc<Ticker>>> = Mutex::new(None);

    /// The ticker of this process, started on first use.
    fn ticker() -> Arc<Ticker> {
        let mut slot = TICKER.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(t) = slot.as_ref() {
            return t.clone();
        }
        let (tx, rx) = std::sync::mpsc::channel::<Arc<Ticker>>();
        let handle = std::thread::Builder::new()
            .name("queens-budget".into())
            .spawn(move || {
                if let Ok(me) = rx.recv() {
                    run(&me);
                }
            })
            .expect("a thread for the solve budget");
        let t = Arc::new(Ticker {
            tries: Mutex::new(Tries::default()),
            thread: handle.thread().clone(),
        });
        let _ = tx.send(t.clone());
        *slot = Some(t.clone());
        t
    }

    fn run(me: &Ticker) {
        let mut idle = 0;
        loop {
            std::thread::sleep(TICK);
            let mut tries = me.tries.lock().unwrap_or_else(PoisonError::into_inner);
            if tries.running.is_empty() {
                idle += 1;
                if idle >= IDLE_TICKS {
                    tries.asleep = true;
                    drop(tries);
                    std::thread::park();
                    idle = 0;
                }
                continue;
            }
            idle = 0;
            let now = Instant::now();
            for (_, start, flag) in &tries.running {
                if now.duration_since(*start) >= INLINE_BUDGET {
                    flag.store(true, Ordering::SeqCst);
                }
            }
        }
    }

    /// A try being watched.
    pub struct Ticket(Arc<Ticker>, u64);

    /// Forgets the ticker: called in the child after a fork, which has no ticker thread, so
    /// that its first try starts one.
    pub fn forget() {
        *TICKER.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }

    /// Starts watching a try whose cancel flag is `flag`; the ticket ends it.
    pub fn watch(flag: &Arc<AtomicBool>) -> Ticket {
        let t = ticker();
        let ticket = NEXT.fetch_add(1, Ordering::Relaxed);
        let wake = {
            let mut tries = t.tries.lock().unwrap_or_else(PoisonError::into_inner);
            tries.running.push((ticket, Instant::now(), flag.clone()));
            std::mem::take(&mut tries.asleep)
        };
        if wake {
            t.thread.unpark();
        }
        Ticket(t, ticket)
    }

    /// Stops watching the try of `ticket`.
    pub fn unwatch(Ticket(t, ticket): Ticket) {
        let mut tries = t.tries.lock().unwrap_or_else(PoisonError::into_inner);
        tries.running.retain(|(k, _, _)| *k != ticket);
    }
}

/// Forgets the budget ticker (in a forked child, which does not have its thread).
pub fn forget_ticker() {
    budget::forget();
}

/// A Rust panic as a Python exception (`pyo3_runtime.PanicException`, as PyO3 raises for a
/// panic on the calling thread).
pub fn panic_error(payload: Box<dyn Any + Send>) -> PyErr {
    let message = if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with no message".to_string()
    };
    pyo3::panic::PanicException::new_err(format!(
        "the solver panicked (a bug: please report it with the input): {message}"
    ))
}
