//! The real binary under faults. A share link is a promise: every run the server
//! acknowledged is still there after the process is killed outright (SIGKILL) in the
//! middle of group commits, or its PostgreSQL is stopped and started again under load;
//! nothing is stored for a client that went away mid-body; a full disk refuses writes
//! clearly and keeps serving reads; SIGTERM finishes what is in flight; too few file
//! descriptors never starve the server; a backup taken while runs arrive is whole.
//!
//! This drives the real binary over real sockets, with a minimal HTTP/1.1 client over
//! `std::net::TcpStream` (one request a connection, `Connection: close`). Waits have
//! generous limits, so that a hung server fails a test instead of hanging it; nothing
//! here asserts how fast anything is.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::Duration;

use typepper_api::Line;
use typepper_engine::synth::{Typist, synth};
use typepper_engine::{Mode, Replay};

/// The running binary; killed when dropped, so a failing test leaves no server behind.
struct Running {
    child: Child,
    addr: SocketAddr,
    // Held open so that the server's stdout never turns into a broken pipe.
    _stdout: BufReader<ChildStdout>,
}

impl Running {
    fn start(data_dir: &Path, static_dir: &Path) -> Running {
        Running::start_with(data_dir, static_dir, &[])
    }

    fn start_with(data_dir: &Path, static_dir: &Path, extra: &[&str]) -> Running {
        Running::launch(None, data_dir, static_dir, extra)
    }

    /// Starts the binary, through `sh -c "<shell>; exec …"` if given (to set a limit).
    fn launch(shell: Option<&str>, data_dir: &Path, static_dir: &Path, extra: &[&str]) -> Running {
        let binary = env!("CARGO_BIN_EXE_typepper-server");
        let mut command = match shell {
            Some(first) => {
                let mut c = Command::new("sh");
                c.args(["-c", &format!("{first} && exec \"$0\" \"$@\""), binary]);
                c
            }
            None => Command::new(binary),
        };
        // Settings come from flags alone: a TYPEPPER_DATABASE_URL in the environment
        // would point the server at some other database.
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("TYPEPPER_") {
                command.env_remove(key);
            }
        }
        let mut child = command
            .arg("--listen")
            .arg("127.0.0.1:0")
            .arg("--data-dir")
            .arg(data_dir)
            .arg("--static-dir")
            .arg(static_dir)
            .args(["--quiet", "--ip-rate", "0", "--player-rate", "0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("its stdout"));
        let mut line = String::new();
        stdout.read_line(&mut line).expect("a line on stdout");
        let addr = line
            .strip_prefix("typepper is serving on http://")
            .and_then(|rest| rest.split_once(' '))
            .and_then(|(addr, _)| addr.parse().ok())
            .unwrap_or_else(|| {
                let _ = child.kill();
                panic!("no address in {line:?}")
            });
        Running {
            child,
            addr,
            _stdout: stdout,
        }
    }

    /// SIGINT, as Ctrl-C: the server finishes and exits; returns whether it exited well.
    fn interrupt(mut self) -> bool {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-INT", &pid]).status();
        assert!(sent.is_ok_and(|s| s.success()), "kill -INT {pid}");
        self.child.wait().expect("reaped").success()
    }

    /// Sends `signal` (`-TERM`, `-INT`).
    fn signal(&self, signal: &str) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args([signal, &pid]).status();
        assert!(sent.is_ok_and(|s| s.success()), "kill {signal} {pid}");
    }

    /// Waits (up to a minute) for the process to exit; whether it exited well.
    fn exited(&mut self) -> bool {
        for _ in 0..600 {
            if let Some(status) = self.child.try_wait().expect("its status") {
                return status.success();
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("the server did not exit within a minute");
    }

    /// A new player's token.
    fn link(&self, name: &str) -> String {
        let body = format!(r#"{{"name": "{name}"}}"#);
        let linked = self.request("POST", "/v1/players", None, body.as_bytes());
        assert_eq!(linked.status, 201, "{}", linked.text());
        let json: serde_json::Value = serde_json::from_slice(&linked.body).expect("JSON");
        json["token"].as_str().expect("a token").to_owned()
    }

    /// SIGKILL: no graceful shutdown, no flushing, no destructors.
    fn kill(mut self) {
        self.child.kill().expect("kill -9");
        self.child.wait().expect("reaped");
    }

    fn request(&self, method: &str, path: &str, auth: Option<&str>, body: &[u8]) -> Answer {
        Running::client(self.addr).request(method, path, auth, body)
    }

    /// A client of the server at `addr`, for another thread.
    fn client(addr: SocketAddr) -> Client {
        Client(addr)
    }
}

/// A minimal HTTP/1.1 client: one request a connection.
#[derive(Clone, Copy)]
struct Client(SocketAddr);

impl Client {
    fn request(&self, method: &str, path: &str, auth: Option<&str>, body: &[u8]) -> Answer {
        self.try_request(method, path, auth, body)
            .unwrap_or_else(|| panic!("{method} {path}: no answer"))
    }

    /// The answer, or `None` if the connection failed or closed without one.
    fn try_request(
        &self,
        method: &str,
        path: &str,
        auth: Option<&str>,
        body: &[u8],
    ) -> Option<Answer> {
        let mut stream = TcpStream::connect(self.0).ok()?;
        // Not a timing assertion: a guard so that a hung server fails the test instead of
        // hanging it.
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .expect("a timeout");
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n",
            self.0,
            body.len()
        );
        if let Some(token) = auth {
            head.push_str(&format!("Authorization: Bearer {token}\r\n"));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).ok()?;
        stream.write_all(body).ok()?;
        let mut raw = vec![];
        stream.read_to_end(&mut raw).ok()?;
        (!raw.is_empty()).then(|| Answer::parse(&raw))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP/1.1 answer.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn parse(raw: &[u8]) -> Answer {
        let split = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("a head and a body");
        let head = std::str::from_utf8(&raw[..split]).expect("an ASCII head");
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .and_then(|s| s.parse().ok())
            .expect("a status line");
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        let rest = &raw[split + 4..];
        let header = |name: &str| headers.iter().find(|(k, _)| k == name).map(|(_, v)| v);
        let body = if header("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
            dechunk(rest)
        } else if let Some(len) = header("content-length") {
            rest[..len.parse::<usize>().expect("a length")].to_vec()
        } else {
            rest.to_vec()
        };
        Answer {
            status,
            headers,
            body,
        }
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut body = vec![];
    loop {
        let end = rest
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("a chunk size");
        let size = std::str::from_utf8(&rest[..end]).expect("hex");
        let size = usize::from_str_radix(size.split(';').next().unwrap_or(size).trim(), 16)
            .expect("a chunk size");
        if size == 0 {
            return body;
        }
        body.extend_from_slice(&rest[end + 2..end + 2 + size]);
        rest = &rest[end + 2 + size + 2..];
    }
}

fn claim(replay: &Replay) -> u32 {
    replay
        .play()
        .expect("a synthetic round plays")
        .1
        .headline()
        .value
}

/// Rounds of every kind of mode, all different.
fn rounds(n: u64) -> Vec<Replay> {
    let modes = [
        Mode::BLITZ_15,
        Mode::BLITZ_30,
        Mode::pursuit(3).expect("lv3"),
        Mode::ZEN,
    ];
    (0..n)
        .map(|i| {
            let typist = Typist {
                wpm: 50 + (i as u32 * 7) % 60,
                seed: i,
                zen_ms: 8_000,
                ..Typist::default()
            };
            synth(modes[i as usize % modes.len()], 100 + i, &typist)
        })
        .collect()
}

/// A data dir and a static dir with a page and a (tiny) game in it.
fn dirs(root: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let (data, web) = (root.join("data"), root.join("static"));
    std::fs::create_dir_all(web.join("web/pkg")).expect("static dir");
    std::fs::write(
        web.join("index.html"),
        "<!doctype html><title>typepper</title>",
    )
    .expect("index.html");
    // The server warns when the game isn't built; this is enough for it.
    std::fs::write(web.join("web/pkg/typepper_web_bg.wasm"), b"\0asm\x01\0\0\0").expect("wasm");
    (data, web)
}

/// One round's submission body, and its bytes.
fn body_of(round: &Replay) -> (Vec<u8>, Vec<u8>) {
    let bytes = round.encode();
    (
        typepper_api::submission([(claim(round), &bytes[..])]),
        bytes,
    )
}

/// The id in a one-line `ok` answer.
fn ok_id(answer: &Answer) -> Option<String> {
    match answer.text().trim().parse::<Line>() {
        Ok(Line::Ok { id, .. }) if answer.status == 200 => Some(id),
        _ => None,
    }
}

/// Runs stored in the SQLite database of `data`, counted beside the server.
fn stored_runs(data: &Path) -> i64 {
    let db = rusqlite::Connection::open(data.join("typepper.sqlite3")).expect("the database");
    db.query_row("SELECT count(*) FROM runs", [], |r| r.get(0))
        .expect("a count")
}

#[test]
fn every_acknowledged_run_survives_kill_9() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let (data, web) = dirs(dir.path());

    let server = Running::start(&data, &web);
    let token = server.link("ada");

    let rounds = rounds(24);
    let mut acked: Vec<(String, Vec<u8>)> = vec![];
    for batch in rounds.chunks(4) {
        let encoded: Vec<(u32, Vec<u8>)> = batch.iter().map(|r| (claim(r), r.encode())).collect();
        let body = typepper_api::submission(encoded.iter().map(|(c, b)| (*c, &b[..])));
        let answer = server.request("POST", "/v1/submit", Some(&token), &body);
        assert_eq!(answer.status, 200, "{}", answer.text());
        let lines: Vec<Line> = answer
            .text()
            .lines()
            .map(|l| l.parse().expect("an answer line"))
            .collect();
        assert_eq!(lines.len(), batch.len(), "{lines:?}");
        for (line, (_, bytes)) in lines.into_iter().zip(encoded) {
            let Line::Ok { id, .. } = line else {
                panic!("{line:?}")
            };
            acked.push((id, bytes));
        }
    }
    // Right after the last acknowledgement, with no chance to shut down cleanly.
    server.kill();

    let server = Running::start(&data, &web);
    for (id, bytes) in &acked {
        let run = server.request("GET", &format!("/v1/runs/{id}"), None, b"");
        assert_eq!(run.status, 200, "run {id} after kill -9: {}", run.text());
        assert_eq!(run.header("content-type"), Some("application/octet-stream"));
        assert_eq!(&run.body, bytes, "run {id}'s bytes");
    }
    // The player and the rounds survived too: the token still works, an acknowledged
    // round sent again is answered as its run (an answer lost on the way is found again),
    // and from another player it is a copy.
    let (first_id, _) = &acked[0];
    let again = typepper_api::submission([(claim(&rounds[0]), &rounds[0].encode()[..])]);
    let answer = server.request("POST", "/v1/submit", Some(&token), &again);
    assert_eq!(answer.status, 200, "{}", answer.text());
    let line: Line = answer.text().trim().parse().expect("an answer line");
    assert!(
        matches!(&line, Line::Ok { id, .. } if id == first_id),
        "the same run: {line:?}"
    );
    let other = server.request("POST", "/v1/players", None, br#"{"name": "grace"}"#);
    let json: serde_json::Value = serde_json::from_slice(&other.body).expect("JSON");
    let grace = json["token"].as_str().expect("a token");
    let answer = server.request("POST", "/v1/submit", Some(grace), &again);
    assert_eq!(answer.text(), format!("no copy a copy of run {first_id}\n"));
    server.kill();
}

use crate::support::pg;

/// The binary itself on PostgreSQL, start to Ctrl-C: opening the database and closing it
/// happen inside the server's async runtime, which the store story never sees.
#[test]
fn the_server_binary_serves_from_postgresql_and_exits_cleanly() {
    let Some(url) = typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL") else {
        return;
    };
    let db = pg::FreshDb::create(&url);
    let dir = tempfile::tempdir().expect("a temp dir");
    std::fs::write(dir.path().join("index.html"), "<!doctype html>").expect("index.html");
    let server = Running::start_with(dir.path(), dir.path(), &["--database-url", &db.url]);
    let linked = server.request("POST", "/v1/players", None, br#"{"name": "grace"}"#);
    assert_eq!(linked.status, 201, "{}", linked.text());
    let json: serde_json::Value = serde_json::from_slice(&linked.body).expect("JSON");
    let token = json["token"].as_str().expect("a token").to_owned();
    let round = &rounds(1)[0];
    let body = typepper_api::submission([(claim(round), &round.encode()[..])]);
    let answer = server.request("POST", "/v1/submit", Some(&token), &body);
    let Ok(Line::Ok { id, .. }) = answer.text().trim().parse::<Line>() else {
        panic!("{}", answer.text())
    };
    let run = server.request("GET", &format!("/v1/runs/{id}"), None, b"");
    assert_eq!(run.body, round.encode());
    assert!(server.interrupt(), "the server exits cleanly on Ctrl-C");
}

/// Four clients submit at once, so that the writer commits several submissions together,
/// and the server is killed -9 in the middle of it: every run a client was told of is
/// there after a restart, byte for byte.
#[test]
fn kill_9_during_group_commits_loses_no_acknowledged_run() {
    kill_9_during_group_commits(&[]);
}

/// The same on PostgreSQL: a group the server was killed in the middle of is rolled back
/// by the database, and every group whose runs were told of was committed.
#[test]
fn kill_9_during_postgres_group_commits_loses_no_acknowledged_run() {
    let Some(url) = typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL") else {
        return;
    };
    let db = pg::FreshDb::create(&url);
    kill_9_during_group_commits(&["--database-url", &db.url]);
}

fn kill_9_during_group_commits(flags: &[&str]) {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex};
    let dir = tempfile::tempdir().expect("a temp dir");
    let (data, web) = dirs(dir.path());
    let server = Running::start_with(&data, &web, flags);
    let addr = server.addr;
    let acked = Arc::new(Mutex::new(Vec::<(String, Vec<u8>)>::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let clients: Vec<_> = (0..4u64)
        .map(|c| {
            let token = server.link(&format!("client{c}"));
            let (acked, stop) = (acked.clone(), stop.clone());
            let rounds: Vec<Replay> = (0..60)
                .map(|i| synth(Mode::BLITZ_15, 1_000 * c + i, &Typist::default()))
                .collect();
            std::thread::spawn(move || {
                let client = Running::client(addr);
                for round in &rounds {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let (body, bytes) = body_of(round);
                    // Once the server is killed a request fails: that round was never
                    // acknowledged.
                    let Some(answer) =
                        client.try_request("POST", "/v1/submit", Some(&token), &body)
                    else {
                        return;
                    };
                    if let Some(id) = ok_id(&answer) {
                        acked.lock().expect("a lock").push((id, bytes));
                    }
                }
            })
        })
        .collect();
    while acked.lock().expect("a lock").len() < 40 {
        std::thread::sleep(Duration::from_millis(5));
    }
    server.kill();
    stop.store(true, Ordering::SeqCst);
    for c in clients {
        c.join().expect("a client");
    }
    let acked = acked.lock().expect("a lock").clone();
    assert!(acked.len() >= 40);
    let server = Running::start_with(&data, &web, flags);
    for (id, bytes) in &acked {
        let run = server.request("GET", &format!("/v1/runs/{id}"), None, b"");
        assert_eq!(run.status, 200, "acknowledged run {id} after kill -9");
        assert_eq!(&run.body, bytes, "run {id}'s bytes");
    }
}

/// A client that sends half its body and goes away stored nothing.
#[test]
fn a_client_gone_mid_body_stores_nothing() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let (data, web) = dirs(dir.path());
    let server = Running::start(&data, &web);
    let token = server.link("ada");
    let (body, _) = body_of(&rounds(1)[0]);
    {
        let mut stream = TcpStream::connect(server.addr).expect("connect");
        let head = format!(
            "POST /v1/submit HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\
             Content-Length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).expect("the head");
        stream
            .write_all(&body[..body.len() / 2])
            .expect("half the body");
    }
    // The server notices the closed connection; give it a moment, then look.
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(stored_runs(&data), 0);
    let answer = server.request("POST", "/v1/submit", Some(&token), &body);
    assert!(ok_id(&answer).is_some(), "{}", answer.text());
    assert_eq!(stored_runs(&data), 1);
}

/// SIGTERM (what a service manager sends) stops accepting, finishes the submission in
/// flight, answers it, and exits 0.
#[test]
fn sigterm_finishes_the_submission_in_flight_then_exits() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let (data, web) = dirs(dir.path());
    let mut server = Running::start_with(&data, &web, &["--shutdown-timeout", "20"]);
    let token = server.link("ada");
    let (body, _) = body_of(&rounds(1)[0]);
    let mut stream = TcpStream::connect(server.addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("a timeout");
    let head = format!(
        "POST /v1/submit HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("the head");
    stream
        .write_all(&body[..body.len() / 2])
        .expect("half the body");
    std::thread::sleep(Duration::from_millis(300));
    server.signal("-TERM");
    std::thread::sleep(Duration::from_millis(300));
    // A new connection is no longer taken.
    assert!(
        Running::client(server.addr)
            .try_request("GET", "/healthz", None, b"")
            .is_none(),
        "still accepting after SIGTERM"
    );
    stream.write_all(&body[body.len() / 2..]).expect("the rest");
    let mut raw = vec![];
    stream.read_to_end(&mut raw).expect("the answer");
    let answer = Answer::parse(&raw);
    assert!(ok_id(&answer).is_some(), "{}", answer.text());
    assert!(server.exited(), "it exits 0");
    assert_eq!(stored_runs(&data), 1);
}

/// With 64 file descriptors and 80 clients that connect and say nothing, the server
/// neither dies nor stops answering: past its descriptors, connections wait in the
/// backlog, and silent ones are closed after the header timeout.
#[test]
fn with_few_file_descriptors_silent_clients_do_not_starve_the_server() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let (data, web) = dirs(dir.path());
    let server = Running::launch(
        Some("ulimit -n 64"),
        &data,
        &web,
        &["--header-timeout", "1"],
    );
    let silent: Vec<TcpStream> = (0..80)
        .filter_map(|_| TcpStream::connect(server.addr).ok())
        .collect();
    assert!(silent.len() >= 60, "only {} connected", silent.len());
    let answer = server.request("GET", "/healthz", None, b"");
    assert_eq!((answer.status, answer.text().as_str()), (200, "ok\n"));
    drop(silent);
    let answer = server.request("GET", "/healthz", None, b"");
    assert_eq!(answer.status, 200);
}

/// A backup taken while runs arrive is a whole database: it opens, checks out, and holds
/// every run acknowledged before the backup began.
#[test]
fn a_backup_taken_while_runs_arrive_is_whole() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let (data, web) = dirs(dir.path());
    let server = Running::start(&data, &web);
    let token = server.link("ada");
    let rounds = rounds(30);
    let mut before = vec![];
    for round in &rounds[..10] {
        let answer = server.request("POST", "/v1/submit", Some(&token), &body_of(round).0);
        before.push(ok_id(&answer).expect("stored"));
    }
    let addr = server.addr;
    let more: Vec<Vec<u8>> = rounds[10..].iter().map(|r| body_of(r).0).collect();
    let writer = {
        let token = token.clone();
        std::thread::spawn(move || {
            let client = Running::client(addr);
            for body in more {
                client.request("POST", "/v1/submit", Some(&token), &body);
            }
        })
    };
    let copy = dir.path().join("backup.sqlite3");
    let out = Command::new(env!("CARGO_BIN_EXE_typepper-server"))
        .arg("--data-dir")
        .arg(&data)
        .arg("backup")
        .arg(&copy)
        .output()
        .expect("the backup runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("backed up "));
    writer.join().expect("the writer");
    let db = rusqlite::Connection::open(&copy).expect("the copy opens");
    let check: String = db
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("a check");
    assert_eq!(check, "ok");
    for id in &before {
        let n: i64 = db
            .query_row("SELECT count(*) FROM runs WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .expect("a count");
        assert_eq!(n, 1, "run {id} is in the backup");
    }
    // PostgreSQL is backed up with its own tools.
    let out = Command::new(env!("CARGO_BIN_EXE_typepper-server"))
        .args(["--database-url", "postgres://localhost/x", "backup"])
        .arg(dir.path().join("pg.bak"))
        .output()
        .expect("it runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("pg_dump"));
}

/// The data on a 1 MiB tmpfs: once it is full, a submission is answered 503 with
/// `Retry-After`, saying nothing was stored; reads go on.
#[test]
fn a_full_disk_refuses_submissions_clearly_and_keeps_serving_reads() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let (data, web) = dirs(dir.path());
    std::fs::create_dir_all(&data).expect("the data dir");
    let Some(_mount) = Tmpfs::mount(&data, "1m") else {
        let _ = writeln!(
            std::io::stderr(),
            "skipped: mounting a tmpfs needs root (mount -t tmpfs)"
        );
        return;
    };
    let server = Running::start(&data, &web);
    let token = server.link("ada");
    let mut stored = vec![];
    let mut refused = None;
    for i in 0..2_000u64 {
        let round = synth(Mode::BLITZ_60, 7_000 + i, &Typist::default());
        let answer = server.request("POST", "/v1/submit", Some(&token), &body_of(&round).0);
        match ok_id(&answer) {
            Some(id) => stored.push(id),
            None => {
                refused = Some(answer);
                break;
            }
        }
    }
    let refused = refused.expect("the disk filled up");
    assert_eq!(refused.status, 503, "{}", refused.text());
    assert!(refused.text().contains("disk"), "{}", refused.text());
    assert!(
        refused.text().contains("nothing was stored"),
        "{}",
        refused.text()
    );
    assert!(refused.header("retry-after").is_some());
    assert!(stored.len() > 10, "{} stored first", stored.len());
    for id in [&stored[0], &stored[stored.len() - 1]] {
        let run = server.request("GET", &format!("/v1/runs/{id}"), None, b"");
        assert_eq!(run.status, 200, "{id} after the disk filled");
    }
    assert_eq!(server.request("GET", "/healthz", None, b"").status, 200);
    server.kill();
}

/// A tmpfs mounted on a dir, unmounted when dropped.
struct Tmpfs(std::path::PathBuf);

impl Tmpfs {
    fn mount(on: &Path, size: &str) -> Option<Tmpfs> {
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(on)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| Tmpfs(on.to_owned()))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// PostgreSQL stopped under load, then started again: while it is down, submissions
/// fail fast with 503 and `Retry-After` (and the game's own files still serve); once it
/// is back the same server process stores runs again; every run acknowledged before,
/// during and after is there.
#[test]
fn postgres_stopped_and_started_again_under_load() {
    let (Some(url), Some(ctl)) = (
        typepper_testing::var("TYPEPPER_TEST_POSTGRES_URL"),
        typepper_testing::var("TYPEPPER_TEST_POSTGRES_CTL"),
    ) else {
        return;
    };
    let pg_ctl = |what: &[&str]| {
        let mut words = ctl.split(' ');
        let program = words.next().expect("a command");
        let ok = Command::new(program)
            .args(words)
            .args(["--wait", "--timeout", "60"])
            .args(what)
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "pg_ctl {what:?}");
    };
    let db = pg::FreshDb::alone(&url);
    let dir = tempfile::tempdir().expect("a temp dir");
    let (data, web) = dirs(dir.path());
    let server = Running::start_with(
        &data,
        &web,
        &["--database-url", &db.url, "--pg-timeout", "2"],
    );
    let token = server.link("ada");
    let client = Running::client(server.addr);
    let mut seed = 50_000;
    let mut submit = || {
        seed += 1;
        let round = synth(Mode::BLITZ_15, seed, &Typist::default());
        let (body, bytes) = body_of(&round);
        let started = std::time::Instant::now();
        let answer = client.request("POST", "/v1/submit", Some(&token), &body);
        (answer, bytes, started.elapsed())
    };
    let mut acked = vec![];
    for _ in 0..5 {
        let (answer, bytes, _) = submit();
        acked.push((ok_id(&answer).expect("stored while up"), bytes));
    }
    pg_ctl(&["--mode", "fast", "stop"]);
    for _ in 0..5 {
        let (answer, _, took) = submit();
        assert_eq!(answer.status, 503, "{}", answer.text());
        assert!(answer.header("retry-after").is_some());
        assert!(
            answer.text().contains("nothing was stored"),
            "{}",
            answer.text()
        );
        // Not a timing assertion: "fails fast" means it doesn't hang; a hung request would
        // wait for the client's two-minute guard.
        assert!(took < Duration::from_secs(60), "{took:?}");
    }
    assert_eq!(server.request("GET", "/healthz", None, b"").status, 200);
    pg_ctl(&["start"]);
    let mut back = None;
    for _ in 0..100 {
        let (answer, bytes, _) = submit();
        if let Some(id) = ok_id(&answer) {
            back = Some((id, bytes));
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    acked.push(back.expect("stored again once PostgreSQL is back, without a restart"));
    for (id, bytes) in &acked {
        let run = server.request("GET", &format!("/v1/runs/{id}"), None, b"");
        assert_eq!(run.status, 200, "run {id}");
        assert_eq!(&run.body, bytes);
    }
    drop(server);
    drop(db);
}

/// `--log-format json` writes a JSON object a request on standard error, and
/// `--metrics-listen` serves the metrics on their own port (never the public one).
#[test]
fn the_log_is_json_when_asked_and_metrics_have_their_own_port() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let (data, web) = dirs(dir.path());
    let mut child = Command::new(env!("CARGO_BIN_EXE_typepper-server"))
        .args(["--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0"])
        .args(["--log-format", "json", "--ip-rate", "0"])
        .arg("--data-dir")
        .arg(&data)
        .arg("--static-dir")
        .arg(&web)
        .env_remove("TYPEPPER_DATABASE_URL")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut serving = String::new();
    out.read_line(&mut serving).expect("the first line");
    let mut metrics = String::new();
    out.read_line(&mut metrics).expect("the second line");
    let addr = |line: &str, prefix: &str| -> SocketAddr {
        line.strip_prefix(prefix)
            .and_then(|rest| rest.split([' ', '/']).next())
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("{line:?}"))
    };
    let public = Running::client(addr(&serving, "typepper is serving on http://"));
    let private = Running::client(addr(&metrics, "metrics on http://"));
    assert_eq!(public.request("GET", "/healthz", None, b"").status, 200);
    assert_eq!(public.request("GET", "/metrics", None, b"").status, 404);
    let text = private.request("GET", "/metrics", None, b"").text();
    assert!(
        text.contains("typepper_requests_total{route=\"/healthz\",status=\"200\"} 1"),
        "{text}"
    );
    let _ = child.kill();
    let _ = child.wait();
    let mut log = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut log)
        .expect("the log");
    let request = log
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["fields"]["path"] == "/healthz")
        .unwrap_or_else(|| panic!("no JSON line for /healthz in\n{log}"));
    assert_eq!(request["fields"]["status"], 200);
    assert_eq!(request["fields"]["method"], "GET");
    assert_eq!(request["level"], "INFO");
}
