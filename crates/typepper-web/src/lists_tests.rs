//! The browser's build carries no word list, English's included (run in Node by `cargo xtask test`, where the
//! engine is built as the wasm is, without its lists): a kept round whose list isn't
//! installed stays kept and names its list, and is read once the list is in.

use typepper_engine::{Input, Language, Op, Replay, hex};
use typepper_game::app::{App, Effect, Key, Now};
use typepper_game::mirror::Mirror;
use typepper_game::request::Answer;
use typepper_game::storage::{self, Stored};
use typepper_game::zone::Fixed;
use wasm_bindgen_test::wasm_bindgen_test;

fn at(mono: f64) -> Now {
    Now {
        mono,
        unix_ms: 1_796_126_400_000 + mono as u64,
    }
}

/// A ZEN round of `language`'s: three wrong letters and the end, which play whatever the
/// text is, once the list is in.
fn zen(language: Language) -> String {
    let op = |dt, op| Input { dt, op };
    let replay = Replay {
        engine: typepper_engine::VERSION,
        mode: format!("zen@{}", language.code()),
        seed: 7,
        text: None,
        inputs: vec![
            op(0, Op::Char('x')),
            op(180, Op::Char('y')),
            op(170, Op::Char('z')),
            op(400, Op::End),
        ],
    };
    hex::encode(&replay.encode())
}

#[wasm_bindgen_test]
fn a_kept_round_whose_list_is_not_installed_stays_kept_and_is_read_once_it_is() {
    assert_eq!(Language::Czech.words(), None, "the wasm carries no list");
    crate::install_english();
    let round = zen(Language::Czech);
    let line = format!("1 1796126300000 {round} -");
    let stored = Stored {
        history: format!("{line}\n"),
        outbox: vec![("outbox/1796126300000".into(), round.clone())],
        ..Stored::default()
    };
    // What the shell installs before the game starts.
    assert_eq!(
        storage::lists_needed(&stored),
        [typepper_game::request::Need::Words(Language::Czech)]
    );
    // The outbox neither sends it nor drops it: it stays where it is kept.
    let (rounds, dropped, said) = storage::parse_outbox(&stored.outbox);
    assert!(rounds.is_empty() && dropped.is_empty(), "{dropped:?}");
    assert!(said[0].contains("waits"), "{said:?}");

    let (mut app, fx) = App::new(1, &stored, None);
    assert!(!fx.iter().any(|e| matches!(e, Effect::Remove(_))), "{fx:?}");
    assert!(app.history().is_empty());
    // A round played meanwhile writes the history back with the kept line in it.
    app.key(Key::Char('z'), at(0.0));
    let words = Mirror::of(&app.model(0.0, &Fixed(0))).words;
    let first: String = words.split(' ').next().unwrap_or_default().into();
    let mut t = 100.0;
    for c in first.chars().chain([' ']) {
        app.key(Key::Char(c), at(t));
        t += 120.0;
    }
    let fx = app.key(Key::Escape, at(t));
    let kept = fx.iter().find_map(|e| match e {
        Effect::Save { key, value } if key == storage::HISTORY => Some(value.clone()),
        _ => None,
    });
    let kept = kept.expect("the history saved");
    assert_eq!(kept.lines().next(), Some(line.as_str()), "oldest first");
    assert_eq!(kept.lines().count(), 2);

    // The list comes (a player picked Czech, say): the round is read.
    let file = include_str!("../../typepper-engine/words/cs.txt");
    let answer = Answer::File {
        need: typepper_game::request::Need::Words(Language::Czech),
        file: Ok(file.into()),
    };
    app.answer(answer, at(t));
    assert!(Language::Czech.words().is_some());
    assert_eq!(app.history().len(), 2);
    assert_eq!(app.history()[0].score.mode.key(), "zen@cs");
    assert_eq!(storage::lists_needed(&stored), []);
    let (rounds, _, _) = storage::parse_outbox(&stored.outbox);
    assert_eq!(rounds.len(), 1, "sent at the next start");
}
