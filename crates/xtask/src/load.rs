//! The server's load test, the second half of `cargo xtask bench`.
//!
//! 1. Debian's wrk is installed if missing; the server and the CLI are built for release.
//! 2. For each backend — SQLite in a fresh data dir, PostgreSQL in a throwaway cluster —
//!    the release server starts on port 0 with its rate limits off.
//! 3. Ranked rounds are played on seeds the server issued, as the game plays them: a
//!    crowd of players is linked, each is issued [`SEEDS_EACH`] seeds for BLITZ 60s (the
//!    most one player may hold), and a distinct round is synthesized on every seed, in
//!    this process, into one file of submission bodies (each after its length and its
//!    player's token) that wrk's Lua script reads once. A copy is refused, so every
//!    submit request needs a round of its own.
//! 4. wrk loads each route for the same seconds over the same connections: `/healthz`
//!    (the trivial route, the yardstick), `GET /v1/runs/<id>`, `GET /r/<id>`, and then,
//!    once every seed is older than its round is long (sooner, the server refuses a
//!    round as not played on it), `POST /v1/submit`, whose script counts `ok` (and of
//!    those, ranked) and `no` answers: a verified run is an `ok`, not a 200.
//! 5. One table: requests a second, p50 and p99, and each route's rate against
//!    `/healthz`'s on the same server, with the machine and the wrk command lines.

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
use crate::sh::{output, step};

/// Seconds each route is loaded for, unless this says otherwise.
const SECS_VAR: &str = "TYPEPPER_LOAD_SECS";
const DEFAULT_SECS: u64 = 10;
/// How many submission bodies to make, unless this says otherwise.
const BODIES_VAR: &str = "TYPEPPER_LOAD_BODIES";
/// Bodies made per second of the submit run: eight times the goal of 1,000 verified runs
/// a second, and twice what the 2-core machine this was written on verifies on SQLite
/// (about 3,600), so that running out means a much faster server, and says so.
const BODIES_PER_SEC: u64 = 8_000;

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

/// The cold GET run's seconds: short enough not to run out of stored runs.
const COLD_SECS: u64 = 1;

/// The yardstick of the cold run: `/healthz` asked by the cold run's script.
const SCRIPTED_HEALTHZ: &str = "GET /healthz, scripted";

/// Seeds issued to each player of the crowd: the most one player may hold.
const SEEDS_EACH: u32 = typepper_api::MAX_OPEN_SEEDS;

/// Threads asking for seeds at once: enough that the writer commits many together.
const ISSUERS: usize = 16;

/// The rounds' mode, and how long one lasts.
const MODE: Mode = Mode::BLITZ_60;
const ROUND: Duration = Duration::from_secs(60);

/// The submit script. Each thread reads the bodies file once in `init` and takes every
/// n-th body; `response` sorts answers into ok / no / other; `done` prints the counts
/// on one line for [`Report::parse`]. When a thread's bodies run out it stops rather
/// than send a duplicate (which would be a cheap refusal, not a verification).
const SUBMIT_LUA: &str = r#"-- cargo xtask bench: POST /v1/submit, a distinct round each request.
-- args: <bodies file> <threads> <ids file prefix>
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
  -- The stored runs' ids, for the cold GET /v1/runs/<id> run after this one.
  ids_out = assert(io.open(args[3] .. "." .. tid, "w"))
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
    ids_out:write(body:sub(4, 11), "\n")
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

/// GET /v1/runs/<id> over every stored run once, in turn: none was read before, so none
/// is in the server's run cache and each is a database read.
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
  if id == nil then
    wrk.thread:stop()
    return wrk.format("GET", "/healthz")
  end
  if instead then
    return wrk.format("GET", instead)
  end
  return wrk.format("GET", "/v1/runs/" .. id)
end
"#;

/// Runs the load test on every set-up whose name contains `only` (all when empty) and
/// prints the tables.
pub fn run(only: &str) -> Result<()> {
    install::debian(&["wrk"], Path::new(WRK))?;
    let server = crate::build::release_server()?;
    let secs = env_number(SECS_VAR, DEFAULT_SECS)?;
    let count = env_number(BODIES_VAR, secs * BODIES_PER_SEC)?;
    let dir = TempDir::new("typepper-load")?;
    let plan = Plan {
        secs,
        count,
        bodies: dir.0.join("bodies"),
        script: dir.0.join("submit.lua"),
        server,
    };
    std::fs::write(&plan.script, SUBMIT_LUA)?;

    let mut results = Results::default();
    let sqlite = [
        Setup::new("SQLite", None).every_route().memory(),
        Setup::new("SQLite, a commit each", None).flags(&["--group-commit", "1"]),
        Setup::new("SQLite on tmpfs", None).data_in(Path::new("/dev/shm")),
    ];
    let wanted = |name: &str| name.to_lowercase().contains(&only.to_lowercase());
    let sqlite: Vec<Setup> = sqlite.into_iter().filter(|s| wanted(s.name)).collect();
    if let Err(e) = measure_together(&sqlite, &plan, &mut results) {
        print_results(&plan, &results);
        return Err(e.context("the load test on SQLite failed"));
    }
    if !wanted("postgresql") {
        print_results(&plan, &results);
        return Ok(());
    }
    let pg = crate::pg::with_cluster(|url| {
        let setup = Setup::new("PostgreSQL, fsync off", Some(url)).every_route();
        measure(&setup, &plan, &mut results)
    })
    .and_then(|()| {
        crate::pg::with_durable_cluster(|url| {
            let setup = Setup::new("PostgreSQL", Some(url)).every_route();
            measure(&setup, &plan, &mut results)?;
            two_servers(url, &plan, &mut results)
        })
    });
    print_results(&plan, &results);
    pg.map_err(|e| e.context("the PostgreSQL part of the load test failed"))
}

/// What every set-up's run shares.
struct Plan {
    secs: u64,
    count: u64,
    bodies: PathBuf,
    script: PathBuf,
    server: PathBuf,
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
    step(&format!(
        "{name}: linking {players} players and issuing each {SEEDS_EACH} seeds for {MODE}"
    ));
    let started = Instant::now();
    let seeds = issue_seeds(&addr, &tag, players, ISSUERS)?;
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
    std::fs::write(bodies, self::bodies(&seeds, workers)?)
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

/// Waits until every seed issued at `issued` is older than a round lasts.
fn ripen(name: &str, issued: Instant) {
    let ripe = issued + ROUND + Duration::from_secs(1);
    if let Some(wait) = ripe.checked_duration_since(Instant::now()) {
        step(&format!(
            "{name}: waiting {:.0} s, until the last seed is older than a round",
            wait.as_secs_f64()
        ));
        std::thread::sleep(wait);
    }
}

/// The submit run against `url`, with `bodies`; the stored runs' ids go to `ids`.
fn submit_run(url: &str, plan: &Plan, bodies: &Path, ids: &Path) -> Result<Report> {
    let threads = WRK_THREADS.to_string();
    let (bodies, ids) = (bodies.to_string_lossy(), ids.to_string_lossy());
    let args = [bodies.as_ref(), threads.as_str(), ids.as_ref()];
    let report = wrk_with(
        &format!("{url}/v1/submit"),
        plan.secs,
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

/// Every stored run's id (the submit run wrote them a thread a file).
fn stored_ids(prefix: &Path) -> Result<PathBuf> {
    let mut all = String::new();
    for t in 0..WRK_THREADS {
        all.push_str(
            &std::fs::read_to_string(format!("{}.{t}", prefix.display())).unwrap_or_default(),
        );
    }
    let path = prefix.with_extension("all");
    std::fs::write(&path, &all)?;
    Ok(path)
}

/// GET /v1/runs/<id> over every run in `ids`, each once, for a second; or, with
/// `instead`, that path as often, wrk doing the same work a request (the yardstick for a
/// scripted run: the script costs wrk's core time a request that plain wrk does not).
fn cold_run(url: &str, plan: &Plan, ids: &Path, instead: Option<&str>) -> Result<Report> {
    let cold_script = plan.script.with_file_name("cold.lua");
    std::fs::write(&cold_script, COLD_LUA)?;
    let count = std::fs::read_to_string(ids)?.lines().count();
    // One second: wrk counts its whole duration even after the ids run out, so the run
    // must end first (a second takes fewer ids than the submissions stored, as checked).
    let ids_arg = ids.to_string_lossy();
    let mut args = vec![ids_arg.as_ref()];
    args.extend(instead);
    let mut report = wrk(
        &format!("{url}/v1/runs/x"),
        COLD_SECS,
        Some((&cold_script, &args)),
    )?;
    report.exhausted = report.requests * 10 >= count as u64 * 9;
    Ok(report)
}

/// Loads one set-up's routes, in the order that lets its seeds age meanwhile.
fn measure(setup: &Setup, plan: &Plan, results: &mut Results) -> Result<()> {
    measure_together(std::slice::from_ref(setup), plan, results)
}

/// Loads several set-ups: each is readied (its crowd, seeds and rounds) and its reads
/// loaded first, then their submissions run one right after another, so that the disk
/// they are compared on is the same disk, minutes apart at most.
fn measure_together(setups: &[Setup], plan: &Plan, results: &mut Results) -> Result<()> {
    let mut ready = vec![];
    for setup in setups {
        let name = setup.name;
        let server = setup.start(plan)?;
        if setup.memory
            && let Some(kib) = server.rss_kib()
        {
            results.memory.push((format!("{name}: started"), kib));
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
            step(&format!("{name}: {route} for {} s (wrk)", plan.secs));
            let report = wrk(&target, plan.secs, None)?;
            results.rows.push(Row {
                backend: name,
                route,
                report,
            });
        }
        ready.push((setup, server, r, bodies));
    }
    for (setup, server, r, bodies) in &ready {
        let name = setup.name;
        ripen(name, r.issued);
        step(&format!(
            "{name}: POST /v1/submit for {} s, a new ranked round each request (wrk)",
            plan.secs
        ));
        let ids = plan.script.with_file_name(format!("ids-{}", slug(name)));
        let before = writers(server);
        let mut report = submit_run(&server.url, plan, bodies, &ids)?;
        if let (Some(a), Some(b)) = (before, writers(server)) {
            report.grouped(&a, &b);
        }
        results.rows.push(Row {
            backend: name,
            route: "POST /v1/submit",
            report,
        });
    }
    for (setup, server, r, _) in &ready {
        let name = setup.name;
        if setup.every_route {
            // Every run the submissions stored, each fetched once: the database, uncached.
            let ids = plan.script.with_file_name(format!("ids-{}", slug(name)));
            let all = stored_ids(&ids)?;
            step(&format!(
                "{name}: GET /v1/runs/<id> over the stored runs, each once (wrk)"
            ));
            let report = cold_run(&server.url, plan, &all, Some("/healthz"))?;
            results.rows.push(Row {
                backend: name,
                route: SCRIPTED_HEALTHZ,
                report,
            });
            let report = cold_run(&server.url, plan, &all, None)?;
            results.rows.push(Row {
                backend: name,
                route: "GET /v1/runs/<id> cold",
                report,
            });
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
    Ok(())
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
fn two_servers(url: &str, plan: &Plan, results: &mut Results) -> Result<()> {
    const NAME: &str = "2 servers, one PostgreSQL";
    let setup = Setup::new(NAME, Some(url));
    let (a, b) = (setup.start(plan)?, setup.start(plan)?);
    // Players and seeds are the database's: any server takes them.
    let ready = prepare(NAME, &a, plan, &plan.bodies)?;
    let halves = split_bodies(&plan.bodies)?;
    ripen(NAME, ready.issued);
    step(&format!(
        "{NAME}: POST /v1/submit to both at once for {} s (two wrk)",
        plan.secs
    ));
    let ids: Vec<PathBuf> = ["a", "b"]
        .iter()
        .map(|s| plan.script.with_file_name(format!("ids-two-{s}")))
        .collect();
    let before = [writers(&a), writers(&b)];
    let mut reports = std::thread::scope(|s| {
        let runs: Vec<_> = [&a, &b]
            .iter()
            .zip(&halves)
            .zip(&ids)
            .map(|((server, bodies), ids)| {
                let url = server.url.clone();
                s.spawn(move || submit_run(&url, plan, bodies, ids))
            })
            .collect();
        runs.into_iter()
            .map(|r| r.join().unwrap_or_else(|_| bail!("a wrk thread panicked")))
            .collect::<Result<Vec<_>>>()
    })?;
    for ((report, server), before) in reports.iter_mut().zip([&a, &b]).zip(before) {
        if let (Some(before), Some(after)) = (before, writers(server)) {
            report.grouped(&before, &after);
        }
    }
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
    step(&format!(
        "{NAME}: GET /v1/runs/<id> cold on both at once (two wrk)"
    ));
    let reports = std::thread::scope(|s| {
        let runs: Vec<_> = [&a, &b]
            .iter()
            .zip(&ids)
            .map(|(server, ids)| {
                let url = server.url.clone();
                s.spawn(move || cold_run(&url, plan, &stored_ids(ids)?, None))
            })
            .collect();
        runs.into_iter()
            .map(|r| r.join().unwrap_or_else(|_| bail!("a wrk thread panicked")))
            .collect::<Result<Vec<_>>>()
    })?;
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

/// The bodies file in two halves (alternate bodies), for two servers.
fn split_bodies(bodies: &Path) -> Result<[PathBuf; 2]> {
    let all = std::fs::read(bodies)?;
    let mut halves = [vec![], vec![]];
    let (mut rest, mut i) = (&all[..], 0);
    while rest.len() >= 68 {
        let len = u32::from_le_bytes(rest[..4].try_into()?) as usize;
        let end = 68 + len;
        halves[i % 2].extend_from_slice(&rest[..end.min(rest.len())]);
        rest = &rest[end.min(rest.len())..];
        i += 1;
    }
    let paths = [bodies.with_extension("a"), bodies.with_extension("b")];
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
    /// A cold run that read nearly every stored run within its second: its rate is a
    /// floor set by how many runs there were, not a measure of the server.
    exhausted: bool,
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
fn issue_seeds(addr: &str, tag: &str, players: u64, workers: usize) -> Result<Vec<IssuedTo>> {
    let players: Vec<u64> = (0..players).collect();
    fan_out(&players, workers, "issuing seeds", |chunk| {
        let mut out = vec![];
        for p in chunk {
            let token = link(addr, &format!("l{tag}-{p}"))?;
            for _ in 0..SEEDS_EACH {
                out.push((issue(addr, &token)?, token.clone()));
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

/// `POST /v1/seeds` for [`MODE`] as the player with `token`: the seed.
fn issue(addr: &str, token: &str) -> Result<u64> {
    let bearer = format!("Bearer {token}");
    let request = serde_json::to_vec(&typepper_api::SeedRequest { mode: MODE.key() })?;
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

/// The submission bodies of a round on each of `seeds`, each after its length (u32 LE)
/// and its player's token, made on `workers` threads.
fn bodies(seeds: &[IssuedTo], workers: usize) -> Result<Vec<u8>> {
    fan_out(seeds, workers, "typing rounds", |chunk| {
        let mut out = vec![];
        for (seed, token) in chunk {
            let body = body(*seed)?;
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

/// One submission: a round of [`MODE`] on `seed` with its true claim. The typist's speed
/// varies with the seed, as a crowd's would.
pub(crate) fn body(seed: u64) -> Result<Vec<u8>> {
    let typist = Typist {
        wpm: 50 + (seed % 80) as u32,
        accuracy: 94 + (seed % 6) as u32,
        seed,
        ..Typist::default()
    };
    let replay = synth(MODE, seed, &typist);
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
        Line::No(why) => bail!("the server refused a synthesized round: {why}"),
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
    let flags = wrk_flags(plan.secs, WRK_CONNECTIONS).join(" ");
    let submit_flags = wrk_flags(plan.secs, SUBMIT_CONNECTIONS).join(" ");
    println!("wrk:     wrk {flags} <url>");
    println!(
        "         wrk {submit_flags} -s submit.lua <url>/v1/submit -- <bodies file> {WRK_THREADS} <ids>"
    );
    println!(
        "         ({} distinct ranked rounds on issued seeds for each set-up; SQLite: \
         synchronous=FULL, WAL; \"PostgreSQL, fsync off\" is the tests' throwaway cluster, \
         \"PostgreSQL\" syncs every commit)",
        plan.count
    );
    println!();
    print!("{}", table(rows));
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
                "{}: {} at least {} of /healthz: every stored run was read within the \
                 second, so this is a floor set by how many were stored, not a measure",
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
    if one > 0.0 && two > 0.0 {
        out.push(format!(
            "PostgreSQL: two servers {} verified runs/s together, {:.2}× one server's {}",
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
        let all = bodies(&seeds, 3).unwrap();
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
