//! The menu: the modes to play (the boards' modes, HOT PURSUIT at its level, the last
//! drill), and a letter for every other screen.

use typepper_engine::{Drill, Mode};

use crate::app::play::MENU_LETTER_HOLD_MS;
use crate::app::{App, BEST_HERE, Effect, Key, Now, Screen};
use crate::model::Menu;
use crate::model::MenuItem;
use crate::model::{Body, Kind, Model, Tap, Tone, headline, tap};
use crate::storage;

/// How many boards there are: one a rankable mode.
pub(crate) const BOARDS: usize = 5;

/// What the menu says of a player who has not linked.
pub(crate) const NOT_LINKED: &str = "not linked: l to link, to share and rank your rounds";

impl App {
    /// How many items the menu has: the boards' modes (HOT PURSUIT at the menu's
    /// level), then the last drill once there is one.
    pub(crate) fn menu_len(&self) -> usize {
        BOARDS + usize::from(self.drill.is_some())
    }

    /// The menu's `index`th item, from the top.
    pub(crate) fn menu_at(&self, index: usize) -> Option<Mode> {
        match self.board_modes().get(index) {
            Some(&mode) => Some(mode),
            None => self.drill.filter(|_| index == BOARDS).map(Mode::Drill),
        }
    }

    /// The mode the menu has selected.
    pub(crate) fn menu_mode(&self) -> Mode {
        self.menu_at(self.menu_item).unwrap_or(Mode::BLITZ_15)
    }

    /// A click or a tap on the `‹` (`up` false) or `›` beside the `index`th menu item's
    /// level: the item is selected and its level moves, as ← or → would move it. An item
    /// without a level does nothing.
    pub fn pick_level(&mut self, index: usize, up: bool, now: Now) -> Vec<Effect> {
        if !matches!(self.screen, Screen::Menu)
            || !matches!(self.menu_at(index), Some(Mode::Pursuit(_)))
        {
            return vec![];
        }
        self.menu_item = index;
        self.key(if up { Key::Right } else { Key::Left }, now)
    }

    pub(crate) fn menu_key(&mut self, key: Key, now: Now) -> Vec<Effect> {
        // A notice is the menu's: it stays while the menu does, unless a key says
        // something new, and the screen a key opens starts without it.
        let said = self.notice.take();
        let fx = self.menu_command(key, now);
        if matches!(self.screen, Screen::Menu) && self.notice.is_none() {
            self.notice = said;
        }
        fx
    }

    pub(crate) fn menu_command(&mut self, key: Key, now: Now) -> Vec<Effect> {
        let items = self.menu_len();
        let pursuit = matches!(self.menu_mode(), Mode::Pursuit(_));
        let levels = typepper_engine::PURSUIT_LEVELS;
        match key {
            Key::Up => self.menu_item = (self.menu_item + items - 1) % items,
            Key::Down => self.menu_item = (self.menu_item + 1) % items,
            Key::Left if pursuit => self.level = self.level.saturating_sub(1).max(*levels.start()),
            Key::Right if pursuit => self.level = (self.level + 1).min(*levels.end()),
            Key::Enter | Key::Tab | Key::Char(' ') => self.play(self.menu_mode(), None),
            Key::Char('1') => self.play(Mode::BLITZ_15, None),
            Key::Char('2') => self.play(Mode::BLITZ_30, None),
            Key::Char('3') => self.play(Mode::BLITZ_60, None),
            Key::Char('z') => self.play(Mode::Zen, None),
            Key::Char('p') => self.play(self.pursuit(), None),
            Key::Char('h') => self.open_history(),
            Key::Char('l') => match self.unlinkable {
                Some(why) => self.notice = Some((why.into(), Tone::Dim)),
                None => self.ask_to_link(),
            },
            Key::Char('b') => {
                // The board of the selected mode: the menu's first items are the boards'
                // modes in their order. A drill has none, so the first.
                let board = Some(self.menu_item).filter(|&i| i < BOARDS);
                return self.open_boards(board.unwrap_or(0));
            }
            Key::Char('k') => self.open_keys(),
            Key::Char('f') => return self.open_room(),
            Key::Char('s') => {
                self.live_stats = !self.live_stats;
                let (value, said) = if self.live_stats {
                    (
                        "on",
                        "live stats on: your speed shows as you type · s hides it",
                    )
                } else {
                    (
                        "off",
                        "live stats off: your speed shows at the end · s shows it",
                    )
                };
                // Said, or a player who typed a word starting with s never learns why
                // their speed went.
                self.notice = Some((said.into(), Tone::Dim));
                return vec![Effect::Save {
                    key: storage::LIVE.into(),
                    value: value.into(),
                }];
            }
            Key::Char('d') => match self.drill {
                Some(drill) => return self.play_drill(drill),
                None => {
                    let how = "no drill yet: k shows your keys, and d there drills the worst";
                    self.notice = Some((how.into(), Tone::Dim));
                }
            },
            Key::Char('g') => {
                let mode = self.menu_mode();
                match self.best(mode) {
                    Some(best) => {
                        let replay = best.replay.clone();
                        if let Err(why) = self.race(replay, BEST_HERE.into()) {
                            self.notice = Some((why, Tone::Wrong));
                        }
                    }
                    None => {
                        let how = format!(
                            "no {} round in your history yet: play one, then race it",
                            mode.title()
                        );
                        self.notice = Some((how, Tone::Dim));
                    }
                }
            }
            // A letter no command takes starts the picked mode, and is nothing more: the
            // words were not on screen, so it would be scored against a text the player
            // had not seen. (ASCII: Unicode's letter tables would cost the wasm more than
            // a word starting with é is worth.)
            Key::Char(c) if c.is_ascii_alphabetic() => {
                self.play(self.menu_mode(), None);
                if let Screen::Play(session) = &mut self.screen {
                    session.hold = Some(now.mono + MENU_LETTER_HOLD_MS);
                }
            }
            _ => {}
        }
        vec![]
    }

    /// Starts a drill of `letters` and remembers it for the menu.
    pub(crate) fn play_drill(&mut self, drill: Drill) -> Vec<Effect> {
        self.drill = Some(drill);
        self.play(Mode::Drill(drill), None);
        vec![Effect::Save {
            key: storage::DRILL.into(),
            value: drill.letters().to_owned(),
        }]
    }

    pub(crate) fn pursuit(&self) -> Mode {
        Mode::pursuit(self.level).unwrap_or(Mode::Zen)
    }

    /// The modes the boards screen cycles through (HOT PURSUIT at the menu's level).
    pub(crate) fn board_modes(&self) -> [Mode; BOARDS] {
        [
            Mode::BLITZ_15,
            Mode::BLITZ_30,
            Mode::BLITZ_60,
            Mode::Zen,
            self.pursuit(),
        ]
    }

    /// Whether a round of `mode` started now would be on a seed the server issued, and
    /// so count for the boards.
    pub(crate) fn ranked_ready(&self, mode: Mode) -> bool {
        let key = mode.key();
        self.seeds.has(&key)
    }

    pub(crate) fn menu(&self) -> Menu {
        let items = (0..self.menu_len())
            .filter_map(|i| self.menu_at(i))
            .map(|mode| match mode {
                // Its level is the item's own, set with ← and →.
                Mode::Pursuit(_) => MenuItem {
                    label: "HOT PURSUIT".into(),
                    level: Some(self.level),
                    ranked: self.ranked_ready(mode),
                },
                _ => MenuItem {
                    label: mode.title(),
                    level: None,
                    ranked: self.ranked_ready(mode),
                },
            })
            .collect();
        Menu {
            tagline: "every round is a replay",
            items,
            selected: self.menu_item,
            last_round: self
                .history
                .last()
                .map(|e| format!("last round: {}", headline(&e.score))),
            player: match (&self.player, self.unlinkable) {
                (Some(p), _) => format!("linked as {}", p.name),
                (None, Some(why)) => why.into(),
                (None, None) => NOT_LINKED.into(),
            },
            race: self
                .best(self.menu_mode())
                .map(|b| format!("g races {BEST_HERE}: {}", b.score.headline())),
        }
    }

    pub(crate) fn menu_screen(&self, notice: Option<(String, Tone)>) -> Model {
        Model {
            kind: Kind::Menu,
            banner: None,
            notice,
            // `d` plays the last drill: offered only once there is one. `l` only to
            // a player who can link.
            hints: match (self.drill.is_some(), self.unlinkable.is_none()) {
                (true, true) => {
                    "↑↓ pick · ←→ level · enter play · 1 2 3 z p d quick start · g race your best here · f race friends · k your keys · h history · b boards · l link · s live stats"
                }
                (false, true) => {
                    "↑↓ pick · ←→ level · enter play · 1 2 3 z p quick start · g race your best here · f race friends · k your keys · h history · b boards · l link · s live stats"
                }
                (true, false) => {
                    "↑↓ pick · ←→ level · enter play · 1 2 3 z p d quick start · g race your best here · f race friends · k your keys · h history · b boards · s live stats"
                }
                (false, false) => {
                    "↑↓ pick · ←→ level · enter play · 1 2 3 z p quick start · g race your best here · f race friends · k your keys · h history · b boards · s live stats"
                }
            },
            // The screens a letter opens, for a finger (a phone's keyboard is hidden
            // on the menu) and a pointer.
            taps: {
                const ROOMS: Tap = tap("rooms", Key::Char('f'));
                const HISTORY: Tap = tap("history", Key::Char('h'));
                const BOARDS: Tap = tap("boards", Key::Char('b'));
                const KEYS: Tap = tap("your keys", Key::Char('k'));
                const LINK_IT: Tap = tap("link", Key::Char('l'));
                if self.unlinkable.is_some() {
                    &[ROOMS, HISTORY, BOARDS, KEYS]
                } else {
                    &[ROOMS, HISTORY, BOARDS, KEYS, LINK_IT]
                }
            },
            body: Body::Menu(self.menu()),
        }
    }
}
