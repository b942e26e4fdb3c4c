//! Replay format 1, held to its bytes, as `docs/spec/replays.md` specifies it.

use typepper_engine::{DecodeError, Header, Input, MAX_BYTES, Op, Replay};

/// The example of `docs/spec/replays.md`: BLITZ 15s, h, i 130 ms later, a backspace 95 ms after that.
fn example() -> Replay {
    Replay {
        engine: 1,
        mode: "time:15".into(),
        seed: 0x0102_0304_0506_0708,
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

    let mut b = EXAMPLE.to_vec();
    b[3] = 2;
    assert_eq!(Replay::decode(&b), Err(DecodeError::Format(2)));

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
