//! Issue 44: rules VERSION 2 beside VERSION 1. Each replay is scored by the rules that
//! recorded it; one board serves both (VERSION 2 changes no headline); a run of older
//! rules says so on its page, with what it would score under today's; a VERSION the
//! engine doesn't have is refused with its sentence.

use axum::http::StatusCode;
use typepper_api::{Line, Ranked};
use typepper_engine::synth::synth;
use typepper_engine::{Mode, Replay, Rules};

use super::support::*;

/// A round on a seed issued to `token`, recorded by `rules` (the synthetic typist types
/// the same keys by either: it reads the text, never the heat).
async fn issued_round(srv: &Server, token: &str, typist_seed: u64, rules: Rules) -> Replay {
    let seed = srv.issue(token, Mode::BLITZ_15).await;
    let mut round = synth(Mode::BLITZ_15, seed, &typist(typist_seed, 45));
    round.engine = rules.version();
    round
}

#[tokio::test]
async fn a_mixed_submission_is_scored_each_by_its_own_rules_and_shares_one_board() {
    let srv = Server::new().await;
    let (ada, grace) = (srv.link("ada").await, srv.link("grace").await);
    // Ada's outbox kept a round from before the update; her next round is today's.
    let old = issued_round(&srv, &ada, 1, Rules::V1).await;
    let new = issued_round(&srv, &ada, 2, Rules::V2).await;
    let grace_new = issued_round(&srv, &grace, 3, Rules::V2).await;
    srv.later(16_000);
    let (_, by_v1) = old.play().expect("plays by VERSION 1");
    let (_, by_v2) = old.play_under(Rules::V2).expect("plays by VERSION 2");
    // At 45 wpm VERSION 1's heat never left BELL PEPPER; VERSION 2's tells the streak.
    assert!(by_v1.peak_heat < 20, "{}", by_v1.peak_heat);
    assert!(by_v2.peak_heat > by_v1.peak_heat, "{by_v1:?} {by_v2:?}");
    assert_eq!(
        by_v1.headline(),
        by_v2.headline(),
        "VERSION 2 changes no headline"
    );

    let lines = srv
        .submit_lines(&ada, entries(&[old.clone(), new.clone()]))
        .await;
    let ids: Vec<String> = lines
        .iter()
        .map(|l| match l {
            Line::Ok {
                id,
                ranked: Ranked::Yes,
                ..
            } => id.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    srv.submit_lines(&grace, entry(&grace_new)).await;
    // Each run is served back as it was sent, its header naming its rules.
    for (id, round) in ids.iter().zip([&old, &new]) {
        let served = srv.get(&format!("/v1/runs/{id}")).await;
        assert_eq!(served.body, round.encode());
    }
    // One board: both players, each by their best headline, whichever rules played it.
    let board = srv.get("/v1/boards/time:15").await.json();
    let rows = board["rows"].as_array().expect("rows");
    let best_ada = claim(&old).max(claim(&new));
    let ada_row = rows.iter().find(|r| r["name"] == "ada").expect("ada's row");
    assert_eq!(ada_row["score"].as_u64(), Some(u64::from(best_ada)));
    assert!(rows.iter().any(|r| r["name"] == "grace"), "{rows:?}");

    // The older run's page says its rules, its score by them, and today's beside it.
    let page = srv.get(&format!("/r/{}", ids[0])).await;
    assert_eq!(page.status, StatusCode::OK);
    let line = format!(
        "Played by VERSION 1&#39;s rules, which it keeps: {}, peak heat {}. Under today&#39;s \
         rules (VERSION 2) it would score {}, peak heat {}.",
        by_v1.headline(),
        by_v1.peak_heat,
        by_v2.headline(),
        by_v2.peak_heat
    );
    assert!(page.text().contains(&line), "{}", page.text());
    // Today's run needs no such line.
    let page = srv.get(&format!("/r/{}", ids[1])).await;
    assert!(
        !page.text().contains("Played by VERSION"),
        "{}",
        page.text()
    );
}

#[tokio::test]
async fn a_version_the_engine_does_not_have_is_refused_with_its_sentence() {
    let srv = Server::new().await;
    let ada = srv.link("ada").await;
    for engine in [0, 3] {
        let mut round = issued_round(&srv, &ada, 4, Rules::V2).await;
        srv.later(16_000);
        round.engine = engine;
        let claim = round
            .play_under(Rules::NEWEST)
            .expect("plays")
            .1
            .headline()
            .value;
        let body = typepper_api::submission([(claim, &round.encode()[..])]);
        let lines = srv.submit_lines(&ada, body).await;
        let want = format!(
            "recorded by rules VERSION {engine}, which this engine doesn't have: it plays \
             VERSION 1 and 2"
        );
        assert!(
            matches!(&lines[..], [Line::No { kind: Some("other_rules"), why }] if *why == want),
            "{lines:?}"
        );
    }
}
