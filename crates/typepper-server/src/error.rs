//! Refusals and failures as HTTP answers: plain text, one sentence, the right status.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// Why a request was not served. The message is the response body.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the request can't be read.
    #[error("{0}")]
    BadRequest(String),
    /// 401: no token, or one no player has.
    #[error("{0}")]
    Unauthorized(&'static str),
    /// 403: not from this server's own game (a page elsewhere using its visitors).
    #[error("{0}")]
    Forbidden(String),
    /// 404: no such thing (or no longer).
    #[error("{0}")]
    NotFound(String),
    /// 408: the request took too long to arrive; nothing of it was done.
    #[error("the request took too long to arrive: nothing of it was stored; send it again")]
    Timeout,
    /// 409: taken already.
    #[error("{0}")]
    Conflict(String),
    /// 413: the body is over the limit.
    #[error("a request body is at most {0} bytes")]
    TooLarge(usize),
    /// 429: too many requests; try again after this many seconds.
    #[error("too many requests: try again in {0} s")]
    RateLimited(u64),
    /// 429: the player's daily quota is full, for this many more seconds. Nothing of the
    /// request was stored, so the game keeps the rounds and sends them then.
    #[error("{0}")]
    Quota(String, u64),
    /// 503: the database can't be reached or can't write, or was too busy to start the
    /// work in time; nothing was stored. Try again after this many seconds.
    #[error("{0}: nothing was stored; try again in {1} s")]
    Unavailable(String, u64),
    /// 500: the server failed; the detail is logged, not sent.
    #[error("the server failed; try again")]
    Internal(String),
}

/// An internal error's detail, for the logging middleware to print.
#[derive(Clone, Debug)]
pub struct ErrorDetail(pub String);

impl ApiError {
    fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Timeout => StatusCode::REQUEST_TIMEOUT,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::RateLimited(_) | ApiError::Quota(..) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(..) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status(),
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("{self}\n"),
        )
            .into_response();
        match &self {
            ApiError::RateLimited(secs)
            | ApiError::Quota(_, secs)
            | ApiError::Unavailable(_, secs) => {
                if let Ok(v) = HeaderValue::from_str(&secs.to_string()) {
                    response.headers_mut().insert(header::RETRY_AFTER, v);
                }
            }
            ApiError::Internal(detail) => {
                response
                    .extensions_mut()
                    .insert(ErrorDetail(detail.clone()));
            }
            _ => {}
        }
        response
    }
}

/// How long a client should wait when the database is unavailable.
pub const UNAVAILABLE_RETRY_SECS: u64 = 5;

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> ApiError {
        use crate::store::StoreError;
        match e {
            StoreError::Unavailable(why) => ApiError::Unavailable(
                format!("the database is unavailable ({why})"),
                UNAVAILABLE_RETRY_SECS,
            ),
            StoreError::Late => {
                ApiError::Unavailable("the server is too busy to store it now".into(), 1)
            }
            StoreError::KeyLinked(name) => ApiError::Conflict(format!(
                "this key is linked to {name} already: a key belongs to one player"
            )),
            StoreError::TooManyKeys(n) => ApiError::Conflict(format!(
                "the player has {n} keys linked, the most there may be"
            )),
            other => ApiError::Internal(other.to_string()),
        }
    }
}

impl From<tokio::task::JoinError> for ApiError {
    fn from(e: tokio::task::JoinError) -> ApiError {
        ApiError::Internal(format!("a blocking task failed: {e}"))
    }
}
