//! A linked player's settings, kept with the player (issue 43): one device keeps them,
//! another device of the same player reads them back. What is kept is the game's own
//! settings file, read as far as it goes and written whole. And what an attacker tries,
//! each a test named after it: a file too large, bytes that are no text, no token, a
//! token that isn't the player's, another player's settings.

use axum::body::Body;
use axum::http::{Method, StatusCode, header};

use super::support::{Reply, Server, request};

/// `method /v1/settings` with `token` (if any) and `body`.
async fn settings(srv: &Server, method: Method, token: Option<&str>, body: Vec<u8>) -> Reply {
    let mut req = request(method, "/v1/settings");
    if let Some(token) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let req = req
        .header(header::CONTENT_TYPE, "text/plain; charset=utf-8")
        .body(Body::from(body))
        .expect("a request");
    srv.send(req).await
}

/// A second device of `token`'s player, by a one-time code: its token.
async fn second_device(srv: &Server, token: &str) -> String {
    let req = request(Method::POST, "/v1/devices/code")
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::empty())
        .expect("a request");
    let code = srv.send(req).await.json()["code"]
        .as_str()
        .expect("a code")
        .to_owned();
    let body = serde_json::json!({ "code": code, "device": "phone" }).to_string();
    let req = request(Method::POST, "/v1/devices/claim")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .expect("a request");
    let claimed = srv.send(req).await;
    assert_eq!(claimed.status, StatusCode::CREATED, "{}", claimed.text());
    claimed.json()["token"]
        .as_str()
        .expect("a token")
        .to_owned()
}

#[tokio::test]
async fn a_players_settings_kept_by_one_device_are_read_by_another() {
    for srv in Server::each(|_| {}).await {
        let laptop = srv.link("ada").await;
        // None kept yet: an empty file, every setting's default.
        let none = settings(&srv, Method::GET, Some(&laptop), vec![]).await;
        assert_eq!((none.status, none.text()), (StatusCode::OK, String::new()));
        assert_eq!(none.header(header::CACHE_CONTROL), Some("no-store"));
        // Kept as the game reads it: the lines that read, the rest at their defaults.
        let sent = "theme nord\ncaret triangle\nstop on\nfuture x\n";
        let kept = settings(&srv, Method::PUT, Some(&laptop), sent.into()).await;
        assert_eq!(kept.status, StatusCode::OK, "{}", kept.text());
        let file = kept.text();
        assert!(file.starts_with("theme nord\ncaret line\n"), "{file}");
        assert!(
            file.contains("\nstop on\n") && !file.contains("future"),
            "{file}"
        );
        // The phone, linked by a code, reads them.
        let phone = second_device(&srv, &laptop).await;
        let read = settings(&srv, Method::GET, Some(&phone), vec![]).await;
        assert_eq!(read.text(), file, "{}", srv.backend());
        // Another player sees their own, not ada's.
        let bob = srv.link("bob").await;
        let theirs = settings(&srv, Method::GET, Some(&bob), vec![]).await;
        assert_eq!(theirs.text(), "");
        // The phone changes one; the laptop reads the change.
        let changed = file.replace("theme nord", "theme paper");
        settings(&srv, Method::PUT, Some(&phone), changed.clone().into()).await;
        let read = settings(&srv, Method::GET, Some(&laptop), vec![]).await;
        assert_eq!(read.text(), changed);
    }
}

#[tokio::test]
async fn settings_past_4096_bytes_are_refused_and_nothing_is_kept() {
    let srv = Server::new().await;
    let ada = srv.link("ada").await;
    let padded = format!("theme nord\n{}", "x".repeat(5000));
    let refused = settings(&srv, Method::PUT, Some(&ada), padded.into()).await;
    assert_eq!(
        refused.status,
        StatusCode::PAYLOAD_TOO_LARGE,
        "{}",
        refused.text()
    );
    assert!(refused.text().contains("4096 bytes"), "{}", refused.text());
    let read = settings(&srv, Method::GET, Some(&ada), vec![]).await;
    assert_eq!(read.text(), "");
}

#[tokio::test]
async fn settings_that_are_not_utf8_are_refused() {
    let srv = Server::new().await;
    let ada = srv.link("ada").await;
    let refused = settings(&srv, Method::PUT, Some(&ada), vec![b't', 0xff, 0xfe]).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert!(refused.text().contains("UTF-8"), "{}", refused.text());
}

#[tokio::test]
async fn settings_without_a_token_or_with_a_made_up_one_are_refused() {
    let srv = Server::new().await;
    for token in [None, Some("not-a-token-anyone-has")] {
        for method in [Method::GET, Method::PUT] {
            let reply = settings(&srv, method.clone(), token, b"theme nord\n".to_vec()).await;
            assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{method} {token:?}");
        }
    }
    assert_eq!(srv.count("SELECT count(*) FROM saves"), 0);
}
