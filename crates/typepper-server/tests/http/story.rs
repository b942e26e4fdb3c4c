//! The story a player lives: link, submit, fetch, the boards, share links, the game's
//! own files, and what retention keeps.

use std::io::Read;

use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use typepper_api::{Line, Ranked};
use typepper_engine::synth::{Typist, synth};
use typepper_engine::{Mode, Replay};

use super::support::*;

/// Rounds `typists` play, each on a seed the server issues to `token` for its mode; the
/// clock then moves on past the longest, as if they were played one beside the other.
async fn ranked_rounds(srv: &Server, token: &str, plays: &[(Mode, Typist)]) -> Vec<Replay> {
    let mut rounds = vec![];
    for (mode, typist) in plays {
        let seed = srv.issue(token, *mode).await;
        rounds.push(synth(*mode, seed, typist));
    }
    let longest = rounds
        .iter()
        .map(|r| r.play().expect("plays").1.duration_ms)
        .max()
        .unwrap_or(0);
    srv.later(i64::from(longest) + 1_000);
    rounds
}

/// BLITZ 15s rounds on seeds issued to `token`, each typed until it scores within 5 wpm of
/// its pace.
async fn ranked_near(srv: &Server, token: &str, paces: &[u32]) -> Vec<Replay> {
    let mut rounds = vec![];
    for &wpm in paces {
        let seed = srv.issue(token, Mode::BLITZ_15).await;
        let round = (1..)
            .map(|t| synth(Mode::BLITZ_15, seed, &typist(t, wpm)))
            .find(|r| claim(r).abs_diff(wpm) <= 5)
            .expect("a typist near its pace");
        rounds.push(round);
    }
    srv.later(16_000);
    rounds
}

#[tokio::test]
async fn a_player_links_submits_and_every_run_is_served_back() {
    let srv = Server::new().await;
    let token = srv.link("ada").await;
    assert_eq!(token.len(), 64, "{token}");

    // Slow, then faster (an improvement), then in between (not one); the second mode's
    // first round is a best of its own. All on seeds the server issued: ranked.
    let lv7 = Mode::pursuit(7).expect("lv7");
    let rounds = ranked_rounds(
        &srv,
        &token,
        &[
            (Mode::BLITZ_15, typist(1, 45)),
            (Mode::BLITZ_15, typist(2, 95)),
            (Mode::BLITZ_15, typist(3, 70)),
            (lv7, Typist::default()),
        ],
    )
    .await;
    assert!(claim(&rounds[0]) < claim(&rounds[2]) && claim(&rounds[2]) < claim(&rounds[1]));
    let lines = srv.submit_lines(&token, entries(&rounds)).await;
    assert_eq!(lines.len(), 4, "{lines:?}");
    let mut ids = vec![];
    for ((line, round), want_pb) in lines.iter().zip(&rounds).zip([true, true, false, true]) {
        let Line::Ok {
            id,
            score,
            pb,
            share,
            ranked,
        } = line
        else {
            panic!("{line:?}");
        };
        assert!(typepper_api::is_run_id(id), "{id}");
        assert_eq!(*score, claim(round));
        assert_eq!(*pb, want_pb, "{line}");
        assert_eq!(*ranked, Ranked::Yes, "{line}");
        assert_eq!(share, &format!("{PUBLIC}/r/{id}"));

        let run = srv.get(&format!("/v1/runs/{id}")).await;
        assert_eq!(run.status, StatusCode::OK);
        assert_eq!(run.body, round.encode(), "the exact bytes");
        assert_eq!(
            run.header(header::CONTENT_TYPE),
            Some("application/octet-stream")
        );
        let cache = run.header(header::CACHE_CONTROL).expect("Cache-Control");
        assert!(cache.contains("max-age"), "{cache}");
        assert_eq!(
            run.header(typepper_api::PLAYER_HEADER),
            Some("ada"),
            "a race says whom it is against"
        );
        ids.push(id.clone());
    }
    assert_eq!(srv.stored_runs(), 4);

    // A later round that beats no earlier one is no best, in a later submission too.
    let later = ranked_rounds(&srv, &token, &[(Mode::BLITZ_15, typist(5, 50))]).await;
    let lines = srv.submit_lines(&token, entries(&later)).await;
    assert!(
        matches!(
            &lines[..],
            [Line::Ok {
                pb: false,
                ranked: Ranked::Yes,
                ..
            }]
        ),
        "{lines:?}"
    );
    // An unranked round is never a best, however fast.
    let lines = srv.submit_lines(&token, entry(&blitz_at(6, 130))).await;
    assert!(
        matches!(
            &lines[..],
            [Line::Ok {
                pb: false,
                ranked: Ranked::No(_),
                ..
            }]
        ),
        "{lines:?}"
    );
}

#[tokio::test]
async fn boards_rank_each_players_best_of_the_month() {
    let srv = Server::new().await;
    let (ada, grace, linus) = (
        srv.link("ada").await,
        srv.link("grace").await,
        srv.link("linus").await,
    );
    // A typist's 15 s spreads ±20 wpm around its pace on a text the server picks at random,
    // so each round is typed until it lands within 5 wpm of its pace: the order is sure.
    let a = ranked_near(&srv, &ada, &[60, 90]).await;
    let g = ranked_near(&srv, &grace, &[75]).await;
    let (a1, a2, g) = (a[0].clone(), a[1].clone(), g[0].clone());
    for (token, rounds) in [
        (&ada, vec![a1.clone(), a2.clone()]),
        (&grace, vec![g.clone()]),
    ] {
        let lines = srv.submit_lines(token, entries(&rounds)).await;
        assert!(
            lines.iter().all(|l| matches!(
                l,
                Line::Ok {
                    ranked: Ranked::Yes,
                    ..
                }
            )),
            "{lines:?}"
        );
    }
    // Linus plays in November: on November's board, not December's.
    srv.set_time(DEC_10 - 20 * DAY);
    let l = ranked_near(&srv, &linus, &[40]).await;
    srv.submit_lines(&linus, entries(&l)).await;
    srv.set_time(DEC_10);
    assert!(claim(&l[0]) < claim(&a1) && claim(&a1) < claim(&g) && claim(&g) < claim(&a2));
    // Ada's fastest round, on a seed she picked, is hers to share but ranks nowhere.
    let unranked = blitz_at(9, 150);
    assert!(claim(&unranked) > claim(&a2));
    srv.submit_lines(&ada, entry(&unranked)).await;

    let board = srv.get("/v1/boards/time:15").await;
    assert_eq!(board.status, StatusCode::OK, "{}", board.text());
    let json = board.json();
    assert_eq!(json["mode"], "time:15");
    assert_eq!(json["title"], "BLITZ 15s");
    assert_eq!(json["unit"], "wpm");
    assert_eq!(json["month"], "2026-12");
    let rows = json["rows"].as_array().expect("rows");
    let seen: Vec<(u64, &str, u64)> = rows
        .iter()
        .map(|r| {
            (
                r["rank"].as_u64().expect("rank"),
                r["name"].as_str().expect("name"),
                r["score"].as_u64().expect("score"),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (1, "ada", u64::from(claim(&a2))),
            (2, "grace", u64::from(claim(&g)))
        ]
    );
    // Each row's run plays the round it ranks.
    let top = srv
        .get(&format!(
            "/v1/runs/{}",
            rows[0]["run"].as_str().expect("run")
        ))
        .await;
    assert_eq!(top.body, a2.encode());
    assert!(
        rows[0]["time"]
            .as_str()
            .expect("time")
            .starts_with("2026-12-10T12:00:")
    );

    let same = srv.get("/v1/boards/time:15?month=2026-12").await.json();
    assert_eq!(same["rows"], json["rows"]);
    let november = srv.get("/v1/boards/time:15?month=2026-11").await.json();
    let rows = november["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["name"], "linus");
    let empty = srv.get("/v1/boards/time:60").await.json();
    assert_eq!(empty["rows"], serde_json::json!([]));

    // By period: today's and this week's (from Monday the 7th) are December's two, and
    // all time's has linus back, with his November best.
    let names = |board: &serde_json::Value| -> Vec<String> {
        let rows = board["rows"].as_array().expect("rows");
        rows.iter()
            .map(|r| r["name"].as_str().expect("name").to_owned())
            .collect()
    };
    for (period, who) in [
        ("day", &["ada", "grace"][..]),
        ("week", &["ada", "grace"]),
        ("month", &["ada", "grace"]),
        ("all", &["ada", "grace", "linus"]),
    ] {
        let board = srv
            .get(&format!("/v1/boards/time:15?period={period}"))
            .await
            .json();
        assert_eq!(board["period"], period);
        assert_eq!(board["month"], "2026-12");
        assert_eq!(names(&board), who, "{period}");
        assert_eq!(board["rows"][0]["run"], json["rows"][0]["run"], "{period}");
    }
}

#[tokio::test]
async fn share_pages_say_what_happened_and_offer_to_watch_or_race() {
    let srv = Server::new().await;
    let token = srv.link("ada").await;
    let round = blitz(1);
    let pursuit = synth(Mode::pursuit(7).expect("lv7"), 2, &Typist::default());
    let lines = srv
        .submit_lines(&token, entries(&[round.clone(), pursuit.clone()]))
        .await;
    let cases = [
        (
            &lines[0],
            format!("{} wpm · BLITZ 15s · typepper", claim(&round)),
        ),
        (
            &lines[1],
            format!(
                "{} words · HOT PURSUIT from lv7 · typepper",
                claim(&pursuit)
            ),
        ),
    ];
    for (line, want_title) in cases {
        let Line::Ok { id, .. } = line else {
            panic!("{line:?}")
        };
        let page = srv.get(&format!("/r/{id}")).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(
            page.header(header::CONTENT_TYPE)
                .is_some_and(|t| t.starts_with("text/html"))
        );
        let html = page.text();
        assert_eq!(title(&html).as_deref(), Some(&want_title[..]), "{html}");
        assert_eq!(meta(&html, "property", "og:title"), Some(want_title));
        let description = meta(&html, "property", "og:description").expect("og:description");
        assert!(description.starts_with("ada typed "), "{description}");
        let image = meta(&html, "property", "og:image").expect("og:image");
        assert_eq!(
            image,
            format!(
                "{PUBLIC}/r/{id}/card.png?v={}",
                typepper_server::card::VERSION
            )
        );
        assert!(description.ends_with("or race it."), "{description}");
        // Accuracy as the game writes it: `98.5%`, never `98.50%`.
        let accuracy = description
            .split(" at ")
            .nth(1)
            .and_then(|rest| rest.split_once("% accuracy"))
            .map(|(number, _)| number)
            .expect("an accuracy");
        assert!(
            accuracy.parse::<f64>().is_ok() && !(accuracy.contains('.') && accuracy.ends_with('0')),
            "{description}"
        );
        // People go straight to the round; a browser that doesn't refresh has links.
        assert_eq!(
            meta(&html, "http-equiv", "refresh"),
            Some(format!("0; url={PUBLIC}/?replay={id}"))
        );
        for (label, url) in [
            ("Watch the round", format!("{PUBLIC}/?replay={id}")),
            ("Race this round", format!("{PUBLIC}/?race={id}")),
        ] {
            assert!(
                html.contains(&format!(r#"<a href="{url}">{label}</a>"#)),
                "{html}"
            );
        }
        assert_only_template_tags(&html);
    }

    let gone = srv.get("/r/ZZZZZZZZ").await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    assert!(
        gone.text().contains("This replay is gone"),
        "{}",
        gone.text()
    );
    assert_eq!(meta(&gone.text(), "http-equiv", "refresh"), None);
    assert_only_template_tags(&gone.text());
    // A run id that is gone names its own page, as a found one does.
    let url = meta(&gone.text(), "property", "og:url").expect("og:url");
    assert!(url.ends_with("/r/ZZZZZZZZ"), "{url}");
}

/// A share link unfurls as its run's own card: the tags a chat app reads, read by parsing
/// the page, point at a PNG the server draws once and serves for good.
#[tokio::test]
async fn a_share_page_unfurls_as_its_runs_card_which_is_cached_for_good() {
    let srv = Server::new().await;
    let token = srv.link("ada").await;
    let round = blitz(3);
    let [Line::Ok { id, .. }] = &srv.submit_lines(&token, entry(&round)).await[..] else {
        panic!("stored")
    };
    let html = srv.get(&format!("/r/{id}")).await.text();
    let dom = tl::parse(&html, tl::ParserOptions::default()).expect("the page parses");
    let parser = dom.parser();
    let tag = |attr: &str, key: &str| -> Option<String> {
        dom.query_selector("meta")?
            .filter_map(|h| h.get(parser)?.as_tag())
            .find(|t| {
                t.attributes().get(attr).flatten().map(|v| v.as_utf8_str()) == Some(key.into())
            })
            .and_then(|t| Some(unescape(&t.attributes().get("content")??.as_utf8_str())))
    };
    let (_, score) = round.play().expect("plays");
    let card = format!(
        "{PUBLIC}/r/{id}/card.png?v={}",
        typepper_server::card::VERSION
    );
    let want = [
        ("property", "og:image", card.clone()),
        ("property", "og:image:width", "1200".into()),
        ("property", "og:image:height", "630".into()),
        ("property", "og:image:type", "image/png".into()),
        (
            "property",
            "og:image:alt",
            format!(
                "{} in BLITZ 15s by ada at {}% accuracy, with the round's speed each second",
                score.headline(),
                typepper_engine::Decimal(score.accuracy_x100.into())
            ),
        ),
        ("name", "twitter:card", "summary_large_image".into()),
        ("name", "theme-color", "#141218".into()),
        (
            "http-equiv",
            "refresh",
            format!("0; url={PUBLIC}/?replay={id}"),
        ),
    ];
    for (attr, key, value) in want {
        assert_eq!(tag(attr, key).as_deref(), Some(&value[..]), "{key}");
    }

    // The card: a 1200×630 PNG, cached for good, and known again by its ETag.
    let path = card.strip_prefix(PUBLIC).expect("on the game's host");
    let png = srv.get(path).await;
    assert_eq!(png.status, StatusCode::OK);
    assert_eq!(png.header(header::CONTENT_TYPE), Some("image/png"));
    assert_eq!(
        png.header(header::CACHE_CONTROL),
        Some("public, max-age=31536000, immutable")
    );
    let drawn = resvg::tiny_skia::Pixmap::decode_png(&png.body).expect("a PNG");
    assert_eq!((drawn.width(), drawn.height()), (1200, 630));
    let etag = png.header(header::ETAG).expect("an ETag").to_owned();
    let again = srv
        .send(
            request(Method::GET, path)
                .header(header::IF_NONE_MATCH, &etag)
                .body(Body::empty())
                .expect("a request"),
        )
        .await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.body.is_empty());
    assert_eq!(again.header(header::ETAG), Some(&etag[..]));
    // Asked again, the same bytes: drawn once, kept. A card asked for by many at once
    // is drawn once for all of them.
    assert_eq!(srv.get(path).await.body, png.body);
    let [Line::Ok { id: other, .. }] = &srv.submit_lines(&token, entry(&blitz(4))).await[..] else {
        panic!("stored")
    };
    let other = format!("/r/{other}/card.png");
    let many = futures_util::future::join_all((0..8).map(|_| srv.get(&other))).await;
    assert!(
        many.iter()
            .all(|r| r.status == StatusCode::OK && r.body == many[0].body)
    );
    assert_ne!(many[0].body, png.body);
    let metrics = srv.state.metrics_text();
    assert!(
        metrics.lines().any(|l| l == "typepper_cards_drawn_total 2"),
        "{metrics}"
    );

    // A run that is gone has no card, and a path that is no run id none either.
    for gone in ["/r/ZZZZZZZZ/card.png", "/r/not-an-id/card.png"] {
        assert_eq!(srv.get(gone).await.status, StatusCode::NOT_FOUND, "{gone}");
    }
    // The attack: `?v=<anything>` was served for good, so a shared cache could hold
    // today's card under a later drawing's URL. Only this drawing's version is; the bare
    // URL is, for a day.
    let later = srv.get(&format!("{other}?v=99")).await;
    assert_eq!(later.status, StatusCode::NOT_FOUND);
    assert_eq!(later.header(header::CACHE_CONTROL), Some("no-store"));
    let draws = format!(
        "this server draws cards of version {}",
        typepper_server::card::VERSION
    );
    assert!(
        String::from_utf8_lossy(&later.body).contains(&draws),
        "{:?}",
        later.body
    );
    let bare = srv.get(&other).await;
    assert_eq!(bare.status, StatusCode::OK);
    assert_eq!(
        bare.header(header::CACHE_CONTROL),
        Some("public, max-age=86400")
    );
}

#[tokio::test]
async fn the_share_host_serves_share_pages_and_only_there() {
    let srv = Server::with(|c| c.share_url = "http://r.typepper.test".into()).await;
    let token = srv.link("ada").await;
    let round = blitz(1);
    let lines = srv.submit_lines(&token, entry(&round)).await;
    let [Line::Ok { id, share, .. }] = &lines[..] else {
        panic!("{lines:?}")
    };
    assert_eq!(share, &format!("http://r.typepper.test/{id}"));

    let on = |host: &'static str| {
        axum::http::Request::get(format!("/{id}"))
            .header(header::HOST, host)
            .body(Body::empty())
            .expect("a request")
    };
    let page = srv.send(on("r.typepper.test")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    assert_eq!(
        title(&page.text()),
        Some(format!("{} wpm · BLITZ 15s · typepper", claim(&round)))
    );
    let main = srv.get(&format!("/{id}")).await;
    assert_eq!(main.status, StatusCode::NOT_FOUND);
    assert_eq!(srv.get(&format!("/r/{id}")).await.status, StatusCode::OK);
    let mut missing = on("r.typepper.test");
    *missing.uri_mut() = "/ZZZZZZZZ".parse().expect("a path");
    let missing = srv.send(missing).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(missing.text().contains("This replay is gone"));
}

#[tokio::test]
async fn the_game_is_served_with_its_policy_types_and_compression() {
    let srv = Server::new().await;
    let index = srv.get("/").await;
    assert_eq!(index.status, StatusCode::OK);
    assert!(index.text().contains("<canvas id=\"game\">"));
    assert!(
        index
            .text()
            .contains(r#"<meta name="typepper-api" content="">"#)
    );
    let csp = index
        .header(header::CONTENT_SECURITY_POLICY)
        .expect("a CSP on the page");
    assert!(csp.contains("'wasm-unsafe-eval'"), "{csp}");
    assert_eq!(
        index.header(header::X_CONTENT_TYPE_OPTIONS),
        Some("nosniff")
    );

    let wasm = srv.get("/web/pkg/typepper_web_bg.wasm").await;
    assert_eq!(wasm.status, StatusCode::OK);
    assert_eq!(wasm.header(header::CONTENT_TYPE), Some("application/wasm"));
    assert_eq!(wasm.body, WASM);
    assert_eq!(
        srv.get("/web/nothing.js").await.status,
        StatusCode::NOT_FOUND
    );

    let gzipped = srv
        .send(
            request(Method::GET, "/")
                .header(header::ACCEPT_ENCODING, "gzip")
                .body(Body::empty())
                .expect("a request"),
        )
        .await;
    assert_eq!(gzipped.status, StatusCode::OK);
    assert_eq!(gzipped.header(header::CONTENT_ENCODING), Some("gzip"));
    let mut page = String::new();
    flate2::read::GzDecoder::new(&gzipped.body[..])
        .read_to_string(&mut page)
        .expect("gzip");
    assert_eq!(page, index.text());
}

#[tokio::test]
async fn a_separate_api_host_is_written_into_the_page() {
    let srv = Server::with(|c| c.api_url = "http://api.typepper.test".into()).await;
    let index = srv.get("/").await.text();
    assert!(
        index.contains(r#"<meta name="typepper-api" content="http://api.typepper.test">"#),
        "{index}"
    );
}

#[tokio::test]
async fn the_game_origin_may_call_the_api_and_others_may_not() {
    let srv = Server::new().await;
    let token = srv.link("ada").await;
    let lines = srv.submit_lines(&token, entry(&blitz(1))).await;
    let [Line::Ok { id, .. }] = &lines[..] else {
        panic!("{lines:?}")
    };
    let from = |origin: &str| {
        request(Method::GET, &format!("/v1/runs/{id}"))
            .header(header::ORIGIN, origin)
            .body(Body::empty())
            .expect("a request")
    };
    let ours = srv.send(from(PUBLIC)).await;
    assert_eq!(ours.status, StatusCode::OK);
    assert_eq!(
        ours.header(header::ACCESS_CONTROL_ALLOW_ORIGIN),
        Some(PUBLIC)
    );
    let exposed = ours
        .header(header::ACCESS_CONTROL_EXPOSE_HEADERS)
        .unwrap_or_default();
    assert!(
        exposed.contains(typepper_api::PLAYER_HEADER),
        "the game may read whose run it is: {exposed:?}"
    );
    let theirs = srv.send(from("http://evil.test")).await;
    assert_eq!(theirs.header(header::ACCESS_CONTROL_ALLOW_ORIGIN), None);

    let preflight = |origin: &str| {
        request(Method::OPTIONS, "/v1/submit")
            .header(header::ORIGIN, origin)
            .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
            .header(
                header::ACCESS_CONTROL_REQUEST_HEADERS,
                "authorization,content-type",
            )
            .body(Body::empty())
            .expect("a request")
    };
    let ok = srv.send(preflight(PUBLIC)).await;
    assert!(ok.status.is_success(), "{}", ok.status);
    assert_eq!(ok.header(header::ACCESS_CONTROL_ALLOW_ORIGIN), Some(PUBLIC));
    let methods = ok
        .header(header::ACCESS_CONTROL_ALLOW_METHODS)
        .expect("allowed methods");
    assert!(methods.contains("POST"), "{methods}");
    let headers = ok
        .header(header::ACCESS_CONTROL_ALLOW_HEADERS)
        .expect("allowed headers")
        .to_ascii_lowercase();
    assert!(headers.contains("authorization"), "{headers}");
    let refused = srv.send(preflight("http://evil.test")).await;
    assert_eq!(refused.header(header::ACCESS_CONTROL_ALLOW_ORIGIN), None);
}

#[tokio::test]
async fn expired_runs_are_gone_and_monthly_bests_stay() {
    let srv = Server::new().await;
    let token = srv.link("ada").await;
    let best = ranked_rounds(&srv, &token, &[(Mode::BLITZ_15, typist(1, 90))]).await;
    let best = best[0].clone();
    let other = blitz_at(2, 50);
    assert!(claim(&other) < claim(&best));
    let lines = srv
        .submit_lines(&token, entries(&[best.clone(), other]))
        .await;
    let [Line::Ok { id: best_id, .. }, Line::Ok { id: other_id, .. }] = &lines[..] else {
        panic!("{lines:?}")
    };

    // A week on, both are within retention.
    srv.set_time(DEC_10 + 7 * DAY);
    assert_eq!(srv.sweep().await.runs, 0);
    assert_eq!(
        srv.get(&format!("/v1/runs/{other_id}")).await.status,
        StatusCode::OK
    );

    // Nine days on, the run that is nobody's monthly best is gone; the best stays.
    srv.set_time(DEC_10 + 9 * DAY);
    let late = ranked_rounds(&srv, &token, &[(Mode::BLITZ_15, typist(3, 60))]).await;
    assert!(
        claim(&late[0]) < claim(&best),
        "so that the best stays the best"
    );
    let lines = srv.submit_lines(&token, entries(&late)).await;
    let [Line::Ok { id: fresh, .. }] = &lines[..] else {
        panic!("{lines:?}")
    };
    assert_eq!(srv.sweep().await.runs, 1);
    let gone = srv.get(&format!("/v1/runs/{other_id}")).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    let page = srv.get(&format!("/r/{other_id}")).await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    assert!(page.text().contains("This replay is gone"));

    let kept = srv.get(&format!("/v1/runs/{best_id}")).await;
    assert_eq!(kept.status, StatusCode::OK);
    assert_eq!(kept.body, best.encode());
    assert_eq!(
        srv.get(&format!("/r/{best_id}")).await.status,
        StatusCode::OK
    );
    assert_eq!(
        srv.get(&format!("/v1/runs/{fresh}")).await.status,
        StatusCode::OK
    );
    assert_eq!(srv.stored_runs(), 2);
}

/// `/web/pkg/.gitignore` was served.
#[tokio::test]
async fn dotfiles_are_never_served() {
    let srv = Server::new().await;
    let web = srv.state.config.static_dir.join("web");
    std::fs::write(web.join("pkg/.gitignore"), "*\n").expect("a dotfile");
    std::fs::create_dir_all(web.join(".git")).expect("a dot folder");
    std::fs::write(web.join(".git/config"), "[core]\n").expect("a file in it");
    for path in [
        "/web/pkg/.gitignore",
        "/web/.git/config",
        "/web/pkg/%2Egitignore",
        "/web/%2egit/config",
    ] {
        let reply = srv.get(path).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}");
    }
    assert_eq!(
        srv.get("/web/pkg/typepper_web_bg.wasm").await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_gone_runs_page_states_the_configured_retention() {
    let srv = Server::with(|c| c.retention_days = 3).await;
    let page = srv.get("/r/aaaaaaaa").await.text();
    assert!(page.contains("kept for 3 days"), "{page}");
    assert!(!page.contains("8 days"));
}

#[tokio::test]
async fn every_answer_has_a_referrer_policy_and_https_gets_hsts() {
    let srv = Server::new().await;
    let reply = srv.get("/healthz").await;
    assert_eq!(
        reply.header(header::REFERRER_POLICY),
        Some("strict-origin-when-cross-origin")
    );
    assert_eq!(
        reply.header(header::STRICT_TRANSPORT_SECURITY),
        None,
        "plain http"
    );
    let srv = Server::with(|c| c.public_url = "https://typepper.test".into()).await;
    for path in ["/", "/healthz", "/v1/boards/time:15", "/r/aaaaaaaa"] {
        let reply = srv.get(path).await;
        assert_eq!(
            reply.header(header::STRICT_TRANSPORT_SECURITY),
            Some("max-age=31536000"),
            "{path}"
        );
    }
}

#[tokio::test]
async fn metrics_count_requests_by_route_and_rounds_by_outcome() {
    let srv = Server::new().await;
    let ada = srv.link("ada").await;
    srv.submit_lines(&ada, entries(&[blitz(1), blitz(1)])).await;
    srv.submit_lines(&ada, b"\0\0\0\0junk".to_vec()).await;
    assert_eq!(
        srv.get("/v1/runs/zzzzzzzz").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        srv.get("/v1/runs/zzzzzzzz").await.status,
        StatusCode::NOT_FOUND
    );
    let text = srv.state.metrics_text();
    for line in [
        "typepper_requests_total{route=\"/v1/players\",status=\"201\"} 1",
        "typepper_requests_total{route=\"/v1/submit\",status=\"200\"} 2",
        "typepper_requests_total{route=\"/v1/runs/{id}\",status=\"404\"} 2",
        "typepper_rounds_total{outcome=\"unranked\"} 1",
        "typepper_rounds_total{outcome=\"again\"} 1",
        "typepper_rounds_total{outcome=\"unreadable\"} 1",
        "typepper_verify_seconds_count 2",
        // The second miss was answered from memory.
        "typepper_cache_hits_total 1",
    ] {
        assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
    }
    // Only on the operator's own port, never the public one.
    assert_eq!(srv.get("/metrics").await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn drills_are_kept_and_shared_but_never_ranked_seeded_or_on_a_board() {
    let srv = Server::new().await;
    let token = srv.link("ada").await;
    let drill = Mode::drill("qzx").expect("a drill");
    let round = synth(drill, 3, &Typist::default());
    let lines = srv.submit_lines(&token, entries(&[round])).await;
    let [Line::Ok { id, ranked, .. }] = &lines[..] else {
        panic!("{lines:?}")
    };
    let Ranked::No(why) = ranked else {
        panic!("{ranked:?}")
    };
    assert!(why.starts_with("drills are never ranked"), "{why}");
    assert_eq!(
        srv.get(&format!("/v1/runs/{id}")).await.status,
        StatusCode::OK
    );
    // An issued seed would be a promise the round could count: none is given.
    let seed = srv.post_seed(&token, "drill:qzx").await;
    assert_eq!(seed.status, StatusCode::BAD_REQUEST);
    assert!(
        seed.text().contains("drills are never ranked"),
        "{}",
        seed.text()
    );
    let board = srv.get("/v1/boards/drill:qzx").await;
    assert_eq!(board.status, StatusCode::NOT_FOUND);
    assert!(
        board.text().contains("no board for DRILL qzx"),
        "{}",
        board.text()
    );
    // Its share page reads as any other's.
    let page = srv.get(&format!("/r/{id}")).await.text();
    assert!(
        title(&page).is_some_and(|t| t.ends_with(" wpm · DRILL qzx · typepper")),
        "{page}"
    );
}
