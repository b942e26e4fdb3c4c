//! Key timing no person produces.
//!
//! People type in a rhythm that wanders: most gaps between keys sit near their pace, a
//! fast pair of letters comes quicker, a hard one or a word's first letter later, and now
//! and then there is a pause. So a person's gaps spread widely and lean right (a long
//! tail of slow keys). A program that sends keys does one of three simple things, and each
//! leaves a mark this module looks for:
//!
//! 1. **Bursts**: words pasted whole, or keys fired by a macro, land a few milliseconds
//!    apart or at the same millisecond.
//! 2. **A metronome**: the same gap every time, or nearly (a fixed delay with a little
//!    noise), at any speed.
//! 3. **Flat randomness**: gaps drawn evenly from a range, which has no tail at all.
//! 4. **A noisy metronome**: a fixed delay with a few percent of noise, Gaussian or
//!    log-normal, spread widely enough to pass (2) but symmetric: its gaps don't lean
//!    right. A person's mean gap is above their median, their gaps' skewness is
//!    positive, and a few of their gaps are much slower than the rest (a pause, a word's
//!    first letter, a hard reach): [`MIN_SLOW_PERCENT`] of gaps or more at half again the
//!    median. A delay with 10 % of noise has next to none.
//!
//! Only judged keystrokes count (characters and spaces the rules judged): ignored inputs,
//! such as spaces on an empty word, would otherwise dilute every test. The thresholds
//! were set against the synthetic typist (`typepper synth`, which types as people do) at
//! every speed from 20 to 280 wpm, with room to spare; see the tests.

pub use crate::refusal::Bot;

pub use crate::refusal::BURST_GAP_MS;
/// At most this share of gaps (in percent) may be bursts.
pub const MAX_BURST_PERCENT: usize = 10;
/// This many burst gaps in a row (five keys within about 30 ms) is a paste or a macro.
pub const BURST_RUN: usize = 4;
/// The middle half of a person's gaps spans at least this share of their median gap (in
/// percent); a metronome's spans next to none. The synthetic typist's spans about 40 %.
pub const MIN_SPREAD_PERCENT: u64 = 8;
/// Gaps drawn evenly from a range have an excess kurtosis of −1.2; a person's gaps, with
/// their tail of slow keys, are above 0. Below this, the gaps are a flat random draw.
pub const MIN_KURTOSIS: f64 = -0.9;
/// The flat-draw test needs this many gaps to tell flat from merely steady.
pub const KURTOSIS_GAPS: usize = 100;
/// A gap this many halves of the median or longer is a slow one (1.5 × the median).
pub const SLOW_HALVES: u64 = 3;
/// At least this share of gaps (in percent) are slow ones. Measured on 2,814 rounds of the
/// synthetic typist with 100 gaps or more (20 to 280 wpm, 88 to 100 % accuracy, BLITZ 15s,
/// BLITZ 60s and ZEN, 25 typists each): never under 5.7 %. On 2,000 draws each of 100 to
/// 1,200 gaps, a fixed delay with 7 % or 10 % Gaussian noise, or log-normal noise of σ
/// 0.06 or 0.10, never reached 1 %.
pub const MIN_SLOW_PERCENT: usize = 3;
/// The lean-right test needs this many gaps: fewer, and a person's few slow keys may not
/// have come yet.
pub const SKEW_GAPS: usize = 100;

/// Checks the times (ms since the round started, in order) of a round's judged
/// keystrokes, and says what gave a program away.
pub fn check(times: &[u32]) -> Result<(), Bot> {
    Rhythm::of(times).map_or(Ok(()), |r| r.check())
}

/// What a round's key timing looks like: the measures the checks judge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rhythm {
    /// Gaps between judged keystrokes.
    pub gaps: usize,
    /// Gaps under [`BURST_GAP_MS`].
    pub bursts: usize,
    /// The most of those in a row.
    pub longest_burst: usize,
    /// The gaps' lower quartile, median and upper quartile, in ms.
    pub quartiles: [u32; 3],
    /// The gaps' excess kurtosis (0 for a normal distribution, −1.2 for a uniform one).
    pub kurtosis: f64,
    /// The gaps' skewness (0 for a symmetric distribution; a person's is positive).
    pub skewness: f64,
    /// The mean gap, in ms.
    pub mean: f64,
    /// Gaps of [`SLOW_HALVES`] halves of the median or longer.
    pub slow: usize,
}

impl Rhythm {
    /// The rhythm of judged keystrokes at `times`; `None` for fewer than two.
    pub fn of(times: &[u32]) -> Option<Rhythm> {
        let gaps: Vec<u32> = times.windows(2).map(|w| w[1] - w[0]).collect();
        if gaps.is_empty() {
            return None;
        }
        let (mut bursts, mut run, mut longest_burst) = (0, 0, 0);
        for &gap in &gaps {
            run = if gap < BURST_GAP_MS { run + 1 } else { 0 };
            bursts += usize::from(gap < BURST_GAP_MS);
            longest_burst = longest_burst.max(run);
        }
        let (mean, skewness, kurtosis) = moments(&gaps);
        // The quartiles by selection: linear, where a sort is not.
        let mut order = gaps;
        let at = |q: usize| (order.len() - 1) * q / 4;
        let (i1, i2, i3) = (at(1), at(2), at(3));
        let (below, &mut median, above) = order.select_nth_unstable(i2);
        let q1 = below.select_nth_unstable(i1).1.to_owned();
        let q3 = match i3 - i2 {
            0 => median,
            d => above.select_nth_unstable(d - 1).1.to_owned(),
        };
        let slow = order
            .iter()
            .filter(|&&g| 2 * u64::from(g) >= SLOW_HALVES * u64::from(median))
            .count();
        Some(Rhythm {
            gaps: order.len(),
            bursts,
            longest_burst,
            quartiles: [q1, median, q3],
            kurtosis,
            skewness,
            mean,
            slow,
        })
    }

    /// How wide the middle half of the gaps is, in percent of the median gap.
    pub fn spread_percent(&self) -> u64 {
        let [q1, median, q3] = self.quartiles.map(u64::from);
        (q3 - q1) * 100 / median.max(1)
    }

    /// Whether a person could have typed like this, and if not, why not.
    pub fn check(&self) -> Result<(), Bot> {
        if self.longest_burst >= BURST_RUN {
            return Err(Bot::Bursts {
                keys: self.longest_burst + 1,
            });
        }
        if self.bursts * 100 > self.gaps * MAX_BURST_PERCENT {
            return Err(Bot::Implausible {
                bursts: self.bursts,
                keys: self.gaps + 1,
            });
        }
        if self.spread_percent() < MIN_SPREAD_PERCENT {
            let [q1, median, q3] = self.quartiles;
            return Err(Bot::Metronome {
                span: q3 - q1,
                median,
            });
        }
        if self.gaps >= KURTOSIS_GAPS && self.kurtosis < MIN_KURTOSIS {
            return Err(Bot::Flat {
                kurtosis: self.kurtosis,
            });
        }
        if self.gaps >= SKEW_GAPS && !self.leans_right() {
            return Err(Bot::Symmetric {
                slow: self.slow,
                gaps: self.gaps,
                median: self.quartiles[1],
                mean: self.mean,
            });
        }
        Ok(())
    }

    /// Whether the gaps lean right as a person's do: a positive skewness, and
    /// [`MIN_SLOW_PERCENT`] of them slow. (The mean above the median was a third sign; one
    /// round of the synthetic typist in 60,000 missed it, with both others plain, while
    /// no noisy metronome passed the other two: `cargo run --release --example
    /// false_positives`, docs/TRUST.md.)
    pub fn leans_right(&self) -> bool {
        self.skewness > 0.0 && self.slow * 100 >= self.gaps * MIN_SLOW_PERCENT
    }
}

/// The sample's mean, skewness (0 for a symmetric distribution) and excess kurtosis (0 for
/// a normal distribution, −1.2 for a uniform one, above 0 for one with a long tail).
fn moments(gaps: &[u32]) -> (f64, f64, f64) {
    let n = gaps.len() as f64;
    let mean = gaps.iter().map(|&g| f64::from(g)).sum::<f64>() / n;
    let (mut m2, mut m3, mut m4) = (0.0, 0.0, 0.0);
    for &g in gaps {
        let d = f64::from(g) - mean;
        m2 += d * d;
        m3 += d * d * d;
        m4 += d * d * d * d;
    }
    let (m2, m3, m4) = (m2 / n, m3 / n, m4 / n);
    if m2 == 0.0 {
        // Every gap the same: the metronome test says so first.
        return (mean, 0.0, 0.0);
    }
    (mean, m3 / m2.powf(1.5), m4 / (m2 * m2) - 3.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Times from gaps.
    fn times(gaps: impl IntoIterator<Item = u32>) -> Vec<u32> {
        let mut t = 0;
        let mut out = vec![0];
        for g in gaps {
            t += g;
            out.push(t);
        }
        out
    }

    /// A cheap deterministic stream of numbers below `n`.
    fn draws(seed: u32, n: u32) -> impl Iterator<Item = u32> {
        let mut x = seed;
        std::iter::repeat_with(move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x % n
        })
    }

    #[test]
    fn a_metronome_is_refused_at_any_speed() {
        for gap in [20, 40, 150, 600] {
            let why = check(&times(std::iter::repeat_n(gap, 60)))
                .unwrap_err()
                .to_string();
            assert!(why.starts_with("timing as even as a metronome"), "{why}");
        }
        // A fixed delay with ±2 % of noise.
        let noisy: Vec<u32> = draws(7, 5).take(200).map(|d| 98 + d).collect();
        assert!(matches!(check(&times(noisy)), Err(Bot::Metronome { .. })));
    }

    #[test]
    fn pasted_words_and_bursts_are_refused() {
        // Five letters at once, then a space 300 ms later, word after word.
        let pasted = (0..20).flat_map(|_| [0, 0, 0, 0, 300]);
        assert!(matches!(check(&times(pasted)), Err(Bot::Bursts { .. })));
        // A burst of two every fourth key: 25 % of the gaps.
        let pairs = draws(3, 80)
            .take(120)
            .enumerate()
            .map(|(i, d)| if i % 4 == 0 { 1 } else { 100 + d });
        assert!(matches!(check(&times(pairs)), Err(Bot::Implausible { .. })));
    }

    #[test]
    fn evenly_drawn_gaps_are_refused() {
        let flat: Vec<u32> = draws(11, 41).take(250).map(|d| 30 + d).collect();
        let why = check(&times(flat)).unwrap_err();
        assert!(matches!(why, Bot::Flat { .. }), "{why}");
    }

    /// A cheap deterministic stream of standard normal numbers (Box–Muller).
    fn normals(seed: u32) -> impl Iterator<Item = f64> {
        let mut u = draws(seed, 1 << 20).map(|d| (f64::from(d) + 0.5) / f64::from(1u32 << 20));
        std::iter::repeat_with(move || {
            let (a, b) = (u.next().unwrap_or(0.5), u.next().unwrap_or(0.5));
            (-2.0 * a.ln()).sqrt() * (std::f64::consts::TAU * b).cos()
        })
    }

    /// The attack: a fixed delay of 48 ms (248 wpm) with 7 % or 10 % Gaussian noise, or
    /// log-normal noise of σ 0.03 and 0.06, ranked a 15 s round at 248 wpm.
    #[test]
    fn a_noisy_metronome_is_refused() {
        type Noise = fn(f64) -> f64;
        let noises: [(&str, Noise); 4] = [
            ("7 % Gaussian", |z| 1.0 + 0.07 * z),
            ("10 % Gaussian", |z| 1.0 + 0.10 * z),
            ("log-normal σ 0.03", |z| (0.03 * z).exp()),
            ("log-normal σ 0.06", |z| (0.06 * z).exp()),
        ];
        for (what, noise) in noises {
            for (seed, n) in [(1, 100), (2, 310), (3, 1200)] {
                let gaps: Vec<u32> = normals(seed)
                    .take(n)
                    .map(|z| (48.0 * noise(z)).round().max(1.0) as u32)
                    .collect();
                let why = check(&times(gaps)).unwrap_err();
                // The narrowest noise is still a metronome to the spread test.
                assert!(
                    matches!(why, Bot::Symmetric { .. } | Bot::Metronome { .. }),
                    "{what}, {n}: {why}"
                );
            }
        }
    }

    #[test]
    fn a_persons_rhythm_passes() {
        // Gaps near 150 ms, a quick pair now and then, a pause every so often.
        let person = draws(5, 100)
            .take(200)
            .enumerate()
            .map(|(i, d)| match i % 11 {
                3 => 60 + d / 4,
                7 => 400 + 3 * d,
                _ => 110 + d,
            });
        assert_eq!(check(&times(person)), Ok(()));
        assert_eq!(check(&[]), Ok(()));
        assert_eq!(check(&[5]), Ok(()));
    }
}
