//! A synthetic typist: plays a round's own text with a person's timing and mistakes.
//!
//! Benchmarks, load tests and browser tests need real rounds by the thousand, and the
//! server's bot checks need rounds a person would type to calibrate against. The typist
//! reads the round's view as a person reads the screen, so whatever the rules, what it
//! types is a plausible round; it is deterministic from its own seed.
//!
//! How it types, after what is known of people at keyboards:
//! 1. Gaps between keys are right-skewed: each is the typist's pace times a log-normal
//!    factor (σ = 0.3), so most keys come near the pace and a few come much later.
//! 2. Letter pairs differ: keys on alternating hands and common English pairs (`th`,
//!    `er`, …) come faster; two keys on one finger come slower (QWERTY fingering).
//! 3. A word's first letter takes a moment longer, and one word in ten ends in a pause.
//! 4. A slip hits a key next to the right one; most slips are noticed a moment later and
//!    backspaced (always in HOT PURSUIT, where a wrong word can't be left behind).
//!
//! Every number is an integer, like the rules, so that a synthetic round is the same on
//! every machine, native or wasm.

use crate::Mode;
use crate::replay::{Op, Replay};
use crate::rng::Rng;
use crate::round::Round;

/// How the synthetic typist types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Typist {
    /// Aimed speed in wpm; the round lands near it.
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

/// `1024 × e^(0.3 z)` at the midpoints of 64 equal-probability slices of the standard
/// normal: drawing one uniformly is drawing a log-normal factor with median 1 (mean
/// 1.045), without a float.
const LOG_NORMAL: [u32; 64] = [
    496, 564, 604, 633, 658, 680, 699, 717, 733, 749, 764, 778, 791, 805, 818, 830, 843, 855, 867,
    878, 890, 902, 913, 925, 936, 948, 959, 971, 983, 994, 1006, 1018, 1030, 1042, 1055, 1067,
    1080, 1093, 1106, 1120, 1134, 1148, 1163, 1178, 1194, 1210, 1227, 1245, 1263, 1282, 1303, 1325,
    1348, 1373, 1400, 1430, 1463, 1500, 1543, 1593, 1655, 1737, 1859, 2115,
];

/// The letter rows of a QWERTY keyboard, each row shifted right of the one above.
const ROWS: [&[u8]; 3] = [b"qwertyuiop", b"asdfghjkl", b"zxcvbnm"];

/// The commonest letter pairs of English text, typed as one movement.
const COMMON_PAIRS: [&[u8; 2]; 40] = [
    b"th", b"he", b"in", b"er", b"an", b"re", b"on", b"at", b"en", b"nd", b"ti", b"es", b"or",
    b"te", b"of", b"ed", b"is", b"it", b"al", b"ar", b"st", b"to", b"nt", b"ng", b"se", b"ha",
    b"as", b"ou", b"io", b"le", b"ve", b"co", b"me", b"de", b"hi", b"ri", b"ro", b"ic", b"ne",
    b"ea",
];

/// Plays a round of `mode` and `seed` as `typist` would and returns its replay.
///
/// # Panics
/// As [`Round::new`] does: for CUSTOM TEXT, whose text [`synth_on`] takes.
pub fn synth(mode: Mode, seed: u64, typist: &Typist) -> Replay {
    synth_on(Round::new(mode, seed), typist)
}

/// Plays `round` (fresh: a [`Round::custom`] one, say) as `typist` would and returns its
/// replay.
pub fn synth_on(round: Round, typist: &Typist) -> Replay {
    let mut rng = Rng::new(typist.seed);
    let mut round = round;
    let mode = round.mode();
    // The pace is in sixteenths of a ms, so that fast typists aren't rounded off. A slip
    // costs about four keystrokes' time (the slip, noticing it, the backspace, the right
    // key again), and the pair, first-letter, pause and log-normal factors come to about
    // the pace itself: so the round lands near `wpm` (12,000 ms a minute ÷ 5 characters a
    // word). Measured: within 3 % from 20 to 280 wpm at 88 to 100 % accuracy.
    let slips = 100 - accuracy(typist);
    let pace16 = 19_200_000 / (typist.wpm.max(1) * (99 + 4 * slips));
    let pace = pace16 / 16;
    // Mistakes left in HOT PURSUIT would stall the word forever: always fix them there.
    // Without a backspace (`/b`) none is fixed; stopped on an error (`/s`), a slip isn't
    // typed, and the right key follows.
    let fixes_all = mode.is_pursuit();
    let fixes_any = !mode.strict().no_backspace;
    let mut fixing = false;
    let mut prev = b' ';
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
                .take_while(|&(a, b)| a == b)
                .count();
            if fixing && good < typed.len() {
                (Op::Backspace, 0)
            } else if typed.len() >= target.len() {
                fixing = false;
                // A short breath between some words.
                let pause = if rng.below(10) == 0 {
                    pace * (1 + rng.below(3))
                } else {
                    0
                };
                (Op::Char(' '), pause)
            } else {
                fixing = false;
                let want = target[typed.len()];
                if rng.below(100) >= accuracy(typist) {
                    fixing = fixes_any && (fixes_all || rng.below(4) != 0);
                    (Op::Char(slip(want, &mut rng)), 0)
                } else {
                    (Op::Char(want), 0)
                }
            }
        };
        if mode.is_zen() && t >= typist.zen_ms {
            round
                .apply(t, Op::End)
                .expect("ZEN takes End until it ends");
            break;
        }
        if round.is_over(t) || round.apply(t, op).is_err() {
            break;
        }
        let next = match op {
            Op::Char(c) => u8::try_from(c).unwrap_or(b'?'),
            _ => 0,
        };
        // Noticing a mistake takes a moment longer than typing on.
        let react = if fixing && op != Op::Backspace {
            pace * (2 + rng.below(3)) / 2
        } else {
            0
        };
        let factor = LOG_NORMAL[rng.below(64) as usize];
        let gap = pace16 * pair_percent(prev, next) / 100 * factor / (1024 * 16);
        t = t.saturating_add(gap.max(1) + pause + react);
        prev = next;
    }
    round.replay()
}

fn accuracy(typist: &Typist) -> u32 {
    typist.accuracy.min(100)
}

/// Where each row starts, in quarter keys: each row sits a quarter and then a half key
/// right of the one above.
const ROW_SHIFT: [i32; 3] = [0, 1, 3];

/// A letter's row, and its column in quarter keys.
fn place(key: u8) -> Option<(usize, i32)> {
    ROWS.iter().enumerate().find_map(|(row, keys)| {
        let col = keys.iter().position(|&k| k == key)?;
        Some((row, 4 * col as i32 + ROW_SHIFT[row]))
    })
}

/// The finger that types a letter: 0–3 the left hand's pinky to index, 4–7 the right
/// hand's index to pinky, as touch typists are taught.
fn finger(key: u8) -> Option<u8> {
    let (row, quarter) = place(key)?;
    let col = (quarter - ROW_SHIFT[row]) / 4;
    Some(match col {
        0 => 0,
        1 => 1,
        2 => 2,
        3 | 4 => 3,
        5 | 6 => 4,
        7 => 5,
        8 => 6,
        _ => 7,
    })
}

/// How long `next` takes after `prev`, in percent of the typist's pace.
fn pair_percent(prev: u8, next: u8) -> u32 {
    if prev == b' ' || next == b' ' {
        // The thumb is free: the space comes quickly, the word's first letter less so.
        return if next == b' ' { 90 } else { 115 };
    }
    let base = match (finger(prev), finger(next)) {
        _ if prev == next => 100,
        (Some(a), Some(b)) if a == b => 130,
        (Some(a), Some(b)) if (a < 4) != (b < 4) => 85,
        _ => 100,
    };
    if COMMON_PAIRS.contains(&&[prev, next]) {
        base * 85 / 100
    } else {
        base
    }
}

/// What a slipping finger types for `want`: a key next to it on QWERTY, or for a letter
/// off those rows (é, я) the letter after it in Unicode, mostly its alphabet's next.
fn slip(want: char, rng: &mut Rng) -> char {
    match u8::try_from(want) {
        Ok(key) if key.is_ascii() => char::from(neighbour(key, rng)),
        _ => char::from_u32(u32::from(want) + 1).unwrap_or('?'),
    }
}

/// A key next to `want`: what a slipping finger hits. Letters off the keyboard's rows
/// slip to a letter drawn at random.
fn neighbour(want: u8, rng: &mut Rng) -> u8 {
    let Some((row, quarter)) = place(want) else {
        return b'a' + rng.below(26) as u8;
    };
    let mut near = [0u8; 8];
    let mut n = 0;
    for (r, keys) in ROWS
        .iter()
        .enumerate()
        .filter(|(r, _)| r.abs_diff(row) <= 1)
    {
        // Beside it on its own row, or touching it on the row above or below.
        let reach = if r == row { 4 } else { 3 };
        for (col, &k) in keys.iter().enumerate() {
            let q = 4 * col as i32 + ROW_SHIFT[r];
            if k != want && (q - quarter).abs() <= reach && n < near.len() {
                near[n] = k;
                n += 1;
            }
        }
    }
    // Every letter of the rows has a neighbour, so `n` is at least 1.
    near[rng.below(n as u32) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthetic_rounds_play_to_about_the_asked_speed() {
        for wpm in [30, 90, 150, 220] {
            let typist = Typist {
                wpm,
                accuracy: 97,
                ..Typist::default()
            };
            let replay = synth(Mode::BLITZ_60, 5, &typist);
            let (_, score) = replay.play().expect("a synthetic round plays");
            assert_eq!(score.duration_ms, 60_000);
            let got = score.wpm();
            assert!(
                got * 100 >= wpm * 80 && got * 100 <= wpm * 110,
                "asked {wpm}, typed {got}"
            );
            assert!(score.accuracy_x100 > 9300, "{}", score.accuracy_x100);
            assert_eq!(synth(Mode::BLITZ_60, 5, &typist), replay, "deterministic");
        }
    }

    #[test]
    fn every_mode_ends() {
        let typist = Typist::default();
        for mode in [Mode::BLITZ_15, Mode::ZEN, Mode::pursuit(10).unwrap()] {
            let (round, score) = synth(mode, 3, &typist).play().expect("plays");
            assert!(round.ends_at().is_some());
            assert!(score.words > 5, "{mode}: {score}");
        }
    }

    #[test]
    fn slips_land_on_neighbouring_keys() {
        let mut rng = Rng::new(9);
        for _ in 0..200 {
            assert!(b"qwsz".contains(&neighbour(b'a', &mut rng)));
            assert!(b"rygf".contains(&neighbour(b't', &mut rng)));
            assert!(b"bhjm".contains(&neighbour(b'n', &mut rng)));
        }
    }

    #[test]
    fn pairs_follow_the_hands() {
        // t-h: alternating hands, and common.
        assert!(pair_percent(b't', b'h') < pair_percent(b'd', b'f'));
        // d-e: one finger, two keys.
        assert!(pair_percent(b'd', b'e') > pair_percent(b'd', b'f'));
        assert_eq!(finger(b'a'), Some(0));
        assert_eq!(finger(b'g'), Some(3));
        assert_eq!(finger(b'y'), Some(4));
        assert_eq!(finger(b'p'), Some(7));
    }
}
