//! The daily text (issue 42): one BLITZ 30s text a day for everyone, the first try on the
//! day's board, later tries unranked, the day's rounds kept from view until it is over;
//! on both backends, and what an attacker tried with it.

use axum::http::{Method, StatusCode, header};
use typepper_api::daily::Daily;
use typepper_api::{IssuedSeed, Line, Ranked};
use typepper_engine::synth::synth;
use typepper_engine::{Mode, Replay};

use super::support::{DAY, DEC_10, Server, entries, entry, request, typist};

/// 2026-12-10 is daily #6.
const NUMBER: u32 = 6;

async fn daily(srv: &Server, path: &str, token: Option<&str>) -> Daily {
    let mut req = request(Method::GET, path);
    if let Some(token) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let reply = srv.send(req.body(axum::body::Body::empty()).unwrap()).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    serde_json::from_slice(&reply.body).expect("a daily")
}

/// `token`'s try of today's daily.
async fn try_daily(srv: &Server, token: &str) -> IssuedSeed {
    let reply = srv.post_seed(token, "daily").await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text());
    serde_json::from_slice(&reply.body).expect("an issued seed")
}

/// A daily's round on `seed` at about `wpm`; the clock moves on by its length.
fn round(srv: &Server, seed: u64, wpm: u32) -> Replay {
    let round = synth(Mode::BLITZ_30, seed, &typist(u64::from(wpm), wpm));
    srv.later(31_000);
    round
}

fn ranked(lines: &[Line]) -> (String, Ranked) {
    match &lines[0] {
        Line::Ok { id, ranked, .. } => (id.clone(), ranked.clone()),
        other => panic!("not stored: {other:?}"),
    }
}

fn unranked_why(lines: &[Line]) -> String {
    match ranked(lines).1 {
        Ranked::No(why) => why,
        other => panic!("ranked: {other:?}"),
    }
}

#[tokio::test]
async fn the_daily_is_one_text_for_everyone_and_a_first_try_ranks_on_its_board() {
    for srv in Server::each(|_| {}).await {
        srv.set_time(DEC_10);
        let today = daily(&srv, "/v1/daily", None).await;
        assert_eq!(
            (today.number, today.day.as_str(), today.ends.as_str()),
            (NUMBER, "2026-12-10", "2026-12-11T00:00:00Z")
        );
        assert_eq!(
            (today.mode.as_str(), today.title.as_str()),
            ("time:30", "daily #6 · BLITZ 30s")
        );
        assert_eq!(
            today.seed, None,
            "nobody is told the text before they try it"
        );
        assert!(today.board.is_empty() && today.players == 0);

        let (ada, bob) = (srv.link("ada").await, srv.link("bob").await);
        let (a, b) = (try_daily(&srv, &ada).await, try_daily(&srv, &bob).await);
        assert_eq!(a.seed, b.seed, "one text for everyone");
        assert_eq!(
            (a.mode.as_str(), a.daily, a.unranked.as_deref()),
            ("time:30", Some(6), None)
        );
        let ada_run = ranked(
            &srv.submit_lines(&ada, entry(&round(&srv, a.seed, 60)))
                .await,
        );
        let bob_run = ranked(
            &srv.submit_lines(&bob, entry(&round(&srv, b.seed, 95)))
                .await,
        );
        assert_eq!(
            (ada_run.1.clone(), bob_run.1.clone()),
            (Ranked::Yes, Ranked::Yes),
            "{}",
            srv.backend()
        );

        let board = daily(&srv, "/v1/daily", Some(&ada)).await;
        let names: Vec<&str> = board.board.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["bob", "ada"]);
        assert_eq!(board.players, 2);
        let yours = board.yours.expect("ada's place");
        assert_eq!(
            (yours.run.as_str(), yours.place, yours.of),
            (ada_run.0.as_str(), 2, 2)
        );
        assert_eq!(
            yours.line(NUMBER),
            format!("daily #6 · {} wpm · 2nd of 2", board.board[1].score)
        );
        // Not a BLITZ 30s round like any other: its text was everyone's all day.
        for period in ["day", "month", "all"] {
            let reply = srv
                .get(&format!("/v1/boards/time:30?period={period}"))
                .await;
            assert_eq!(reply.json()["rows"], serde_json::json!([]), "{period}");
        }

        // A second try: the same text, said to be unranked, and kept so.
        let again = try_daily(&srv, &ada).await;
        assert_eq!(again.seed, a.seed);
        let said = again.unranked.expect("a second try is unranked");
        assert!(said.contains("you tried daily #6 at 12:00 UTC"), "{said}");
        let why = unranked_why(
            &srv.submit_lines(&ada, entry(&round(&srv, a.seed, 120)))
                .await,
        );
        assert!(
            why.contains(&format!(
                "counted your first try already (run {})",
                ada_run.0
            )),
            "{why}"
        );

        // Until the day is over its rounds' keys go to nobody; their scores show.
        let withheld = srv.get(&format!("/v1/runs/{}", bob_run.0)).await;
        assert_eq!(withheld.status, StatusCode::FORBIDDEN);
        assert!(
            withheld.text().contains("is a round of daily #6"),
            "{}",
            withheld.text()
        );
        assert_eq!(
            srv.get(&format!("/r/{}", bob_run.0)).await.status,
            StatusCode::OK
        );

        // The next day: the rounds, the seed and the board are everyone's.
        srv.set_time(DEC_10 + DAY);
        assert_eq!(
            srv.get(&format!("/v1/runs/{}", bob_run.0)).await.status,
            StatusCode::OK
        );
        let past = daily(&srv, "/v1/daily/6", None).await;
        assert_eq!(past.seed, Some(a.seed));
        assert_eq!(past.players, 2);
        assert_eq!(daily(&srv, "/v1/daily", None).await.number, 7);
        for (path, why) in [
            ("/v1/daily/8", "isn't out"),
            ("/v1/daily/0", "isn't out"),
            ("/v1/daily/x", "by its number"),
        ] {
            let reply = srv.get(path).await;
            assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}");
            assert!(reply.text().contains(why), "{path}: {}", reply.text());
        }
        // A past daily is played for fun: kept, unranked, on no board.
        let cyd = srv.link("cyd").await;
        let why = unranked_why(
            &srv.submit_lines(&cyd, entry(&round(&srv, a.seed, 70)))
                .await,
        );
        assert!(
            why.contains("ranks only on the try the server gave you on its day"),
            "{why}"
        );
        assert_eq!(daily(&srv, "/v1/daily/6", None).await.players, 2);
    }
}

/// The attack: ask for the daily, read its text, rehearse it, and send the round later.
/// A try counts for a round that arrives within five minutes of it.
#[tokio::test]
async fn attack_a_daily_rehearsed_after_its_try_is_unranked() {
    for srv in Server::each(|_| {}).await {
        srv.set_time(DEC_10);
        let eve = srv.link("eve").await;
        let seed = try_daily(&srv, &eve).await.seed;
        srv.later(10 * 60_000);
        let why = unranked_why(&srv.submit_lines(&eve, entry(&round(&srv, seed, 140))).await);
        assert!(
            why.contains("more than 5 minutes after your try of daily #6"),
            "{why}"
        );
        // And asking again is no new first try.
        assert!(try_daily(&srv, &eve).await.unranked.is_some());
        assert!(daily(&srv, "/v1/daily", None).await.board.is_empty());
    }
}

/// The attack: play the daily twice in one submission, and hope the better one counts.
/// The first in the body is the first try; the other is a second.
#[tokio::test]
async fn attack_two_rounds_of_one_try_in_one_body() {
    for srv in Server::each(|_| {}).await {
        srv.set_time(DEC_10);
        let eve = srv.link("eve").await;
        let seed = try_daily(&srv, &eve).await.seed;
        let (slow, fast) = (round(&srv, seed, 50), round(&srv, seed, 130));
        let lines = srv.submit_lines(&eve, entries(&[slow, fast])).await;
        assert_eq!(ranked(&lines).1, Ranked::Yes);
        assert!(
            matches!(&lines[1], Line::Ok { ranked: Ranked::No(why), .. } if why.contains("first try already")),
            "{lines:?}"
        );
        let board = daily(&srv, "/v1/daily", None).await;
        assert_eq!(board.board.len(), 1);
        assert_eq!(board.board[0].run, ranked(&lines).0);
    }
}

/// The attack: wait for a friend's round of the daily, and send it back as one's own the
/// next day. Its keys are withheld all day, and a copy is a copy whenever it comes.
#[tokio::test]
async fn attack_a_friends_daily_round_sent_as_ones_own() {
    for srv in Server::each(|_| {}).await {
        srv.set_time(DEC_10);
        let (bob, eve) = (srv.link("bob").await, srv.link("eve").await);
        let seed = try_daily(&srv, &bob).await.seed;
        let bobs = round(&srv, seed, 90);
        let (id, _) = ranked(&srv.submit_lines(&bob, entry(&bobs)).await);
        assert_eq!(
            srv.get(&format!("/v1/runs/{id}")).await.status,
            StatusCode::FORBIDDEN
        );
        try_daily(&srv, &eve).await;
        srv.set_time(DEC_10 + DAY);
        let bytes = srv.get(&format!("/v1/runs/{id}")).await.body;
        let copy = Replay::decode(&bytes).expect("bob's round");
        match &srv.submit_lines(&eve, entry(&copy)).await[0] {
            Line::No { kind, .. } => assert_eq!(*kind, Some("copy")),
            other => panic!("a copy was stored: {other:?}"),
        }
    }
}

/// A daily's round's share page and card say the daily and its place on the day's board
/// (`daily #6 · 97 wpm · 1st of 2`), which moves while the day is on: the card is kept
/// minutes, under an `ETag` of its place, and for good once the day and its last tries are
/// over. A later try says it is unranked; a profile names its daily.
#[tokio::test]
async fn a_daily_rounds_share_page_and_card_say_its_place() {
    use super::support::title;
    let version = typepper_server::card::VERSION;
    for srv in Server::each(|_| {}).await {
        srv.set_time(DEC_10);
        let (ada, bob) = (srv.link("ada").await, srv.link("bob").await);
        let seed = try_daily(&srv, &ada).await.seed;
        let (first, _) = ranked(&srv.submit_lines(&ada, entry(&round(&srv, seed, 60))).await);
        let score = daily(&srv, "/v1/daily", None).await.board[0].score;
        let page = |id: String| {
            let srv = &srv;
            async move { title(&srv.get(&format!("/r/{id}")).await.text()).unwrap_or_default() }
        };
        let card = |id: String| {
            let srv = &srv;
            async move {
                let card = srv.get(&format!("/r/{id}/card.png?v={version}")).await;
                assert_eq!(card.status, StatusCode::OK, "{}", card.text());
                let said = |h| card.header(h).unwrap_or_default().to_owned();
                (said(header::CACHE_CONTROL), said(header::ETAG))
            }
        };
        let line = format!("daily #6 · {score} wpm · 1st of 1");
        assert_eq!(page(first.clone()).await, format!("{line} · typepper"));
        let (keep, tag) = card(first.clone()).await;
        assert_eq!(keep, "public, max-age=300", "{}", srv.backend());
        assert!(tag.ends_with("-1-1\""), "{tag}");

        // Bob does better: Ada's place moves, and her card with it.
        try_daily(&srv, &bob).await;
        srv.submit_lines(&bob, entry(&round(&srv, seed, 120))).await;
        let line = format!("daily #6 · {score} wpm · 2nd of 2");
        assert_eq!(page(first.clone()).await, format!("{line} · typepper"));
        assert!(card(first.clone()).await.1.ends_with("-2-2\""));

        // Her second try is on no board.
        try_daily(&srv, &ada).await;
        let (again, _) = ranked(&srv.submit_lines(&ada, entry(&round(&srv, seed, 70))).await);
        assert!(
            page(again.clone())
                .await
                .ends_with(" wpm · unranked · typepper"),
            "{}",
            page(again).await
        );

        // A profile names a round's daily.
        let profile = srv.get("/v1/players/ada").await.json();
        let recent = profile["recent"].as_array().expect("recent rounds");
        assert!(
            recent
                .iter()
                .all(|r| r["daily"] == 6 && r["title"] == "daily #6 · BLITZ 30s"),
            "{recent:?}"
        );

        // Once the day and its last tries are over, the place is for good.
        srv.set_time(DEC_10 + DAY + 5 * 60_000);
        let (keep, tag) = card(first).await;
        assert_eq!(keep, "public, max-age=31536000, immutable");
        assert!(tag.ends_with("-2-2\""), "{tag}");
    }
}
