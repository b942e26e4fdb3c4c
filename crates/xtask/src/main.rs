//! `cargo xtask serve | test | bench`: the project's commands, with their set-up.
//!
//! Each command installs what it needs and is missing — the wasm target, wasm-bindgen-cli
//! at the exact version in Cargo.lock, npm packages, Debian's chromium and
//! postgresql, cargo-fuzz — idempotently, saying what it does on a line of its own.

mod build;
mod e2e;
mod imports;
mod install;
mod load;
#[cfg(test)]
mod modules;
mod pg;
mod procs;
mod quotes;
mod sh;
mod ssh_client;
mod tasks;
mod web;
mod words;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <command>

commands:
  serve   build the game and the server, start it on an embedded SQLite database, print the URL
  test    every check: fmt, clippy -D warnings, all tests, the engine for wasm32, a short fuzz run
  bench   the engine's benchmarks (criterion) and the server's load test
  e2e     only the browser tests (arguments go to Playwright, e.g. a file or -g <title>)
  load    only the server's load test, or the set-ups whose name has the argument in it;
          `load --short`: the same set-ups and ratios in a few minutes (TYPEPPER_LOAD_SECS,
          TYPEPPER_LOAD_BODIES, TYPEPPER_LOAD_FILL); `load rooms`: how many live racers one
          server holds; `load cards`: share pages and cards, cold and cached;
          `load attacks [ssh|room|relay]`: the floods of issue 37 (keys into the ssh game
          and rooms, spectators that never read, connections that send nothing across two
          processes)
  pg      a throwaway PostgreSQL cluster until Ctrl-C, for working on the PostgreSQL store
  term    the terminal game's start-up and keypress-to-screen times, and SSH beside HTTP
  frames  only the game's figures in headless Chromium: load, frame times, a ghost's cost,
          a live room's key-to-screen latency
  words   remake the word lists in crates/typepper-engine/words from wordfreq; they are part
          of the game's rules, frozen by the engine's tests (read that folder's README
          first); `words --check`: only compare them with what the rules make
  quotes  remake the quote mode's passages in crates/typepper-engine/quotes from Debian's
          fortune packages and Moby-Dick (read that folder's README first);
          `quotes --check`: only compare them with what the rules make

Everything missing is installed first; each step says what it is doing.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = sh::catch_interrupts() {
        eprintln!("xtask: {e:#}");
        return ExitCode::FAILURE;
    }
    let result = match args.first().map(String::as_str) {
        Some("serve") => tasks::serve(&args[1..]),
        Some("test") => tasks::test(&args[1..]),
        Some("bench") => tasks::bench(&args[1..]),
        Some("e2e") => crate::web::build().and_then(|()| e2e::run_suite(&args[1..])),
        Some("load") => load::run(&args[1..]),
        Some("pg") => pg::hold(),
        Some("term") => load::term::run(),
        Some("frames") => tasks::browser_figures(),
        Some("words") => words::run(&args[1..]),
        Some("quotes") => quotes::run(&args[1..]),
        Some("-h" | "--help" | "help") | None => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Some(other) => {
            eprintln!("xtask: no command {other:?}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e:#}");
            ExitCode::FAILURE
        }
    }
}
