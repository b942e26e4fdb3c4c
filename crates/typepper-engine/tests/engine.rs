//! The engine's integration tests, in one binary.

// Helpers outside #[test] functions unwrap too: a test's input is the test's own.
#![allow(clippy::unwrap_used)]

mod engine {
    mod determinism;
    mod format;
    mod golden;
    mod outcome;
    mod props;
    mod rules;
}
