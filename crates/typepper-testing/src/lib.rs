//! What the integration tests need from the machine (OpenSSH, tmux, PostgreSQL, the
//! release binaries), asked one way.
//!
//! `cargo xtask test` installs every tool, starts PostgreSQL, builds the binaries and sets
//! [`ALL`]: there a test whose need is missing fails, for a green run that skipped half
//! its tests proves nothing. A bare `cargo test` on a developer's machine skips it
//! instead, with a line saying what it needs.

use std::io::Write as _;
use std::process::{Command, Stdio};

/// Set by `cargo xtask test`: every need is provided, and a missing one is a failure.
pub const ALL: &str = "TYPEPPER_TEST_ALL";

/// Whether the test may go on: `present`, or else skipped with a line naming `what`
/// it needs; under `cargo xtask test` a missing need fails the test instead.
///
/// # Panics
/// When `what` is missing under `cargo xtask test`.
pub fn require(what: &str, present: bool) -> bool {
    if present {
        return true;
    }
    assert!(
        std::env::var_os(ALL).is_none(),
        "{what} is missing, though cargo xtask test provides it"
    );
    // Straight to stderr: the harness keeps `eprintln!` of a passing test to itself, and
    // a skip should be seen.
    let _ = writeln!(
        std::io::stderr(),
        "skipped: needs {what} (cargo xtask test provides it)"
    );
    false
}

/// The environment variable `name` that `cargo xtask test` sets, or `None` (and the
/// test skipped) outside it. See [`require`].
pub fn var(name: &str) -> Option<String> {
    let value = std::env::var(name).ok().filter(|v| !v.is_empty());
    require(name, value.is_some());
    value
}

/// Whether `program` runs here (asked with `arg`, `-V` for OpenSSH and tmux).
pub fn runs(program: &str, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// [`require`] of the program `program`: whether it runs here.
pub fn tool(program: &str, arg: &str) -> bool {
    require(program, runs(program, arg))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_need_that_is_here_goes_on_and_a_missing_one_says_so() {
        assert!(require("a thing", true));
        assert!(runs("sh", "-c"));
        assert!(!runs("typepper-no-such-program", "-V"));
        if std::env::var_os(ALL).is_none() {
            assert!(!require("a thing", false));
        } else {
            let missing = std::panic::catch_unwind(|| require("a thing", false));
            assert!(missing.is_err(), "cargo xtask test fails a missing need");
        }
    }
}
