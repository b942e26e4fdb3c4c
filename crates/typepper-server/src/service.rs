//! The submission pipeline's two costly steps, taken the one way whichever door a round
//! comes in by: a `POST /v1/submit` (and `v1 submit` over SSH, which goes through it) and
//! a room's finished rounds. Each door reads its request and words its answer; what is
//! verified where, and what the metrics count, is decided here.

use crate::Shared;
use crate::store::{Done, Job, StoreError};
use crate::submit::Judged;
use std::time::Instant;

impl Shared {
    /// Runs `judge` (playing rounds and checking them: CPU work) off the async workers,
    /// a few at once, timed for `typepper_verify_seconds`.
    pub(crate) async fn verify(
        &self,
        judge: impl FnOnce() -> Vec<Judged> + Send + 'static,
    ) -> Result<Vec<Judged>, String> {
        let _permit = self.verifying.acquire().await.map_err(|e| e.to_string())?;
        let verifying = Instant::now();
        let judged = tokio::task::spawn_blocking(judge)
            .await
            .map_err(|e| format!("a blocking task failed: {e}"))?;
        self.metrics.verify.observe(verifying.elapsed());
        Ok(judged)
    }

    /// Stores a judged submission in one transaction, timed for `typepper_db_seconds`,
    /// each round counted in `typepper_rounds_total` by what became of it; a quota the
    /// submission would pass comes back as `Ok(Err(why))`.
    pub(crate) async fn store_judged(
        &self,
        job: Job,
    ) -> Result<Result<Vec<Done>, String>, StoreError> {
        let storing = Instant::now();
        let done = self.store.submit(job).await;
        self.metrics.db.observe(storing.elapsed());
        if let Ok(Ok(done)) = &done {
            for outcome in crate::submit::outcomes(done) {
                self.metrics.round(outcome);
            }
        }
        done
    }
}
