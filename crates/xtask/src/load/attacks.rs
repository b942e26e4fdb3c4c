//! `cargo xtask load attacks`: the floods an attacker sent at the live rooms and the
//! `ssh` game, measured as figures, so that a fix is shown by the same numbers before and
//! after it (docs/PERFORMANCE.md, "Floods, before and after").
//!
//! 1. **Keys into the `ssh` game.** Four guest games from one address (OpenSSH's `ssh -tt`
//!    in a pseudo-terminal) start a ZEN round and write 32 KiB chunks of `a` as fast as
//!    their connection takes them. The server's memory (peak and after) and its CPU.
//! 2. **Keys into a room, and spectators that never read.** Four guests in one ZEN room
//!    send `keys` messages of 64 keys for 30 s as fast as the message limit lets them (95
//!    a second), while a fifth racer types as a person does; a spectator counts the keys
//!    the room passed on. Then 40 spectators from 4 addresses join and never read. The
//!    keys taken, and the server's memory before, at the peak, and after.
//! 3. **Connections that send nothing, across two processes.** Two servers on one
//!    PostgreSQL, and two racers racing about 85 wpm in a room the first holds, one
//!    connected to each server. First with 3,000 connections through the second server
//!    waiting in another room's lobby beside the race (BLITZ 15s); then with 3,000
//!    spectators through the second server watching the race itself (BLITZ 60s; they join
//!    once it is on, and what counts is the keys sent after the last of them joined). For
//!    each key, from its racer's send to the other racer's read: p50, p99 and the longest,
//!    and each racer's headline.
//!
//! Addresses are `X-Forwarded-For` headers to a server told to trust them, so that one
//! machine plays the part of many.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use typepper_api::room::{Ask, Key, Say};
use typepper_engine::Mode;
use typepper_engine::synth::Typist;

use super::procfs::{cores, cpu_ticks, machine, rss_kib};
use super::pty::Game;
use super::room::{Socket, due, hear_within as hear, hello, keys, open, say};
use crate::e2e::{RATE_LIMITS_OFF, Server};
use crate::sh::step;

/// How long the `ssh` game's flood lasts.
const FLOOD: Duration = Duration::from_secs(10);
/// How long the room's flood lasts: long enough that what the spectators are sent
/// outgrows what their sockets' buffers hold.
const ROOM_FLOOD: Duration = Duration::from_secs(30);
/// Spectators that never read, and the addresses they come from.
const SLOW_READERS: usize = 40;
const SLOW_ADDRESSES: usize = 4;
/// Idle connections beside the race across two processes.
const IDLE: usize = 3_000;

/// Runs the parts whose names (`ssh`, `room`, `relay`) are in `only`, or all.
pub fn run(only: &[String]) -> Result<()> {
    let part = |name: &str| only.is_empty() || only.iter().any(|o| o == name);
    // Another build's server (an older commit's, to measure before a fix) may be named.
    let binary = match std::env::var_os("TYPEPPER_ATTACKS_SERVER") {
        Some(path) => std::path::PathBuf::from(path),
        None => crate::build::release_server()?,
    };
    step(&format!("the floods of issue 37, measured ({})", machine()));
    if part("ssh") {
        ssh_flood(&binary)?;
    }
    if part("room") {
        room_flood(&binary)?;
    }
    if part("relay") {
        crate::pg::with_cluster(|url| relay(&binary, url))?;
    }
    Ok(())
}

/// The server's memory in MiB.
fn rss_mib(server: &Server) -> f64 {
    rss_kib(server.pid()).unwrap_or(0) as f64 / 1024.0
}

/// Looks at `server`'s memory every 100 ms until `stop`: the peak, in MiB.
fn watch_peak(server: &Server, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<f64> {
    let pid = server.pid();
    std::thread::spawn(move || {
        let mut peak = 0u64;
        while !stop.load(Ordering::SeqCst) {
            peak = peak.max(rss_kib(pid).unwrap_or(0));
            std::thread::sleep(Duration::from_millis(100));
        }
        peak as f64 / 1024.0
    })
}

/// 1: four guest games from one address, each writing 32 KiB chunks of `a` into a ZEN
/// round for [`FLOOD`].
fn ssh_flood(binary: &std::path::Path) -> Result<()> {
    step("1. four ssh games from one address writing 32 KiB chunks of `a` into ZEN rounds");
    let server = Server::start(
        binary,
        None,
        &[RATE_LIMITS_OFF, &["--ssh-listen", "127.0.0.1:0", "--quiet"]].concat(),
    )?;
    let mut games = vec![];
    for _ in 0..4 {
        let mut game = Game::over_ssh(&server)?;
        game.send(b"z")?;
        games.push(game);
    }
    std::thread::sleep(Duration::from_millis(500));
    let before = rss_mib(&server);
    let stop = Arc::new(AtomicBool::new(false));
    let peak = watch_peak(&server, stop.clone());
    let ticks = cpu_ticks(server.pid());
    let started = Instant::now();
    let chunk = vec![b'a'; 32 << 10];
    let sent = Arc::new(AtomicUsize::new(0));
    let floods: Vec<_> = games
        .into_iter()
        .map(|mut game| {
            let (chunk, sent) = (chunk.clone(), sent.clone());
            std::thread::spawn(move || {
                while started.elapsed() < FLOOD {
                    if game.send(&chunk).is_err() {
                        break;
                    }
                    sent.fetch_add(chunk.len(), Ordering::SeqCst);
                    game.discard();
                }
                game
            })
        })
        .collect();
    let games: Vec<Game> = floods.into_iter().filter_map(|f| f.join().ok()).collect();
    let secs = started.elapsed().as_secs_f64();
    let cpu = cores(ticks, cpu_ticks(server.pid()), secs);
    let at_end = rss_mib(&server);
    for game in games {
        game.quit();
    }
    std::thread::sleep(Duration::from_secs(2));
    let after = rss_mib(&server);
    stop.store(true, Ordering::SeqCst);
    let peak = peak.join().unwrap_or(0.0);
    println!(
        "ssh flood: {:.0} MiB written in {secs:.1} s; server memory {before:.0} MiB before, \
         {at_end:.0} at the end (peak {peak:.0}), {after:.0} once the games left; server CPU \
         {cpu:.2} cores",
        sent.load(Ordering::SeqCst) as f64 / f64::from(1 << 20)
    );
    Ok(())
}

/// A WebSocket to room `code` at `addr`, from `from` (an `X-Forwarded-For`). A server
/// too busy to answer within 10 s counts as one that refused.
fn connect(addr: &str, code: &str, from: &str) -> Result<Socket> {
    super::room::connect(addr, code, Some(from), Duration::from_secs(10))
}

/// Joins as `name` from `from`: the socket and its racer number, once welcomed.
fn join(addr: &str, code: &str, name: &str, from: &str) -> Result<(Socket, u32)> {
    // A server busy with thousands of connections going may not find a room at once.
    let mut tries = 0;
    let mut ws = loop {
        match connect(addr, code, from) {
            Ok(ws) => break ws,
            Err(e) if tries < 5 => {
                println!("{name}: {e:#}; trying again");
                tries += 1;
                std::thread::sleep(Duration::from_secs(2));
            }
            Err(e) => return Err(e),
        }
    };
    say(&mut ws, &hello(name))?;
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        match hear(&mut ws, Duration::from_secs(1))? {
            Some(Say::Welcome { you: Some(you), .. }) => return Ok((ws, you)),
            Some(Say::Welcome { you: None, .. }) => bail!("{name} watches"),
            Some(Say::Refused(why)) => bail!("{name} refused: {why}"),
            _ => {}
        }
    }
    bail!("{name}: no welcome within 20 s")
}

/// Reads until the go: the seed, and the instant it came.
fn until_go(ws: &mut Socket) -> Result<(u64, Instant)> {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if let Some(Say::Go(seed)) = hear(ws, Duration::from_secs(1))? {
            return Ok((seed, Instant::now()));
        }
    }
    bail!("no go within 20 s")
}

/// 2: four guests flooding a ZEN room with keys beside a person typing, then spectators
/// that never read.
fn room_flood(binary: &std::path::Path) -> Result<()> {
    step("2. four guests flood a ZEN room with keys; then 40 spectators that never read");
    let server = Server::start(binary, None, &["--quiet", "--trust-proxy"])?;
    let addr = server.url.trim_start_matches("http://").to_owned();
    let code = open(&addr, Mode::ZEN)?;
    let (mut person, _) = join(&addr, &code, "person", "10.0.0.1")?;
    let mut flooders = vec![];
    for i in 0..4 {
        flooders.push(join(
            &addr,
            &code,
            &format!("flood{i}"),
            &format!("10.0.1.{i}"),
        )?);
    }
    let mut counter = connect(&addr, &code, "10.0.2.1")?;
    say(&mut counter, &hello("counter"))?;
    say(&mut person, &Ask::Start)?;
    let (seed, go) = until_go(&mut person)?;
    let before = rss_mib(&server);
    let stop = Arc::new(AtomicBool::new(false));
    let peak = watch_peak(&server, stop.clone());
    let ticks = cpu_ticks(server.pid());
    // The person types a ZEN round of the whole test at 60 wpm, so that the race goes on.
    let typist = Typist {
        wpm: 60,
        zen_ms: 120_000,
        ..Typist::default()
    };
    let keys: Vec<Key> = keys(Mode::ZEN, seed, &typist)
        .into_iter()
        .filter(|&(_, op)| op != 1)
        .collect();
    let person = std::thread::spawn(move || {
        let mut next = 0;
        while go.elapsed() < ROOM_FLOOD * 2 && next < keys.len() {
            let due = due(&keys, next, go.elapsed());
            if due > 0 && say(&mut person, &Ask::Keys(keys[next..next + due].to_vec())).is_err() {
                break;
            }
            next += due;
            let _ = hear(&mut person, Duration::from_millis(16));
        }
        person
    });
    let floods: Vec<_> = flooders
        .into_iter()
        .map(|(mut ws, me)| {
            std::thread::spawn(move || {
                let mut refused = None;
                while go.elapsed() < ROOM_FLOOD {
                    let t = go.elapsed().as_millis() as u32;
                    let keys = vec![(t, u32::from('a') + 2); 64];
                    if say(&mut ws, &Ask::Keys(keys)).is_err() {
                        break;
                    }
                    let until = Instant::now() + Duration::from_micros(10_500);
                    while Instant::now() < until {
                        match hear(&mut ws, until.saturating_duration_since(Instant::now())) {
                            Ok(Some(Say::Refused(why))) => {
                                refused.get_or_insert(why);
                            }
                            Ok(Some(Say::Out { racer, why })) if racer == me => {
                                refused.get_or_insert(why);
                            }
                            Ok(_) => {}
                            Err(_) => return refused,
                        }
                    }
                }
                refused
            })
        })
        .collect();
    // The counter reads everything, counting the flooders' keys the room passed on.
    let mut passed = 0usize;
    while go.elapsed() < ROOM_FLOOD + Duration::from_secs(1) {
        if let Some(Say::Keys { racer, keys }) = hear(&mut counter, Duration::from_millis(50))?
            && racer > 1
        {
            passed += keys.len();
        }
    }
    let refusals: Vec<String> = floods
        .into_iter()
        .filter_map(|f| f.join().ok().flatten())
        .collect();
    let flooded = rss_mib(&server);
    // Spectators that never read, from 4 addresses.
    let mut slow = vec![];
    for i in 0..SLOW_READERS {
        let from = format!("10.0.3.{}", i % SLOW_ADDRESSES);
        match connect(&addr, &code, &from) {
            Ok(mut ws) => {
                say(&mut ws, &hello(&format!("slow{i}")))?;
                slow.push(ws);
            }
            Err(e) => println!("spectator {i}: {e:#}"),
        }
        std::thread::sleep(Duration::from_millis(220));
    }
    std::thread::sleep(Duration::from_secs(10));
    let with_slow = rss_mib(&server);
    let connected = slow
        .iter_mut()
        .filter_map(|ws| {
            // A socket the server closed reads as closed once its buffered bytes are read.
            let _ = ws.get_ref().set_nonblocking(true);
            let mut open = true;
            for _ in 0..100_000 {
                match ws.read() {
                    Ok(_) => continue,
                    Err(tungstenite::Error::Io(e))
                        if e.kind() == std::io::ErrorKind::WouldBlock =>
                    {
                        break;
                    }
                    Err(_) => {
                        open = false;
                        break;
                    }
                }
            }
            open.then_some(())
        })
        .count();
    let cpu = cores(ticks, cpu_ticks(server.pid()), go.elapsed().as_secs_f64());
    drop(slow);
    drop(counter);
    let _ = person.join();
    std::thread::sleep(Duration::from_secs(2));
    let after = rss_mib(&server);
    stop.store(true, Ordering::SeqCst);
    let peak = peak.join().unwrap_or(0.0);
    println!(
        "room flood: {passed} flooded keys passed on in {:.0} s; the flooders were told {:?}",
        ROOM_FLOOD.as_secs_f64(),
        refusals.first()
    );
    println!(
        "room memory: {before:.0} MiB at the go, {flooded:.0} after the flood, {with_slow:.0} \
         with {SLOW_READERS} spectators not reading for 10 s ({connected} still connected), \
         {after:.0} once they left (peak {peak:.0}); server CPU {cpu:.2} cores"
    );
    Ok(())
}

/// 3: two racers, one on each server, with [`IDLE`] connections through the second
/// server: waiting in another room's lobby, then watching the race itself.
fn relay(binary: &std::path::Path, url: &str) -> Result<()> {
    step(&format!(
        "3. two racers across two servers, with {IDLE} connections through the second that \
         send nothing"
    ));
    let flags = [
        "--quiet",
        "--trust-proxy",
        "--room-join-rate",
        "0",
        "--max-connections",
        "8000",
        "--max-room-connections",
        "8000",
    ];
    let owner = Server::start(binary, Some(url), &flags)?;
    let other = Server::start(binary, Some(url), &flags)?;
    let (a, b) = (
        owner.url.trim_start_matches("http://").to_owned(),
        other.url.trim_start_matches("http://").to_owned(),
    );
    // Beside the race: in another room's lobby.
    let lobby = open(&a, Mode::ZEN)?;
    let joining = Instant::now();
    let idle = spectators(&b, &lobby, 0)?;
    println!(
        "{IDLE} connections joined another room's lobby through the second server in {:.1} s",
        joining.elapsed().as_secs_f64()
    );
    std::thread::sleep(Duration::from_secs(5));
    race_across(&a, &b, Mode::BLITZ_15, "beside the race", |_| Ok(()))?;
    drop(idle);
    std::thread::sleep(Duration::from_secs(5));
    // Watching the race: they join once it is on.
    race_across(&a, &b, Mode::BLITZ_60, "watching the race", |code| {
        let joining = Instant::now();
        let watching = spectators(&b, code, 1)?;
        println!(
            "{IDLE} spectators joined the race through the second server in {:.1} s",
            joining.elapsed().as_secs_f64()
        );
        // Held until the race is over: dropped with the thread's end.
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(90));
            drop(watching);
        });
        Ok(())
    })
}

/// [`IDLE`] connections to room `code` at `addr`, each from an address of its own, that
/// say hello and never read (what the room sends them fits in their sockets' buffers).
fn spectators(addr: &str, code: &str, net: usize) -> Result<Vec<Socket>> {
    let (mut joined, mut refused) = (vec![], vec![]);
    let deadline = Instant::now() + Duration::from_secs(60);
    for i in 0..IDLE {
        if Instant::now() > deadline {
            refused.push(format!("{} not tried: a minute has passed", IDLE - i));
            break;
        }
        let from = format!("10.{}.{}.{}", 10 + net, i / 200, i % 200);
        match connect(addr, code, &from) {
            Ok(mut ws) => {
                say(&mut ws, &hello(&format!("idle{i}")))?;
                joined.push(ws);
            }
            Err(e) => refused.push(format!("{e:#}")),
        }
    }
    if let Some(first) = refused.first() {
        println!("{} of {IDLE} could not join: {first}", refused.len());
    }
    Ok(joined)
}

/// Two racers race a new room of `mode`, held by the server at `a`: one connected there, one
/// through the server at `b`. Once the text comes, `meanwhile` runs; the keys sent after
/// it returns are measured, from each racer's send to the other's read.
fn race_across(
    a: &str,
    b: &str,
    mode: Mode,
    what: &str,
    meanwhile: impl FnOnce(&str) -> Result<()>,
) -> Result<()> {
    let code = &open(a, mode)?;
    let (mut here, here_id) = join(a, code, "here", "10.2.0.1")?;
    let (there, there_id) = join(b, code, "there", "10.2.0.2")?;
    say(&mut here, &Ask::Start)?;
    let sent: Arc<Mutex<Vec<(u32, Instant)>>> = Arc::default();
    let from = Arc::new(Mutex::new(None::<Instant>));
    let race = |mut ws: Socket, me: u32, other: u32| {
        let (sent, from) = (sent.clone(), from.clone());
        std::thread::spawn(move || -> Result<(Vec<f64>, Option<u32>)> {
            let (seed, go) = until_go(&mut ws)?;
            let typist = Typist {
                wpm: 85,
                seed: u64::from(me),
                ..Typist::default()
            };
            let keys = keys(mode, seed, &typist);
            let (mut next, mut delays, mut heard) = (0, vec![], 0usize);
            let deadline = go + Duration::from_secs(120);
            while Instant::now() < deadline {
                let due = due(&keys, next, go.elapsed());
                if due > 0 {
                    if let Ok(mut sent) = sent.lock() {
                        sent.extend(std::iter::repeat_n((me, Instant::now()), due));
                    }
                    say(&mut ws, &Ask::Keys(keys[next..next + due].to_vec()))?;
                    next += due;
                }
                match hear(&mut ws, Duration::from_millis(16))? {
                    Some(Say::Keys { racer, keys }) if racer == other => {
                        let read = Instant::now();
                        let counted = from.lock().ok().and_then(|f| *f);
                        if let Ok(sent) = sent.lock() {
                            let theirs = sent.iter().filter(|(r, _)| *r == other);
                            for (_, at) in theirs.skip(heard).take(keys.len()) {
                                if counted.is_some_and(|from| *at >= from) {
                                    delays.push(read.duration_since(*at).as_secs_f64() * 1000.0);
                                }
                            }
                        }
                        heard += keys.len();
                    }
                    Some(Say::Results(rows)) => {
                        let mine = rows.iter().find(|r| r.racer == me);
                        return Ok((delays, mine.map(|r| r.headline)));
                    }
                    _ => {}
                }
            }
            Ok((delays, None))
        })
    };
    let one = race(here, here_id, there_id);
    let two = race(there, there_id, here_id);
    meanwhile(code)?;
    if let Ok(mut from) = from.lock() {
        *from = Some(Instant::now());
    }
    let (to_here, here_scored) = one
        .join()
        .map_err(|_| anyhow::anyhow!("a racer panicked"))??;
    let (to_there, there_scored) = two
        .join()
        .map_err(|_| anyhow::anyhow!("a racer panicked"))??;
    for (way, delays) in [
        ("second server -> first", to_here),
        ("first server -> second", to_there),
    ] {
        let longest = delays.iter().copied().fold(0.0, f64::max);
        let n = delays.len();
        let (p50, p99) = if n > 0 {
            super::p50_p99(delays)
        } else {
            (0.0, 0.0)
        };
        println!(
            "{what}: keys {way}: {n} keys, p50 {p50:.1} ms, p99 {p99:.1} ms, longest \
             {longest:.0} ms"
        );
    }
    println!(
        "{what}: typed at about 85 wpm; scored {} (on the first server), {} (on the second)",
        here_scored.map_or("no result".into(), |h| format!("{h} {}", mode.unit())),
        there_scored.map_or("no result".into(), |h| format!("{h} {}", mode.unit()))
    );
    Ok(())
}
