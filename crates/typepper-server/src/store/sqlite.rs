//! The embedded default: SQLite in a file, WAL, `synchronous = FULL`.
//!
//! A returned share link is a promise, so every commit is synced to disk before the
//! server answers. One connection writes (SQLite has one writer anyway); a few more read
//! at the same time, which WAL allows.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};

use super::{
    BoardRow, Commit, Horizon, IssuedSeed, KnownRound, NewRun, Player, PlayerId, Run, Store,
    StoreError, Stored, Swept, Tx, Usage,
};

/// Migrations in order; `PRAGMA user_version` is how many have run.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/sqlite/0001_init.sql"),
    include_str!("../../migrations/sqlite/0002_trust.sql"),
];

/// Readers beside the writer.
const READERS: usize = 4;

/// SQLite behind [`Store`].
pub struct SqliteStore {
    writer: Mutex<Connection>,
    readers: Vec<Mutex<Connection>>,
    next: AtomicUsize,
}

fn db(e: rusqlite::Error) -> StoreError {
    StoreError::Db(e.to_string())
}

fn connect(path: &Path) -> Result<Connection, rusqlite::Error> {
    let c = Connection::open(path)?;
    c.busy_timeout(std::time::Duration::from_secs(5))?;
    c.pragma_update(None, "journal_mode", "WAL")?;
    c.pragma_update(None, "synchronous", "FULL")?;
    c.pragma_update(None, "foreign_keys", "ON")?;
    // Without the planner's stability guarantee SQLite re-prepares a cached statement
    // whenever a bound value might change its plan, which here was every lookup by id
    // (measured: a quarter of the server's time on GET /v1/runs/<id>).
    c.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG,
        true,
    )?;
    Ok(c)
}

impl SqliteStore {
    /// Opens (creating if need be) the database at `path` and runs its migrations.
    pub fn open(path: &Path) -> anyhow::Result<SqliteStore> {
        let mut writer = connect(path)?;
        let done: i64 = writer.pragma_query_value(None, "user_version", |r| r.get(0))?;
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(done as usize) {
            let tx = writer.transaction()?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", i as i64 + 1)?;
            tx.commit()?;
        }
        let readers = (0..READERS)
            .map(|_| connect(path).map(Mutex::new))
            .collect::<Result<_, _>>()?;
        Ok(SqliteStore {
            writer: Mutex::new(writer),
            readers,
            next: AtomicUsize::new(0),
        })
    }

    fn read<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T, StoreError> {
        // Take a free reader if there is one; otherwise wait for the next in turn.
        let conn = self
            .readers
            .iter()
            .find_map(|r| r.try_lock().ok())
            .unwrap_or_else(|| {
                let i = self.next.fetch_add(1, Ordering::Relaxed) % self.readers.len();
                self.readers[i].lock().unwrap_or_else(|p| p.into_inner())
            });
        f(&conn).map_err(db)
    }

    fn write<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut conn = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut conn)
    }
}

impl Store for SqliteStore {
    fn create_player(
        &self,
        name: &str,
        token_hash: &[u8; 32],
        now_ms: i64,
    ) -> Result<Player, StoreError> {
        self.write(|c| {
            let inserted = c.execute(
                "INSERT INTO players (name, name_key, token_hash, created_ms) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (name_key) DO NOTHING",
                params![name, name.to_lowercase(), &token_hash[..], now_ms],
            );
            match inserted.map_err(db)? {
                0 => Err(StoreError::NameTaken(name.to_owned())),
                _ => Ok(Player {
                    id: c.last_insert_rowid(),
                    name: name.to_owned(),
                }),
            }
        })
    }

    fn player_by_token(&self, token_hash: &[u8; 32]) -> Result<Option<Player>, StoreError> {
        self.read(|c| {
            c.prepare_cached("SELECT id, name FROM players WHERE token_hash = ?1")?
                .query_row([&token_hash[..]], |r| {
                    Ok(Player {
                        id: r.get(0)?,
                        name: r.get(1)?,
                    })
                })
                .optional()
        })
    }

    fn issue_seed(&self, seed: &IssuedSeed, max_open: u32) -> Result<(), StoreError> {
        self.write(|c| {
            let tx = c
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(db)?;
            let inserted = tx
                .prepare_cached(
                    "INSERT INTO seeds (seed, player_id, mode, issued_ms, expires_ms)
                     VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (seed) DO NOTHING",
                )
                .and_then(|mut s| {
                    s.execute(params![
                        seed.seed as i64,
                        seed.player,
                        seed.mode,
                        seed.issued_ms,
                        seed.expires_ms
                    ])
                })
                .map_err(db)?;
            if inserted == 0 {
                return Err(StoreError::SeedTaken(seed.seed));
            }
            tx.prepare_cached(
                "DELETE FROM seeds WHERE seed IN (
                     SELECT seed FROM seeds
                     WHERE player_id = ?1 AND run_id IS NULL AND expires_ms >= ?2
                     ORDER BY issued_ms DESC, seed LIMIT -1 OFFSET ?3)",
            )
            .and_then(|mut s| s.execute(params![seed.player, seed.issued_ms, max_open]))
            .map_err(db)?;
            tx.commit().map_err(db)
        })
    }

    fn submit(
        &self,
        work: &mut dyn FnMut(&mut dyn Tx) -> Result<Commit, StoreError>,
    ) -> Result<(), StoreError> {
        self.write(|c| {
            // IMMEDIATE takes the write lock now: another process on the same file waits
            // here (busy_timeout) rather than failing at its first write.
            let tx = c
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(db)?;
            match work(&mut SqliteTx(&tx))? {
                Commit::Yes => tx.commit().map_err(db),
                Commit::No => tx.rollback().map_err(db),
            }
        })
    }

    fn run(&self, id: &str) -> Result<Option<Run>, StoreError> {
        self.read(|c| {
            c.prepare_cached(
                "SELECT r.id, p.name, r.mode, r.score, r.wpm_x100, r.accuracy_x100, r.duration_ms,
                        r.created_ms, r.unranked, r.replay
                 FROM runs r JOIN players p ON p.id = r.player_id WHERE r.id = ?1",
            )?
            .query_row([id], |r| {
                Ok(Run {
                    id: r.get(0)?,
                    player: r.get(1)?,
                    mode: r.get(2)?,
                    score: r.get(3)?,
                    wpm_x100: r.get(4)?,
                    accuracy_x100: r.get(5)?,
                    duration_ms: r.get(6)?,
                    created_ms: r.get(7)?,
                    unranked: r.get(8)?,
                    replay: r.get(9)?,
                })
            })
            .optional()
        })
    }

    fn board(&self, mode: &str, month: &str, limit: u32) -> Result<Vec<BoardRow>, StoreError> {
        self.read(|c| {
            let mut s = c.prepare_cached(
                "SELECT p.name, b.score, b.wpm_x100, r.accuracy_x100, b.run_id, b.created_ms
                 FROM bests b JOIN players p ON p.id = b.player_id JOIN runs r ON r.id = b.run_id
                 WHERE b.mode = ?1 AND b.month = ?2
                 ORDER BY b.score DESC, b.wpm_x100 DESC, b.created_ms ASC, b.player_id ASC
                 LIMIT ?3",
            )?;
            let rows = s.query_map(params![mode, month, limit], |r| {
                Ok(BoardRow {
                    rank: 0,
                    name: r.get(0)?,
                    score: r.get(1)?,
                    wpm_x100: r.get(2)?,
                    accuracy_x100: r.get(3)?,
                    run: r.get(4)?,
                    created_ms: r.get(5)?,
                })
            })?;
            let mut out: Vec<BoardRow> = rows.collect::<Result<_, _>>()?;
            for (i, row) in out.iter_mut().enumerate() {
                row.rank = i as u32 + 1;
            }
            Ok(out)
        })
    }

    fn sweep(&self, horizon: &Horizon, batch: u32) -> Result<Swept, StoreError> {
        self.write(|c| {
            let runs = c
                .execute(
                    "DELETE FROM runs WHERE id IN (
                         SELECT id FROM runs
                         WHERE created_ms < ?1 AND id NOT IN (SELECT run_id FROM bests)
                         LIMIT ?2)",
                    params![horizon.runs_before_ms, batch],
                )
                .map_err(db)?;
            let seeds = c
                .execute(
                    "DELETE FROM seeds WHERE seed IN (
                         SELECT seed FROM seeds WHERE expires_ms < ?1 LIMIT ?2)",
                    params![horizon.seeds_before_ms, batch],
                )
                .map_err(db)?;
            c.execute(
                "DELETE FROM usage WHERE rowid IN (
                     SELECT rowid FROM usage WHERE day < ?1 LIMIT ?2)",
                params![horizon.usage_before_day, batch],
            )
            .map_err(db)?;
            let tx = c.transaction().map_err(db)?;
            let unused = "SELECT id FROM players WHERE created_ms < ?1 AND used = 0
                 ORDER BY id LIMIT ?2";
            for table in ["seeds", "usage"] {
                tx.execute(
                    &format!("DELETE FROM {table} WHERE player_id IN ({unused})"),
                    params![horizon.unused_players_before_ms, batch],
                )
                .map_err(db)?;
            }
            let players = tx
                .execute(
                    &format!("DELETE FROM players WHERE id IN ({unused})"),
                    params![horizon.unused_players_before_ms, batch],
                )
                .map_err(db)?;
            tx.commit().map_err(db)?;
            Ok(Swept {
                runs: runs as u64,
                seeds: seeds as u64,
                players: players as u64,
            })
        })
    }
}

/// One submission's transaction on the writer connection.
struct SqliteTx<'a>(&'a Transaction<'a>);

impl Tx for SqliteTx<'_> {
    fn lock(&mut self, _player: PlayerId, _keys: &[[u8; 32]]) -> Result<(), StoreError> {
        // The transaction is IMMEDIATE: it holds the database's one write lock already.
        Ok(())
    }

    fn usage(&mut self, player: PlayerId, day: &str) -> Result<Usage, StoreError> {
        self.0
            .prepare_cached("SELECT runs, bytes FROM usage WHERE player_id = ?1 AND day = ?2")
            .and_then(|mut s| {
                s.query_row(params![player, day], |r| {
                    Ok(Usage {
                        runs: r.get(0)?,
                        bytes: r.get::<_, i64>(1)?.try_into().unwrap_or(0),
                    })
                })
                .optional()
            })
            .map(Option::unwrap_or_default)
            .map_err(db)
    }

    fn rounds(&mut self, key: &[u8; 32]) -> Result<Vec<KnownRound>, StoreError> {
        let mut s = self
            .0
            .prepare_cached(
                "SELECT k.run_id, k.player_id, k.blocks, r.score, r.unranked, r.id IS NOT NULL
                 FROM rounds k LEFT JOIN runs r ON r.id = k.run_id WHERE k.round_key = ?1",
            )
            .map_err(db)?;
        let rows = s
            .query_map([&key[..]], |r| {
                let stored: bool = r.get(5)?;
                Ok(KnownRound {
                    run: r.get(0)?,
                    player: r.get(1)?,
                    blocks: r.get(2)?,
                    stored: if stored {
                        Some((r.get(3)?, r.get(4)?))
                    } else {
                        None
                    },
                })
            })
            .map_err(db)?;
        rows.collect::<Result<_, _>>().map_err(db)
    }

    fn seed(&mut self, seed: u64) -> Result<Option<IssuedSeed>, StoreError> {
        self.0
            .prepare_cached(
                "SELECT player_id, mode, issued_ms, expires_ms, run_id FROM seeds WHERE seed = ?1",
            )
            .and_then(|mut s| {
                s.query_row([seed as i64], |r| {
                    Ok(IssuedSeed {
                        seed,
                        player: r.get(0)?,
                        mode: r.get(1)?,
                        issued_ms: r.get(2)?,
                        expires_ms: r.get(3)?,
                        run: r.get(4)?,
                    })
                })
                .optional()
            })
            .map_err(db)
    }

    fn insert(&mut self, run: &NewRun) -> Result<Stored, StoreError> {
        let tx = self.0;
        let inserted = tx
            .prepare_cached(
                "INSERT INTO runs (id, player_id, mode, score, wpm_x100, accuracy_x100,
                     duration_ms, created_ms, month, replay, unranked)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            )
            .and_then(|mut s| {
                s.execute(params![
                    run.id,
                    run.player,
                    run.mode,
                    run.score,
                    run.wpm_x100,
                    run.accuracy_x100,
                    run.duration_ms,
                    run.created_ms,
                    run.month,
                    run.replay,
                    run.unranked,
                ])
            });
        if let Err(e) = inserted {
            return Err(if e.to_string().contains("runs.id") {
                StoreError::IdTaken(run.id.clone())
            } else {
                db(e)
            });
        }
        tx.prepare_cached(
            "INSERT INTO rounds (round_key, run_id, player_id, blocks, created_ms)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .and_then(|mut s| {
            s.execute(params![
                &run.round.key[..],
                run.id,
                run.player,
                run.round.blocks,
                run.created_ms
            ])
        })
        .map_err(db)?;
        tx.prepare_cached(
            "INSERT INTO usage (player_id, day, runs, bytes) VALUES (?1, ?2, 1, ?3)
             ON CONFLICT (player_id, day) DO UPDATE SET
                 runs = usage.runs + 1, bytes = usage.bytes + excluded.bytes",
        )
        .and_then(|mut s| s.execute(params![run.player, run.day, run.replay.len() as i64]))
        .map_err(db)?;
        // Writes only a player's first run: after it, no row matches.
        tx.prepare_cached("UPDATE players SET used = 1 WHERE id = ?1 AND used = 0")
            .and_then(|mut s| s.execute([run.player]))
            .map_err(db)?;
        if let Some(seed) = run.uses_seed {
            tx.prepare_cached("UPDATE seeds SET run_id = ?1 WHERE seed = ?2")
                .and_then(|mut s| s.execute(params![run.id, seed as i64]))
                .map_err(db)?;
        }
        if run.unranked.is_some() {
            return Ok(Stored { pb: false });
        }
        tx.prepare_cached(
            "INSERT INTO bests (player_id, mode, month, run_id, score, wpm_x100, created_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (player_id, mode, month) DO UPDATE SET
                 run_id = excluded.run_id, score = excluded.score,
                 wpm_x100 = excluded.wpm_x100, created_ms = excluded.created_ms
             WHERE excluded.score > bests.score
                OR (excluded.score = bests.score AND excluded.wpm_x100 > bests.wpm_x100)",
        )
        .and_then(|mut s| {
            s.execute(params![
                run.player,
                run.mode,
                run.month,
                run.id,
                run.score,
                run.wpm_x100,
                run.created_ms
            ])
        })
        .map_err(db)?;
        let pb = tx
            .prepare_cached(
                "INSERT INTO pbs (player_id, mode, score, wpm_x100) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (player_id, mode) DO UPDATE SET
                     score = excluded.score, wpm_x100 = excluded.wpm_x100
                 WHERE excluded.score > pbs.score
                    OR (excluded.score = pbs.score AND excluded.wpm_x100 > pbs.wpm_x100)",
            )
            .and_then(|mut s| s.execute(params![run.player, run.mode, run.score, run.wpm_x100]))
            .map_err(db)?;
        Ok(Stored { pb: pb > 0 })
    }
}
