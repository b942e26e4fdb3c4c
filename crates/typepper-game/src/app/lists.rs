//! Word lists and quotes a build lacks. The browser's carries none, English's included,
//! and asks for a language's list, or a language's quotes ([`Request::File`]), when a
//! round needs them, or sooner: as soon as a player picks the language on the menu, a
//! room's mode is known, or a board opens, so that enter rarely waits. A file that comes
//! is checked against its checksum and installed for the run ([`Need::install`]); what
//! waited for it (a round to play, watch or race, a room's race) is done then. The
//! terminal's and the server's builds carry every file, so none of this happens there.

use core::mem::{Discriminant, discriminant};

use typepper_api::room::Say;
use typepper_engine::{Mode, Replay};

use crate::app::{App, Effect, Key, MENU_LETTER_HOLD_MS, Now, Screen};
use crate::model::Tone;
use crate::request::{Failure, Need, Request};
use crate::storage;

/// The files asked for, and what waits for one.
#[derive(Clone, Debug, Default)]
pub(crate) struct Lists {
    /// To ask for at the next chance.
    wanted: Vec<Need>,
    /// Asked for and not answered yet: a file is never asked for twice at once.
    asked: Vec<Need>,
    /// What waits for a file: one thing at most, the last the player asked for.
    waiting: Option<Waiting>,
    /// Files the tests pretend this build lacks until they are answered: the game's
    /// tests carry every one.
    #[cfg(test)]
    pub(crate) hidden: Vec<Need>,
}

impl Lists {
    /// Whether `need` is in.
    fn has(&self, need: Need) -> bool {
        #[cfg(test)]
        if self.hidden.contains(&need) {
            return false;
        }
        need.is_in()
    }
}

/// Something to do once a file is in.
#[derive(Clone, Debug)]
struct Waiting {
    need: Need,
    then: Then,
    /// The screen it was asked from, and how many rounds had started by then: on
    /// another screen, or after another round, it waits no more.
    screen: Discriminant<Screen>,
    sessions: u64,
}

/// What waits for a list.
#[derive(Clone, Debug)]
enum Then {
    /// A round of yours, on `seed` if given; `held` when a letter on the menu started
    /// it, whose next letters are the rest of what was typed there.
    Play {
        mode: Mode,
        seed: Option<u64>,
        held: bool,
    },
    /// A QUOTE round: passage `number`, or one of the menu's length.
    Quote { number: Option<u32> },
    /// A replay to watch, `who`'s round if known.
    Watch { replay: Replay, who: Option<String> },
    /// A replay to race, `name`'s round.
    Race { replay: Replay, name: String },
    /// A room's race, which can't be drawn without its words: what the room said of it
    /// meanwhile was let go, and the room is joined again once the list is in, to be
    /// told the race so far, as a reloaded game is.
    Room,
}

impl App {
    /// What `replay`'s mode needs, if it is yet to be installed. A replay of other rules
    /// or of no known mode is refused as before, without waiting for a file.
    pub(crate) fn unlisted(&self, replay: &Replay) -> Option<Need> {
        let mode: Mode = replay.mode.parse().ok()?;
        let need = Need::of(mode);
        (replay.rules().is_ok() && !self.lists.has(need)).then_some(need)
    }

    /// Asks for what a round of `mode` needs at the next chance, unless it is in or asked
    /// for.
    pub(crate) fn want_list(&mut self, mode: Mode) {
        self.want(Need::of(mode));
    }

    /// Asks for `need` at the next chance, unless it is in or asked for.
    pub(crate) fn want(&mut self, need: Need) {
        let lists = &mut self.lists;
        if !lists.has(need) && !lists.asked.contains(&need) && !lists.wanted.contains(&need) {
            lists.wanted.push(need);
        }
    }

    /// The requests for the files wanted since the last call, each once.
    pub(crate) fn ask_lists(&mut self) -> Vec<Effect> {
        let lists = &mut self.lists;
        let mut fx = vec![];
        for need in core::mem::take(&mut lists.wanted) {
            if !lists.has(need) && !lists.asked.contains(&need) {
                lists.asked.push(need);
                fx.push(Effect::Request(Request::File(need)));
            }
        }
        fx
    }

    /// `then` waits for `need`, which is asked for; the screen says so.
    fn wait_for(&mut self, need: Need, then: Then) {
        self.want(need);
        self.lists.waiting = Some(Waiting {
            need,
            then,
            screen: discriminant(&self.screen),
            sessions: self.sessions,
        });
        let loading = format!("loading {need}…");
        match &mut self.screen {
            Screen::Room(live) => live.say(Some((loading, Tone::Dim))),
            _ => self.notice = Some((loading, Tone::Dim)),
        }
    }

    /// Whether a round of `mode` (on `seed` if given) waits for its list, and if so,
    /// it starts when the list is in.
    pub(crate) fn play_waits(&mut self, mode: Mode, seed: Option<u64>) -> bool {
        let need = Need::of(mode);
        if self.lists.has(need) {
            return false;
        }
        let then = Then::Play {
            mode,
            seed,
            held: false,
        };
        self.wait_for(need, then);
        true
    }

    /// Whether a QUOTE round (passage `number`, or one of the menu's length) waits for
    /// `need`, its language's quotes; if so, it starts when they are in.
    pub(crate) fn play_waits_for(&mut self, need: Need, number: Option<u32>) -> bool {
        if self.lists.has(need) {
            return false;
        }
        self.wait_for(need, Then::Quote { number });
        true
    }

    /// `who`'s `replay` is watched once what it needs is in.
    pub(crate) fn watch_later(&mut self, need: Need, replay: Replay, who: Option<String>) {
        self.wait_for(need, Then::Watch { replay, who });
    }

    /// `name`'s `replay` is raced once what it needs is in.
    pub(crate) fn race_later(&mut self, need: Need, replay: Replay, name: String) {
        self.wait_for(need, Then::Race { replay, name });
    }

    /// A letter on the menu started a round that waits for its list: the letters after
    /// it are the rest of what was typed there, as they are on a round that started.
    pub(crate) fn hold_letters(&mut self) {
        if let Some(Waiting {
            then: Then::Play { held, .. },
            ..
        }) = &mut self.lists.waiting
        {
            *held = true;
        }
    }

    /// A key on the menu while a round waits for its list, if it is the list's: esc
    /// stops waiting, and letters after one that started the round are dropped.
    pub(crate) fn waiting_key(&mut self, key: Key) -> bool {
        let Some(waiting) = &self.lists.waiting else {
            return false;
        };
        let held = matches!(waiting.then, Then::Play { held: true, .. });
        match key {
            Key::Escape => {
                let stopped = format!("stopped waiting for {}", waiting.need);
                self.lists.waiting = None;
                self.notice = Some((stopped, Tone::Dim));
                true
            }
            Key::Char(c) => held && c.is_ascii_alphabetic(),
            _ => false,
        }
    }

    /// Whether what a room says of its race (the text, a resume, racers' keys) comes
    /// while the room's list isn't in: then it is let go, and the room joined again once
    /// the list is in (a list asked for during the lobby rarely keeps anyone waiting).
    pub(crate) fn room_waits(&mut self, say: &Say) -> bool {
        let Screen::Room(live) = &self.screen else {
            return false;
        };
        let need = Need::of(live.mode);
        let race = matches!(say, Say::Go(_) | Say::Resume { .. } | Say::Keys { .. });
        if !race || self.lists.has(need) {
            return false;
        }
        let waits = self.lists.waiting.as_ref();
        if waits.is_none_or(|w| !matches!(w.then, Then::Room)) {
            self.wait_for(need, Then::Room);
        }
        true
    }

    /// The answer to [`Request::File`] for `need`, at `now`: the file installed, and what
    /// waited for it done; or why not, said where the player waits.
    pub(crate) fn file_loaded(
        &mut self,
        need: Need,
        file: Result<String, Failure>,
        now: Now,
    ) -> Vec<Effect> {
        self.lists.asked.retain(|&n| n != need);
        let installed = file
            .map_err(|why| format!("{need} didn't load: {why}"))
            .and_then(|file| {
                need.install(file)
                    .map_err(|why| format!("{need} can't be played: {why}"))
            });
        let waiting = self.lists.waiting.take_if(|w| w.need == need);
        // Still asked for: on the screen it was asked from, and no round since.
        let waiting = waiting
            .filter(|w| w.screen == discriminant(&self.screen) && w.sessions == self.sessions);
        match installed {
            Ok(()) => {
                #[cfg(test)]
                self.lists.hidden.retain(|&n| n != need);
                self.reread_history();
                waiting.map_or_else(Vec::new, |w| self.then(w.then, now))
            }
            Err(why) => {
                if waiting.is_some() {
                    match &mut self.screen {
                        Screen::Room(live) => live.say(Some((why.clone(), Tone::Wrong))),
                        _ => {
                            self.screen = Screen::Menu;
                            self.list = None;
                            self.notice = Some((why.clone(), Tone::Wrong));
                        }
                    }
                }
                vec![Effect::Warn(why)]
            }
        }
    }

    /// Does what waited for a list.
    fn then(&mut self, then: Then, now: Now) -> Vec<Effect> {
        let opened = match then {
            Then::Play { mode, seed, held } => {
                self.play(mode, seed);
                if let (true, Screen::Play(session)) = (held, &mut self.screen) {
                    session.hold = Some(now.mono + MENU_LETTER_HOLD_MS);
                }
                Ok(())
            }
            Then::Quote { number } => {
                self.play_quote(number);
                Ok(())
            }
            Then::Watch { replay, who } => self.watch(replay, who, now.mono),
            Then::Race { replay, name } => self.race(replay, name),
            Then::Room => {
                let Screen::Room(live) = &mut self.screen else {
                    return vec![];
                };
                live.say(Some(("joining…".into(), Tone::Dim)));
                return live
                    .code
                    .clone()
                    .map(Effect::JoinRoom)
                    .into_iter()
                    .collect();
            }
        };
        if let Err(why) = opened {
            self.screen = Screen::Menu;
            self.list = None;
            self.notice = Some((why, Tone::Wrong));
        }
        vec![]
    }

    /// A list came in: the history's rounds that waited for it are read now.
    fn reread_history(&mut self) {
        if self.history_unlisted.is_empty() {
            return;
        }
        let text = storage::format_history_with(&self.history, &self.history_unlisted);
        let read = storage::read_history(&text);
        self.history = read.entries;
        self.history_unlisted = read.unlisted;
    }
}

#[cfg(test)]
mod tests {
    use typepper_api::room::{Phase, Racer, State};
    use typepper_engine::synth::{Typist, synth};
    use typepper_engine::{Blitz, Language, Op, Prose};

    use super::*;
    use crate::request::{Answer, list_file};
    use crate::storage::Stored;

    fn at(mono: f64) -> Now {
        Now {
            mono,
            unix_ms: 1_764_600_000_000 + mono as u64,
        }
    }

    /// A game whose menu is in `language`, whose list it pretends not to have.
    fn lacking(language: Language) -> App {
        let mut app = App::new(7, &Stored::default(), None).0;
        app.picks.prose = Prose {
            language,
            ..Prose::PLAIN
        };
        app.lists.hidden = vec![Need::Words(language)];
        app
    }

    fn asked(fx: &[Effect]) -> Vec<Language> {
        fx.iter()
            .filter_map(|e| match e {
                Effect::Request(Request::File(Need::Words(language))) => Some(*language),
                _ => None,
            })
            .collect()
    }

    fn words(language: Language) -> Answer {
        Answer::File {
            need: Need::Words(language),
            file: Ok(list_file(language).unwrap()),
        }
    }

    #[test]
    fn a_round_waits_for_its_list_which_is_asked_for_once_then_starts() {
        let mut app = lacking(Language::French);
        let fx = app.key(Key::Char('1'), at(0.0));
        assert_eq!(asked(&fx), [Language::French]);
        assert!(matches!(app.screen, Screen::Menu));
        assert_eq!(app.notice(), Some("loading the français words…"));
        // Pressed again while it loads: no second request.
        assert!(asked(&app.key(Key::Enter, at(10.0))).is_empty());
        assert!(asked(&app.tick(at(20.0))).is_empty());
        app.answer(words(Language::French), at(50.0));
        let Screen::Play(s) = &app.screen else {
            panic!("not playing: {:?}", app.screen)
        };
        assert_eq!(s.round.mode().key(), "time:15@fr");
        assert_eq!(app.notice(), None);
    }

    #[test]
    fn a_list_is_fetched_as_soon_as_its_language_is_picked() {
        let mut app = lacking(Language::English10k);
        app.picks.prose.language = Language::English;
        // `@` moves English on to its 10k list: asked for with the key, before enter.
        let fx = app.key(Key::Char('@'), at(0.0));
        assert_eq!(asked(&fx), [Language::English10k]);
        app.answer(words(Language::English10k), at(30.0));
        assert!(matches!(app.screen, Screen::Menu), "nothing waited");
        app.key(Key::Char('w'), at(40.0));
        assert!(matches!(app.screen, Screen::Play(_)), "enter does not wait");
        // A game whose stored menu names a language asks for it at once.
        let stored = Stored {
            menu: Some("15 25 7 /p@de".into()),
            ..Stored::default()
        };
        let mut app = App::new(1, &stored, None).0;
        app.lists.hidden = vec![Need::Words(Language::German)];
        app.lists.wanted.clear();
        app.want(Need::Words(Language::German));
        assert_eq!(asked(&app.tick(at(0.0))), [Language::German]);
    }

    #[test]
    fn a_list_that_does_not_come_or_is_not_the_rules_list_is_said_on_the_menu() {
        let mut app = lacking(Language::Russian);
        app.key(Key::Char('w'), at(0.0));
        let failed = Request::File(Need::Words(Language::Russian))
            .failed(Failure::Unreachable("offline".into()));
        let fx = app.answer(failed, at(10.0));
        assert!(matches!(&fx[..], [Effect::Warn(_)]), "{fx:?}");
        assert!(matches!(app.screen, Screen::Menu));
        assert_eq!(
            app.notice(),
            Some("the русский words didn't load: the server is unreachable (offline)")
        );
        // Asked again on the next try.
        assert_eq!(
            asked(&app.key(Key::Char('w'), at(20.0))),
            [Language::Russian]
        );
        let forged = Answer::File {
            need: Need::Words(Language::Russian),
            file: Ok("да\nнет\n".into()),
        };
        app.answer(forged, at(30.0));
        assert!(matches!(app.screen, Screen::Menu));
        let said = app.notice().unwrap_or_default();
        assert!(
            said.starts_with(
                "the русский words can't be played: the русский list received has checksum"
            ),
            "{said}"
        );
    }

    #[test]
    fn what_the_player_left_waits_no_more_and_esc_stops_waiting() {
        let mut app = lacking(Language::Polish);
        app.key(Key::Char('1'), at(0.0));
        app.key(Key::Char('h'), at(10.0));
        assert!(matches!(app.screen, Screen::History));
        app.answer(words(Language::Polish), at(20.0));
        assert!(
            matches!(app.screen, Screen::History),
            "no round: they went on"
        );

        let mut app = lacking(Language::Czech);
        app.key(Key::Char('1'), at(0.0));
        app.key(Key::Escape, at(10.0));
        assert_eq!(app.notice(), Some("stopped waiting for the čeština words"));
        app.answer(words(Language::Czech), at(20.0));
        assert!(matches!(app.screen, Screen::Menu));
    }

    #[test]
    fn letters_after_one_that_started_a_waiting_round_are_not_commands() {
        let mut app = lacking(Language::Swedish);
        // `t` starts the picked mode; `h` and `b` are the rest of a word, not screens.
        for (i, c) in "thb".chars().enumerate() {
            app.key(Key::Char(c), at(i as f64 * 90.0));
        }
        assert!(matches!(app.screen, Screen::Menu));
        app.answer(words(Language::Swedish), at(300.0));
        let Screen::Play(s) = &app.screen else {
            panic!("not playing")
        };
        assert_eq!(
            s.hold,
            Some(300.0 + MENU_LETTER_HOLD_MS),
            "and after it starts"
        );
    }

    #[test]
    fn a_board_s_round_is_watched_once_its_list_is_in() {
        let mut app = lacking(Language::Turkish);
        let fx = app.open_boards(0);
        assert_eq!(asked(&app.ask_lists()), [Language::Turkish], "{fx:?}");
        let mode = Mode::new(typepper_engine::Base::Blitz(Blitz::S15), app.picks.prose);
        let replay = synth(mode.unwrap(), 3, &Typist::default());
        app.fetch_run("abcdEFGH", "ada", false);
        app.run_loaded("abcdEFGH", Ok(replay.encode()), 0.0);
        assert!(
            matches!(app.screen, Screen::Boards(_)),
            "it waits where it was"
        );
        assert_eq!(app.notice(), Some("loading the türkçe words…"));
        app.answer(words(Language::Turkish), at(40.0));
        let Screen::Play(s) = &app.screen else {
            panic!("not watching: {:?}", app.screen)
        };
        assert_eq!(s.watch.as_ref().and_then(|w| w.who.as_deref()), Some("ada"));
        assert_eq!(s.round.mode().key(), "time:15@tr");
    }

    #[test]
    fn a_room_s_race_waits_for_its_list_and_is_told_again_once_it_is_in() {
        let mut app = lacking(Language::Ukrainian);
        app.screen = Screen::Room(Box::new(crate::room::Live::new(
            Mode::ZEN,
            Some("k3fq7m2x".into()),
        )));
        let welcome = Say::Welcome {
            room: "k3fq7m2x".into(),
            mode: "words:10@uk".into(),
            you: Some(1),
            resume: None,
            owner: 1,
            link: None,
            text: None,
        };
        let fx = app.answer(Answer::RoomSaid(welcome), at(0.0));
        assert_eq!(
            asked(&fx),
            [Language::Ukrainian],
            "the room's mode is known"
        );
        let lobby = Say::Lobby {
            phase: Phase::Lobby,
            racers: [(1, "ada"), (2, "grace")]
                .map(|(id, name)| Racer {
                    id,
                    name: name.into(),
                    state: State::Ready,
                    guest: false,
                })
                .to_vec(),
            owner: 1,
        };
        app.answer(Answer::RoomSaid(lobby), at(10.0));
        app.answer(Answer::RoomSaid(Say::Go(9)), at(100.0));
        let Screen::Room(live) = &app.screen else {
            panic!()
        };
        assert!(live.race.is_none(), "no words to race on yet");
        let mode: Mode = "words:10@uk".parse().unwrap();
        let first = typepper_engine::Round::new(mode, 9)
            .view(0)
            .word(0)
            .unwrap()
            .target()
            .chars()
            .next()
            .unwrap();
        let keys = vec![(250, Op::Char(first).code())];
        let grace = || {
            Answer::RoomSaid(Say::Keys {
                racer: 2,
                keys: keys.clone(),
            })
        };
        app.answer(grace(), at(350.0));
        // In: the room is joined again, and tells the race so far.
        let fx = app.answer(words(Language::Ukrainian), at(400.0));
        assert_eq!(fx, [Effect::JoinRoom("k3fq7m2x".into())]);
        app.answer(Answer::RoomConnected, at(450.0));
        let resume = Say::Resume {
            seed: 9,
            at: 400,
            keys: vec![],
        };
        app.answer(Answer::RoomSaid(resume), at(500.0));
        app.answer(grace(), at(510.0));
        let Screen::Room(live) = &app.screen else {
            panic!()
        };
        let race = live.race.as_ref().expect("the race");
        assert_eq!(race.origin, 100.0, "from the go's time");
        assert_eq!(race.of(2).unwrap().round.inputs(), 1, "grace's key landed");
    }
}
