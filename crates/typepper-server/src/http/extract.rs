//! What handlers take from a request, refused with the service's own [`ServiceError`]: a
//! JSON body, the player a request is for, a player's linking under the IP's allowance. An
//! extractor refuses before its handler runs, in the order of the handler's arguments
//! (the request's parts first, its body last), so each handler keeps to its purpose.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use serde::de::DeserializeOwned;

use super::ClientIp;
use crate::devices::Asker;
use crate::service::LINK_FIRST;
use crate::store::Player;
use crate::{ServiceError, Shared};

/// A body a route reads as JSON, with the sentence that says how to send it.
pub trait Asked: DeserializeOwned {
    /// What a body that isn't one is told.
    const HOW: &'static str;
}

impl Asked for typepper_api::NewPlayer {
    const HOW: &'static str = r#"send {"name": "<your name>"} as JSON"#;
}

impl Asked for typepper_api::devices::Claim {
    const HOW: &'static str = r#"send {"code": "<the code your linked device shows>"} as JSON"#;
}

impl Asked for typepper_api::SeedRequest {
    const HOW: &'static str = r#"send {"mode": "<a mode key, e.g. time:15>"} as JSON"#;
}

impl Asked for typepper_api::room::Open {
    const HOW: &'static str =
        r#"send {"mode": "<a mode key, e.g. time:15>"} as JSON, and "text" for a custom room"#;
}

/// A JSON body of `T`: one over the body limit is refused 413, one that can't be read
/// or isn't a `T` 400 with [`Asked::HOW`].
pub struct Json<T>(pub T);

impl<S: Send + Sync, T: Asked> FromRequest<S> for Json<T> {
    type Rejection = ServiceError;

    async fn from_request(req: Request, state: &S) -> Result<Json<T>, ServiceError> {
        let body = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ServiceError::TooLarge(crate::MAX_BODY)
            } else {
                ServiceError::BadRequest(format!("the body could not be read: {e}"))
            }
        })?;
        serde_json::from_slice(&body)
            .map(Json)
            .map_err(|_| ServiceError::BadRequest(T::HOW.into()))
    }
}

/// The token of a request's `Authorization: Bearer <token>`; 401 without one.
fn bearer(parts: &Parts) -> Result<&str, ServiceError> {
    parts
        .headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        // The scheme is case-insensitive (RFC 9110 §11.1).
        .and_then(|v| {
            v.split_once(' ')
                .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        })
        .map(|(_, token)| token)
        .ok_or(ServiceError::Unauthorized(LINK_FIRST))
}

/// The player a request is for: its `Authorization: Bearer <token>`'s; 401 without one.
pub struct Authed(pub Player);

impl FromRequestParts<Arc<Shared>> for Authed {
    type Rejection = ServiceError;

    async fn from_request_parts(
        parts: &mut Parts,
        st: &Arc<Shared>,
    ) -> Result<Authed, ServiceError> {
        st.player_of_token(bearer(parts)?).await.map(Authed)
    }
}

/// The player a request is for, if it says: its token's; 401 for a token no player has.
pub struct MaybeAuthed(pub Option<Player>);

impl FromRequestParts<Arc<Shared>> for MaybeAuthed {
    type Rejection = ServiceError;

    async fn from_request_parts(
        parts: &mut Parts,
        st: &Arc<Shared>,
    ) -> Result<MaybeAuthed, ServiceError> {
        match parts.headers.contains_key(header::AUTHORIZATION) {
            true => Ok(MaybeAuthed(Some(st.player_of_token(bearer(parts)?).await?))),
            false => Ok(MaybeAuthed(None)),
        }
    }
}

/// The player a request is for, and which of their devices sent it (its token's).
pub struct OnDevice(pub Player, pub Asker);

impl FromRequestParts<Arc<Shared>> for OnDevice {
    type Rejection = ServiceError;

    async fn from_request_parts(
        parts: &mut Parts,
        st: &Arc<Shared>,
    ) -> Result<OnDevice, ServiceError> {
        let token = bearer(parts)?;
        let player = st.player_of_token(token).await?;
        let hash = crate::secrets::token_hash(token.trim());
        Ok(OnDevice(player, Asker::Token(hash)))
    }
}

/// One player's linking, taken from the client's hourly allowance; 429 past it.
pub struct Registering;

impl FromRequestParts<Arc<Shared>> for Registering {
    type Rejection = ServiceError;

    async fn from_request_parts(
        parts: &mut Parts,
        st: &Arc<Shared>,
    ) -> Result<Registering, ServiceError> {
        let ip = parts.extensions.get::<ClientIp>().map(|ip| ip.0);
        st.take_registration(ip)?;
        Ok(Registering)
    }
}

/// A request from this server's own game, or from no browser at all (the terminal, a
/// script). A browser says where the page that made a request came from (`Origin`);
/// one from elsewhere is refused 403, so that no other site can use its visitors'
/// browsers (and their many addresses) to open rooms or hold connections to them.
pub struct OurGame;

impl FromRequestParts<Arc<Shared>> for OurGame {
    type Rejection = ServiceError;

    async fn from_request_parts(
        parts: &mut Parts,
        st: &Arc<Shared>,
    ) -> Result<OurGame, ServiceError> {
        let Some(origin) = parts.headers.get(header::ORIGIN) else {
            return Ok(OurGame);
        };
        let origin = origin.to_str().unwrap_or_default();
        let ours = [&st.config.public_url, &st.config.api_url]
            .map(|url| crate::config::Config::origin_of(url));
        if ours.iter().any(|o| o.eq_ignore_ascii_case(origin)) {
            return Ok(OurGame);
        }
        Err(ServiceError::Forbidden(format!(
            "this server's rooms are for its own game at {}: a page at {origin:?} can't \
             use them",
            ours[0]
        )))
    }
}
