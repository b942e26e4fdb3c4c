//! gd-replay's integration tests, in one binary.

mod gd_replay {
    mod props;
    mod recorder;
    mod refusals;
    mod table;
    mod timeline;
}
