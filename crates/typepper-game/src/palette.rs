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

/// The flame of HOT PURSUIT, outside in.
pub const FLAME: [u32; 3] = [0xff3d1f, 0xff8c1a, 0xffe066];

impl Tone {
    /// `0xRRGGBB`.
    pub const fn rgb(self) -> u32 {
        match self {
            Tone::Text => 0xf2ede4,
            // Secondary text: 5.2:1 on the background, 4.7:1 on a panel (WCAG AA).
            Tone::Dim => 0x8a8496,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG's contrast ratio of two colours.
    fn contrast(a: u32, b: u32) -> f64 {
        let luminance = |rgb: u32| {
            let channel = |shift: u32| {
                let v = f64::from((rgb >> shift) & 0xff) / 255.0;
                if v <= 0.039_28 {
                    v / 12.92
                } else {
                    ((v + 0.055) / 1.055).powf(2.4)
                }
            };
            0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
        };
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    /// The play-test: secondary text (then #6b6577) was 3.3:1 on the background, under
    /// the 4.5:1 that text of its size needs. Every tone that carries text reads at 4.5:1
    /// on the background and on a panel. (The medals and the heat tiers are the peppers'
    /// colours, drawn large or beside a word that says the same; the themes to come
    /// measure every role.)
    #[test]
    fn every_tone_that_carries_small_text_reads_on_the_background_and_a_panel() {
        let tones = [
            Tone::Text,
            Tone::Dim,
            Tone::Wrong,
            Tone::Accent,
            Tone::Caret,
            Tone::Ghost,
            Tone::Ahead,
        ];
        for tone in tones {
            for on in [Tone::Background, Tone::Panel] {
                let ratio = contrast(tone.rgb(), on.rgb());
                assert!(ratio >= 4.5, "{tone:?} on {on:?}: {ratio:.2}:1");
            }
        }
    }
}
