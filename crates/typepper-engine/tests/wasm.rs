//! Every golden scenario played by the engine built for wasm32, against the same frozen
//! outcome the native test (`tests/engine/golden.rs`) holds: so native and wasm agree on
//! every one. `cargo xtask test` runs this in Node:
//! `cargo test -p typepper-engine --target wasm32-unknown-unknown --test wasm`, with
//! wasm-bindgen-test-runner as the target's runner. Natively it is empty; the native
//! golden test checks that [`GOLDEN`] names every scenario folder.
#![cfg(target_arch = "wasm32")]

use typepper_engine::Replay;
use wasm_bindgen_test::wasm_bindgen_test;

#[path = "engine/outcome.rs"]
mod outcome;
use outcome::outcome;

macro_rules! golden {
    ($($name:literal),* $(,)?) => {
        &[$((
            $name,
            include_str!(concat!("golden/", $name, "/replay.txt")),
            include_bytes!(concat!("golden/", $name, "/replay.bin")),
            include_str!(concat!("golden/", $name, "/expected.txt")),
        )),*]
    };
}

/// (name, replay text, replay bytes, expected outcome) of every golden scenario.
const GOLDEN: &[(&str, &str, &[u8], &str)] = golden![
    "blitz120-steady-70wpm",
    "blitz15-clean-90wpm",
    "blitz15-de-70wpm",
    "blitz15-en10k-90wpm",
    "blitz15-late-input-refused",
    "blitz15-nl-65wpm",
    "blitz15-stop-on-error-75wpm",
    "blitz15-sv-80wpm",
    "blitz30-fast-140wpm",
    "blitz30-punctuation-85wpm",
    "blitz30-ru-punctuation-70wpm",
    "blitz60-sloppy-55wpm",
    "custom-en-sloppy-45wpm",
    "custom-fr-em-dash-70wpm",
    "drill-e-85wpm",
    "drill-kv-40wpm",
    "drill-qzx-60wpm",
    "drill2-nr-70wpm",
    "pursuit1-one-key-then-idle",
    "pursuit20-caught-fast",
    "pursuit5-stop-and-no-backspace",
    "pursuit7-caught-75wpm",
    "pursuit7-de-punctuation",
    "quote-de-300-60wpm",
    "quote-en-12-75wpm",
    "quote-en-long-90wpm",
    "quote-ru-sloppy-50wpm",
    "spec-example",
    "words10-cs-punctuation-60wpm",
    "words10-es-punctuation-70wpm",
    "words10-fr-75wpm",
    "words10-it-numbers-68wpm",
    "words10-no-backspace-sloppy-60wpm",
    "words10-pl-sloppy-50wpm",
    "words10-tr-punctuation-62wpm",
    "words25-clean-80wpm",
    "words25-punctuation-numbers-65wpm",
    "words25-uk-60wpm",
    "words50-sloppy-60wpm",
    "zen-20s-70wpm",
    "zen-every-rule",
    "zen-numbers-20s",
    "zen-pt-15s",
    "v2-blitz15-clean-90wpm",
    "v2-blitz15-slow-35wpm",
    "v2-blitz15-stop-on-error-75wpm",
    "v2-blitz30-punctuation-85wpm",
    "v2-blitz60-sloppy-55wpm",
    "v2-custom-fr-em-dash-70wpm",
    "v2-drill2-nr-70wpm",
    "v2-pursuit1-one-key-then-idle",
    "v2-pursuit7-caught-75wpm",
    "v2-quote-en-12-75wpm",
    "v2-words25-clean-80wpm",
    "v2-zen-20s-70wpm",
];

#[wasm_bindgen_test]
fn every_golden_scenario_plays_out_in_wasm_as_natively() {
    for (name, text, bytes, expected) in GOLDEN {
        let replay: Replay = text.parse().expect(name);
        assert_eq!(Replay::decode(bytes).as_ref(), Ok(&replay), "{name}");
        assert_eq!(outcome(&replay), *expected, "{name}");
    }
    assert_eq!(GOLDEN.len(), 55);
}
