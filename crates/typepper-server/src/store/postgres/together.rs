//! A group's submissions done together: their reads as one statement a table, their
//! plans in memory, and their writes as one multi-row statement a table, all of it in
//! two round trips whatever the group's size.
//!
//! Only submissions that can't see each other's writes go together: no two share a
//! player, a round's key or a seed ([`split`]). Each reads what it would have read alone,
//! and its plan is its own, so one that is refused fails alone without touching the
//! database. What a lone plan's writes would have done to a row that two runs write
//! (a player's usage, records and bests) is done once for each, since no two of them
//! share a player. A submission whose plan stores more than one run, or confirms runs
//! waiting for it, is done alone after the rest (the writes of its runs depend on each
//! other's), as is each of the group's should a run's id turn out to be taken.
//!
//! A join with an array of rows also names the table's keys in an `= ANY` of the array:
//! the planner guesses an `unnest` at a hundred rows, and against that guess may scan a
//! small table whole (a profile showed heap page scans under the group's statements)
//! rather than look each row up by its key.

use std::collections::{HashMap, HashSet};

use deadpool_postgres::GenericClient;

use super::{Counts, rounds_found, seeds};
use crate::store::{
    Done, IssuedSeed, Job, Known, KnownRound, NewRun, PendingRun, PlayerId, Record, Step, Stored,
    Usage,
};

/// What became of one submission done together: its steps done, or its plan's refusal.
pub type Outcome = Result<Vec<Done>, String>;

/// The jobs (by index) that may go together, and the rest, in order: a job goes
/// together when no earlier job of the group shares its player, a key or a seed. So
/// every job sharing something with another comes after it, as it arrived.
pub fn split(jobs: &[&mut Job]) -> (Vec<usize>, Vec<usize>) {
    let (mut players, mut keys, mut on) = (HashSet::new(), HashSet::new(), HashSet::new());
    let (mut together, mut alone) = (vec![], vec![]);
    for (i, job) in jobs.iter().enumerate() {
        let free = !players.contains(&job.player)
            && job.keys.iter().all(|k| !keys.contains(k))
            && job.seeds.iter().all(|s| !on.contains(s));
        players.insert(job.player);
        keys.extend(job.keys.iter().copied());
        on.extend(job.seeds.iter().copied());
        if free {
            together.push(i);
        } else {
            alone.push(i);
        }
    }
    (together, alone)
}

/// Does `jobs[i]` for each `i` of `together`, as one: each outcome, by index, and the
/// jobs that must be done alone after all (their plans stored more than one run, or
/// confirmed runs, or a run's id was taken: then none of these wrote anything).
pub async fn run(
    tx: &impl GenericClient,
    jobs: &mut [&mut Job],
    together: &[usize],
    counts: &Counts,
) -> Result<(Vec<(usize, Outcome)>, Vec<usize>), tokio_postgres::Error> {
    let wants: Vec<Wants> = together
        .iter()
        .map(|&i| Wants {
            player: jobs[i].player,
            day: jobs[i].day.clone(),
            keys: jobs[i].keys.clone(),
            seeds: jobs[i].seeds.clone(),
        })
        .collect();
    let known = known(tx, &wants, counts).await?;
    let (mut done, mut alone, mut planned) = (vec![], vec![], vec![]);
    for (&i, known) in together.iter().zip(&known) {
        match (jobs[i].plan)(known) {
            Err(why) => done.push((i, Err(why))),
            Ok(steps) if simple(&steps) => planned.push((i, steps)),
            Ok(_) => alone.push(i),
        }
    }
    let runs: Vec<&NewRun> = planned.iter().flat_map(|(_, s)| stored(s)).collect();
    let pbs = if runs.is_empty() {
        Some(HashSet::new())
    } else {
        write(tx, &runs, counts).await?
    };
    match pbs {
        Some(pbs) => done.extend(
            planned
                .into_iter()
                .map(|(i, steps)| (i, Ok(steps.into_iter().map(|s| did(s, &pbs)).collect()))),
        ),
        None => alone.extend(planned.into_iter().map(|(i, _)| i)),
    }
    Ok((done, alone))
}

/// Whether a plan's steps can be written with others': at most one run, confirming none.
fn simple(steps: &[Step]) -> bool {
    stored(steps).count() <= 1 && stored(steps).all(|r| r.confirms.is_empty())
}

/// The runs a plan stores.
fn stored(steps: &[Step]) -> impl Iterator<Item = &NewRun> {
    steps.iter().filter_map(|s| match s {
        Step::Store(run) => Some(&**run),
        Step::Answer(_) => None,
    })
}

/// What a step became, its run a personal best if its player is in `pbs`.
fn did(step: Step, pbs: &HashSet<PlayerId>) -> Done {
    match step {
        Step::Answer(answer) => Done::Answered(answer),
        Step::Store(run) => {
            let pb = run.played.on_boards() && pbs.contains(&run.player);
            Done::Stored(run, Stored { pb })
        }
    }
}

/// What a job's reads are of (a job's plan is not shared between threads, so its reads
/// are not taken from it across an await).
struct Wants {
    player: PlayerId,
    day: String,
    keys: Vec<[u8; 32]>,
    seeds: Vec<u64>,
}

/// What each of `wants` would have read alone ([`Tx::known`](super::Tx::known)), read
/// for all of them at once: five statements, one round trip.
async fn known(
    tx: &impl GenericClient,
    wants: &[Wants],
    counts: &Counts,
) -> Result<Vec<Known>, tokio_postgres::Error> {
    let these = || wants.iter();
    let keys: Vec<[u8; 32]> = these().flat_map(|j| j.keys.iter().copied()).collect();
    let on: Vec<u64> = these().flat_map(|j| j.seeds.iter().copied()).collect();
    let players: Vec<PlayerId> = these().map(|j| j.player).collect();
    let days: Vec<&str> = these().map(|j| j.day.as_str()).collect();
    let usage = async {
        let s = tx
            .prepare_cached(
                "SELECT u.player_id, u.runs, u.bytes
                 FROM unnest($1::bigint[], $2::text[]) AS v(player, day)
                 JOIN usage u ON u.player_id = v.player AND u.day = v.day
                 WHERE u.player_id = ANY($1)",
            )
            .await?;
        tx.query(&s, &[&players, &days]).await
    };
    // As `tx::record`: the record as it was when the job's day began.
    let records = async {
        let s = tx
            .prepare_cached(
                "SELECT p.id, p.banned,
                        CASE WHEN p.best_day IS NULL OR p.best_day < v.day THEN p.best_x100
                             ELSE p.record_x100 END
                 FROM unnest($1::bigint[], $2::text[]) AS v(player, day)
                 JOIN players p ON p.id = v.player
                 WHERE p.id = ANY($1)",
            )
            .await?;
        tx.query(&s, &[&players, &days]).await
    };
    let pending = async {
        let s = tx
            .prepare_cached(
                "SELECT player_id, id, wpm_x100 FROM runs
                 WHERE player_id = ANY($1) AND pending IS NOT NULL AND NOT hidden",
            )
            .await?;
        tx.query(&s, &[&players]).await
    };
    let (rounds, issued, usage, records, pending) = tokio::try_join!(
        rounds_found(tx, &keys, &on),
        seeds(tx, &on),
        usage,
        records,
        pending
    )?;
    counts.sent(5);
    let mut usage: HashMap<PlayerId, Usage> = usage
        .iter()
        .map(|r| {
            let bytes: i64 = r.get(2);
            let usage = Usage {
                runs: u32::try_from(r.get::<_, i32>(1)).unwrap_or(0),
                bytes: u64::try_from(bytes).unwrap_or(0),
            };
            (r.get(0), usage)
        })
        .collect();
    let mut records: HashMap<PlayerId, Record> = records
        .iter()
        .map(|r| {
            let best: Option<i32> = r.get(2);
            let record = Record {
                banned: r.get(1),
                best_wpm_x100: best.map(|b| u32::try_from(b).unwrap_or(0)),
                pending: vec![],
            };
            (r.get(0), record)
        })
        .collect();
    for r in &pending {
        if let Some(record) = records.get_mut(&r.get::<_, PlayerId>(0)) {
            record.pending.push(PendingRun {
                id: r.get(1),
                wpm_x100: u32::try_from(r.get::<_, i32>(2)).unwrap_or(0),
            });
        }
    }
    Ok(these()
        .map(|job| Known {
            rounds: rounds_of(job, &rounds),
            seeds: issued
                .iter()
                .filter(|s| job.seeds.contains(&s.seed))
                .cloned()
                .collect::<Vec<IssuedSeed>>(),
            usage: usage.remove(&job.player).unwrap_or_default(),
            record: records.remove(&job.player).unwrap_or_default(),
        })
        .collect())
}

/// The rounds `job` would have read alone: those with one of its keys, and those found
/// on one of its seeds; each once.
fn rounds_of(job: &Wants, found: &[(Option<u64>, KnownRound)]) -> Vec<KnownRound> {
    let mut out: Vec<KnownRound> = vec![];
    for (via, round) in found {
        let mine = match via {
            None => job.keys.contains(&round.key),
            Some(seed) => job.seeds.contains(seed),
        };
        if mine && !out.iter().any(|r| r.key == round.key && r.run == round.run) {
            out.push(round.clone());
        }
    }
    out
}

/// Writes `runs` (no two of one player) as [`tx::submit`](super::tx::submit) would one by
/// one, each table's rows in one statement, all in one round trip: the players whose run
/// is a new personal best; or `None`, with nothing written, if a run's id was taken.
async fn write(
    tx: &impl GenericClient,
    runs: &[&NewRun],
    counts: &Counts,
) -> Result<Option<HashSet<PlayerId>>, tokio_postgres::Error> {
    let ids = column(runs, |r| r.played.id.as_str());
    let players = column(runs, |r| r.player);
    let modes = column(runs, |r| r.played.mode.as_str());
    let scores = column(runs, |r| int(r.played.score));
    let wpms = column(runs, |r| int(r.played.wpm_x100));
    let accuracies = column(runs, |r| int(r.played.accuracy_x100));
    let durations = column(runs, |r| i64::from(r.played.duration_ms));
    let created = column(runs, |r| r.played.created_ms);
    let months = column(runs, |r| r.month.as_str());
    let days = column(runs, |r| r.day.as_str());
    let replays = column(runs, |r| &r.played.replay[..]);
    let unranked = column(runs, |r| r.played.unranked.as_deref());
    let pending = column(runs, |r| r.played.pending.as_deref());
    let sizes = column(runs, |r| r.played.replay.len() as i64);
    let keys = column(runs, |r| &r.round.key[..]);
    let blocks = column(runs, |r| &r.round.blocks[..]);
    let round_seeds = column(runs, |r| r.round.seed as i64);
    let prefixes = column(runs, |r| &r.round.prefix[..]);
    let spending: Vec<&NewRun> = runs
        .iter()
        .copied()
        .filter(|r| r.uses_seed.is_some())
        .collect();
    let spent = column(&spending, |r| r.uses_seed.map_or(0, |s| s as i64));
    let spent_by = column(&spending, |r| r.played.id.as_str());
    let ranked: Vec<&NewRun> = runs
        .iter()
        .copied()
        .filter(|r| r.played.on_boards())
        .collect();
    let r_players = column(&ranked, |r| r.player);
    let r_days = column(&ranked, |r| r.day.as_str());
    let r_modes = column(&ranked, |r| r.played.mode.as_str());
    let r_months = column(&ranked, |r| r.month.as_str());
    let r_ids = column(&ranked, |r| r.played.id.as_str());
    let r_scores = column(&ranked, |r| int(r.played.score));
    let r_wpms = column(&ranked, |r| int(r.played.wpm_x100));
    let r_created = column(&ranked, |r| r.played.created_ms);

    let savepoint = tx.batch_execute("SAVEPOINT together");
    let inserted = async {
        let s = tx
            .prepare_cached(
                "INSERT INTO runs (id, player_id, mode, score, wpm_x100, accuracy_x100,
                     duration_ms, created_ms, month, replay, unranked, pending)
                 SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::int[],
                     $5::int[], $6::int[], $7::bigint[], $8::bigint[], $9::text[],
                     $10::bytea[], $11::text[], $12::text[])
                 ON CONFLICT (id) DO NOTHING",
            )
            .await?;
        tx.execute(
            &s,
            &[
                &ids,
                &players,
                &modes,
                &scores,
                &wpms,
                &accuracies,
                &durations,
                &created,
                &months,
                &replays,
                &unranked,
                &pending,
            ],
        )
        .await
    };
    let rounds = async {
        let s = tx
            .prepare_cached(
                "INSERT INTO rounds (round_key, run_id, player_id, blocks, created_ms, mode,
                                     seed, prefix)
                 SELECT * FROM unnest($1::bytea[], $2::text[], $3::bigint[], $4::bytea[],
                     $5::bigint[], $6::text[], $7::bigint[], $8::bytea[])",
            )
            .await?;
        tx.execute(
            &s,
            &[
                &keys,
                &ids,
                &players,
                &blocks,
                &created,
                &modes,
                &round_seeds,
                &prefixes,
            ],
        )
        .await
    };
    let usage = async {
        let s = tx
            .prepare_cached(
                "INSERT INTO usage (player_id, day, runs, bytes)
                 SELECT player, day, 1, bytes
                 FROM unnest($1::bigint[], $2::text[], $3::bigint[]) AS v(player, day, bytes)
                 ON CONFLICT (player_id, day) DO UPDATE SET
                     runs = usage.runs + 1, bytes = usage.bytes + excluded.bytes",
            )
            .await?;
        tx.execute(&s, &[&players, &days, &sizes]).await
    };
    // As one by one: only a player's first run writes, and a guest is never used.
    let used = async {
        let s = tx
            .prepare_cached(
                "UPDATE players SET used = true WHERE id = ANY($1) AND NOT used AND NOT guest",
            )
            .await?;
        tx.execute(&s, &[&players]).await
    };
    let spend = async {
        if spent.is_empty() {
            return Ok(0);
        }
        let s = tx
            .prepare_cached(
                "UPDATE seeds SET run_id = v.run
                 FROM unnest($1::bigint[], $2::text[]) AS v(seed, run)
                 WHERE seeds.seed = v.seed AND seeds.seed = ANY($1)",
            )
            .await?;
        tx.execute(&s, &[&spent, &spent_by]).await
    };
    // The three of `tx::best`, for every ranked run at once.
    let record = async {
        if ranked.is_empty() {
            return Ok(0);
        }
        let s = tx
            .prepare_cached(
                "UPDATE players SET
                     record_x100 = CASE WHEN best_day IS NULL OR best_day < v.day
                                        THEN best_x100 ELSE record_x100 END,
                     best_day = v.day, best_x100 = v.wpm
                 FROM unnest($1::bigint[], $2::text[], $3::int[]) AS v(player, day, wpm)
                 WHERE players.id = v.player AND players.id = ANY($1)
                   AND (players.best_x100 IS NULL OR players.best_x100 < v.wpm)",
            )
            .await?;
        tx.execute(&s, &[&r_players, &r_days, &r_wpms]).await
    };
    let bests = async {
        if ranked.is_empty() {
            return Ok(0);
        }
        let s = tx
            .prepare_cached(
                "INSERT INTO bests (player_id, mode, month, run_id, score, wpm_x100, created_ms)
                 SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[],
                     $5::int[], $6::int[], $7::bigint[])
                 ON CONFLICT (player_id, mode, month) DO UPDATE SET
                     run_id = excluded.run_id, score = excluded.score,
                     wpm_x100 = excluded.wpm_x100, created_ms = excluded.created_ms
                 WHERE excluded.score > bests.score
                    OR (excluded.score = bests.score AND excluded.wpm_x100 > bests.wpm_x100)",
            )
            .await?;
        tx.execute(
            &s,
            &[
                &r_players, &r_modes, &r_months, &r_ids, &r_scores, &r_wpms, &r_created,
            ],
        )
        .await
    };
    // A row written is a new personal best, as one by one.
    let pbs = async {
        if ranked.is_empty() {
            return Ok(vec![]);
        }
        let s = tx
            .prepare_cached(
                "INSERT INTO pbs (player_id, mode, score, wpm_x100)
                 SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[], $4::int[])
                 ON CONFLICT (player_id, mode) DO UPDATE SET
                     score = excluded.score, wpm_x100 = excluded.wpm_x100
                 WHERE excluded.score > pbs.score
                    OR (excluded.score = pbs.score AND excluded.wpm_x100 > pbs.wpm_x100)
                 RETURNING player_id",
            )
            .await?;
        tx.query(&s, &[&r_players, &r_modes, &r_scores, &r_wpms])
            .await
    };
    // Sent in this order, the savepoint first.
    let ((), inserted, _, _, _, _, _, _, pbs) = tokio::try_join!(
        savepoint, inserted, rounds, usage, used, spend, record, bests, pbs
    )?;
    counts.sent(9);
    if inserted < runs.len() as u64 {
        // Astronomically rare (ids are 8 random base62 characters): undo it all, and
        // each job will be done alone, with new ids if its are taken.
        tx.batch_execute("ROLLBACK TO SAVEPOINT together").await?;
        counts.sent(1);
        return Ok(None);
    }
    Ok(Some(pbs.iter().map(|r| r.get(0)).collect()))
}

/// One field of every run: a column of a multi-row statement.
fn column<'a, T>(runs: &[&'a NewRun], field: impl Fn(&'a NewRun) -> T) -> Vec<T> {
    runs.iter().map(|&r| field(r)).collect()
}

/// A count or score as PostgreSQL's INTEGER (they are all far below its limit).
fn int(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}
