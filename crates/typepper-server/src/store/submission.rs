//! What a submission does inside its transaction, written once for both backends and for
//! any number of submissions at a time.
//!
//! Reading what plans need ([`known`]) and storing runs ([`store`]) take a batch of
//! submissions (no two of one player, key or seed), as [`Batch`]es: SQLite runs each
//! statement a row at a time, PostgreSQL sends every statement once with arrays, in one
//! round trip. One submission alone is a batch of one ([`submit`]), which adds the retry
//! when a drawn run id is taken.
//!
//! A PostgreSQL join with an array of rows also names the table's keys in an `= ANY` of
//! the array: the planner guesses an `unnest` at a hundred rows, and against that guess
//! may scan a small table whole (a profile showed heap page scans under a group's
//! statements) rather than look each row up by its key.

use std::collections::HashSet;

use super::tx::{Arg, Batch, Column, Row, Tx, int};
use super::{
    Done, IssuedSeed, Job, Known, KnownDaily, KnownRound, NewRun, PendingRun, PlayerId, Record,
    Step, StoreError, Stored, Usage,
};

/// How many times a plan is run again when a run id it drew is taken.
const ID_TRIES: usize = 3;

/// The columns of a known round, from `rounds k LEFT JOIN runs r` ([`round`] reads them).
macro_rules! round_columns {
    () => {
        "SELECT k.round_key, k.run_id, k.player_id, k.blocks, k.mode, k.seed, k.prefix,
                r.score, r.unranked, r.pending, r.id IS NOT NULL"
    };
}

/// A player's record as it was when the day `$day` began: a day's runs don't raise the
/// bar for the day's next.
macro_rules! record_on {
    ($day:literal) => {
        concat!(
            "CASE WHEN best_day IS NULL OR best_day < ",
            $day,
            " THEN best_x100 ELSE record_x100 END"
        )
    };
}

/// A monthly best is replaced by a better run: a higher score, then a higher wpm.
macro_rules! better_best {
    () => {
        " ON CONFLICT (player_id, mode, month) DO UPDATE SET
             run_id = excluded.run_id, score = excluded.score,
             wpm_x100 = excluded.wpm_x100, created_ms = excluded.created_ms
         WHERE excluded.score > bests.score
            OR (excluded.score = bests.score AND excluded.wpm_x100 > bests.wpm_x100)"
    };
}

/// A personal best likewise; a row it writes (returned) is a new one.
macro_rules! better_pb {
    () => {
        " ON CONFLICT (player_id, mode) DO UPDATE SET
             score = excluded.score, wpm_x100 = excluded.wpm_x100
         WHERE excluded.score > pbs.score
            OR (excluded.score = pbs.score AND excluded.wpm_x100 > pbs.wpm_x100)
         RETURNING player_id"
    };
}

/// What a submission's reads are of (not the job itself: its plan is not shared between
/// threads, so a job is not held across an await).
pub struct Wants<'a> {
    /// Whose.
    pub player: PlayerId,
    /// The day its usage counts on.
    pub day: &'a str,
    /// Its rounds' keys.
    pub keys: &'a [[u8; 32]],
    /// Its rounds' seeds.
    pub seeds: &'a [u64],
}

impl Wants<'_> {
    /// What `job` reads.
    pub fn of(job: &Job) -> Wants<'_> {
        Wants {
            player: job.player,
            day: &job.day,
            keys: &job.keys,
            seeds: &job.seeds,
        }
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
    let known = known(tx, &[Wants::of(job)])
        .await?
        .pop()
        .unwrap_or_default();
    for _ in 0..ID_TRIES {
        let steps = match (job.plan)(&known) {
            Ok(steps) => steps,
            Err(why) => return Ok(Err(why)),
        };
        match store_steps(tx, steps).await {
            Ok(done) => return Ok(Ok(done)),
            // A taken run id writes nothing of its run, but the run's other rows went
            // with it: back to the job's savepoint, which keeps the locks (taken before
            // it) and what was read, and the plan again with new ids.
            Err(StoreError::IdTaken(_)) => {
                tx.execute("ROLLBACK TO SAVEPOINT work", &[]).await?;
            }
            Err(e) => return Err(e),
        }
    }
    Err(StoreError::Db("run ids were taken three times".into()))
}

/// Does a plan's steps: stores each run, answers the rest.
async fn store_steps(tx: &mut impl Tx, steps: Vec<Step>) -> Result<Vec<Done>, StoreError> {
    let mut done = Vec::with_capacity(steps.len());
    for step in steps {
        done.push(match step {
            Step::Answer(answer) => Done::Answered(answer),
            Step::Store(run) => {
                let Some(pbs) = store(tx, &[&run]).await? else {
                    return Err(StoreError::IdTaken(run.played.id.clone()));
                };
                confirm(tx, &run).await?;
                let pb = run.on_boards() && pbs.contains(&run.player);
                Done::Stored(run, Stored { pb })
            }
        });
    }
    Ok(done)
}

/// What each of `wants` (no two of one player, key or seed) needs to know: every stored
/// round with one of its keys and the latest [`ROUNDS_ON_A_SEED`](super::ROUNDS_ON_A_SEED)
/// on each of its seeds, its issued seeds, and its player's usage and record.
pub async fn known(tx: &mut impl Tx, wants: &[Wants<'_>]) -> Result<Vec<Known>, StoreError> {
    let these = || wants.iter();
    let keys: Vec<&[u8]> = these()
        .flat_map(|w| w.keys.iter().map(|k| &k[..]))
        .collect();
    let on: Vec<i64> = these()
        .flat_map(|w| w.seeds.iter().map(|&s| s as i64))
        .collect();
    let players: Vec<PlayerId> = these().map(|w| w.player).collect();
    // Each seed with its job's player: a daily's seed, with their try of it.
    let seed_players: Vec<i64> = these()
        .flat_map(|w| w.seeds.iter().map(|_| w.player))
        .collect();
    let days: Vec<&str> = these().map(|w| w.day).collect();
    let on_seed = format!(
        "{} FROM rounds k LEFT JOIN runs r ON r.id = k.run_id
         WHERE k.seed = $1 ORDER BY k.created_ms DESC LIMIT {}",
        round_columns!(),
        super::ROUNDS_ON_A_SEED
    );
    let on_seeds = format!(
        "{} FROM unnest($1::bigint[]) AS s(seed), LATERAL (
             SELECT * FROM rounds WHERE rounds.seed = s.seed
             ORDER BY created_ms DESC LIMIT {}) k
         LEFT JOIN runs r ON r.id = k.run_id",
        round_columns!(),
        super::ROUNDS_ON_A_SEED
    );
    let found = tx
        .batches(&[
            Batch {
                each: concat!(
                    round_columns!(),
                    " FROM rounds k LEFT JOIN runs r ON r.id = k.run_id WHERE k.round_key = $1"
                ),
                arrays: concat!(
                    round_columns!(),
                    " FROM rounds k LEFT JOIN runs r ON r.id = k.run_id
                     WHERE k.round_key = ANY($1)"
                ),
                columns: vec![Column::Bytes(keys)],
            },
            Batch {
                each: &on_seed,
                arrays: &on_seeds,
                columns: vec![Column::I64(on.clone())],
            },
            Batch {
                each: "SELECT seed, player_id, mode, issued_ms, expires_ms, run_id
                       FROM seeds WHERE seed = $1",
                arrays: "SELECT seed, player_id, mode, issued_ms, expires_ms, run_id
                         FROM seeds WHERE seed = ANY($1)",
                columns: vec![Column::I64(on.clone())],
            },
            Batch {
                each: "SELECT d.seed, d.number, $2, t.issued_ms, t.run_id, t.player_id
                       FROM dailies d LEFT JOIN daily_tries t
                           ON t.number = d.number AND t.player_id = $2
                       WHERE d.seed = $1",
                arrays: "SELECT d.seed, d.number, v.player, t.issued_ms, t.run_id, t.player_id
                         FROM unnest($1::bigint[], $2::bigint[]) AS v(seed, player)
                         JOIN dailies d ON d.seed = v.seed
                         LEFT JOIN daily_tries t ON t.number = d.number AND t.player_id = v.player
                         WHERE d.seed = ANY($1)",
                columns: vec![Column::I64(on.clone()), Column::I64(seed_players)],
            },
            Batch {
                each: "SELECT seed, until_ms FROM room_seeds WHERE seed = $1",
                arrays: "SELECT seed, until_ms FROM room_seeds WHERE seed = ANY($1)",
                columns: vec![Column::I64(on)],
            },
            Batch {
                each: "SELECT player_id, runs, bytes FROM usage WHERE player_id = $1 AND day = $2",
                arrays: "SELECT u.player_id, u.runs, u.bytes
                         FROM unnest($1::bigint[], $2::text[]) AS v(player, day)
                         JOIN usage u ON u.player_id = v.player AND u.day = v.day
                         WHERE u.player_id = ANY($1)",
                columns: vec![Column::I64(players.clone()), Column::Text(days.clone())],
            },
            Batch {
                each: concat!(
                    "SELECT id, banned, ",
                    record_on!("$2"),
                    " FROM players WHERE id = $1"
                ),
                arrays: concat!(
                    "SELECT p.id, p.banned, ",
                    record_on!("v.day"),
                    " FROM unnest($1::bigint[], $2::text[]) AS v(player, day)
                     JOIN players p ON p.id = v.player
                     WHERE p.id = ANY($1)"
                ),
                columns: vec![Column::I64(players.clone()), Column::Text(days)],
            },
            Batch {
                each: "SELECT player_id, id, wpm_x100 FROM runs
                       WHERE player_id = $1 AND pending IS NOT NULL AND NOT hidden",
                arrays: "SELECT player_id, id, wpm_x100 FROM runs
                         WHERE player_id = ANY($1) AND pending IS NOT NULL AND NOT hidden",
                columns: vec![Column::I64(players)],
            },
        ])
        .await?;
    let [
        by_key,
        by_seed,
        issued,
        dailies,
        rooms,
        usage,
        records,
        pending,
    ] = &found[..]
    else {
        return Err(StoreError::Db("a batch went unanswered".into()));
    };
    let by_key: Vec<KnownRound> = by_key.iter().filter_map(round).collect();
    let by_seed: Vec<KnownRound> = by_seed.iter().filter_map(round).collect();
    let issued: Vec<IssuedSeed> = issued
        .iter()
        .map(issued_seed)
        .chain(rooms.iter().map(room_seed))
        .collect();
    Ok(these()
        .map(|w| Known {
            rounds: rounds_of(w, &by_key, &by_seed),
            dailies: (dailies.iter())
                .filter(|r| r.int(2) == Some(w.player))
                .map(|r| KnownDaily {
                    seed: r.int(0).unwrap_or(0) as u64,
                    number: r.uint(1),
                    tried: r.int(5).map(|_| (r.int(3).unwrap_or(0), r.maybe_text(4))),
                })
                .collect(),
            seeds: (issued.iter())
                .filter(|s| w.seeds.contains(&s.seed))
                .cloned()
                .collect(),
            usage: (usage.iter())
                .find(|r| r.int(0) == Some(w.player))
                .map_or_else(Usage::default, |r| Usage {
                    runs: r.uint(1),
                    bytes: r.int(2).and_then(|b| u64::try_from(b).ok()).unwrap_or(0),
                }),
            record: Record {
                pending: (pending.iter())
                    .filter(|r| r.int(0) == Some(w.player))
                    .map(|r| PendingRun {
                        id: r.text(1),
                        wpm_x100: r.uint(2),
                    })
                    .collect(),
                ..(records.iter())
                    .find(|r| r.int(0) == Some(w.player))
                    .map_or_else(Record::default, |r| Record {
                        banned: r.bool(1),
                        best_wpm_x100: r.int(2).map(|b| u32::try_from(b).unwrap_or(0)),
                        pending: vec![],
                    })
            },
        })
        .collect())
}

/// A known round, from a row of [`round_columns`]; `None` for a key of the wrong length.
fn round(r: &Row) -> Option<KnownRound> {
    let on = match (r.maybe_text(4), r.int(5)) {
        (Some(mode), Some(seed)) => Some((mode, seed as u64, r.bytes(6))),
        _ => None,
    };
    Some(KnownRound {
        key: r.bytes(0).try_into().ok()?,
        run: r.text(1),
        player: r.int(2).unwrap_or(0),
        blocks: r.bytes(3),
        on,
        stored: r
            .bool(10)
            .then(|| (r.uint(7), super::standing(r.maybe_text(8), r.maybe_text(9)))),
    })
}

/// An issued seed, from a row of `seeds`.
fn issued_seed(r: &Row) -> IssuedSeed {
    IssuedSeed {
        seed: r.int(0).unwrap_or(0) as u64,
        player: r.int(1).unwrap_or(0),
        mode: r.text(2),
        issued_ms: r.int(3).unwrap_or(0),
        expires_ms: r.int(4).unwrap_or(0),
        run: r.maybe_text(5),
        room: false,
    }
}

/// A live room's seed, from a row of `room_seeds`.
fn room_seed(r: &Row) -> IssuedSeed {
    IssuedSeed {
        seed: r.int(0).unwrap_or(0) as u64,
        player: 0,
        mode: String::new(),
        issued_ms: 0,
        expires_ms: r.int(1).unwrap_or(0),
        run: None,
        room: true,
    }
}

/// The rounds `wants` reads: those with one of its keys, and those on one of its seeds;
/// each once.
fn rounds_of(wants: &Wants, by_key: &[KnownRound], by_seed: &[KnownRound]) -> Vec<KnownRound> {
    let mine = |r: &&KnownRound| wants.keys.contains(&r.key);
    let on_mine =
        |r: &&KnownRound| (r.on.as_ref()).is_some_and(|(_, seed, _)| wants.seeds.contains(seed));
    let mut out: Vec<KnownRound> = vec![];
    for round in by_key
        .iter()
        .filter(mine)
        .chain(by_seed.iter().filter(on_mine))
    {
        if !out.iter().any(|r| r.key == round.key && r.run == round.run) {
            out.push(round.clone());
        }
    }
    out
}

/// Stores `runs` (no two of one player): each run and its round, counted in its
/// player's usage, its seed used up, its quote remembered as shown to its player, and if
/// it is ranked, the player's bests (the month's, all time's, and the `pb` mark's)
/// updated. The players whose run is a new personal best; or `None` if a run's id was
/// taken: then that run is not stored, but the others' rows, and its own other rows, are,
/// and the caller rolls them back.
pub async fn store(
    tx: &mut impl Tx,
    runs: &[&NewRun],
) -> Result<Option<HashSet<PlayerId>>, StoreError> {
    let column = |f: fn(&NewRun) -> i64| runs.iter().map(|r| f(r)).collect::<Vec<_>>();
    let ids: Vec<&str> = runs.iter().map(|r| r.played.id.as_str()).collect();
    let modes: Vec<&str> = runs.iter().map(|r| r.played.mode.as_str()).collect();
    let players = column(|r| r.player);
    let created = column(|r| r.played.created_ms);
    let spending: Vec<&&NewRun> = runs.iter().filter(|r| r.uses_seed.is_some()).collect();
    // A quote a player has stored a round of is one they were shown: no quote's seed is
    // issued to them for it (docs/TRUST.md, "Quotes").
    let quotes: Vec<&&NewRun> = (runs.iter())
        .filter(|r| r.played.mode.starts_with("quote:"))
        .collect();
    let firsts: Vec<&&NewRun> = (runs.iter())
        .filter(|r| r.daily.is_some_and(|d| d.first_try))
        .collect();
    let ranked: Vec<Best> = (runs.iter())
        .filter(|r| r.on_boards())
        .map(|r| Best::of(r))
        .collect();
    let [record, bests, pbs] = best(&ranked);
    let answers = tx
        .batches(&[
            Batch {
                each: "INSERT INTO runs (id, player_id, mode, score, wpm_x100, accuracy_x100,
                           duration_ms, created_ms, month, replay, unranked, pending, daily)
                       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
                       ON CONFLICT (id) DO NOTHING RETURNING id",
                arrays: "INSERT INTO runs (id, player_id, mode, score, wpm_x100, accuracy_x100,
                             duration_ms, created_ms, month, replay, unranked, pending, daily)
                         SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::int[],
                             $5::int[], $6::int[], $7::bigint[], $8::bigint[], $9::text[],
                             $10::bytea[], $11::text[], $12::text[], $13::int[])
                         ON CONFLICT (id) DO NOTHING RETURNING id",
                columns: vec![
                    Column::Text(ids.clone()),
                    Column::I64(players.clone()),
                    Column::Text(modes.clone()),
                    Column::I32(runs.iter().map(|r| int(r.played.score)).collect()),
                    Column::I32(runs.iter().map(|r| int(r.played.wpm_x100)).collect()),
                    Column::I32(runs.iter().map(|r| int(r.played.accuracy_x100)).collect()),
                    Column::I64(column(|r| r.played.duration_ms.into())),
                    Column::I64(created.clone()),
                    Column::Text(runs.iter().map(|r| r.month.as_str()).collect()),
                    Column::Bytes(runs.iter().map(|r| &r.played.replay[..]).collect()),
                    Column::MaybeText(runs.iter().map(|r| r.played.unranked.as_deref()).collect()),
                    Column::MaybeText(runs.iter().map(|r| r.played.pending.as_deref()).collect()),
                    Column::MaybeI32(
                        (runs.iter())
                            .map(|r| r.daily.map(|d| int(d.number)))
                            .collect(),
                    ),
                ],
            },
            Batch {
                each: "INSERT INTO rounds (round_key, run_id, player_id, blocks, created_ms, mode,
                                           seed, prefix, wpm_x100, accuracy_x100, duration_ms)
                       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                arrays: "INSERT INTO rounds (round_key, run_id, player_id, blocks, created_ms,
                                             mode, seed, prefix, wpm_x100, accuracy_x100,
                                             duration_ms)
                         SELECT * FROM unnest($1::bytea[], $2::text[], $3::bigint[], $4::bytea[],
                             $5::bigint[], $6::text[], $7::bigint[], $8::bytea[], $9::int[],
                             $10::int[], $11::bigint[])",
                columns: vec![
                    Column::Bytes(runs.iter().map(|r| &r.round.key[..]).collect()),
                    Column::Text(ids),
                    Column::I64(players.clone()),
                    Column::Bytes(runs.iter().map(|r| &r.round.blocks[..]).collect()),
                    Column::I64(created),
                    Column::Text(modes),
                    Column::I64(column(|r| r.round.seed as i64)),
                    Column::Bytes(runs.iter().map(|r| &r.round.prefix[..]).collect()),
                    Column::I32(runs.iter().map(|r| int(r.played.wpm_x100)).collect()),
                    Column::I32(runs.iter().map(|r| int(r.played.accuracy_x100)).collect()),
                    Column::I64(column(|r| r.played.duration_ms.into())),
                ],
            },
            Batch {
                each: "INSERT INTO usage (player_id, day, runs, bytes) VALUES ($1, $2, 1, $3)
                       ON CONFLICT (player_id, day) DO UPDATE SET
                           runs = usage.runs + 1, bytes = usage.bytes + excluded.bytes",
                arrays: "INSERT INTO usage (player_id, day, runs, bytes)
                         SELECT player, day, 1, bytes
                         FROM unnest($1::bigint[], $2::text[], $3::bigint[])
                             AS v(player, day, bytes)
                         ON CONFLICT (player_id, day) DO UPDATE SET
                             runs = usage.runs + 1, bytes = usage.bytes + excluded.bytes",
                columns: vec![
                    Column::I64(players.clone()),
                    Column::Text(runs.iter().map(|r| r.day.as_str()).collect()),
                    Column::I64(column(|r| r.played.replay.len() as i64)),
                ],
            },
            // Writes only a player's first run: after it, no row matches. A guest is
            // never used: the sweep releases its row with its runs (docs/spec/rooms.md,
            // "Guests").
            Batch {
                each: "UPDATE players SET used = true WHERE id = $1 AND NOT used AND NOT guest",
                arrays: "UPDATE players SET used = true
                         WHERE id = ANY($1) AND NOT used AND NOT guest",
                columns: vec![Column::I64(players)],
            },
            // A room's seed has no row: the room played it once per racer, and holds no
            // more.
            Batch {
                each: "UPDATE seeds SET run_id = $2 WHERE seed = $1",
                arrays: "UPDATE seeds SET run_id = v.run
                         FROM unnest($1::bigint[], $2::text[]) AS v(seed, run)
                         WHERE seeds.seed = v.seed AND seeds.seed = ANY($1)",
                columns: vec![
                    Column::I64(
                        (spending.iter())
                            .map(|r| r.uses_seed.map_or(0, |s| s as i64))
                            .collect(),
                    ),
                    Column::Text(spending.iter().map(|r| r.played.id.as_str()).collect()),
                ],
            },
            // A player's first try of a daily counts once: for the first run on it.
            Batch {
                each: "UPDATE daily_tries SET run_id = $3
                       WHERE number = $1 AND player_id = $2 AND run_id IS NULL",
                arrays: "UPDATE daily_tries SET run_id = v.run
                         FROM unnest($1::int[], $2::bigint[], $3::text[]) AS v(number, player, run)
                         WHERE daily_tries.number = v.number AND daily_tries.player_id = v.player
                           AND daily_tries.player_id = ANY($2) AND daily_tries.run_id IS NULL",
                columns: vec![
                    Column::I32(
                        firsts
                            .iter()
                            .map(|r| r.daily.map_or(0, |d| int(d.number)))
                            .collect(),
                    ),
                    Column::I64(firsts.iter().map(|r| r.player).collect()),
                    Column::Text(firsts.iter().map(|r| r.played.id.as_str()).collect()),
                ],
            },
            Batch {
                each: "INSERT INTO shown_quotes (player_id, mode, shown_ms) VALUES ($1, $2, $3)
                       ON CONFLICT (player_id, mode) DO NOTHING",
                arrays: "INSERT INTO shown_quotes (player_id, mode, shown_ms)
                         SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[])
                         ON CONFLICT (player_id, mode) DO NOTHING",
                columns: vec![
                    Column::I64(quotes.iter().map(|r| r.player).collect()),
                    Column::Text(quotes.iter().map(|r| r.played.mode.as_str()).collect()),
                    Column::I64(quotes.iter().map(|r| r.played.created_ms).collect()),
                ],
            },
            record,
            bests,
            pbs,
        ])
        .await?;
    if answers.first().map_or(0, Vec::len) < runs.len() {
        return Ok(None);
    }
    let pbs = answers.last().map_or(&[][..], Vec::as_slice);
    Ok(Some(pbs.iter().filter_map(|r| r.int(0)).collect()))
}

/// Puts on the boards the runs of `run`'s player that it confirms: each leaves the
/// pending, and counts for their bests as if stored now.
async fn confirm(tx: &mut impl Tx, run: &NewRun) -> Result<(), StoreError> {
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
            let at = Best {
                player: run.player,
                day: &run.day,
                mode: &mode,
                month: &month,
                id,
                score: r.uint(2),
                wpm_x100: r.uint(3),
                created_ms: r.int(4).unwrap_or(0),
            };
            tx.batches(&best(&[at])).await?;
        }
    }
    Ok(())
}

/// A ranked run, as its bests take it.
struct Best<'a> {
    player: PlayerId,
    /// The day it counts on.
    day: &'a str,
    mode: &'a str,
    month: &'a str,
    id: &'a str,
    score: u32,
    wpm_x100: u32,
    created_ms: i64,
}

impl Best<'_> {
    fn of(run: &NewRun) -> Best<'_> {
        Best {
            player: run.player,
            day: &run.day,
            mode: &run.played.mode,
            month: &run.month,
            id: &run.played.id,
            score: run.played.score,
            wpm_x100: run.played.wpm_x100,
            created_ms: run.played.created_ms,
        }
    }
}

/// The `month` of a player's all-time best in `bests`.
pub const ALL_TIME: &str = "all";

/// `column` then `column` again.
fn twice<T: Clone>(column: &[T]) -> Vec<T> {
    column.iter().chain(column).cloned().collect()
}

/// What puts `runs` (no two of one player) on the boards: each player's record, and
/// monthly best, all-time best and personal best in the run's mode if it beats them (the last batch's
/// rows are the players with a new personal best).
fn best<'a>(runs: &[Best<'a>]) -> [Batch<'a>; 3] {
    let players: Vec<PlayerId> = runs.iter().map(|r| r.player).collect();
    let modes: Vec<&str> = runs.iter().map(|r| r.mode).collect();
    let scores: Vec<i32> = runs.iter().map(|r| int(r.score)).collect();
    let wpms: Vec<i32> = runs.iter().map(|r| int(r.wpm_x100)).collect();
    [
        // The player's record rises; what it was before the day began is kept for the day.
        Batch {
            each: concat!(
                "UPDATE players SET record_x100 = ",
                record_on!("$2"),
                ", best_day = $2, best_x100 = $3
                 WHERE id = $1 AND (best_x100 IS NULL OR best_x100 < $3)"
            ),
            arrays: concat!(
                "UPDATE players SET record_x100 = ",
                record_on!("v.day"),
                ", best_day = v.day, best_x100 = v.wpm
                 FROM unnest($1::bigint[], $2::text[], $3::int[]) AS v(player, day, wpm)
                 WHERE players.id = v.player AND players.id = ANY($1)
                   AND (players.best_x100 IS NULL OR players.best_x100 < v.wpm)"
            ),
            columns: vec![
                Column::I64(players.clone()),
                Column::Text(runs.iter().map(|r| r.day).collect()),
                Column::I32(wpms.clone()),
            ],
        },
        Batch {
            each: concat!(
                "INSERT INTO bests (player_id, mode, month, run_id, score, wpm_x100, created_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                better_best!()
            ),
            arrays: concat!(
                "INSERT INTO bests (player_id, mode, month, run_id, score, wpm_x100, created_ms)
                 SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[],
                     $5::int[], $6::int[], $7::bigint[])",
                better_best!()
            ),
            // Two rows a run: its month's, and all time's (`all`).
            columns: vec![
                Column::I64(twice(&players)),
                Column::Text(twice(&modes)),
                Column::Text(
                    (runs.iter().map(|r| r.month))
                        .chain(runs.iter().map(|_| ALL_TIME))
                        .collect(),
                ),
                Column::Text(twice(&runs.iter().map(|r| r.id).collect::<Vec<_>>())),
                Column::I32(twice(&scores)),
                Column::I32(twice(&wpms)),
                Column::I64(twice(
                    &runs.iter().map(|r| r.created_ms).collect::<Vec<_>>(),
                )),
            ],
        },
        Batch {
            each: concat!(
                "INSERT INTO pbs (player_id, mode, score, wpm_x100) VALUES ($1, $2, $3, $4)",
                better_pb!()
            ),
            arrays: concat!(
                "INSERT INTO pbs (player_id, mode, score, wpm_x100)
                 SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[], $4::int[])",
                better_pb!()
            ),
            columns: vec![
                Column::I64(players),
                Column::Text(modes),
                Column::I32(scores),
                Column::I32(wpms),
            ],
        },
    ]
}
