//! The settings screen: `o` (or `,`) on the menu. Each change shows at once and is kept
//! whole ([`Settings::save`]).

use crate::app::{App, Effect, Key, Screen};
use crate::model::{BACK, Body, Kind, Model, SettingsList, Tap, Tone, tap};
use crate::settings::{Row, Settings};

const NEXT: Tap = tap("change", Key::Enter);

/// How many rows the screen has.
pub(crate) const ROWS: usize = Row::ALL.len();

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
        let rows = Row::ALL.len();
        let back = match key {
            Key::Up => {
                *row = (*row + rows - 1) % rows;
                return vec![];
            }
            Key::Down => {
                *row = (*row + 1) % rows;
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
        vec![self.settings.save()]
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
