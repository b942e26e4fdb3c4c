//! typepper's engine: the rules of the game and replay format 1, pure and deterministic.
//!
//! Every round of typepper is a replay: a mode, a seed and timed inputs. Played through
//! this crate, a replay is the round again — the same text, heat and score on any
//! machine, native or wasm. The server scores submissions this way, and share links,
//! boards and history play rounds this way.
//!
//! How it works:
//! 1. [`Round::new`] takes a [`Mode`] and a seed; the seed draws the text from a fixed
//!    word list with SplitMix64 ([`rng`]), so the same seed is the same words forever.
//! 2. The shell feeds [`Round::apply`] each keystroke as `(ms since the round started,
//!    Op)`; time is an argument, never read from a clock. Each call returns [`Effects`]
//!    (a word committed, a level up, the end) for the shell to draw or play.
//! 3. [`Round::view`] says what to draw at any moment; [`Round::score`] what the round
//!    scored once it ends; [`Round::replay`] is the round as [`Replay`] bytes.
//! 4. [`Replay::play`] does all of it for a recorded round and refuses what the rules
//!    refuse. The rules are in [`rules`], in plain words.
//!
//! ```
//! use typepper_engine::{Mode, Op, Replay, Round};
//!
//! let mut round = Round::new(Mode::BLITZ_15, 42);
//! let first = round.view(0).word(0).unwrap().target().to_owned();
//! let mut t = 0;
//! for c in first.chars().chain([' ']) {
//!     round.apply(t, Op::Char(c)).unwrap();
//!     t += 150;
//! }
//! let bytes = round.replay().encode();
//! let (_, score) = Replay::decode(&bytes).unwrap().play().unwrap();
//! assert_eq!(score.words, 1);
//! assert_eq!(score.duration_ms, 15_000);
//! println!("{}", score.headline()); // e.g. "3 wpm"
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// Rules are integer arithmetic; a float would make a score depend on the machine.
#![deny(clippy::float_arithmetic)]

mod heat;
pub mod hex;
mod mode;
pub mod quotes;
pub mod replay;
pub mod rng;
mod round;
pub mod said;
mod score;
pub mod synth;
pub mod text;
mod version;
mod view;
pub mod words;

#[doc = include_str!("../RULES.md")]
pub mod rules {}

pub use heat::Tier;
pub use mode::{
    Base, Blitz, DRILL_MAX, DRILL_SECS, Drill, DrillPool, Language, Mode, ModeError,
    PURSUIT_LEVELS, Prose, QuoteNo, StartLevel, Strict, Unit, WordCount,
};
pub use replay::{DecodeError, Header, Input, MAX_BYTES, MAX_TEXT_CHARS, Op, Replay, TextFault};
pub use round::{
    Effects, FLAME_MAX_LEAD, FLAME_START_GAP, LOOKAHEAD, MAX_EXTRA, MAX_SAMPLES, PlayError,
    Refusal, Round, STEPS_PER_CHAR, WORDS_PER_LEVEL, flame_wpm,
};
pub use score::{CharCounts, Decimal, Headline, Hundredths, Sample, Score};
pub use version::Rules;
pub use view::{CharState, Glyph, View, WordStatus, WordView};

/// The rules' version new rounds record ([`Rules::NEWEST`]'s). Any change to what a
/// replay plays out to — text, heat or score — is a new version, beside the old ones: a
/// replay is played by the version in its header, forever ([`Rules`]). A new mode is not
/// such a change when every replay of the old modes plays out as before: DRILL came in
/// under version 1 (RULES.md, "DRILL"), and a build without it refuses its replays by
/// mode.
pub const VERSION: u32 = Rules::NEWEST.version();
