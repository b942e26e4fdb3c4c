//! Players: a game links to a new one by name and gets its token; over SSH, a key links
//! to a new player or to one a token names.

use crate::store::{Store, StoreError};
use crate::{ApiError, secrets};

/// Makes the player `name` at `now_ms`, with a new token: the only time the token is
/// said, as only its hash is kept.
pub async fn create(
    store: &dyn Store,
    name: String,
    now_ms: i64,
) -> Result<typepper_api::Player, ApiError> {
    typepper_api::check_name(&name).map_err(|e| ApiError::BadRequest(e.into()))?;
    let token = secrets::token();
    match store
        .create_player(name, secrets::token_hash(&token), now_ms)
        .await
    {
        Ok(player) => Ok(typepper_api::Player {
            name: player.name,
            token,
        }),
        Err(StoreError::NameTaken(n)) => Err(ApiError::Conflict(format!(
            "the name {n} is taken: pick another"
        ))),
        Err(e) => Err(e.into()),
    }
}
