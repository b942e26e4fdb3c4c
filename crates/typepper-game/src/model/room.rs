//! What a live room shows, but for its race (a [`super::Play`]).

use crate::model::Tone;
/// A live room, but for its race (which is a [`super::Play`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Room {
    /// `room k3fq 7m2x · BLITZ 15s`.
    pub title: String,
    /// The link that joins it.
    pub link: Option<String>,
    /// Drawn big: the countdown's seconds, your place at the end.
    pub big: Option<String>,
    /// Naming yourself for it: the name so far.
    pub name: Option<String>,
    /// What happens next: `waiting for ada to start`.
    pub caption: String,
    /// Everyone in it: the lobby's racers, or the finishers, best first.
    pub rows: Vec<RoomRow>,
    /// The picked row of the results.
    pub selected: Option<usize>,
}

/// A racer in a room's list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomRow {
    /// `1st` in the results; empty in the lobby.
    pub place: String,
    /// Their name, `(you)` after yours.
    pub name: String,
    /// `waiting`, `ready`, `owner · ready`; in the results, what became of the round.
    pub state: String,
    /// The state's colour: dim, but in the results a round ranked or not stored.
    pub state_tone: Tone,
    /// In the results, `92 wpm · 97%`.
    pub score: String,
    /// In the results, the round's share link, if the server stored it.
    pub share: Option<String>,
    /// Its colour: you in the accent, the gone and the out dim.
    pub tone: Tone,
}
