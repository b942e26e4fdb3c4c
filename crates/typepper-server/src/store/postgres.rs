//! PostgreSQL, for production: many server instances over one database.
//!
//! An async client (tokio-postgres) over a pool (deadpool): a request waits on the
//! database without holding a thread, statements are prepared once per connection, and
//! every limit is a number:
//! - connecting, and waiting for a free connection, take at most `--pg-timeout`;
//! - a statement runs at most [`STATEMENT_TIMEOUT`] (the server sets it on each
//!   connection);
//! - a database that can't be reached is [`StoreError::Unavailable`], which the server
//!   answers 503 with `Retry-After`; the pool drops broken connections and opens new ones
//!   when the database is back, so the server recovers without a restart.
//!
//! Submissions are committed in groups, as on SQLite. A server has a few writers
//! (`--pg-writers`), and a player's submissions always go to the same one; the ones
//! waiting for a writer at the same moment share one transaction ([`writer`]), which
//! first locks their players' rows and an advisory lock for each of their rounds'
//! fingerprint keys and seeds, each set taken in order, so that two writers or two
//! instances can't both store one round or both spend one seed, nor wait on each other
//! in a circle. Each submission is answered only once the transaction has committed.
//!
//! The submissions of a group that share no player, key or seed are done together
//! ([`together`]): their reads are one statement a table, their plans run in memory, and
//! their writes are one multi-row statement a table, so a group of any size takes five
//! round trips (begin; its locks; the reads; the writes; commit). The rest are done one
//! by one after them, each in a savepoint of its own so that one that fails fails alone,
//! as a group of one: two round trips each (its savepoint and reads; its writes).
//!
//! Everything else is written once for both backends (`store/`), over [`PgTx`].

mod together;
mod tx;
mod writer;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::NoTls;

use super::backend::{Access, Backend, Work};
use super::group::{Commits, Waiting};
use super::{Done, Fut, Job, Options, StoreError};
use tx::{On, PgTx};

/// Migrations in order; the `schema_migrations` table records which have run.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/postgres/0001_init.sql"),
    include_str!("../../migrations/postgres/0002_trust.sql"),
    include_str!("../../migrations/postgres/0003_keys.sql"),
    include_str!("../../migrations/postgres/0004_guard.sql"),
    include_str!("../../migrations/postgres/0005_guests.sql"),
    include_str!("../../migrations/postgres/0006_saves.sql"),
    include_str!("../../migrations/postgres/0007_rooms.sql"),
    include_str!("../../migrations/postgres/0008_quotes.sql"),
    include_str!("../../migrations/postgres/0009_alltime.sql"),
    include_str!("../../migrations/postgres/0010_devices.sql"),
    include_str!("../../migrations/postgres/0011_deleted.sql"),
    include_str!("../../migrations/postgres/0012_profiles.sql"),
    include_str!("../../migrations/postgres/0013_daily.sql"),
];

/// The longest any statement may run: a stuck query becomes an error the request can
/// answer, not a connection held for ever.
pub const STATEMENT_TIMEOUT: Duration = Duration::from_secs(10);

/// PostgreSQL behind [`Store`].
pub struct PgStore {
    pool: Pool,
    /// Submissions waiting for each writer: a player's always go to the same one, so
    /// that two writers never wait on each other for a player's row.
    waiting: Vec<mpsc::UnboundedSender<Queued>>,
    counts: Arc<Counts>,
}

/// What the writers have done, for the metrics.
#[derive(Default)]
struct Counts {
    /// Transactions committed, and the submissions they carried.
    commits: Commits,
    /// Statements sent, and the round trips they took: pipelined statements share one.
    statements: AtomicU64,
    round_trips: AtomicU64,
}

impl Counts {
    fn sent(&self, statements: usize) {
        self.statements
            .fetch_add(statements as u64, Ordering::Relaxed);
        self.round_trips.fetch_add(1, Ordering::Relaxed);
    }
}

/// A submission waiting for a writer, and where its answer goes.
struct Queued {
    job: Job,
    answer: oneshot::Sender<Result<Result<Vec<Done>, String>, StoreError>>,
}

impl Waiting for Queued {
    fn abandoned(&self) -> bool {
        self.answer.is_closed()
    }

    fn deadline(&self) -> Option<std::time::Instant> {
        Some(self.job.deadline)
    }

    fn late(self) {
        let _ = self.answer.send(Err(StoreError::Late));
    }
}

/// A PostgreSQL error as the store says it: anything but an answer from the database
/// itself (a closed connection, a refused one, a timeout) is worth trying again later.
fn db(e: tokio_postgres::Error) -> StoreError {
    match e.as_db_error() {
        // The database is shutting down or starting up: it will be back.
        Some(d) if d.code().code().starts_with("57P") => {
            StoreError::Unavailable(d.message().to_owned())
        }
        Some(d) => StoreError::Db(d.to_string()),
        None => StoreError::Unavailable(e.to_string()),
    }
}

fn pool_error(e: deadpool_postgres::PoolError) -> StoreError {
    match e {
        deadpool_postgres::PoolError::Backend(e) => db(e),
        other => StoreError::Unavailable(other.to_string()),
    }
}

impl PgStore {
    /// Connects to `url` and runs the migrations not yet run.
    pub async fn open(url: &str, options: &Options) -> anyhow::Result<PgStore> {
        let mut config: tokio_postgres::Config = url.parse()?;
        config.connect_timeout(options.pg_timeout);
        // Not `plan_cache_mode=force_generic_plan`, though it measured faster: a plan made
        // once, when the tables were small, is kept as they grow (docs/PERFORMANCE.md).
        config.options(format!(
            "-c statement_timeout={}",
            STATEMENT_TIMEOUT.as_millis()
        ));
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(options.pg_connections.max(1))
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(options.pg_timeout))
            .create_timeout(Some(options.pg_timeout))
            .recycle_timeout(Some(options.pg_timeout))
            .build()?;
        let mut client = pool.get().await?;
        client
            .batch_execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)",
            )
            .await?;
        for (i, sql) in MIGRATIONS.iter().enumerate() {
            let version = i as i32 + 1;
            let tx = client.transaction().await?;
            // One migrator at a time, even with several servers starting together.
            tx.batch_execute("LOCK TABLE schema_migrations IN EXCLUSIVE MODE")
                .await?;
            let done = tx
                .query_opt(
                    "SELECT 1 FROM schema_migrations WHERE version = $1",
                    &[&version],
                )
                .await?
                .is_some();
            if !done {
                tx.batch_execute(sql).await?;
                tx.execute(
                    "INSERT INTO schema_migrations (version) VALUES ($1)",
                    &[&version],
                )
                .await?;
            }
            tx.commit().await?;
        }
        drop(client);
        let counts = Arc::new(Counts::default());
        let waiting = (0..options.pg_writers.max(1))
            .map(|_| {
                let (waiting, queue) = mpsc::unbounded_channel();
                let (pool, counts) = (pool.clone(), counts.clone());
                let group = options.group_commit.max(1);
                tokio::spawn(writer::writer(pool, queue, group, counts));
                waiting
            })
            .collect();
        Ok(PgStore {
            pool,
            waiting,
            counts,
        })
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool.get().await.map_err(pool_error)
    }
}

impl Backend for PgStore {
    type Tx<'t> = PgTx<'t>;

    fn work<T: Send + 'static>(&self, access: Access, work: impl Work<Self, T>) -> Fut<'_, T> {
        Box::pin(async move {
            let mut c = self.client().await?;
            if access != Access::Transaction {
                return work(&mut PgTx::new(On::Pool(&c))).await;
            }
            // Dropped unfinished (an error, or the request gave up), it rolls back.
            let tx = c.transaction().await.map_err(db)?;
            let done = work(&mut PgTx::new(On::Tx(&tx))).await?;
            tx.commit().await.map_err(db)?;
            Ok(done)
        })
    }

    fn queue(&self, job: Job) -> Fut<'_, Result<Vec<Done>, String>> {
        // Queued now, as SQLite's writer queues: what is asked together waits together.
        let (answer, answered) = oneshot::channel();
        let writer = job.player.unsigned_abs() as usize % self.waiting.len();
        let sent = self.waiting[writer].send(Queued { job, answer }).is_ok();
        let gone = || StoreError::Unavailable("the database's writers have stopped".into());
        Box::pin(async move {
            if !sent {
                return Err(gone());
            }
            // Dropped unanswered (the request gave up), the writer skips it.
            answered.await.map_err(|_| gone())?
        })
    }

    fn commits(&self) -> Option<(u64, u64)> {
        Some(self.counts.commits.get())
    }

    fn round_trips(&self) -> Option<(u64, u64)> {
        Some((
            self.counts.statements.load(Ordering::Relaxed),
            self.counts.round_trips.load(Ordering::Relaxed),
        ))
    }
}
