//! What a golden scenario's expected file holds, computed one way for the native test
//! (`golden.rs`) and the wasm one (`tests/wasm.rs`), which both include this file.

use typepper_engine::Replay;

/// What a replay plays out to, as text: the final view, then the score.
pub fn outcome(replay: &Replay) -> String {
    match replay.play() {
        Ok((round, score)) => {
            let end = round.ends_at().unwrap_or(0) as u32;
            format!("{}\n{score}", round.view(end))
        }
        Err(e) => format!("refused: {e}\n"),
    }
}
