//! Any replay that decodes plays without panicking, the same way twice.
#![no_main]

use libfuzzer_sys::fuzz_target;
use typepper_engine::Replay;

fuzz_target!(|bytes: &[u8]| {
    let Ok(replay) = Replay::decode(bytes) else { return };
    let first = replay.play();
    if let Ok((round, score)) = &first {
        let end = round.ends_at().unwrap_or(0).min(u64::from(u32::MAX)) as u32;
        let _ = round.view(end).to_string();
        let _ = score.to_string();
    }
    assert_eq!(first.map(|(_, s)| s), replay.play().map(|(_, s)| s));
});
