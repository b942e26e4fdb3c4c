//! wrk, the HTTP benchmarking tool that loads each route: its command lines, its Lua
//! scripts, and its report read back.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::load::procfs::Cpu;

/// One wrk thread and 32 connections for every route but the submit run: the machine
/// this was written for has two cores, one for wrk and one for the server.
pub const WRK_THREADS: u32 = 1;
pub const WRK_CONNECTIONS: u32 = 32;

/// Submissions in flight at once. A submission waits on the disk, and group commit only
/// shares a commit among those waiting together: a game's players submit many at once,
/// and 32 of them would leave the CPU idle while each commit is synced.
pub const SUBMIT_CONNECTIONS: u32 = 128;

/// The server's own request timeout: a slow answer is a latency, not a socket error.
const WRK_TIMEOUT: &str = "10s";

pub const WRK: &str = "/usr/bin/wrk";

/// The submit script. Each thread reads the bodies file once in `init` and takes every
/// n-th body; `response` sorts answers into ok / no / other; `done` prints the counts
/// on one line for [`Report::parse`]. When a thread's bodies run out it stops rather
/// than send a duplicate (which would be a cheap refusal, not a verification).
pub const SUBMIT_LUA: &str = include_str!("submit.lua");

/// GET /v1/runs/<id> over the filled runs, each once, in the ids file's shuffled order:
/// none was read before, so none is in the server's run cache and each is a database
/// read, at a random place in its table.
pub const COLD_LUA: &str = include_str!("cold.lua");

/// The wrk command, without its URL and script arguments.
pub fn wrk_flags(secs: u64, connections: u32) -> Vec<String> {
    vec![
        format!("-t{WRK_THREADS}"),
        format!("-c{connections}"),
        format!("-d{secs}s"),
        "--timeout".into(),
        WRK_TIMEOUT.into(),
        "--latency".into(),
    ]
}

/// Runs wrk against `url` for `secs`, with a script and its arguments if given.
pub fn wrk(url: &str, secs: u64, script: Option<(&Path, &[&str])>) -> Result<Report> {
    wrk_with(url, secs, WRK_CONNECTIONS, script)
}

/// [`wrk`] over `connections` connections.
pub fn wrk_with(
    url: &str,
    secs: u64,
    connections: u32,
    script: Option<(&Path, &[&str])>,
) -> Result<Report> {
    let mut c = Command::new(WRK);
    c.args(wrk_flags(secs, connections));
    if let Some((path, _)) = script {
        c.arg("-s").arg(path);
    }
    c.arg(url);
    if let Some((_, args)) = script {
        c.arg("--").args(args);
    }
    let out = c.output().context("starting wrk")?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        bail!(
            "wrk failed ({}): {}{}",
            out.status,
            text,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let err = String::from_utf8_lossy(&out.stderr);
    if !err.trim().is_empty() {
        // A Lua error is printed, not fatal: show it.
        eprintln!("wrk: {}", err.trim());
    }
    Report::parse(&text).with_context(|| format!("reading wrk's report:\n{text}"))
}

/// What wrk reported for one run.
#[derive(Debug, Default)]
pub struct Report {
    pub requests: u64,
    pub secs: f64,
    pub rps: f64,
    pub p50_us: f64,
    pub p99_us: f64,
    /// Non-2xx or 3xx answers plus socket errors.
    pub errors: u64,
    pub submit: Option<SubmitCounts>,
    /// Submissions a commit, on average (group commit).
    pub group: Option<f64>,
    /// Statements and round trips a submission, on average (PostgreSQL's writers).
    pub trips: Option<(f64, f64)>,
    /// A cold run that read nearly every stored run: its rate is a floor set by how many
    /// runs there were, not a measure of the server.
    pub exhausted: bool,
    /// Where the machine's CPU went meanwhile.
    pub cpu: Option<Cpu>,
    pub raw: String,
}

/// The submit script's counts.
#[derive(Debug, Default, PartialEq)]
pub struct SubmitCounts {
    pub ok: u64,
    pub ranked: u64,
    pub no: u64,
    pub other: u64,
    pub ran_out: bool,
    pub first_no: String,
}

impl Report {
    pub fn parse(text: &str) -> Result<Report> {
        let mut r = Report {
            raw: text.to_owned(),
            ..Report::default()
        };
        let (mut rps, mut p50, mut p99) = (None, None, None);
        for line in text.lines() {
            let t = line.trim();
            let words: Vec<&str> = t.split_whitespace().collect();
            if let Some(v) = t.strip_prefix("Requests/sec:") {
                rps = Some(v.trim().parse::<f64>()?);
            } else if let ["50%", v] = words[..] {
                p50 = Some(micros(v)?);
            } else if let ["99%", v] = words[..] {
                p99 = Some(micros(v)?);
            } else if let [n, "requests", "in", d, ..] = words[..] {
                r.requests = n.parse()?;
                r.secs = micros(d.trim_end_matches(','))? / 1e6;
            } else if let Some(n) = t.strip_prefix("Non-2xx or 3xx responses:") {
                r.errors += n.trim().parse::<u64>()?;
            } else if let Some(list) = t.strip_prefix("Socket errors:") {
                for part in list.split(',') {
                    let n = part.split_whitespace().last().unwrap_or("0");
                    r.errors += n.parse::<u64>()?;
                }
            } else if let Some(counts) = t.strip_prefix("typepper-submit ") {
                r.submit = Some(SubmitCounts::parse(counts)?);
            }
        }
        r.rps = rps.context("no Requests/sec line")?;
        r.p50_us = p50.context("no 50% line (was --latency given?)")?;
        r.p99_us = p99.context("no 99% line")?;
        Ok(r)
    }

    /// Verified runs a second: `ok` answers over the run's length.
    pub fn verified_per_sec(&self) -> Option<f64> {
        let s = self.submit.as_ref()?;
        (self.secs > 0.0).then(|| s.ok as f64 / self.secs)
    }
}

impl SubmitCounts {
    fn parse(text: &str) -> Result<SubmitCounts> {
        let mut c = SubmitCounts::default();
        // first_no is last and may hold spaces.
        let (fields, why) = text.split_once(" first_no=").unwrap_or((text, ""));
        c.first_no = why.to_owned();
        for field in fields.split_whitespace() {
            let (k, v) = field.split_once('=').context("a count without =")?;
            let n: u64 = v.parse()?;
            match k {
                "ok" => c.ok = n,
                "ranked" => c.ranked = n,
                "no" => c.no = n,
                "other" => c.other = n,
                "ran_out" => c.ran_out = n > 0,
                _ => {}
            }
        }
        Ok(c)
    }
}

/// wrk's times (`251.00us`, `1.20ms`, `1.00s`, `2.00m`, `1.00h`) in microseconds.
fn micros(text: &str) -> Result<f64> {
    let split = text
        .find(|c: char| c.is_ascii_alphabetic())
        .with_context(|| format!("{text:?} has no unit"))?;
    let (n, unit) = text.split_at(split);
    let n: f64 = n
        .parse()
        .with_context(|| format!("{text:?} is not a time"))?;
    let scale = match unit {
        "us" => 1.0,
        "ms" => 1e3,
        "s" => 1e6,
        "m" => 60e6,
        "h" => 3600e6,
        _ => bail!("{text:?}: unit {unit:?}"),
    };
    Ok(n * scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// wrk 4.1.0's report with --latency and the submit script's line.
    const REPORT: &str = "Running 10s test @ http://127.0.0.1:40000/v1/submit
  1 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    25.10ms    3.20ms  80.00ms   90.00%
    Req/Sec     1.27k    80.00     1.40k    70.00%
  Latency Distribution
     50%   24.90ms
     75%   26.00ms
     90%   28.00ms
     99%    1.02s
  12700 requests in 10.01s, 1.50MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 4
Requests/sec:   1268.73
Transfer/sec:    153.00KB
typepper-submit ok=12690 ranked=12689 no=6 other=4 ran_out=0 first_no=no a copy of run abcdEFGH
";

    #[test]
    fn a_wrk_report_reads_back() {
        let r = Report::parse(REPORT).unwrap();
        assert_eq!(r.requests, 12_700);
        assert!((r.secs - 10.01).abs() < 1e-9);
        assert!((r.rps - 1268.73).abs() < 1e-9);
        assert!((r.p50_us - 24_900.0).abs() < 1e-6);
        assert!((r.p99_us - 1_020_000.0).abs() < 1e-6);
        assert_eq!(r.errors, 7);
        assert_eq!(
            r.submit,
            Some(SubmitCounts {
                ok: 12_690,
                ranked: 12_689,
                no: 6,
                other: 4,
                ran_out: false,
                first_no: "no a copy of run abcdEFGH".into(),
            })
        );
        let v = r.verified_per_sec().unwrap();
        assert!((v - 12_690.0 / 10.01).abs() < 1e-9);
        assert!(Report::parse("Requests/sec: 1.0\n").is_err());
    }

    #[test]
    fn wrks_times_read() {
        assert_eq!(micros("251.00us").unwrap(), 251.0);
        assert_eq!(micros("2.00m").unwrap(), 120e6);
        assert!(micros("12").is_err());
    }
}
