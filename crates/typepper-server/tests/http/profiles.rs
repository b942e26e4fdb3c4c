//! Profiles (issue 42): `GET /v1/players/<name>`, the page `/p/<name>` and its card, on
//! both backends; what no one has a profile of; and what an attacker tried with a name.

use axum::http::StatusCode;
use typepper_api::Line;
use typepper_api::profile::{Profile, RECENT_RUNS};
use typepper_engine::Mode;
use typepper_engine::synth::{Typist, synth};

use super::support::{DAY, Server, entry, meta, title, typist};

/// The run id of a submission's one answer line.
fn stored(lines: &[Line]) -> String {
    match &lines[0] {
        Line::Ok { id, .. } => id.clone(),
        other => panic!("not stored: {other:?}"),
    }
}

async fn profile(srv: &Server, name: &str) -> Profile {
    let reply = srv.get(&format!("/v1/players/{name}")).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    serde_json::from_slice(&reply.body).expect("a profile")
}

#[tokio::test]
async fn a_profile_counts_every_round_keeps_its_bests_and_draws_them() {
    for srv in Server::each(|_| {}).await {
        let ada = srv.link("ada").await;
        let mut ids = vec![];
        // Three ranked BLITZ rounds, the second the best, and a ZEN round.
        for (seed, wpm) in [(1, 50), (2, 90), (3, 65)] {
            let round = srv.ranked(&ada, Mode::BLITZ_15, &typist(seed, wpm)).await;
            ids.push(stored(&srv.submit_lines(&ada, entry(&round)).await));
            srv.later(60_000);
        }
        let zen = synth(Mode::ZEN, 5, &Typist::default());
        ids.push(stored(&srv.submit_lines(&ada, entry(&zen)).await));

        let p = profile(&srv, "ADA").await;
        // Asked again at once, the same (a_profile_is_made_anew… tests the cache).
        assert_eq!(profile(&srv, "ada").await, p);
        assert_eq!(p.name, "ada");
        assert_eq!((p.all.rounds, p.month.rounds), (4, 4), "{}", srv.backend());
        assert!(
            p.all.seconds >= 45,
            "three BLITZ 15s at least: {}",
            p.all.seconds
        );
        assert_eq!(p.bests.len(), 1, "ZEN is never ranked");
        assert_eq!(
            (p.bests[0].run.as_str(), p.bests[0].title.as_str()),
            (ids[1].as_str(), "BLITZ 15s")
        );
        let newest_first: Vec<&str> = p.recent.iter().map(|r| r.run.as_str()).collect();
        let mut expected: Vec<&str> = ids.iter().map(String::as_str).collect();
        expected.reverse();
        assert_eq!(newest_first, expected);
        assert_eq!(p.chart.len(), 4);
        assert_eq!(p.chart.last().map(|c| c.round), Some(4));
        assert_eq!(p.keys.runs, 4);

        // Runs go after 8 days; the rounds, the counts and the chart stay, and so does
        // the best.
        srv.later(9 * DAY);
        srv.sweep().await;
        let later = profile(&srv, "ada").await;
        assert_eq!(later.all.rounds, 4, "{}", srv.backend());
        // The clock starts on 10 December: 9 days on is the same month.
        assert_eq!(later.month, p.month);
        assert_eq!(later.chart, p.chart);
        assert_eq!(later.bests, p.bests);
        assert_eq!(later.recent.len(), 1, "only the best is kept");

        // The page: its own title, card and description, every best and run playable.
        let page = srv.get("/p/ada").await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.text());
        let html = page.text();
        assert_eq!(title(&html).as_deref(), Some("ada · typepper"));
        let image = meta(&html, "property", "og:image").expect("a card");
        assert!(image.ends_with("/p/ada/card.png?r=4"), "{image}");
        let description = meta(&html, "name", "description").expect("a description");
        assert!(
            description.contains("4 rounds") && description.contains("Best: "),
            "{description}"
        );
        assert!(html.contains(&format!("?replay={}", ids[1])), "{html}");
        assert!(html.contains(&format!("?race={}", ids[1])), "{html}");
        assert!(html.contains("<svg class=\"chart\""), "the chart is drawn");
        let card = srv.get("/p/ada/card.png").await;
        assert_eq!(card.status, StatusCode::OK, "{}", card.text());
        assert!(card.body.starts_with(b"\x89PNG"));
    }
}

#[tokio::test]
async fn a_profile_lists_the_last_twenty_runs() {
    let srv = Server::new().await;
    let ada = srv.link("ada").await;
    for seed in 0..(RECENT_RUNS as u64 + 3) {
        let zen = synth(Mode::ZEN, seed, &Typist::default());
        stored(&srv.submit_lines(&ada, entry(&zen)).await);
        srv.later(1000);
    }
    let p = profile(&srv, "ada").await;
    assert_eq!(p.recent.len(), RECENT_RUNS);
    assert_eq!(p.all.rounds, RECENT_RUNS as u32 + 3);
}

#[tokio::test]
async fn no_one_has_a_profile_of_a_guest_a_banned_or_a_deleted_player() {
    for srv in Server::each(|_| {}).await {
        for (seed, name) in [(1, "bob"), (2, "dan")] {
            let token = srv.link(name).await;
            let zen = synth(Mode::ZEN, seed, &Typist::default());
            stored(&srv.submit_lines(&token, entry(&zen)).await);
        }
        assert!(
            srv.state
                .store
                .ban_player("bob".into())
                .await
                .unwrap()
                .is_some()
        );
        let dan = srv.link("dave").await;
        let deleted = super::support::request(axum::http::Method::DELETE, "/v1/players/me")
            .header("authorization", format!("Bearer {dan}"))
            .body(axum::body::Body::empty())
            .unwrap();
        assert_eq!(srv.send(deleted).await.status, StatusCode::OK);
        // Never was, banned, deleted: one sentence for all, so a ban isn't announced.
        let mut said = vec![];
        for name in ["nobody", "bob", "dave"] {
            let reply = srv.get(&format!("/v1/players/{name}")).await;
            assert_eq!(
                reply.status,
                StatusCode::NOT_FOUND,
                "{name}: {}",
                reply.text()
            );
            said.push(reply.text().replace(name, "NAME"));
            let page = srv.get(&format!("/p/{name}")).await;
            assert_eq!(page.status, StatusCode::NOT_FOUND, "{name}");
        }
        assert!(said.iter().all(|s| *s == said[0]), "{said:?}");
        assert!(said[0].contains("a guest has no profile"), "{}", said[0]);
    }
}

/// The attack: a name that is no name (markup, a path, control characters, a very long
/// one) said back into the page or the log. None reaches the store or is said back.
#[tokio::test]
async fn a_name_that_is_no_name_is_not_said_back() {
    let srv = Server::new().await;
    for path in [
        "/v1/players/%3Cscript%3E",
        "/v1/players/..%2Fetc",
        "/v1/players/a%0Ab",
        "/p/%3Cb%3Ehi%3C%2Fb%3E",
        &format!("/v1/players/{}", "a".repeat(5000)),
    ] {
        let reply = srv.get(path).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}");
        let text = reply.text();
        assert!(
            !text.contains('<') && !text.contains("etc") && !text.contains("aaaa"),
            "{path}: {text}"
        );
    }
}

/// A profile is served from memory for a few seconds, but never past its player's own
/// next round or the deletion of their account.
#[tokio::test]
async fn a_profile_is_made_anew_once_its_player_stores_a_round_or_leaves() {
    let srv = Server::new().await;
    let ada = srv.link("ada").await;
    let first = synth(Mode::ZEN, 1, &Typist::default());
    stored(&srv.submit_lines(&ada, entry(&first)).await);
    assert_eq!(profile(&srv, "ada").await.all.rounds, 1);
    let second = synth(Mode::ZEN, 2, &Typist::default());
    stored(&srv.submit_lines(&ada, entry(&second)).await);
    assert_eq!(profile(&srv, "ada").await.all.rounds, 2);
    let deleted = super::support::request(axum::http::Method::DELETE, "/v1/players/me")
        .header("authorization", format!("Bearer {ada}"))
        .body(axum::body::Body::empty())
        .unwrap();
    assert_eq!(srv.send(deleted).await.status, StatusCode::OK);
    let gone = srv.get("/v1/players/ada").await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND, "{}", gone.text());
}
