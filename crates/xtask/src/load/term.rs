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

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use typepper_engine::Mode;
use typepper_engine::synth::{Typist, synth};

use super::http::http;
use super::procfs::{busy_ticks, cores, cpu_ticks, rss_kib};
use super::pty::{Game, Typed, type_round, zen};
use super::rounds::submission;
use crate::e2e::{RATE_LIMITS_OFF, Server, TempDir};
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
        let game = Game::spawn(&cli, &data)?;
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
    let (p50, p99) = super::p50_p99(times.iter().map(|t| t.as_secs_f64() * 1e6).collect());
    println!(
        "{name:<44} {:>10} {:>10}   ({} samples)",
        show(p50),
        show(p99),
        times.len()
    );
}

/// Microseconds, to a µs or a hundredth of a ms.
fn show(us: f64) -> String {
    if us >= 1000.0 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{us:.0} µs")
    }
}

/// The time from each key written to the frame that moves the caret, in the local game.
fn keypresses(cli: &Path, data: &Path) -> Result<Vec<Duration>> {
    let mut game = Game::spawn(cli, data)?;
    let (at, _) = zen(&mut game)?;
    // The clock redraws once a second: a key is sent on a quiet screen.
    let typed = type_round(&mut game, at, KEYS, Duration::from_millis(25))?;
    game.quit();
    if typed.times.len() < KEYS * 9 / 10 {
        bail!("only {} of {KEYS} keys moved the caret", typed.times.len());
    }
    Ok(typed.times)
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
fn ssh_game_server(server_bin: &Path) -> Result<Server> {
    Server::start(
        server_bin,
        None,
        &[
            RATE_LIMITS_OFF,
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
    )
}

/// The SSH game measured: one player's keys, its bytes at 100 wpm, and steps of players
/// typing at once.
fn ssh_games(server_bin: &Path) -> Result<OverSsh> {
    let server = ssh_game_server(server_bin)?;
    let mut game = Game::over_ssh(&server)?;
    let (at, _) = zen(&mut game)?;
    let typed = type_round(&mut game, at, KEYS, Duration::from_millis(25))?;
    game.quit();
    let mut game = Game::over_ssh(&server)?;
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
    let server = ssh_game_server(server_bin)?;
    let rss = || rss_kib(server.pid()).unwrap_or(0);
    let before = rss();
    let mut games = vec![];
    for _ in 0..players {
        let game = Game::over_ssh(&server)?;
        games.push(game);
    }
    let idle = rss();
    let ticks = || cpu_ticks(server.pid());
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
    let secs = started.elapsed().as_secs_f64();
    let cpu = cores(cpu_from, ticks(), secs);
    let machine = cores(machine_from, busy_ticks()?, secs);
    let playing = rss();
    for game in games {
        game.quit();
    }
    if times.is_empty() {
        bail!("no key of {players} players moved its caret");
    }
    let (p50_ms, p99_ms) = super::p50_p99(times);
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
        .map(|seed| submission(&synth(Mode::BLITZ_15, 1000 + seed, &Typist::default())))
        .collect::<Result<_>>()?;
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
            let (status, _) = http(&http_addr, "GET", &get, &[], b"")?;
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
            let (status, answer) = http(&http_addr, "POST", "/v1/submit", &headers, &body)?;
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
