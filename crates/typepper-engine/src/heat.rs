//! Heat: the 0–100 meter, and its pepper tiers.

use core::fmt;

use crate::Rules;

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
/// VERSION 2: a correct keystroke heats by 1, whatever its gap...
pub(crate) const V2_GAIN: i64 = MILLI;
/// ...and heat halves every 5 s (straight between halvings), so that a steady pace with
/// no mistake settles at `2 × 5000 × 1000 ÷ gap` thousandths: wpm ÷ 1.2 heat.
pub(crate) const V2_HALF_LIFE_MS: i64 = 5000;

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

/// The streak: a value at a moment, cooling after it by a rule of the round's
/// [`Rules`], so the heat at any time follows from the inputs alone, however often
/// anyone looks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Streak {
    milli: i64,
    at: u32,
}

impl Streak {
    /// Its value at its last stroke, which is its highest since.
    pub(crate) fn milli(&self) -> i64 {
        self.milli
    }

    pub(crate) fn at(&self, t: u32, rules: Rules) -> i64 {
        let idle = t.saturating_sub(self.at);
        match rules {
            // Linear: 4 a second, so only 60 wpm and up outruns it.
            Rules::V1 => (self.milli - i64::from(idle) * COOL_PER_MS).max(0),
            // Halving: the faster the pace, the higher heat settles, at every pace.
            // A streak is 0 to MAX, so `u32`s hold it times a half-life: the cheapest
            // division, and this is a key's largest arithmetic.
            Rules::V2 => {
                let milli = self.milli as u32;
                let half_life = V2_HALF_LIFE_MS as u32;
                // Within a half-life, as nearly every key is, no halving to count.
                let (whole, part) = if idle < half_life {
                    (milli, idle)
                } else {
                    let whole = milli.checked_shr(idle / half_life).unwrap_or(0);
                    (whole, idle % half_life)
                };
                i64::from(whole - whole * part / (2 * half_life))
            }
        }
    }

    /// A judged keystroke at `t`, the previous one at `last` (`None` for the first).
    pub(crate) fn stroke(&mut self, t: u32, last: Option<u32>, correct: bool, rules: Rules) {
        let now = self.at(t, rules);
        self.milli = match (correct, rules) {
            (true, Rules::V1) => {
                let gap = last.map_or(GAIN_WINDOW_MS, |s| i64::from(t - s));
                (now + GAIN_PER_MS * (GAIN_WINDOW_MS - gap).max(0)).min(MAX)
            }
            (true, Rules::V2) => (now + V2_GAIN).min(MAX),
            (false, _) => (now * 4 / 5 - MISTAKE_FLAT).max(0),
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
        s.stroke(0, None, true, Rules::V1);
        assert_eq!(
            s.at(0, Rules::V1),
            0,
            "the first keystroke has nothing to be fast against"
        );
        s.stroke(100, Some(0), true, Rules::V1);
        // 4 × (400 − 100) = 1200, on top of zero (the 100 ms of cooling floored at 0).
        assert_eq!(s.at(100, Rules::V1), 1200);
        assert_eq!(s.at(200, Rules::V1), 800, "4 thousandths a millisecond");
        assert_eq!(s.at(10_000, Rules::V1), 0);
        s.stroke(110, Some(100), true, Rules::V1);
        assert_eq!(s.at(110, Rules::V1), 1160 + 1560);
        s.stroke(150, Some(110), false, Rules::V1);
        assert_eq!(
            s.at(150, Rules::V1),
            (2720 - 160) * 4 / 5 - 2000,
            "four fifths, less 2"
        );
        s.stroke(160, Some(150), true, Rules::V1);
        assert_eq!(s.at(160, Rules::V1), (2560 * 4 / 5 - 2000 - 40) + 4 * 390);
        // Hot, then a key 400 ms after the last: it only cools.
        let mut t = 160;
        for _ in 0..100 {
            s.stroke(t + 10, Some(t), true, Rules::V1);
            t += 10;
        }
        assert_eq!(s.at(t, Rules::V1), MAX);
        s.stroke(t + 400, Some(t), true, Rules::V1);
        assert_eq!(
            s.at(t + 400, Rules::V1),
            MAX - 400 * COOL_PER_MS,
            "nothing at 400 ms or slower"
        );
    }

    #[test]
    fn version_2_settles_at_every_pace_by_its_speed() {
        // A steady pace with no mistake, for a minute: heat settles near wpm ÷ 1.2.
        for (gap, wpm) in [(400, 30), (200, 60), (120, 100), (100, 120)] {
            let mut s = Streak::default();
            let mut t = 0;
            while t < 60_000 {
                s.stroke(t, t.checked_sub(gap), true, Rules::V2);
                t += gap;
            }
            let heat = s.at(t - gap, Rules::V2) / MILLI;
            let settled = (wpm * 10 / 12).min(100);
            assert!(
                heat.abs_diff(settled) <= 2,
                "{wpm} wpm: {heat}, not about {settled}"
            );
        }
        let mut s = Streak::default();
        s.stroke(0, None, true, Rules::V2);
        assert_eq!(s.at(0, Rules::V2), V2_GAIN, "the first keystroke heats too");
        assert_eq!(
            s.at(2_500, Rules::V2),
            V2_GAIN * 3 / 4,
            "straight to half at 5 s"
        );
        assert_eq!(s.at(5_000, Rules::V2), V2_GAIN / 2);
        assert_eq!(s.at(u32::MAX, Rules::V2), 0);
    }
}
