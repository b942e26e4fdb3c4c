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
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rusqlite::{Connection, ErrorCode};
use tokio::sync::oneshot;

use super::backend::{Access, Backend, Work};
use super::group::{self, Commits, Waiting};
use super::tx::{self, Arg, Batch, Cell, Dialect, Row, Tx};
use super::{Done, Fut, Job, StoreError, submission};

/// Migrations in order; `PRAGMA user_version` is how many have run.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/sqlite/0001_init.sql"),
    include_str!("../../migrations/sqlite/0002_trust.sql"),
    include_str!("../../migrations/sqlite/0003_keys.sql"),
    include_str!("../../migrations/sqlite/0004_guard.sql"),
    include_str!("../../migrations/sqlite/0005_guests.sql"),
    include_str!("../../migrations/sqlite/0006_saves.sql"),
    include_str!("../../migrations/sqlite/0007_rooms.sql"),
    include_str!("../../migrations/sqlite/0008_quotes.sql"),
    include_str!("../../migrations/sqlite/0009_alltime.sql"),
    include_str!("../../migrations/sqlite/0010_devices.sql"),
    include_str!("../../migrations/sqlite/0011_deleted.sql"),
    include_str!("../../migrations/sqlite/0012_profiles.sql"),
    include_str!("../../migrations/sqlite/0013_daily.sql"),
];

/// Readers beside the writer.
const READERS: usize = 4;

/// SQLite behind [`Store`].
pub struct SqliteStore {
    readers: Vec<Mutex<Connection>>,
    next: AtomicUsize,
    /// To the writer thread; `None` once closing.
    work: Option<mpsc::Sender<Box<dyn Writing>>>,
    writer: Option<std::thread::JoinHandle<()>>,
    /// Transactions the writer committed, and the pieces of work they carried.
    commits: Arc<Commits>,
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
        let commits = Arc::new(Commits::default());
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
        self.commits.get().0
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

    /// Hands `work` to the writer; the answer comes once its transaction committed.
    fn write<T: Send + 'static>(
        &self,
        deadline: Option<Instant>,
        work: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Fut<'_, T> {
        let (reply, answer) = oneshot::channel();
        let task = Task {
            work: Some(work),
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
trait Writing: Send {
    /// Nobody waits for the answer any more.
    fn abandoned(&self) -> bool;
    /// When it must have started by.
    fn deadline(&self) -> Option<Instant>;
    /// Does the work inside the group's transaction; an error undoes only this work.
    fn run(&mut self, conn: &mut Connection);
    /// The transaction committed: answer.
    fn committed(self: Box<Self>);
    /// It didn't, or the work was not done: answer `e`.
    fn failed(self: Box<Self>, e: StoreError);
}

impl Waiting for Box<dyn Writing> {
    fn abandoned(&self) -> bool {
        (**self).abandoned()
    }

    fn deadline(&self) -> Option<Instant> {
        (**self).deadline()
    }

    fn late(self) {
        self.failed(StoreError::Late);
    }
}

struct Task<T, F> {
    /// `None` once done.
    work: Option<F>,
    deadline: Option<Instant>,
    result: Option<Result<T, StoreError>>,
    reply: oneshot::Sender<Result<T, StoreError>>,
}

impl<T, F> Writing for Task<T, F>
where
    T: Send,
    F: FnOnce(&mut Connection) -> Result<T, StoreError> + Send,
{
    fn abandoned(&self) -> bool {
        self.reply.is_closed()
    }

    fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    fn run(&mut self, conn: &mut Connection) {
        let Some(work) = self.work.take() else {
            return;
        };
        let result = conn
            .execute_batch("SAVEPOINT work")
            .map_err(db)
            .and_then(|()| work(conn));
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
    queue: &mpsc::Receiver<Box<dyn Writing>>,
    group: usize,
    commits: &Commits,
) {
    while let Ok(first) = queue.recv() {
        let mut todo = group::gather(first, || queue.try_recv().ok(), group);
        if todo.is_empty() {
            continue;
        }
        // IMMEDIATE takes the write lock now: another process on the same file waits here
        // (busy_timeout) rather than failing at its first write. Begun by hand, not as a
        // rusqlite `Transaction`, which lends its work only a shared connection, and a
        // `Tx` over one could not go between threads (see `Tx`).
        if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
            let e = db(e);
            for w in todo {
                w.failed(e.again());
            }
            continue;
        }
        for w in &mut todo {
            w.run(&mut conn);
        }
        match commit(&conn) {
            Ok(()) => {
                commits.add(todo.len());
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

/// Commits the transaction `conn` is in; if that fails, rolls back what is left of it,
/// as a rusqlite `Transaction` dropped would.
fn commit(conn: &Connection) -> rusqlite::Result<()> {
    let committed = conn.execute_batch("COMMIT");
    if committed.is_err() && !conn.is_autocommit() {
        let _ = conn.execute_batch("ROLLBACK");
    }
    committed
}

impl Backend for SqliteStore {
    type Tx<'t> = Conn<'t>;

    fn work<T: Send + 'static>(&self, access: Access, work: impl Work<Self, T>) -> Fut<'_, T> {
        match access {
            Access::Read => {
                let mut reader = self.reader();
                let done = tx::now(work(&mut Conn(&mut reader)));
                Box::pin(std::future::ready(done))
            }
            // The writer is the only writer: nothing changes between a work's reads and
            // its writes.
            Access::Write | Access::Transaction => {
                self.write(None, move |c| tx::now(work(&mut Conn(c))))
            }
        }
    }

    fn queue(&self, mut job: Job) -> Fut<'_, Result<Vec<Done>, String>> {
        // The writer is the only writer: the job's rows can't change under it.
        let deadline = job.deadline;
        self.write(Some(deadline), move |c| {
            tx::now(submission::submit(&mut Conn(c), &mut job))
        })
    }

    fn commits(&self) -> Option<(u64, u64)> {
        Some(self.commits.get())
    }
}

/// A connection as a [`Tx`]: the writer's, inside a piece of work's savepoint, or a
/// reader's. It holds the connection itself, not a shared reference, so that it may be
/// sent (it never is: SQLite's work is done where it is given).
pub struct Conn<'c>(&'c mut Connection);

impl rusqlite::ToSql for Arg<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, Value};
        Ok(match *self {
            Arg::I32(v) => ToSqlOutput::Owned(Value::Integer(v.into())),
            Arg::I64(v) => ToSqlOutput::Owned(Value::Integer(v)),
            Arg::Bool(v) => ToSqlOutput::Owned(Value::Integer(v.into())),
            Arg::MaybeText(None) | Arg::MaybeI32(None) => ToSqlOutput::Owned(Value::Null),
            Arg::MaybeI32(Some(v)) => ToSqlOutput::Owned(Value::Integer(v.into())),
            Arg::Text(v) | Arg::MaybeText(Some(v)) => v.to_sql()?,
            Arg::Bytes(v) => v.to_sql()?,
            // A JSON array, for `json_each` ([`Dialect::in_ids`]).
            Arg::Ids(ids) => {
                let ids: Vec<String> = ids.iter().map(i64::to_string).collect();
                ToSqlOutput::Owned(Value::Text(format!("[{}]", ids.join(","))))
            }
        })
    }
}

impl Conn<'_> {
    /// `sql` prepared (once per connection), its `$1` parameters read as SQLite's `?1`.
    fn prepare(&self, sql: &str) -> Result<rusqlite::CachedStatement<'_>, StoreError> {
        self.0.prepare_cached(&sql.replace('$', "?")).map_err(db)
    }
}

/// The rows `s` returns for `args`.
fn rows(s: &mut rusqlite::CachedStatement<'_>, args: &[Arg<'_>]) -> Result<Vec<Row>, StoreError> {
    let width = s.column_count();
    let rows = s
        .query_map(rusqlite::params_from_iter(args), |r| {
            (0..width).map(|i| cell(r.get_ref(i)?)).collect()
        })
        .map_err(db)?;
    rows.map(|r| r.map(Row).map_err(db)).collect()
}

impl Tx for Conn<'_> {
    const DIALECT: Dialect = Dialect {
        // The writer is the only writer: no row it reads can change before it commits.
        for_update: "",
        // A set as a JSON array, one statement for all: run once a player, as a batch
        // is, a delete would scan each table with no index on `player_id` (runs,
        // rounds) once for each.
        in_ids: "IN (SELECT value FROM json_each($1))",
        // `NOT IN` reads the bests once for the statement, where `NOT EXISTS` would look
        // each run up (there is no index on their run ids).
        expired_runs: "created_ms < $1 AND id NOT IN (SELECT run_id FROM bests)",
        no_limit: "LIMIT -1",
    };

    async fn execute(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<u64, StoreError> {
        let changed = self
            .prepare(sql)?
            .execute(rusqlite::params_from_iter(args))
            .map_err(db)?;
        Ok(changed as u64)
    }

    async fn query(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<Vec<Row>, StoreError> {
        rows(&mut self.prepare(sql)?, args)
    }

    async fn batches(&mut self, batches: &[Batch<'_>]) -> Result<Vec<Vec<Row>>, StoreError> {
        let mut out = Vec::with_capacity(batches.len());
        for batch in batches {
            let mut found = vec![];
            if batch.rows() > 0 {
                let mut s = self.prepare(batch.each)?;
                for i in 0..batch.rows() {
                    found.extend(rows(&mut s, &batch.args(i))?);
                }
            }
            out.push(found);
        }
        Ok(out)
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
