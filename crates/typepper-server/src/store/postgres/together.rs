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
//! The reads and writes are the store's own, for any number of submissions
//! ([`submission::known`], [`submission::store`]), which PostgreSQL sends as arrays.

use std::collections::HashSet;

use super::tx::PgTx;
use crate::store::submission::{self, Wants};
use crate::store::{Done, Job, NewRun, PlayerId, Step, StoreError, Stored, tx::Tx};

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
    tx: &mut PgTx<'_>,
    jobs: &mut [&mut Job],
    together: &[usize],
) -> Result<(Vec<(usize, Outcome)>, Vec<usize>), StoreError> {
    let wants: Vec<Wants> = together.iter().map(|&i| Wants::of(jobs[i])).collect();
    let known = submission::known(tx, &wants).await?;
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
        tx.lead("SAVEPOINT together");
        let pbs = submission::store(tx, &runs).await?;
        if pbs.is_none() {
            // Astronomically rare (ids are 8 random base62 characters): undo it all, and
            // each job will be done alone, with new ids if its are taken.
            tx.execute("ROLLBACK TO SAVEPOINT together", &[]).await?;
        }
        pbs
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
