//! What the history shows: your last rounds, newest first.

use crate::model::Tone;

/// Your last rounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    /// `history`.
    pub title: &'static str,
    /// Newest first.
    pub rows: Vec<HistoryRow>,
    /// The picked row.
    pub selected: usize,
    /// `your last 3 rounds, on this device`.
    pub caption: String,
    /// What to say when there are no rows.
    pub empty: Option<&'static str>,
}

impl History {
    /// The colour of row `i`'s score: the accent where the row is picked.
    pub fn tone(&self, i: usize) -> Tone {
        Tone::picked(i == self.selected)
    }
}

/// A round of the history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryRow {
    /// When it ended, in local time: `2026-12-01 19:52`.
    pub date: String,
    /// `BLITZ 15s`.
    pub title: String,
    /// `92 wpm`.
    pub headline: String,
    /// `98.5%`.
    pub accuracy: String,
    /// Its share link, once it has one.
    pub share: Option<String>,
}

impl HistoryRow {
    /// `shared` for a round with a link, else nothing.
    pub fn shared(&self) -> &'static str {
        if self.share.is_some() { "shared" } else { "" }
    }
}
