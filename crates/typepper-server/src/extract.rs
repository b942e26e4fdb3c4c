//! What handlers take from a request, refused with the API's own [`ApiError`]: a JSON
//! body, the player a request is for, a player's linking under the IP's allowance. An
//! extractor refuses before its handler runs, in the order of the handler's arguments
//! (the request's parts first, its body last), so each handler keeps to its purpose.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use serde::de::DeserializeOwned;

use crate::store::Player;
use crate::{ApiError, ClientIp, Shared, SshKey, secrets};

/// A body a route reads as JSON, with the sentence that says how to send it.
pub trait Asked: DeserializeOwned {
    /// What a body that isn't one is told.
    const HOW: &'static str;
}

impl Asked for typepper_api::NewPlayer {
    const HOW: &'static str = r#"send {"name": "<your name>"} as JSON"#;
}

impl Asked for typepper_api::SeedRequest {
    const HOW: &'static str = r#"send {"mode": "<a mode key, e.g. time:15>"} as JSON"#;
}

impl Asked for typepper_api::room::Open {
    const HOW: &'static str = r#"send {"mode": "<a mode key, e.g. time:15>"} as JSON"#;
}

impl Asked for crate::players::LinkKey {
    const HOW: &'static str = r#"send {"name": "<your name>", "token": <a token or null>} as JSON"#;
}

/// A JSON body of `T`: one over the body limit is refused 413, one that can't be read
/// or isn't a `T` 400 with [`Asked::HOW`].
pub struct Json<T>(pub T);

impl<S: Send + Sync, T: Asked> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Json<T>, ApiError> {
        let body = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::TooLarge(crate::MAX_BODY)
            } else {
                ApiError::BadRequest(format!("the body could not be read: {e}"))
            }
        })?;
        serde_json::from_slice(&body)
            .map(Json)
            .map_err(|_| ApiError::BadRequest(T::HOW.into()))
    }
}

/// The player a request is for: its SSH key's, or its `Authorization: Bearer <token>`'s;
/// 401 without one.
pub struct Authed(pub Player);

impl FromRequestParts<Arc<Shared>> for Authed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, st: &Arc<Shared>) -> Result<Authed, ApiError> {
        const HOW: &str =
            "link the game first: POST /v1/players, then send Authorization: Bearer <token>";
        if let Some(SshKey(fingerprint)) = parts.extensions.get::<SshKey>() {
            return st
                .store
                .player_by_key(fingerprint.clone())
                .await?
                .map(Authed)
                .ok_or(ApiError::Unauthorized(
                    "this key is not linked to a player: run v1 link <name> first",
                ));
        }
        let token = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            // The scheme is case-insensitive (RFC 9110 §11.1).
            .and_then(|v| {
                v.split_once(' ')
                    .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            })
            .map(|(_, token)| token)
            .ok_or(ApiError::Unauthorized(HOW))?;
        let hash = secrets::token_hash(token.trim());
        st.store
            .player_by_token(hash)
            .await?
            .map(Authed)
            .ok_or(ApiError::Unauthorized(
                "that token belongs to no player: link the game again",
            ))
    }
}

/// The SSH key a request was made for; 404 over HTTP, where there is none.
pub struct Keyed(pub String);

impl<S: Send + Sync> FromRequestParts<S> for Keyed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Keyed, ApiError> {
        // Only the SSH server puts a key on a request: over HTTP there is nothing to link.
        match parts.extensions.get::<SshKey>() {
            Some(SshKey(key)) => Ok(Keyed(key.clone())),
            None => Err(ApiError::NotFound(
                "no key: connect with a public key to link it".into(),
            )),
        }
    }
}

/// One player's linking, taken from the client's hourly allowance; 429 past it.
pub struct Registering;

impl FromRequestParts<Arc<Shared>> for Registering {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        st: &Arc<Shared>,
    ) -> Result<Registering, ApiError> {
        register_limit(st, parts.extensions.get::<ClientIp>())?;
        Ok(Registering)
    }
}

/// Takes one player's linking from the hourly allowance of the client at `ip`.
pub fn register_limit(st: &Shared, ip: Option<&ClientIp>) -> Result<(), ApiError> {
    if let Some(ClientIp(ip)) = ip {
        st.register_limit
            .take(&crate::client::bucket(*ip), Instant::now())
            .map_err(ApiError::RateLimited)?;
    }
    Ok(())
}

/// A request from this server's own game, or from no browser at all (the terminal, a
/// script). A browser says where the page that made a request came from (`Origin`);
/// one from elsewhere is refused 403, so that no other site can use its visitors'
/// browsers (and their many addresses) to open rooms or hold connections to them.
pub struct OurGame;

impl FromRequestParts<Arc<Shared>> for OurGame {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, st: &Arc<Shared>) -> Result<OurGame, ApiError> {
        let Some(origin) = parts.headers.get(header::ORIGIN) else {
            return Ok(OurGame);
        };
        let origin = origin.to_str().unwrap_or_default();
        let ours = [&st.config.public_url, &st.config.api_url]
            .map(|url| crate::config::Config::origin_of(url));
        if ours.iter().any(|o| o.eq_ignore_ascii_case(origin)) {
            return Ok(OurGame);
        }
        Err(ApiError::Forbidden(format!(
            "this server's rooms are for its own game at {}: a page at {origin:?} can't \
             use them",
            ours[0]
        )))
    }
}
