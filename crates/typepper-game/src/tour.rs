//! A tour of every screen in the states a player meets, for the shells' tests: a game is
//! played through the same calls a shell makes (keys, text, ticks and the server's
//! answers), and each stop keeps the model then on screen. Each shell draws every stop
//! and checks that every phrase of [`Model::words`] is on its screen, so a word the
//! model gains reaches both shells or fails a test.

use typepper_api::daily::Daily;
use typepper_api::{BoardRow, IssuedSeed, Player};
use typepper_engine::Mode;
use typepper_engine::synth::{Typist, synth};

use crate::app::{App, Key, Now, Screen};
use crate::model::{Body, Model};
use crate::request::{Answer, Failure};
use crate::storage::Stored;
use crate::zone::Fixed;

/// One stop: what it shows, and the model.
pub struct Stop {
    /// The screen's [`crate::model::Kind`] name, then what state it is in:
    /// `results, a race`.
    pub name: &'static str,
    /// The screen's model there.
    pub model: Model,
}

impl Stop {
    /// The phrases of [`Model::words`] that `drawn` (all a shell drew of this stop, as
    /// text) lacks. White space and the `·` between a line's parts are squeezed on both
    /// sides: a phrase split over styled spans, padded into columns, or wrapped where a
    /// `·` stood, reads the same.
    pub fn missing(&self, drawn: &str) -> Vec<String> {
        let squeeze = |text: &str| {
            let words = text.split_whitespace().filter(|w| *w != "·");
            words.collect::<Vec<_>>().join(" ")
        };
        let drawn = squeeze(drawn);
        let words = self.model.words().into_iter();
        words.filter(|w| !drawn.contains(&squeeze(w))).collect()
    }
}

/// 2026-12-01T12:00:00Z, when the tour's game starts.
const START_MS: u64 = 1_796_126_400_000;

/// A game being toured, its clock, and the stops so far.
struct Tour {
    app: App,
    t: f64,
    stops: Vec<Stop>,
}

impl Tour {
    fn now(&self) -> Now {
        Now {
            mono: self.t,
            unix_ms: START_MS + self.t as u64,
        }
    }

    fn see(&mut self, name: &'static str) {
        let model = self.app.model(self.t, &Fixed(0));
        self.stops.push(Stop { name, model });
    }

    fn key(&mut self, key: Key) {
        self.app.key(key, self.now());
    }

    fn char(&mut self, c: char) {
        self.key(Key::Char(c));
    }

    /// Moves the clock on by `ms`, a frame each 50 ms.
    fn wait(&mut self, ms: f64) {
        self.wait_by(ms, 50.0);
    }

    /// Moves the clock on by `ms`, a frame each `frame` ms.
    fn wait_by(&mut self, ms: f64, frame: f64) {
        let end = self.t + ms;
        while self.t < end {
            self.t = (self.t + frame).min(end);
            self.app.tick(self.now());
        }
    }

    /// The current word typed right, a key every `gap` ms; false once the round is over.
    fn type_clean(&mut self, gap: f64) -> bool {
        let Body::Play(play) = self.app.model(self.t, &Fixed(0)).body else {
            return false;
        };
        let Some(word) = play.word(play.caret.0).map(crate::model::Word::target) else {
            return false;
        };
        for c in word.chars().chain([' ']) {
            self.wait(gap);
            self.char(c);
        }
        true
    }

    /// Types `n` words of the round on screen, 150 ms a key but 450 ms an `e`, each
    /// word's first letter wrong and then mended: the rounds have errors to show, and
    /// the keys a slow letter to drill.
    fn type_words(&mut self, n: usize) {
        for _ in 0..n {
            let Body::Play(play) = self.app.model(self.t, &Fixed(0)).body else {
                return;
            };
            let Some(word) = play.word(play.caret.0).map(crate::model::Word::target) else {
                return;
            };
            self.char('#');
            self.wait(150.0);
            self.key(Key::Backspace);
            for c in word.chars().chain([' ']) {
                self.wait(if c == 'e' { 450.0 } else { 150.0 });
                self.char(c);
            }
        }
    }
}

/// Every screen, in the states the model's own tests reach: the menu new, linked, with a
/// notice, a ranked seed and a drill; each mode played, watched and raced; their
/// results, ranked and shared, won and lost; the history empty and full; linking; each
/// board's states; the keys by errors and by time.
pub fn stops() -> Vec<Stop> {
    let mut tour = Tour {
        app: App::new(7, &Stored::default(), None).0,
        t: 0.0,
        stops: vec![],
    };
    tour.see("menu, new");
    for (key, name) in [('h', "history, empty"), ('k', "keys, empty")] {
        tour.char(key);
        tour.see(name);
        tour.key(Key::Escape);
    }

    // Linking: a refused name, then one the server takes.
    tour.char('l');
    tour.see("link, empty");
    tour.key(Key::Tab);
    tour.see("link, a code");
    tour.key(Key::Tab);
    tour.char('x');
    tour.key(Key::Enter);
    tour.see("link, refused");
    tour.app.text("ada", tour.now());
    tour.key(Key::Enter);
    tour.see("link, waiting");
    tour.app.linked(Ok(Player {
        name: "xada".into(),
        token: "t0k3n".into(),
    }));
    tour.see("menu, just linked");
    tour.key(Key::Escape);
    let expires = "2026-12-01T13:00:00Z".to_owned();
    let issued = IssuedSeed {
        mode: "time:15".into(),
        seed: 42,
        expires,
        daily: None,
        unranked: None,
    };
    tour.app.seed_issued("time:15", Ok(issued), START_MS);
    tour.see("menu, linked, BLITZ 15s ranked");
    devices(&mut tour);
    profile(&mut tour);

    // BLITZ 15s on the issued seed, with the live stats, shared by the server.
    tour.char('1');
    tour.see("playing, before the first key");
    tour.type_words(4);
    tour.see("playing, BLITZ 15s under way");
    tour.wait(16_000.0);
    let keys: Vec<String> = tour.app.outbox().iter().map(|o| o.key()).collect();
    let answer = "ok abcdEFGH 40 - http://typepper.test/r/abcdEFGH\n";
    tour.app.submitted(&keys, Ok(answer.into()));
    tour.see("results, ranked and shared");
    tour.wait(2_000.0);
    tour.key(Key::Escape);
    tour.char('k');
    tour.see("keys, one round");
    tour.key(Key::Escape);
    tour.char('1');
    tour.type_words(1);
    tour.wait(16_000.0);

    // Watched, then raced.
    tour.wait(2_000.0);
    tour.char('r');
    tour.wait(3_000.0);
    tour.see("replay, under way");
    tour.key(Key::Escape);
    tour.char('g');
    tour.type_words(3);
    tour.see("playing, a race");
    tour.wait(16_000.0);
    tour.see("results, a race");
    tour.key(Key::Escape);

    // ZEN without the live stats (`s` steps speed, accuracy, neither, both), and HOT
    // PURSUIT until the flame catches up.
    for _ in 0..3 {
        tour.char('s');
    }
    tour.char('z');
    tour.type_words(3);
    tour.see("playing, ZEN");
    tour.key(Key::Escape);
    tour.see("results, ZEN");
    tour.key(Key::Escape);
    tour.char('s');
    tour.char('r');
    tour.type_words(3);
    tour.see("playing, HOT PURSUIT");
    while matches!(tour.app.screen(), Screen::Play(_)) {
        tour.wait(1_000.0);
    }
    tour.see("results, HOT PURSUIT");
    tour.key(Key::Escape);

    // The text's options: WORDS 25 with punctuation in French to its end, then BLITZ in
    // Russian; then back to plain English for the rest.
    tour.char('.');
    tour.char('@');
    tour.char('@');
    tour.see("menu, punctuation · français");
    tour.char('w');
    tour.type_words(3);
    tour.see("playing, WORDS 25 · punctuation · français");
    tour.type_words(22);
    tour.see("results, WORDS 25 · punctuation · français");
    tour.key(Key::Escape);
    tour.char('.');
    for _ in 0..10 {
        tour.char('@');
    }
    tour.char('1');
    tour.type_words(3);
    tour.see("playing, BLITZ 15s · русский");
    tour.key(Key::Escape);
    tour.char('@');
    tour.char('@');

    // The settings, their third row picked, a theme and a caret changed.
    tour.char('o');
    tour.key(Key::Right);
    tour.key(Key::Down);
    tour.key(Key::Enter);
    tour.key(Key::Down);
    tour.key(Key::Down);
    tour.see("settings");
    // Back as they were, for the stops after.
    tour.key(Key::Up);
    tour.key(Key::Up);
    tour.key(Key::Left);
    tour.key(Key::Up);
    tour.key(Key::Left);
    tour.key(Key::Escape);

    // Your own text: its screen empty, then pasted (lines and all), its round to its end;
    // then a quote to its end, whose results credit its author.
    tour.char('c');
    tour.see("text, empty");
    let pasted =
        "Le cœur a ses raisons que la raison ne connaît point.\nOn le sait en mille choses.";
    tour.app.text(pasted, tour.now());
    tour.see("text, pasted");
    tour.key(Key::Enter);
    tour.type_words(3);
    tour.see("playing, CUSTOM TEXT");
    tour.type_words(20);
    tour.see("results, CUSTOM TEXT");
    tour.wait(2_000.0);
    tour.key(Key::Escape);
    tour.char('\'');
    tour.type_words(3);
    tour.see("playing, a QUOTE");
    tour.type_words(200);
    tour.see("results, a QUOTE");
    tour.wait(2_000.0);
    tour.key(Key::Escape);

    // Results at the longest each stat gets: a 3-digit wpm, `100 CAROLINA REAPER`,
    // `reached lv20`, an hour of ZEN's counts and time; watched, so with a name.
    let fastest = |zen_ms| Typist {
        wpm: 400,
        accuracy: 100,
        seed: 3,
        zen_ms,
    };
    for (mode, zen_ms, name) in [
        (Mode::BLITZ_60, 0, "results, the fastest BLITZ"),
        (
            Mode::pursuit(20).unwrap_or(Mode::ZEN),
            0,
            "results, HOT PURSUIT from lv20",
        ),
        (Mode::ZEN, 3_600_000, "results, an hour of ZEN"),
    ] {
        let replay = synth(mode, 11, &fastest(zen_ms));
        let who = Some("maximilianeberhardt1".into());
        if tour.app.watch(replay, who, tour.t).is_ok() {
            while matches!(tour.app.screen(), Screen::Play(_)) {
                tour.wait_by(60_000.0, 1_000.0);
            }
        }
        tour.see(name);
        tour.key(Key::Escape);
    }

    // The history, the keys it makes, and a drill of them.
    tour.char('h');
    tour.see("history");
    tour.key(Key::Escape);
    tour.char('k');
    tour.see("keys, by errors");
    tour.char('t');
    tour.see("keys, by time");
    tour.char('d');
    tour.type_words(2);
    tour.see("playing, a drill");
    tour.key(Key::Escape);
    tour.see("menu, with a drill");

    // The boards: loading, refused, empty, and rows.
    tour.char('b');
    tour.see("boards, loading");
    tour.app.board_loaded(
        "time:15",
        typepper_api::Period::Month,
        Err(Failure::Refused("the server is away".into())),
    );
    tour.see("boards, refused");
    tour.key(Key::Right);
    tour.app
        .board_loaded("time:30", typepper_api::Period::Month, Ok(vec![]));
    tour.see("boards, empty");
    tour.key(Key::Right);
    let row = |rank: u32, name: &str, score: u32| BoardRow {
        rank,
        name: name.into(),
        score,
        wpm: f64::from(score),
        accuracy: 97.5,
        run: format!("run{rank:05}"),
        time: "2026-12-01T19:52:00Z".into(),
    };
    let rows = vec![
        row(1, "ada", 131),
        row(2, "grace", 118),
        row(3, "linus", 96),
    ];
    tour.app
        .board_loaded("time:60", typepper_api::Period::Month, Ok(rows));
    tour.see("boards, rows");

    // The dailies: today's announced, yesterday's board (`j` on a board, then ←).
    let daily = |number: u32, seed| Daily {
        number,
        day: String::new(),
        ends: String::new(),
        mode: "time:30".into(),
        title: format!("daily #{number} · BLITZ 30s"),
        seed,
        players: 2031,
        board: vec![row(1, "grace", 118), row(2, "ada", 97)],
        yours: None,
    };
    tour.app.daily_loaded(None, Ok(daily(312, None)));
    tour.char('j');
    tour.key(Key::Left);
    tour.app.daily_loaded(Some(311), Ok(daily(311, Some(311))));
    tour.see("boards, a past daily");
    tour.key(Key::Escape);
    tour.see("menu, the daily announced");

    // The daily tried again: its results say why at length, which a phone wraps.
    tour.char('j');
    let again = "you tried daily #312 at 08:15 UTC, and a daily ranks on its first try \
                 only: this round is kept, unranked";
    let seed = IssuedSeed {
        mode: "time:30".into(),
        seed: 312,
        expires: "2026-12-01T13:05:00Z".into(),
        daily: Some(312),
        unranked: Some(again.into()),
    };
    tour.app.daily_issued(Ok(seed));
    tour.type_words(3);
    tour.see("playing, the daily");
    // Then fast and clean to its end, for the results' longest stats.
    while tour.type_clean(45.0) {}
    tour.wait(1_000.0);
    // The daily's round is the last of those waiting to be sent.
    let keys: Vec<String> = tour.app.outbox().iter().map(|o| o.key()).collect();
    let keys = &keys[keys.len().saturating_sub(1)..];
    let answer = "ok abcdEFGH 97 - http://typepper.test/r/abcdEFGH unranked daily #312 counted \
                  your first try already (run N0QsVcq6), and a daily ranks on its first try only\n";
    tour.app.submitted(keys, Ok(answer.into()));
    tour.see("results, the daily tried again");
    tour.wait(2_000.0);
    tour.key(Key::Escape);

    room(&mut tour);

    // A replay that isn't one, said on the menu.
    let _ = tour.app.race_bytes(b"nope", None);
    tour.see("menu, a notice");
    tour.stops
}

/// A live room, as the server's messages would have it: naming yourself for it, its
/// lobby and countdown, a race against two others, and its results.
/// A linked game's devices, and a code that adds one, with its QR code.
fn devices(tour: &mut Tour) {
    use typepper_api::devices::{Device, DeviceCode, Devices};
    tour.char('l');
    tour.see("devices, loading");
    let device = |id: &str, kind: &str, name: &str, this: bool| Device {
        id: id.into(),
        kind: kind.into(),
        name: name.into(),
        added: "2026-11-30T09:30:00Z".into(),
        this,
    };
    let list = Devices {
        name: "xada".into(),
        devices: vec![
            device("web-1", "token", "Firefox on Linux", true),
            device("SHA256:q1w2e3", "key", "SHA256:q1w2e3", false),
        ],
    };
    let now = tour.now();
    tour.app.answer(Answer::Devices(Ok(list)), now);
    tour.see("devices, listed");
    tour.char('a');
    // A 25-module pattern with the three finder squares, as a QR code of a link has.
    let finder = |r: usize, c: usize| {
        let (r, c) = (r % 18, c % 18);
        r < 7 && c < 7 && (r % 6 == 0 || c % 6 == 0 || (2..5).contains(&r) && (2..5).contains(&c))
    };
    let qr = (0..25)
        .map(|r| {
            (0..25)
                .map(|c| {
                    let edge = |i: usize| !(7..18).contains(&i);
                    let corner = edge(r) && edge(c) && !(r >= 18 && c >= 18);
                    let dark = if corner {
                        finder(r, c)
                    } else {
                        (r * 7 + c * 3) % 5 < 2
                    };
                    if dark { '1' } else { '0' }
                })
                .collect()
        })
        .collect();
    let code = DeviceCode {
        code: "K3FQ7M2X".into(),
        link: "http://typepper.test/?device=K3FQ7M2X".into(),
        expires_ms: START_MS as i64 + 600_000,
        qr,
    };
    let now = tour.now();
    tour.app.answer(Answer::DeviceCode(Ok(code)), now);
    tour.see("devices, a code");
    tour.key(Key::Escape);
    tour.key(Key::Escape);
}

/// The linked player's profile: loading, then a year of rounds with their bests, their
/// latest runs and their keys; and one that is no one's.
fn profile(tour: &mut Tour) {
    use typepper_api::profile::{KeyLine, Keys, Profile, ProfileRun, Typed, chart};
    tour.char('p');
    tour.see("profile, loading");
    let run = |run: &str, mode: &str, title: &str, score, ranked| ProfileRun {
        run: run.into(),
        mode: mode.into(),
        title: title.into(),
        score,
        unit: if mode.starts_with("pursuit") {
            "words"
        } else {
            "wpm"
        }
        .into(),
        wpm: f64::from(score),
        accuracy: 97.25,
        time: "2026-11-30T09:30:00Z".into(),
        ranked,
        daily: None,
    };
    // 1,200 rounds, slowly faster, as a server thins them to its points.
    let rounds: Vec<(u32, u32)> = (0..1200u32)
        .map(|i| {
            (
                5_000 + i * 4 + (i * 37 % 11) * 150,
                9_300 + (i * 13 % 7) * 80,
            )
        })
        .collect();
    let key = |key: &str, error_x100, median_ms| KeyLine {
        key: key.into(),
        seen: 120,
        error_x100,
        median_ms,
    };
    let profile = Profile {
        name: "xada".into(),
        joined: "2025-12-01T10:00:00Z".into(),
        all: Typed {
            rounds: 1200,
            seconds: 52_380,
        },
        month: Typed {
            rounds: 31,
            seconds: 1_260,
        },
        bests: vec![
            run("best15aa", "time:15", "BLITZ 15s", 108, true),
            run("bestwd25", "words:25", "WORDS 25", 96, true),
            run("bestpur7", "pursuit:7", "HOT PURSUIT from lv7", 31, true),
        ],
        recent: vec![
            run("late0001", "time:30", "BLITZ 30s", 91, true),
            // A daily tried again: kept, unranked.
            ProfileRun {
                daily: Some(311),
                ..run("late0002", "time:30", "daily #311 · BLITZ 30s", 74, false)
            },
        ],
        chart: chart(&rounds),
        keys: Keys {
            runs: 100,
            missed: vec![key("q", 1250, 240), key("x", 900, 210)],
            slowest: vec![key("z", 300, 260)],
            missed_pairs: vec![key("ei", 1100, 190)],
            slowest_pairs: vec![],
        },
    };
    let now = tour.now();
    tour.app.answer(
        Answer::Profile {
            name: "xada".into(),
            profile: Ok(profile),
        },
        now,
    );
    tour.see("profile, yours");
    tour.key(Key::Escape);
}

fn room(tour: &mut Tour) {
    use typepper_api::room::{Finish, Kept, Opened, Phase, Racer, Say, State};

    // A game never linked names itself for a room; the tour's game is linked, so a
    // second game shows the prompt.
    let mut guest = Tour {
        app: App::new(9, &Stored::default(), None).0,
        t: 0.0,
        stops: vec![],
    };
    guest.char('f');
    guest.app.text("grace", guest.now());
    guest.see("room, naming yourself");
    tour.stops.append(&mut guest.stops);

    let code = "k3fq7m2x";
    tour.char('f');
    let opened = Opened {
        code: code.into(),
        link: format!("https://typepper.test/?room={code}"),
    };
    tour.app.room_opened(Ok(opened));
    tour.app.room_connected();
    let say = |tour: &mut Tour, say: Say| {
        tour.app.room_said(say, tour.now());
    };
    let welcome = Say::Welcome {
        room: code.into(),
        mode: "time:15".into(),
        you: Some(1),
        resume: Some("s3cr3t".into()),
        owner: 1,
        link: None,
        text: None,
    };
    say(tour, welcome);
    let lobby = |phase, states: [State; 3]| Say::Lobby {
        phase,
        racers: ["xada", "grace", "linus"]
            .into_iter()
            .zip(states)
            .zip(1..)
            .map(|((name, state), id)| Racer {
                id,
                name: name.into(),
                state,
                guest: false,
            })
            .collect(),
        owner: 1,
    };
    say(
        tour,
        lobby(Phase::Lobby, [State::Waiting, State::Ready, State::Gone]),
    );
    tour.see("room, lobby");
    say(tour, Say::Countdown(3_000));
    tour.wait(1_000.0);
    tour.see("room, countdown");
    tour.wait(2_000.0);
    say(tour, Say::Go(42));
    let go = tour.t;
    say(
        tour,
        lobby(Phase::Racing, [State::Typing, State::Typing, State::Typing]),
    );
    tour.type_words(3);
    // Grace ahead, linus behind: their keys so far, as the server passes them on.
    let keys = |wpm| {
        let typist = Typist {
            wpm,
            ..Typist::default()
        };
        let replay = synth(Mode::BLITZ_15, 42, &typist);
        let keys = replay
            .timeline()
            .filter_map(|(t, op)| Some((t?, op.code())));
        keys.collect::<Vec<_>>()
    };
    let (grace, linus) = (keys(120), keys(20));
    let now = (tour.t - go) as u32;
    let so_far = |keys: &[typepper_api::room::Key]| keys.iter().take_while(|k| k.0 <= now).count();
    let (g, l) = (so_far(&grace), so_far(&linus));
    say(
        tour,
        Say::Keys {
            racer: 2,
            keys: grace[..g].to_vec(),
        },
    );
    say(
        tour,
        Say::Keys {
            racer: 3,
            keys: linus[..l].to_vec(),
        },
    );
    tour.see("playing, a room's race");
    // Grace types on to the end of her round; linus stops.
    say(
        tour,
        Say::Keys {
            racer: 2,
            keys: grace[g..].to_vec(),
        },
    );
    tour.wait(16_000.0);
    let finish = |racer, headline, share: Option<&str>, kept| Finish {
        racer,
        headline,
        run: share.map(|_| "abcdEFGH".into()),
        share: share.map(str::to_owned),
        kept,
    };
    let guest = Kept::Unranked {
        why: "raced as a guest: link a game to rank your rounds".into(),
    };
    let small = Kept::not_stored("too_little", "too little typing to keep");
    let finishes = vec![
        finish(2, 120, Some("http://typepper.test/r/abcdEFGH"), guest),
        finish(1, 9, None, small),
    ];
    say(tour, Say::Results(finishes));
    tour.see("room, results");
    tour.wait(2_000.0);
    tour.key(Key::Escape);
}

// The tour the shells' tests draw: it reaches every screen, each stop is the screen it
// says, and every stop has words to check.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Kind;

    #[test]
    fn the_tour_stops_at_every_screen_it_names() {
        let stops = stops();
        for stop in &stops {
            let kind = stop.name.split(',').next().unwrap_or_default();
            assert_eq!(kind, stop.model.kind.name(), "{}", stop.name);
            assert!(!stop.model.words().is_empty(), "{}", stop.name);
        }
        for kind in [
            Kind::Menu,
            Kind::Playing,
            Kind::Replay,
            Kind::Results,
            Kind::History,
            Kind::Link,
            Kind::Devices,
            Kind::Boards,
            Kind::Keys,
            Kind::Profile,
            Kind::Room,
        ] {
            assert!(stops.iter().any(|s| s.model.kind == kind), "{kind:?}");
        }
    }

    /// What each stop shows, for a reader of the shells' failures.
    #[test]
    fn every_stop_shows_what_it_names() {
        let stops = stops();
        let words = |name: &str| {
            let stop = stops.iter().find(|s| s.name == name).expect(name);
            stop.model.words().join(" | ")
        };
        for (name, says) in [
            ("link, refused", "letters, digits"),
            ("link, a code", "a code from another device"),
            ("devices, listed", "Firefox on Linux | this device"),
            ("devices, a code", "K3FQ 7M2X | works once, until"),
            (
                "profile, yours",
                "your profile · xada | since 2025-12-01 · 1,200 rounds",
            ),
            ("profile, yours", "personal bests | BLITZ 15s | 108 wpm"),
            ("profile, yours", "latest rounds | BLITZ 30s"),
            ("profile, yours", "most missed keys: q 12.5%, x 9.0%"),
            ("profile, yours", "wpm | accuracy %"),
            ("menu, linked, BLITZ 15s ranked", "RANKED"),
            (
                "results, ranked and shared",
                "share http://typepper.test/r/abcdEFGH",
            ),
            ("results, a race", "won by"),
            ("results, the daily tried again", "daily #312 · BLITZ 30s"),
            (
                "boards, a past daily",
                "daily #311 › | first tries · 2027-10-11 UTC",
            ),
            ("boards, a past daily", "j play it"),
            (
                "menu, the daily announced",
                "daily #312 · BLITZ 30s · 2,031 played",
            ),
            ("results, the daily tried again", "counted your first try"),
            ("playing, HOT PURSUIT", "flame "),
            ("keys, by errors", "d drills these:"),
            ("boards, rows", "grace"),
            ("boards, empty", "be the first"),
            ("menu, a notice", "not a replay"),
            ("results, the fastest BLITZ", "100 CAROLINA REAPER"),
            ("results, HOT PURSUIT from lv20", "100 CAROLINA REAPER"),
            ("results, HOT PURSUIT from lv20", "reached | lv"),
            ("results, an hour of ZEN", "time | 3600.0 s"),
            ("room, naming yourself", "grace"),
            ("room, lobby", "grace | ready"),
            ("room, countdown", "| 2 |"),
            ("playing, a room's race", "to grace"),
            ("room, results", "1st | grace"),
        ] {
            assert!(words(name).contains(says), "{name}: {}", words(name));
        }
    }
}
