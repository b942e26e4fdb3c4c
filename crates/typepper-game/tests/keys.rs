//! The keys analysis, frozen: fixed replays (the engine's golden scenarios) and the exact
//! per-key and per-pair table they give. `TYPEPPER_BLESS=1` writes the tables anew;
//! review the diff.

use std::path::Path;

use typepper_engine::Replay;
use typepper_game::keys::{Analysis, By, Trend};

/// The replays, by their golden scenario's name.
const SETS: [(&str, &[&str]); 3] = [
    ("blitz-clean", &["blitz15-clean-90wpm"]),
    ("drill-and-zen", &["drill-qzx-60wpm", "zen-every-rule"]),
    (
        "five-rounds",
        &[
            "blitz15-clean-90wpm",
            "blitz30-fast-140wpm",
            "blitz60-sloppy-55wpm",
            "zen-20s-70wpm",
            "drill-e-85wpm",
        ],
    ),
];

fn replays(names: &[&str]) -> Vec<Replay> {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("../typepper-engine/tests/golden");
    names
        .iter()
        .map(|n| {
            let text = std::fs::read_to_string(golden.join(n).join("replay.txt"))
                .unwrap_or_else(|e| panic!("{n}: {e}"));
            text.parse().unwrap_or_else(|e| panic!("{n}: {e}"))
        })
        .collect()
}

#[test]
fn golden_replays_give_the_frozen_tables() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let bless = std::env::var_os("TYPEPPER_BLESS").is_some();
    let mut wrong = vec![];
    for (name, names) in SETS {
        let set = replays(names);
        let analysis = Analysis::of(&set);
        let mut got = analysis.to_string();
        let worst: Vec<String> = analysis
            .worst_keys(By::Errors, 10)
            .iter()
            .map(|k| k.key.to_string())
            .collect();
        got += &format!("worst by errors: {}\n", worst.join(" "));
        let slow: Vec<String> = analysis
            .worst_keys(By::Time, 10)
            .iter()
            .map(|k| k.key.to_string())
            .collect();
        got += &format!("worst by time: {}\n", slow.join(" "));
        got += &format!("drill: {:?}\n", analysis.drill());
        let path = dir.join(format!("keys-{name}.txt"));
        if bless {
            std::fs::write(&path, &got).unwrap();
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if want != got {
            wrong.push(format!("{name}:\n--- expected\n{want}--- got\n{got}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_trend_splits_the_last_ten_from_the_forty_before() {
    let one = replays(&["blitz15-clean-90wpm"]).remove(0);
    let other = replays(&["blitz60-sloppy-55wpm"]).remove(0);
    let mut history = vec![other.clone(); 45];
    history.extend(vec![one.clone(); 10]);
    let trend = Trend::of(&history);
    assert_eq!((trend.recent.rounds, trend.before.rounds), (10, 40));
    assert_eq!(trend.recent.key('e'), Analysis::of(&vec![one; 10]).key('e'));
    assert_eq!(
        trend.before.key('e'),
        Analysis::of(&vec![other; 40]).key('e')
    );
    let line = Trend::line(trend.before.key('e'), trend.recent.key('e'));
    assert!(
        line.starts_with("errors ") && line.ends_with(" ms"),
        "{line}"
    );
}
