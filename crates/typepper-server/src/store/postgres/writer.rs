//! PostgreSQL's writers: each commits the submissions waiting for it together, in one
//! transaction that first locks everything they may touch.

use std::sync::Arc;

use deadpool_postgres::{GenericClient, Pool};
use tokio::sync::mpsc;

use super::tx::{On, PgTx};
use super::{Counts, Queued, db, pool_error, together};
use crate::store::{Done, Job, PlayerId, StoreError, group, submission};

/// A writer: takes the submissions waiting (up to `group`), does them in one transaction
/// on a connection of `pool`'s, each in a savepoint of its own, commits once, and answers
/// each. Submissions given up on are skipped, and those past their deadline refused.
pub async fn writer(
    pool: Pool,
    mut queue: mpsc::UnboundedReceiver<Queued>,
    group: usize,
    counts: Arc<Counts>,
) {
    while let Some(first) = queue.recv().await {
        let mut todo = group::gather(first, || queue.try_recv().ok(), group);
        if todo.is_empty() {
            continue;
        }
        let mut jobs: Vec<&mut Job> = todo.iter_mut().map(|w| &mut w.job).collect();
        match commit_group(&pool, &mut jobs, &counts).await {
            Ok(done) => {
                counts.commits.add(todo.len());
                for (w, done) in todo.into_iter().zip(done) {
                    let _ = w.answer.send(done);
                }
            }
            Err(e) => {
                for w in todo {
                    let _ = w.answer.send(Err(e.again()));
                }
            }
        }
    }
}

/// What became of one submission of a group.
type Outcome = Result<Result<Vec<Done>, String>, StoreError>;

/// Does `jobs` in one transaction: those that may, together; the rest one by one, each
/// in a savepoint of its own. What became of each, once committed; or why none was.
async fn commit_group(
    pool: &Pool,
    jobs: &mut [&mut Job],
    counts: &Counts,
) -> Result<Vec<Outcome>, StoreError> {
    let (players, locks) = locks_of(jobs);
    let mut c = pool.get().await.map_err(pool_error)?;
    let tx = c.transaction().await.map_err(db)?;
    counts.sent(1);
    lock(&tx, &players, &locks, counts).await?;
    let mut out: Vec<Option<Outcome>> = jobs.iter().map(|_| None).collect();
    let (both, mut alone) = together::split(jobs);
    if both.len() > 1 {
        let mut on = PgTx::counted(On::Tx(&tx), counts);
        let (done, after) = together::run(&mut on, jobs, &both).await?;
        for (i, outcome) in done {
            out[i] = Some(Ok(outcome));
        }
        alone.extend(after);
        // In the order they came: a job sharing something with an earlier one follows it.
        alone.sort_unstable();
    } else {
        alone = (0..jobs.len()).collect();
    }
    for i in alone {
        // The savepoint goes out with the job's first reads.
        let mut on = PgTx::counted(On::Tx(&tx), counts);
        on.lead("SAVEPOINT work");
        let done = submission::submit(&mut on, jobs[i]).await;
        // A failed job's writes go, and the group goes on; a plan that stores nothing
        // wrote nothing. The savepoint is not released: the next job's, of the same
        // name, hides it, and the commit ends them all (a round trip a job less).
        if done.is_err() {
            run_sql(&tx, "ROLLBACK TO SAVEPOINT work", counts).await?;
        }
        out[i] = Some(done);
    }
    tx.commit().await.map_err(db)?;
    counts.sent(1);
    Ok(out
        .into_iter()
        .map(|o| o.unwrap_or_else(|| Err(StoreError::Db("a submission was left undone".into()))))
        .collect())
}

/// Runs one statement with no parameters, counted.
async fn run_sql(tx: &impl GenericClient, sql: &str, counts: &Counts) -> Result<(), StoreError> {
    tx.batch_execute(sql).await.map_err(db)?;
    counts.sent(1);
    Ok(())
}

/// What a group of `jobs` locks: its players, and a lock id for each of their keys (its
/// first eight bytes) and seeds; each sorted, once.
fn locks_of(jobs: &[&mut Job]) -> (Vec<PlayerId>, Vec<i64>) {
    let mut players: Vec<PlayerId> = jobs.iter().map(|j| j.player).collect();
    players.sort_unstable();
    players.dedup();
    let mut locks: Vec<i64> = jobs
        .iter()
        .flat_map(|j| {
            j.keys
                .iter()
                .map(|k| i64::from_le_bytes([k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7]]))
                .chain(j.seeds.iter().map(|&s| s as i64))
        })
        .collect();
    locks.sort_unstable();
    locks.dedup();
    (players, locks)
}

/// Locks the rows of `players`, then the advisory `locks`, each in order, in one round
/// trip: two groups sharing a player or a key can't each wait on the other, and two
/// rounds on one seed (a copy and its original) are judged one after the other.
async fn lock(
    tx: &impl GenericClient,
    players: &[PlayerId],
    locks: &[i64],
    counts: &Counts,
) -> Result<(), StoreError> {
    let rows = async {
        let s = tx
            .prepare_cached("SELECT 1 FROM players WHERE id = ANY($1) ORDER BY id FOR UPDATE")
            .await?;
        tx.execute(&s, &[&players]).await
    };
    let advisory = async {
        if locks.is_empty() {
            return Ok(0);
        }
        let s = tx
            .prepare_cached(
                "SELECT pg_advisory_xact_lock(k) FROM unnest($1::bigint[]) AS k ORDER BY k",
            )
            .await?;
        tx.execute(&s, &[&locks]).await
    };
    // Sent in this order, and run in it: the rows, then the advisory locks.
    tokio::try_join!(rows, advisory).map_err(db)?;
    counts.sent(2);
    Ok(())
}
