//! What the settings screen shows.

use crate::model::Tone;

/// Every setting with its value, the picked one's line saying what it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsList {
    /// `settings`.
    pub title: &'static str,
    /// Each setting's name and value: `theme`, `nord`.
    pub rows: Vec<(&'static str, String)>,
    /// The picked row.
    pub selected: usize,
    /// What the picked setting does.
    pub about: &'static str,
}

impl SettingsList {
    /// Row `i`'s colour: the accent where it is the picked one.
    pub fn tone(&self, i: usize) -> Tone {
        Tone::picked(i == self.selected)
    }
}
