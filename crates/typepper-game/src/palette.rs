//! What each colour means, and its one RGB value. The model says which role a piece of
//! text or a mark plays; each shell maps the role to its own colour type (the canvas to
//! CSS, the terminal to 24-bit, 256 or 16 colours, or to bold and underline without
//! colour).

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
    /// A wrong letter, a notice, a banner.
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
    /// You lead, or won.
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

/// The flame of HOT PURSUIT, outside in.
pub const FLAME: [u32; 3] = [0xff3d1f, 0xff8c1a, 0xffe066];

impl Tone {
    /// `0xRRGGBB`.
    pub const fn rgb(self) -> u32 {
        match self {
            Tone::Text => 0xf2ede4,
            Tone::Dim => 0x6b6577,
            Tone::Faint => 0x3a3442,
            Tone::Panel => 0x1f1b26,
            Tone::Background => 0x141218,
            Tone::Wrong | Tone::Behind => 0xff4d5e,
            Tone::Extra => 0xa8263b,
            Tone::Burnt => 0x6e3b2a,
            Tone::Accent => 0xff7a1a,
            Tone::Caret => 0xffb020,
            Tone::Ghost | Tone::Even => 0x8fb8ff,
            Tone::Ahead => Tone::Heat(Tier::Bell).rgb(),
            // The medals are the three hottest tiers but one, as the boards always were.
            Tone::Gold => Tone::Heat(Tier::Reaper).rgb(),
            Tone::Silver => Tone::Heat(Tier::Habanero).rgb(),
            Tone::Bronze => Tone::Heat(Tier::Serrano).rgb(),
            Tone::Heat(t) => match t {
                Tier::Bell => 0x7ed957,
                Tier::Jalapeno => 0xc5e063,
                Tier::Serrano => 0xffd23f,
                Tier::Habanero => 0xff9f1c,
                Tier::Ghost => 0xff4d4d,
                Tier::Reaper => 0xe0115f,
            },
        }
    }

    /// Who leads by `margin` (yours minus theirs): ahead, behind or even.
    pub fn lead(margin: i64) -> Tone {
        match margin.signum() {
            1 => Tone::Ahead,
            -1 => Tone::Behind,
            _ => Tone::Even,
        }
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
