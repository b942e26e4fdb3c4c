//! The server, as the game reaches it.

use gloo_net::http::Request;

/// A run's replay bytes, `GET <api>/v1/runs/<id>`, or why not.
pub async fn fetch_run(api: &str, id: &str) -> Result<Vec<u8>, String> {
    // Ids are base62; anything else would be a different URL.
    if id.is_empty() || id.len() > 32 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(format!("{id:?} is not a run id"));
    }
    let url = format!("{}/v1/runs/{id}", api.trim_end_matches('/'));
    let response = Request::get(&url)
        .send()
        .await
        .map_err(|e| format!("the server is unreachable ({e})"))?;
    match response.status() {
        200 => response
            .binary()
            .await
            .map_err(|e| format!("the download broke off ({e})")),
        404 | 410 => Err("no such run: missing or expired".into()),
        status => Err(format!("the server answered {status}")),
    }
}
