//! Rounds the load tools submit, typed by the engine's synth: each a real round with its
//! true claim, as the game would send it, so that the server verifies rather than refuses.

use anyhow::Result;
use typepper_engine::synth::{Typist, synth};
use typepper_engine::{Mode, Replay};

/// `replay`'s submission body: the round after the score it claims, which is what the
/// engine scores it (as the server checks).
pub fn submission(replay: &Replay) -> Result<Vec<u8>> {
    let (_, score) = replay
        .play()
        .map_err(|e| anyhow::anyhow!("a synthesized round does not play: {e}"))?;
    let bytes = replay.encode();
    Ok(typepper_api::submission([(
        score.headline().value,
        &bytes[..],
    )]))
}

/// One submission: a round of BLITZ 60s on `seed`.
pub fn body(seed: u64) -> Result<Vec<u8>> {
    body_in(Mode::BLITZ_60, seed)
}

/// One submission: a round of `mode` on `seed`. The typist's speed varies with the seed,
/// as a crowd's would.
pub fn body_in(mode: Mode, seed: u64) -> Result<Vec<u8>> {
    let typist = Typist {
        wpm: 50 + (seed % 80) as u32,
        accuracy: 94 + (seed % 6) as u32,
        seed,
        ..Typist::default()
    };
    submission(&synth(mode, seed, &typist))
}
