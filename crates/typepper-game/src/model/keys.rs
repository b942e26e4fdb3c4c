//! What the keys screen shows: the keyboard shaded, the worst keys and pairs, the trend.

use crate::model::Tone;
use typepper_engine::Tier;

/// One of the keys screen's lists of the worst.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worst {
    /// `worst keys`.
    pub title: &'static str,
    /// Worst first: `e  6.0% wrong · 143 ms · p90 323 ms · 33×`, and `· then 8.1% → 4.0%`
    /// when the trend's two spans both saw it.
    pub lines: Vec<String>,
    /// What it says when it lists none: `none went wrong`, `not seen enough yet`.
    pub none: &'static str,
    /// What it leaves out and why, drawn last however short the room: `qxz: seen under
    /// 10×, too few to rank`.
    pub note: Option<String>,
}

impl Worst {
    /// The colour of line `n`: the worst of all, first, in the accent.
    pub fn tone(&self, n: usize) -> Tone {
        if n == 0 { Tone::Accent } else { Tone::Text }
    }
}

/// Your keys: what the history says about each key and letter pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keys {
    /// `your keys`.
    pub title: &'static str,
    /// `by errors` or `by time`: what the keyboard is shaded by and the worst are picked
    /// by.
    pub by: &'static str,
    /// `from your last 12 rounds, on this device`.
    pub caption: String,
    /// QWERTY's three rows of letters, each shaded.
    pub keyboard: Vec<Vec<KeyCap>>,
    /// The worst letters, then the worst letter pairs.
    pub lists: [Worst; 2],
    /// `the last 10 rounds against the 40 before: errors 8.1% → 6.0% · median …`.
    pub trend: String,
    /// The letters `d` drills, when there are enough mistakes to pick them.
    pub drill: Option<String>,
    /// Why there is no drill, when there isn't.
    pub no_drill: Option<&'static str>,
    /// What to say when there are no rounds.
    pub empty: Option<&'static str>,
}

impl Keys {
    /// What `d` offers, when there is a drill: `d drills these:`, then `DRILL qzx`.
    pub fn offer(&self) -> Option<(&'static str, String)> {
        let letters = self.drill.as_ref()?;
        Some(("d drills these:", format!("DRILL {letters}")))
    }
}

/// A key of the keyboard picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyCap {
    /// The letter.
    pub key: char,
    /// How bad it is, 0 (best) to 100 (worst), by errors or time; `None` if never asked.
    pub shade: Option<u8>,
}

impl KeyCap {
    /// Its colour: the heat tier of its shade (the worse, the hotter), or the panel's
    /// when it was never asked.
    pub fn tone(self) -> Tone {
        self.shade.map_or(Tone::Panel, |s| Tone::Heat(Tier::of(s)))
    }

    /// Its letter's colour: the background's on a key of a heat tier's colour, dim on
    /// one never asked.
    pub fn ink(self) -> Tone {
        match self.shade {
            Some(_) => Tone::Background,
            None => Tone::Dim,
        }
    }
}

/// QWERTY's letter rows.
pub const QWERTY: [&str; 3] = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];
