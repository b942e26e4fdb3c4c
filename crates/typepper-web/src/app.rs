//! The game's screens and what keys do on them: pure state, no browser.
//!
//! The shell turns DOM events into [`Key`]s with their timestamps and calls
//! [`App::key`] and, every frame, [`App::tick`]. What must happen outside — storing a
//! round, warning in the console — comes back as [`Effect`] values for the shell to carry
//! out. All rules stay in the engine; this module only decides which screen shows what.

use typepper_engine::rng::Rng;
use typepper_engine::{Mode, Op, Replay, Round, Score, VERSION};

use crate::storage::{self, Entry};

/// A key as the game understands it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A typed character (space included), from a key, a dead key, an IME or a paste.
    Char(char),
    /// Backspace.
    Backspace,
    /// Enter.
    Enter,
    /// Esc.
    Escape,
    /// Tab.
    Tab,
    /// ↑.
    Up,
    /// ↓.
    Down,
    /// ←.
    Left,
    /// →.
    Right,
}

/// Something for the shell to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A round of yours ended: write `last.replay` and `history` with these texts.
    Store {
        /// The round, as hex.
        last: String,
        /// Every history line.
        history: String,
    },
    /// Say this in the console, as a warning.
    Warn(String),
}

/// Times the shell gives: the monotonic clock of events and frames, and the wall clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Now {
    /// `performance.now()`-based milliseconds (an event's `timeStamp`, a frame's time).
    pub mono: f64,
    /// Milliseconds since 1970, for dating history lines.
    pub unix_ms: u64,
}

/// The menu's items.
pub const MENU: [&str; 5] = ["BLITZ 15s", "BLITZ 30s", "BLITZ 60s", "ZEN", "HOT PURSUIT"];

/// How long a watched replay waits before its first input lands, so the screen is seen.
const WATCH_LEAD_MS: f64 = 600.0;

/// A round on screen: your own, or a replay being watched.
#[derive(Clone, Debug)]
pub struct Session {
    /// The round.
    pub round: Round,
    /// The monotonic time of round time 0: your first key, or the replay's start.
    pub origin: Option<f64>,
    /// The replay being watched, if this is one.
    pub watch: Option<Watch>,
}

/// A replay being played back.
#[derive(Clone, Debug)]
pub struct Watch {
    inputs: Vec<(u32, Op)>,
    next: usize,
}

/// The results of a round.
#[derive(Clone, Debug)]
pub struct Results {
    /// Its score.
    pub score: Score,
    /// The round, to watch again.
    pub replay: Replay,
    /// It was a replay, not yours: nothing was kept.
    pub watched: bool,
}

/// What is on screen.
#[derive(Clone, Debug)]
pub enum Screen {
    /// Pick a mode.
    Menu,
    /// Typing, or watching.
    Play(Box<Session>),
    /// A finished round.
    Results(Box<Results>),
    /// Your last rounds.
    History,
}

/// The whole game's state.
#[derive(Clone, Debug)]
pub struct App {
    /// What is on screen.
    pub screen: Screen,
    /// The menu's selected item.
    pub menu_item: usize,
    /// HOT PURSUIT's start level on the menu.
    pub level: u8,
    /// Your rounds, oldest first, at most [`storage::HISTORY_MAX`].
    pub history: Vec<Entry>,
    /// The history screen's selected row (0 is the newest).
    pub history_row: usize,
    /// A line to show on the menu: why a replay was refused, say.
    pub notice: Option<String>,
    /// How many rounds (played or watched) have started: a renderer resets on a new one.
    pub sessions: u64,
    seeds: Rng,
}

impl App {
    /// A fresh game: `entropy` seeds the rounds' seeds (the shell's randomness; the
    /// engine has none), `history` is the stored `history` text.
    pub fn new(entropy: u64, history: &str) -> (App, Vec<Effect>) {
        let (history, warnings) = storage::parse_history(history);
        let app = App {
            screen: Screen::Menu,
            menu_item: 0,
            level: 7,
            history,
            history_row: 0,
            notice: None,
            sessions: 0,
            seeds: Rng::new(entropy),
        };
        (app, warnings.into_iter().map(Effect::Warn).collect())
    }

    /// The mode the menu has selected.
    pub fn menu_mode(&self) -> Mode {
        match self.menu_item {
            0 => Mode::BLITZ_15,
            1 => Mode::BLITZ_30,
            2 => Mode::BLITZ_60,
            3 => Mode::Zen,
            _ => Mode::pursuit(self.level).unwrap_or(Mode::Zen),
        }
    }

    /// Starts a round of yours.
    pub fn play(&mut self, mode: Mode, seed: Option<u64>) {
        let seed = seed.unwrap_or_else(|| self.seeds.next_u64());
        self.notice = None;
        self.sessions += 1;
        self.screen = Screen::Play(Box::new(Session {
            round: Round::new(mode, seed),
            origin: None,
            watch: None,
        }));
    }

    /// Starts watching `replay`, or refuses it (other rules, an unknown mode, a round
    /// that doesn't play) with a sentence for the screen.
    pub fn watch(&mut self, replay: Replay, now: f64) -> Result<(), String> {
        if replay.engine != VERSION {
            let e = typepper_engine::PlayError::OtherRules {
                engine: replay.engine,
            };
            return Err(e.to_string());
        }
        replay.play().map_err(|e| e.to_string())?;
        let round = replay.setup().map_err(|e| e.to_string())?;
        let inputs = replay
            .timeline()
            .map(|(t, op)| (t.unwrap_or(u32::MAX), op))
            .collect();
        self.notice = None;
        self.sessions += 1;
        self.screen = Screen::Play(Box::new(Session {
            round,
            origin: Some(now + WATCH_LEAD_MS),
            watch: Some(Watch { inputs, next: 0 }),
        }));
        Ok(())
    }

    /// Watches replay bytes, or puts the refusal on the menu and returns it.
    pub fn watch_bytes(&mut self, bytes: &[u8], now: f64) -> Result<(), String> {
        let result = Replay::decode(bytes)
            .map_err(|e| format!("not a replay this game can read: {e}"))
            .and_then(|r| self.watch(r, now));
        if let Err(why) = &result {
            self.screen = Screen::Menu;
            self.notice = Some(why.clone());
        }
        result
    }

    /// A key pressed at `now`.
    pub fn key(&mut self, key: Key, now: Now) -> Vec<Effect> {
        let mut fx = vec![];
        match &mut self.screen {
            Screen::Menu => self.menu_key(key),
            Screen::History => self.history_key(key, now.mono),
            Screen::Results(results) => {
                let (mode, seed, watched) =
                    (results.score.mode, results.replay.seed, results.watched);
                match key {
                    // After a replay, play that round yourself; after yours, a new one.
                    Key::Tab | Key::Enter => self.play(mode, watched.then_some(seed)),
                    Key::Escape => self.screen = Screen::Menu,
                    Key::Char('r') => {
                        let replay = results.replay.clone();
                        if let Err(why) = self.watch(replay, now.mono) {
                            fx.push(Effect::Warn(why));
                        }
                    }
                    Key::Char('h') => self.open_history(),
                    _ => {}
                }
            }
            Screen::Play(session) if session.watch.is_some() => {
                let (mode, seed) = (session.round.mode(), session.round.seed());
                match key {
                    Key::Escape => self.screen = Screen::Menu,
                    Key::Tab | Key::Enter => self.play(mode, Some(seed)),
                    // Nothing else touches someone else's round.
                    _ => {}
                }
            }
            Screen::Play(session) => {
                let mode = session.round.mode();
                let started = session.round.started().is_some();
                let op = match key {
                    Key::Char(c) => Some(Op::Char(c)),
                    Key::Backspace => Some(Op::Backspace),
                    // Esc ends a ZEN round; before its first key there is no round to end.
                    Key::Escape if mode == Mode::Zen && started => Some(Op::End),
                    _ => None,
                };
                match (key, op) {
                    (_, Some(op)) => {
                        let origin = *session.origin.get_or_insert(now.mono);
                        let t = ms_since(origin, now.mono);
                        let t = t.max(session.round.last_input());
                        // A refused key (after the end) has no effect: the tick ends it.
                        let _ = session.round.apply(t, op);
                        if session.round.is_over(t) {
                            fx.extend(self.finish(now));
                        }
                    }
                    (Key::Tab, _) => self.play(mode, None),
                    (Key::Escape, _) => self.screen = Screen::Menu,
                    _ => {}
                }
            }
        }
        fx
    }

    fn menu_key(&mut self, key: Key) {
        match key {
            Key::Up => self.menu_item = (self.menu_item + MENU.len() - 1) % MENU.len(),
            Key::Down => self.menu_item = (self.menu_item + 1) % MENU.len(),
            Key::Left if self.menu_item == 4 => self.level = self.level.saturating_sub(1).max(1),
            Key::Right if self.menu_item == 4 => self.level = (self.level + 1).min(20),
            Key::Enter | Key::Tab | Key::Char(' ') => self.play(self.menu_mode(), None),
            Key::Char('1') => self.play(Mode::BLITZ_15, None),
            Key::Char('2') => self.play(Mode::BLITZ_30, None),
            Key::Char('3') => self.play(Mode::BLITZ_60, None),
            Key::Char('z') => self.play(Mode::Zen, None),
            Key::Char('p') => self.play(self.menu_mode_pursuit(), None),
            Key::Char('h') => self.open_history(),
            _ => {}
        }
    }

    fn menu_mode_pursuit(&self) -> Mode {
        Mode::pursuit(self.level).unwrap_or(Mode::Zen)
    }

    fn open_history(&mut self) {
        self.history_row = 0;
        self.screen = Screen::History;
    }

    fn history_key(&mut self, key: Key, now: f64) {
        let rows = self.history.len();
        match key {
            Key::Up => self.history_row = self.history_row.saturating_sub(1),
            Key::Down if rows > 0 => self.history_row = (self.history_row + 1).min(rows - 1),
            Key::Enter => {
                if let Some(entry) = self.history.iter().rev().nth(self.history_row) {
                    let replay = entry.replay.clone();
                    if let Err(why) = self.watch(replay, now) {
                        self.notice = Some(why);
                        self.screen = Screen::Menu;
                    }
                }
            }
            Key::Escape | Key::Char('h') => self.screen = Screen::Menu,
            _ => {}
        }
    }

    /// A frame at `now`: ends rounds whose time is up, lands a replay's due inputs.
    pub fn tick(&mut self, now: Now) -> Vec<Effect> {
        let Screen::Play(session) = &mut self.screen else {
            return vec![];
        };
        let Some(origin) = session.origin else {
            return vec![];
        };
        let t = ms_since(origin, now.mono);
        if let Some(watch) = &mut session.watch {
            if now.mono < origin {
                return vec![];
            }
            while let Some(&(at, op)) = watch.inputs.get(watch.next) {
                if at > t {
                    break;
                }
                // watch() played the replay through already: every input is taken.
                let _ = session.round.apply(at, op);
                watch.next += 1;
            }
        }
        if session.round.is_over(t) {
            return self.finish(now);
        }
        vec![]
    }

    /// The round on screen ended: to its results, and kept if it was yours.
    fn finish(&mut self, now: Now) -> Vec<Effect> {
        let Screen::Play(session) = &self.screen else {
            return vec![];
        };
        let Some(score) = session.round.score() else {
            return vec![];
        };
        let replay = session.round.replay();
        let watched = session.watch.is_some();
        let mut fx = vec![];
        if !watched {
            self.history.push(Entry {
                unix_ms: now.unix_ms,
                replay: replay.clone(),
                score: score.clone(),
                share: None,
            });
            let excess = self.history.len().saturating_sub(storage::HISTORY_MAX);
            self.history.drain(..excess);
            fx.push(Effect::Store {
                last: typepper_engine::hex::encode(&replay.encode()),
                history: storage::format_history(&self.history),
            });
        }
        self.screen = Screen::Results(Box::new(Results {
            score,
            replay,
            watched,
        }));
        fx
    }

    /// The round time at `now` on the play screen (0 before the first key).
    pub fn round_time(&self, now: f64) -> u32 {
        match &self.screen {
            Screen::Play(s) => s.origin.map_or(0, |o| ms_since(o, now)),
            _ => 0,
        }
    }
}

/// Whole milliseconds from `origin` to `now`, 0 before it.
fn ms_since(origin: f64, now: f64) -> u32 {
    let ms = (now - origin).floor();
    if ms <= 0.0 {
        0
    } else if ms >= f64::from(u32::MAX) {
        u32::MAX
    } else {
        ms as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(mono: f64) -> Now {
        Now {
            mono,
            unix_ms: 1_764_600_000_000 + mono as u64,
        }
    }

    /// Types the current word of the play screen and a space, 100 ms a key.
    fn type_word(app: &mut App, t: &mut f64) -> Vec<Effect> {
        let Screen::Play(s) = &app.screen else {
            panic!("not playing")
        };
        let view = s.round.view(app.round_time(*t));
        let word = view.word(view.current()).unwrap().target();
        let mut fx = vec![];
        for c in word.chars().chain([' ']) {
            fx.extend(app.key(Key::Char(c), at(*t)));
            *t += 100.0;
        }
        fx
    }

    #[test]
    fn a_blitz_round_ends_on_time_and_is_kept() {
        let (mut app, warnings) = App::new(7, "");
        assert!(warnings.is_empty());
        app.key(Key::Char('1'), at(0.0));
        let mut t = 1000.0;
        for _ in 0..3 {
            assert!(type_word(&mut app, &mut t).is_empty());
        }
        assert!(
            app.tick(at(15_999.0)).is_empty(),
            "15 s from the first key at 1000"
        );
        let fx = app.tick(at(16_000.0));
        let Screen::Results(results) = &app.screen else {
            panic!("no results")
        };
        assert_eq!(results.score.words, 3);
        assert_eq!(results.score.duration_ms, 15_000);
        let [Effect::Store { last, history }] = &fx[..] else {
            panic!("{fx:?}")
        };
        let bytes = typepper_engine::hex::decode(last).unwrap();
        let (_, native) = Replay::decode(&bytes).unwrap().play().unwrap();
        assert_eq!(
            native, results.score,
            "what the screen shows is the engine's score"
        );
        assert_eq!(history.lines().count(), 1);
        assert_eq!(app.history.len(), 1);
    }

    #[test]
    fn esc_ends_zen_and_leaves_blitz() {
        let (mut app, _) = App::new(7, "");
        app.key(Key::Char('z'), at(0.0));
        let mut t = 0.0;
        type_word(&mut app, &mut t);
        let fx = app.key(Key::Escape, at(t));
        assert!(matches!(app.screen, Screen::Results(_)));
        assert_eq!(fx.len(), 1);

        app.key(Key::Escape, at(t));
        app.key(Key::Char('z'), at(t));
        assert!(
            app.key(Key::Escape, at(t)).is_empty(),
            "an untouched ZEN round isn't kept"
        );
        assert!(matches!(app.screen, Screen::Menu));
        app.key(Key::Char('1'), at(t));
        type_word(&mut app, &mut t);
        assert!(
            app.key(Key::Escape, at(t)).is_empty(),
            "an abandoned round isn't kept"
        );
        assert!(matches!(app.screen, Screen::Menu));
        assert_eq!(app.history.len(), 1);
    }

    #[test]
    fn tab_restarts_with_a_new_seed() {
        let (mut app, _) = App::new(7, "");
        app.key(Key::Char('2'), at(0.0));
        let seed = |app: &App| match &app.screen {
            Screen::Play(s) => s.round.seed(),
            _ => panic!("not playing"),
        };
        let first = seed(&app);
        app.key(Key::Char('x'), at(10.0));
        app.key(Key::Tab, at(20.0));
        assert_ne!(seed(&app), first);
        assert_eq!(
            app.round_time(1000.0),
            0,
            "the new round waits for its first key"
        );
    }

    #[test]
    fn a_watched_replay_lands_on_time_ignores_keys_and_is_not_kept() {
        let (mut app, _) = App::new(7, "");
        let typist = typepper_engine::synth::Typist::default();
        let replay = typepper_engine::synth::synth(Mode::BLITZ_15, 4, &typist);
        let (_, want) = replay.play().unwrap();
        app.watch(replay.clone(), 0.0).unwrap();
        for key in [Key::Char('a'), Key::Backspace, Key::Up, Key::Char('h')] {
            assert!(app.key(key, at(700.0)).is_empty());
            assert!(
                matches!(app.screen, Screen::Play(_)),
                "{key:?} did something"
            );
        }
        let mut t = 0.0;
        while matches!(app.screen, Screen::Play(_)) {
            assert!(app.tick(at(t)).is_empty(), "a watched round stores nothing");
            t += 16.7;
        }
        let Screen::Results(results) = &app.screen else {
            panic!()
        };
        assert!(results.watched);
        assert_eq!(results.score, want);
        assert!(app.history.is_empty());
        app.key(Key::Enter, at(t));
        let Screen::Play(s) = &app.screen else {
            panic!()
        };
        assert!(s.watch.is_none(), "enter plays that round yourself");
        assert_eq!(s.round.seed(), replay.seed);
    }

    #[test]
    fn replays_from_other_rules_are_refused_on_screen() {
        let (mut app, _) = App::new(7, "");
        let replay = Replay {
            engine: 2,
            mode: "time:15".into(),
            seed: 1,
            inputs: vec![],
        };
        let err = app.watch_bytes(&replay.encode(), 0.0).unwrap_err();
        assert_eq!(err, "recorded by other rules (engine 2, these are 1)");
        assert_eq!(app.notice.as_deref(), Some(err.as_str()));
        let err = app.watch_bytes(b"nope", 0.0).unwrap_err();
        assert!(err.contains("not a replay"), "{err}");
        let odd = Replay {
            engine: 1,
            mode: "time:10".into(),
            ..replay
        };
        assert!(
            app.watch_bytes(&odd.encode(), 0.0)
                .unwrap_err()
                .contains("no mode")
        );
    }

    #[test]
    fn history_enter_plays_the_picked_round() {
        let (mut app, _) = App::new(7, "");
        let mut t = 0.0;
        for mode_key in ['1', 'z'] {
            app.key(Key::Char(mode_key), at(t));
            type_word(&mut app, &mut t);
            if mode_key == 'z' {
                app.key(Key::Escape, at(t));
            } else {
                t += 15_000.0;
                app.tick(at(t));
            }
            app.key(Key::Escape, at(t));
        }
        app.key(Key::Char('h'), at(t));
        app.key(Key::Down, at(t));
        app.key(Key::Enter, at(t));
        let Screen::Play(s) = &app.screen else {
            panic!("not watching")
        };
        assert!(s.watch.is_some());
        assert_eq!(s.round.mode(), Mode::BLITZ_15, "row 1 is the older round");
    }
}
