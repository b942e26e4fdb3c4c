//! The inputs section: key presses and releases, and checkpoint actions with their data.

use crate::item_pers::ItemPersData;
use crate::number::{Int, Uint};

/// A button the replay presses or releases: the spec's input keys other than the two
/// checkpoint actions (which are [`Checkpoint`]s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    /// `0`, written as no key at all: the only key without `,<id>`.
    P1Jump,
    /// `2`.
    P1Left,
    /// `3`.
    P1Right,
    /// `4`, unused by the game.
    P1Action4,
    /// `5`, unused by the game.
    P1Action5,
    /// `6`.
    P2Jump,
    /// `7`.
    P2Left,
    /// `8`.
    P2Right,
    /// `9`, unused by the game.
    P2Action4,
    /// `10`, unused by the game.
    P2Action5,
}

impl Key {
    /// Every key, in the order of their IDs.
    pub const ALL: [Key; 10] = [
        Key::P1Jump,
        Key::P1Left,
        Key::P1Right,
        Key::P1Action4,
        Key::P1Action5,
        Key::P2Jump,
        Key::P2Left,
        Key::P2Right,
        Key::P2Action4,
        Key::P2Action5,
    ];

    /// The key's ID in the string.
    pub const fn id(self) -> u8 {
        match self {
            Key::P1Jump => 0,
            Key::P1Left => 2,
            Key::P1Right => 3,
            Key::P1Action4 => 4,
            Key::P1Action5 => 5,
            Key::P2Jump => 6,
            Key::P2Left => 7,
            Key::P2Right => 8,
            Key::P2Action4 => 9,
            Key::P2Action5 => 10,
        }
    }

    /// The key with this ID. `None` for 1, for 11 and up, and for the checkpoint actions
    /// 98 and 99, which aren't keys.
    pub const fn from_id(id: u32) -> Option<Key> {
        Some(match id {
            0 => Key::P1Jump,
            2 => Key::P1Left,
            3 => Key::P1Right,
            4 => Key::P1Action4,
            5 => Key::P1Action5,
            6 => Key::P2Jump,
            7 => Key::P2Left,
            8 => Key::P2Right,
            9 => Key::P2Action4,
            10 => Key::P2Action5,
            _ => return None,
        })
    }

    /// 1 or 2.
    pub const fn player(self) -> u8 {
        if self.id() < 6 { 1 } else { 2 }
    }

    /// The button, without the player: `jump`, `left`, `right`, `action4` or `action5`.
    pub const fn button(self) -> &'static str {
        match self {
            Key::P1Jump | Key::P2Jump => "jump",
            Key::P1Left | Key::P2Left => "left",
            Key::P1Right | Key::P2Right => "right",
            Key::P1Action4 | Key::P2Action4 => "action4",
            Key::P1Action5 | Key::P2Action5 => "action5",
        }
    }
}

/// The two actions whose step is absolute and that may carry [`CheckpointData`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckpointKind {
    /// `98`: a checkpoint load (platformer saves; the spec says unused).
    Load,
    /// `99`: a respawn from a checkpoint.
    Respawn,
}

impl CheckpointKind {
    /// The action's ID in the string: 98 or 99.
    pub const fn id(self) -> u8 {
        match self {
            CheckpointKind::Load => 98,
            CheckpointKind::Respawn => 99,
        }
    }

    /// `load` or `respawn`.
    pub const fn name(self) -> &'static str {
        match self {
            CheckpointKind::Load => "load",
            CheckpointKind::Respawn => "respawn",
        }
    }
}

/// A press or release of a [`Key`]: `460`, `-120`, `340,7`, `-60,3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeyInput {
    /// Half-steps since the previous input (or since the previous checkpoint's step).
    pub delta: Uint,
    /// Written with a `-`: the key is let go.
    pub release: bool,
    /// Which key.
    pub key: Key,
}

/// A checkpoint action: `-step,99` or `-step,99:1,seed,…,8,itemPersData,`.
///
/// Its step is the absolute half-step of the checkpoint, not a delta; it is always
/// written with a `-`, so there is no press or release to keep.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Checkpoint {
    /// 98 or 99.
    pub kind: CheckpointKind,
    /// The absolute half-step the checkpoint was activated at.
    pub step: Uint,
    /// The `:` metadata, when it was written. Boxed because it is ten times the size of
    /// any other input, and most inputs are not checkpoints.
    pub data: Option<Box<CheckpointData>>,
}

/// One input of the inputs section.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Input {
    /// A press or release.
    Key(KeyInput),
    /// A checkpoint action.
    Checkpoint(Checkpoint),
}

impl Input {
    /// A press of `key`, `delta` half-steps after the previous input.
    pub const fn press(delta: u32, key: Key) -> Input {
        Input::Key(KeyInput {
            delta: Uint::new(delta),
            release: false,
            key,
        })
    }

    /// A release of `key`, `delta` half-steps after the previous input.
    pub const fn release(delta: u32, key: Key) -> Input {
        Input::Key(KeyInput {
            delta: Uint::new(delta),
            release: true,
            key,
        })
    }
}

/// A checkpoint action's metadata: keys 1 to 8, each with its value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CheckpointData {
    /// `1`: the random seed of the attempt that started from this checkpoint.
    pub seed: Int,
    /// `2`: a counter that goes up with every checkpoint action.
    pub id: Int,
    /// `3`: the number on the "Attempt" label.
    pub attempt: Int,
    /// `4`: half-steps played so far in the whole run (two per step).
    pub ticks: Int,
    /// `5`: button presses so far in the whole run.
    pub clicks: Int,
    /// `6`: points collected so far.
    pub points: Int,
    /// `7`: time played so far in the whole run, in units of 10 µs.
    pub time: Int,
    /// `8`: persistent items and timers at the respawn.
    pub item_pers: ItemPersData,
}

impl CheckpointData {
    /// [`CheckpointData::time`] in seconds.
    pub fn time_seconds(&self) -> f64 {
        self.time.value() as f64 / 100_000.0
    }
}
