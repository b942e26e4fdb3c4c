//! Retention: runs are kept 8 days (`--retention-days`), or longer while they are a
//! player's monthly best; a background task deletes the rest in batches, with expired
//! seeds, past days' usage, and names nobody ever used.
//!
//! A round's fingerprint outlives its run (so that a copy of an expired run is still
//! known), and a player with one is never released.

use std::sync::Arc;
use std::time::Duration;

use crate::State;
use crate::store::{Horizon, StoreError, Swept};

/// Rows deleted per statement, so that a big sweep never holds the database for long.
pub const BATCH: u32 = 500;
/// A name that never had a run stored is released this many days after it was linked.
pub const UNUSED_NAME_DAYS: i64 = 30;
/// Days of usage kept: today's counts, and yesterday's for a request near midnight.
const USAGE_DAYS: i64 = 2;

const DAY_MS: i64 = 86_400_000;

/// Deletes everything expired now; returns how much.
pub async fn sweep_once(state: &State) -> Result<Swept, StoreError> {
    let now = state.now_ms();
    let horizon = Horizon {
        runs_before_ms: now - i64::from(state.config.retention_days) * DAY_MS,
        seeds_before_ms: now,
        usage_before_day: typepper_api::Utc::of(now - (USAGE_DAYS - 1) * DAY_MS).day(),
        unused_players_before_ms: now - UNUSED_NAME_DAYS * DAY_MS,
    };
    let mut total = Swept::default();
    loop {
        let n = state.store.sweep(horizon.clone(), BATCH).await?;
        total.runs += n.runs;
        total.seeds += n.seeds;
        total.players += n.players;
        let more = [n.runs, n.seeds, n.players]
            .iter()
            .any(|&k| k >= u64::from(BATCH));
        if !more {
            if total.runs > 0 {
                // Some may be cached: a swept run's link must say it is gone.
                state.runs.clear();
            }
            return Ok(total);
        }
    }
}

/// Sweeps every `--sweep-secs`, forever.
pub async fn run(state: Arc<State>) {
    let mut every = tokio::time::interval(Duration::from_secs(state.config.sweep_secs.max(1)));
    loop {
        every.tick().await;
        match sweep_once(&state).await {
            Ok(Swept {
                runs: 0,
                players: 0,
                ..
            }) => {}
            Ok(n) => tracing::info!(
                "retention: deleted {} expired runs; released {} unused names",
                n.runs,
                n.players
            ),
            Err(e) => tracing::warn!("retention: the sweep failed: {e}"),
        }
    }
}
