//! A live room as the game plays it, through the calls a shell makes: keys, ticks, and
//! the server's messages as the shell hands them over. The server's side is its own
//! crate's tests, and the browser tests race two real games through a real server; these
//! pin the game's half on its own: what it asks for, when, and what it shows.

use typepper_api::Player;
use typepper_api::room::{Ask, Finish, Kept, Key as Sent, Open, Opened, Phase, Racer, Say, State};
use typepper_engine::Mode;
use typepper_engine::synth::{Typist, synth};
use typepper_game::app::{App, Effect, Key, Now, Screen};
use typepper_game::mirror::Mirror;
use typepper_game::model::{Body, Model};
use typepper_game::palette::Tone;
use typepper_game::request::{Answer, Failure, Request};
use typepper_game::storage::{Stored, format_player};
use typepper_game::zone::Fixed;

/// What a shell hands the app from the room's connection, by name.
trait Heard {
    fn opened(&mut self, room: Result<Opened, Failure>) -> Vec<Effect>;
    fn connected(&mut self) -> Vec<Effect>;
    fn said(&mut self, say: Say, now: Now) -> Vec<Effect>;
    fn closed(&mut self, why: &str, now: Now) -> Vec<Effect>;
}

impl Heard for App {
    fn opened(&mut self, room: Result<Opened, Failure>) -> Vec<Effect> {
        self.answer(Answer::RoomOpened(room), at(0.0))
    }
    fn connected(&mut self) -> Vec<Effect> {
        self.answer(Answer::RoomConnected, at(0.0))
    }
    fn said(&mut self, say: Say, now: Now) -> Vec<Effect> {
        self.answer(Answer::RoomSaid(say), now)
    }
    fn closed(&mut self, why: &str, now: Now) -> Vec<Effect> {
        self.answer(Answer::RoomClosed(why.into()), now)
    }
}

const CODE: &str = "k3fq7m2x";
const SEED: u64 = 42;

fn at(mono: f64) -> Now {
    Now {
        mono,
        unix_ms: 1_796_154_720_000 + mono as u64,
    }
}

fn model(app: &App, t: f64) -> Model {
    app.model(t, &Fixed(0))
}

/// The room's lines as the browser's text mirror has them.
fn room_lines(app: &App, t: f64) -> Vec<String> {
    let m = Mirror::of(&model(app, t));
    m.room.lines().map(str::to_owned).collect()
}

/// A game linked as ada, or one never linked, with `seat` kept from an earlier visit.
fn game(linked: bool, seat: Option<&str>) -> App {
    let ada = Player {
        name: "ada".into(),
        token: "t0k3n".into(),
    };
    let stored = Stored {
        player: linked.then(|| format_player(&ada)),
        room: seat.map(str::to_owned),
        ..Stored::default()
    };
    App::new(7, &stored, Some("https://typepper.test/".into())).0
}

fn racers(states: &[(u32, &str, State)]) -> Say {
    Say::Lobby {
        phase: Phase::Lobby,
        racers: states
            .iter()
            .map(|&(id, name, state)| Racer {
                id,
                name: name.into(),
                state,
                guest: false,
            })
            .collect(),
        owner: 1,
    }
}

/// A linked game in room [`CODE`] as racer 1 and its owner, with grace (2) waiting.
fn in_lobby() -> App {
    let mut app = game(true, None);
    assert_eq!(
        app.key(Key::Char('f'), at(0.0)),
        vec![Effect::Request(Request::OpenRoom(Open {
            mode: "time:15".into(),
            text: None
        }))]
    );
    let opened = Opened {
        code: CODE.into(),
        link: format!("https://typepper.test/?room={CODE}"),
    };
    assert_eq!(app.opened(Ok(opened)), vec![Effect::JoinRoom(CODE.into())]);
    assert_eq!(
        app.connected(),
        vec![Effect::RoomSay(Ask::Hello {
            name: None,
            token: Some("t0k3n".into()),
            resume: None,
        })]
    );
    let welcome = Say::Welcome {
        room: CODE.into(),
        mode: "time:15".into(),
        you: Some(1),
        resume: Some("s3cr3t".into()),
        owner: 1,
        link: None,
        text: None,
    };
    let fx = app.said(welcome, at(10.0));
    // The seat is kept, to be taken back after a reload.
    assert!(fx.contains(&Effect::Save {
        key: "room".into(),
        value: format!("{CODE} s3cr3t ")
    }));
    let lobby = racers(&[(1, "ada", State::Waiting), (2, "grace", State::Waiting)]);
    app.said(lobby, at(20.0));
    app
}

/// [`in_lobby`], started and counted down: the text is out at `t` = 3,100.
fn racing() -> App {
    let mut app = in_lobby();
    assert_eq!(
        app.key(Key::Enter, at(100.0)),
        vec![Effect::RoomSay(Ask::Start)]
    );
    app.said(Say::Countdown(3_000), at(100.0));
    let lines = room_lines(&app, 1_200.0);
    assert!(lines.contains(&"2".to_owned()), "{lines:?}");
    assert_eq!(
        Mirror::of(&model(&app, 1_200.0)).words,
        "",
        "no text before the go"
    );
    app.said(Say::Go(SEED), at(3_100.0));
    app
}

/// Grace's keys: a typist's round on the room's seed, as the server passes them on.
fn graces_keys(wpm: u32) -> Vec<Sent> {
    let typist = Typist {
        wpm,
        ..Typist::default()
    };
    let replay = synth(Mode::BLITZ_15, SEED, &typist);
    replay
        .timeline()
        .filter_map(|(t, op)| Some((t?, op.code())))
        .collect()
}

/// Types what the screen asks for, a key every `gap` ms from `*t`, ticking between keys
/// as a shell does; returns the keys sent to the room.
fn type_keys(app: &mut App, t: &mut f64, gap: f64, keys: usize) -> Vec<Sent> {
    let mut sent = vec![];
    for _ in 0..keys {
        let Body::Play(p) = model(app, *t).body else {
            panic!("not racing");
        };
        let word = p.word(p.caret.0).expect("the current word").target();
        let c = word.chars().nth(p.caret.1).unwrap_or(' ');
        let typed = app.key(Key::Char(c), at(*t));
        *t += gap;
        for fx in typed.into_iter().chain(app.tick(at(*t))) {
            match fx {
                Effect::RoomSay(Ask::Keys(keys)) => sent.extend(keys),
                Effect::RoomSay(other) => panic!("said {other:?} while typing"),
                _ => {}
            }
        }
    }
    sent
}

#[test]
fn a_game_never_linked_names_itself_for_the_room_then_opens_and_joins_it() {
    let mut app = game(false, None);
    assert_eq!(app.key(Key::Char('f'), at(0.0)), vec![]);
    assert!(matches!(app.screen(), Screen::Room(_)));
    // A name the server would refuse is refused here, with why.
    for c in "a!".chars() {
        app.key(Key::Char(c), at(0.0));
    }
    assert_eq!(app.key(Key::Enter, at(0.0)), vec![]);
    let Body::Room(room) = model(&app, 0.0).body else {
        panic!("not in a room");
    };
    assert_eq!(room.name.as_deref(), Some("a!"));
    app.key(Key::DeleteWord, at(0.0));
    for c in "grace".chars() {
        app.key(Key::Char(c), at(0.0));
    }
    assert_eq!(
        app.key(Key::Enter, at(0.0)),
        vec![Effect::Request(Request::OpenRoom(Open {
            mode: "time:15".into(),
            text: None
        }))]
    );
    let opened = Opened {
        code: CODE.into(),
        link: format!("https://elsewhere.test/?room={CODE}"),
    };
    app.opened(Ok(opened));
    // The link is this game's own, wherever the server thinks the game is.
    let lines = room_lines(&app, 0.0);
    assert!(
        lines.contains(&format!("link https://typepper.test/?room={CODE}")),
        "{lines:?}"
    );
    assert_eq!(
        app.connected(),
        vec![Effect::RoomSay(Ask::Hello {
            name: Some("grace".into()),
            token: None,
            resume: None,
        })]
    );
}

#[test]
fn a_room_that_could_not_be_opened_says_why_on_the_menu() {
    let mut app = game(true, None);
    app.key(Key::Char('f'), at(0.0));
    app.opened(Err(Failure::Refused(
        "too many rooms from your address".into(),
    )));
    assert!(matches!(app.screen(), Screen::Menu));
    let notice = Mirror::of(&model(&app, 0.0)).notice;
    assert_eq!(notice, "no room: too many rooms from your address");
}

#[test]
fn a_link_that_is_not_a_room_code_says_so() {
    let mut app = game(true, None);
    assert_eq!(app.join_room("nope"), vec![]);
    assert!(matches!(app.screen(), Screen::Menu));
    let notice = Mirror::of(&model(&app, 0.0)).notice;
    assert!(notice.contains("is not a room code"), "{notice}");
}

#[test]
fn the_owner_starts_and_anyone_else_says_ready() {
    let mut app = in_lobby();
    let lines = room_lines(&app, 30.0);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("ada (you) · owner · waiting")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("grace · waiting")),
        "{lines:?}"
    );
    // Grace's game: not the owner.
    let mut grace = game(true, None);
    grace.join_room(CODE);
    grace.connected();
    let welcome = Say::Welcome {
        room: CODE.into(),
        mode: "time:15".into(),
        you: Some(2),
        resume: Some("s".into()),
        owner: 1,
        link: None,
        text: None,
    };
    grace.said(welcome, at(0.0));
    assert_eq!(
        grace.key(Key::Enter, at(0.0)),
        vec![Effect::RoomSay(Ask::Ready)]
    );
    assert_eq!(
        app.key(Key::Enter, at(0.0)),
        vec![Effect::RoomSay(Ask::Start)]
    );
}

/// The play-test: a key waited for the next frame before it was sent, and reached the
/// other browser at p99 65 ms. A key goes out as it is typed.
#[test]
fn keys_go_out_as_typed_and_the_others_are_carets_with_a_standing() {
    let mut app = racing();
    // Before a key, no one leads.
    let lines = room_lines(&app, 3_200.0);
    assert_eq!(lines[0], "1st of 2 · tied with grace", "{lines:?}");
    let mut t = 3_300.0;
    let sent = type_keys(&mut app, &mut t, 90.0, 30);
    // Every key typed went out, in order, in round time from the go.
    assert_eq!(sent.len(), 30);
    // Each with its keydown, not a frame later.
    let Body::Play(p) = model(&app, t).body else {
        panic!("not racing");
    };
    let word = p.word(p.caret.0).expect("the current word").target();
    let c = word.chars().nth(p.caret.1).unwrap_or(' ');
    let fx = app.key(Key::Char(c), at(t));
    assert!(
        matches!(&fx[..], [Effect::RoomSay(Ask::Keys(keys))] if keys.len() == 1),
        "{fx:?}"
    );
    t += 90.0;
    assert!(sent.windows(2).all(|w| w[0].0 <= w[1].0));
    assert_eq!(sent[0].0, 200);
    // Grace is faster: her caret is on ada's text, with her name, place and wpm, and the
    // standing says by how much ada trails.
    let keys = graces_keys(140);
    let upto = keys
        .iter()
        .take_while(|k| f64::from(k.0) < t - 3_100.0)
        .count();
    app.said(
        Say::Keys {
            racer: 2,
            keys: keys[..upto].to_vec(),
        },
        at(t),
    );
    let Body::Play(play) = model(&app, t).body else {
        panic!("not racing");
    };
    assert_eq!(play.ghosts.len(), 1);
    assert_eq!(play.ghosts[0].name, "grace");
    let tag = play.ghosts[0].tag.clone().unwrap_or_default();
    assert!(tag.starts_with("1st · ") && tag.ends_with(" wpm"), "{tag}");
    let (standing, _) = play.lead.clone().expect("a standing");
    assert!(standing.starts_with("2nd of 2 · +"), "{standing}");
    assert!(standing.ends_with(" s to grace"), "{standing}");
    // A key claimed before the text came is never sent: round time starts at the go.
    assert!(sent.iter().all(|k| k.0 > 0));
}

#[test]
fn the_results_list_the_finishers_and_your_round_goes_to_the_history() {
    let mut app = racing();
    let mut t = 3_300.0;
    type_keys(&mut app, &mut t, 110.0, 150);
    let keys = graces_keys(60);
    app.said(Say::Keys { racer: 2, keys }, at(t));
    t += 1_000.0;
    app.tick(at(t));
    let finishes = vec![
        Finish {
            racer: 1,
            headline: 99,
            run: Some("abcdEFGH".into()),
            share: Some("https://typepper.test/r/abcdEFGH".into()),
            kept: Kept::Unranked {
                why: "a room's round".into(),
            },
        },
        Finish {
            racer: 2,
            headline: 60,
            run: None,
            share: None,
            kept: Kept::not_stored(
                "too_little",
                "too little typing to keep: 3 judged keystrokes, and a run needs 20",
            ),
        },
    ];
    let fx = app.said(Say::Results(finishes), at(t));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Save { key, .. } if key == "history")),
        "{fx:?}"
    );
    let lines = room_lines(&app, t);
    let first = lines.iter().find(|l| l.contains("ada (you)")).unwrap();
    // The numbers are the engine's, of the keys seen, not the server's headline.
    assert!(
        first.starts_with("▸ 1st · ada (you) · unranked: a room's round · "),
        "{first}"
    );
    assert!(
        first.ends_with(" · https://typepper.test/r/abcdEFGH"),
        "{first}"
    );
    let second = lines.iter().find(|l| l.contains("grace")).unwrap();
    assert!(
        second.starts_with("  2nd · grace · not stored: too little typing to keep: 3 "),
        "{second}"
    );
    // What became of each round has its colour: dim unranked, and lost when not stored.
    let Body::Room(room) = model(&app, t).body else {
        panic!("the room's results");
    };
    let tones: Vec<_> = room.rows.iter().map(|r| r.state_tone).collect();
    assert_eq!(tones, [Tone::Dim, Tone::Wrong]);
    // Its own row's round is this game's history's newest.
    app.key(Key::Escape, at(t + 2_000.0));
    app.key(Key::Char('h'), at(t + 2_000.0));
    let list = Mirror::of(&model(&app, t + 2_000.0)).list;
    assert!(list.lines().count() >= 1, "{list}");
}

#[test]
fn a_finisher_is_watched_from_the_results_and_esc_comes_back_to_them() {
    let mut app = racing();
    let mut t = 3_300.0;
    type_keys(&mut app, &mut t, 110.0, 40);
    app.said(
        Say::Keys {
            racer: 2,
            keys: graces_keys(60),
        },
        at(t),
    );
    t += 16_000.0;
    app.tick(at(t));
    let finish = |racer| Finish {
        racer,
        headline: 0,
        run: None,
        share: None,
        kept: Kept::Ranked,
    };
    app.said(Say::Results(vec![finish(2), finish(1)]), at(t));
    t += 2_000.0;
    app.key(Key::Enter, at(t));
    let banner = Mirror::of(&model(&app, t)).banner;
    assert!(banner.contains("grace"), "{banner}");
    app.key(Key::Escape, at(t));
    assert!(matches!(app.screen(), Screen::Room(_)));
    // Tab asks for a rematch; the lobby it brings clears the race.
    assert_eq!(
        app.key(Key::Tab, at(t)),
        vec![Effect::RoomSay(Ask::Rematch)]
    );
    app.said(
        racers(&[(1, "ada", State::Waiting), (2, "grace", State::Waiting)]),
        at(t),
    );
    let lines = room_lines(&app, t);
    assert!(
        lines.iter().any(|l| l.contains("grace · waiting")),
        "{lines:?}"
    );
}

#[test]
fn a_lost_connection_is_tried_again_and_the_round_resumes_where_it_was() {
    let mut app = racing();
    let mut t = 3_300.0;
    let sent = type_keys(&mut app, &mut t, 90.0, 20);
    let words = Mirror::of(&model(&app, t)).words;
    assert_eq!(app.closed("the network went", at(t)), vec![]);
    let note = Mirror::of(&model(&app, t)).notice;
    assert!(note.contains("coming back"), "{note}");
    // Nothing until the wait is over, then the same room again.
    assert_eq!(app.tick(at(t + 500.0)), vec![]);
    assert_eq!(
        app.tick(at(t + 1_000.0)),
        vec![Effect::JoinRoom(CODE.into())]
    );
    assert_eq!(
        app.connected(),
        vec![Effect::RoomSay(Ask::Hello {
            name: None,
            token: Some("t0k3n".into()),
            resume: Some("s3cr3t".into()),
        })]
    );
    // The server has its keys: the round is played from them, not from the game's own.
    t += 1_200.0;
    let at_ms = (t - 3_100.0) as u32;
    app.said(
        Say::Resume {
            seed: SEED,
            at: at_ms,
            keys: sent.clone(),
        },
        at(t),
    );
    assert_eq!(Mirror::of(&model(&app, t)).words, words);
    // And typing goes on from there, with nothing sent twice.
    let more = type_keys(&mut app, &mut t, 90.0, 5);
    assert_eq!(more.len(), 5);
    assert!(more[0].0 > sent.last().unwrap().0);
}

#[test]
fn a_reloaded_game_takes_its_seat_back_without_naming_itself_again() {
    let mut app = game(false, Some(&format!("{CODE} s3cr3t grace")));
    assert_eq!(app.join_room(CODE), vec![Effect::JoinRoom(CODE.into())]);
    assert_eq!(
        app.connected(),
        vec![Effect::RoomSay(Ask::Hello {
            name: Some("grace".into()),
            token: None,
            resume: Some("s3cr3t".into()),
        })]
    );
    // Another room's link asks for a name: the seat is that room's only.
    let mut app = game(false, Some(&format!("{CODE} s3cr3t grace")));
    assert_eq!(app.join_room("zzzzzzzz"), vec![]);
    let Body::Room(room) = model(&app, 0.0).body else {
        panic!("not in a room");
    };
    assert_eq!(room.name.as_deref(), Some("grace"));
}

#[test]
fn a_spectator_watches_the_leader() {
    let mut app = game(true, None);
    app.join_room(CODE);
    app.connected();
    let welcome = Say::Welcome {
        room: CODE.into(),
        mode: "time:15".into(),
        you: None,
        resume: None,
        owner: 1,
        link: None,
        text: None,
    };
    app.said(welcome, at(0.0));
    let notice = Mirror::of(&model(&app, 0.0)).notice;
    assert!(notice.contains("you are watching"), "{notice}");
    app.said(
        Say::Lobby {
            phase: Phase::Racing,
            racers: vec![
                Racer {
                    id: 1,
                    name: "ada".into(),
                    state: State::Typing,
                    guest: false,
                },
                Racer {
                    id: 2,
                    name: "grace".into(),
                    state: State::Typing,
                    guest: true,
                },
            ],
            owner: 1,
        },
        at(0.0),
    );
    app.said(
        Say::Resume {
            seed: SEED,
            at: 4_000,
            keys: vec![],
        },
        at(0.0),
    );
    let keys = graces_keys(100);
    let few = keys.iter().take(10).copied().collect();
    let many = keys.iter().take(18).copied().collect();
    app.said(
        Say::Keys {
            racer: 1,
            keys: few,
        },
        at(0.0),
    );
    app.said(
        Say::Keys {
            racer: 2,
            keys: many,
        },
        at(0.0),
    );
    let lines = room_lines(&app, 100.0);
    assert!(lines[0].starts_with("grace leads · 1st of 2"), "{lines:?}");
    // A spectator is labelled as one, and the leads are the leader's, not "yours".
    let seen = Mirror::of(&model(&app, 100.0));
    assert!(seen.banner.ends_with("· watching"), "{}", seen.banner);
    assert!(!seen.room.contains("you lead"), "{}", seen.room);
    assert!(seen.room.contains("grace leads ada by"), "{}", seen.room);
    // Typing does nothing to a round that is not yours.
    assert_eq!(app.key(Key::Char('x'), at(100.0)), vec![]);
    assert_eq!(room_lines(&app, 100.0), lines);
}

/// The terminal knows no game address of its own: joined by a room's code alone, it
/// shows and copies the link the server's welcome gives.
#[test]
fn a_game_joined_by_its_code_alone_copies_the_servers_link() {
    let ada = Player {
        name: "ada".into(),
        token: "t0k3n".into(),
    };
    let stored = Stored {
        player: Some(format_player(&ada)),
        ..Stored::default()
    };
    let mut app = App::new(7, &stored, None).0;
    assert_eq!(app.join_room(CODE), vec![Effect::JoinRoom(CODE.into())]);
    app.connected();
    let link = format!("https://typepper.test/?room={CODE}");
    let welcome = Say::Welcome {
        room: CODE.into(),
        mode: "time:15".into(),
        you: Some(2),
        resume: Some("s3cr3t".into()),
        owner: 1,
        link: Some(link.clone()),
        text: None,
    };
    app.said(welcome, at(0.0));
    app.said(
        racers(&[(1, "grace", State::Waiting), (2, "ada", State::Waiting)]),
        at(1.0),
    );
    assert!(room_lines(&app, 1.0).contains(&format!("link {link}")));
    assert_eq!(app.key(Key::Char('c'), at(2.0)), vec![Effect::Copy(link)]);
}

/// Results of a race of ada (you, 1st) and grace: what the server says at its end.
fn results() -> Say {
    Say::Results(vec![
        Finish {
            racer: 1,
            headline: 99,
            run: Some("abcdEFGH".into()),
            share: Some("https://typepper.test/r/abcdEFGH".into()),
            kept: Kept::Ranked,
        },
        Finish {
            racer: 2,
            headline: 60,
            run: None,
            share: None,
            kept: Kept::not_stored("too_little", "too little typing to keep"),
        },
    ])
}

/// The play-test: a name already in the room was refused by the server, and the game
/// said the server was unreachable and stayed on "joining…" with no way to pick another.
/// The refusal is said, and the name asked for again.
#[test]
fn a_name_already_in_the_room_is_refused_and_asked_for_again() {
    let mut app = game(false, None);
    app.join_room(CODE);
    for c in "ADA_PT".chars() {
        app.key(Key::Char(c), at(0.0));
    }
    assert_eq!(
        app.key(Key::Enter, at(0.0)),
        vec![Effect::JoinRoom(CODE.into())]
    );
    app.connected();
    let why = "ADA_PT is already in this room as ada_pt: pick another name";
    let fx = app.said(Say::Refused(why.into()), at(10.0));
    assert_eq!(fx, vec![Effect::LeaveRoom]);
    // The server closes the connection after a refused hello: nothing more is said.
    app.closed("closed", at(20.0));
    let Screen::Room(room) = app.screen() else {
        panic!("not in a room")
    };
    let naming = room.naming.as_ref().expect("asked for a name again");
    assert_eq!(
        (naming.name.as_str(), naming.error.as_deref()),
        ("ADA_PT", Some(why))
    );
    let notice = Mirror::of(&model(&app, 20.0)).notice;
    assert!(!notice.contains("unreachable"), "{notice}");
    // Another name joins.
    app.key(Key::DeleteWord, at(30.0));
    for c in "ada_2".chars() {
        app.key(Key::Char(c), at(30.0));
    }
    assert_eq!(
        app.key(Key::Enter, at(30.0)),
        vec![Effect::JoinRoom(CODE.into())]
    );
    assert_eq!(
        app.connected(),
        vec![Effect::RoomSay(Ask::Hello {
            name: Some("ada_2".into()),
            token: None,
            resume: None,
        })]
    );
}

/// The play-test: a rematch pulled everyone out of their results the moment it was
/// asked, and an old refusal stayed on the next race's results and in its lobby. The
/// results stay until tab (or a stated moment), and what was said of the last race goes.
#[test]
fn a_rematch_lets_each_racer_finish_reading_and_forgets_the_last_race() {
    let mut app = racing();
    app.said(
        Say::Out {
            racer: 1,
            why: "gaps between keys drawn evenly".into(),
        },
        at(4_000.0),
    );
    app.said(results(), at(20_000.0));
    app.said(
        racers(&[(1, "ada", State::Waiting), (2, "grace", State::Waiting)]),
        at(21_000.0),
    );
    // Still the results, with a line saying how to join the rematch.
    let lines = room_lines(&app, 21_100.0);
    assert!(
        lines.iter().any(|l| l.contains("1st · ada (you)")),
        "{lines:?}"
    );
    let notice = Mirror::of(&model(&app, 21_100.0)).notice;
    assert!(notice.contains("tab joins the lobby"), "{notice}");
    assert!(!notice.contains("evenly"), "{notice}");
    // Tab joins it now; then the lobby, and nothing of the last race is said.
    assert_eq!(app.key(Key::Tab, at(22_000.0)), vec![]);
    let lines = room_lines(&app, 22_000.0);
    assert!(
        lines.iter().any(|l| l.contains("owner · waiting")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("1st ·")), "{lines:?}");
    let notice = Mirror::of(&model(&app, 22_000.0)).notice;
    assert!(!notice.contains("evenly"), "{notice}");
    // Without a key, the lobby comes after 15 s; a countdown brings it at once.
    let mut app = racing();
    app.said(results(), at(20_000.0));
    app.said(
        racers(&[(1, "ada", State::Waiting), (2, "grace", State::Waiting)]),
        at(21_000.0),
    );
    app.tick(at(35_000.0));
    assert!(
        room_lines(&app, 35_000.0)
            .iter()
            .any(|l| l.contains("1st ·"))
    );
    app.tick(at(36_100.0));
    assert!(
        !room_lines(&app, 36_100.0)
            .iter()
            .any(|l| l.contains("1st ·"))
    );
    let mut app = racing();
    app.said(results(), at(20_000.0));
    app.said(
        racers(&[(1, "ada", State::Ready), (2, "grace", State::Ready)]),
        at(21_000.0),
    );
    app.said(Say::Countdown(3_000), at(21_500.0));
    let lines = room_lines(&app, 21_600.0);
    assert!(lines.contains(&"3".to_owned()), "{lines:?}");
}

/// The play-test: `room link copied` stayed through the countdown, the race and the
/// results. It says what the key did for a moment.
#[test]
fn room_link_copied_is_said_for_a_moment() {
    let mut app = in_lobby();
    let fx = app.key(Key::Char('c'), at(1_000.0));
    assert!(matches!(&fx[..], [Effect::Copy(_)]), "{fx:?}");
    assert!(Mirror::of(&model(&app, 1_100.0)).notice.contains("copied"));
    app.tick(at(3_100.0));
    assert!(!Mirror::of(&model(&app, 3_200.0)).notice.contains("copied"));
}

/// The play-test: after the owner left, no one learned they owned the room, and a
/// rematch waited for ever. The lobby says who owns it now, and the new owner starts it.
#[test]
fn an_owner_who_leaves_hands_the_room_on_and_it_is_said() {
    let mut app = game(true, None);
    app.join_room(CODE);
    app.connected();
    let welcome = Say::Welcome {
        room: CODE.into(),
        mode: "time:15".into(),
        you: Some(2),
        resume: Some("s3cr3t".into()),
        owner: 1,
        link: None,
        text: None,
    };
    app.said(welcome, at(0.0));
    app.said(
        racers(&[(1, "grace", State::Waiting), (2, "ada", State::Waiting)]),
        at(1.0),
    );
    // Not the owner: enter says ready.
    assert_eq!(
        app.key(Key::Enter, at(2.0)),
        vec![Effect::RoomSay(Ask::Ready)]
    );
    app.said(
        Say::Lobby {
            phase: Phase::Lobby,
            racers: vec![Racer {
                id: 2,
                name: "ada".into(),
                state: State::Ready,
                guest: false,
            }],
            owner: 2,
        },
        at(3.0),
    );
    let notice = Mirror::of(&model(&app, 4.0)).notice;
    assert_eq!(
        notice,
        "grace left: the room is yours, enter starts the race"
    );
    assert_eq!(
        app.key(Key::Enter, at(5.0)),
        vec![Effect::RoomSay(Ask::Start)]
    );
}

/// The play-test: someone who opened the link after the race ended was told the race was
/// on and never saw the results, and stayed a spectator in the rematch; a spectator's
/// lines said "you lead" as if they raced, and nothing said they watched. A late arrival
/// sees the results and takes a seat at the rematch; a spectator is labelled as one.
#[test]
fn a_late_arrival_sees_the_results_and_races_the_rematch() {
    let mut app = game(true, None);
    app.join_room(CODE);
    app.connected();
    let watching = Say::Welcome {
        room: CODE.into(),
        mode: "time:15".into(),
        you: None,
        resume: None,
        owner: 1,
        link: None,
        text: None,
    };
    app.said(watching, at(0.0));
    let over = Say::Lobby {
        phase: Phase::Over,
        racers: vec![
            Racer {
                id: 1,
                name: "grace".into(),
                state: State::Done,
                guest: false,
            },
            Racer {
                id: 2,
                name: "linus".into(),
                state: State::Done,
                guest: false,
            },
        ],
        owner: 1,
    };
    app.said(over, at(0.0));
    app.said(results(), at(0.0));
    let lines = room_lines(&app, 100.0);
    // A race this game never saw: the server's headlines, worded in the room's mode.
    assert!(
        lines
            .iter()
            .any(|l| l.contains("1st · grace · ranked · 99 wpm")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("2nd · linus · not stored: too little typing to keep · 60 wpm")),
        "{lines:?}"
    );
    let Body::Room(room) = model(&app, 100.0).body else {
        panic!("the room's results");
    };
    assert_eq!(room.rows[0].state_tone, Tone::Ahead, "ranked");
    assert!(
        !lines.iter().any(|l| l.contains("the race is on")),
        "{lines:?}"
    );
    // The rematch seats them: a welcome with a number of their own.
    app.said(
        racers(&[(1, "grace", State::Waiting), (2, "linus", State::Waiting)]),
        at(1_000.0),
    );
    let seated = Say::Welcome {
        room: CODE.into(),
        mode: "time:15".into(),
        you: Some(3),
        resume: Some("s3at".into()),
        owner: 1,
        link: None,
        text: None,
    };
    app.said(seated, at(1_100.0));
    app.key(Key::Tab, at(1_200.0));
    app.said(
        racers(&[
            (1, "grace", State::Waiting),
            (2, "linus", State::Waiting),
            (3, "ada", State::Waiting),
        ]),
        at(1_300.0),
    );
    let lines = room_lines(&app, 1_400.0);
    assert!(
        lines.iter().any(|l| l.contains("ada (you) · waiting")),
        "{lines:?}"
    );
    assert_eq!(
        app.key(Key::Char('r'), at(1_500.0)),
        vec![Effect::RoomSay(Ask::Ready)]
    );
}

/// Keys go as typed, but a paste (or an input method's whole word) goes as one burst of
/// messages of 64 keys, not one message a character: the server closes a connection past
/// 100 messages a second.
#[test]
fn a_paste_in_a_race_goes_out_in_messages_of_many_keys() {
    let mut app = racing();
    let fx = app.text(&"a".repeat(100), at(3_300.0));
    let sizes: Vec<usize> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::RoomSay(Ask::Keys(keys)) => Some(keys.len()),
            _ => None,
        })
        .collect();
    assert_eq!(sizes, [64, 36]);
}

/// `f` with CUSTOM TEXT picked opens a room on your own text; the welcome brings it to
/// every racer, and at the go each round, yours and the others', is on it.
#[test]
fn a_room_on_your_own_text_races_on_it_and_a_text_that_does_not_fit_is_said() {
    let text = "Là-bas — près de la forêt.";
    let ada = Player {
        name: "ada".into(),
        token: "t0k3n".into(),
    };
    let stored = Stored {
        player: Some(format_player(&ada)),
        text: Some(text.into()),
        ..Stored::default()
    };
    let mut app = App::new(7, &stored, None).0;
    // The menu's CUSTOM TEXT line is the fifth below BLITZ.
    for _ in 0..5 {
        app.key(Key::Down, at(0.0));
    }
    assert_eq!(
        app.key(Key::Char('f'), at(0.0)),
        vec![Effect::Request(Request::OpenRoom(Open {
            mode: "custom".into(),
            text: Some(text.into())
        }))]
    );
    app.opened(Ok(Opened {
        code: CODE.into(),
        link: format!("https://typepper.test/?room={CODE}"),
    }));
    app.connected();
    let welcome = Say::Welcome {
        room: CODE.into(),
        mode: "custom".into(),
        you: Some(1),
        resume: None,
        owner: 1,
        link: None,
        text: Some(text.into()),
    };
    app.said(welcome, at(10.0));
    app.said(
        racers(&[(1, "ada", State::Ready), (2, "grace", State::Ready)]),
        at(20.0),
    );
    app.said(Say::Go(SEED), at(3_100.0));
    let Screen::Room(live) = app.screen() else {
        panic!("not in the room")
    };
    let race = live.race.as_ref().expect("racing");
    for id in [1, 2] {
        let round = &race.of(id).unwrap().round;
        assert_eq!(round.custom_text(), Some(text));
        assert_eq!(round.seed(), SEED);
    }

    // A welcome to a custom room without its text is no room to race in.
    let mut app = game(true, None);
    app.key(Key::Char('f'), at(0.0));
    app.opened(Ok(Opened {
        code: CODE.into(),
        link: String::new(),
    }));
    app.connected();
    let bare = Say::Welcome {
        room: CODE.into(),
        mode: "custom".into(),
        you: Some(1),
        resume: None,
        owner: 1,
        link: None,
        text: None,
    };
    assert!(app.said(bare, at(10.0)).contains(&Effect::LeaveRoom));

    // A text longer than a room takes is said on the menu, and nothing opens.
    let stored = Stored {
        player: Some(format_player(&ada)),
        text: Some("word ".repeat(400).trim_end().into()),
        ..Stored::default()
    };
    let mut app = App::new(7, &stored, None).0;
    for _ in 0..5 {
        app.key(Key::Down, at(0.0));
    }
    assert!(app.key(Key::Char('f'), at(0.0)).is_empty());
    let said = Mirror::of(&model(&app, 0.0)).notice;
    assert!(
        said.starts_with("a room's text is at most 1,500 characters"),
        "{said}"
    );
}
