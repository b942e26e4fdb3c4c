//! Where runs and players live: one trait, two backends.
//!
//! [`Store`] is synchronous on purpose: both backends block (SQLite always does, and the
//! `postgres` client wraps its own runtime), so the HTTP layer calls them from
//! `spawn_blocking`, off the async workers. Each backend keeps its own migrations in
//! `migrations/<backend>/`.

pub mod postgres;
pub mod sqlite;

use std::path::Path;
use std::sync::Arc;

/// A player's row id.
pub type PlayerId = i64;

/// A linked player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Row id.
    pub id: PlayerId,
    /// The name as chosen.
    pub name: String,
}

/// A verified run about to be stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewRun {
    /// 8 base62 characters.
    pub id: String,
    /// Whose run it is.
    pub player: PlayerId,
    /// `Mode::key`.
    pub mode: String,
    /// The headline number: wpm, or words in HOT PURSUIT.
    pub score: u32,
    /// wpm in hundredths (a tie-break between equal scores).
    pub wpm_x100: u32,
    /// Accuracy in hundredths of a percent.
    pub accuracy_x100: u32,
    /// From the first key to the end.
    pub duration_ms: u32,
    /// When it was stored.
    pub created_ms: i64,
    /// `YYYY-MM` of `created_ms`, UTC.
    pub month: String,
    /// SHA-256 of `replay`: a replay counts once.
    pub replay_hash: [u8; 32],
    /// The replay, format 1.
    pub replay: Vec<u8>,
}

/// A stored run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// Its id.
    pub id: String,
    /// The player's name.
    pub player: String,
    /// `Mode::key`.
    pub mode: String,
    /// The headline number.
    pub score: u32,
    /// wpm in hundredths.
    pub wpm_x100: u32,
    /// Accuracy in hundredths of a percent.
    pub accuracy_x100: u32,
    /// From the first key to the end.
    pub duration_ms: u32,
    /// When it was stored.
    pub created_ms: i64,
    /// The replay, format 1.
    pub replay: Vec<u8>,
}

/// One row of a board: a player's best run of the month in a mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRow {
    /// 1 for the best.
    pub rank: u32,
    /// The player's name.
    pub name: String,
    /// The headline number.
    pub score: u32,
    /// wpm in hundredths.
    pub wpm_x100: u32,
    /// Accuracy in hundredths of a percent.
    pub accuracy_x100: u32,
    /// The run, to play.
    pub run: String,
    /// When it was stored.
    pub created_ms: i64,
}

/// What a stored run did to the player's records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stored {
    /// It beats every earlier run of the player in its mode.
    pub pb: bool,
}

/// Why a store call failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The name is taken (ignoring case).
    #[error("the name {0:?} is taken")]
    NameTaken(String),
    /// A run with this id exists: draw another id.
    #[error("run id {0} exists")]
    IdTaken(String),
    /// The database failed.
    #[error("database: {0}")]
    Db(String),
}

/// Runs and players, in a database.
pub trait Store: Send + Sync + 'static {
    /// Creates a player whose name (lower-cased, `name_key`) is free.
    fn create_player(
        &self,
        name: &str,
        token_hash: &[u8; 32],
        now_ms: i64,
    ) -> Result<Player, StoreError>;

    /// The player whose token hashes to `token_hash`.
    fn player_by_token(&self, token_hash: &[u8; 32]) -> Result<Option<Player>, StoreError>;

    /// The id of a stored run whose replay hashes to `replay_hash`.
    fn duplicate_of(&self, replay_hash: &[u8; 32]) -> Result<Option<String>, StoreError>;

    /// Stores runs in one transaction (all or none), updating each player's monthly best
    /// and all-time best. Returns one [`Stored`] a run, in order.
    fn insert_runs(&self, runs: &[NewRun]) -> Result<Vec<Stored>, StoreError>;

    /// The run with `id`.
    fn run(&self, id: &str) -> Result<Option<Run>, StoreError>;

    /// The best run per player of `mode` in `month`, best first, at most `limit`.
    /// Better is a higher score, then a higher wpm, then earlier (then the older player,
    /// so that the order is the same on every backend).
    fn board(&self, mode: &str, month: &str, limit: u32) -> Result<Vec<BoardRow>, StoreError>;

    /// Deletes at most `batch` runs stored before `cutoff_ms` that are no player's
    /// monthly best. Returns how many it deleted.
    fn sweep(&self, cutoff_ms: i64, batch: u32) -> Result<u64, StoreError>;
}

/// Opens the store a database URL names: `postgres://…` / `postgresql://…`, or
/// `sqlite://<path>` / a bare path; with no URL, `typepper.sqlite3` in `data_dir`.
pub fn open(url: Option<&str>, data_dir: &Path) -> anyhow::Result<Arc<dyn Store>> {
    match url {
        Some(u) if u.starts_with("postgres://") || u.starts_with("postgresql://") => {
            Ok(Arc::new(postgres::PgStore::open(u)?))
        }
        Some(u) => {
            let path = u.strip_prefix("sqlite://").unwrap_or(u);
            Ok(Arc::new(sqlite::SqliteStore::open(Path::new(path))?))
        }
        None => {
            std::fs::create_dir_all(data_dir)?;
            Ok(Arc::new(sqlite::SqliteStore::open(
                &data_dir.join("typepper.sqlite3"),
            )?))
        }
    }
}
