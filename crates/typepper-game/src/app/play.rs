//! A round on screen: yours (perhaps racing a ghost), or a replay being watched; its
//! keys, its clock, and what it shows.

use typepper_engine::{Mode, Op, Refusal, Replay, Round, Unit, hex};

use crate::app::results::{Finished, RaceEnd};
use crate::app::{App, Effect, Key, Now, Screen, ms_since};
use crate::model::Clock;
use crate::model::Ghost;
use crate::model::Play;
use crate::model::Word;
use crate::model::{
    BACK, Body, END, Kind, MENU, Model, Tone, WORDS_AHEAD, WORDS_BEHIND, banner, race_banner,
};
use crate::race::{self, Feed, Rival, Trail};
use crate::storage::{self, Entry, Outgoing};

/// How long a watched replay waits before its first input lands, so the screen is seen.
const WATCH_LEAD_MS: f64 = 600.0;
/// A round on screen: your own (perhaps racing a ghost), or a replay being watched.
#[derive(Clone, Debug)]
pub struct Session {
    /// The round.
    pub round: Round,
    /// The monotonic time of round time 0: your first key, or the replay's start.
    pub origin: Option<f64>,
    /// The replay being watched, if this is one.
    pub watch: Option<Watch>,
    /// The replay being raced, if this is a race.
    pub ghost: Option<Box<Rival>>,
    /// Where your caret has been, for the lead's seconds.
    pub trail: Trail,
    /// Started by a letter on the menu: until this monotonic time, letters are the rest
    /// of what was typed there, before the words were on screen, and not the round's.
    pub hold: Option<f64>,
}
/// How long a round started by a letter on the menu takes no letters, in ms: a word typed
/// there would be scored against words the player had not seen, and a person reads the
/// text before typing it.
pub const MENU_LETTER_HOLD_MS: f64 = 600.0;
/// A replay being played back.
#[derive(Clone, Debug)]
pub struct Watch {
    /// Whose round it is, when known: `ada`, `your best here`.
    pub who: Option<String>,
    /// The replay, to race it.
    pub replay: Replay,
    feed: Feed,
}

impl App {
    /// Starts a round of yours: on `seed` if given (a watched round played yourself),
    /// else on the seed the server issued for the mode, else on one of the game's own.
    /// A round whose word list isn't in yet starts when it is.
    pub fn play(&mut self, mode: Mode, seed: Option<u64>) {
        if mode.base() == typepper_engine::Base::Custom {
            // CUSTOM TEXT plays the last text played, or asks for one.
            match self.custom.clone() {
                Some(text) => self.play_text(text, mode, seed),
                None => self.open_text(),
            }
            return;
        }
        if self.play_waits(mode, seed) {
            return;
        }
        let seed = seed.unwrap_or_else(|| self.seeds.take(&mode.key()));
        self.start(Round::new(mode, seed));
    }

    /// `round`, fresh, is your round on screen now.
    pub(crate) fn start(&mut self, round: Round) {
        self.notice = None;
        self.sessions += 1;
        self.list = None;
        self.screen = Screen::Play(Box::new(Session {
            round,
            origin: None,
            watch: None,
            ghost: None,
            trail: Trail::default(),
            hold: None,
        }));
    }

    /// Starts watching `replay`, `who`'s round if known, or refuses it (other rules, an
    /// unknown mode, a round that doesn't play) with a sentence for the screen. A round
    /// whose word list isn't in yet is watched when it is.
    pub fn watch(&mut self, replay: Replay, who: Option<String>, now: f64) -> Result<(), String> {
        if let Some(language) = self.unlisted(&replay) {
            self.watch_later(language, replay, who);
            return Ok(());
        }
        let (round, _) = race::open(&replay)?;
        self.notice = None;
        self.sessions += 1;
        self.screen = Screen::Play(Box::new(Session {
            round,
            origin: Some(now + WATCH_LEAD_MS),
            watch: Some(Watch {
                who,
                feed: Feed::of(&replay),
                replay,
            }),
            ghost: None,
            trail: Trail::default(),
            hold: None,
        }));
        Ok(())
    }

    /// Starts a race against `replay`, `name`'s round: you play its mode and seed while
    /// its ghost plays it back. Refused as watching refuses; waits for a word list as
    /// watching waits.
    pub fn race(&mut self, replay: Replay, name: String) -> Result<(), String> {
        if let Some(language) = self.unlisted(&replay) {
            self.race_later(language, replay, name);
            return Ok(());
        }
        let ghost = Rival::new(replay, name)?;
        self.race_ghost(ghost);
        Ok(())
    }

    pub(crate) fn race_ghost(&mut self, ghost: Rival) {
        // A race opened from a list (the history, a board) goes back to it, as watching
        // does; a new round of your own doesn't.
        let list = self.list.take();
        self.play_like(&ghost.replay, ghost.mode(), Some(ghost.replay.seed));
        self.list = list;
        if let Screen::Play(session) = &mut self.screen {
            session.ghost = Some(Box::new(ghost));
        }
    }

    /// Watches replay bytes (`who`'s round, if known), or puts the refusal on the menu
    /// and returns it.
    pub fn watch_bytes(
        &mut self,
        bytes: &[u8],
        who: Option<String>,
        now: f64,
    ) -> Result<(), String> {
        self.open_bytes(bytes, |app, r| app.watch(r, who, now))
    }

    /// Races replay bytes (`who`'s round, if known), or puts the refusal on the menu and
    /// returns it.
    pub fn race_bytes(&mut self, bytes: &[u8], who: Option<String>) -> Result<(), String> {
        let name = who.unwrap_or_else(|| "the replay".into());
        self.open_bytes(bytes, |app, r| app.race(r, name))
    }

    pub(crate) fn open_bytes(
        &mut self,
        bytes: &[u8],
        open: impl FnOnce(&mut App, Replay) -> Result<(), String>,
    ) -> Result<(), String> {
        let result = Replay::decode(bytes)
            .map_err(|e| format!("not a replay this game can read: {e}"))
            .and_then(|r| open(self, r));
        if let Err(why) = &result {
            self.screen = Screen::Menu;
            self.list = None;
            self.notice = Some((why.clone(), Tone::Wrong));
        }
        result
    }

    pub(crate) fn tick_round(&mut self, now: Now) -> Vec<Effect> {
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
            watch.feed.land(&mut session.round, t);
        }
        if let Some(ghost) = &mut session.ghost {
            ghost.advance(t);
        }
        if session.round.is_over(t) {
            return self.finish(now);
        }
        vec![]
    }

    /// The round on screen ended: to its results, and kept (and sent, when linked) if it
    /// was yours.
    pub(crate) fn finish(&mut self, now: Now) -> Vec<Effect> {
        let Screen::Play(session) = &self.screen else {
            return vec![];
        };
        let Some(score) = session.round.score() else {
            return vec![];
        };
        let replay = session.round.replay();
        let watched = session.watch.is_some();
        let who = session.watch.as_ref().and_then(|w| w.who.clone());
        let race = session.ghost.as_ref().map(|g| {
            Box::new(RaceEnd {
                name: g.name.clone(),
                changes: race::lead_changes(&replay, &g.replay, score.samples.len()),
                replay: g.replay.clone(),
                score: g.score.clone(),
            })
        });
        let mut fx = vec![];
        let mut note = None;
        if !watched {
            let bytes = replay.encode();
            self.history.push(Entry {
                unix_ms: now.unix_ms,
                replay: replay.clone(),
                score: score.clone(),
                share: None,
                room: false,
            });
            let excess = self.history.len().saturating_sub(storage::HISTORY_MAX);
            self.history.drain(..excess);
            fx.push(Effect::Save {
                key: storage::LAST.into(),
                value: hex::encode(&bytes),
            });
            fx.push(self.save_history());
            if self.player.is_some() {
                let out = Outgoing {
                    unix_ms: now.unix_ms,
                    claim: score.headline().value,
                    replay: bytes,
                };
                // Kept first: if the page closes before the server answers, it's sent later.
                fx.push(Effect::Save {
                    key: out.key(),
                    value: hex::encode(&out.replay),
                });
                self.outbox.keep(out);
                fx.extend(self.flush());
                note = Some("sending…".into());
            }
        }
        let daily = (!watched)
            .then(|| self.daily_of(score.mode, replay.seed))
            .flatten();
        self.screen = Screen::Results(Box::new(Finished {
            score,
            replay,
            watched,
            who,
            race,
            run: None,
            unix_ms: (!watched).then_some(now.unix_ms),
            share: None,
            note,
            daily,
            since: now.mono,
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

    /// A key on a round: yours, or a replay being watched.
    pub(crate) fn play_key(&mut self, key: Key, now: Now) -> Vec<Effect> {
        let mut fx = vec![];
        let Screen::Play(session) = &mut self.screen else {
            return fx;
        };
        if let Some(watch) = &session.watch {
            let (mode, seed) = (session.round.mode(), session.round.seed());
            match key {
                Key::Escape => self.back(),
                Key::Tab | Key::Enter => {
                    let replay = watch.replay.clone();
                    self.play_like(&replay, mode, Some(seed));
                }
                Key::Char('g') => {
                    let who = session.watch.as_ref().and_then(|w| w.who.clone());
                    let replay = session.watch.as_ref().map(|w| w.replay.clone());
                    if let Some(replay) = replay
                        && let Err(why) =
                            self.race(replay, who.unwrap_or_else(|| "the replay".into()))
                    {
                        fx.push(Effect::Warn(why));
                    }
                }
                // Nothing else touches someone else's round.
                _ => {}
            }
            return fx;
        }
        let mode = session.round.mode();
        let started = session.round.started().is_some();
        let op = match key {
            // Before the first key, a space or a backspace would do nothing but
            // start the clock (the rules ignore both on an empty word): the clock
            // waits for a letter.
            Key::Char(' ') | Key::Backspace | Key::DeleteWord if !started => None,
            Key::Char(_) if session.hold.is_some_and(|until| now.mono < until) => None,
            Key::Char(c) => Some(Op::Char(c)),
            Key::Backspace | Key::DeleteWord => Some(Op::Backspace),
            // Esc ends a ZEN round; before its first key there is no round to end.
            Key::Escape if mode.is_zen() && started => Some(Op::End),
            _ => None,
        };
        match (key, op) {
            (_, Some(op)) => {
                let origin = *session.origin.get_or_insert(now.mono);
                let t = ms_since(origin, now.mono).max(session.round.last_input());
                let judged = if key == Key::DeleteWord {
                    delete_word(&mut session.round, t);
                    None
                } else {
                    // A refused key (after the end) has no effect: the tick ends it.
                    type_key(&mut session.round, t, op)
                };
                fx.extend(super::settings::keystroke(&self.settings, judged));
                // Only a race's lead reads where your caret has been.
                if session.ghost.is_some() {
                    session.trail.mark(race::progress(&session.round), t);
                }
                if session.round.is_over(t) {
                    fx.extend(self.finish(now));
                }
            }
            // Tab in a race starts the same race again.
            (Key::Tab, _) => match &session.ghost {
                Some(ghost) => {
                    let ghost = ghost.again();
                    self.race_ghost(ghost);
                }
                None => self.play(mode, None),
            },
            (Key::Escape, _) => self.back(),
            _ => {}
        }
        fx
    }

    pub(crate) fn play_model(&self, session: &Session, now: f64) -> Play {
        let t = self.round_time(now);
        let watching = session.watch.is_some();
        let mut play = self.play_of(&session.round, t, watching);
        if let Some(g) = &session.ghost {
            let them = g.round.view(t);
            let ghost = Ghost {
                name: g.name.clone(),
                tag: None,
                caret: them.caret(),
                level: them.level(),
                over: them.over(),
                lead: g.lead(race::progress(&session.round), &session.trail, t),
                from: None,
            };
            play.lead = Some((ghost.label(), ghost.tone()));
            play.ghosts.push(ghost);
            if play.prompt.is_some() {
                play.prompt = Some("start typing: the race starts with your first key");
            }
        }
        play
    }

    /// `round` at round time `t` on the play screen, alone: the text, the caret, the
    /// clock and the heat. `watching` someone else's, there is no prompt.
    pub(crate) fn play_of(&self, round: &typepper_engine::Round, t: u32, watching: bool) -> Play {
        let view = round.view(t);
        let clock = match (view.time_left_ms(), view.level(), view.word_count()) {
            (Some(left), ..) => Clock::Left(left.div_ceil(1000)),
            (None, Some(level), _) => Clock::Level(level),
            // WORDS: the words behind the caret, all of them once it is over.
            (None, None, Some(of)) => Clock::Words {
                done: if view.over() {
                    of
                } else {
                    view.current() as u32
                },
                of,
            },
            _ => Clock::Elapsed(view.elapsed_ms() / 1000),
        };
        let current = view.current();
        let first = current.saturating_sub(WORDS_BEHIND);
        let words = (first..current + WORDS_AHEAD)
            .map_while(|i| view.word(i))
            .map(|w| Word {
                index: w.index,
                offset: w.offset,
                status: w.status,
                glyphs: w.glyphs().collect(),
            })
            .collect();
        Play {
            round: self.sessions,
            mode: view.mode(),
            clock,
            started: view.started(),
            heat: view.heat(),
            tier: view.tier(),
            first,
            words,
            caret: view.caret(),
            // The flame chases the caret through the text: only where the text is words.
            flame: view.flame().filter(|_| view.mode().unit() == Unit::Words),
            prompt: (!view.started() && !watching)
                .then_some("start typing: the clock starts with your first key"),
            ghosts: vec![],
            lead: None,
            // Blind: your own round shows no mistake until its results (the round, its
            // replay and its score are as ever).
            blind: self.settings.blind && !watching,
            live: view
                .live()
                .and_then(|(wpm, acc)| self.settings.live_line(wpm / 100, u32::from(acc))),
        }
    }

    pub(crate) fn play_screen(
        &self,
        session: &Session,
        now: f64,
        notice: Option<(String, Tone)>,
    ) -> Model {
        let watching = session.watch.is_some();
        let mode = session.round.mode();
        let ghost = session.ghost.as_ref().map(|g| g.name.as_str());
        let hints = match (watching, ghost) {
            (true, _) if self.list.is_some() => {
                "esc back · tab or enter play this round yourself · g race it"
            }
            (true, _) => "esc menu · tab or enter play this round yourself · g race it",
            (false, Some(_)) if mode.is_zen() => "esc ends the round · tab start the race again",
            (false, Some(_)) if self.list.is_some() => "tab start the race again · esc back",
            (false, Some(_)) => "tab start the race again · esc menu",
            (false, None) if mode.is_zen() => "esc ends the round · tab restart",
            (false, None) => "tab restart · esc menu",
        };
        let who = session.watch.as_ref().and_then(|w| w.who.as_deref());
        let banner = match ghost {
            Some(name) => Some(race_banner(mode, name)),
            None => watching.then(|| banner(mode, who)),
        };
        Model {
            kind: if watching {
                Kind::Replay
            } else {
                Kind::Playing
            },
            banner,
            notice,
            hints,
            // ZEN ends with esc, which a phone's keyboard lacks.
            taps: match (watching, self.list.is_some()) {
                (true, true) => &[BACK],
                (true, false) => &[MENU],
                (false, _) if mode.is_zen() => &[END],
                // A phone has no esc: the way out of a round that ends itself.
                (false, _) => &[MENU],
            },
            body: Body::Play(self.play_model(session, now)),
        }
    }
}

/// The player's key into their round. A ZEN round that holds all a replay can ends there,
/// as its rules keep room for (RULES.md); any other refused key has no effect.
pub(crate) fn type_key(round: &mut Round, t: u32, op: Op) -> Option<bool> {
    match round.apply(t, op) {
        Ok(fx) => fx.judged,
        Err(Refusal::Full) => {
            let _ = round.apply(t, Op::End);
            None
        }
        Err(_) => None,
    }
}

/// Ctrl-backspace, as backspaces at `t`: the word being typed is emptied; on an empty one,
/// the caret goes back into the word before (where the rules let it: a word typed wrong)
/// and empties that. Backspaces, so that a replay holds only the rules' own inputs.
pub(crate) fn delete_word(round: &mut Round, t: u32) {
    let typed = |round: &Round| {
        let view = round.view(t);
        view.word(view.current()).map_or(0, |w| w.typed().len())
    };
    if typed(round) == 0 {
        let _ = round.apply(t, Op::Backspace);
    }
    for _ in 0..typed(round) {
        let _ = round.apply(t, Op::Backspace);
    }
}
