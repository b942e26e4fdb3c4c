//! Replay formats 1 and 2, held to their bytes, as `docs/spec/replays.md` specifies them.

use typepper_engine::{
    DecodeError, Header, Input, MAX_BYTES, MAX_TEXT_CHARS, Op, PlayError, Replay, TextFault,
};

/// The example of `docs/spec/replays.md`: BLITZ 15s, h, i 130 ms later, a backspace 95 ms after that.
fn example() -> Replay {
    Replay {
        engine: 1,
        mode: "time:15".into(),
        seed: 0x0102_0304_0506_0708,
        text: None,
        inputs: vec![
            Input {
                dt: 0,
                op: Op::Char('h'),
            },
            Input {
                dt: 130,
                op: Op::Char('i'),
            },
            Input {
                dt: 95,
                op: Op::Backspace,
            },
        ],
    }
}

/// The spec's listing, byte for byte. Its prose says 35 bytes; its own listing is 32,
/// and the listing is the truth.
const EXAMPLE: [u8; 32] = [
    0x54, 0x50, 0x52, // "TPR"
    0x01, // format 1
    0x01, 0x00, 0x00, 0x00, // engine 1
    0x07, 0x74, 0x69, 0x6d, 0x65, 0x3a, 0x31, 0x35, // "time:15"
    0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, // seed
    0x03, // 3 inputs
    0x00, 0x6a, // +0 ms 'h'
    0x82, 0x01, 0x6b, // +130 ms 'i'
    0x5f, 0x00, // +95 ms Backspace
];

#[test]
fn format_1_bytes_are_these() {
    assert_eq!(example().encode(), EXAMPLE);
    assert_eq!(example().encoded_len(), EXAMPLE.len());
    assert_eq!(Replay::decode(&EXAMPLE), Ok(example()));
}

#[test]
fn the_header_reads_without_the_inputs() {
    let h = Header::peek(&EXAMPLE[..24]).unwrap();
    assert_eq!(
        (h.engine, h.mode, h.seed, h.len),
        (1, "time:15", 0x0102_0304_0506_0708, 24)
    );
}

fn round_trip(replay: &Replay) {
    let bytes = replay.encode();
    assert_eq!(bytes.len(), replay.encoded_len());
    assert_eq!(Replay::decode(&bytes).as_ref(), Ok(replay));
}

#[test]
fn round_trips_long_gaps_and_any_character() {
    let mut r = example();
    r.inputs = vec![
        Input {
            dt: 127,
            op: Op::Char('é'),
        },
        Input {
            dt: 128,
            op: Op::Char('🌶'),
        },
        Input {
            dt: 16_383,
            op: Op::Char(' '),
        },
        Input {
            dt: 16_384,
            op: Op::End,
        },
        Input {
            dt: 3_600_000,
            op: Op::Char(char::MAX),
        },
    ];
    round_trip(&r);
    r.inputs = vec![Input {
        dt: u32::MAX,
        op: Op::Char('x'),
    }];
    round_trip(&r);
    r.inputs = vec![
        Input {
            dt: u32::MAX - 5,
            op: Op::Char('x'),
        },
        Input { dt: 5, op: Op::End },
    ];
    round_trip(&r);
    r.inputs.clear();
    r.mode = "pursuit:20".into();
    round_trip(&r);
    r.mode = "x".repeat(32);
    round_trip(&r);
}

#[test]
fn printable_ascii_is_one_byte_and_gaps_under_16_s_two() {
    let mut r = example();
    let base = r.encoded_len() - 7;
    r.inputs = vec![Input {
        dt: 16_383,
        op: Op::Char('~'),
    }];
    assert_eq!(r.encoded_len(), base + 1 + 2 + 1);
}

#[test]
fn every_truncation_point_is_truncated() {
    let mut long = example();
    long.inputs.push(Input {
        dt: 20_000,
        op: Op::Char('🌶'),
    });
    let bytes = long.encode();
    for cut in 0..bytes.len() {
        assert_eq!(
            Replay::decode(&bytes[..cut]),
            Err(DecodeError::Truncated),
            "cut at {cut} of {}",
            bytes.len()
        );
        assert_eq!(
            Replay::decode_prefix(&bytes[..cut]).map(|_| ()),
            Err(DecodeError::Truncated)
        );
    }
}

#[test]
fn each_refusal_is_its_kind() {
    let mut b = EXAMPLE.to_vec();
    b[0] = b'X';
    assert_eq!(Replay::decode(&b), Err(DecodeError::NotAReplay));
    assert_eq!(Replay::decode(b"GIF89a"), Err(DecodeError::NotAReplay));
    assert_eq!(Replay::decode(b"T"), Err(DecodeError::Truncated));

    for format in [0, 3, 0xff] {
        let mut b = EXAMPLE.to_vec();
        b[3] = format;
        assert_eq!(Replay::decode(&b), Err(DecodeError::Format(format)));
    }

    let mut b = EXAMPLE.to_vec();
    b[8] = 33;
    assert_eq!(Replay::decode(&b), Err(DecodeError::Mode));
    let mut b = EXAMPLE.to_vec();
    b[9] = 0xff;
    assert_eq!(Replay::decode(&b), Err(DecodeError::Mode));

    // 'h' (0x6a) becomes a surrogate, U+D800 + 2 = 0xd802, as a varint.
    let mut b = EXAMPLE[..25].to_vec();
    b.extend([0x00, 0x82, 0xb0, 0x03, 0x82, 0x01, 0x6b, 0x5f, 0x00]);
    assert_eq!(Replay::decode(&b), Err(DecodeError::Char));

    let mut b = EXAMPLE.to_vec();
    b.push(0);
    assert_eq!(Replay::decode(&b), Err(DecodeError::Leftover));

    // Two gaps of u32::MAX / 2 + 1 run past u32.
    let half = [0x80, 0x80, 0x80, 0x80, 0x08];
    let mut b = EXAMPLE[..24].to_vec();
    b.push(2);
    b.extend(half);
    b.push(0x6a);
    b.extend(half);
    b.push(0x6a);
    assert_eq!(Replay::decode(&b), Err(DecodeError::Clock));
    // A single gap past u32.
    let mut b = EXAMPLE[..24].to_vec();
    b.extend([1, 0x80, 0x80, 0x80, 0x80, 0x10, 0x6a]);
    assert_eq!(Replay::decode(&b), Err(DecodeError::Clock));
}

/// The copy attack: a stored run fetched back and one of its varints spelled longer, so
/// that its bytes (and their hash) are new while the round is the same.
#[test]
fn an_overlong_varint_is_refused_as_overlong() {
    // The first input's Δ, `00`, as `80 00`.
    let mut b = EXAMPLE[..25].to_vec();
    b.extend([0x80, 0x00, 0x6a, 0x82, 0x01, 0x6b, 0x5f, 0x00]);
    assert_eq!(Replay::decode(&b), Err(DecodeError::Overlong));
    assert_eq!(
        Replay::decode_prefix(&b).map(|_| ()),
        Err(DecodeError::Overlong)
    );
    // 130 ms as `82 81 00`, three bytes for two.
    let mut b = EXAMPLE[..27].to_vec();
    b.extend([0x82, 0x81, 0x00, 0x6b, 0x5f, 0x00]);
    assert_eq!(Replay::decode(&b), Err(DecodeError::Overlong));
    // An op: 'h' (0x6a) as `ea 00`.
    let mut b = EXAMPLE[..25].to_vec();
    b.extend([0x00, 0xea, 0x00, 0x82, 0x01, 0x6b, 0x5f, 0x00]);
    assert_eq!(Replay::decode(&b), Err(DecodeError::Overlong));
    // The count: 3 as `83 00`.
    let mut b = EXAMPLE[..24].to_vec();
    b.extend([0x83, 0x00]);
    b.extend(&EXAMPLE[25..]);
    assert_eq!(Replay::decode(&b), Err(DecodeError::Overlong));
    assert_eq!(DecodeError::Overlong.kind(), "Overlong");
    // The game's own bytes are untouched: every one of them is the shortest form.
    assert_eq!(Replay::decode(&EXAMPLE), Ok(example()));
}

#[test]
fn a_count_past_the_bytes_is_refused_before_allocating() {
    let mut b = EXAMPLE[..24].to_vec();
    // count = u64::MAX: no allocation could hold it, and none is attempted.
    b.extend([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    b.extend([0x00, 0x6a]);
    assert_eq!(Replay::decode(&b), Err(DecodeError::Truncated));
    // A count with an eleventh varint byte is past 64 bits.
    let mut b = EXAMPLE[..24].to_vec();
    b.extend([0xff; 10]);
    b.push(0x01);
    assert_eq!(Replay::decode(&b), Err(DecodeError::Truncated));
}

#[test]
fn too_big_is_refused_by_both_decoders() {
    let mut b = EXAMPLE.to_vec();
    b.resize(MAX_BYTES + 1, 0);
    assert_eq!(Replay::decode(&b), Err(DecodeError::TooBig));
    // Format 2's too: the size is read before the format byte.
    let mut b = EXAMPLE_2.to_vec();
    b.resize(MAX_BYTES + 1, 0);
    assert_eq!(Replay::decode(&b), Err(DecodeError::TooBig));
    // A replay whose inputs run past MAX_BYTES in a longer stream.
    let mut r = example();
    r.inputs = vec![
        Input {
            dt: 1,
            op: Op::Char('a')
        };
        MAX_BYTES / 2
    ];
    let big = r.encode();
    assert!(big.len() > MAX_BYTES);
    assert_eq!(
        Replay::decode_prefix(&big).map(|_| ()),
        Err(DecodeError::TooBig)
    );
    // Exactly MAX_BYTES is fine.
    let header = r.encoded_len() - r.inputs.len() * 2;
    r.inputs.truncate((MAX_BYTES - header - 1) / 2);
    let fits = r.encode();
    assert!(fits.len() <= MAX_BYTES, "{}", fits.len());
    assert_eq!(
        Replay::decode(&fits).map(|r| r.inputs.len()),
        Ok(r.inputs.len())
    );
}

#[test]
fn two_replays_read_off_one_stream() {
    let mut second = example();
    second.mode = "zen".into();
    second.inputs.push(Input { dt: 7, op: Op::End });
    let mut stream = example().encode();
    second.encode_into(&mut stream);
    let (a, rest) = Replay::decode_prefix(&stream).unwrap();
    let (b, rest) = Replay::decode_prefix(rest).unwrap();
    assert_eq!((a, b), (example(), second));
    assert!(rest.is_empty());
    assert_eq!(Replay::decode(&stream), Err(DecodeError::Leftover));
}

#[test]
fn junk_is_refused_without_panicking() {
    // A cheap deterministic junk stream; the fuzz target and proptest go further.
    let mut x: u32 = 0x1234_5678;
    for len in 0..400 {
        let mut b: Vec<u8> = (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x as u8
            })
            .collect();
        let _ = Replay::decode(&b);
        if b.len() > 3 {
            b[..4].copy_from_slice(b"TPR\x01");
            let _ = Replay::decode(&b);
            let _ = Replay::decode_prefix(&b);
        }
    }
}

/// The spec's format 2 example: CUSTOM TEXT on "Ça va — oui." (an accent, an em dash),
/// `Ç`, then `a` 150 ms later, then a backspace 95 ms after that.
fn example_2() -> Replay {
    Replay {
        mode: "custom".into(),
        text: Some("Ça va — oui.".into()),
        inputs: vec![
            Input {
                dt: 0,
                op: Op::Char('Ç'),
            },
            Input {
                dt: 150,
                op: Op::Char('a'),
            },
            Input {
                dt: 95,
                op: Op::Backspace,
            },
        ],
        ..example()
    }
}

const EXAMPLE_2: [u8; 48] = [
    0x54, 0x50, 0x52, // "TPR"
    0x02, // format 2
    0x01, 0x00, 0x00, 0x00, // engine 1
    0x06, 0x63, 0x75, 0x73, 0x74, 0x6f, 0x6d, // "custom"
    0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, // seed
    0x0f, // the text: 15 bytes
    0xc3, 0x87, 0x61, 0x20, 0x76, 0x61, 0x20, // "Ça va "
    0xe2, 0x80, 0x94, 0x20, 0x6f, 0x75, 0x69, 0x2e, // "— oui."
    0x03, // 3 inputs
    0x00, 0xc9, 0x01, // +0 ms 'Ç' (U+00C7 + 2 = 201)
    0x96, 0x01, 0x63, // +150 ms 'a'
    0x5f, 0x00, // +95 ms Backspace
];

#[test]
fn format_2_bytes_are_these() {
    assert_eq!(example_2().encode(), EXAMPLE_2);
    assert_eq!(example_2().encoded_len(), EXAMPLE_2.len());
    assert_eq!(Replay::decode(&EXAMPLE_2), Ok(example_2()));
    // Format 1's example is what it always was: a replay without a text is format 1.
    assert_eq!(example().encode(), EXAMPLE);
    let h = Header::peek(&EXAMPLE_2[..23]).unwrap();
    assert_eq!(
        (h.format, h.engine, h.mode, h.seed, h.len),
        (2, 1, "custom", 0x0102_0304_0506_0708, 23)
    );
    assert_eq!(Header::peek(&EXAMPLE).unwrap().format, 1);
}

/// A build that reads format 1 only checked the byte after `TPR` before anything else, as
/// this one does for the formats it doesn't have: format 2 reaches such a build as
/// `Format(2)`, never as a format 1 replay read wrong. Its magic and format byte are
/// where format 1 has them.
#[test]
fn a_format_1_reader_refuses_format_2_as_format_2() {
    assert_eq!(EXAMPLE_2[..3], EXAMPLE[..3]);
    assert_eq!(EXAMPLE_2[3], 2);
    let format_1_reader = |b: &[u8]| match b.get(3) {
        Some(1) => Replay::decode(b),
        Some(&n) => Err(DecodeError::Format(n)),
        None => Err(DecodeError::Truncated),
    };
    assert_eq!(format_1_reader(&EXAMPLE_2), Err(DecodeError::Format(2)));
    assert_eq!(
        DecodeError::Format(2).to_string(),
        "replay format 2; this build reads formats 1 and 2"
    );
}

#[test]
fn every_truncation_point_of_format_2_is_truncated() {
    let bytes = example_2().encode();
    for cut in 0..bytes.len() {
        assert_eq!(
            Replay::decode(&bytes[..cut]),
            Err(DecodeError::Truncated),
            "cut at {cut} of {}",
            bytes.len()
        );
        assert_eq!(
            Replay::decode_prefix(&bytes[..cut]).map(|_| ()),
            Err(DecodeError::Truncated),
            "cut at {cut}"
        );
    }
}

/// EXAMPLE_2 with `text` in place of its text.
fn with_text(text: &[u8]) -> Vec<u8> {
    let mut b = EXAMPLE_2[..23].to_vec();
    let mut n = text.len();
    while n >= 0x80 {
        b.push((n as u8) | 0x80);
        n >>= 7;
    }
    b.push(n as u8);
    b.extend(text);
    b.extend(&EXAMPLE_2[39..]);
    b
}

#[test]
fn each_refusal_of_a_text_is_its_kind() {
    let text = |fault| Err(DecodeError::Text(fault));
    assert_eq!(
        Replay::decode(&with_text(b"\xff\xfe")),
        text(TextFault::NotUtf8)
    );
    assert_eq!(Replay::decode(&with_text(b"")), text(TextFault::Empty));
    assert_eq!(
        Replay::decode(&with_text(b"a\tb")),
        text(TextFault::Unseen('\t'))
    );
    assert_eq!(
        Replay::decode(&with_text(b"a\nb")),
        text(TextFault::Unseen('\n'))
    );
    assert_eq!(
        Replay::decode(&with_text("a\u{200b}b".as_bytes())),
        text(TextFault::Unseen('\u{200b}'))
    );
    // A right-to-left override would make a page show other words than were typed.
    assert_eq!(
        Replay::decode(&with_text("gnp\u{202e}.exe".as_bytes())),
        text(TextFault::Unseen('\u{202e}'))
    );
    for spaced in ["a  b", " a", "a ", "a\u{a0}b", "a\u{3000}b"] {
        assert_eq!(
            Replay::decode(&with_text(spaced.as_bytes())),
            text(TextFault::Spacing),
            "{spaced:?}"
        );
    }
    // 10,000 characters are a text; 10,001 are not.
    let most = "é".repeat(MAX_TEXT_CHARS);
    assert!(Replay::decode(&with_text(most.as_bytes())).is_ok());
    let over = "é".repeat(MAX_TEXT_CHARS + 1);
    assert_eq!(
        Replay::decode(&with_text(over.as_bytes())),
        text(TextFault::TooLong)
    );
    // A length past what 10,000 characters could take is refused before its bytes are
    // read, whatever follows.
    let mut b = EXAMPLE_2[..23].to_vec();
    b.extend([0xc1, 0xb8, 0x02]); // 40,001
    assert_eq!(Replay::decode(&b), text(TextFault::TooLong));
    let mut b = EXAMPLE_2[..23].to_vec();
    b.extend([0xff; 10]);
    b.push(0x01);
    assert_eq!(Replay::decode(&b), text(TextFault::TooLong));
    // The text's length spelled long is the copy attack again.
    let mut b = EXAMPLE_2[..23].to_vec();
    b.extend([0x8f, 0x00]);
    b.extend(&EXAMPLE_2[24..]);
    assert_eq!(Replay::decode(&b), Err(DecodeError::Overlong));
    // Bytes after the last input, and a text longer than its bytes.
    let mut b = EXAMPLE_2.to_vec();
    b.push(0);
    assert_eq!(Replay::decode(&b), Err(DecodeError::Leftover));
    let mut b = EXAMPLE_2.to_vec();
    b[23] = 0x7f;
    assert_eq!(Replay::decode(&b), Err(DecodeError::Truncated));
    assert_eq!(DecodeError::Text(TextFault::Empty).kind(), "Text");
}

#[test]
fn format_2_round_trips_any_text_a_round_plays() {
    for text in [
        "x",
        "Ça va — oui.",
        "Съешь же ещё этих мягких французских булок.",
        "🌶 hot 🌶",
        "a\u{301}",
        "word ".repeat(1_999).trim_end(),
    ] {
        let mut r = example_2();
        r.text = Some(text.to_owned());
        round_trip(&r);
        let read: Replay = r.to_string().parse().unwrap();
        assert_eq!(read, r, "{text:?}");
    }
}

#[test]
fn a_text_plays_only_as_custom_text_and_custom_text_only_with_one() {
    let round = example_2().setup().unwrap();
    // Ça, va, — and oui.: a dash between spaces is a word.
    assert_eq!(round.word_count(), Some(4));
    assert_eq!(round.custom_text(), Some("Ça va — oui."));
    let mut r = example_2();
    r.text = None;
    assert_eq!(r.setup().map(|_| ()), Err(PlayError::NoText));
    let mut r = example();
    r.text = Some("hello".into());
    assert_eq!(r.setup().map(|_| ()), Err(PlayError::NotCustom));
    // A replay made by hand with a text no decoder would read is refused as it plays.
    let mut r = example_2();
    r.text = Some("two  spaces".into());
    assert_eq!(
        r.setup().map(|_| ()),
        Err(PlayError::Text(TextFault::Spacing))
    );
}
