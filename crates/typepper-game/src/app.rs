//! The game's screens and what keys do on them: pure state, no browser and no terminal.
//!
//! The shell turns its events into [`Key`]s with their timestamps and calls
//! [`App::key`] and, every frame, [`App::tick`]. What must happen outside — storing a
//! round, sending it, fetching a board or a seed, warning in the console — comes back as
//! [`Effect`] values for the shell to carry out; a [`Effect::Request`] to the server is
//! answered back through [`App::answer`].
//! All rules stay in the engine; this module only decides which screen shows what.
//!
//! Each screen is a module of its own (`app/results.rs` …): its state, what its keys do,
//! and how its part of the [`Model`] is made; what that part holds is the model's module
//! of the same name (`model/results.rs`). The outbox and the seed pool are types of their
//! own (`app/outbox.rs`, `app/seeds.rs`). This file holds what every screen shares: which
//! one is on screen, and the keys, ticks and answers handed to it.
//!
//! A linked game keeps a seed the server issued for each mode on the menu, fetched in the
//! background, so that a round starts at once on a text that can be ranked. Without one
//! (offline, not linked, or watching someone's round and playing it yourself) a round is
//! played on a seed of the game's own, and the server keeps it unranked.

use typepper_api::room::Ask;
pub use typepper_api::{BoardRow, Player};
use typepper_engine::Drill;

mod boards;
mod daily;
mod devices;
mod history;
mod keys;
mod link;
mod lists;
mod menu;
#[cfg(test)]
mod model_tests;
mod outbox;
mod play;
mod profile;
mod results;
mod room;
mod seeds;
mod settings;
mod text;

use self::boards::{Browsing, Pending};
use self::devices::DevicesScreen;
pub use self::keys::KeysScreen;
use self::lists::Lists;
pub(crate) use self::menu::{BOARDS, Picks};
use self::outbox::Outbox;
pub use self::play::{MENU_LETTER_HOLD_MS, Session, Watch};
pub(crate) use self::play::{delete_word, type_key};
pub use self::profile::ProfileScreen;
pub use self::results::{Finished, RESULTS_HOLD_MS, RaceEnd, race_link};
use self::seeds::SeedPool;
pub use self::text::Drafting;
pub use crate::input::Key;
use crate::model::{Model, Tone};
use crate::request::{Answer, Request};
use crate::room::{Live, Seat};
use crate::settings::Settings;
use crate::storage::{self, Entry, Outgoing};
use crate::zone::Zone;

/// Something for the shell to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Keep `value` under `key`: in localStorage, or as the file `key` in the data dir.
    Save {
        /// The key.
        key: String,
        /// The text.
        value: String,
    },
    /// Forget what `key` holds.
    Remove(String),
    /// Say this as a warning: in the console, or the terminal's log.
    Warn(String),
    /// Ask the server this; hand what comes back to [`App::answer`].
    Request(Request),
    /// Put this text on the clipboard.
    Copy(String),
    /// Connect to room `code` (closing any room connection there is): hand [`App::answer`]
    /// [`Answer::RoomConnected`] once it is up, [`Answer::RoomSaid`] for each message, and
    /// [`Answer::RoomClosed`] at its end.
    JoinRoom(String),
    /// Send this to the room.
    RoomSay(Ask),
    /// Close the room's connection, reporting nothing more.
    LeaveRoom,
    /// A key of your round was typed, `wrong` or not: a browser clicks for it, a
    /// terminal rings its bell on a wrong one. Only while the settings ask for either.
    Keystroke {
        /// The key was judged wrong.
        wrong: bool,
    },
}

/// Times the shell gives: the monotonic clock of events and frames, and the wall clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Now {
    /// `performance.now()`-based milliseconds (an event's `timeStamp`, a frame's time).
    pub mono: f64,
    /// Milliseconds since 1970, for dating history lines.
    pub unix_ms: u64,
}

/// What players read for their best round of a mode among those this device keeps (the
/// history's last 50, ranked or not), apart from [`typepper_api::RANKED_BEST`], the server's.
pub const BEST_HERE: &str = "your best here";

/// What is on screen.
#[derive(Clone, Debug)]
pub enum Screen {
    /// Pick a mode.
    Menu,
    /// Typing, or watching.
    Play(Box<Session>),
    /// A finished round.
    Results(Box<Finished>),
    /// Your last rounds.
    History,
    /// Choosing a name to link this game to, or typing a code from another device.
    Link {
        /// The name (or code) so far.
        name: String,
        /// A code from a linked device is being typed, not a name (tab changes it).
        code: bool,
        /// Why the last try failed.
        error: Option<String>,
        /// A request is out.
        waiting: bool,
    },
    /// A linked player's devices, and a code that adds one.
    Devices(Box<DevicesScreen>),
    /// The boards.
    Boards(Box<Browsing>),
    /// Your keys: what the history says about each key.
    Keys(Box<KeysScreen>),
    /// A player's profile.
    Profile(Box<ProfileScreen>),
    /// A live room: naming yourself, its lobby, the race, its results.
    Room(Box<Live>),
    /// A text of your own, being pasted or typed.
    Text(Box<Drafting>),
    /// The settings, at the picked row.
    Settings(usize),
}

/// The whole game's state.
#[derive(Clone, Debug)]
pub struct App {
    /// What is on screen.
    pub(crate) screen: Screen,
    /// The menu's selected item.
    pub(crate) menu_item: usize,
    /// The menu's lengths, level and prose, as last left.
    pub(crate) picks: Picks,
    /// The last drill played, which the menu offers again.
    pub(crate) drill: Option<Drill>,
    /// The player's settings (`o` on the menu).
    pub(crate) settings: Settings,
    /// Where the linked player's settings kept on the server stand.
    pub(crate) settings_sync: self::settings::Sync,
    /// Why the shell keeps nothing (a read-only data dir, no storage), said on every
    /// results screen of your own and on the history.
    pub(crate) unkept: Option<String>,
    /// Today's daily as the server last said it.
    pub(crate) daily: Option<typepper_api::daily::Daily>,
    /// When the daily was last asked for (unix ms).
    pub(crate) daily_asked: Option<u64>,
    /// The daily's number and seed the player was last given to play.
    pub(crate) playing_daily: Option<(u32, u64)>,
    /// A past daily whose seed was asked for, to play it once it comes.
    pub(crate) daily_wanted: Option<u32>,
    /// Why this player can't link (a guest over `ssh` has no key to link): the menu
    /// offers no `l` and says this instead of asking for a name.
    pub(crate) unlinkable: Option<&'static str>,
    /// Where the history is kept, as its captions say it: `on this device`.
    pub(crate) kept_on: &'static str,
    /// Your rounds, oldest first, at most [`storage::HISTORY_MAX`].
    pub(crate) history: Vec<Entry>,
    /// History lines whose round's word list isn't installed, each with when it ended:
    /// kept as they were, and read once the list is in.
    pub(crate) history_unlisted: Vec<(u64, String)>,
    /// The history screen's selected row (0 is the newest).
    pub(crate) history_row: usize,
    /// A line to show on the menu: why a replay was refused, say.
    pub(crate) notice: Option<(String, Tone)>,
    /// How many rounds (played or watched) have started: a renderer resets on a new one.
    pub(crate) sessions: u64,
    /// The linked player, if any.
    pub(crate) player: Option<Player>,
    /// Rounds not yet sent, oldest first.
    pub(crate) outbox: Outbox,
    /// The seeds rounds are played on: the server's, or the game's own.
    pub(crate) seeds: SeedPool,
    /// A run asked for, and what to do with it.
    pub(crate) pending: Option<Pending>,
    /// The list (the history, or a board) a watched round was opened from: esc from the
    /// round or its results goes back to it. A round of your own clears it.
    pub(crate) list: Option<Screen>,
    /// Where the game is served, for race links (`https://typepper.com/`); the shell
    /// knows it, if anyone does.
    pub(crate) game_url: Option<String>,
    /// The seat this game last held in a room, to take back after a reload.
    pub(crate) room_seat: Option<Seat>,
    /// The word lists asked for, and what waits for one.
    pub(crate) lists: Lists,
    /// The text the menu's CUSTOM TEXT plays: the last one played.
    pub(crate) custom: Option<String>,
}

impl App {
    /// A fresh game, and what the shell does first: warnings about what was stored,
    /// unreadable rounds to remove, and the rounds kept while offline, sent in one
    /// submission. `entropy` seeds the rounds' seeds (the shell's randomness; the engine
    /// has none); `stored` is what the shell keeps; `game_url` is where the game is served
    /// (`https://typepper.com/`), for race links, if the shell knows.
    pub fn new(
        entropy: u64,
        stored: &storage::Stored,
        game_url: Option<String>,
    ) -> (App, Vec<Effect>) {
        let storage::ReadHistory {
            entries: history,
            unlisted: history_unlisted,
            mut warnings,
        } = storage::read_history(&stored.history);
        let (outbox, bad, more) = storage::parse_outbox(&stored.outbox);
        warnings.extend(more);
        let player = stored.player.as_deref().and_then(|p| {
            let player = storage::parse_player(p);
            if player.is_none() {
                warnings.push("the stored player doesn't read: link the game again".into());
            }
            player
        });
        let mut app = App {
            screen: Screen::Menu,
            menu_item: 0,
            picks: stored
                .menu
                .as_deref()
                .and_then(Picks::parse)
                .unwrap_or_default(),
            drill: stored.drill.as_deref().and_then(Drill::new),
            settings: Settings::read(
                stored.settings.as_deref().unwrap_or_default(),
                stored.live.as_deref(),
            ),
            settings_sync: self::settings::Sync::Unasked,
            unkept: None,
            daily: None,
            daily_asked: None,
            playing_daily: None,
            daily_wanted: None,
            unlinkable: None,
            kept_on: "on this device",
            history,
            history_unlisted,
            history_row: 0,
            notice: None,
            sessions: 0,
            player,
            outbox: Outbox::new(outbox),
            seeds: SeedPool::new(entropy),
            pending: None,
            list: None,
            game_url,
            room_seat: stored.room.as_deref().and_then(Seat::parse),
            lists: Lists::default(),
            // A kept text that no longer reads (an older build's, edited by hand) is let go.
            custom: stored
                .text
                .as_deref()
                .and_then(|t| crate::custom::prepare(t).ok()),
        };
        // The menu's language, fetched before enter is pressed, where the build lacks it.
        app.want(crate::request::Need::Words(app.picks.prose.language));
        let mut fx: Vec<Effect> = warnings.into_iter().map(Effect::Warn).collect();
        fx.extend(bad.into_iter().map(Effect::Remove));
        fx.extend(app.flush());
        (app, fx)
    }

    /// What is on screen.
    pub fn screen(&self) -> &Screen {
        &self.screen
    }

    /// Your rounds, oldest first.
    pub fn history(&self) -> &[Entry] {
        &self.history
    }

    /// Rounds not yet sent, oldest first.
    pub fn outbox(&self) -> &[Outgoing] {
        self.outbox.rounds()
    }

    /// The line the menu shows, if any: why a replay was refused, say.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_ref().map(|(text, _)| text.as_str())
    }

    /// A click or a tap on the `index`th item of the screen's list (a menu item, a
    /// history row, a board row) at `now`: it is selected and opened, as enter opens it.
    /// An index past the list's end does nothing.
    pub fn pick(&mut self, index: usize, now: Now) -> Vec<Effect> {
        let items = self.menu_len();
        let picked = match &mut self.screen {
            Screen::Menu if index < items => {
                self.menu_item = index;
                true
            }
            Screen::History if index < self.history.len() => {
                self.history_row = index;
                true
            }
            Screen::Boards(b) if matches!(&b.rows, Some(Ok(rows)) if index < rows.len()) => {
                b.row = index;
                true
            }
            Screen::Profile(p) if index < p.len() => {
                p.row = index;
                true
            }
            Screen::Settings(row) if index < settings::ROWS => {
                *row = index;
                true
            }
            // A device tapped is picked, for the remove button: nothing more.
            Screen::Devices(d) => {
                if matches!(&d.devices, Some(Ok(l)) if index < l.devices.len()) {
                    d.row = index;
                }
                false
            }
            _ => false,
        };
        if picked {
            self.key(Key::Enter, now)
        } else {
            vec![]
        }
    }

    /// A click or a tap on the name of a board's `index`th row: that row picked, and its
    /// player's profile opened, as `o` opens it. Elsewhere, nothing.
    pub fn pick_player(&mut self, index: usize, now: Now) -> Vec<Effect> {
        match &mut self.screen {
            Screen::Boards(b) if matches!(&b.rows, Some(Ok(rows)) if index < rows.len()) => {
                b.row = index;
                self.key(Key::Char('o'), now)
            }
            _ => vec![],
        }
    }

    /// Text pasted or composed (by an IME, a phone's keyboard) at `now`: each character
    /// as if its key were pressed, except control characters, which stand for no key a
    /// round or a name takes: a pasted line's end is not enter, nor its tab a new round.
    pub fn text(&mut self, text: &str, now: Now) -> Vec<Effect> {
        if matches!(self.screen, Screen::Text(_)) {
            self.paste_text(text);
            return vec![];
        }
        let mut fx: Vec<Effect> = vec![];
        for c in text.chars().filter(|c| !c.is_control()) {
            for effect in self.key(Key::Char(c), now) {
                // A room's keys go as typed; a paste's go together, a message's worth at
                // a time, as a burst of typing does.
                if let (Effect::RoomSay(Ask::Keys(more)), Some(Effect::RoomSay(Ask::Keys(keys)))) =
                    (&effect, fx.last_mut())
                    && keys.len() + more.len() <= typepper_api::room::MAX_KEYS_PER_MESSAGE
                {
                    keys.extend_from_slice(more);
                    continue;
                }
                fx.push(effect);
            }
        }
        fx
    }

    /// A key pressed at `now`.
    pub fn key(&mut self, key: Key, now: Now) -> Vec<Effect> {
        let mut fx = vec![];
        match &mut self.screen {
            Screen::Menu => fx.extend(self.menu_key(key, now)),
            Screen::History => self.history_key(key, now.mono),
            Screen::Link { .. } => fx.extend(self.link_key(key)),
            Screen::Devices(_) => fx.extend(self.devices_key(key)),
            Screen::Profile(_) => fx.extend(self.profile_key(key, now.unix_ms)),
            Screen::Boards(_) => fx.extend(self.boards_key(key, now.unix_ms)),
            Screen::Keys(_) => fx.extend(self.keys_key(key)),
            Screen::Room(_) => fx.extend(self.room_key(key, now)),
            Screen::Results(_) => fx.extend(self.results_key(key, now)),
            Screen::Play(_) => fx.extend(self.play_key(key, now)),
            Screen::Text(_) => fx.extend(self.text_key(key)),
            Screen::Settings(_) => fx.extend(self.settings_key(key)),
        }
        fx.extend(self.ask_lists());
        fx
    }

    /// Esc from a watched round or its results: back to the list it came from, or the
    /// menu.
    pub(crate) fn back(&mut self) {
        self.screen = self.list.take().unwrap_or(Screen::Menu);
    }

    /// The shell keeps the history somewhere other than the device the game is on:
    /// `place`, as the history's caption says it (`on the server`).
    pub fn keeps_on(&mut self, place: &'static str) {
        self.kept_on = place;
    }

    /// This player can't link, for reason `why`: the menu says so and offers no `l`.
    pub fn cannot_link(&mut self, why: &'static str) {
        self.unlinkable = Some(why);
    }

    /// The shell can keep nothing (`why`: a read-only dir, a browser without storage):
    /// the game plays, and says so.
    pub fn cannot_keep(&mut self, why: &str) {
        // What it means first: a long reason (a path) may be cut at the screen's edge.
        self.notice = Some((format!("rounds won't be kept: {why}"), Tone::Wrong));
        self.unkept = Some(why.to_owned());
    }

    /// What the server (or a live room) answered, at `now`.
    pub fn answer(&mut self, answer: Answer, now: Now) -> Vec<Effect> {
        // A token the server no longer takes (its device removed, its account deleted)
        // is forgotten at once, whichever request found out: else the game says it is
        // linked, marks rounds RANKED and sends them, and each is refused.
        let mut forgot = vec![];
        if let Some(why) = answer.not_linked()
            && self.player.take().is_some()
        {
            self.seeds.forget();
            self.notice = Some((["no longer linked: ", why].concat(), Tone::Wrong));
            if matches!(self.screen, Screen::Devices(_)) {
                self.screen = Screen::Menu;
            }
            forgot.push(Effect::Remove(storage::PLAYER.into()));
        }
        let mut fx = match answer {
            Answer::Submitted { keys, answer } => self.submitted(&keys, answer),
            Answer::Linked(player) => self.linked(player),
            Answer::Board { mode, period, rows } => {
                self.board_loaded(&mode, period, rows);
                vec![]
            }
            Answer::Run { id, bytes } => self.run_loaded(&id, bytes, now.mono),
            Answer::Seed { mode, answer } if mode == self::daily::ASK => self.daily_issued(answer),
            Answer::Seed { mode, answer } => self.seed_issued(&mode, answer, now.unix_ms),
            Answer::Daily { number, daily } => self.daily_loaded(number, daily),
            Answer::RoomOpened(opened) => self.room_opened(opened),
            Answer::Devices(devices) => {
                self.devices_loaded(devices);
                vec![]
            }
            Answer::DeviceCode(code) => {
                self.code_shown(code);
                vec![]
            }
            Answer::DeviceRemoved { id, done } => self.device_removed(&id, done),
            Answer::Profile { name, profile } => {
                self.profile_loaded(&name, profile);
                vec![]
            }
            Answer::RoomConnected => self.room_connected(),
            Answer::RoomSaid(say) => self.room_said(say, now),
            Answer::RoomClosed(why) => self.room_closed(&why, now),
            Answer::File { need, file } => self.file_loaded(need, file, now),
            Answer::Settings(kept) => self.settings_loaded(kept),
            // A change not kept on the server goes with the next change.
            Answer::SettingsSaved(_) => vec![],
        };
        fx.extend(self.ask_lists());
        forgot.extend(fx);
        forgot
    }

    /// A frame at `now`: asks for the seeds and word lists the game lacks, ends rounds
    /// whose time is up, lands a replay's due inputs.
    pub fn tick(&mut self, now: Now) -> Vec<Effect> {
        let mut fx = self.want_seeds(now.unix_ms);
        fx.extend(self.want_daily(now.unix_ms));
        fx.extend(self.want_settings());
        fx.extend(self.ask_lists());
        fx.extend(self.tick_round(now));
        fx.extend(self.tick_room(now));
        fx
    }

    /// When the screen next changes by itself, with no key and no message: `now` while a
    /// round, a race or a room's countdown moves, the end of a note or of the rematch's
    /// hold, a seed to let go; `None` when only a key or a message changes it.
    /// A shell asks for its next frame then, and sleeps until it (or an event) comes.
    pub fn wake(&self, now: Now) -> Option<f64> {
        let mut at: Option<f64> = None;
        let mut soon = |t: f64| at = Some(at.map_or(t, |a| a.min(t)));
        // The seeds' clock is the wall's: its moments become the monotonic clock's.
        let _wall = |unix_ms: i64| now.mono + (unix_ms - now.unix_ms as i64).max(0) as f64;
        if let Some(t) = self.seeds.wake(now, self.player.is_some()) {
            soon(t);
        }
        match &self.screen {
            // A round moves from its first key (a replay's, a race's ghost's) to its end.
            Screen::Play(session) if session.origin.is_some() => soon(now.mono),
            Screen::Room(live) => {
                // The count, then the race: seconds long, and moving.
                if live.go_at.is_some() || live.race.is_some() && live.results.is_none() {
                    soon(now.mono);
                }
                let moments = [live.note_until, live.lobby_at, live.retry.map(|(t, _)| t)];
                moments.into_iter().flatten().for_each(&mut soon);
            }
            _ => {}
        }
        at
    }

    pub(crate) fn save_history(&self) -> Effect {
        Effect::Save {
            key: storage::HISTORY.into(),
            value: storage::format_history_with(&self.history, &self.history_unlisted),
        }
    }
}

/// Whole milliseconds from `origin` to `now`, 0 before it.
pub(crate) fn ms_since(origin: f64, now: f64) -> u32 {
    let ms = (now - origin).floor();
    if ms <= 0.0 {
        0
    } else if ms >= f64::from(u32::MAX) {
        u32::MAX
    } else {
        ms as u32
    }
}

impl App {
    /// The model of the screen at monotonic time `now`, dates in `zone`.
    pub fn model(&self, now: f64, zone: &dyn Zone) -> Model {
        let notice = self.notice.clone();
        match &self.screen {
            Screen::Menu => self.menu_screen(notice),
            Screen::Play(session) => self.play_screen(session, now, notice),
            Screen::Results(r) => self.results_screen(r, notice),
            Screen::History => self.history_screen(zone, notice),
            Screen::Link {
                name,
                code,
                error,
                waiting,
            } => self.link_screen(name, *code, error.as_deref(), *waiting, notice),
            Screen::Devices(d) => self.devices_screen(d, zone, notice),
            Screen::Profile(p) => self.profile_screen(p, notice),
            Screen::Keys(k) => self.keys_screen(k, notice),
            Screen::Room(live) => self.room_screen(live, now, notice),
            Screen::Boards(b) => self.boards_screen(b, notice),
            Screen::Text(drafting) => self.text_screen(drafting, notice),
            Screen::Settings(row) => self.settings_screen(*row, notice),
        }
    }
}

impl App {
    /// The `n` rounds a screen reads, and where they are kept: `from your last 3 rounds,
    /// on this device`, or `no rounds yet, …`.
    pub(crate) fn rounds_kept(&self, from: &str, n: usize) -> String {
        let rounds = match n {
            0 => "no rounds yet".into(),
            1 => [from, "your last round"].concat(),
            n => format!("{from}your last {n} rounds"),
        };
        match &self.unkept {
            // This game's rounds, and they go with it.
            Some(_) => rounds + ", until you leave: not kept",
            None => [&rounds, ", ", self.kept_on].concat(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use typepper_api::{IssuedSeed, Period};
    use typepper_engine::{Language, Mode, Op, Replay, hex};

    use self::menu::Row;

    use crate::request::Failure;

    fn at(mono: f64) -> Now {
        Now {
            mono,
            unix_ms: 1_764_600_000_000 + mono as u64,
        }
    }

    fn fresh() -> App {
        App::new(7, &storage::Stored::default(), None).0
    }

    /// A board's row of ada's, ranked `rank`, of run `run`.
    fn board_row(rank: u32, run: &str) -> BoardRow {
        BoardRow {
            rank,
            name: "ada".into(),
            score: 90,
            wpm: 90.0,
            accuracy: 97.5,
            run: run.into(),
            time: "2026-12-01T19:52:00Z".into(),
        }
    }

    /// The play-test: `live stats on…`, said on the menu, stayed on the history `h`
    /// opened next.
    #[test]
    fn a_menu_notice_stays_on_the_menu_and_no_further() {
        let mut app = fresh();
        app.key(Key::Char('s'), at(0.0));
        let said = app.notice().map(str::to_owned);
        assert!(said.as_deref().is_some_and(|n| n.starts_with("live stats")));
        app.key(Key::Down, at(0.0));
        assert_eq!(app.notice(), said.as_deref(), "the menu keeps it");
        app.key(Key::Char('h'), at(0.0));
        assert_eq!(app.notice(), None);
        app.key(Key::Escape, at(0.0));
        assert_eq!(app.notice(), None, "nor is it back on the menu");
    }

    fn linked() -> App {
        let mut app = fresh();
        app.player = Some(Player {
            name: "ada".into(),
            token: "t0k3n".into(),
        });
        app
    }

    /// Types the current word of the play screen and a space, 100 ms a key.
    fn type_word(app: &mut App, t: &mut f64) -> Vec<Effect> {
        let Screen::Play(s) = &app.screen else {
            panic!("not playing")
        };
        let view = s.round.view(app.round_time(*t));
        let word = view.word(view.current()).unwrap().target().to_owned();
        let mut fx = vec![];
        for c in word.chars().chain([' ']) {
            fx.extend(app.key(Key::Char(c), at(*t)));
            *t += 100.0;
        }
        fx
    }

    fn zen_round(app: &mut App, t: &mut f64) -> Vec<Effect> {
        app.key(Key::Char('z'), at(*t));
        type_word(app, t);
        app.key(Key::Escape, at(*t))
    }

    #[test]
    fn a_blitz_round_ends_on_time_and_is_kept() {
        let (mut app, warnings) = App::new(7, &storage::Stored::default(), None);
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
        let [
            Effect::Save {
                key: k1,
                value: last,
            },
            Effect::Save {
                key: k2,
                value: history,
            },
        ] = &fx[..]
        else {
            panic!("{fx:?}")
        };
        assert_eq!(
            (k1.as_str(), k2.as_str()),
            (storage::LAST, storage::HISTORY)
        );
        let bytes = hex::decode(last).unwrap();
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
        let mut app = fresh();
        let mut t = 0.0;
        let fx = zen_round(&mut app, &mut t);
        assert!(matches!(app.screen, Screen::Results(_)));
        assert_eq!(fx.len(), 2);

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

        // ZEN with punctuation and a language is ZEN all the same: esc ends it.
        app.key(Key::Char('.'), at(t));
        app.key(Key::Char('@'), at(t));
        app.key(Key::Char('z'), at(t));
        type_word(&mut app, &mut t);
        app.key(Key::Escape, at(t));
        let Screen::Results(r) = &app.screen else {
            panic!("esc didn't end zen/p@en10k")
        };
        assert_eq!(r.score.mode.key(), "zen/p@en10k");
    }

    #[test]
    fn tab_restarts_with_a_new_seed() {
        let mut app = fresh();
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
        let mut app = fresh();
        let typist = typepper_engine::synth::Typist::default();
        let replay = typepper_engine::synth::synth(Mode::BLITZ_15, 4, &typist);
        let (_, want) = replay.play().unwrap();
        app.watch(replay.clone(), None, 0.0).unwrap();
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
        let mut app = fresh();
        let replay = Replay {
            engine: 3,
            mode: "time:15".into(),
            seed: 1,
            text: None,
            inputs: vec![],
        };
        let err = app.watch_bytes(&replay.encode(), None, 0.0).unwrap_err();
        assert_eq!(
            err,
            "recorded by rules VERSION 3, which this engine doesn't have: it plays VERSION 1 and 2"
        );
        assert_eq!(app.notice(), Some(err.as_str()));
        let err = app.watch_bytes(b"nope", None, 0.0).unwrap_err();
        assert!(err.contains("not a replay"), "{err}");
        let odd = Replay {
            engine: 1,
            mode: "time:10".into(),
            ..replay
        };
        assert!(
            app.watch_bytes(&odd.encode(), None, 0.0)
                .unwrap_err()
                .contains("no mode")
        );
    }

    #[test]
    fn history_enter_plays_the_picked_round() {
        let mut app = fresh();
        let mut t = 0.0;
        app.key(Key::Char('1'), at(t));
        type_word(&mut app, &mut t);
        t += 15_000.0;
        app.tick(at(t));
        app.key(Key::Escape, at(t));
        zen_round(&mut app, &mut t);
        app.key(Key::Escape, at(t));
        app.key(Key::Char('h'), at(t));
        app.key(Key::Down, at(t));
        app.key(Key::Enter, at(t));
        let Screen::Play(s) = &app.screen else {
            panic!("not watching")
        };
        assert!(s.watch.is_some());
        assert_eq!(s.round.mode(), Mode::BLITZ_15, "row 1 is the older round");
    }

    #[test]
    fn a_pick_selects_and_opens_as_enter_does_and_past_the_end_does_nothing() {
        // The menu: the first item is BLITZ at its clock; there is no tenth without a
        // drill.
        let mut app = fresh();
        assert!(app.pick(9, at(0.0)).is_empty());
        assert!(matches!(app.screen, Screen::Menu));
        app.picks.blitz = typepper_engine::Blitz::S60;
        app.pick(0, at(0.0));
        let Screen::Play(s) = &app.screen else {
            panic!("not playing")
        };
        assert_eq!(s.round.mode(), Mode::BLITZ_60);
        // The history: row 1 is the older round, as the keys pick it.
        let mut t = 0.0;
        app.key(Key::Escape, at(t));
        zen_round(&mut app, &mut t);
        app.key(Key::Escape, at(t));
        app.key(Key::Char('1'), at(t));
        type_word(&mut app, &mut t);
        t += 15_000.0;
        app.tick(at(t));
        app.key(Key::Escape, at(t));
        app.key(Key::Char('h'), at(t));
        assert!(app.pick(2, at(t)).is_empty());
        app.pick(1, at(t));
        let Screen::Play(s) = &app.screen else {
            panic!("not watching")
        };
        assert_eq!(s.round.mode(), Mode::ZEN);
        // A board (the picked mode's): a row that came, and none before they come.
        app.key(Key::Escape, at(t));
        app.key(Key::Escape, at(t));
        assert_eq!(
            app.key(Key::Char('b'), at(t)),
            [Effect::Request(Request::Board(
                "time:60".into(),
                Period::Month
            ))]
        );
        assert!(app.pick(0, at(t)).is_empty(), "no rows yet");
        let rows = vec![board_row(1, "aaaaaaaa"), board_row(2, "bbbbbbbb")];
        app.board_loaded("time:60", Period::Month, Ok(rows));
        assert_eq!(
            app.pick(1, at(t)),
            vec![Effect::Request(Request::Run("bbbbbbbb".into()))]
        );
    }

    #[test]
    fn ctrl_backspace_deletes_the_word_being_typed_then_the_wrong_one_before() {
        let mut app = fresh();
        app.key(Key::Char('1'), at(0.0));
        let typed = |app: &App| {
            let Screen::Play(s) = &app.screen else {
                panic!("not playing")
            };
            let view = s.round.view(s.round.last_input());
            let word = view.word(view.current()).unwrap();
            (view.current(), word.typed().iter().collect::<String>())
        };
        let mut t = 0.0;
        for c in "qqq".chars() {
            app.key(Key::Char(c), at(t));
            t += 100.0;
        }
        assert_eq!(typed(&app), (0, "qqq".into()));
        app.key(Key::DeleteWord, at(t));
        assert_eq!(typed(&app), (0, String::new()));
        // A word left wrong, then ctrl-backspace on the empty word after it.
        for c in "qq ".chars() {
            app.key(Key::Char(c), at(t));
            t += 100.0;
        }
        assert_eq!(typed(&app), (1, String::new()));
        app.key(Key::DeleteWord, at(t));
        assert_eq!(typed(&app), (0, String::new()));
        // The replay holds backspaces only: it plays back to the same place.
        let Screen::Play(s) = &app.screen else {
            panic!()
        };
        let replay = s.round.replay();
        assert!(
            replay
                .inputs
                .iter()
                .all(|i| matches!(i.op, Op::Char(_) | Op::Backspace))
        );
        let mut again = replay.setup().unwrap();
        for (t, op) in replay.timeline() {
            let _ = again.apply(t.unwrap(), op);
        }
        assert_eq!(again.view(again.last_input()).current(), 0);
        // In a name, it clears the name.
        app.key(Key::Escape, at(t));
        app.key(Key::Char('l'), at(t));
        app.text("ada", at(t));
        app.key(Key::DeleteWord, at(t));
        let Screen::Link { name, .. } = &app.screen else {
            panic!()
        };
        assert_eq!(name, "");
    }

    #[test]
    /// The play-test: `the` typed at the menu was scored against words the player had
    /// not seen (`wrong 3`, `accuracy 0%`). Its letters start the picked mode and are
    /// nothing more; the clock waits for a key typed once the words are there.
    fn a_word_typed_at_the_menu_starts_the_picked_mode_and_is_not_scored() {
        let mut app = fresh();
        app.key(Key::Down, at(0.0));
        app.key(Key::Char('t'), at(0.0));
        app.key(Key::Char('h'), at(90.0));
        app.key(Key::Char('e'), at(180.0));
        let Screen::Play(s) = &app.screen else {
            panic!("not playing")
        };
        assert_eq!(s.round.mode().key(), "words:25");
        assert!(s.round.started().is_none(), "the clock waits");
        let first = s.round.view(0).word(0).unwrap().target();
        let c = first.chars().next().unwrap();
        app.key(Key::Char(c), at(MENU_LETTER_HOLD_MS));
        let Screen::Play(s) = &app.screen else {
            panic!("not playing")
        };
        let view = s.round.view(s.round.last_input());
        let typed: String = view.word(0).unwrap().typed().iter().collect();
        assert_eq!(typed, c.to_string());
    }

    /// The play-test: the idle menu ran 60 frames a second, and a round waited for its
    /// first key at 60 too. Nothing moves there by itself; a round does once it starts.
    #[test]
    fn only_a_moving_screen_asks_to_be_woken() {
        let mut app = fresh();
        assert_eq!(app.wake(at(0.0)), None, "the menu");
        app.key(Key::Char('1'), at(0.0));
        assert_eq!(app.wake(at(10.0)), None, "a round before its first key");
        let Screen::Play(s) = &app.screen else {
            panic!("not playing")
        };
        let first = s.round.view(0).word(0).unwrap().target();
        app.key(Key::Char(first.chars().next().unwrap()), at(20.0));
        assert_eq!(app.wake(at(30.0)), Some(30.0), "a round under way");
        app.key(Key::Escape, at(40.0));
        assert_eq!(app.wake(at(50.0)), None, "the menu again");
    }

    #[test]
    fn s_on_the_menu_says_what_it_did() {
        let mut app = fresh();
        app.key(Key::Char('s'), at(0.0));
        let said = app.notice.clone().map(|(n, _)| n).unwrap_or_default();
        assert!(said.starts_with("live stats: your speed as"), "{said}");
        for _ in 0..2 {
            app.key(Key::Char('s'), at(0.0));
        }
        let said = app.notice.clone().map(|(n, _)| n).unwrap_or_default();
        assert!(said.starts_with("live stats: off"), "{said}");
    }

    #[test]
    fn a_pick_on_a_value_s_arrow_moves_the_value_and_starts_nothing() {
        let mut app = fresh();
        // HOT PURSUIT's line: the level moves, and the picks are kept.
        let fx = app.pick_value(3, true, at(0.0));
        assert!(fx.contains(&Effect::Save {
            key: storage::MENU.into(),
            value: "15 25 8 - short".into()
        }));
        assert!(matches!(app.screen, Screen::Menu));
        assert_eq!((app.menu_item, app.picks.level), (3, 8));
        app.pick_value(3, false, at(0.0));
        app.pick_value(3, false, at(0.0));
        assert_eq!(app.picks.level, 6);
        // ZEN has no value: nothing moves, nothing is selected.
        assert!(app.pick_value(2, true, at(0.0)).is_empty());
        assert_eq!((app.menu_item, app.picks.level), (3, 6));
        // BLITZ's clock goes round.
        app.pick_value(0, false, at(0.0));
        assert_eq!(app.menu_mode(), Mode::BLITZ_120);
    }

    #[test]
    fn text_types_its_characters_and_drops_control_ones() {
        let mut app = fresh();
        app.key(Key::Char('l'), at(0.0));
        // A pasted line: its tab and line end are not keys, and nothing is sent.
        assert!(app.text("ada\t_\r\n", at(0.0)).is_empty());
        let Screen::Link { name, .. } = &app.screen else {
            panic!("not linking")
        };
        assert_eq!(name, "ada_");
        // On the menu, text is keys: `1` starts BLITZ 15s as the key does.
        app.key(Key::Escape, at(0.0));
        app.text("\u{7}1", at(0.0));
        let Screen::Play(s) = &app.screen else {
            panic!("not playing")
        };
        assert_eq!(s.round.mode(), Mode::BLITZ_15);
    }

    #[test]
    fn the_menu_is_its_modes_then_the_text_and_each_line_moves_its_own_value() {
        let mut app = fresh();
        let items: Vec<Mode> = (0..app.menu_len()).filter_map(|i| app.menu_at(i)).collect();
        assert_eq!(items, app.menu_modes());
        let keys: Vec<String> = items.iter().map(|m| m.key()).collect();
        assert_eq!(keys, ["time:15", "words:25", "zen", "pursuit:7"]);
        app.key(Key::Left, at(0.0));
        assert_eq!(
            app.menu_mode(),
            Mode::BLITZ_120,
            "← on BLITZ turns its clock"
        );
        assert_eq!(app.picks.level, 7, "and leaves the level");
        app.key(Key::Down, at(0.0));
        app.key(Key::Right, at(0.0));
        assert_eq!(app.menu_mode().key(), "words:50");
        app.key(Key::Up, at(0.0));
        app.key(Key::Up, at(0.0));
        assert_eq!(
            app.menu_row(app.menu_item),
            Some(Row::Numbers),
            "the list wraps"
        );
        app.key(Key::Enter, at(0.0));
        app.key(Key::Up, at(0.0));
        app.key(Key::Right, at(0.0));
        app.key(Key::Up, at(0.0));
        app.key(Key::Left, at(0.0));
        assert_eq!(
            app.picks.prose.language,
            Language::Ukrainian,
            "the list wraps"
        );
        let keys: Vec<String> = app.menu_modes().iter().map(|m| m.key()).collect();
        assert_eq!(
            keys,
            [
                "time:120/p/n@uk",
                "words:50/p/n@uk",
                "zen/p/n@uk",
                "pursuit:7/p/n@uk"
            ]
        );
        // The boards follow the text.
        assert_eq!(app.board_modes()[5].key(), "words:25/p/n@uk");
        // The quick keys say what they did; `1` plays with the text picked.
        let said = |app: &App| app.notice.clone().map(|(n, _)| n).unwrap_or_default();
        app.key(Key::Char('#'), at(0.0));
        assert_eq!(said(&app), "text: punctuation · українська");
        app.key(Key::Char('@'), at(0.0));
        assert_eq!(said(&app), "english: typepper's own 1,000 common words");
        app.key(Key::Char('@'), at(0.0));
        assert_eq!(
            said(&app),
            "english 10k: 10,000 common words, from wordfreq by Robyn Speer (CC BY-SA 4.0)",
            "the lists' credit goes where they are picked"
        );
        for _ in 0..13 {
            app.key(Key::Char('@'), at(0.0));
        }
        assert_eq!(
            app.picks.prose.language,
            Language::English,
            "round the list"
        );
        // A drill comes before the text's lines, plain, and the boards open on the first
        // for it.
        app.drill = Drill::new("qz");
        app.menu_item = 6;
        assert_eq!(app.menu_mode().key(), "drill2:qz");
        assert_eq!(
            app.key(Key::Char('b'), at(0.0)),
            [Effect::Request(Request::Board(
                "time:15/p".into(),
                Period::Month
            ))]
        );
        app.key(Key::Escape, at(0.0));
        app.key(Key::Char('1'), at(0.0));
        let Screen::Play(s) = &app.screen else {
            panic!("not playing")
        };
        assert_eq!(s.round.mode().key(), "time:15/p");
    }

    #[test]
    fn the_menu_s_picks_come_back_and_a_bad_line_is_the_defaults() {
        for (text, want) in [
            (
                "30 50 12 /p@fr long",
                Some(("time:30/p@fr", "words:50/p@fr", "pursuit:12/p@fr")),
            ),
            (
                "120 10 1 - any",
                Some(("time:120", "words:10", "pursuit:1")),
            ),
            // A line from before quotes: their length is short.
            ("60 10 1 -", Some(("time:60", "words:10", "pursuit:1"))),
            ("30 50 12 - longest", None),
            ("30 50 12", None),
            ("31 50 12 -", None),
            ("30 50 21 -", None),
            ("30 50 12 @en", None),
            ("30 50 12 /n/p", None),
            ("", None),
        ] {
            let stored = storage::Stored {
                menu: Some(text.into()),
                ..storage::Stored::default()
            };
            let (app, _) = App::new(1, &stored, None);
            let modes = app.menu_modes();
            let got = (modes[0].key(), modes[1].key(), modes[3].key());
            let want = want.unwrap_or(("time:15", "words:25", "pursuit:7"));
            assert_eq!(
                (got.0.as_str(), got.1.as_str(), got.2.as_str()),
                want,
                "{text:?}"
            );
            if want.0 != "time:15" {
                let full = if text.split(' ').count() == 4 {
                    format!("{text} short")
                } else {
                    text.to_owned()
                };
                assert_eq!(app.picks.text(), full);
            }
        }
    }

    #[test]
    fn a_boot_sends_what_was_kept_offline() {
        let mut app = linked();
        let mut t = 0.0;
        zen_round(&mut app, &mut t);
        let stored = storage::Stored {
            player: app.player.as_ref().map(storage::format_player),
            outbox: app
                .outbox
                .rounds()
                .iter()
                .map(|o| (o.key(), hex::encode(&o.replay)))
                .collect(),
            ..storage::Stored::default()
        };
        let (again, fx) = App::new(7, &stored, None);
        assert_eq!(again.outbox.rounds().len(), 1);
        assert!(
            matches!(&fx[..], [Effect::Request(Request::Submit { .. })]),
            "{fx:?}"
        );
        let (_, fx) = App::new(
            7,
            &storage::Stored {
                player: None,
                ..stored
            },
            None,
        );
        assert!(fx.is_empty(), "nothing is sent unlinked: {fx:?}");
    }

    #[test]
    fn a_linked_round_is_kept_in_the_outbox_and_sent() {
        let mut app = linked();
        let mut t = 0.0;
        let fx = zen_round(&mut app, &mut t);
        let key = app.outbox.rounds()[0].key();
        assert!(fx.contains(&Effect::Save {
            key: key.clone(),
            value: hex::encode(&app.outbox.rounds()[0].replay),
        }));
        let Some(Effect::Request(Request::Submit { token, body, keys })) = fx.last() else {
            panic!("{fx:?}")
        };
        assert_eq!((token.as_str(), keys.clone()), ("t0k3n", vec![key.clone()]));
        let (claim, replay) = typepper_api::read_entry(body).unwrap();
        assert_eq!(claim, app.outbox.rounds()[0].claim);
        assert_eq!(replay, &app.outbox.rounds()[0].replay[..]);

        // Another round while the first is out waits its turn.
        app.key(Key::Escape, at(t));
        let fx = zen_round(&mut app, &mut t);
        assert!(
            !fx.iter()
                .any(|e| matches!(e, Effect::Request(Request::Submit { .. })))
        );
        assert_eq!(app.outbox.rounds().len(), 2);

        let answer = "ok abcdEFGH 40 pb http://x/r/abcdEFGH\n".to_owned();
        let fx = app.submitted(std::slice::from_ref(&key), Ok(answer));
        assert!(fx.contains(&Effect::Remove(key)));
        assert_eq!(app.history[0].share.as_deref(), Some("http://x/r/abcdEFGH"));
        let Some(Effect::Request(Request::Submit { keys, .. })) = fx.last() else {
            panic!("{fx:?}")
        };
        assert_eq!(
            keys.len(),
            1,
            "after a successful submit, the outbox is flushed"
        );
    }

    #[test]
    fn offline_keeps_the_round_and_a_refusal_drops_it() {
        let mut app = linked();
        let mut t = 0.0;
        zen_round(&mut app, &mut t);
        let key = app.outbox.rounds()[0].key();
        let fx = app.submitted(
            std::slice::from_ref(&key),
            Err(Failure::Unreachable("no network".into())),
        );
        assert!(matches!(&fx[..], [Effect::Warn(_)]));
        assert_eq!(app.outbox.rounds().len(), 1, "kept for later");
        let Screen::Results(r) = &app.screen else {
            panic!()
        };
        assert!(r.note.as_deref().unwrap().starts_with("offline"));
        let fx = app.flush();
        assert!(
            matches!(&fx[..], [Effect::Request(Request::Submit { .. })]),
            "sent again on the next flush"
        );
        let fx = app.submitted(
            std::slice::from_ref(&key),
            Ok("no too short to count\n".into()),
        );
        assert!(fx.contains(&Effect::Remove(key)));
        assert!(app.outbox.rounds().is_empty());
    }

    #[test]
    fn linking_checks_the_name_then_asks_the_server() {
        let mut app = fresh();
        app.key(Key::Char('l'), at(0.0));
        for c in "ab".chars() {
            app.key(Key::Char(c), at(0.0));
        }
        assert!(app.key(Key::Enter, at(0.0)).is_empty());
        let Screen::Link { error, .. } = &app.screen else {
            panic!()
        };
        assert!(error.as_deref().unwrap().contains("3 to 20"));
        // The refusal goes with the next edit.
        app.key(Key::Char('a'), at(0.0));
        assert!(matches!(&app.screen, Screen::Link { error: None, .. }));
        assert_eq!(
            app.key(Key::Enter, at(0.0)),
            vec![Effect::Request(Request::Link("aba".into()))]
        );
        let fx = app.linked(Ok(Player {
            name: "aba".into(),
            token: "secret".into(),
        }));
        assert_eq!(
            fx,
            vec![Effect::Save {
                key: storage::PLAYER.into(),
                value: "aba secret".into()
            }]
        );
        assert!(matches!(app.screen, Screen::Menu));
        // Good news in the accent, not an error's red.
        let (_, tone) = app.notice.as_ref().unwrap();
        assert_eq!(*tone, Tone::Accent);
    }

    /// The attack of two installs: a key linked as `newbie` was linked again as `newbie2`,
    /// and the first install still said `newbie`. The game shows the server's name.
    #[test]
    fn a_key_linked_already_is_shown_as_the_player_the_server_names() {
        let mut app = fresh();
        app.key(Key::Char('l'), at(0.0));
        for c in "newbie2".chars() {
            app.key(Key::Char(c), at(0.0));
        }
        app.key(Key::Enter, at(0.0));
        let fx = app.linked(Ok(Player {
            name: "newbie".into(),
            token: String::new(),
        }));
        assert_eq!(
            fx,
            vec![Effect::Save {
                key: storage::PLAYER.into(),
                value: "newbie".into()
            }]
        );
        assert_eq!(app.player.as_ref().map(|p| p.name.as_str()), Some("newbie"));
        assert_eq!(
            app.notice(),
            Some("this key is newbie's already: your rounds are sent under that name")
        );
    }

    #[test]
    fn boards_fetch_cycle_and_play_a_row() {
        let mut app = fresh();
        assert_eq!(
            app.key(Key::Char('b'), at(0.0)),
            vec![Effect::Request(Request::Board(
                "time:15".into(),
                Period::Month
            ))]
        );
        assert_eq!(
            app.key(Key::Right, at(0.0)),
            vec![Effect::Request(Request::Board(
                "time:30".into(),
                Period::Month
            ))]
        );
        let row = board_row;
        app.board_loaded("time:15", Period::Month, Ok(vec![row(1, "stale")]));
        let Screen::Boards(b) = &app.screen else {
            panic!()
        };
        assert!(
            b.rows.is_none(),
            "a late answer for another board is dropped"
        );
        // `p` moves the period on, round the four; a mode keeps it, and the answer for
        // the period left is dropped.
        for period in [Period::All, Period::Day] {
            assert_eq!(
                app.key(Key::Char('p'), at(0.0)),
                vec![Effect::Request(Request::Board("time:30".into(), period))]
            );
        }
        assert_eq!(
            app.key(Key::Left, at(0.0)),
            vec![Effect::Request(Request::Board(
                "time:15".into(),
                Period::Day
            ))]
        );
        app.board_loaded("time:15", Period::Month, Ok(vec![row(1, "stale")]));
        assert!(matches!(&app.screen, Screen::Boards(b) if b.rows.is_none()));
        app.key(Key::Char('p'), at(0.0));
        app.key(Key::Char('p'), at(0.0));
        app.key(Key::Right, at(0.0));
        app.board_loaded(
            "time:30",
            Period::Month,
            Ok(vec![row(1, "aaaaaaaa"), row(2, "bbbbbbbb")]),
        );
        app.key(Key::Down, at(0.0));
        assert_eq!(
            app.key(Key::Enter, at(0.0)),
            vec![Effect::Request(Request::Run("bbbbbbbb".into()))]
        );
    }

    #[test]
    fn esc_from_a_watched_board_row_or_history_round_goes_back_to_the_list() {
        let mut app = fresh();
        let replay = typepper_engine::synth::synth(Mode::BLITZ_15, 4, &Default::default());
        let bytes = replay.encode();
        app.key(Key::Char('b'), at(0.0));
        let row = |rank: u32, run: &str, name: &str| BoardRow {
            rank,
            name: name.into(),
            score: 90,
            wpm: 90.0,
            accuracy: 97.5,
            run: run.into(),
            time: "2026-12-01T19:52:00Z".into(),
        };
        let rows = vec![row(1, "aaaaaaaa", "ada"), row(2, "bbbbbbbb", "grace")];
        app.board_loaded("time:15", Period::Month, Ok(rows.clone()));
        app.key(Key::Down, at(0.0));
        app.key(Key::Enter, at(0.0));
        app.run_loaded("bbbbbbbb", Ok(bytes.clone()), 0.0);
        let Screen::Play(s) = &app.screen else {
            panic!("watching")
        };
        assert_eq!(s.watch.as_ref().unwrap().who.as_deref(), Some("grace"));
        app.key(Key::Escape, at(100.0));
        let Screen::Boards(b) = &app.screen else {
            panic!("back on the board, not {:?}", app.screen)
        };
        assert_eq!(
            (b.row, b.rows.clone()),
            (1, Some(Ok(rows))),
            "as it was left"
        );

        // From the results of a watched row too.
        app.key(Key::Enter, at(0.0));
        app.run_loaded("bbbbbbbb", Ok(bytes), 0.0);
        let mut t = 0.0;
        while matches!(app.screen, Screen::Play(_)) {
            app.tick(at(t));
            t += 100.0;
        }
        assert!(matches!(app.screen, Screen::Results(_)));
        app.key(Key::Escape, at(t));
        assert!(matches!(app.screen, Screen::Boards(_)));

        // The history, its row still picked; a round of your own goes to the menu.
        app.key(Key::Escape, at(t));
        app.key(Key::Char('1'), at(t));
        let mut t = t + 100.0;
        type_word(&mut app, &mut t);
        app.tick(at(t + 20_000.0));
        assert!(matches!(app.screen, Screen::Results(_)));
        app.key(Key::Escape, at(t + 20_000.0));
        assert!(matches!(app.screen, Screen::Menu), "yours: the menu");
        app.key(Key::Char('h'), at(t));
        app.key(Key::Enter, at(t));
        assert!(matches!(app.screen, Screen::Play(_)));
        app.key(Key::Escape, at(t));
        assert!(matches!(app.screen, Screen::History));
        app.key(Key::Escape, at(t));
        assert!(matches!(app.screen, Screen::Menu));
    }

    #[test]
    fn a_space_or_backspace_as_the_first_key_does_not_start_the_clock() {
        let mut app = fresh();
        app.key(Key::Char('1'), at(0.0));
        for key in [Key::Char(' '), Key::Backspace, Key::Char(' ')] {
            app.key(key, at(500.0));
        }
        let Screen::Play(s) = &app.screen else {
            panic!()
        };
        assert_eq!(s.round.started(), None, "the clock waits for a letter");
        let mut t = 3_000.0;
        type_word(&mut app, &mut t);
        let Screen::Play(s) = &app.screen else {
            panic!()
        };
        assert!(s.round.started().is_some());
        assert_eq!(
            s.round.replay().inputs[0].op,
            Op::Char(
                s.round
                    .view(0)
                    .word(0)
                    .unwrap()
                    .target()
                    .chars()
                    .next()
                    .unwrap()
            )
        );
    }

    fn issued(mode: &str, seed: u64, expires: &str) -> Result<IssuedSeed, Failure> {
        Ok(IssuedSeed {
            mode: mode.into(),
            seed,
            expires: expires.into(),
            daily: None,
            unranked: None,
        })
    }

    fn asked(fx: &[Effect]) -> Vec<String> {
        fx.iter()
            .filter_map(|e| match e {
                Effect::Request(Request::Seed { mode, .. }) => Some(mode.clone()),
                _ => None,
            })
            .collect()
    }

    /// `at(0)`'s unix time is 2025-12-01T14:40:00Z: an hour later, as the server writes it.
    const AN_HOUR_ON: &str = "2025-12-01T15:40:00Z";

    #[test]
    fn a_linked_game_keeps_a_seed_for_each_mode_and_plays_on_it() {
        assert!(
            asked(&fresh().tick(at(0.0))).is_empty(),
            "not linked: no seeds"
        );
        let mut app = linked();
        let fx = app.tick(at(0.0));
        assert_eq!(
            asked(&fx),
            [
                "time:15",
                "time:30",
                "time:60",
                "time:120",
                "words:25",
                "zen",
                "pursuit:7"
            ]
        );
        assert!(asked(&app.tick(at(16.0))).is_empty(), "asked once");
        assert!(
            app.seed_issued("time:15", issued("time:15", 99, AN_HOUR_ON), 0)
                .is_empty()
        );
        app.key(Key::Char('1'), at(20.0));
        let Screen::Play(s) = &app.screen else {
            panic!("not playing")
        };
        assert_eq!(s.round.seed(), 99, "the issued seed");
        assert!(!app.seeds.has("time:15"), "used up when its text is shown");
        assert_eq!(asked(&app.tick(at(40.0))), ["time:15"], "its replacement");
        // Tab restarts on a seed of the game's own while the new one is out.
        app.key(Key::Tab, at(50.0));
        let Screen::Play(s) = &app.screen else {
            panic!("not playing")
        };
        assert_ne!(s.round.seed(), 99);
    }

    /// A quote's seed is asked for by its length; the server answers the passage it
    /// picked, and `'` plays that passage on that seed. An answer for a passage of
    /// another language, or for no quote at all, is no seed for it.
    #[test]
    fn a_quote_is_played_on_the_passage_and_seed_the_server_picked() {
        let mut app = linked();
        // Not asked for while QUOTE isn't picked: each quote seed shows a passage for good.
        assert!(!asked(&app.tick(at(0.0))).contains(&"quote:short".to_owned()));
        let fx: Vec<Effect> = (0..4).flat_map(|_| app.key(Key::Down, at(1.0))).collect();
        let fx = [fx, app.tick(at(2.0))].concat();
        assert_eq!(asked(&fx), ["quote:short"]);
        let fx = app.seed_issued("quote:short", issued("quote:7@de", 5, AN_HOUR_ON), 0);
        assert!(matches!(&fx[..], [Effect::Warn(_)]), "{fx:?}");
        let fx = app.seed_issued("quote:short", issued("time:15", 5, AN_HOUR_ON), 0);
        assert!(matches!(&fx[..], [Effect::Warn(_)]), "{fx:?}");
        assert!(
            app.seed_issued("quote:short", issued("quote:7", 99, AN_HOUR_ON), 0)
                .is_empty()
        );
        let crate::model::Body::Menu(menu) = app.model(0.0, &crate::zone::Fixed(0)).body else {
            panic!()
        };
        assert!(menu.items[4].ranked, "QUOTE's next round counts");
        app.key(Key::Char('\''), at(20.0));
        let Screen::Play(s) = &app.screen else {
            panic!("not playing")
        };
        assert_eq!(
            (s.round.mode().key(), s.round.seed()),
            ("quote:7".into(), 99)
        );
        assert!(!app.seeds.has("quote:short"), "used up");
        // A language with quotes asks for its own, while QUOTE is picked.
        app.key(Key::Escape, at(30.0));
        app.menu_item = 4;
        let fx: Vec<Effect> = (0..3)
            .flat_map(|_| app.key(Key::Char('@'), at(40.0)))
            .collect();
        assert!(asked(&fx).contains(&"quote:short@de".to_owned()), "{fx:?}");
    }

    #[test]
    fn seeds_near_their_end_are_let_go_and_failures_wait() {
        let mut app = linked();
        app.tick(at(0.0));
        // Nine minutes left: the round might arrive after it.
        app.seed_issued("zen", issued("zen", 5, "2025-12-01T14:49:00Z"), 0);
        assert!(app.seeds.has("zen"));
        assert_eq!(asked(&app.tick(at(16.0))), ["zen"]);
        assert!(!app.seeds.has("zen"));
        // A refusal, or a seed that doesn't read: a warning, and a pause before asking.
        let fx = app.seed_issued(
            "zen",
            Err(Failure::Refused("the server answered 500".into())),
            1_764_600_000_016,
        );
        assert!(
            matches!(&fx[..], [Effect::Warn(w)] if w.contains("unranked")),
            "{fx:?}"
        );
        let fx = app.seed_issued("time:15", issued("time:15", 1, "soon"), 1_764_600_000_016);
        assert_eq!(fx.len(), 1);
        assert!(asked(&app.tick(at(1_000.0))).is_empty(), "waiting");
        assert_eq!(asked(&app.tick(at(31_000.0))), ["time:15", "zen"]);
        // Back online, at once.
        app.seed_issued(
            "zen",
            Err(Failure::Unreachable("down".into())),
            1_764_600_040_000,
        );
        app.online();
        assert_eq!(asked(&app.tick(at(40_001.0))), ["zen"]);
    }

    #[test]
    fn the_results_say_whether_the_round_is_ranked_and_why() {
        let mut app = linked();
        let mut t = 0.0;
        zen_round(&mut app, &mut t);
        let key = app.outbox.rounds()[0].key();
        let answer = "ok abcdEFGH 40 - http://x/r/abcdEFGH unranked a ranked ZEN round lasts at least 30 s\n";
        app.submitted(std::slice::from_ref(&key), Ok(answer.into()));
        let Screen::Results(r) = &app.screen else {
            panic!()
        };
        assert_eq!(
            r.note.as_deref(),
            Some("unranked: a ranked ZEN round lasts at least 30 s")
        );
        app.key(Key::Escape, at(t));
        zen_round(&mut app, &mut t);
        let key = app.outbox.rounds()[0].key();
        let answer = "ok abcdEFGI 40 pb http://x/r/abcdEFGI ranked\n";
        app.submitted(std::slice::from_ref(&key), Ok(answer.into()));
        let Screen::Results(r) = &app.screen else {
            panic!()
        };
        assert_eq!(r.note.as_deref(), Some("ranked · your ranked best!"));
        // Far above the player's record: it says it waits, and why.
        app.key(Key::Escape, at(t));
        zen_round(&mut app, &mut t);
        let key = app.outbox.rounds()[0].key();
        let answer = "ok abcdEFGJ 40 - http://x/r/abcdEFGJ pending 240 wpm is over 30% above \
                      your ranked best (140 wpm) and waits off the boards\n";
        app.submitted(std::slice::from_ref(&key), Ok(answer.into()));
        let Screen::Results(r) = &app.screen else {
            panic!()
        };
        assert_eq!(
            r.note.as_deref(),
            Some(
                "pending: 240 wpm is over 30% above your ranked best (140 wpm) and waits off the boards"
            )
        );
    }

    /// The attack of a fast finish: keys typed through the end of a round opened history
    /// (`h`), watched the round (`r`) and raced it (`g`), one after another.
    #[test]
    fn letters_typed_through_the_end_of_a_round_stay_on_the_results() {
        let mut app = linked();
        let mut t = 0.0;
        zen_round(&mut app, &mut t);
        assert!(matches!(app.screen, Screen::Results(_)));
        for c in "hrg the rest of a word".chars() {
            t += 30.0;
            app.key(Key::Char(c), at(t));
            assert!(matches!(app.screen, Screen::Results(_)), "{c:?} at {t}");
        }
        // A moment later, they are commands again.
        app.key(Key::Char('h'), at(t + RESULTS_HOLD_MS));
        assert!(matches!(app.screen, Screen::History));
        // Tab plays again at once.
        app.key(Key::Escape, at(t));
        zen_round(&mut app, &mut t);
        app.key(Key::Tab, at(t));
        assert!(matches!(app.screen, Screen::Play(_)));
    }

    #[test]
    fn an_outbox_of_more_than_a_body_goes_in_several() {
        let mut app = linked();
        let round = typepper_engine::synth::synth(Mode::ZEN, 1, &Default::default());
        for i in 0..120 {
            app.outbox.keep(Outgoing {
                unix_ms: i,
                replay: round.encode(),
                claim: 1,
            });
        }
        let mut bodies = vec![];
        let mut fx = app.flush();
        while let Some(Effect::Request(Request::Submit { keys, .. })) = fx.pop() {
            bodies.push(keys.len());
            let answer = "no refused\n".repeat(keys.len());
            fx = app.submitted(&keys, Ok(answer));
        }
        assert_eq!(bodies, [50, 50, 20]);
        assert!(app.outbox.rounds().is_empty());
    }
}
