//! The server, as the game reaches it: runs, submissions, linking, boards.

use gloo_net::http::{Request, Response};

use typepper_api::room::Opened;
use typepper_api::{Board, BoardRow, IssuedSeed, Player};

use crate::json::{self, FromJs};
use typepper_game::app::SubmitError;

fn url(api: &str, path: &str) -> String {
    format!("{}{path}", api.trim_end_matches('/'))
}

/// The body of a refusal: the server's sentence, or the status.
async fn reason(response: Response) -> String {
    let status = response.status();
    match response.text().await {
        Ok(text) if !text.trim().is_empty() => text.trim().to_owned(),
        _ => format!("the server answered {status}"),
    }
}

/// A run from the server.
pub struct Run {
    /// Its replay bytes.
    pub bytes: Vec<u8>,
    /// Its player's name, if the server says.
    pub player: Option<String>,
}

/// A run's replay bytes, `GET <api>/v1/runs/<id>`, or why not.
pub async fn fetch_run(api: &str, id: &str) -> Result<Run, String> {
    // Ids are base62; anything else would be a different URL.
    if id.is_empty() || id.len() > 32 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(format!("{id:?} is not a run id"));
    }
    let response = Request::get(&url(api, &format!("/v1/runs/{id}")))
        .send()
        .await
        .map_err(|e| format!("the server is unreachable ({e})"))?;
    match response.status() {
        200 => {
            let player = response.headers().get(typepper_api::PLAYER_HEADER);
            let bytes = response
                .binary()
                .await
                .map_err(|e| format!("the download broke off ({e})"))?;
            Ok(Run { bytes, player })
        }
        404 | 410 => Err("no such run: missing or expired".into()),
        _ => Err(reason(response).await),
    }
}

/// `POST <api>/v1/submit`: the answer lines, or why there are none.
pub async fn submit(api: &str, token: &str, body: &[u8]) -> Result<String, SubmitError> {
    let request = Request::post(&url(api, "/v1/submit"))
        .header("Authorization", &format!("Bearer {token}"))
        .header("Content-Type", "application/octet-stream")
        .body(js_sys::Uint8Array::from(body))
        .map_err(|e| SubmitError::Refused(e.to_string()))?;
    let response = request
        .send()
        .await
        .map_err(|e| SubmitError::Offline(e.to_string()))?;
    match response.status() {
        200 => response
            .text()
            .await
            .map_err(|e| SubmitError::Offline(e.to_string())),
        401 => Err(SubmitError::Unauthorized(reason(response).await)),
        _ => Err(SubmitError::Refused(reason(response).await)),
    }
}

/// `what`, read from the server's JSON `text` (by the browser's own `JSON.parse`), or
/// `what` as the reason it isn't.
fn json<T: FromJs>(text: &str, what: &str) -> Result<T, String> {
    json::read(text).ok_or_else(|| what.to_owned())
}

/// POSTs `body`, a JSON object's text, to `path` (as `token`'s player, if any) and reads
/// the answer of status 201 as `what`; any other status gives the server's sentence.
async fn post_json<T: FromJs>(
    api: &str,
    path: &str,
    token: Option<&str>,
    body: String,
    what: &str,
) -> Result<T, String> {
    let mut request = Request::post(&url(api, path)).header("Content-Type", "application/json");
    if let Some(token) = token {
        request = request.header("Authorization", &format!("Bearer {token}"));
    }
    let response = request
        .body(body)
        .map_err(|e| e.to_string())?
        .send()
        .await
        .map_err(|e| format!("the server is unreachable ({e})"))?;
    if response.status() != 201 {
        return Err(reason(response).await);
    }
    let text = response.text().await.map_err(|e| e.to_string())?;
    json(&text, what)
}

/// `POST <api>/v1/seeds` for `mode`: a seed to play a ranked round on, or why not.
pub async fn issue_seed(api: &str, token: &str, mode: &str) -> Result<IssuedSeed, String> {
    let body = json::object(&[("mode", Some(mode))]);
    post_json(
        api,
        "/v1/seeds",
        Some(token),
        body,
        "the server's seed isn't one",
    )
    .await
}

/// `POST <api>/v1/rooms` for `mode`: the room opened, or the server's sentence.
pub async fn open_room(api: &str, mode: &str) -> Result<Opened, String> {
    let body = json::object(&[("mode", Some(mode))]);
    post_json(api, "/v1/rooms", None, body, "the server's room isn't one").await
}

/// `POST <api>/v1/players`: the new player, or the server's sentence.
pub async fn link(api: &str, name: &str) -> Result<Player, String> {
    let body = json::object(&[("name", Some(name))]);
    post_json(
        api,
        "/v1/players",
        None,
        body,
        "the server's answer isn't a player",
    )
    .await
}

/// `GET <api>/v1/boards/<mode>`: this month's rows.
pub async fn board(api: &str, mode: &str) -> Result<Vec<BoardRow>, String> {
    let mode = String::from(js_sys::encode_uri_component(mode));
    let response = Request::get(&url(api, &format!("/v1/boards/{mode}")))
        .send()
        .await
        .map_err(|e| format!("the server is unreachable ({e})"))?;
    if response.status() != 200 {
        return Err(reason(response).await);
    }
    let text = response.text().await.map_err(|e| e.to_string())?;
    let board: Board = json(&text, "the board isn't one")?;
    Ok(board.rows)
}
