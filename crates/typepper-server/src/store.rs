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
//!
//! The store's own rules live once too. A backend gives a few primitives (`tx.rs`: run a
//! statement, read rows, run batches; `backend.rs`: run work where its access says, and
//! commit submissions its way), and every operation is written over them, by what it is
//! about: `players.rs`, `seeds.rs`, `boards.rs`, `retention.rs` and `submission.rs`.
//! `sqlite.rs` and `postgres.rs` keep only their connections, their writers and where
//! their SQL differs.

mod backend;
mod boards;
mod dailies;
mod devices;
mod group;
mod players;
pub mod postgres;
mod profiles;
mod retention;
mod seeds;
pub mod sqlite;
mod submission;
mod tx;

pub use profiles::{ProfileRows, RunRow};

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

/// What a run is, stored or about to be: the fields of a [`NewRun`] and a [`Run`] alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// 8 base62 characters.
    pub id: String,
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
    /// The replay, format 1.
    pub replay: Vec<u8>,
    /// Why it is not ranked; `None` when it is (on a board, and a pb if best). Kept as
    /// the sentence its answer line says, as the run's row holds it.
    pub unranked: Option<String>,
    /// Why a ranked run waits off the boards until its player confirms it; `None` when
    /// it doesn't wait.
    pub pending: Option<String>,
}

impl Played {
    /// Whether it goes on the boards now: ranked, and not waiting to be confirmed.
    pub fn on_boards(&self) -> bool {
        self.unranked.is_none() && self.pending.is_none()
    }
}

/// A verified run about to be stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewRun {
    /// The run.
    pub played: Played,
    /// Whose run it is.
    pub player: PlayerId,
    /// `YYYY-MM` of `created_ms`, UTC.
    pub month: String,
    /// `YYYY-MM-DD` of `created_ms`, UTC: the day its quota counts it on.
    pub day: String,
    /// What makes the round itself, kept after the run expires.
    pub round: RoundPrint,
    /// The player's pending runs this one confirms: they go onto the boards with it.
    pub confirms: Vec<String>,
    /// The issued seed it uses up, if it was played on one issued to its player.
    pub uses_seed: Option<u64>,
    /// The daily it was played on, if it was: it goes on no board of its mode.
    pub daily: Option<OnDaily>,
}

/// A run played on a daily's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OnDaily {
    /// The daily's number.
    pub number: u32,
    /// It is its player's first try of the daily, and counts for it: it is on the day's
    /// board if it is ranked.
    pub first_try: bool,
}

impl NewRun {
    /// Whether it goes on its mode's boards now (a daily's run goes on the day's).
    pub fn on_boards(&self) -> bool {
        self.played.on_boards() && self.daily.is_none()
    }
}

/// A player's try of a daily ([`Store::try_daily`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyTry {
    /// This try is their first.
    pub first: bool,
    /// When their first try was.
    pub issued_ms: i64,
    /// The run that counted for it, once one has.
    pub run: Option<String>,
}

/// An entry on a daily's board: a player's first try, or a run (which is on it only if
/// it is its player's first try).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DailyEntry {
    /// The player's.
    Of(PlayerId),
    /// The run with this id.
    Run(String),
}

/// Where a player's first try stands on its daily's board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyPlace {
    /// The run.
    pub run: String,
    /// Its headline number.
    pub score: u32,
    /// 1 for the best.
    pub place: u32,
    /// How many are on the board.
    pub of: u32,
}

/// A daily a submission's seed is the text of, and the player's first try of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownDaily {
    /// The daily's number.
    pub number: u32,
    /// Its seed.
    pub seed: u64,
    /// The player's first try: when, and the run that counted for it; `None` if they
    /// never asked for it.
    pub tried: Option<(i64, Option<String>)>,
}

/// A round's fingerprint as stored: see `submit::fingerprint`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundPrint {
    /// SHA-256 of the mode, the seed and the keystrokes.
    pub key: [u8; 32],
    /// The timing blocks.
    pub blocks: Vec<u8>,
    /// The round's seed (its mode is the run's).
    pub seed: u64,
    /// The chained hashes of the keystrokes at each block's end.
    pub prefix: Vec<u8>,
}

/// A stored round with one of a submission's keys, or on one of its seeds: the run it
/// was, and whether that run is still here.
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
    /// Its mode and seed, and its chained prefix hashes; `None` for a round stored before
    /// they were kept.
    pub on: Option<(String, u64, Vec<u8>)>,
    /// The run's score and standing, while the run is stored.
    pub stored: Option<(u32, Ranked)>,
}

/// A stored run's standing, as its answer line says it.
pub type Ranked = typepper_api::Ranked;

/// A stored run's standing, from its `unranked` and `pending` columns.
pub fn standing(unranked: Option<String>, pending: Option<String>) -> Ranked {
    match (unranked, pending) {
        (Some(why), _) => Ranked::No(why),
        (None, Some(why)) => Ranked::Pending(why),
        (None, None) => Ranked::Yes,
    }
}

/// The most rounds on one seed that a submission on it is compared with, the latest
/// first: a seed many people raced (a popular share link) costs a bounded read.
pub const ROUNDS_ON_A_SEED: u32 = 512;

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
    /// A live room's seed rather than a player's: no submission outside the room may use
    /// it until `expires_ms` (the room stores its rounds itself; docs/TRUST.md).
    pub room: bool,
}

/// Chooses the quote a seed is issued for, given the quotes (their mode keys) its player
/// was shown: `None` when none of those asked for is left.
pub type Pick = Box<dyn FnOnce(&std::collections::HashSet<String>) -> Option<String> + Send>;

/// A player's runs and stored bytes on one UTC day.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Runs stored.
    pub runs: u32,
    /// Replay bytes stored.
    pub bytes: u64,
}

/// A guest's name key: no chosen name folds to one starting `#`.
pub fn guest_key(token_hash: &[u8; 32]) -> String {
    let hex: String = token_hash[..12]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("#guest-{hex}")
}

/// A stored run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The run.
    pub played: Played,
    /// The player's name.
    pub player: String,
    /// The player is a guest (a room's racer who never linked).
    pub guest: bool,
    /// The operator took it (or its player) off the boards.
    pub hidden: bool,
    /// The daily it was played on, if it was.
    pub daily: Option<u32>,
}

impl Run {
    /// Whose run it is, as pages and headers say it: a guest's name says so, so that no
    /// guest passes for the player who holds the name.
    pub fn by(&self) -> String {
        match self.guest {
            true => format!("{} (guest)", self.player),
            false => self.player.clone(),
        }
    }
}

/// One of a player's devices: a token's (a browser, a terminal game) or an SSH key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceRow {
    /// `web-12` for a token's, the fingerprint for a key.
    pub id: String,
    /// The name it was given; a key's fingerprint.
    pub name: String,
    /// When it was added.
    pub created_ms: i64,
    /// A token's hash; `None` for a key.
    pub token_hash: Option<[u8; 32]>,
}

/// What a device code's claim makes its player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NewDevice {
    /// A browser or a terminal game, by its new token.
    Token {
        /// The token's hash.
        hash: [u8; 32],
        /// What to call it.
        name: String,
    },
    /// An SSH key, linked under [`Store::link_key`]'s rules.
    Key {
        /// Its fingerprint.
        fingerprint: String,
        /// The most keys a player may have.
        max_keys: u32,
    },
}

/// Which runs of a mode a board ranks, each player by their best of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Span {
    /// A month's (`YYYY-MM`, UTC): the players' monthly bests.
    Month(String),
    /// All time's: the players' all-time bests.
    All,
    /// The runs played from the first time until before the second (Unix ms): a day, a
    /// week. Runs are kept 8 days, so a span within the last 8 days shows every run.
    Between(i64, i64),
}

impl Span {
    /// A month's span.
    pub fn month(month: &str) -> Span {
        Span::Month(month.into())
    }
}

/// One row of a board: a player's best run of the span in a mode.
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
    /// Past days' usage rows.
    pub usage: u64,
    /// Players who never had a run stored, whose names are free again; and those who
    /// deleted their account 30 days ago.
    pub players: u64,
    /// Players who deleted their account a day ago, whose rows are gone now.
    pub deleted: u64,
    /// Batches that failed (each logged with its reason) and were stepped over.
    pub failed: u64,
}

/// The kinds of row retention deletes, each walked in the order of its [`RowKey`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expiring {
    /// Runs stored before the horizon that are no player's best of a month or of all time.
    Runs,
    /// Seeds that expired.
    Seeds,
    /// Usage of past days.
    Usage,
    /// Players who never had a run stored, linked before the horizon, with every row of
    /// theirs ([`PLAYER_ROWS`]).
    Players,
    /// Live rooms' seeds whose rooms let go of them (or never could: a process that
    /// died), expired as issued seeds are.
    RoomSeeds,
    /// Players who deleted their account before the horizon: every row of theirs
    /// ([`PLAYER_ROWS`]), their own row kept, with their name.
    Deleted,
    /// Players who deleted their account before the horizon: their own row too, and so
    /// their name.
    DeletedNames,
}

impl Expiring {
    /// Every kind, in the order a sweep deletes them: a player's rows before the player.
    pub const ALL: [Expiring; 7] = [
        Expiring::Runs,
        Expiring::Seeds,
        Expiring::Usage,
        Expiring::Players,
        Expiring::RoomSeeds,
        Expiring::Deleted,
        Expiring::DeletedNames,
    ];

    /// The key before every row of this kind.
    pub fn first(self) -> RowKey {
        match self {
            Expiring::Runs => RowKey::Run(i64::MIN, String::new()),
            Expiring::Seeds => RowKey::Seed(i64::MIN, i64::MIN),
            Expiring::Usage => RowKey::Usage(String::new(), PlayerId::MIN),
            Expiring::Players | Expiring::Deleted | Expiring::DeletedNames => {
                RowKey::Player(PlayerId::MIN)
            }
            Expiring::RoomSeeds => RowKey::Seed(i64::MIN, i64::MIN),
        }
    }
}

impl Expiring {
    /// Its table, and the two columns of its key in [`RowKey`]'s order (a player's id
    /// twice).
    fn table(self) -> (&'static str, &'static str) {
        match self {
            Expiring::Runs => ("runs", "created_ms, id"),
            Expiring::Seeds => ("seeds", "expires_ms, seed"),
            Expiring::Usage => ("usage", "day, player_id"),
            Expiring::Players | Expiring::Deleted | Expiring::DeletedNames => ("players", "id, id"),
            Expiring::RoomSeeds => ("room_seeds", "until_ms, seed"),
        }
    }
}

impl RowKey {
    /// Its two columns as a statement's arguments (a player's id is both).
    fn args(&self) -> [tx::Arg<'_>; 2] {
        use tx::Arg;
        match self {
            RowKey::Run(t, id) => [Arg::I64(*t), Arg::Text(id)],
            RowKey::Seed(t, seed) => [Arg::I64(*t), Arg::I64(*seed)],
            RowKey::Usage(day, player) => [Arg::Text(day), Arg::I64(*player)],
            RowKey::Player(id) => [Arg::I64(*id), Arg::I64(*id)],
        }
    }
}

impl std::fmt::Display for Expiring {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Expiring::Runs => "runs",
            Expiring::Seeds => "seeds",
            Expiring::Usage => "usage",
            Expiring::Players => "unused players",
            Expiring::RoomSeeds => "rooms' seeds",
            Expiring::Deleted => "deleted players' rows",
            Expiring::DeletedNames => "deleted players' names",
        })
    }
}

/// A row retention deletes, by the key its kind is walked in. A sweep goes through each
/// kind a batch at a time in key order, so a batch that fails is stepped over and the
/// ones after it still go.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RowKey {
    /// A run: when it was stored, and its id.
    Run(i64, String),
    /// A seed: when it expires, and its bits as a signed integer.
    Seed(i64, i64),
    /// A player's usage of a day: the day, and the player.
    Usage(String, PlayerId),
    /// A player.
    Player(PlayerId),
}

/// Every table with a `player_id`, whose rows retention deletes with a player it releases,
/// before the player. Such a player never had a run stored, so most of these hold nothing
/// of theirs, but whatever a player can make is named here: a row left behind would fail
/// the delete (a foreign key), and with it the sweep. A test reads each backend's schema
/// and fails on a table that refers to players without being named here.
pub const PLAYER_ROWS: &[&str] = &[
    "device_codes",
    "devices",
    "seeds",
    "daily_tries",
    "shown_quotes",
    "usage",
    "player_keys",
    "rounds",
    "bests",
    "pbs",
    "runs",
    "saves",
];

/// Every table with a `run_id`, and why retention leaves it when it deletes the run. None
/// of them has a foreign key to `runs` (a test checks), so deleting a run never fails on
/// them.
pub const RUN_REFERENCES: &[(&str, &str)] = &[
    (
        "bests",
        "a best of a month or of all time is never swept: its run is kept while it is one",
    ),
    (
        "seeds",
        "only says that the seed was used, and by which run",
    ),
    (
        "rounds",
        "a round's fingerprint outlives its run, so a copy is still known",
    ),
    (
        "daily_tries",
        "only says that the player's first try of the daily was made, and which run it was",
    ),
];

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
    /// The SSH key is linked to another player already: this one.
    #[error("the key is linked to {0} already")]
    KeyLinked(String),
    /// The player has this many SSH keys linked, the most there may be.
    #[error("the player has {0} keys linked, the most there may be")]
    TooManyKeys(u32),
    /// The player has this many device codes live, the most there may be.
    #[error("the player has {0} device codes live, the most there may be")]
    TooManyCodes(u32),
    /// No live code hashes so: never issued, used, or expired.
    #[error("no such device code")]
    NoSuchCode,
    /// The player was banned.
    #[error("the player was banned")]
    Banned,
    /// The device is the player's only one.
    #[error("the device is the player's last")]
    LastDevice,
    /// The database failed.
    #[error("database: {0}")]
    Db(String),
}

impl StoreError {
    /// The same failure again, for each of a group it failed: a database that is away
    /// stays away; any other is said as it was.
    pub fn again(&self) -> StoreError {
        match self {
            StoreError::Unavailable(m) => StoreError::Unavailable(m.clone()),
            other => StoreError::Db(other.to_string()),
        }
    }
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
    /// What the player's own runs say of them.
    pub record: Record,
    /// The dailies the job's seeds are the texts of.
    pub dailies: Vec<KnownDaily>,
}

/// A player's record, against which a new ranked run is judged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The operator took the player off the boards.
    pub banned: bool,
    /// The player's best wpm (hundredths) on the boards, in any mode, as it was when the
    /// job's day began (a day's runs don't raise the bar for the day's next); `None` if
    /// there was none.
    pub best_wpm_x100: Option<u32>,
    /// Their ranked runs that wait for them to confirm.
    pub pending: Vec<PendingRun>,
}

/// A ranked run waiting off the boards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingRun {
    /// Its id.
    pub id: String,
    /// Its wpm in hundredths.
    pub wpm_x100: u32,
}

/// What a submission's answer says of an entry that was not stored now.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// The player's own round sent again (an answer lost on the way, say): the run it
    /// already is, answered as it was.
    Again {
        /// The run.
        run: String,
        /// Its score.
        score: u32,
        /// Its standing, as stored.
        ranked: Ranked,
    },
    /// Refused.
    No(crate::refusal::Refusal),
}

/// What a plan does with one entry of a submission.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Store this run (its round, its usage, its seed, and its best if ranked).
    Store(Box<NewRun>),
    /// Store nothing: the entry's answer is this.
    Answer(Answer),
}

/// What became of one [`Step`].
#[derive(Clone, Debug, PartialEq)]
pub enum Done {
    /// Stored, and what that did to the player's records.
    Stored(Box<NewRun>, Stored),
    /// Answered without storing.
    Answered(Answer),
}

/// A plan: the steps of a submission, decided from what the database knows, or why
/// nothing of it is to be stored (`Err`, a sentence). It may be called again (with fresh
/// run ids) if a run id turns out to be taken.
pub type Plan = Box<dyn FnMut(&Known) -> Result<Vec<Step>, String> + Send>;

/// One submission, for [`Store::submit`].
pub struct Job {
    /// Whose.
    pub player: PlayerId,
    /// The UTC day (`YYYY-MM-DD`) its usage counts on, and its player's record is judged
    /// as of.
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
    /// Creates a player whose name (lower-cased, `name_key`) is free, with its first
    /// device: the token hashing to `token_hash`, called `device`.
    fn create_player(
        &self,
        name: String,
        token_hash: [u8; 32],
        device: String,
        now_ms: i64,
    ) -> Fut<'_, Player>;

    /// Creates a guest: a player of its own for one racer who never linked, named as they
    /// asked whoever else is named so, and keyed by [`guest_key`] of `token_hash`, a
    /// token no one is ever given.
    fn create_guest(&self, name: String, token_hash: [u8; 32], now_ms: i64) -> Fut<'_, Player>;

    /// The player whose device has the token hashing to `token_hash` (not removed).
    fn player_by_token(&self, token_hash: [u8; 32]) -> Fut<'_, Option<Player>>;

    /// Whether the token hashing to `token_hash` was a device its player removed.
    fn token_removed(&self, token_hash: [u8; 32]) -> Fut<'_, bool>;

    /// `player`'s devices, tokens and SSH keys, the oldest first.
    fn devices(&self, player: PlayerId) -> Fut<'_, Vec<DeviceRow>>;

    /// Keeps a device code (its hash) for `player`, asked for by their device `asked_by`
    /// ([`DeviceRow::id`]), until `expires_ms`; their expired codes go.
    /// [`StoreError::TooManyCodes`] if `max_live` are live.
    fn issue_code(
        &self,
        player: PlayerId,
        code_hash: [u8; 32],
        asked_by: String,
        now_ms: i64,
        expires_ms: i64,
        max_live: u32,
    ) -> Fut<'_, ()>;

    /// Uses the code hashing to `code_hash` once: `device` becomes its player, who is
    /// answered. [`StoreError::NoSuchCode`] for a code unknown, used or expired,
    /// [`StoreError::Banned`] for a banned player's, and a key's refusals as
    /// [`Store::link_key`]'s (then the code is kept).
    fn claim_code(&self, code_hash: [u8; 32], now_ms: i64, device: NewDevice) -> Fut<'_, Player>;

    /// Takes the device `id` ([`DeviceRow::id`]) from `player` at once, with the codes it
    /// asked for; `false` if the player has no such device.
    fn remove_device(&self, player: PlayerId, id: String, now_ms: i64) -> Fut<'_, bool>;

    /// Deletes `player`'s account at `now_ms`: their runs are no run from then (off the
    /// boards, gone from links), their devices and keys stop working, and the sweep
    /// removes their rows a day later and frees their name 30 days later.
    fn delete_player(&self, player: PlayerId, now_ms: i64) -> Fut<'_, ()>;

    /// `player`'s runs with ids after `after`, in id order, at most `limit`.
    fn runs_of(&self, player: PlayerId, after: String, limit: u32) -> Fut<'_, Vec<Played>>;

    /// Links the SSH key with `fingerprint` to `player`. A key belongs to one player: one
    /// linked to another is [`StoreError::KeyLinked`] (linking it again to its own player
    /// changes nothing), and a player with `max_keys` keys is
    /// [`StoreError::TooManyKeys`].
    fn link_key(
        &self,
        fingerprint: String,
        player: PlayerId,
        now_ms: i64,
        max_keys: u32,
    ) -> Fut<'_, ()>;

    /// The player the SSH key with `fingerprint` is linked to.
    fn player_by_key(&self, fingerprint: String) -> Fut<'_, Option<Player>>;

    /// What the game keeps for `player`, who plays it over `ssh host`: each entry's key
    /// and text (`history`, `last.replay`, …; see the game's `storage`).
    fn saves(&self, player: PlayerId) -> Fut<'_, Vec<(String, String)>>;

    /// The one entry `key` of `player`'s (the settings a device asks for), if kept.
    fn saved(&self, player: PlayerId, key: String) -> Fut<'_, Option<String>>;

    /// Keeps `value` under `key` for `player`; `None` forgets what `key` holds.
    fn save(
        &self,
        player: PlayerId,
        key: String,
        value: Option<String>,
        now_ms: i64,
    ) -> Fut<'_, ()>;

    /// Keeps an issued seed. If its player then has more than `max_open` seeds that are
    /// neither used nor expired, the oldest of them are withdrawn (deleted).
    /// [`StoreError::SeedTaken`] if the seed exists.
    fn issue_seed(&self, seed: IssuedSeed, max_open: u32) -> Fut<'_, ()>;

    /// Keeps a seed for a quote its player was never shown: `pick` is given the quotes
    /// (`quote:137@de`) they were (issued, or on a run of theirs stored), and answers the
    /// one to issue (its mode replaces `seed.mode`), or `None` when none is left, and
    /// then nothing is kept. The quote is remembered as shown to them for as long as the
    /// player is; open seeds past `max_open` are withdrawn as by [`Store::issue_seed`].
    /// [`StoreError::SeedTaken`] if the seed exists.
    fn issue_quote(
        &self,
        seed: IssuedSeed,
        pick: Pick,
        max_open: u32,
    ) -> Fut<'_, Option<IssuedSeed>>;

    /// Holds `seed` for a live room until `until_ms`: a submission on it outside the
    /// room is refused until then (see [`IssuedSeed::room`]). Holding it again moves the
    /// time; a time now or past lets it go.
    fn live_seed(&self, seed: u64, until_ms: i64) -> Fut<'_, ()>;

    /// Whether a linked player (no guest) has `name`, or one that looks like it
    /// (`typepper_api::name_key`).
    fn name_taken(&self, name: String) -> Fut<'_, bool>;

    /// The seed of daily `number`: `drawn`, if no server drew it before (then it is).
    fn daily_seed(&self, number: u32, drawn: u64) -> Fut<'_, u64>;

    /// `player` asks for daily `number` at `now_ms`: their first try if they never did.
    fn try_daily(&self, number: u32, player: PlayerId, now_ms: i64) -> Fut<'_, DailyTry>;

    /// Daily `number`'s board, best first, at most `limit`, and how many are on it. Better
    /// is as on a mode's board.
    fn daily_board(&self, number: u32, limit: u32) -> Fut<'_, (Vec<BoardRow>, u32)>;

    /// Where `entry` stands on daily `number`'s board; `None` if it isn't on it.
    fn daily_place(&self, number: u32, entry: DailyEntry) -> Fut<'_, Option<DailyPlace>>;

    /// Runs a submission in one transaction: locks its player and keys, reads what it
    /// needs, runs its plan, stores what the plan says, and commits; a plan's `Err`
    /// rolls it back and comes back as `Ok(Err(why))`. Answered only once committed.
    fn submit(&self, job: Job) -> Fut<'_, Result<Vec<Done>, String>>;

    /// The run with `id`.
    fn run(&self, id: String) -> Fut<'_, Option<Run>>;

    /// The best ranked run per player of `mode` in `span`, best first, at most `limit`.
    /// Better is a higher score, then a higher wpm, then earlier (then the older player,
    /// so that the order is the same on every backend).
    fn board(&self, mode: String, span: Span, limit: u32) -> Fut<'_, Vec<BoardRow>>;

    /// The profile of the player whose name folds to `key` (`name_key`): `recent` of
    /// their latest runs and the replays of `replays` of them; `None` for no such player,
    /// a guest, a banned player or one who deleted their account. `month_ms` is when
    /// this month began.
    fn profile(
        &self,
        key: String,
        month_ms: i64,
        recent: u32,
        replays: u32,
    ) -> Fut<'_, Option<ProfileRows>>;

    /// The keys of at most `batch` rows of `kind` expired at `horizon`, after `after`, in
    /// key order.
    fn expired(
        &self,
        kind: Expiring,
        horizon: Horizon,
        after: RowKey,
        batch: u32,
    ) -> Fut<'_, Vec<RowKey>>;

    /// Deletes, in one transaction, the rows of `kind` still expired at `horizon` whose
    /// keys come after `after` and up to `through`, and for players every row of theirs;
    /// returns how many rows of `kind`.
    fn delete_expired(
        &self,
        kind: Expiring,
        horizon: Horizon,
        after: RowKey,
        through: RowKey,
    ) -> Fut<'_, u64>;

    /// Takes run `id` off the boards (its player's bests of the month and of all time, and
    /// personal best, are worked out again from their other runs); `false` if there is no
    /// such run.
    fn hide_run(&self, id: String) -> Fut<'_, bool>;

    /// Takes the player named `name` off the boards, with every run of theirs, now and
    /// to come: the player with that very name (ignoring case), else the one whose name
    /// looks like it. The name of the player banned, or `None` if nobody has one like it.
    fn ban_player(&self, name: String) -> Fut<'_, Option<String>>;

    /// For a store that commits several pieces of work together: how many commits so
    /// far, and how many pieces of work they carried.
    fn commits(&self) -> Option<(u64, u64)> {
        None
    }

    /// For a store over a network: the statements its writers sent so far, and the round
    /// trips they took (statements sent together share one).
    fn round_trips(&self) -> Option<(u64, u64)> {
        None
    }
}

/// What a retention sweep deletes: everything older than these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Horizon {
    /// Runs stored before this (unless a best of a month or of all time).
    pub runs_before_ms: i64,
    /// Seeds that expired before this.
    pub seeds_before_ms: i64,
    /// Usage of days before this one (`YYYY-MM-DD`).
    pub usage_before_day: String,
    /// Players linked before this who never had a run stored.
    pub unused_players_before_ms: i64,
    /// Players who deleted their account before this lose every row of theirs.
    pub deleted_rows_before_ms: i64,
    /// Players who deleted their account before this lose their own row, and name.
    pub deleted_names_before_ms: i64,
}

impl Horizon {
    /// What the condition of `kind`'s rows compares with; each backend writes the
    /// condition in its own dialect.
    fn bound(&self, kind: Expiring) -> tx::Arg<'_> {
        match kind {
            Expiring::Runs => tx::Arg::I64(self.runs_before_ms),
            Expiring::Seeds | Expiring::RoomSeeds => tx::Arg::I64(self.seeds_before_ms),
            Expiring::Usage => tx::Arg::Text(&self.usage_before_day),
            Expiring::Players => tx::Arg::I64(self.unused_players_before_ms),
            Expiring::Deleted => tx::Arg::I64(self.deleted_rows_before_ms),
            Expiring::DeletedNames => tx::Arg::I64(self.deleted_names_before_ms),
        }
    }
}

/// How a store is opened: where, and its limits.
#[derive(Clone, Debug, clap::Args)]
pub struct Options {
    /// Database: postgres://… for PostgreSQL, or a SQLite file path (sqlite://path).
    /// Without it, SQLite in the data dir.
    #[arg(
        long = "database-url",
        value_name = "DATABASE_URL",
        env = "TYPEPPER_DATABASE_URL",
        global = true
    )]
    pub url: Option<String>,
    /// Where the embedded SQLite database lives.
    #[arg(long, env = "TYPEPPER_DATA_DIR", default_value = "data", global = true)]
    pub data_dir: std::path::PathBuf,
    /// Most submissions one commit carries (group commit), on SQLite and PostgreSQL; 1
    /// commits each alone.
    #[arg(long, env = "TYPEPPER_GROUP_COMMIT", default_value_t = 64)]
    pub group_commit: usize,
    /// Most PostgreSQL connections this server opens.
    #[arg(long, env = "TYPEPPER_PG_CONNECTIONS", default_value_t = 16)]
    pub pg_connections: usize,
    /// PostgreSQL writers: each commits a group of submissions at a time, on a connection
    /// of its own, while the others work. More writers make smaller groups, and a group
    /// costs PostgreSQL about the same whatever its size (measured: 2 stored a third more
    /// than 4; docs/PERFORMANCE.md).
    #[arg(long, env = "TYPEPPER_PG_WRITERS", default_value_t = 2)]
    pub pg_writers: usize,
    /// Seconds a PostgreSQL connection, or the wait for a free one, may take.
    #[arg(long, env = "TYPEPPER_PG_TIMEOUT", default_value = "5", value_parser = seconds)]
    pub pg_timeout: std::time::Duration,
}

/// A flag's whole seconds as a duration.
fn seconds(s: &str) -> Result<std::time::Duration, std::num::ParseIntError> {
    s.parse().map(std::time::Duration::from_secs)
}

impl Options {
    /// The defaults for `url` in `data_dir`.
    pub fn new(url: Option<&str>, data_dir: &Path) -> Options {
        Options {
            url: url.map(str::to_owned),
            data_dir: data_dir.to_owned(),
            ..crate::defaults::of()
        }
    }

    /// Whether this is PostgreSQL.
    pub fn is_postgres(&self) -> bool {
        self.url
            .as_deref()
            .is_some_and(|u| u.starts_with("postgres://") || u.starts_with("postgresql://"))
    }

    /// Where the database is, as the operator reads it: `PostgreSQL`, or `SQLite at
    /// data/typepper.sqlite3`.
    pub fn describe(&self) -> String {
        match self.sqlite_path() {
            None => "PostgreSQL".into(),
            Some(path) => format!("SQLite at {}", path.display()),
        }
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
