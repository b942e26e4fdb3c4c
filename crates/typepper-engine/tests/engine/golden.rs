//! Golden scenarios: what each rules VERSION plays fixed replays out to, frozen.
//!
//! Each folder under `tests/golden/` holds `replay.txt` (the inputs, readable),
//! `replay.bin` (the same replay's bytes) and `expected.txt` (the text, heat and score it
//! plays out to). A folder with a `known-failure` file is expected to differ. `v2-*` are
//! VERSION 2's (most on a VERSION 1 scenario's very keys); the rest are VERSION 1's, and
//! a new VERSION adds scenarios of its own beside them, never rewriting theirs. To write
//! the expected files of new scenarios, run with `TYPEPPER_BLESS=1` and review the diff.

use std::fs;
use std::path::Path;

use typepper_engine::Replay;

use super::outcome::outcome;

#[test]
fn golden_scenarios_play_out_as_frozen() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let bless = std::env::var_os("TYPEPPER_BLESS").is_some();
    let mut seen = 0;
    let mut failures = vec![];
    let mut entries: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for case in entries.iter().filter(|p| p.is_dir()) {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let text = fs::read_to_string(case.join("replay.txt")).unwrap();
        let replay: Replay = text
            .parse()
            .unwrap_or_else(|e| panic!("{name}/replay.txt: {e}"));
        let version = if name.starts_with("v2-") { 2 } else { 1 };
        assert_eq!(replay.engine, version, "{name} is VERSION {version}'s");
        let got = outcome(&replay);
        if bless {
            fs::write(case.join("replay.bin"), replay.encode()).unwrap();
            fs::write(case.join("expected.txt"), &got).unwrap();
        }
        let bytes = fs::read(case.join("replay.bin")).unwrap();
        assert_eq!(
            bytes,
            replay.encode(),
            "{name}: replay.bin is not replay.txt's bytes"
        );
        assert_eq!(Replay::decode(&bytes).as_ref(), Ok(&replay), "{name}");
        let want = fs::read_to_string(case.join("expected.txt")).unwrap();
        let known_failure = case.join("known-failure").exists();
        if (got == want) == known_failure {
            failures.push(format!("{name}:\n--- expected\n{want}--- got\n{got}"));
        }
        seen += 1;
    }
    assert!(
        seen >= 6,
        "only {seen} golden scenarios in {}",
        dir.display()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_wasm_test_plays_every_golden_scenario() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let wasm = fs::read_to_string(root.join("tests/wasm.rs")).unwrap();
    for case in fs::read_dir(root.join("tests/golden")).unwrap() {
        let name = case.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            wasm.contains(&format!("\"{name}\"")),
            "tests/wasm.rs doesn't play {name}"
        );
    }
}
