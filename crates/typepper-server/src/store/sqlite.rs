//! The embedded default: SQLite in a file, WAL, `synchronous = FULL`.
//!
//! A returned share link is a promise, so every commit is synced to disk before the
//! server answers. How the connections are used:
//! 1. **Reads** (a player by token, a run, a board) run where they are asked for, on a
//!    small pool of reader connections: a point read takes microseconds, less than the
//!    hop to a blocking thread would, and WAL lets readers read beside the writer.
//! 2. **Writes** go to one writer thread, which owns the only writing connection. It
//!    takes every piece of work waiting when it is free (up to the group size), runs each
//!    in a savepoint of its own inside one transaction, commits once, and answers each
//!    after that one fsync: **group commit**. Many submissions at once cost one fsync,
//!    and one that fails undoes only its own savepoint.
//! 3. Work whose asker has gone (the request was dropped) is skipped, and work that waited
//!    past its deadline is refused as [`StoreError::Late`], both before anything of it is
//!    written: nothing is stored that nobody will be told of.
//! 4. Every connection reads through a memory map of the file: a page read is a memory
//!    access rather than a system call, and the OS's cache is shared by all of them.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rusqlite::{Connection, ErrorCode, OptionalExtension, TransactionBehavior, params};
use tokio::sync::oneshot;

use super::tx::{self, Arg, Cell, Row, Tx};
use super::{
    BoardRow, Done, Expiring, Fut, Horizon, IssuedSeed, Job, KnownRound, PLAYER_ROWS, Player,
    PlayerId, RowKey, Run, Store, StoreError,
};

/// Migrations in order; `PRAGMA user_version` is how many have run.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/sqlite/0001_init.sql"),
    include_str!("../../migrations/sqlite/0002_trust.sql"),
    include_str!("../../migrations/sqlite/0003_keys.sql"),
    include_str!("../../migrations/sqlite/0004_guard.sql"),
    include_str!("../../migrations/sqlite/0005_guests.sql"),
    include_str!("../../migrations/sqlite/0006_saves.sql"),
    include_str!("../../migrations/sqlite/0007_rooms.sql"),
];

/// Readers beside the writer.
const READERS: usize = 4;

/// SQLite behind [`Store`].
pub struct SqliteStore {
    readers: Vec<Mutex<Connection>>,
    next: AtomicUsize,
    /// To the writer thread; `None` once closing.
    work: Option<mpsc::Sender<Box<dyn Work>>>,
    writer: Option<std::thread::JoinHandle<()>>,
    /// Transactions the writer committed, and the pieces of work they carried.
    commits: Arc<[AtomicU64; 2]>,
}

/// A SQLite error as the store says it: a full disk or a busy database is worth trying
/// again later.
fn db(e: rusqlite::Error) -> StoreError {
    match e.sqlite_error_code() {
        Some(ErrorCode::DiskFull) => StoreError::Unavailable("the disk is full".into()),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => {
            StoreError::Unavailable("the database is busy".into())
        }
        Some(ErrorCode::SystemIoFailure | ErrorCode::CannotOpen) => {
            StoreError::Unavailable(format!("the disk failed: {e}"))
        }
        _ => StoreError::Db(e.to_string()),
    }
}

/// A player from a row of `id, name`.
fn player(r: &rusqlite::Row<'_>) -> rusqlite::Result<Player> {
    Ok(Player {
        id: r.get(0)?,
        name: r.get(1)?,
    })
}

/// Bytes of the database each connection reads through a memory map: a read is then a
/// memory access, not a system call, and the pages are the OS's cache, shared by all.
const MMAP_BYTES: i64 = 1 << 30;

/// A new database's page size: half SQLite's default. A submission writes a leaf page
/// of each tree keyed by something random (the run's id, the round's key, the seed), and
/// every byte of those pages goes to the WAL, is synced, and is copied again at a
/// checkpoint; smaller pages write less (measured: 4 KiB pages wrote ~28 KB a
/// submission). A 60-second round's replay still fits in its row's page. A database
/// made before keeps its page size.
const PAGE_BYTES: i64 = 2048;

/// WAL pages between checkpoints. A checkpoint copies each page once however often the
/// WAL holds it, so rarer checkpoints write the hot pages (the trees' upper levels, the
/// tables' last pages) fewer times; SQLite's default of 1,000 checkpointed many times a
/// second under load.
const CHECKPOINT_PAGES: i64 = 16_384;

fn connect(path: &Path) -> Result<Connection, rusqlite::Error> {
    let c = Connection::open(path)?;
    c.busy_timeout(std::time::Duration::from_secs(5))?;
    c.pragma_update(None, "page_size", PAGE_BYTES)?;
    c.pragma_update(None, "journal_mode", "WAL")?;
    c.pragma_update(None, "synchronous", "FULL")?;
    c.pragma_update(None, "foreign_keys", "ON")?;
    c.pragma_update(None, "mmap_size", MMAP_BYTES)?;
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
    /// Opens (creating if need be) the database at `path`, runs its migrations, and
    /// starts the writer, which commits at most `group` pieces of work at once.
    pub fn open(path: &Path, group: usize) -> anyhow::Result<SqliteStore> {
        let mut writer = connect(path)?;
        writer.pragma_update(None, "wal_autocheckpoint", CHECKPOINT_PAGES)?;
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
        let (work, queue) = mpsc::channel();
        let group = group.max(1);
        let commits = Arc::new([AtomicU64::new(0), AtomicU64::new(0)]);
        let counted = commits.clone();
        let thread = std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || write_loop(writer, &queue, group, &counted))?;
        Ok(SqliteStore {
            readers,
            next: AtomicUsize::new(0),
            work: Some(work),
            writer: Some(thread),
            commits,
        })
    }

    /// How many transactions the writer has committed.
    pub fn commits(&self) -> u64 {
        self.commits[0].load(Ordering::Relaxed)
    }

    /// A reader: a free one if there is one; otherwise the next in turn, once free.
    fn reader(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.readers
            .iter()
            .find_map(|r| r.try_lock().ok())
            .unwrap_or_else(|| {
                let i = self.next.fetch_add(1, Ordering::Relaxed) % self.readers.len();
                self.readers[i].lock().unwrap_or_else(|p| p.into_inner())
            })
    }

    fn read<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T, StoreError> {
        f(&self.reader()).map_err(db)
    }

    /// Hands `work` to the writer; the answer comes once its transaction committed.
    fn write<T: Send + 'static>(
        &self,
        deadline: Option<Instant>,
        work: impl FnMut(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Fut<'_, T> {
        let (reply, answer) = oneshot::channel();
        let task = Task {
            work,
            deadline,
            result: None,
            reply,
        };
        let sent = self.work.as_ref().map(|w| w.send(Box::new(task)).is_ok());
        Box::pin(async move {
            if sent != Some(true) {
                return Err(StoreError::Unavailable("the store is closing".into()));
            }
            answer
                .await
                .map_err(|_| StoreError::Db("the writer stopped".into()))?
        })
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
        self.write(None, move |c| {
            let inserted = c
                .prepare_cached(
                    "INSERT INTO players (name, name_key, token_hash, created_ms, guest)
                     VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (name_key) DO NOTHING",
                )
                .and_then(|mut s| s.execute(params![name, key, &token_hash[..], now_ms, guest]))
                .map_err(db)?;
            match inserted {
                0 => Err(StoreError::NameTaken(name.clone())),
                _ => Ok(Player {
                    id: c.last_insert_rowid(),
                    name: name.clone(),
                }),
            }
        })
    }
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        // The writer finishes what it has and stops when its queue closes.
        self.work = None;
        if let Some(thread) = self.writer.take() {
            let _ = thread.join();
        }
    }
}

/// Work for the writer: done in a savepoint of its own, answered after the commit.
trait Work: Send {
    /// Nobody waits for the answer any more.
    fn abandoned(&self) -> bool;
    /// When it must have started by.
    fn deadline(&self) -> Option<Instant>;
    /// Does the work inside the group's transaction; an error undoes only this work.
    fn run(&mut self, conn: &Connection);
    /// The transaction committed: answer.
    fn committed(self: Box<Self>);
    /// It didn't, or the work was not done: answer `e`.
    fn failed(self: Box<Self>, e: StoreError);
}

struct Task<T, F> {
    work: F,
    deadline: Option<Instant>,
    result: Option<Result<T, StoreError>>,
    reply: oneshot::Sender<Result<T, StoreError>>,
}

impl<T, F> Work for Task<T, F>
where
    T: Send,
    F: FnMut(&Connection) -> Result<T, StoreError> + Send,
{
    fn abandoned(&self) -> bool {
        self.reply.is_closed()
    }

    fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    fn run(&mut self, conn: &Connection) {
        let result = conn
            .execute_batch("SAVEPOINT work")
            .map_err(db)
            .and_then(|()| (self.work)(conn));
        let end = if result.is_ok() {
            "RELEASE work"
        } else {
            "ROLLBACK TO work; RELEASE work"
        };
        let ended = conn.execute_batch(end).map_err(db);
        self.result = Some(ended.and(result));
    }

    fn committed(self: Box<Self>) {
        let result = self
            .result
            .unwrap_or_else(|| Err(StoreError::Db("the work never ran".into())));
        let _ = self.reply.send(result);
    }

    fn failed(self: Box<Self>, e: StoreError) {
        let _ = self.reply.send(Err(e));
    }
}

/// The writer thread: takes what is waiting, does it in one transaction, commits once.
fn write_loop(
    mut conn: Connection,
    queue: &mpsc::Receiver<Box<dyn Work>>,
    group: usize,
    commits: &[AtomicU64; 2],
) {
    while let Ok(first) = queue.recv() {
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
            if w.abandoned() {
                continue;
            }
            if w.deadline().is_some_and(|d| now > d) {
                w.failed(StoreError::Late);
                continue;
            }
            todo.push(w);
        }
        if todo.is_empty() {
            continue;
        }
        // IMMEDIATE takes the write lock now: another process on the same file waits here
        // (busy_timeout) rather than failing at its first write.
        let tx = match conn.transaction_with_behavior(TransactionBehavior::Immediate) {
            Ok(tx) => tx,
            Err(e) => {
                let e = db(e);
                for w in todo {
                    w.failed(e.again());
                }
                continue;
            }
        };
        for w in &mut todo {
            w.run(&tx);
        }
        match tx.commit() {
            Ok(()) => {
                commits[0].fetch_add(1, Ordering::Relaxed);
                commits[1].fetch_add(todo.len() as u64, Ordering::Relaxed);
                todo.into_iter().for_each(|w| w.committed());
            }
            Err(e) => {
                let e = db(e);
                for w in todo {
                    w.failed(e.again());
                }
            }
        }
    }
}

impl Store for SqliteStore {
    fn commits(&self) -> Option<(u64, u64)> {
        Some((
            self.commits[0].load(Ordering::Relaxed),
            self.commits[1].load(Ordering::Relaxed),
        ))
    }

    fn create_player(&self, name: String, token_hash: [u8; 32], now_ms: i64) -> Fut<'_, Player> {
        let key = typepper_api::name_key(&name);
        self.insert_player(name, key, token_hash, now_ms, false)
    }

    fn create_guest(&self, name: String, token_hash: [u8; 32], now_ms: i64) -> Fut<'_, Player> {
        let key = super::guest_key(&token_hash);
        self.insert_player(name, key, token_hash, now_ms, true)
    }

    fn player_by_token(&self, token_hash: [u8; 32]) -> Fut<'_, Option<Player>> {
        let found = self.read(|c| {
            c.prepare_cached("SELECT id, name FROM players WHERE token_hash = ?1")?
                .query_row([&token_hash[..]], player)
                .optional()
        });
        Box::pin(std::future::ready(found))
    }

    fn link_key(
        &self,
        fingerprint: String,
        player: PlayerId,
        now_ms: i64,
        max_keys: u32,
    ) -> Fut<'_, ()> {
        // The writer is the only writer: nothing changes between the reads and the insert.
        self.write(None, move |c| {
            let linked: Option<(PlayerId, String)> = c
                .prepare_cached(
                    "SELECT p.id, p.name FROM player_keys k JOIN players p ON p.id = k.player_id
                     WHERE k.fingerprint = ?1",
                )
                .and_then(|mut s| {
                    s.query_row([&fingerprint], |r| Ok((r.get(0)?, r.get(1)?)))
                        .optional()
                })
                .map_err(db)?;
            match linked {
                Some((id, _)) if id == player => return Ok(()),
                Some((_, name)) => return Err(StoreError::KeyLinked(name)),
                None => {}
            }
            let keys: u32 = c
                .prepare_cached("SELECT count(*) FROM player_keys WHERE player_id = ?1")
                .and_then(|mut s| s.query_row([player], |r| r.get(0)))
                .map_err(db)?;
            if keys >= max_keys {
                return Err(StoreError::TooManyKeys(keys));
            }
            c.prepare_cached(
                "INSERT INTO player_keys (fingerprint, player_id, linked_ms) VALUES (?1, ?2, ?3)",
            )
            .and_then(|mut s| s.execute(params![fingerprint, player, now_ms]))
            .map_err(db)?;
            Ok(())
        })
    }

    fn player_by_key(&self, fingerprint: String) -> Fut<'_, Option<Player>> {
        let found = self.read(|c| {
            c.prepare_cached(
                "SELECT p.id, p.name FROM player_keys k JOIN players p ON p.id = k.player_id
                 WHERE k.fingerprint = ?1",
            )?
            .query_row([&fingerprint], player)
            .optional()
        });
        Box::pin(std::future::ready(found))
    }

    fn saves(&self, player: PlayerId) -> Fut<'_, Vec<(String, String)>> {
        let found = self.read(|c| {
            c.prepare_cached("SELECT key, value FROM saves WHERE player_id = ?1 ORDER BY key")?
                .query_map([player], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect()
        });
        Box::pin(std::future::ready(found))
    }

    fn save(
        &self,
        player: PlayerId,
        key: String,
        value: Option<String>,
        now_ms: i64,
    ) -> Fut<'_, ()> {
        self.write(None, move |c| {
            match &value {
                Some(value) => c
                    .prepare_cached(
                        "INSERT INTO saves (player_id, key, value, saved_ms) VALUES (?1, ?2, ?3, ?4)
                         ON CONFLICT (player_id, key)
                         DO UPDATE SET value = excluded.value, saved_ms = excluded.saved_ms",
                    )
                    .and_then(|mut s| s.execute(params![player, key, value, now_ms])),
                None => c
                    .prepare_cached("DELETE FROM saves WHERE player_id = ?1 AND key = ?2")
                    .and_then(|mut s| s.execute(params![player, key])),
            }
            .map_err(db)?;
            Ok(())
        })
    }

    fn issue_seed(&self, seed: IssuedSeed, max_open: u32) -> Fut<'_, ()> {
        self.write(None, move |c| {
            let inserted = c
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
            c.prepare_cached(
                "DELETE FROM seeds WHERE seed IN (
                     SELECT seed FROM seeds
                     WHERE player_id = ?1 AND run_id IS NULL AND expires_ms >= ?2
                     ORDER BY issued_ms DESC, seed LIMIT -1 OFFSET ?3)",
            )
            .and_then(|mut s| s.execute(params![seed.player, seed.issued_ms, max_open]))
            .map_err(db)?;
            Ok(())
        })
    }

    fn live_seed(&self, seed: u64, until_ms: i64) -> Fut<'_, ()> {
        self.write(None, move |c| {
            c.prepare_cached(
                "INSERT INTO room_seeds (seed, until_ms) VALUES (?1, ?2)
                 ON CONFLICT (seed) DO UPDATE SET until_ms = excluded.until_ms",
            )
            .and_then(|mut s| s.execute(params![seed as i64, until_ms]))
            .map_err(db)?;
            Ok(())
        })
    }

    fn name_taken(&self, name: String) -> Fut<'_, bool> {
        let taken = self.read(|c| {
            c.prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM players WHERE name_key = ?1 AND guest = 0)",
            )?
            .query_row([typepper_api::name_key(&name)], |r| r.get(0))
        });
        Box::pin(std::future::ready(taken))
    }

    fn submit(&self, mut job: Job) -> Fut<'_, Result<Vec<Done>, String>> {
        // The writer is the only writer: the job's rows can't change under it.
        let deadline = job.deadline;
        self.write(Some(deadline), move |c| {
            tx::now(tx::submit(&mut SqliteTx(c), &mut job))
        })
    }

    fn run(&self, id: String) -> Fut<'_, Option<Run>> {
        let found = tx::now(tx::run(&mut SqliteTx(&self.reader()), &id));
        Box::pin(std::future::ready(found))
    }

    fn board(&self, mode: String, month: String, limit: u32) -> Fut<'_, Vec<BoardRow>> {
        let rows = self.read(|c| {
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
        });
        Box::pin(std::future::ready(rows))
    }

    fn expired(
        &self,
        kind: Expiring,
        horizon: Horizon,
        after: RowKey,
        batch: u32,
    ) -> Fut<'_, Vec<RowKey>> {
        let keys = self.read(|c| expired(c, kind, &horizon, &after, batch));
        Box::pin(std::future::ready(keys))
    }

    fn delete_expired(
        &self,
        kind: Expiring,
        horizon: Horizon,
        after: RowKey,
        through: RowKey,
    ) -> Fut<'_, u64> {
        self.write(None, move |c| {
            delete_expired(c, kind, &horizon, &after, &through)
        })
    }

    fn hide_run(&self, id: String) -> Fut<'_, bool> {
        self.write(None, move |c| {
            let hidden = c
                .execute("UPDATE runs SET hidden = 1 WHERE id = ?1", [&id])
                .map_err(db)?;
            if hidden == 0 {
                return Ok(false);
            }
            let (player, mode): (PlayerId, String) = c
                .query_row(
                    "SELECT player_id, mode FROM runs WHERE id = ?1",
                    [&id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .map_err(db)?;
            rerank(c, player, &mode)?;
            Ok(true)
        })
    }

    fn ban_player(&self, name: String) -> Fut<'_, Option<String>> {
        self.write(None, move |c| {
            let found: Option<(PlayerId, String)> = c
                .query_row(
                    "UPDATE players SET banned = 1 WHERE id = (
                         SELECT id FROM players WHERE lower(name) = lower(?1) OR name_key = ?2
                         ORDER BY lower(name) = lower(?1) DESC, id LIMIT 1)
                     RETURNING id, name",
                    params![name, typepper_api::name_key(&name)],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(db)?;
            let Some((id, banned)) = found else {
                return Ok(None);
            };
            for sql in [
                "UPDATE runs SET hidden = 1 WHERE player_id = ?1",
                "DELETE FROM bests WHERE player_id = ?1",
                "DELETE FROM pbs WHERE player_id = ?1",
            ] {
                c.execute(sql, [id]).map_err(db)?;
            }
            Ok(Some(banned))
        })
    }
}

/// The keys of at most `batch` rows of `kind` expired at `horizon`, after `after`.
fn expired(
    c: &Connection,
    kind: Expiring,
    horizon: &Horizon,
    after: &RowKey,
    batch: u32,
) -> rusqlite::Result<Vec<RowKey>> {
    let ((table, key), expired) = (kind.table(), expired_when(kind));
    let sql = format!(
        "SELECT {key} FROM {table} WHERE {expired} AND ({key}) > (?2, ?3) ORDER BY {key} LIMIT ?4"
    );
    let mut s = c.prepare_cached(&sql)?;
    let (at, [a, b]) = (horizon.bound(kind), after.args());
    let rows = s.query_map(params![at, a, b, batch], |r| {
        Ok(match kind {
            Expiring::Runs => RowKey::Run(r.get(0)?, r.get(1)?),
            Expiring::Seeds => RowKey::Seed(r.get(0)?, r.get(1)?),
            Expiring::Usage => RowKey::Usage(r.get(0)?, r.get(1)?),
            Expiring::Players => RowKey::Player(r.get(0)?),
            Expiring::RoomSeeds => RowKey::Seed(r.get(0)?, r.get(1)?),
        })
    })?;
    rows.collect()
}

/// What makes a row of `kind` expired, reading its horizon ([`Horizon::bound`]) as ?1.
fn expired_when(kind: Expiring) -> &'static str {
    match kind {
        // `NOT IN` reads the bests once for the statement, where `NOT EXISTS` would look
        // each run up (there is no index on their run ids).
        Expiring::Runs => "created_ms < ?1 AND id NOT IN (SELECT run_id FROM bests)",
        Expiring::Seeds => "expires_ms < ?1",
        Expiring::Usage => "day < ?1",
        Expiring::Players => "created_ms < ?1 AND used = 0",
        Expiring::RoomSeeds => "until_ms < ?1",
    }
}

/// Deletes the rows of `kind` expired at `horizon` with keys in `(after, through]`, and a
/// released player's rows first.
fn delete_expired(
    c: &Connection,
    kind: Expiring,
    horizon: &Horizon,
    after: &RowKey,
    through: &RowKey,
) -> Result<u64, StoreError> {
    let ((table, key), expired) = (kind.table(), expired_when(kind));
    let (at, [a, b], [y, z]) = (horizon.bound(kind), after.args(), through.args());
    let range = format!("{expired} AND ({key}) > (?2, ?3) AND ({key}) <= (?4, ?5)");
    if kind == Expiring::Players {
        for rows in PLAYER_ROWS {
            c.execute(
                &format!(
                    "DELETE FROM {rows} WHERE player_id IN (SELECT id FROM players WHERE {range})"
                ),
                params![at, a, b, y, z],
            )
            .map_err(db)?;
        }
    }
    let deleted = c
        .execute(
            &format!("DELETE FROM {table} WHERE {range}"),
            params![at, a, b, y, z],
        )
        .map_err(db)?;
    Ok(deleted as u64)
}

/// Works out a player's monthly bests and personal best in `mode` again from their runs
/// on the boards, after one of them was hidden.
fn rerank(c: &Connection, player: PlayerId, mode: &str) -> Result<(), StoreError> {
    let on_board = "player_id = ?1 AND mode = ?2 AND unranked IS NULL AND pending IS NULL
                    AND hidden = 0";
    for sql in [
        "DELETE FROM bests WHERE player_id = ?1 AND mode = ?2".to_owned(),
        format!(
            "INSERT INTO bests (player_id, mode, month, run_id, score, wpm_x100, created_ms)
             SELECT player_id, mode, month, id, score, wpm_x100, created_ms FROM (
                 SELECT *, row_number() OVER (PARTITION BY month
                     ORDER BY score DESC, wpm_x100 DESC, created_ms) AS n
                 FROM runs WHERE {on_board}) WHERE n = 1"
        ),
        "DELETE FROM pbs WHERE player_id = ?1 AND mode = ?2".to_owned(),
        format!(
            "INSERT INTO pbs (player_id, mode, score, wpm_x100)
             SELECT player_id, mode, score, wpm_x100 FROM runs WHERE {on_board}
             ORDER BY score DESC, wpm_x100 DESC LIMIT 1"
        ),
    ] {
        c.execute(&sql, params![player, mode]).map_err(db)?;
    }
    // Its record, the best left on the boards, as of any day.
    c.execute(
        "UPDATE players SET best_day = NULL, record_x100 = NULL,
             best_x100 = (SELECT max(wpm_x100) FROM bests WHERE player_id = ?1)
         WHERE id = ?1",
        [player],
    )
    .map_err(db)?;
    Ok(())
}

/// Every stored round with one of `keys`, and the latest on each of `seeds`.
fn rounds(c: &Connection, keys: &[[u8; 32]], seeds: &[u64]) -> Result<Vec<KnownRound>, StoreError> {
    const COLUMNS: &str = "SELECT k.round_key, k.run_id, k.player_id, k.blocks, k.mode, k.seed,
                                  k.prefix, r.score, r.unranked, r.pending, r.id IS NOT NULL
                           FROM rounds k LEFT JOIN runs r ON r.id = k.run_id";
    let mut by_key = c
        .prepare_cached(&format!("{COLUMNS} WHERE k.round_key = ?1"))
        .map_err(db)?;
    let mut on_seed = c
        .prepare_cached(&format!(
            "{COLUMNS} WHERE k.seed = ?1 ORDER BY k.created_ms DESC LIMIT {}",
            super::ROUNDS_ON_A_SEED
        ))
        .map_err(db)?;
    let row = |r: &rusqlite::Row<'_>| {
        let key: Vec<u8> = r.get(0)?;
        let on = match (r.get::<_, Option<String>>(4)?, r.get::<_, Option<i64>>(5)?) {
            (Some(mode), Some(seed)) => Some((mode, seed as u64, r.get(6)?)),
            _ => None,
        };
        let stored: bool = r.get(10)?;
        Ok(KnownRound {
            key: key.try_into().unwrap_or_default(),
            run: r.get(1)?,
            player: r.get(2)?,
            blocks: r.get(3)?,
            on,
            stored: if stored {
                Some((r.get(7)?, super::standing(r.get(8)?, r.get(9)?)))
            } else {
                None
            },
        })
    };
    let mut out: Vec<KnownRound> = vec![];
    for key in keys {
        for found in by_key.query_map([&key[..]], row).map_err(db)? {
            out.push(found.map_err(db)?);
        }
    }
    for &seed in seeds {
        for found in on_seed.query_map([seed as i64], row).map_err(db)? {
            let found = found.map_err(db)?;
            if !out.iter().any(|k| k.run == found.run) {
                out.push(found);
            }
        }
    }
    Ok(out)
}

/// The issued seeds among `wanted`.
fn seeds(c: &Connection, wanted: &[u64]) -> Result<Vec<IssuedSeed>, StoreError> {
    let mut s = c
        .prepare_cached(
            "SELECT player_id, mode, issued_ms, expires_ms, run_id FROM seeds WHERE seed = ?1",
        )
        .map_err(db)?;
    let mut out = vec![];
    for &seed in wanted {
        let found = s
            .query_row([seed as i64], |r| {
                Ok(IssuedSeed {
                    seed,
                    player: r.get(0)?,
                    mode: r.get(1)?,
                    issued_ms: r.get(2)?,
                    expires_ms: r.get(3)?,
                    run: r.get(4)?,
                    room: false,
                })
            })
            .optional()
            .map_err(db)?;
        out.extend(found);
    }
    let mut s = c
        .prepare_cached("SELECT until_ms FROM room_seeds WHERE seed = ?1")
        .map_err(db)?;
    for &seed in wanted {
        let found = s
            .query_row([seed as i64], |r| {
                Ok(IssuedSeed {
                    seed,
                    player: 0,
                    mode: String::new(),
                    issued_ms: 0,
                    expires_ms: r.get(0)?,
                    run: None,
                    room: true,
                })
            })
            .optional()
            .map_err(db)?;
        out.extend(found);
    }
    Ok(out)
}

/// A connection as a [`Tx`]: the writer's, inside a piece of work's savepoint, or a
/// reader's.
struct SqliteTx<'c>(&'c Connection);

impl rusqlite::ToSql for Arg<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, Value};
        Ok(match *self {
            Arg::I32(v) => ToSqlOutput::Owned(Value::Integer(v.into())),
            Arg::I64(v) => ToSqlOutput::Owned(Value::Integer(v)),
            Arg::MaybeText(None) => ToSqlOutput::Owned(Value::Null),
            Arg::Text(v) | Arg::MaybeText(Some(v)) => v.to_sql()?,
            Arg::Bytes(v) => v.to_sql()?,
        })
    }
}

impl SqliteTx<'_> {
    /// `sql` prepared (once per connection), its `$1` parameters read as SQLite's `?1`.
    fn prepare(&self, sql: &str) -> Result<rusqlite::CachedStatement<'_>, StoreError> {
        self.0.prepare_cached(&sql.replace('$', "?")).map_err(db)
    }
}

impl Tx for SqliteTx<'_> {
    async fn execute(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<u64, StoreError> {
        let changed = self
            .prepare(sql)?
            .execute(rusqlite::params_from_iter(args))
            .map_err(db)?;
        Ok(changed as u64)
    }

    async fn insert(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<bool, StoreError> {
        match self.prepare(sql)?.execute(rusqlite::params_from_iter(args)) {
            Ok(_) => Ok(true),
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY =>
            {
                Ok(false)
            }
            Err(e) => Err(db(e)),
        }
    }

    async fn query(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<Vec<Row>, StoreError> {
        let mut s = self.prepare(sql)?;
        let width = s.column_count();
        let rows = s
            .query_map(rusqlite::params_from_iter(args), |r| {
                (0..width).map(|i| cell(r.get_ref(i)?)).collect()
            })
            .map_err(db)?;
        rows.map(|r| r.map(Row).map_err(db)).collect()
    }

    async fn rounds(
        &mut self,
        keys: &[[u8; 32]],
        seeds: &[u64],
    ) -> Result<Vec<KnownRound>, StoreError> {
        rounds(self.0, keys, seeds)
    }

    async fn seeds(&mut self, wanted: &[u64]) -> Result<Vec<IssuedSeed>, StoreError> {
        seeds(self.0, wanted)
    }
}

/// A SQLite value as a [`Cell`].
fn cell(v: rusqlite::types::ValueRef<'_>) -> rusqlite::Result<Cell> {
    use rusqlite::types::ValueRef;
    Ok(match v {
        ValueRef::Null => Cell::Null,
        ValueRef::Integer(i) => Cell::Int(i),
        ValueRef::Text(t) => Cell::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Cell::Bytes(b.to_vec()),
        ValueRef::Real(_) => {
            return Err(rusqlite::Error::InvalidColumnType(
                0,
                "a real".into(),
                rusqlite::types::Type::Real,
            ));
        }
    })
}

/// Copies the database at `from` to `to` while it may be in use (SQLite's online backup:
/// a consistent snapshot, pages copied in steps so that writers are not held up long).
/// Returns the copy's size in bytes.
pub fn backup(from: &Path, to: &Path) -> anyhow::Result<u64> {
    use anyhow::Context;
    if !from.exists() {
        anyhow::bail!("there is no database at {}", from.display());
    }
    let source = Connection::open_with_flags(from, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .with_context(|| format!("opening {}", from.display()))?;
    source.busy_timeout(std::time::Duration::from_secs(5))?;
    let part = PathBuf::from(format!("{}.part", to.display()));
    let _ = std::fs::remove_file(&part);
    {
        let mut dest =
            Connection::open(&part).with_context(|| format!("creating {}", part.display()))?;
        let step = rusqlite::backup::Backup::new(&source, &mut dest)?;
        step.run_to_completion(256, std::time::Duration::from_millis(5), None)
            .context("copying the pages")?;
    }
    // The copy appears whole or not at all.
    std::fs::rename(&part, to).with_context(|| format!("moving the copy to {}", to.display()))?;
    Ok(std::fs::metadata(to)?.len())
}
