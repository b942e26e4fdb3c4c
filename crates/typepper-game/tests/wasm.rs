//! The keys analysis's golden tables computed by the game built for wasm32, against the
//! tables the native test (`tests/keys.rs`) freezes: native and wasm agree on each.
//! `cargo xtask test` runs this in Node (wasm-bindgen-test-runner); natively it is empty.
#![cfg(target_arch = "wasm32")]

use typepper_engine::Replay;
use typepper_game::keys::Analysis;
use wasm_bindgen_test::wasm_bindgen_test;

macro_rules! replay {
    ($name:literal) => {
        include_str!(concat!(
            "../../typepper-engine/tests/golden/",
            $name,
            "/replay.txt"
        ))
    };
}

/// Each set of `tests/keys.rs`: its golden table and its replays.
const SETS: &[(&str, &[&str])] = &[
    (
        include_str!("golden/keys-blitz-clean.txt"),
        &[replay!("blitz15-clean-90wpm")],
    ),
    (
        include_str!("golden/keys-drill-and-zen.txt"),
        &[replay!("drill-qzx-60wpm"), replay!("zen-every-rule")],
    ),
    (
        include_str!("golden/keys-five-rounds.txt"),
        &[
            replay!("blitz15-clean-90wpm"),
            replay!("blitz30-fast-140wpm"),
            replay!("blitz60-sloppy-55wpm"),
            replay!("zen-20s-70wpm"),
            replay!("drill-e-85wpm"),
        ],
    ),
];

#[wasm_bindgen_test]
fn the_keys_tables_are_the_same_in_wasm() {
    for (want, texts) in SETS {
        let replays: Vec<Replay> = texts
            .iter()
            .map(|t| t.parse().expect("a golden replay"))
            .collect();
        assert_eq!(Analysis::of(&replays).report(), *want);
    }
}
