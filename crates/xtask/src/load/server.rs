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
//!
//! Its parts: [`crowd`] makes the players, seeds and rounds; [`wrk`] runs wrk and reads
//! its report; [`measure`] loads each set-up's routes in turn; [`cold`] empties the caches
//! for the cold reads; [`tables`] prints what was seen.

mod cold;
mod crowd;
mod measure;
mod tables;
mod wrk;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use typepper_engine::Mode;

use crate::e2e::{Server, TempDir};
use crate::install;
use crate::sh::step;
use measure::{measure, measure_together, two_servers};
use tables::{Results, print_results};
use wrk::{COLD_LUA, SUBMIT_LUA, WRK};

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

/// The yardstick of the cold run: `/healthz` asked by the cold run's script.
const SCRIPTED_HEALTHZ: &str = "GET /healthz, scripted";

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
        Setup {
            every_route: true,
            memory: true,
            ..Setup::cold("SQLite", None)
        },
        Setup {
            flags: &["--group-commit", "1"],
            ..Setup::filled("SQLite, a commit each", None)
        },
        Setup {
            data_in: Some(PathBuf::from("/dev/shm")),
            ..Setup::filled("SQLite on tmpfs", None)
        },
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
        let setup = Setup::filled("PostgreSQL, fsync off", Some(url));
        measure(&setup, None, &plan, &mut results).map(drop)
    })
    .and_then(|()| {
        crate::pg::with_durable_cluster(|cluster| {
            let setup = Setup {
                every_route: true,
                ..Setup::cold("PostgreSQL", Some(&cluster.url()))
            };
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
    /// A set-up that loads `/healthz` and submissions only.
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

    /// A set-up on a database filled first.
    fn filled(name: &'static str, database_url: Option<&str>) -> Setup {
        Setup {
            filled: true,
            ..Setup::new(name, database_url)
        }
    }

    /// A set-up on a database filled first, whose runs it then reads cold.
    fn cold(name: &'static str, database_url: Option<&str>) -> Setup {
        Setup {
            cold: true,
            ..Setup::filled(name, database_url)
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

/// The whole number `var` holds, or `default` when it is not set.
fn env_number(var: &str, default: u64) -> Result<u64> {
    match std::env::var(var) {
        Ok(v) => v
            .trim()
            .parse()
            .with_context(|| format!("{var}={v:?} is not a whole number")),
        Err(_) => Ok(default),
    }
}
