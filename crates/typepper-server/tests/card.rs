//! Each run's card, drawn as the server draws it: a 1200×630 PNG, the same bytes for the
//! same run, and a layout that holds for the longest texts a card can have. The cards
//! drawn are written to `target/tmp/cards/` to be looked at.

// Every value here is the test's own: a failed unwrap is a failed step, with its line.
#![allow(clippy::unwrap_used)]

use resvg::usvg;
use typepper_engine::Mode;
use typepper_engine::synth::{Typist, synth};
use typepper_server::card::{Card, Cards, HEIGHT, WIDTH};

const DAY: i64 = 1_796_154_720_000;

fn card(mode: Mode, wpm: u32, player: &str) -> Card {
    let typist = Typist {
        wpm,
        zen_ms: 20_000,
        ..Typist::default()
    };
    let replay = synth(mode, 7, &typist).encode();
    Card::of(&replay, player.into(), DAY).unwrap()
}

/// Writes `png` where a person can look at it.
fn keep(name: &str, png: &[u8]) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cards");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

#[test]
fn a_card_is_a_1200_by_630_png_the_same_for_one_run_and_another_for_another() {
    let cards = Cards::new(1 << 20);
    let ada = card(Mode::BLITZ_15, 90, "ada");
    let png = cards.draw(&ada.svg()).unwrap();
    let decoded = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (WIDTH, HEIGHT));
    assert_eq!(cards.draw(&ada.svg()).unwrap(), png, "one run, one card");
    let grace = card(Mode::BLITZ_15, 60, "grace");
    assert_ne!(cards.draw(&grace.svg()).unwrap(), png);
    keep("blitz", &png);
}

/// Every text's box on the card, as resvg lays it out with the embedded font.
fn text_boxes(svg: &str) -> Vec<(String, usvg::Rect)> {
    let mut fonts = usvg::fontdb::Database::new();
    fonts.load_font_data(include_bytes!("../fonts/JetBrainsMono-Bold.ttf").to_vec());
    let options = usvg::Options {
        fontdb: std::sync::Arc::new(fonts),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).unwrap();
    let mut boxes = vec![];
    let mut groups = vec![tree.root()];
    while let Some(group) = groups.pop() {
        for node in group.children() {
            match node {
                usvg::Node::Group(g) => groups.push(g),
                usvg::Node::Text(t) => {
                    let words: String = t.chunks().iter().map(|c| c.text()).collect();
                    boxes.push((words, t.abs_bounding_box()));
                }
                _ => {}
            }
        }
    }
    boxes
}

/// Every text box of card `name` is inside it, and apart from every other.
fn assert_laid_out(name: &str, boxes: &[(String, usvg::Rect)]) {
    for (i, (a, ab)) in boxes.iter().enumerate() {
        let inside = ab.left() >= 0.0
            && ab.top() >= 0.0
            && ab.right() <= WIDTH as f32
            && ab.bottom() <= HEIGHT as f32;
        assert!(inside, "{name}: {a:?} leaves the card: {ab:?}");
        for (b, bb) in &boxes[i + 1..] {
            let apart = ab.right() <= bb.left()
                || bb.right() <= ab.left()
                || ab.bottom() <= bb.top()
                || bb.bottom() <= ab.top();
            assert!(apart, "{name}: {a:?} {ab:?} overlaps {b:?} {bb:?}");
        }
    }
}

#[test]
fn no_text_leaves_the_card_or_overlaps_another_however_long() {
    let cards = Cards::new(1 << 20);
    let hour = Typist {
        wpm: 60,
        zen_ms: 3_600_000,
        ..Typist::default()
    };
    let zen_hour = Card::of(&synth(Mode::ZEN, 3, &hour).encode(), "ada".into(), DAY).unwrap();
    let extremes = [
        (
            "long-name",
            card(Mode::BLITZ_60, 80, "abcdefghijklmnopqrst (guest)"),
        ),
        ("299-wpm", card(Mode::BLITZ_15, 299, "ada")),
        ("zen-hour", zen_hour),
        ("drill", card(Mode::drill("qzxjkvbw").unwrap(), 70, "ada")),
        (
            "pursuit",
            card(Mode::pursuit(17).unwrap(), 120, "mmmmmmmmmmmmmmmmmmmm"),
        ),
        // The longest titles the text's settings make, in Latin and in Cyrillic.
        (
            "longest-title",
            card(
                "pursuit:20/p/n@en10k".parse().unwrap(),
                90,
                "abcdefghijklmnopqrst (guest)",
            ),
        ),
        (
            "ukrainian",
            card("words:100/p/n@uk".parse().unwrap(), 70, "ada"),
        ),
        ("french", card("time:30/p@fr".parse().unwrap(), 80, "ada")),
    ];
    for (name, card) in extremes {
        let svg = card.svg();
        let boxes = text_boxes(&svg);
        // The wordmark, the date, the headline, the title, the player, the stats and
        // three words of legend: each drawn, none cut.
        assert_eq!(boxes.len(), 9, "{name}: {boxes:?}");
        assert_laid_out(name, &boxes);
        keep(name, &cards.draw(&svg).unwrap());
    }
}

/// A profile's card: the longest name, a best in the longest title a wpm mode has, years
/// of rounds; and one with no best yet. Nothing leaves it or overlaps.
#[test]
fn a_profile_s_card_holds_the_longest_name_and_title() {
    use typepper_api::profile::{Keys, Profile, ProfileRun, Typed, chart};
    let cards = Cards::new(1 << 20);
    let best = ProfileRun {
        run: "7Xf9qyuC".into(),
        mode: "time:120/p/n@uk".into(),
        title: "time:120/p/n@uk".parse::<Mode>().unwrap().title(),
        score: 212,
        unit: "wpm".into(),
        wpm: 212.4,
        accuracy: 99.5,
        time: "2026-12-01T19:52:00Z".into(),
        ranked: true,
        daily: None,
    };
    let rounds: Vec<(u32, u32)> = (0..50_000u32)
        .map(|i| (4_000 + i % 9_000, 9_000 + i % 1_000))
        .collect();
    let profile = |bests: Vec<ProfileRun>| Profile {
        name: "abcdefghijklmnopqrst".into(),
        joined: "2025-01-01T00:00:00Z".into(),
        all: Typed {
            rounds: 50_000,
            seconds: 1_500_000,
        },
        month: Typed::default(),
        bests,
        recent: vec![],
        chart: chart(&rounds),
        keys: Keys::default(),
    };
    for (name, card) in [
        ("profile", Card::profile(&profile(vec![best]), DAY)),
        ("profile-no-best", Card::profile(&profile(vec![]), DAY)),
    ] {
        let svg = card.svg();
        let boxes = text_boxes(&svg);
        // The wordmark, the date, the headline, the title, the player, the stats and the
        // legend's two words.
        assert_eq!(boxes.len(), 8, "{name}: {boxes:?}");
        assert_laid_out(name, &boxes);
        keep(name, &cards.draw(&svg).unwrap());
    }
}

/// The font is the only one a card is drawn with, so a letter it lacks is drawn as a box:
/// every letter of every word list (and its capital, which punctuation puts at a
/// sentence's start), every language's name, and what titles and stats are written with.
#[test]
fn the_font_has_every_letter_a_title_or_a_list_holds() {
    use skrifa::MetadataProvider as _;
    let font = skrifa::FontRef::new(include_bytes!("../fonts/JetBrainsMono-Bold.ttf")).unwrap();
    let charmap = font.charmap();
    let mut text = String::from("0123456789 ,.;:!?'\"-()%·…");
    for language in typepper_engine::Language::ALL {
        let words = language.words().expect("a native build carries every list");
        text.push_str(language.name());
        for word in words {
            text.push_str(word);
            text.push_str(&word.to_uppercase());
        }
    }
    let mut missing: Vec<char> = text.chars().filter(|&c| charmap.map(c).is_none()).collect();
    missing.sort_unstable();
    missing.dedup();
    assert!(missing.is_empty(), "no glyph for {missing:?}");
}

/// A quote's card says whose the passage is and a custom text's how it starts, on a line
/// of their own that moves the stats and the chart down, and still nothing overlaps: the
/// longest attribution of every corpus, a text in Cyrillic, one of markup, and one in a
/// script the font lacks (drawn only as far as it has the letters).
#[test]
fn a_quote_or_a_custom_text_card_has_its_source_line_and_still_nothing_overlaps() {
    use typepper_engine::quotes;
    use typepper_engine::synth::synth_on;
    use typepper_engine::{QuoteNo, Round};
    let cards = Cards::new(1 << 20);
    let typist = Typist {
        wpm: 70,
        ..Typist::default()
    };
    let mut cases = vec![];
    for language in quotes::LANGUAGES {
        let passages = quotes::passages(language).unwrap();
        let (i, longest) = (passages.iter().enumerate())
            .max_by_key(|(_, p)| p.author.chars().count() + p.work.chars().count())
            .unwrap();
        let mode = Mode::quote(QuoteNo::new(i as u32 + 1).unwrap(), language).unwrap();
        let card = Card::of(&synth(mode, 7, &typist).encode(), "ada".into(), DAY).unwrap();
        let source = card
            .source
            .clone()
            .expect("a quote's card says whose it is");
        assert!(
            source.starts_with(&format!("— {}", longest.author)),
            "{source}"
        );
        cases.push((format!("quote-{}", language.code()), card));
    }
    let texts = [
        (
            "custom",
            "It was a bright cold day in April, and the clocks were striking thirteen. Winston Smith, his chin nuzzled into his breast",
        ),
        (
            "custom-ru",
            "Все счастливые семьи похожи друг на друга, каждая несчастливая семья несчастлива по-своему.",
        ),
        (
            "custom-markup",
            r#"<svg onload="x"> & </text> "quoted" with a few more words after it"#,
        ),
        (
            "custom-cjk",
            "Latin first, then 吾輩は猫である。名前はまだ無い。 and more",
        ),
    ];
    for (name, text) in texts {
        let round = Round::custom(text, 3).unwrap();
        let replay = synth_on(round, &typist).encode();
        cases.push((
            name.to_owned(),
            Card::of(&replay, "ada".into(), DAY).unwrap(),
        ));
    }
    for (name, card) in &cases {
        let svg = card.svg();
        let boxes = text_boxes(&svg);
        assert_eq!(boxes.len(), 10, "{name}: {boxes:?}");
        assert_laid_out(name, &boxes);
        keep(name, &cards.draw(&svg).unwrap());
    }
    let source = |name: &str| {
        let (_, card) = cases.iter().find(|(n, _)| n == name).unwrap();
        card.source.clone().unwrap()
    };
    assert_eq!(
        source("custom"),
        "“It was a bright cold day in April, and the clocks were…”"
    );
    assert_eq!(source("custom-cjk"), "“Latin first, then…");
    assert!(source("custom-markup").starts_with("“<svg onload=\"x\"> &"));
}
