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
//! with the statements that don't wait on each other's answers pipelined ([`PgTx`]):
//! three round trips each (its savepoint and reads; its run; its other writes).

mod together;

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use deadpool_postgres::{GenericClient, Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::NoTls;

use super::tx::{self, Arg, Cell, Row, Statement, Tx};
use super::{
    BoardRow, Done, Expiring, Fut, Horizon, IssuedSeed, Job, Known, KnownRound, Options,
    PLAYER_ROWS, Player, PlayerId, Record, RowKey, Run, Store, StoreError,
};

/// Migrations in order; the `schema_migrations` table records which have run.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/postgres/0001_init.sql"),
    include_str!("../../migrations/postgres/0002_trust.sql"),
    include_str!("../../migrations/postgres/0003_keys.sql"),
    include_str!("../../migrations/postgres/0004_guard.sql"),
    include_str!("../../migrations/postgres/0005_guests.sql"),
    include_str!("../../migrations/postgres/0006_saves.sql"),
    include_str!("../../migrations/postgres/0007_rooms.sql"),
];

/// The longest any statement may run: a stuck query becomes an error the request can
/// answer, not a connection held for ever.
pub const STATEMENT_TIMEOUT: Duration = Duration::from_secs(10);

/// PostgreSQL behind [`Store`].
pub struct PgStore {
    pool: Pool,
    /// Submissions waiting for each writer: a player's always go to the same one, so
    /// that two writers never wait on each other for a player's row.
    waiting: Vec<mpsc::UnboundedSender<Waiting>>,
    counts: Arc<Counts>,
}

/// What the writers have done, for the metrics.
#[derive(Default)]
struct Counts {
    /// Transactions committed, and the submissions they carried.
    commits: AtomicU64,
    committed: AtomicU64,
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
struct Waiting {
    job: Job,
    answer: oneshot::Sender<Result<Result<Vec<Done>, String>, StoreError>>,
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

fn uint(v: i32) -> u32 {
    u32::try_from(v).unwrap_or(0)
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
                tokio::spawn(writer(pool, queue, options.group_commit.max(1), counts));
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

    /// A new player row; a name key some row holds already is [`StoreError::NameTaken`].
    fn insert_player(
        &self,
        name: String,
        key: String,
        token_hash: [u8; 32],
        now_ms: i64,
        guest: bool,
    ) -> Fut<'_, Player> {
        Box::pin(async move {
            let c = self.client().await?;
            let s = c
                .prepare_cached(
                    "INSERT INTO players (name, name_key, token_hash, created_ms, guest)
                     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name_key) DO NOTHING RETURNING id",
                )
                .await
                .map_err(db)?;
            let row = c
                .query_opt(&s, &[&name, &key, &&token_hash[..], &now_ms, &guest])
                .await
                .map_err(db)?;
            match row {
                Some(r) => Ok(Player { id: r.get(0), name }),
                None => Err(StoreError::NameTaken(name)),
            }
        })
    }
}

impl Store for PgStore {
    fn create_player(&self, name: String, token_hash: [u8; 32], now_ms: i64) -> Fut<'_, Player> {
        let key = typepper_api::name_key(&name);
        self.insert_player(name, key, token_hash, now_ms, false)
    }

    fn create_guest(&self, name: String, token_hash: [u8; 32], now_ms: i64) -> Fut<'_, Player> {
        let key = super::guest_key(&token_hash);
        self.insert_player(name, key, token_hash, now_ms, true)
    }

    fn player_by_token(&self, token_hash: [u8; 32]) -> Fut<'_, Option<Player>> {
        Box::pin(async move {
            let c = self.client().await?;
            let s = c
                .prepare_cached("SELECT id, name FROM players WHERE token_hash = $1")
                .await
                .map_err(db)?;
            let row = c.query_opt(&s, &[&&token_hash[..]]).await.map_err(db)?;
            Ok(row.map(|r| Player {
                id: r.get(0),
                name: r.get(1),
            }))
        })
    }

    fn link_key(
        &self,
        fingerprint: String,
        player: PlayerId,
        now_ms: i64,
        max_keys: u32,
    ) -> Fut<'_, ()> {
        Box::pin(async move {
            let mut c = self.client().await?;
            let tx = c.transaction().await.map_err(db)?;
            // The player's row, locked: two links at once count their keys one after the
            // other.
            tx.execute("SELECT 1 FROM players WHERE id = $1 FOR UPDATE", &[&player])
                .await
                .map_err(db)?;
            let keys: i64 = tx
                .query_one(
                    "SELECT count(*) FROM player_keys WHERE player_id = $1",
                    &[&player],
                )
                .await
                .map_err(db)?
                .get(0);
            let inserted = if keys < i64::from(max_keys) {
                tx.execute(
                    "INSERT INTO player_keys (fingerprint, player_id, linked_ms)
                     VALUES ($1, $2, $3) ON CONFLICT (fingerprint) DO NOTHING",
                    &[&fingerprint, &player, &now_ms],
                )
                .await
                .map_err(db)?
            } else {
                0
            };
            if inserted == 1 {
                return tx.commit().await.map_err(db);
            }
            let linked = tx
                .query_opt(
                    "SELECT p.id, p.name FROM player_keys k JOIN players p ON p.id = k.player_id
                     WHERE k.fingerprint = $1",
                    &[&fingerprint],
                )
                .await
                .map_err(db)?;
            match linked {
                Some(r) if r.get::<_, PlayerId>(0) == player => Ok(()),
                Some(r) => Err(StoreError::KeyLinked(r.get(1))),
                None => Err(StoreError::TooManyKeys(
                    u32::try_from(keys).unwrap_or(u32::MAX),
                )),
            }
        })
    }

    fn player_by_key(&self, fingerprint: String) -> Fut<'_, Option<Player>> {
        Box::pin(async move {
            let c = self.client().await?;
            let s = c
                .prepare_cached(
                    "SELECT p.id, p.name FROM player_keys k JOIN players p ON p.id = k.player_id
                     WHERE k.fingerprint = $1",
                )
                .await
                .map_err(db)?;
            let row = c.query_opt(&s, &[&fingerprint]).await.map_err(db)?;
            Ok(row.map(|r| Player {
                id: r.get(0),
                name: r.get(1),
            }))
        })
    }

    fn saves(&self, player: PlayerId) -> Fut<'_, Vec<(String, String)>> {
        Box::pin(async move {
            let c = self.client().await?;
            let s = c
                .prepare_cached("SELECT key, value FROM saves WHERE player_id = $1 ORDER BY key")
                .await
                .map_err(db)?;
            let rows = c.query(&s, &[&player]).await.map_err(db)?;
            Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
        })
    }

    fn save(
        &self,
        player: PlayerId,
        key: String,
        value: Option<String>,
        now_ms: i64,
    ) -> Fut<'_, ()> {
        Box::pin(async move {
            let c = self.client().await?;
            match &value {
                Some(value) => {
                    let s = c
                        .prepare_cached(
                            "INSERT INTO saves (player_id, key, value, saved_ms)
                             VALUES ($1, $2, $3, $4)
                             ON CONFLICT (player_id, key)
                             DO UPDATE SET value = excluded.value, saved_ms = excluded.saved_ms",
                        )
                        .await
                        .map_err(db)?;
                    c.execute(&s, &[&player, &key, value, &now_ms])
                        .await
                        .map_err(db)?
                }
                None => {
                    let s = c
                        .prepare_cached("DELETE FROM saves WHERE player_id = $1 AND key = $2")
                        .await
                        .map_err(db)?;
                    c.execute(&s, &[&player, &key]).await.map_err(db)?
                }
            };
            Ok(())
        })
    }

    fn issue_seed(&self, seed: IssuedSeed, max_open: u32) -> Fut<'_, ()> {
        Box::pin(async move {
            let mut c = self.client().await?;
            let tx = c.transaction().await.map_err(db)?;
            let s = tx
                .prepare_cached(
                    "INSERT INTO seeds (seed, player_id, mode, issued_ms, expires_ms)
                     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (seed) DO NOTHING",
                )
                .await
                .map_err(db)?;
            let inserted = tx
                .execute(
                    &s,
                    &[
                        &(seed.seed as i64),
                        &seed.player,
                        &seed.mode,
                        &seed.issued_ms,
                        &seed.expires_ms,
                    ],
                )
                .await
                .map_err(db)?;
            if inserted == 0 {
                return Err(StoreError::SeedTaken(seed.seed));
            }
            let s = tx
                .prepare_cached(
                    "DELETE FROM seeds WHERE seed IN (
                         SELECT seed FROM seeds
                         WHERE player_id = $1 AND run_id IS NULL AND expires_ms >= $2
                         ORDER BY issued_ms DESC, seed OFFSET $3)",
                )
                .await
                .map_err(db)?;
            tx.execute(&s, &[&seed.player, &seed.issued_ms, &i64::from(max_open)])
                .await
                .map_err(db)?;
            tx.commit().await.map_err(db)
        })
    }

    fn live_seed(&self, seed: u64, until_ms: i64) -> Fut<'_, ()> {
        Box::pin(async move {
            let c = self.client().await?;
            let s = c
                .prepare_cached(
                    "INSERT INTO room_seeds (seed, until_ms) VALUES ($1, $2)
                     ON CONFLICT (seed) DO UPDATE SET until_ms = excluded.until_ms",
                )
                .await
                .map_err(db)?;
            c.execute(&s, &[&(seed as i64), &until_ms])
                .await
                .map_err(db)?;
            Ok(())
        })
    }

    fn name_taken(&self, name: String) -> Fut<'_, bool> {
        Box::pin(async move {
            let c = self.client().await?;
            let s = c
                .prepare_cached(
                    "SELECT EXISTS (SELECT 1 FROM players WHERE name_key = $1 AND NOT guest)",
                )
                .await
                .map_err(db)?;
            let row = c
                .query_one(&s, &[&typepper_api::name_key(&name)])
                .await
                .map_err(db)?;
            Ok(row.get(0))
        })
    }

    fn submit(&self, job: Job) -> Fut<'_, Result<Vec<Done>, String>> {
        // Queued now, as SQLite's writer queues: what is asked together waits together.
        let (answer, answered) = oneshot::channel();
        let writer = job.player.unsigned_abs() as usize % self.waiting.len();
        let sent = self.waiting[writer].send(Waiting { job, answer }).is_ok();
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
        Some((
            self.counts.commits.load(Ordering::Relaxed),
            self.counts.committed.load(Ordering::Relaxed),
        ))
    }

    fn round_trips(&self) -> Option<(u64, u64)> {
        Some((
            self.counts.statements.load(Ordering::Relaxed),
            self.counts.round_trips.load(Ordering::Relaxed),
        ))
    }

    fn run(&self, id: String) -> Fut<'_, Option<Run>> {
        Box::pin(async move {
            let c = self.client().await?;
            tx::run(&mut PgTx::new(&c), &id).await
        })
    }

    fn board(&self, mode: String, month: String, limit: u32) -> Fut<'_, Vec<BoardRow>> {
        Box::pin(async move {
            let c = self.client().await?;
            let s = c
                .prepare_cached(
                    "SELECT p.name, b.score, b.wpm_x100, r.accuracy_x100, b.run_id, b.created_ms
                     FROM bests b JOIN players p ON p.id = b.player_id JOIN runs r ON r.id = b.run_id
                     WHERE b.mode = $1 AND b.month = $2
                     ORDER BY b.score DESC, b.wpm_x100 DESC, b.created_ms ASC, b.player_id ASC
                     LIMIT $3",
                )
                .await
                .map_err(db)?;
            let rows = c
                .query(&s, &[&mode, &month, &i64::from(limit)])
                .await
                .map_err(db)?;
            Ok(rows
                .iter()
                .enumerate()
                .map(|(i, r)| BoardRow {
                    rank: i as u32 + 1,
                    name: r.get(0),
                    score: uint(r.get(1)),
                    wpm_x100: uint(r.get(2)),
                    accuracy_x100: uint(r.get(3)),
                    run: r.get(4),
                    created_ms: r.get(5),
                })
                .collect())
        })
    }

    fn expired(
        &self,
        kind: Expiring,
        horizon: Horizon,
        after: RowKey,
        batch: u32,
    ) -> Fut<'_, Vec<RowKey>> {
        Box::pin(async move {
            let c = self.client().await?;
            let ((table, key), expired) = (kind.table(), expired_when(kind));
            let (at, [a, b]) = (horizon.bound(kind), after.args());
            let sql = format!(
                "SELECT {key} FROM {table} WHERE {expired} AND ({key}) > ($2, $3)
                 ORDER BY {key} LIMIT $4"
            );
            let rows = c
                .query(&sql, &[&at, &a, &b, &i64::from(batch)])
                .await
                .map_err(db)?;
            Ok(rows
                .iter()
                .map(|r| match kind {
                    Expiring::Runs => RowKey::Run(r.get(0), r.get(1)),
                    Expiring::Seeds => RowKey::Seed(r.get(0), r.get(1)),
                    Expiring::Usage => RowKey::Usage(r.get(0), r.get(1)),
                    Expiring::Players => RowKey::Player(r.get(0)),
                    Expiring::RoomSeeds => RowKey::Seed(r.get(0), r.get(1)),
                })
                .collect())
        })
    }

    fn delete_expired(
        &self,
        kind: Expiring,
        horizon: Horizon,
        after: RowKey,
        through: RowKey,
    ) -> Fut<'_, u64> {
        Box::pin(async move {
            let mut c = self.client().await?;
            let ((table, key), expired) = (kind.table(), expired_when(kind));
            let (at, [a, b], [y, z]) = (horizon.bound(kind), after.args(), through.args());
            let range = format!("{expired} AND ({key}) > ($2, $3) AND ({key}) <= ($4, $5)");
            let params: [&(dyn tokio_postgres::types::ToSql + Sync); 5] = [&at, &a, &b, &y, &z];
            let tx = c.transaction().await.map_err(db)?;
            if kind == Expiring::Players {
                // Locked, so that a submission that starts meanwhile waits, then finds no
                // player (its token no longer links) rather than a half-deleted one; and
                // one that stored a run first makes the player used, and kept.
                let ids: Vec<PlayerId> = tx
                    .query(
                        &format!("SELECT id FROM players WHERE {range} ORDER BY id FOR UPDATE"),
                        &params,
                    )
                    .await
                    .map_err(db)?
                    .iter()
                    .map(|r| r.get(0))
                    .collect();
                for rows in PLAYER_ROWS {
                    tx.execute(
                        &format!("DELETE FROM {rows} WHERE player_id = ANY($1)"),
                        &[&ids],
                    )
                    .await
                    .map_err(db)?;
                }
                let n = tx
                    .execute(
                        "DELETE FROM players WHERE id = ANY($1) AND NOT used",
                        &[&ids],
                    )
                    .await
                    .map_err(db)?;
                tx.commit().await.map_err(db)?;
                return Ok(n);
            }
            let n = tx
                .execute(&format!("DELETE FROM {table} WHERE {range}"), &params)
                .await
                .map_err(db)?;
            tx.commit().await.map_err(db)?;
            Ok(n)
        })
    }

    fn hide_run(&self, id: String) -> Fut<'_, bool> {
        Box::pin(async move {
            let mut c = self.client().await?;
            let tx = c.transaction().await.map_err(db)?;
            // The player's row first, as a submission takes it, then the run's: two
            // transactions that take them in one order never wait on each other.
            let found = tx
                .query_opt("SELECT player_id, mode FROM runs WHERE id = $1", &[&id])
                .await
                .map_err(db)?;
            let Some(row) = found else {
                return Ok(false);
            };
            let (player, mode): (PlayerId, String) = (row.get(0), row.get(1));
            tx.execute("SELECT 1 FROM players WHERE id = $1 FOR UPDATE", &[&player])
                .await
                .map_err(db)?;
            tx.execute("UPDATE runs SET hidden = true WHERE id = $1", &[&id])
                .await
                .map_err(db)?;
            let on_board = "player_id = $1 AND mode = $2 AND unranked IS NULL
                            AND pending IS NULL AND NOT hidden";
            for sql in [
                "DELETE FROM bests WHERE player_id = $1 AND mode = $2".to_owned(),
                format!(
                    "INSERT INTO bests (player_id, mode, month, run_id, score, wpm_x100, created_ms)
                     SELECT DISTINCT ON (month) player_id, mode, month, id, score, wpm_x100, created_ms
                     FROM runs WHERE {on_board}
                     ORDER BY month, score DESC, wpm_x100 DESC, created_ms"
                ),
                "DELETE FROM pbs WHERE player_id = $1 AND mode = $2".to_owned(),
                format!(
                    "INSERT INTO pbs (player_id, mode, score, wpm_x100)
                     SELECT player_id, mode, score, wpm_x100 FROM runs WHERE {on_board}
                     ORDER BY score DESC, wpm_x100 DESC LIMIT 1"
                ),
            ] {
                tx.execute(&sql, &[&player, &mode]).await.map_err(db)?;
            }
            // Its record, the best left on the boards, as of any day.
            tx.execute(
                "UPDATE players SET best_day = NULL, record_x100 = NULL,
                     best_x100 = (SELECT max(wpm_x100) FROM bests WHERE player_id = $1)
                 WHERE id = $1",
                &[&player],
            )
            .await
            .map_err(db)?;
            tx.commit().await.map_err(db)?;
            Ok(true)
        })
    }

    fn ban_player(&self, name: String) -> Fut<'_, Option<String>> {
        Box::pin(async move {
            let mut c = self.client().await?;
            let tx = c.transaction().await.map_err(db)?;
            let banned = tx
                .query_opt(
                    "UPDATE players SET banned = true WHERE id = (
                         SELECT id FROM players WHERE lower(name) = lower($1) OR name_key = $2
                         ORDER BY lower(name) = lower($1) DESC, id LIMIT 1)
                     RETURNING id, name",
                    &[&name, &typepper_api::name_key(&name)],
                )
                .await
                .map_err(db)?;
            let Some(row) = banned else {
                return Ok(None);
            };
            let (id, banned): (PlayerId, String) = (row.get(0), row.get(1));
            for sql in [
                "UPDATE runs SET hidden = true WHERE player_id = $1",
                "DELETE FROM bests WHERE player_id = $1",
                "DELETE FROM pbs WHERE player_id = $1",
            ] {
                tx.execute(sql, &[&id]).await.map_err(db)?;
            }
            tx.commit().await.map_err(db)?;
            Ok(Some(banned))
        })
    }
}

/// What makes a row of `kind` expired, reading its horizon ([`Horizon::bound`]) as $1.
fn expired_when(kind: Expiring) -> &'static str {
    match kind {
        Expiring::Runs => {
            "created_ms < $1 AND NOT EXISTS (SELECT 1 FROM bests WHERE bests.run_id = runs.id)"
        }
        Expiring::Seeds => "expires_ms < $1",
        Expiring::Usage => "day < $1",
        Expiring::Players => "created_ms < $1 AND NOT used",
        Expiring::RoomSeeds => "until_ms < $1",
    }
}

/// A writer: takes the submissions waiting (up to `group`), does them in one transaction
/// on a connection of `pool`'s, each in a savepoint of its own, commits once, and answers
/// each. Submissions given up on are skipped, and those past their deadline refused.
async fn writer(
    pool: Pool,
    mut queue: mpsc::UnboundedReceiver<Waiting>,
    group: usize,
    counts: Arc<Counts>,
) {
    while let Some(first) = queue.recv().await {
        let mut batch = vec![first];
        while batch.len() < group {
            match queue.try_recv() {
                Ok(w) => batch.push(w),
                Err(_) => break,
            }
        }
        let now = Instant::now();
        let mut todo = Vec::with_capacity(batch.len());
        for w in batch {
            if w.answer.is_closed() {
                continue;
            }
            if now > w.job.deadline {
                let _ = w.answer.send(Err(StoreError::Late));
                continue;
            }
            todo.push(w);
        }
        if todo.is_empty() {
            continue;
        }
        let mut jobs: Vec<&mut Job> = todo.iter_mut().map(|w| &mut w.job).collect();
        match commit_group(&pool, &mut jobs, &counts).await {
            Ok(done) => {
                counts.commits.fetch_add(1, Ordering::Relaxed);
                counts
                    .committed
                    .fetch_add(todo.len() as u64, Ordering::Relaxed);
                for (w, done) in todo.into_iter().zip(done) {
                    let _ = w.answer.send(done);
                }
            }
            Err(e) => {
                for w in todo {
                    let _ = w.answer.send(Err(e.again()));
                }
            }
        }
    }
}

/// What became of one submission of a group.
type Outcome = Result<Result<Vec<Done>, String>, StoreError>;

/// Does `jobs` in one transaction: those that may, together; the rest one by one, each
/// in a savepoint of its own. What became of each, once committed; or why none was.
async fn commit_group(
    pool: &Pool,
    jobs: &mut [&mut Job],
    counts: &Counts,
) -> Result<Vec<Outcome>, StoreError> {
    let (players, locks) = locks_of(jobs);
    let mut c = pool.get().await.map_err(pool_error)?;
    let tx = c.transaction().await.map_err(db)?;
    counts.sent(1);
    lock(&tx, &players, &locks, counts).await?;
    let mut out: Vec<Option<Outcome>> = jobs.iter().map(|_| None).collect();
    let (both, mut alone) = together::split(jobs);
    if both.len() > 1 {
        let (done, after) = together::run(&tx, jobs, &both, counts).await.map_err(db)?;
        for (i, outcome) in done {
            out[i] = Some(Ok(outcome));
        }
        alone.extend(after);
        // In the order they came: a job sharing something with an earlier one follows it.
        alone.sort_unstable();
    } else {
        alone = (0..jobs.len()).collect();
    }
    for i in alone {
        // The savepoint goes out with the job's first reads.
        let done = tx::submit(&mut PgTx::counted(&tx, counts, "SAVEPOINT work"), jobs[i]).await;
        // A failed job's writes go, and the group goes on; a plan that stores nothing
        // wrote nothing. The savepoint is not released: the next job's, of the same
        // name, hides it, and the commit ends them all (a round trip a job less).
        if done.is_err() {
            run_sql(&tx, "ROLLBACK TO SAVEPOINT work", counts).await?;
        }
        out[i] = Some(done);
    }
    tx.commit().await.map_err(db)?;
    counts.sent(1);
    Ok(out
        .into_iter()
        .map(|o| o.unwrap_or_else(|| Err(StoreError::Db("a submission was left undone".into()))))
        .collect())
}

/// Runs one statement with no parameters, counted.
async fn run_sql(tx: &impl GenericClient, sql: &str, counts: &Counts) -> Result<(), StoreError> {
    tx.batch_execute(sql).await.map_err(db)?;
    counts.sent(1);
    Ok(())
}

/// What a group of `jobs` locks: its players, and a lock id for each of their keys (its
/// first eight bytes) and seeds; each sorted, once.
fn locks_of(jobs: &[&mut Job]) -> (Vec<PlayerId>, Vec<i64>) {
    let mut players: Vec<PlayerId> = jobs.iter().map(|j| j.player).collect();
    players.sort_unstable();
    players.dedup();
    let mut locks: Vec<i64> = jobs
        .iter()
        .flat_map(|j| {
            j.keys
                .iter()
                .map(|k| i64::from_le_bytes([k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7]]))
                .chain(j.seeds.iter().map(|&s| s as i64))
        })
        .collect();
    locks.sort_unstable();
    locks.dedup();
    (players, locks)
}

/// Locks the rows of `players`, then the advisory `locks`, each in order, in one round
/// trip: two groups sharing a player or a key can't each wait on the other, and two
/// rounds on one seed (a copy and its original) are judged one after the other.
async fn lock(
    tx: &impl GenericClient,
    players: &[PlayerId],
    locks: &[i64],
    counts: &Counts,
) -> Result<(), StoreError> {
    let rows = async {
        let s = tx
            .prepare_cached("SELECT 1 FROM players WHERE id = ANY($1) ORDER BY id FOR UPDATE")
            .await?;
        tx.execute(&s, &[&players]).await
    };
    let advisory = async {
        if locks.is_empty() {
            return Ok(0);
        }
        let s = tx
            .prepare_cached(
                "SELECT pg_advisory_xact_lock(k) FROM unnest($1::bigint[]) AS k ORDER BY k",
            )
            .await?;
        tx.execute(&s, &[&locks]).await
    };
    // Sent in this order, and run in it: the rows, then the advisory locks.
    tokio::try_join!(rows, advisory).map_err(db)?;
    counts.sent(2);
    Ok(())
}

/// Every stored round with one of `keys`, and the latest on each of `seeds`; each once.
async fn rounds(
    tx: &impl GenericClient,
    keys: &[[u8; 32]],
    seeds: &[u64],
) -> Result<Vec<KnownRound>, StoreError> {
    let found = rounds_found(tx, keys, seeds).await.map_err(db)?;
    let mut seen = HashSet::new();
    Ok(found
        .into_iter()
        .map(|(_, round)| round)
        .filter(|r| seen.insert((r.key, r.run.clone())))
        .collect())
}

/// Every stored round with one of `keys`, and the latest on each of `seeds`, each with
/// the seed it was found on (`None`: by its key); a round found both ways is there twice.
async fn rounds_found(
    tx: &impl GenericClient,
    keys: &[[u8; 32]],
    seeds: &[u64],
) -> Result<Vec<(Option<u64>, KnownRound)>, tokio_postgres::Error> {
    if keys.is_empty() && seeds.is_empty() {
        return Ok(vec![]);
    }
    let wanted: Vec<&[u8]> = keys.iter().map(|k| &k[..]).collect();
    let on: Vec<i64> = seeds.iter().map(|&s| s as i64).collect();
    let s = tx
        .prepare_cached(&format!(
            "WITH found AS (
                 SELECT NULL::bigint AS via, * FROM rounds WHERE round_key = ANY($1)
                 UNION ALL
                 SELECT s.seed, l.* FROM unnest($2::bigint[]) AS s(seed), LATERAL (
                     SELECT * FROM rounds WHERE rounds.seed = s.seed
                     ORDER BY created_ms DESC LIMIT {}) l)
             SELECT k.round_key, k.run_id, k.player_id, k.blocks, k.mode, k.seed, k.prefix,
                    r.score, r.unranked, r.pending, r.id IS NOT NULL, k.via
             FROM found k LEFT JOIN runs r ON r.id = k.run_id",
            super::ROUNDS_ON_A_SEED
        ))
        .await?;
    let rows = tx.query(&s, &[&wanted, &on]).await?;
    Ok(rows
        .iter()
        .filter_map(|r| {
            let key: &[u8] = r.get(0);
            let on = match (r.get::<_, Option<String>>(4), r.get::<_, Option<i64>>(5)) {
                (Some(mode), Some(seed)) => Some((mode, seed as u64, r.get(6))),
                _ => None,
            };
            let via = r.get::<_, Option<i64>>(11).map(|s| s as u64);
            let round = KnownRound {
                key: key.try_into().ok()?,
                run: r.get(1),
                player: r.get(2),
                blocks: r.get(3),
                on,
                stored: r
                    .get::<_, bool>(10)
                    .then(|| (uint(r.get(7)), super::standing(r.get(8), r.get(9)))),
            };
            Some((via, round))
        })
        .collect())
}

async fn seeds(
    tx: &impl GenericClient,
    wanted: &[u64],
) -> Result<Vec<IssuedSeed>, tokio_postgres::Error> {
    if wanted.is_empty() {
        return Ok(vec![]);
    }
    let bits: Vec<i64> = wanted.iter().map(|&s| s as i64).collect();
    let s = tx
        .prepare_cached(
            "SELECT seed, player_id, mode, issued_ms, expires_ms, run_id, false
             FROM seeds WHERE seed = ANY($1)
             UNION ALL
             SELECT seed, 0, '', 0, until_ms, NULL, true
             FROM room_seeds WHERE seed = ANY($1)",
        )
        .await?;
    let rows = tx.query(&s, &[&bits]).await?;
    Ok(rows
        .iter()
        .map(|r| IssuedSeed {
            seed: r.get::<_, i64>(0) as u64,
            player: r.get(1),
            mode: r.get(2),
            issued_ms: r.get(3),
            expires_ms: r.get(4),
            run: r.get(5),
            room: r.get(6),
        })
        .collect())
}

/// A connection of the pool's, or a transaction on one, as a [`Tx`]; counting its
/// statements and round trips if it is a writer's.
struct PgTx<'a, C> {
    c: &'a C,
    counts: Option<&'a Counts>,
    /// A statement to send ahead of the reads of [`Tx::known`], in their round trip.
    lead: Option<&'static str>,
}

impl<'a, C> PgTx<'a, C> {
    fn new(c: &'a C) -> PgTx<'a, C> {
        PgTx {
            c,
            counts: None,
            lead: None,
        }
    }

    /// A writer's: its statements counted, and `lead` sent with its first reads.
    fn counted(c: &'a C, counts: &'a Counts, lead: &'static str) -> PgTx<'a, C> {
        PgTx {
            c,
            counts: Some(counts),
            lead: Some(lead),
        }
    }

    /// `statements` sent together, one round trip.
    fn sent(&self, statements: usize) {
        if let Some(counts) = self.counts {
            counts.sent(statements);
        }
    }
}

impl tokio_postgres::types::ToSql for Arg<'_> {
    fn to_sql(
        &self,
        ty: &tokio_postgres::types::Type,
        out: &mut bytes::BytesMut,
    ) -> Result<tokio_postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>> {
        // Each value checks its own column's type.
        match self {
            Arg::I32(v) => v.to_sql_checked(ty, out),
            Arg::I64(v) => v.to_sql_checked(ty, out),
            Arg::Text(v) => v.to_sql_checked(ty, out),
            Arg::MaybeText(v) => v.to_sql_checked(ty, out),
            Arg::Bytes(v) => v.to_sql_checked(ty, out),
        }
    }

    fn accepts(_: &tokio_postgres::types::Type) -> bool {
        true
    }

    tokio_postgres::types::to_sql_checked!();
}

/// The parameters of a statement.
fn params<'a>(args: &'a [Arg<'_>]) -> Vec<&'a (dyn tokio_postgres::types::ToSql + Sync)> {
    args.iter()
        .map(|a| a as &(dyn tokio_postgres::types::ToSql + Sync))
        .collect()
}

impl<C: GenericClient> Tx for PgTx<'_, C> {
    async fn execute(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<u64, StoreError> {
        self.sent(1);
        execute(self.c, sql, args).await
    }

    async fn insert(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<bool, StoreError> {
        self.sent(1);
        let s = self.c.prepare_cached(sql).await.map_err(db)?;
        match self.c.execute(&s, &params(args)).await {
            Ok(_) => Ok(true),
            Err(e) => {
                let taken = e.as_db_error().is_some_and(|d| {
                    *d.code() == tokio_postgres::error::SqlState::UNIQUE_VIOLATION
                        && d.constraint().is_some_and(|c| c.ends_with("_pkey"))
                });
                if taken { Ok(false) } else { Err(db(e)) }
            }
        }
    }

    async fn query(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<Vec<Row>, StoreError> {
        self.sent(1);
        let s = self.c.prepare_cached(sql).await.map_err(db)?;
        let rows = self.c.query(&s, &params(args)).await.map_err(db)?;
        rows.iter().map(row).collect()
    }

    async fn rounds(
        &mut self,
        keys: &[[u8; 32]],
        seeds: &[u64],
    ) -> Result<Vec<KnownRound>, StoreError> {
        self.sent(1);
        rounds(self.c, keys, seeds).await
    }

    async fn seeds(&mut self, wanted: &[u64]) -> Result<Vec<IssuedSeed>, StoreError> {
        self.sent(1);
        seeds(self.c, wanted).await.map_err(db)
    }

    async fn execute_all(&mut self, statements: &[Statement<'_>]) -> Result<Vec<u64>, StoreError> {
        // Polled together, tokio-postgres sends them all before reading an answer, and
        // PostgreSQL runs them in the order sent.
        let each = statements
            .iter()
            .map(|(sql, args)| execute(self.c, sql, args));
        let changed = futures_util::future::try_join_all(each).await?;
        self.sent(statements.len());
        Ok(changed)
    }

    async fn known(
        &mut self,
        player: PlayerId,
        day: &str,
        keys: &[[u8; 32]],
        on: &[u64],
    ) -> Result<Known, StoreError> {
        let c = self.c;
        let lead = self.lead.take();
        let (mut a, mut b, mut d) = (PgTx::new(c), PgTx::new(c), PgTx::new(c));
        let ((), rounds, seeds, usage, record, pending) = tokio::try_join!(
            async {
                match lead {
                    Some(sql) => c.batch_execute(sql).await.map_err(db),
                    None => Ok(()),
                }
            },
            rounds(c, keys, on),
            async { seeds(c, on).await.map_err(db) },
            tx::usage(&mut a, player, day),
            tx::record(&mut b, player, day),
            tx::pending(&mut d, player),
        )?;
        self.sent(5 + usize::from(lead.is_some()));
        Ok(Known {
            rounds,
            seeds,
            usage,
            record: Record { pending, ..record },
        })
    }
}

/// Runs `sql`, prepared once per connection; how many rows it changed.
async fn execute<C: GenericClient>(c: &C, sql: &str, args: &[Arg<'_>]) -> Result<u64, StoreError> {
    let s = c.prepare_cached(sql).await.map_err(db)?;
    c.execute(&s, &params(args)).await.map_err(db)
}

/// A PostgreSQL row as [`Cell`]s, by each column's type.
fn row(r: &tokio_postgres::Row) -> Result<Row, StoreError> {
    use tokio_postgres::types::Type;
    let cells = r.columns().iter().enumerate().map(|(i, column)| {
        let cell = match *column.type_() {
            Type::INT4 => r.try_get::<_, Option<i32>>(i)?.map(|v| Cell::Int(v.into())),
            Type::INT8 => r.try_get::<_, Option<i64>>(i)?.map(Cell::Int),
            Type::BOOL => r
                .try_get::<_, Option<bool>>(i)?
                .map(|v| Cell::Int(v.into())),
            Type::BYTEA => r.try_get::<_, Option<Vec<u8>>>(i)?.map(Cell::Bytes),
            _ => r.try_get::<_, Option<String>>(i)?.map(Cell::Text),
        };
        Ok(cell.unwrap_or(Cell::Null))
    });
    cells
        .collect::<Result<_, tokio_postgres::Error>>()
        .map(Row)
        .map_err(db)
}
