//! The crowd the timing checks are measured on: rounds of the synthetic typist, by
//! number (`examples/false_positives.rs`, and a test of a slice of it).

use typepper_engine::synth::{Typist, synth};
use typepper_engine::{Mode, Replay};
use typepper_server::submit::timing::Rhythm;

/// One round's rhythm, by its number: every other one is the load test's crowd
/// (`cargo xtask load`: BLITZ 60s, 50 to 129 wpm, 94 to 99 %), where the refusals this
/// measures were first seen.
pub fn round(n: u64) -> Option<Rhythm> {
    let modes = [Mode::BLITZ_15, Mode::BLITZ_30, Mode::BLITZ_60, Mode::ZEN];
    let (mode, typist, seed) = if n.is_multiple_of(2) {
        let typist = Typist {
            wpm: 20 + (n.wrapping_mul(7919) % 261) as u32,
            accuracy: 88 + (n.wrapping_mul(104_729) % 13) as u32,
            seed: n.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xa5a5,
            zen_ms: 20_000 + (n.wrapping_mul(31) % 70) as u32 * 1000,
        };
        (modes[(n / 2 % 4) as usize], typist, n ^ 0x5eed)
    } else {
        let typist = Typist {
            wpm: 50 + (n % 80) as u32,
            accuracy: 94 + (n % 6) as u32,
            seed: n,
            ..Typist::default()
        };
        (Mode::BLITZ_60, typist, n)
    };
    let replay: Replay = synth(mode, seed, &typist);
    let mut judged = vec![];
    replay
        .play_each(|t, _, fx| {
            if fx.judged.is_some() {
                judged.push(t);
            }
        })
        .ok()?;
    Rhythm::of(&judged)
}
