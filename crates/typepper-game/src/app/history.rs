//! The history: your last rounds on this device (or on the server, over `ssh`), newest
//! first, each to watch or race.

use typepper_engine::{Decimal, Mode};

use crate::app::{App, BEST_HERE, Key, Screen};
use crate::model::History;
use crate::model::HistoryRow;
use crate::model::{BACK, Body, Kind, Model, Tone};
use crate::storage::Entry;
use crate::zone::{Zone, local_time};

impl App {
    pub(crate) fn open_history(&mut self) {
        self.history_row = 0;
        self.screen = Screen::History;
    }

    pub(crate) fn history_key(&mut self, key: Key, now: f64) {
        let rows = self.history.len();
        match key {
            Key::Up => self.history_row = self.history_row.saturating_sub(1),
            Key::Down if rows > 0 => self.history_row = (self.history_row + 1).min(rows - 1),
            Key::Enter | Key::Char('g') => {
                if let Some(entry) = self.history.iter().rev().nth(self.history_row) {
                    let (replay, who) = (entry.replay.clone(), self.yours(entry));
                    self.list = Some(Screen::History);
                    let opened = if key == Key::Enter {
                        self.watch(replay, Some(who), now)
                    } else {
                        self.race(replay, who)
                    };
                    if let Err(why) = opened {
                        self.notice = Some((why, Tone::Wrong));
                        self.screen = Screen::Menu;
                        self.list = None;
                    }
                }
            }
            Key::Escape | Key::Char('h') => self.screen = Screen::Menu,
            _ => {}
        }
    }

    /// Your best round of `mode` in the history, [`BEST_HERE`]: the highest headline, the
    /// later of two equal ones.
    pub(crate) fn best(&self, mode: Mode) -> Option<&Entry> {
        self.history
            .iter()
            .filter(|e| e.score.mode == mode)
            .max_by_key(|e| (e.score.headline().value, e.score.wpm_x100))
    }

    /// What a round of yours is called as a ghost: `your best here`, `your 92 wpm round`.
    pub(crate) fn yours(&self, entry: &Entry) -> String {
        let best = self.best(entry.score.mode);
        if best.is_some_and(|b| b.unix_ms == entry.unix_ms) {
            BEST_HERE.into()
        } else {
            format!("your {} round", entry.score.headline())
        }
    }

    pub(crate) fn history_model(&self, zone: &dyn Zone) -> History {
        let rows = self
            .history
            .iter()
            .rev()
            .map(|e| HistoryRow {
                date: local_time(e.unix_ms, zone),
                // A room's race says so: its round was raced, not played alone.
                title: if e.room {
                    e.score.mode.title() + " · room"
                } else {
                    e.score.mode.title()
                },
                headline: e.score.headline().to_string(),
                accuracy: format!("{}%", Decimal(e.score.accuracy_x100.into())),
                share: e.share.clone(),
            })
            .collect();
        History {
            title: "history",
            rows,
            selected: self.history_row,
            caption: self.rounds_kept("", self.history.len()),
            empty: self
                .history
                .is_empty()
                .then_some("no rounds yet: esc, then play one"),
        }
    }

    pub(crate) fn history_screen(&self, zone: &dyn Zone, notice: Option<(String, Tone)>) -> Model {
        Model {
            kind: Kind::History,
            banner: None,
            notice,
            hints: "↑↓ pick · enter watch · g race · esc menu",
            taps: &[BACK],
            body: Body::History(self.history_model(zone)),
        }
    }
}
