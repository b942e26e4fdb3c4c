//! Why a string was refused as a replay string.

use core::fmt;

/// Why a string is not a 2.208 replay string. Every variant says where (`offset`, the
/// byte the parser stood at, from 0) and what would have been accepted there
/// (`expected`, in words with the bytes in backticks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseError {
    /// A byte the format doesn't allow at `offset`.
    Syntax {
        /// Where the byte is.
        offset: usize,
        /// What could have been there.
        expected: &'static str,
    },
    /// The string stops at `offset` (its length) before the format is complete.
    End {
        /// The string's length.
        offset: usize,
        /// What should have come next.
        expected: &'static str,
    },
    /// A number too big for its field (a half-step count past `u32`, a seed past `i64`),
    /// or with more leading zeros than a `u32` counts.
    Number {
        /// Where the number starts.
        offset: usize,
        /// The field's range.
        expected: &'static str,
    },
    /// An input key that isn't in the table: `,1`, `,11`, `,07`, and `,0` (P1 jump is
    /// written without a key).
    Key {
        /// Where the key's digits start.
        offset: usize,
        /// The keys there are.
        expected: &'static str,
    },
    /// A checkpoint action (98, 99) without its `-`: the game always writes them as
    /// released.
    PressedCheckpoint {
        /// Where the action starts.
        offset: usize,
        /// `-` before the step.
        expected: &'static str,
    },
    /// Item pers data that is only `@`: the spec writes nothing when both parts are empty.
    LoneAt {
        /// Where the `@` is.
        offset: usize,
        /// Items before it or timers after it.
        expected: &'static str,
    },
}

impl ParseError {
    /// The byte the error is at.
    pub const fn offset(self) -> usize {
        match self {
            ParseError::Syntax { offset, .. }
            | ParseError::End { offset, .. }
            | ParseError::Number { offset, .. }
            | ParseError::Key { offset, .. }
            | ParseError::PressedCheckpoint { offset, .. }
            | ParseError::LoneAt { offset, .. } => offset,
        }
    }

    /// What would have been accepted at [`ParseError::offset`].
    pub const fn expected(self) -> &'static str {
        match self {
            ParseError::Syntax { expected, .. }
            | ParseError::End { expected, .. }
            | ParseError::Number { expected, .. }
            | ParseError::Key { expected, .. }
            | ParseError::PressedCheckpoint { expected, .. }
            | ParseError::LoneAt { expected, .. } => expected,
        }
    }

    /// The variant's name, as the CLI's JSON carries it (`"Syntax"`).
    pub const fn kind(self) -> &'static str {
        match self {
            ParseError::Syntax { .. } => "Syntax",
            ParseError::End { .. } => "End",
            ParseError::Number { .. } => "Number",
            ParseError::Key { .. } => "Key",
            ParseError::PressedCheckpoint { .. } => "PressedCheckpoint",
            ParseError::LoneAt { .. } => "LoneAt",
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            ParseError::Syntax { .. } => "unexpected byte",
            ParseError::End { .. } => "the string ends",
            ParseError::Number { .. } => "number out of range",
            ParseError::Key { .. } => "unknown input key",
            ParseError::PressedCheckpoint { .. } => "checkpoint action written as a press",
            ParseError::LoneAt { .. } => "item pers data is a lone `@`",
        };
        write!(
            f,
            "{what} at offset {}: expected {}",
            self.offset(),
            self.expected()
        )
    }
}

impl std::error::Error for ParseError {}
