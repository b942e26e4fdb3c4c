//! What a round scored, and the integer arithmetic behind it.

use core::fmt;

use crate::Mode;
use crate::mode::Unit;

/// Characters of a finished round by what became of them, as Monkeytype counts them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CharCounts {
    /// Typed as the text has them.
    pub correct: u32,
    /// Typed, but not as the text has them.
    pub wrong: u32,
    /// Typed past the end of a word.
    pub extra: u32,
    /// Left untyped in a word that was committed with space.
    pub missed: u32,
}

impl core::ops::AddAssign for CharCounts {
    fn add_assign(&mut self, other: CharCounts) {
        self.correct += other.correct;
        self.wrong += other.wrong;
        self.extra += other.extra;
        self.missed += other.missed;
    }
}

impl core::ops::SubAssign for CharCounts {
    fn sub_assign(&mut self, other: CharCounts) {
        self.correct -= other.correct;
        self.wrong -= other.wrong;
        self.extra -= other.extra;
        self.missed -= other.missed;
    }
}

/// One second of the round, for the results chart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sample {
    /// The round's wpm so far, at the end of this second, in hundredths.
    pub wpm_x100: u32,
    /// Keystrokes in this second as a raw wpm, in hundredths.
    pub raw_x100: u32,
    /// Mistyped keystrokes in this second.
    pub errors: u32,
}

/// A finished round's score. Rates are in hundredths (`wpm_x100` 10850 is 108.50 wpm).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Score {
    /// The mode it was played in.
    pub mode: Mode,
    /// Characters of correct words, with their spaces, ÷ 5, per minute.
    pub wpm_x100: u32,
    /// Every typed character, space and mistake included, ÷ 5, per minute.
    pub raw_x100: u32,
    /// Correct keystrokes ÷ judged keystrokes, in hundredths of a percent.
    pub accuracy_x100: u16,
    /// How even the per-second raw speed was, 0–100 %, in hundredths.
    pub consistency_x100: u16,
    /// The final text's characters.
    pub chars: CharCounts,
    /// Words committed correctly.
    pub words: u32,
    /// Judged keystrokes (characters and spaces; backspaces and ignored keys are not).
    pub keys: u32,
    /// The highest heat reached, 0–100.
    pub peak_heat: u8,
    /// HOT PURSUIT: the level the flame had reached when it caught the caret.
    pub level: Option<u8>,
    /// From the first keystroke to the round's end.
    pub duration_ms: u32,
    /// One per second of the round (a last part-second of at least half a second counts).
    pub samples: Vec<Sample>,
}

/// The number a round is ranked by and the server checks against a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Headline {
    /// Whole wpm (rounded down), or words in HOT PURSUIT.
    pub value: u32,
    /// What it counts.
    pub unit: Unit,
}

impl fmt::Display for Headline {
    /// `108 wpm`, `31 words`, `1 word`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = match (self.value, self.unit) {
            (1, Unit::Words) => "word",
            (_, unit) => unit.as_str(),
        };
        write!(f, "{} {}", self.value, unit)
    }
}

impl Score {
    /// `108 wpm` for BLITZ, WORDS and ZEN, `31 words` for HOT PURSUIT.
    pub fn headline(&self) -> Headline {
        let value = match self.mode.unit() {
            Unit::Words => self.words,
            Unit::Wpm => self.wpm(),
        };
        Headline {
            value,
            unit: self.mode.unit(),
        }
    }

    /// Whole wpm, rounded down.
    pub fn wpm(&self) -> u32 {
        self.wpm_x100 / 100
    }
}

/// Hundredths as few digits as they need, as people write them: `92.5`, `100`, `86.81`.
/// What players read (accuracy, a board's wpm); [`Hundredths`] keeps the zeros for files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decimal(pub u32);

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / 100;
        match self.0 % 100 {
            0 => write!(f, "{whole}"),
            part if part % 10 == 0 => write!(f, "{whole}.{}", part / 10),
            part => write!(f, "{whole}.{part:02}"),
        }
    }
}

/// `x100` as `108.50`: both digits always, as the golden files and the results' wpm have
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hundredths(pub u32);

impl fmt::Display for Hundredths {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:02}", self.0 / 100, self.0 % 100)
    }
}

impl fmt::Display for Score {
    /// Every stat, one per line, then the chart's samples: the golden files' form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.chars;
        writeln!(f, "headline {}", self.headline())?;
        writeln!(f, "wpm {}", Hundredths(self.wpm_x100))?;
        writeln!(f, "raw {}", Hundredths(self.raw_x100))?;
        writeln!(f, "accuracy {}%", Hundredths(self.accuracy_x100.into()))?;
        writeln!(
            f,
            "consistency {}%",
            Hundredths(self.consistency_x100.into())
        )?;
        writeln!(
            f,
            "chars {} correct, {} wrong, {} extra, {} missed",
            c.correct, c.wrong, c.extra, c.missed
        )?;
        writeln!(f, "words {}", self.words)?;
        writeln!(f, "keys {}", self.keys)?;
        writeln!(f, "peak heat {}", self.peak_heat)?;
        if let Some(level) = self.level {
            writeln!(f, "level {level}")?;
        }
        writeln!(f, "duration {} ms", self.duration_ms)?;
        write!(f, "samples (wpm raw errors):")?;
        for s in &self.samples {
            write!(f, " {}/{}/{}", s.wpm_x100 / 100, s.raw_x100 / 100, s.errors)?;
        }
        writeln!(f)
    }
}

/// `chars ÷ 5` per minute over `ms`, in hundredths: `chars × 1 200 000 ÷ ms`.
pub(crate) fn rate_x100(chars: u64, ms: u64) -> u32 {
    if ms == 0 {
        return 0;
    }
    u32::try_from(chars * 1_200_000 / ms).unwrap_or(u32::MAX)
}

/// `part ÷ whole` in hundredths of a percent (`whole` 0 gives 0).
pub(crate) fn percent_x100(part: u32, whole: u32) -> u16 {
    if whole == 0 {
        return 0;
    }
    (u64::from(part) * 10_000 / u64::from(whole)) as u16
}

/// Fixed point with 32 fraction bits.
const ONE: u128 = 1 << 32;
/// ln 2 in that fixed point.
const LN2: u128 = 2_977_044_472;

/// Monkeytype's consistency, `100 × (1 − tanh(c + c³/3 + c⁵/5))` of the coefficient of
/// variation `c` of the per-second raw speeds, in integer fixed point. `1 − tanh(y)` is
/// `2 ÷ (e^2y + 1)`, so only an exponential is needed.
pub(crate) fn consistency_x100(raws: impl Iterator<Item = u32>) -> u16 {
    let (mut n, mut sum, mut squares) = (0u128, 0u128, 0u128);
    for r in raws {
        let r = u128::from(r);
        n += 1;
        sum += r;
        squares += r * r;
    }
    if sum == 0 {
        return 0;
    }
    // c = sd ÷ mean = √(n·Σx² − (Σx)²) ÷ Σx; the root is taken with as many fraction bits
    // as fit, at most 32.
    let spread = n * squares - sum * sum;
    let shift = (spread.leading_zeros() / 2).min(32);
    let root = (spread << (2 * shift)).isqrt() << (32 - shift);
    let c = root / sum;
    // Past c = 8 the answer rounds to 0 anyway; capping keeps every product in range.
    let c = c.min(8 * ONE);
    let c2 = (c * c) >> 32;
    let c3 = (c2 * c) >> 32;
    let c5 = (c3 * c2) >> 32;
    let y = c + c3 / 3 + c5 / 5;
    let e = exp(2 * y.min(24 * ONE));
    let x = (20_000 * ONE + (e + ONE) / 2) / (e + ONE);
    x as u16
}

/// e^z for 0 ≤ z ≤ 48 in 32-bit fixed point: z = k·ln2 + r, e^r by its Taylor series.
fn exp(z: u128) -> u128 {
    let k = z / LN2;
    let r = z - k * LN2;
    let (mut term, mut sum) = (ONE, ONE);
    for i in 1..=14u128 {
        term = term * r / ONE / i;
        sum += term;
    }
    sum << k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_follow_monkeytype() {
        // 50 characters in 15 s is 10 words in a quarter minute: 40 wpm.
        assert_eq!(rate_x100(50, 15_000), 4000);
        assert_eq!(rate_x100(1, 0), 0);
        assert_eq!(percent_x100(9, 10), 9000);
        assert_eq!(percent_x100(0, 0), 0);
    }

    #[test]
    fn numbers_read_as_people_write_them() {
        let read = |x100| Decimal(x100).to_string();
        assert_eq!(
            [read(9200), read(9250), read(8681), read(5)],
            ["92", "92.5", "86.81", "0.05"]
        );
        assert_eq!(Hundredths(9850).to_string(), "98.50");
        let words = |value| {
            Headline {
                value,
                unit: Unit::Words,
            }
            .to_string()
        };
        assert_eq!(
            [words(0), words(1), words(31)],
            ["0 words", "1 word", "31 words"]
        );
        let wpm = Headline {
            value: 1,
            unit: Unit::Wpm,
        };
        assert_eq!(wpm.to_string(), "1 wpm");
    }

    #[test]
    fn exp_is_close() {
        // e ≈ 2.718281828; e^10 ≈ 22026.4658.
        let e1 = exp(ONE) * 1_000_000_000 / ONE;
        assert!((2_718_281_820..=2_718_281_836).contains(&e1), "{e1}");
        let e10 = exp(10 * ONE) * 10_000 / ONE;
        assert!((220_264_600..=220_264_720).contains(&e10), "{e10}");
    }

    #[test]
    fn consistency_matches_kogasa() {
        assert_eq!(consistency_x100([6000, 6000, 6000].into_iter()), 10_000);
        assert_eq!(consistency_x100([0, 0].into_iter()), 0);
        // Values 40, 60: mean 50, population sd 10, c = 0.2;
        // 100 × (1 − tanh(0.2 + 0.008/3 + 0.00032/5)) = 80.0001…
        assert_eq!(consistency_x100([4000, 6000].into_iter()), 8000);
        // One busy second among idle ones is as uneven as it gets.
        assert_eq!(
            consistency_x100([0, 0, 0, 0, 0, 0, 0, 90_000].into_iter()),
            0
        );
    }
}
