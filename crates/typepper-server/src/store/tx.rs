//! The SQL each backend must speak: a transaction's few primitives, over which every
//! store operation is written once (the rest of `store/`).
//!
//! A [`Tx`] runs a statement, reads rows, and runs [`Batch`]es: one statement for many
//! rows, which SQLite runs once a row and PostgreSQL runs once, each column an array,
//! sent with the other batches of the call in one round trip. Statements are written
//! once, with PostgreSQL's `$1` parameters; SQLite reads them as `?1` (its [`Tx`] swaps
//! the sign). Both read `true`, `false` and `NOT column` alike. Where the two dialects
//! differ beyond that, each backend says how in its [`Dialect`].

use std::future::Future;

use super::StoreError;

/// A value for a statement's parameter. PostgreSQL checks each against its column's
/// type, so an integer says its width.
#[derive(Clone, Copy, Debug)]
pub enum Arg<'a> {
    /// An `INTEGER` column.
    I32(i32),
    /// A `BIGINT` column.
    I64(i64),
    /// A `BOOLEAN` column (SQLite's 0 or 1).
    Bool(bool),
    /// Text.
    Text(&'a str),
    /// Text, or `NULL`.
    MaybeText(Option<&'a str>),
    /// An `INTEGER`, or `NULL`.
    MaybeI32(Option<i32>),
    /// Bytes.
    Bytes(&'a [u8]),
    /// A set of row ids, for the [`Dialect::in_ids`] test.
    Ids(&'a [i64]),
}

/// One column of a row read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// `NULL`.
    Null,
    /// An integer of any width, or a boolean (0 or 1).
    Int(i64),
    /// Text.
    Text(String),
    /// Bytes.
    Bytes(Vec<u8>),
}

/// A row read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row(pub Vec<Cell>);

impl Row {
    /// Column `i` as an integer; `None` if it is `NULL` (or not an integer).
    pub fn int(&self, i: usize) -> Option<i64> {
        match self.0.get(i) {
            Some(Cell::Int(v)) => Some(*v),
            _ => None,
        }
    }

    /// Column `i` as a `u32` (0 if it is none).
    pub fn uint(&self, i: usize) -> u32 {
        self.int(i).and_then(|v| u32::try_from(v).ok()).unwrap_or(0)
    }

    /// Column `i` as a boolean (false if it is none).
    pub fn bool(&self, i: usize) -> bool {
        self.int(i).unwrap_or(0) != 0
    }

    /// Column `i` as text; `None` if it is `NULL`.
    pub fn maybe_text(&self, i: usize) -> Option<String> {
        match self.0.get(i) {
            Some(Cell::Text(t)) => Some(t.clone()),
            _ => None,
        }
    }

    /// Column `i` as bytes (empty if it is none).
    pub fn bytes(&self, i: usize) -> Vec<u8> {
        match self.0.get(i) {
            Some(Cell::Bytes(b)) => b.clone(),
            _ => vec![],
        }
    }

    /// Column `i` as text (empty if it is none).
    pub fn text(&self, i: usize) -> String {
        self.maybe_text(i).unwrap_or_default()
    }
}

/// Postgres integers are signed; every number stored here fits in them.
pub fn int(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// One field of every row of a [`Batch`].
#[derive(Clone, Debug)]
pub enum Column<'a> {
    /// `INTEGER`s.
    I32(Vec<i32>),
    /// `BIGINT`s.
    I64(Vec<i64>),
    /// Texts.
    Text(Vec<&'a str>),
    /// Texts or `NULL`s.
    MaybeText(Vec<Option<&'a str>>),
    /// `INTEGER`s or `NULL`s.
    MaybeI32(Vec<Option<i32>>),
    /// Bytes.
    Bytes(Vec<&'a [u8]>),
}

impl Column<'_> {
    /// How many rows it has.
    pub fn len(&self) -> usize {
        match self {
            Column::I32(v) => v.len(),
            Column::I64(v) => v.len(),
            Column::Text(v) => v.len(),
            Column::MaybeText(v) => v.len(),
            Column::MaybeI32(v) => v.len(),
            Column::Bytes(v) => v.len(),
        }
    }

    /// Row `i`'s value, as the parameter of a statement for one row.
    pub fn arg(&self, i: usize) -> Arg<'_> {
        match self {
            Column::I32(v) => Arg::I32(v[i]),
            Column::I64(v) => Arg::I64(v[i]),
            Column::Text(v) => Arg::Text(v[i]),
            Column::MaybeText(v) => Arg::MaybeText(v[i]),
            Column::MaybeI32(v) => Arg::MaybeI32(v[i]),
            Column::Bytes(v) => Arg::Bytes(v[i]),
        }
    }
}

/// One statement for many rows, written both ways: `each` for one row at a time, its
/// columns as `$1`, `$2`, …; `arrays` for every row at once, each column an array
/// (PostgreSQL's `unnest`, or `= ANY`). Whatever is not about rows (a conflict's rule, a
/// condition) is written once, and spliced into both (the macros of `submission.rs`).
#[derive(Clone, Debug)]
pub struct Batch<'a> {
    /// The statement for one row.
    pub each: &'a str,
    /// The statement for every row at once.
    pub arrays: &'a str,
    /// The rows, a field at a time; every column as long as the first.
    pub columns: Vec<Column<'a>>,
}

impl Batch<'_> {
    /// How many rows it has (none: the batch is not run).
    pub fn rows(&self) -> usize {
        self.columns.first().map_or(0, Column::len)
    }

    /// Row `i`'s values, as the parameters of `each`.
    pub fn args(&self, i: usize) -> Vec<Arg<'_>> {
        self.columns.iter().map(|c| c.arg(i)).collect()
    }
}

/// Where a backend's SQL differs, beyond its parameters' sign and its batches.
#[derive(Clone, Copy, Debug)]
pub struct Dialect {
    /// What a `SELECT` ends with to lock the rows it reads until the transaction ends:
    /// ` FOR UPDATE`, or nothing where there is one writer and so nothing to lock.
    pub for_update: &'static str,
    /// Whether a column (before it) is one of the set of ids `$1` ([`Arg::Ids`]).
    pub in_ids: &'static str,
    /// What makes a run expired, its horizon as `$1`: stored before it, and no monthly
    /// best's run (each planner has its faster way to say it).
    pub expired_runs: &'static str,
    /// The `LIMIT` of no limit, before an `OFFSET`.
    pub no_limit: &'static str,
}

/// A transaction (or a connection outside one), as each backend gives one. Its futures
/// are `Send`, so that work over any backend's can be written once and still go to
/// another thread: SQLite's are ready when first polled (see [`now`]).
pub trait Tx: Send {
    /// Where this backend's SQL differs.
    const DIALECT: Dialect;

    /// [`DIALECT`](Tx::DIALECT), of a transaction at hand.
    fn dialect(&self) -> Dialect {
        Self::DIALECT
    }

    /// Runs `sql`; how many rows it changed.
    fn execute(
        &mut self,
        sql: &str,
        args: &[Arg<'_>],
    ) -> impl Future<Output = Result<u64, StoreError>> + Send;

    /// The rows `sql` returns.
    fn query(
        &mut self,
        sql: &str,
        args: &[Arg<'_>],
    ) -> impl Future<Output = Result<Vec<Row>, StoreError>> + Send;

    /// Runs `batches` in order, each for every row of its (a batch of no rows is not
    /// run); the rows each returned, all of its rows' together. SQLite runs a batch's
    /// `each` once a row; PostgreSQL runs its `arrays` once, and sends every batch
    /// before reading the first answer, so they cost one round trip together. Should one
    /// fail, the ones after it are not kept.
    fn batches(
        &mut self,
        batches: &[Batch<'_>],
    ) -> impl Future<Output = Result<Vec<Vec<Row>>, StoreError>> + Send;
}

/// Locks `player`'s row until the transaction ends, where rows can be locked: whoever
/// takes a player's row first, as a submission does, never waits on a transaction that
/// waits on it.
pub async fn lock_player<T: Tx>(tx: &mut T, player: i64) -> Result<(), StoreError> {
    let lock = T::DIALECT.for_update;
    if !lock.is_empty() {
        let sql = format!("SELECT 1 FROM players WHERE id = $1{lock}");
        tx.query(&sql, &[Arg::I64(player)]).await?;
    }
    Ok(())
}

/// Runs a future that never waits (SQLite's: each statement is done when it is called),
/// on the thread that asks, with no runtime.
pub fn now<F: Future>(work: F) -> F::Output {
    let mut work = std::pin::pin!(work);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match work.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(out) => out,
        // Nothing under a SQLite `Tx` awaits anything: reaching here is a bug in this file.
        std::task::Poll::Pending => panic!("a SQLite statement waited, which none can"),
    }
}
