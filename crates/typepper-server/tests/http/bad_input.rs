//! Bad input: each kind is refused with a clear 4xx (or a `no <reason>` line once the
//! body is being read), nothing of it is stored, and a good request right after works.

use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use typepper_api::Line;
use typepper_engine::{Input, Op, Replay};

use super::support::*;

/// The sentence every refused name gets.
const NAME_RULES: &str = "a name is 3 to 20 letters (a–z, A–Z), digits, _ or -\n";

/// Submits `body`, expects one `no` line passing `check`, nothing stored, and the server
/// still serving.
async fn refused_line(srv: &Server, token: &str, body: Vec<u8>, check: impl Fn(&str) -> bool) {
    let before = srv.stored_runs();
    let lines = srv.submit_lines(token, body).await;
    let [Line::No { kind: Some(_), why }] = &lines[..] else {
        panic!("one refusal: {lines:?}");
    };
    assert!(check(why), "{why}");
    assert_eq!(srv.stored_runs(), before, "nothing stored for {why:?}");
    srv.still_serves(token, 1_000 + before as u64).await;
}

#[tokio::test]
async fn junk_and_short_bodies_are_refused_with_a_line() {
    let srv = Server::new().await;
    let token = srv.link("ada").await;
    let junk: [&[u8]; 5] = [
        b"hello, server",
        &[0xff; 64],
        b"\0\0\0\0TPX\x01",
        b"\x10\0\0\0GET / HTTP/1.1\r\n\r\n",
        &[0, 0, 0, 0, b'T', b'P', b'R', 9, 1, 0, 0, 0],
    ];
    for body in junk {
        refused_line(&srv, &token, body.to_vec(), |why| {
            why.starts_with("not a replay (") && why.ends_with("the rest of the body is not read")
        })
        .await;
    }
    for short in [&b"\x01"[..], b"\x01\x02", b"\x01\x02\x03"] {
        refused_line(&srv, &token, short.to_vec(), |why| {
            why == "the body ends inside a claimed score (4 bytes before each replay)"
        })
        .await;
    }

    let empty = srv.submit(&token, vec![]).await;
    assert_eq!(empty.status, StatusCode::BAD_REQUEST);
    assert!(
        empty.text().contains("empty submission"),
        "{}",
        empty.text()
    );
    assert_eq!(srv.stored_runs(), 8, "only the good rounds between");
}

#[tokio::test]
async fn truncated_replays_are_refused_at_every_kind_of_cut() {
    let srv = Server::new().await;
    let token = srv.link("ada").await;
    let round = blitz(7);
    let whole = entry(&round);
    // Inside the magic, the format, the engine, the mode, the seed, the count, the inputs,
    // and one byte short of the end.
    let mode_len = "time:15".len();
    let seed_at = 4 + 3 + 1 + 4 + 1 + mode_len;
    let cuts = [
        4,
        4 + 1,
        4 + 3,
        4 + 3 + 1 + 2,
        4 + 3 + 1 + 4 + 1 + 3,
        seed_at + 4,
        seed_at + 8,
        whole.len() / 2,
        whole.len() - 1,
    ];
    for cut in cuts {
        refused_line(&srv, &token, whole[..cut].to_vec(), |why| {
            why == "not a replay (the replay is cut short); the rest of the body is not read"
        })
        .await;
    }
    // Cut after a good one: the good one is stored, the cut one says so.
    let before = srv.stored_runs();
    let mut two = entry(&blitz(8));
    two.extend_from_slice(&whole[..whole.len() - 3]);
    let lines = srv.submit_lines(&token, two).await;
    assert!(
        matches!(&lines[..], [Line::Ok { .. }, Line::No { kind: Some("unreadable"), why }] if why.contains("cut short")),
        "{lines:?}"
    );
    assert_eq!(srv.stored_runs(), before + 1);
    assert_eq!(srv.submit_lines(&token, whole).await.len(), 1);
}

#[tokio::test]
async fn rounds_the_engine_would_not_play_as_claimed_are_refused() {
    let srv = Server::new().await;
    let token = srv.link("ada").await;

    let mut other = blitz(1);
    other.engine = 3;
    let body = typepper_api::submission([(claim(&blitz(1)), &other.encode()[..])]);
    refused_line(&srv, &token, body, |why| {
        why == "recorded by rules VERSION 3, which this engine doesn't have: it plays VERSION 1 and 2"
    })
    .await;

    let round = blitz(2);
    let c = claim(&round);
    for wrong in [c + 1, c.saturating_sub(1), 0, u32::MAX] {
        let body = typepper_api::submission([(wrong, &round.encode()[..])]);
        refused_line(&srv, &token, body, |why| {
            why == format!("claimed {wrong}, but the replay scores {c}")
        })
        .await;
    }

    for mode in ["time:16", "chess", "pursuit:0", "pursuit:21", "Time:15"] {
        let odd = Replay {
            mode: mode.into(),
            ..blitz(3)
        };
        let body = typepper_api::submission([(50, &odd.encode()[..])]);
        refused_line(&srv, &token, body, |why| {
            why.starts_with(&format!("this build has no mode {mode:?}"))
        })
        .await;
    }

    let mut late = blitz(4);
    late.inputs.push(Input {
        dt: 20_000,
        op: Op::Char('x'),
    });
    let body = typepper_api::submission([(claim(&blitz(4)), &late.encode()[..])]);
    refused_line(&srv, &token, body, |why| {
        why.starts_with("input ") && why.contains("was refused: an input after the round ended at")
    })
    .await;

    // Nothing typed: refused. A machine's timing is no fault of the bytes: the round is
    // kept, off the boards, and its claim checked as any round's.
    let blank = Replay {
        inputs: vec![],
        ..blitz(5)
    };
    let body = typepper_api::submission([(0, &blank.encode()[..])]);
    refused_line(&srv, &token, body, |why| why.contains("nothing typed")).await;
    let mut machine = blitz(6);
    for input in machine.inputs.iter_mut().skip(1) {
        input.dt = 2;
    }
    let body = typepper_api::submission([(0, &machine.encode()[..])]);
    refused_line(&srv, &token, body, |why| {
        why.starts_with("claimed 0, but the replay scores")
    })
    .await;
    let body = typepper_api::submission([(claim(&machine), &machine.encode()[..])]);
    let lines = srv.submit_lines(&token, body).await;
    assert!(
        matches!(&lines[..], [Line::Ok { ranked: typepper_api::Ranked::No(why), .. }]
            if why.starts_with("the timing checks took it for a program's: keys came in bursts")),
        "{lines:?}"
    );

    let board = srv.get("/v1/boards/time:15").await.json();
    let rows = board["rows"].as_array().expect("rows");
    assert!(
        rows.is_empty(),
        "rounds on seeds nobody issued rank nowhere"
    );
}

#[tokio::test]
async fn an_oversize_body_is_413_before_anything_is_decoded() {
    let srv = Server::new().await;
    let token = srv.link("ada").await;
    // A good round first: were the body decoded before its size was checked, it would be
    // stored.
    let mut body = entry(&blitz(1));
    body.resize(typepper_server::MAX_BODY + 1, 0);
    let reply = srv.submit(&token, body).await;
    assert_eq!(
        reply.status,
        StatusCode::PAYLOAD_TOO_LARGE,
        "{}",
        reply.text()
    );
    assert!(reply.text().contains("at most"), "{}", reply.text());
    assert_eq!(srv.stored_runs(), 0);
    // The same round alone is fine: the size, not the round, was refused.
    let lines = srv.submit_lines(&token, entry(&blitz(1))).await;
    assert!(matches!(&lines[..], [Line::Ok { .. }]), "{lines:?}");

    let big_name = format!(r#"{{"name": "{}"}}"#, "a".repeat(typepper_server::MAX_BODY));
    let reply = srv.post_player(&big_name).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    srv.still_serves(&token, 2).await;
}

#[tokio::test]
async fn submissions_without_a_players_token_are_401() {
    let srv = Server::new().await;
    let token = srv.link("ada").await;
    let body = entry(&blitz(1));
    let wrong = "0".repeat(64);
    let auths = [
        None,
        Some(String::new()),
        Some(format!("Bearer {wrong}")),
        Some("Bearer ".into()),
        Some(format!("Basic {token}")),
        Some(format!("bearer{token}")),
        Some(token.clone()),
    ];
    for auth in auths {
        let mut req = request(Method::POST, "/v1/submit");
        if let Some(auth) = &auth {
            req = req.header(header::AUTHORIZATION, auth);
        }
        let reply = srv
            .send(req.body(Body::from(body.clone())).expect("a request"))
            .await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{auth:?}");
        assert!(reply.text().contains("link the game"), "{}", reply.text());
        assert_eq!(srv.stored_runs(), 0, "{auth:?}");
    }
    srv.still_serves(&token, 1).await;
}

#[tokio::test]
async fn a_round_counts_once() {
    let srv = Server::new().await;
    let token = srv.link("ada").await;
    let grace = srv.link("grace").await;
    let round = blitz(1);
    let first = srv.submit_lines(&token, entry(&round)).await;
    let [Line::Ok { id, .. }] = &first[..] else {
        panic!("{first:?}")
    };
    // Again by its player (an answer lost on the way, say): the same answer, one run.
    assert_eq!(srv.submit_lines(&token, entry(&round)).await, first);
    assert_eq!(srv.stored_runs(), 1);
    // By another: a copy.
    refused_line(&srv, &grace, entry(&round), |why| {
        why == format!("a copy of run {id}")
    })
    .await;
    // Twice in one body: one run, answered twice.
    let before = srv.stored_runs();
    let twice = entries(&[blitz(2), blitz(2)]);
    let lines = srv.submit_lines(&token, twice).await;
    assert!(
        matches!(&lines[..], [Line::Ok { id: a, .. }, Line::Ok { id: b, .. }] if a == b),
        "{lines:?}"
    );
    assert_eq!(srv.stored_runs(), before + 1);
}

#[tokio::test]
async fn hostile_names_are_refused_with_the_rules() {
    let srv = Server::new().await;
    let hostile = [
        "<script>alert(1)</script>".to_owned(),
        "'; DROP TABLE runs; --".to_owned(),
        "x".repeat(10 * 1024),
        "ada\u{202e}nimda".to_owned(),
        "ad\u{200b}a".to_owned(),
        "ada🌶".to_owned(),
        "ada\0".to_owned(),
        "\0\0\0".to_owned(),
        "ada grace".to_owned(),
        "ädä".to_owned(),
        "ab".to_owned(),
        String::new(),
        "ａｄａ".to_owned(),
    ];
    for name in &hostile {
        let body = serde_json::json!({ "name": name }).to_string();
        let reply = srv.post_player(&body).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{name:?}");
        assert_eq!(reply.text(), NAME_RULES, "{name:?}");
    }
    let db = rusqlite::Connection::open(srv.db_path()).expect("the database");
    let players: i64 = db
        .query_row("SELECT count(*) FROM players", [], |r| r.get(0))
        .expect("count");
    assert_eq!(players, 0);
    let runs: i64 = db
        .query_row("SELECT count(*) FROM runs", [], |r| r.get(0))
        .expect("the runs table is still there");
    assert_eq!(runs, 0);

    let token = srv.link("Ada_Lovelace").await;
    for taken in ["Ada_Lovelace", "ada_lovelace", "ADA_LOVELACE"] {
        let reply = srv.post_player(&format!(r#"{{"name": "{taken}"}}"#)).await;
        assert_eq!(reply.status, StatusCode::CONFLICT, "{taken}");
        assert!(reply.text().contains("is taken"), "{}", reply.text());
    }
    srv.still_serves(&token, 1).await;
}

#[tokio::test]
async fn malformed_player_requests_are_400() {
    let srv = Server::new().await;
    for body in [
        "",
        "ada",
        "{",
        r#"{"name": "#,
        r#"{"nom": "ada"}"#,
        r#"{"name": 5}"#,
        r#"{"name": null}"#,
        "\u{feff}{\"name\": \"ada\"}",
        r#"{"name": "ada\ud800"}"#,
    ] {
        let reply = srv.post_player(body).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{body:?}");
        assert!(
            reply.text().contains("as JSON"),
            "{body:?}: {}",
            reply.text()
        );
    }
    let token = srv.link("ada").await;
    srv.still_serves(&token, 1).await;
}

#[tokio::test]
async fn boards_and_runs_refuse_what_isnt_there() {
    let srv = Server::new().await;
    let token = srv.link("ada").await;
    let id = srv.still_serves(&token, 1).await;

    for mode in [
        "time:16",
        "chess",
        "pursuit:0",
        "pursuit:007",
        "%3Cscript%3E",
    ] {
        let reply = srv.get(&format!("/v1/boards/{mode}")).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{mode}");
        assert!(reply.text().starts_with("no board"), "{}", reply.text());
    }
    for month in [
        "2026-13",
        "2026-00",
        "2026-1",
        "26-12",
        "abcd-ef",
        "",
        "2026-12-01",
    ] {
        let reply = srv.get(&format!("/v1/boards/time:15?month={month}")).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{month:?}");
        assert!(reply.text().contains("YYYY-MM"), "{}", reply.text());
    }
    for (query, says) in [
        (
            "period=year",
            "\"year\" is not a period: write day, week, month or all",
        ),
        ("period=", "\"\" is not a period"),
        ("period=DAY", "\"DAY\" is not a period"),
        (
            "period=week&month=2026-12",
            "a month (\"2026-12\") is a period of its own",
        ),
    ] {
        let reply = srv.get(&format!("/v1/boards/time:15?{query}")).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{query}");
        assert!(reply.text().contains(says), "{query}: {}", reply.text());
    }

    let lower = id.to_ascii_lowercase();
    let upper = id.to_ascii_uppercase();
    let mut bad_ids = vec![
        "abc".to_owned(),
        format!("{id}x"),
        id[..7].to_owned(),
        "abcd-EFG".into(),
        "abcd%20EF".into(),
        "%3Cscript%3E".into(),
        "..%2F..%2F".into(),
        "%C3%A9%C3%A9%C3%A9%C3%A9".into(),
        "ZZZZZZZZ".into(),
    ];
    // Ids are case-sensitive: only the exact one is the run.
    bad_ids.extend([lower, upper].into_iter().filter(|x| x != &id));
    for bad in &bad_ids {
        let reply = srv.get(&format!("/v1/runs/{bad}")).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{bad}");
        let page = srv.get(&format!("/r/{bad}")).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND, "{bad}");
        assert!(page.text().contains("This replay is gone"));
        assert_only_template_tags(&page.text());
    }
    assert_eq!(
        srv.get(&format!("/v1/runs/{id}")).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn share_pages_escape_what_the_path_says() {
    let srv = Server::new().await;
    for path in [
        "/r/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "/r/x%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E",
        "/r/%27%3E%3Cb%3E",
        "/r/%26lt;b%26gt;",
    ] {
        let page = srv.get(path).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND, "{path}");
        let html = page.text();
        assert_only_template_tags(&html);
        assert!(!html.contains("\"><img"), "{html}");
        assert!(!html.contains("'><b>"), "{html}");
        // What is no run id is not said back: the page's URL is the game's, a page that
        // is there (the play-test found `…/r`, which is none).
        let url = meta(&html, "property", "og:url").expect("og:url");
        assert_eq!(url, format!("{PUBLIC}/"));
    }
}

/// A 404 page once echoed NUL, CR and LF from its path into its `og:url`.
#[tokio::test]
async fn control_characters_in_a_path_never_reach_a_page() {
    let srv = Server::new().await;
    for path in [
        "/r/abc%00def",
        "/r/ab%0D%0ASet-Cookie:%20x=1",
        "/r/%1B%5B31m",
        "/v1/runs/ab%00cd%0Aef",
        "/v1/runs/%0D%0A%0D%0A",
    ] {
        let answer = srv.get(path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        let text = answer.text();
        let control = text.chars().find(|&c| c.is_control() && c != '\n');
        assert_eq!(control, None, "{path}: {text:?}");
        assert!(!text.contains("Set-Cookie"), "{path}: {text}");
    }
}

/// `v1 link`'s route links the SSH key the SSH server puts on a request; a request over
/// HTTP has none, so it links nothing and makes no player.
#[tokio::test]
async fn linking_a_key_over_http_makes_no_player() {
    let srv = Server::new().await;
    let reply = srv
        .send(
            request(Method::POST, "/v1/keys")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(r#"{"name": "ada", "token": null}"#))
                .expect("a request"),
        )
        .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.text());
    assert_eq!(
        reply.text(),
        "no key: connect with a public key to link it\n"
    );
    srv.link("ada").await;
}
