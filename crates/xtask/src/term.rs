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
//! 4. **The game over SSH**, played by OpenSSH's `ssh -tt` in a pseudo-terminal as a
//!    guest: keypress to screen as in 2; the bytes a second sent to a player typing at 100
//!    wpm; and players typing at 100 wpm at once, a fresh server for each step, until the
//!    p99 passes 50 ms two steps in a row, with the server's CPU and its memory per player, idle and playing.
//!    The players' `ssh` and `script` processes share the machine with the server.

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

    step("the game over ssh -tt: one player, then players typing at once");
    let over_ssh = ssh_games(&server_bin)?;

    println!();
    println!(
        "machine: nproc {}",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!("{:<44} {:>10} {:>10}", "", "p50", "p99");
    print_row("start-up to the menu's first frame", &starts);
    print_row("keypress to the frame that moves the caret", &keys);
    print_row("the same over ssh -tt (the SSH game)", &over_ssh.keys);
    for (name, times) in &wire {
        print_row(name, times);
    }
    over_ssh.print();
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

pub(crate) fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// The release game in a pseudo-terminal of 100×30, its output read on a thread.
pub(crate) struct Game {
    child: Child,
    stdin: ChildStdin,
    out: mpsc::Receiver<Vec<u8>>,
    /// Its output since it was last taken.
    seen: Vec<u8>,
}

impl Game {
    fn spawn(cli: &Path, data: &Path) -> Result<Game> {
        std::fs::create_dir_all(data)?;
        Game::in_pty(&cli.display().to_string(), &[("TYPEPPER_DATA_DIR", data)])
    }

    /// OpenSSH's client playing the game on the server's SSH port `port` as a guest (no
    /// key: keyboard-interactive, which asks nothing).
    pub(crate) fn over_ssh(port: &str) -> Result<Game> {
        let command = format!(
            "ssh -tt -p {port} -o PubkeyAuthentication=no \
             -o PreferredAuthentications=keyboard-interactive -o StrictHostKeyChecking=no \
             -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR 127.0.0.1"
        );
        Game::in_pty(&command, &[])
    }

    /// `command` in a pseudo-terminal of 100×30, with `env`.
    fn in_pty(command: &str, env: &[(&str, &Path)]) -> Result<Game> {
        let command = format!("stty cols 100 rows 30; exec {command}");
        let mut child = Command::new("script")
            .args(["-qfc", &command, "/dev/null"])
            .envs(env.iter().copied())
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
    pub(crate) fn until(&mut self, done: impl Fn(&[u8]) -> bool, what: &str) -> Result<()> {
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

    pub(crate) fn send(&mut self, bytes: &[u8]) -> Result<()> {
        self.stdin.write_all(bytes)?;
        self.stdin.flush()?;
        Ok(())
    }

    /// Lets go of its output so far, unread.
    pub(crate) fn discard(&mut self) {
        while self.out.try_recv().is_ok() {}
        self.seen.clear();
    }

    /// Ctrl-C, and the process reaped.
    pub(crate) fn quit(mut self) {
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

/// The time from each key written to the frame that moves the caret, in the local game.
fn keypresses(cli: &Path, data: &Path) -> Result<Vec<Duration>> {
    let mut game = Game::spawn(cli, data)?;
    game.until(|out| contains(out, b"every round is a replay"), "the menu")?;
    let (at, _) = zen(&mut game)?;
    // The clock redraws once a second: a key is sent on a quiet screen.
    let typed = type_round(&mut game, at, KEYS, Duration::from_millis(25))?;
    game.quit();
    if typed.times.len() < KEYS * 9 / 10 {
        bail!("only {} of {KEYS} keys moved the caret", typed.times.len());
    }
    Ok(typed.times)
}

/// Starts a ZEN round on `game`'s menu: where its caret is, and the bytes of the round's
/// first screen.
fn zen(game: &mut Game) -> Result<((u32, u32), usize)> {
    game.send(b"z")?;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match game
            .out
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(chunk) => game.seen.extend(chunk),
            Err(_) => bail!("no ZEN round on screen"),
        }
        if let Some(at) = caret(&game.seen) {
            let screen = game.seen.len();
            game.seen.clear();
            return Ok((at, screen));
        }
    }
}

/// Keys typed, timed.
struct Typed {
    /// From each key written to the frame that moved the caret.
    times: Vec<Duration>,
    /// Keys whose caret was not seen to move within a second: the text scrolled a line
    /// under it, or the frame was that late.
    lost: usize,
    /// Bytes the game wrote from the first key to the last key's frame.
    bytes: usize,
    /// From the first key to the last key's frame.
    took: Duration,
}

/// Types `keys` keys of a round whose caret is at `at`, one every `every` (from when the
/// last was sent, or when its frame came if that was later), each timed from its write to
/// the frame that moves the caret.
fn type_round(game: &mut Game, at: (u32, u32), keys: usize, every: Duration) -> Result<Typed> {
    let (mut at, mut times, mut lost, mut bytes) = (at, vec![], 0, 0);
    let letters = b"typepper";
    let started = Instant::now();
    let mut due = started;
    for i in 0..keys {
        // A word of four letters, then a space: every key moves the caret.
        let key = if i % 5 == 4 {
            b' '
        } else {
            letters[i % letters.len()]
        };
        std::thread::sleep(due.saturating_duration_since(Instant::now()));
        while let Ok(chunk) = game.out.try_recv() {
            bytes += chunk.len();
            game.seen.extend(chunk);
        }
        let before = caret(&game.seen).unwrap_or(at);
        game.seen.clear();
        let sent = Instant::now();
        due = sent + every;
        game.send(&[key])?;
        // A key whose caret lands where it was (the text scrolled by a line under it)
        // can't be told from a clock's redraw: it is left out after a second.
        let window = sent + Duration::from_secs(1);
        let mut moved = false;
        while let Ok(chunk) = game
            .out
            .recv_timeout(window.saturating_duration_since(Instant::now()))
        {
            bytes += chunk.len();
            game.seen.extend(chunk);
            let now = caret(&game.seen);
            if let Some(now) = now.filter(|&now| now != before) {
                times.push(sent.elapsed());
                at = now;
                moved = true;
                break;
            }
        }
        lost += usize::from(!moved);
    }
    Ok(Typed {
        times,
        lost,
        bytes,
        took: started.elapsed(),
    })
}

/// Players typing at once over SSH, at each step, until the p99 passes [`LIMIT_MS`].
const PLAYERS: &[usize] = &[10, 25, 50, 100, 150, 200, 250, 300, 400];
/// The keypress-to-frame p99 past which a step is too many.
const LIMIT_MS: f64 = 50.0;
/// A key every this long is 100 wpm (five keys a word).
const AT_100_WPM: Duration = Duration::from_millis(120);
/// Keys each player types at a step.
const STEP_KEYS: usize = 75;

/// The SSH game's figures.
struct OverSsh {
    /// One player's keys, typed as the local game's are.
    keys: Vec<Duration>,
    /// One player at 100 wpm: bytes a second, bytes a key, and the round's first screen.
    rate: (f64, f64, usize),
    steps: Vec<Step>,
}

/// Players typing at once at 100 wpm, each over its own `ssh`, on a fresh server.
struct Step {
    players: usize,
    p50_ms: f64,
    p99_ms: f64,
    lost: usize,
    /// The server's CPU while they typed, and the whole machine's, in cores.
    cpu: f64,
    machine: f64,
    /// The server's memory over what it had before they came, per player: on the menu,
    /// then at the end of their rounds.
    idle_kib: u64,
    playing_kib: u64,
}

impl OverSsh {
    fn print(&self) {
        let (per_sec, per_key, screen) = self.rate;
        println!(
            "the SSH game at 100 wpm: {per_sec:.0} bytes/s to the client, {per_key:.0} a key, \
             where the round's whole first screen was {screen} bytes"
        );
        println!(
            "{:>8} {:>9} {:>9} {:>8} {:>11} {:>12} {:>15} {:>18}",
            "players",
            "p50",
            "p99",
            "unmoved",
            "server CPU",
            "machine CPU",
            "KiB each, idle",
            "KiB each, playing"
        );
        for s in &self.steps {
            println!(
                "{:>8} {:>6.2} ms {:>6.2} ms {:>8} {:>9.2} c {:>10.2} c {:>15} {:>18}",
                s.players, s.p50_ms, s.p99_ms, s.lost, s.cpu, s.machine, s.idle_kib, s.playing_kib
            );
        }
    }
}

/// The server started for SSH games from one address, as many as asked.
fn ssh_game_server(server_bin: &Path) -> Result<(Server, String)> {
    let server = Server::start(
        server_bin,
        None,
        &[
            crate::e2e::RATE_LIMITS_OFF,
            &[
                "--ssh-listen",
                "127.0.0.1:0",
                "--quiet",
                "--ssh-per-ip",
                "1000",
                "--ssh-games-per-ip",
                "1000",
                "--ssh-games",
                "1000",
                "--ssh-handshakes",
                "1000",
            ],
        ]
        .concat(),
    )?;
    let ssh = server.ssh.clone().context("the server's SSH address")?;
    let port = ssh.rsplit_once(':').context("host:port")?.1.to_owned();
    Ok((server, port))
}

/// The SSH game measured: one player's keys, its bytes at 100 wpm, and steps of players
/// typing at once.
fn ssh_games(server_bin: &Path) -> Result<OverSsh> {
    let (server, port) = ssh_game_server(server_bin)?;
    let mut game = Game::over_ssh(&port)?;
    game.until(
        |out| contains(out, b"every round is a replay"),
        "the menu over ssh",
    )?;
    let (at, _) = zen(&mut game)?;
    let typed = type_round(&mut game, at, KEYS, Duration::from_millis(25))?;
    game.quit();
    let mut game = Game::over_ssh(&port)?;
    game.until(
        |out| contains(out, b"every round is a replay"),
        "the menu over ssh",
    )?;
    let (at, screen) = zen(&mut game)?;
    let paced = type_round(&mut game, at, 100, AT_100_WPM)?;
    game.quit();
    drop(server);
    let secs = paced.took.as_secs_f64();
    let rate = (
        paced.bytes as f64 / secs,
        paced.bytes as f64 / 100.0,
        screen,
    );

    // One step over the line can be the machine's noise: two in a row end it.
    let mut steps: Vec<Step> = vec![];
    for &players in PLAYERS {
        step(&format!("{players} players typing at 100 wpm over ssh"));
        steps.push(players_at_once(server_bin, players)?);
        if steps
            .iter()
            .rev()
            .take(2)
            .filter(|s| s.p99_ms > LIMIT_MS)
            .count()
            == 2
        {
            break;
        }
    }
    Ok(OverSsh {
        keys: typed.times,
        rate,
        steps,
    })
}

/// `players` games over `ssh` on a fresh server, on the menu, then each typing a ZEN
/// round at 100 wpm, their first keys spread over a key's time.
fn players_at_once(server_bin: &Path, players: usize) -> Result<Step> {
    let (server, port) = ssh_game_server(server_bin)?;
    let before = server.rss_kib().unwrap_or(0);
    let mut games = vec![];
    for _ in 0..players {
        let mut game = Game::over_ssh(&port)?;
        game.until(
            |out| contains(out, b"every round is a replay"),
            "the menu over ssh",
        )?;
        games.push(game);
    }
    let idle = server.rss_kib().unwrap_or(0);
    let ticks = || {
        let pid = server.pid();
        crate::procs::stat_field(pid, 14).unwrap_or(0)
            + crate::procs::stat_field(pid, 15).unwrap_or(0)
    };
    let (cpu_from, machine_from, started) = (ticks(), busy_ticks()?, Instant::now());
    let typing: Vec<_> = games
        .into_iter()
        .enumerate()
        .map(|(i, mut game)| {
            std::thread::spawn(move || -> Result<(Typed, Game)> {
                std::thread::sleep(AT_100_WPM * i as u32 / players as u32);
                let (at, _) = zen(&mut game)?;
                Ok((type_round(&mut game, at, STEP_KEYS, AT_100_WPM)?, game))
            })
        })
        .collect();
    let (mut times, mut lost, mut games) = (vec![], 0, vec![]);
    for player in typing {
        let (typed, game) = player
            .join()
            .map_err(|_| anyhow::anyhow!("a player's thread panicked"))??;
        times.extend(typed.times.iter().map(|t| t.as_secs_f64() * 1000.0));
        lost += typed.lost;
        games.push(game);
    }
    // Clock ticks are hundredths of a second (USER_HZ) on Linux.
    let secs = started.elapsed().as_secs_f64();
    let cpu = (ticks() - cpu_from) as f64 / 100.0 / secs;
    let machine = (busy_ticks()? - machine_from) as f64 / 100.0 / secs;
    let playing = server.rss_kib().unwrap_or(0);
    for game in games {
        game.quit();
    }
    if times.is_empty() {
        bail!("no key of {players} players moved its caret");
    }
    let (p50_ms, p99_ms) = crate::load::p50_p99(times);
    let each = |kib: u64| kib.saturating_sub(before) / players as u64;
    Ok(Step {
        players,
        p50_ms,
        p99_ms,
        lost,
        cpu,
        machine,
        idle_kib: each(idle),
        playing_kib: each(playing),
    })
}

/// The machine's busy time so far, all cores, in clock ticks: `/proc/stat`'s first line,
/// user to softirq, less idle and I/O wait (steal is the host's, guest counted in user).
fn busy_ticks() -> Result<u64> {
    let stat = std::fs::read_to_string("/proc/stat")?;
    let ticks: Vec<u64> = stat
        .lines()
        .next()
        .context("/proc/stat's first line")?
        .split_whitespace()
        .skip(1)
        .take(7)
        .filter_map(|t| t.parse().ok())
        .collect();
    let idle = ticks.get(3).copied().unwrap_or(0) + ticks.get(4).copied().unwrap_or(0);
    Ok(ticks.iter().sum::<u64>() - idle)
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
