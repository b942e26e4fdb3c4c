//! Property tests: round trips of any replay, and no input makes a decoder or a round panic.

use proptest::prelude::*;
use typepper_engine::{Input, Language, Mode, Op, Prose, Replay, Round, WordCount};

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        1 => Just(Op::Backspace),
        1 => Just(Op::End),
        4 => any::<char>().prop_map(Op::Char),
        8 => prop::sample::select(vec!['a', 'e', 't', 'o', ' ', 'é', 'я', 'A', '.']).prop_map(Op::Char),
    ]
}

fn replay() -> impl Strategy<Value = Replay> {
    let gaps = prop_oneof![0u32..200, 0u32..20_000, Just(u32::MAX / 1024)];
    (
        any::<u32>(),
        "\\PC{0,8}",
        any::<u64>(),
        prop::collection::vec((gaps, op()), 0..300),
    )
        .prop_map(|(engine, mode, seed, inputs)| Replay {
            engine,
            mode,
            seed,
            text: None,
            inputs: inputs
                .into_iter()
                .map(|(dt, op)| Input { dt, op })
                .collect(),
        })
}

/// Texts a CUSTOM TEXT round plays: words of letters, marks and emoji, single spaces.
fn text() -> impl Strategy<Value = String> {
    prop::collection::vec("[a-zA-Zéçя🌶.,—«»!?'-]{1,12}", 1..40).prop_map(|w| w.join(" "))
}

/// A CUSTOM TEXT replay: format 2.
fn custom_replay() -> impl Strategy<Value = Replay> {
    (replay(), text()).prop_map(|(r, text)| Replay {
        mode: "custom".into(),
        text: Some(text),
        ..r
    })
}

fn mode() -> impl Strategy<Value = Mode> {
    let base = prop_oneof![
        Just(Mode::BLITZ_15),
        Just(Mode::BLITZ_60),
        Just(Mode::ZEN),
        Just(Mode::words(WordCount::W10)),
        (1u8..=20).prop_map(|l| Mode::pursuit(l).unwrap()),
    ];
    let prose = (any::<bool>(), any::<bool>(), 0..Language::ALL.len()).prop_map(
        |(punctuation, numbers, l)| Prose {
            punctuation,
            numbers,
            language: Language::ALL[l],
        },
    );
    (base, prose).prop_map(|(mode, prose)| mode.with_prose(prose).unwrap())
}

proptest! {
    #[test]
    fn any_replay_round_trips(r in replay()) {
        let bytes = r.encode();
        prop_assert_eq!(bytes.len(), r.encoded_len());
        prop_assert_eq!(Replay::decode(&bytes), Ok(r.clone()));
        let text = r.to_string();
        prop_assert_eq!(text.parse::<Replay>(), Ok(r));
    }

    #[test]
    fn any_format_2_replay_round_trips(r in custom_replay()) {
        let bytes = r.encode();
        prop_assert_eq!(bytes[3], 2);
        prop_assert_eq!(bytes.len(), r.encoded_len());
        prop_assert_eq!(Replay::decode(&bytes), Ok(r.clone()));
        prop_assert_eq!(r.to_string().parse::<Replay>(), Ok(r));
    }

    #[test]
    fn any_custom_text_plays_without_panicking_and_the_same_twice(
        text in text(),
        seed in any::<u64>(),
        inputs in prop::collection::vec((0u32..400, op()), 0..300),
    ) {
        let mut a = Round::custom(&text, seed).unwrap();
        let mut t = 0u32;
        for (dt, op) in inputs {
            t += dt;
            let _ = a.apply(t, op);
            let _ = a.view(t).to_string();
        }
        match (a.score(), a.replay().play()) {
            (Some(sa), Ok((_, sb))) => prop_assert_eq!(sa, sb),
            (None, Err(_)) => {}
            (sa, sb) => prop_assert!(false, "{:?} vs {:?}", sa, sb.map(|(_, s)| s)),
        }
    }

    #[test]
    fn any_bytes_decode_or_refuse(
        bytes in prop::collection::vec(any::<u8>(), 0..200),
        magic in 0u8..3,
    ) {
        let mut bytes = bytes;
        if magic > 0 && bytes.len() >= 4 {
            bytes[..3].copy_from_slice(b"TPR");
            bytes[3] = magic;
        }
        // The format is canonical: whatever decodes re-encodes to the very same bytes.
        if let Ok(r) = Replay::decode(&bytes) {
            prop_assert_eq!(r.encode(), bytes.clone());
        }
        if let Ok((r, rest)) = Replay::decode_prefix(&bytes) {
            prop_assert!(rest.len() < bytes.len());
            prop_assert_eq!(&r.encode()[..], &bytes[..bytes.len() - rest.len()]);
        }
    }

    #[test]
    fn any_inputs_play_without_panicking_and_the_same_twice(
        mode in mode(),
        seed in any::<u64>(),
        inputs in prop::collection::vec((0u32..400, op()), 0..400),
    ) {
        let mut a = Round::new(mode, seed);
        let mut t = 0u32;
        for (dt, op) in inputs {
            t += dt;
            let _ = a.apply(t, op);
            let _ = a.view(t).to_string();
        }
        let replay = a.replay();
        let b = replay.play();
        match (a.score(), b) {
            (Some(sa), Ok((_, sb))) => prop_assert_eq!(sa, sb),
            (None, Err(_)) => {}
            (sa, sb) => prop_assert!(false, "{:?} vs {:?}", sa, sb.map(|(_, s)| s)),
        }
    }
}
