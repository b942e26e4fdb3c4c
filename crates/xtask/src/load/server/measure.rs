//! Each set-up's routes loaded in turn, in the order that lets its seeds age meanwhile, and
//! two servers on one PostgreSQL loaded at once.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use typepper_engine::Mode;

use super::cold::{cached, cold_run, empty_caches, fill};
use super::crowd::{Framing, flood, prepare, split_in_two};
use super::tables::{Results, Row};
use super::wrk::{Report, SUBMIT_CONNECTIONS, WRK_THREADS, wrk, wrk_with};
use super::{Plan, SCRIPTED_HEALTHZ, Setup};
use crate::e2e::Server;
use crate::load::http::http;
use crate::load::procfs::{Cpu, CpuMark, rss_kib};
use crate::pg::Cluster;
use crate::sh::step;

/// Waits until every seed of `mode` issued at `issued` is older than a round lasts.
fn ripen(name: &str, issued: Instant, mode: Mode) {
    let round = Duration::from_secs(mode.clock_secs().unwrap_or(60).into());
    let ripe = issued + round + Duration::from_secs(1);
    if let Some(wait) = ripe.checked_duration_since(Instant::now()) {
        step(&format!(
            "{name}: waiting {:.0} s, until the last seed is older than a round",
            wait.as_secs_f64()
        ));
        std::thread::sleep(wait);
    }
}

/// The submit run against `url`, with `bodies`.
fn submit_run(url: &str, plan: &Plan, bodies: &Path) -> Result<Report> {
    let threads = WRK_THREADS.to_string();
    let bodies = bodies.to_string_lossy();
    let args = [bodies.as_ref(), threads.as_str()];
    let report = wrk_with(
        &format!("{url}/v1/submit"),
        plan.form.secs,
        SUBMIT_CONNECTIONS,
        Some((&plan.script, &args)),
    )?;
    if report.submit.is_none() {
        bail!(
            "the submit script printed no counts; wrk said:\n{}",
            report.raw
        );
    }
    Ok(report)
}

/// Loads one set-up's routes, in the order that lets its seeds age meanwhile; the ids
/// of the runs it filled its database with, if it read them cold.
pub fn measure(
    setup: &Setup,
    pg: Option<&Cluster>,
    plan: &Plan,
    results: &mut Results,
) -> Result<Option<PathBuf>> {
    measure_together(std::slice::from_ref(setup), pg, plan, results)
}

/// Loads several set-ups: each is readied (its crowd, seeds and rounds) and its reads
/// loaded first, then their submissions run one right after another, so that the disk
/// they are compared on is the same disk, minutes apart at most. `pg` is the cluster of
/// a PostgreSQL set-up's, to restart for its cold reads. The ids of the runs filled in
/// for cold reads, if a set-up had them.
pub fn measure_together(
    setups: &[Setup],
    pg: Option<&Cluster>,
    plan: &Plan,
    results: &mut Results,
) -> Result<Option<PathBuf>> {
    let secs = plan.form.secs;
    let mut ready = vec![];
    for setup in setups {
        let name = setup.name;
        let server = setup.start(plan)?;
        if setup.memory
            && let Some(kib) = rss_kib(server.pid())
        {
            results.memory.push((format!("{name}: started"), kib));
        }
        let ids = plan.script.with_file_name(format!("filled-{}", slug(name)));
        if setup.filled {
            fill(name, setup.database_url.as_deref(), &server, plan, &ids)?;
        }
        let bodies = plan.bodies.with_extension(slug(name));
        let r = prepare(name, &server, plan, &bodies)?;
        let url = &server.url;
        let mut gets = vec![("GET /healthz", format!("{url}/healthz"))];
        if setup.every_route {
            // One run again and again: a share link going round, served from memory.
            gets.push((
                "GET /v1/runs/<id> hot",
                format!("{url}/v1/runs/{}", r.probe),
            ));
            gets.push(("GET /r/<id>", format!("{url}/r/{}", r.probe)));
        }
        for (route, target) in gets {
            step(&format!("{name}: {route} for {secs} s (wrk)"));
            let report = with_cpu(&[&server], || wrk(&target, secs, None))?;
            results.rows.push(Row {
                backend: name,
                route,
                report,
            });
        }
        ready.push((setup, server, r, bodies, ids));
    }
    for (setup, server, r, bodies, _) in &ready {
        let name = setup.name;
        ripen(name, r.issued, plan.form.mode);
        step(&format!(
            "{name}: POST /v1/submit for {secs} s, a new ranked round each request (wrk)"
        ));
        let before = writers(server);
        let mut report = with_cpu(&[server], || submit_run(&server.url, plan, bodies))?;
        if let (Some(a), Some(b)) = (before, writers(server)) {
            report.grouped(&a, &b);
        }
        results.rows.push(Row {
            backend: name,
            route: "POST /v1/submit",
            report,
        });
    }
    let mut filled = None;
    for (setup, server, r, _, ids) in &ready {
        let name = setup.name;
        if setup.cold {
            // The files the reads read: PostgreSQL's relations, or SQLite's database.
            let data = match pg {
                Some(cluster) => cluster.data().join("base"),
                None => server.data_dir().context("no data dir")?.to_owned(),
            };
            empty_caches(name, &[server], pg, &data, results)?;
            for (route, instead) in [
                (SCRIPTED_HEALTHZ, Some("/healthz")),
                ("GET /v1/runs/<id> cold", None),
            ] {
                step(&format!(
                    "{name}: {route}, each filled run once, for {secs} s (wrk)"
                ));
                let report = with_cpu(&[server], || cold_run(&server.url, plan, ids, instead))?;
                results.rows.push(Row {
                    backend: name,
                    route,
                    report,
                });
            }
            results
                .caches
                .push(format!("{name}: after the cold reads, {}", cached(&data)?));
            filled = Some(ids.clone());
        }
        if setup.memory {
            let rss = |what: &str, results: &mut Results| {
                if let Some(kib) = rss_kib(server.pid()) {
                    results.memory.push((format!("{name}: {what}"), kib));
                }
            };
            rss("after the load test", results);
            let ids = flood(name, &r.addr)?;
            rss(
                "after 40 runs of ~0.8 MiB, stored and each read twice",
                results,
            );
            for id in ids.iter().chain(&ids).chain(&ids) {
                http(&r.addr, "GET", &format!("/v1/runs/{id}"), &[], b"")?;
            }
            rss("after reading each of them three times more", results);
        }
    }
    Ok(filled)
}

/// Runs `run` (a wrk run) and notes in its report where the CPU went meanwhile.
fn with_cpu(servers: &[&Server], run: impl FnOnce() -> Result<Report>) -> Result<Report> {
    let mark = CpuMark::now(&servers.iter().map(|s| s.pid()).collect::<Vec<_>>());
    let mut report = run()?;
    report.cpu = Some(mark.since());
    Ok(report)
}

/// What a server's database writers have done so far, from its metrics.
#[derive(Clone, Copy, Debug, Default)]
struct Writers {
    commits: u64,
    committed: u64,
    /// Statements and round trips, where the store counts them (PostgreSQL).
    statements: Option<u64>,
    round_trips: Option<u64>,
}

/// The server's [`Writers`] figures now.
fn writers(server: &Server) -> Option<Writers> {
    let url = server.metrics.as_deref()?.strip_prefix("http://")?;
    let (addr, path) = url.split_once('/')?;
    let (_, body) = http(addr, "GET", &format!("/{path}"), &[], b"").ok()?;
    let text = String::from_utf8_lossy(&body);
    let value = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse::<u64>().ok())
    };
    Some(Writers {
        commits: value("typepper_db_commits_total")?,
        committed: value("typepper_db_committed_work_total")?,
        statements: value("typepper_db_statements_total"),
        round_trips: value("typepper_db_round_trips_total"),
    })
}

impl Report {
    /// Submissions a commit, and statements and round trips a submission, between the
    /// writers' figures `a` and `b`.
    fn grouped(&mut self, a: &Writers, b: &Writers) {
        let committed = b.committed.saturating_sub(a.committed);
        if b.commits > a.commits {
            self.group = Some(committed as f64 / (b.commits - a.commits) as f64);
        }
        if let (Some(s0), Some(s1), Some(t0), Some(t1)) =
            (a.statements, b.statements, a.round_trips, b.round_trips)
            && committed > 0
        {
            let each = |n: u64| n as f64 / committed as f64;
            self.trips = Some((each(s1 - s0), each(t1 - t0)));
        }
    }
}

/// The set-up of [`two_servers`].
pub const TWO_SERVERS: &str = "2 servers, one PostgreSQL";

/// Two servers on one PostgreSQL, loaded at once: the scale-out the design promises.
/// `filled`: the ids of the runs loaded in for the one server's cold reads, read again
/// here, half through each server.
pub fn two_servers(
    cluster: &Cluster,
    filled: Option<&Path>,
    plan: &Plan,
    results: &mut Results,
) -> Result<()> {
    let secs = plan.form.secs;
    let setup = Setup::new(TWO_SERVERS, Some(&cluster.url()));
    let (a, b) = (setup.start(plan)?, setup.start(plan)?);
    // Players and seeds are the database's: any server takes them.
    let ready = prepare(TWO_SERVERS, &a, plan, &plan.bodies)?;
    let halves = split_in_two(&plan.bodies, Framing::Bodies)?;
    ripen(TWO_SERVERS, ready.issued, plan.form.mode);
    step(&format!(
        "{TWO_SERVERS}: POST /v1/submit to both at once for {secs} s (two wrk)"
    ));
    let before = [writers(&a), writers(&b)];
    let (mut reports, cpu) = both(&a, &b, &halves, |url, bodies| submit_run(url, plan, bodies))?;
    for ((report, server), before) in reports.iter_mut().zip([&a, &b]).zip(before) {
        if let (Some(before), Some(after)) = (before, writers(server)) {
            report.grouped(&before, &after);
        }
    }
    let routes = ["POST /v1/submit, server A", "POST /v1/submit, server B"];
    push_both(results, routes, reports, cpu);
    let Some(filled) = filled else {
        return Ok(());
    };
    let data = cluster.data().join("base");
    empty_caches(TWO_SERVERS, &[&a, &b], Some(cluster), &data, results)?;
    let halves = split_in_two(filled, Framing::Lines)?;
    step(&format!(
        "{TWO_SERVERS}: GET /v1/runs/<id> cold on both at once, half the filled runs each (two wrk)"
    ));
    let (reports, cpu) = both(&a, &b, &halves, |url, ids| cold_run(url, plan, ids, None))?;
    let routes = [
        "GET /v1/runs/<id> cold, server A",
        "GET /v1/runs/<id> cold, server B",
    ];
    push_both(results, routes, reports, cpu);
    Ok(())
}

/// Rows of the two servers' `reports` on `routes`, with the CPU both runs took on the
/// first (the table's row for the pair).
fn push_both(results: &mut Results, routes: [&'static str; 2], mut reports: Vec<Report>, cpu: Cpu) {
    reports[0].cpu = Some(cpu);
    for (route, report) in routes.into_iter().zip(reports) {
        results.rows.push(Row {
            backend: TWO_SERVERS,
            route,
            report,
        });
    }
}

/// `run` against servers `a` and `b` at once, each with its own file: their reports, and
/// the CPU both runs took together.
fn both(
    a: &Server,
    b: &Server,
    files: &[PathBuf; 2],
    run: impl Fn(&str, &Path) -> Result<Report> + Sync,
) -> Result<(Vec<Report>, Cpu)> {
    let mark = CpuMark::now(&[a.pid(), b.pid()]);
    let servers = [a, b];
    let reports = std::thread::scope(|s| {
        let runs: Vec<_> = servers
            .iter()
            .zip(files)
            .map(|(server, file)| {
                let run = &run;
                s.spawn(move || run(&server.url, file))
            })
            .collect();
        runs.into_iter()
            .map(|r| r.join().unwrap_or_else(|_| bail!("a wrk thread panicked")))
            .collect::<Result<Vec<_>>>()
    })?;
    Ok((reports, mark.since()))
}

/// A name as a file name.
fn slug(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}
