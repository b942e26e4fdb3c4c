//! The keys analysis, frozen: fixed replays (the engine's golden scenarios) and the exact
//! per-key and per-pair table they give. `TYPEPPER_BLESS=1` writes the tables anew;
//! review the diff.

use std::path::Path;

use typepper_engine::Replay;
use typepper_game::keys::{Analysis, Trend};

/// The replays, by their golden scenario's name. `tests/wasm.rs` plays the same sets in
/// wasm32; a test below checks it names them all.
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
        let got = Analysis::of(&set).report();
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
    let (b, r) = (
        trend.before.key('e').unwrap(),
        trend.recent.key('e').unwrap(),
    );
    let want = format!(
        "{} → {}",
        typepper_game::keys::percent(b.error_x100()),
        typepper_game::keys::percent(r.error_x100())
    );
    assert_eq!(trend.key('e'), Some(want));
    let line = Trend::line(trend.before.key('e'), trend.recent.key('e'));
    assert!(
        line.starts_with("errors ") && line.ends_with(" ms"),
        "{line}"
    );
}

mod screen {
    use super::replays;
    use typepper_engine::Mode;
    use typepper_game::app::{App, Effect, Key, Now, Screen};
    use typepper_game::mirror::Mirror;
    use typepper_game::model::Body;
    use typepper_game::storage::{self, Entry, Stored};
    use typepper_game::zone::Fixed;

    fn at(mono: f64) -> Now {
        Now {
            mono,
            unix_ms: 1_796_154_720_000 + mono as u64,
        }
    }

    #[test]
    fn k_shows_the_history_s_keys_and_d_drills_the_worst() {
        let (mut app, _) = App::new(7, &Stored::default(), None);
        app.key(Key::Char('k'), at(0.0));
        let empty = Mirror::of(&app.model(0.0, &Fixed(0)));
        assert_eq!(empty.screen, "keys");
        assert_eq!(empty.notice, "no rounds yet: esc, then play some");
        app.key(Key::Escape, at(0.0));

        // Two rounds in the history, as the game would find them stored.
        let entries: Vec<Entry> = replays(&["blitz60-sloppy-55wpm", "zen-20s-70wpm"])
            .into_iter()
            .enumerate()
            .map(|(i, replay)| Entry {
                unix_ms: i as u64,
                score: replay.play().unwrap().1,
                replay,
                share: None,
                room: false,
            })
            .collect();
        let stored = Stored {
            history: storage::format_history(&entries),
            ..Stored::default()
        };
        let (mut app, _) = App::new(7, &stored, None);
        app.key(Key::Char('k'), at(0.0));
        let m = app.model(0.0, &Fixed(0));
        let Body::Keys(keys) = &m.body else {
            panic!("{m:?}")
        };
        assert_eq!(keys.by, "by errors");
        assert_eq!(
            keys.keyboard.iter().map(Vec::len).collect::<Vec<_>>(),
            [10, 9, 7]
        );
        assert!(keys.keyboard.iter().flatten().any(|c| c.shade.is_some()));
        let mirror = Mirror::of(&m);
        assert!(
            mirror
                .status
                .starts_with("by errors · from your last 2 rounds")
        );
        assert!(
            mirror.list.starts_with("worst keys:\n  "),
            "{}",
            mirror.list
        );
        assert!(
            mirror.results.starts_with("the last 2 rounds: errors "),
            "{}",
            mirror.results
        );
        let letters = keys.drill.clone().expect("enough mistakes to drill");
        app.key(Key::Char('t'), at(0.0));
        let Body::Keys(by_time) = app.model(0.0, &Fixed(0)).body else {
            panic!()
        };
        assert_eq!(by_time.by, "by time");
        assert_ne!(by_time.lists, keys.lists);

        // d plays a drill of the worst letters, and the menu keeps it.
        let fx = app.key(Key::Char('d'), at(0.0));
        assert_eq!(
            fx,
            [Effect::Save {
                key: storage::DRILL.into(),
                value: letters.clone()
            }]
        );
        let Screen::Play(s) = app.screen() else {
            panic!("not playing")
        };
        assert_eq!(s.round.mode(), Mode::drill(&letters).unwrap());
        app.key(Key::Escape, at(0.0));
        let menu = Mirror::of(&app.model(0.0, &Fixed(0))).list;
        assert!(
            menu.contains(&format!("CUSTOM TEXT: paste your own\n  DRILL {letters}\n")),
            "the drill comes after the modes: {menu}"
        );

        // So does a new start, from what was stored.
        let stored = Stored {
            drill: Some(letters.clone()),
            ..Stored::default()
        };
        let (mut again, _) = App::new(7, &stored, None);
        again.key(Key::Char('d'), at(0.0));
        let Screen::Play(s) = again.screen() else {
            panic!("not playing")
        };
        assert_eq!(s.round.mode().title(), format!("DRILL {letters}"));
    }
}

#[test]
fn the_wasm_test_computes_every_set() {
    let wasm = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/wasm.rs"))
        .unwrap();
    for (name, replays) in SETS {
        assert!(wasm.contains(&format!("golden/keys-{name}.txt")), "{name}");
        for r in replays {
            assert!(wasm.contains(&format!("replay!(\"{r}\")")), "{name}: {r}");
        }
    }
}
