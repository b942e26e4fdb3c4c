//! Where runs, players and issued seeds live: one trait, two backends.
//!
//! [`Store`] is asynchronous: PostgreSQL through an async client and a pool, SQLite with
//! its point reads done where the request is (they take microseconds: no hop to a
//! blocking thread) and its writes on one writer thread, which commits the submissions
//! waiting at the same moment together, one transaction and one fsync for all of them
//! (group commit). Each backend keeps its own migrations in `migrations/<backend>/`.
//!
//! A submission's rules (what is a copy, what is ranked, the quota) live once, with the
//! caller, as a [`Job`]'s plan: the store reads what the plan needs ([`Known`]) inside
//! the transaction, with the rows it depends on locked, runs the plan, and writes what it
//! says.

pub mod postgres;
pub mod sqlite;

use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;

/// What a store call gives back, some time later.
pub type Fut<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

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
    /// Its fingerprint's key.
    pub key: [u8; 32],
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
    /// The database can't be reached, or can't write (down, restarting, its disk full):
    /// worth trying again later.
    #[error("the database is unavailable: {0}")]
    Unavailable(String),
    /// The work waited past its deadline before it started, and was not done.
    #[error("the database was too busy to start in time")]
    Late,
    /// The database failed.
    #[error("database: {0}")]
    Db(String),
}

/// What the database knows that a submission's plan depends on, read inside its
/// transaction with those rows locked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Known {
    /// Every stored round with one of the job's keys.
    pub rounds: Vec<KnownRound>,
    /// The job's seeds that the server issued (and has not swept).
    pub seeds: Vec<IssuedSeed>,
    /// The player's usage on the job's day.
    pub usage: Usage,
}

/// What a plan does with one entry of a submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Store this run (its round, its usage, its seed, and its best if ranked).
    Store(Box<NewRun>),
    /// Store nothing: the entry's answer is this line, as the plan wrote it.
    Answer(String),
}

/// What became of one [`Step`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Done {
    /// Stored, and what that did to the player's records.
    Stored(Box<NewRun>, Stored),
    /// Answered without storing.
    Answered(String),
}

/// A plan: the steps of a submission, decided from what the database knows, or why
/// nothing of it is to be stored (`Err`, a sentence). It may be called again (with fresh
/// run ids) if a run id turns out to be taken.
pub type Plan = Box<dyn FnMut(&Known) -> Result<Vec<Step>, String> + Send>;

/// One submission, for [`Store::submit`].
pub struct Job {
    /// Whose.
    pub player: PlayerId,
    /// The UTC day (`YYYY-MM-DD`) its usage counts on.
    pub day: String,
    /// The fingerprint keys of its rounds: their stored rounds are read, and locked.
    pub keys: Vec<[u8; 32]>,
    /// Its rounds' seeds, to read.
    pub seeds: Vec<u64>,
    /// Not started by then, it is not done at all ([`StoreError::Late`]).
    pub deadline: Instant,
    /// What to store.
    pub plan: Plan,
}

/// Runs, players and issued seeds, in a database.
pub trait Store: Send + Sync + 'static {
    /// Creates a player whose name (lower-cased, `name_key`) is free.
    fn create_player(&self, name: String, token_hash: [u8; 32], now_ms: i64) -> Fut<'_, Player>;

    /// The player whose token hashes to `token_hash`.
    fn player_by_token(&self, token_hash: [u8; 32]) -> Fut<'_, Option<Player>>;

    /// Links the SSH key with `fingerprint` to `player`, in place of any player it was
    /// linked to before.
    fn link_key(&self, fingerprint: String, player: PlayerId, now_ms: i64) -> Fut<'_, ()>;

    /// The player the SSH key with `fingerprint` is linked to.
    fn player_by_key(&self, fingerprint: String) -> Fut<'_, Option<Player>>;

    /// Keeps an issued seed. If its player then has more than `max_open` seeds that are
    /// neither used nor expired, the oldest of them are withdrawn (deleted).
    /// [`StoreError::SeedTaken`] if the seed exists.
    fn issue_seed(&self, seed: IssuedSeed, max_open: u32) -> Fut<'_, ()>;

    /// Runs a submission in one transaction: locks its player and keys, reads what it
    /// needs, runs its plan, stores what the plan says, and commits; a plan's `Err`
    /// rolls it back and comes back as `Ok(Err(why))`. Answered only once committed.
    fn submit(&self, job: Job) -> Fut<'_, Result<Vec<Done>, String>>;

    /// The run with `id`.
    fn run(&self, id: String) -> Fut<'_, Option<Run>>;

    /// The best ranked run per player of `mode` in `month`, best first, at most `limit`.
    /// Better is a higher score, then a higher wpm, then earlier (then the older player,
    /// so that the order is the same on every backend).
    fn board(&self, mode: String, month: String, limit: u32) -> Fut<'_, Vec<BoardRow>>;

    /// One batch of retention: at most `batch` rows of each kind older than `horizon`.
    fn sweep(&self, horizon: Horizon, batch: u32) -> Fut<'_, Swept>;

    /// For a store that commits several pieces of work together: how many commits so
    /// far, and how many pieces of work they carried.
    fn commits(&self) -> Option<(u64, u64)> {
        None
    }
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

/// How a store is opened: where, and its limits.
#[derive(Clone, Debug)]
pub struct Options {
    /// `postgres://…` / `postgresql://…`, or `sqlite://<path>` / a bare path; with none,
    /// `typepper.sqlite3` in `data_dir`.
    pub url: Option<String>,
    /// The embedded database's folder.
    pub data_dir: std::path::PathBuf,
    /// Most submissions one SQLite commit carries (1: a commit each).
    pub group_commit: usize,
    /// Most PostgreSQL connections this server opens.
    pub pg_connections: usize,
    /// How long a PostgreSQL connection, or a wait for a free one, may take.
    pub pg_timeout: std::time::Duration,
}

impl Options {
    /// The defaults for `url` in `data_dir`.
    pub fn new(url: Option<&str>, data_dir: &Path) -> Options {
        Options {
            url: url.map(str::to_owned),
            data_dir: data_dir.to_owned(),
            group_commit: 64,
            pg_connections: 16,
            pg_timeout: std::time::Duration::from_secs(5),
        }
    }

    /// Whether this is PostgreSQL.
    pub fn is_postgres(&self) -> bool {
        self.url
            .as_deref()
            .is_some_and(|u| u.starts_with("postgres://") || u.starts_with("postgresql://"))
    }

    /// The SQLite file, if this is SQLite.
    pub fn sqlite_path(&self) -> Option<std::path::PathBuf> {
        match self.url.as_deref() {
            _ if self.is_postgres() => None,
            Some(u) => Some(u.strip_prefix("sqlite://").unwrap_or(u).into()),
            None => Some(self.data_dir.join("typepper.sqlite3")),
        }
    }
}

/// Opens the store `options` name, running its migrations.
pub async fn open(options: &Options) -> anyhow::Result<Arc<dyn Store>> {
    match options.sqlite_path() {
        None => {
            let url = options.url.as_deref().unwrap_or_default();
            Ok(Arc::new(postgres::PgStore::open(url, options).await?))
        }
        Some(path) => {
            if options.url.is_none() {
                std::fs::create_dir_all(&options.data_dir)?;
            }
            let store = sqlite::SqliteStore::open(&path, options.group_commit)?;
            Ok(Arc::new(store))
        }
    }
}
