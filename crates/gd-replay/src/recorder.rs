//! Building a replay string the way the game does while a level is played.

use core::fmt;

use crate::input::{Checkpoint, CheckpointData, CheckpointKind, Input, Key, KeyInput};
use crate::number::Uint;
use crate::{Metadata, Replay};

/// Records a run: each input at its absolute half-step, written as the game writes it.
///
/// Key inputs become deltas from the previous input; checkpoint actions keep their
/// absolute step, and the next input counts from it. [`Recorder::respawn`] first removes
/// every input recorded after the checkpoint's step, so the replay only holds the path
/// that went on.
///
/// Times never go back except through a respawn, so the recorded inputs are always in
/// order of their half-steps; that is what lets a respawn cut the list in one place.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    holding: bool,
    inputs: Vec<Input>,
    /// The absolute half-step of each of `inputs`, never decreasing.
    times: Vec<u64>,
}

/// Why the [`Recorder`] refused an input. Nothing was recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RecordError {
    /// The input is earlier than the previous one: only a respawn goes back in time.
    Backwards {
        /// The input's half-step.
        at: u64,
        /// The previous input's.
        last: u64,
    },
    /// A delta or a checkpoint's step past `u32`, which the format's numbers can't hold.
    Range {
        /// The input's half-step.
        at: u64,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Backwards { at, last } => write!(
                f,
                "an input at half-step {at} comes before the previous one at {last}"
            ),
            RecordError::Range { at } => {
                write!(f, "an input at half-step {at} is past what a u32 counts")
            }
        }
    }
}

impl std::error::Error for RecordError {}

impl Recorder {
    /// A run that starts with jump held (`0`) or not (`-0`).
    pub fn new(holding: bool) -> Recorder {
        Recorder {
            holding,
            ..Recorder::default()
        }
    }

    /// `key` goes down at half-step `at`.
    pub fn press(&mut self, at: u64, key: Key) -> Result<(), RecordError> {
        self.key(at, false, key)
    }

    /// `key` comes up at half-step `at`.
    pub fn release(&mut self, at: u64, key: Key) -> Result<(), RecordError> {
        self.key(at, true, key)
    }

    /// A checkpoint load (98) at half-step `step`. The spec says the game doesn't use
    /// it, so it is recorded like any other input: no later than the previous one, and
    /// nothing removed.
    pub fn load(&mut self, step: u64, data: CheckpointData) -> Result<(), RecordError> {
        self.last_before(step)?;
        self.checkpoint(CheckpointKind::Load, step, data)
    }

    /// A respawn (99) at the checkpoint activated at half-step `step`: every input after
    /// `step` is removed (one exactly at `step` stays), then the action is added.
    pub fn respawn(&mut self, step: u64, data: CheckpointData) -> Result<(), RecordError> {
        // Refuse before removing anything: an error records nothing.
        u32::try_from(step).map_err(|_| RecordError::Range { at: step })?;
        let keep = self.times.partition_point(|&t| t <= step);
        self.inputs.truncate(keep);
        self.times.truncate(keep);
        self.checkpoint(CheckpointKind::Respawn, step, data)
    }

    /// The inputs recorded so far.
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }

    /// The half-step of the last input recorded (0 before any).
    pub fn last(&self) -> u64 {
        self.times.last().copied().unwrap_or(0)
    }

    /// The replay string's model, with `meta` after the `#`.
    pub fn finish(self, meta: Metadata) -> Replay {
        Replay {
            holding: self.holding,
            inputs: self.inputs,
            meta,
        }
    }

    fn last_before(&self, at: u64) -> Result<u64, RecordError> {
        let last = self.last();
        if at < last {
            return Err(RecordError::Backwards { at, last });
        }
        Ok(last)
    }

    fn key(&mut self, at: u64, release: bool, key: Key) -> Result<(), RecordError> {
        let last = self.last_before(at)?;
        let delta = u32::try_from(at - last).map_err(|_| RecordError::Range { at })?;
        let input = Input::Key(KeyInput {
            delta: Uint::new(delta),
            release,
            key,
        });
        self.push(input, at);
        Ok(())
    }

    fn checkpoint(
        &mut self,
        kind: CheckpointKind,
        step: u64,
        data: CheckpointData,
    ) -> Result<(), RecordError> {
        let step32 = u32::try_from(step).map_err(|_| RecordError::Range { at: step })?;
        let input = Input::Checkpoint(Checkpoint {
            kind,
            step: Uint::new(step32),
            data: Some(Box::new(data)),
        });
        self.push(input, step);
        Ok(())
    }

    fn push(&mut self, input: Input, at: u64) {
        self.inputs.push(input);
        self.times.push(at);
    }
}
