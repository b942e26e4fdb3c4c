//! What each colour means. The model says which role a piece of text or a mark plays;
//! the player's theme (the `theme` module) gives each role its RGB value, and each shell
//! maps it to its own colour type (the canvas to CSS, the terminal to 24-bit, 256 or 16
//! colours, or to bold and underline without colour).

use typepper_engine::Tier;

/// The role of a piece of text or a mark, for its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// The text colour.
    Text,
    /// Labels, hints, what is not typed yet.
    Dim,
    /// Grid lines.
    Faint,
    /// Behind a picked row, a field, a heat bar.
    Panel,
    /// The screen.
    Background,
    /// A wrong letter, a notice, a banner, a room's round not stored.
    Wrong,
    /// A letter typed past a word's end.
    Extra,
    /// A letter the flame has burnt.
    Burnt,
    /// The headline, the picked item, wpm.
    Accent,
    /// The caret, a share link, where the lead changed hands.
    Caret,
    /// A race's ghost: its caret, its name, its line on the chart.
    Ghost,
    /// You lead, or won; a room's round ranked.
    Ahead,
    /// The ghost leads, or won.
    Behind,
    /// Tied.
    Even,
    /// A board's first, second and third.
    Gold,
    /// A board's second.
    Silver,
    /// A board's third.
    Bronze,
    /// A heat tier.
    Heat(Tier),
}

impl Tone {
    /// Who leads by `margin` (yours minus theirs): ahead, behind or even.
    pub fn lead(margin: i64) -> Tone {
        match margin.signum() {
            1 => Tone::Ahead,
            -1 => Tone::Behind,
            _ => Tone::Even,
        }
    }

    /// An item or row of a list: the accent where it is the picked one, else text.
    pub const fn picked(picked: bool) -> Tone {
        if picked { Tone::Accent } else { Tone::Text }
    }

    /// A board's rank: gold, silver, bronze, then dim.
    pub fn rank(rank: u32) -> Tone {
        match rank {
            1 => Tone::Gold,
            2 => Tone::Silver,
            3 => Tone::Bronze,
            _ => Tone::Dim,
        }
    }
}
