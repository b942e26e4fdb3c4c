//! `cargo xtask term`: the terminal game and the `v1` protocol, measured.
//!
//! 1. **Start-up**: from spawning the release `typepper` in a pseudo-terminal (util-linux's
//!    `script`) to the menu's first frame on its output.
//! 2. **Keypress to screen**: in a ZEN round, a key is written to the terminal and the time
//!    taken until the frame that moves the caret has been written back (ratatui ends a
//!    frame by showing the cursor and moving it to the caret).
//! 3. **SSH beside HTTP**, one client, one request at a time, in one run against one
//!    server: `v1 replay` against `GET /v1/runs/<id>`, and `v1 submit` against `POST
//!    /v1/submit`, with a new `ssh` (a new connection and handshake) for each command, and
//!    with one connection kept open and shared (OpenSSH's `ControlMaster`), against a new
//!    TCP connection for each HTTP request.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use typepper_engine::Mode;
use typepper_engine::synth::{Typist, synth};

use crate::e2e::{Server, TempDir};
use crate::install;
use crate::sh::step;

/// Start-ups timed.
const STARTS: usize = 15;
/// Keys timed.
const KEYS: usize = 300;
/// Requests timed over each of HTTP, SSH and multiplexed SSH.
const REQUESTS: usize = 40;

/// Measures and prints the figures.
pub fn run() -> Result<()> {
    install::debian(&["openssh-client"], Path::new("/usr/bin/ssh"))?;
    let server_bin = crate::build::release_server()?;
    let cli = server_bin.with_file_name("typepper");
    let dir = TempDir::new("typepper-term")?;

    step(&format!(
        "starting the game {STARTS} times in a pseudo-terminal"
    ));
    let mut starts = vec![];
    for i in 0..STARTS {
        let data = dir.0.join(format!("start{i}"));
        let started = Instant::now();
        let mut game = Game::spawn(&cli, &data)?;
        game.until(|out| contains(out, b"every round is a replay"), "the menu")?;
        starts.push(started.elapsed());
        game.quit();
    }

    step(&format!(
        "typing {KEYS} keys of a ZEN round, a key at a time"
    ));
    let keys = keypresses(&cli, &dir.0.join("keys"))?;

    step("SSH beside HTTP: one client, a request at a time");
    let server = Server::start(
        &server_bin,
        None,
        &[
            "--ssh-listen",
            "127.0.0.1:0",
            "--quiet",
            "--ip-rate",
            "0",
            "--player-rate",
            "0",
        ],
    )?;
    let wire = ssh_beside_http(&server, &dir.0)?;

    println!();
    println!(
        "machine: nproc {}",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!("{:<44} {:>10} {:>10}", "", "p50", "p99");
    print_row("start-up to the menu's first frame", &starts);
    print_row("keypress to the frame that moves the caret", &keys);
    for (name, times) in &wire {
        print_row(name, times);
    }
    let rate = |name: &str| {
        wire.iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.len() as f64 / t.iter().sum::<Duration>().as_secs_f64())
    };
    for (what, http, ssh, mux) in [
        (
            "v1 replay",
            "GET /v1/runs/<id>",
            "v1 replay, new ssh each",
            "v1 replay, one shared ssh connection",
        ),
        (
            "v1 submit",
            "POST /v1/submit",
            "v1 submit, new ssh each",
            "v1 submit, one shared ssh connection",
        ),
    ] {
        if let (Some(h), Some(s), Some(m)) = (rate(http), rate(ssh), rate(mux)) {
            println!(
                "{what}: {s:.1}/s over a new ssh each, {m:.1}/s over a shared one, {h:.1}/s over HTTP \
                 ({:.2}× and {:.2}× HTTP's rate)",
                s / h,
                m / h
            );
        }
    }
    Ok(())
}

fn print_row(name: &str, times: &[Duration]) {
    let mut sorted = times.to_vec();
    sorted.sort();
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    println!(
        "{name:<44} {:>10} {:>10}   ({} samples)",
        show(at(0.5)),
        show(at(0.99)),
        sorted.len()
    );
}

fn show(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us >= 1000.0 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{us:.0} µs")
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// The release game in a pseudo-terminal of 100×30, its output read on a thread.
struct Game {
    child: Child,
    stdin: ChildStdin,
    out: mpsc::Receiver<Vec<u8>>,
    /// Its output since it was last taken.
    seen: Vec<u8>,
}

impl Game {
    fn spawn(cli: &Path, data: &Path) -> Result<Game> {
        std::fs::create_dir_all(data)?;
        let command = format!("stty cols 100 rows 30; exec {}", cli.display());
        let mut child = Command::new("script")
            .args(["-qfc", &command, "/dev/null"])
            .env("TYPEPPER_DATA_DIR", data)
            .env("TERM", "xterm-256color")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .context("running the game under script (util-linux)")?;
        let stdin = child.stdin.take().context("its stdin")?;
        let mut stdout = child.stdout.take().context("its stdout")?;
        let (tx, out) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 65536];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Ok(Game {
            child,
            stdin,
            out,
            seen: vec![],
        })
    }

    /// Waits until the output since the last call satisfies `done`.
    fn until(&mut self, done: impl Fn(&[u8]) -> bool, what: &str) -> Result<()> {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if done(&self.seen) {
                self.seen.clear();
                return Ok(());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.out.recv_timeout(left) {
                Ok(chunk) => self.seen.extend(chunk),
                Err(_) => bail!("no {what} from the game within 20 s"),
            }
        }
    }

    fn send(&mut self, bytes: &[u8]) -> Result<()> {
        self.stdin.write_all(bytes)?;
        self.stdin.flush()?;
        Ok(())
    }

    /// Ctrl-C, and the process reaped.
    fn quit(mut self) {
        let _ = self.send(b"\x03");
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where the frame in `out` left the cursor: the move after its last "show cursor".
fn caret(out: &[u8]) -> Option<(u32, u32)> {
    const SHOW: &[u8] = b"\x1b[?25h\x1b[";
    let at = out.windows(SHOW.len()).rposition(|w| w == SHOW)? + SHOW.len();
    let rest = &out[at..];
    let end = rest.iter().position(|&b| b == b'H')?;
    let text = std::str::from_utf8(&rest[..end]).ok()?;
    let (row, col) = text.split_once(';')?;
    Some((row.parse().ok()?, col.parse().ok()?))
}

/// The time from each key written to the frame that moves the caret.
fn keypresses(cli: &Path, data: &Path) -> Result<Vec<Duration>> {
    let mut game = Game::spawn(cli, data)?;
    game.until(|out| contains(out, b"every round is a replay"), "the menu")?;
    game.send(b"z")?;
    let mut at = None;
    let deadline = Instant::now() + Duration::from_secs(20);
    while at.is_none() {
        match game
            .out
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(chunk) => game.seen.extend(chunk),
            Err(_) => bail!("no ZEN round on screen"),
        }
        at = caret(&game.seen);
    }
    game.seen.clear();
    let mut times = vec![];
    let letters = b"typepper";
    for i in 0..KEYS {
        // A word of four letters, then a space: every key moves the caret.
        let key = if i % 5 == 4 {
            b' '
        } else {
            letters[i % letters.len()]
        };
        // The clock redraws once a second: a key is sent on a quiet screen.
        std::thread::sleep(Duration::from_millis(25));
        while let Ok(chunk) = game.out.try_recv() {
            game.seen.extend(chunk);
        }
        let before = caret(&game.seen).or(at);
        game.seen.clear();
        let sent = Instant::now();
        game.send(&[key])?;
        // A key whose caret lands where it was (the text scrolled by a line under it)
        // can't be told from a clock's redraw: it is left out after half a second.
        let window = sent + Duration::from_millis(500);
        while let Ok(chunk) = game
            .out
            .recv_timeout(window.saturating_duration_since(Instant::now()))
        {
            game.seen.extend(chunk);
            let now = caret(&game.seen);
            if now.is_some() && now != before {
                times.push(sent.elapsed());
                at = now;
                break;
            }
        }
    }
    game.quit();
    if times.len() < KEYS * 9 / 10 {
        bail!("only {} of {KEYS} keys moved the caret", times.len());
    }
    Ok(times)
}

/// Times `v1 replay` and `v1 submit` over SSH, fresh and shared, beside HTTP's.
fn ssh_beside_http(server: &Server, dir: &Path) -> Result<Vec<(String, Vec<Duration>)>> {
    let ssh_addr = server.ssh.clone().context("the server's SSH address")?;
    let (host, port) = ssh_addr.rsplit_once(':').context("host:port")?;
    let http_addr = server.url.trim_start_matches("http://").to_owned();
    let key = dir.join("key");
    let made = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f"])
        .arg(&key)
        .status()?;
    if !made.success() {
        bail!("ssh-keygen failed");
    }
    let control = dir.join("mux");
    let ssh = |command: &str, stdin: &[u8], shared: bool| -> Result<Vec<u8>> {
        let mut c = Command::new("ssh");
        c.arg("-i")
            .arg(&key)
            .args(["-p", port])
            .args(crate::ssh_client::THROWAWAY);
        if shared {
            c.args(["-o", "ControlMaster=auto", "-o", "ControlPersist=60"])
                .arg("-o")
                .arg(format!("ControlPath={}", control.display()));
        }
        let mut child = c
            .arg(host)
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let _ = child.stdin.take().context("ssh's stdin")?.write_all(stdin);
        let out = child.wait_with_output()?;
        if !out.status.success() {
            bail!("ssh {command}: {}", String::from_utf8_lossy(&out.stderr));
        }
        Ok(out.stdout)
    };
    let player: typepper_api::Player =
        serde_json::from_slice(&ssh("v1 link termbench", b"", false)?)
            .context("the linked player")?;
    let auth = format!("Bearer {}", player.token);
    let bodies: Vec<Vec<u8>> = (0..=REQUESTS as u64 * 3)
        .map(|seed| {
            let replay = synth(Mode::BLITZ_15, 1000 + seed, &Typist::default());
            let score = replay.play().map(|(_, s)| s.headline().value).unwrap_or(0);
            typepper_api::submission([(score, &replay.encode()[..])])
        })
        .collect();
    let mut bodies = bodies.into_iter();
    let answer = ssh("v1 submit", &bodies.next().context("a body")?, false)?;
    let id = String::from_utf8_lossy(&answer)
        .split_whitespace()
        .nth(1)
        .context("a run id in the answer")?
        .to_owned();

    let time = |f: &mut dyn FnMut() -> Result<()>| -> Result<Vec<Duration>> {
        (0..REQUESTS)
            .map(|_| {
                let t = Instant::now();
                f().map(|()| t.elapsed())
            })
            .collect()
    };
    let mut out = vec![];
    let get = format!("/v1/runs/{id}");
    out.push((
        "GET /v1/runs/<id>".to_owned(),
        time(&mut || {
            let (status, _) = crate::load::http(&http_addr, "GET", &get, &[], b"")?;
            if status != 200 {
                bail!("GET {get}: {status}");
            }
            Ok(())
        })?,
    ));
    let replay_cmd = format!("v1 replay {id}");
    out.push((
        "v1 replay, new ssh each".to_owned(),
        time(&mut || ssh(&replay_cmd, b"", false).map(drop))?,
    ));
    // The first shared command opens the connection the others use.
    ssh(&replay_cmd, b"", true)?;
    out.push((
        "v1 replay, one shared ssh connection".to_owned(),
        time(&mut || ssh(&replay_cmd, b"", true).map(drop))?,
    ));
    let headers = [("Authorization", auth.as_str())];
    out.push((
        "POST /v1/submit".to_owned(),
        time(&mut || {
            let body = bodies.next().context("a body")?;
            let (status, answer) =
                crate::load::http(&http_addr, "POST", "/v1/submit", &headers, &body)?;
            if status != 200 || !answer.starts_with(b"ok ") {
                bail!(
                    "POST /v1/submit: {status} {}",
                    String::from_utf8_lossy(&answer)
                );
            }
            Ok(())
        })?,
    ));
    for (name, shared) in [
        ("v1 submit, new ssh each", false),
        ("v1 submit, one shared ssh connection", true),
    ] {
        out.push((
            name.to_owned(),
            time(&mut || {
                let body = bodies.next().context("a body")?;
                let answer = ssh("v1 submit", &body, shared)?;
                if !answer.starts_with(b"ok ") {
                    bail!("v1 submit: {}", String::from_utf8_lossy(&answer));
                }
                Ok(())
            })?,
        ));
    }
    // The shared connection's master goes with the temp dir; ask it to leave first.
    let _ = Command::new("ssh")
        .arg("-o")
        .arg(format!("ControlPath={}", control.display()))
        .args(["-O", "exit", host])
        .stderr(Stdio::null())
        .status();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caret_is_where_the_last_frame_left_the_cursor() {
        let frame = b"\x1b[10;15Hab\x1b[0m\x1b[?25h\x1b[10;17H\x1b[7;15H15\x1b[?25h\x1b[11;2H";
        assert_eq!(caret(frame), Some((11, 2)));
        assert_eq!(caret(b"\x1b[?25l no cursor"), None);
    }
}
