//! The tour the shells' tests draw: it reaches every screen, each stop is the screen it
//! says, and every stop has words to check.

use typepper_game::model::Kind;
use typepper_game::tour;

#[test]
fn the_tour_stops_at_every_screen_it_names() {
    let stops = tour::stops();
    for stop in &stops {
        let kind = stop.name.split(',').next().unwrap_or_default();
        assert_eq!(kind, stop.model.kind.name(), "{}", stop.name);
        assert!(!stop.model.words().is_empty(), "{}", stop.name);
    }
    for kind in [
        Kind::Menu,
        Kind::Playing,
        Kind::Replay,
        Kind::Results,
        Kind::History,
        Kind::Link,
        Kind::Boards,
        Kind::Keys,
        Kind::Room,
    ] {
        assert!(stops.iter().any(|s| s.model.kind == kind), "{kind:?}");
    }
}

/// What each stop shows, for a reader of the shells' failures.
#[test]
fn every_stop_shows_what_it_names() {
    let stops = tour::stops();
    let words = |name: &str| {
        let stop = stops.iter().find(|s| s.name == name).expect(name);
        stop.model.words().join(" | ")
    };
    for (name, says) in [
        ("link, refused", "letters, digits"),
        ("menu, linked, BLITZ 15s ranked", "RANKED"),
        (
            "results, ranked and shared",
            "share http://typepper.test/r/abcdEFGH",
        ),
        ("results, a race", "won by"),
        ("playing, HOT PURSUIT", "flame "),
        ("keys, by errors", "d drills these:"),
        ("boards, rows", "grace"),
        ("boards, empty", "be the first"),
        ("menu, a notice", "not a replay"),
        ("results, the fastest BLITZ", "100 CAROLINA REAPER"),
        ("results, HOT PURSUIT from lv20", "100 CAROLINA REAPER"),
        ("results, HOT PURSUIT from lv20", "reached | lv"),
        ("results, an hour of ZEN", "time | 3600.0 s"),
        ("room, naming yourself", "grace"),
        ("room, lobby", "grace | ready"),
        ("room, countdown", "| 2 |"),
        ("playing, a room's race", "to grace"),
        ("room, results", "1st | grace"),
    ] {
        assert!(words(name).contains(says), "{name}: {}", words(name));
    }
}
