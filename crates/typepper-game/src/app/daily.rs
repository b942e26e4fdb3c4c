//! The daily text (docs/spec/players.md, "The daily text"): announced on the menu, played on the seed the
//! server gives a linked player when they ask (their try: never asked for ahead, as other
//! modes' seeds are, or the try would be spent unseen), and its place on the day's board
//! said on the results once the round is stored.

use typepper_api::IssuedSeed;
use typepper_api::daily::{self, Daily};
use typepper_engine::Mode;

use crate::app::boards::Browsing;
use crate::app::{App, Effect, Key, Screen};
use crate::model::Tone;
use crate::request::{Failure, Request};

/// How often the menu asks what the day's daily is and how many played it.
const DAILY_EVERY_MS: u64 = 10 * 60_000;

/// What the daily's seed is asked for by, as the seed's answer names it.
pub(crate) const ASK: &str = daily::ASK;

impl App {
    /// Asks for today's daily at `unix_ms` when the menu shows and it's not known or old.
    pub(crate) fn want_daily(&mut self, unix_ms: u64) -> Vec<Effect> {
        let due = self
            .daily_asked
            .is_none_or(|at| unix_ms >= at + DAILY_EVERY_MS);
        if !matches!(self.screen, Screen::Menu) || !due {
            return vec![];
        }
        self.daily_asked = Some(unix_ms);
        vec![Effect::Request(Request::Daily {
            token: self.player.as_ref().map(|p| p.token.clone()),
            number: None,
        })]
    }

    /// `j` on the menu: today's daily, on a try the server gives a linked player.
    pub(crate) fn play_daily(&mut self) -> Vec<Effect> {
        let Some(player) = &self.player else {
            let how = "the daily ranks you on the day's board: link the game first (l)";
            self.notice = Some((how.into(), Tone::Dim));
            return vec![];
        };
        self.notice = Some(("asking for today's text…".into(), Tone::Dim));
        vec![Effect::Request(Request::Seed {
            token: player.token.clone(),
            mode: ASK.into(),
        })]
    }

    /// The server's answer to the daily's seed: the round starts on it.
    pub(crate) fn daily_issued(&mut self, answer: Result<IssuedSeed, Failure>) -> Vec<Effect> {
        let seed = match answer {
            Ok(seed) if seed.mode == daily::MODE => seed,
            Ok(seed) => {
                let why = ["the server's daily is of another mode: ", &seed.mode].concat();
                self.notice = Some((why, Tone::Wrong));
                return vec![];
            }
            Err(why) => {
                self.notice = Some((format!("no daily: {why}"), Tone::Wrong));
                return vec![];
            }
        };
        if !matches!(self.screen, Screen::Menu) {
            return vec![];
        }
        let number = seed.daily.unwrap_or(0);
        self.playing_daily = Some((number, seed.seed));
        self.play(Mode::BLITZ_30, Some(seed.seed));
        // Said as the round begins: a second try counts for nothing.
        if let Some(why) = seed.unranked {
            self.notice = Some((why, Tone::Dim));
        }
        vec![]
    }

    /// The daily that a round of `mode` on `seed` is, if it is one.
    pub(crate) fn daily_of(&self, mode: Mode, seed: u64) -> Option<u32> {
        let (number, daily_seed) = self.playing_daily?;
        (mode == Mode::BLITZ_30 && seed == daily_seed).then_some(number)
    }

    /// The server's answer to [`Request::Daily`] for daily `number` (today's if
    /// `None`): a daily board's rows, a past daily asked for to be played, the menu's
    /// announcement, and the results' place.
    pub(crate) fn daily_loaded(
        &mut self,
        number: Option<u32>,
        answer: Result<Daily, Failure>,
    ) -> Vec<Effect> {
        if let Screen::Boards(b) = &mut self.screen
            && b.daily.is_some()
            && b.daily == number
        {
            let answer = answer.as_ref().map_err(ToString::to_string);
            b.rows = Some(answer.clone().map(|d| d.board.clone()));
            b.seed = answer.ok().and_then(|d| d.seed);
            b.row = 0;
        }
        if number.is_some() && self.daily_wanted.take_if(|n| Some(*n) == number).is_some() {
            // Where `j` was pressed, and nowhere else: not over a round begun meanwhile.
            if !matches!(self.screen, Screen::Profile(_) | Screen::Boards(_)) {
                return vec![];
            }
            return match &answer {
                Ok(Daily {
                    number,
                    seed: Some(seed),
                    ..
                }) => self.play_past_daily(*number, *seed),
                // Today's after all (this device's clock is behind): the player's try.
                Ok(_) => {
                    self.screen = Screen::Menu;
                    self.play_daily()
                }
                Err(why) => {
                    let name = daily::name(number.unwrap_or_default());
                    self.notice = Some((format!("{name} can't be played: {why}"), Tone::Wrong));
                    vec![]
                }
            };
        }
        // No server, or none that has dailies: the menu says nothing of them.
        let Ok(loaded) = answer else { return vec![] };
        if let Screen::Results(r) = &mut self.screen
            && r.daily == Some(loaded.number)
            && let Some(yours) = &loaded.yours
            && r.run.as_deref() == Some(yours.run.as_str())
        {
            r.note = Some(yours.line(loaded.number));
        }
        if self
            .daily
            .as_ref()
            .is_none_or(|d| d.number <= loaded.number)
        {
            self.daily = Some(loaded);
        }
        vec![]
    }

    /// Today's daily's number by this device's clock at `unix_ms`, or the server's if it
    /// said a later one.
    pub(crate) fn today(&self, unix_ms: u64) -> u32 {
        let here = daily::number(unix_ms as i64).unwrap_or(1);
        self.daily.as_ref().map_or(here, |d| d.number.max(here))
    }

    /// Opens daily `number`'s board, and asks for it.
    pub(crate) fn open_daily_board(&mut self, number: u32) -> Vec<Effect> {
        self.screen = Screen::Boards(Box::new(Browsing {
            daily: Some(number),
            ..Browsing::default()
        }));
        vec![Effect::Request(Request::Daily {
            token: self.player.as_ref().map(|p| p.token.clone()),
            number: Some(number),
        })]
    }

    /// `key` on daily `number`'s board at `unix_ms`, if it is one of its own: the arrows
    /// go from day to day, `j` plays it. The rest are any board's.
    pub(crate) fn daily_board_key(
        &mut self,
        number: u32,
        key: Key,
        unix_ms: u64,
    ) -> Option<Vec<Effect>> {
        let today = self.today(unix_ms);
        Some(match key {
            Key::Left if number > 1 => self.open_daily_board(number - 1),
            Key::Right | Key::Tab if number < today => self.open_daily_board(number + 1),
            Key::Left | Key::Right | Key::Tab | Key::Char('p') => vec![],
            Key::Char('j') => {
                let seed = match &self.screen {
                    Screen::Boards(b) => b.seed,
                    _ => None,
                };
                match seed {
                    Some(seed) => self.play_past_daily(number, seed),
                    None => self.play_daily_number(number, unix_ms),
                }
            }
            _ => return None,
        })
    }

    /// Plays daily `number` (a profile's row, a board's): today's as the player's try,
    /// a past one unranked, once its seed comes.
    pub(crate) fn play_daily_number(&mut self, number: u32, unix_ms: u64) -> Vec<Effect> {
        if number >= self.today(unix_ms) {
            self.screen = Screen::Menu;
            return self.play_daily();
        }
        self.daily_wanted = Some(number);
        let asking = ["asking for ", &daily::name(number), "'s text…"].concat();
        self.notice = Some((asking, Tone::Dim));
        vec![Effect::Request(Request::Daily {
            token: self.player.as_ref().map(|p| p.token.clone()),
            number: Some(number),
        })]
    }

    /// Past daily `number`'s text, on its `seed`: said as that daily, ranked nowhere.
    fn play_past_daily(&mut self, number: u32, seed: u64) -> Vec<Effect> {
        self.playing_daily = Some((number, seed));
        self.play(Mode::BLITZ_30, Some(seed));
        let over = [
            &daily::name(number),
            " is over: this round is yours, unranked",
        ]
        .concat();
        self.notice = Some((over, Tone::Dim));
        vec![]
    }

    /// The menu's line for the daily: `daily #6 · BLITZ 30s · 214 played · j plays it`, or
    /// the player's place once they have one.
    pub(crate) fn daily_line(&self) -> Option<String> {
        let d = self.daily.as_ref()?;
        Some(match &d.yours {
            Some(yours) => [&yours.line(d.number), " · j plays it again, unranked"].concat(),
            None => {
                let played = typepper_api::profile::grouped(d.players);
                [&d.title, " · ", &played, " played · j plays it"].concat()
            }
        })
    }

    /// Once a daily's round is stored: its place, asked for.
    pub(crate) fn ask_place(&mut self, number: u32) -> Vec<Effect> {
        let Some(player) = &self.player else {
            return vec![];
        };
        vec![Effect::Request(Request::Daily {
            token: Some(player.token.clone()),
            number: Some(number),
        })]
    }
}
