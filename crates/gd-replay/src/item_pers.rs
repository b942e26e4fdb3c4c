//! Item pers data: `persItems@persTimers`, the state of persistent items and timers.

use crate::number::{Decimal, Int, Uint};

/// The state of persistent items and timers, at the replay's start (in [`crate::Metadata`])
/// or at a checkpoint (in [`crate::CheckpointData`]).
///
/// The shapes it can be written in, and how each parses:
///
/// ```text
/// ""            items: [],      timers: [],  at: false
/// "1|5@"        items: [1 → 5], timers: [],  at: true
/// "1|5@3|3&…"   items: [1 → 5], timers: [3], at: true
/// "1|5"         items: [1 → 5], timers: [],  at: false  items alone, no `@`
/// "3|3&…"       items: [],      timers: [3], at: false  the game's bug: no items, no `@`
/// "@3|3&…"      items: [],      timers: [3], at: true   the nominal form; the game doesn't write it
/// ```
///
/// Without an `@`, the data is one part or the other, never both, and which one is
/// certain: a timer always holds `&`, and an item never does. So `1|5` can only be items
/// and `3|3&…` only timers. Items and timers with no `@` between them (`1|5|3|3&…`) have
/// no reading and are refused. So is a lone `@`: the spec says the string is empty when
/// both parts are.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ItemPersData {
    /// The persistent items.
    pub items: Vec<PersItem>,
    /// The triggered timers.
    pub timers: Vec<PersTimer>,
    /// Whether the `@` between the two was written. The spec says the game leaves it out
    /// when there are no items; whether it also does when there are no timers, it
    /// doesn't say, so both are read and written back as they came. Data with both parts
    /// always gets its `@`, and data with neither never does, since a lone `@` doesn't
    /// parse.
    pub at: bool,
}

impl ItemPersData {
    /// Item pers data as the spec has the game write it: an `@` when there are items.
    pub fn new(items: Vec<PersItem>, timers: Vec<PersTimer>) -> ItemPersData {
        ItemPersData {
            at: !items.is_empty(),
            items,
            timers,
        }
    }

    /// The persistent items.
    pub fn items(&self) -> &[PersItem] {
        &self.items
    }

    /// Whether an `@` is written: as it came, and always between two parts.
    pub fn writes_at(&self) -> bool {
        let both = !self.items.is_empty() && !self.timers.is_empty();
        both || (self.at && !self.is_empty())
    }

    /// No items and no timers.
    pub fn is_empty(&self) -> bool {
        self.items().is_empty() && self.timers.is_empty()
    }
}

/// A non-zero persistent item: `itemID|itemValue`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PersItem {
    /// The item ID.
    pub id: Int,
    /// Its value. A [`Decimal`], because the spec gives it no type and 2.2's item
    /// arithmetic is in floats.
    pub value: Decimal,
}

/// A triggered timer: `timerID|timerData`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PersTimer {
    /// The timer ID before the `|`.
    pub id: Int,
    /// The twelve `&`-separated fields after it.
    pub data: TimerData,
}

/// The twelve fields of a timer, in their order:
/// `timerID&timerValue&running&timeMod&ignoreTimewarp&stopTime&stopTimeEnabled&targetGroupID&runtimeID&controlID&paused&remaps`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TimerData {
    /// The timer ID again. Kept apart from [`PersTimer::id`] because nothing in the spec
    /// says the two are equal, and a lossless codec must write back both.
    pub id: Int,
    /// The value the timer is at.
    pub value: Decimal,
    /// `1` unless the timer is paused.
    pub running: bool,
    /// What time is multiplied by.
    pub time_mod: Decimal,
    /// Ignore TimeWarp.
    pub ignore_timewarp: bool,
    /// The value at which the timer stops.
    pub stop_time: Decimal,
    /// Whether [`TimerData::stop_time`] is on.
    pub stop_time_enabled: bool,
    /// The group spawned when the timer reaches its stop time.
    pub target_group: Int,
    /// The runtime ID of the trigger that started the timer.
    pub runtime_id: Int,
    /// The timer's control ID.
    pub control_id: Int,
    /// Paused by a Stop trigger.
    pub paused: bool,
    /// The remap chain; `None` when the field is empty.
    pub remaps: Option<Remaps>,
}

/// A timer's remap chain: `remapID_remapID_…_-triggerRuntimeID`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Remaps {
    /// The remap IDs, in the order written (reverse activation order).
    pub ids: Vec<Uint>,
    /// The runtime ID after the `-`: the last trigger of the chain.
    pub trigger: Uint,
}
