//! Echoes: a racer's round built from another racer's keys, as the room passed them on.
//!
//! Every connection to a room receives every racer's keys as they are typed, so anyone in
//! it can type someone's round back a moment later: the same keys at the same gaps, or
//! played a little faster, after a typo put in front. A stored round's fingerprint misses
//! the last (docs/TRUST.md). Inside a room the server knows more than a fingerprint: where
//! in the text each character went, the time its racer claimed for it, and the moment it
//! reached the server.
//!
//! How it works:
//! 1. Each racer's [`Track`] keeps, for every place in the text they typed a character
//!    into, the claimed time of the last one typed there and when that key arrived.
//! 2. Two tracks are compared over the places both typed, in the text's order. The gap
//!    from one place to the next is how long each racer took over it. Two people's gaps
//!    on one text differ by tens of ms; an echo's are its original's, stretched by at most
//!    [`MAX_STRETCH_PERCENT`], give or take [`JITTER_MS`].
//! 3. When [`ECHOED_PERCENT`] or more of at least [`MIN_GAPS`] gaps match under one
//!    stretch, one round echoes the other. The original is the one whose matching keys
//!    mostly reached the server first: an echo can only send a key after it was shown it.
//!
//! Floats are fine here, as in the fingerprint: this judges a room's rounds on the server,
//! it is no rule of the game.

use std::collections::BTreeMap;

/// Gaps in common below which two rounds are never called one: too few keys to tell two
/// people apart by.
pub const MIN_GAPS: usize = 40;
/// How far apart two gaps may be, in ms, and still be one key typed twice.
pub const JITTER_MS: f64 = 6.0;
/// How much an echo may be played faster or slower than its original, uniformly.
pub const MAX_STRETCH_PERCENT: f64 = 10.0;
/// The share of gaps in common that must match for one round to echo another. Measured
/// with the synthetic typist (`a_person_is_no_ones_echo` below): two people on one text,
/// at one pace or near it, matched on 22 % of their gaps at most over 60 pairs; an echo
/// matches on all it echoed.
pub const ECHOED_PERCENT: usize = 50;

/// The stretches tried, as factors on the original's gaps: a step small enough that a
/// 500 ms gap lands within a ms of any stretch in between.
const STRETCH_STEPS: usize = 81;

/// A place in the text: the word, and the character's place in it.
pub type Place = (usize, usize);

/// One racer's characters, in the order typed: where each went, when it was claimed
/// (round time, ms) and when it reached the server (the server's round time, ms). Kept as
/// they come, 16 bytes a key; what counts of them (the last at each place) is worked out
/// when rounds are compared, once each ends.
#[derive(Clone, Debug, Default)]
pub struct Track(Vec<(Place, u32, u32)>);

impl Track {
    /// A character typed at `place`, claimed at `t`, arrived at `arrived`.
    pub fn mark(&mut self, place: Place, t: u32, arrived: u32) {
        self.0.push((place, t, arrived));
    }

    /// Whether nothing is typed yet.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The last character typed at each place: when claimed, and when it arrived.
    fn places(&self) -> BTreeMap<Place, (u32, u32)> {
        self.0.iter().map(|&(p, t, a)| (p, (t, a))).collect()
    }
}

/// Which of two compared rounds echoes the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Echo {
    /// The first echoes the second.
    First,
    /// The second echoes the first.
    Second,
}

/// Whether one of `a` and `b` echoes the other, and which.
pub fn compare(a: &Track, b: &Track) -> Option<Echo> {
    // The places both typed, in the text's order: (claimed, arrived) of each.
    let (a, b) = (a.places(), b.places());
    let common: Vec<((u32, u32), (u32, u32))> = a
        .iter()
        .filter_map(|(place, &at_a)| Some((at_a, *b.get(place)?)))
        .collect();
    let gaps: Vec<(f64, f64, usize)> = common
        .windows(2)
        .enumerate()
        .map(|(i, w)| {
            let ga = f64::from(w[1].0.0) - f64::from(w[0].0.0);
            let gb = f64::from(w[1].1.0) - f64::from(w[0].1.0);
            (ga, gb, i + 1)
        })
        .collect();
    if gaps.len() < MIN_GAPS {
        return None;
    }
    let span = MAX_STRETCH_PERCENT / 100.0;
    let best = (0..STRETCH_STEPS)
        .map(|k| 1.0 - span + 2.0 * span * k as f64 / (STRETCH_STEPS - 1) as f64)
        .map(|stretch| {
            let matched = gaps
                .iter()
                .filter(|(ga, gb, _)| (gb - stretch * ga).abs() <= JITTER_MS)
                .count();
            (matched, stretch)
        })
        .max_by_key(|&(matched, _)| matched)?;
    let (matched, stretch) = best;
    if matched * 100 < ECHOED_PERCENT * gaps.len() {
        return None;
    }
    // Of the keys that match, whose reached the server first.
    let (mut a_first, mut b_first) = (0usize, 0usize);
    for &(ga, gb, i) in &gaps {
        if (gb - stretch * ga).abs() <= JITTER_MS {
            let ((_, arrived_a), (_, arrived_b)) = common[i];
            match arrived_a.cmp(&arrived_b) {
                std::cmp::Ordering::Less => a_first += 1,
                std::cmp::Ordering::Greater => b_first += 1,
                std::cmp::Ordering::Equal => {}
            }
        }
    }
    Some(if a_first >= b_first {
        Echo::Second
    } else {
        Echo::First
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use typepper_engine::synth::{Typist, synth};
    use typepper_engine::{Mode, Op, Round};

    /// A typist's keys for BLITZ 30s on `seed`.
    fn keys(seed: u64, typist: &Typist) -> Vec<(u32, Op)> {
        let replay = synth(Mode::BLITZ_30, seed, typist);
        replay.timeline().map(|(t, op)| (t.unwrap(), op)).collect()
    }

    /// Keys on `seed`, tracked as a room tracks them: each arriving `late` ms after its
    /// time.
    fn tracked(seed: u64, keys: &[(u32, Op)], late: u32) -> Track {
        let mut round = Round::new(Mode::BLITZ_30, seed);
        let mut track = Track::default();
        for &(t, op) in keys {
            let place = round.view(t).caret();
            if round.apply(t, op).is_err() {
                break;
            }
            if let Op::Char(_) = op {
                track.mark(place, t, t + late);
            }
        }
        track
    }

    /// A typist's round on `seed`, tracked, its keys' times taken through `warp`.
    fn track(seed: u64, typist: &Typist, late: u32, warp: impl Fn(u32) -> u32) -> Track {
        let keys: Vec<_> = keys(seed, typist)
            .into_iter()
            .map(|(t, op)| (warp(t), op))
            .collect();
        tracked(seed, &keys, late)
    }

    fn typist(wpm: u32, seed: u64) -> Typist {
        Typist {
            wpm,
            seed,
            ..Typist::default()
        }
    }

    #[test]
    fn a_person_is_no_ones_echo() {
        // Two people on one text, at one pace and at others: never one round.
        let mut most = 0.0f64;
        for seed in 1..=12u64 {
            for (wpm_a, wpm_b) in [(60, 60), (90, 90), (120, 120), (150, 150), (80, 95)] {
                let a = track(seed, &typist(wpm_a, seed), 30, |t| t);
                let b = track(seed, &typist(wpm_b, seed + 1000), 40, |t| t);
                assert_eq!(
                    compare(&a, &b),
                    None,
                    "seed {seed}, {wpm_a} and {wpm_b} wpm"
                );
                most = most.max(matched_share(&a, &b));
            }
        }
        eprintln!(
            "two people matched on {:.0} % of gaps at most",
            most * 100.0
        );
        assert!(
            most < 0.35,
            "two people matched on {:.0} % of gaps",
            most * 100.0
        );
    }

    /// The largest share of gaps that match under any stretch.
    fn matched_share(a: &Track, b: &Track) -> f64 {
        let (a, b) = (a.places(), b.places());
        let common: Vec<(u32, u32)> = a
            .iter()
            .filter_map(|(p, &(ta, _))| Some((ta, b.get(p)?.0)))
            .collect();
        let gaps: Vec<(f64, f64)> = common
            .windows(2)
            .map(|w| {
                (
                    f64::from(w[1].0) - f64::from(w[0].0),
                    f64::from(w[1].1) - f64::from(w[0].1),
                )
            })
            .collect();
        (0..STRETCH_STEPS)
            .map(|k| 0.9 + 0.2 * k as f64 / (STRETCH_STEPS - 1) as f64)
            .map(|s| {
                gaps.iter()
                    .filter(|(ga, gb)| (gb - s * ga).abs() <= JITTER_MS)
                    .count() as f64
                    / gaps.len() as f64
            })
            .fold(0.0, f64::max)
    }

    #[test]
    fn an_echo_is_known_and_so_is_its_original() {
        let victim = typist(91, 5);
        let original = track(7, &victim, 30, |t| t);
        // The same keys at the same times, passed on and sent again 120 ms later.
        let same = track(7, &victim, 150, |t| t);
        assert_eq!(compare(&original, &same), Some(Echo::Second));
        assert_eq!(compare(&same, &original), Some(Echo::First));
        // Played 5 % faster, starting a second late.
        let faster = track(7, &victim, 60, |t| 1000 + t * 95 / 100);
        // It arrives first only where it has caught up: it can't send what it hasn't seen.
        let faster = Track(
            faster
                .0
                .into_iter()
                .zip(&original.0)
                .map(|((place, t, arrived), &(_, _, seen))| (place, t, arrived.max(seen + 20)))
                .collect(),
        );
        assert_eq!(compare(&original, &faster), Some(Echo::Second));
        // A typo put in front, then the original's keys: every gap after it matches.
        let mut typo = vec![(0, Op::Char('x')), (140, Op::Backspace)];
        typo.extend(keys(7, &victim).into_iter().map(|(t, op)| (t + 400, op)));
        let typo = tracked(7, &typo, 500);
        assert_eq!(compare(&original, &typo), Some(Echo::Second));
        // Cut short: the echo's first half is still the original's.
        let half: Vec<_> = keys(7, &victim).into_iter().take(60).collect();
        assert_eq!(
            compare(&tracked(7, &half, 200), &original),
            Some(Echo::First)
        );
    }
}
