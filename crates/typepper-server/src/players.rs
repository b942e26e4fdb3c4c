//! Players: a game links to a new one by name and gets its token; over SSH, a key links
//! to a new player or to one a token names.

use crate::store::{Store, StoreError};
use std::future::Future;

use crate::{ServiceError, secrets};

/// Makes the player `name` at `now_ms`, with a new token, their first device, called
/// `device`: the only time the token is said, as only its hash is kept.
pub async fn create(
    store: &dyn Store,
    name: String,
    device: String,
    now_ms: i64,
) -> Result<typepper_api::Player, ServiceError> {
    typepper_api::check_name(&name).map_err(|e| ServiceError::BadRequest(e.into()))?;
    let token = secrets::token();
    match store
        .create_player(name, secrets::token_hash(&token), device, now_ms)
        .await
    {
        Ok(player) => Ok(typepper_api::Player {
            name: player.name,
            token,
        }),
        Err(StoreError::NameTaken(n)) => Err(ServiceError::Conflict(format!(
            "the name {n} is taken: pick another"
        ))),
        Err(e) => Err(e.into()),
    }
}

/// What `v1 link` asks for: the key linked to a new player called `name`, or with
/// `token`, to the web's player of that name.
#[derive(Debug)]
pub struct LinkKey {
    /// The player's name.
    pub name: String,
    /// The web player's token; `None` for a new player.
    pub token: Option<String>,
}

/// How a key stands after [`link_key`].
#[derive(Debug)]
pub enum Linked {
    /// It is linked now, to this player (with the token it was asked with, or a new
    /// player's).
    Now(typepper_api::Player),
    /// It was linked already, to the player named, and asked for a new player: it stays
    /// theirs, whatever name was asked for. The token isn't kept in the clear, so none is
    /// said: over SSH the key is what links it.
    Already(String),
}

/// Links the SSH key `key` at `now_ms`, as [`LinkKey`] asks. A key belongs to one player:
/// one linked already is answered as that player before any new player is made, and it
/// can't be linked to another player's token. `create` makes a new player, under the
/// caller's limits.
pub async fn link_key<F>(
    store: &dyn Store,
    key: String,
    ask: LinkKey,
    now_ms: i64,
    max_keys: u32,
    create: impl FnOnce(String) -> F,
) -> Result<Linked, ServiceError>
where
    F: Future<Output = Result<typepper_api::Player, ServiceError>>,
{
    let linked = store.player_by_key(key.clone()).await?;
    let player = match (linked, ask.token) {
        (Some(linked), None) => return Ok(Linked::Already(linked.name)),
        // Linked already, with a web player's token: `link_key` below says whether it is
        // the same player.
        (_, Some(token)) => typepper_api::Player {
            name: ask.name,
            token,
        },
        (None, None) => create(ask.name).await?,
    };
    let found = store
        .player_by_token(secrets::token_hash(&player.token))
        .await?;
    let id = match found {
        Some(p) if p.name.eq_ignore_ascii_case(&player.name) => p.id,
        _ => {
            return Err(ServiceError::NotFound(format!(
                "{} has no such token",
                player.name
            )));
        }
    };
    store.link_key(key, id, now_ms, max_keys).await?;
    Ok(Linked::Now(player))
}
