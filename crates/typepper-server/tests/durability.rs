//! A share link is a promise: every run the server acknowledged is still there after the
//! process is killed outright (SIGKILL, no shutdown) and started again on the same data.
//!
//! This drives the real binary over real sockets, with a minimal HTTP/1.1 client over
//! `std::net::TcpStream` (one request a connection, `Connection: close`).

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
        let mut command = Command::new(env!("CARGO_BIN_EXE_typepper-server"));
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

    /// SIGKILL: no graceful shutdown, no flushing, no destructors.
    fn kill(mut self) {
        self.child.kill().expect("kill -9");
        self.child.wait().expect("reaped");
    }

    fn request(&self, method: &str, path: &str, auth: Option<&str>, body: &[u8]) -> Answer {
        let mut stream = TcpStream::connect(self.addr).expect("connect");
        // Not a timing assertion: a guard so that a hung server fails the test instead of
        // hanging it.
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .expect("a timeout");
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n",
            self.addr,
            body.len()
        );
        if let Some(token) = auth {
            head.push_str(&format!("Authorization: Bearer {token}\r\n"));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).expect("send the head");
        stream.write_all(body).expect("send the body");
        let mut raw = vec![];
        stream.read_to_end(&mut raw).expect("read the answer");
        Answer::parse(&raw)
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
        Mode::Zen,
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

#[test]
fn every_acknowledged_run_survives_kill_9() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let (data, web) = (dir.path().join("data"), dir.path().join("static"));
    std::fs::create_dir_all(web.join("web/pkg")).expect("static dir");
    std::fs::write(
        web.join("index.html"),
        "<!doctype html><title>typepper</title>",
    )
    .expect("index.html");
    // The server warns on stderr when the game isn't built; this is enough for it.
    std::fs::write(web.join("web/pkg/typepper_web_bg.wasm"), b"\0asm\x01\0\0\0").expect("wasm");

    let server = Running::start(&data, &web);
    let linked = server.request("POST", "/v1/players", None, br#"{"name": "ada"}"#);
    assert_eq!(linked.status, 201, "{}", linked.text());
    let json: serde_json::Value = serde_json::from_slice(&linked.body).expect("JSON");
    let token = json["token"].as_str().expect("a token").to_owned();

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
    assert_eq!(answer.text(), format!("no a copy of run {first_id}\n"));
    server.kill();
}

#[path = "store/pg.rs"]
mod pg;

/// The binary itself on PostgreSQL, start to Ctrl-C: opening the database and closing it
/// happen inside the server's async runtime, which the store story never sees.
#[test]
fn the_server_binary_serves_from_postgresql_and_exits_cleanly() {
    let Ok(url) = std::env::var("TYPEPPER_TEST_POSTGRES_URL") else {
        let _ = writeln!(
            std::io::stderr(),
            "skipped: TYPEPPER_TEST_POSTGRES_URL is not set (cargo xtask test sets it)"
        );
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
