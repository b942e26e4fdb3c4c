//! What a submission does inside its transaction, written once for both backends.
//!
//! Each backend gives a [`Tx`]: a handful of primitives (run a statement, run an insert
//! that may find its primary key taken, read rows, and read the stored rounds and seeds,
//! whose queries differ between the two). Everything built from them is here: reading
//! what a plan needs ([`Known`]), the retry when a drawn run id is taken, and the writes
//! that store a run, its round, its usage, its seed and its bests.
//!
//! Statements are written once, with PostgreSQL's `$1` parameters; SQLite reads them as
//! `?1` (the backend swaps the sign). Both read `true`, `false` and `NOT column` alike.

use std::future::Future;

use super::{
    Done, IssuedSeed, Job, Known, KnownRound, NewRun, PendingRun, Played, PlayerId, Record, Run,
    Step, StoreError, Stored, Usage,
};

/// How many times a plan is run again when a run id it drew is taken.
const ID_TRIES: usize = 3;

/// A value for a statement's parameter. PostgreSQL checks each against its column's
/// type, so an integer says its width.
#[derive(Clone, Copy, Debug)]
pub enum Arg<'a> {
    /// An `INTEGER` column.
    I32(i32),
    /// A `BIGINT` column.
    I64(i64),
    /// Text.
    Text(&'a str),
    /// Text, or `NULL`.
    MaybeText(Option<&'a str>),
    /// Bytes.
    Bytes(&'a [u8]),
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
        match self.0.get(i) {
            Some(Cell::Text(t)) => t.clone(),
            _ => String::new(),
        }
    }
}

/// Postgres integers are signed; every number stored here fits in them.
pub fn int(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// A transaction, as each backend gives one. Its futures are not required to be `Send`:
/// SQLite's hold its connection and are ready at once; PostgreSQL's are, and whoever holds
/// one knows which it has.
#[allow(async_fn_in_trait)]
pub trait Tx: Sized {
    /// Runs `sql`; how many rows it changed.
    async fn execute(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<u64, StoreError>;

    /// Runs an `INSERT`; `false`, with nothing written, if its primary key is taken (the
    /// constraint error, matched by its code, not its text).
    async fn insert(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<bool, StoreError>;

    /// The rows `sql` returns.
    async fn query(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<Vec<Row>, StoreError>;

    /// Every stored round with one of `keys`, and the latest
    /// [`ROUNDS_ON_A_SEED`](super::ROUNDS_ON_A_SEED) on each of `seeds`.
    async fn rounds(
        &mut self,
        keys: &[[u8; 32]],
        seeds: &[u64],
    ) -> Result<Vec<KnownRound>, StoreError>;

    /// The issued seeds among `wanted`.
    async fn seeds(&mut self, wanted: &[u64]) -> Result<Vec<IssuedSeed>, StoreError>;

    /// Runs `statements` in order; how many rows each changed. A backend that can send
    /// them all before reading the first answer (PostgreSQL pipelines them) does, so
    /// they cost one round trip; should one fail, the ones after it are not kept.
    async fn execute_all(&mut self, statements: &[Statement<'_>]) -> Result<Vec<u64>, StoreError> {
        let mut changed = Vec::with_capacity(statements.len());
        for (sql, args) in statements {
            changed.push(self.execute(sql, args).await?);
        }
        Ok(changed)
    }

    /// What the plan of a job of `player`'s on `day`, with rounds of `keys` on `seeds`,
    /// needs to know; as [`execute_all`](Tx::execute_all), a backend that can asks for it
    /// all at once.
    async fn known(
        &mut self,
        player: PlayerId,
        day: &str,
        keys: &[[u8; 32]],
        seeds: &[u64],
    ) -> Result<Known, StoreError> {
        Ok(Known {
            rounds: self.rounds(keys, seeds).await?,
            seeds: self.seeds(seeds).await?,
            usage: usage(self, player, day).await?,
            record: Record {
                pending: pending(self, player).await?,
                ..record(self, player, day).await?
            },
        })
    }
}

/// A statement and its parameters.
pub type Statement<'a> = (&'static str, Vec<Arg<'a>>);

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

/// Reads what `job`'s plan needs, runs it, and stores what it says, in `tx`: the
/// transaction the backend opened (and, for PostgreSQL, locked), inside a savepoint
/// named `work` that the backend set for the job, and releases or rolls back to after
/// it. A plan's `Err` comes back as `Ok(Err(why))` with nothing written.
pub async fn submit(
    tx: &mut impl Tx,
    job: &mut Job,
) -> Result<Result<Vec<Done>, String>, StoreError> {
    let known = tx
        .known(job.player, &job.day, &job.keys, &job.seeds)
        .await?;
    for _ in 0..ID_TRIES {
        let steps = match (job.plan)(&known) {
            Ok(steps) => steps,
            Err(why) => return Ok(Err(why)),
        };
        match store_steps(tx, steps).await {
            Ok(done) => return Ok(Ok(done)),
            // A taken run id fails its statement, and in PostgreSQL the transaction with
            // it: back to the job's savepoint, which keeps the locks (taken before it)
            // and what was read, and the plan again with new ids.
            Err(StoreError::IdTaken(_)) => {
                tx.execute("ROLLBACK TO SAVEPOINT work", &[]).await?;
            }
            Err(e) => return Err(e),
        }
    }
    Err(StoreError::Db("run ids were taken three times".into()))
}

/// The run with `id`.
pub async fn run(tx: &mut impl Tx, id: &str) -> Result<Option<Run>, StoreError> {
    let rows = tx
        .query(
            "SELECT r.id, p.name, r.mode, r.score, r.wpm_x100, r.accuracy_x100, r.duration_ms,
                    r.created_ms, r.unranked, r.replay, r.pending, r.hidden OR p.banned, p.guest
             FROM runs r JOIN players p ON p.id = r.player_id WHERE r.id = $1",
            &[Arg::Text(id)],
        )
        .await?;
    Ok(rows.first().map(|r| Run {
        played: Played {
            id: r.text(0),
            mode: r.text(2),
            score: r.uint(3),
            wpm_x100: r.uint(4),
            accuracy_x100: r.uint(5),
            duration_ms: r.uint(6),
            created_ms: r.int(7).unwrap_or(0),
            unranked: r.maybe_text(8),
            replay: r.bytes(9),
            pending: r.maybe_text(10),
        },
        player: r.text(1),
        hidden: r.int(11).unwrap_or(0) != 0,
        guest: r.int(12).unwrap_or(0) != 0,
    }))
}

/// A player's runs and bytes on `day`.
pub async fn usage(tx: &mut impl Tx, player: PlayerId, day: &str) -> Result<Usage, StoreError> {
    let rows = tx
        .query(
            "SELECT runs, bytes FROM usage WHERE player_id = $1 AND day = $2",
            &[Arg::I64(player), Arg::Text(day)],
        )
        .await?;
    Ok(rows.first().map_or_else(Usage::default, |r| Usage {
        runs: r.uint(0),
        bytes: r.int(1).and_then(|b| u64::try_from(b).ok()).unwrap_or(0),
    }))
}

/// What `player`'s own runs say of them, their record as it was when `day` began: all
/// but their runs waiting to be confirmed ([`pending`]).
pub async fn record(tx: &mut impl Tx, player: PlayerId, day: &str) -> Result<Record, StoreError> {
    let found = tx
        .query(
            "SELECT banned, CASE WHEN best_day IS NULL OR best_day < $2 THEN best_x100
                                 ELSE record_x100 END
             FROM players WHERE id = $1",
            &[Arg::I64(player), Arg::Text(day)],
        )
        .await?;
    let (banned, best) = found.first().map_or((false, None), |r| {
        let best = r.int(1).map(|b| u32::try_from(b).unwrap_or(0));
        (r.int(0).unwrap_or(0) != 0, best)
    });
    Ok(Record {
        banned,
        best_wpm_x100: best,
        pending: vec![],
    })
}

/// `player`'s ranked runs waiting off the boards for them to confirm.
pub async fn pending(tx: &mut impl Tx, player: PlayerId) -> Result<Vec<PendingRun>, StoreError> {
    Ok(tx
        .query(
            "SELECT id, wpm_x100 FROM runs
             WHERE player_id = $1 AND pending IS NOT NULL AND NOT hidden",
            &[Arg::I64(player)],
        )
        .await?
        .iter()
        .map(|r| PendingRun {
            id: r.text(0),
            wpm_x100: r.uint(1),
        })
        .collect())
}

/// Does a plan's steps: stores each run, answers the rest.
async fn store_steps(tx: &mut impl Tx, steps: Vec<Step>) -> Result<Vec<Done>, StoreError> {
    let mut done = Vec::with_capacity(steps.len());
    for step in steps {
        done.push(match step {
            Step::Answer(answer) => Done::Answered(answer),
            Step::Store(run) => {
                let stored = insert(tx, &run).await?;
                Done::Stored(run, stored)
            }
        });
    }
    Ok(done)
}

/// Stores a run and its round, counts it in its player's usage, uses up its seed, and if
/// it is ranked updates the player's monthly best and all-time best.
async fn insert(tx: &mut impl Tx, run: &NewRun) -> Result<Stored, StoreError> {
    let inserted = tx
        .insert(
            "INSERT INTO runs (id, player_id, mode, score, wpm_x100, accuracy_x100,
                 duration_ms, created_ms, month, replay, unranked, pending)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
            &[
                Arg::Text(&run.played.id),
                Arg::I64(run.player),
                Arg::Text(&run.played.mode),
                Arg::I32(int(run.played.score)),
                Arg::I32(int(run.played.wpm_x100)),
                Arg::I32(int(run.played.accuracy_x100)),
                Arg::I64(run.played.duration_ms.into()),
                Arg::I64(run.played.created_ms),
                Arg::Text(&run.month),
                Arg::Bytes(&run.played.replay),
                Arg::MaybeText(run.played.unranked.as_deref()),
                Arg::MaybeText(run.played.pending.as_deref()),
            ],
        )
        .await?;
    if !inserted {
        return Err(StoreError::IdTaken(run.played.id.clone()));
    }
    let mut writes: Vec<Statement> = vec![
        (
            "INSERT INTO rounds (round_key, run_id, player_id, blocks, created_ms, mode, seed,
                                 prefix)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            vec![
                Arg::Bytes(&run.round.key),
                Arg::Text(&run.played.id),
                Arg::I64(run.player),
                Arg::Bytes(&run.round.blocks),
                Arg::I64(run.played.created_ms),
                Arg::Text(&run.played.mode),
                Arg::I64(run.round.seed as i64),
                Arg::Bytes(&run.round.prefix),
            ],
        ),
        (
            "INSERT INTO usage (player_id, day, runs, bytes) VALUES ($1, $2, 1, $3)
             ON CONFLICT (player_id, day) DO UPDATE SET
                 runs = usage.runs + 1, bytes = usage.bytes + excluded.bytes",
            vec![
                Arg::I64(run.player),
                Arg::Text(&run.day),
                Arg::I64(run.played.replay.len() as i64),
            ],
        ),
        // Writes only a player's first run: after it, no row matches. A guest is never
        // used: the sweep releases its row with its runs (docs/spec/rooms.md, "Guests").
        (
            "UPDATE players SET used = true WHERE id = $1 AND NOT used AND NOT guest",
            vec![Arg::I64(run.player)],
        ),
    ];
    // A room's seed has no row: the room played it once per racer, and holds no more.
    if let Some(seed) = run.uses_seed {
        writes.push((
            "UPDATE seeds SET run_id = $1 WHERE seed = $2",
            vec![Arg::Text(&run.played.id), Arg::I64(seed as i64)],
        ));
    }
    let ranked = run.played.on_boards();
    if ranked {
        writes.extend(best(
            (run.player, &run.day),
            (&run.played.mode, &run.month),
            (
                &run.played.id,
                run.played.score,
                run.played.wpm_x100,
                run.played.created_ms,
            ),
        ));
    }
    let changed = tx.execute_all(&writes).await?;
    // The last write of `best` is the personal best's: a row changed is a new one.
    let pb = ranked && changed.last().is_some_and(|&n| n > 0);
    for id in &run.confirms {
        let confirmed = tx
            .query(
                "UPDATE runs SET pending = NULL
                 WHERE id = $1 AND player_id = $2 AND pending IS NOT NULL AND NOT hidden
                 RETURNING mode, month, score, wpm_x100, created_ms",
                &[Arg::Text(id), Arg::I64(run.player)],
            )
            .await?;
        if let Some(r) = confirmed.first() {
            let (mode, month) = (r.text(0), r.text(1));
            let at = (id.as_str(), r.uint(2), r.uint(3), r.int(4).unwrap_or(0));
            tx.execute_all(&best((run.player, &run.day), (&mode, &month), at))
                .await?;
        }
    }
    Ok(Stored { pb })
}

/// What puts a run on the boards: the player's monthly best in its mode if it beats it,
/// and their personal best likewise (the last statement: a row it changes is a new
/// personal best).
fn best<'a>(
    (player, day): (PlayerId, &'a str),
    (mode, month): (&'a str, &'a str),
    (id, score, wpm_x100, created_ms): (&'a str, u32, u32, i64),
) -> [Statement<'a>; 3] {
    [
        // The player's record rises; what it was before the day began is kept for the day.
        (
            "UPDATE players SET
                 record_x100 = CASE WHEN best_day IS NULL OR best_day < $2 THEN best_x100
                                    ELSE record_x100 END,
                 best_day = $2, best_x100 = $3
             WHERE id = $1 AND (best_x100 IS NULL OR best_x100 < $3)",
            vec![Arg::I64(player), Arg::Text(day), Arg::I32(int(wpm_x100))],
        ),
        (
            "INSERT INTO bests (player_id, mode, month, run_id, score, wpm_x100, created_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (player_id, mode, month) DO UPDATE SET
                 run_id = excluded.run_id, score = excluded.score,
                 wpm_x100 = excluded.wpm_x100, created_ms = excluded.created_ms
             WHERE excluded.score > bests.score
                OR (excluded.score = bests.score AND excluded.wpm_x100 > bests.wpm_x100)",
            vec![
                Arg::I64(player),
                Arg::Text(mode),
                Arg::Text(month),
                Arg::Text(id),
                Arg::I32(int(score)),
                Arg::I32(int(wpm_x100)),
                Arg::I64(created_ms),
            ],
        ),
        (
            "INSERT INTO pbs (player_id, mode, score, wpm_x100) VALUES ($1, $2, $3, $4)
             ON CONFLICT (player_id, mode) DO UPDATE SET
                 score = excluded.score, wpm_x100 = excluded.wpm_x100
             WHERE excluded.score > pbs.score
                OR (excluded.score = pbs.score AND excluded.wpm_x100 > pbs.wpm_x100)",
            vec![
                Arg::I64(player),
                Arg::Text(mode),
                Arg::I32(int(score)),
                Arg::I32(int(wpm_x100)),
            ],
        ),
    ]
}
