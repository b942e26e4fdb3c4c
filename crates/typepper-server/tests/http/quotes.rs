//! QUOTE rounds (issue 41): a board per passage, and ranked rounds on seeds the server
//! issued for a passage the player was never shown, asked for by length. And what an
//! attacker tried with passages anyone can read, each a test named after the attempt.
//!
//! The corpora are data that will grow: nothing here names a passage or counts on how
//! many there are; each test reads them from `quotes::passages`, and the tests on issued
//! seeds take whatever passage the server picks.

use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use typepper_api::{Line, Ranked};
use typepper_engine::quotes::{self, Length, Passage};
use typepper_engine::synth::synth;
use typepper_engine::{Base, Language, Mode, QuoteNo, Replay};

use super::support::*;

/// `language`'s passages.
fn passages(language: Language) -> &'static [Passage] {
    quotes::passages(language).expect("a native build carries every corpus")
}

/// Passage `n` of `language`, as a mode.
fn quote(n: usize, language: Language) -> Mode {
    QuoteNo::new(n as u32)
        .and_then(|n| Mode::quote(n, language))
        .expect("a quote")
}

/// The passage a quote's mode plays.
fn passage_of(mode: Mode) -> &'static Passage {
    let Base::Quote(n) = mode.base() else {
        panic!("{mode} is no quote");
    };
    quotes::passage(mode.prose().language, n).expect("a passage the corpus has")
}

/// `POST /v1/seeds` for a quote of `ask` (`quote:short@de`), expecting one: the
/// passage's mode, as the answer names it, and the seed.
async fn quote_seed(srv: &Server, token: &str, ask: &str) -> (Mode, u64) {
    let reply = srv.post_seed(token, ask).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{ask}: {}", reply.text());
    let issued: typepper_api::IssuedSeed = serde_json::from_slice(&reply.body).unwrap();
    let mode: Mode = issued.mode.parse().unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(mode.base(), Base::Quote(_)), "{mode}");
    (mode, issued.seed)
}

/// A round `typist` types on an issued quote, sent once it could have been played.
async fn typed(srv: &Server, mode: Mode, seed: u64, wpm: u32) -> Replay {
    let round = synth(mode, seed, &typist(seed ^ u64::from(wpm), wpm));
    let (_, score) = round.play().expect("a synthetic round plays");
    srv.later(i64::from(score.duration_ms) + 1_000);
    round
}

/// Submits one round, expecting it stored: its id and standing.
async fn stored(srv: &Server, token: &str, round: &Replay) -> (String, Ranked) {
    let lines = srv.submit_lines(token, entry(round)).await;
    let [Line::Ok { id, ranked, .. }] = &lines[..] else {
        panic!("one stored run on {}: {lines:?}", srv.backend());
    };
    (id.clone(), ranked.clone())
}

/// The runs of `mode`'s board this month.
async fn board_runs(srv: &Server, key: &str) -> Vec<String> {
    let reply = srv.get(&format!("/v1/boards/{key}")).await;
    assert_eq!(reply.status, StatusCode::OK, "{key}: {}", reply.text());
    let json = reply.json();
    (json["rows"].as_array().expect("rows").iter())
        .map(|r| r["run"].as_str().expect("a run").to_owned())
        .collect()
}

/// How many passages of `language` are of `length` (any, for `None`).
fn of_length(language: Language, length: Option<Length>) -> usize {
    (passages(language).iter())
        .filter(|p| length.is_none_or(|l| p.length() == l))
        .count()
}

#[tokio::test]
async fn a_quote_seed_is_a_passage_never_shown_that_ranks_on_its_own_board() {
    for srv in Server::each(|_| {}).await {
        let ada = srv.link("ada").await;
        // English, and another language's, whose key carries its `@`.
        let other = quotes::LANGUAGES[1];
        let other_ask = format!("quote:any@{}", other.code());
        for (ask, language) in [("quote:any", Language::English), (&other_ask[..], other)] {
            let (mode, seed) = quote_seed(&srv, &ada, ask).await;
            assert_eq!(mode.prose().language, language, "{ask}");
            let round = typed(&srv, mode, seed, 70).await;
            let (id, ranked) = stored(&srv, &ada, &round).await;
            assert_eq!(ranked, Ranked::Yes, "{mode} on {}", srv.backend());

            // Its board is the passage's, at its key as it is or percent-encoded.
            let key = mode.key();
            assert_eq!(board_runs(&srv, &key).await, std::slice::from_ref(&id));
            let encoded = key.replace(':', "%3A").replace('@', "%40");
            assert_eq!(board_runs(&srv, &encoded).await, std::slice::from_ref(&id));
            let board = srv.get(&format!("/v1/boards/{key}")).await.json();
            assert_eq!(board["title"], mode.title());
            assert_eq!(board["unit"], "wpm");

            // Its page and card say whose the passage is.
            let passage = passage_of(mode);
            let html = srv.get(&format!("/r/{id}")).await.text();
            let headline = round.play().unwrap().1.headline();
            assert_eq!(
                title(&html),
                Some(format!("{headline} · {} · typepper", mode.title()))
            );
            let by = match passage.work {
                "" => format!("— {}", passage.author),
                work => format!("— {}, {work}", passage.author),
            };
            assert!(unescape(&html).contains(&by), "{by}: {html}");
            let described = meta(&html, "property", "og:description").unwrap();
            assert!(
                described.contains(&format!("The passage: {}", passage.author)),
                "{described}"
            );
            assert_only_template_tags(&html);
            let card = srv.get(&format!("/r/{id}/card.png")).await;
            assert_eq!(card.status, StatusCode::OK);
        }
        let shown = srv.count("SELECT count(*) FROM shown_quotes");
        assert_eq!(shown, 2, "each passage issued is remembered as shown");
    }
}

/// The attempt: asking for seed after seed, to see every passage and keep asking until
/// an easy one comes round again. Each passage is issued once per player; then the
/// server says they have seen them all.
#[tokio::test]
async fn asking_for_seeds_until_every_passage_is_shown_runs_out_with_a_sentence() {
    let lengths = [Length::Short, Length::Medium, Length::Long];
    let english = Language::English;
    // The length with the fewest passages (of those it has), to ask through them all.
    let length = (lengths.into_iter())
        .filter(|&l| of_length(english, Some(l)) > 0)
        .min_by_key(|&l| of_length(english, Some(l)))
        .expect("some quote in English");
    let count = of_length(english, Some(length));
    for srv in Server::each(|_| {}).await {
        let ada = srv.link("ada").await;
        let ask = format!("quote:{}", length.name());
        let mut seen = std::collections::HashSet::new();
        for _ in 0..count {
            let (mode, _) = quote_seed(&srv, &ada, &ask).await;
            assert_eq!(passage_of(mode).length(), length, "{mode}");
            assert!(seen.insert(mode.key()), "{mode} issued twice");
        }
        let more = srv.post_seed(&ada, &ask).await;
        assert_eq!(more.status, StatusCode::CONFLICT, "{}", more.text());
        let want = format!(
            "you were shown every one of the {count} {} quotes in english",
            length.name()
        );
        assert!(more.text().starts_with(&want), "{}", more.text());
        // Another player has every passage before them.
        let grace = srv.link("grace").await;
        quote_seed(&srv, &grace, &ask).await;
        // Ada has the other lengths' passages, if any, and a length with none says so.
        for other in lengths {
            let left = of_length(english, Some(other));
            let reply = srv
                .post_seed(&ada, &format!("quote:{}", other.name()))
                .await;
            let want = match (other == length, left) {
                (true, _) => StatusCode::CONFLICT,
                (false, 0) => StatusCode::NOT_FOUND,
                (false, _) => StatusCode::CREATED,
            };
            assert_eq!(reply.status, want, "{}: {}", other.name(), reply.text());
        }
    }
}

/// The attempt: a passage practised offline (or typed on a seed of one's choosing), sent
/// in the hope that it ranks. It is stored unranked, and counts as shown: no seed is
/// issued for it after.
#[tokio::test]
async fn a_quote_typed_on_a_seed_not_issued_is_unranked_and_shown() {
    for srv in Server::each(|_| {}).await {
        let ada = srv.link("ada").await;
        let mode = quote(passages(Language::English).len(), Language::English);
        let practised = synth(mode, 5, &typist(5, 80));
        let (_, ranked) = stored(&srv, &ada, &practised).await;
        assert_eq!(
            ranked,
            Ranked::No("not played on a seed the server issued to you".into())
        );
        assert!(board_runs(&srv, &mode.key()).await.is_empty());
        let shown = format!(
            "SELECT count(*) FROM shown_quotes WHERE mode = '{}'",
            mode.key()
        );
        assert_eq!(srv.count(&shown), 1);
        // Every other English passage is still to be issued; that one never is.
        for _ in 1..passages(Language::English).len() {
            let (issued, _) = quote_seed(&srv, &ada, "quote:any").await;
            assert_ne!(issued, mode);
        }
        let none = srv.post_seed(&ada, "quote:any").await;
        assert_eq!(none.status, StatusCode::CONFLICT, "{}", none.text());
    }
}

/// The attempt: the seed of one passage spent on another, easier one.
#[tokio::test]
async fn a_quote_on_a_seed_issued_for_another_passage_is_unranked() {
    let srv = Server::new().await;
    let ada = srv.link("ada").await;
    let (mode, seed) = quote_seed(&srv, &ada, "quote:any").await;
    let other = (1..=passages(Language::English).len())
        .map(|n| quote(n, Language::English))
        .find(|&m| m != mode)
        .expect("two passages in English");
    let round = typed(&srv, other, seed, 75).await;
    let (_, ranked) = stored(&srv, &ada, &round).await;
    assert_eq!(
        ranked,
        Ranked::No(format!("its seed was issued for {}", mode.title()))
    );
    // The seed is still its passage's first try.
    let round = typed(&srv, mode, seed, 75).await;
    assert_eq!(stored(&srv, &ada, &round).await.1, Ranked::Yes);
}

/// The attempt: asking for the seed of a passage one has practised, by its number. A
/// quote's seed is asked for by length, and the server picks.
#[tokio::test]
async fn a_seed_for_a_chosen_quote_is_refused() {
    let srv = Server::new().await;
    let ada = srv.link("ada").await;
    for (ask, why) in [
        ("quote:1", "a quote's seed is asked for by its length"),
        ("quote:1@de", "a quote's seed is asked for by its length"),
        ("quote:short/p", "a quote's seed is asked for by its length"),
        (
            "quote:shortest",
            "a quote's seed is asked for by its length",
        ),
        ("quote:any@fr", "there are no quotes in \"fr\""),
        ("quote:any@en", "there are no quotes in \"en\""),
    ] {
        let reply = srv.post_seed(&ada, ask).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{ask}");
        assert!(reply.text().contains(why), "{ask}: {}", reply.text());
    }
    assert_eq!(srv.count("SELECT count(*) FROM seeds"), 0);
}

/// `quote:0`, `quote:99999`, `quote:1/p`, a language without quotes, and a number past
/// the corpus: no board, and a round carrying one is refused as a mode this build lacks.
#[tokio::test]
async fn quote_keys_past_the_grammar_or_the_corpus_name_no_board_and_no_round() {
    let srv = Server::new().await;
    let ada = srv.link("ada").await;
    let past = passages(Language::German).len() + 1;
    let cases = [
        (
            "quote:0".to_owned(),
            "this build has no mode \"quote:0\"".to_owned(),
        ),
        (
            "quote:99999".into(),
            "this build has no mode \"quote:99999\"".into(),
        ),
        ("quote:1/p".into(), "quotes take no /p or /n".into()),
        (
            "quote:1@fr".into(),
            "there are no quotes in français".into(),
        ),
        (
            format!("quote:{past}@de"),
            format!("there is no quote #{past} in deutsch"),
        ),
    ];
    for (key, why) in &cases {
        let board = srv.get(&format!("/v1/boards/{key}")).await;
        assert_eq!(board.status, StatusCode::NOT_FOUND, "{key}");
        assert!(board.text().starts_with("no board: "), "{}", board.text());
        assert!(
            board.text().contains(why.as_str()),
            "{key}: {}",
            board.text()
        );
        let round = Replay {
            mode: key.clone(),
            ..blitz(3)
        };
        let lines = srv
            .submit_lines(&ada, typepper_api::submission([(50, &round.encode()[..])]))
            .await;
        let [Line::No { kind, why: said }] = &lines[..] else {
            panic!("{lines:?}");
        };
        assert_eq!(*kind, Some("unknown_mode"), "{key}: {said}");
        assert!(said.contains(why.as_str()), "{key}: {said}");
        let seed = srv.post_seed(&ada, key).await;
        assert_eq!(seed.status, StatusCode::BAD_REQUEST, "{key}");
    }
    assert_eq!(srv.stored_runs(), 0);
    srv.still_serves(&ada, 4).await;
}

/// The attempt: the best run on a passage, copied key for key by a player once the
/// server issues them that passage (or on any seed: a quote's seed draws nothing).
#[tokio::test]
async fn a_copy_of_a_quote_run_on_ones_own_issued_seed_is_refused() {
    for srv in Server::each(|_| {}).await {
        let ada = srv.link("ada").await;
        let grace = srv.link("grace").await;
        let (mode, seed) = quote_seed(&srv, &ada, "quote:any").await;
        let round = typed(&srv, mode, seed, 85).await;
        let (id, _) = stored(&srv, &ada, &round).await;
        // Grace asks until the server issues her that passage.
        let grace_seed = loop {
            let (issued, seed) = quote_seed(&srv, &grace, "quote:any").await;
            if issued == mode {
                break seed;
            }
        };
        srv.later(600_000);
        for seed in [grace_seed, 12_345] {
            let copy = Replay {
                seed,
                ..round.clone()
            };
            let lines = srv.submit_lines(&grace, entry(&copy)).await;
            let [Line::No { kind, why }] = &lines[..] else {
                panic!("{lines:?} on {}", srv.backend());
            };
            assert_eq!(
                (*kind, why.as_str()),
                (Some("copy"), &*format!("a copy of run {id}"))
            );
        }
        assert_eq!(board_runs(&srv, &mode.key()).await, [id]);
    }
}

/// A room races on a text the server has: a quote past the corpus is refused before a
/// room is opened, and so is a custom text a submission would refuse (one not in NFC,
/// one with a right-to-left override), whose racers' rounds could never be stored.
#[tokio::test]
async fn a_room_on_a_quote_the_corpus_lacks_or_a_text_the_server_refuses_is_refused() {
    let srv = Server::new().await;
    let past = passages(Language::English).len() + 1;
    for (open, why) in [
        (
            serde_json::json!({ "mode": format!("quote:{past}") }),
            format!("there is no quote #{past} in english"),
        ),
        (
            serde_json::json!({ "mode": "custom", "text": "un cafe\u{301} noir et deux croissants" }),
            "the text is not in Unicode NFC".to_owned(),
        ),
        (
            serde_json::json!({ "mode": "custom", "text": "open \u{202e}gnp.exe now and type it" }),
            "the text holds U+202E".to_owned(),
        ),
    ] {
        let reply = srv
            .send(
                request(Method::POST, "/v1/rooms")
                    .header(header::CONTENT_TYPE, "application/json")
                    .body(Body::from(open.to_string()))
                    .unwrap(),
            )
            .await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{open}: {}",
            reply.text()
        );
        assert!(reply.text().contains(&why), "{open}: {}", reply.text());
    }
}

/// Every passage a seed can be issued for can be stored: a quote's round is at least its
/// text's keystrokes, and a run needs 20.
#[test]
fn every_passage_is_long_enough_to_keep() {
    for language in quotes::LANGUAGES {
        for (i, p) in passages(language).iter().enumerate() {
            let chars = p.text.chars().count() as u32;
            assert!(
                chars >= typepper_server::submit::MIN_KEYS,
                "{} #{}: {chars} characters",
                language.code(),
                i + 1
            );
        }
    }
}
