//! The server over HTTP without a socket: `app(state)` driven by `oneshot`, over a real
//! SQLite store in a temp dir, and over PostgreSQL where a test says so and
//! `TYPEPPER_TEST_POSTGRES_URL` names a server.
//!
//! 1. `story`: link, submit, fetch, boards, share pages and hosts, static files, CORS,
//!    compression, retention.
//! 2. The bad-input suite. `bad_input`: every kind of bad request is refused, stores
//!    nothing, and the server keeps serving. `attacks`: what an attacker tried against
//!    the boards (copies, floods, bots, chosen seeds), each a test named after it, on
//!    SQLite and PostgreSQL.
//! 4. `limits`: the per-IP and per-player rate limits and quotas.
//! 5. `modes`: every kind of round (WORDS, BLITZ 120s, punctuation, numbers, languages)
//!    seeded, ranked, on its board and its share page; each refusal of the mode grammar.
//! 6. `offline`: the word lists, quotes and service worker the browser's game keeps.
//! 7. `custom` and `quotes`: CUSTOM TEXT rounds (format 2) and QUOTE rounds, their
//!    boards and seeds, and what an attacker tried with texts of their own or anyone's.
//! 8. `versions`: rounds of rules VERSION 1 and 2 side by side, each scored by its own.

#[path = "http/account.rs"]
mod account;
#[path = "http/attacks.rs"]
mod attacks;
#[path = "http/bad_input.rs"]
mod bad_input;
#[path = "http/custom.rs"]
mod custom;
#[path = "http/daily.rs"]
mod daily;
#[path = "http/devices.rs"]
mod devices;
#[path = "http/limits.rs"]
mod limits;
#[path = "http/modes.rs"]
mod modes;
#[path = "http/offline.rs"]
mod offline;
#[path = "http/profiles.rs"]
mod profiles;
#[path = "http/quotes.rs"]
mod quotes;
#[path = "http/settings.rs"]
mod settings;
#[path = "http/story.rs"]
mod story;
#[path = "http/support.rs"]
mod support;
#[path = "http/versions.rs"]
mod versions;
