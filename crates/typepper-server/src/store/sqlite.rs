//! The embedded default: SQLite in a file, WAL, `synchronous = FULL`.
//!
//! A returned share link is a promise, so every commit is synced to disk before the
//! server answers. One connection writes (SQLite has one writer anyway); a few more read
//! at the same time, which WAL allows.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rusqlite::{Connection, OptionalExtension, params};

use super::{BoardRow, NewRun, Player, Run, Store, StoreError, Stored};

/// Migrations in order; `PRAGMA user_version` is how many have run.
const MIGRATIONS: &[&str] = &[include_str!("../../migrations/sqlite/0001_init.sql")];

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

    fn duplicate_of(&self, replay_hash: &[u8; 32]) -> Result<Option<String>, StoreError> {
        self.read(|c| {
            c.prepare_cached("SELECT id FROM runs WHERE replay_hash = ?1")?
                .query_row([&replay_hash[..]], |r| r.get(0))
                .optional()
        })
    }

    fn insert_runs(&self, runs: &[NewRun]) -> Result<Vec<Stored>, StoreError> {
        self.write(|c| {
            let tx = c.transaction().map_err(db)?;
            let mut out = Vec::with_capacity(runs.len());
            for run in runs {
                let inserted = tx
                    .prepare_cached(
                        "INSERT INTO runs (id, player_id, mode, score, wpm_x100, accuracy_x100,
                             duration_ms, created_ms, month, replay_hash, replay)
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
                            &run.replay_hash[..],
                            run.replay,
                        ])
                    });
                if let Err(e) = inserted {
                    let taken = e.to_string().contains("runs.id");
                    return Err(if taken {
                        StoreError::IdTaken(run.id.clone())
                    } else {
                        db(e)
                    });
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
                    .and_then(|mut s| {
                        s.execute(params![run.player, run.mode, run.score, run.wpm_x100])
                    })
                    .map_err(db)?;
                out.push(Stored { pb: pb > 0 });
            }
            tx.commit().map_err(db)?;
            Ok(out)
        })
    }

    fn run(&self, id: &str) -> Result<Option<Run>, StoreError> {
        self.read(|c| {
            c.prepare_cached(
                "SELECT r.id, p.name, r.mode, r.score, r.wpm_x100, r.accuracy_x100, r.duration_ms,
                        r.created_ms, r.replay
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
                    replay: r.get(8)?,
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

    fn sweep(&self, cutoff_ms: i64, batch: u32) -> Result<u64, StoreError> {
        self.write(|c| {
            let n = c
                .execute(
                    "DELETE FROM runs WHERE id IN (
                         SELECT id FROM runs
                         WHERE created_ms < ?1 AND id NOT IN (SELECT run_id FROM bests)
                         LIMIT ?2)",
                    params![cutoff_ms, batch],
                )
                .map_err(db)?;
            Ok(n as u64)
        })
    }
}
