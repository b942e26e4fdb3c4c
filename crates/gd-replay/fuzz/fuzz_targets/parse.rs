//! The parser never panics, and whatever it accepts it writes back byte for byte.
#![no_main]

use gd_replay::{ItemPersData, Replay};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let parsed = Replay::parse_bytes(bytes);
    let Ok(text) = std::str::from_utf8(bytes) else {
        assert!(parsed.is_err(), "accepted bytes that are not UTF-8");
        return;
    };
    assert_eq!(
        parsed,
        Replay::parse(text),
        "parse_bytes and parse disagree"
    );
    if let Ok(replay) = parsed {
        assert_eq!(replay.write(), text, "write(parse(s)) != s");
        assert_eq!(Replay::parse(&replay.write()), Ok(replay));
    }
    if let Ok(data) = text.parse::<ItemPersData>() {
        assert_eq!(data.to_string(), text, "item pers data did not write back");
    }
});
