//! Retention: runs are kept 8 days (`--retention-days`), or longer while they are a
//! player's best of a month or of all time; a background task deletes the rest in
//! batches, with expired seeds, past days' usage, names nobody ever used, and what is
//! left of players who deleted their account (their rows a day later, their name 30
//! days later).
//!
//! A round's fingerprint outlives its run (so that a copy of an expired run is still
//! known), and a player with one is never released.

use std::sync::Arc;
use std::time::Duration;

use crate::Shared;
use crate::store::{Expiring, Horizon, Store, Swept};

/// Rows of a kind deleted per batch, so that a big sweep never holds the database for
/// long.
pub const BATCH: u32 = 500;
/// A name that never had a run stored is released this many days after it was linked.
pub const UNUSED_NAME_DAYS: i64 = 30;
/// Days a deleted player's name stays theirs, so that no one takes it while their links
/// are still being passed round.
pub const DELETED_NAME_DAYS: i64 = 30;
/// Days of usage kept: today's counts, and yesterday's for a request near midnight.
const USAGE_DAYS: i64 = 2;

const DAY_MS: i64 = 86_400_000;

/// Deletes everything expired now; returns how much.
pub async fn sweep_once(state: &Shared) -> Swept {
    let now = state.now_ms();
    let horizon = Horizon {
        runs_before_ms: now - i64::from(state.config.retention_days) * DAY_MS,
        seeds_before_ms: now,
        usage_before_day: typepper_api::Utc::of(now - (USAGE_DAYS - 1) * DAY_MS).day(),
        unused_players_before_ms: now - UNUSED_NAME_DAYS * DAY_MS,
        deleted_rows_before_ms: now - DAY_MS,
        deleted_names_before_ms: now - DELETED_NAME_DAYS * DAY_MS,
    };
    let swept = sweep(&*state.store, &horizon, BATCH).await;
    if swept.runs > 0 || swept.deleted > 0 {
        // Some may be cached: a swept run's link must say it is gone, and a profile must
        // not list it.
        state.runs.clear();
        state.profiles.clear();
    }
    swept
}

/// Deletes every row expired at `horizon`, kind by kind, `batch` rows at a time, each
/// batch in a transaction of its own. A batch that fails is logged with its reason and
/// stepped over: the batches after it, and the other kinds, still go. So no row a player
/// can make (nor a bug in one kind's delete) stops retention for good.
pub async fn sweep(store: &dyn Store, horizon: &Horizon, batch: u32) -> Swept {
    let mut swept = Swept::default();
    for kind in Expiring::ALL {
        let mut after = kind.first();
        loop {
            let keys = match store
                .expired(kind, horizon.clone(), after.clone(), batch)
                .await
            {
                Ok(keys) => keys,
                Err(e) => {
                    tracing::warn!("retention: finding expired {kind} failed: {e}");
                    swept.failed += 1;
                    break;
                }
            };
            let Some(last) = keys.last().cloned() else {
                break;
            };
            match store
                .delete_expired(kind, horizon.clone(), after, last.clone())
                .await
            {
                Ok(n) => {
                    let count = match kind {
                        Expiring::Runs => &mut swept.runs,
                        Expiring::Seeds | Expiring::RoomSeeds => &mut swept.seeds,
                        Expiring::Usage => &mut swept.usage,
                        Expiring::Players | Expiring::DeletedNames => &mut swept.players,
                        Expiring::Deleted => &mut swept.deleted,
                    };
                    *count += n;
                }
                Err(e) => {
                    tracing::warn!(
                        "retention: a batch of {} expired {kind} from {:?} to {last:?} was \
                         not deleted ({e}); the sweep goes on past it",
                        keys.len(),
                        keys[0]
                    );
                    swept.failed += 1;
                }
            }
            if keys.len() < batch as usize {
                break;
            }
            after = last;
        }
    }
    swept
}

/// Sweeps every `--sweep-secs`, forever.
pub async fn run(state: Arc<Shared>) {
    let mut every = tokio::time::interval(Duration::from_secs(state.config.sweep_secs.max(1)));
    loop {
        every.tick().await;
        let n = sweep_once(&state).await;
        if n.runs > 0 || n.players > 0 || n.failed > 0 {
            tracing::info!(
                "retention: deleted {} expired runs; released {} unused names; {} batches failed",
                n.runs,
                n.players,
                n.failed
            );
        }
    }
}
