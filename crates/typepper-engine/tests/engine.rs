//! The engine's integration tests, in one binary.

mod engine {
    mod determinism;
    mod format;
    mod golden;
    mod props;
    mod rules;
}
