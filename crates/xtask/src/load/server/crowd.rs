//! The crowd whose rounds the submit run sends: players linked, seeds issued to them, and a
//! round synthesized on each seed into the bodies file wrk's script reads; and a flood of
//! megabyte runs for the server's memory.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use typepper_engine::Mode;
use typepper_engine::synth::{Typist, synth};

use super::Plan;
use crate::e2e::Server;
use crate::load::http::{http, issue, link, submit_one};
use crate::load::rounds::{body, body_in, submission};
use crate::sh::step;

/// Seeds issued to each player of the crowd: the most one player may hold.
const SEEDS_EACH: u32 = typepper_api::MAX_OPEN_SEEDS;

/// Threads asking for seeds at once: enough that the writer commits many together.
const ISSUERS: usize = 16;

/// A server ready for submissions: its address, a probe run, and a body file of ranked
/// rounds on seeds it issued.
pub struct Ready {
    pub addr: String,
    pub probe: String,
    /// When its last seed was issued: no round may arrive sooner than a round after.
    pub issued: Instant,
}

/// Links a crowd on `server`, has it issued seeds, and writes a round on each to
/// `bodies`.
pub fn prepare(name: &str, server: &Server, plan: &Plan, bodies: &Path) -> Result<Ready> {
    let addr = server
        .url
        .strip_prefix("http://")
        .context("the server's URL is not http://")?
        .to_owned();
    // Set-ups may share a database (two servers on one PostgreSQL): names of their own.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let tag = format!("{:05}", nanos % 100_000);
    let token = link(&addr, &format!("probe{tag}"))?;
    // A seed nobody issued (the run is only there to be read back), its own for each
    // set-up: two on one database would otherwise be copies.
    let probe = submit_one(&addr, &token, &body(u64::from(nanos))?)?;
    println!(
        "    {} linked player probe{tag}; probe run {probe}",
        server.url
    );
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let players = plan.count.div_ceil(u64::from(SEEDS_EACH));
    let mode = plan.form.mode;
    step(&format!(
        "{name}: linking {players} players and issuing each {SEEDS_EACH} seeds for {mode}"
    ));
    let started = Instant::now();
    let seeds = issue_seeds(&addr, &tag, players, ISSUERS, mode)?;
    let issued = Instant::now();
    // A player plays one round at a time: the rounds in flight together are different
    // players', each player's first round, then each one's second, and so on.
    let each = SEEDS_EACH as usize;
    let mut turns: Vec<(usize, IssuedTo)> = seeds.into_iter().enumerate().collect();
    turns.sort_by_key(|&(i, _)| (i % each, i / each));
    let seeds: Vec<IssuedTo> = turns.into_iter().map(|(_, seed)| seed).collect();
    println!(
        "    {} seeds in {:.1} s",
        seeds.len(),
        started.elapsed().as_secs_f64()
    );
    step(&format!(
        "{name}: synthesizing a round on each seed ({workers} threads, the engine's synth)"
    ));
    let started = Instant::now();
    std::fs::write(bodies, self::bodies(&seeds, workers, mode)?)
        .with_context(|| format!("writing {}", bodies.display()))?;
    println!(
        "    {} bodies in {:.1} s",
        seeds.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(Ready {
        addr,
        probe,
        issued,
    })
}

/// A seed the server issued, and the token of the player it was issued to.
type IssuedTo = (u64, String);

/// Links `players` players (`l<tag>-0`, `l<tag>-1`, …) and has each issued
/// [`SEEDS_EACH`] seeds, on `workers` threads.
fn issue_seeds(
    addr: &str,
    tag: &str,
    players: u64,
    workers: usize,
    mode: Mode,
) -> Result<Vec<IssuedTo>> {
    let players: Vec<u64> = (0..players).collect();
    fan_out(&players, workers, "issuing seeds", |chunk| {
        let mut out = vec![];
        for p in chunk {
            let token = link(addr, &format!("l{tag}-{p}"))?;
            for _ in 0..SEEDS_EACH {
                out.push((issue(addr, &token, mode)?, token.clone()));
            }
        }
        Ok(out)
    })
}

/// Does `work` on `items` in up to `workers` even chunks, one thread each (the setup is
/// CPU and round trips, not what is measured), and joins what each made, in order.
fn fan_out<I: Sync, T: Send>(
    items: &[I],
    workers: usize,
    what: &str,
    work: impl Fn(&[I]) -> Result<Vec<T>> + Sync,
) -> Result<Vec<T>> {
    let per = items.len().div_ceil(workers.max(1)).max(1);
    let parts: Vec<Result<Vec<T>>> = std::thread::scope(|s| {
        let work = &work;
        let handles: Vec<_> = items
            .chunks(per)
            .map(|chunk| s.spawn(move || work(chunk)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| bail!("a thread {what} panicked"))
            })
            .collect()
    });
    let mut all = vec![];
    for part in parts {
        all.extend(part?);
    }
    Ok(all)
}

/// The submission bodies of a round of `mode` on each of `seeds`, each after its length
/// (u32 LE) and its player's token, made on `workers` threads.
fn bodies(seeds: &[IssuedTo], workers: usize, mode: Mode) -> Result<Vec<u8>> {
    fan_out(seeds, workers, "typing rounds", |chunk| {
        let mut out = vec![];
        for (seed, token) in chunk {
            let body = body_in(mode, *seed)?;
            let len = u32::try_from(body.len())?;
            if token.len() != 64 {
                bail!("a token of {} bytes, not 64", token.len());
            }
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(token.as_bytes());
            out.extend_from_slice(&body);
        }
        Ok(out)
    })
}

/// Stores 40 ZEN rounds of ten hours (about 0.8 MiB each) and reads each twice: the
/// runs the cache must not keep. Their ids.
pub fn flood(name: &str, addr: &str) -> Result<Vec<String>> {
    step(&format!(
        "{name}: a flood of 40 runs of ~0.8 MiB (ten hours of ZEN each), each read twice"
    ));
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let seeds: Vec<u64> = (90_000..90_040).collect();
    let rounds = fan_out(&seeds, workers, "typing the flood's rounds", |chunk| {
        chunk
            .iter()
            .map(|&seed| {
                let typist = Typist {
                    wpm: 120,
                    accuracy: 97,
                    seed,
                    zen_ms: 10 * 3_600_000,
                };
                submission(&synth(Mode::ZEN, seed, &typist))
            })
            .collect()
    })?;
    let sizes: Vec<usize> = rounds.iter().map(Vec::len).collect();
    println!(
        "    {} rounds, {:.2}–{:.2} MiB",
        rounds.len(),
        *sizes.iter().min().unwrap_or(&0) as f64 / 1048576.0,
        *sizes.iter().max().unwrap_or(&0) as f64 / 1048576.0
    );
    let mut ids = vec![];
    for (i, body) in rounds.iter().enumerate() {
        let token = link(addr, &format!("flood{i}"))?;
        let id = submit_one(addr, &token, body)?;
        for _ in 0..2 {
            let (status, _) = http(addr, "GET", &format!("/v1/runs/{id}"), &[], b"")?;
            if status != 200 {
                bail!("reading flood run {id} answered {status}");
            }
        }
        ids.push(id);
    }
    Ok(ids)
}

/// How a file splits into items: bodies after their length and token, or lines.
#[derive(Clone, Copy, PartialEq)]
pub enum Framing {
    Bodies,
    Lines,
}

/// `path` in two halves (alternate items), for two servers.
pub fn split_in_two(path: &Path, framing: Framing) -> Result<[PathBuf; 2]> {
    let all = std::fs::read(path)?;
    let mut halves = [vec![], vec![]];
    let (mut rest, mut i) = (&all[..], 0);
    while !rest.is_empty() {
        let end = match framing {
            Framing::Bodies if rest.len() >= 68 => {
                68 + u32::from_le_bytes(rest[..4].try_into()?) as usize
            }
            Framing::Bodies => break,
            Framing::Lines => rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(rest.len(), |n| n + 1),
        };
        let end = end.min(rest.len());
        halves[i % 2].extend_from_slice(&rest[..end]);
        rest = &rest[end..];
        i += 1;
    }
    let paths = [path.with_extension("a"), path.with_extension("b")];
    for (path, half) in paths.iter().zip(halves) {
        std::fs::write(path, half)?;
    }
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_distinct_true_claims_with_their_lengths_and_tokens() {
        let seeds: Vec<IssuedTo> = (1..=7).map(|s| (s, format!("{s:064}"))).collect();
        let all = bodies(&seeds, 3, Mode::BLITZ_15).unwrap();
        let mut rest = &all[..];
        let mut seen = std::collections::HashSet::new();
        while !rest.is_empty() {
            let (len, after) = rest.split_first_chunk::<4>().unwrap();
            let len = u32::from_le_bytes(*len) as usize;
            let (token, after) = after.split_at(64);
            assert_eq!(token, format!("{:064}", seen.len() + 1).as_bytes());
            let (body, next) = after.split_at(len);
            let judged = claim_is_true(body);
            assert!(judged, "a body's claim is its round's score");
            assert!(seen.insert(body.to_vec()), "bodies are distinct");
            rest = next;
        }
        assert_eq!(seen.len(), 7);
    }

    /// The claim is what the engine scores (as the server checks it).
    fn claim_is_true(body: &[u8]) -> bool {
        let (claim, replay) = typepper_api::read_entry(body).unwrap();
        let replay = typepper_engine::Replay::decode(replay).unwrap();
        replay.play().unwrap().1.headline().value == claim
    }
}
