//! What the menu shows: the modes, and who plays.

use crate::model::Tone;

/// The menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Menu {
    /// `every round is a replay`, under the name.
    pub tagline: &'static str,
    /// The modes, in order.
    pub items: Vec<MenuItem>,
    /// The picked item.
    pub selected: usize,
    /// `last round: 92 wpm · BLITZ 15s`.
    pub last_round: Option<String>,
    /// `linked as ada`, or how to link.
    pub player: String,
    /// `g races your best here: 92 wpm`, when the history has a round of the picked mode.
    pub race: Option<String>,
}

impl Menu {
    /// Item `i`'s colour: the accent where it is picked.
    pub fn tone(&self, i: usize) -> Tone {
        Tone::picked(i == self.selected)
    }
}

/// A mode on the menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MenuItem {
    /// `BLITZ 15s`, `HOT PURSUIT`, `DRILL qzx`.
    pub label: String,
    /// HOT PURSUIT's start level, which ← → change.
    pub level: Option<u8>,
    /// The next round of this mode is on a seed the server issued: it counts.
    pub ranked: bool,
}

impl MenuItem {
    /// `HOT PURSUIT from lv7`, as the mode is titled (and read out).
    pub fn title(&self) -> String {
        match self.level {
            Some(level) => format!("{} from lv{level}", self.label),
            None => self.label.clone(),
        }
    }

    /// As drawn on the menu, the level with the arrows that change it:
    /// `HOT PURSUIT  ‹ lv7 ›`.
    pub fn text(&self) -> String {
        match self.level {
            Some(level) => format!("{}  ‹ lv{level} ›", self.label),
            None => self.label.clone(),
        }
    }

    /// `RANKED` beside a mode whose next round counts.
    pub fn badge(&self) -> Option<&'static str> {
        self.ranked.then_some("RANKED")
    }
}
