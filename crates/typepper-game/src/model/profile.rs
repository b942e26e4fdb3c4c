//! What a profile shows: a player's bests, rounds and time, their chart over every round
//! the server has of them, their latest runs, and what those say about their keys.

use crate::chart::Chart;
use crate::model::Tone;

/// A player's profile.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// `ada`, or `your profile · ada`.
    pub title: String,
    /// `since 2026-11-02 · 312 rounds · 4 h 12 min`.
    pub status: String,
    /// `this month: 28 rounds · 20 min`.
    pub month: String,
    /// wpm and accuracy over their rounds, once there are some.
    pub chart: Option<Chart>,
    /// Their bests, then their latest runs: each one to watch or race.
    pub rows: Vec<ProfileLine>,
    /// The picked row.
    pub selected: usize,
    /// The keys analysis, a line a list: `most missed keys: q 12.5%, x 9.0%`.
    pub keys: Vec<String>,
    /// In place of it all: `loading…`, or why it didn't come.
    pub say: Option<(String, Tone)>,
}

impl Profile {
    /// The colour of row `i`'s score: the accent where the row is picked.
    pub fn tone(&self, i: usize) -> Tone {
        Tone::picked(i == self.selected)
    }
}

/// A run on a profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileLine {
    /// `personal bests` or `latest rounds` on the first row of each, above it.
    pub group: Option<&'static str>,
    /// `BLITZ 15s`.
    pub title: String,
    /// `108 wpm`.
    pub score: String,
    /// `97.5% · 2026-12-03`, and `· unranked` for a run off the boards.
    pub detail: String,
}
