//! typepper's server: re-plays every submitted replay to score it, stores runs, and
//! serves raw replays, boards, share pages and the game itself.
//!
//! How it works:
//! 1. [`server::Server`] is the whole server: started from its options (ports, database,
//!    settings), it serves every door until stopped; `main` only parses flags and waits.
//!    [`app`] builds the HTTP surface as an axum `Router` over a [`Shared`]; tests drive
//!    it with `tower::ServiceExt::oneshot`, no socket needed. [`serve`] runs it on a
//!    listener, with a cap on connections and timeouts on slow or idle clients, until a
//!    shutdown future resolves.
//! 2. Every door (the HTTP routes, `v1` over SSH and the game played there, the live
//!    rooms) is a thin door onto one service: typed operations on [`Shared`] that own
//!    the limits, verification, metrics and refusals ([`ServiceError`]).
//! 3. A submission (`POST /v1/submit`) is judged in [`submit`] off the async workers:
//!    each replay's header is read first, then it is decoded, played through the engine,
//!    checked against its claim and for what a person could have typed, and stored in one
//!    transaction that refuses copies of stored rounds and ranks only rounds played on a
//!    seed the server issued (`POST /v1/seeds`). Every check, and why, is in
//!    `docs/TRUST.md`.
//! 4. Runs and players live behind [`store::Store`]: SQLite embedded by default,
//!    PostgreSQL in production. A background sweep ([`sweep`]) deletes expired runs.
//!
//! ```no_run
//! # async fn run() -> anyhow::Result<()> {
//! use typepper_server::server::{Options, Server, stop_signal};
//! use typepper_server::{Config, store};
//!
//! // SQLite in ./data, the game's files from ., on a port the system picks.
//! let database = store::Options::new(None, std::path::Path::new("data"));
//! let config = Config::new("http://127.0.0.1:8080", ".".into());
//! let server = Server::start(Options::new("127.0.0.1:0".parse()?, database, config)).await?;
//! println!("{}", server.announce());
//! server.run(stop_signal()).await?;
//! # Ok(()) }
//! ```

mod account;
mod cache;
pub mod card;
pub mod client;
pub mod config;
mod daily;
mod defaults;
mod devices;
mod http;
mod limit;
pub mod metrics;
pub mod operator;
mod players;
mod profile;
pub mod refusal;
pub mod rooms;
mod secrets;
mod seeds;
pub mod serve;
pub mod server;
mod service;
mod settings;
pub mod ssh;
pub mod store;
pub mod submit;
pub mod sweep;

use std::net::IpAddr;
use std::sync::Arc;

pub use config::Config;
pub use http::{app, metrics_app};
pub use seeds::{MAX_OPEN_SEEDS, SEED_LIFETIME_MS};
pub use serve::{Limits, serve};
pub use service::ServiceError;

use crate::limit::Limiter;
use crate::store::{PlayerId, Store};

/// Unix milliseconds now; a test can set the clock.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

/// The service's state: everything its operations ([`service`]) and every door share.
pub struct Shared {
    /// The database.
    pub store: Arc<dyn Store>,
    /// The settings.
    pub config: Config,
    /// The wall clock, for run times, months and retention.
    pub clock: Clock,
    ip_limit: Limiter<IpAddr>,
    /// Runs submitted, per player.
    player_limit: Limiter<PlayerId>,
    /// Players linked, per IP.
    register_limit: Limiter<IpAddr>,
    /// Device codes asked for, per player.
    code_limit: Limiter<PlayerId>,
    /// Device codes tried, per IP.
    claim_limit: Limiter<IpAddr>,
    /// Archives asked for, per player.
    export_limit: Limiter<PlayerId>,
    /// At most this many submissions are verified at once: verification is CPU work.
    verifying: tokio::sync::Semaphore,
    /// Runs recently served.
    runs: cache::RunCache,
    /// Profiles served lately.
    profiles: profile::Profiles,
    /// Runs' cards drawn.
    cards: Arc<card::Cards>,
    /// What the server has done, for `GET /metrics`.
    pub metrics: metrics::Metrics,
    /// Connections open now ([`serve`] counts them).
    pub connections: Arc<std::sync::atomic::AtomicUsize>,
    /// Bytes of `v1 submit` bodies the SSH server holds now.
    ssh_body_bytes: std::sync::atomic::AtomicUsize,
    /// The live rooms this process holds.
    pub rooms: rooms::Rooms,
    /// The games played over SSH now.
    games: Arc<ssh::Games>,
    /// The dailies' seeds read so far.
    dailies: daily::Seeds,
}

impl Shared {
    /// A server's state over `store`, reading the system clock.
    pub fn new(store: Arc<dyn Store>, config: Config) -> Shared {
        let clock: Clock = Arc::new(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as i64)
        });
        Shared::with_clock(store, config, clock)
    }

    /// A server's state reading `clock` for the time.
    pub fn with_clock(store: Arc<dyn Store>, config: Config, clock: Clock) -> Shared {
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        Shared {
            ip_limit: Limiter::new(config.ip_rate, config.ip_rate.saturating_mul(2)),
            // A full body of runs must fit in one burst, or an outbox could never be sent.
            player_limit: Limiter::new(
                config.player_rate,
                config
                    .player_rate
                    .saturating_mul(10)
                    .max(submit::MAX_ENTRIES as u32),
            ),
            register_limit: Limiter::hourly(config.register_per_hour, config.register_per_hour),
            code_limit: Limiter::hourly(devices::CODES_PER_HOUR, devices::CODES_PER_HOUR / 2),
            claim_limit: Limiter::hourly(devices::CLAIMS_PER_HOUR, devices::CLAIMS_PER_HOUR / 3),
            export_limit: Limiter::hourly(account::EXPORTS_PER_HOUR, 2),
            verifying: tokio::sync::Semaphore::new(cpus * 2),
            runs: cache::RunCache::new(config.cache_bytes),
            profiles: profile::Profiles::default(),
            cards: Arc::new(card::Cards::new(config.card_cache_bytes)),
            metrics: metrics::Metrics::default(),
            connections: Arc::default(),
            ssh_body_bytes: std::sync::atomic::AtomicUsize::new(0),
            rooms: rooms::Rooms::new(&config),
            games: Arc::new(ssh::Games::new(config.ssh.games_per_ip, config.ssh.games)),
            dailies: daily::Seeds::default(),
            store,
            config,
            clock,
        }
    }

    /// Unix milliseconds now.
    pub fn now_ms(&self) -> i64 {
        (self.clock)()
    }

    /// A submission by `player` now, under the server's quotas and watch.
    pub fn submission(&self, player: PlayerId) -> submit::Submission {
        submit::Submission {
            player,
            now_ms: self.now_ms(),
            quota: submit::Quota {
                runs: self.config.daily_runs,
                bytes: self.config.daily_bytes,
            },
            watch: self.config.watch,
            new_id: secrets::run_id,
            live: None,
            guest: false,
        }
    }

    /// The serving limits its settings give, counting connections for its metrics.
    pub fn limits(&self) -> Limits {
        Limits {
            open: self.connections.clone(),
            ..Limits::of(&self.config)
        }
    }

    /// `GET /metrics`'s text.
    pub fn metrics_text(&self) -> String {
        self.metrics.render(&metrics::Gauges {
            connections: self.connections.load(std::sync::atomic::Ordering::Relaxed),
            cache: self.runs.stats(),
            cards: self.cards.stats(),
            limiter_keys: self.ip_limit.len(),
            ssh_games: self.games.playing(),
            rooms: (self.rooms.rooms_open(), self.rooms.connections_open()),
            relay: self.rooms.relay.get().map(|r| {
                let count =
                    |n: &std::sync::atomic::AtomicU64| n.load(std::sync::atomic::Ordering::Relaxed);
                (count(&r.sent), count(&r.statements))
            }),
            ssh_body_bytes: self
                .ssh_body_bytes
                .load(std::sync::atomic::Ordering::Relaxed),
            commits: self.store.commits(),
            round_trips: self.store.round_trips(),
        })
    }
}

/// The largest request body: one MiB, checked before anything is decoded.
pub const MAX_BODY: usize = typepper_engine::MAX_BYTES;

/// `s` safe in HTML or SVG, as an element's text or an attribute's value.
pub(crate) fn escape_markup(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `YYYY-MM` (UTC) of unix milliseconds.
pub fn month_of(unix_ms: i64) -> String {
    typepper_api::Utc::of(unix_ms).month()
}

#[cfg(test)]
mod tests {
    #[test]
    fn months_are_utc_calendar_months() {
        assert_eq!(super::month_of(0), "1970-01");
        assert_eq!(super::month_of(1_796_154_720_000), "2026-12");
        assert_eq!(super::month_of(951_868_799_999), "2000-02");
        assert_eq!(super::month_of(951_868_800_000), "2000-03");
    }
}
