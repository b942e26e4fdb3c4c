//! `cargo xtask load cards`: what a share link costs the server, with its card drawn for
//! the first time (cold) and kept (cached).
//!
//! 1. The release server starts on an embedded SQLite database, its rate limits off.
//! 2. A player submits [`RUNS`] BLITZ 60s rounds, each a run of its own.
//! 3. Each run is asked for as a chat app asks when the link is pasted: its share page
//!    (the run read from the database), its card (drawn: cold), the page again and the
//!    card again (both from memory: cached), and the card with its `ETag` (`304`).
//! 4. Each request is a new loopback connection, timed to its first byte (TTFB) and to its
//!    last; p50 and p99 of each are printed as a table for docs/PERFORMANCE.md.

use anyhow::{Context, Result, bail};

use super::http::{exchange, link, submit_one};
use super::p50_p99;
use super::procfs::machine;
use super::rounds::body;
use crate::e2e::{Server, TempDir};
use crate::sh::step;

/// Runs asked for.
const RUNS: u64 = 200;

/// One request's times, in ms: to the first byte of the answer, and to its last.
#[derive(Clone, Copy)]
struct Took {
    first_ms: f64,
    last_ms: f64,
}

pub fn run() -> Result<()> {
    let binary = crate::build::release_server()?;
    let dir = TempDir::new("typepper-cards")?;
    step("starting the release server (SQLite, port 0, rate limits off)");
    let mut flags = crate::e2e::RATE_LIMITS_OFF.to_vec();
    flags.push("--quiet");
    let server = Server::start_in(&dir.0, &binary, None, &flags)?;
    let addr = server
        .url
        .strip_prefix("http://")
        .context("the server's URL is not http://")?
        .to_owned();
    step(&format!("submitting {RUNS} BLITZ 60s rounds"));
    let token = link(&addr, "cards")?;
    let ids: Vec<String> = (1..=RUNS)
        .map(|seed| submit_one(&addr, &token, &body(seed)?))
        .collect::<Result<_>>()?;

    step("asking for each run's page and card, cold and cached");
    let mut rows: [(&str, Vec<Took>); 5] = [
        ("share page, run read from the database", vec![]),
        ("card, drawn (cold)", vec![]),
        ("share page, run from memory", vec![]),
        ("card, from memory (cached)", vec![]),
        ("card, If-None-Match (304)", vec![]),
    ];
    let mut bytes = 0;
    for id in &ids {
        let page = format!("/r/{id}");
        let card = format!("/r/{id}/card.png");
        let (took, _, _) = get(&addr, &page, None)?;
        rows[0].1.push(took);
        let (took, etag, png) = get(&addr, &card, None)?;
        rows[1].1.push(took);
        bytes += png;
        rows[2].1.push(get(&addr, &page, None)?.0);
        rows[3].1.push(get(&addr, &card, None)?.0);
        let etag = etag.context("a card without an ETag")?;
        rows[4].1.push(get(&addr, &card, Some(&etag))?.0);
    }

    println!("\n## Share links: pages and cards ({RUNS} runs, one request at a time)\n");
    println!("| request | TTFB p50 | TTFB p99 | whole answer p50 | whole answer p99 |");
    println!("|---|---|---|---|---|");
    for (what, took) in &mut rows {
        let first = p50_p99(took.iter().map(|t| t.first_ms).collect());
        let last = p50_p99(took.iter().map(|t| t.last_ms).collect());
        println!(
            "| {what} | {:.2} ms | {:.2} ms | {:.2} ms | {:.2} ms |",
            first.0, first.1, last.0, last.1
        );
    }
    println!(
        "\nA card is {} bytes on average. {}.",
        bytes / RUNS as usize,
        machine()
    );
    drop(server);
    Ok(())
}

/// `GET path` on a new connection, with `If-None-Match: etag` if given: its times, its
/// `ETag`, and its body's length. A `200` is wanted, or a `304` when an `ETag` is sent.
fn get(addr: &str, path: &str, etag: Option<&str>) -> Result<(Took, Option<String>, usize)> {
    let headers: Vec<(&str, &str)> = etag.map(|e| ("If-None-Match", e)).into_iter().collect();
    let answer = exchange(addr, "GET", path, &headers, b"")?;
    let want = if etag.is_some() { 304 } else { 200 };
    if answer.status != want {
        bail!("{path} answered {}", answer.status_line());
    }
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
    let took = Took {
        first_ms: ms(answer.first_byte),
        last_ms: ms(answer.last_byte),
    };
    let etag = answer.header("etag").map(str::to_owned);
    Ok((took, etag, answer.body.len()))
}
