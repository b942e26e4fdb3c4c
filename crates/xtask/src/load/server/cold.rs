//! Cold reads: runs loaded straight into the database, every cache between them and the
//! server emptied, then each read once.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, Result, bail};

use super::Plan;
use super::tables::Results;
use super::wrk::{Report, wrk};
use crate::e2e::Server;
use crate::load::http::http;
use crate::pg::Cluster;
use crate::sh::{output, step};

/// GET /v1/runs/<id> over the runs in `ids`, each once; or, with `instead`, that path as
/// often, wrk doing the same work a request (the yardstick for a scripted run: the
/// script costs wrk's core time a request that plain wrk does not).
pub fn cold_run(url: &str, plan: &Plan, ids: &Path, instead: Option<&str>) -> Result<Report> {
    let count = std::fs::read_to_string(ids)?.lines().count();
    let ids_arg = ids.to_string_lossy();
    let mut args = vec![ids_arg.as_ref()];
    args.extend(instead);
    let mut report = wrk(
        &format!("{url}/v1/runs/x"),
        plan.form.secs,
        Some((&plan.script.with_file_name("cold.lua"), &args)),
    )?;
    // wrk counts its whole duration even after the ids run out: then the rate is a
    // floor set by how many there were.
    report.exhausted = instead.is_none() && report.requests * 10 >= count as u64 * 9;
    Ok(report)
}

/// Loads [`Form::fill`] runs straight into `server`'s database with the store's fill
/// (the store's own insert path), their ids to `ids` in a shuffled order.
pub fn fill(
    name: &str,
    database_url: Option<&str>,
    server: &Server,
    plan: &Plan,
    ids: &Path,
) -> Result<()> {
    step(&format!(
        "{name}: loading {} runs straight into the database (the store's fill)",
        plan.form.fill
    ));
    let mut c = Command::new(&plan.fill);
    c.arg("--runs")
        .arg(plan.form.fill.to_string())
        .arg("--ids")
        .arg(ids);
    match (database_url, server.data_dir()) {
        (Some(url), _) => c.args(["--database-url", url]),
        (None, Some(dir)) => c.arg("--data-dir").arg(dir),
        (None, None) => bail!("{name}: the server has neither a database URL nor a data dir"),
    };
    crate::sh::run(&mut c)
}

/// Empties the caches between the database's files (under `data`) and `servers`:
/// PostgreSQL's own (`pg`, restarted) and the OS's page cache of the files (each synced,
/// then dropped with `dd iflag=nocache`: no root is needed for a file one can read, as
/// it is for `/proc/sys/vm/drop_caches`). Says in `results` what was left cached.
pub fn empty_caches(
    name: &str,
    servers: &[&Server],
    pg: Option<&Cluster>,
    data: &Path,
    results: &mut Results,
) -> Result<()> {
    if let Some(cluster) = pg {
        cluster.restart()?;
        for server in servers {
            await_database(server)?;
        }
    }
    step(&format!(
        "{name}: dropping the OS's cache of the database's files (sync, dd iflag=nocache)"
    ));
    let files = files_under(data)?;
    crate::sh::run(Command::new("sync").args(&files))?;
    for file in &files {
        crate::sh::run(
            Command::new("dd")
                .arg(format!("if={}", file.display()))
                .args(["iflag=nocache", "count=0", "status=none"]),
        )?;
    }
    results
        .caches
        .push(format!("{name}: before the cold reads, {}", cached(data)?));
    Ok(())
}

/// Waits until `server` reads from its database again (a run that is not there: 404),
/// after the database restarted under it.
fn await_database(server: &Server) -> Result<()> {
    let addr = server.url.trim_start_matches("http://");
    for _ in 0..100 {
        if let Ok((404, _)) = http(addr, "GET", "/v1/runs/00000000", &[], b"") {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    bail!(
        "{} did not read from its database again within 10 s",
        server.url
    )
}

/// The database's files under `dir`, recursively: every file but logs.
fn files_under(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = vec![];
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let entry = entry?;
        let kind = entry.file_type()?;
        if kind.is_dir() {
            out.extend(files_under(&entry.path())?);
        } else if kind.is_file() && entry.path().extension().is_none_or(|e| e != "log") {
            out.push(entry.path());
        }
    }
    Ok(out)
}

/// How much of the files under `dir` is in the OS's page cache (util-linux's fincore).
pub fn cached(dir: &Path) -> Result<String> {
    let files = files_under(dir)?;
    let text = output(
        Command::new("fincore")
            .args(["--bytes", "--noheadings", "--raw", "--output", "RES,SIZE"])
            .args(&files),
    )
    .context("fincore (util-linux) did not run")?;
    let (mut resident, mut size) = (0u64, 0u64);
    for line in text.lines() {
        if let [r, s] = line.split_whitespace().collect::<Vec<_>>()[..] {
            resident += r.parse::<u64>().unwrap_or(0);
            size += s.parse::<u64>().unwrap_or(0);
        }
    }
    let mib = |b: u64| b as f64 / 1_048_576.0;
    Ok(format!(
        "{:.1} MiB of the database's {:.0} MiB of files in the OS's cache",
        mib(resident),
        mib(size)
    ))
}
