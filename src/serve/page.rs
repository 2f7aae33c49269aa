//! The page: plain HTML, CSS and JavaScript, embedded in the binary (no CDN, no framework).

use axum::http::header;
use axum::response::{IntoResponse, Response};

const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// `GET /`.
pub fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX)
}

/// `GET /app.js`.
pub fn script() -> Response {
    asset("text/javascript; charset=utf-8", SCRIPT)
}

/// `GET /style.css`.
pub fn style() -> Response {
    asset("text/css; charset=utf-8", STYLE)
}
