//! A lossless codec for Geometry Dash 2.208 replay strings, and a recorder that writes
//! them as the game does.
//!
//! A replay string (`k34`, `k119`, `k120` in the save file; `lrs` on upload) is the
//! inputs of a local level's verifying run and six values about it. This crate reads one
//! into a typed [`Replay`], writes it back byte for byte, says when each input happened,
//! and builds new ones. The format is specified in the repository's `docs/spec/gd-replay-string.md`.
//!
//! How it works:
//! 1. [`Replay::parse`] splits the string at `#` into the inputs and the [`Metadata`],
//!    reads the leading `0` / `-0` as [`Replay::holding`], and each `;`-separated input
//!    as a [`KeyInput`] (a half-step delta, press or release, a [`Key`]) or a
//!    [`Checkpoint`] (an absolute step and optional [`CheckpointData`]). Item pers data
//!    becomes [`ItemPersData`]. The first byte that doesn't fit is a [`ParseError`] with
//!    its offset and what would have fit.
//! 2. Every number keeps its spelling ([`Int`], [`Uint`], [`Decimal`]), so
//!    [`Replay::write`] of a parsed string is that string: leading zeros, `-0` and
//!    decimal digits come back as they were.
//! 3. [`Replay::timeline`] gives each input its absolute half-step: deltas add up, and
//!    a checkpoint's step is absolute and starts the count again. [`seconds`] turns
//!    half-steps into seconds.
//! 4. [`Recorder`] takes presses, releases and checkpoint actions at absolute half-steps
//!    and writes the deltas; a respawn first drops every input after the checkpoint's
//!    step, as the game does.
//!
//! ```
//! use gd_replay::{Key, Metadata, Recorder, Replay, seconds};
//!
//! let text = "0;460;-120;340,7;-60,3#1234,1,22,47,1,";
//! let replay = Replay::parse(text)?;
//! assert_eq!(replay.write(), text);
//! let times: Vec<u64> = replay.timeline().map(|t| t.at).collect();
//! assert_eq!(times, [460, 580, 920, 980]);
//! assert_eq!(seconds(replay.end()), 980.0 / 480.0);
//!
//! let mut rec = Recorder::new(true);
//! rec.press(460, Key::P1Jump)?;
//! rec.release(580, Key::P1Jump)?;
//! rec.press(920, Key::P2Left)?;
//! rec.release(980, Key::P1Right)?;
//! let meta = Metadata::new(1234, 1, 22, 47, 1);
//! assert_eq!(rec.finish(meta), replay);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Decisions where the spec leaves room
//!
//! The spec decides what is valid; where it says nothing, this crate chose, and keeps
//! whatever the choice lets through so that writing gives the same bytes.
//!
//! - **The leading `0` / `-0`.** The spec says it tells whether the player holds jump on
//!   the first half-step but not which is which. By the sign rule of every other input,
//!   `0` is a press ([`Replay::holding`] true) and `-0` a release. It is exactly `0` or
//!   `-0`: no key, no leading zeros. It is not in [`Replay::inputs`].
//! - **No trailing `;`.** Inputs are "separated by `;`", and the spec names the one
//!   trailing separator it has (checkpoint data's `,`), so a `;` before `#` is refused.
//! - **Leading zeros are accepted** in every number but input keys and checkpoint data
//!   keys, and kept ([`Int::zeros`]); so is `-0` in signed fields
//!   ([`Int::is_minus_zero`]). The spec doesn't say how numbers are spelled, and any
//!   integer reader takes `007` as 7, so refusing it would only lose replays. No `+`
//!   sign, no spaces.
//! - **Keys are plain**: `,7`, never `,07`, and never `,0` (P1 jump has no `,<id>`) or
//!   `,1`. Only key IDs in the table are accepted.
//! - **Checkpoint actions must have their `-`** ("always written as released"); a
//!   pressed 98 or 99 is [`ParseError::PressedCheckpoint`]. Their `:` data is optional
//!   ("when metadata is present"); on any other input `:` is refused ("currently only
//!   checkpoints store metadata").
//! - **Checkpoint data is all eight keys, in order 1 to 8, with the trailing `,`**, as
//!   the spec's template writes it. A missing, repeated or reordered key is refused.
//! - **Half-step counts and steps are `u32`**; absolute times add up in `u64`. Integer
//!   fields (seeds, attempts, IDs, ticks, clicks, points, time) are `i64`, which holds
//!   any C `int` the game writes and some headroom.
//! - **gameVersion and binaryVersion are [`Decimal`]s.** The game sends integers
//!   (`22`, `47`), but the spec only says "the same as what the game sends", and a
//!   `2.208`-style value must not make a whole replay unreadable. levelVersion is an
//!   integer. Item values, timer values, time mods and stop times are [`Decimal`]s too:
//!   the spec gives them no type and the game's timers are floats.
//! - **Item pers data** is `items@timers`, `items@`, `@timers` (the nominal form with
//!   no items, accepted though the game doesn't write it), the bug's bare `timers`, bare
//!   `items`, or empty. Whether the `@` was written is kept ([`ItemPersData::at`]).
//!   Without an `@` there is one part, and which one is certain: timers always hold `&`,
//!   items never do. Whichever way the game's code leaves out the `@` (when there are no
//!   items, or whenever a part is empty), every string it can write has exactly one
//!   reading, and is read. Items and timers with no `@` between them have none, and are
//!   refused. A lone `@` is refused ([`ParseError::LoneAt`]): "the string is empty if
//!   both parts would be empty".
//! - **Strings as the game stores them**, URL-safe base64 of gzip data (they start
//!   `H4sI`), are recognised and inflated by [`stored::decode`], and written that way
//!   by [`stored::encode`]. See [`stored`].
//! - **Timers have exactly twelve fields.** The four flags are exactly `0` or `1`. The
//!   timer ID before `|` and the one inside the data are both kept, even if they differ.
//!   Remaps are empty, `-runtimeID`, or `id_…_-runtimeID` (remap IDs unsigned).
//! - **Nothing around the string**: no whitespace, no trailing newline (the CLI strips
//!   one a file ends with and writes it back), and bytes that aren't UTF-8 are refused
//!   where they stand ([`Replay::parse_bytes`]).
//! - **Only syntax is checked**, not plausibility: an item with value 0, a checkpoint
//!   ID that goes down, or a release of a key never pressed all parse.
//! - **Time**: the spec counts "240 TPS half-steps (or 480 TPS steps)": the game steps
//!   240 times a second and a half-step is half of one, so [`HALF_STEPS_PER_SECOND`] is
//!   480.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod error;
mod input;
mod item_pers;
mod number;
mod parse;
mod recorder;
pub mod stored;
mod write;

use core::fmt;
use core::str::FromStr;

pub use error::ParseError;
pub use input::{Checkpoint, CheckpointData, CheckpointKind, Input, Key, KeyInput};
pub use item_pers::{ItemPersData, PersItem, PersTimer, Remaps, TimerData};
pub use number::{Decimal, DecimalError, Int, Uint};
pub use recorder::{RecordError, Recorder};

/// Half-steps in a second of level time: the game steps at 240 TPS, and inputs are
/// timed to the half-step.
pub const HALF_STEPS_PER_SECOND: u64 = 480;

/// Half-steps as seconds of level time.
pub fn seconds(half_steps: u64) -> f64 {
    half_steps as f64 / HALF_STEPS_PER_SECOND as f64
}

/// A whole replay string: the inputs before `#` and the metadata after it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Replay {
    /// The leading `0` (true: jump held on the first half-step) or `-0` (false).
    pub holding: bool,
    /// The inputs after the leading one, in order.
    pub inputs: Vec<Input>,
    /// The six values after `#`.
    pub meta: Metadata,
}

/// `randomSeed,attempts,gameVersion,binaryVersion,levelVersion,itemPersData`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Metadata {
    /// The seed of random triggers on the replay's attempt.
    pub seed: Int,
    /// How many attempts the replay took (not the level's total).
    pub attempts: Int,
    /// The game version, as the game sends it to the servers (`22`).
    pub game_version: Decimal,
    /// The binary version, as the game sends it to the servers (`47`).
    pub binary_version: Decimal,
    /// The level's version at the time of the replay.
    pub level_version: Int,
    /// Persistent items and timers at the start of the replay.
    pub item_pers: ItemPersData,
}

impl Metadata {
    /// Metadata with every number written plainly and no item pers data.
    pub fn new(
        seed: i64,
        attempts: i64,
        game_version: i64,
        binary_version: i64,
        level_version: i64,
    ) -> Metadata {
        Metadata {
            seed: Int::new(seed),
            attempts: Int::new(attempts),
            game_version: Decimal::from_int(game_version),
            binary_version: Decimal::from_int(binary_version),
            level_version: Int::new(level_version),
            item_pers: ItemPersData::default(),
        }
    }
}

/// An input and the absolute half-step it happens at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timed<'a> {
    /// Its place in [`Replay::inputs`].
    pub index: usize,
    /// Half-steps from the start of the level.
    pub at: u64,
    /// The input.
    pub input: &'a Input,
}

impl Timed<'_> {
    /// [`Timed::at`] in seconds.
    pub fn seconds(&self) -> f64 {
        seconds(self.at)
    }
}

impl Replay {
    /// Reads a replay string; the first byte that doesn't fit the format is an error.
    pub fn parse(text: &str) -> Result<Replay, ParseError> {
        parse::replay(text)
    }

    /// Reads a replay string from bytes. The format is ASCII, so a byte that isn't UTF-8
    /// is refused where it stands, with what would have fit there.
    pub fn parse_bytes(bytes: &[u8]) -> Result<Replay, ParseError> {
        let valid = match core::str::from_utf8(bytes) {
            Ok(text) => return Replay::parse(text),
            Err(e) => e.valid_up_to(),
        };
        // What the parser wants where the text stops is what the bad byte failed to be.
        let prefix = core::str::from_utf8(&bytes[..valid]).unwrap_or_default();
        match Replay::parse(prefix) {
            Err(ParseError::End { offset, expected }) => {
                Err(ParseError::Syntax { offset, expected })
            }
            Err(e) => Err(e),
            Ok(_) => Err(ParseError::Syntax {
                offset: valid,
                expected: "the end of the string (item pers data is the last of six values)",
            }),
        }
    }

    /// The replay string: for a parsed replay, exactly the string it came from.
    pub fn write(&self) -> String {
        self.to_string()
    }

    /// Every input with its absolute half-step. A key input happens its delta after the
    /// previous input; a checkpoint action at its own step, from which the next input
    /// counts. The leading `0` / `-0` is at half-step 0.
    pub fn timeline(&self) -> impl Iterator<Item = Timed<'_>> + '_ {
        let mut at = 0u64;
        self.inputs.iter().enumerate().map(move |(index, input)| {
            at = match input {
                // Saturating: only 2^32 inputs of the largest delta could reach it.
                Input::Key(k) => at.saturating_add(u64::from(k.delta.value())),
                Input::Checkpoint(c) => u64::from(c.step.value()),
            };
            Timed { index, at, input }
        })
    }

    /// The absolute half-step of the last input (0 with none): where the recorded path
    /// ends.
    pub fn end(&self) -> u64 {
        self.timeline().last().map_or(0, |t| t.at)
    }

    /// How many key inputs are presses (the leading `0` is not counted).
    pub fn presses(&self) -> usize {
        self.inputs
            .iter()
            .filter(|i| matches!(i, Input::Key(k) if !k.release))
            .count()
    }

    /// The checkpoint actions, with their absolute half-steps.
    pub fn checkpoints(&self) -> impl Iterator<Item = (u64, &Checkpoint)> + '_ {
        self.timeline().filter_map(|t| match t.input {
            Input::Checkpoint(c) => Some((t.at, c)),
            Input::Key(_) => None,
        })
    }
}

impl fmt::Display for Replay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write::replay(self, f)
    }
}

impl FromStr for Replay {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Replay, ParseError> {
        Replay::parse(text)
    }
}

/// Item pers data on its own, as in the metadata's last value.
impl fmt::Display for ItemPersData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write::item_pers(self, f)
    }
}

/// Item pers data on its own; offsets in errors count from its first byte.
impl FromStr for ItemPersData {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<ItemPersData, ParseError> {
        parse::item_pers(text)
    }
}
