//! Strings as the game stores them: every example of the table through base64-gzip and
//! back, and every way the encoded form can be broken.

use std::borrow::Cow;
use std::io::Write as _;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE;
use gd_replay::Replay;
use gd_replay::stored::{Encoding, MAX_INFLATED, StoredError, decode, encode};

use super::table;

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(bytes).expect("a Vec takes any bytes");
    z.finish().expect("a Vec takes any bytes")
}

#[test]
fn every_example_reads_the_same_plain_and_encoded() {
    for (what, text, model) in table::replays() {
        let encoded = encode(&text);
        assert!(encoded.starts_with("H4sI"), "{what}: {encoded}");
        let (plain, how) = decode(&encoded).expect("what encode writes decodes");
        assert_eq!(
            (plain.as_ref(), how),
            (text.as_str(), Encoding::Base64Gzip),
            "{what}"
        );
        assert_eq!(Replay::parse(&plain), Ok(model.clone()), "{what}");
        // And the plain string is itself, untouched.
        assert_eq!(
            decode(&text).expect("a plain string passes"),
            (Cow::Borrowed(text.as_str()), Encoding::Plain),
            "{what}"
        );
    }
}

#[test]
fn a_stream_cut_anywhere_is_refused_and_never_panics() {
    let (_, text, _) = &table::replays()[1];
    let whole = gzip(text.as_bytes());
    for cut in 3..whole.len() {
        let encoded = URL_SAFE.encode(&whole[..cut]);
        let err = decode(&encoded).unwrap_err();
        assert!(matches!(err, StoredError::Gzip(_)), "cut at {cut}: {err:?}");
    }
    // Cut inside the base64 rather than the bytes: a length no bytes encode to, or a
    // gzip stream cut short.
    let encoded = encode(text);
    for cut in 4..encoded.len() {
        let err = decode(&encoded[..cut]).unwrap_err();
        if cut % 4 == 1 {
            assert_eq!(err, StoredError::Base64Length { len: cut });
        } else {
            assert!(matches!(err, StoredError::Gzip(_)), "cut at {cut}: {err:?}");
        }
    }
}

#[test]
fn junk_in_the_base64_is_refused_at_its_offset() {
    let encoded = encode("0;1#1,1,22,47,1,");
    for (at, junk) in [(4, '*'), (10, ' '), (encoded.len() - 3, '\n'), (6, 'é')] {
        let mut bad = encoded.clone();
        bad.insert(at, junk);
        let err = decode(&bad).unwrap_err();
        let StoredError::Base64 { offset, .. } = err else {
            panic!("{junk:?} at {at}: {err:?}")
        };
        assert_eq!(offset, at, "{junk:?}");
        assert!(
            err.to_string()
                .starts_with(&format!("not base64 at byte {at}"))
        );
    }
    // Padding in the middle.
    let mut bad = encoded.clone();
    bad.insert_str(8, "==");
    assert!(matches!(
        decode(&bad),
        Err(StoredError::Base64 { byte: b'=', .. })
    ));
}

#[test]
fn what_a_gzip_stream_hides_is_refused_too() {
    // A checksum that doesn't match: one byte of the deflate data changed.
    let mut bytes = gzip(b"0;1#1,1,22,47,1,");
    let last = bytes.len() - 9;
    bytes[last] ^= 0x01;
    assert!(matches!(
        decode(&URL_SAFE.encode(&bytes)),
        Err(StoredError::Gzip(_))
    ));
    // Bytes after the stream.
    let mut bytes = gzip(b"0;1#1,1,22,47,1,");
    bytes.extend(b"junk");
    assert_eq!(
        decode(&URL_SAFE.encode(&bytes)),
        Err(StoredError::Trailing { bytes: 4 })
    );
    // Bytes that aren't text.
    let bytes = gzip(b"0;1\xff#");
    assert_eq!(
        decode(&URL_SAFE.encode(&bytes)),
        Err(StoredError::NotText { offset: 3 })
    );
    // A small stream that inflates past the bound.
    let bomb = gzip(&vec![b'0'; MAX_INFLATED + 1]);
    assert!(bomb.len() < MAX_INFLATED / 100, "{}", bomb.len());
    assert_eq!(decode(&URL_SAFE.encode(&bomb)), Err(StoredError::TooBig));
}

proptest::proptest! {
    #[test]
    fn any_text_round_trips_through_the_stored_form(text in "\\PC*") {
        let encoded = encode(&text);
        let (plain, how) = decode(&encoded).expect("what encode writes decodes");
        proptest::prop_assert_eq!((plain.as_ref(), how), (text.as_str(), Encoding::Base64Gzip));
    }

    #[test]
    fn anything_after_the_prefix_decodes_or_refuses(rest in "[A-Za-z0-9_=+/-]{0,64}") {
        let _ = decode(&format!("H4sI{rest}"));
    }
}
