//! PostgreSQL, for production: many server instances over one database.
//!
//! The `postgres` client is synchronous (it drives its own small runtime), which suits
//! [`Store`]'s blocking calls from `spawn_blocking`. Connections are pooled here: a few
//! lines instead of another dependency.

use std::sync::{Condvar, Mutex};

use postgres::{Client, NoTls, Row};

use super::{BoardRow, NewRun, Player, Run, Store, StoreError, Stored};

/// Migrations in order; the `schema_migrations` table records which have run.
const MIGRATIONS: &[&str] = &[include_str!("../../migrations/postgres/0001_init.sql")];

/// Most connections one server opens.
const MAX_CONNECTIONS: usize = 8;

/// PostgreSQL behind [`Store`].
pub struct PgStore {
    url: String,
    pool: Mutex<Pool>,
    freed: Condvar,
}

struct Pool {
    idle: Vec<Client>,
    open: usize,
}

fn db(e: postgres::Error) -> StoreError {
    StoreError::Db(e.to_string())
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
    pub fn open(url: &str) -> anyhow::Result<PgStore> {
        let mut client = Client::connect(url, NoTls)?;
        client.batch_execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)",
        )?;
        for (i, sql) in MIGRATIONS.iter().enumerate() {
            let version = i as i32 + 1;
            let mut tx = client.transaction()?;
            // One migrator at a time, even with several servers starting together.
            tx.batch_execute("LOCK TABLE schema_migrations IN EXCLUSIVE MODE")?;
            let done = tx
                .query_opt(
                    "SELECT 1 FROM schema_migrations WHERE version = $1",
                    &[&version],
                )?
                .is_some();
            if !done {
                tx.batch_execute(sql)?;
                tx.execute(
                    "INSERT INTO schema_migrations (version) VALUES ($1)",
                    &[&version],
                )?;
            }
            tx.commit()?;
        }
        Ok(PgStore {
            url: url.to_owned(),
            pool: Mutex::new(Pool {
                idle: vec![client],
                open: 1,
            }),
            freed: Condvar::new(),
        })
    }

    fn with<T>(
        &self,
        f: impl FnOnce(&mut Client) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut client = self.checkout()?;
        let result = f(&mut client);
        let mut pool = self.pool.lock().unwrap_or_else(|p| p.into_inner());
        if client.is_closed() {
            pool.open -= 1;
        } else {
            pool.idle.push(client);
        }
        self.freed.notify_one();
        result
    }

    fn checkout(&self) -> Result<Client, StoreError> {
        let mut pool = self.pool.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if let Some(c) = pool.idle.pop() {
                return Ok(c);
            }
            if pool.open < MAX_CONNECTIONS {
                pool.open += 1;
                drop(pool);
                return Client::connect(&self.url, NoTls).map_err(|e| {
                    let mut pool = self.pool.lock().unwrap_or_else(|p| p.into_inner());
                    pool.open -= 1;
                    db(e)
                });
            }
            pool = self.freed.wait(pool).unwrap_or_else(|p| p.into_inner());
        }
    }
}

impl Drop for PgStore {
    fn drop(&mut self) {
        // Closing a client blocks on the client's own runtime, which panics on a thread of
        // the server's; a plain thread may block.
        let idle = std::mem::take(&mut self.pool.get_mut().unwrap_or_else(|p| p.into_inner()).idle);
        if !idle.is_empty() {
            let _ = std::thread::spawn(move || drop(idle)).join();
        }
    }
}

fn run_row(r: &Row) -> Run {
    Run {
        id: r.get(0),
        player: r.get(1),
        mode: r.get(2),
        score: uint(r.get(3)),
        wpm_x100: uint(r.get(4)),
        accuracy_x100: uint(r.get(5)),
        duration_ms: u32::try_from(r.get::<_, i64>(6)).unwrap_or(0),
        created_ms: r.get(7),
        replay: r.get(8),
    }
}

impl Store for PgStore {
    fn create_player(
        &self,
        name: &str,
        token_hash: &[u8; 32],
        now_ms: i64,
    ) -> Result<Player, StoreError> {
        self.with(|c| {
            let row = c
                .query_opt(
                    "INSERT INTO players (name, name_key, token_hash, created_ms) VALUES ($1, $2, $3, $4)
                     ON CONFLICT (name_key) DO NOTHING RETURNING id",
                    &[&name, &name.to_lowercase(), &&token_hash[..], &now_ms],
                )
                .map_err(db)?;
            match row {
                Some(r) => Ok(Player {
                    id: r.get(0),
                    name: name.to_owned(),
                }),
                None => Err(StoreError::NameTaken(name.to_owned())),
            }
        })
    }

    fn player_by_token(&self, token_hash: &[u8; 32]) -> Result<Option<Player>, StoreError> {
        self.with(|c| {
            let row = c
                .query_opt(
                    "SELECT id, name FROM players WHERE token_hash = $1",
                    &[&&token_hash[..]],
                )
                .map_err(db)?;
            Ok(row.map(|r| Player {
                id: r.get(0),
                name: r.get(1),
            }))
        })
    }

    fn duplicate_of(&self, replay_hash: &[u8; 32]) -> Result<Option<String>, StoreError> {
        self.with(|c| {
            let row = c
                .query_opt(
                    "SELECT id FROM runs WHERE replay_hash = $1",
                    &[&&replay_hash[..]],
                )
                .map_err(db)?;
            Ok(row.map(|r| r.get(0)))
        })
    }

    fn insert_runs(&self, runs: &[NewRun]) -> Result<Vec<Stored>, StoreError> {
        self.with(|c| {
            let mut tx = c.transaction().map_err(db)?;
            let mut out = Vec::with_capacity(runs.len());
            for run in runs {
                let inserted = tx.execute(
                    "INSERT INTO runs (id, player_id, mode, score, wpm_x100, accuracy_x100,
                         duration_ms, created_ms, month, replay_hash, replay)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
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
                        &&run.replay_hash[..],
                        &run.replay,
                    ],
                );
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
                tx.execute(
                    "INSERT INTO bests (player_id, mode, month, run_id, score, wpm_x100, created_ms)
                     VALUES ($1, $2, $3, $4, $5, $6, $7)
                     ON CONFLICT (player_id, mode, month) DO UPDATE SET
                         run_id = excluded.run_id, score = excluded.score,
                         wpm_x100 = excluded.wpm_x100, created_ms = excluded.created_ms
                     WHERE excluded.score > bests.score
                        OR (excluded.score = bests.score AND excluded.wpm_x100 > bests.wpm_x100)",
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
                .map_err(db)?;
                let pb = tx
                    .execute(
                        "INSERT INTO pbs (player_id, mode, score, wpm_x100) VALUES ($1, $2, $3, $4)
                         ON CONFLICT (player_id, mode) DO UPDATE SET
                             score = excluded.score, wpm_x100 = excluded.wpm_x100
                         WHERE excluded.score > pbs.score
                            OR (excluded.score = pbs.score AND excluded.wpm_x100 > pbs.wpm_x100)",
                        &[&run.player, &run.mode, &int(run.score), &int(run.wpm_x100)],
                    )
                    .map_err(db)?;
                out.push(Stored { pb: pb > 0 });
            }
            tx.commit().map_err(db)?;
            Ok(out)
        })
    }

    fn run(&self, id: &str) -> Result<Option<Run>, StoreError> {
        self.with(|c| {
            let row = c
                .query_opt(
                    "SELECT r.id, p.name, r.mode, r.score, r.wpm_x100, r.accuracy_x100,
                            r.duration_ms, r.created_ms, r.replay
                     FROM runs r JOIN players p ON p.id = r.player_id WHERE r.id = $1",
                    &[&id],
                )
                .map_err(db)?;
            Ok(row.as_ref().map(run_row))
        })
    }

    fn board(&self, mode: &str, month: &str, limit: u32) -> Result<Vec<BoardRow>, StoreError> {
        self.with(|c| {
            let rows = c
                .query(
                    "SELECT p.name, b.score, b.wpm_x100, r.accuracy_x100, b.run_id, b.created_ms
                     FROM bests b JOIN players p ON p.id = b.player_id JOIN runs r ON r.id = b.run_id
                     WHERE b.mode = $1 AND b.month = $2
                     ORDER BY b.score DESC, b.wpm_x100 DESC, b.created_ms ASC, b.player_id ASC
                     LIMIT $3",
                    &[&mode, &month, &i64::from(limit)],
                )
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

    fn sweep(&self, cutoff_ms: i64, batch: u32) -> Result<u64, StoreError> {
        self.with(|c| {
            c.execute(
                "DELETE FROM runs WHERE id IN (
                     SELECT id FROM runs
                     WHERE created_ms < $1 AND NOT EXISTS (SELECT 1 FROM bests WHERE bests.run_id = runs.id)
                     LIMIT $2)",
                &[&cutoff_ms, &i64::from(batch)],
            )
            .map_err(db)
        })
    }
}
