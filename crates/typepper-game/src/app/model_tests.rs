//! The model of each screen, as the app makes it.

use crate::app::menu::NOT_LINKED;
use crate::app::{self, App, Effect, Key, Now};
use crate::model::*;
use crate::storage::{self, Stored};
use crate::zone::Fixed;
use typepper_api::{BoardRow, Period, Player};
use typepper_engine::quotes::Length;
use typepper_engine::{Hundredths, Mode, WordStatus};

const UTC: Fixed = Fixed(0);

fn at(mono: f64) -> Now {
    Now {
        mono,
        unix_ms: 1_796_154_720_000 + mono as u64,
    }
}

fn fresh() -> App {
    App::new(7, &Stored::default(), None).0
}

/// Types the current word and a space, 100 ms a key.
fn type_word(app: &mut App, t: &mut f64) {
    let Body::Play(play) = app.model(*t, &UTC).body else {
        panic!("not playing")
    };
    for c in play
        .word(play.caret.0)
        .unwrap()
        .target()
        .chars()
        .chain([' '])
    {
        app.key(Key::Char(c), at(*t));
        *t += 100.0;
    }
}

#[test]
fn the_menu_lists_the_modes_and_who_plays() {
    let mut app = fresh();
    let m = app.model(0.0, &UTC);
    assert_eq!((m.kind.name(), m.banner, m.notice), ("menu", None, None));
    let Body::Menu(menu) = m.body else { panic!() };
    let titles: Vec<String> = menu.items.iter().map(MenuItem::title).collect();
    assert_eq!(
        titles,
        [
            "BLITZ 15s",
            "WORDS 25",
            "ZEN",
            "HOT PURSUIT from lv7",
            "QUOTE short · english",
            "CUSTOM TEXT: paste your own",
            "language: english",
            "punctuation: off",
            "numbers: off"
        ]
    );
    assert_eq!(menu.selected, 0);
    assert_eq!((menu.tone(0), menu.tone(1)), (Tone::Accent, Tone::Text));
    assert_eq!(menu.player, NOT_LINKED);
    assert_eq!(menu.last_round, None);
    app.player = Some(Player {
        name: "ada".into(),
        token: "t".into(),
    });
    app.key(Key::Down, at(0.0));
    let Body::Menu(menu) = app.model(0.0, &UTC).body else {
        panic!()
    };
    assert_eq!((menu.selected, menu.player.as_str()), (1, "linked as ada"));
}

#[test]
fn the_play_model_says_the_clock_heat_and_words_and_changes_with_each_key() {
    let mut app = fresh();
    app.key(Key::Char('1'), at(0.0));
    let before = app.model(500.0, &UTC);
    assert_eq!(
        before,
        app.model(900.0, &UTC),
        "nothing moves before the first key"
    );
    assert_eq!(before.kind.name(), "playing");
    let Body::Play(play) = &before.body else {
        panic!()
    };
    assert_eq!(play.status(), "BLITZ 15s · 15 s left · heat 0 BELL PEPPER");
    assert_eq!(play.clock.big(), "15");
    assert!(play.prompt.is_some() && !play.started);
    assert_eq!(
        play.clock_tone(),
        Tone::Dim,
        "the clock waits for the first key"
    );
    assert_eq!((play.first, play.caret), (0, (0, 0)));
    assert!(play.words.len() >= typepper_engine::LOOKAHEAD);
    let mut t = 1000.0;
    type_word(&mut app, &mut t);
    let after = app.model(t, &UTC);
    assert_ne!(after, before);
    let Body::Play(play) = &after.body else {
        panic!()
    };
    assert_eq!(play.caret, (1, 0));
    assert!(play.started && play.prompt.is_none());
    assert_eq!(play.clock_tone(), Tone::Accent);
    assert_eq!(play.words[0].status, WordStatus::Done { correct: true });
    // The word typed right is in the text's colour, the next still dim.
    let tones =
        |w: &Word| -> Vec<Tone> { (0..w.glyphs.len()).map(|g| play.glyph_tone(w, g)).collect() };
    assert!(tones(&play.words[0]).iter().all(|&t| t == Tone::Text));
    assert!(tones(&play.words[1]).iter().all(|&t| t == Tone::Dim));
    assert_eq!(play.clock, Clock::Left(15 - ((t as u32 - 1000) / 1000)));
    // A second later only the clock moved.
    let later = app.model(t + 1000.0, &UTC);
    let Body::Play(later) = &later.body else {
        panic!()
    };
    assert_eq!(later.words, play.words);
    assert_ne!(later.clock, play.clock);
}

#[test]
fn d_is_offered_only_with_a_drill_saved() {
    let mut app = fresh();
    assert!(!app.model(0.0, &UTC).hints.contains(" d "));
    app.key(Key::Char('d'), at(0.0));
    let m = app.model(0.0, &UTC);
    assert_eq!(m.kind.name(), "menu");
    let (how, tone) = m.notice.unwrap();
    assert!(how.starts_with("no drill yet"));
    assert_eq!(tone, Tone::Dim, "a way to go, not an error");
    let stored = Stored {
        drill: Some("nr".into()),
        ..Stored::default()
    };
    let mut app = App::new(7, &stored, None).0;
    assert!(app.model(0.0, &UTC).hints.contains(" r d quick start"));
    app.key(Key::Char('d'), at(0.0));
    assert_eq!(app.model(0.0, &UTC).kind.name(), "playing");
}

fn live(app: &App, t: f64) -> Option<String> {
    let Body::Play(play) = app.model(t, &UTC).body else {
        panic!("not playing")
    };
    let live = play.live.clone()?;
    assert!(
        play.status().ends_with(&format!(" · {live}")),
        "the mirror says it too"
    );
    Some(live)
}

#[test]
fn live_stats_show_while_typing_and_s_on_the_menu_hides_them() {
    let mut app = fresh();
    app.key(Key::Char('1'), at(0.0));
    let mut t = 0.0;
    app.key(Key::Char('x'), at(t));
    assert_eq!(
        live(&app, 900.0),
        None,
        "a rate over a few keys says nothing"
    );
    app.key(Key::Backspace, at(t + 100.0));
    t += 200.0;
    for _ in 0..4 {
        type_word(&mut app, &mut t);
    }
    // 10 keys a second, every word right, from the first key's 0 ms: 5 chars a
    // word-per-minute make about 120 wpm. The wrong key stays in the accuracy.
    let shown = live(&app, t).expect("live stats while typing");
    let (wpm, acc) = shown.split_once(" wpm · ").unwrap();
    let wpm: u32 = wpm.parse().unwrap();
    assert!((100..=125).contains(&wpm), "{shown}");
    assert!(acc.ends_with('%') && acc != "100%", "{shown}");

    // `s` steps through what is shown: speed, accuracy, neither, then both again.
    app.key(Key::Escape, at(t));
    let mut shown = vec![];
    for _ in 0..4 {
        let fx = app.key(Key::Char('s'), at(t));
        assert_eq!(fx, [app.keep_settings()]);
        app.key(Key::Char('1'), at(t));
        t += 100.0;
        for _ in 0..4 {
            type_word(&mut app, &mut t);
        }
        shown.push(live(&app, t).map(|l| l.replace(|c: char| c.is_ascii_digit(), "")));
        app.key(Key::Escape, at(t));
    }
    let some = |s: &str| Some(s.to_owned());
    assert_eq!(shown, [some(" wpm"), some("%"), None, some(" wpm · %")]);
    // Kept: a game that boots on the old `live` = `off` hides them, and on a settings
    // file that says so.
    let stored = Stored {
        live: Some("off\n".into()),
        ..Stored::default()
    };
    assert_eq!(
        App::new(7, &stored, None).0.settings.live,
        crate::settings::Live::Off
    );
    let stored = Stored {
        settings: Some("live accuracy\n".into()),
        ..Stored::default()
    };
    let app = App::new(7, &stored, None).0;
    assert_eq!(app.settings.live, crate::settings::Live::Accuracy);
    assert_eq!(
        fresh().settings.live,
        crate::settings::Live::Both,
        "shown unless hidden"
    );
}

#[test]
fn the_flame_burns_what_it_passed_in_hot_pursuit_only() {
    let mut app = fresh();
    app.key(Key::Char('r'), at(0.0));
    let mut t = 0.0;
    type_word(&mut app, &mut t);
    let Body::Play(play) = app.model(t + 3_000.0, &UTC).body else {
        panic!()
    };
    assert_eq!(play.clock, Clock::Level(7));
    let flame = play.flame.expect("a flame in HOT PURSUIT");
    let Body::Play(sooner) = app.model(t + 1_000.0, &UTC).body else {
        panic!()
    };
    assert!(sooner.flame < Some(flame), "the flame moves on");
    let word = &play.words[0];
    let burnt = (0..word.glyphs.len())
        .filter(|&g| play.burnt(word, g))
        .count();
    let sooner_burnt = (0..word.glyphs.len())
        .filter(|&g| sooner.burnt(word, g))
        .count();
    assert!(burnt >= sooner_burnt);
    app.key(Key::Escape, at(t));
    app.key(Key::Char('z'), at(0.0));
    let Body::Play(zen) = app.model(0.0, &UTC).body else {
        panic!()
    };
    assert_eq!((zen.flame, zen.clock), (None, Clock::Elapsed(0)));
    // WORDS counts its words.
    app.key(Key::Escape, at(0.0));
    app.key(Key::Char('w'), at(0.0));
    let mut t = 0.0;
    type_word(&mut app, &mut t);
    type_word(&mut app, &mut t);
    let Body::Play(words) = app.model(t, &UTC).body else {
        panic!()
    };
    assert_eq!(words.clock, Clock::Words { done: 2, of: 25 });
    assert_eq!(
        (words.clock.big(), words.clock.words()),
        ("2/25".into(), "2 of 25 words".into())
    );
}

#[test]
fn results_carry_every_stat_once() {
    let mut app = fresh();
    app.key(Key::Char('1'), at(0.0));
    let mut t = 0.0;
    type_word(&mut app, &mut t);
    app.key(Key::Char('x'), at(t));
    app.tick(at(20_000.0));
    let m = app.model(20_000.0, &UTC);
    assert_eq!((m.kind.name(), m.banner.as_deref()), ("results", None));
    let Body::Results(r) = m.body else { panic!() };
    let labels: Vec<&str> = r.stats.iter().map(|s| s.label).collect();
    assert_eq!(
        labels,
        [
            "wpm",
            "raw",
            "accuracy",
            "consistency",
            "words",
            "correct",
            "wrong",
            "extra",
            "missed",
            "peak heat",
            "time"
        ]
    );
    let s = &app.history.last().expect("the round is kept").score;
    assert_eq!(r.headline, s.headline().to_string());
    assert!(
        r.line()
            .starts_with(&format!("{} · BLITZ 15s · wpm ", r.headline))
    );
    assert!(r.line().ends_with(" · time 15.0 s"), "{}", r.line());
    let c = s.chars;
    let counts: Vec<&str> = r.stats[5..9].iter().map(|s| s.value.as_str()).collect();
    let want = [c.correct, c.wrong, c.extra, c.missed].map(|n| n.to_string());
    assert_eq!(counts, want);
    assert_eq!(r.stats[0].value, Hundredths(s.wpm_x100).to_string());
    assert!(
        r.stats[1].value.contains('.'),
        "raw as wpm is: {:?}",
        r.stats[1]
    );
    assert!(c.wrong + c.extra > 0, "the x counts against the round");
    assert_eq!(s.samples.len(), 15);
    assert_eq!((r.chart.seconds, r.chart.lines().count()), (15, 2));
}

#[test]
fn one_round_is_your_last_round_not_your_last_1_rounds() {
    let mut app = fresh();
    let mut t = 0.0;
    app.key(Key::Char('z'), at(t));
    type_word(&mut app, &mut t);
    app.key(Key::Escape, at(t));
    t += 2_000.0;
    app.key(Key::Escape, at(t));
    app.key(Key::Char('h'), at(t));
    let Body::History(h) = app.model(t, &UTC).body else {
        panic!()
    };
    assert_eq!(h.caption, "your last round, on this device");
    app.key(Key::Escape, at(t));
    app.key(Key::Char('k'), at(t));
    let Body::Keys(k) = app.model(t, &UTC).body else {
        panic!()
    };
    assert_eq!(k.caption, "from your last round, on this device");
    // Nothing before it to compare with: its numbers alone, no "against the 0 before".
    assert!(
        k.trend.starts_with("the last round: errors ") && !k.trend.contains('→'),
        "{}",
        k.trend
    );
    let m = app.model(t, &UTC);
    assert!(!m.hints.contains("d drill"), "no drill, no d: {}", m.hints);
}

/// The play-test: a guest over `ssh` was offered `l link`, asked for a name, and only
/// then told that linking needs a key.
#[test]
fn a_guest_is_told_at_once_that_linking_needs_a_key() {
    let mut app = fresh();
    let why = "linking needs an SSH key: connect with one to link";
    app.cannot_link(why);
    let m = app.model(0.0, &UTC);
    assert!(!m.hints.contains("l link"), "{}", m.hints);
    assert!(m.taps.iter().all(|t| t.key != Key::Char('l')));
    let Body::Menu(menu) = m.body else { panic!() };
    assert_eq!(menu.player, why);
    app.key(Key::Char('l'), at(0.0));
    assert!(matches!(app.screen(), app::Screen::Menu));
    assert_eq!(app.notice(), Some(why));
}

/// The play-test: the keys screen said "from your last 0 rounds", and the `ssh` game
/// said "on this device" of a history the server keeps.
#[test]
fn no_rounds_are_no_rounds_and_the_server_s_history_is_on_the_server() {
    let mut app = fresh();
    app.keeps_on("on the server");
    app.key(Key::Char('k'), at(0.0));
    let Body::Keys(k) = app.model(0.0, &UTC).body else {
        panic!()
    };
    assert_eq!(k.caption, "no rounds yet, on the server");
    app.key(Key::Escape, at(0.0));
    app.key(Key::Char('h'), at(0.0));
    let Body::History(h) = app.model(0.0, &UTC).body else {
        panic!()
    };
    assert_eq!(h.caption, "no rounds yet, on the server");
}

#[test]
fn history_rows_are_newest_first_in_local_time() {
    let mut app = fresh();
    let mut t = 0.0;
    for _ in 0..2 {
        app.key(Key::Char('z'), at(t));
        type_word(&mut app, &mut t);
        app.key(Key::Escape, at(t));
        t += 3_600_000.0;
        app.key(Key::Escape, at(t));
    }
    app.key(Key::Char('h'), at(t));
    let m = app.model(t, &Fixed(330));
    assert_eq!(m.kind.name(), "history");
    let Body::History(h) = m.body else { panic!() };
    assert_eq!(h.caption, "your last 2 rounds, on this device");
    assert_eq!(h.empty, None);
    // The rounds ended at 19:52 and 20:52 UTC, 01:22 and 02:22 in India.
    let dates: Vec<&str> = h.rows.iter().map(|r| r.date.as_str()).collect();
    assert_eq!(dates, ["2026-12-02 02:22", "2026-12-02 01:22"]);
    assert_eq!(h.rows[0].title, "ZEN");
    let Body::History(empty) = ({
        let mut app = fresh();
        app.key(Key::Char('h'), at(0.0));
        app.model(0.0, &UTC).body
    }) else {
        panic!()
    };
    assert!(empty.rows.is_empty() && empty.empty.is_some());
}

#[test]
fn link_and_boards_say_what_is_going_on() {
    let mut app = fresh();
    app.key(Key::Char('l'), at(0.0));
    for c in "ada".chars() {
        app.key(Key::Char(c), at(0.0));
    }
    app.key(Key::Enter, at(0.0));
    let m = app.model(0.0, &UTC);
    assert_eq!(
        (m.kind.name(), m.notice.as_ref().map(|(n, _)| n.as_str())),
        ("link", Some("linking…"))
    );
    let Body::Link(link) = m.body else { panic!() };
    assert_eq!(
        (link.name.as_str(), link.status.as_str()),
        ("ada", "not linked")
    );

    app.key(Key::Escape, at(0.0));
    app.key(Key::Char('b'), at(0.0));
    let Body::Boards(b) = app.model(0.0, &UTC).body else {
        panic!()
    };
    assert_eq!(
        (b.mode, b.picker.as_str(), &b.rows[..], b.say),
        (
            Mode::BLITZ_15,
            "‹ BLITZ 15s ›",
            &[][..],
            Some(("loading…".into(), Tone::Dim))
        )
    );
    let row = BoardRow {
        rank: 1,
        name: "ada".into(),
        score: 108,
        wpm: 108.0,
        accuracy: 98.5,
        run: "7Xf9qyuC".into(),
        time: "2026-12-01T19:52:00Z".into(),
    };
    app.board_loaded("time:15", Period::Month, Ok(vec![row]));
    let m = app.model(0.0, &UTC);
    assert!(m.hints.contains("enter watch"));
    let Body::Boards(b) = m.body else { panic!() };
    let want = BoardLine {
        rank: 1,
        medal: Tone::Gold,
        name: "ada".into(),
        score: "108 wpm".into(),
        accuracy: "98.5%".into(),
    };
    assert_eq!((b.rows, b.say), (vec![want], None));
    app.board_loaded("time:15", Period::Month, Ok(vec![]));
    let Body::Boards(b) = app.model(0.0, &UTC).body else {
        panic!()
    };
    assert_eq!(
        b.say,
        Some(("no runs this month yet: be the first".into(), Tone::Dim))
    );
    assert_eq!(b.caption, "this month's bests · UTC");
    app.key(Key::Char('p'), at(0.0));
    app.board_loaded("time:15", Period::All, Ok(vec![]));
    let Body::Boards(b) = app.model(0.0, &UTC).body else {
        panic!()
    };
    assert_eq!(
        (b.caption.as_str(), b.say),
        (
            "all-time bests",
            Some(("no runs yet: be the first".into(), Tone::Dim))
        )
    );
}

/// The drift issue 39 named: the canvas drew the worst key of each list in the accent and
/// the terminal did not. The model says it, for both.
#[test]
fn the_worst_of_each_keys_list_is_in_the_accent() {
    let mut app = fresh();
    app.key(Key::Char('k'), at(0.0));
    let Body::Keys(keys) = app.model(0.0, &UTC).body else {
        panic!("not the keys")
    };
    for list in &keys.lists {
        assert_eq!((list.tone(0), list.tone(1)), (Tone::Accent, Tone::Text));
    }
    let cap = |shade| KeyCap { key: 'q', shade };
    assert_eq!(
        (cap(None).tone(), cap(None).ink()),
        (Tone::Panel, Tone::Dim)
    );
    assert_eq!(cap(Some(100)).ink(), Tone::Background);
}

/// Types the rest of the round's text right, 110 ms a key, until its results.
fn type_to_the_end(app: &mut App, t: &mut f64) {
    while let Body::Play(play) = app.model(*t, &UTC).body {
        let (word, typed) = play.caret;
        let target = play.word(word).unwrap().target().to_owned();
        let next = target.chars().nth(typed).unwrap_or(' ');
        app.key(Key::Char(next), at(*t));
        *t += 110.0;
    }
}

#[test]
fn a_pasted_text_is_made_ready_played_kept_and_played_again() {
    let mut app = fresh();
    app.key(Key::Char('c'), at(0.0));
    let m = app.model(0.0, &UTC);
    assert_eq!(m.kind, Kind::Text);
    let Body::Text(entry) = m.body else { panic!() };
    assert_eq!(entry.count, "paste or type a text");
    // A paste keeps its newlines in the draft; the round's text is made ready.
    app.text("  Cafe\u{301} au\nlait —\t\toui.  ", at(10.0));
    let Body::Text(entry) = app.model(10.0, &UTC).body else {
        panic!()
    };
    assert!(entry.draft.contains('\n') && entry.fits);
    // Café (composed), au, lait, — and oui.
    assert_eq!(entry.count, "19 characters · 5 words");
    let fx = app.key(Key::Enter, at(20.0));
    assert!(fx.contains(&Effect::Save {
        key: storage::TEXT.into(),
        value: "Café au lait — oui.".into()
    }));
    let Body::Play(play) = app.model(20.0, &UTC).body else {
        panic!("not playing")
    };
    assert_eq!(play.mode, Mode::CUSTOM);
    assert_eq!(play.word(0).unwrap().target(), "Café");
    let mut t = 100.0;
    type_to_the_end(&mut app, &mut t);
    let Body::Results(r) = app.model(t, &UTC).body else {
        panic!("no results")
    };
    assert_eq!(r.title, "CUSTOM TEXT");
    assert_eq!(r.source, None);
    let kept = app.history.last().unwrap().replay.clone();
    assert_eq!(kept.text.as_deref(), Some("Café au lait — oui."));
    // Again: the same text, on a new seed.
    app.key(Key::Tab, at(t + 2_000.0));
    let crate::app::Screen::Play(s) = &app.screen else {
        panic!("not playing again")
    };
    assert_eq!(s.round.custom_text(), Some("Café au lait — oui."));
    assert_ne!(s.round.seed(), kept.seed);
    // The menu offers it, and a new game remembers it.
    app.key(Key::Escape, at(t + 2_100.0));
    let stored = Stored {
        text: Some("Café au lait — oui.".into()),
        ..Stored::default()
    };
    let (again, _) = App::new(3, &stored, None);
    let Body::Menu(menu) = again.model(0.0, &UTC).body else {
        panic!()
    };
    assert!(
        menu.items
            .iter()
            .any(|i| i.title == "CUSTOM TEXT · 19 characters")
    );
}

#[test]
fn a_text_left_with_esc_is_kept_on_the_menu_for_a_room() {
    let mut app = fresh();
    app.player = Some(Player {
        name: "ada".into(),
        token: "t".into(),
    });
    app.key(Key::Char('c'), at(0.0));
    app.text("Ça va —\noui.", at(10.0));
    let fx = app.key(Key::Escape, at(20.0));
    assert_eq!(
        fx,
        vec![Effect::Save {
            key: storage::TEXT.into(),
            value: "Ça va — oui.".into()
        }]
    );
    assert!(matches!(app.screen, app::Screen::Menu));
    assert_eq!(
        app.notice(),
        Some("your text is on CUSTOM TEXT: enter plays it, f races friends on it")
    );
    // `f` opens a room on it, unplayed.
    let fx = app.key(Key::Char('f'), at(30.0));
    let [Effect::Request(crate::request::Request::OpenRoom(open))] = fx.as_slice() else {
        panic!("{fx:?}")
    };
    assert_eq!(open.text.as_deref(), Some("Ça va — oui."));
    // A draft that can't be played keeps the text there was.
    app.key(Key::Escape, at(40.0));
    app.key(Key::Char('c'), at(50.0));
    for t in 0..4 {
        app.key(Key::DeleteWord, at(60.0 + f64::from(t)));
    }
    assert_eq!(app.key(Key::Escape, at(70.0)), vec![]);
    assert_eq!(app.custom.as_deref(), Some("Ça va — oui."));
}

#[test]
fn a_text_that_cannot_be_played_is_said_and_stays_to_be_fixed() {
    let mut app = fresh();
    app.key(Key::Char('c'), at(0.0));
    app.key(Key::Enter, at(10.0));
    assert_eq!(app.notice(), Some("the text is empty"));
    assert!(matches!(app.screen, app::Screen::Text(_)));
    app.text(&"word ".repeat(2_001), at(20.0));
    let Body::Text(entry) = app.model(20.0, &UTC).body else {
        panic!()
    };
    assert_eq!(entry.count, "10004 characters: 4 over the limit");
    assert!(!entry.fits);
    app.key(Key::Enter, at(30.0));
    assert_eq!(app.notice(), Some("the text is over 10000 characters"));
    // Ctrl-backspace takes the last word; then it fits and plays.
    app.key(Key::DeleteWord, at(40.0));
    app.key(Key::Enter, at(50.0));
    assert!(matches!(app.screen, app::Screen::Play(_)));
    // Esc from the screen is the menu, and the draft is the last text played.
    app.key(Key::Escape, at(60.0));
    app.key(Key::Char('c'), at(70.0));
    let Body::Text(entry) = app.model(70.0, &UTC).body else {
        panic!()
    };
    assert_eq!(entry.count, "9999 characters · 2000 words");
}

#[test]
fn a_quote_is_picked_by_length_or_number_and_credits_its_author() {
    let mut app = fresh();
    app.key(Key::Char('\''), at(0.0));
    let app::Screen::Play(s) = &app.screen else {
        panic!("not playing: {:?}", app.notice())
    };
    let mode = s.round.mode();
    assert!(mode.key().starts_with("quote:"), "{}", mode.key());
    let mut t = 100.0;
    type_to_the_end(&mut app, &mut t);
    let Body::Results(r) = app.model(t, &UTC).body else {
        panic!("no results")
    };
    let typepper_engine::Base::Quote(n) = mode.base() else {
        panic!()
    };
    let p = typepper_engine::quotes::passage(typepper_engine::Language::English, n).unwrap();
    assert!(
        r.source
            .as_deref()
            .unwrap()
            .starts_with(&format!("— {}", p.author))
    );
    assert!(
        app.model(t, &UTC)
            .words()
            .contains(r.source.as_ref().unwrap())
    );
    // `b` on its results: the quote's own board.
    let fx = app.key(Key::Char('b'), at(t + 1_500.0));
    assert_eq!(
        fx,
        [Effect::Request(crate::request::Request::Board(
            mode.key(),
            typepper_api::Period::Month
        ))]
    );
    let Body::Boards(b) = app.model(t + 1_500.0, &UTC).body else {
        panic!("no board")
    };
    assert_eq!(b.mode, mode);
    // By number: → past `any` to `#`, then the digits (at a length, digits are the quick
    // starts), each kept.
    app.key(Key::Escape, at(t + 2_000.0));
    app.menu_item = 4;
    for key in [Key::Left, Key::Char('1'), Key::Char('3'), Key::Backspace] {
        app.key(key, at(t + 2_100.0));
    }
    let fx = app.key(Key::Char('2'), at(t + 2_100.0));
    assert!(fx.contains(&Effect::Save {
        key: storage::MENU.into(),
        value: "15 25 7 - #12".into()
    }));
    let Body::Menu(menu) = app.model(t, &UTC).body else {
        panic!()
    };
    assert_eq!(menu.items[4].text(), "QUOTE  ‹ #12 ›");
    app.key(Key::Enter, at(t + 2_300.0));
    let app::Screen::Play(s) = &app.screen else {
        panic!("not playing: {:?}", app.notice())
    };
    assert_eq!(s.round.mode().key(), "quote:12");
    app.key(Key::Escape, at(t + 2_400.0));
    for _ in 0..5 {
        app.key(Key::Backspace, at(t + 2_500.0));
    }
    for c in "65535".chars() {
        app.key(Key::Char(c), at(t + 2_500.0));
    }
    app.key(Key::Enter, at(t + 2_600.0));
    assert!(
        app.notice()
            .unwrap()
            .starts_with("there is no quote #65535 in english: it has 1 to "),
        "{:?}",
        app.notice()
    );
    // → goes back to the lengths; German's quotes come with the menu's language.
    app.key(Key::Right, at(t + 2_700.0));
    assert_eq!(
        app.picks.quote,
        app::menu::QuotePick::Of(Some(Length::Short))
    );
    for _ in 0..3 {
        app.key(Key::Char('@'), at(t + 2_800.0));
    }
    assert_eq!(app.quote_language(), typepper_engine::Language::German);
    app.key(Key::Char('\''), at(t + 2_900.0));
    let app::Screen::Play(s) = &app.screen else {
        panic!("not playing: {:?}", app.notice())
    };
    assert!(
        s.round.mode().key().ends_with("@de"),
        "{}",
        s.round.mode().key()
    );
}

#[test]
fn a_custom_round_watched_or_raced_is_played_on_its_own_text() {
    let round = typepper_engine::Round::custom("Ça va — oui.", 5).unwrap();
    let typist = typepper_engine::synth::Typist::default();
    let replay = typepper_engine::synth::synth_on(round, &typist);
    let mut app = fresh();
    app.watch(replay.clone(), Some("ada".into()), 0.0).unwrap();
    app.key(Key::Enter, at(10.0));
    let app::Screen::Play(s) = &app.screen else {
        panic!()
    };
    assert!(s.watch.is_none(), "your own round");
    assert_eq!(s.round.custom_text(), Some("Ça va — oui."));
    assert_eq!(s.round.seed(), 5);
    app.key(Key::Escape, at(20.0));
    app.race(replay.clone(), "ada".into()).unwrap();
    let app::Screen::Play(s) = &app.screen else {
        panic!()
    };
    assert_eq!(s.round.custom_text(), Some("Ça va — oui."));
    assert!(s.ghost.is_some());
    // Raced to its last character: the results say how the race went, on its text.
    let mut t = 100.0;
    type_to_the_end(&mut app, &mut t);
    let Body::Results(r) = app.model(t, &UTC).body else {
        panic!("no results")
    };
    assert_eq!(r.title, "CUSTOM TEXT");
    assert!(r.race.is_some(), "a race's results");
    let mine = app.history.last().unwrap().replay.clone();
    assert_eq!(mine.text.as_deref(), Some("Ça va — oui."));
    // The keys analysis reads it as any round, its text's own letters among the keys.
    let keys = crate::keys::Analysis::of([&mine, &replay]);
    assert_eq!((keys.rounds, keys.skipped), (2, 0));
    assert_eq!(keys.key('Ç').map(|k| k.seen), Some(2));
    assert!(keys.key('—').is_some());
    // The menu's CUSTOM TEXT is still your own: a friend's text doesn't take its place.
    assert_eq!(app.custom, None);
}

/// Issue 42: a code typed on a new device (tab on the link screen) links it as the code's
/// player; a linked device's `l` lists its devices, shows a code with its QR code, and
/// removes one, itself last, which leaves the game linked to no one.
#[test]
fn a_code_links_this_device_and_the_devices_screen_adds_and_removes_them() {
    use crate::request::{Answer, Request};
    use typepper_api::devices::{Device, DeviceCode, Devices};
    let mut app = fresh();
    app.key(Key::Char('l'), at(0.0));
    app.key(Key::Tab, at(0.0));
    for c in "k3fq-7m2".chars() {
        app.key(Key::Char(c), at(0.0));
    }
    assert!(
        app.key(Key::Enter, at(0.0)).is_empty(),
        "7 characters is no code"
    );
    assert_eq!(
        app.model(0.0, &UTC).notice.map(|(n, _)| n),
        Some("a code is 8 letters and digits, as your other device shows it".into())
    );
    app.key(Key::Char('x'), at(0.0));
    assert_eq!(
        app.key(Key::Enter, at(0.0)),
        [Effect::Request(Request::Claim("K3FQ7M2X".into()))]
    );
    let ada = Player {
        name: "ada".into(),
        token: "t2".into(),
    };
    app.answer(Answer::Linked(Ok(ada)), at(0.0));
    let m = app.model(0.0, &UTC);
    assert_eq!(
        (m.kind.name(), m.notice.map(|(n, _)| n)),
        ("menu", Some("linked: this device is ada now".into()))
    );

    // Linked, `l` is the devices.
    assert_eq!(
        app.key(Key::Char('l'), at(0.0)),
        [Effect::Request(Request::Devices("t2".into()))]
    );
    let device = |id: &str, kind: &str, name: &str, this: bool| Device {
        id: id.into(),
        kind: kind.into(),
        name: name.into(),
        added: "2026-12-05T03:00:00Z".into(),
        this,
    };
    let list = Devices {
        name: "ada".into(),
        devices: vec![
            device("web-1", "token", "Firefox on Linux", false),
            device("SHA256:abc", "key", "SHA256:abc", false),
            device("web-2", "token", "Chrome on Android", true),
        ],
    };
    app.answer(Answer::Devices(Ok(list.clone())), at(0.0));
    let Body::Devices(d) = app.model(0.0, &UTC).body else {
        panic!("the devices")
    };
    let shown: Vec<(&str, &str)> = (d.rows.iter())
        .map(|r| (r.name.as_str(), r.detail.as_str()))
        .collect();
    assert_eq!(
        shown,
        [
            (
                "Firefox on Linux",
                "browser or terminal · added 2026-12-05 03:00"
            ),
            ("SHA256:abc", "SSH key · added 2026-12-05 03:00"),
            ("Chrome on Android", "this device · added 2026-12-05 03:00"),
        ]
    );
    assert_eq!(d.status, "linked as ada");

    // `a`: a code, shown with its QR code until esc.
    assert_eq!(
        app.key(Key::Char('a'), at(0.0)),
        [Effect::Request(Request::DeviceCode("t2".into()))]
    );
    let code = DeviceCode {
        code: "K3FQ7M2X".into(),
        link: "https://typepper.test/?device=K3FQ7M2X".into(),
        expires_ms: 1_796_441_520_000,
        qr: vec!["101".into(), "010".into(), "101".into()],
    };
    app.answer(Answer::DeviceCode(Ok(code)), at(0.0));
    let Body::Devices(d) = app.model(0.0, &UTC).body else {
        panic!()
    };
    let card = d.code.expect("a code shown");
    assert_eq!(
        (card.code.as_str(), card.until.as_str(), card.qr.len()),
        ("K3FQ 7M2X", "works once, until 03:32", 3)
    );
    app.key(Key::Escape, at(0.0));
    assert!(matches!(app.model(0.0, &UTC).body, Body::Devices(d) if d.code.is_none()));

    // `x` asks, a second removes the picked one: another, and the list is asked for
    // again. Any other key between keeps it.
    app.key(Key::Down, at(0.0));
    assert!(app.key(Key::Char('x'), at(0.0)).is_empty());
    assert_eq!(
        app.model(0.0, &UTC).notice,
        Some((
            "x again removes SHA256:abc: it stops being you at once".into(),
            Tone::Wrong
        ))
    );
    app.key(Key::Up, at(0.0));
    assert_eq!(app.model(0.0, &UTC).notice, None, "kept: the question goes");
    app.key(Key::Down, at(0.0));
    assert!(app.key(Key::Char('x'), at(0.0)).is_empty(), "asked again");
    assert_eq!(
        app.key(Key::Char('x'), at(0.0)),
        [Effect::Request(Request::RemoveDevice {
            token: "t2".into(),
            id: "SHA256:abc".into()
        })]
    );
    let removed = Answer::DeviceRemoved {
        id: "SHA256:abc".into(),
        done: Ok(()),
    };
    assert_eq!(
        app.answer(removed, at(0.0)),
        [Effect::Request(Request::Devices("t2".into()))]
    );
    // This one: the game forgets its player.
    app.key(Key::Down, at(0.0));
    app.key(Key::Char('x'), at(0.0));
    app.key(Key::Char('x'), at(0.0));
    let removed = Answer::DeviceRemoved {
        id: "web-2".into(),
        done: Ok(()),
    };
    assert_eq!(
        app.answer(removed, at(0.0)),
        [Effect::Remove(storage::PLAYER.into())]
    );
    let m = app.model(0.0, &UTC);
    assert_eq!(
        (m.kind.name(), m.notice.map(|(n, _)| n)),
        (
            "menu",
            Some("this device was removed: it is linked to no one".into())
        )
    );
}

/// A `?device=` link opened on a game linked already asks before it claims: a link
/// anyone can send must not take the device at a click.
#[test]
fn a_code_s_link_on_a_linked_game_asks_first() {
    use crate::request::Request;
    let mut app = fresh();
    app.player = Some(Player {
        name: "ada".into(),
        token: "t1".into(),
    });
    assert!(app.claim("K3FQ7M2X").is_empty());
    let m = app.model(0.0, &UTC);
    assert_eq!(m.kind.name(), "link");
    assert!(
        m.notice
            .unwrap()
            .0
            .starts_with("linked as ada: enter makes this device")
    );
    assert_eq!(
        app.key(Key::Enter, at(0.0)),
        [Effect::Request(Request::Claim("K3FQ7M2X".into()))]
    );
    // Not linked, the link claims at once.
    let mut fresh = fresh();
    assert_eq!(
        fresh.claim("K3FQ7M2X"),
        [Effect::Request(Request::Claim("K3FQ7M2X".into()))]
    );
}

/// The bug a removed device found: the server refused its token on every request, and the
/// game went on saying `linked as ada`, marking rounds RANKED and sending them to be
/// refused. The first refusal now forgets the player, and says why.
#[test]
fn a_token_the_server_no_longer_takes_is_forgotten_at_once() {
    use crate::request::{Answer, Failure};
    let mut app = fresh();
    app.player = Some(Player {
        name: "ada".into(),
        token: "t".into(),
    });
    let issued = typepper_api::IssuedSeed {
        mode: "time:15".into(),
        seed: 42,
        expires: "2026-12-01T13:00:00Z".into(),
        daily: None,
        unranked: None,
    };
    app.answer(
        Answer::Seed {
            mode: "time:15".into(),
            answer: Ok(issued),
        },
        at(0.0),
    );
    assert!(app.ranked_ready(Mode::BLITZ_15));
    let why = "this device was removed from its player: link it again";
    let fx = app.answer(
        Answer::Seed {
            mode: "time:30".into(),
            answer: Err(Failure::NotLinked(why.into())),
        },
        at(0.0),
    );
    assert!(
        fx.contains(&Effect::Remove(storage::PLAYER.into())),
        "{fx:?}"
    );
    assert!(app.player.is_none());
    assert!(!app.ranked_ready(Mode::BLITZ_15), "the seeds were ada's");
    let model = app.model(0.0, &UTC);
    assert_eq!(
        model.notice,
        Some((format!("no longer linked: {why}"), Tone::Wrong))
    );
    let Body::Menu(menu) = model.body else {
        panic!()
    };
    assert_eq!(menu.player, NOT_LINKED);
    // Another refusal says nothing more, and removes nothing more.
    let again = app.answer(
        Answer::Devices(Err(Failure::NotLinked(why.into()))),
        at(0.0),
    );
    assert!(!again.contains(&Effect::Remove(storage::PLAYER.into())));
}

/// The daily: announced on the menu once the server says it, played on the seed a linked
/// player's `j` asks for (never ahead: asking is their try), said as the daily on its
/// results, and its place on the day's board once the round is stored.
#[test]
fn the_daily_is_announced_played_as_the_daily_and_placed() {
    use crate::request::{Answer, Request};
    use typepper_api::IssuedSeed;
    use typepper_api::daily::{Daily, Yours};
    let mut app = fresh();
    app.key(Key::Char('j'), at(0.0));
    assert_eq!(
        app.notice(),
        Some("the daily ranks you on the day's board: link the game first (l)")
    );
    app.player = Some(Player {
        name: "ada".into(),
        token: "t".into(),
    });
    let asks = |fx: &[Effect]| {
        (fx.iter())
            .filter(|e| matches!(e, Effect::Request(Request::Daily { .. })))
            .count()
    };
    let fx = app.tick(at(10.0));
    assert!(fx.contains(&Effect::Request(Request::Daily {
        token: Some("t".into()),
        number: None,
    })));
    assert_eq!(asks(&app.tick(at(20.0))), 0, "asked once, not each frame");
    assert!(
        !fx.iter()
            .any(|e| matches!(e, Effect::Request(Request::Seed { mode, .. }) if mode == "daily")),
        "the daily's seed is never asked for ahead"
    );
    let today = Daily {
        number: 6,
        day: "2026-12-10".into(),
        ends: "2026-12-11T00:00:00Z".into(),
        mode: "time:30".into(),
        title: "daily #6 · BLITZ 30s".into(),
        seed: None,
        players: 214,
        board: vec![],
        yours: None,
    };
    let answer = Answer::Daily {
        number: None,
        daily: Ok(today.clone()),
    };
    app.answer(answer, at(30.0));
    let Body::Menu(menu) = app.model(30.0, &UTC).body else {
        panic!("not the menu")
    };
    assert_eq!(
        menu.daily.as_deref(),
        Some("daily #6 · BLITZ 30s · 214 played · j plays it")
    );

    let fx = app.key(Key::Char('j'), at(40.0));
    assert_eq!(
        fx,
        [Effect::Request(Request::Seed {
            token: "t".into(),
            mode: "daily".into(),
        })]
    );
    let seed = IssuedSeed {
        mode: "time:30".into(),
        seed: 99,
        expires: "2026-12-10T12:05:00Z".into(),
        daily: Some(6),
        unranked: None,
    };
    let seeded = Answer::Seed {
        mode: "daily".into(),
        answer: Ok(seed),
    };
    app.answer(seeded, at(50.0));
    let mut t = 100.0;
    for _ in 0..5 {
        type_word(&mut app, &mut t);
    }
    let fx = app.tick(at(t + 31_000.0));
    let Some(keys) = fx.iter().find_map(|e| match e {
        Effect::Request(Request::Submit { keys, .. }) => Some(keys.clone()),
        _ => None,
    }) else {
        panic!("not sent: {fx:?}")
    };
    let Body::Results(results) = app.model(t + 31_000.0, &UTC).body else {
        panic!("no results")
    };
    assert_eq!(results.title, "daily #6 · BLITZ 30s");
    assert_eq!(results.stats[0].label, "wpm");

    let line = "ok AbCdEfGh 97 - http://typepper.test/r/AbCdEfGh ranked\n";
    let fx = app.answer(
        Answer::Submitted {
            keys,
            answer: Ok(line.into()),
        },
        at(t + 32_000.0),
    );
    assert!(fx.contains(&Effect::Request(Request::Daily {
        token: Some("t".into()),
        number: Some(6),
    })));
    let yours = Yours {
        run: "AbCdEfGh".into(),
        score: 97,
        place: 14,
        of: 2031,
    };
    let placed = Daily {
        yours: Some(yours),
        players: 2031,
        ..today
    };
    let answer = Answer::Daily {
        number: Some(6),
        daily: Ok(placed),
    };
    app.answer(answer, at(t + 33_000.0));
    let model = app.model(t + 33_000.0, &UTC);
    assert_eq!(
        model.notice,
        Some(("daily #6 · 97 wpm · 14th of 2,031".into(), Tone::Dim))
    );
}

/// Past dailies stay playable, unranked: from a daily's board (`b` on its results, `j`
/// on any board), whose arrows go from day to day, and from a profile's daily round.
#[test]
fn past_dailies_are_played_from_their_board_and_a_profile() {
    use crate::app::Screen;
    use crate::request::{Answer, Request};
    use typepper_api::daily::{self, Daily};
    use typepper_api::profile::{Keys, Profile, ProfileRun, Typed};
    let mut app = fresh();
    app.player = Some(Player {
        name: "ada".into(),
        token: "t".into(),
    });
    // Daily #6's day, by this device's clock.
    let day6 = daily::starts_ms(6) as u64 + 3_600_000;
    let now = |ms: u64| Now {
        mono: 0.0,
        unix_ms: ms,
    };
    let asked = |fx: &[Effect]| {
        fx.iter().find_map(|e| match e {
            Effect::Request(Request::Daily { number, .. }) => Some(*number),
            _ => None,
        })
    };
    let board = |n: u32, seed: Option<u64>| Daily {
        number: n,
        day: String::new(),
        ends: String::new(),
        mode: "time:30".into(),
        title: format!("daily #{n} · BLITZ 30s"),
        seed,
        players: 1,
        board: vec![typepper_api::BoardRow {
            rank: 1,
            name: "grace".into(),
            score: 88,
            wpm: 88.0,
            accuracy: 99.0,
            run: "GrAcE123".into(),
            time: "2026-12-09T10:00:00Z".into(),
        }],
        yours: None,
    };
    app.key(Key::Char('b'), now(day6));
    assert_eq!(asked(&app.key(Key::Char('j'), now(day6))), Some(Some(6)));
    // Today's: its rows are kept from view, so no watching them.
    let answer = Answer::Daily {
        number: Some(6),
        daily: Ok(board(6, None)),
    };
    app.answer(answer, now(day6));
    let model = app.model(0.0, &UTC);
    assert_eq!(
        model.hints,
        "←→ day · ↑↓ pick · o player · j play it · esc menu"
    );
    let Body::Boards(b) = model.body else {
        panic!("not a board")
    };
    assert_eq!((b.of(), b.rows.len()), ("daily #6", 1));
    assert_eq!(b.caption, "today's first tries · ends 00:00 UTC");
    assert_eq!(
        asked(&app.key(Key::Right, now(day6))),
        None,
        "no daily #7 yet"
    );
    assert_eq!(asked(&app.key(Key::Left, now(day6))), Some(Some(5)));
    let answer = Answer::Daily {
        number: Some(5),
        daily: Ok(board(5, Some(555))),
    };
    app.answer(answer, now(day6));
    let model = app.model(0.0, &UTC);
    assert!(model.hints.contains("enter watch"), "{}", model.hints);
    let Body::Boards(b) = model.body else {
        panic!("not a board")
    };
    assert_eq!(b.caption, "first tries · 2026-12-09 UTC");
    // `j` plays daily #5's text at once: its seed came with its board.
    assert!(app.key(Key::Char('j'), now(day6)).is_empty());
    let Screen::Play(session) = &app.screen else {
        panic!("not playing")
    };
    assert_eq!(
        (session.round.mode(), session.round.seed()),
        (Mode::BLITZ_30, 555)
    );
    assert_eq!(
        app.notice(),
        Some("daily #5 is over: this round is yours, unranked")
    );
    let mut t = 100.0;
    for _ in 0..3 {
        type_word(&mut app, &mut t);
    }
    app.tick(at(t + 31_000.0));
    let Body::Results(results) = app.model(t + 31_000.0, &UTC).body else {
        panic!("no results")
    };
    assert_eq!(results.title, "daily #5 · BLITZ 30s");
    // Its results' board is daily #5's.
    app.key(
        Key::Char('b'),
        Now {
            mono: t + 40_000.0,
            unix_ms: day6,
        },
    );
    let Screen::Boards(b) = &app.screen else {
        panic!("not a board")
    };
    assert_eq!(b.daily, Some(5));

    // A profile's daily round: `j` asks for its daily, and plays it once it comes.
    app.key(Key::Escape, now(day6));
    app.key(Key::Char('p'), now(day6));
    let run = ProfileRun {
        run: "AdA12345".into(),
        mode: "time:30".into(),
        title: "daily #4 · BLITZ 30s".into(),
        score: 90,
        unit: "wpm".into(),
        wpm: 90.0,
        accuracy: 98.0,
        time: "2026-12-08T10:00:00Z".into(),
        ranked: true,
        daily: Some(4),
    };
    let typed = Typed {
        rounds: 1,
        seconds: 30,
    };
    let profile = Profile {
        name: "ada".into(),
        joined: "2026-12-01T00:00:00Z".into(),
        all: typed,
        month: typed,
        bests: vec![],
        recent: vec![run],
        chart: vec![],
        keys: Keys::default(),
    };
    app.profile_loaded("ada", Ok(profile));
    assert!(app.model(0.0, &UTC).hints.contains("j play this daily"));
    assert_eq!(asked(&app.key(Key::Char('j'), now(day6))), Some(Some(4)));
    assert_eq!(app.notice(), Some("asking for daily #4's text…"));
    let answer = Answer::Daily {
        number: Some(4),
        daily: Ok(board(4, Some(444))),
    };
    app.answer(answer, now(day6));
    let Screen::Play(session) = &app.screen else {
        panic!("not playing")
    };
    assert_eq!(session.round.seed(), 444);
}

/// Issue 43: blind typing marks no mistake on your round (no red, no underline), reads
/// the text the same, and counts every mistake on the results; a watched round is marked.
#[test]
fn blind_typing_marks_nothing_while_typing_and_counts_it_all_after() {
    let mut app = fresh();
    app.settings = crate::settings::Settings::read("blind on", None);
    app.key(Key::Char('z'), at(0.0));
    let Body::Play(before) = app.model(0.0, &UTC).body else {
        panic!()
    };
    let first = before.word(0).unwrap().target();
    // The first word wrong throughout, and committed.
    let mut t = 10.0;
    for _ in first.chars() {
        app.key(Key::Char('#'), at(t));
        t += 100.0;
    }
    app.key(Key::Char(' '), at(t));
    let Body::Play(play) = app.model(t, &UTC).body else {
        panic!()
    };
    let word = play.word(0).unwrap();
    assert!(word.done_wrong(), "the rules judged it wrong");
    assert_eq!(word.target(), first, "the text reads the same");
    assert!(!play.marks(word, None) && !play.marks(word, Some(0)));
    assert!((0..word.glyphs.len()).all(|g| play.glyph_tone(word, g) == Tone::Text));
    app.key(Key::Escape, at(t + 100.0));
    let Body::Results(r) = app.model(t + 100.0, &UTC).body else {
        panic!()
    };
    let wrong = r.stats.iter().find(|s| s.label == "wrong").unwrap();
    assert_eq!(wrong.value, first.chars().count().to_string());
    // The round watched again is marked: blind is for typing.
    let replay = app.history.last().unwrap().replay.clone();
    app.watch(replay, None, t).unwrap();
    let Body::Play(watched) = app.model(t, &UTC).body else {
        panic!()
    };
    assert!(!watched.blind);
}

/// Issue 43: strict typing from the settings is part of the mode played: its key and
/// title, its boards, and its rules (a wrong key leaves the caret where it is; backspace
/// does nothing).
#[test]
fn strict_settings_are_the_modes_rules_and_its_boards() {
    let mut app = fresh();
    app.key(Key::Char('o'), at(0.0));
    for _ in 0..5 {
        app.key(Key::Down, at(0.0));
    }
    let fx = app.key(Key::Enter, at(0.0));
    app.key(Key::Down, at(0.0));
    app.key(Key::Enter, at(0.0));
    assert!(matches!(&fx[..], [Effect::Save { .. }]));
    let Body::Settings(s) = app.model(0.0, &UTC).body else {
        panic!()
    };
    assert_eq!(s.rows[5], ("stop on error", "on".to_owned()));
    assert_eq!(s.rows[6], ("backspace", "off".to_owned()));
    app.key(Key::Escape, at(0.0));
    assert_eq!(app.menu_mode().key(), "time:15/s/b");
    assert_eq!(app.board_modes()[0].key(), "time:15/s/b");
    app.key(Key::Char('1'), at(0.0));
    let Body::Play(play) = app.model(0.0, &UTC).body else {
        panic!()
    };
    assert_eq!(
        play.mode.title(),
        "BLITZ 15s · stop on error · no backspace"
    );
    let first = play.word(0).unwrap().target();
    let a = first.chars().next().unwrap();
    app.key(Key::Char(a), at(10.0));
    let wrong = if first.chars().nth(1) == Some('#') {
        '%'
    } else {
        '#'
    };
    app.key(Key::Char(wrong), at(110.0));
    app.key(Key::Backspace, at(210.0));
    let Body::Play(play) = app.model(210.0, &UTC).body else {
        panic!()
    };
    assert_eq!(
        play.caret,
        (0, 1),
        "the wrong key isn't typed, nor the right one undone"
    );
}

/// Issue 43: a linked game asks the player's settings once; kept ones are taken here
/// (and kept on this device), none are answered with this game's; a change goes to the
/// server, and a change made while the answer was on its way wins over it.
#[test]
fn a_linked_games_settings_are_the_players_on_every_device() {
    use crate::request::{Answer, Request};
    let ada = || Player {
        name: "ada".into(),
        token: "t".into(),
    };
    let asks = |fx: &[Effect]| {
        fx.iter()
            .filter_map(|e| match e {
                Effect::Request(r @ (Request::Settings(_) | Request::SaveSettings { .. })) => {
                    Some(r.clone())
                }
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    // Not linked: nothing asked.
    let mut app = fresh();
    assert_eq!(asks(&app.tick(at(0.0))), []);
    // Linked: asked once.
    app.player = Some(ada());
    assert_eq!(asks(&app.tick(at(10.0))), [Request::Settings("t".into())]);
    assert_eq!(asks(&app.tick(at(20.0))), []);
    // Kept on the server: taken, and kept here.
    let fx = app.answer(
        Answer::Settings(Ok("theme nord\nlive wpm\n".into())),
        at(30.0),
    );
    assert_eq!(app.settings.theme.name, "nord");
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Save { key, .. } if key == storage::SETTINGS))
    );
    // A change here goes there.
    app.key(Key::Char('s'), at(40.0));
    let fx = app.key(Key::Char('s'), at(50.0));
    let [Request::SaveSettings { token, text }] = &asks(&fx)[..] else {
        panic!("{fx:?}")
    };
    assert_eq!(token, "t");
    assert!(text.contains("\nlive off\n"), "{text}");

    // A second device with none kept on the server sends its own.
    let mut app = fresh();
    app.player = Some(ada());
    app.tick(at(0.0));
    let fx = app.answer(Answer::Settings(Ok(String::new())), at(10.0));
    assert!(matches!(&asks(&fx)[..], [Request::SaveSettings { .. }]));
    // One changed while the answer was on its way keeps its own, and sends them.
    let mut app = fresh();
    app.player = Some(ada());
    app.tick(at(0.0));
    let fx = app.key(Key::Char('s'), at(5.0));
    assert_eq!(asks(&fx), [], "not yet: the answer is coming");
    let fx = app.answer(Answer::Settings(Ok("theme nord\n".into())), at(10.0));
    assert_eq!(app.settings.theme.name, "typepper");
    assert!(matches!(&asks(&fx)[..], [Request::SaveSettings { .. }]));
}

/// Issue 44: a VERSION 1 round (an older game's) is watched and scored by its own rules,
/// and its results say which; a round of today's rules says nothing of them. Racing it
/// plays your round by today's rules beside its ghost by its own.
#[test]
fn an_old_rules_round_is_watched_by_them_and_says_so() {
    use typepper_engine::Rules;
    use typepper_engine::synth::{Typist, synth};
    let typist = Typist {
        wpm: 45,
        ..Typist::default()
    };
    let mut old = synth(Mode::pursuit(7).unwrap(), 3, &typist);
    old.engine = 1;
    let (_, own) = old.play().unwrap();
    assert_eq!(
        own.peak_heat, 100,
        "VERSION 1's HOT PURSUIT peaks at the catch"
    );
    let rules_of = |app: &App, t: f64| {
        let Body::Results(r) = app.model(t, &UTC).body else {
            panic!("no results")
        };
        let heat = r.stats.iter().find(|s| s.label == "peak heat").unwrap();
        let rules = r.stats.iter().find(|s| s.label == "rules");
        (heat.value.clone(), rules.map(|s| s.value.clone()))
    };
    let mut app = fresh();
    app.watch(old.clone(), Some("ada".into()), 0.0).unwrap();
    let end = f64::from(own.duration_ms) + 1_000.0;
    app.tick(at(end));
    assert_eq!(
        rules_of(&app, end),
        (
            "100 CAROLINA REAPER".to_owned(),
            Some("VERSION 1".to_owned())
        )
    );
    let mut new = old.clone();
    new.engine = Rules::NEWEST.version();
    let (_, today) = new.play().unwrap();
    assert!(today.peak_heat < 100, "{}", today.peak_heat);
    app.watch(new, Some("ada".into()), end).unwrap();
    let end = end + f64::from(today.duration_ms) + 1_000.0;
    app.tick(at(end));
    assert_eq!(rules_of(&app, end).1, None);
    // Raced: your round records today's rules, the ghost keeps its own.
    app.race(old, "ada".into()).unwrap();
    let app::Screen::Play(s) = &app.screen else {
        panic!()
    };
    assert_eq!(s.round.rules(), Rules::NEWEST);
    let ghost = s.ghost.as_ref().expect("a ghost");
    assert_eq!(ghost.round.rules(), Rules::V1);
}
