//! One table of (string, model) rows drives both directions: parsing each string gives
//! its model, and writing each model gives its string. Every example of the spec is a
//! row, and so is every spelling the codec keeps.

use gd_replay::{
    Checkpoint, CheckpointData, CheckpointKind, Decimal, Input, Int, ItemPersData, Key, KeyInput,
    Metadata, PersItem, PersTimer, Remaps, Replay, TimerData, Uint,
};

/// The metadata most rows share: `1234,1,22,47,1,`.
pub fn meta() -> Metadata {
    Metadata::new(1234, 1, 22, 47, 1)
}

/// A replay holding jump at the start, with `inputs` and [`meta`].
fn inputs(inputs: Vec<Input>) -> Replay {
    Replay {
        holding: true,
        inputs,
        meta: meta(),
    }
}

fn dec(s: &str) -> Decimal {
    s.parse().expect("rows spell decimals")
}

fn int(v: i64) -> Int {
    Int::new(v)
}

/// The checkpoint data of the spec's template, numbered 1 to 7 in its order.
pub fn data(item_pers: ItemPersData) -> CheckpointData {
    CheckpointData {
        seed: int(1),
        id: int(2),
        attempt: int(3),
        ticks: int(4),
        clicks: int(5),
        points: int(6),
        time: int(7),
        item_pers,
    }
}

fn respawn(step: u32, data: Option<CheckpointData>) -> Input {
    Input::Checkpoint(Checkpoint {
        kind: CheckpointKind::Respawn,
        step: Uint::new(step),
        data: data.map(Box::new),
    })
}

/// Timer 4 as in the item pers rows: `4&1.5&1&1&0&10&1&20&33&0&0&<remaps>`.
pub fn timer(remaps: Option<Remaps>) -> PersTimer {
    PersTimer {
        id: int(4),
        data: TimerData {
            id: int(4),
            value: dec("1.5"),
            running: true,
            time_mod: dec("1"),
            ignore_timewarp: false,
            stop_time: dec("10"),
            stop_time_enabled: true,
            target_group: int(20),
            runtime_id: int(33),
            control_id: int(0),
            paused: false,
            remaps,
        },
    }
}

fn item(id: i64, value: &str) -> PersItem {
    PersItem {
        id: int(id),
        value: dec(value),
    }
}

fn chain(ids: &[u32], trigger: u32) -> Option<Remaps> {
    Some(Remaps {
        ids: ids.iter().map(|&i| Uint::new(i)).collect(),
        trigger: Uint::new(trigger),
    })
}

const TIMER: &str = "4|4&1.5&1&1&0&10&1&20&33&0&0&";

/// (what it shows, string, model).
pub fn replays() -> Vec<(&'static str, String, Replay)> {
    let s = |t: &str| t.to_owned();
    vec![
        (
            "no inputs, jump held",
            s("0#1234,1,22,47,1,"),
            inputs(vec![]),
        ),
        (
            "no inputs, jump not held",
            s("-0#1234,1,22,47,1,"),
            Replay {
                holding: false,
                ..inputs(vec![])
            },
        ),
        (
            "the spec's four input examples",
            s("0;460;-120;340,7;-60,3#1234,1,22,47,1,"),
            inputs(vec![
                Input::press(460, Key::P1Jump),
                Input::release(120, Key::P1Jump),
                Input::press(340, Key::P2Left),
                Input::release(60, Key::P1Right),
            ]),
        ),
        (
            "every key but P1 jump has its ,<id>",
            s("0;1,2;2,3;3,4;4,5;5,6;6,7;7,8;8,9;9,10;-0,6#1234,1,22,47,1,"),
            inputs(vec![
                Input::press(1, Key::P1Left),
                Input::press(2, Key::P1Right),
                Input::press(3, Key::P1Action4),
                Input::press(4, Key::P1Action5),
                Input::press(5, Key::P2Jump),
                Input::press(6, Key::P2Left),
                Input::press(7, Key::P2Right),
                Input::press(8, Key::P2Action4),
                Input::press(9, Key::P2Action5),
                Input::release(0, Key::P2Jump),
            ]),
        ),
        (
            "-0 is a release after 0 half-steps",
            s("0;-0;-0,3#1234,1,22,47,1,"),
            inputs(vec![
                Input::release(0, Key::P1Jump),
                Input::release(0, Key::P1Right),
            ]),
        ),
        (
            "the spec's checkpoint template, numbered",
            s("0;-800,99:1,1,2,2,3,3,4,4,5,5,6,6,7,7,8,,#1234,1,22,47,1,"),
            inputs(vec![respawn(800, Some(data(ItemPersData::default())))]),
        ),
        (
            "a checkpoint with the spec's time example and item pers data",
            s("0;-800,99:1,-5,2,1,3,4,4,1600,5,17,6,0,7,635833,8,1|5@,#1234,1,22,47,1,"),
            inputs(vec![respawn(
                800,
                Some(CheckpointData {
                    seed: int(-5),
                    id: int(1),
                    attempt: int(4),
                    ticks: int(1600),
                    clicks: int(17),
                    points: int(0),
                    time: int(635833),
                    item_pers: ItemPersData::new(vec![item(1, "5")], vec![]),
                }),
            )]),
        ),
        (
            "a load (98) and a respawn (99) without their optional data",
            s("0;-500,98;10;-400,99;-3#1234,1,22,47,1,"),
            inputs(vec![
                Input::Checkpoint(Checkpoint {
                    kind: CheckpointKind::Load,
                    step: Uint::new(500),
                    data: None,
                }),
                Input::press(10, Key::P1Jump),
                respawn(400, None),
                Input::release(3, Key::P1Jump),
            ]),
        ),
        (
            "leading zeros are kept",
            s("0;0460;-00,3;-0800,99#0,007,022,047,-01,"),
            Replay {
                holding: true,
                inputs: vec![
                    Input::Key(KeyInput {
                        delta: Uint::new(460).with_zeros(1),
                        release: false,
                        key: Key::P1Jump,
                    }),
                    Input::Key(KeyInput {
                        delta: Uint::new(0).with_zeros(1),
                        release: true,
                        key: Key::P1Right,
                    }),
                    Input::Checkpoint(Checkpoint {
                        kind: CheckpointKind::Respawn,
                        step: Uint::new(800).with_zeros(1),
                        data: None,
                    }),
                ],
                meta: Metadata {
                    seed: int(0),
                    attempts: int(7).with_zeros(2),
                    game_version: dec("022"),
                    binary_version: dec("047"),
                    level_version: int(-1).with_zeros(1),
                    item_pers: ItemPersData::default(),
                },
            },
        ),
        (
            "-0 in a signed field is kept",
            s("0#-0,1,22,47,-00,"),
            Replay {
                meta: Metadata {
                    seed: Int::MINUS_ZERO,
                    level_version: Int::MINUS_ZERO.with_zeros(1),
                    ..meta()
                },
                ..inputs(vec![])
            },
        ),
        (
            "a decimal game version",
            s("0#-2147483648,12,2.208,4.7e1,3,"),
            Replay {
                meta: Metadata {
                    seed: int(-2147483648),
                    attempts: int(12),
                    game_version: dec("2.208"),
                    binary_version: dec("4.7e1"),
                    level_version: int(3),
                    item_pers: ItemPersData::default(),
                },
                ..inputs(vec![])
            },
        ),
        (
            "metadata item pers data with items and a timer",
            format!("0#1234,1,22,47,1,1|5|2|-3.5@{TIMER}3_7_-99"),
            Replay {
                meta: Metadata {
                    item_pers: ItemPersData::new(
                        vec![item(1, "5"), item(2, "-3.5")],
                        vec![timer(chain(&[3, 7], 99))],
                    ),
                    ..meta()
                },
                ..inputs(vec![])
            },
        ),
    ]
}

/// (what it shows, item pers data string, model): the spec's shapes of item pers data.
pub fn item_pers() -> Vec<(&'static str, String, ItemPersData)> {
    vec![
        (
            "empty: no items, no timers",
            String::new(),
            ItemPersData::default(),
        ),
        (
            "items and no timers",
            "1|5@".into(),
            ItemPersData::new(vec![item(1, "5")], vec![]),
        ),
        (
            "items and timers",
            format!("1|5|9|2@{TIMER}|{TIMER}"),
            ItemPersData::new(
                vec![item(1, "5"), item(9, "2")],
                vec![timer(None), timer(None)],
            ),
        ),
        (
            "items and no timers, with no @: items, since timers hold &",
            "1|10|2|5".into(),
            ItemPersData {
                items: vec![item(1, "10"), item(2, "5")],
                timers: vec![],
                at: false,
            },
        ),
        (
            "the bug: no items, so the timers have no @",
            format!("{TIMER}-99"),
            ItemPersData::new(vec![], vec![timer(chain(&[], 99))]),
        ),
        (
            "the nominal form the game doesn't write: @ then timers",
            format!("@{TIMER}0_-0"),
            ItemPersData {
                items: vec![],
                timers: vec![timer(chain(&[0], 0))],
                at: true,
            },
        ),
        (
            "a remap chain of three",
            format!("{TIMER}12_0_7_-4096"),
            ItemPersData::new(vec![], vec![timer(chain(&[12, 0, 7], 4096))]),
        ),
        (
            "the two timer IDs may differ; both are kept",
            "5|6&-0.25&0&2&1&0&0&0&-1&3&1&".into(),
            ItemPersData::new(
                vec![],
                vec![PersTimer {
                    id: int(5),
                    data: TimerData {
                        id: int(6),
                        value: dec("-0.25"),
                        running: false,
                        time_mod: dec("2"),
                        ignore_timewarp: true,
                        stop_time: dec("0"),
                        stop_time_enabled: false,
                        target_group: int(0),
                        runtime_id: int(-1),
                        control_id: int(3),
                        paused: true,
                        remaps: None,
                    },
                }],
            ),
        ),
    ]
}

#[test]
fn every_row_parses_to_its_model() {
    for (what, text, model) in replays() {
        assert_eq!(Replay::parse(&text), Ok(model), "{what}: {text}");
    }
    for (what, text, model) in item_pers() {
        assert_eq!(text.parse::<ItemPersData>(), Ok(model), "{what}: {text}");
    }
}

#[test]
fn every_model_writes_its_row() {
    for (what, text, model) in replays() {
        assert_eq!(model.write(), text, "{what}");
    }
    for (what, text, model) in item_pers() {
        assert_eq!(model.to_string(), text, "{what}");
    }
}

#[test]
fn item_pers_rows_work_inside_checkpoints_and_metadata() {
    for (what, text, model) in item_pers() {
        let whole = format!("0;-8,99:1,1,2,2,3,3,4,4,5,5,6,6,7,7,8,{text},#1234,1,22,47,1,{text}");
        let replay = Replay {
            meta: Metadata {
                item_pers: model.clone(),
                ..meta()
            },
            ..inputs(vec![respawn(8, Some(data(model)))])
        };
        assert_eq!(Replay::parse(&whole), Ok(replay.clone()), "{what}");
        assert_eq!(replay.write(), whole, "{what}");
    }
}
