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
    assert!(
        words("link, refused").contains("letters, digits"),
        "{}",
        words("link, refused")
    );
    assert!(words("menu, linked, BLITZ 15s ranked").contains("RANKED"));
    assert!(words("results, ranked and shared").contains("share http://typepper.test/r/abcdEFGH"));
    assert!(
        words("results, a race").contains("won by"),
        "{}",
        words("results, a race")
    );
    assert!(words("playing, HOT PURSUIT").contains("flame "));
    assert!(words("keys, by errors").contains("d drills these:"));
    assert!(words("boards, rows").contains("grace"));
    assert!(words("boards, empty").contains("be the first"));
    assert!(words("menu, a notice").contains("not a replay"));
}
