//! Property tests: any model writes a string that parses back to it, and no string makes
//! the parser panic or read something it can't write back.

use gd_replay::{
    Checkpoint, CheckpointData, CheckpointKind, Decimal, Input, Int, ItemPersData, Key, KeyInput,
    Metadata, PersItem, PersTimer, Remaps, Replay, TimerData, Uint,
};
use proptest::prelude::*;

fn zeros() -> impl Strategy<Value = u32> {
    prop_oneof![8 => Just(0u32), 1 => 1u32..4]
}

fn int() -> impl Strategy<Value = Int> {
    let value = prop_oneof![-5i64..100, any::<i64>(), Just(i64::MIN), Just(i64::MAX)];
    (value, zeros(), prop::bool::weighted(0.05)).prop_map(|(v, z, minus_zero)| {
        if minus_zero {
            Int::MINUS_ZERO.with_zeros(z)
        } else {
            Int::new(v).with_zeros(z)
        }
    })
}

fn uint() -> impl Strategy<Value = Uint> {
    let value = prop_oneof![0u32..1000, any::<u32>(), Just(u32::MAX)];
    (value, zeros()).prop_map(|(v, z)| Uint::new(v).with_zeros(z))
}

fn decimal() -> impl Strategy<Value = Decimal> {
    "-?[0-9]{1,5}(\\.[0-9]{1,4})?([eE][+-]?[0-9]{1,3})?"
        .prop_map(|s| s.parse().expect("the regex spells decimals"))
}

fn remaps() -> impl Strategy<Value = Option<Remaps>> {
    prop::option::of(
        (prop::collection::vec(uint(), 0..4), uint())
            .prop_map(|(ids, trigger)| Remaps { ids, trigger }),
    )
}

fn timer() -> impl Strategy<Value = PersTimer> {
    (
        (
            int(),
            int(),
            decimal(),
            any::<bool>(),
            decimal(),
            any::<bool>(),
        ),
        (decimal(), any::<bool>(), int(), int(), int(), any::<bool>()),
        remaps(),
    )
        .prop_map(
            |(
                (key, id, value, running, time_mod, ignore_timewarp),
                (stop_time, stop_time_enabled, target_group, runtime_id, control_id, paused),
                remaps,
            )| PersTimer {
                id: key,
                data: TimerData {
                    id,
                    value,
                    running,
                    time_mod,
                    ignore_timewarp,
                    stop_time,
                    stop_time_enabled,
                    target_group,
                    runtime_id,
                    control_id,
                    paused,
                    remaps,
                },
            },
        )
}

fn item_pers() -> impl Strategy<Value = ItemPersData> {
    let item = (int(), decimal()).prop_map(|(id, value)| PersItem { id, value });
    (
        prop::collection::vec(item, 0..4),
        prop::collection::vec(timer(), 0..3),
        any::<bool>(),
    )
        .prop_map(|(items, timers, at)| ItemPersData { items, timers, at })
        // What the format can't hold: a lone `@`, and two parts without one.
        .prop_filter("as written", |d| d.writes_at() == d.at)
}

fn checkpoint_data() -> impl Strategy<Value = CheckpointData> {
    (
        (int(), int(), int(), int()),
        (int(), int(), int()),
        item_pers(),
    )
        .prop_map(
            |((seed, id, attempt, ticks), (clicks, points, time), item_pers)| CheckpointData {
                seed,
                id,
                attempt,
                ticks,
                clicks,
                points,
                time,
                item_pers,
            },
        )
}

fn input() -> impl Strategy<Value = Input> {
    let key = (
        uint(),
        any::<bool>(),
        prop::sample::select(Key::ALL.to_vec()),
    )
        .prop_map(|(delta, release, key)| {
            Input::Key(KeyInput {
                delta,
                release,
                key,
            })
        });
    let kind = prop_oneof![Just(CheckpointKind::Load), Just(CheckpointKind::Respawn)];
    let checkpoint =
        (kind, uint(), prop::option::of(checkpoint_data())).prop_map(|(kind, step, data)| {
            Input::Checkpoint(Checkpoint {
                kind,
                step,
                data: data.map(Box::new),
            })
        });
    prop_oneof![8 => key, 1 => checkpoint]
}

fn replay() -> impl Strategy<Value = Replay> {
    let meta = (int(), int(), decimal(), decimal(), int(), item_pers()).prop_map(
        |(seed, attempts, game_version, binary_version, level_version, item_pers)| Metadata {
            seed,
            attempts,
            game_version,
            binary_version,
            level_version,
            item_pers,
        },
    );
    (any::<bool>(), prop::collection::vec(input(), 0..40), meta).prop_map(
        |(holding, inputs, meta)| Replay {
            holding,
            inputs,
            meta,
        },
    )
}

/// Parsing `text` never panics, and whatever it accepts writes back as `text`.
fn check_lossless(text: &str) -> Result<(), TestCaseError> {
    if let Ok(r) = Replay::parse(text) {
        prop_assert_eq!(r.write(), text);
    }
    if let Ok(d) = text.parse::<ItemPersData>() {
        prop_assert_eq!(d.to_string(), text);
    }
    Ok(())
}

proptest! {
    #[test]
    fn any_model_round_trips(r in replay()) {
        let text = r.write();
        prop_assert_eq!(Replay::parse(&text), Ok(r));
    }

    #[test]
    fn any_string_parses_or_refuses(text in "\\PC{0,80}") {
        check_lossless(&text)?;
    }

    #[test]
    fn strings_of_the_format_bytes_parse_or_refuse(
        text in "-?0(;-?[0-9]{1,3}(,[0-9]{1,2}(:[0-9,|@&_.-]{0,40})?)?){0,4}#[0-9,|@&_.e-]{0,60}"
    ) {
        check_lossless(&text)?;
    }

    #[test]
    fn a_changed_byte_of_a_valid_string_parses_or_refuses(
        r in replay(),
        at in any::<prop::sample::Index>(),
        byte in prop::sample::select(b"0123456789-;,:#@|&_.eE+".to_vec()),
        how in 0..3u8,
    ) {
        let mut bytes = r.write().into_bytes();
        let i = at.index(bytes.len());
        match how {
            0 => bytes[i] = byte,
            1 => bytes.insert(i, byte),
            _ => { bytes.remove(i); }
        }
        let text = String::from_utf8(bytes).unwrap();
        check_lossless(&text)?;
    }
}
