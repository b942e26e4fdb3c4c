//! Rate limits: per IP on `/v1`, per IP on linking, per player on runs submitted; and
//! each player's daily quota of runs and bytes.
//!
//! The buckets refill on the real clock, so a request that comes over a second after
//! the first could legitimately find a token back. The tests don't time anything: they
//! check the refusal only when the requests really did all come within that second,
//! which on any working machine they do, by a wide margin.

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use typepper_api::{Line, Ranked};
use typepper_engine::synth::synth;
use typepper_engine::{Mode, Replay};

use super::support::*;

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
    let srv = Server::with(|c| c.ip_rate = 1).await;
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
    let srv = Server::with(|c| c.ip_rate = 1).await;
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
async fn one_player_past_its_burst_of_runs_is_429_and_nothing_is_stored() {
    let srv = Server::with(|c| {
        c.ip_rate = 0;
        c.player_rate = 1;
    })
    .await;
    let (ada, grace) = (srv.link("ada").await, srv.link("grace").await);
    let started = Instant::now();
    // The limit counts runs, not requests: a full body of 50 (the burst, so that an
    // outbox can always be sent) takes every token, though each of its runs is refused.
    let junk = Replay {
        inputs: vec![],
        ..blitz(1)
    }
    .encode();
    let body = typepper_api::submission(std::iter::repeat_n((0, &junk[..]), 50));
    assert_eq!(srv.submit_lines(&ada, body).await.len(), 50);
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
async fn linking_is_limited_per_ip() {
    let srv = Server::with(|c| c.register_per_hour = 3).await;
    let link = |name: &str, ip: [u8; 4]| {
        let body = serde_json::json!({ "name": name }).to_string();
        from_ip(
            request(Method::POST, "/v1/players")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body))
                .expect("a request"),
            ip,
        )
    };
    for n in 0..3 {
        let reply = srv.send(link(&format!("bot{n}"), [10, 0, 0, 7])).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text());
    }
    let fourth = srv.send(link("bot3", [10, 0, 0, 7])).await;
    assert_eq!(fourth.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        fourth.header(header::RETRY_AFTER),
        Some("1200"),
        "a third of an hour"
    );
    let elsewhere = srv.send(link("bot3", [10, 0, 0, 8])).await;
    assert_eq!(elsewhere.status, StatusCode::CREATED);
}

#[tokio::test]
async fn a_full_daily_quota_is_429_until_midnight_and_stores_nothing() {
    let servers = Server::each(|c| {
        c.daily_runs = 3;
        c.daily_bytes = 1 << 20;
    })
    .await;
    for srv in servers {
        let ada = srv.link("ada").await;
        assert_eq!(
            srv.submit_lines(&ada, entries(&[blitz(1), blitz(2)]))
                .await
                .len(),
            2
        );
        // Two more would make four: the whole body waits, so the game keeps both.
        let over = srv.submit(&ada, entries(&[blitz(3), blitz(4)])).await;
        assert_eq!(
            over.status,
            StatusCode::TOO_MANY_REQUESTS,
            "{}",
            over.text()
        );
        assert!(
            over.text().starts_with("today's quota is full (3 runs"),
            "{}",
            over.text()
        );
        // DEC_10 is noon: twelve hours to midnight, UTC.
        assert_eq!(over.header(header::RETRY_AFTER), Some("43200"));
        assert_eq!(srv.stored_runs(), 2);
        assert_eq!(srv.submit_lines(&ada, entry(&blitz(3))).await.len(), 1);
        srv.later(DAY);
        assert_eq!(
            srv.submit_lines(&ada, entries(&[blitz(4), blitz(5)]))
                .await
                .len(),
            2
        );
        assert_eq!(srv.stored_runs(), 5);
    }
    // Bytes count too: a day's worth of bytes in one round's.
    let srv = Server::with(|c| c.daily_bytes = 100).await;
    let ada = srv.link("ada").await;
    let over = srv.submit(&ada, entry(&blitz(1))).await;
    assert_eq!(
        over.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        over.text()
    );
    assert_eq!(srv.stored_runs(), 0);
}

#[tokio::test]
async fn seeds_past_a_players_cap_withdraw_the_oldest() {
    let srv = Server::new().await;
    let ada = srv.link("ada").await;
    let first = srv.issue(&ada, Mode::BLITZ_15).await;
    for _ in 0..typepper_server::MAX_OPEN_SEEDS {
        srv.later(1);
        srv.issue(&ada, Mode::BLITZ_15).await;
    }
    assert_eq!(
        srv.count("SELECT count(*) FROM seeds"),
        i64::from(typepper_server::MAX_OPEN_SEEDS)
    );
    // The withdrawn seed is no issued seed any more.
    srv.later(16_000);
    let round = synth(Mode::BLITZ_15, first, &typist(1, 80));
    let lines = srv.submit_lines(&ada, entry(&round)).await;
    assert!(
        matches!(
            &lines[..],
            [Line::Ok {
                ranked: Ranked::No(_),
                ..
            }]
        ),
        "{lines:?}"
    );
}

#[tokio::test]
async fn seed_requests_are_checked() {
    let srv = Server::new().await;
    let ada = srv.link("ada").await;
    let reply = srv.post_seed(&ada, "time:15").await;
    assert_eq!(reply.status, StatusCode::CREATED);
    let json = reply.json();
    assert_eq!(json["mode"], "time:15");
    let seed = json["seed"].as_str().expect("a decimal string");
    assert!(seed.parse::<u64>().is_ok(), "{seed}");
    // An hour from now (DEC_10 is 2026-12-10T12:00:00Z).
    assert_eq!(json["expires"], "2026-12-10T13:00:00Z");
    for mode in ["time:16", "chess", ""] {
        let reply = srv.post_seed(&ada, mode).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{mode}");
        assert!(reply.text().contains("no mode"), "{}", reply.text());
    }
    let reply = srv.post_seed(&"0".repeat(64), "time:15").await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    let odd = srv
        .send(
            request(Method::POST, "/v1/seeds")
                .header(header::AUTHORIZATION, format!("Bearer {ada}"))
                .body(Body::from(r#"{"mode": "zen", "seed": "5"}"#))
                .expect("a request"),
        )
        .await;
    assert_eq!(
        odd.status,
        StatusCode::BAD_REQUEST,
        "the server picks the seed"
    );
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
    let srv = Server::with(|c| c.ip_rate = 1).await;
    let started = Instant::now();
    let mut statuses = vec![];
    for n in 1..=3 {
        statuses.push(srv.send(forwarded(&format!("192.0.2.{n}"))).await.status);
    }
    if started.elapsed() < Duration::from_secs(1) {
        assert_eq!(statuses[2], StatusCode::TOO_MANY_REQUESTS, "{statuses:?}");
    }
    // Trusted: the proxy appends the address it saw, and that one is the client.
    let srv = Server::with(|c| {
        c.ip_rate = 1;
        c.proxies.trust = true;
    })
    .await;
    for n in 1..=5 {
        let xff = format!("203.0.113.7, 192.0.2.{n}");
        assert_eq!(
            srv.send(forwarded(&xff)).await.status,
            StatusCode::OK,
            "{xff}"
        );
    }
}

/// The attack: 300 requests each with a made-up first `X-Forwarded-For` entry all got
/// through, because the first entry was believed. It is the one the client writes.
#[tokio::test]
async fn spoofed_forwarded_for_entries_share_the_real_clients_bucket() {
    let srv = Server::with(|c| {
        c.ip_rate = 1;
        c.proxies.trust = true;
    })
    .await;
    let started = Instant::now();
    let mut limited = 0;
    for n in 0..300 {
        let mut req = board_from([10, 0, 0, 9]);
        // The client wrote the first; the proxy appended the address it really came from.
        let xff = format!("198.51.{}.{}, 203.0.113.7", n / 256, n % 256);
        req.headers_mut()
            .insert("x-forwarded-for", xff.parse().expect("a header"));
        if srv.send(req).await.status == StatusCode::TOO_MANY_REQUESTS {
            limited += 1;
        }
    }
    // Two a second with bursts of two: at most a few pass however long this took.
    let secs = started.elapsed().as_secs();
    assert!(
        300 - limited <= 2 + 2 * secs as usize,
        "{limited} of 300 limited"
    );
}

/// Every address of an IPv6 /64 is one subscriber: one bucket.
#[tokio::test]
async fn an_ipv6_slash_64_shares_one_bucket() {
    let srv = Server::with(|c| c.ip_rate = 1).await;
    let from_v6 = |last: u16| {
        let mut req = request(Method::GET, "/v1/boards/time:15")
            .body(Body::empty())
            .expect("a request");
        let ip = std::net::Ipv6Addr::new(0x2001, 0xdb8, 1, 2, last, last, last, last);
        req.extensions_mut()
            .insert(axum::extract::ConnectInfo(std::net::SocketAddr::from((
                ip, 40_000,
            ))));
        req
    };
    let started = Instant::now();
    let mut statuses = vec![];
    for n in 1..=3 {
        statuses.push(srv.send(from_v6(n)).await.status);
    }
    if started.elapsed() < Duration::from_secs(1) {
        assert_eq!(statuses[2], StatusCode::TOO_MANY_REQUESTS, "{statuses:?}");
    }
}

/// A burst of cards for made-up ids costs a database read each at most once a minute,
/// and the address's bucket like any share page.
#[tokio::test]
async fn card_misses_are_limited_per_ip_and_remembered() {
    let srv = Server::with(|c| c.ip_rate = 1).await;
    let card = |id: &str| {
        from_ip(
            request(Method::GET, &format!("/r/{id}/card.png"))
                .body(Body::empty())
                .expect("a request"),
            [10, 0, 0, 5],
        )
    };
    let started = Instant::now();
    let mut statuses = vec![];
    for _ in 0..3 {
        statuses.push(srv.send(card("aaaaaaaa")).await.status);
    }
    if started.elapsed() < Duration::from_secs(1) {
        assert_eq!(statuses[2], StatusCode::TOO_MANY_REQUESTS, "{statuses:?}");
    }
    assert_eq!(statuses[..2], [StatusCode::NOT_FOUND; 2]);
    // Every miss after the first was answered from memory, and nothing was drawn.
    let misses = statuses
        .iter()
        .filter(|s| **s == StatusCode::NOT_FOUND)
        .count();
    let metrics = srv.state.metrics_text();
    for line in [
        format!("typepper_cache_hits_total {}", misses - 1),
        "typepper_cards_drawn_total 0".into(),
    ] {
        assert!(metrics.lines().any(|l| l == line), "{line} in\n{metrics}");
    }
}

/// Share pages used to be unlimited, and each miss a database read.
#[tokio::test]
async fn share_pages_are_limited_per_ip_and_misses_are_remembered() {
    let srv = Server::with(|c| c.ip_rate = 1).await;
    let page = |id: &str| {
        from_ip(
            request(Method::GET, &format!("/r/{id}"))
                .body(Body::empty())
                .expect("a request"),
            [10, 0, 0, 4],
        )
    };
    let started = Instant::now();
    let mut statuses = vec![];
    for id in ["aaaaaaaa", "bbbbbbbb", "cccccccc"] {
        statuses.push(srv.send(page(id)).await.status);
    }
    if started.elapsed() < Duration::from_secs(1) {
        assert_eq!(statuses[2], StatusCode::TOO_MANY_REQUESTS, "{statuses:?}");
    }
    assert_eq!(statuses[0], StatusCode::NOT_FOUND);
}
