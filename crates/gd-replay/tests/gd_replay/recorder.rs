//! The recorder writes what the game writes, respawns included.

use gd_replay::{
    CheckpointData, Input, Int, ItemPersData, Key, Metadata, RecordError, Recorder, Replay,
};

fn data(id: i64) -> CheckpointData {
    CheckpointData {
        id: Int::new(id),
        ..CheckpointData::default()
    }
}

fn meta() -> Metadata {
    Metadata::new(7, 2, 22, 47, 1)
}

#[test]
fn presses_and_releases_become_deltas() {
    let mut rec = Recorder::new(false);
    rec.press(460, Key::P1Jump).unwrap();
    rec.release(580, Key::P1Jump).unwrap();
    rec.press(580, Key::P2Left).unwrap();
    rec.release(640, Key::P1Right).unwrap();
    assert_eq!(rec.last(), 640);
    assert_eq!(
        rec.finish(meta()).write(),
        "-0;460;-120;0,7;-60,3#7,2,22,47,1,"
    );
}

#[test]
fn a_respawn_removes_the_inputs_after_its_step() {
    let mut rec = Recorder::new(true);
    rec.press(100, Key::P1Jump).unwrap();
    rec.load(300, data(1)).unwrap();
    rec.release(400, Key::P1Jump).unwrap();
    rec.press(500, Key::P1Jump).unwrap();
    rec.release(650, Key::P1Jump).unwrap();
    // Respawn at the checkpoint of 400: the input exactly at 400 stays, 500 and 650 go.
    rec.respawn(400, data(2)).unwrap();
    rec.press(410, Key::P1Jump).unwrap();
    let replay = rec.finish(meta());
    let zero = "1,0,2,1,3,0,4,0,5,0,6,0,7,0,8,,";
    let two = "1,0,2,2,3,0,4,0,5,0,6,0,7,0,8,,";
    assert_eq!(
        replay.write(),
        format!("0;100;-300,98:{zero};-100;-400,99:{two};10#7,2,22,47,1,")
    );
    let at: Vec<u64> = replay.timeline().map(|t| t.at).collect();
    assert_eq!(at, [100, 300, 400, 400, 410]);
    assert_eq!(Replay::parse(&replay.write()), Ok(replay));
}

#[test]
fn a_respawn_to_an_earlier_checkpoint_removes_a_later_respawn_too() {
    let mut rec = Recorder::new(false);
    rec.press(100, Key::P1Jump).unwrap();
    rec.release(200, Key::P1Jump).unwrap();
    rec.respawn(200, data(1)).unwrap();
    rec.press(250, Key::P2Jump).unwrap();
    rec.respawn(150, data(2)).unwrap();
    let kept: Vec<&Input> = rec.inputs().iter().collect();
    assert_eq!(kept.len(), 2);
    assert_eq!(*kept[0], Input::press(100, Key::P1Jump));
    assert_eq!(rec.last(), 150);
}

#[test]
fn a_respawn_past_the_last_input_removes_nothing() {
    let mut rec = Recorder::new(true);
    rec.press(100, Key::P1Jump).unwrap();
    rec.respawn(900, data(1)).unwrap();
    rec.release(901, Key::P1Jump).unwrap();
    assert_eq!(rec.inputs().len(), 3);
    assert_eq!(rec.inputs()[2], Input::release(1, Key::P1Jump));
}

#[test]
fn time_only_goes_back_through_a_respawn() {
    let mut rec = Recorder::new(true);
    rec.press(100, Key::P1Jump).unwrap();
    assert_eq!(
        rec.release(99, Key::P1Jump),
        Err(RecordError::Backwards { at: 99, last: 100 })
    );
    assert_eq!(
        rec.load(50, data(1)),
        Err(RecordError::Backwards { at: 50, last: 100 })
    );
    assert_eq!(rec.inputs().len(), 1, "a refusal records nothing");
}

#[test]
fn numbers_past_u32_are_refused_and_record_nothing() {
    let mut rec = Recorder::new(true);
    rec.press(10, Key::P1Jump).unwrap();
    let far = 10 + u64::from(u32::MAX) + 1;
    assert_eq!(
        rec.press(far, Key::P1Jump),
        Err(RecordError::Range { at: far })
    );
    assert_eq!(
        rec.respawn(far, data(1)),
        Err(RecordError::Range { at: far })
    );
    assert_eq!(rec.inputs().len(), 1);
    // A delta of exactly u32::MAX fits.
    rec.press(10 + u64::from(u32::MAX), Key::P1Jump).unwrap();
    assert!(RecordError::Range { at: far }.to_string().contains("u32"));
}

#[test]
fn item_pers_data_the_game_way_has_no_at_without_items() {
    let data = ItemPersData::new(vec![], vec![]);
    assert!(data.items.is_empty() && !data.at);
    assert_eq!(data.to_string(), "");
}
