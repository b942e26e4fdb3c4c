//! Absolute times: deltas add up, and a checkpoint's step is absolute and restarts the count.

use gd_replay::{HALF_STEPS_PER_SECOND, Input, Replay, seconds};

#[test]
fn deltas_add_up_from_the_start() {
    let r = Replay::parse("0;460;-120;340,7;-60,3#1,1,22,47,1,").unwrap();
    let at: Vec<u64> = r.timeline().map(|t| t.at).collect();
    assert_eq!(at, [460, 580, 920, 980]);
    assert_eq!(r.end(), 980);
    assert_eq!(r.presses(), 2);
}

#[test]
fn a_checkpoint_is_absolute_and_the_next_input_counts_from_it() {
    // Inputs at 100 and 700; a respawn at the checkpoint of 400; then +30 is 430, not 730.
    let r = Replay::parse("0;100;-600;-400,99;30;-5,6#1,1,22,47,1,").unwrap();
    let at: Vec<(usize, u64)> = r.timeline().map(|t| (t.index, t.at)).collect();
    assert_eq!(at, [(0, 100), (1, 700), (2, 400), (3, 430), (4, 435)]);
    let checkpoints: Vec<u64> = r.checkpoints().map(|(at, _)| at).collect();
    assert_eq!(checkpoints, [400]);
    assert_eq!(r.end(), 435);
    assert!(matches!(
        r.timeline().nth(2).unwrap().input,
        Input::Checkpoint(_)
    ));
}

#[test]
fn seconds_are_480_half_steps() {
    assert_eq!(HALF_STEPS_PER_SECOND, 480);
    assert_eq!(seconds(480), 1.0);
    assert_eq!(seconds(240), 0.5);
    let r = Replay::parse("0;960#1,1,22,47,1,").unwrap();
    assert_eq!(r.timeline().next().unwrap().seconds(), 2.0);
}

#[test]
fn an_empty_replay_ends_at_zero() {
    let r = Replay::parse("-0#1,1,22,47,1,").unwrap();
    assert_eq!(r.end(), 0);
    assert_eq!(r.presses(), 0);
    assert_eq!(r.timeline().count(), 0);
}

#[test]
fn checkpoint_time_is_in_ten_microseconds() {
    let r = Replay::parse("0;-8,99:1,1,2,2,3,3,4,4,5,5,6,6,7,635833,8,,#1,1,22,47,1,").unwrap();
    let (_, c) = r.checkpoints().next().unwrap();
    assert_eq!(c.data.as_ref().unwrap().time_seconds(), 6.35833);
}
