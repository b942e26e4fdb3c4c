//! What the boards show: each player's best run of a mode in a period.

use crate::model::Tone;
use typepper_engine::Mode;

/// A board.
#[derive(Clone, Debug, PartialEq)]
pub struct Boards {
    /// `boards`.
    pub title: &'static str,
    /// The mode shown.
    pub mode: Mode,
    /// The mode with the arrows that change it: `‹ BLITZ 15s ›`.
    pub picker: String,
    /// The period, and where it starts: `this month's bests · UTC`; a daily's day.
    pub caption: String,
    /// Best first.
    pub rows: Vec<BoardLine>,
    /// In place of rows: `loading…`, why they didn't come, or that there are none yet.
    pub say: Option<(String, Tone)>,
    /// The picked row.
    pub selected: usize,
}

impl Boards {
    /// What the board is of, without the picker's arrows: `BLITZ 15s`, `daily #6`.
    pub fn of(&self) -> &str {
        self.picker.trim_matches(['‹', '›', ' '])
    }

    /// The colour of row `i`'s score: the accent where the row is picked.
    pub fn tone(&self, i: usize) -> Tone {
        Tone::picked(i == self.selected)
    }
}

/// A row of a board, as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardLine {
    /// 1 for the best.
    pub rank: u32,
    /// The rank's colour: a medal's for the first three.
    pub medal: Tone,
    /// Who.
    pub name: String,
    /// `108 wpm`, `31 words`.
    pub score: String,
    /// `98.5%`.
    pub accuracy: String,
}
