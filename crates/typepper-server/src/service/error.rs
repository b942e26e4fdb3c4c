//! Why the service did not do what it was asked, as a value: one enum for every door.
//! Its `Display` is the one sentence a person reads; the HTTP door answers it with a
//! status (`http/error.rs`), `v1` over SSH with an exit status (`ssh/exec.rs`): 3 for
//! [`ServiceError::Unauthorized`], 1 for any other.

/// Why a request was not served.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// 400: the request can't be read.
    #[error("{0}")]
    BadRequest(String),
    /// 401: no token, or one no player has; a key linked to no player.
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

/// How long a client should wait when the database is unavailable.
pub const UNAVAILABLE_RETRY_SECS: u64 = 5;

impl From<crate::store::StoreError> for ServiceError {
    fn from(e: crate::store::StoreError) -> ServiceError {
        use crate::store::StoreError;
        match e {
            StoreError::Unavailable(why) => ServiceError::Unavailable(
                format!("the database is unavailable ({why})"),
                UNAVAILABLE_RETRY_SECS,
            ),
            StoreError::Late => {
                ServiceError::Unavailable("the server is too busy to store it now".into(), 1)
            }
            StoreError::KeyLinked(name) => ServiceError::Conflict(format!(
                "this key is linked to {name} already: a key belongs to one player"
            )),
            StoreError::TooManyKeys(n) => ServiceError::Conflict(format!(
                "the player has {n} keys linked, the most there may be"
            )),
            other => ServiceError::Internal(other.to_string()),
        }
    }
}

impl From<tokio::task::JoinError> for ServiceError {
    fn from(e: tokio::task::JoinError) -> ServiceError {
        ServiceError::Internal(format!("a blocking task failed: {e}"))
    }
}
