//! What the CLI reads, it reads only as far as it may: a replay file as long as a replay
//! written as hex.

#![allow(clippy::unwrap_used)] // a test: a failure is a panic with its place

use std::process::Command;

/// Runs `typepper args` with its address space held to 400 MB, standard input from
/// `/dev/zero`: what it prints (stderr, and stdout for `--json`), and its exit code.
fn under_a_memory_limit(args: &str) -> (String, Option<i32>) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 400000; exec {} {args} < /dev/zero",
            env!("CARGO_BIN_EXE_typepper")
        ))
        .output()
        .unwrap();
    let said = [out.stderr, out.stdout].concat();
    (
        String::from_utf8_lossy(&said).into_owned(),
        out.status.code(),
    )
}

/// The attack: `typepper score --json /dev/zero` grew to 23.8 GB before the kernel ended
/// it, and a 300 MB file was read whole before it was refused.
#[test]
fn every_command_that_reads_a_replay_refuses_dev_zero_at_once() {
    for args in [
        "score /dev/zero",
        "score --json -",
        "inspect /dev/zero",
        "keys /dev/zero",
        "--replay /dev/zero",
        "--race -",
    ] {
        let (said, code) = under_a_memory_limit(args);
        assert_eq!(code, Some(1), "{args}: {said}");
        assert!(said.contains("holds more than"), "{args}: {said}");
    }
}
