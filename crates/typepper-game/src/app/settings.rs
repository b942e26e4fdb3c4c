//! The settings screen: `o` (or `,`) on the menu. Each change shows at once and is kept
//! whole ([`App::keep_settings`]), and, for a linked player, on the server too: a game that
//! links (a second device, an `ssh` session) takes the settings kept there, or, where
//! none are, sends its own.

use crate::app::{App, Effect, Key, Screen};
use crate::model::{BACK, Body, Kind, Model, SettingsList, Tap, Tone, tap};
use crate::request::{Failure, Request};
use crate::settings::{Row, Settings};
use crate::storage;

const NEXT: Tap = tap("change", Key::Enter);

/// Where the linked player's settings on the server stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sync {
    /// Not asked for since the game linked.
    Unasked,
    /// Asked for; `changed` once a setting changed here before the answer came (then
    /// this game's go to the server, not the server's here).
    Asked {
        /// A setting changed here since.
        changed: bool,
    },
    /// Asked and answered (or failed): each change here goes to the server.
    Done,
}

/// How many rows the screen has.
pub(crate) const ROWS: usize = Row::ALL.len();

/// What a key of your round judged `judged` asks of the shell: a click where sound is
/// on, a bell for a wrong one where the bell is.
pub(crate) fn keystroke(s: &Settings, judged: Option<bool>) -> Option<Effect> {
    let wrong = judged == Some(false);
    (s.sound > 0 || (s.bell && wrong)).then_some(Effect::Keystroke { wrong })
}

impl App {
    /// The player's settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub(crate) fn open_settings(&mut self) {
        self.screen = Screen::Settings(0);
        self.notice = None;
    }

    pub(crate) fn settings_key(&mut self, key: Key) -> Vec<Effect> {
        let Screen::Settings(row) = &mut self.screen else {
            return vec![];
        };
        let back = match key {
            Key::Up => {
                *row = (*row + ROWS - 1) % ROWS;
                return vec![];
            }
            Key::Down => {
                *row = (*row + 1) % ROWS;
                return vec![];
            }
            Key::Escape | Key::Char('o' | ',') => {
                self.screen = Screen::Menu;
                return vec![];
            }
            Key::Left => true,
            Key::Right | Key::Enter | Key::Tab | Key::Char(' ') => false,
            _ => return vec![],
        };
        self.settings.step(Row::ALL[*row], back);
        self.settings_changed()
    }

    /// What keeps the settings here: the whole file.
    pub(crate) fn keep_settings(&self) -> Effect {
        Effect::Save {
            key: storage::SETTINGS.into(),
            value: self.settings.write(),
        }
    }

    /// What keeps the settings with the player `token` is: the whole file, sent.
    fn send_settings(&self, token: &str) -> Effect {
        Effect::Request(Request::SaveSettings {
            token: token.to_owned(),
            text: self.settings.write(),
        })
    }

    /// A setting changed here: kept, and sent for a linked player.
    pub(crate) fn settings_changed(&mut self) -> Vec<Effect> {
        let mut fx = vec![self.keep_settings()];
        match (&mut self.settings_sync, &self.player) {
            (Sync::Asked { changed }, _) => *changed = true,
            (Sync::Done, Some(player)) => fx.push(self.send_settings(&player.token)),
            _ => {}
        }
        fx
    }

    /// Asks a linked game's player's settings once after it links (or starts linked).
    pub(crate) fn want_settings(&mut self) -> Vec<Effect> {
        let Some(player) = &self.player else {
            self.settings_sync = Sync::Unasked;
            return vec![];
        };
        if self.settings_sync != Sync::Unasked {
            return vec![];
        }
        self.settings_sync = Sync::Asked { changed: false };
        vec![Effect::Request(Request::Settings(player.token.clone()))]
    }

    /// The settings kept on the server: taken here, unless there are none or a setting
    /// changed here meanwhile, when this game's go there instead.
    pub(crate) fn settings_loaded(&mut self, kept: Result<String, Failure>) -> Vec<Effect> {
        let changed = matches!(self.settings_sync, Sync::Asked { changed: true });
        self.settings_sync = Sync::Done;
        let Ok(kept) = kept else {
            return vec![];
        };
        let Some(player) = &self.player else {
            return vec![];
        };
        if kept.trim().is_empty() || changed {
            return vec![self.send_settings(&player.token)];
        }
        let theirs = Settings::read(&kept, None);
        // The same as here (a device's own, come back; an `ssh` game's, read at its
        // start): nothing to take, nor to keep again.
        if theirs == self.settings {
            return vec![];
        }
        self.settings = theirs;
        vec![self.keep_settings()]
    }

    pub(crate) fn settings_screen(&self, selected: usize, notice: Option<(String, Tone)>) -> Model {
        let rows = Row::ALL
            .iter()
            .map(|&row| (row.label(), self.settings.value(row)))
            .collect();
        Model {
            kind: Kind::Settings,
            banner: None,
            notice,
            hints: "↑↓ pick · ←→ or enter change · esc back",
            taps: &[NEXT, BACK],
            body: Body::Settings(SettingsList {
                title: "settings",
                rows,
                selected,
                about: Row::ALL[selected].about(),
            }),
        }
    }
}
