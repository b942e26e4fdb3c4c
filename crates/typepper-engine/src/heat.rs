//! Heat: the 0–100 meter, and its pepper tiers.

use core::fmt;

/// Heat is kept in thousandths so that gains and cooling stay integers.
pub(crate) const MILLI: i64 = 1000;
/// The top of the meter, in thousandths.
pub(crate) const MAX: i64 = 100 * MILLI;
/// BLITZ and ZEN cool by this many thousandths a millisecond: 4 heat a second.
pub(crate) const COOL_PER_MS: i64 = 4;
/// A correct keystroke `gap` ms after the one before heats by
/// `GAIN_PER_MS × (GAIN_WINDOW_MS − gap)` thousandths, nothing at or past the window.
pub(crate) const GAIN_WINDOW_MS: i64 = 400;
pub(crate) const GAIN_PER_MS: i64 = 4;
/// A mistake keeps four fifths of the heat, less a flat 2.
pub(crate) const MISTAKE_FLAT: i64 = 2 * MILLI;

/// The meter's bands, mildest first, named after peppers by Scoville heat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tier {
    /// 0–19.
    Bell,
    /// 20–39.
    Jalapeno,
    /// 40–59.
    Serrano,
    /// 60–79.
    Habanero,
    /// 80–94.
    Ghost,
    /// 95–100.
    Reaper,
}

impl Tier {
    /// Every tier, mildest first.
    pub const ALL: [Tier; 6] = [
        Tier::Bell,
        Tier::Jalapeno,
        Tier::Serrano,
        Tier::Habanero,
        Tier::Ghost,
        Tier::Reaper,
    ];

    /// The tier a heat of 0–100 falls in.
    pub const fn of(heat: u8) -> Tier {
        match heat {
            0..=19 => Tier::Bell,
            20..=39 => Tier::Jalapeno,
            40..=59 => Tier::Serrano,
            60..=79 => Tier::Habanero,
            80..=94 => Tier::Ghost,
            _ => Tier::Reaper,
        }
    }

    /// The lowest heat in this tier.
    pub const fn floor(self) -> u8 {
        match self {
            Tier::Bell => 0,
            Tier::Jalapeno => 20,
            Tier::Serrano => 40,
            Tier::Habanero => 60,
            Tier::Ghost => 80,
            Tier::Reaper => 95,
        }
    }

    /// The name players see.
    pub const fn name(self) -> &'static str {
        match self {
            Tier::Bell => "BELL PEPPER",
            Tier::Jalapeno => "JALAPEÑO",
            Tier::Serrano => "SERRANO",
            Tier::Habanero => "HABANERO",
            Tier::Ghost => "GHOST PEPPER",
            Tier::Reaper => "CAROLINA REAPER",
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The BLITZ and ZEN streak: a value at a moment, cooling linearly after it, so the heat
/// at any time follows from the inputs alone, however often anyone looks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Streak {
    milli: i64,
    at: u32,
}

impl Streak {
    pub(crate) fn at(&self, t: u32) -> i64 {
        let idle = i64::from(t.saturating_sub(self.at));
        (self.milli - idle * COOL_PER_MS).max(0)
    }

    /// A judged keystroke at `t`, `gap` ms after the previous one (`None` for the first).
    pub(crate) fn stroke(&mut self, t: u32, gap: Option<u32>, correct: bool) {
        let now = self.at(t);
        self.milli = if correct {
            let gap = gap.map_or(GAIN_WINDOW_MS, i64::from);
            (now + GAIN_PER_MS * (GAIN_WINDOW_MS - gap).max(0)).min(MAX)
        } else {
            (now * 4 / 5 - MISTAKE_FLAT).max(0)
        };
        self.at = t;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_cover_the_meter_in_order() {
        for t in Tier::ALL {
            assert_eq!(Tier::of(t.floor()), t);
        }
        assert_eq!(Tier::of(19), Tier::Bell);
        assert_eq!(Tier::of(94), Tier::Ghost);
        assert_eq!(Tier::of(100), Tier::Reaper);
    }

    #[test]
    fn streak_heats_fast_correct_typing_and_cools_the_rest() {
        let mut s = Streak::default();
        s.stroke(0, None, true);
        assert_eq!(
            s.at(0),
            0,
            "the first keystroke has nothing to be fast against"
        );
        s.stroke(100, Some(100), true);
        // 4 × (400 − 100) = 1200, on top of zero (the 100 ms of cooling floored at 0).
        assert_eq!(s.at(100), 1200);
        assert_eq!(s.at(200), 800, "4 thousandths a millisecond");
        assert_eq!(s.at(10_000), 0);
        s.stroke(110, Some(10), true);
        assert_eq!(s.at(110), 1160 + 1560);
        s.stroke(150, Some(40), false);
        assert_eq!(
            s.at(150),
            (2720 - 160) * 4 / 5 - 2000,
            "four fifths, less 2"
        );
        s.stroke(160, Some(10), true);
        let before = s.at(160);
        s.stroke(170, Some(400), true);
        assert_eq!(s.at(170), before - 40, "nothing at 400 ms or slower");
    }
}
