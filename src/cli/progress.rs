//! Progress on stderr, one style for every command: drawn only when stderr is a terminal and
//! the answer is not JSON and `--quiet` is not given; a spinner with the elapsed time and a
//! status line while the amount of work is unknown, a bar once it is; removed when the command
//! ends, however it ends.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use queens::options::WorkProgress;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A progress display; inert when progress is not to be drawn.
pub struct Progress {
    bar: Option<ProgressBar>,
    started: Instant,
    /// For [`Progress::work`]: when and at how much work done the first report came.
    first_work: Mutex<Option<(Instant, f64)>>,
}

impl Progress {
    /// A spinner saying `what` (e.g. "searching"), drawn only when `wanted` and stderr is a
    /// terminal; it appears after a short delay so that quick answers show nothing.
    pub fn new(wanted: bool, what: &str) -> Self {
        let bar = (wanted && super::stderr_is_terminal()).then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed:>4} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.set_message(what.to_string());
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        Progress {
            bar,
            started: Instant::now(),
            first_work: Mutex::new(None),
        }
    }

    /// Whether anything is drawn.
    pub fn active(&self) -> bool {
        self.bar.is_some()
    }

    /// Replaces the status line.
    pub fn status(&self, text: String) {
        if let Some(bar) = &self.bar {
            bar.set_message(text);
        }
    }

    /// Shows `done` of `total` work units as a bar with the given unit name, and an estimate of
    /// the time left from `done_work` of `total_work` (any measure of work, e.g. estimated node
    /// counts); the estimate reads "estimating" until a tenth of the work and two seconds have
    /// passed, so that an early guess is never shown.
    pub fn units(&self, done: u64, total: u64, unit: &str, done_work: f64, total_work: f64) {
        let Some(bar) = &self.bar else { return };
        if bar.length() != Some(total) {
            bar.set_length(total);
            bar.set_style(
                ProgressStyle::with_template("{elapsed:>4} [{bar:30}] {pos}/{len} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
        }
        bar.set_position(done);
        let elapsed = self.started.elapsed().as_secs_f64();
        let share = if total_work > 0.0 {
            done_work / total_work
        } else {
            0.0
        };
        let left = if share >= 0.1 && elapsed >= 2.0 && share < 1.0 {
            format!(
                "{unit}, about {} left",
                human(elapsed * (1.0 - share) / share)
            )
        } else if share >= 1.0 {
            unit.to_string()
        } else {
            format!("{unit}, estimating")
        };
        bar.set_message(left);
    }
}

impl Progress {
    /// Shows the units done of a computation that estimates its units' work, with the time
    /// left projected from the work done so far: the rate is the estimated work finished since
    /// the first report (work done by earlier runs of a resumed count does not count) per
    /// second, applied to the work left. Units run heaviest first, so a count of units would
    /// promise too early an end; the work does not. The projection reads "estimating" until
    /// this run has finished 5% of the work it had left and 3 seconds have passed.
    pub fn work(&self, p: WorkProgress, unit: &str) {
        let Some(bar) = &self.bar else { return };
        let now = Instant::now();
        let (since, base) = {
            let mut first = self.first_work.lock().unwrap_or_else(|e| e.into_inner());
            *first.get_or_insert((now, p.done_work))
        };
        if bar.length() != Some(p.total) {
            bar.set_length(p.total);
            bar.set_style(
                ProgressStyle::with_template("{elapsed:>4} [{bar:30}] {pos}/{len} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
        }
        bar.set_position(p.done);
        let elapsed = now.duration_since(since).as_secs_f64();
        let done_now = p.done_work - base;
        let left_at_first = (p.total_work - base).max(0.0);
        let left = (p.total_work - p.done_work).max(0.0);
        let message = if p.done >= p.total {
            unit.to_string()
        } else if elapsed >= 3.0 && left_at_first > 0.0 && done_now >= 0.05 * left_at_first {
            let percent = 100.0 * p.done_work / p.total_work.max(f64::MIN_POSITIVE);
            format!(
                "{unit}, {percent:.0}% of the estimated work, about {} left",
                human(elapsed * left / done_now)
            )
        } else {
            format!("{unit}, estimating")
        };
        bar.set_message(message);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A duration for people: `42 s`, `3 min`, `2.5 h`.
fn human(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{seconds:.0} s")
    } else if seconds < 5400.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}
