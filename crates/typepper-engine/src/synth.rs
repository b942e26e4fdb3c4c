//! A synthetic typist: plays a round's own text with human-like timing and mistakes.
//!
//! Benchmarks, load tests and browser tests need real rounds by the thousand. The typist
//! reads the round's view as a person reads the screen, so whatever the rules, what it
//! types is a plausible round; it is deterministic from its own seed.

use crate::Mode;
use crate::replay::{Op, Replay};
use crate::rng::Rng;
use crate::round::Round;

/// How the synthetic typist types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Typist {
    /// Aimed speed: keystrokes come about every `12000 ÷ wpm` ms, ±40 %, a little faster
    /// to make up for the time mistakes cost.
    pub wpm: u32,
    /// Chance in percent that a keystroke is the right one.
    pub accuracy: u32,
    /// The typist's own randomness (timing, mistakes), apart from the round's seed.
    pub seed: u64,
    /// ZEN: how long to type before End.
    pub zen_ms: u32,
}

impl Default for Typist {
    fn default() -> Typist {
        Typist {
            wpm: 80,
            accuracy: 96,
            seed: 1,
            zen_ms: 30_000,
        }
    }
}

/// Most inputs a synthetic round may take, so that no typist types forever.
const MAX_INPUTS: usize = 1 << 20;

/// Plays a round of `mode` and `seed` as `typist` would and returns its replay.
pub fn synth(mode: Mode, seed: u64, typist: &Typist) -> Replay {
    let mut rng = Rng::new(typist.seed);
    let mut round = Round::new(mode, seed);
    // A mistake costs three keystrokes' time (the slip, noticing it, the backspace) and one
    // word in ten ends in a pause of two: shorten the gap so the round lands near `wpm`.
    let slips = 100 - accuracy(typist);
    let mean_gap = 1_200_000 / (typist.wpm.max(1) * (103 + 3 * slips));
    // Mistakes left in HOT PURSUIT would stall the word forever: always fix them there.
    let fixes_all = matches!(mode, Mode::Pursuit(_));
    let mut fixing = false;
    let mut t = 0u32;
    for _ in 0..MAX_INPUTS {
        let (op, pause) = {
            let view = round.view(t);
            let (cur, _) = view.caret();
            let word = view.word(cur).expect("the current word is always drawn");
            let target: Vec<char> = word.target().chars().collect();
            let typed = word.typed();
            let good = typed
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if fixing && good < typed.len() {
                (Op::Backspace, 0)
            } else if typed.len() >= target.len() {
                fixing = false;
                // A short breath between some words.
                let pause = if rng.below(10) == 0 { 2 * mean_gap } else { 0 };
                (Op::Char(' '), pause)
            } else {
                fixing = false;
                let want = target[typed.len()];
                if rng.below(100) >= accuracy(typist) {
                    fixing = fixes_all || rng.below(4) != 0;
                    let wrong = char::from(b'a' + rng.below(26) as u8);
                    (Op::Char(if wrong == want { 'q' } else { wrong }), 0)
                } else {
                    (Op::Char(want), 0)
                }
            }
        };
        if mode == Mode::Zen && t >= typist.zen_ms {
            round
                .apply(t, Op::End)
                .expect("ZEN takes End until it ends");
            break;
        }
        if round.is_over(t) || round.apply(t, op).is_err() {
            break;
        }
        // Noticing a mistake takes a moment longer than typing on.
        let react = if fixing && op != Op::Backspace {
            mean_gap
        } else {
            0
        };
        let gap = mean_gap * (60 + rng.below(81)) / 100;
        t = t.saturating_add(gap.max(1) + pause + react);
    }
    round.replay()
}

fn accuracy(typist: &Typist) -> u32 {
    typist.accuracy.min(100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthetic_rounds_play_to_about_the_asked_speed() {
        let typist = Typist {
            wpm: 90,
            accuracy: 97,
            ..Typist::default()
        };
        let replay = synth(Mode::BLITZ_60, 5, &typist);
        let (_, score) = replay.play().expect("a synthetic round plays");
        assert_eq!(score.duration_ms, 60_000);
        assert!((65..=95).contains(&score.wpm()), "{}", score.wpm());
        assert!(score.accuracy_x100 > 9300, "{}", score.accuracy_x100);
        assert_eq!(synth(Mode::BLITZ_60, 5, &typist), replay, "deterministic");
    }

    #[test]
    fn every_mode_ends() {
        let typist = Typist::default();
        for mode in [Mode::BLITZ_15, Mode::Zen, Mode::pursuit(10).unwrap()] {
            let (round, score) = synth(mode, 3, &typist).play().expect("plays");
            assert!(round.ends_at().is_some());
            assert!(score.words > 5, "{mode}: {score}");
        }
    }
}
