//! Seeds the server issues: a round played on one issued to its player, within its
//! lifetime, can be ranked (see `docs/TRUST.md`).

use typepper_engine::Mode;

use crate::store::{IssuedSeed, PlayerId, Store, StoreError};
use crate::{ServiceError, secrets};

/// An issued seed counts for a round that arrives within this long.
pub const SEED_LIFETIME_MS: i64 = 3_600_000;
pub use typepper_api::MAX_OPEN_SEEDS;

/// Issues `player` a new seed for `mode` at `now_ms`.
pub async fn issue(
    store: &dyn Store,
    player: PlayerId,
    mode: Mode,
    now_ms: i64,
) -> Result<IssuedSeed, ServiceError> {
    if !mode.rankable() {
        return Err(ServiceError::BadRequest(format!(
            "no seeds for {mode}: {}",
            crate::submit::rank::Unranked::Drill
        )));
    }
    // A collision (one in 2⁶⁴ a pair) draws again.
    for _ in 0..3 {
        let mut bytes = [0u8; 8];
        secrets::random(&mut bytes);
        let seed = IssuedSeed {
            seed: u64::from_le_bytes(bytes),
            player,
            mode: mode.key(),
            issued_ms: now_ms,
            expires_ms: now_ms + SEED_LIFETIME_MS,
            run: None,
            room: false,
        };
        match store.issue_seed(seed.clone(), MAX_OPEN_SEEDS).await {
            Err(StoreError::SeedTaken(_)) => continue,
            Err(e) => return Err(e.into()),
            Ok(()) => return Ok(seed),
        }
    }
    Err(ServiceError::Internal(
        "three seeds in a row were taken".into(),
    ))
}
