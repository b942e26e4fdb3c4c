//! Retention: runs are kept 8 days (`--retention-days`), or longer while they are a
//! player's monthly best; a background task deletes the rest in batches.

use std::sync::Arc;
use std::time::Duration;

use crate::State;
use crate::store::StoreError;

/// Runs deleted per statement, so that a big sweep never holds the database for long.
pub const BATCH: u32 = 500;

/// Deletes every expired run now; returns how many.
pub fn sweep_once(state: &State) -> Result<u64, StoreError> {
    let keep_ms = i64::from(state.config.retention_days) * 86_400_000;
    let cutoff = state.now_ms() - keep_ms;
    let mut total = 0;
    loop {
        let n = state.store.sweep(cutoff, BATCH)?;
        total += n;
        if n < u64::from(BATCH) {
            if total > 0 {
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
        let s = state.clone();
        match tokio::task::spawn_blocking(move || sweep_once(&s)).await {
            Ok(Ok(0)) => {}
            Ok(Ok(n)) => eprintln!("retention: deleted {n} expired runs"),
            Ok(Err(e)) => eprintln!("retention: the sweep failed: {e}"),
            Err(e) => eprintln!("retention: the sweep panicked: {e}"),
        }
    }
}
