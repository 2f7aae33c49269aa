//! `queens serve`: a local web page with an interactive board, and its JSON API (see
//! docs/see.md and the command-line contract's "Web API").
//!
//! The API composes the same library calls as the command line: the [`crate::format`] parsers
//! read the request body, the solvers answer, and the [`crate::format`] writers give the same
//! JSON object (or SVG picture) as `queens weight|repair|guard|count|solutions`. Every solve runs
//! on a blocking thread under a time limit (the server's cap applies even when none is asked),
//! with its own cancel flag that is set when the client goes away; at most `max_solves` run at
//! once and further ones get 429. Requests never touch the file system.
//!
//! Endpoints: `GET /` (the page, with `/app.js` and `/style.css`), `POST /api/weight`,
//! `/api/repair`, `/api/guard`, `/api/complete` (`?count=1`, `?diagonals=D`) (the input
//! file's text as the body, at most 1 MiB), `GET
//! /api/count/N`, `GET /api/solutions/N?limit=K`, and `GET /api/status` (the solves running,
//! started, finished and cancelled so far, and the server's limits).

mod page;
mod query;

use crate::complete::{self, PartialBoard};
use crate::count::{self, Solutions, MAX_N};
use crate::format::{self, decode_utf8, svg, RunInfo};
use crate::guard::{self, GuardSet, MarkGrid, Rule};
use crate::problem::{Position, WeightGrid};
use crate::repair::{self, Repair};
use crate::weight::{self, Placement};
use crate::Options;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, RawQuery, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use query::Query;
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// The largest request body accepted (the input file's text), in bytes.
pub const MAX_BODY: usize = 1 << 20;

/// What the server allows and where it listens.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address and port to bind (port 0: any free port).
    pub addr: SocketAddr,
    /// The longest time limit a request may ask for; also the limit of requests that ask none.
    pub max_time_limit: Duration,
    /// How many solves may run at once; more get 429.
    pub max_solves: usize,
    /// The largest N that `/api/count/N` counts.
    pub max_count_n: u32,
    /// The most solutions one `/api/solutions/N` request lists.
    pub max_solutions: u64,
    /// Worker threads of each solve (0: one per core).
    pub threads: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            max_time_limit: Duration::from_secs(10),
            max_solves: 2,
            max_count_n: 18,
            max_solutions: 1000,
            threads: 0,
        }
    }
}

/// What the server has done so far (shown by `/api/status`).
#[derive(Default)]
struct Counters {
    started: AtomicU64,
    finished: AtomicU64,
    cancelled: AtomicU64,
    refused: AtomicU64,
}

/// A solved request, kept so that asking again in another format (the page asks for the JSON
/// answer, then for its picture) does not solve again.
#[derive(Clone)]
enum Solved {
    Weight(WeightGrid, Placement, RunInfo),
    Repair(Position, Repair, RunInfo),
    Guard(MarkGrid, GuardSet, Option<u128>, RunInfo),
    /// `/api/complete`: a decision.
    CompleteDecision(PartialBoard, complete::Decision, RunInfo),
    /// `/api/complete?count=1`: a count.
    CompleteCount(PartialBoard, complete::Tally, RunInfo),
}

/// How many solved requests are remembered.
const REMEMBERED: usize = 8;

struct Shared {
    config: Config,
    slots: Arc<Semaphore>,
    counters: Counters,
    recent: Mutex<VecDeque<(String, Solved)>>,
}

type AppState = Arc<Shared>;

/// An error answer: its status, and the message of its body `{"error": message}`.
struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.1 }).to_string();
        (self.0, [(header::CONTENT_TYPE, "application/json")], body).into_response()
    }
}

fn error(status: StatusCode, message: impl Into<String>) -> ApiError {
    ApiError(status, message.into())
}

fn bad_request(message: impl Into<String>) -> ApiError {
    error(StatusCode::BAD_REQUEST, message)
}

fn json_response(body: String) -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        body + "\n",
    )
        .into_response()
}

fn svg_response(body: String) -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8")],
        body,
    )
        .into_response()
}

fn text_response(body: String) -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        body,
    )
        .into_response()
}

/// The answer formats of the search endpoints.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Json,
    Svg,
    Text,
}

fn style(query: &Query) -> Result<Style, ApiError> {
    match query.get("format") {
        None | Some("json") => Ok(Style::Json),
        Some("svg") => Ok(Style::Svg),
        Some("text") => Ok(Style::Text),
        Some(other) => Err(bad_request(format!(
            "format '{}' is not one of json, svg, text",
            format::shorten(other)
        ))),
    }
}

/// The time limit of a request: `?time_limit=S`, at most the server's cap, the cap when absent.
fn time_limit(shared: &Shared, query: &Query) -> Result<Duration, ApiError> {
    let cap = shared.config.max_time_limit;
    match query.get("time_limit") {
        None => Ok(cap),
        Some(text) => {
            let secs: f64 = text.parse().map_err(|_| {
                bad_request(format!(
                    "time_limit '{}' is not a number of seconds",
                    format::shorten(text)
                ))
            })?;
            if !secs.is_finite() || secs < 0.0 {
                return Err(bad_request(format!(
                    "time_limit '{}' is not a number of seconds from 0 up",
                    format::shorten(text)
                )));
            }
            Ok(Duration::from_secs_f64(secs.min(cap.as_secs_f64())))
        }
    }
}

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
async fn solve<T: Send + 'static>(
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

/// The request body as text, or the JSON error for a body that is too large or not UTF-8.
fn body_text(body: &Result<Bytes, BytesRejection>) -> Result<&str, ApiError> {
    match body {
        Ok(bytes) => decode_utf8(bytes).map_err(|e| bad_request(e.to_string())),
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than {MAX_BODY} bytes"),
        )),
        Err(rejection) => Err(error(rejection.status(), rejection.body_text())),
    }
}

fn remembered(shared: &Shared, key: &str) -> Option<Solved> {
    let recent = shared.recent.lock().ok()?;
    recent
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, s)| s.clone())
}

fn remember(shared: &Shared, key: String, solved: &Solved) {
    if let Ok(mut recent) = shared.recent.lock() {
        recent.retain(|(k, _)| *k != key);
        recent.push_front((key, solved.clone()));
        recent.truncate(REMEMBERED);
    }
}

/// The answer of a solved request in the asked format.
fn render(solved: &Solved, style: Style) -> Response {
    match (solved, style) {
        (Solved::Weight(_, p, info), Style::Json) => {
            json_response(format::weight::to_json(p, *info))
        }
        (Solved::Weight(grid, p, _), Style::Svg) => svg_response(svg::weight(grid, p)),
        (Solved::Weight(_, p, _), Style::Text) => text_response(format::weight::write_text(p)),
        (Solved::Repair(_, r, info), Style::Json) => json_response(format::repair::json(r, *info)),
        (Solved::Repair(position, r, _), Style::Svg) => svg_response(svg::repair(position, r)),
        (Solved::Repair(position, r, _), Style::Text) => {
            text_response(format::repair::text(position, r))
        }
        (Solved::Guard(_, g, sets, info), Style::Json) => {
            json_response(format::guard::json_answer(g, *sets, *info))
        }
        (Solved::Guard(marks, g, _, _), Style::Svg) => svg_response(svg::guard(marks, g)),
        (Solved::Guard(marks, g, sets, _), Style::Text) => {
            text_response(format::guard::text_answer(marks, g, sets.map(Some)))
        }
        (Solved::CompleteDecision(board, d, info), Style::Json) => {
            json_response(format::complete::json_decision(board, d, *info))
        }
        (Solved::CompleteDecision(board, d, _), Style::Svg) => {
            svg_response(svg::complete(board, d.completion.as_deref(), d.stopped))
        }
        (Solved::CompleteDecision(board, d, _), Style::Text) => {
            text_response(format::complete::text_decision(board, d))
        }
        (Solved::CompleteCount(board, t, info), Style::Json) => {
            json_response(format::complete::json_tally(board, t, None, *info))
        }
        (Solved::CompleteCount(_, _, _), Style::Svg) => {
            bad_request("a count has no picture: ask for json or text").into_response()
        }
        (Solved::CompleteCount(board, t, _), Style::Text) => {
            text_response(format::complete::text_tally(board, t))
        }
    }
}

/// The three search endpoints: parse the body, solve (or recall), answer.
async fn search(
    shared: AppState,
    problem: &'static str,
    raw: Option<String>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let query = Query::parse(raw.as_deref());
    let (style, limit) = match (style(&query), time_limit(&shared, &query)) {
        (Ok(s), Ok(l)) => (s, l),
        (Err(e), _) | (_, Err(e)) => return e.into_response(),
    };
    let text = match body_text(&body) {
        Ok(text) => text,
        Err(e) => return e.into_response(),
    };
    let independent = query.flag("independent");
    let count_sets = query.flag("count_sets");
    let completing = (
        query.get("diagonals").map(str::to_string),
        query.flag("count"),
    );
    let key = format!(
        "{problem} {} {independent} {count_sets} {completing:?}\n{text}",
        limit.as_secs_f64()
    );
    if let Some(solved) = remembered(&shared, &key) {
        return render(&solved, style);
    }
    let started = Instant::now();
    let outcome: Result<Result<Solved, String>, ApiError> = match problem {
        "complete" => {
            let diagonals = match completing.0.as_deref().map(str::parse::<usize>) {
                None => None,
                Some(Ok(d)) => Some(d),
                Some(Err(_)) => {
                    return bad_request("diagonals takes a whole number").into_response();
                }
            };
            let board = match format::complete::parse_input(text, diagonals) {
                Ok(b) => b,
                Err(e) => return bad_request(e.to_string()).into_response(),
            };
            let counting = completing.1;
            solve(&shared, limit, move |options| {
                if counting {
                    let tally = complete::count(&board, options).map_err(|e| e.to_string())?;
                    let info = RunInfo::measured(started, options);
                    return Ok(Solved::CompleteCount(board, tally, info));
                }
                let decision = complete::decide(&board, options).map_err(|e| e.to_string())?;
                let info = RunInfo::measured(started, options);
                Ok(Solved::CompleteDecision(board, decision, info))
            })
            .await
        }
        "weight" => {
            let grid = match format::parse_weight_grid(text) {
                Ok(g) => g,
                Err(e) => return bad_request(e.to_string()).into_response(),
            };
            solve(&shared, limit, move |options| {
                let placement = weight::best(&grid, options).map_err(|e| e.to_string())?;
                let info = RunInfo::measured(started, options);
                Ok(Solved::Weight(grid, placement, info))
            })
            .await
        }
        "repair" => {
            let position = match format::parse_position(text) {
                Ok(p) => p,
                Err(e) => return bad_request(e.to_string()).into_response(),
            };
            solve(&shared, limit, move |options| {
                let plan = repair::solve(&position, options).map_err(|e| e.to_string())?;
                let info = RunInfo::measured(started, options);
                Ok(Solved::Repair(position, plan, info))
            })
            .await
        }
        _ => {
            let marks = match format::parse_mark_grid(text) {
                Ok(m) => m,
                Err(e) => return bad_request(e.to_string()).into_response(),
            };
            let rule = if independent {
                Rule::Independent
            } else {
                Rule::Any
            };
            solve(&shared, limit, move |options| {
                let guards = guard::solve(&marks, rule, options).map_err(|e| e.to_string())?;
                let sets = if count_sets && guards.optimal {
                    guard::count_minimum(&marks, rule, options)
                        .map_err(|e| e.to_string())?
                        .map(|m| m.sets)
                } else {
                    None
                };
                let info = RunInfo::measured(started, options);
                Ok(Solved::Guard(marks, guards, sets, info))
            })
            .await
        }
    };
    match outcome {
        Err(e) => e.into_response(),
        Ok(Err(message)) => bad_request(message).into_response(),
        Ok(Ok(solved)) => {
            remember(&shared, key, &solved);
            render(&solved, style)
        }
    }
}

/// The route of one search endpoint: `POST` with the input file's text as the body.
fn search_route(problem: &'static str) -> axum::routing::MethodRouter<AppState> {
    post(
        move |State(shared): State<AppState>,
              RawQuery(raw): RawQuery,
              body: Result<Bytes, BytesRejection>| search(shared, problem, raw, body),
    )
}

/// N from the path: a board size the counter supports.
fn board_size(text: &str) -> Result<u32, ApiError> {
    let n: u32 = text.parse().map_err(|_| {
        bad_request(format!(
            "'{}' is not a board size (a whole number from 1 to {MAX_N})",
            format::shorten(text)
        ))
    })?;
    count::check_size(n).map_err(|e| bad_request(e.to_string()))?;
    Ok(n)
}

async fn count_handler(
    State(shared): State<AppState>,
    Path(n): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let query = Query::parse(raw.as_deref());
    let n = match board_size(&n) {
        Ok(n) => n,
        Err(e) => return e.into_response(),
    };
    let max = shared.config.max_count_n;
    if n > max {
        return bad_request(format!(
            "this server counts boards up to N = {max} (queens serve --max-count-n)"
        ))
        .into_response();
    }
    let limit = match time_limit(&shared, &query) {
        Ok(l) => l,
        Err(e) => return e.into_response(),
    };
    let started = Instant::now();
    let outcome = solve(&shared, limit, move |options| {
        let counts = count::count(n, options).map_err(|e| e.to_string())?;
        let info = RunInfo::measured(started, options);
        Ok::<_, String>(format::count::to_json(
            &(&counts).into(),
            info.seconds,
            info.threads,
        ))
    })
    .await;
    match outcome {
        Err(e) => e.into_response(),
        Ok(Err(message)) => bad_request(message).into_response(),
        Ok(Ok(json)) => json_response(json),
    }
}

async fn solutions_handler(
    State(shared): State<AppState>,
    Path(n): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let query = Query::parse(raw.as_deref());
    let n = match board_size(&n) {
        Ok(n) => n,
        Err(e) => return e.into_response(),
    };
    let number = |name: &str, default: u64| -> Result<u64, ApiError> {
        match query.get(name) {
            None => Ok(default),
            Some(text) => text.parse().map_err(|_| {
                bad_request(format!(
                    "{name} '{}' is not a whole number",
                    format::shorten(text)
                ))
            }),
        }
    };
    let max = shared.config.max_solutions;
    let (limit, skip) = match (number("limit", 100.min(max)), number("skip", 0)) {
        (Ok(l), Ok(s)) => (l.min(max), s),
        (Err(e), _) | (_, Err(e)) => return e.into_response(),
    };
    let as_svg = match style(&query) {
        Ok(Style::Svg) => true,
        Ok(Style::Json) => false,
        Ok(Style::Text) => return bad_request("solutions come as json or svg").into_response(),
        Err(e) => return e.into_response(),
    };
    let unique = query.flag("unique");
    let time = match time_limit(&shared, &query) {
        Ok(l) => l,
        Err(e) => return e.into_response(),
    };
    let outcome = solve(&shared, time, move |options| {
        let mut all = Solutions::new(n, unique).with_deadline(options.deadline());
        let mut boards = Vec::new();
        let mut index = 0u64;
        while (boards.len() as u64) < limit {
            let Some(columns) = all.next() else { break };
            index += 1;
            if index > skip {
                boards.push(columns);
            }
        }
        if as_svg {
            svg::solutions(&boards, skip + 1)
        } else {
            let mut lines = String::new();
            for (k, columns) in boards.iter().enumerate() {
                lines.push_str(&format::solutions::json_line(skip + 1 + k as u64, columns));
                lines.push('\n');
            }
            lines
        }
    })
    .await;
    match outcome {
        Err(e) => e.into_response(),
        Ok(body) if as_svg => svg_response(body),
        Ok(body) => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/x-ndjson")],
            body,
        )
            .into_response(),
    }
}

async fn status_handler(State(shared): State<AppState>) -> Response {
    let c = &shared.counters;
    let config = &shared.config;
    let running = config.max_solves - shared.slots.available_permits();
    let body = serde_json::json!({
        "running": running,
        "started": c.started.load(Ordering::Relaxed),
        "finished": c.finished.load(Ordering::Relaxed),
        "cancelled": c.cancelled.load(Ordering::Relaxed),
        "refused": c.refused.load(Ordering::Relaxed),
        "max_solves": config.max_solves,
        "max_time_limit": config.max_time_limit.as_secs_f64(),
        "max_count_n": config.max_count_n,
        "max_solutions": config.max_solutions,
        "max_body": MAX_BODY,
    });
    json_response(body.to_string())
}

/// The page and the API, with `config`'s limits.
pub fn router(config: Config) -> Router {
    let shared = Arc::new(Shared {
        slots: Arc::new(Semaphore::new(config.max_solves.max(1))),
        config: Config {
            max_solves: config.max_solves.max(1),
            ..config
        },
        counters: Counters::default(),
        recent: Mutex::new(VecDeque::new()),
    });
    Router::new()
        .route("/", get(|| async { page::index() }))
        .route("/app.js", get(|| async { page::script() }))
        .route("/style.css", get(|| async { page::style() }))
        .route("/api/weight", search_route("weight"))
        .route("/api/repair", search_route("repair"))
        .route("/api/guard", search_route("guard"))
        .route("/api/complete", search_route("complete"))
        .route("/api/count/{n}", get(count_handler))
        .route("/api/solutions/{n}", get(solutions_handler))
        .route("/api/status", get(status_handler))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page").into_response() })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(shared)
}

/// Binds `config.addr`, calls `ready` with the bound address (useful with port 0), and serves
/// until `stop` is set (checked every 100 ms). Blocks the calling thread.
pub fn run(
    config: Config,
    stop: Arc<AtomicBool>,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(config.max_solves.max(1) + 4)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.addr).await?;
        ready(listener.local_addr()?);
        let app = router(config);
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                while !stop.load(Ordering::Relaxed) {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            })
            .await
    })
}
