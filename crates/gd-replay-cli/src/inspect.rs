//! What `gd-replay inspect` shows of a replay string: its metadata, counts, checkpoints
//! and timeline, as text or as the JSON documented in `crates/gd-replay/README.md`.

use std::fmt::Write as _;

use gd_replay::stored::Encoding;
use gd_replay::{
    Checkpoint, CheckpointData, CheckpointKind, Input, ItemPersData, Key, Replay, Timed, TimerData,
    seconds,
};
use serde::Serialize;

use crate::Loaded;

/// The facts [`text`] shows, as JSON.
pub fn json(replay: &Replay, loaded: &Loaded) -> String {
    crate::to_json(&InspectJson::new(replay, loaded, &Summary::of(replay)))
}

/// Presses and releases of one key.
#[derive(Clone, Copy, Default, Serialize)]
struct KeyCount {
    presses: usize,
    releases: usize,
}

/// The counts `inspect` shows, in both forms.
struct Summary {
    /// Indexed like [`Key::ALL`].
    keys: [KeyCount; 10],
    loads: usize,
    respawns: usize,
}

impl Summary {
    fn of(replay: &Replay) -> Summary {
        let mut s = Summary {
            keys: [KeyCount::default(); 10],
            loads: 0,
            respawns: 0,
        };
        for input in &replay.inputs {
            match input {
                Input::Key(k) => {
                    // IDs are 0 and 2 to 10, so ID − 1 (0 for P1 jump) is the key's
                    // place in `Key::ALL`.
                    let i = usize::from(k.key.id().saturating_sub(1));
                    if k.release {
                        s.keys[i].releases += 1;
                    } else {
                        s.keys[i].presses += 1;
                    }
                }
                Input::Checkpoint(c) => match c.kind {
                    CheckpointKind::Load => s.loads += 1,
                    CheckpointKind::Respawn => s.respawns += 1,
                },
            }
        }
        s
    }

    fn releases(&self) -> usize {
        self.keys.iter().map(|k| k.releases).sum()
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn item_pers_text(d: &ItemPersData) -> String {
    if d.is_empty() {
        return "none".to_owned();
    }
    let at = if d.at { "" } else { ", no @" };
    format!(
        "{}, {}{at}",
        plural(d.items().len(), "item", "items"),
        plural(d.timers.len(), "timer", "timers")
    )
}

fn key_name(key: Key) -> String {
    format!("P{} {}", key.player(), key.button())
}

fn input_text(t: &Timed<'_>) -> (String, String) {
    match t.input {
        Input::Key(k) => {
            let sign = if k.release { "-" } else { "+" };
            let what = if k.release { "release" } else { "press" };
            (
                format!("{sign}{}", k.delta.value()),
                format!("{} {what}", key_name(k.key)),
            )
        }
        Input::Checkpoint(c) => {
            let data = c.data.as_deref().map_or_else(
                || " (no data)".to_owned(),
                |d| {
                    format!(
                        " (checkpoint {}, attempt {})",
                        d.id.value(),
                        d.attempt.value()
                    )
                },
            );
            (
                format!("={}", c.step.value()),
                format!("{} {}{data}", c.kind.id(), c.kind.name()),
            )
        }
    }
}

/// `replay`, read as `loaded`, summed up for a person: a line per fact, then the timeline.
pub fn text(replay: &Replay, loaded: &Loaded) -> String {
    let s = &Summary::of(replay);
    let mut out = String::new();
    let bytes = loaded.text.len();
    let m = &replay.meta;
    let start = if replay.holding {
        "jump held (0)"
    } else {
        "jump not held (-0)"
    };
    let _ = writeln!(out, "bytes        {bytes}");
    if loaded.encoding == Encoding::Base64Gzip {
        let _ = writeln!(
            out,
            "encoding     base64-gzip: inflated from {} bytes",
            loaded.stored_bytes
        );
    }
    let _ = writeln!(out, "start        {start}");
    let _ = writeln!(out, "seed         {}", m.seed.value());
    let _ = writeln!(out, "attempts     {}", m.attempts.value());
    let _ = writeln!(
        out,
        "version      game {}, binary {}, level {}",
        m.game_version,
        m.binary_version,
        m.level_version.value()
    );
    let _ = writeln!(out, "item pers    {}", item_pers_text(&m.item_pers));
    let _ = writeln!(
        out,
        "inputs       {}: {}, {}, {}",
        replay.inputs.len(),
        plural(replay.presses(), "press", "presses"),
        plural(s.releases(), "release", "releases"),
        plural(
            s.loads + s.respawns,
            "checkpoint action",
            "checkpoint actions"
        ),
    );
    for (key, count) in Key::ALL.iter().zip(&s.keys) {
        if count.presses + count.releases > 0 {
            let _ = writeln!(
                out,
                "  {:<10} {}, {}",
                key_name(*key),
                plural(count.presses, "press", "presses"),
                plural(count.releases, "release", "releases"),
            );
        }
    }
    let _ = writeln!(
        out,
        "checkpoints  {}, {}",
        plural(s.loads, "load", "loads"),
        plural(s.respawns, "respawn", "respawns")
    );
    let end = replay.end();
    let _ = writeln!(out, "duration     {end} half-steps ({:.3} s)", seconds(end));
    let _ = writeln!(out, "{:>11} {:>11} {:>10}  input", "Δ", "at", "seconds");
    for t in replay.timeline() {
        let (delta, what) = input_text(&t);
        let _ = writeln!(
            out,
            "{delta:>11} {:>11} {:>10.3}  {what}",
            t.at,
            t.seconds()
        );
    }
    out
}

#[derive(Serialize)]
struct InspectJson {
    bytes: usize,
    /// `plain`, or `base64-gzip` when the string was inflated.
    encoding: &'static str,
    /// The string's length as it came, before inflating.
    stored_bytes: usize,
    holding: bool,
    meta: MetaJson,
    counts: CountsJson,
    presses: usize,
    releases: usize,
    duration: DurationJson,
    checkpoints: CheckpointsJson,
    timeline: Vec<TimedJson>,
}

#[derive(Serialize)]
struct MetaJson {
    seed: i64,
    attempts: i64,
    game_version: String,
    binary_version: String,
    level_version: i64,
    item_pers: ItemPersJson,
}

#[derive(Serialize)]
struct CountsJson {
    p1: PlayerJson,
    p2: PlayerJson,
}

#[derive(Serialize)]
struct PlayerJson {
    jump: KeyCount,
    left: KeyCount,
    right: KeyCount,
    action4: KeyCount,
    action5: KeyCount,
}

impl PlayerJson {
    fn new(k: &[KeyCount]) -> PlayerJson {
        let at = |i: usize| k.get(i).copied().unwrap_or_default();
        PlayerJson {
            jump: at(0),
            left: at(1),
            right: at(2),
            action4: at(3),
            action5: at(4),
        }
    }
}

#[derive(Serialize)]
struct DurationJson {
    half_steps: u64,
    seconds: f64,
}

#[derive(Serialize)]
struct CheckpointsJson {
    loads: usize,
    respawns: usize,
    list: Vec<CheckpointJson>,
}

#[derive(Serialize)]
struct CheckpointJson {
    index: usize,
    kind: &'static str,
    step: u32,
    seconds: f64,
    data: Option<CheckpointDataJson>,
}

#[derive(Serialize)]
struct CheckpointDataJson {
    seed: i64,
    id: i64,
    attempt: i64,
    ticks: i64,
    clicks: i64,
    points: i64,
    time: i64,
    time_seconds: f64,
    item_pers: ItemPersJson,
}

#[derive(Serialize)]
struct ItemPersJson {
    at: bool,
    items: Vec<ItemJson>,
    timers: Vec<TimerJson>,
}

#[derive(Serialize)]
struct ItemJson {
    id: i64,
    value: String,
}

#[derive(Serialize)]
struct TimerJson {
    id: i64,
    timer_id: i64,
    value: String,
    running: bool,
    time_mod: String,
    ignore_timewarp: bool,
    stop_time: String,
    stop_time_enabled: bool,
    target_group: i64,
    runtime_id: i64,
    control_id: i64,
    paused: bool,
    remaps: Option<RemapsJson>,
}

#[derive(Serialize)]
struct RemapsJson {
    ids: Vec<u32>,
    trigger: u32,
}

#[derive(Serialize)]
struct TimedJson {
    index: usize,
    /// `press`, `release`, `load` or `respawn`.
    action: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    delta: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    step: Option<u32>,
    at: u64,
    seconds: f64,
    id: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    player: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    key: Option<&'static str>,
}

impl InspectJson {
    fn new(replay: &Replay, loaded: &Loaded, s: &Summary) -> InspectJson {
        let m = &replay.meta;
        let end = replay.end();
        InspectJson {
            bytes: loaded.text.len(),
            encoding: loaded.encoding.name(),
            stored_bytes: loaded.stored_bytes,
            holding: replay.holding,
            meta: MetaJson {
                seed: m.seed.value(),
                attempts: m.attempts.value(),
                game_version: m.game_version.to_string(),
                binary_version: m.binary_version.to_string(),
                level_version: m.level_version.value(),
                item_pers: item_pers_json(&m.item_pers),
            },
            counts: CountsJson {
                p1: PlayerJson::new(&s.keys[..5]),
                p2: PlayerJson::new(&s.keys[5..]),
            },
            presses: replay.presses(),
            releases: s.releases(),
            duration: DurationJson {
                half_steps: end,
                seconds: seconds(end),
            },
            checkpoints: CheckpointsJson {
                loads: s.loads,
                respawns: s.respawns,
                list: replay
                    .timeline()
                    .filter_map(|t| match t.input {
                        Input::Checkpoint(c) => Some(checkpoint_json(t.index, c)),
                        Input::Key(_) => None,
                    })
                    .collect(),
            },
            timeline: replay.timeline().map(|t| timed_json(&t)).collect(),
        }
    }
}

fn timed_json(t: &Timed<'_>) -> TimedJson {
    let base = TimedJson {
        index: t.index,
        action: "",
        delta: None,
        step: None,
        at: t.at,
        seconds: t.seconds(),
        id: 0,
        player: None,
        key: None,
    };
    match t.input {
        Input::Key(k) => TimedJson {
            action: if k.release { "release" } else { "press" },
            delta: Some(k.delta.value()),
            id: k.key.id(),
            player: Some(k.key.player()),
            key: Some(k.key.button()),
            ..base
        },
        Input::Checkpoint(c) => TimedJson {
            action: c.kind.name(),
            step: Some(c.step.value()),
            id: c.kind.id(),
            ..base
        },
    }
}

fn checkpoint_json(index: usize, c: &Checkpoint) -> CheckpointJson {
    CheckpointJson {
        index,
        kind: c.kind.name(),
        step: c.step.value(),
        seconds: seconds(u64::from(c.step.value())),
        data: c.data.as_deref().map(checkpoint_data_json),
    }
}

fn checkpoint_data_json(d: &CheckpointData) -> CheckpointDataJson {
    CheckpointDataJson {
        seed: d.seed.value(),
        id: d.id.value(),
        attempt: d.attempt.value(),
        ticks: d.ticks.value(),
        clicks: d.clicks.value(),
        points: d.points.value(),
        time: d.time.value(),
        time_seconds: d.time_seconds(),
        item_pers: item_pers_json(&d.item_pers),
    }
}

fn item_pers_json(d: &ItemPersData) -> ItemPersJson {
    ItemPersJson {
        at: d.at,
        items: d
            .items()
            .iter()
            .map(|i| ItemJson {
                id: i.id.value(),
                value: i.value.to_string(),
            })
            .collect(),
        timers: d
            .timers
            .iter()
            .map(|t| timer_json(t.id.value(), &t.data))
            .collect(),
    }
}

fn timer_json(id: i64, t: &TimerData) -> TimerJson {
    TimerJson {
        id,
        timer_id: t.id.value(),
        value: t.value.to_string(),
        running: t.running,
        time_mod: t.time_mod.to_string(),
        ignore_timewarp: t.ignore_timewarp,
        stop_time: t.stop_time.to_string(),
        stop_time_enabled: t.stop_time_enabled,
        target_group: t.target_group.value(),
        runtime_id: t.runtime_id.value(),
        control_id: t.control_id.value(),
        paused: t.paused,
        remaps: t.remaps.as_ref().map(|r| RemapsJson {
            ids: r.ids.iter().map(|i| i.value()).collect(),
            trigger: r.trigger.value(),
        }),
    }
}
