//! Racing a replay, through the game as a shell drives it: keys, ticks and models.

use typepper_api::BoardRow;
use typepper_engine::synth::{Typist, synth};
use typepper_engine::{Mode, Replay};
use typepper_game::app::{App, BEST_HERE, Effect, Key, Now, Screen};
use typepper_game::mirror::Mirror;
use typepper_game::model::{Body, Model, Play};
use typepper_game::request::{Answer, Request};
use typepper_game::storage::Stored;
use typepper_game::zone::Fixed;

const UTC: Fixed = Fixed(0);

fn at(mono: f64) -> Now {
    Now {
        mono,
        unix_ms: 1_796_154_720_000 + mono as u64,
    }
}

/// The server's answer to a request for run `id`: `bytes`.
fn run(id: &str, bytes: Vec<u8>) -> Answer {
    Answer::Run {
        id: id.into(),
        bytes: Ok(bytes),
    }
}

fn fresh() -> App {
    App::new(7, &Stored::default(), None).0
}

/// A game linked as bob, served at `game_url`.
fn linked(game_url: Option<&str>) -> App {
    let bob = typepper_api::Player {
        name: "bob".into(),
        token: "t".into(),
    };
    let stored = Stored {
        player: Some(typepper_game::storage::format_player(&bob)),
        ..Stored::default()
    };
    App::new(7, &stored, game_url.map(str::to_owned)).0
}

fn ghost_of(wpm: u32, mode: Mode) -> Replay {
    synth(
        mode,
        11,
        &Typist {
            wpm,
            zen_ms: 6_000,
            ..Typist::default()
        },
    )
}

fn play(app: &App, now: f64) -> Play {
    match app.model(now, &UTC).body {
        Body::Play(play) => play,
        body => panic!("not playing: {body:?}"),
    }
}

/// Types what the screen asks for, a key every `gap` ms from `*t`, for `keys` keys (or
/// until the round ends), ticking as a shell does between keys.
fn type_for(app: &mut App, t: &mut f64, gap: f64, keys: usize) {
    for _ in 0..keys {
        let Screen::Play(_) = app.screen() else {
            return;
        };
        let p = play(app, *t);
        let word = p.word(p.caret.0).expect("the current word").target();
        let c = word.chars().nth(p.caret.1).unwrap_or(' ');
        app.key(Key::Char(c), at(*t));
        *t += gap;
        app.tick(at(*t));
    }
}

#[test]
fn the_ghost_is_where_watching_the_replay_is_at_the_same_time() {
    let replay = ghost_of(70, Mode::BLITZ_15);
    // Two races with different typing, and one watch of the same replay.
    let mut runs = vec![];
    for gap in [90.0, 260.0] {
        let mut app = fresh();
        app.race(replay.clone(), "ada".into()).unwrap();
        let mut t = 1_000.0;
        let origin = t;
        let mut seen = vec![];
        while matches!(app.screen(), Screen::Play(_)) && t < origin + 14_000.0 {
            type_for(&mut app, &mut t, gap, 1);
            let ghost = play(&app, t).ghosts.pop().expect("a ghost");
            seen.push(((t - origin) as u32, ghost.caret));
        }
        runs.push(seen);
    }
    let mut watch = fresh();
    watch.watch(replay.clone(), None, 0.0).unwrap();
    // Watching starts its round 600 ms after it opens.
    let watched_at = |watch: &mut App, round_ms: u32| {
        let now = 600.0 + f64::from(round_ms);
        watch.tick(at(now));
        play(watch, now).caret
    };
    for seen in &runs {
        assert!(seen.len() > 40, "{}", seen.len());
        for &(ms, caret) in seen {
            let mut w = fresh();
            w.watch(replay.clone(), None, 0.0).unwrap();
            assert_eq!(caret, watched_at(&mut w, ms), "at {ms} ms");
        }
    }
    // Watching in one go lands on what each race showed, whatever its player typed.
    let mut last = (0, (0, 0));
    for &(ms, caret) in &runs[0] {
        if ms >= last.0 {
            assert_eq!(caret, watched_at(&mut watch, ms), "at {ms} ms");
            last = (ms, caret);
        }
    }
}

#[test]
fn neither_round_reads_the_other_s_inputs() {
    let replay = ghost_of(60, Mode::BLITZ_15);
    let mut app = fresh();
    app.race(replay.clone(), "ada".into()).unwrap();
    let mut t = 0.0;
    type_for(&mut app, &mut t, 150.0, 30);
    // A wrong key and a backspace, for good measure.
    app.key(Key::Char('#'), at(t));
    app.key(Key::Backspace, at(t + 10.0));
    t += 50.0;
    app.tick(at(t));
    let Screen::Play(session) = app.screen() else {
        panic!()
    };
    let ghost = session.ghost.as_ref().expect("a ghost");
    let (ours, theirs) = (session.round.replay(), ghost.round.replay());
    assert_eq!(ours.inputs.len(), 32, "exactly the keys typed");
    assert_eq!(ours.seed, replay.seed);
    let n = theirs.inputs.len();
    assert!(n > 0 && n < replay.inputs.len());
    assert_eq!(
        theirs.inputs[..],
        replay.inputs[..n],
        "the ghost took its replay's inputs and nothing else"
    );
    // Played alone, your inputs come to the same round as in the race.
    let mut solo = fresh();
    solo.play(Mode::BLITZ_15, Some(replay.seed));
    let mut u = 0.0;
    type_for(&mut solo, &mut u, 150.0, 30);
    solo.key(Key::Char('#'), at(u));
    solo.key(Key::Backspace, at(u + 10.0));
    let Screen::Play(s) = solo.screen() else {
        panic!()
    };
    assert_eq!(s.round.replay(), ours);
}

#[test]
fn the_lead_changes_hands_and_the_results_show_both_rounds() {
    let replay = ghost_of(45, Mode::BLITZ_15);
    let (_, theirs) = replay.play().unwrap();
    let mut app = fresh();
    app.race(replay.clone(), "ada".into()).unwrap();
    let m = app.model(0.0, &UTC);
    assert_eq!(m.banner.as_deref(), Some("RACE · BLITZ 15s · vs ada"));
    assert_eq!(Mirror::of(&m).ghost, "tied with ada");
    // Fast for three seconds, then nothing.
    let mut t = 0.0;
    type_for(&mut app, &mut t, 60.0, 50);
    let ahead = play(&app, t).ghosts.pop().unwrap();
    assert!(ahead.lead.chars > 0 && ahead.lead.ms > 0, "{ahead:?}");
    let words = Mirror::of(&app.model(t, &UTC)).ghost;
    assert!(words.starts_with("you lead ada by "), "{words}");
    while matches!(app.screen(), Screen::Play(_)) {
        t += 100.0;
        app.tick(at(t));
        if let Screen::Play(_) = app.screen()
            && t > 14_000.0
        {
            let behind = play(&app, t).ghosts.pop().unwrap();
            assert!(behind.lead.chars < 0 && behind.lead.ms < 0, "{behind:?}");
            let words = Mirror::of(&app.model(t, &UTC)).ghost;
            assert!(words.starts_with("ada leads you by "), "{words}");
        }
    }
    let m = app.model(t, &UTC);
    assert_eq!(m.banner.as_deref(), Some("RACE · BLITZ 15s · vs ada"));
    let Body::Results(r) = &m.body else { panic!() };
    let race = r.race.as_ref().expect("a race's results");
    let ghost_line = r.chart.lines().next().expect("the ghost's line first");
    let ghost_wpm: Vec<u32> = ghost_line.points().collect();
    let theirs_wpm: Vec<u32> = theirs.samples.iter().map(|s| s.wpm_x100).collect();
    assert_eq!(ghost_wpm, theirs_wpm);
    assert_eq!(race.changes.len(), 1, "{:?}", race.changes);
    let wpm = &race.rows[1];
    assert_eq!(
        (wpm.you.as_str(), wpm.them.clone()),
        (
            r.stats[0].value.as_str(),
            typepper_engine::Hundredths(theirs.wpm_x100).to_string()
        )
    );
    let line = Mirror::of(&m).ghost;
    assert!(line.contains(" · score "), "{line}");
    assert!(line.contains(" · accuracy "), "{line}");
    assert!(
        line.contains(&format!("the lead changed hands at {} s", race.changes[0])),
        "{line}"
    );
    assert!(
        line.starts_with("you won by ")
            || line.starts_with("ada won by ")
            || line.starts_with("a tie"),
        "{line}"
    );
    // Enter races the same ghost again.
    app.key(Key::Enter, at(t));
    let Screen::Play(s) = app.screen() else {
        panic!()
    };
    assert_eq!(s.ghost.as_ref().unwrap().round.replay().inputs.len(), 0);
    assert_eq!(s.round.seed(), replay.seed);
}

#[test]
fn a_ghost_whose_round_ended_stays_where_it_ended() {
    let replay = ghost_of(60, Mode::ZEN);
    let mut app = fresh();
    app.race(replay.clone(), BEST_HERE.into()).unwrap();
    app.key(Key::Char('x'), at(0.0));
    app.tick(at(7_000.0));
    let at7 = play(&app, 7_000.0).ghosts.pop().unwrap();
    app.tick(at(20_000.0));
    let at20 = play(&app, 20_000.0).ghosts.pop().unwrap();
    assert!(at7.over && at20.over);
    assert_eq!(at7.caret, at20.caret);
    assert!(
        at20.words().ends_with("your best here's round is over"),
        "{}",
        at20.words()
    );
    let (round, _) = replay.play().unwrap();
    assert_eq!(at20.caret, round.view(0).caret());
}

#[test]
fn a_race_is_your_own_round_kept_and_sent() {
    let replay = ghost_of(60, Mode::ZEN);
    let mut app = linked(None);
    app.race(replay.clone(), "ada".into()).unwrap();
    let mut t = 0.0;
    type_for(&mut app, &mut t, 120.0, 20);
    let fx = app.key(Key::Escape, at(t));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Request(Request::Submit { .. }))),
        "{fx:?}"
    );
    assert_eq!(app.history().len(), 1);
    assert_eq!(app.history()[0].replay.seed, replay.seed);
    assert_eq!(app.outbox().len(), 1);
}

fn model_after(app: &mut App, key: Key) -> Model {
    app.key(key, at(0.0));
    app.model(0.0, &UTC)
}

#[test]
fn g_races_from_the_menu_history_boards_a_replay_and_its_results() {
    let mut app = fresh();
    let m = model_after(&mut app, Key::Char('g'));
    assert_eq!(
        m.notice.as_ref().map(|(n, _)| n.as_str()),
        Some("no BLITZ 15s round in your history yet: play one, then race it")
    );
    // Two rounds of BLITZ 15s: the menu races the better one.
    let entries: Vec<_> = [50, 70]
        .into_iter()
        .map(|wpm| {
            let r = synth(
                Mode::BLITZ_15,
                u64::from(wpm),
                &Typist {
                    wpm,
                    ..Typist::default()
                },
            );
            typepper_game::storage::Entry {
                unix_ms: u64::from(wpm),
                score: r.play().unwrap().1,
                replay: r,
                share: None,
                room: false,
            }
        })
        .collect();
    let stored = Stored {
        history: typepper_game::storage::format_history(&entries),
        ..Stored::default()
    };
    let mut app = App::new(7, &stored, None).0;
    let best = app.history()[1].score.headline();
    let Body::Menu(menu) = app.model(0.0, &UTC).body else {
        panic!()
    };
    assert_eq!(
        menu.race.as_deref(),
        Some(format!("g races your best here: {best}").as_str())
    );
    let m = model_after(&mut app, Key::Char('g'));
    assert_eq!(
        m.banner.as_deref(),
        Some("RACE · BLITZ 15s · vs your best here")
    );

    // The history's older row is named by its score.
    app.key(Key::Escape, at(0.0));
    app.key(Key::Char('h'), at(0.0));
    app.key(Key::Down, at(0.0));
    let older = app.history()[0].score.headline();
    let m = model_after(&mut app, Key::Char('g'));
    assert_eq!(
        m.banner,
        Some(format!("RACE · BLITZ 15s · vs your {older} round"))
    );

    // Esc goes back to the history it was raced from (the play-test: to the menu).
    assert_eq!(m.hints, "tab start the race again · esc back");
    app.key(Key::Escape, at(0.0));
    assert!(matches!(app.screen(), Screen::History));

    // A board row: fetched, then raced under its player's name.
    app.key(Key::Escape, at(0.0));
    app.key(Key::Char('b'), at(0.0));
    let row = BoardRow {
        rank: 1,
        name: "grace".into(),
        score: 70,
        wpm: 70.0,
        accuracy: 99.0,
        run: "abcdEFGH".into(),
        time: "2026-12-01T19:52:00Z".into(),
    };
    let board = Answer::Board {
        mode: "time:15".into(),
        period: typepper_api::Period::Month,
        rows: Ok(vec![row]),
    };
    app.answer(board, at(0.0));
    assert_eq!(
        app.key(Key::Char('g'), at(0.0)),
        [Effect::Request(Request::Run("abcdEFGH".into()))]
    );
    assert!(
        app.answer(run("zzzzzzzz", vec![]), at(0.0)).is_empty(),
        "an answer nobody asked for is dropped"
    );
    let bytes = app.history()[1].replay.encode();
    assert!(
        app.answer(run("abcdEFGH", bytes.clone()), at(0.0))
            .is_empty()
    );
    assert_eq!(
        app.model(0.0, &UTC).banner.as_deref(),
        Some("RACE · BLITZ 15s · vs grace")
    );

    // Watching a replay, and at its results: g races it under the same name.
    app.key(Key::Escape, at(0.0));
    app.watch_bytes(&bytes, Some("grace".into()), 0.0).unwrap();
    assert_eq!(
        model_after(&mut app, Key::Char('g')).banner.as_deref(),
        Some("RACE · BLITZ 15s · vs grace")
    );
    app.key(Key::Escape, at(0.0));
    app.watch_bytes(&bytes, Some("grace".into()), 0.0).unwrap();
    app.tick(at(30_000.0));
    assert!(matches!(app.screen(), Screen::Results(_)));
    // Once the results have held their keys a moment.
    app.key(
        Key::Char('g'),
        at(30_000.0 + typepper_game::app::RESULTS_HOLD_MS),
    );
    assert_eq!(
        app.model(31_000.0, &UTC).banner.as_deref(),
        Some("RACE · BLITZ 15s · vs grace")
    );

    // A bad replay is refused as watching refuses it.
    app.key(Key::Escape, at(0.0));
    let err = app.race_bytes(b"nope", None).unwrap_err();
    assert!(err.contains("not a replay"), "{err}");
    assert_eq!(app.notice(), Some(err.as_str()));
}

/// Ends the race on `app`'s screen at `t`, and answers its submission as the server
/// does a round on a seed it didn't issue: stored as run `abcdEFGH`, unranked.
fn end_and_store(app: &mut App, t: f64) {
    let fx = app.key(Key::Escape, at(t));
    let Some(Effect::Request(Request::Submit { keys, .. })) = fx.last() else {
        panic!("{fx:?}")
    };
    let answer = "ok abcdEFGH 40 - https://r.typepper.com/abcdEFGH unranked not played on a seed the server issued to you\n";
    let answer = Answer::Submitted {
        keys: keys.clone(),
        answer: Ok(answer.into()),
    };
    app.answer(answer, at(0.0));
}

#[test]
fn tab_in_a_race_starts_it_again_and_the_results_copy_a_race_link() {
    let replay = ghost_of(60, Mode::ZEN);
    let mut app = linked(Some("https://typepper.com/"));
    app.race(replay.clone(), "ada".into()).unwrap();
    let mut t = 0.0;
    type_for(&mut app, &mut t, 120.0, 5);
    app.key(Key::Tab, at(t));
    let Screen::Play(s) = app.screen() else {
        panic!()
    };
    assert!(s.round.replay().inputs.is_empty() && s.ghost.is_some());
    type_for(&mut app, &mut t, 120.0, 20);
    end_and_store(&mut app, t);
    assert!(app.model(t, &UTC).hints.contains("C copy race link"));
    let t = t + typepper_game::app::RESULTS_HOLD_MS;
    assert_eq!(
        app.key(Key::Char('C'), at(t)),
        [Effect::Copy("https://typepper.com/?race=abcdEFGH".into())]
    );
    assert_eq!(
        app.model(t, &UTC).notice.as_ref().map(|(n, _)| n.as_str()),
        Some("race link copied")
    );
}

/// The play-test: `C` did nothing in the terminal game, though the README lists it. A
/// game that doesn't know the page it is served on says where the race is instead.
#[test]
fn c_in_a_game_with_no_page_says_where_the_race_link_is() {
    let replay = ghost_of(60, Mode::ZEN);
    let mut app = linked(None);
    app.race(replay, "ada".into()).unwrap();
    let mut t = 0.0;
    type_for(&mut app, &mut t, 120.0, 20);
    end_and_store(&mut app, t);
    assert!(!app.model(t, &UTC).hints.contains("C copy race link"));
    let t = t + typepper_game::app::RESULTS_HOLD_MS;
    assert_eq!(app.key(Key::Char('C'), at(t)), []);
    assert_eq!(
        app.model(t, &UTC).notice.as_ref().map(|(n, _)| n.as_str()),
        Some("no race link here: the share link (c) races it")
    );
}
