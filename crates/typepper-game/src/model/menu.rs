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
    /// Today's daily, once the server said it: `daily #6 · BLITZ 30s · 214 played · j
    /// plays it`, or the player's place on it.
    pub daily: Option<String>,
}

impl Menu {
    /// Item `i`'s colour: the accent where it is picked; a setting, dimmer than a mode.
    pub fn tone(&self, i: usize) -> Tone {
        match self.items.get(i) {
            Some(item) if item.setting && i != self.selected => Tone::Dim,
            _ => Tone::picked(i == self.selected),
        }
    }
}

/// A line of the menu: a mode to play, or a setting of the text's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MenuItem {
    /// `BLITZ`, `WORDS`, `ZEN`, `HOT PURSUIT`, `DRILL qzx`; `language`, `punctuation`.
    pub label: String,
    /// What ← → change: `30s`, `25`, `lv7`, `français`, `on`.
    pub value: Option<String>,
    /// The mode as titled, with its text (`BLITZ 30s · français`), or the setting and its
    /// value (`language: français`): what is read out.
    pub title: String,
    /// The next round of this mode is on a seed the server issued: it counts.
    pub ranked: bool,
    /// A setting of the text's, not a mode: drawn apart, below the modes.
    pub setting: bool,
}

impl MenuItem {
    /// A setting's line: `label` and its value.
    pub fn setting(label: &str, value: String) -> MenuItem {
        MenuItem {
            label: label.into(),
            title: format!("{label}: {value}"),
            value: Some(value),
            ranked: false,
            setting: true,
        }
    }

    /// The line as read out: [`MenuItem::title`].
    pub fn title(&self) -> String {
        self.title.clone()
    }

    /// As drawn on the menu, the value with the arrows that change it:
    /// `HOT PURSUIT  ‹ lv7 ›`.
    pub fn text(&self) -> String {
        match &self.value {
            Some(value) => format!("{}  ‹ {value} ›", self.label),
            None => self.label.clone(),
        }
    }

    /// `RANKED` beside a mode whose next round counts.
    pub fn badge(&self) -> Option<&'static str> {
        self.ranked.then_some("RANKED")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_dimmer_than_modes_until_picked() {
        let mode = MenuItem {
            label: "ZEN".into(),
            value: None,
            title: "ZEN".into(),
            ranked: false,
            setting: false,
        };
        let setting = MenuItem::setting("numbers", "off".into());
        let mut menu = Menu {
            tagline: "",
            items: vec![mode.clone(), mode, setting],
            selected: 0,
            last_round: None,
            player: String::new(),
            race: None,
            daily: None,
        };
        let tones = |m: &Menu| (0..3).map(|i| m.tone(i)).collect::<Vec<_>>();
        assert_eq!(tones(&menu), [Tone::Accent, Tone::Text, Tone::Dim]);
        menu.selected = 2;
        assert_eq!(tones(&menu), [Tone::Text, Tone::Text, Tone::Accent]);
    }
}
