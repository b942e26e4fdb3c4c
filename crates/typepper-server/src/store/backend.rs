//! What a backend gives the store: a way to run work on its database, and its own way
//! of committing submissions. Every [`Store`] operation is written once, over it
//! (`players.rs`, `devices.rs`, `seeds.rs`, `boards.rs`, `dailies.rs`, `profiles.rs`, `retention.rs`,
//! `submission.rs`), as atuin's
//! `Database` trait keeps its logic in default methods over a few backend calls.

use super::tx::Tx;
use super::{
    BoardRow, DailyEntry, DailyPlace, DailyTry, DeviceRow, Done, Expiring, Fut, Horizon,
    IssuedSeed, Job, NewDevice, Played, Player, PlayerId, ProfileRows, RowKey, Run, Span, Store,
    boards, dailies, devices, players, profiles, retention, seeds,
};

/// What a piece of work does to the database, which says where a backend runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// It only reads: SQLite reads where it is asked, beside the writer; PostgreSQL on
    /// any connection, outside a transaction.
    Read,
    /// It writes with one statement, which is a transaction of its own: SQLite's writer
    /// does it; PostgreSQL needs no transaction around it.
    Write,
    /// Its reads and writes are one transaction: SQLite's writer does it (the only
    /// writer, so nothing changes under it); PostgreSQL begins one, and commits it if
    /// the work succeeds.
    Transaction,
}

/// Work on a backend's database: given a transaction (or a connection, as its
/// [`Access`] says), the future of its answer.
pub trait Work<B: Backend + ?Sized, T>:
    for<'t> FnOnce(&'t mut B::Tx<'t>) -> Fut<'t, T> + Send + 'static
{
}

impl<B: Backend + ?Sized, T, F> Work<B, T> for F where
    F: for<'t> FnOnce(&'t mut B::Tx<'t>) -> Fut<'t, T> + Send + 'static
{
}

/// A database a [`Store`] runs on: every `Backend` is a `Store`.
pub trait Backend: Send + Sync + 'static {
    /// A transaction, or a connection outside one, as [`Access`] says.
    type Tx<'t>: Tx + 't;

    /// Runs `work` as `access` says, and answers what it gives back.
    fn work<T: Send + 'static>(&self, access: Access, work: impl Work<Self, T>) -> Fut<'_, T>;

    /// Runs a submission ([`Store::submit`]): each backend commits the ones that wait at
    /// the same moment together, its own way.
    fn queue(&self, job: Job) -> Fut<'_, Result<Vec<Done>, String>>;

    /// [`Store::commits`].
    fn commits(&self) -> Option<(u64, u64)> {
        None
    }

    /// [`Store::round_trips`].
    fn round_trips(&self) -> Option<(u64, u64)> {
        None
    }
}

impl<B: Backend> Store for B {
    fn create_player(
        &self,
        name: String,
        token_hash: [u8; 32],
        device: String,
        now_ms: i64,
    ) -> Fut<'_, Player> {
        let key = typepper_api::name_key(&name);
        players::create(self, name, key, token_hash, Some(device), now_ms)
    }

    fn create_guest(&self, name: String, token_hash: [u8; 32], now_ms: i64) -> Fut<'_, Player> {
        let key = super::guest_key(&token_hash);
        players::create(self, name, key, token_hash, None, now_ms)
    }

    fn player_by_token(&self, token_hash: [u8; 32]) -> Fut<'_, Option<Player>> {
        devices::by_token(self, token_hash)
    }

    fn token_removed(&self, token_hash: [u8; 32]) -> Fut<'_, bool> {
        devices::removed(self, token_hash)
    }

    fn devices(&self, player: PlayerId) -> Fut<'_, Vec<DeviceRow>> {
        devices::list(self, player)
    }

    fn issue_code(
        &self,
        player: PlayerId,
        code_hash: [u8; 32],
        asked_by: String,
        now_ms: i64,
        expires_ms: i64,
        max_live: u32,
    ) -> Fut<'_, ()> {
        devices::issue_code(
            self, player, code_hash, asked_by, now_ms, expires_ms, max_live,
        )
    }

    fn claim_code(&self, code_hash: [u8; 32], now_ms: i64, device: NewDevice) -> Fut<'_, Player> {
        devices::claim_code(self, code_hash, now_ms, device)
    }

    fn remove_device(&self, player: PlayerId, id: String, now_ms: i64) -> Fut<'_, bool> {
        devices::remove(self, player, id, now_ms)
    }

    fn delete_player(&self, player: PlayerId, now_ms: i64) -> Fut<'_, ()> {
        players::delete(self, player, now_ms)
    }

    fn runs_of(&self, player: PlayerId, after: String, limit: u32) -> Fut<'_, Vec<Played>> {
        boards::runs_of(self, player, after, limit)
    }

    fn link_key(
        &self,
        fingerprint: String,
        player: PlayerId,
        now_ms: i64,
        max_keys: u32,
    ) -> Fut<'_, ()> {
        players::link_key(self, fingerprint, player, now_ms, max_keys)
    }

    fn player_by_key(&self, fingerprint: String) -> Fut<'_, Option<Player>> {
        players::by_key(self, fingerprint)
    }

    fn saves(&self, player: PlayerId) -> Fut<'_, Vec<(String, String)>> {
        players::saves(self, player)
    }

    fn saved(&self, player: PlayerId, key: String) -> Fut<'_, Option<String>> {
        players::saved(self, player, key)
    }

    fn save(
        &self,
        player: PlayerId,
        key: String,
        value: Option<String>,
        now_ms: i64,
    ) -> Fut<'_, ()> {
        players::save(self, player, key, value, now_ms)
    }

    fn issue_seed(&self, seed: IssuedSeed, max_open: u32) -> Fut<'_, ()> {
        seeds::issue(self, seed, max_open)
    }

    fn issue_quote(
        &self,
        seed: IssuedSeed,
        pick: super::Pick,
        max_open: u32,
    ) -> Fut<'_, Option<IssuedSeed>> {
        seeds::issue_quote(self, seed, pick, max_open)
    }

    fn live_seed(&self, seed: u64, until_ms: i64) -> Fut<'_, ()> {
        seeds::live(self, seed, until_ms)
    }

    fn name_taken(&self, name: String) -> Fut<'_, bool> {
        players::name_taken(self, name)
    }

    fn daily_seed(&self, number: u32, drawn: u64) -> Fut<'_, u64> {
        dailies::seed(self, number, drawn)
    }

    fn try_daily(&self, number: u32, player: PlayerId, now_ms: i64) -> Fut<'_, DailyTry> {
        dailies::try_it(self, number, player, now_ms)
    }

    fn daily_board(&self, number: u32, limit: u32) -> Fut<'_, (Vec<BoardRow>, u32)> {
        dailies::board(self, number, limit)
    }

    fn daily_place(&self, number: u32, entry: DailyEntry) -> Fut<'_, Option<DailyPlace>> {
        dailies::place(self, number, entry)
    }

    fn submit(&self, job: Job) -> Fut<'_, Result<Vec<Done>, String>> {
        self.queue(job)
    }

    fn run(&self, id: String) -> Fut<'_, Option<Run>> {
        boards::run(self, id)
    }

    fn board(&self, mode: String, span: Span, limit: u32) -> Fut<'_, Vec<BoardRow>> {
        boards::board(self, mode, span, limit)
    }

    fn profile(
        &self,
        key: String,
        month_ms: i64,
        recent: u32,
        replays: u32,
    ) -> Fut<'_, Option<ProfileRows>> {
        profiles::profile(self, key, month_ms, recent, replays)
    }

    fn expired(
        &self,
        kind: Expiring,
        horizon: Horizon,
        after: RowKey,
        batch: u32,
    ) -> Fut<'_, Vec<RowKey>> {
        retention::expired(self, kind, horizon, after, batch)
    }

    fn delete_expired(
        &self,
        kind: Expiring,
        horizon: Horizon,
        after: RowKey,
        through: RowKey,
    ) -> Fut<'_, u64> {
        retention::delete_expired(self, kind, horizon, after, through)
    }

    fn hide_run(&self, id: String) -> Fut<'_, bool> {
        boards::hide_run(self, id)
    }

    fn ban_player(&self, name: String) -> Fut<'_, Option<String>> {
        players::ban(self, name)
    }

    fn commits(&self) -> Option<(u64, u64)> {
        Backend::commits(self)
    }

    fn round_trips(&self) -> Option<(u64, u64)> {
        Backend::round_trips(self)
    }
}
