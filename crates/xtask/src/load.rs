//! The server's load test, the second half of `cargo xtask bench`; `cargo xtask load
//! --short` is the same in a few minutes (see [`SHORT`]).
//!
//! 1. Debian's wrk is installed if missing; the server, the CLI and the store's fill
//!    (`typepper-server`'s example `fill`) are built for release.
//! 2. For each backend — SQLite in a fresh data dir, PostgreSQL in a throwaway cluster —
//!    the release server starts on port 0 with its rate limits off.
//! 3. Ranked rounds are played on seeds the server issued, as the game plays them: a
//!    crowd of players is linked, each is issued [`SEEDS_EACH`] seeds (the most one
//!    player may hold), and a distinct round is synthesized on every seed, in
//!    this process, into one file of submission bodies (each after its length and its
//!    player's token) that wrk's Lua script reads once. A copy is refused, so every
//!    submit request needs a round of its own.
//! 4. wrk loads each route for the same seconds over the same connections: `/healthz`
//!    (the trivial route, the yardstick), `GET /v1/runs/<id>`, `GET /r/<id>`, and then,
//!    once every seed is older than its round is long (sooner, the server refuses a
//!    round as not played on it), `POST /v1/submit`, whose script counts `ok` (and of
//!    those, ranked) and `no` answers: a verified run is an `ok`, not a 200.
//! 5. Cold reads: far more runs than a run of reads could reach are loaded straight into
//!    the database through the store's own insert path (the `fill` example), both the
//!    database's cache and the OS's cache of its files are emptied, and wrk reads them
//!    in a shuffled order, each once.
//! 6. One table: requests a second, p50 and p99, and each route's rate against
//!    `/healthz`'s on the same server, with the machine and the wrk command lines; and
//!    where the CPU went in each run: every process's CPU seconds, from `/proc`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use typepper_api::Line;
use typepper_engine::Mode;
use typepper_engine::synth::{Typist, synth};

use crate::e2e::{Server, TempDir};
use crate::install;
use crate::pg::Cluster;
use crate::sh::{output, step};

/// Seconds each route is loaded for, unless this says otherwise.
const SECS_VAR: &str = "TYPEPPER_LOAD_SECS";
/// How many submission bodies to make, unless this says otherwise.
const BODIES_VAR: &str = "TYPEPPER_LOAD_BODIES";
/// How many runs to load straight in for the cold reads, unless this says otherwise.
const FILL_VAR: &str = "TYPEPPER_LOAD_FILL";

/// How much the load test does.
#[derive(Clone, Copy, Debug)]
struct Form {
    /// Seconds each route is loaded for.
    secs: u64,
    /// The ranked rounds' mode. A seed is ripe for its round once the round could have
    /// been played on it: a BLITZ 60s seed after 61 seconds.
    mode: Mode,
    /// Bodies made per second of the submit run: several times what the machine
    /// verifies, so that running out means a much faster server, and says so.
    bodies_per_sec: u64,
    /// Runs loaded straight into a database for its cold reads.
    fill: u64,
}

/// `cargo xtask load`: 10 s a route, BLITZ 60s rounds (8,000 bodies a second: twice
/// what the 2-core machine this was written on verifies on SQLite), 500,000 runs to read.
const LONG: Form = Form {
    secs: 10,
    mode: Mode::BLITZ_60,
    bodies_per_sec: 8_000,
    fill: 500_000,
};

/// `cargo xtask load --short`: every set-up and ratio of the long form in a few
/// minutes. 2 s a route; BLITZ 15s rounds, whose seeds ripen in 16 s rather than 61
/// (four times cheaper to verify, so more bodies a second); 100,000 runs to read, still
/// several times what the reads reach.
const SHORT: Form = Form {
    secs: 2,
    mode: Mode::BLITZ_15,
    bodies_per_sec: 16_000,
    fill: 100_000,
};

/// One wrk thread and 32 connections for every route but the submit run: the machine
/// this was written for has two cores, one for wrk and one for the server.
const WRK_THREADS: u32 = 1;
const WRK_CONNECTIONS: u32 = 32;
/// Submissions in flight at once. A submission waits on the disk, and group commit only
/// shares a commit among those waiting together: a game's players submit many at once,
/// and 32 of them would leave the CPU idle while each commit is synced.
const SUBMIT_CONNECTIONS: u32 = 128;
/// The server's own request timeout: a slow answer is a latency, not a socket error.
const WRK_TIMEOUT: &str = "10s";
const WRK: &str = "/usr/bin/wrk";

/// The goals the brief sets.
const RUNS_GOAL: f64 = 0.5;
const SUBMIT_GOAL: f64 = 1_000.0;
/// Durable PostgreSQL's verified runs against SQLite's with group commit (issue 25).
const POSTGRES_GOAL: f64 = 0.5;

/// The yardstick of the cold run: `/healthz` asked by the cold run's script.
const SCRIPTED_HEALTHZ: &str = "GET /healthz, scripted";

/// Seeds issued to each player of the crowd: the most one player may hold.
const SEEDS_EACH: u32 = typepper_api::MAX_OPEN_SEEDS;

/// Threads asking for seeds at once: enough that the writer commits many together.
const ISSUERS: usize = 16;

/// The submit script. Each thread reads the bodies file once in `init` and takes every
/// n-th body; `response` sorts answers into ok / no / other; `done` prints the counts
/// on one line for [`Report::parse`]. When a thread's bodies run out it stops rather
/// than send a duplicate (which would be a cheap refusal, not a verification).
const SUBMIT_LUA: &str = r#"-- cargo xtask bench: POST /v1/submit, a distinct round each request.
-- args: <bodies file> <threads>
-- The file holds, for each body: its length (u32 LE), its player's token (64 bytes), the body.
local threads = {}
local next_tid = 0

function setup(thread)
  thread:set("tid", next_tid)
  next_tid = next_tid + 1
  table.insert(threads, thread)
end

function init(args)
  local path, n = args[1], tonumber(args[2])
  local f = assert(io.open(path, "rb"))
  local data = f:read("*a")
  f:close()
  bodies, tokens = {}, {}
  local pos, i = 1, 0
  while pos + 67 <= #data do
    local a, b, c, d = data:byte(pos, pos + 3)
    local len = a + b * 256 + c * 65536 + d * 16777216
    if i % n == tid then
      tokens[#tokens + 1] = data:sub(pos + 4, pos + 67)
      bodies[#bodies + 1] = data:sub(pos + 68, pos + 67 + len)
    end
    pos = pos + 68 + len
    i = i + 1
  end
  data = nil
  taken, oks, ranked, nos, others, ran_out, first_no = 0, 0, 0, 0, 0, 0, ""
end

function request()
  taken = taken + 1
  local body = bodies[taken]
  if body == nil then
    ran_out = 1
    wrk.thread:stop()
    -- Something must be sent; the trivial route costs the server least.
    return wrk.format("GET", "/healthz")
  end
  bodies[taken] = nil
  local headers = {
    ["Authorization"] = "Bearer " .. tokens[taken],
    ["Content-Type"] = "application/octet-stream",
  }
  return wrk.format("POST", "/v1/submit", headers, body)
end

function response(status, headers, body)
  local head = body:sub(1, 3)
  if status == 200 and head == "ok " then
    oks = oks + 1
    if body:find(" ranked\n", 1, true) then ranked = ranked + 1 end
  elseif status == 200 and head == "no " then
    nos = nos + 1
    if first_no == "" then first_no = body:gsub("%s+$", "") end
  else
    others = others + 1
  end
end

function done(summary, latency, requests)
  local ok, rk, no, other, out, why = 0, 0, 0, 0, 0, ""
  for _, t in ipairs(threads) do
    ok = ok + t:get("oks")
    rk = rk + t:get("ranked")
    no = no + t:get("nos")
    other = other + t:get("others")
    out = out + t:get("ran_out")
    if why == "" then why = t:get("first_no") end
  end
  io.write(string.format("typepper-submit ok=%d ranked=%d no=%d other=%d ran_out=%d first_no=%s\n",
    ok, rk, no, other, out, why))
end
"#;

/// GET /v1/runs/<id> over the filled runs, each once, in the ids file's shuffled order:
/// none was read before, so none is in the server's run cache and each is a database
/// read, at a random place in its table.
const COLD_LUA: &str = r#"-- cargo xtask bench: GET /v1/runs/<id>, each stored run once.
-- args: <ids file> [a path to ask for instead, with the same work on this side]
function init(args)
  ids = {}
  for line in io.lines(args[1]) do ids[#ids + 1] = line end
  instead = args[2]
  taken = 0
end

function request()
  taken = taken + 1
  local id = ids[taken]
  if instead then
    -- The yardstick takes an id as a read does, and goes round them again: it is never
    -- the one to run out.
    if id == nil then taken = 0 end
    return wrk.format("GET", instead)
  end
  if id == nil then
    wrk.thread:stop()
    return wrk.format("GET", "/healthz")
  end
  return wrk.format("GET", "/v1/runs/" .. id)
end
"#;

/// Runs the load test: `args` may say `--short` (the [`SHORT`] form) and a word; only
/// the set-ups whose name contains it are run. Prints the tables.
pub fn run(args: &[String]) -> Result<()> {
    let short = args.iter().any(|a| a == "--short");
    let only = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map_or("", String::as_str);
    let form = if short { SHORT } else { LONG };
    install::debian(&["wrk"], Path::new(WRK))?;
    let server = crate::build::release_server()?;
    let fill = crate::build::release_example("typepper-server", "fill")?;
    let secs = env_number(SECS_VAR, form.secs)?;
    let form = Form {
        secs,
        fill: env_number(FILL_VAR, form.fill)?,
        ..form
    };
    let count = env_number(BODIES_VAR, secs * form.bodies_per_sec)?;
    let dir = TempDir::new("typepper-load")?;
    let plan = Plan {
        form,
        count,
        bodies: dir.0.join("bodies"),
        script: dir.0.join("submit.lua"),
        server,
        fill,
    };
    std::fs::write(&plan.script, SUBMIT_LUA)?;
    std::fs::write(plan.script.with_file_name("cold.lua"), COLD_LUA)?;

    let mut results = Results::default();
    let sqlite = [
        Setup::new("SQLite", None).every_route().memory().cold(),
        Setup::new("SQLite, a commit each", None)
            .flags(&["--group-commit", "1"])
            .filled(),
        Setup::new("SQLite on tmpfs", None)
            .data_in(Path::new("/dev/shm"))
            .filled(),
    ];
    let wanted = |name: &str| name.to_lowercase().contains(&only.to_lowercase());
    let sqlite: Vec<Setup> = sqlite.into_iter().filter(|s| wanted(s.name)).collect();
    if let Err(e) = measure_together(&sqlite, None, &plan, &mut results) {
        print_results(&plan, &results);
        return Err(e.context("the load test on SQLite failed"));
    }
    if !wanted("postgresql") {
        print_results(&plan, &results);
        return Ok(());
    }
    let pg = crate::pg::with_cluster(|url| {
        let setup = Setup::new("PostgreSQL, fsync off", Some(url)).filled();
        measure(&setup, None, &plan, &mut results).map(drop)
    })
    .and_then(|()| {
        crate::pg::with_durable_cluster(|cluster| {
            let setup = Setup::new("PostgreSQL", Some(&cluster.url()))
                .every_route()
                .cold();
            let ids = measure(&setup, Some(cluster), &plan, &mut results)?;
            two_servers(cluster, ids.as_deref(), &plan, &mut results)
        })
    });
    print_results(&plan, &results);
    pg.map_err(|e| e.context("the PostgreSQL part of the load test failed"))
}

/// What every set-up's run shares.
struct Plan {
    form: Form,
    /// Submission bodies made for each set-up.
    count: u64,
    bodies: PathBuf,
    script: PathBuf,
    server: PathBuf,
    /// The store's fill, for the cold reads.
    fill: PathBuf,
}

/// One server set-up to measure.
struct Setup {
    name: &'static str,
    database_url: Option<String>,
    /// Where its data dir goes, if not the temp dir (a tmpfs).
    data_in: Option<PathBuf>,
    flags: &'static [&'static str],
    /// Every route; otherwise `/healthz` and submissions only.
    every_route: bool,
    /// The server's memory before and after, and after a flood of megabyte runs.
    memory: bool,
    /// Runs loaded straight in first ([`Form::fill`]): what it measures, it measures on
    /// a database that holds them.
    filled: bool,
    /// Reads of those runs, with every cache emptied first.
    cold: bool,
}

impl Setup {
    fn new(name: &'static str, database_url: Option<&str>) -> Setup {
        Setup {
            name,
            database_url: database_url.map(str::to_owned),
            data_in: None,
            flags: &[],
            every_route: false,
            memory: false,
            filled: false,
            cold: false,
        }
    }

    fn every_route(self) -> Setup {
        Setup {
            every_route: true,
            ..self
        }
    }

    fn memory(self) -> Setup {
        Setup {
            memory: true,
            ..self
        }
    }

    fn filled(self) -> Setup {
        Setup {
            filled: true,
            ..self
        }
    }

    fn cold(self) -> Setup {
        Setup {
            filled: true,
            cold: true,
            ..self
        }
    }

    fn flags(self, flags: &'static [&'static str]) -> Setup {
        Setup { flags, ..self }
    }

    fn data_in(self, dir: &Path) -> Setup {
        Setup {
            data_in: Some(dir.to_owned()),
            ..self
        }
    }

    /// Starts the release server as this set-up says, rate limits off.
    fn start(&self, plan: &Plan) -> Result<Server> {
        step(&format!(
            "starting the release server: {} (port 0, rate limits off)",
            self.name
        ));
        let mut flags = crate::e2e::RATE_LIMITS_OFF.to_vec();
        flags.extend([
            // The memory flood stores megabyte runs: more than a day's default.
            "--daily-bytes",
            "1000000000",
            // Each request's round is typed at a speed of its own (50 to 130 wpm): a
            // player's faster rounds would wait for confirmation rather than rank.
            "--pending-over-best",
            "0",
            "--metrics-listen",
            "127.0.0.1:0",
            "--quiet",
        ]);
        flags.extend(self.flags);
        let base = self.data_in.clone().unwrap_or_else(std::env::temp_dir);
        Server::start_in(&base, &plan.server, self.database_url.as_deref(), &flags)
    }
}

/// Every table the load test prints.
#[derive(Default)]
struct Results {
    rows: Vec<Row>,
    /// `(what, RSS in KiB)`.
    memory: Vec<(String, u64)>,
    /// What the OS held of each database's files around its cold reads.
    caches: Vec<String>,
}

/// One route on one set-up.
struct Row {
    backend: &'static str,
    route: &'static str,
    report: Report,
}

/// A server ready for submissions: its address, a probe run, and a body file of ranked
/// rounds on seeds it issued.
struct Ready {
    addr: String,
    probe: String,
    /// When its last seed was issued: no round may arrive sooner than a round after.
    issued: Instant,
}

/// Links a crowd on `server`, has it issued seeds, and writes a round on each to
/// `bodies`.
fn prepare(name: &str, server: &Server, plan: &Plan, bodies: &Path) -> Result<Ready> {
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

/// GET /v1/runs/<id> over the runs in `ids`, each once; or, with `instead`, that path as
/// often, wrk doing the same work a request (the yardstick for a scripted run: the
/// script costs wrk's core time a request that plain wrk does not).
fn cold_run(url: &str, plan: &Plan, ids: &Path, instead: Option<&str>) -> Result<Report> {
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

/// Loads one set-up's routes, in the order that lets its seeds age meanwhile; the ids
/// of the runs it filled its database with, if it read them cold.
fn measure(
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
fn measure_together(
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
            && let Some(kib) = server.rss_kib()
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
                if let Some(kib) = server.rss_kib() {
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

/// Loads [`Form::fill`] runs straight into `server`'s database with the store's fill
/// (the store's own insert path), their ids to `ids` in a shuffled order.
fn fill(
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
fn empty_caches(
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
fn cached(dir: &Path) -> Result<String> {
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

/// Stores 40 ZEN rounds of ten hours (about 0.8 MiB each) and reads each twice: the
/// runs the cache must not keep. Their ids.
fn flood(name: &str, addr: &str) -> Result<Vec<String>> {
    step(&format!(
        "{name}: a flood of 40 runs of ~0.8 MiB (ten hours of ZEN each), each read twice"
    ));
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let rounds: Vec<Vec<u8>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers as u64)
            .map(|w| {
                s.spawn(move || {
                    (0..40u64)
                        .filter(|i| i % workers as u64 == w)
                        .map(|i| {
                            let typist = Typist {
                                wpm: 120,
                                accuracy: 97,
                                seed: 90_000 + i,
                                zen_ms: 10 * 3_600_000,
                            };
                            let round = synth(Mode::Zen, 90_000 + i, &typist);
                            let claim = round.play().map_or(0, |(_, s)| s.headline().value);
                            typepper_api::submission([(claim, &round.encode()[..])])
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
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

/// Runs `run` (a wrk run) and notes in its report where the CPU went meanwhile.
fn with_cpu(servers: &[&Server], run: impl FnOnce() -> Result<Report>) -> Result<Report> {
    let mark = CpuMark::now(servers);
    let mut report = run()?;
    report.cpu = Some(mark.since(servers));
    Ok(report)
}

/// CPU seconds the processes sharing the machine took in one run, from `/proc`.
#[derive(Clone, Debug, Default)]
struct Cpu {
    /// The run's length.
    wall: f64,
    /// Each server's.
    servers: Vec<f64>,
    /// Every PostgreSQL process's together (its backends, writer, WAL writer…).
    postgres: f64,
    /// wrk's: this process's children that ended meanwhile.
    wrk: f64,
}

/// The clock ticks each process had used at one moment.
struct CpuMark {
    at: Instant,
    servers: Vec<u64>,
    /// Every `postgres` process's, by pid: one that starts meanwhile counts from 0.
    postgres: HashMap<u32, u64>,
    children: u64,
}

impl CpuMark {
    fn now(servers: &[&Server]) -> CpuMark {
        let own = |pid: u32| ticks(&pid.to_string()).map_or(0, |t| t.1);
        CpuMark {
            at: Instant::now(),
            servers: servers.iter().map(|s| own(s.pid())).collect(),
            postgres: postgres_ticks(),
            children: ticks("self").map_or(0, |t| t.2),
        }
    }

    fn since(&self, servers: &[&Server]) -> Cpu {
        let now = CpuMark::now(servers);
        let hz = clock_ticks();
        let secs = |t: u64| t as f64 / hz;
        Cpu {
            wall: self.at.elapsed().as_secs_f64(),
            servers: now
                .servers
                .iter()
                .zip(&self.servers)
                .map(|(b, a)| secs(b.saturating_sub(*a)))
                .collect(),
            postgres: secs(
                now.postgres
                    .iter()
                    .map(|(pid, t)| t.saturating_sub(*self.postgres.get(pid).unwrap_or(&0)))
                    .sum(),
            ),
            wrk: secs(now.children.saturating_sub(self.children)),
        }
    }
}

/// Process `pid`'s (or `self`'s) name, its own CPU ticks (user and system), and those of
/// its children that ended and were waited for; `/proc/<pid>/stat`'s fields 2, 14 + 15
/// and 16 + 17.
fn ticks(pid: &str) -> Option<(String, u64, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The name may hold spaces and parentheses: it ends at the last ')'.
    let (head, rest) = stat.rsplit_once(')')?;
    let name = head.split_once('(')?.1.to_owned();
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let n = |i: usize| fields.get(i - 3).and_then(|f| f.parse::<u64>().ok());
    Some((name, n(14)? + n(15)?, n(16)? + n(17)?))
}

/// Every `postgres` process's CPU ticks, by pid.
fn postgres_ticks() -> HashMap<u32, u64> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return HashMap::new();
    };
    dir.filter_map(|e| {
        let name = e.ok()?.file_name().into_string().ok()?;
        let pid: u32 = name.parse().ok()?;
        let (comm, own, _) = ticks(&name)?;
        (comm == "postgres").then_some((pid, own))
    })
    .collect()
}

/// Clock ticks a second (`getconf CLK_TCK`; Linux's is 100).
fn clock_ticks() -> f64 {
    static HZ: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *HZ.get_or_init(|| {
        output(Command::new("getconf").arg("CLK_TCK"))
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(100.0)
    })
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

/// Two servers on one PostgreSQL, loaded at once: the scale-out the design promises.
/// `filled`: the ids of the runs loaded in for the one server's cold reads, read again
/// here, half through each server.
fn two_servers(
    cluster: &Cluster,
    filled: Option<&Path>,
    plan: &Plan,
    results: &mut Results,
) -> Result<()> {
    const NAME: &str = "2 servers, one PostgreSQL";
    let secs = plan.form.secs;
    let setup = Setup::new(NAME, Some(&cluster.url()));
    let (a, b) = (setup.start(plan)?, setup.start(plan)?);
    // Players and seeds are the database's: any server takes them.
    let ready = prepare(NAME, &a, plan, &plan.bodies)?;
    let halves = split_in_two(&plan.bodies, Framing::Bodies)?;
    ripen(NAME, ready.issued, plan.form.mode);
    step(&format!(
        "{NAME}: POST /v1/submit to both at once for {secs} s (two wrk)"
    ));
    let before = [writers(&a), writers(&b)];
    let (mut reports, cpu) = both(&a, &b, &halves, |url, bodies| submit_run(url, plan, bodies))?;
    for ((report, server), before) in reports.iter_mut().zip([&a, &b]).zip(before) {
        if let (Some(before), Some(after)) = (before, writers(server)) {
            report.grouped(&before, &after);
        }
    }
    reports[0].cpu = Some(cpu);
    for (route, report) in ["POST /v1/submit, server A", "POST /v1/submit, server B"]
        .into_iter()
        .zip(reports)
    {
        results.rows.push(Row {
            backend: NAME,
            route,
            report,
        });
    }
    let Some(filled) = filled else {
        return Ok(());
    };
    let data = cluster.data().join("base");
    empty_caches(NAME, &[&a, &b], Some(cluster), &data, results)?;
    let halves = split_in_two(filled, Framing::Lines)?;
    step(&format!(
        "{NAME}: GET /v1/runs/<id> cold on both at once, half the filled runs each (two wrk)"
    ));
    let (mut reports, cpu) = both(&a, &b, &halves, |url, ids| cold_run(url, plan, ids, None))?;
    reports[0].cpu = Some(cpu);
    for (route, report) in [
        "GET /v1/runs/<id> cold, server A",
        "GET /v1/runs/<id> cold, server B",
    ]
    .into_iter()
    .zip(reports)
    {
        results.rows.push(Row {
            backend: NAME,
            route,
            report,
        });
    }
    Ok(())
}

/// `run` against servers `a` and `b` at once, each with its own file: their reports, and
/// the CPU both runs took together.
fn both(
    a: &Server,
    b: &Server,
    files: &[PathBuf; 2],
    run: impl Fn(&str, &Path) -> Result<Report> + Sync,
) -> Result<(Vec<Report>, Cpu)> {
    let mark = CpuMark::now(&[a, b]);
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
    Ok((reports, mark.since(&[a, b])))
}

/// How a file splits into items: bodies after their length and token, or lines.
#[derive(Clone, Copy, PartialEq)]
enum Framing {
    Bodies,
    Lines,
}

/// `path` in two halves (alternate items), for two servers.
fn split_in_two(path: &Path, framing: Framing) -> Result<[PathBuf; 2]> {
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

/// A name as a file name.
fn slug(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// The wrk command, without its URL and script arguments.
fn wrk_flags(secs: u64, connections: u32) -> Vec<String> {
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
fn wrk(url: &str, secs: u64, script: Option<(&Path, &[&str])>) -> Result<Report> {
    wrk_with(url, secs, WRK_CONNECTIONS, script)
}

/// [`wrk`] over `connections` connections.
fn wrk_with(
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
struct Report {
    requests: u64,
    secs: f64,
    rps: f64,
    p50_us: f64,
    p99_us: f64,
    /// Non-2xx or 3xx answers plus socket errors.
    errors: u64,
    submit: Option<SubmitCounts>,
    /// Submissions a commit, on average (group commit).
    group: Option<f64>,
    /// Statements and round trips a submission, on average (PostgreSQL's writers).
    trips: Option<(f64, f64)>,
    /// A cold run that read nearly every stored run: its rate is a floor set by how many
    /// runs there were, not a measure of the server.
    exhausted: bool,
    /// Where the machine's CPU went meanwhile.
    cpu: Option<Cpu>,
    raw: String,
}

/// The submit script's counts.
#[derive(Debug, Default, PartialEq)]
struct SubmitCounts {
    ok: u64,
    ranked: u64,
    no: u64,
    other: u64,
    ran_out: bool,
    first_no: String,
}

impl Report {
    fn parse(text: &str) -> Result<Report> {
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
    fn verified_per_sec(&self) -> Option<f64> {
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

/// `POST /v1/seeds` for `mode` as the player with `token`: the seed.
fn issue(addr: &str, token: &str, mode: Mode) -> Result<u64> {
    let bearer = format!("Bearer {token}");
    let request = serde_json::to_vec(&typepper_api::SeedRequest { mode: mode.key() })?;
    let (status, body) = http(
        addr,
        "POST",
        "/v1/seeds",
        &[
            ("Authorization", &bearer),
            ("Content-Type", "application/json"),
        ],
        &request,
    )?;
    if status != 201 {
        bail!(
            "a seed request answered {status}: {}",
            String::from_utf8_lossy(&body)
        );
    }
    let seed: typepper_api::IssuedSeed =
        serde_json::from_slice(&body).context("reading an issued seed")?;
    Ok(seed.seed)
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

/// One submission: a round of BLITZ 60s on `seed` with its true claim.
pub(crate) fn body(seed: u64) -> Result<Vec<u8>> {
    body_in(Mode::BLITZ_60, seed)
}

/// One submission: a round of `mode` on `seed` with its true claim. The typist's speed
/// varies with the seed, as a crowd's would.
fn body_in(mode: Mode, seed: u64) -> Result<Vec<u8>> {
    let typist = Typist {
        wpm: 50 + (seed % 80) as u32,
        accuracy: 94 + (seed % 6) as u32,
        seed,
        ..Typist::default()
    };
    let replay = synth(mode, seed, &typist);
    let (_, score) = replay
        .play()
        .map_err(|e| anyhow::anyhow!("a synthesized round does not play: {e}"))?;
    let bytes = replay.encode();
    Ok(typepper_api::submission([(
        score.headline().value,
        &bytes[..],
    )]))
}

/// Links a player named `name` and returns its token.
pub(crate) fn link(addr: &str, name: &str) -> Result<String> {
    let new = typepper_api::NewPlayer { name: name.into() };
    let (status, body) = http(
        addr,
        "POST",
        "/v1/players",
        &[("Content-Type", "application/json")],
        &serde_json::to_vec(&new)?,
    )?;
    if status != 201 {
        bail!(
            "linking a player answered {status}: {}",
            String::from_utf8_lossy(&body)
        );
    }
    let linked: typepper_api::Player =
        serde_json::from_slice(&body).context("reading the linked player")?;
    Ok(linked.token)
}

/// Submits one body of one round and returns its run id.
pub(crate) fn submit_one(addr: &str, token: &str, submission: &[u8]) -> Result<String> {
    let bearer = format!("Bearer {token}");
    let (status, body) = http(
        addr,
        "POST",
        "/v1/submit",
        &[
            ("Authorization", &bearer),
            ("Content-Type", "application/octet-stream"),
        ],
        submission,
    )?;
    let text = String::from_utf8_lossy(&body);
    if status != 200 {
        bail!("submitting a round answered {status}: {text}");
    }
    match text.trim_end().parse::<Line>()? {
        Line::Ok { id, .. } => Ok(id),
        Line::No { why, .. } => bail!("the server refused a synthesized round: {why}"),
    }
}

/// The median and the 99th percentile of `values`, which are not empty.
pub(crate) fn p50_p99(mut values: Vec<f64>) -> (f64, f64) {
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99))
}

/// One HTTP/1.1 request on a fresh connection: the status and the body.
pub(crate) fn http(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Result<(u16, Vec<u8>)> {
    let mut s = TcpStream::connect(addr).with_context(|| format!("connecting to {addr}"))?;
    s.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        let _ = write!(head, "{k}: {v}\r\n");
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes())?;
    s.write_all(body)?;
    let mut answer = vec![];
    s.read_to_end(&mut answer)
        .with_context(|| format!("reading the answer to {method} {path}"))?;
    let end = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .context("an answer without a blank line after its head")?;
    let head = String::from_utf8_lossy(&answer[..end]).to_ascii_lowercase();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .with_context(|| format!("no status in {head:?}"))?;
    let body = answer[end + 4..].to_vec();
    let body = if head.contains("transfer-encoding: chunked") {
        dechunk(&body)?
    } else {
        body
    };
    Ok((status, body))
}

/// A chunked body's bytes.
fn dechunk(mut rest: &[u8]) -> Result<Vec<u8>> {
    let mut out = vec![];
    loop {
        let eol = rest
            .windows(2)
            .position(|w| w == b"\r\n")
            .context("a chunk size without its line end")?;
        let size = std::str::from_utf8(&rest[..eol])?;
        let size = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16)?;
        rest = &rest[eol + 2..];
        if size == 0 {
            return Ok(out);
        }
        let chunk = rest.get(..size).context("a chunk cut short")?;
        out.extend_from_slice(chunk);
        rest = rest
            .get(size + 2..)
            .context("a chunk without its line end")?;
    }
}

fn env_number(var: &str, default: u64) -> Result<u64> {
    match std::env::var(var) {
        Ok(v) => v
            .trim()
            .parse()
            .with_context(|| format!("{var}={v:?} is not a whole number")),
        Err(_) => Ok(default),
    }
}

/// The machine line: cores, CPU model, and the file system the databases lived on
/// (SQLite syncs every commit, so the disk matters).
pub(crate) fn machine() -> String {
    let cores = output(&mut Command::new("nproc")).map_or_else(
        || {
            std::thread::available_parallelism()
                .map_or(0, |n| n.get())
                .to_string()
        },
        |n| n.trim().to_owned(),
    );
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|v| v.trim_start_matches([' ', '\t', ':']).trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let tmp = std::env::temp_dir();
    let fs = output(Command::new("df").arg("--output=fstype").arg(&tmp))
        .and_then(|t| t.lines().nth(1).map(|l| l.trim().to_owned()))
        .unwrap_or_else(|| "?".into());
    format!(
        "machine: nproc {cores}, {cpu}; databases in {} ({fs})",
        tmp.display()
    )
}

fn print_results(plan: &Plan, results: &Results) {
    let rows = &results.rows;
    println!();
    println!("{}", machine());
    let flags = wrk_flags(plan.form.secs, WRK_CONNECTIONS).join(" ");
    let submit_flags = wrk_flags(plan.form.secs, SUBMIT_CONNECTIONS).join(" ");
    println!("wrk:     wrk {flags} <url>");
    println!(
        "         wrk {submit_flags} -s submit.lua <url>/v1/submit -- <bodies file> {WRK_THREADS}"
    );
    println!(
        "         ({} distinct ranked rounds of {} on issued seeds for each set-up; \
         SQLite: synchronous=FULL, WAL; \"PostgreSQL, fsync off\" is the tests' throwaway \
         cluster, \"PostgreSQL\" syncs every commit)",
        plan.count, plan.form.mode
    );
    println!();
    print!("{}", table(rows));
    println!();
    print!("{}", cpu_table(rows));
    if !results.caches.is_empty() {
        println!();
        println!(
            "cold reads: runs loaded straight in ({} each), read in a shuffled order, each \
             once; before them PostgreSQL was restarted (its own cache, shared_buffers, \
             empty) and the OS's cache of each database's files dropped:",
            plan.form.fill
        );
        for line in &results.caches {
            println!("  {line}");
        }
    }
    if !results.memory.is_empty() {
        println!();
        println!("server memory (RssAnon: its own, not the database's mapped pages):");
        for (what, kib) in &results.memory {
            println!("  {what}: {:.1} MiB", *kib as f64 / 1024.0);
        }
    }
    println!();
    for line in verdicts(rows) {
        println!("{line}");
    }
}

/// Where the CPU went in each run: CPU seconds of the servers, PostgreSQL and wrk, and
/// what was left of the machine's cores over the run.
fn cpu_table(rows: &[Row]) -> String {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get()) as f64;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "where the CPU went (CPU seconds from /proc, of {cores:.0} cores × the run's seconds):"
    );
    let _ = writeln!(
        out,
        "{:<26} {:<33} {:>7} {:>9} {:>10} {:>7} {:>7}",
        "backend", "route", "run s", "server", "PostgreSQL", "wrk", "idle"
    );
    for row in rows {
        let Some(cpu) = &row.report.cpu else {
            continue;
        };
        let servers: f64 = cpu.servers.iter().sum();
        let server = match &cpu.servers[..] {
            [one] => format!("{one:.2}"),
            many => many
                .iter()
                .map(|s| format!("{s:.2}"))
                .collect::<Vec<_>>()
                .join("+"),
        };
        let idle = (cores * cpu.wall - servers - cpu.postgres - cpu.wrk).max(0.0);
        let line = format!(
            "{:<26} {:<33} {:>7.2} {:>9} {:>10.2} {:>7.2} {:>7.2}",
            row.backend,
            row.route.trim_end_matches(", server A"),
            cpu.wall,
            server,
            cpu.postgres,
            cpu.wrk,
            idle
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

fn table(rows: &[Row]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<26} {:<33} {:>9} {:>9} {:>9} {:>8}  notes",
        "backend", "route", "req/s", "p50", "p99", "÷healthz"
    );
    for row in rows {
        let r = &row.report;
        let base = healthz(rows, row.backend);
        let ratio = base.map_or_else(|| "-".into(), |b| percent(r.rps / b));
        let mut notes = vec![];
        if let (Some(s), Some(v)) = (&r.submit, r.verified_per_sec()) {
            notes.push(format!(
                "{} verified/s ({} ok, {} of them ranked; {} no, {} other)",
                thousands(v),
                s.ok,
                s.ranked,
                s.no,
                s.other
            ));
            if s.ran_out {
                notes.push(format!(
                    "bodies ran out before the end: a lower bound (raise {BODIES_VAR})"
                ));
            }
            if !s.first_no.is_empty() {
                notes.push(format!("first refusal: {}", s.first_no));
            }
            if let Some(group) = r.group {
                notes.push(format!("{group:.1} submissions a commit"));
            }
            if let Some((statements, trips)) = r.trips {
                notes.push(format!(
                    "{statements:.1} statements and {trips:.1} round trips a submission"
                ));
            }
        }
        if r.errors > 0 {
            notes.push(format!("{} errors (non-2xx or socket)", r.errors));
        }
        let line = format!(
            "{:<26} {:<33} {:>9} {:>9} {:>9} {:>8}  {}",
            row.backend,
            row.route,
            thousands(r.rps),
            time(r.p50_us),
            time(r.p99_us),
            ratio,
            notes.join("; ")
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// The goals, met or not.
fn verdicts(rows: &[Row]) -> Vec<String> {
    let mut out = vec![];
    let verified = |backend: &str| {
        rows.iter()
            .filter(|r| r.backend == backend)
            .filter_map(|r| r.report.verified_per_sec())
            .sum::<f64>()
    };
    for row in rows {
        let Some(base) = healthz(rows, row.backend) else {
            continue;
        };
        if row.report.exhausted {
            out.push(format!(
                "{}: {} at least {} of /healthz: nearly every filled run was read, so \
                 this is a floor set by how many were filled, not a measure (raise {FILL_VAR})",
                row.backend,
                row.route,
                percent(row.report.rps / base),
            ));
            continue;
        }
        if row.route.starts_with("GET /v1/runs/") {
            let ratio = row.report.rps / base;
            out.push(format!(
                "{}: {} at {} of /healthz (goal ≥ {}): {}",
                row.backend,
                row.route,
                percent(ratio),
                percent(RUNS_GOAL),
                met(ratio >= RUNS_GOAL)
            ));
            if let Some(scripted) = rows
                .iter()
                .find(|r| r.backend == row.backend && r.route == SCRIPTED_HEALTHZ)
                .filter(|s| row.route.ends_with("cold") && !s.report.exhausted)
            {
                let ratio = row.report.rps / scripted.report.rps;
                out.push(format!(
                    "{}: {} at {} of /healthz asked by the same script (goal ≥ {}): {}",
                    row.backend,
                    row.route,
                    percent(ratio),
                    percent(RUNS_GOAL),
                    met(ratio >= RUNS_GOAL)
                ));
            }
        }
    }
    let sqlite = verified("SQLite");
    out.push(format!(
        "SQLite: {} verified runs/s (goal ≥ {}): {}",
        thousands(sqlite),
        thousands(SUBMIT_GOAL),
        met(sqlite >= SUBMIT_GOAL)
    ));
    let each = verified("SQLite, a commit each");
    if each > 0.0 {
        out.push(format!(
            "SQLite: group commit {:.1}× a commit each ({} against {}; goal ≥ 2×): {}",
            sqlite / each,
            thousands(sqlite),
            thousands(each),
            met(sqlite >= 2.0 * each)
        ));
    }
    let tmpfs = verified("SQLite on tmpfs");
    if tmpfs > 0.0 {
        out.push(format!(
            "SQLite: {} of the same server on tmpfs ({}; goal within 25 %): {}",
            percent(sqlite / tmpfs),
            thousands(tmpfs),
            met(sqlite >= 0.75 * tmpfs)
        ));
    }
    let (one, two) = (
        verified("PostgreSQL"),
        verified("2 servers, one PostgreSQL"),
    );
    if one > 0.0 && sqlite > 0.0 {
        out.push(format!(
            "PostgreSQL: {} verified runs/s, {} of SQLite's with group commit (goal ≥ {}): {}; \
             with fsync off {}",
            thousands(one),
            percent(one / sqlite),
            percent(POSTGRES_GOAL),
            met(one >= POSTGRES_GOAL * sqlite),
            thousands(verified("PostgreSQL, fsync off")),
        ));
    }
    if one > 0.0 && two > 0.0 {
        out.push(format!(
            "PostgreSQL: two servers {} verified runs/s together, {:.2}× one server's {}",
            thousands(two),
            two / one,
            thousands(one)
        ));
    }
    let cold = |backend: &str| {
        rows.iter()
            .filter(|r| r.backend == backend && r.route.starts_with("GET /v1/runs/<id> cold"))
            .map(|r| r.report.rps)
            .sum::<f64>()
    };
    let (one, two) = (cold("PostgreSQL"), cold("2 servers, one PostgreSQL"));
    if one > 0.0 && two > 0.0 {
        out.push(format!(
            "PostgreSQL: two servers read {} cold runs/s together, {:.2}× one server's {}",
            thousands(two),
            two / one,
            thousands(one)
        ));
    }
    out
}

fn healthz(rows: &[Row], backend: &str) -> Option<f64> {
    rows.iter()
        .find(|r| r.backend == backend && r.route == "GET /healthz")
        .map(|r| r.report.rps)
}

fn met(yes: bool) -> &'static str {
    if yes { "met" } else { "NOT met" }
}

fn percent(ratio: f64) -> String {
    if ratio < 0.1 {
        format!("{:.1}%", ratio * 100.0)
    } else {
        format!("{:.0}%", ratio * 100.0)
    }
}

/// A rate with thousands separated: `12,345`.
fn thousands(v: f64) -> String {
    let digits = format!("{:.0}", v.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Microseconds as wrk would print them, rounded for a table.
fn time(us: f64) -> String {
    if us < 1_000.0 {
        format!("{us:.0} µs")
    } else if us < 1_000_000.0 {
        format!("{:.2} ms", us / 1e3)
    } else {
        format!("{:.2} s", us / 1e6)
    }
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
    fn times_and_rates_read_and_print() {
        assert_eq!(micros("251.00us").unwrap(), 251.0);
        assert_eq!(micros("2.00m").unwrap(), 120e6);
        assert!(micros("12").is_err());
        assert_eq!(thousands(1_234_567.4), "1,234,567");
        assert_eq!(thousands(999.0), "999");
        assert_eq!(time(251.0), "251 µs");
        assert_eq!(time(24_900.0), "24.90 ms");
        assert_eq!(percent(0.634), "63%");
        assert_eq!(percent(0.018), "1.8%");
    }

    #[test]
    fn chunked_bodies_join() {
        assert_eq!(
            dechunk(b"3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n").unwrap(),
            b"abcde"
        );
        assert!(dechunk(b"5\r\nab").is_err());
    }

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
