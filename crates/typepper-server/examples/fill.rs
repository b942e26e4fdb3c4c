//! Fills a store with runs straight through its insert path, for `cargo xtask load`'s
//! cold reads: far more runs than the load's submissions could store in its time.
//!
//! ```text
//! cargo run --release -p typepper-server --example fill -- \
//!     [--database-url URL | --data-dir DIR] --runs 500000 --ids ids.txt
//! ```
//!
//! Each run is a real BLITZ 60s round, synthesized and judged as the server judges one,
//! from a pool of [`POOL`]: the replays repeat, their ids and round keys do not. They go
//! in through [`Store::submit`], the path every verified run takes (group commit, the
//! run's round, its player's usage), as jobs of [`RUNS_A_JOB`] runs each, unranked so
//! that no board is touched. Then SQLite's WAL is checkpointed into the database file,
//! and PostgreSQL's tables vacuumed and analysed. The ids are written one a line in a
//! shuffled order, so that reading them in turn reads the table at random, as share
//! links do.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Parser;
use futures_util::StreamExt;
use sha2::{Digest, Sha256};
use typepper_engine::Mode;
use typepper_engine::synth::{Typist, synth};
use typepper_server::store::{self, Job, NewRun, Played, RoundPrint, Step, Store};
use typepper_server::submit::{self, Verified};

/// Distinct rounds the runs are made of.
const POOL: u64 = 256;
/// Runs a job stores: one player's, in one savepoint.
const RUNS_A_JOB: u64 = 1_000;
/// Jobs in flight at once: enough for every writer to form groups.
const IN_FLIGHT: usize = 8;
/// Why the runs are off the boards, as their rows say.
const UNRANKED: &str = "loaded by cargo xtask load, not played";

#[derive(Parser)]
struct Args {
    #[command(flatten)]
    store: store::Options,
    /// How many runs to store.
    #[arg(long)]
    runs: u64,
    /// Where their ids go, one a line, shuffled.
    #[arg(long)]
    ids: PathBuf,
}

#[tokio::main]
async fn main() -> Result<()> {
    let args = Args::parse();
    let started = Instant::now();
    let pool = pool()?;
    let store = store::open(&args.store).await?;
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_millis() as i64;
    // Ids and keys of their own on every fill: two fills of one database don't collide.
    let tag = now_ms.to_le_bytes();
    let jobs = args.runs.div_ceil(RUNS_A_JOB);
    let mut work = futures_util::stream::iter((0..jobs).map(|j| {
        let first = j * RUNS_A_JOB;
        let runs = first..(first + RUNS_A_JOB).min(args.runs);
        fill(&*store, &pool, &tag, now_ms, runs)
    }))
    .buffer_unordered(IN_FLIGHT);
    let mut ids = Vec::with_capacity(args.runs as usize);
    while let Some(done) = work.next().await {
        ids.extend(done?);
    }
    drop(work);
    if args.store.is_postgres() {
        // As autovacuum would soon: the planner's statistics then know the tables' sizes,
        // and no vacuum of them runs while they are measured.
        let url = args.store.url.as_deref().unwrap_or_default();
        let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls).await?;
        tokio::spawn(connection);
        client.batch_execute("VACUUM ANALYZE").await?;
    }
    if let Some(path) = args.store.sqlite_path() {
        // The runs are in the WAL until a checkpoint copies them into the database file,
        // which the server's reads would otherwise find in the WAL, warm: copy them now.
        drop(store);
        let c = rusqlite::Connection::open(&path)?;
        let (busy, _, _): (i64, i64, i64) =
            c.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })?;
        if busy != 0 {
            bail!("the WAL could not be checkpointed: a reader held it");
        }
    }
    shuffle(&mut ids);
    let mut text = String::with_capacity(ids.len() * 9);
    for id in &ids {
        let _ = writeln!(text, "{id}");
    }
    std::fs::write(&args.ids, text).with_context(|| format!("writing {}", args.ids.display()))?;
    let secs = started.elapsed().as_secs_f64();
    println!(
        "stored {} runs in {secs:.1} s ({:.0} a second), {} bytes of replay each on average",
        ids.len(),
        ids.len() as f64 / secs,
        pool.iter().map(|v| v.bytes.len()).sum::<usize>() / pool.len()
    );
    Ok(())
}

/// [`POOL`] rounds of BLITZ 60s at a crowd's speeds, each judged as a submission is.
fn pool() -> Result<Vec<Verified>> {
    (0..POOL)
        .map(|seed| {
            let typist = Typist {
                wpm: 50 + (seed % 80) as u32,
                accuracy: 94 + (seed % 6) as u32,
                seed,
                ..Typist::default()
            };
            let replay = synth(Mode::BLITZ_60, seed, &typist);
            let (_, score) = replay
                .play()
                .map_err(|e| anyhow::anyhow!("a synthesized round does not play: {e}"))?;
            let body = typepper_api::submission([(score.headline().value, &replay.encode()[..])]);
            let entries = submit::split(&body).map_err(|_| anyhow::anyhow!("too many"))?;
            match entries.into_iter().next() {
                Some(Ok(entry)) => submit::judge(&entry)
                    .map_err(|why| anyhow::anyhow!("the server would refuse a round: {why}")),
                _ => bail!("a synthesized round does not read back"),
            }
        })
        .collect()
}

/// Stores runs `runs` as one new player's job: their ids.
async fn fill(
    store: &dyn Store,
    pool: &[Verified],
    tag: &[u8],
    now_ms: i64,
    runs: std::ops::Range<u64>,
) -> Result<Vec<String>> {
    let name = format!("fill{now_ms:x}-{}", runs.start / RUNS_A_JOB);
    let token_hash = Sha256::digest(name.as_bytes()).into();
    let player = store
        .create_player(name, token_hash, "fill".into(), now_ms)
        .await
        .context("linking the fill's player")?;
    let at = typepper_api::Utc::of(now_ms);
    let ids: Vec<String> = runs.clone().map(|i| id(&hash(tag, i))).collect();
    let steps: Vec<Step> = runs
        .zip(&ids)
        .map(|(i, id)| {
            let v = &pool[(i % POOL) as usize];
            Step::Store(Box::new(NewRun {
                played: Played {
                    id: id.clone(),
                    mode: Mode::BLITZ_60.key(),
                    score: v.score.headline().value,
                    wpm_x100: v.score.wpm_x100,
                    accuracy_x100: v.score.accuracy_x100.into(),
                    duration_ms: v.score.duration_ms,
                    created_ms: now_ms,
                    replay: v.bytes.clone(),
                    unranked: Some(UNRANKED.into()),
                    pending: None,
                },
                player: player.id,
                month: at.month(),
                day: at.day(),
                round: RoundPrint {
                    key: hash(tag, i),
                    blocks: v.round.blocks.clone(),
                    seed: v.seed,
                    prefix: v.round.prefix.clone(),
                },
                confirms: vec![],
                uses_seed: None,
                daily: None,
            }))
        })
        .collect();
    let job = Job {
        player: player.id,
        day: at.day(),
        keys: vec![],
        seeds: vec![],
        deadline: Instant::now() + Duration::from_secs(600),
        plan: Box::new(move |_| Ok(steps.clone())),
    };
    match store.submit(job).await {
        Ok(Ok(_)) => Ok(ids),
        Ok(Err(why)) => bail!("the store refused the fill: {why}"),
        Err(e) => bail!("the fill failed: {e}"),
    }
}

/// SHA-256 of the fill's tag and `i`.
fn hash(tag: &[u8], i: u64) -> [u8; 32] {
    Sha256::new()
        .chain_update(tag)
        .chain_update(i.to_le_bytes())
        .finalize()
        .into()
}

/// A run id (8 base62 characters) from a hash: spread over the id space as drawn ones are.
fn id(key: &[u8; 32]) -> String {
    const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    key[..8]
        .iter()
        .map(|&b| char::from(ALPHABET[usize::from(b) % 62]))
        .collect()
}

/// Fisher–Yates with a fixed xorshift: the same order every fill of the same size.
fn shuffle(ids: &mut [String]) {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in (1..ids.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        ids.swap(i, (x % (i as u64 + 1)) as usize);
    }
}
