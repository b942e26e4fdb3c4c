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
//! A submission is one transaction that first locks its player's row and an advisory lock
//! for each of its rounds' fingerprint keys, taken in order, so that two instances can't
//! both store one round or both spend one seed.

use std::time::{Duration, Instant};

use deadpool_postgres::{GenericClient, Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio_postgres::NoTls;

use super::{
    BoardRow, Done, Fut, Horizon, IssuedSeed, Job, Known, KnownRound, NewRun, Options, Player, Run,
    Step, Store, StoreError, Stored, Swept, Usage,
};

/// Migrations in order; the `schema_migrations` table records which have run.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/postgres/0001_init.sql"),
    include_str!("../../migrations/postgres/0002_trust.sql"),
    include_str!("../../migrations/postgres/0003_keys.sql"),
];

/// The longest any statement may run: a stuck query becomes an error the request can
/// answer, not a connection held for ever.
pub const STATEMENT_TIMEOUT: Duration = Duration::from_secs(10);

/// How many times a plan is run again when a run id it drew is taken.
const ID_TRIES: usize = 3;

/// PostgreSQL behind [`Store`].
pub struct PgStore {
    pool: Pool,
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

/// Postgres integers are signed; every number here fits in them.
fn int(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

fn uint(v: i32) -> u32 {
    u32::try_from(v).unwrap_or(0)
}

impl PgStore {
    /// Connects to `url` and runs the migrations not yet run.
    pub async fn open(url: &str, options: &Options) -> anyhow::Result<PgStore> {
        let mut config: tokio_postgres::Config = url.parse()?;
        config.connect_timeout(options.pg_timeout);
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
        Ok(PgStore { pool })
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool.get().await.map_err(pool_error)
    }
}

fn run_row(r: &tokio_postgres::Row) -> Run {
    Run {
        id: r.get(0),
        player: r.get(1),
        mode: r.get(2),
        score: uint(r.get(3)),
        wpm_x100: uint(r.get(4)),
        accuracy_x100: uint(r.get(5)),
        duration_ms: u32::try_from(r.get::<_, i64>(6)).unwrap_or(0),
        created_ms: r.get(7),
        unranked: r.get(8),
        replay: r.get(9),
    }
}

impl Store for PgStore {
    fn create_player(&self, name: String, token_hash: [u8; 32], now_ms: i64) -> Fut<'_, Player> {
        Box::pin(async move {
            let c = self.client().await?;
            let s = c
                .prepare_cached(
                    "INSERT INTO players (name, name_key, token_hash, created_ms)
                     VALUES ($1, $2, $3, $4) ON CONFLICT (name_key) DO NOTHING RETURNING id",
                )
                .await
                .map_err(db)?;
            let row = c
                .query_opt(
                    &s,
                    &[&name, &name.to_lowercase(), &&token_hash[..], &now_ms],
                )
                .await
                .map_err(db)?;
            match row {
                Some(r) => Ok(Player { id: r.get(0), name }),
                None => Err(StoreError::NameTaken(name)),
            }
        })
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

    fn link_key(&self, fingerprint: String, player: super::PlayerId, now_ms: i64) -> Fut<'_, ()> {
        Box::pin(async move {
            let c = self.client().await?;
            let s = c
                .prepare_cached(
                    "INSERT INTO player_keys (fingerprint, player_id, linked_ms) VALUES ($1, $2, $3)
                     ON CONFLICT (fingerprint) DO UPDATE
                     SET player_id = excluded.player_id, linked_ms = excluded.linked_ms",
                )
                .await
                .map_err(db)?;
            c.execute(&s, &[&fingerprint, &player, &now_ms])
                .await
                .map_err(db)?;
            Ok(())
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

    fn submit(&self, mut job: Job) -> Fut<'_, Result<Vec<Done>, String>> {
        Box::pin(async move {
            let mut c = self.client().await?;
            if Instant::now() > job.deadline {
                return Err(StoreError::Late);
            }
            let mut tx = c.transaction().await.map_err(db)?;
            lock(&tx, job.player, &job.keys).await?;
            let known = Known {
                rounds: rounds(&tx, &job.keys).await?,
                seeds: seeds(&tx, &job.seeds).await?,
                usage: usage(&tx, job.player, &job.day).await?,
            };
            for _ in 0..ID_TRIES {
                let steps = match (job.plan)(&known) {
                    Ok(steps) => steps,
                    // Dropping the transaction rolls it back.
                    Err(why) => return Ok(Err(why)),
                };
                // A taken run id fails the statement, which fails the whole transaction
                // in PostgreSQL: a savepoint keeps the locks and reads above.
                let steps_tx = tx.transaction().await.map_err(db)?;
                match store_steps(&steps_tx, steps).await {
                    Ok(done) => {
                        steps_tx.commit().await.map_err(db)?;
                        tx.commit().await.map_err(db)?;
                        return Ok(Ok(done));
                    }
                    Err(StoreError::IdTaken(_)) => steps_tx.rollback().await.map_err(db)?,
                    Err(e) => return Err(e),
                }
            }
            Err(StoreError::Db("run ids were taken three times".into()))
        })
    }

    fn run(&self, id: String) -> Fut<'_, Option<Run>> {
        Box::pin(async move {
            let c = self.client().await?;
            let s = c
                .prepare_cached(
                    "SELECT r.id, p.name, r.mode, r.score, r.wpm_x100, r.accuracy_x100,
                            r.duration_ms, r.created_ms, r.unranked, r.replay
                     FROM runs r JOIN players p ON p.id = r.player_id WHERE r.id = $1",
                )
                .await
                .map_err(db)?;
            let row = c.query_opt(&s, &[&id]).await.map_err(db)?;
            Ok(row.as_ref().map(run_row))
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

    fn sweep(&self, horizon: Horizon, batch: u32) -> Fut<'_, Swept> {
        Box::pin(async move {
            let mut c = self.client().await?;
            let batch = i64::from(batch);
            let runs = c
                .execute(
                    "DELETE FROM runs WHERE id IN (
                         SELECT id FROM runs
                         WHERE created_ms < $1
                           AND NOT EXISTS (SELECT 1 FROM bests WHERE bests.run_id = runs.id)
                         LIMIT $2)",
                    &[&horizon.runs_before_ms, &batch],
                )
                .await
                .map_err(db)?;
            let seeds = c
                .execute(
                    "DELETE FROM seeds WHERE seed IN (
                         SELECT seed FROM seeds WHERE expires_ms < $1 LIMIT $2)",
                    &[&horizon.seeds_before_ms, &batch],
                )
                .await
                .map_err(db)?;
            c.execute(
                "DELETE FROM usage WHERE (player_id, day) IN (
                     SELECT player_id, day FROM usage WHERE day < $1 LIMIT $2)",
                &[&horizon.usage_before_day, &batch],
            )
            .await
            .map_err(db)?;
            let tx = c.transaction().await.map_err(db)?;
            // Locked, so that a submission that starts meanwhile waits, then finds no
            // player (its token no longer links) rather than a half-deleted one.
            let unused: Vec<i64> = tx
                .query(
                    "SELECT id FROM players WHERE created_ms < $1 AND NOT used
                     ORDER BY id LIMIT $2 FOR UPDATE",
                    &[&horizon.unused_players_before_ms, &batch],
                )
                .await
                .map_err(db)?
                .iter()
                .map(|r| r.get(0))
                .collect();
            for table in ["seeds", "usage"] {
                tx.execute(
                    &format!("DELETE FROM {table} WHERE player_id = ANY($1)"),
                    &[&unused],
                )
                .await
                .map_err(db)?;
            }
            let players = tx
                .execute("DELETE FROM players WHERE id = ANY($1)", &[&unused])
                .await
                .map_err(db)?;
            tx.commit().await.map_err(db)?;
            Ok(Swept {
                runs,
                seeds,
                players,
            })
        })
    }
}

/// Locks `player`'s row and an advisory lock for each key (on its first eight bytes),
/// in order, so that two submissions sharing keys can't each wait on the other.
async fn lock(
    tx: &impl GenericClient,
    player: super::PlayerId,
    keys: &[[u8; 32]],
) -> Result<(), StoreError> {
    let s = tx
        .prepare_cached("SELECT 1 FROM players WHERE id = $1 FOR UPDATE")
        .await
        .map_err(db)?;
    tx.execute(&s, &[&player]).await.map_err(db)?;
    let mut locks: Vec<i64> = keys
        .iter()
        .map(|k| i64::from_le_bytes([k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7]]))
        .collect();
    locks.sort_unstable();
    locks.dedup();
    if !locks.is_empty() {
        let s = tx
            .prepare_cached(
                "SELECT pg_advisory_xact_lock(k) FROM unnest($1::bigint[]) AS k ORDER BY k",
            )
            .await
            .map_err(db)?;
        tx.execute(&s, &[&locks]).await.map_err(db)?;
    }
    Ok(())
}

async fn rounds(tx: &impl GenericClient, keys: &[[u8; 32]]) -> Result<Vec<KnownRound>, StoreError> {
    if keys.is_empty() {
        return Ok(vec![]);
    }
    let wanted: Vec<&[u8]> = keys.iter().map(|k| &k[..]).collect();
    let s = tx
        .prepare_cached(
            "SELECT k.round_key, k.run_id, k.player_id, k.blocks, r.score, r.unranked,
                    r.id IS NOT NULL
             FROM rounds k LEFT JOIN runs r ON r.id = k.run_id
             WHERE k.round_key = ANY($1)",
        )
        .await
        .map_err(db)?;
    let rows = tx.query(&s, &[&wanted]).await.map_err(db)?;
    Ok(rows
        .iter()
        .filter_map(|r| {
            let key: &[u8] = r.get(0);
            Some(KnownRound {
                key: key.try_into().ok()?,
                run: r.get(1),
                player: r.get(2),
                blocks: r.get(3),
                stored: r.get::<_, bool>(6).then(|| (uint(r.get(4)), r.get(5))),
            })
        })
        .collect())
}

async fn seeds(tx: &impl GenericClient, wanted: &[u64]) -> Result<Vec<IssuedSeed>, StoreError> {
    if wanted.is_empty() {
        return Ok(vec![]);
    }
    let bits: Vec<i64> = wanted.iter().map(|&s| s as i64).collect();
    let s = tx
        .prepare_cached(
            "SELECT seed, player_id, mode, issued_ms, expires_ms, run_id
             FROM seeds WHERE seed = ANY($1)",
        )
        .await
        .map_err(db)?;
    let rows = tx.query(&s, &[&bits]).await.map_err(db)?;
    Ok(rows
        .iter()
        .map(|r| IssuedSeed {
            seed: r.get::<_, i64>(0) as u64,
            player: r.get(1),
            mode: r.get(2),
            issued_ms: r.get(3),
            expires_ms: r.get(4),
            run: r.get(5),
        })
        .collect())
}

async fn usage(
    tx: &impl GenericClient,
    player: super::PlayerId,
    day: &str,
) -> Result<Usage, StoreError> {
    let s = tx
        .prepare_cached("SELECT runs, bytes FROM usage WHERE player_id = $1 AND day = $2")
        .await
        .map_err(db)?;
    let row = tx.query_opt(&s, &[&player, &day]).await.map_err(db)?;
    Ok(row.map_or_else(Usage::default, |r| Usage {
        runs: uint(r.get(0)),
        bytes: u64::try_from(r.get::<_, i64>(1)).unwrap_or(0),
    }))
}

/// Does a plan's steps: stores each run, answers the rest.
async fn store_steps(tx: &impl GenericClient, steps: Vec<Step>) -> Result<Vec<Done>, StoreError> {
    let mut done = Vec::with_capacity(steps.len());
    for step in steps {
        done.push(match step {
            Step::Answer(line) => Done::Answered(line),
            Step::Store(run) => {
                let stored = insert(tx, &run).await?;
                Done::Stored(run, stored)
            }
        });
    }
    Ok(done)
}

/// Stores a run and its round, counts it in its player's usage, uses up its seed, and if
/// it is ranked updates the player's monthly best and all-time best.
async fn insert(tx: &impl GenericClient, run: &NewRun) -> Result<Stored, StoreError> {
    let s = tx
        .prepare_cached(
            "INSERT INTO runs (id, player_id, mode, score, wpm_x100, accuracy_x100,
                 duration_ms, created_ms, month, replay, unranked)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .await
        .map_err(db)?;
    let inserted = tx
        .execute(
            &s,
            &[
                &run.id,
                &run.player,
                &run.mode,
                &int(run.score),
                &int(run.wpm_x100),
                &int(run.accuracy_x100),
                &i64::from(run.duration_ms),
                &run.created_ms,
                &run.month,
                &run.replay,
                &run.unranked,
            ],
        )
        .await;
    if let Err(e) = inserted {
        let taken = e
            .as_db_error()
            .is_some_and(|d| d.constraint() == Some("runs_pkey"));
        return Err(if taken {
            StoreError::IdTaken(run.id.clone())
        } else {
            db(e)
        });
    }
    let s = tx
        .prepare_cached(
            "INSERT INTO rounds (round_key, run_id, player_id, blocks, created_ms)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .await
        .map_err(db)?;
    tx.execute(
        &s,
        &[
            &&run.round.key[..],
            &run.id,
            &run.player,
            &run.round.blocks,
            &run.created_ms,
        ],
    )
    .await
    .map_err(db)?;
    let s = tx
        .prepare_cached(
            "INSERT INTO usage (player_id, day, runs, bytes) VALUES ($1, $2, 1, $3)
             ON CONFLICT (player_id, day) DO UPDATE SET
                 runs = usage.runs + 1, bytes = usage.bytes + excluded.bytes",
        )
        .await
        .map_err(db)?;
    tx.execute(&s, &[&run.player, &run.day, &(run.replay.len() as i64)])
        .await
        .map_err(db)?;
    // Writes only a player's first run: after it, no row matches.
    let s = tx
        .prepare_cached("UPDATE players SET used = true WHERE id = $1 AND NOT used")
        .await
        .map_err(db)?;
    tx.execute(&s, &[&run.player]).await.map_err(db)?;
    if let Some(seed) = run.uses_seed {
        let s = tx
            .prepare_cached("UPDATE seeds SET run_id = $1 WHERE seed = $2")
            .await
            .map_err(db)?;
        tx.execute(&s, &[&run.id, &(seed as i64)])
            .await
            .map_err(db)?;
    }
    if run.unranked.is_some() {
        return Ok(Stored { pb: false });
    }
    let s = tx
        .prepare_cached(
            "INSERT INTO bests (player_id, mode, month, run_id, score, wpm_x100, created_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (player_id, mode, month) DO UPDATE SET
                 run_id = excluded.run_id, score = excluded.score,
                 wpm_x100 = excluded.wpm_x100, created_ms = excluded.created_ms
             WHERE excluded.score > bests.score
                OR (excluded.score = bests.score AND excluded.wpm_x100 > bests.wpm_x100)",
        )
        .await
        .map_err(db)?;
    tx.execute(
        &s,
        &[
            &run.player,
            &run.mode,
            &run.month,
            &run.id,
            &int(run.score),
            &int(run.wpm_x100),
            &run.created_ms,
        ],
    )
    .await
    .map_err(db)?;
    let s = tx
        .prepare_cached(
            "INSERT INTO pbs (player_id, mode, score, wpm_x100) VALUES ($1, $2, $3, $4)
             ON CONFLICT (player_id, mode) DO UPDATE SET
                 score = excluded.score, wpm_x100 = excluded.wpm_x100
             WHERE excluded.score > pbs.score
                OR (excluded.score = pbs.score AND excluded.wpm_x100 > pbs.wpm_x100)",
        )
        .await
        .map_err(db)?;
    let pb = tx
        .execute(
            &s,
            &[&run.player, &run.mode, &int(run.score), &int(run.wpm_x100)],
        )
        .await
        .map_err(db)?;
    Ok(Stored { pb: pb > 0 })
}
