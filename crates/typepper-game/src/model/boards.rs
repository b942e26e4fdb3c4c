//! What the boards show: a month's best run per player of a mode.

use crate::model::Tone;
use typepper_engine::Mode;

/// A month's board.
#[derive(Clone, Debug, PartialEq)]
pub struct Boards {
    /// `boards`.
    pub title: &'static str,
    /// The mode shown.
    pub mode: Mode,
    /// The mode with the arrows that change it: `‹ BLITZ 15s ›`.
    pub picker: String,
    /// `this month's best run per player`.
    pub caption: &'static str,
    /// Best first.
    pub rows: Vec<BoardLine>,
    /// In place of rows: `loading…`, why they didn't come, or that there are none yet.
    pub say: Option<(String, Tone)>,
    /// The picked row.
    pub selected: usize,
}

impl Boards {
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
