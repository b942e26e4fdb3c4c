//! `cargo xtask load rooms`: how many racers one server holds in live rooms. Rooms of 4
//! racers, each typing BLITZ 15s at about 100 wpm over its own WebSocket, as a game sends
//! keys (the keys due, once a 16 ms frame). For every key: from the moment its racer sent
//! it to the moment each other racer in the room read it (the fan-out). The rooms grow in
//! steps until the fan-out's p99 passes 50 ms two steps in a row; each step says racers
//! held, the fan-out's p50 and p99, the server's CPU, the racers' CPU, and the server's
//! memory per racer.
//!
//! The racers are threads of this process on the same machine as the server, so the two
//! share its cores: the figures are what one machine does with both.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use typepper_api::room::{Ask, Say};
use typepper_engine::Mode;
use typepper_engine::synth::Typist;

use super::procfs::{cores, cpu_ticks, machine, rss_kib};
use super::room::{connect, due, hear, hello, keys, open, say};
use crate::e2e::{RATE_LIMITS_OFF, Server};
use crate::sh::step;

/// Racers a room.
const RACERS: usize = 4;
/// Rooms at each step, until the fan-out's p99 passes [`LIMIT_MS`].
const STEPS: &[usize] = &[4, 16, 32, 48, 64, 96, 128];
/// The fan-out's p99 past which a step is too many.
const LIMIT_MS: f64 = 50.0;
/// A game sends its keys once a frame.
const FRAME: Duration = Duration::from_millis(16);
/// How long a racer waits for its room's results after its round's end.
const RESULTS_WITHIN: Duration = Duration::from_secs(20);

/// When each key of each racer of a room was sent, by racer number.
type Sent = Arc<Mutex<HashMap<u32, Vec<Instant>>>>;

/// One step's figures.
struct Figures {
    racers: usize,
    p50_ms: f64,
    p99_ms: f64,
    keys: usize,
    cpu: f64,
    racers_cpu: f64,
    kib_per_racer: f64,
}

pub fn run() -> Result<()> {
    let binary = crate::build::release_server()?;
    let max = (STEPS[STEPS.len() - 1] * RACERS * 2).to_string();
    let server = Server::start(
        &binary,
        None,
        &[
            RATE_LIMITS_OFF,
            &[
                "--quiet",
                "--room-rate",
                "0",
                "--room-join-rate",
                "0",
                "--max-connections",
                &max,
                "--max-room-connections",
                &max,
            ],
        ]
        .concat(),
    )?;
    let addr = server.url.trim_start_matches("http://").to_owned();
    step(&format!(
        "live rooms of {RACERS} racers at ~100 wpm against {} ({})",
        server.url,
        machine()
    ));
    println!(
        "| rooms | racers | keys fanned out | fan-out p50 | fan-out p99 | server CPU | the racers' CPU | server memory a racer |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    // Memory a racer is the server's growth over what it held before any room, at each
    // step's peak: its allocator keeps what earlier steps freed, so a step's own growth
    // would read low.
    let baseline = rss_kib(server.pid()).unwrap_or(0);
    let mut over = 0;
    for &rooms in STEPS {
        let f = step_of(&server, &addr, rooms, baseline)?;
        println!(
            "| {rooms} | {} | {} | {:.1} ms | {:.1} ms | {:.0} % | {:.0} % | {:.0} KiB |",
            f.racers,
            f.keys,
            f.p50_ms,
            f.p99_ms,
            f.cpu * 100.0,
            f.racers_cpu * 100.0,
            f.kib_per_racer
        );
        // One step over can be the machine's hiccup (the racers share its two cores):
        // two in a row are the limit.
        over = if f.p99_ms > LIMIT_MS { over + 1 } else { 0 };
        if over == 2 {
            println!(
                "p99 passed {LIMIT_MS} ms two steps in a row, at {} racers",
                f.racers
            );
            break;
        }
    }
    Ok(())
}

/// `rooms` rooms raced at once: their figures.
fn step_of(server: &Server, addr: &str, rooms: usize, baseline: u64) -> Result<Figures> {
    let codes = (0..rooms)
        .map(|_| open(addr, Mode::BLITZ_15))
        .collect::<Result<Vec<_>>>()?;
    let cpu_before = cpu_ticks(server.pid());
    let ours_before = cpu_ticks(std::process::id());
    let started = Instant::now();
    let peak = Arc::new(Mutex::new(baseline));
    let mut racers = vec![];
    for (room, code) in codes.iter().enumerate() {
        let sent: Sent = Arc::default();
        for seat in 0..RACERS {
            let (addr, code, sent) = (addr.to_owned(), code.clone(), sent.clone());
            let name = format!("r{room}s{seat}");
            racers.push(std::thread::spawn(move || race(&addr, &code, &name, &sent)));
        }
    }
    // The server's memory, looked at while the rooms race.
    let watching = {
        let (peak, pid) = (peak.clone(), server.pid());
        std::thread::spawn(move || {
            let until = Instant::now() + Duration::from_secs(25);
            while Instant::now() < until {
                if let Some(kib) = rss_kib(pid)
                    && let Ok(mut p) = peak.lock()
                {
                    *p = (*p).max(kib);
                }
                std::thread::sleep(Duration::from_millis(250));
            }
        })
    };
    let mut latencies = vec![];
    let mut failed = vec![];
    for racer in racers {
        match racer.join() {
            Ok(Ok(mine)) => latencies.extend(mine),
            Ok(Err(e)) => failed.push(format!("{e:#}")),
            Err(_) => failed.push("a racer's thread panicked".into()),
        }
    }
    let wall = started.elapsed().as_secs_f64();
    let cpu = cores(cpu_before, cpu_ticks(server.pid()), wall);
    let racers_cpu = cores(ours_before, cpu_ticks(std::process::id()), wall);
    let _ = watching.join();
    if !failed.is_empty() {
        bail!(
            "{} of {} racers failed; the first: {}",
            failed.len(),
            rooms * RACERS,
            failed[0]
        );
    }
    if latencies.is_empty() {
        bail!("no key was fanned out");
    }
    let keys = latencies.len();
    let (p50_ms, p99_ms) = super::p50_p99(latencies);
    let peak = *peak.lock().map_err(|_| anyhow::anyhow!("poisoned"))?;
    Ok(Figures {
        racers: rooms * RACERS,
        p50_ms,
        p99_ms,
        keys,
        cpu,
        racers_cpu,
        kib_per_racer: peak.saturating_sub(baseline) as f64 / (rooms * RACERS) as f64,
    })
}

/// One racer: joins room `code` as `name` (the owner starts it once all are in), types
/// its round as a game sends it, and reads everything the room says until its results.
/// The fan-out of each key of the others it read, in ms.
fn race(addr: &str, code: &str, name: &str, sent: &Sent) -> Result<Vec<f64>> {
    let mut ws = connect(addr, code, None, Duration::from_secs(30))?;
    say(&mut ws, &hello(name))?;
    let mut me = None;
    // Whoever joined first owns the room, and starts it once all are in.
    let mut started = true;
    let deadline = Instant::now() + Duration::from_secs(60);
    // The lobby: until the text comes.
    let seed = loop {
        if Instant::now() > deadline {
            bail!("{name}: no go within a minute");
        }
        match hear(&mut ws)? {
            Some(Say::Welcome { you, owner, .. }) => {
                me = you;
                started = you != Some(owner);
            }
            Some(Say::Lobby { racers, .. }) if !started && racers.len() == RACERS => {
                started = true;
                say(&mut ws, &Ask::Start)?;
            }
            Some(Say::Go(seed)) => break seed,
            Some(Say::Refused(why)) => bail!("{name}: refused: {why}"),
            _ => {}
        }
    };
    let go = Instant::now();
    let me = me.context("seated as no racer")?;
    let typist = Typist {
        wpm: 100,
        seed: seed ^ u64::from(me),
        ..Typist::default()
    };
    let keys = keys(Mode::BLITZ_15, seed, &typist);
    let mut next = 0;
    let mut next_frame = go;
    let mut heard: HashMap<u32, usize> = HashMap::new();
    let mut fan_out = vec![];
    let end =
        go + Duration::from_millis(u64::from(keys.last().map_or(0, |k| k.0))) + RESULTS_WITHIN;
    loop {
        let now = Instant::now();
        if now >= next_frame && next < keys.len() {
            next_frame += FRAME;
            let due = due(&keys, next, now.duration_since(go));
            if due > 0 {
                let batch = keys[next..next + due].to_vec();
                if let Ok(mut sent) = sent.lock() {
                    sent.entry(me)
                        .or_default()
                        .extend(std::iter::repeat_n(Instant::now(), due));
                }
                say(&mut ws, &Ask::Keys(batch))?;
                next += due;
            }
        }
        // Read until the next frame is due: a message wakes the read at once, and an idle
        // racer wakes once a frame, not more (hundreds of racers polling faster took the
        // cores from the server they measured).
        let wait = next_frame.saturating_duration_since(Instant::now());
        let wait = if next < keys.len() { wait } else { FRAME };
        ws.get_ref()
            .set_read_timeout(Some(wait.max(Duration::from_millis(1))))?;
        match hear(&mut ws)? {
            Some(Say::Keys { racer, keys }) => {
                let read = Instant::now();
                let from = heard.entry(racer).or_default();
                if let Ok(sent) = sent.lock()
                    && let Some(times) = sent.get(&racer)
                {
                    for at in times.iter().skip(*from).take(keys.len()) {
                        fan_out.push(read.duration_since(*at).as_secs_f64() * 1000.0);
                    }
                }
                *from += keys.len();
            }
            Some(Say::Results(_)) => break,
            _ => {}
        }
        if Instant::now() > end {
            bail!("{name}: no results within {RESULTS_WITHIN:?} of the round's end");
        }
    }
    let _ = ws.close(None);
    Ok(fan_out)
}
