//! PostgreSQL, for production: many server instances over one database.
//!
//! The `postgres` client is synchronous (it drives its own small runtime), which suits
//! [`Store`]'s blocking calls from `spawn_blocking`. Connections are pooled here: a few
//! lines instead of another dependency.

use std::sync::{Condvar, Mutex};

use postgres::{Client, NoTls, Row, Transaction};

use super::{
    BoardRow, Commit, Horizon, IssuedSeed, KnownRound, NewRun, Player, PlayerId, Run, Store,
    StoreError, Stored, Swept, Tx, Usage,
};

/// Migrations in order; the `schema_migrations` table records which have run.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/postgres/0001_init.sql"),
    include_str!("../../migrations/postgres/0002_trust.sql"),
];

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
        unranked: r.get(8),
        replay: r.get(9),
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

    fn issue_seed(&self, seed: &IssuedSeed, max_open: u32) -> Result<(), StoreError> {
        self.with(|c| {
            let mut tx = c.transaction().map_err(db)?;
            let inserted = tx
                .execute(
                    "INSERT INTO seeds (seed, player_id, mode, issued_ms, expires_ms)
                     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (seed) DO NOTHING",
                    &[
                        &(seed.seed as i64),
                        &seed.player,
                        &seed.mode,
                        &seed.issued_ms,
                        &seed.expires_ms,
                    ],
                )
                .map_err(db)?;
            if inserted == 0 {
                return Err(StoreError::SeedTaken(seed.seed));
            }
            tx.execute(
                "DELETE FROM seeds WHERE seed IN (
                     SELECT seed FROM seeds
                     WHERE player_id = $1 AND run_id IS NULL AND expires_ms >= $2
                     ORDER BY issued_ms DESC, seed OFFSET $3)",
                &[&seed.player, &seed.issued_ms, &i64::from(max_open)],
            )
            .map_err(db)?;
            tx.commit().map_err(db)
        })
    }

    fn submit(
        &self,
        work: &mut dyn FnMut(&mut dyn Tx) -> Result<Commit, StoreError>,
    ) -> Result<(), StoreError> {
        self.with(|c| {
            let mut tx = PgTx(c.transaction().map_err(db)?);
            match work(&mut tx)? {
                Commit::Yes => tx.0.commit().map_err(db),
                Commit::No => tx.0.rollback().map_err(db),
            }
        })
    }

    fn run(&self, id: &str) -> Result<Option<Run>, StoreError> {
        self.with(|c| {
            let row = c
                .query_opt(
                    "SELECT r.id, p.name, r.mode, r.score, r.wpm_x100, r.accuracy_x100,
                            r.duration_ms, r.created_ms, r.unranked, r.replay
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

    fn sweep(&self, horizon: &Horizon, batch: u32) -> Result<Swept, StoreError> {
        self.with(|c| {
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
                .map_err(db)?;
            let seeds = c
                .execute(
                    "DELETE FROM seeds WHERE seed IN (
                         SELECT seed FROM seeds WHERE expires_ms < $1 LIMIT $2)",
                    &[&horizon.seeds_before_ms, &batch],
                )
                .map_err(db)?;
            c.execute(
                "DELETE FROM usage WHERE (player_id, day) IN (
                     SELECT player_id, day FROM usage WHERE day < $1 LIMIT $2)",
                &[&horizon.usage_before_day, &batch],
            )
            .map_err(db)?;
            let mut tx = c.transaction().map_err(db)?;
            // Locked, so that a submission that starts meanwhile waits, then finds no player
            // (its token no longer links) rather than a half-deleted one.
            let unused: Vec<i64> = tx
                .query(
                    "SELECT id FROM players WHERE created_ms < $1 AND NOT used
                     ORDER BY id LIMIT $2 FOR UPDATE",
                    &[&horizon.unused_players_before_ms, &batch],
                )
                .map_err(db)?
                .iter()
                .map(|r| r.get(0))
                .collect();
            for table in ["seeds", "usage"] {
                tx.execute(
                    &format!("DELETE FROM {table} WHERE player_id = ANY($1)"),
                    &[&unused],
                )
                .map_err(db)?;
            }
            let players = tx
                .execute("DELETE FROM players WHERE id = ANY($1)", &[&unused])
                .map_err(db)?;
            tx.commit().map_err(db)?;
            Ok(Swept {
                runs,
                seeds,
                players,
            })
        })
    }
}

/// One submission's transaction on a pooled connection.
struct PgTx<'a>(Transaction<'a>);

impl Tx for PgTx<'_> {
    fn lock(&mut self, player: PlayerId, keys: &[[u8; 32]]) -> Result<(), StoreError> {
        self.0
            .execute("SELECT 1 FROM players WHERE id = $1 FOR UPDATE", &[&player])
            .map_err(db)?;
        // A round's lock is an advisory lock on its key's first eight bytes, taken in
        // order, so that two submissions sharing keys can't each wait on the other.
        let mut locks: Vec<i64> = keys
            .iter()
            .map(|k| i64::from_le_bytes([k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7]]))
            .collect();
        locks.sort_unstable();
        locks.dedup();
        for lock in locks {
            self.0
                .execute("SELECT pg_advisory_xact_lock($1)", &[&lock])
                .map_err(db)?;
        }
        Ok(())
    }

    fn usage(&mut self, player: PlayerId, day: &str) -> Result<Usage, StoreError> {
        let row = self
            .0
            .query_opt(
                "SELECT runs, bytes FROM usage WHERE player_id = $1 AND day = $2",
                &[&player, &day],
            )
            .map_err(db)?;
        Ok(row.map_or_else(Usage::default, |r| Usage {
            runs: uint(r.get(0)),
            bytes: u64::try_from(r.get::<_, i64>(1)).unwrap_or(0),
        }))
    }

    fn rounds(&mut self, key: &[u8; 32]) -> Result<Vec<KnownRound>, StoreError> {
        let rows = self
            .0
            .query(
                "SELECT k.run_id, k.player_id, k.blocks, r.score, r.unranked, r.id IS NOT NULL
                 FROM rounds k LEFT JOIN runs r ON r.id = k.run_id WHERE k.round_key = $1",
                &[&&key[..]],
            )
            .map_err(db)?;
        Ok(rows
            .iter()
            .map(|r| KnownRound {
                run: r.get(0),
                player: r.get(1),
                blocks: r.get(2),
                stored: r.get::<_, bool>(5).then(|| (uint(r.get(3)), r.get(4))),
            })
            .collect())
    }

    fn seed(&mut self, seed: u64) -> Result<Option<IssuedSeed>, StoreError> {
        let row = self
            .0
            .query_opt(
                "SELECT player_id, mode, issued_ms, expires_ms, run_id FROM seeds WHERE seed = $1",
                &[&(seed as i64)],
            )
            .map_err(db)?;
        Ok(row.map(|r| IssuedSeed {
            seed,
            player: r.get(0),
            mode: r.get(1),
            issued_ms: r.get(2),
            expires_ms: r.get(3),
            run: r.get(4),
        }))
    }

    fn insert(&mut self, run: &NewRun) -> Result<Stored, StoreError> {
        let tx = &mut self.0;
        let inserted = tx.execute(
            "INSERT INTO runs (id, player_id, mode, score, wpm_x100, accuracy_x100,
                 duration_ms, created_ms, month, replay, unranked)
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
                &run.replay,
                &run.unranked,
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
            "INSERT INTO rounds (round_key, run_id, player_id, blocks, created_ms)
             VALUES ($1, $2, $3, $4, $5)",
            &[
                &&run.round.key[..],
                &run.id,
                &run.player,
                &run.round.blocks,
                &run.created_ms,
            ],
        )
        .map_err(db)?;
        tx.execute(
            "INSERT INTO usage (player_id, day, runs, bytes) VALUES ($1, $2, 1, $3)
             ON CONFLICT (player_id, day) DO UPDATE SET
                 runs = usage.runs + 1, bytes = usage.bytes + excluded.bytes",
            &[&run.player, &run.day, &(run.replay.len() as i64)],
        )
        .map_err(db)?;
        // Writes only a player's first run: after it, no row matches.
        tx.execute(
            "UPDATE players SET used = true WHERE id = $1 AND NOT used",
            &[&run.player],
        )
        .map_err(db)?;
        if let Some(seed) = run.uses_seed {
            tx.execute(
                "UPDATE seeds SET run_id = $1 WHERE seed = $2",
                &[&run.id, &(seed as i64)],
            )
            .map_err(db)?;
        }
        if run.unranked.is_some() {
            return Ok(Stored { pb: false });
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
        Ok(Stored { pb: pb > 0 })
    }
}
