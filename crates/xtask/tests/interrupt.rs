//! Ctrl-C in the middle of an xtask leaves nothing running and nothing on disk: the
//! throwaway PostgreSQL cluster is stopped and its files deleted.

#![allow(clippy::unwrap_used)] // a test: a failure is a panic with its place

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The temp dirs of clusters made by process `pid`.
fn clusters_of(pid: u32) -> Vec<String> {
    let prefix = format!("typepper-pg-{pid}-");
    std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| name.starts_with(&prefix))
        .collect()
}

#[test]
fn ctrl_c_stops_the_throwaway_postgresql_cluster_and_deletes_it() {
    // Like the other PostgreSQL tests, this runs under `cargo xtask test`, which has
    // installed PostgreSQL by then.
    if typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL").is_none() {
        return;
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .arg("pg")
        // A group of its own, as a shell gives a foreground job: Ctrl-C reaches all of it.
        .process_group(0)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut lines = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok);
    let url = lines
        .by_ref()
        .find_map(|l| {
            l.strip_prefix("TYPEPPER_TEST_POSTGRES_URL=")
                .map(str::to_owned)
        })
        .expect("the cluster's URL");
    lines
        .by_ref()
        .find(|l| l.contains("until Ctrl-C"))
        .expect("the cluster running");
    let port: u16 = url
        .rsplit(':')
        .next()
        .and_then(|p| p.split('/').next())
        .and_then(|p| p.parse().ok())
        .expect("a port in the URL");
    assert!(
        TcpStream::connect(("127.0.0.1", port)).is_ok(),
        "it listens"
    );
    assert_eq!(clusters_of(pid).len(), 1);

    // What Ctrl-C does: SIGINT to the foreground process group.
    let group = nix::unistd::Pid::from_raw(i32::try_from(pid).unwrap());
    nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGINT).unwrap();
    let said = std::thread::spawn(move || lines.collect::<Vec<_>>());
    let deadline = Instant::now() + Duration::from_secs(90);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("xtask pg still runs 90 s after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let said = said.join().unwrap().join("\n");
    assert!(status.success(), "{status}: {said}");
    assert!(said.contains("==> removing"), "{said}");
    assert_eq!(
        clusters_of(pid),
        Vec::<String>::new(),
        "its files are deleted"
    );
    assert!(
        TcpStream::connect(("127.0.0.1", port)).is_err(),
        "nothing listens on {port} any more"
    );
}
