//! Rate limits: per IP on `/v1`, per player on submissions.
//!
//! The buckets refill on the real clock, so a request that comes over a second after
//! the first could legitimately find a token back. The tests don't time anything: they
//! check the refusal only when the requests really did all come within that second,
//! which on any working machine they do, by a wide margin.

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use typepper_api::Line;

use crate::support::*;

fn board_from(ip: [u8; 4]) -> axum::http::Request<Body> {
    from_ip(
        request(Method::GET, "/v1/boards/time:15")
            .body(Body::empty())
            .expect("a request"),
        ip,
    )
}

#[tokio::test]
async fn one_ip_past_its_burst_is_429_with_retry_after() {
    let srv = Server::with(|c| c.ip_rate = 1);
    let started = Instant::now();
    let first = srv.send(board_from([10, 0, 0, 1])).await;
    let second = srv.send(board_from([10, 0, 0, 1])).await;
    let third = srv.send(board_from([10, 0, 0, 1])).await;
    let quick = started.elapsed() < Duration::from_secs(1);
    // A burst is twice the rate: two pass whatever the timing.
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(second.status, StatusCode::OK);
    if quick {
        assert_eq!(third.status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(third.header(header::RETRY_AFTER), Some("1"));
        assert!(
            third.text().contains("too many requests"),
            "{}",
            third.text()
        );
    }
    // Another IP has its own bucket; the game's page isn't limited at all.
    assert_eq!(
        srv.send(board_from([10, 0, 0, 2])).await.status,
        StatusCode::OK
    );
    let page = from_ip(
        request(Method::GET, "/")
            .body(Body::empty())
            .expect("a request"),
        [10, 0, 0, 1],
    );
    assert_eq!(srv.send(page).await.status, StatusCode::OK);
}

#[tokio::test]
async fn a_limited_answer_still_carries_cors() {
    let srv = Server::with(|c| c.ip_rate = 1);
    let mut last = None;
    let started = Instant::now();
    for _ in 0..3 {
        let mut req = board_from([10, 0, 0, 3]);
        req.headers_mut()
            .insert(header::ORIGIN, PUBLIC.parse().expect("an origin"));
        last = Some(srv.send(req).await);
    }
    let last = last.expect("three answers");
    if started.elapsed() < Duration::from_secs(1) {
        assert_eq!(last.status, StatusCode::TOO_MANY_REQUESTS);
    }
    // The game must be able to read a 429 to back off.
    assert_eq!(
        last.header(header::ACCESS_CONTROL_ALLOW_ORIGIN),
        Some(PUBLIC)
    );
}

#[tokio::test]
async fn one_player_past_its_burst_is_429_and_nothing_is_stored() {
    let srv = Server::with(|c| {
        c.ip_rate = 0;
        c.player_rate = 1;
    });
    let (ada, grace) = (srv.link("ada").await, srv.link("grace").await);
    let started = Instant::now();
    // A player's burst is ten times the rate; empty bodies are cheap to refuse.
    for _ in 0..10 {
        let reply = srv.submit(&ada, vec![]).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text());
    }
    let limited = srv.submit(&ada, entry(&blitz(1))).await;
    if started.elapsed() < Duration::from_secs(1) {
        assert_eq!(
            limited.status,
            StatusCode::TOO_MANY_REQUESTS,
            "{}",
            limited.text()
        );
        let secs: u64 = limited
            .header(header::RETRY_AFTER)
            .expect("Retry-After")
            .parse()
            .expect("seconds");
        assert!((1..=2).contains(&secs), "{secs}");
        assert_eq!(srv.stored_runs(), 0);
    }
    let lines = srv.submit_lines(&grace, entry(&blitz(2))).await;
    assert!(matches!(&lines[..], [Line::Ok { .. }]), "{lines:?}");
}

#[tokio::test]
async fn forwarded_for_names_the_client_only_behind_a_trusted_proxy() {
    let forwarded = |xff: &str| {
        let mut req = board_from([10, 0, 0, 9]);
        req.headers_mut()
            .insert("x-forwarded-for", xff.parse().expect("a header"));
        req
    };
    // Untrusted: a made-up header per request doesn't earn a fresh bucket.
    let srv = Server::with(|c| c.ip_rate = 1);
    let started = Instant::now();
    let mut statuses = vec![];
    for n in 1..=3 {
        statuses.push(srv.send(forwarded(&format!("192.0.2.{n}"))).await.status);
    }
    if started.elapsed() < Duration::from_secs(1) {
        assert_eq!(statuses[2], StatusCode::TOO_MANY_REQUESTS, "{statuses:?}");
    }
    // Trusted: the proxy's header names the client, first address first.
    let srv = Server::with(|c| {
        c.ip_rate = 1;
        c.trust_proxy = true;
    });
    for n in 1..=5 {
        let xff = format!("192.0.2.{n}, 10.0.0.9");
        assert_eq!(
            srv.send(forwarded(&xff)).await.status,
            StatusCode::OK,
            "{xff}"
        );
    }
}
