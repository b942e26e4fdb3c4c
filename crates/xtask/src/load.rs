//! The measuring tools: each starts the release server itself, loads it, and prints what
//! it saw for docs/PERFORMANCE.md.
//!
//! 1. [`server`]: `cargo xtask load [--short] [set-up]`, every route under wrk on SQLite
//!    and PostgreSQL (the second half of `cargo xtask bench`).
//! 2. [`rooms`]: `cargo xtask load rooms`, how many live racers one server holds.
//! 3. [`cards`]: `cargo xtask load cards`, share pages and cards, cold and cached.
//! 4. [`attacks`]: `cargo xtask load attacks [ssh|room|relay]`, the floods of issue 37.
//! 5. [`term`]: `cargo xtask term`, the terminal game and the `v1` protocol over SSH.
//!
//! They share one HTTP client ([`http`]), one reader of `/proc` ([`procfs`]), one live-room
//! client ([`room`]), one way to synthesize a submission ([`rounds`]) and one game in a
//! pseudo-terminal ([`pty`]), so that a figure in one table is taken as in the others.

mod attacks;
mod cards;
mod http;
pub mod procfs;
mod pty;
mod room;
mod rooms;
mod rounds;
mod server;
pub mod term;

use anyhow::Result;

/// `cargo xtask load <args>`: the tool its first word names (`rooms`, `cards`,
/// `attacks`), or else the server's load test, which reads the words itself.
pub fn run(args: &[String]) -> Result<()> {
    match args.first().map(String::as_str) {
        Some("rooms") => rooms::run(),
        Some("cards") => cards::run(),
        Some("attacks") => attacks::run(&args[1..]),
        _ => server::run(args),
    }
}

/// The median and the 99th percentile of `values`, which are not empty.
fn p50_p99(mut values: Vec<f64>) -> (f64, f64) {
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99))
}
