//! The server's integration tests, one binary (STYLE 13): each module a door or a promise
//! of the server, driven as a client drives it.
//!
//! - `http`: the router without a socket, on SQLite and PostgreSQL: the story, bad input,
//!   attacks, limits.
//! - `connections`: the connection loop over real sockets.
//! - `rooms`: live rooms over real WebSockets, and attacks on them.
//! - `ssh`: the `v1` protocol and the game over SSH, with OpenSSH's client and russh's.
//! - `store`: the store's story on each backend.
//! - `durability`: the real binary under faults (SIGKILL, PostgreSQL stopped and started,
//!   a full disk).
//! - `card`: each run's card.
//!
//! The tests that use PostgreSQL share one server; the one that stops it takes its turn
//! alone ([`support::pg::FreshDb::alone`]).

// Every value here is the tests' own: a failed unwrap is a failed step, with its line.
#![allow(clippy::unwrap_used)]

mod card;
mod connections;
mod durability;
mod http;
mod rooms;
mod ssh;
mod store;
mod support;
