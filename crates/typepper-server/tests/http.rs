//! The server over HTTP without a socket: `app(state)` driven by `oneshot`, over a real
//! SQLite store in a temp dir.
//!
//! 1. `story`: link, submit, fetch, boards, share pages and hosts, static files, CORS,
//!    compression, retention.
//! 2. `bad_input`: every kind of bad request is refused, stores nothing, and the server
//!    keeps serving.
//! 3. `limits`: the per-IP and per-player rate limits.

// A crate root's modules are its siblings; these live in `http/` beside it.
#[path = "http/bad_input.rs"]
mod bad_input;
#[path = "http/limits.rs"]
mod limits;
#[path = "http/story.rs"]
mod story;
#[path = "http/support.rs"]
mod support;
