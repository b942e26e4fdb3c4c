//! Both decoders on any bytes: no panic, and whatever decodes re-encodes to the very bytes
//! it came from (the format is canonical).
#![no_main]

use libfuzzer_sys::fuzz_target;
use typepper_engine::{Header, Replay};

fuzz_target!(|bytes: &[u8]| {
    let _ = Header::peek(bytes);
    if let Ok(replay) = Replay::decode(bytes) {
        assert_eq!(replay.encode(), bytes);
    }
    let mut rest = bytes;
    while let Ok((replay, after)) = Replay::decode_prefix(rest) {
        assert!(after.len() < rest.len(), "decode_prefix must consume bytes");
        assert_eq!(replay.encode(), &rest[..rest.len() - after.len()]);
        rest = after;
    }
});
