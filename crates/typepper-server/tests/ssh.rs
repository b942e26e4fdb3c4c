//! The `v1` protocol over SSH, spoken by Debian's OpenSSH client with throwaway keys to
//! the real server binary: link, seed, submit, replay (the same bytes as HTTP), board,
//! a web player's token, refusals, and a connection dropped mid-body.

#![allow(clippy::unwrap_used)] // a test: a failure is a panic with its place

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Output, Stdio};
use std::time::Duration;

use typepper_engine::synth::{Typist, synth};
use typepper_engine::{Mode, Replay};

/// The server with HTTP and SSH on free ports; killed when dropped.
struct Server {
    child: Child,
    http: SocketAddr,
    ssh: SocketAddr,
    _stdout: BufReader<ChildStdout>,
    _dir: tempfile::TempDir,
}

impl Server {
    fn start() -> Server {
        Server::start_with(&[])
    }

    fn start_with(extra: &[&str]) -> Server {
        let dir = tempfile::tempdir().unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_typepper-server"));
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("TYPEPPER_") {
                command.env_remove(key);
            }
        }
        let mut child = command
            .args(["--listen", "127.0.0.1:0", "--ssh-listen", "127.0.0.1:0"])
            .arg("--data-dir")
            .arg(dir.path())
            .arg("--static-dir")
            .arg(dir.path())
            .args(["--quiet", "--ip-rate", "0", "--player-rate", "0"])
            .args(extra)
            .stdin(Stdio::null())
            // Its only warning is that these dirs hold no built game.
            .stderr(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut addr = |prefix: &str| -> SocketAddr {
            let mut line = String::new();
            stdout.read_line(&mut line).unwrap();
            line.split_once(prefix)
                .and_then(|(_, rest)| rest.split_whitespace().next())
                .and_then(|a| a.parse().ok())
                .unwrap_or_else(|| panic!("no {prefix} address in {line:?}"))
        };
        let http = addr("http://");
        let ssh = addr("ssh://");
        Server {
            child,
            http,
            ssh,
            _stdout: stdout,
            _dir: dir,
        }
    }

    /// `GET path` over HTTP: status and body.
    fn get(&self, path: &str) -> (u16, Vec<u8>) {
        self.http("GET", path, b"")
    }

    fn http(&self, method: &str, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
        let mut s = TcpStream::connect(self.http).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        s.write_all(head.as_bytes()).unwrap();
        s.write_all(body).unwrap();
        let mut raw = vec![];
        s.read_to_end(&mut raw).unwrap();
        let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let status = std::str::from_utf8(&raw[9..12]).unwrap().parse().unwrap();
        (status, raw[split + 4..].to_vec())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A throwaway key, and the OpenSSH client with it.
struct Player {
    key: PathBuf,
    ssh: SocketAddr,
}

impl Player {
    fn new(dir: &Path, name: &str, server: &Server) -> Player {
        let key = dir.join(name);
        let made = Command::new("ssh-keygen")
            .args(["-q", "-t", "ed25519", "-N", "", "-C", name, "-f"])
            .arg(&key)
            .status()
            .unwrap();
        assert!(made.success());
        Player {
            key,
            ssh: server.ssh,
        }
    }

    fn command(&self, command: &str) -> Command {
        self.command_with(&[], command)
    }

    /// `ssh` with more `-o` options, for `command`.
    fn command_with(&self, options: &[String], command: &str) -> Command {
        let mut c = Command::new("ssh");
        for o in options {
            c.args(["-o", o]);
        }
        c.arg("-i")
            .arg(&self.key)
            .args([
                "-p",
                &self.ssh.port().to_string(),
                "-o",
                "BatchMode=yes",
                "-o",
                "IdentitiesOnly=yes",
                "-o",
                "StrictHostKeyChecking=no",
                "-o",
                "UserKnownHostsFile=/dev/null",
                "-o",
                "LogLevel=ERROR",
                "127.0.0.1",
                command,
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c
    }

    /// Runs `command` with `stdin`.
    fn run(&self, command: &str, stdin: &[u8]) -> Output {
        let mut child = self.command(command).stdin(Stdio::piped()).spawn().unwrap();
        // A server that refuses early closes the channel before all of stdin is written.
        let _ = child.stdin.take().unwrap().write_all(stdin);
        child.wait_with_output().unwrap()
    }

    /// Runs `command`, which must succeed: its stdout.
    fn ok(&self, command: &str, stdin: &[u8]) -> Vec<u8> {
        let out = self.run(command, stdin);
        assert!(
            out.status.success(),
            "{command}: {} {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    }
}

fn has_ssh() -> bool {
    Command::new("ssh").arg("-V").output().is_ok()
        && Command::new("ssh-keygen").arg("-?").output().is_ok()
}

/// A submission body of one round.
fn body(replay: &Replay) -> Vec<u8> {
    let (_, score) = replay.play().unwrap();
    typepper_api::submission([(score.headline().value, &replay.encode()[..])])
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_key_links_draws_a_seed_submits_and_reads_back_what_http_serves() {
    if !has_ssh() {
        eprintln!("skipped: no OpenSSH client here (cargo xtask test installs it)");
        return;
    }
    let server = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let ada = Player::new(dir.path(), "ada", &server);

    // Linked: the answer is the web's own player.
    let linked: typepper_api::Player =
        serde_json::from_slice(&ada.ok("v1 link sshada", b"")).unwrap();
    assert_eq!(linked.name, "sshada");
    assert!(!linked.token.is_empty());

    // A seed, then a round on it, sent once the round could have been played.
    let seed: typepper_api::IssuedSeed =
        serde_json::from_slice(&ada.ok("v1 seed time:15", b"")).unwrap();
    assert_eq!(seed.mode, "time:15");
    let round = synth(Mode::BLITZ_15, seed.seed, &Typist::default());
    std::thread::sleep(Duration::from_millis(15_500));
    let answer = text(&ada.ok("v1 submit", &body(&round)));
    let line: typepper_api::Line = answer.trim().parse().unwrap();
    let typepper_api::Line::Ok { id, ranked, .. } = line else {
        panic!("{answer}")
    };
    assert_eq!(ranked, typepper_api::Ranked::Yes, "{answer}");

    // The replay: the same bytes as GET /v1/runs/<id>.
    let over_ssh = ada.ok(&format!("v1 replay {id}"), b"");
    let (status, over_http) = server.get(&format!("/v1/runs/{id}"));
    assert_eq!(status, 200);
    assert_eq!(over_ssh, over_http);
    assert_eq!(over_ssh, round.encode());

    // The board: a row a line, the same rows as the JSON.
    let rows = text(&ada.ok("v1 board time:15", b""));
    let row: typepper_api::BoardRow = rows.lines().next().unwrap().parse().unwrap();
    assert_eq!(
        (row.rank, row.name.as_str(), row.run.as_str()),
        (1, "sshada", id.as_str())
    );
    let (_, json) = server.get("/v1/boards/time:15");
    let board: typepper_api::Board = serde_json::from_slice(&json).unwrap();
    assert_eq!(board.rows, vec![row]);
    let month = board.month;
    assert_eq!(
        text(&ada.ok(&format!("v1 board time:15 {month}"), b"")),
        rows
    );
}

#[test]
fn a_key_joins_a_player_linked_on_the_web_with_its_token() {
    if !has_ssh() {
        eprintln!("skipped: no OpenSSH client here");
        return;
    }
    let server = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let (status, json) = server.http("POST", "/v1/players", br#"{"name": "webgrace"}"#);
    assert_eq!(status, 201);
    let web: typepper_api::Player = serde_json::from_slice(&json).unwrap();
    let grace = Player::new(dir.path(), "grace", &server);

    let wrong = grace.run("v1 link webgrace 0000", b"");
    assert_eq!(wrong.status.code(), Some(1));
    assert!(
        text(&wrong.stderr).contains("no such token"),
        "{}",
        text(&wrong.stderr)
    );

    let joined: typepper_api::Player =
        serde_json::from_slice(&grace.ok(&format!("v1 link webgrace {}", web.token), b"")).unwrap();
    assert_eq!(joined, web);
    let round = synth(Mode::Zen, 77, &Typist::default());
    let answer = text(&grace.ok("v1 submit", &body(&round)));
    assert!(answer.starts_with("ok "), "{answer}");
}

#[test]
fn refusals_are_a_sentence_on_stderr_and_a_failing_status() {
    if !has_ssh() {
        eprintln!("skipped: no OpenSSH client here");
        return;
    }
    let server = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let stranger = Player::new(dir.path(), "stranger", &server);

    let unknown = stranger.run("v1 dance", b"");
    assert_eq!(unknown.status.code(), Some(2));
    assert!(text(&unknown.stderr).contains("the v1 commands are"));

    // A key not linked may read, not submit.
    let round = synth(Mode::BLITZ_15, 5, &Typist::default());
    let refused = stranger.run("v1 submit", &body(&round));
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        text(&refused.stderr).contains("not linked"),
        "{}",
        text(&refused.stderr)
    );
    assert!(stranger.ok("v1 board zen", b"").is_empty());

    let missing = stranger.run("v1 replay AAAAAAAA", b"");
    assert_eq!(missing.status.code(), Some(1));
    assert!(!text(&missing.stderr).trim().is_empty());
    let not_an_id = stranger.run("v1 replay ../../etc", b"");
    assert_eq!(not_an_id.status.code(), Some(1));

    // No shell.
    let shell = stranger.command("").stdin(Stdio::null()).output().unwrap();
    assert_eq!(shell.status.code(), Some(2));
    assert!(
        text(&shell.stderr).contains("no shell here"),
        "{}",
        text(&shell.stderr)
    );
}

#[test]
fn a_connection_dropped_mid_body_stores_nothing() {
    if !has_ssh() {
        eprintln!("skipped: no OpenSSH client here");
        return;
    }
    let server = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let ken = Player::new(dir.path(), "ken", &server);
    ken.ok("v1 link sshken", b"");
    let round = synth(Mode::BLITZ_30, 9, &Typist::default());
    let whole = body(&round);

    let mut half = ken
        .command("v1 submit")
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = half.stdin.take().unwrap();
    stdin.write_all(&whole[..whole.len() / 2]).unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    half.kill().unwrap();
    half.wait().unwrap();
    drop(stdin);

    // Had the half been stored, the whole round would now be refused as a copy.
    let answer = text(&ken.ok("v1 submit", &whole));
    assert!(answer.starts_with("ok "), "{answer}");
}

#[test]
fn a_stalled_body_is_answered_when_the_request_time_is_up_and_stores_nothing() {
    if !has_ssh() {
        eprintln!("skipped: no OpenSSH client here");
        return;
    }
    let server = Server::start_with(&["--request-timeout", "1"]);
    let dir = tempfile::tempdir().unwrap();
    let bo = Player::new(dir.path(), "bo", &server);
    bo.ok("v1 link sshbo", b"");
    let round = synth(Mode::BLITZ_15, 11, &Typist::default());
    let whole = body(&round);
    let mut stalled = bo
        .command("v1 submit")
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = stalled.stdin.take().unwrap();
    stdin.write_all(&whole[..10]).unwrap();
    // The rest never comes, and stdin stays open: the server gives up on its own.
    let out = stalled.wait_with_output().unwrap();
    drop(stdin);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("took too long"),
        "{}",
        text(&out.stderr)
    );
    let answer = text(&bo.ok("v1 submit", &whole));
    assert!(
        answer.starts_with("ok "),
        "nothing was stored before: {answer}"
    );
}

#[test]
fn a_padded_body_over_the_limit_is_refused_like_over_http() {
    if !has_ssh() {
        eprintln!("skipped: no OpenSSH client here");
        return;
    }
    let server = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let pad = Player::new(dir.path(), "pad", &server);
    pad.ok("v1 link sshpad", b"");
    let mut padded = body(&synth(Mode::BLITZ_15, 12, &Typist::default()));
    padded.resize(typepper_engine::MAX_BYTES + 1, 0);
    let out = pad.run("v1 submit", &padded);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("at most"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn one_shared_connection_runs_command_after_command() {
    if !has_ssh() {
        eprintln!("skipped: no OpenSSH client here");
        return;
    }
    let server = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let mux = Player::new(dir.path(), "mux", &server);
    let control = dir.path().join("control");
    let shared = |command: &str| {
        let options = [
            "ControlMaster=auto".to_owned(),
            "ControlPersist=30".to_owned(),
            format!("ControlPath={}", control.display()),
        ];
        let out = mux
            .command_with(&options, command)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (out.status.code(), text(&out.stderr))
    };
    // More commands than a connection may have channels open at once, one after another
    // on the one connection: none is refused, and none falls back to a connection of its own.
    for _ in 0..10 {
        let (status, said) = shared("v1 board zen");
        assert_eq!(status, Some(0), "{said}");
        assert!(!said.contains("refused"), "{said}");
    }
    let _ = Command::new("ssh")
        .arg("-o")
        .arg(format!("ControlPath={}", control.display()))
        .args(["-O", "exit", "127.0.0.1"])
        .stderr(Stdio::null())
        .status();
}
