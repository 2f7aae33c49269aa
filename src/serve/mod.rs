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
mod reply;
mod slots;

use crate::board::Columns;
use crate::count::{self, MAX_N};
use crate::format::{self, svg};
use crate::guard::Rule;
use crate::puzzle::{self, Answered, Count, CountChoices, Guard, GuardChoices, Listing, Puzzle};
use crate::puzzle::{Complete, CompleteChoices, Repair, Sense, Style, Weight};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, RawQuery, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use query::Query;
use reply::{bad_request, body_text, error, json_response, svg_response, text_response, ApiError};
use slots::solve;
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
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
type Remembered = Arc<dyn Answered>;

/// How many solved requests are remembered.
const REMEMBERED: usize = 8;

struct Shared {
    config: Config,
    slots: Arc<Semaphore>,
    counters: Counters,
    recent: Mutex<VecDeque<(String, Remembered)>>,
}

type AppState = Arc<Shared>;

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

fn remembered(shared: &Shared, key: &str) -> Option<Remembered> {
    let recent = shared.recent.lock().ok()?;
    recent
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, s)| s.clone())
}

fn remember(shared: &Shared, key: String, solved: &Remembered) {
    if let Ok(mut recent) = shared.recent.lock() {
        recent.retain(|(k, _)| *k != key);
        recent.push_front((key, solved.clone()));
        recent.truncate(REMEMBERED);
    }
}

/// The answer of a solved request in the asked format.
fn render(solved: &dyn Answered, style: Style) -> Response {
    match solved.write(style) {
        Err(e) => bad_request(e.to_string()).into_response(),
        Ok(body) => match style {
            Style::Json => json_response(body),
            Style::Svg => svg_response(body),
            Style::Text => text_response(body),
        },
    }
}

/// A search endpoint: parse the body as `P`'s input, solve it with the choices the query
/// asks for (or recall it), answer in the asked format.
async fn search<P: Puzzle>(
    shared: AppState,
    choices: Choices<P>,
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
    let choices = match choices(&query) {
        Ok(choices) => choices,
        Err(e) => return e.into_response(),
    };
    let key = format!(
        "{} {} {:?} {:?}\n{text}",
        P::NAME,
        limit.as_secs_f64(),
        query.flag("independent"),
        query.flag("count_sets"),
    ) + &format!(
        " {:?} {:?} {:?}",
        query.flag("count"),
        query.get("diagonals"),
        query.flag("minimize")
    );
    if let Some(solved) = remembered(&shared, &key) {
        return render(solved.as_ref(), style);
    }
    let input = match P::read_with(text, &choices) {
        Ok(input) => input,
        Err(e) => return bad_request(e.to_string()).into_response(),
    };
    let outcome = solve(&shared, limit, move |options| {
        puzzle::solve::<P>(input, &choices, options).map_err(|e| e.to_string())
    })
    .await;
    match outcome {
        Err(e) => e.into_response(),
        Ok(Err(message)) => bad_request(message).into_response(),
        Ok(Ok(solved)) => {
            let solved: Remembered = Arc::new(solved);
            remember(&shared, key, &solved);
            render(solved.as_ref(), style)
        }
    }
}

/// The route of one search endpoint: `POST` with the input file's text as the body, the
/// problem's choices read from the query by `choices`.
fn search_route<P: Puzzle>(choices: Choices<P>) -> axum::routing::MethodRouter<AppState> {
    post(
        move |State(shared): State<AppState>,
              RawQuery(raw): RawQuery,
              body: Result<Bytes, BytesRejection>| search::<P>(shared, choices, raw, body),
    )
}

/// Reads a problem's choices from the query, or the 400 naming a bad parameter.
type Choices<P> = fn(&Query) -> Result<<P as Puzzle>::Choices, ApiError>;

/// No choices.
fn no_choices(_: &Query) -> Result<(), ApiError> {
    Ok(())
}

/// A yes-or-no parameter, or the 400 naming it.
fn flag(query: &Query, name: &str) -> Result<bool, ApiError> {
    query.flag(name).map_err(bad_request)
}

/// The weight choice of `?minimize` (the smallest sum instead of the largest).
fn weight_choices(query: &Query) -> Result<Sense, ApiError> {
    Ok(Sense::from_minimize(flag(query, "minimize")?))
}

/// The guard choices of `?independent` and `?count_sets` (lower bounds from theorems).
fn guard_choices(query: &Query) -> Result<GuardChoices, ApiError> {
    Ok(GuardChoices {
        rule: Rule::from_independent(flag(query, "independent")?),
        count_sets: flag(query, "count_sets")?,
        ..GuardChoices::default()
    })
}

/// The completion choices of `?count` and `?diagonals=D` (a CSPLib `.param` input's first D
/// diagonals; a value that is not a whole number reads as all of them).
fn complete_choices(query: &Query) -> Result<CompleteChoices, ApiError> {
    Ok(CompleteChoices {
        count: flag(query, "count")?,
        diagonals: query.get("diagonals").and_then(|d| d.parse().ok()),
    })
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
    let outcome = solve(&shared, limit, move |options| {
        let solved = puzzle::solve::<Count>(n, &CountChoices::default(), options);
        solved
            .map(|s| s.write(Style::Json))
            .map_err(|e| e.to_string())
    })
    .await;
    match outcome {
        Err(e) => e.into_response(),
        Ok(Err(message)) => bad_request(message).into_response(),
        Ok(Ok(Err(unwritable))) => bad_request(unwritable.to_string()).into_response(),
        Ok(Ok(Ok(json))) => json_response(json),
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
        (Ok(l), _) if l > max => {
            return bad_request(format!(
                "limit {l} is more than the {max} solutions this server lists at once"
            ))
            .into_response()
        }
        (Ok(l), Ok(s)) => (l, s),
        (Err(e), _) | (_, Err(e)) => return e.into_response(),
    };
    let as_svg = match style(&query) {
        Ok(Style::Svg) => true,
        Ok(Style::Json) => false,
        Ok(Style::Text) => return bad_request("solutions come as json or svg").into_response(),
        Err(e) => return e.into_response(),
    };
    let unique = match flag(&query, "unique") {
        Ok(unique) => unique,
        Err(e) => return e.into_response(),
    };
    let time = match time_limit(&shared, &query) {
        Ok(l) => l,
        Err(e) => return e.into_response(),
    };
    let outcome = solve(&shared, time, move |options| {
        let mut listing = Listing::new(n, unique, skip, limit, options.deadline());
        let body = if as_svg {
            let boards: Vec<Columns> = listing.by_ref().map(|(_, columns)| columns).collect();
            svg::solutions(&boards, skip + 1)
        } else {
            let mut lines = String::new();
            for (index, columns) in listing.by_ref() {
                lines.push_str(&format::solutions::json_line(index, &columns));
                lines.push('\n');
            }
            lines
        };
        listing.none_exists().map_or(Ok(body), Err)
    })
    .await;
    match outcome {
        Err(e) => e.into_response(),
        Ok(Err(none)) => bad_request(none).into_response(),
        Ok(Ok(body)) if as_svg => svg_response(body),
        Ok(Ok(body)) => (
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
        .route("/api/weight", search_route::<Weight>(weight_choices))
        .route("/api/repair", search_route::<Repair>(no_choices))
        .route("/api/guard", search_route::<Guard>(guard_choices))
        .route("/api/complete", search_route::<Complete>(complete_choices))
        .route("/api/count/{n}", get(count_handler))
        .route("/api/solutions/{n}", get(solutions_handler))
        .route("/api/status", get(status_handler))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page").into_response() })
        .method_not_allowed_fallback(|method: axum::http::Method| async move {
            error(
                StatusCode::METHOD_NOT_ALLOWED,
                format!("{method} is not allowed here (docs/see.md lists each endpoint's method)"),
            )
            .into_response()
        })
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
