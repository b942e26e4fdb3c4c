//! Where runs, players and issued seeds live: one trait, two backends.
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
    /// `YYYY-MM-DD` of `created_ms`, UTC: the day its quota counts it on.
    pub day: String,
    /// The replay, format 1.
    pub replay: Vec<u8>,
    /// What makes the round itself, kept after the run expires.
    pub round: RoundPrint,
    /// Why it is not ranked; `None` when it is (on a board, and a pb if best).
    pub unranked: Option<String>,
    /// The issued seed it uses up, if it was played on one issued to its player.
    pub uses_seed: Option<u64>,
}

/// A round's fingerprint as stored: see `submit::fingerprint`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundPrint {
    /// SHA-256 of the mode, the seed and the keystrokes.
    pub key: [u8; 32],
    /// The timing blocks.
    pub blocks: Vec<u8>,
}

/// A stored round with a given key: the run it was, and whether that run is still here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownRound {
    /// The run's id (its run may have expired).
    pub run: String,
    /// Whose it was.
    pub player: PlayerId,
    /// The timing blocks.
    pub blocks: Vec<u8>,
    /// The run's score and standing, while the run is stored.
    pub stored: Option<(u32, Option<String>)>,
}

/// A seed the server issued.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IssuedSeed {
    /// The seed.
    pub seed: u64,
    /// Who it was issued to.
    pub player: PlayerId,
    /// The mode it was issued for.
    pub mode: String,
    /// When.
    pub issued_ms: i64,
    /// When it stops counting.
    pub expires_ms: i64,
    /// The run it counted for, once one has.
    pub run: Option<String>,
}

/// A player's runs and stored bytes on one UTC day.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Runs stored.
    pub runs: u32,
    /// Replay bytes stored.
    pub bytes: u64,
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
    /// Why it is not ranked; `None` when it is.
    pub unranked: Option<String>,
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
    /// It beats every earlier ranked run of the player in its mode.
    pub pb: bool,
}

/// What a retention sweep deleted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Swept {
    /// Expired runs.
    pub runs: u64,
    /// Expired seeds.
    pub seeds: u64,
    /// Players who never had a run stored, whose names are free again.
    pub players: u64,
}

/// Whether a transaction's work is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Commit {
    /// Commit it.
    Yes,
    /// Roll it back: nothing it did is kept.
    No,
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
    /// The seed was issued already: draw another.
    #[error("seed {0} was issued already")]
    SeedTaken(u64),
    /// The database failed.
    #[error("database: {0}")]
    Db(String),
}

/// One submission's transaction: everything a submission reads and writes, on one
/// connection, in one transaction (see [`Store::submit`]). The rules for what is stored
/// live with the caller, once for both backends; these are only reads and writes.
pub trait Tx {
    /// Makes every other submission by `player`, and every other submission of a round
    /// with one of `keys`, wait until this transaction ends, on every server instance.
    fn lock(&mut self, player: PlayerId, keys: &[[u8; 32]]) -> Result<(), StoreError>;

    /// `player`'s usage on `day` (`YYYY-MM-DD`).
    fn usage(&mut self, player: PlayerId, day: &str) -> Result<Usage, StoreError>;

    /// Every stored round with fingerprint key `key`.
    fn rounds(&mut self, key: &[u8; 32]) -> Result<Vec<KnownRound>, StoreError>;

    /// The issued seed `seed`, if the server issued it and has not swept it.
    fn seed(&mut self, seed: u64) -> Result<Option<IssuedSeed>, StoreError>;

    /// Stores a run and its round, counts it in its player's usage, uses up its seed, and
    /// if it is ranked updates the player's monthly best and all-time best.
    /// [`StoreError::IdTaken`] if the id is taken.
    fn insert(&mut self, run: &NewRun) -> Result<Stored, StoreError>;
}

/// Runs, players and issued seeds, in a database.
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

    /// Keeps an issued seed. If its player then has more than `max_open` seeds that are
    /// neither used nor expired, the oldest of them are withdrawn (deleted).
    /// [`StoreError::SeedTaken`] if the seed exists.
    fn issue_seed(&self, seed: &IssuedSeed, max_open: u32) -> Result<(), StoreError>;

    /// Runs `work` in one transaction and commits what it did if it says
    /// [`Commit::Yes`]. An error from `work` rolls back and is returned.
    fn submit(
        &self,
        work: &mut dyn FnMut(&mut dyn Tx) -> Result<Commit, StoreError>,
    ) -> Result<(), StoreError>;

    /// The run with `id`.
    fn run(&self, id: &str) -> Result<Option<Run>, StoreError>;

    /// The best ranked run per player of `mode` in `month`, best first, at most `limit`.
    /// Better is a higher score, then a higher wpm, then earlier (then the older player,
    /// so that the order is the same on every backend).
    fn board(&self, mode: &str, month: &str, limit: u32) -> Result<Vec<BoardRow>, StoreError>;

    /// One batch of retention: at most `batch` runs stored before `cutoff_ms` that are no
    /// player's monthly best; seeds that expired before `now_ms`; days of usage before
    /// `day`; and players linked before `unused_before_ms` who never had a run stored.
    fn sweep(&self, horizon: &Horizon, batch: u32) -> Result<Swept, StoreError>;
}

/// What a retention sweep deletes: everything older than these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Horizon {
    /// Runs stored before this (unless a monthly best).
    pub runs_before_ms: i64,
    /// Seeds that expired before this.
    pub seeds_before_ms: i64,
    /// Usage of days before this one (`YYYY-MM-DD`).
    pub usage_before_day: String,
    /// Players linked before this who never had a run stored.
    pub unused_players_before_ms: i64,
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
