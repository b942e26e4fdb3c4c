//! The same replay is the same round: twice over, and from a snapshot taken mid-round.

use typepper_engine::synth::{Typist, synth};
use typepper_engine::{Mode, Replay};

fn rounds() -> Vec<Replay> {
    let typist = Typist {
        wpm: 95,
        accuracy: 93,
        seed: 77,
        zen_ms: 20_000,
    };
    [
        Mode::BLITZ_15,
        Mode::BLITZ_60,
        Mode::ZEN,
        Mode::pursuit(9).unwrap(),
        "words:25/p/n@fr".parse().unwrap(),
        "time:30/p@ru".parse().unwrap(),
        "zen/n@tr".parse().unwrap(),
    ]
    .into_iter()
    .map(|m| synth(m, 2026, &typist))
    .collect()
}

#[test]
fn the_same_replay_plays_out_the_same_twice() {
    for replay in rounds() {
        let (a, sa) = replay.play().unwrap();
        let (b, sb) = Replay::decode(&replay.encode()).unwrap().play().unwrap();
        assert_eq!(sa, sb);
        let end = a.ends_at().unwrap() as u32;
        assert_eq!(a.view(end).to_string(), b.view(end).to_string());
        assert_eq!(a.replay(), replay, "the round records exactly what it took");
    }
}

#[test]
fn a_snapshot_taken_mid_round_plays_on_to_the_same_end() {
    for replay in rounds() {
        let (whole, want) = replay.play().unwrap();
        let times: Vec<_> = replay.timeline().map(|(t, op)| (t.unwrap(), op)).collect();
        let mid = times.len() / 2;
        let mut round = replay.setup().unwrap();
        for &(t, op) in &times[..mid] {
            round.apply(t, op).unwrap();
        }
        let mut snapshot = round.clone();
        for &(t, op) in &times[mid..] {
            snapshot.apply(t, op).unwrap();
        }
        assert_eq!(snapshot.score().unwrap(), want, "{}", replay.mode);
        let end = whole.ends_at().unwrap() as u32;
        assert_eq!(snapshot.view(end).to_string(), whole.view(end).to_string());
        // The original, untouched since the snapshot, is still at the middle.
        assert_eq!(round.replay().inputs.len(), mid);
    }
}
