//! CUSTOM TEXT rounds (issue 41): a player's own text, carried by the replay itself
//! (format 2). Stored like any round, with its share link, its page and its card, served
//! back byte for byte; never ranked, seeded or on a board. And what an attacker tried
//! with a text of their own, each a test named after the attempt.

use axum::http::{StatusCode, header};
use typepper_api::{Line, Ranked};
use typepper_engine::synth::{Typist, synth_on};
use typepper_engine::{Mode, Op, Replay, Round};

use super::support::*;

/// Words of the English list, drawn by `seed`, joined by spaces to at least `chars`
/// characters: a text a person might paste.
fn prose(seed: u64, chars: usize) -> String {
    let mut text = String::new();
    for word in typepper_engine::text::words(seed) {
        if text.len() >= chars {
            break;
        }
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(&word);
    }
    text
}

/// A CUSTOM TEXT round on `text`, typed by `typist`, on the game's own `seed`.
fn custom(text: &str, seed: u64, typist: &Typist) -> Replay {
    let round = Round::custom(text, seed).unwrap_or_else(|e| panic!("{e}: {text:?}"));
    synth_on(round, typist)
}

/// Submits one round, expecting it stored: its id and standing.
async fn stored(srv: &Server, token: &str, round: &Replay) -> (String, Ranked) {
    let lines = srv.submit_lines(token, entry(round)).await;
    let [Line::Ok { id, ranked, .. }] = &lines[..] else {
        panic!("one stored run on {}: {lines:?}", srv.backend());
    };
    (id.clone(), ranked.clone())
}

/// Submits `body` of one entry, expecting a `no` line of `kind` whose sentence starts
/// with `why`, and nothing stored.
async fn refused(srv: &Server, token: &str, body: Vec<u8>, kind: &str, why: &str) {
    let before = srv.stored_runs();
    let lines = srv.submit_lines(token, body).await;
    let [
        Line::No {
            kind: Some(got),
            why: said,
        },
    ] = &lines[..]
    else {
        panic!("one refusal on {}: {lines:?}", srv.backend());
    };
    assert_eq!(*got, kind, "{said}");
    assert!(said.starts_with(why), "{said:?} on {}", srv.backend());
    assert_eq!(srv.stored_runs(), before, "nothing stored for {said:?}");
}

/// A submission of `replay` with a claim of 50: a round refused before it is scored has
/// no true claim.
fn entry_of(replay: &Replay) -> Vec<u8> {
    typepper_api::submission([(50, &replay.encode()[..])])
}

const NEVER: &str = "custom texts are never ranked";

#[tokio::test]
async fn a_custom_round_is_stored_shared_and_served_back_but_never_ranked() {
    for srv in Server::each(|_| {}).await {
        let ada = srv.link("ada").await;
        let text = "It was a bright cold day in April, and the clocks were striking thirteen.";
        let round = custom(text, 41, &typist(41, 70));
        let (id, ranked) = stored(&srv, &ada, &round).await;
        let Ranked::No(why) = &ranked else {
            panic!("{ranked:?}");
        };
        assert!(why.starts_with(NEVER), "{why}");

        // A friend who opens the link gets the round, text and all: format 2's bytes.
        let served = srv.get(&format!("/v1/runs/{id}")).await;
        assert_eq!(served.status, StatusCode::OK);
        assert_eq!(served.body, round.encode());
        assert_eq!(served.body[3], typepper_engine::replay::FORMAT_2);
        assert_eq!(
            Replay::decode(&served.body).unwrap().text.as_deref(),
            Some(text)
        );

        // Its page names the mode and shows how the text starts.
        let page = srv.get(&format!("/r/{id}")).await;
        assert_eq!(page.status, StatusCode::OK);
        let html = page.text();
        assert_eq!(
            title(&html),
            Some(format!("{} wpm · CUSTOM TEXT · typepper", claim(&round)))
        );
        let described = meta(&html, "property", "og:description").unwrap();
        assert!(
            described.contains("in CUSTOM TEXT at")
                && described.contains("The text: “It was a bright cold day in April"),
            "{described}"
        );
        assert!(described.ends_with("or race it."), "{described}");
        assert_only_template_tags(&html);
        let card = srv.get(&format!("/r/{id}/card.png")).await;
        assert_eq!(card.status, StatusCode::OK);
        assert_eq!(card.header(header::CONTENT_TYPE), Some("image/png"));

        // No board, no seed: there is nothing to rank.
        let board = srv.get("/v1/boards/custom").await;
        assert_eq!(board.status, StatusCode::NOT_FOUND);
        assert!(
            board
                .text()
                .starts_with("no board for CUSTOM TEXT: custom texts are never"),
            "{}",
            board.text()
        );
        let seed = srv.post_seed(&ada, "custom").await;
        assert_eq!(seed.status, StatusCode::BAD_REQUEST);
        assert!(seed.text().contains(NEVER), "{}", seed.text());
    }
}

/// The attempt: a custom text (an easy one, say `a a a …`) sent on a seed the server
/// issued for BLITZ, in the hope that the seed makes it count. It is unranked, and the
/// seed is still the BLITZ round's to use.
#[tokio::test]
async fn a_custom_round_on_an_issued_seed_is_unranked_and_leaves_the_seed() {
    for srv in Server::each(|_| {}).await {
        let ada = srv.link("ada").await;
        let seed = srv.issue(&ada, Mode::BLITZ_15).await;
        srv.later(60_000);
        let easy = vec!["a"; 60].join(" ");
        let round = custom(&easy, seed, &typist(3, 90));
        let (_, ranked) = stored(&srv, &ada, &round).await;
        assert!(
            matches!(&ranked, Ranked::No(why) if why.starts_with(NEVER)),
            "{ranked:?}"
        );
        // Claimed as a BLITZ round on the same seed: the header's mode is the text's,
        // and a text is only a custom round's.
        let blitz_with_text = Replay {
            mode: Mode::BLITZ_15.key(),
            ..round.clone()
        };
        refused(
            &srv,
            &ada,
            entry_of(&blitz_with_text),
            "bad_text",
            "the replay carries a text, which only a CUSTOM TEXT round does",
        )
        .await;
        let blitz = synth_on(Round::new(Mode::BLITZ_15, seed), &typist(4, 80));
        let (_, ranked) = stored(&srv, &ada, &blitz).await;
        assert_eq!(ranked, Ranked::Yes, "the seed was still unused");
        assert_eq!(
            srv.get("/v1/boards/custom").await.status,
            StatusCode::NOT_FOUND
        );
    }
}

/// The attempt: a text whose accents are written apart from their letters (`e` and
/// U+0301 for `é`), which reads the same on a page but is another text to the fingerprint
/// and to a typist. The engine can't decide NFC without Unicode's tables; the server
/// refuses it, and reads on past it.
#[tokio::test]
async fn a_custom_text_padded_with_decomposed_accents_is_refused() {
    let srv = Server::new().await;
    let ada = srv.link("ada").await;
    let text = "Le cafe\u{301} e\u{301}tait de\u{301}ja\u{300} froid quand elle est arrive\u{301}e";
    assert!(
        typepper_engine::text::check(text).is_ok(),
        "the engine lets it by"
    );
    let round = custom(text, 5, &typist(5, 60));
    refused(
        &srv,
        &ada,
        entry_of(&round),
        "bad_text",
        "the text is not in Unicode NFC",
    )
    .await;
    // The body goes on after it: the round after it is judged and stored.
    let composed = "Le café était déjà froid quand elle est arrivée, et personne ne le but";
    let good = custom(composed, 6, &typist(6, 60));
    let body = typepper_api::submission([
        (50, &round.encode()[..]),
        (claim(&good), &good.encode()[..]),
    ]);
    let lines = srv.submit_lines(&ada, body).await;
    assert!(
        matches!(
            &lines[..],
            [
                Line::No {
                    kind: Some("bad_text"),
                    ..
                },
                Line::Ok { .. }
            ]
        ),
        "{lines:?}"
    );
}

/// The attempt: a right-to-left override in a text, so that a share page shows words
/// other than the ones played (`gnp.exe` as `exe.png`). No key types it.
#[tokio::test]
async fn a_custom_text_with_a_right_to_left_override_is_refused() {
    let srv = Server::new().await;
    let ada = srv.link("ada").await;
    for control in ['\u{202e}', '\u{2066}', '\u{200f}'] {
        let text = format!("open the file named {control}gnp.exe and then type the rest of it");
        let round = custom(&text, 7, &typist(7, 60));
        let why = format!(
            "the text holds U+{:04X}, a control or invisible character",
            u32::from(control)
        );
        refused(&srv, &ada, entry_of(&round), "bad_text", &why).await;
    }
}

#[tokio::test]
async fn a_format_2_replay_whose_mode_is_not_custom_is_refused() {
    let srv = Server::new().await;
    let ada = srv.link("ada").await;
    let text = prose(8, 120);
    let round = custom(&text, 8, &typist(8, 70));
    for key in ["time:15", "words:10", "zen", "quote:1"] {
        let forged = Replay {
            mode: key.into(),
            ..round.clone()
        };
        refused(
            &srv,
            &ada,
            entry_of(&forged),
            "bad_text",
            "the replay carries a text, which only a CUSTOM TEXT round does",
        )
        .await;
    }
    // And a custom round without its text: format 1's `custom`.
    let bare = Replay {
        text: None,
        ..round
    };
    refused(
        &srv,
        &ada,
        entry_of(&bare),
        "bad_text",
        "a CUSTOM TEXT replay carries its text (format 2), and this one has none",
    )
    .await;
    srv.still_serves(&ada, 9).await;
}

/// The attempt: someone's custom round sent as one's own, as it is, with another seed
/// (a custom text's seed draws nothing, so it is free to change), or with another first
/// gap. A custom text's rounds are known by the text, whatever their seed.
#[tokio::test]
async fn a_copy_of_someones_custom_run_is_refused_whatever_its_seed() {
    for srv in Server::each(|_| {}).await {
        let ada = srv.link("ada").await;
        let grace = srv.link("grace").await;
        let text = prose(10, 400);
        let round = custom(&text, 10, &typist(10, 80));
        let (id, _) = stored(&srv, &ada, &round).await;
        let copy_of = format!("a copy of run {id}");
        let reseeded = Replay {
            seed: 11,
            ..round.clone()
        };
        let mut later = reseeded.clone();
        later.inputs[0].dt = 1_500;
        for copy in [&round, &reseeded, &later] {
            refused(&srv, &grace, entry(copy), "copy", &copy_of).await;
        }
        // Ada's own round sent again, on another seed: the run it already is.
        let lines = srv.submit_lines(&ada, entry(&reseeded)).await;
        assert!(
            matches!(&lines[..], [Line::Ok { id: again, .. }] if *again == id),
            "{lines:?}"
        );
        // Grace typing the same text herself is her own round.
        let hers = custom(&text, 10, &typist(12, 95));
        stored(&srv, &grace, &hers).await;
    }
}

/// 10,000 characters of text that a round skips through: a word's first letter and a
/// space end it, so a few keys a word reach the end of any text.
fn skimmed(text: &str, seed: u64) -> Replay {
    let mut round = Round::custom(text, seed).unwrap();
    let mut t = 0;
    let words: Vec<char> = text.split(' ').filter_map(|w| w.chars().next()).collect();
    for (i, first) in words.iter().enumerate() {
        for op in [Op::Char(*first), Op::Char(' ')] {
            t += 90 + (i as u32 * 37) % 120;
            if round.apply(t, op).map(|fx| fx.finished).unwrap_or(true) {
                return round.replay();
            }
        }
    }
    round.replay()
}

/// The attempt: a body of 10,000-character texts, each round typing one letter a word,
/// to store kilobytes of text for a few keystrokes each, again and again. A custom
/// round types at least half its text, or it is refused before anything is stored.
#[tokio::test]
async fn a_flood_of_ten_thousand_character_texts_barely_typed_is_refused() {
    for srv in Server::each(|_| {}).await {
        let ada = srv.link("ada").await;
        let rounds: Vec<Replay> = (0..20)
            .map(|i| {
                let text = prose(100 + i, typepper_engine::MAX_TEXT_CHARS - 20);
                assert!(text.chars().count() <= typepper_engine::MAX_TEXT_CHARS);
                skimmed(&text, i)
            })
            .collect();
        let encoded: Vec<Vec<u8>> = rounds.iter().map(Replay::encode).collect();
        let body = typepper_api::submission(encoded.iter().map(|b| (50, &b[..])));
        assert!(body.len() > 200_000, "{} bytes", body.len());
        let lines = srv.submit_lines(&ada, body).await;
        assert_eq!(lines.len(), rounds.len());
        for line in &lines {
            let Line::No { kind, why } = line else {
                panic!("{line:?}");
            };
            assert_eq!(*kind, Some("too_little"), "{why}");
            assert!(
                why.starts_with("too little of the text typed to keep"),
                "{why}"
            );
        }
        assert_eq!(srv.stored_runs(), 0);
        srv.still_serves(&ada, 12).await;
    }
}

/// The attempt, typed: long texts typed whole fill the player's daily bytes, which count
/// the text with the keys, and then nothing more is stored that day.
#[tokio::test]
async fn a_flood_of_ten_thousand_character_texts_fills_the_daily_quota_not_the_disk() {
    let quota = 96 * 1024;
    let srv = Server::with(|c| c.daily_bytes = quota).await;
    let ada = srv.link("ada").await;
    let mut stored_bytes = 0;
    for i in 0.. {
        let text = prose(200 + i, typepper_engine::MAX_TEXT_CHARS - 20);
        let round = custom(&text, i, &typist(i, 120));
        let bytes = round.encode().len() as u64;
        assert!(bytes > 10_000, "the text is in the replay: {bytes} bytes");
        let reply = srv.submit(&ada, entry(&round)).await;
        if reply.status == StatusCode::TOO_MANY_REQUESTS {
            assert!(
                reply.text().starts_with("today's quota is full"),
                "{}",
                reply.text()
            );
            assert!(stored_bytes + bytes > quota, "refused only past the quota");
            break;
        }
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
        assert!(
            matches!(&reply.lines()[..], [Line::Ok { .. }]),
            "{}",
            reply.text()
        );
        stored_bytes += bytes;
        assert!(i < 20, "the quota never filled");
    }
    assert!(stored_bytes <= quota);
    let kept = srv.count("SELECT coalesce(sum(length(replay)), 0) FROM runs");
    assert_eq!(kept as u64, stored_bytes);
}

/// A text is anything a player pastes, markup included: the page and the card show it
/// as text.
#[tokio::test]
async fn a_custom_text_of_markup_is_shown_as_text() {
    let srv = Server::new().await;
    let ada = srv.link("ada").await;
    let text = r#"<script>alert("typed")</script> & <img src=x onerror=alert(1)> "quoted" 'too' and then some plain words"#;
    let round = custom(text, 13, &typist(13, 60));
    let (id, _) = stored(&srv, &ada, &round).await;
    let html = srv.get(&format!("/r/{id}")).await.text();
    assert_only_template_tags(&html);
    let described = meta(&html, "property", "og:description").unwrap();
    assert!(
        described.contains(r#"“<script>alert("typed")</script> &"#),
        "{described}"
    );
    let card = srv.get(&format!("/r/{id}/card.png")).await;
    assert_eq!(card.status, StatusCode::OK, "{}", card.text());
}

/// A round typed on a text of its own is no shorter than its text: under 3 s is kept,
/// as a WORDS round is, if it has its keystrokes.
#[tokio::test]
async fn a_short_custom_text_typed_in_under_3_s_is_kept() {
    let srv = Server::new().await;
    let ada = srv.link("ada").await;
    let text = "quick brown foxes jump over lazy dogs";
    let fast = Typist {
        accuracy: 100,
        ..typist(14, 200)
    };
    let round = custom(text, 14, &fast);
    let (_, score) = round.play().unwrap();
    assert!(score.duration_ms < 3_000, "{} ms", score.duration_ms);
    stored(&srv, &ada, &round).await;
    // Too few keystrokes are still too few.
    let tiny = custom("short words", 15, &fast);
    refused(
        &srv,
        &ada,
        entry(&tiny),
        "too_little",
        "too little typing to keep",
    )
    .await;
}
