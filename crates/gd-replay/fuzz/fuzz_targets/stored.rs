//! Strings as the game stores them: decoding never panics, whatever the text and whatever
//! the gzip bytes under the base64, and what decodes and parses writes back the same way.
#![no_main]

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE;
use gd_replay::Replay;
use gd_replay::stored::{Encoding, decode, encode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    // The bytes as text: plain, or base64 if they start `H4sI`.
    if let Ok(text) = std::str::from_utf8(bytes) {
        check(text);
    }
    // The bytes as the gzip stream itself, so the inflater sees everything the fuzzer
    // makes; bytes starting `1f 8b 08` encode to a string starting `H4sI`.
    check(&URL_SAFE.encode(bytes));
});

fn check(text: &str) {
    let Ok((plain, how)) = decode(text) else {
        return;
    };
    if how == Encoding::Plain {
        assert_eq!(plain, text, "a plain string came back changed");
        return;
    }
    let again = encode(&plain);
    let (back, how) = decode(&again).expect("what encode writes decodes");
    assert_eq!((back.as_ref(), how), (plain.as_ref(), Encoding::Base64Gzip));
    if let Ok(replay) = Replay::parse(&plain) {
        assert_eq!(replay.write(), plain, "write(parse(s)) != s");
    }
}
