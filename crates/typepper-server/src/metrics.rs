//! What the server has done, in Prometheus' text format, for the operator: `GET /metrics`
//! on its own listen address (`--metrics-listen`), off by default, so that nothing of it
//! is ever on the public port.
//!
//! Counters are plain atomics and small maps (routes and refusal kinds are a fixed,
//! short list), so counting costs a request next to nothing. Times are histograms with
//! fixed buckets, from 100 µs to 10 s.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds of the time buckets, in seconds.
const BUCKETS: [f64; 11] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 1.0, 10.0,
];

/// A histogram of durations.
#[derive(Default)]
pub struct Histogram {
    counts: [AtomicU64; BUCKETS.len()],
    count: AtomicU64,
    /// In microseconds.
    sum_us: AtomicU64,
}

impl Histogram {
    /// Counts one duration.
    pub fn observe(&self, d: Duration) {
        let secs = d.as_secs_f64();
        for (bound, count) in BUCKETS.iter().zip(&self.counts) {
            if secs <= *bound {
                count.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_us.fetch_add(
            d.as_micros().try_into().unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
    }

    fn write(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        for (bound, count) in BUCKETS.iter().zip(&self.counts) {
            let _ = writeln!(
                out,
                "{name}_bucket{{le=\"{bound}\"}} {}",
                count.load(Ordering::Relaxed)
            );
        }
        let count = self.count.load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let sum = self.sum_us.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "{name}_sum {sum}\n{name}_count {count}");
    }
}

/// Everything counted.
#[derive(Default)]
pub struct Metrics {
    /// Requests by route (the matched pattern) and status. Looked up by the borrowed
    /// route, so a request allocates nothing here once its route has been seen.
    requests: Mutex<BTreeMap<String, BTreeMap<u16, u64>>>,
    /// Submitted rounds by outcome: `ranked`, `unranked`, `again`, or the refusal's kind.
    rounds: Mutex<BTreeMap<&'static str, u64>>,
    /// Playing and checking one submission's rounds.
    pub verify: Histogram,
    /// Waiting on the database: a submission's transaction, a read.
    pub db: Histogram,
}

/// What the metrics read from elsewhere when they are asked for.
pub struct Gauges {
    /// Connections open now.
    pub connections: usize,
    /// The run cache.
    pub cache: crate::cache::Stats,
    /// Runs' cards.
    pub cards: crate::card::Stats,
    /// Keys the per-IP limiter holds.
    pub limiter_keys: usize,
    /// Bytes of `v1 submit` bodies the SSH server holds while they arrive.
    pub ssh_body_bytes: usize,
    /// Games played over SSH now.
    pub ssh_games: usize,
    /// Live rooms open here now, and connections to rooms (here and elsewhere) through
    /// this process.
    pub rooms: (usize, usize),
    /// Notes the rooms' relay sent to other processes, and the statements that carried
    /// them, if it runs.
    pub relay: Option<(u64, u64)>,
    /// The store's commits and the work they carried, if it groups them.
    pub commits: Option<(u64, u64)>,
    /// The store's writers' statements and round trips, if it counts them.
    pub round_trips: Option<(u64, u64)>,
}

impl Metrics {
    /// Counts a request to `route` answered `status`.
    pub fn request(&self, route: &str, status: u16) {
        let mut requests = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        let statuses = match requests.get_mut(route) {
            Some(s) => s,
            None => requests.entry(route.to_owned()).or_default(),
        };
        *statuses.entry(status).or_default() += 1;
    }

    /// Counts a submitted round's outcome.
    pub fn round(&self, outcome: &'static str) {
        let mut rounds = self.rounds.lock().unwrap_or_else(|p| p.into_inner());
        *rounds.entry(outcome).or_default() += 1;
    }

    /// Everything, in Prometheus' text format.
    pub fn render(&self, gauges: &Gauges) -> String {
        let mut out = String::new();
        out.push_str("# HELP typepper_requests_total Requests answered, by route and status.\n");
        out.push_str("# TYPE typepper_requests_total counter\n");
        for (route, statuses) in self
            .requests
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
        {
            for (status, n) in statuses {
                let _ = writeln!(
                    out,
                    "typepper_requests_total{{route=\"{}\",status=\"{status}\"}} {n}",
                    label(route)
                );
            }
        }
        out.push_str(
            "# HELP typepper_rounds_total Submitted rounds, by outcome: ranked, unranked, again \
             (a stored round sent again), or the kind of refusal.\n",
        );
        out.push_str("# TYPE typepper_rounds_total counter\n");
        for (outcome, n) in self.rounds.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            let _ = writeln!(out, "typepper_rounds_total{{outcome=\"{outcome}\"}} {n}");
        }
        self.verify.write(
            &mut out,
            "typepper_verify_seconds",
            "Time playing and checking one submission's rounds.",
        );
        self.db.write(
            &mut out,
            "typepper_db_seconds",
            "Time waiting on the database for a submission or a read.",
        );
        let cache = gauges.cache;
        let lines = [
            (
                "typepper_open_connections",
                "gauge",
                "Connections open now.",
                gauges.connections as u64,
            ),
            (
                "typepper_cache_bytes",
                "gauge",
                "Bytes of runs in the run cache.",
                cache.bytes as u64,
            ),
            (
                "typepper_cache_runs",
                "gauge",
                "Runs in the run cache.",
                cache.runs as u64,
            ),
            (
                "typepper_cache_hits_total",
                "counter",
                "Run reads answered from memory.",
                cache.hits,
            ),
            (
                "typepper_cache_misses_total",
                "counter",
                "Run reads that went to the database.",
                cache.misses,
            ),
            (
                "typepper_card_bytes",
                "gauge",
                "Bytes of runs' cards held.",
                gauges.cards.bytes as u64,
            ),
            (
                "typepper_cards_drawn_total",
                "counter",
                "Runs' cards drawn.",
                gauges.cards.drawn,
            ),
            (
                "typepper_limiter_keys",
                "gauge",
                "Addresses the per-IP limit holds.",
                gauges.limiter_keys as u64,
            ),
            (
                "typepper_ssh_body_bytes",
                "gauge",
                "Bytes of v1 submit bodies held over SSH while they arrive.",
                gauges.ssh_body_bytes as u64,
            ),
            (
                "typepper_ssh_games",
                "gauge",
                "Games played over SSH now.",
                gauges.ssh_games as u64,
            ),
            (
                "typepper_rooms",
                "gauge",
                "Live rooms open on this process now.",
                gauges.rooms.0 as u64,
            ),
            (
                "typepper_room_connections",
                "gauge",
                "Connections to live rooms through this process now.",
                gauges.rooms.1 as u64,
            ),
        ];
        let grouped = gauges.commits.map(|(commits, work)| {
            [
                (
                    "typepper_db_commits_total",
                    "counter",
                    "Commits of the database's writers (a flush to disk each).",
                    commits,
                ),
                (
                    "typepper_db_committed_work_total",
                    "counter",
                    "Pieces of work those commits carried (group commit).",
                    work,
                ),
            ]
        });
        let trips = gauges.round_trips.map(|(statements, trips)| {
            [
                (
                    "typepper_db_statements_total",
                    "counter",
                    "Statements the database's writers sent.",
                    statements,
                ),
                (
                    "typepper_db_round_trips_total",
                    "counter",
                    "Round trips those statements took (pipelined ones share one).",
                    trips,
                ),
            ]
        });
        let relay = gauges.relay.map(|(notes, statements)| {
            [
                (
                    "typepper_relay_notes_total",
                    "counter",
                    "Notes the rooms' relay sent to other processes.",
                    notes,
                ),
                (
                    "typepper_relay_statements_total",
                    "counter",
                    "Statements that carried them (a batch each).",
                    statements,
                ),
            ]
        });
        let optional = grouped.into_iter().chain(trips).chain(relay).flatten();
        for (name, kind, help, value) in lines.into_iter().chain(optional) {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
            );
        }
        out
    }
}

/// A label value, escaped as the text format wants.
fn label(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_format_reads_as_prometheus_writes_it() {
        let m = Metrics::default();
        m.request("/v1/runs/{id}", 200);
        m.request("/v1/runs/{id}", 200);
        m.request("/v1/submit", 429);
        m.round("ranked");
        m.round("copy");
        m.verify.observe(Duration::from_micros(300));
        m.db.observe(Duration::from_millis(2));
        let text = m.render(&Gauges {
            connections: 3,
            cache: crate::cache::Stats {
                bytes: 10,
                runs: 1,
                hits: 4,
                misses: 2,
            },
            cards: crate::card::Stats {
                cards: 1,
                bytes: 40_000,
                drawn: 3,
            },
            limiter_keys: 5,
            ssh_body_bytes: 7,
            ssh_games: 2,
            rooms: (4, 31),
            relay: Some((50, 3)),
            commits: Some((2, 9)),
            round_trips: Some((40, 12)),
        });
        for line in [
            "typepper_requests_total{route=\"/v1/runs/{id}\",status=\"200\"} 2",
            "typepper_cards_drawn_total 3",
            "typepper_requests_total{route=\"/v1/submit\",status=\"429\"} 1",
            "typepper_rounds_total{outcome=\"copy\"} 1",
            "typepper_verify_seconds_bucket{le=\"0.0005\"} 1",
            "typepper_verify_seconds_bucket{le=\"0.00025\"} 0",
            "typepper_verify_seconds_count 1",
            "typepper_db_seconds_sum 0.002",
            "typepper_open_connections 3",
            "typepper_cache_hits_total 4",
            "typepper_db_committed_work_total 9",
            "typepper_db_round_trips_total 12",
            "typepper_ssh_body_bytes 7",
            "typepper_ssh_games 2",
            "typepper_rooms 4",
            "typepper_room_connections 31",
            "typepper_relay_notes_total 50",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
        }
        assert_eq!(label("a\"b"), "a\\\"b");
    }
}
