//! gd-replay's integration tests, in one binary. The format they hold the crate to is
//! `docs/spec/gd-replay-string.md`.

mod gd_replay {
    mod props;
    mod recorder;
    mod refusals;
    mod stored;
    mod table;
    mod timeline;
}
