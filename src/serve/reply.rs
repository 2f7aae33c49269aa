//! The answers of the API: the JSON error body with its status, and the successful bodies
//! with their content types; the request body read as text.

use super::MAX_BODY;
use crate::format::decode_utf8;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// An error answer: its status, and the message of its body `{"error": message}`.
pub(super) struct ApiError(pub(super) StatusCode, pub(super) String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.1 }).to_string();
        (self.0, [(header::CONTENT_TYPE, "application/json")], body).into_response()
    }
}

pub(super) fn error(status: StatusCode, message: impl Into<String>) -> ApiError {
    ApiError(status, message.into())
}

pub(super) fn bad_request(message: impl Into<String>) -> ApiError {
    error(StatusCode::BAD_REQUEST, message)
}

pub(super) fn json_response(body: String) -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        body + "\n",
    )
        .into_response()
}

pub(super) fn svg_response(body: String) -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8")],
        body,
    )
        .into_response()
}

pub(super) fn text_response(body: String) -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        body,
    )
        .into_response()
}

/// The request body as text, or the JSON error for a body that is too large or not UTF-8.
pub(super) fn body_text(body: &Result<Bytes, BytesRejection>) -> Result<&str, ApiError> {
    match body {
        Ok(bytes) => decode_utf8(bytes).map_err(|e| bad_request(e.to_string())),
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than {MAX_BODY} bytes"),
        )),
        Err(rejection) => Err(error(rejection.status(), rejection.body_text())),
    }
}
