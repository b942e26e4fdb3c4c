//! The writer: the model back to its string, each number in the spelling it carries.

use core::fmt::{self, Write};

use crate::input::{Checkpoint, CheckpointData, Input, Key};
use crate::item_pers::{ItemPersData, Remaps, TimerData};
use crate::{Metadata, Replay};

pub(crate) fn replay(r: &Replay, f: &mut impl Write) -> fmt::Result {
    f.write_str(if r.holding { "0" } else { "-0" })?;
    for input in &r.inputs {
        f.write_char(';')?;
        match input {
            Input::Key(k) => {
                if k.release {
                    f.write_char('-')?;
                }
                write!(f, "{}", k.delta)?;
                if k.key != Key::P1Jump {
                    write!(f, ",{}", k.key.id())?;
                }
            }
            Input::Checkpoint(c) => checkpoint(c, f)?,
        }
    }
    f.write_char('#')?;
    metadata(&r.meta, f)
}

fn checkpoint(c: &Checkpoint, f: &mut impl Write) -> fmt::Result {
    write!(f, "-{},{}", c.step, c.kind.id())?;
    if let Some(data) = &c.data {
        f.write_char(':')?;
        checkpoint_data(data, f)?;
    }
    Ok(())
}

fn checkpoint_data(d: &CheckpointData, f: &mut impl Write) -> fmt::Result {
    let ints = [d.seed, d.id, d.attempt, d.ticks, d.clicks, d.points, d.time];
    for (key, value) in (1..).zip(ints) {
        write!(f, "{key},{value},")?;
    }
    f.write_str("8,")?;
    item_pers(&d.item_pers, f)?;
    f.write_char(',')
}

fn metadata(m: &Metadata, f: &mut impl Write) -> fmt::Result {
    write!(
        f,
        "{},{},{},{},{},",
        m.seed, m.attempts, m.game_version, m.binary_version, m.level_version
    )?;
    item_pers(&m.item_pers, f)
}

pub(crate) fn item_pers(d: &ItemPersData, f: &mut impl Write) -> fmt::Result {
    for (i, item) in d.items.iter().enumerate() {
        if i > 0 {
            f.write_char('|')?;
        }
        write!(f, "{}|{}", item.id, item.value)?;
    }
    if d.writes_at() {
        f.write_char('@')?;
    }
    for (i, t) in d.timers.iter().enumerate() {
        if i > 0 {
            f.write_char('|')?;
        }
        write!(f, "{}|", t.id)?;
        timer(&t.data, f)?;
    }
    Ok(())
}

fn timer(t: &TimerData, f: &mut impl Write) -> fmt::Result {
    let flag = |b: bool| if b { '1' } else { '0' };
    write!(
        f,
        "{}&{}&{}&{}&{}&{}&{}&{}&{}&{}&{}&",
        t.id,
        t.value,
        flag(t.running),
        t.time_mod,
        flag(t.ignore_timewarp),
        t.stop_time,
        flag(t.stop_time_enabled),
        t.target_group,
        t.runtime_id,
        t.control_id,
        flag(t.paused),
    )?;
    if let Some(r) = &t.remaps {
        remaps(r, f)?;
    }
    Ok(())
}

fn remaps(r: &Remaps, f: &mut impl Write) -> fmt::Result {
    for id in &r.ids {
        write!(f, "{id}_")?;
    }
    write!(f, "-{}", r.trigger)
}
