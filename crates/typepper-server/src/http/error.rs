//! The service's refusals and failures as HTTP answers: plain text, one sentence, the
//! right status.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::ServiceError;

/// An internal error's detail, for the logging middleware to print.
#[derive(Clone, Debug)]
pub struct ErrorDetail(pub String);

impl ServiceError {
    /// The HTTP status this answers with.
    pub(crate) fn status(&self) -> StatusCode {
        match self {
            ServiceError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ServiceError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ServiceError::Forbidden(_) => StatusCode::FORBIDDEN,
            ServiceError::NotFound(_) => StatusCode::NOT_FOUND,
            ServiceError::Timeout => StatusCode::REQUEST_TIMEOUT,
            ServiceError::Conflict(_) => StatusCode::CONFLICT,
            ServiceError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ServiceError::RateLimited(_) | ServiceError::Quota(..) => StatusCode::TOO_MANY_REQUESTS,
            ServiceError::Unavailable(..) => StatusCode::SERVICE_UNAVAILABLE,
            ServiceError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ServiceError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status(),
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("{self}\n"),
        )
            .into_response();
        match &self {
            ServiceError::RateLimited(secs)
            | ServiceError::Quota(_, secs)
            | ServiceError::Unavailable(_, secs) => {
                if let Ok(v) = HeaderValue::from_str(&secs.to_string()) {
                    response.headers_mut().insert(header::RETRY_AFTER, v);
                }
            }
            ServiceError::Internal(detail) => {
                response
                    .extensions_mut()
                    .insert(ErrorDetail(detail.clone()));
            }
            _ => {}
        }
        response
    }
}
