//! The solve slots: each solve runs on a blocking thread under a time limit, holding one of
//! `max_solves` slots until it really ends, and stops when its request is dropped.

use super::reply::{error, ApiError};
use super::AppState;
use crate::Options;
use axum::http::StatusCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Sets the cancel flag of a solve when the request is dropped before the solve ends (the
/// client went away), and counts it.
struct CancelOnDrop {
    flag: Arc<AtomicBool>,
    shared: AppState,
    armed: bool,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if self.armed {
            self.flag.store(true, Ordering::SeqCst);
            self.shared
                .counters
                .cancelled
                .fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Runs `work` on a blocking thread with options that stop it at `limit` or when the request
/// is dropped. Answers 429 when `max_solves` solves are already running. The slot is held until
/// the work really ends, so a cancelled solve keeps its slot until it has stopped.
pub(super) async fn solve<T: Send + 'static>(
    shared: &AppState,
    limit: Duration,
    work: impl FnOnce(&Options) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let Ok(permit) = shared.slots.clone().try_acquire_owned() else {
        shared.counters.refused.fetch_add(1, Ordering::Relaxed);
        return Err(error(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "{} solves are running, the most this server runs at once; try again soon",
                shared.config.max_solves
            ),
        ));
    };
    let flag = Arc::new(AtomicBool::new(false));
    let mut guard = CancelOnDrop {
        flag: flag.clone(),
        shared: shared.clone(),
        armed: true,
    };
    let options = Options {
        threads: shared.config.threads,
        time_limit: Some(limit),
        cancel: Some(flag),
        ..Options::default()
    };
    shared.counters.started.fetch_add(1, Ordering::Relaxed);
    let done = shared.clone();
    let task = tokio::task::spawn_blocking(move || {
        let answer = work(&options);
        done.counters.finished.fetch_add(1, Ordering::Relaxed);
        drop(permit);
        answer
    });
    let outcome = task.await;
    guard.armed = false;
    outcome.map_err(|_| error(StatusCode::INTERNAL_SERVER_ERROR, "the solve failed"))
}
